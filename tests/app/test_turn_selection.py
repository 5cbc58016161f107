"""The turn carries the GM (issue 22, "The turn carries the GM" 1): whenever the
turn passes (Next, Ctrl+Return, rolling initiative, an undo back over an end of
turn, a battle opened with its turn order running) the fighter whose turn it is
is selected, the attack pane shows it as the attacker, and the map scrolls to it
when it is off screen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, QRectF, QSettings, Qt
from PySide6.QtWidgets import QApplication, QComboBox
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from hexmap import Hex
from tests.app.turn_order_window import FENCER, FLAIL, SPEARMAN, shown_window


def attacker_shown(window: MainWindow) -> object:
    """The attacker the attack pane shows."""
    combo = window.attack_pane.findChild(QComboBox, "attackerCombo")
    assert isinstance(combo, QComboBox)
    return combo.currentData()


@pytest.fixture
def ordered(qtbot: QtBot, settings: QSettings) -> MainWindow:
    """The window on the demo battle with its turn order rolled: the fencer's turn."""
    return shown_window(qtbot, BattleController(load_demo_battle(1, turn_order=True)), settings)


def on_screen(window: MainWindow, combatant_id: str) -> bool:
    view = window.map_view
    centre = view.hex_center(window.controller.state.combatant(combatant_id).hex)
    return QRectF(view.rect()).contains(centre)


def test_a_battle_opened_with_its_turn_order_selects_whose_turn_it_is(
    ordered: MainWindow,
) -> None:
    window, controller = ordered, ordered.controller
    assert controller.state.active_id == FENCER
    assert controller.selected_id == FENCER
    assert attacker_shown(window) == FENCER
    # File ▸ Open of another battle (or the demo at start-up, once its order is
    # rolled) selects its fighter too, whatever was selected before
    controller.select(SPEARMAN)
    controller.replace_battle(load_demo_battle(1, turn_order=True))
    assert controller.selected_id == FENCER and attacker_shown(window) == FENCER


def test_next_ctrl_return_and_undo_select_the_fighter_whose_turn_it_is(
    qtbot: QtBot, ordered: MainWindow
) -> None:
    window, controller = ordered, ordered.controller
    qtbot.mouseClick(window.tracker_pane.next_button, Qt.MouseButton.LeftButton)  # Next
    assert controller.state.active_id == SPEARMAN
    assert controller.selected_id == SPEARMAN and attacker_shown(window) == SPEARMAN
    with qtbot.waitActive(window):
        window.activateWindow()
    window.map_view.setFocus()
    qtbot.keyClick(window.map_view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert controller.state.active_id == FLAIL
    assert controller.selected_id == FLAIL and attacker_shown(window) == FLAIL
    # a GM who looked at someone else gets the turn's fighter back with the turn
    controller.select(FENCER)
    window.undo_action.trigger()  # the spearman's turn again
    assert controller.selected_id == SPEARMAN and attacker_shown(window) == SPEARMAN


def test_rolling_initiative_selects_the_first_in_the_order(
    qtbot: QtBot, settings: QSettings
) -> None:
    controller = BattleController(load_demo_battle(1))
    window = shown_window(qtbot, controller, settings)
    assert controller.selected_id is None  # free play: nobody's turn
    qtbot.mouseClick(window.tracker_pane.start_button, Qt.MouseButton.LeftButton)
    first = controller.state.initiative[0]
    assert controller.state.active_id == first
    assert controller.selected_id == first and attacker_shown(window) == first


def test_the_map_scrolls_to_the_fighter_whose_turn_it_is_only_when_off_screen(
    ordered: MainWindow,
) -> None:
    window, controller = ordered, ordered.controller
    view = window.map_view
    # the spearman is on screen: Next leaves the map where it is
    assert on_screen(window, SPEARMAN)
    before = QPointF(view.camera.offset)
    window.tracker_pane.next_button.click()
    QApplication.processEvents()
    assert controller.selected_id == SPEARMAN and view.camera.offset == before
    # the GM looks at a far corner: the flail fighter is off screen, and Next
    # brings him into view
    view.set_zoom(2.5)
    view.center_on(Hex.from_offset(0, 15))
    assert not on_screen(window, FLAIL)
    window.tracker_pane.next_button.click()
    QApplication.processEvents()
    assert controller.selected_id == FLAIL and on_screen(window, FLAIL)
