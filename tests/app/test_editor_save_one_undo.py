"""The character editor's Save that changes the sheet and who plays the fighter is
one gesture: one command (``Together``), one line of the Edit menu, one undo; it is
saved, reopened and replayed as one (issue 25)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.character_editor import CharacterEditing
from app.command_names import command_name
from rules.battle.battle import Battle
from rules.battle.control import SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.edits import EditFighter
from rules.battle.together import Together, together
from rules.core.dice import SeededDice
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset
from tests.app.demo_panes import demo_controller
from tests.app.turn_order_window import SPEARMAN
from tests.rules.test_edits import reopened


def test_save_with_a_new_name_and_a_computer_controller_is_one_undo(qtbot: QtBot) -> None:
    controller = demo_controller()
    parent = QWidget()
    qtbot.addWidget(parent)
    editing = CharacterEditing(controller, parent, lambda: None)
    before = controller.state
    editor = editing.edit(SPEARMAN)
    editor.name_edit.setText("Old Spearman")
    editor.revalidate()
    editor.played_by_box.setCurrentIndex(editor.played_by_box.findData("careful"))
    editor.accept()
    battle = controller.battle
    (command,) = battle.commands
    assert isinstance(command, Together)
    assert [type(c) for c in command.commands] == [EditFighter, SetControllers]
    state = controller.state
    assert state.combatant(SPEARMAN).name == "Old Spearman"
    assert state.controller(SPEARMAN) == PolicyChoice("careful")
    assert command_name(command, state) == "Edit Sheet + Played By: Old Spearman"
    loaded = reopened(battle)
    assert loaded.state.controller(SPEARMAN) == PolicyChoice("careful")
    again = Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset)
    assert again.state == state
    controller.undo()
    assert controller.state == before
    assert battle.commands == ()


def test_only_one_change_stays_a_plain_command() -> None:
    handed = SetControllers((("x", None),))
    assert together(None, handed) is handed
    assert together(None, None) is None
    assert together(handed, handed) == Together((handed, handed))


def test_a_refused_part_refuses_the_whole_group() -> None:
    controller = demo_controller()
    state = controller.state
    bad = Together((SetControllers(((SPEARMAN, PolicyChoice("careful")),)), Together(())))
    with pytest.raises(IllegalCommandError):
        bad.apply(state, SeededDice(1), controller.battle.ruleset_of(state))
    with pytest.raises(IllegalCommandError):
        Together(()).apply(state, SeededDice(1), controller.battle.ruleset_of(state))
