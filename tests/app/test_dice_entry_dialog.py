"""Physical dice in the window: the dialog that asks for a roll (it names the roll,
refuses a face no die shows, and is quick from the keyboard), the controller running
commands on the entered faces (a cancel changes nothing, a redo asks nothing), and
the toolbar's switch with the preference."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.dice_entry import DiceEntryDialog, DiceEntryPrompt
from app.files import Autosave, find_recoverable, recover
from app.main_window import MainWindow
from app.panes.combat_log import CombatLogPane
from app.preferences import DiceMode, read_preferences
from rules.battle.battle import BattleChange
from rules.battle.commands import Attack
from rules.core.dice import DiceEntryCancelled, DiceRequest
from rules.sets.protocol import plain_attack

SPEARMAN, FENCER = "c2", "c4"  # the demo's long spear reaches the fencer at once


def spear_attack(controller: BattleController) -> Attack:
    """The spearman's default attack, the fencer answering with his likeliest defense."""
    attack = plain_attack(controller.ruleset, controller.state, SPEARMAN, FENCER)
    assert attack is not None
    return attack


class Table:
    """The GM at the table, scripted: enters faces from its own generator (after
    ``first``) and keeps what it was asked; cancels the roll numbered ``cancel_at``."""

    def __init__(
        self, seed: int = 4, *, first: Sequence[int] = (), cancel_at: int | None = None
    ) -> None:
        self._random = random.Random(seed)
        self._first = list(first)
        self._cancel_at = cancel_at
        self.asked: list[tuple[str, DiceRequest]] = []
        self.faces: list[int] = []

    def __call__(self, context: str, request: DiceRequest) -> Sequence[int]:
        self.asked.append((context, request))
        if self._cancel_at is not None and len(self.asked) > self._cancel_at:
            raise DiceEntryCancelled(str(request))
        faces = [
            self._first.pop(0) if self._first else self._random.randint(request.low, request.high)
            for _ in range(request.count)
        ]
        self.faces.extend(faces)
        return faces


# --- the dialog ---------------------------------------------------------------------


def show_active(qtbot: QtBot, dialog: DiceEntryDialog) -> None:
    """Show the dialog as the active window, its first die with the focus."""
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    qtbot.waitUntil(dialog.fields[0].hasFocus)


def test_the_dialog_names_the_roll_and_its_command(qtbot: QtBot) -> None:
    dialog = DiceEntryDialog(DiceRequest("Fencer's parry", 3, 6), "Attack: Spearman → Fencer")
    qtbot.addWidget(dialog)
    assert dialog.what_label.text() == "Fencer's parry: 3d6"
    assert dialog.context_label.text() == "Attack: Spearman → Fencer"
    assert len(dialog.fields) == 3
    damage = DiceEntryDialog(DiceRequest("Spearman's damage", 2, 6, adds=1))
    qtbot.addWidget(damage)
    assert damage.what_label.text() == "Spearman's damage: 2d6+1"
    unnamed = DiceEntryDialog(DiceRequest("", 1, 3))
    qtbot.addWidget(unnamed)
    assert unnamed.what_label.text() == "A roll: 1d3"


def test_a_face_no_die_shows_keeps_ok_disabled(qtbot: QtBot) -> None:
    dialog = DiceEntryDialog(DiceRequest("Fencer's parry", 3, 6))
    qtbot.addWidget(dialog)
    first, second, third = dialog.fields
    qtbot.keyClicks(first, "4")
    qtbot.keyClicks(second, "2")
    qtbot.keyClicks(third, "7")  # no face of a d6
    assert third.text() == "7"
    assert not dialog.ok_button.isEnabled()
    assert "7 is no face of a d6" in dialog.hint_label.text()
    qtbot.keyClick(third, Qt.Key.Key_Return)
    assert dialog.result() != DiceEntryDialog.DialogCode.Accepted and not dialog.complete
    third.clear()
    qtbot.keyClicks(third, "0")  # nor is 0
    assert not dialog.ok_button.isEnabled()
    third.clear()
    qtbot.keyClicks(third, "6")
    assert dialog.ok_button.isEnabled() and dialog.faces() == (4, 2, 6)
    assert dialog.total_label.text() == "= 12"


