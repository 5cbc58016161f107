"""The character editor on a seed 002 fighter: its characteristics and armour by
location from the ruleset's sheet description, a bow's range (seed 002 reads it,
not the 1/2D range of seed 000), and an edit that becomes EditFighter whose
fighter the seed 002 codec saves and reads back."""

from __future__ import annotations

from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot

from app.character_editor import HALF_DAMAGE_COLUMN, RANGE_COLUMN, CharacterEditor
from hexmap import Hex
from rules.battle.edits import EditFighter
from rules.sets.seed002.sheet import sheet_of
from tests.app.form_ui_checks import character_editor
from tests.rules.seed002_duel import RULESET, battle, duel, fighter


def editor(qtbot: QtBot) -> CharacterEditor:
    archer = fighter("Archer", ("shortbow", "dagger"), dexterity=16)
    return character_editor(qtbot, battle(duel(archer, defender_hex=Hex.from_offset(8, 15))), "a")


def test_the_editor_shows_seed_002_s_fields_and_opens_valid(qtbot: QtBot) -> None:
    dialog = editor(qtbot)
    assert {"str", "con", "siz", "dex", "int", "pow", "cha", "hit_points", "move"} <= set(
        dialog.field_boxes
    )
    assert "ap_head" in dialog.field_boxes
    assert dialog.problems == ()
    assert dialog.command() is None


def test_a_bow_s_range_is_edited_and_saved(qtbot: QtBot) -> None:
    dialog = editor(qtbot)
    bow = next(i for i, w in enumerate(dialog._weapons) if w.key == "shortbow")
    dialog.weapon_list.setCurrentRow(bow)
    far = dialog.mode_widget(0, RANGE_COLUMN)
    assert isinstance(far, QSpinBox) and far.isEnabled() and far.value() == 30
    assert not dialog.modes_table.isColumnHidden(RANGE_COLUMN)
    assert dialog.modes_table.isColumnHidden(HALF_DAMAGE_COLUMN)  # seed 002 has no 1/2D range
    far.setValue(40)
    dex = dialog.field_boxes["dex"]
    assert isinstance(dex, QSpinBox)
    dex.setValue(17)
    dialog.revalidate()
    command = dialog.command()
    assert isinstance(command, EditFighter)
    shortbow = next(w for w in command.fighter.weapons if w.key == "shortbow")
    assert shortbow.mode("shoot").range_hexes == 40
    assert sheet_of(command.fighter).characteristics.dexterity == 17
    reread = RULESET.sheets.decode(RULESET.sheets.encode(command.fighter))
    assert next(w for w in reread.weapons if w.key == "shortbow").mode("shoot").range_hexes == 40
    assert sheet_of(reread).characteristics.dexterity == 17
