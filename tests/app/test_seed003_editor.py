"""The character editor on a seed 003 fighter: the ladder attributes, armor cover
and helmet from the ruleset's sheet description, a shot's range and half range
(where a shot turns too distant to aim, 003 5.871), only the shield's bonus and the
armor's factor among the protection boxes, and an edit that becomes EditFighter."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QSpinBox
from pytestqt.qtbot import QtBot

from app.character_editor import HALF_DAMAGE_COLUMN, RANGE_COLUMN, CharacterEditor
from rules.battle.edits import EditFighter
from rules.sets.seed003.sheet import ArmorCover, sheet_of
from tests.app.form_ui_checks import character_editor
from tests.rules.seed003_battle import battle, duel, south, template


def editor(qtbot: QtBot, state=None) -> CharacterEditor:  # type: ignore[no-untyped-def]
    return character_editor(qtbot, battle(state or duel()), "a")


def test_the_editor_edits_the_ladder_the_armor_cover_and_the_helmet(qtbot: QtBot) -> None:
    dialog = editor(qtbot)
    assert {"strength", "agility", "damage_capacity", "constitution", "armor_cover", "helmet"} <= (
        set(dialog.field_boxes)
    )
    assert dialog.problems == () and dialog.command() is None
    capacity = dialog.field_boxes["damage_capacity"]
    cover = dialog.field_boxes["armor_cover"]
    assert isinstance(capacity, QComboBox) and isinstance(cover, QComboBox)
    capacity.setCurrentIndex(capacity.findText("Good"))
    cover.setCurrentIndex(cover.findText("full"))
    dialog.revalidate()
    command = dialog.command()
    assert isinstance(command, EditFighter)
    sheet = sheet_of(command.fighter)
    assert (sheet.damage_capacity, sheet.armor_cover) == (1, ArmorCover.FULL)
    assert command.fighter.hit_points == 11  # the Good torso's boxes, 2 2 3 2 2


def test_only_the_shield_bonus_and_the_armor_factor_are_edited(qtbot: QtBot) -> None:
    dialog = editor(qtbot)
    assert not dialog.shield_pd.isHidden() and not dialog.armor_dr.isHidden()
    assert dialog.armor_pd.isHidden() and dialog.shield_size.isHidden()


def test_a_shot_s_range_and_half_range_are_edited(qtbot: QtBot) -> None:
    dialog = editor(qtbot, duel(template("archer"), defender_hex=south(3)))
    bow = next(i for i, w in enumerate(dialog._weapons) if w.key == "shortbow")
    dialog.weapon_list.setCurrentRow(bow)
    far = dialog.mode_widget(0, RANGE_COLUMN)
    half = dialog.mode_widget(0, HALF_DAMAGE_COLUMN)
    assert isinstance(far, QSpinBox) and isinstance(half, QSpinBox)
    assert (far.value(), half.value()) == (40, 20)
    assert not dialog.modes_table.isColumnHidden(HALF_DAMAGE_COLUMN)
    half.setValue(10)
    command = dialog.command()
    assert isinstance(command, EditFighter)
    shot = next(w for w in command.fighter.weapons if w.key == "shortbow").mode("shoot")
    assert (shot.range_hexes, shot.half_damage_hexes) == (40, 10)