def test_the_keyboard_alone_types_the_faces_and_enter_accepts(qtbot: QtBot) -> None:
    dialog = DiceEntryDialog(DiceRequest("Spearman's attack", 3, 6))
    qtbot.addWidget(dialog)
    show_active(qtbot, dialog)
    assert dialog.fields[0].hasFocus()
    for digit in "531":  # each digit completes a d6's face: the focus moves on by itself
        widget = QApplication.focusWidget()
        assert widget is not None
        qtbot.keyClicks(widget, digit)
    assert dialog.fields[2].hasFocus()
    qtbot.keyClick(dialog.fields[2], Qt.Key.Key_Backspace)  # a slip: 1 out
    qtbot.keyClick(dialog.fields[2], Qt.Key.Key_Backspace)  # empty: back to die 2
    assert dialog.fields[1].hasFocus()
    qtbot.keyClicks(dialog.fields[1], "6")  # replaces the 3, on to die 3
    qtbot.keyClicks(dialog.fields[2], "2")
    qtbot.keyClick(dialog.fields[2], Qt.Key.Key_Return)
    assert dialog.result() == DiceEntryDialog.DialogCode.Accepted
    assert dialog.faces() == (5, 6, 2)


def test_a_two_digit_face_waits_for_its_second_digit(qtbot: QtBot) -> None:
    dialog = DiceEntryDialog(DiceRequest("where the piece lands", 2, 12))
    qtbot.addWidget(dialog)
    show_active(qtbot, dialog)
    qtbot.keyClicks(dialog.fields[0], "1")
    assert dialog.fields[0].hasFocus()  # 1 may yet be 10, 11 or 12
    qtbot.keyClicks(dialog.fields[0], "1")
    assert dialog.fields[1].hasFocus()
    qtbot.keyClicks(dialog.fields[1], "13")
    assert not dialog.ok_button.isEnabled()


def test_the_prompt_gives_the_faces_or_cancels(qtbot: QtBot) -> None:
    prompt = DiceEntryPrompt()
    request = DiceRequest("Fencer's parry", 3, 6)

    def type_faces() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, DiceEntryDialog)
        for field, face in zip(dialog.fields, "364", strict=True):
            qtbot.keyClicks(field, face)
        qtbot.keyClick(dialog.fields[-1], Qt.Key.Key_Return)

    QTimer.singleShot(0, type_faces)
    assert prompt("Attack: Spearman → Fencer", request) == (3, 6, 4)

    def press_escape() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, DiceEntryDialog)
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)

    QTimer.singleShot(0, press_escape)
    with pytest.raises(DiceEntryCancelled):
        prompt("Attack: Spearman → Fencer", request)


# --- the controller -----------------------------------------------------------------


def test_the_controller_runs_a_command_on_the_entered_faces(
    controller: BattleController,
) -> None:
    table = Table()
    controller.set_dice_entry(table)
    changes: list[BattleChange] = []
    controller.battle_changed.connect(lambda change, _redraw: changes.append(change))
    assert controller.execute(spear_attack(controller)) is not None
    battle = controller.battle
    assert table.faces and battle.dice_log[-1] == tuple(table.faces)
    assert battle.entered_log[-1] and changes[-1].dice_entered
    assert {context for context, _ in table.asked} == {"Attack: Spearman → Fencer"}
    assert table.asked[0][1].what == "Spearman's attack"


def test_a_cancel_at_the_table_abandons_the_command_with_nothing_changed(
    controller: BattleController,
) -> None:
    battle = controller.battle
    state, commands = battle.state, battle.commands
    cancelled: list[str] = []
    refused: list[str] = []
    changed: list[object] = []
    controller.command_cancelled.connect(cancelled.append)
    controller.command_refused.connect(refused.append)
    controller.battle_changed.connect(lambda *args: changed.append(args))
    # The attack roll hits (9), the fencer's defense is cancelled.
    controller.set_dice_entry(Table(first=(3, 3, 3), cancel_at=1))
    assert controller.execute(spear_attack(controller)) is None
    assert battle.state is state and battle.commands == commands and battle.dice_log == ()
    assert cancelled == ["Attack: Spearman → Fencer"] and refused == [] and changed == []


