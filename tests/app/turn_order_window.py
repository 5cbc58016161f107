"""The demo battle's turn order in the window, shared by the turn tracker's and the
maneuver limits' tests: its fighters' ids, the window shown at the laptop size and
the tracker's rows."""

from __future__ import annotations

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import MainWindow
from app.panes.turn_tracker import TurnTrackerPane
from tests.app.demo_panes import show_pane

# The demo battle's order with seed 1: Fencer, Spearman, Flail fighter, Sword-and-shield.
FENCER, SPEARMAN, FLAIL, SWORD = "c4", "c2", "c3", "c1"


def shown_window(qtbot: QtBot, controller: BattleController, settings: QSettings) -> MainWindow:
    """The window on ``controller``'s battle at 1366x768, on screen."""
    window = MainWindow(controller, settings)
    show_pane(qtbot, window, 1366, 768)
    return window


def rows(tracker: TurnTrackerPane) -> list[str]:
    return [tracker.order_list.item(i).text() for i in range(tracker.order_list.count())]
