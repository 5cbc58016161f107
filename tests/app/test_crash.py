"""Crash reporting: an exception escaping a slot is logged and shown in a dialog,
and the window and the battle carry on."""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QMessageLogContext, QtMsgType
from PySide6.QtWidgets import QMainWindow, QMessageBox, QPushButton, QVBoxLayout, QWidget

from app import crash, user_dirs
from app.controller import BattleController
from rules.battle.commands import TurnCombatant
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult


@dataclass(frozen=True)
class ExplodingCommand(Command):
    """A command with a bug in it (not a rules refusal)."""

    def apply(
        self, state: BattleState, rng: random.Random, ruleset: BattleRuleset
    ) -> CommandResult:
        raise ZeroDivisionError("a bug in a command")


class Shown:
    """A stand-in for the crash dialog."""

    def __init__(self) -> None:
        self.reports: list[crash.CrashReport] = []
        self.counts: list[int] = []
        self.parents: list[QWidget | None] = []

    def __call__(self, report: crash.CrashReport, count: int, parent: QWidget | None) -> None:
        self.reports.append(report)
        self.counts.append(count)
        self.parents.append(parent)


@pytest.fixture
def logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv(user_dirs.HOME_ENV, str(tmp_path / "home"))
    path = user_dirs.setup_logging(console=False)
    yield path
    user_dirs.stop_logging()


@pytest.fixture
def window(qtbot, controller: BattleController):
    """A small window with two buttons: one runs a buggy command, one a good one."""
    win = QMainWindow()
    body = QWidget()
    layout = QVBoxLayout(body)
    win.buggy = QPushButton("Buggy")
    win.good = QPushButton("Turn")
    layout.addWidget(win.buggy)
    layout.addWidget(win.good)
    win.setCentralWidget(body)
    first = controller.state.combatants[0]
    win.buggy.clicked.connect(lambda: controller.execute(ExplodingCommand()))
    win.good.clicked.connect(
        lambda: controller.execute(TurnCombatant(first.id, first.facing.turned(1)))
    )
    qtbot.addWidget(win)
    win.show()
    qtbot.waitExposed(win)
    return win


@pytest.fixture
def shown():
    dialog = Shown()
    yield dialog
    crash.uninstall_crash_handler()


@pytest.mark.qt_no_exception_capture
def test_exception_in_a_slot_shows_the_dialog_and_the_battle_goes_on(
    qtbot, window, controller: BattleController, shown: Shown, logged: Path
) -> None:
    from PySide6.QtCore import Qt

    crash.install_crash_handler(window, show_dialog=shown)
    before = controller.state
    qtbot.mouseClick(window.buggy, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(shown.reports) == 1)

    report = shown.reports[0]
    assert "ZeroDivisionError: a bug in a command" in report.summary
    assert "ExplodingCommand" in report.details  # the traceback
    assert report.log_file == logged
    assert shown.parents == [window]
    # the battle did not change, and the log has the traceback
    assert controller.state is before
    assert controller.battle.commands == ()
    for handler in logging.getLogger().handlers:
        handler.flush()
    text = logged.read_text(encoding="utf-8")
    assert "Unhandled exception" in text and "a bug in a command" in text

    # still alive and usable: the next command works
    assert window.isVisible()
    qtbot.mouseClick(window.good, Qt.MouseButton.LeftButton)
    assert controller.state is not before
    assert len(controller.battle.commands) == 1


@pytest.mark.qt_no_exception_capture
def test_the_same_error_again_at_once_is_logged_not_shown_again(
    qtbot, window, shown: Shown, logged: Path
) -> None:
    from PySide6.QtCore import Qt

    crash.install_crash_handler(window, show_dialog=shown)
    for _ in range(3):
        qtbot.mouseClick(window.buggy, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(shown.reports) == 1)
    qtbot.wait(50)
    assert len(shown.reports) == 1
    assert len(crash._reporter.reports) == 3  # type: ignore[union-attr]


def test_an_exception_in_a_thread_is_reported_in_the_gui_thread(qtbot, shown: Shown) -> None:
    crash.install_crash_handler(None, show_dialog=shown)

    def fail() -> None:
        raise RuntimeError("worker failed")

    worker = threading.Thread(target=fail, name="worker")
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(shown.reports) == 1)
    assert shown.reports[0].thread == "worker"
    assert "RuntimeError: worker failed" in shown.reports[0].summary


def test_keyboard_interrupt_goes_to_the_previous_hook(monkeypatch, shown: Shown) -> None:
    import sys

    seen = []
    monkeypatch.setattr(sys, "excepthook", lambda *args: seen.append(args[0]))
    reporter = crash.install_crash_handler(None, show_dialog=shown)
    reporter.excepthook(KeyboardInterrupt, KeyboardInterrupt(), None)
    assert seen == [KeyboardInterrupt]
    assert shown.reports == []


def test_install_and_uninstall_restore_the_hooks(shown: Shown) -> None:
    import sys

    before = (sys.excepthook, threading.excepthook)
    reporter = crash.install_crash_handler(None, show_dialog=shown)
    assert sys.excepthook == reporter.excepthook
    crash.uninstall_crash_handler()
    assert (sys.excepthook, threading.excepthook) == before


def test_the_real_dialog_names_the_error_and_the_log_file(
    qtbot, monkeypatch, logged: Path
) -> None:
    boxes: list[QMessageBox] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: boxes.append(box) or 0)
    report = crash.CrashReport("ValueError: bad", "Traceback ...\nValueError: bad\n", logged)
    crash.show_crash_dialog(report, 2, None)
    (box,) = boxes
    assert "still running" in box.text()
    assert "ValueError: bad" in box.informativeText()
    assert str(logged) in box.informativeText()
    assert "2 errors" in box.informativeText()
    assert box.detailedText().startswith("Traceback")


def test_qt_messages_go_to_the_log(caplog) -> None:
    context = QMessageLogContext()
    with caplog.at_level(logging.DEBUG, logger="qt"):
        crash.qt_message_handler(QtMsgType.QtWarningMsg, context, "a Qt warning")
        crash.qt_message_handler(QtMsgType.QtCriticalMsg, context, "a Qt critical")
    levels = {r.getMessage(): r.levelno for r in caplog.records}
    assert levels["[qt] a Qt warning"] == logging.WARNING
    assert levels["[qt] a Qt critical"] == logging.ERROR