def test_a_redo_of_entered_dice_asks_nothing(controller: BattleController) -> None:
    table = Table()
    controller.set_dice_entry(table)
    controller.execute(spear_attack(controller))
    after, asked = controller.state, len(table.asked)
    controller.undo()
    change = controller.redo()
    assert change is not None and change.dice_entered
    assert controller.state == after and len(table.asked) == asked


def test_computer_dice_again_once_the_entry_is_off(controller: BattleController) -> None:
    table = Table()
    controller.set_dice_entry(table)
    assert controller.dice_entered
    controller.set_dice_entry(None)
    controller.execute(spear_attack(controller))
    assert table.asked == [] and controller.battle.entered_log == (False,)


# --- the switch and the preference ------------------------------------------------------


def test_the_toolbar_switch_sets_the_preference_and_the_controller(
    main_window: MainWindow, settings: QSettings
) -> None:
    action = main_window.physical_dice_action
    assert main_window.toolbar.widgetForAction(action) is not None
    assert not action.isChecked() and not main_window.controller.dice_entered
    action.trigger()
    assert action.isChecked() and main_window.controller.dice_entered
    assert main_window.preferences.dice_mode is DiceMode.PHYSICAL
    assert read_preferences(settings).dice_mode is DiceMode.PHYSICAL
    action.trigger()
    assert not main_window.controller.dice_entered
    assert read_preferences(settings).dice_mode is DiceMode.COMPUTER


def test_the_preference_sets_the_switch(main_window: MainWindow) -> None:
    main_window.set_preferences(replace(main_window.preferences, dice_mode=DiceMode.PHYSICAL))
    assert main_window.physical_dice_action.isChecked() and main_window.controller.dice_entered


# --- the combat log -------------------------------------------------------------------


def entered_lines(pane: CombatLogPane) -> list[str]:
    return [line.text for row in pane.rows for line in row.lines if line.text.startswith("Ent")]


def test_the_log_shows_each_entered_roll_on_its_own_line_and_keeps_them_on_a_rebuild(
    qtbot: QtBot, controller: BattleController
) -> None:
    pane = CombatLogPane(controller)
    qtbot.addWidget(pane)
    # The spear hits (9), the fencer's parry fails (16), the damage die shows 4.
    controller.set_dice_entry(Table(first=(3, 3, 3, 5, 5, 6, 4)))
    controller.execute(spear_attack(controller))
    shown = [
        "Entered: Spearman's attack (3d6): 3, 3, 3",
        "Entered: Fencer's parry (3d6): 5, 5, 6",
        "Entered: Spearman's damage (1d6+2): 4",
    ]
    assert entered_lines(pane)[:3] == shown
    attack = next(row for row in pane.rows if row.lines[-1].text == entered_lines(pane)[-1])
    assert attack.title.startswith("Spearman → Fencer: Long spear thrust")
    assert "entered" not in attack.title  # no longer every face on the attack's first line
    assert "Entered at the table: Spearman's attack (3d6): 3, 3, 3" in attack.plain_text()
    lines = entered_lines(pane)
    controller.set_dice_entry(None)
    controller.execute(spear_attack(controller))  # the computer's dice: no such line
    assert entered_lines(pane) == lines
    pane.rebuild()  # as after opening the battle from its file
    assert entered_lines(pane) == lines
    controller.undo()
    controller.undo()
    assert entered_lines(pane) == []
    controller.redo()  # the redo's rows show the entered rolls again
    assert entered_lines(pane) == lines


# --- the autosave journal -----------------------------------------------------------------


def test_a_recovered_battle_keeps_the_entered_mark(
    tmp_path: Path, controller: BattleController
) -> None:
    battle = controller.battle
    autosave = Autosave(battle, tmp_path)
    battle.subscribe(autosave.record)
    controller.set_dice_entry(Table(first=(3, 3, 3, 5, 5, 6)))
    controller.execute(spear_attack(controller))
    controller.set_dice_entry(None)
    controller.execute(spear_attack(controller))
    controller.undo()
    controller.redo()
    autosave.set_aside()  # as a crash leaves it: the journal, without its window's lock
    (entry,) = find_recoverable(tmp_path)
    recovered = recover(entry)
    assert recovered.state == battle.state and recovered.dice_log == battle.dice_log
    assert list(recovered.entered_log) == [True, False]
