"""Targeting is one action and placing several fighters places them (issue 22, "The
turn carries the GM" 3 and 4): a right-click on a token makes it the target and
opens nothing to dismiss; the token's menu has a gesture and keys of its own,
named in Help ▸ Shortcuts; after "Add to Map" each click on a free hex places
the next fighter instead of moving the newcomer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu
from pytestqt.qtbot import QtBot

from app import help as app_help
from app.controller import BattleController
from app.help import ShortcutsDialog
from app.main_window import MainWindow, load_demo_battle
from app.map.view import MapView
from app.panes.templates import TemplatesPane
from hexmap import Hex
from rules.battle.commands import MoveCombatant
from rules.battle.roster import AddCombatant
from tests.app.own_home import use_own_home
from tests.app.turn_order_window import FENCER, SPEARMAN, SWORD, shown_window


@pytest.fixture
def opened_menus() -> Iterator[list[list[str]]]:
    """Each menu the map opens, as the names of its entries, closed as soon as it
    shows (a menu's own event loop runs the sweep)."""
    opened: list[list[str]] = []

    def sweep() -> None:
        popup = QApplication.activePopupWidget()
        if isinstance(popup, QMenu):
            opened.append([a.objectName() for a in popup.actions() if a.objectName()])
            popup.close()

    sweeper = QTimer()
    sweeper.setInterval(0)
    sweeper.timeout.connect(sweep)
    sweeper.start()
    yield opened
    sweeper.stop()


@pytest.fixture
def window(qtbot: QtBot, settings: QSettings) -> Iterator[MainWindow]:
    yield shown_window(qtbot, BattleController(load_demo_battle(1)), settings)


def right_click(view: MapView, h: Hex, shift: bool = False) -> None:
    """The context-menu event a right-click (Shift+right-click) on ``h`` sends."""
    at = view.hex_center(h).toPoint()
    modifiers = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
    event = QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, at, view.mapToGlobal(at), modifiers
    )
    QApplication.sendEvent(view, event)


# --- point 3: targeting is one action ---------------------------------------------------------


def test_a_right_click_on_a_token_targets_it_and_opens_nothing(
    window: MainWindow, opened_menus: list[list[str]]
) -> None:
    controller, view = window.controller, window.map_view
    controller.select(SPEARMAN)
    right_click(view, controller.state.combatant(SWORD).hex)
    assert controller.target_id == SWORD
    assert opened_menus == []  # nothing to dismiss before the next attack


