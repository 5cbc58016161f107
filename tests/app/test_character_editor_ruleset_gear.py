"""The character editor reads the battle's ruleset: its gear comes from
``Sheets.catalog()``, and of a weapon it shows only the parts the ruleset's
``SheetDescription.weapon_parts`` names. A ruleset without parry classes and
thr/sw damage (as the d100 and 2d6 rulesets) gets no Parry box and no Damage base
column, types each mode's own dice, and the parts it hides keep their values.
Tested with seed 000's ruleset wrapped to answer another catalog and another
description."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from app.character_editor import (
    DICE_COLUMN,
    MODE_COLUMNS,
    PROTECTION_TAB,
    TYPE_COLUMN,
    CharacterEditor,
    dice_of,
    dice_text,
)
from hexmap import Reach
from rules.battle.catalog import Catalog
from rules.battle.edits import EditFighter
from rules.battle.model import (
    Armor,
    DamageBase,
    DamageSpec,
    DamageType,
    ParryClass,
    Shield,
    ShieldSize,
    Weapon,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.core.dice import Dice
from rules.sets.protocol import Ruleset, Sheets
from rules.sets.sheet_fields import (
    ALL_PROTECTION_PARTS,
    ALL_WEAPON_PARTS,
    ProtectionPart,
    SheetDescription,
    WeaponPart,
)
from tests.app.demo_panes import demo_controller

SPEARMAN = "c2"
SWORD_AND_SHIELD = "c1"
FALCHION = Weapon(
    "falchion",
    "Falchion",
    WeaponKind.SWORD,
    "Spear",
    (WeaponMode("cut", DamageSpec(DamageBase.FIXED, 0, DamageType.CUTTING, Dice(1, 1, 8)),
                Reach.of(1)),),
    ParryClass.NONE,
    4.0,
    size=WeaponSize.MEDIUM,
)
BUCKLER = Shield("hide-buckler", "Hide buckler", ShieldSize.BUCKLER, 1, 3.0)
JERKIN = Armor("jerkin", "Jerkin", 0, 1, 5.0)
OWN_CATALOG = Catalog(
    MappingProxyType({FALCHION.key: FALCHION}),
    MappingProxyType({BUCKLER.key: BUCKLER}),
    MappingProxyType({JERKIN.key: JERKIN}),
)
FIXED_DICE_PARTS = ALL_WEAPON_PARTS - {
    WeaponPart.PARRY, WeaponPart.DAMAGE_BASE, WeaponPart.ADDS, WeaponPart.KIND
}


class OtherSheets:
    """Seed 000's sheets with another catalog and fewer weapon parts."""

    def __init__(
        self,
        inner: Sheets,
        parts: frozenset[WeaponPart],
        protection: frozenset[ProtectionPart],
        damage_types: tuple[tuple[DamageType, str], ...],
    ) -> None:
        self._inner = inner
        self._parts = parts
        self._protection = protection
        self._damage_types = damage_types

    def catalog(self) -> Catalog:
        return OWN_CATALOG

    def description(self) -> SheetDescription:
        return replace(
            self._inner.description(),
            weapon_parts=self._parts,
            protection_parts=self._protection,
            damage_types=self._damage_types,
        )

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


class OtherGear:
    """Seed 000's ruleset with another catalog and fewer weapon parts."""

    def __init__(
        self,
        inner: Ruleset,
        parts: frozenset[WeaponPart],
        protection: frozenset[ProtectionPart] = ALL_PROTECTION_PARTS,
        damage_types: tuple[tuple[DamageType, str], ...] = (),
    ) -> None:
        self._inner = inner
        self.sheets = OtherSheets(inner.sheets, parts, protection, damage_types)

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def editor_for(
    qtbot: QtBot,
    parts: frozenset[WeaponPart],
    protection: frozenset[ProtectionPart] = ALL_PROTECTION_PARTS,
    combatant_id: str = SPEARMAN,
    damage_types: tuple[tuple[DamageType, str], ...] = (),
) -> CharacterEditor:
    controller = demo_controller()
    state = controller.state
    ruleset = OtherGear(controller.ruleset, parts, protection, damage_types)
    editor = CharacterEditor(ruleset, state, state.combatant(combatant_id))  # type: ignore[arg-type]
    qtbot.addWidget(editor)
    editor.show()
    editor.tabs.setCurrentIndex(2)  # the weapons
    return editor


def captions(editor: CharacterEditor) -> set[str]:
    return {label.text() for label in editor.weapon_form.findChildren(QLabel)
            if label.isVisibleTo(editor)}


def test_gear_comes_from_the_rulesets_catalog(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, ALL_WEAPON_PARTS)
    box = editor.catalog_weapons
    assert [box.itemData(i) for i in range(box.count())] == ["falchion"]
    shields = [editor.shield_source.itemText(i) for i in range(editor.shield_source.count())]
    armor = [editor.armor_source.itemText(i) for i in range(editor.armor_source.count())]
    assert "Hide buckler" in shields and "Jerkin" in armor
    editor.add_catalog_weapon()
    editor.revalidate()
    command = editor.command()
    assert isinstance(command, EditFighter)
    assert command.fighter.weapons[-1] == FALCHION


