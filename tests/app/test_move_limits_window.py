"""A move checked against what the fighter may still do, in the window (issue
22): the Turns pane says how far a prone fighter crawls, and a longer move is
refused with its reason in the status bar, the GM's override offered."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from rules.battle.battle import Battle
from rules.battle.commands import MoveCombatant
from rules.battle.model import Posture, Status
from rules.sets.registry import get_ruleset
from tests.app.turn_order_window import FENCER, shown_window


def fencer_s_turn(qtbot: QtBot, settings: QSettings, **fencer: object) -> MainWindow:
    """The demo battle in its turn order, the fencer's turn, the fencer changed by
    ``fencer`` and selected."""
    demo = load_demo_battle(1, turn_order=True)
    changed = replace(demo.state.combatant(FENCER), **fencer)
    state = demo.state.with_combatants(changed)
    window = shown_window(qtbot, BattleController(Battle(state, 1, get_ruleset)), settings)
    window.controller.select(FENCER)
    return window


@pytest.mark.parametrize(
    ("fencer", "left", "hexes", "refusal"),
    [
        (
            {"posture": Posture.PRONE},
            "crawls 1 hex left (prone)",
            -2,  # two hexes back
            "Fencer would move 2 hex(es) this turn; a prone fighter crawls one hex a turn",
        ),
        (
            {"status": Status.STUNNED},
            "no movement",
            1,
            "Fencer would move 1 hex(es) this turn; with no maneuver chosen, the most still "
            "open to it, Do nothing, allows no movement",
        ),
    ],
    ids=["prone", "stunned"],
)
def test_the_tracker_says_how_far_and_a_longer_move_is_refused(
    qtbot: QtBot,
    qapp: QApplication,
    settings: QSettings,
    fencer: dict[str, object],
    left: str,
    hexes: int,
    refusal: str,
) -> None:
    """A prone fighter crawls, a stunned one does not move: the Turns pane says so,
    the status bar gives the reason of a refused move, and the GM may force it."""
    window = fencer_s_turn(qtbot, settings, **fencer)
    assert left in window.tracker_pane.allowance_label.text()
    f = window.controller.state.combatant(FENCER)
    window.controller.execute(MoveCombatant(FENCER, f.hex + f.facing.vector.scale(hexes)))
    assert window.statusBar().currentMessage().startswith(f"Not allowed: {refusal}")
    assert window.override_action.isEnabled()  # a turn rule: the GM may force it
