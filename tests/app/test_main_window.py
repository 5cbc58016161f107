"""The main window: the demo battle, the docks and their saved layout, the menus
and shortcuts, the status bar, the 1366x768 fit, and the command-line modes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDockWidget, QMessageBox

import main as entry
from app.controller import BattleController
from app.main_window import DEFAULT_SIZE, MainWindow, load_demo_battle
from app.map.view import MapView
from rules.battle.commands import MoveCombatant
from rules.battle.values import hex_name

PANE_NAMES = (
    "turnTrackerPane", "combatantsPane", "inspectorPane", "attackPane", "combatLogPane", "hexPane",
    "templatesPane",
)
LAPTOP = QSize(1366, 768)


def test_window_opens_on_the_demo_battle(main_window: MainWindow) -> None:
    assert isinstance(main_window.centralWidget(), MapView)
    demo = load_demo_battle()
    assert [c.id for c in main_window.controller.state.combatants] == [
        c.id for c in demo.state.combatants
    ]
    assert main_window.windowTitle().startswith("Hexfray")


def test_docks_exist_with_stable_names(main_window: MainWindow) -> None:
    for name in PANE_NAMES:
        dock = main_window.findChild(QDockWidget, name)
        assert dock is not None, name
        assert not dock.isFloating()
        assert main_window.dockWidgetArea(dock) != Qt.DockWidgetArea.NoDockWidgetArea
    # combatants, inspector and hex tabbed on the left over the combat log; the
    # attack pane alone on the right, the whole height
    left = Qt.DockWidgetArea.LeftDockWidgetArea
    w = main_window
    for pane in (w.tracker_pane, w.combatants_pane, w.inspector_pane, w.hex_pane, w.log_pane):
        assert w.dockWidgetArea(pane) == left, pane.objectName()
    assert set(w.tabifiedDockWidgets(w.combatants_pane)) == {w.inspector_pane, w.hex_pane}
    assert w.tabifiedDockWidgets(w.tracker_pane) == [w.templates_pane]
    assert w.log_pane.geometry().top() > w.combatants_pane.geometry().bottom()
    assert w.combatants_pane.geometry().top() > w.tracker_pane.geometry().bottom()
    right = Qt.DockWidgetArea.RightDockWidgetArea
    assert [p for p in w.panes if w.dockWidgetArea(p) == right] == [w.attack_pane]


def test_fits_a_1366x768_laptop(main_window: MainWindow) -> None:
    hint = main_window.minimumSizeHint()
    assert hint.width() <= LAPTOP.width() and hint.height() <= LAPTOP.height(), hint
    size = main_window.size()
    assert size == DEFAULT_SIZE
    assert size.width() <= LAPTOP.width() and size.height() <= LAPTOP.height()
    main_window.resize(LAPTOP)
    assert main_window.size() == LAPTOP
    # the map keeps a useful share of the screen
    assert main_window.map_view.width() >= 700
    assert main_window.map_view.height() >= 500


def test_layout_is_saved_and_restored(qtbot, controller: BattleController,
                                      settings: QSettings) -> None:
    first = MainWindow(controller, settings)
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    first.log_pane.hide()
    first.resize(760, 560)  # within the offscreen screen (800x600): restoring clamps to it
    first.close()  # saves
    second = MainWindow(controller, settings)
    qtbot.addWidget(second)
    second.show()
    qtbot.waitExposed(second)
    assert second.log_pane.isHidden()
    assert not second.combatants_pane.isHidden()
    assert second.size() == QSize(760, 560)
    second.reset_layout()
    assert not second.log_pane.isHidden()
    assert second.size() == DEFAULT_SIZE


def test_every_map_action_has_a_shortcut(main_window: MainWindow) -> None:
    view = main_window.map_view
    actions = [
        view.zoom_in_action, view.zoom_out_action, view.fit_action, view.turn_left_action,
        view.turn_right_action, view.next_action, view.previous_action,
        view.clear_selection_action, *view.pan_actions, main_window.end_turn_action,
        main_window.new_demo_action, main_window.quit_action,
    ]
    for action in actions:
        assert not action.shortcut().isEmpty(), action.text()


def test_menus_and_toolbar(main_window: MainWindow) -> None:
    titles = [a.text().replace("&", "") for a in main_window.menuBar().actions()]
    assert titles == ["File", "Edit", "View", "Battle", "Help"]
    toolbar = [a for a in main_window.toolbar.actions() if not a.isSeparator()]
    view = main_window.map_view
    for action in (view.turn_left_action, view.turn_right_action, view.fit_action,
                   main_window.end_turn_action):
        assert action in toolbar
    view_menu = main_window.menuBar().actions()[2].menu()
    toggles = [a for a in view_menu.actions() if a.isCheckable() and a.text().startswith("Show")]
    assert len(toggles) == len(PANE_NAMES)  # one "Show ..." per pane


def test_toolbar_turns_and_ends_turn(main_window: MainWindow) -> None:
    controller = main_window.controller
    c = controller.state.combatants[0]
    controller.select(c.id)
    main_window.map_view.turn_right_action.trigger()
    assert controller.state.combatant(c.id).facing is c.facing.turned(1)
    main_window.map_view.turn_left_action.trigger()
    assert controller.state.combatant(c.id).facing is c.facing
    main_window.end_turn_action.trigger()
    assert controller.state.turn == 2
    assert "Round 2" in main_window.selection_label.text()


def test_status_bar_shows_selection_hover_and_refusals(qtbot, main_window: MainWindow) -> None:
    controller = main_window.controller
    a, b = controller.state.combatants[0], controller.state.combatants[1]
    controller.select(a.id)
    assert a.name in main_window.selection_label.text()
    # moving onto another fighter is refused by the rules: the status bar says why
    controller.execute(MoveCombatant(a.id, b.hex))
    assert "Not allowed" in main_window.statusBar().currentMessage()
    assert b.name in main_window.statusBar().currentMessage()
    view = main_window.map_view
    qtbot.mouseMove(view, view.hex_center(b.hex).toPoint())
    assert hex_name(b.hex).capitalize() in main_window.hover_label.text()


def test_new_demo_battle_starts_afresh(main_window: MainWindow) -> None:
    controller = main_window.controller
    c = controller.state.combatants[0]
    controller.select(c.id)
    controller.turn_selected(1)
    # the GM discards the turn when asked (app.file_actions: unsaved changes)
    main_window.file_actions.ask_to_save = lambda _name: QMessageBox.StandardButton.Discard
    main_window.new_demo_action.trigger()
    assert controller.battle.commands == ()
    assert controller.state.combatant(c.id).facing is c.facing


def test_screenshot_command_writes_a_png(qapp, tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    assert entry.main(["--screenshot", str(out)]) == 0
    image = QImage(str(out))
    assert not image.isNull()
    assert (image.width(), image.height()) == (1366, 768)


ROOT = Path(__file__).resolve().parents[2]
BENCHMARK_KEYS = (
    "repaint_still_ms", "repaint_pan_ms", "repaint_zoom_ms", "repaint_dense_ms",
    "repaint_fit_ms", "attack_commands_per_s", "odds_ms_median", "odds_ms_max_cold",
    "replay_1000_s", "attack_commands_per_s_at_10000", "undo_ms_at_10000", "memory_10000_mib",
    "log_append_ms_at_5000", "sim_scaling_2_workers",
)  # fmt: skip


def test_benchmark_prints_one_json_object_of_positive_figures(tmp_path) -> None:
    done = subprocess.run(
        [sys.executable, "main.py", "--benchmark", "--json", "--quick"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=300,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "HEXFRAY_HOME": str(tmp_path)},
    )  # fmt: skip
    figures = json.loads(done.stdout)
    assert isinstance(figures, dict)
    for key in BENCHMARK_KEYS:
        value = figures[key]
        assert isinstance(value, int | float) and value > 0, (key, value)
    assert isinstance(figures["sim_memory_growth_pct"], float)  # may be 0 or below


def test_benchmark_prints_readable_figures(qapp) -> None:
    from app import benchmark

    lines: list[str] = []
    assert benchmark.run(1, lines.append, quick=True) == 0
    text = "\n".join(lines)
    assert "median" in text and "p95" in text
    assert "Attack commands" in text and "per second" in text
    assert "Exact odds" in text and "Replay" in text
    assert "Combat log" in text
    assert "Simulation pool" in text and "Simulation memory" in text


def test_arguments() -> None:
    args = entry.parse_args(["--seed", "7", "--benchmark"])
    assert args.seed == 7 and args.benchmark and args.screenshot is None
    assert entry.parse_args([]).seed is None  # main.battle_seed chooses (tests/app/test_seed.py)
