"""The GM's small fixes (issue 10): Enter rolls anywhere in the window, Roll stays
put, the wheel leaves unfocused boxes alone, Ready from the map and the inspector,
the attack pane fits 1366 pixels, the legend folds away and stays folded."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QAction, QWheelEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QMenu,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from app.screenshot import stage
from rules.battle.battle import Battle
from rules.battle.commands import Attack, ReadyWeapon
from rules.sets.registry import get_ruleset


def _activate(qtbot, window: QWidget) -> None:
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)


def _attacks(window: MainWindow) -> int:
    return sum(isinstance(c, Attack) for c in window.controller.battle.commands)


@pytest.fixture
def laptop(qtbot, main_window: MainWindow) -> MainWindow:
    """The window at 1366x768, an attack prepared (the screenshot's), the window active."""
    main_window.resize(1366, 768)
    stage(main_window.controller)
    QApplication.processEvents()
    _activate(qtbot, main_window)
    return main_window


# --- Enter rolls wherever the focus is --------------------------------------------------
def test_enter_rolls_with_the_focus_on_the_map_or_in_a_list(qtbot, laptop: MainWindow) -> None:
    assert laptop.roll_action.shortcutContext() == Qt.ShortcutContext.WindowShortcut
    laptop.map_view.setFocus()
    qtbot.keyClick(laptop.map_view, Qt.Key.Key_Return)
    assert _attacks(laptop) == 1
    table = laptop.combatants_pane.table
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
    assert _attacks(laptop) == 2
    assert laptop.attack_pane.last_label.text().startswith("Last roll:")


def test_enter_in_a_box_being_typed_in_stays_there(qtbot, laptop: MainWindow) -> None:
    laptop.inspector_pane.raise_()
    laptop.controller.select("c1")
    spin = laptop.inspector_pane.hp_spin
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.setValue(spin.value() - 1)
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)  # applies the GM's HP edit
    assert _attacks(laptop) == 0
    assert laptop.controller.state.combatant("c1").hp == spin.value()
    search = laptop.log_pane.findChild(QLineEdit)
    assert search is not None
    search.setFocus()
    qtbot.keyClick(search, Qt.Key.Key_Return)
    assert _attacks(laptop) == 0
    laptop.map_view.setFocus()  # leaving the box gives Enter back to the roll
    qtbot.keyClick(laptop.map_view, Qt.Key.Key_Return)
    assert _attacks(laptop) == 1


def test_enter_in_a_dialog_is_the_dialogs(qtbot, laptop: MainWindow) -> None:
    dialog = QDialog(laptop)
    edit = QLineEdit(dialog)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok, dialog)
    buttons.accepted.connect(dialog.accept)
    layout = QVBoxLayout(dialog)
    layout.addWidget(edit)
    layout.addWidget(buttons)
    dialog.show()
    _activate(qtbot, dialog)
    edit.setFocus()
    accepted: list[bool] = []
    dialog.accepted.connect(lambda: accepted.append(True))
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert accepted == [True]
    assert _attacks(laptop) == 0


def test_enter_during_a_drop_pick_drops_into_the_own_hex(qtbot, laptop: MainWindow) -> None:
    c1 = laptop.controller.state.combatant("c1")
    laptop.map_view.setFocus()
    assert laptop.map_view.begin_drop("c1", c1.fighter.weapons[0].key)
    assert not laptop.roll_action.isEnabled()
    qtbot.keyClick(laptop.map_view, Qt.Key.Key_Return)
    assert _attacks(laptop) == 0
    assert laptop.map_view.drop_pick is None and laptop.roll_action.isEnabled()


# --- the Roll button stays where it is ---------------------------------------------------
def test_the_roll_button_does_not_move_when_the_pane_changes(qtbot, laptop: MainWindow) -> None:
    pane = laptop.attack_pane
    button = pane.roll_button

    def place() -> QPoint:
        QApplication.processEvents()
        return button.mapTo(pane, QPoint(0, 0))

    first = place()
    pane.roll()  # the last roll's line appears
    assert pane.last_label.text()
    assert place() == first
    pane.more.set_expanded(True)
    assert place() == first
    far = next(
        c.id for c in laptop.controller.state.combatants
        if c.side is not laptop.controller.state.combatant("c1").side and c.id != "c3"
    )  # fmt: skip
    laptop.controller.set_target(far)  # out of reach: a refusal instead of odds
    QApplication.processEvents()
    assert pane.error_label.isVisible()
    assert place() == first


# --- the wheel over a box that has no focus scrolls the pane ------------------------------
def _wheel(widget: QWidget, dy: int) -> None:
    at = QPointF(5, 5)
    QApplication.sendEvent(
        widget,
        QWheelEvent(
            at, QPointF(widget.mapToGlobal(at)), QPoint(), QPoint(0, dy),
            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase, False,
        ),
    )  # fmt: skip


