"""A move checked against what the fighter may still do, in the window (issue
22): the Turns pane says how far a prone fighter crawls, and a longer move is
refused with its reason in the status bar, the GM's override offered."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import load_demo_battle
from rules.battle.battle import Battle
from rules.battle.commands import MoveCombatant
from rules.battle.model import Posture, Status
from rules.sets.registry import get_ruleset
from tests.app.turn_order_window import FENCER, shown_window


def test_the_tracker_shows_a_prone_fighter_s_crawl(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    demo = load_demo_battle(1, turn_order=True)
    fencer = demo.state.combatant(FENCER)
    state = demo.state.with_combatants(replace(fencer, posture=Posture.PRONE))
    window = shown_window(qtbot, BattleController(Battle(state, 1, get_ruleset)), settings)
    controller = window.controller
    controller.select(FENCER)
    tracker = window.tracker_pane
    assert "crawls 1 hex left (prone)" in tracker.allowance_label.text()
    two_away = fencer.hex + fencer.facing.vector.scale(-2)
    controller.execute(MoveCombatant(FENCER, two_away))
    assert window.statusBar().currentMessage().startswith(
        "Not allowed: Fencer would move 2 hex(es) this turn; a prone fighter crawls one hex "
        "a turn"
    )
    assert window.override_action.isEnabled()  # a turn rule: the GM may force it


def test_the_tracker_shows_that_a_stunned_fighter_does_not_move(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    demo = load_demo_battle(1, turn_order=True)
    fencer = demo.state.combatant(FENCER)
    state = demo.state.with_combatants(replace(fencer, status=Status.STUNNED))
    window = shown_window(qtbot, BattleController(Battle(state, 1, get_ruleset)), settings)
    window.controller.select(FENCER)
    assert "no movement" in window.tracker_pane.allowance_label.text()
    window.controller.execute(MoveCombatant(FENCER, fencer.hex + fencer.facing.vector))
    assert window.statusBar().currentMessage().startswith(
        "Not allowed: Fencer would move 1 hex(es) this turn; with no maneuver chosen, the "
        "most still open to it, Do nothing, allows no movement"
    )
