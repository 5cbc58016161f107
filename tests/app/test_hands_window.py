"""Hands in the window (issue 22): the token's context menu and the inspector put
a weapon away and draw it again (each a Ready, shown in the log and undone by
Undo), the inspector says what the hands hold, and a pick-up without a free hand
is refused with its reason in the status bar."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from rules.battle.battle import Battle
from rules.battle.commands import AddItem, DropItem, PickUpItem, PutAwayItem
from rules.battle.hands import Hands, hands_of
from rules.battle.items import ItemKind
from rules.sets.registry import get_ruleset
from tests.app.turn_order_window import FENCER, SWORD, shown_window


def log_texts(window: MainWindow) -> list[str]:
    return [line.text for row in window.log_pane.rows for line in row.lines]


@pytest.fixture
def window(qtbot: QtBot, qapp: QApplication, settings: QSettings) -> Iterator[MainWindow]:
    """The demo battle in its turn order: the fencer's turn (rapier and main-gauche
    in hand)."""
    demo = load_demo_battle(1, turn_order=True)
    assert demo.state.active_id == FENCER
    yield shown_window(qtbot, BattleController(demo), settings)


def _menu_action(window: MainWindow, combatant_id: str, name: str) -> tuple[QMenu, QAction]:
    c = window.controller.state.combatant(combatant_id)
    menu = window.map_view.context_menu_for(c.hex)
    assert menu is not None
    found = [a for a in menu.findChildren(QAction) if a.objectName() == name]
    assert found, [a.objectName() for a in menu.findChildren(QAction)]
    return menu, found[0]


def test_put_away_from_the_context_menu_frees_a_hand_and_undoes(window: MainWindow) -> None:
    controller = window.controller
    menu, _ = _menu_action(window, FENCER, "putAway:main-gauche")
    put_away = menu.findChild(QMenu, "putAwayMenu")
    assert put_away is not None
    assert [a.objectName() for a in put_away.actions()] == [
        "putAway:rapier",
        "putAway:main-gauche",
    ]
    menu.deleteLater()
    _, action = _menu_action(window, FENCER, "putAway:main-gauche")
    action.trigger()
    assert controller.battle.commands[-1] == PutAwayItem(FENCER, "main-gauche")
    assert hands_of(controller.state.combatant(FENCER)) == Hands("rapier", None, ("main-gauche",))
    assert "Fencer puts the Main-gauche away (Ready maneuver): a hand is free" in log_texts(window)
    # The menu now offers to draw it again.
    menu, draw = _menu_action(window, FENCER, "ready:main-gauche")
    assert draw.text() == "Draw Main-gauche"
    menu.deleteLater()
    window.undo_action.trigger()
    assert hands_of(controller.state.combatant(FENCER)) == Hands("rapier", "main-gauche", ())
    assert "Fencer puts the Main-gauche away (Ready maneuver): a hand is free" not in log_texts(
        window
    )


def test_the_inspector_puts_away_and_draws(window: MainWindow) -> None:
    controller = window.controller
    controller.select(FENCER)
    inspector = window.inspector_pane
    assert inspector.hands_label.text() == "In hand: Rapier (right hand), Main-gauche (left hand)"
    entries = {a.objectName(): a for a in inspector.ready_menu.actions() if not a.isSeparator()}
    assert set(entries) == {"putAway:rapier", "putAway:main-gauche"}
    assert entries["putAway:main-gauche"].text() == "Put away Main-gauche"
    entries["putAway:main-gauche"].trigger()
    assert inspector.hands_label.text() == (
        "In hand: Rapier (right hand) · carried: Main-gauche"
    )
    # Drawing it again is a second Ready this turn: refused, with the reason, and
    # the GM's override forces it.
    draw = next(a for a in inspector.ready_menu.actions() if a.objectName() == "ready:main-gauche")
    assert draw.text() == "Draw Main-gauche"
    done = len(controller.battle.commands)
    draw.trigger()
    assert len(controller.battle.commands) == done
    assert window.statusBar().currentMessage().startswith(
        "Not allowed: Fencer has already taken a Ready maneuver this turn"
    )
    window.override_action.trigger()
    assert hands_of(controller.state.combatant(FENCER)) == Hands("rapier", "main-gauche", ())
    assert "Fencer draws the Main-gauche (Ready maneuver)" in log_texts(window)


def test_a_pick_up_without_a_free_hand_shows_why_and_no_override(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    """The sword-and-shield fighter's hands are full: the status bar says so, and
    the GM's override is not offered (hands are no turn rule)."""
    battle = Battle(load_demo_battle(1).state, 1, get_ruleset)  # free play
    sword = battle.state.combatant(SWORD)
    mace = get_ruleset().sheets.catalog().weapon("mace")
    battle.execute(AddItem(sword.hex, mace.name, ItemKind.WEAPON, weapon=mace))
    window = shown_window(qtbot, BattleController(battle), settings)
    controller = window.controller
    controller.select(SWORD)
    _, pick = _menu_action(window, SWORD, "pickUp:item-1")
    pick.trigger()
    assert window.statusBar().currentMessage().startswith(
        "Not allowed: Sword-and-shield fighter needs a free hand for the Mace but holds "
        "Broadsword (right hand), Medium shield (left arm)"
    )
    assert not window.override_action.isEnabled()
    controller.execute(DropItem(SWORD, "broadsword"))
    _, pick = _menu_action(window, SWORD, "pickUp:item-1")
    pick.trigger()
    assert controller.battle.commands[-1] == PickUpItem(SWORD, "item-1")
    assert window.inspector_pane.hands_label.text() == (
        "In hand: Mace (right hand), Medium shield (left arm)"
    )