def test_every_part_is_shown_by_default(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, ALL_WEAPON_PARTS)
    assert {"Kind", "Parry", "Hands", "Size", "Weight"} <= captions(editor)
    assert not any(editor.modes_table.isColumnHidden(c) for c in range(len(MODE_COLUMNS)))


def test_parts_the_ruleset_does_not_read_are_hidden_and_kept(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, FIXED_DICE_PARTS)
    shown = captions(editor)
    assert "Parry" not in shown and "Kind" not in shown
    assert {"Name", "Key", "Skill", "Hands", "Size", "Weight"} <= shown
    assert not editor.weapon_parry.isVisibleTo(editor)
    table = editor.modes_table
    hidden = {title for c, (title, _p) in enumerate(MODE_COLUMNS) if table.isColumnHidden(c)}
    assert hidden == {"Damage", "Adds"}
    # the spearman's long spear keeps its parry class, kind and thr base
    spear = editor.current_weapon
    before = editor._combatant.fighter.weapons[spear]
    editor.weapon_name.setText("Old spear")
    editor.weapon_name.textEdited.emit("Old spear")
    command = editor.command()
    assert isinstance(command, EditFighter)
    after = command.fighter.weapons[spear]
    assert after == replace(before, name="Old spear")


def test_a_new_weapon_of_a_fixed_dice_ruleset_rolls_its_own_dice(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, FIXED_DICE_PARTS)
    editor.add_new_weapon()
    editor.weapon_skill.setCurrentText("Spear")
    dice = editor.mode_widget(0, DICE_COLUMN)
    assert isinstance(dice, QLineEdit) and dice.isEnabled() and dice.text() == "1d6"
    dice.setText("1d8+1")
    dice.textEdited.emit("1d8+1")
    size = editor.weapon_size
    size.setCurrentIndex(size.findData(WeaponSize.LARGE))
    command = editor.command()
    assert isinstance(command, EditFighter)
    weapon = command.fighter.weapons[-1]
    assert weapon.modes[0].damage == DamageSpec(
        DamageBase.FIXED, 0, DamageType.CUTTING, Dice(1, 1, 8)
    )
    assert weapon.size is WeaponSize.LARGE


def protection_captions(editor: CharacterEditor) -> list[str]:
    editor.tabs.setCurrentIndex(3)
    page = editor.tabs.currentWidget()
    assert page is not None
    return [label.text() for label in page.findChildren(QLabel)
            if label.isVisibleTo(editor) and label.text() and not label.objectName()]


def test_every_protection_part_is_shown_by_default(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, ALL_WEAPON_PARTS)
    shown = protection_captions(editor)
    assert shown.count("PD") == 2 and shown.count("Weight") == 2
    assert {"<b>Shield</b>", "<b>Armor</b>", "Size", "DR"} <= set(shown)


def test_protection_parts_the_ruleset_does_not_read_are_hidden_and_kept(qtbot: QtBot) -> None:
    """A d100 ruleset: no shields of the 3d6 kind, armour points but no PD."""
    parts = ALL_PROTECTION_PARTS - {ProtectionPart.SHIELD, ProtectionPart.ARMOR_PD}
    editor = editor_for(qtbot, ALL_WEAPON_PARTS, parts, SWORD_AND_SHIELD)
    shown = protection_captions(editor)
    assert "<b>Shield</b>" not in shown and "PD" not in shown and "Size" not in shown
    assert shown == ["<b>Armor</b>", "Armor", "Name", "DR", "Weight"]
    assert not editor.shield_source.isVisibleTo(editor)
    editor.name_edit.setText("Old guard")
    editor.name_edit.textEdited.emit("Old guard")
    command = editor.command()
    assert isinstance(command, EditFighter)
    before = editor._combatant.fighter
    assert before.shield is not None  # the hidden shield stays as it was
    assert command.fighter == replace(before, name="Old guard")


def test_a_fixed_modes_dice_name_their_die_and_read_back() -> None:
    """The die always named: "1d6+1", not the 3d6 family's "1d+1", beside "1d8"."""
    for dice, text in ((Dice(1, 1, 8), "1d8+1"), (Dice(2, -1), "2d6-1"), (Dice(3), "3d6")):
        assert dice_text(dice) == text
        assert dice_of(text) == dice


def test_a_falchions_dice_are_shown_with_their_die(qtbot: QtBot) -> None:
    editor = editor_for(qtbot, FIXED_DICE_PARTS)
    editor.catalog_weapons.setCurrentIndex(editor.catalog_weapons.findData("falchion"))
    editor.add_catalog_weapon()
    dice = editor.mode_widget(0, DICE_COLUMN)
    assert isinstance(dice, QLineEdit) and dice.text() == "1d8+1"


