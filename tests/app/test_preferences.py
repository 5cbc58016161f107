"""Preferences: the typed value's round trip through QSettings, the dialog, and the
window that stores and shows them (colours redraw the map, Ask before ending a turn)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QColor, QImage, QKeySequence
from PySide6.QtWidgets import QColorDialog, QDialog, QMessageBox, QWidget

from app import theme
from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from app.map import painter as mp
from app.panes.widgets import clear_swatches
from app.preferences import (
    DEFAULT_CONFIRMATIONS,
    Confirmation,
    DiceMode,
    Preferences,
    PreferencesDialog,
    read_preferences,
    write_preferences,
)
from hexmap import Arc, Handedness
from rules.battle.model import Side


@pytest.fixture(autouse=True)
def shipped_colours() -> Iterator[None]:
    """The theme's colours are the program's: every test leaves the shipped ones."""
    yield
    theme.apply_colours(theme.DEFAULT_SIDE_COLOURS, theme.DEFAULT_ARC_COLOURS)
    clear_swatches()


def custom() -> Preferences:
    return (
        Preferences(
            default_handedness=Handedness.LEFT,
            animations=False,
            dice_mode=DiceMode.PHYSICAL,
            confirmations=frozenset({Confirmation.END_TURN}),
        )
        .with_colour(Side.RED, "#00ff00")
        .with_colour(Arc.REAR, "#123456")
    )


def test_preferences_round_trip_through_the_settings(tmp_path: Path) -> None:
    path = str(tmp_path / "prefs.ini")
    write_preferences(QSettings(path, QSettings.Format.IniFormat), custom())
    again = read_preferences(QSettings(path, QSettings.Format.IniFormat))
    assert again == custom()
    assert again.side_colours[Side.RED] == "#00ff00"
    assert again.side_colours[Side.BLUE] == theme.DEFAULT_SIDE_COLOURS[Side.BLUE]
    assert again.arc_colours[Arc.REAR] == "#123456"
    assert again.default_handedness is Handedness.LEFT
    assert again.dice_mode is DiceMode.PHYSICAL
    assert again.asks(Confirmation.END_TURN) and not again.asks(Confirmation.CLOSE_BATTLE)


def test_missing_or_damaged_settings_read_as_the_defaults(settings: QSettings) -> None:
    defaults = read_preferences(settings)
    assert defaults.side_colours == dict(theme.DEFAULT_SIDE_COLOURS)
    assert defaults.arc_colours == dict(theme.DEFAULT_ARC_COLOURS)
    assert defaults.default_handedness is Handedness.RIGHT
    assert defaults.dice_mode is DiceMode.COMPUTER
    assert defaults.confirmations == DEFAULT_CONFIRMATIONS
    assert defaults.animations is False  # nobody watches offscreen
    settings.setValue("colours/side/red", "not a colour")
    settings.setValue("dice/mode", "telepathy")
    settings.setValue("fighters/default_handedness", 7)
    settings.setValue("confirm/end_turn", "perhaps")
    damaged = read_preferences(settings)
    assert damaged.side_colours[Side.RED] == theme.DEFAULT_SIDE_COLOURS[Side.RED]
    assert damaged.dice_mode is DiceMode.COMPUTER
    assert damaged.default_handedness is Handedness.RIGHT
    assert not damaged.asks(Confirmation.END_TURN)


def test_the_dialog_shows_and_edits_every_preference(qtbot, monkeypatch) -> None:
    dialog = PreferencesDialog(custom())
    qtbot.addWidget(dialog)
    assert dialog.preferences() == custom()
    assert dialog.colour_buttons[Side.RED].text() == "#00ff00"
    assert dialog.handedness_combo.currentData() is Handedness.LEFT
    assert dialog.dice_combo.currentData() is DiceMode.PHYSICAL
    assert dialog.confirm_checks[Confirmation.END_TURN].isChecked()

    # a colour button asks the colour dialog
    monkeypatch.setattr(QColorDialog, "getColor", lambda *_args: QColor("#abcdef"))
    dialog.colour_buttons[Arc.FRONT].click()
    dialog.handedness_combo.setCurrentIndex(dialog.handedness_combo.findData(Handedness.RIGHT))
    dialog.dice_combo.setCurrentIndex(dialog.dice_combo.findData(DiceMode.COMPUTER))
    dialog.animations_check.setChecked(True)
    dialog.confirm_checks[Confirmation.END_TURN].setChecked(False)
    dialog.confirm_checks[Confirmation.CLOSE_BATTLE].setChecked(True)
    edited = dialog.preferences()
    assert edited.arc_colours[Arc.FRONT] == "#abcdef"
    assert edited.side_colours[Side.RED] == "#00ff00"
    assert edited.default_handedness is Handedness.RIGHT
    assert edited.dice_mode is DiceMode.COMPUTER
    assert edited.animations
    assert edited.confirmations == frozenset({Confirmation.CLOSE_BATTLE})

    # a cancelled colour dialog changes nothing; "Shipped colours" undoes the colours only
    monkeypatch.setattr(QColorDialog, "getColor", lambda *_args: QColor())
    dialog.colour_buttons[Side.BLUE].click()
    assert dialog.preferences().side_colours[Side.BLUE] == theme.DEFAULT_SIDE_COLOURS[Side.BLUE]
    dialog.default_colours_button.click()
    reset = dialog.preferences()
    assert reset.side_colours == dict(theme.DEFAULT_SIDE_COLOURS)
    assert reset.arc_colours == dict(theme.DEFAULT_ARC_COLOURS)
    assert reset.confirmations == frozenset({Confirmation.CLOSE_BATTLE})


def _pixels_near(image: QImage, colour: QColor, tolerance: int = 40) -> int:
    count = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            if (
                abs(c.red() - colour.red()) + abs(c.green() - colour.green())
                + abs(c.blue() - colour.blue()) < tolerance
            ):  # fmt: skip
                count += 1
    return count


def _token_image(window: MainWindow, combatant_id: str) -> QImage:
    view = window.map_view
    c = window.controller.state.combatant(combatant_id)
    centre = view.hex_center(c.hex)
    half = mp.token_extent(view.camera.hex_pixels)
    return view.grab().toImage().copy(
        round(centre.x() - half), round(centre.y() - half), round(2 * half), round(2 * half)
    )


def test_the_preferences_entry_stores_them_and_the_map_redraws_in_the_new_colours(
    qtbot, main_window: MainWindow, settings: QSettings, monkeypatch
) -> None:
    action = main_window.preferences_action
    file_menu = main_window.menuBar().actions()[0].menu()
    assert action in file_menu.actions()
    assert QKeySequence("Ctrl+,") in action.shortcuts()
    red = main_window.controller.state.combatant("c1")
    assert red.side is Side.RED
    green = QColor("#00ff00")
    assert _pixels_near(_token_image(main_window, "c1"), green) == 0

    def accept_with_new_colour(dialog: PreferencesDialog) -> int:
        dialog.set_colour(Side.RED, "#00ff00")
        dialog.dice_combo.setCurrentIndex(dialog.dice_combo.findData(DiceMode.PHYSICAL))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PreferencesDialog, "exec", accept_with_new_colour)
    action.trigger()
    assert main_window.preferences.dice_mode is DiceMode.PHYSICAL
    assert theme.SIDE_COLOURS[Side.RED] == green
    assert _pixels_near(_token_image(main_window, "c1"), green) > 20
    swatch = main_window.combatants_pane.model.index(0, 0).data(Qt.ItemDataRole.DecorationRole)
    assert swatch.pixmap(12, 12).toImage().pixelColor(6, 6) == green
    stored = read_preferences(settings)
    assert stored.side_colours[Side.RED] == "#00ff00"
    assert stored.dice_mode is DiceMode.PHYSICAL

    # the View menu's animation switch is the same preference
    main_window.animations_action.setChecked(True)
    assert main_window.preferences.animations and read_preferences(settings).animations
    main_window.animations_action.setChecked(False)
    assert not main_window.preferences.animations

    # cancelled: nothing changes
    monkeypatch.setattr(PreferencesDialog, "exec", lambda _d: QDialog.DialogCode.Rejected)
    action.trigger()
    assert main_window.preferences.dice_mode is DiceMode.PHYSICAL


def test_a_new_window_draws_in_the_stored_colours(qtbot, settings: QSettings) -> None:
    write_preferences(settings, custom())
    window = MainWindow(BattleController(load_demo_battle(1)), settings)
    qtbot.addWidget(window)
    assert window.preferences == custom()
    assert theme.SIDE_COLOURS[Side.RED] == QColor("#00ff00")
    assert theme.ARC_COLOURS[Arc.REAR] == QColor("#123456")


def test_ending_the_turn_asks_first_when_the_gm_wants_it(
    main_window: MainWindow, monkeypatch
) -> None:
    state = main_window.controller.state
    turn = state.turn
    asked: list[str] = []

    def answer(reply: QMessageBox.StandardButton):
        def question(_parent: QWidget, _title: str, text: str) -> QMessageBox.StandardButton:
            asked.append(text)
            return reply

        return question

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    main_window.end_turn()  # the default asks nothing
    assert asked == [] and main_window.controller.state.turn == turn + 1
    main_window.set_preferences(Preferences(confirmations=frozenset({Confirmation.END_TURN})))
    main_window.end_turn_action.trigger()
    assert len(asked) == 1 and main_window.controller.state.turn == turn + 1
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    main_window.end_turn_action.trigger()
    assert len(asked) == 2 and main_window.controller.state.turn == turn + 2
