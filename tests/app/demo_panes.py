"""The demo battle under a controller as the pane tests start it (seed 11), and a
pane shown on screen at a given size: shared by the pane and combat-log tests."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from rules.battle.battle import Battle
from rules.battle.catalog import load_demo_battle
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset

SEED = 11


def demo_state() -> BattleState:
    grid, combatants = load_demo_battle()
    return BattleState(grid, tuple(combatants))


def demo_controller() -> BattleController:
    """A controller on a fresh demo battle (the QApplication must exist)."""
    return BattleController(Battle(demo_state(), SEED, get_ruleset))


def show_pane(qtbot: QtBot, pane: QWidget, width: int, height: int) -> None:
    """Show ``pane`` at ``width`` × ``height`` and wait until it is on screen."""
    qtbot.addWidget(pane)
    pane.resize(width, height)
    pane.show()
    qtbot.waitExposed(pane)
