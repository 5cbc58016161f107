"""Nothing leaks from one battle into the next, and the window keeps what it
should (issue 22): the log's filter and search start afresh with a battle opened
or made, the inspector clears, the welcome guide opens at the first start only
(never over a restored battle or a dialog), the window reopens at its last size
and state, maximized included, and every export dialog starts in the folder last
used for its kind of file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, QSize
from PySide6.QtWidgets import QApplication, QFileDialog

import main
from app.controller import BattleController
from app.file_actions import RecoveryChoice
from app.files import save_battle
from app.help import FirstRunGuide, guide_seen
from app.log_export import ExportFormat
from app.main_window import GEOMETRY_KEY, MainWindow, load_demo_battle
from app.panes.combat_log import LogFilter
from app.user_dirs import settings as user_settings
from tests.app.own_home import use_own_home
from tests.app.test_file_actions import SETUP, crashed_battle


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return use_own_home(tmp_path, monkeypatch)


def settle() -> None:
    for _ in range(10):
        QCoreApplication.processEvents()


def guides_shown() -> list[FirstRunGuide]:
    shown = QApplication.topLevelWidgets()
    return [w for w in shown if isinstance(w, FirstRunGuide) and w.isVisible()]


# --- the log, the inspector ------------------------------------------------------------------


def filter_the_log(window: MainWindow) -> None:
    log = window.log_pane
    log.combatant_box.setCurrentIndex(1)
    log.search_box.setText("nothing says this")
    assert log.model.log_filter.active and " of " in log.count_label.text()


def assert_whole_log(window: MainWindow) -> None:
    log = window.log_pane
    assert log.search_box.text() == "" and log.combatant_box.currentData() is None
    assert log.model.log_filter == LogFilter()
    assert log.shown_rows() == list(log.rows)
    assert " of " not in log.count_label.text()


def test_a_battle_opened_or_made_shows_its_whole_log(main_window: MainWindow, home: Path) -> None:
    window = main_window
    filter_the_log(window)
    assert window.file_actions.open_demo("002")
    assert_whole_log(window)
    assert len(window.log_pane.rows) > 1  # the 002 demo's entries show, none filtered out
    filter_the_log(window)
    window.file_actions.new_battle_setup = lambda: SETUP
    assert window.file_actions.new_battle()
    assert_whole_log(window)


def test_the_inspector_clears_when_another_battle_opens(
    main_window: MainWindow, home: Path, tmp_path: Path
) -> None:
    """The other battle has fighters of the same ids: none of them is selected or
    targeted for the last battle's choice."""
    window = main_window
    other = tmp_path / "other.hexfray"
    save_battle(load_demo_battle(2), other)
    window.controller.select("c3")
    window.controller.set_target("c1")
    assert window.inspector_pane.combatant is not None
    assert window.file_actions.open_path(other)
    assert window.controller.selected_id is None and window.controller.target_id is None
    assert window.inspector_pane.combatant is None
    assert window.inspector_pane.name_label.text() == "No fighter selected"


# --- the welcome guide ------------------------------------------------------------------------


