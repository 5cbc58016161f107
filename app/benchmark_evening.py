"""The long evening (issue 25): a 200-round auto-battle in the offscreen window,
timed as the GM would feel it (``main.py --benchmark``'s ``long_evening_*`` keys).

The battle: the seed 000 demo, its turn order rolled, with every fighter's hit
points raised to ``EVENING_HIT_POINTS`` so that nobody can finish anybody and the
fight lasts its 200 rounds; every fighter is played by the aggressive policy,
set as the GM sets it (a ``SetControllers`` command). The window (1366x768, the
laptop size) runs Battle > Auto-play > Run to the End at the instant speed, and
the event loop turns until the round limit passes.

- ``long_evening_max_repaint_ms``: the slowest repaint of the window, each whole
  frame as Qt paints it (the top-level window's ``UpdateRequest``: the map, the
  log and every pane whose look changed).
- ``long_evening_max_gui_action_ms``: the longest the GUI thread was held by one
  decision (``AutoPlay.gui_ms``: its commands run through the controller, with
  every pane's update and the autosave); the decisions themselves are worked out
  on the worker thread.
- The log is checked to follow: every command's rows held, the last in view.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, replace

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QMessageLogContext,
    QObject,
    QSettings,
    QTemporaryDir,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication, QWidget

from app.autoplay_menu import Goal
from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from rules.battle.battle import Battle
from rules.battle.control import SetControllers
from rules.play.policies import AGGRESSIVE

EVENING_ROUNDS = 200
EVENING_HIT_POINTS = 100_000  # nobody is taken out in 200 rounds
WINDOW_WIDTH, WINDOW_HEIGHT = 1366, 768
FRAME_BUDGET_MS = 16.0


def evening_battle(seed: int) -> Battle:
    """The seed 000 demo with every fighter's hit points out of reach, every one
    of them played by the aggressive policy."""
    battle = load_demo_battle(seed, turn_order=True)
    state = battle.state
    tough = tuple(
        replace(
            c,
            fighter=replace(c.fighter, hit_points=EVENING_HIT_POINTS),
            hp=EVENING_HIT_POINTS,
        )
        for c in state.combatants
    )
    battle = Battle(state.with_combatants(*tough), seed, battle.rulesets)
    battle.execute(SetControllers(tuple((c.id, AGGRESSIVE) for c in tough)))
    return battle


class FrameTimer(QObject):
    """Times each frame the window paints: the top-level window's
    ``UpdateRequest``, handled here by the window itself and timed around it."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self.frames_ms: list[float] = []
        # The GUI thread's own CPU time in each frame: what the frame costs with
        # no other process or thread taking the cores (a shared machine's noise).
        self.frames_cpu_ms: list[float] = []
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.UpdateRequest:
            started, cpu = time.perf_counter(), time.thread_time()
            self._window.event(event)
            self.frames_ms.append((time.perf_counter() - started) * 1000.0)
            self.frames_cpu_ms.append((time.thread_time() - cpu) * 1000.0)
            return True
        return False


@dataclass(frozen=True)
class Evening:
    """What the long evening measured."""

    rounds: int
    commands: int
    decisions: int
    log_rows: int
    log_follows: bool
    frames_ms: tuple[float, ...]
    frames_cpu_ms: tuple[float, ...]
    gui_ms: tuple[float, ...]
    gui_cpu_ms: tuple[float, ...]
    seconds: float

    @property
    def max_repaint_ms(self) -> float:
        return max(self.frames_ms, default=0.0)

    @property
    def max_gui_action_ms(self) -> float:
        return max(self.gui_ms, default=0.0)

    @property
    def frames_over_budget(self) -> int:
        return sum(1 for ms in self.frames_ms if ms > FRAME_BUDGET_MS)


def log_follows(window: MainWindow) -> bool:
    """The log shows its last row and holds a row for every command."""
    pane = window.log_pane
    view = pane.view
    model = view.model()
    count = model.rowCount()
    if count == 0:
        return False
    last = model.index(count - 1, 0)
    shown = view.visualRect(last).intersects(view.viewport().rect())
    entries = pane.entries
    commands = {entries.command_of(i) for i in range(entries.rowCount())}
    every = commands >= set(range(len(window.controller.battle.commands)))
    return shown and every


def _quiet(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Qt's messages, less the offscreen platform's note on each dock resized."""
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


def run_evening(seed: int, rounds: int = EVENING_ROUNDS) -> Evening:
    """Auto-play the long evening's battle for ``rounds`` rounds in the window."""
    app = QApplication.instance()
    if app is None:
        raise RuntimeError("the long evening needs a QApplication")
    before = qInstallMessageHandler(_quiet)
    try:
        return _run_evening(app, seed, rounds)
    finally:
        qInstallMessageHandler(before)


def _run_evening(app: QCoreApplication, seed: int, rounds: int) -> Evening:
    scratch = QTemporaryDir()
    settings = QSettings(scratch.filePath("evening.ini"), QSettings.Format.IniFormat)
    controller = BattleController(evening_battle(seed))
    window = MainWindow(controller, settings, restore_layout=False, seed=seed)
    window.resize(WINDOW_WIDTH, WINDOW_HEIGHT)
    window.show()
    QApplication.processEvents()
    frames = FrameTimer(window)
    auto = window.auto_play
    auto.set_speed("instant")
    auto.gui_ms.clear()
    auto.gui_cpu_ms.clear()
    started = time.perf_counter()
    auto.start(Goal.END)
    while auto.running and controller.state.round <= rounds:
        app.processEvents()
        time.sleep(0.0005)  # the idle loop of a real session: nothing to do, no spin
    auto.stop("the long evening is over")
    seconds = time.perf_counter() - started
    for _ in range(3):  # what the last decision left to paint
        app.processEvents()
    evening = Evening(
        rounds=min(controller.state.round, rounds),
        commands=len(controller.battle.commands),
        decisions=len(auto.gui_ms),
        log_rows=window.log_pane.entries.rowCount(),
        log_follows=log_follows(window),
        frames_ms=tuple(frames.frames_ms),
        frames_cpu_ms=tuple(frames.frames_cpu_ms),
        gui_ms=tuple(auto.gui_ms),
        gui_cpu_ms=tuple(auto.gui_cpu_ms),
        seconds=seconds,
    )
    window.close()
    window.deleteLater()
    app.processEvents()
    return evening


def evening_lines(evening: Evening) -> list[str]:
    """The benchmark's readable lines."""
    frames = evening.frames_ms or (0.0,)
    gui = evening.gui_ms or (0.0,)
    return [
        f"Long evening: {evening.rounds} rounds auto-played in the window "
        f"({evening.decisions:,} decisions, {evening.commands:,} commands, "
        f"{evening.log_rows:,} log rows, {evening.seconds:.1f} s): repaint max "
        f"{evening.max_repaint_ms:.1f} ms, median {statistics.median(frames):.1f} ms "
        f"({len(evening.frames_ms):,} frames, {evening.frames_over_budget} over "
        f"{FRAME_BUDGET_MS:.0f} ms; the GUI thread's CPU max "
        f"{max(evening.frames_cpu_ms, default=0.0):.1f} ms); a decision's GUI work max "
        f"{evening.max_gui_action_ms:.1f} ms, median {statistics.median(gui):.1f} ms (CPU max "
        f"{max(evening.gui_cpu_ms, default=0.0):.1f} ms); the log "
        f"{'follows' if evening.log_follows else 'does NOT follow'}"
    ]
