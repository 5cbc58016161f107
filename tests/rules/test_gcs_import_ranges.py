"""An imported character within the ranges of seed 000's sheet description (the
character editor's: ST 1-50, DX, IQ and HT 1-30, hit points 1-200, Move 0-20,
skills 1-30, a name of 60 characters): a value beyond them joins at the nearest
end of the range, and the report names each one, so the importer never brings in
a fighter the character editor would refuse (docs/gcs-import.md)."""

from __future__ import annotations

import pytest

from rules.battle.edits import fighter_problems
from rules.battle.model import Fighter
from rules.core.errors import DataError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.gcs_import import import_gcs
from tests.rules.test_gcs_import import fixture_json, sheet
from tests.rules.test_gcs_import_criteria import Document
from tests.rules.test_history import demo_battle

ALDO = "sword_and_shield_v5.gcs"  # Ser Aldo: ST 12, DX 13, HP 12 (10 now), Move 6


def set_attribute(doc: Document, attr_id: str, **calc: int) -> None:
    attributes = doc["attributes"]
    assert isinstance(attributes, list)
    entry = next(a for a in attributes if a["attr_id"] == attr_id)
    entry["calc"].update(calc)


def set_skill_level(doc: Document, *path: int, level: int) -> None:
    """The level of the skill at ``path`` (indices into ``skills`` and the
    ``children`` of its containers)."""
    entries = doc["skills"]
    assert isinstance(entries, list)
    for index in path[:-1]:
        entries = entries[index]["children"]
    entries[path[-1]]["calc"]["level"] = level


def editor_refusals(fighter: Fighter) -> list[str]:
    ruleset = get_ruleset("000")
    problems = (
        *ruleset.sheets.description().problems(ruleset.sheets.entries(fighter)),
        *ruleset.sheets.problems(fighter),
        *fighter_problems(fighter, demo_battle(1).state.grid),
    )
    return [p.message for p in problems]


def test_values_beyond_the_sheet_join_at_its_ends_and_are_reported() -> None:
    doc = fixture_json(ALDO)
    set_attribute(doc, "st", value=60)  # an ogre of 4th edition
    set_attribute(doc, "dx", value=35)
    set_attribute(doc, "ht", value=31)
    set_attribute(doc, "basic_move", value=25)
    set_attribute(doc, "hp", value=250, current=240)
    set_skill_level(doc, 0, 0, level=34)  # Broadsword, in the container "Combat"
    set_skill_level(doc, 0, 2, 0, level=-3)  # Brawling, a container deeper
    result = import_gcs(doc)
    fighter, stats = result.fighter, sheet(result)
    a = stats.attributes
    assert (a.st, a.dx, a.iq, a.ht) == (50, 30, 10, 30)
    assert (fighter.hit_points, fighter.move) == (200, 20)
    assert result.hit_points_now == 190  # the file's 10 HP of injury, of the 200
    assert dict(stats.skills) == {"Broadsword": 30, "Shield (Shield)": 14, "Brawling": 1}
    assert result.skipped[:5] == (
        "ST 60 is beyond the sheet's 1 to 50: the fighter joins with ST 50",
        "DX 35 is beyond the sheet's 1 to 30: the fighter joins with DX 30",
        "HT 31 is beyond the sheet's 1 to 30: the fighter joins with HT 30",
        "Hit points 250 is beyond the sheet's 1 to 200: the fighter joins with Hit points 200",
        "Move 25 is beyond the sheet's 0 to 20: the fighter joins with Move 20",
    )
    assert (
        "skill levels beyond the sheet's 1 to 30: Broadsword 34 joins at 30, Brawling -3 joins at 1"
    ) in result.skipped
    assert "ST 50, DX 30, IQ 10, HT 30; HP 200, Move 20" in result.imported
    assert editor_refusals(fighter) == []


def test_a_weapon_skill_the_character_lacks_joins_the_sheet_at_its_default() -> None:
    doc = fixture_json(ALDO)
    equipment = doc["equipment"]
    assert isinstance(equipment, list)
    equipment[4]["equipped"] = True  # the backpack, and so the axe in it
    result = import_gcs(doc)
    axe = result.fighter.weapon("gcs-axe")
    assert (axe.skill, sheet(result).skills["Axe/Mace"]) == ("Axe/Mace", 8)  # DX 13 - 5
    assert editor_refusals(result.fighter) == []
    set_attribute(doc, "dx", value=4)  # Axe/Mace at DX-5 would be -1: the sheet's least
    result = import_gcs(doc)
    assert sheet(result).skills["Axe/Mace"] == 1
    assert (
        "skill Axe/Mace at 1: the character lacks the skill its weapon is used with, so "
        "it joins at seed 000's default, DX-5 (-1)"
    ) in result.imported
    assert editor_refusals(result.fighter) == []


def test_heavy_wounds_of_a_clamped_character_leave_it_at_one_hp() -> None:
    doc = fixture_json(ALDO)
    set_attribute(doc, "hp", value=260, current=30)  # 230 HP of injury, of 200 on the sheet
    result = import_gcs(doc)
    assert (result.fighter.hit_points, result.hit_points_now) == (200, 1)
    assert (
        "HP: the file's current HP is 30; the fighter joins with 1 HP "
        "(wounds below 1 HP are not brought over)"
    ) in result.skipped


def test_a_long_name_is_cut_to_what_the_editor_takes() -> None:
    doc = fixture_json(ALDO)
    profile = doc["profile"]
    assert isinstance(profile, dict)
    profile["name"] = "Aldo " + "the Bold, " * 8  # 85 characters
    result = import_gcs(doc)
    assert result.fighter.name == "Aldo the Bold, the Bold, the Bold, the Bold, the Bold, the B"
    assert (
        "name: 84 characters, more than the character editor takes; "
        "the fighter joins with the first 60"
    ) in result.skipped


def test_values_beyond_any_character_are_still_refused() -> None:
    doc = fixture_json(ALDO)
    set_attribute(doc, "st", value=100)  # no sheet of GCS holds this: a damaged file
    with pytest.raises(DataError, match=r"attribute st\.calc\.value: 100 is out of range"):
        import_gcs(doc)