@pytest.fixture
def guide_calls(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each start's offer of the guide gave (the guide, or None)."""
    calls: list[object] = []
    offer = main.maybe_show_first_run_guide

    def record(window: MainWindow) -> object:
        calls.append(offer(window))
        return calls[-1]

    monkeypatch.setattr(main, "maybe_show_first_run_guide", record)
    return calls


@pytest.fixture
def started(qtbot, home: Path) -> Iterator[Callable[..., MainWindow]]:
    windows: list[MainWindow] = []

    def start(**kwargs: object) -> MainWindow:
        window = main.open_window(7, **kwargs)  # type: ignore[arg-type]
        windows.append(window)
        return window

    yield start
    for window in windows:
        window.close()
    for guide in guides_shown():
        guide.close()


def test_the_guide_opens_at_the_first_start_only(
    qtbot, started: Callable[..., MainWindow], guide_calls: list[object]
) -> None:
    first = started()
    qtbot.waitUntil(lambda: len(guide_calls) == 1)
    assert isinstance(guide_calls[0], FirstRunGuide) and guide_calls[0].isVisible()
    guide_calls[0].close()  # closed at once: nothing ticked, nothing asked
    first.close()
    started()
    qtbot.waitUntil(lambda: len(guide_calls) == 2)
    assert guide_calls[1] is None and guides_shown() == []


def test_the_guide_does_not_open_over_a_restored_battle(
    qtbot, started: Callable[..., MainWindow], home: Path
) -> None:
    crashed = crashed_battle(home)
    window = started()
    window.file_actions.ask_recovery = lambda entry: RecoveryChoice.RESTORE
    qtbot.waitUntil(lambda: window.controller.battle.commands == crashed.battle.commands)
    settle()
    assert guides_shown() == []
    assert not guide_seen(user_settings())  # the first start with the demo still shows it


def test_the_guide_does_not_open_over_a_file_that_cannot_be_opened(
    qtbot, started: Callable[..., MainWindow], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.hexfray"
    broken.write_text("{", encoding="utf-8")
    window = started(open_in_window=broken)
    over_the_problem: list[list[FirstRunGuide]] = []

    def problem(title: str, text: str) -> None:
        settle()  # as the dialog's own event loop turns while the GM reads it
        over_the_problem.append(guides_shown())

    window.file_actions.show_problem = problem
    qtbot.waitUntil(lambda: len(over_the_problem) == 1)
    qtbot.waitUntil(lambda: window.file_actions.autosave is not None)
    settle()
    assert over_the_problem == [[]] and guides_shown() == []


# --- the window's size and state ---------------------------------------------------------------


def test_the_window_reopens_at_its_last_size_and_maximized(
    qtbot, settings: QSettings, home: Path
) -> None:
    """Saved as it changes, not only at a clean close: the program may be ended."""
    window = MainWindow(BattleController(load_demo_battle(1)), settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.resize(760, 560)
    qtbot.waitUntil(lambda: window.size() == QSize(760, 560))
    qtbot.waitUntil(lambda: settings.value(GEOMETRY_KEY) is not None)
    normal = settings.value(GEOMETRY_KEY)
    window.showMaximized()
    qtbot.waitUntil(lambda: window.isMaximized())
    qtbot.waitUntil(lambda: settings.value(GEOMETRY_KEY) != normal)
    again = MainWindow(BattleController(load_demo_battle(1)), settings)
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    assert again.isMaximized()
    again.showNormal()
    qtbot.waitUntil(lambda: not again.isMaximized())
    assert again.size() == QSize(760, 560)


# --- export dialogs -------------------------------------------------------------------------------


def test_every_export_dialog_starts_in_the_folder_last_used_for_its_kind(
    qtbot, main_window: MainWindow, settings: QSettings, tmp_path: Path, monkeypatch
) -> None:
    asked: list[Path] = []
    answers: list[Path] = []

    def dialog(parent: object, caption: str, start: str, filters: str) -> tuple[str, str]:
        asked.append(Path(start))
        return str(answers.pop(0)), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    pictures, logs, pages = (tmp_path / name for name in ("pictures", "logs", "pages"))
    for folder in (pictures, logs, pages):
        folder.mkdir()
    log = main_window.log_pane
    answers += [pictures / "first.png", pictures / "second.png"]
    main_window.export_map_action.trigger()
    main_window.export_map_action.trigger()
    assert asked == [Path.home() / "hexfray-map.png", pictures / "hexfray-map.png"]
    answers += [logs / "evening.md", pages / "evening.html", logs / "later.md"]
    log.export_markdown_action.trigger()
    log.export_html_action.trigger()
    log.export_markdown_action.trigger()
    assert asked[2:] == [
        Path.home() / f"combat-log{ExportFormat.MARKDOWN.suffix}",
        Path.home() / f"combat-log{ExportFormat.HTML.suffix}",
        logs / f"combat-log{ExportFormat.MARKDOWN.suffix}",
    ]
    assert (pictures / "second.png").is_file() and (logs / "later.md").is_file()
    # the next window, another evening: the same folders
    again = MainWindow(BattleController(load_demo_battle(1)), settings)
    qtbot.addWidget(again)
    answers.append(pictures / "third.png")
    again.export_map_action.trigger()
    assert asked[-1] == pictures / "hexfray-map.png"