def test_no_shield_and_armor_tab_for_a_ruleset_that_reads_neither(qtbot: QtBot) -> None:
    """A 2d6 ruleset with armor by zone on its sheet: no empty tab."""
    assert editor_for(qtbot, ALL_WEAPON_PARTS).tabs.isTabVisible(PROTECTION_TAB)
    armor_only = frozenset({ProtectionPart.ARMOR, ProtectionPart.ARMOR_DR})
    assert editor_for(qtbot, ALL_WEAPON_PARTS, armor_only).tabs.isTabVisible(PROTECTION_TAB)
    editor = editor_for(qtbot, ALL_WEAPON_PARTS, frozenset(), SWORD_AND_SHIELD)
    assert editor.tabs.tabText(PROTECTION_TAB) == "Shield and armor"
    assert not editor.tabs.isTabVisible(PROTECTION_TAB)
    # the hidden shield and armor are kept as they were
    editor.name_edit.setText("Old guard")
    editor.name_edit.textEdited.emit("Old guard")
    command = editor.command()
    assert isinstance(command, EditFighter)
    before = editor._combatant.fighter
    assert (command.fighter.shield, command.fighter.armor) == (before.shield, before.armor)


BLOWS = (
    (DamageType.PIERCING, "piercing"),
    (DamageType.CUTTING, "slashing"),
    (DamageType.CRUSHING, "bludgeoning"),
)


def type_box(editor: CharacterEditor, row: int) -> QComboBox:
    box = editor.mode_widget(row, TYPE_COLUMN)
    assert isinstance(box, QComboBox)
    return box


def test_every_damage_type_by_its_code_by_default(qtbot: QtBot) -> None:
    box = type_box(editor_for(qtbot, ALL_WEAPON_PARTS), 0)
    assert [box.itemData(i) for i in range(box.count())] == list(DamageType)
    assert box.itemText(box.findData(DamageType.CRUSHING)) == "cr"


def test_the_rulesets_damage_types_by_its_own_names(qtbot: QtBot) -> None:
    """A 2d6 ruleset's three blows: the GM reads "bludgeoning", not "cr"; a mode's
    type it does not offer (the long spear's imp) stays, by its code."""
    editor = editor_for(qtbot, FIXED_DICE_PARTS, damage_types=BLOWS)
    box = type_box(editor, 0)
    spear = editor._combatant.fighter.weapons[editor.current_weapon]
    assert spear.modes[0].damage.type is DamageType.IMPALING
    texts = [box.itemText(i) for i in range(box.count())]
    assert texts == ["piercing", "slashing", "bludgeoning", "imp"]
    assert box.currentText() == "imp"
    box.setCurrentIndex(box.findData(DamageType.CUTTING))
    command = editor.command()
    assert isinstance(command, EditFighter)
    assert command.fighter.weapons[editor.current_weapon].modes[0].damage.type is (
        DamageType.CUTTING
    )
    editor.add_new_weapon()  # a new weapon's swing cuts: "slashing", nothing added
    new = type_box(editor, 0)
    assert [new.itemText(i) for i in range(new.count())] == ["piercing", "slashing", "bludgeoning"]
    assert new.currentText() == "slashing"


def test_dice_the_box_does_not_take_stay_as_they_came(qtbot: QtBot) -> None:
    """Seed 003's crossbow does "0d" (its damage factor alone), with no Dice column
    shown: the fighter is saved as it is, the dice kept; typed over, they are read."""
    controller = demo_controller()
    state = controller.state
    crossbow = replace(
        FALCHION,
        key="crossbow",
        name="Crossbow",
        modes=(replace(FALCHION.modes[0], damage=DamageSpec(
            DamageBase.FIXED, 0, DamageType.IMPALING, Dice(0, 4)
        )),),
    )  # fmt: skip
    spearman = state.combatant(SPEARMAN)
    fighter = replace(spearman.fighter, weapons=(crossbow, *spearman.fighter.weapons[1:]))
    ruleset = OtherGear(controller.ruleset, FIXED_DICE_PARTS - {WeaponPart.DICE})
    editor = CharacterEditor(ruleset, state, replace(spearman, fighter=fighter))  # type: ignore[arg-type]
    qtbot.addWidget(editor)
    editor.show()
    editor.name_edit.setText("Crossbowman")
    editor.name_edit.textEdited.emit("Crossbowman")
    command = editor.command()
    assert isinstance(command, EditFighter) and editor.save_button.isEnabled()
    assert command.fighter.weapons[0].modes[0].damage.fixed == Dice(0, 4)
    editor.tabs.setCurrentIndex(2)
    editor.weapon_list.setCurrentRow(0)
    dice = editor.mode_widget(0, DICE_COLUMN)
    assert isinstance(dice, QLineEdit) and dice.text() == "0d6+4"
    dice.setText("0d+2")  # typed: read as typed, and refused
    dice.textEdited.emit("0d+2")
    assert editor.command() is None