def test_the_wheel_scrolls_the_pane_until_a_box_has_the_focus(qtbot, laptop: MainWindow) -> None:
    laptop.inspector_pane.raise_()
    laptop.controller.select("c1")
    QApplication.processEvents()
    combo = laptop.inspector_pane.status_combo
    assert combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
    scroll = laptop.inspector_pane.findChild(QScrollArea)
    assert scroll is not None
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0, "the inspector scrolls at 1366x768"
    bar.setValue(0)
    laptop.map_view.setFocus()
    index = combo.currentIndex()
    _wheel(combo, -120)
    assert combo.currentIndex() == index
    assert bar.value() > 0
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    _wheel(combo, -120)
    assert combo.currentIndex() != index


def test_every_box_of_every_pane_is_guarded(laptop: MainWindow) -> None:
    boxes = [box for pane in laptop.panes for box in pane.findChildren(QComboBox)]
    assert len(boxes) > 10
    assert all(box.focusPolicy() == Qt.FocusPolicy.StrongFocus for box in boxes)


# --- Ready from the token's menu and from the inspector ------------------------------------
def _with_unready_weapon(window: MainWindow) -> str:
    state = window.controller.state
    c1 = state.combatant("c1")
    key = c1.fighter.weapons[0].key
    unready = replace(c1, unready=frozenset({key}))
    window.controller.replace_battle(Battle(state.with_combatants(unready), 1, get_ruleset))
    return key


def test_ready_from_the_tokens_menu(laptop: MainWindow) -> None:
    key = _with_unready_weapon(laptop)
    c1 = laptop.controller.state.combatant("c1")
    menu = laptop.map_view.context_menu_for(c1.hex)
    assert menu is not None
    action = next(a for a in menu.findChildren(QAction) if a.objectName() == f"ready:{key}")
    action.trigger()
    assert key not in laptop.controller.state.combatant("c1").unready
    assert laptop.controller.battle.commands[-1] == ReadyWeapon("c1", key)
    menu = laptop.map_view.context_menu_for(c1.hex)
    assert menu is not None and menu.findChild(QMenu, "readyMenu") is None


def test_ready_from_the_inspector(laptop: MainWindow) -> None:
    key = _with_unready_weapon(laptop)
    laptop.controller.select("c1")
    inspector = laptop.inspector_pane
    assert inspector.ready_button.isEnabled()
    actions = [a for a in inspector.ready_menu.actions() if not a.isSeparator()]
    # Readying the unready sword, then putting away what the hands hold (the shield
    # stays on its arm).
    assert [a.objectName() for a in actions] == [f"ready:{key}", f"putAway:{key}"]
    actions[0].trigger()
    assert laptop.controller.battle.commands[-1] == ReadyWeapon("c1", key)
    names = [a.objectName() for a in inspector.ready_menu.actions()]
    assert names == [f"putAway:{key}"]  # nothing left to ready


# --- the attack pane fits beside the map on a 1366-pixel screen ---------------------------
def test_the_attack_pane_fits_1366_pixels_without_clipping(qtbot, laptop: MainWindow) -> None:
    pane = laptop.attack_pane
    assert laptop.width() <= 1366
    for expanded in (False, True):
        pane.more.set_expanded(expanded)
        QApplication.processEvents()
        body = pane.findChild(QWidget, "attackBody")
        viewport = pane.scroll_area.viewport()
        assert body.minimumSizeHint().width() <= viewport.width(), expanded
        for widget in body.findChildren(QWidget):
            if widget.isVisibleTo(body) and widget.parentWidget() is body:
                right = widget.mapTo(body, QPoint(widget.width(), 0)).x()
                assert right <= viewport.width(), (expanded, widget.objectName())


# --- the legend folds away, and stays folded ------------------------------------------------
def test_the_legend_folds_on_a_click_and_stays_folded(
    qtbot, laptop: MainWindow, settings: QSettings
) -> None:
    view = laptop.map_view
    laptop.controller.select("c1")
    open_rect = view.legend_rect()
    assert not view.legend_folded and open_rect.height() > 100
    view.tools.click(open_rect.center())
    assert view.legend_folded
    folded = view.legend_rect()
    assert folded.height() < 40 and folded.bottom() == open_rect.bottom()
    assert laptop.fold_legend_action.isChecked()
    assert settings.value("view/legend_folded", False, type=bool)
    assert laptop.controller.selected_id == "c1"  # the click did not reach the map
    again = MainWindow(BattleController(load_demo_battle(1)), settings)
    qtbot.addWidget(again)
    assert again.map_view.legend_folded and again.fold_legend_action.isChecked()
    again.fold_legend_action.trigger()  # View ▸ Fold the Legend opens it again
    assert not again.map_view.legend_folded
    assert not settings.value("view/legend_folded", True, type=bool)
