"""The character editor and the sides editor: a field out of range, a weapon
without a skill or with a reach the map cannot show gets its message beside it
and Save stays disabled; a valid edit executes one command that undoes; the sides
editor's changes are commands."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QLineEdit, QMenu, QSpinBox, QTableWidgetItem, QWidget
from pytestqt.qtbot import QtBot

from app.character_editor import (
    DICE_COLUMN,
    DICE_HINT,
    HALF_DAMAGE_COLUMN,
    RANGE_COLUMN,
    CharacterEditing,
    CharacterEditor,
    SidesEditor,
    dice_of,
)
from app.command_names import command_name
from app.controller import BattleController
from app.main_window import MainWindow
from rules.battle.edits import AddSide, ChangeSide, EditFighter, RecolourSide, RenameSide
from rules.battle.limits import MAX_WEAPONS
from rules.battle.model import DamageBase, Side
from rules.battle.state import Command
from rules.core.dice import Dice
from rules.sets.seed000.sheet import sheet_of
from tests.app.demo_panes import demo_controller

SPEARMAN = "c2"


def editor_on(qtbot: QtBot, controller: BattleController, combatant_id: str) -> CharacterEditor:
    state = controller.state
    editor = CharacterEditor(controller.ruleset, state, state.combatant(combatant_id))
    qtbot.addWidget(editor)
    return editor


def last(controller: BattleController) -> Command:
    return controller.battle.commands[-1]


def spin(editor: CharacterEditor, key: str) -> QSpinBox:
    box = editor.field_boxes[key]
    assert isinstance(box, QSpinBox)
    return box


def test_the_editor_opens_valid_on_every_demo_fighter_and_fits_a_laptop(qtbot: QtBot) -> None:
    controller = demo_controller()
    for combatant in controller.state.combatants:
        editor = editor_on(qtbot, controller, combatant.id)
        assert editor.problems == ()
        assert editor.save_button.isEnabled()
        assert editor.command() is None  # nothing changed yet
        assert editor.sizeHint().width() <= 1366 and editor.sizeHint().height() <= 700
        assert editor.width() <= 1366 and editor.height() <= 700


def test_a_stat_out_of_range_is_named_beside_it_and_save_is_disabled(qtbot: QtBot) -> None:
    editor = editor_on(qtbot, demo_controller(), SPEARMAN)
    spin(editor, "st").setValue(60)
    assert editor.message("st") == "ST must be 1 to 50, not 60."
    assert not editor.save_button.isEnabled()
    assert editor.command() is None
    assert editor.tabs.tabText(0) == "⚠ Sheet"
    spin(editor, "st").setValue(15)
    assert editor.message("st") == ""
    assert editor.save_button.isEnabled()
    assert editor.tabs.tabText(0) == "Sheet"


def test_a_weapon_without_a_skill_and_a_reach_too_long_are_named(qtbot: QtBot) -> None:
    editor = editor_on(qtbot, demo_controller(), SPEARMAN)
    editor.add_new_weapon()
    assert editor.message("weapon/skill") == "New weapon needs the skill it is used with."
    assert not editor.save_button.isEnabled()
    editor.weapon_skill.setCurrentText("Broadsword")
    assert editor.message("weapon/skill") == (
        "New weapon is used with Broadsword, which is not among the skills: add it under Skills."
    )
    editor.add_skill("Broadsword", 12)
    assert editor.message("weapon/skill") == ""
    assert editor.save_button.isEnabled()
    reach = editor.mode_widget(0, 4)
    assert isinstance(reach, QLineEdit)
    reach.setText("1-40")
    reach.textEdited.emit("1-40")
    assert editor.message("weapon/modes") == (
        "Mode 1: Reach 1-40 is longer than this map can show "
        "(at most 27 hexes from one edge to the other)."
    )
    reach.setText("one")
    reach.textEdited.emit("one")
    assert editor.message("weapon/modes") == "Mode 1: Write a reach as C, 1, 2, 1-2 or C,1."
    assert not editor.save_button.isEnabled()
    assert editor.tabs.tabText(2) == "⚠ Weapons"
    reach.setText("1")
    reach.textEdited.emit("1")
    assert editor.save_button.isEnabled()


def test_fixed_damage_without_dice_is_named_and_not_saved(qtbot: QtBot) -> None:
    editor = editor_on(qtbot, demo_controller(), SPEARMAN)
    editor.add_new_weapon()
    editor.weapon_skill.setCurrentText("Spear")
    assert editor.save_button.isEnabled()
    base = editor.mode_widget(0, 1)
    dice = editor.mode_widget(0, DICE_COLUMN)
    assert isinstance(base, QComboBox) and isinstance(dice, QLineEdit)
    assert not dice.isEnabled() and not dice.placeholderText()  # sw: the wielder's dice
    base.setCurrentText("fixed")  # the swing's base, and no dice typed yet
    assert dice.isEnabled() and dice.placeholderText() == "1d6"
    assert editor.message("weapon/modes") == f"Mode 1: {DICE_HINT}"
    assert not editor.save_button.isEnabled()
    assert editor.command() is None
    base.setCurrentText("sw")
    assert editor.save_button.isEnabled()


def test_a_fixed_modes_dice_are_typed_in(qtbot: QtBot) -> None:
    controller = demo_controller()
    editor = editor_on(qtbot, controller, SPEARMAN)
    editor.add_new_weapon()
    editor.weapon_skill.setCurrentText("Spear")
    base, dice = editor.mode_widget(0, 1), editor.mode_widget(0, DICE_COLUMN)
    assert isinstance(base, QComboBox) and isinstance(dice, QLineEdit)
    base.setCurrentText("fixed")
    for text in ("d8", "1d1", "one", "1d8+"):
        dice.setText(text)
        dice.textEdited.emit(text)
        assert editor.message("weapon/modes") == f"Mode 1: {DICE_HINT}", text
    dice.setText("1d8+1")
    dice.textEdited.emit("1d8+1")
    assert editor.save_button.isEnabled()
    command = editor.command()
    assert isinstance(command, EditFighter)
    mode = command.fighter.weapons[-1].modes[0]
    assert mode.damage.base is DamageBase.FIXED and mode.damage.fixed == Dice(1, 1, 8)
    # the dice stand beside the base, and a weapon's fixed dice show as they are
    header = editor.modes_table.horizontalHeader()
    assert header.visualIndex(DICE_COLUMN) == 2
    assert (dice_of("2d-1"), dice_of("3d6"), dice_of(" 1 d 10 + 2 ")) == (
        Dice(2, -1), Dice(3), Dice(1, 2, 10)
    )


def test_a_skill_level_out_of_range_is_named_under_the_skills(qtbot: QtBot) -> None:
    editor = editor_on(qtbot, demo_controller(), SPEARMAN)
    table = editor.skills_table
    names = [table.item(r, 0) for r in range(table.rowCount())]
    row = next(r for r, item in enumerate(names) if item is not None and item.text() == "Spear")
    table.setItem(row, 1, QTableWidgetItem("40"))
    assert editor.message("skills") == "Spear must be 1 to 30, not 40."
    assert not editor.save_button.isEnabled()


def test_a_valid_edit_executes_one_command_that_undoes(qtbot: QtBot) -> None:
    controller = demo_controller()
    controller.select(SPEARMAN)
    parent = QWidget()
    qtbot.addWidget(parent)
    recoloured: list[bool] = []
    editing = CharacterEditing(controller, parent, lambda: recoloured.append(True))
    assert editing.edit_action.isEnabled()
    before = controller.state
    editing.edit_selected()
    editor = editing.editor
    assert editor is not None
    spin(editor, "st").setValue(14)
    editor.name_edit.setText("Spear captain")
    editor.name_edit.textEdited.emit("Spear captain")
    armor = editor.armor_source
    armor.setCurrentIndex(armor.findText("Chainmail", Qt.MatchFlag.MatchContains))
    side_box: QComboBox = editor.side_box
    side_box.setCurrentIndex(side_box.findData(Side.GREEN))
    assert editor.save_button.isEnabled()
    editor.save_button.click()
    command = controller.battle.commands[-1]
    assert isinstance(command, EditFighter)
    spearman = controller.state.combatant(SPEARMAN)
    assert spearman.name == "Spear captain"
    assert sheet_of(spearman.fighter).attributes.st == 14
    assert spearman.fighter.armor is not None and "hain" in spearman.fighter.armor.name
    assert spearman.side is Side.GREEN
    assert len(controller.battle.commands) == 1
    assert recoloured == []  # the sides themselves did not change
    controller.undo()
    assert controller.state == before


def test_gear_entered_by_hand_is_saved(qtbot: QtBot) -> None:
    controller = demo_controller()
    editor = editor_on(qtbot, controller, SPEARMAN)
    editor.shield_source.setCurrentIndex(editor.shield_source.findData("Entered by hand"))
    assert editor.message("shield/name") == "It needs a name."
    editor.shield_name.setText("Door")
    editor.shield_name.textEdited.emit("Door")
    editor.shield_pd.setValue(3)
    assert editor.save_button.isEnabled()
    command = editor.command()
    assert isinstance(command, EditFighter)
    controller.execute(command)
    shield = controller.state.combatant(SPEARMAN).fighter.shield
    assert shield is not None and (shield.name, shield.pd) == ("Door", 3)


def test_a_mode_past_the_boxes_usual_range_keeps_its_numbers_through_an_edit(
    qtbot: QtBot,
) -> None:
    controller = demo_controller()
    spearman = controller.state.combatant(SPEARMAN).fighter
    spear = spearman.weapons[0]
    mode = spear.modes[0]
    far_out = replace(mode, damage=replace(mode.damage, adds=25), skill_modifier=-12)
    imported = replace(spear, modes=(far_out, *spear.modes[1:]))
    controller.execute(
        EditFighter(SPEARMAN, replace(spearman, weapons=(imported, *spearman.weapons[1:])))
    )
    editor = editor_on(qtbot, controller, SPEARMAN)
    assert editor.current_weapon == 0
    editor.weapon_name.setText("Boar spear")
    editor.weapon_name.textEdited.emit("Boar spear")
    assert editor.problems == ()
    command = editor.command()
    assert isinstance(command, EditFighter)
    edited = command.fighter.weapons[0]
    assert edited.name == "Boar spear"
    assert (edited.modes[0].damage.adds, edited.modes[0].skill_modifier) == (25, -12)


def test_the_sides_editor_sets_up_renames_recolours_and_moves(qtbot: QtBot) -> None:
    controller = demo_controller()
    picked = QColor("#123456")
    sides = SidesEditor(controller, choose_colour=lambda _current, _parent: picked)
    qtbot.addWidget(sides)
    assert sides.shown_sides() == (Side.RED, Side.BLUE)
    red = sides.rows[Side.RED]
    red.name_edit.setText("Bandits")
    sides.rename(Side.RED)  # not set up yet: set up with its name
    assert last(controller) == AddSide(Side.RED, "Bandits", sides.colour_of(Side.RED))
    red.name_edit.setText("Robbers")
    sides.rename(Side.RED)
    assert last(controller) == RenameSide(Side.RED, "Robbers")
    sides.recolour(Side.RED)
    assert last(controller) == RecolourSide(Side.RED, "#123456")
    sides.add_side()
    assert last(controller) == AddSide(Side.GREEN, "Green", sides.colour_of(Side.GREEN))
    assert Side.GREEN in sides.rows
    sides.fighter_box.setCurrentIndex(sides.fighter_box.findData("c3"))
    sides.target_side.setCurrentIndex(sides.target_side.findData(Side.GREEN))
    sides.move_fighter()
    assert last(controller) == ChangeSide("c3", Side.GREEN)
    assert sides.rows[Side.GREEN].count_label.text() == "1 fighter"
    sides.rows[Side.BLUE].name_edit.setText("robbers")
    sides.rename(Side.BLUE)
    assert sides.refusal.text() == "another side is already named 'robbers'"
    assert sides.rows[Side.BLUE].name_edit.text() == "Blue"
    controller.undo()
    assert controller.state.combatant("c3").side is Side.BLUE


def test_the_window_opens_the_editors_from_the_menu_the_inspector_and_double_clicks(
    qtbot: QtBot, main_window: MainWindow
) -> None:
    window = main_window
    editing = window.character_editing
    battle_menu = next(
        a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Battle"
    )
    assert isinstance(battle_menu, QMenu)
    entries = [a for a in battle_menu.actions() if isinstance(a, QAction)]
    assert editing.edit_action in entries and editing.sides_action in entries
    controller = window.controller
    controller.select(SPEARMAN)
    window.inspector_pane.edit_sheet_button.click()
    assert editing.editor is not None and editing.editor.windowTitle() == "Edit Spearman"
    editing.editor.reject()
    table = window.combatants_pane.table
    row = window.combatants_pane.model.row_of("c3")
    table.doubleClicked.emit(window.combatants_pane.model.index(row, 0))
    assert editing.editor.windowTitle() == "Edit Flail fighter"
    editing.editor.reject()
    view = window.map_view
    fencer = controller.state.combatant("c4")
    where = view.hex_center(fencer.hex).toPoint()
    QTest.mouseDClick(view, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where)
    assert editing.editor.windowTitle() == "Edit Fencer"
    assert controller.state.combatant("c4").hex == fencer.hex  # no move, no drag
    editing.editor.reject()
    sides = editing.edit_sides()
    assert sides.isVisible()
    sides.add_side()
    assert command_name(controller.battle.commands[-1], controller.state) == "Add Side"


def test_a_change_of_the_sides_repaints_the_tokens_and_so_does_its_undo(qtbot: QtBot) -> None:
    controller = demo_controller()
    parent = QWidget()
    qtbot.addWidget(parent)
    repaints: list[bool] = []
    CharacterEditing(controller, parent, lambda: repaints.append(True))
    controller.execute(ChangeSide("c1", Side.BLUE))
    assert repaints == []  # the sides themselves are as they were
    controller.execute(AddSide(Side.GOLD, "Guard", "#c0a000"))
    assert repaints == [True]
    controller.undo()
    assert repaints == [True, True]


def test_a_thrown_modes_range_is_edited_and_a_melee_mode_has_none(qtbot: QtBot) -> None:
    editor = editor_on(qtbot, demo_controller(), SPEARMAN)
    knife = next(i for i, w in enumerate(editor._weapons) if w.key == "knife")
    editor.weapon_list.setCurrentRow(knife)
    modes = [m.name for m in editor._weapons[knife].modes]
    swing, throw = modes.index("swing"), modes.index("throw")
    melee_range = editor.mode_widget(swing, RANGE_COLUMN)
    far = editor.mode_widget(throw, RANGE_COLUMN)
    half = editor.mode_widget(throw, HALF_DAMAGE_COLUMN)
    assert isinstance(melee_range, QSpinBox) and not melee_range.isEnabled()
    assert melee_range.text() == "–"
    assert isinstance(far, QSpinBox) and isinstance(half, QSpinBox)
    assert far.isEnabled() and far.value() == 5 and half.text() == "none"
    far.setValue(7)
    half.setValue(8)  # beyond the range
    assert editor.message("weapon/modes") == (
        f"Mode {throw + 1}: The 1/2D range (8) must be within the range (7)."
    )
    assert not editor.save_button.isEnabled()
    half.setValue(3)
    command = editor.command()
    assert isinstance(command, EditFighter)
    weapon = next(w for w in command.fighter.weapons if w.key == "knife")
    assert (weapon.mode("throw").range_hexes, weapon.mode("throw").half_damage_hexes) == (7, 3)
    assert weapon.mode("swing").range_hexes is None
    header = editor.modes_table.horizontalHeader()
    assert header.visualIndex(RANGE_COLUMN) == header.visualIndex(4) + 1  # after the reach
    # every column in view at the editor's size, no scrolling sideways
    editor.show()
    editor.tabs.setCurrentIndex(2)
    qtbot.waitExposed(editor)
    assert editor.modes_table.horizontalScrollBar().maximum() == 0


def test_a_weapon_more_than_a_fighter_carries_is_named_under_the_list(qtbot: QtBot) -> None:
    editor = editor_on(qtbot, demo_controller(), SPEARMAN)
    editor.catalog_weapons.setCurrentIndex(editor.catalog_weapons.findData("spear"))
    carried = editor.weapon_list.count()
    for _ in range(MAX_WEAPONS - carried):
        editor.add_catalog_weapon()
    assert editor.message("weapons") == "" and editor.save_button.isEnabled()
    editor.add_catalog_weapon()
    assert editor.message("weapons") == (
        f"{MAX_WEAPONS + 1} weapons; a fighter carries at most {MAX_WEAPONS}."
    )
    assert not editor.save_button.isEnabled()
    assert editor.tabs.tabText(2) == "⚠ Weapons"
