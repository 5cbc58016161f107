"""Undo and redo in the window: the controller's undo and redo, their redraw plans,
the names of commands, and the Edit menu with Ctrl+Z and Ctrl+Shift+Z."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMenu

from app.command_names import command_label, command_name
from app.controller import BattleController, Redraw
from app.main_window import MainWindow, load_demo_battle
from hexmap import Facing, Hex
from rules.battle.battle import BattleChange, ChangeKind
from rules.battle.commands import (
    AddItem,
    Attack,
    EndTurn,
    MoveCombatant,
    PaintTerrain,
    TurnCombatant,
)
from rules.battle.items import ItemKind
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.battle.terrain import Light, TerrainChange
from rules.core.dice import DiceSource

SPEARMAN, FENCER = "c2", "c4"  # the demo's long spear reaches the fencer at once


def spear_attack(controller: BattleController) -> Attack:
    choices = controller.ruleset.attacks.default_attack(controller.state, SPEARMAN, FENCER)
    assert choices is not None
    return Attack(SPEARMAN, FENCER, choices)


@dataclass(frozen=True)
class ShoutWarCry(Command):
    """A command this app has no label for: it is named from its class."""

    combatant_id: str

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        return CommandResult(state, ())


def test_commands_are_named_with_the_combatants_of_the_state(
    controller: BattleController,
) -> None:
    state = controller.state
    assert command_name(spear_attack(controller), state) == "Attack: Spearman → Fencer"
    assert command_name(MoveCombatant(FENCER, Hex.from_offset(13, 7)), state) == "Move: Fencer"
    assert command_name(TurnCombatant(SPEARMAN, Facing.N), state) == "Turn: Spearman"
    assert command_name(EndTurn(), state) == "End Turn"
    change = TerrainChange(light=Light.DIM_4)
    assert command_name(PaintTerrain((Hex(0, 0),), change), state) == "Paint Terrain"
    dagger = AddItem(Hex(0, 0), "Dagger", ItemKind.WEAPON)
    assert command_name(dagger, state) == "Add Item: Dagger"
    assert command_label(ShoutWarCry(FENCER)) == "Shout War Cry"
    assert command_name(ShoutWarCry(FENCER), state) == "Shout War Cry: Fencer"
    assert command_name(ShoutWarCry("nobody"), state) == "Shout War Cry"


def test_the_controller_undoes_and_redoes_with_a_plan_for_each(
    controller: BattleController,
) -> None:
    seen: list[tuple[BattleChange, Redraw]] = []
    controller.battle_changed.connect(lambda change, redraw: seen.append((change, redraw)))
    start = controller.state
    controller.select(FENCER)
    events = controller.execute(MoveCombatant(FENCER, Hex.from_offset(13, 7)))
    assert events
    moved = controller.state

    undone = controller.undo()
    assert undone is not None and controller.state == start
    change, redraw = seen[-1]
    assert change is undone and change.kind is ChangeKind.UNDONE
    assert redraw.tokens == frozenset({FENCER}) and redraw.overlays and redraw.panes
    assert redraw.log_events == ()  # the log drops the command's rows instead
    assert not redraw.animate

    redone = controller.redo()
    assert redone is not None and controller.state == moved
    change, redraw = seen[-1]
    assert change is redone and change.kind is ChangeKind.REDONE
    assert redraw.log_events == events
    assert not redraw.animate
    assert [c.kind for c, _ in seen] == [ChangeKind.EXECUTED, ChangeKind.UNDONE, ChangeKind.REDONE]
    assert seen[0][1].animate


def test_the_controller_reports_nothing_to_undo_or_redo(controller: BattleController) -> None:
    refusals: list[str] = []
    controller.command_refused.connect(refusals.append)
    assert controller.undo() is None
    assert controller.redo() is None
    assert refusals == ["there is nothing to undo", "there is nothing to redo"]


def test_the_edit_menu_names_the_command_and_is_disabled_without_one(
    main_window: MainWindow,
) -> None:
    menus = {a.text(): a.menu() for a in main_window.menuBar().actions()}
    assert list(menus)[:2] == ["&File", "Edit"]
    edit = menus["Edit"]
    assert isinstance(edit, QMenu)
    assert edit.actions() == [main_window.undo_action, main_window.redo_action]
    undo, redo = main_window.undo_action, main_window.redo_action
    assert (undo.text(), undo.isEnabled(), redo.text(), redo.isEnabled()) == (
        "&Undo",
        False,
        "&Redo",
        False,
    )
    controller = main_window.controller
    controller.execute(spear_attack(controller))
    assert undo.isEnabled() and undo.text() == "&Undo Attack: Spearman → Fencer"
    assert not redo.isEnabled()
    undo.trigger()
    assert not undo.isEnabled()
    assert redo.isEnabled() and redo.text() == "&Redo Attack: Spearman → Fencer"
    controller.execute(MoveCombatant(FENCER, Hex.from_offset(13, 7)))
    assert undo.text() == "&Undo Move: Fencer"
    assert not redo.isEnabled() and redo.text() == "&Redo"


def test_ctrl_z_and_ctrl_shift_z_undo_and_redo_in_the_window(main_window: MainWindow) -> None:
    assert QKeySequence("Ctrl+Z") in main_window.undo_action.shortcuts()
    assert QKeySequence("Ctrl+Shift+Z") in main_window.redo_action.shortcuts()
    controller = main_window.controller
    start = controller.state
    controller.execute(spear_attack(controller))
    controller.execute(TurnCombatant(FENCER, Facing.S))
    end = controller.state
    view = main_window.map_view
    view.setFocus()
    control = Qt.KeyboardModifier.ControlModifier
    QTest.keyClick(view, Qt.Key.Key_Z, control)
    QTest.keyClick(view, Qt.Key.Key_Z, control)
    assert controller.state == start
    assert main_window.redo_action.text() == "&Redo Attack: Spearman → Fencer"
    shift_control = control | Qt.KeyboardModifier.ShiftModifier
    QTest.keyClick(view, Qt.Key.Key_Z, shift_control)
    QTest.keyClick(view, Qt.Key.Key_Z, shift_control)
    assert controller.state == end
    assert main_window.undo_action.text() == "&Undo Turn: Fencer"


def test_another_battle_empties_the_edit_menu(main_window: MainWindow) -> None:
    controller = main_window.controller
    controller.execute(TurnCombatant(FENCER, Facing.S))
    assert main_window.undo_action.isEnabled()
    controller.replace_battle(load_demo_battle())
    assert not main_window.undo_action.isEnabled() and not main_window.redo_action.isEnabled()
