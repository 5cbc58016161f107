"""Battle > Auto-play in the window (issue 25): one action is one decision,
worked out on the worker thread and run through the GM's own command path
(logged, undone one by one); a run to the end stops with the battle decided; a
GM's fighter's turn stops a run; a decision for a battle that moved on is dropped."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from app.autoplay_menu import Goal
from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from rules.battle.control import SetControllers
from rules.battle.savefile import read_battle
from rules.play.policies import AGGRESSIVE
from rules.sets.registry import get_ruleset
from tests.app.turn_order_window import shown_window

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"


@pytest.fixture
def window(qtbot: QtBot, qapp: QApplication, settings: QSettings) -> Iterator[MainWindow]:
    shown = shown_window(qtbot, BattleController(load_demo_battle(1, turn_order=True)), settings)
    # A GM's fighter attacked by the computer answers with its default, no dialog.
    shown.defense_answers.ask = lambda dialog: dialog.options[dialog.default_index]
    yield shown


def all_computer(window: MainWindow) -> None:
    ids = tuple(c.id for c in window.controller.state.combatants)
    window.controller.execute(SetControllers(tuple((i, AGGRESSIVE) for i in ids)))


def step(window: MainWindow, qtbot: QtBot) -> None:
    """Step one action and wait for its decision to be worked out and run."""
    window.auto_play.step_action.trigger()
    qtbot.waitUntil(lambda: not window.auto_play.running, timeout=30_000)


def test_the_battle_menu_holds_auto_play(window: MainWindow) -> None:
    names = [a.objectName() for a in window.auto_play.menu.actions()]
    for name in ("autoPlayStep", "autoPlayTurn", "autoPlayRound", "autoPlayRun", "autoPlayPause"):
        assert name in names
    assert set(window.auto_play.speed_actions) == {"watchable", "quick", "instant"}
    battle_menus = [m for m in window.menuBar().findChildren(QMenu) if m.title() == "&Battle"]
    assert battle_menus and window.auto_play.menu.menuAction() in battle_menus[0].actions()


def test_step_one_action_executes_exactly_one_decision_and_undo_takes_it_back(
    window: MainWindow, qtbot: QtBot
) -> None:
    all_computer(window)
    battle = window.controller.battle
    before_commands, before_state = len(battle.commands), battle.state
    step(window, qtbot)
    decision = window.auto_play.last_decision
    assert decision is not None and decision.combatant_id
    assert len(battle.commands) == before_commands + len(decision.commands)
    assert not window.auto_play.running  # nothing more is on the timer
    qtbot.wait(50)
    assert len(battle.commands) == before_commands + len(decision.commands)
    assert decision.reason in window.statusBar().currentMessage()
    assert window.auto_play.last_decision_action.text() == decision.reason
    for _ in decision.commands:
        window.undo_action.trigger()
    assert len(battle.commands) == before_commands
    assert battle.state == before_state


def test_run_to_the_end_stops_with_the_battle_decided(window: MainWindow, qtbot: QtBot) -> None:
    # The seed 004 demo: decided in a few rounds. (In the catalog demo the fencer and
    # the sword-and-shield fighter, each answering with its best defense, can parry
    # and block each other for a hundred rounds.)
    demo = BATTLES / "demo-004.hexfray"
    window.replace_battle(read_battle(demo.read_text(encoding="utf-8"), rulesets=get_ruleset))
    all_computer(window)
    window.auto_play.set_speed("instant")
    window.auto_play.run_action.trigger()
    qtbot.waitUntil(lambda: not window.auto_play.running, timeout=60_000)
    state = window.controller.state
    assert state.outcome is not None
    assert "decided" in window.statusBar().currentMessage()
    assert not window.auto_play.pause_action.isEnabled()
    assert window.auto_play.run_action.isEnabled()


def test_a_gm_fighter_s_turn_stops_the_run(window: MainWindow, qtbot: QtBot) -> None:
    first = window.controller.state.active_id
    assert first is not None
    window.controller.execute(SetControllers(((first, AGGRESSIVE),)))
    window.auto_play.set_speed("instant")
    window.auto_play.start(Goal.END)
    qtbot.waitUntil(lambda: not window.auto_play.running, timeout=30_000)
    state = window.controller.state
    assert state.outcome is None and state.active_id != first
    assert "the GM's to play" in window.statusBar().currentMessage()


def test_pause_stops_a_run(window: MainWindow, qtbot: QtBot) -> None:
    all_computer(window)
    window.auto_play.set_speed("watchable")
    window.auto_play.run_action.trigger()
    assert window.auto_play.running and window.auto_play.pause_action.isEnabled()
    commands = len(window.controller.battle.commands)
    window.auto_play.pause_action.trigger()
    assert not window.auto_play.running
    qtbot.wait(50)
    assert len(window.controller.battle.commands) == commands
    assert window.statusBar().currentMessage() == "Auto-play paused"


def test_each_decision_s_reason_is_a_log_line_with_its_alternatives_in_the_tooltip(
    window: MainWindow, qtbot: QtBot
) -> None:
    all_computer(window)
    step(window, qtbot)
    decision = window.auto_play.last_decision
    assert decision is not None
    rows = window.log_pane.rows
    noted = [r for r in rows if r.title == decision.reason]
    assert len(noted) == 1
    tooltip = noted[0].plain_text()
    assert "Best choices not taken" in tooltip
    for alternative in decision.alternatives:
        assert f"{alternative.label}: {alternative.score:g}" in tooltip
    # The note comes just before its command's events and leaves with its undo.
    assert rows.index(noted[0]) < len(rows) - 1
    for _ in decision.commands:
        window.undo_action.trigger()
    assert not [r for r in window.log_pane.rows if r.title == decision.reason]
    window.redo_action.trigger()
    assert [r for r in window.log_pane.rows if r.title == decision.reason]


def test_an_undo_pauses_a_run(window: MainWindow, qtbot: QtBot) -> None:
    all_computer(window)
    window.auto_play.set_speed("watchable")
    window.auto_play.run_action.trigger()
    assert window.auto_play.running
    window.undo_action.trigger()
    assert not window.auto_play.running
    assert window.statusBar().currentMessage() == "Auto-play paused: a command was undone"


def test_the_decision_is_worked_out_off_the_gui_thread(window: MainWindow, qtbot: QtBot) -> None:
    """The step returns before its decision is made: the window answers meanwhile."""
    all_computer(window)
    commands = len(window.controller.battle.commands)
    window.auto_play.step_action.trigger()
    assert window.auto_play.running and window.auto_play.thinking
    assert len(window.controller.battle.commands) == commands  # nothing run yet
    qtbot.waitUntil(lambda: not window.auto_play.running, timeout=30_000)
    decision = window.auto_play.last_decision
    assert decision is not None
    assert len(window.controller.battle.commands) == commands + len(decision.commands)


def test_a_decision_for_a_battle_that_moved_on_is_dropped(
    window: MainWindow, qtbot: QtBot
) -> None:
    """The GM acts while the decision is worked out: it is asked again for the
    battle as it now stands, and only that one runs."""
    all_computer(window)
    window.auto_play.step_action.trigger()
    assert window.auto_play.thinking
    # The GM hands the first fighter back to the computer while the worker thinks.
    active = window.controller.state.active_id
    assert active is not None
    moved_on = window.controller.execute(SetControllers(((active, AGGRESSIVE),)))
    assert moved_on is not None
    after_gm = len(window.controller.battle.commands)
    qtbot.waitUntil(lambda: not window.auto_play.running, timeout=30_000)
    decision = window.auto_play.last_decision
    assert decision is not None
    assert len(window.controller.battle.commands) == after_gm + len(decision.commands)
