"""The character editor on a seed 004 fighter: its abilities, armor by zone and
size fields from the ruleset's sheet description, no shield or armor suit
(armor is by zone), and an edit that becomes EditFighter with the new sheet."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QSpinBox
from pytestqt.qtbot import QtBot

from app.character_editor import HALF_DAMAGE_COLUMN, RANGE_COLUMN, TYPE_COLUMN, CharacterEditor
from app.controller import BattleController
from rules.battle.edits import EditFighter
from rules.battle.model import DamageType
from rules.sets.components.zones_2d6 import Size
from rules.sets.seed004.sheet import sheet_of
from tests.app.form_ui_checks import character_editor
from tests.rules.seed004_battle import duel, fighter
from tests.rules.test_seed004_ranged import gunman


def editor(qtbot: QtBot) -> CharacterEditor:
    return character_editor(qtbot, duel(), "b")


def test_the_editor_shows_seed_004_s_fields_and_opens_valid(qtbot: QtBot) -> None:
    dialog = editor(qtbot)
    assert {
        "strength",
        "dexterity",
        "hit_points",
        "move",
        "dr_head",
        "dr_torso",
        "dr_arms",
        "dr_legs",
        "size",
    } <= set(dialog.field_boxes)
    assert dialog.problems == ()
    assert dialog.command() is None


def test_an_edit_of_ability_armor_and_size_is_an_edit_fighter(qtbot: QtBot) -> None:
    dialog = editor(qtbot)
    dex = dialog.field_boxes["dexterity"]
    torso = dialog.field_boxes["dr_torso"]
    size = dialog.field_boxes["size"]
    assert isinstance(dex, QSpinBox) and isinstance(torso, QSpinBox)
    assert isinstance(size, QComboBox)
    dex.setValue(8)
    torso.setValue(3)
    size.setCurrentIndex(size.findData("small"))
    dialog.revalidate()
    command = dialog.command()
    assert isinstance(command, EditFighter)
    sheet = sheet_of(command.fighter)
    assert (sheet.abilities.dexterity, sheet.armor.torso, sheet.size) == (8, 3, Size.SMALL)


def test_hit_points_and_speed_are_edited_on_the_sheet_tab(qtbot: QtBot) -> None:
    """The base rules' secondary abilities: the GM sets the maximum hit points and
    the Speed (Move) with the abilities; the tooltips give the base rules' sums."""
    dialog = editor(qtbot)
    hp = dialog.field_boxes["hit_points"]
    speed = dialog.field_boxes["move"]
    assert isinstance(hp, QSpinBox) and isinstance(speed, QSpinBox)
    assert (hp.value(), speed.value()) == (35, 5)
    assert "25 + Constitution" in hp.toolTip() and "Dexterity and Strength" in speed.toolTip()
    hp.setValue(41)
    speed.setValue(6)
    dialog.revalidate()
    command = dialog.command()
    assert isinstance(command, EditFighter)
    assert (command.fighter.hit_points, command.fighter.move) == (41, 6)


def test_a_missile_mode_s_effective_range_is_edited(qtbot: QtBot) -> None:
    """Seed 004 reads a shot's range bands from the mode's effective range, so the
    editor edits it (the pistol's 50 m); it has no 1/2D range."""
    controller = BattleController(duel(fighter("Ann"), gunman()))
    state = controller.state
    dialog = CharacterEditor(controller.ruleset, state, state.combatant("b"))
    qtbot.addWidget(dialog)
    pistol = next(i for i, w in enumerate(dialog._weapons) if w.key == "pistol")
    dialog.weapon_list.setCurrentRow(pistol)
    modes = [m.name for m in dialog._weapons[pistol].modes]
    far = dialog.mode_widget(modes.index("shoot"), RANGE_COLUMN)
    assert isinstance(far, QSpinBox) and far.isEnabled() and far.value() == 50
    assert dialog.modes_table.isColumnHidden(HALF_DAMAGE_COLUMN)
    far.setValue(30)
    command = dialog.command()
    assert isinstance(command, EditFighter)
    weapon = next(w for w in command.fighter.weapons if w.key == "pistol")
    assert weapon.mode("shoot").range_hexes == 30
    assert weapon.mode("strike").range_hexes is None


def test_damage_types_by_seed_004_s_names(qtbot: QtBot) -> None:
    """004 Damage: the GM picks piercing, slashing, bludgeoning (or fire, acid),
    the names the attack form and the log use, not the 3d6 codes."""
    dialog = editor(qtbot)
    knife = next(i for i, w in enumerate(dialog._weapons) if w.key == "knife")
    dialog.weapon_list.setCurrentRow(knife)
    modes = [m.name for m in dialog._weapons[knife].modes]
    stab = dialog.mode_widget(modes.index("stab"), TYPE_COLUMN)
    slash = dialog.mode_widget(modes.index("slash"), TYPE_COLUMN)
    assert isinstance(stab, QComboBox) and isinstance(slash, QComboBox)
    texts = [stab.itemText(i) for i in range(stab.count())]
    assert texts == ["piercing", "slashing", "bludgeoning", "fire", "acid"]
    assert (stab.currentText(), slash.currentText()) == ("piercing", "slashing")
    slash.setCurrentIndex(slash.findData(DamageType.CRUSHING))
    command = dialog.command()
    assert isinstance(command, EditFighter)
    weapon = next(w for w in command.fighter.weapons if w.key == "knife")
    assert weapon.mode("slash").damage.type is DamageType.CRUSHING