def test_the_tokens_menu_has_a_gesture_and_keys_of_its_own(
    qtbot: QtBot, window: MainWindow, opened_menus: list[list[str]]
) -> None:
    controller, view = window.controller, window.map_view
    controller.select(SPEARMAN)
    assert controller.target_id == FENCER
    sword = controller.state.combatant(SWORD)
    right_click(view, sword.hex, shift=True)  # Shift+right-click: the menu, no target
    assert controller.target_id == FENCER
    assert len(opened_menus) == 1
    assert {"setTarget", "removeFighter", "duplicateFighter"} <= set(opened_menus[0])
    # a right-click on the selected fighter itself opens its menu (it is no target)
    right_click(view, controller.state.combatant(SPEARMAN).hex)
    assert len(opened_menus) == 2 and controller.target_id == FENCER

    def press(key: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        window.activateWindow()  # a closed menu took the keyboard with it
        QApplication.processEvents()
        view.setFocus()
        assert view.hasFocus()
        qtbot.keyClick(view, key, modifier)

    # the keyboard: the menu of the hex under the pointer, else the selected fighter's
    view.set_hover(None)
    press(Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert len(opened_menus) == 3
    view.set_hover(sword.hex)
    press(Qt.Key.Key_Menu)
    assert len(opened_menus) == 4 and "removeFighter" in opened_menus[3]
    assert controller.target_id == FENCER


def test_help_names_the_menus_keys_and_gesture(qtbot: QtBot) -> None:
    entry = app_help.shortcut("context_menu")
    assert {"Menu", "Shift+F10"} <= set(entry.keys)
    assert any(what.startswith("Shift+right-click") for what, _does in app_help.MOUSE_CONTROLS)
    dialog = ShortcutsDialog()
    qtbot.addWidget(dialog)
    table = dialog.table
    cells = {table.item(r, c).text() for r in range(table.rowCount()) for c in range(3)}
    assert entry.description in cells
    assert any("Shift+F10" in cell for cell in cells)


# --- point 4: placing several fighters places them ---------------------------------------------


@pytest.fixture
def goblins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, window: MainWindow) -> TemplatesPane:
    """The templates pane of this test's own library, the goblin chosen."""
    use_own_home(tmp_path, monkeypatch)
    pane = window.templates_pane
    pane.raise_()
    pane.reload()
    assert pane.select_template("goblin")
    return pane


def test_after_add_to_map_each_click_on_a_free_hex_places_the_next_fighter(
    qtbot: QtBot, window: MainWindow, goblins: TemplatesPane
) -> None:
    pane, controller, view = goblins, window.controller, window.map_view
    # away from the legend at the map's lower left, which takes its own clicks
    first_hex, second_hex, free = (Hex.from_offset(c, 10) for c in (12, 15, 16))
    assert not any(controller.state.occupant(h) for h in (first_hex, second_hex, free))
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.hex_center(first_hex).toPoint())
    qtbot.mouseClick(pane.add_button, Qt.MouseButton.LeftButton)
    newcomer = controller.state.combatants[-1]
    assert (newcomer.name, newcomer.hex) == ("Goblin", first_hex)
    assert controller.selected_id == newcomer.id
    # the pane invites the click on the map
    assert "Click a free hex on the map for the next Goblin" in pane.target.text()
    assert not window.roll_action.isEnabled()  # the newcomer is no attacker yet
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.hex_center(second_hex).toPoint())
    state = controller.state
    assert state.combatant(newcomer.id).hex == first_hex  # not moved
    second = state.combatants[-1]
    assert second.id != newcomer.id and (second.name, second.hex) == ("Goblin 2", second_hex)
    assert all(isinstance(c, AddCombatant) for c in controller.battle.commands)
    assert not any(isinstance(c, MoveCombatant) for c in controller.battle.commands)
    # Esc in the pane ends it; the map's clicks move the selection again
    pane.list.setFocus()
    qtbot.keyClick(pane.list, Qt.Key.Key_Escape)
    assert not pane.placing() and "Goes to" in pane.target.text()
    assert window.roll_action.isEnabled()
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.hex_center(free).toPoint())
    assert controller.battle.commands[-1] == MoveCombatant(second.id, free)


def test_a_click_on_a_fighter_ends_the_placing_and_selects_him(
    qtbot: QtBot, window: MainWindow, goblins: TemplatesPane
) -> None:
    pane, controller, view = goblins, window.controller, window.map_view
    pane.add_selected()
    assert pane.placing()
    fencer = controller.state.combatant(FENCER)
    at = view.hex_center(fencer.hex).toPoint()
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=at)
    assert not pane.placing() and controller.selected_id == FENCER
    assert len(controller.battle.commands) == 1  # the one goblin


def test_right_click_targets_nobody_with_shift_on_release(window: MainWindow, qtbot: QtBot) -> None:
    """Where the menu comes on release (Windows), the release of a Shift+right-click
    sets no target either."""
    controller, view = window.controller, window.map_view
    controller.select(SPEARMAN)
    target = controller.target_id
    at = view.hex_center(controller.state.combatant(SWORD).hex).toPoint()
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, Qt.KeyboardModifier.ShiftModifier, at)
    assert controller.target_id == target
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=at + QPoint(0, 0))
    assert controller.target_id == SWORD
