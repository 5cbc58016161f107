"""Current GCS files name a weapon's skill by a criteria object ({"compare",
"qualifier"}) as well as by text (rules.sets.seed000.gcs_criteria). The fixture
criteria_v5.gcs is written for these tests in the current format, and every value
below is worked out by hand from it by docs/gcs-import.md's rules: the weapon's
skill is the one of the character's skills its defaults name that gives the
highest level, the mode's modifier is its default's to that skill."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from hexmap import Handedness
from rules.battle.edits import fighter_problems
from rules.battle.model import DamageBase, DamageType, ParryClass, WeaponKind
from rules.core.errors import DataError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.gcs_import import import_gcs
from tests.rules.test_gcs_import import fixture_json, imported, melee, sheet
from tests.rules.test_history import demo_battle

CRITERIA = "criteria_v5.gcs"
Document = dict[str, object]


def weapon_entry(doc: Document, item: int, weapon: int, part: str = "equipment") -> Document:
    entries = doc[part]
    assert isinstance(entries, list)
    found = entries[item]["weapons"][weapon]
    assert isinstance(found, dict)
    return found


def test_the_current_format_is_read_stat_by_stat() -> None:
    result = imported(CRITERIA)
    fighter, stats = result.fighter, sheet(result)
    assert (fighter.name, fighter.hit_points, fighter.move, result.hit_points_now) == (
        "Hild the Bold",
        11,
        5,
        11,
    )
    assert fighter.handedness is Handedness.RIGHT
    a = stats.attributes
    assert (a.st, a.dx, a.iq, a.ht) == (11, 12, 10, 11)
    # "Shield" of the specialization "@Type@", which its replacements make "Buckler";
    # Spear: no such skill, the spear's best default, at seed 000's DX-5 = 12-5.
    assert dict(stats.skills) == {
        "Axe/Mace": 14,
        "Brawling": 13,
        "Shield (Buckler)": 13,
        "Knife": 12,
        "Spear": 7,
    }
    assert stats.shield_skill == "Shield (Buckler)"  # the buckler's "@Type@" too
    assert stats.combat_reflexes and not stats.fencing
    assert stats.encumbrance == 0  # 4 + 2 + 1 + 4 + 10 = 21 lb <= 2 x ST 11
    axe, knife, spear, natural = fighter.weapons
    # Axe: "is Axe/Mace" (14) beats the skills it lacks; a cutting blow: an axe.
    assert (axe.key, axe.kind, axe.skill, axe.parry, axe.min_st, axe.weight) == (
        "gcs-axe",
        WeaponKind.AXE,
        "Axe/Mace",
        ParryClass.HALF,  # "0U"
        11,
        4.0,
    )
    assert axe.modes == (melee("swing", DamageBase.SWING, 2, DamageType.CUTTING, "1"),)
    # Knife: "is Knife" for the swing, "ends with nife" for the thrust, both at +0.
    assert (knife.kind, knife.skill, knife.parry, knife.min_st) == (
        WeaponKind.KNIFE,
        "Knife",
        ParryClass.TWO_THIRDS,
        6,
    )
    assert knife.modes == (
        melee("swing", DamageBase.SWING, -2, DamageType.CUTTING, "C-1"),
        melee("thrust", DamageBase.THRUST, 0, DamageType.IMPALING, "C"),
    )
    # Spear: none of Polearm-4, Spear, Staff-2 is known; each would be DX-5, so
    # the best modifier, Spear's +0, gives the highest level.
    assert (spear.kind, spear.skill, spear.size.value, spear.min_st) == (
        WeaponKind.SPEAR,
        "Spear",
        "large",
        9,
    )
    assert spear.modes == (melee("thrust", DamageBase.THRUST, 2, DamageType.IMPALING, "1"),)
    # Natural Attacks: the punch's "starts with Brawl" is Brawling at +0; the kick is
    # Brawling at -2 (its "is Kicking" names a technique, which seed 000 has not).
    assert (natural.kind, natural.skill, natural.parry, natural.weight) == (
        WeaponKind.UNARMED,
        "Brawling",
        ParryClass.FULL,
        0.0,
    )
    kick = melee("kick", DamageBase.THRUST, 0, DamageType.CRUSHING, "C-1")
    assert natural.modes == (
        melee("punch", DamageBase.THRUST, -1, DamageType.CRUSHING, "C"),
        replace(kick, skill_modifier=-2),
    )
    shield, armor = fighter.shield, fighter.armor
    assert shield is not None and armor is not None
    # A buckler's PD is 1 whatever its DB; leather's DR 2 gives PD 2.
    assert (shield.name, shield.size.value, shield.pd, shield.weight) == (
        "Buckler",
        "buckler",
        1,
        2.0,
    )
    assert (armor.name, armor.pd, armor.dr, armor.weight) == ("Leather Armor", 2, 2, 10.0)
    assert result.skipped == (
        "techniques (seed 000 has none): Kicking",
        "Buckler: its shield attack (Bash) is left out",
    )
    assert (
        "skill Spear at 7: the character lacks the skill its weapon is used with, so it "
        "joins at seed 000's default, DX-5 (7)"
    ) in result.imported


def test_the_imported_fighter_is_one_the_character_editor_accepts() -> None:
    fighter = imported(CRITERIA).fighter
    ruleset = get_ruleset("000")
    assert ruleset.sheets.description().problems(ruleset.sheets.entries(fighter)) == ()
    assert ruleset.sheets.problems(fighter) == ()  # every weapon's skill is on the sheet
    assert fighter_problems(fighter, demo_battle(1).state.grid) == ()


# The punch's second default, {"type": "skill", "name": <criteria>}: the skill the
# natural attacks are used with. The character's skills: Axe/Mace 14, Brawling 13,
# Shield (Buckler) 13, Knife 12.
@pytest.mark.parametrize(
    ("name", "skill"),
    [
        ("Brawling", "Brawling"),  # the text of files before the criteria: "is"
        ({"compare": "is", "qualifier": "bRAWLING"}, "Brawling"),  # case is ignored
        ({"compare": "contains", "qualifier": "awl"}, "Brawling"),
        ({"compare": "starts_with", "qualifier": "kni"}, "Knife"),
        ({"compare": "ends_with", "qualifier": "LING"}, "Brawling"),
        ({"compare": "is_not", "qualifier": "Brawling"}, "Axe/Mace"),  # the best other
        ({"compare": "does_not_contain", "qualifier": "e"}, "Brawling"),
        ({"compare": "does_not_start_with", "qualifier": "A"}, "Brawling"),
        ({"compare": "does_not_end_with", "qualifier": "e"}, "Brawling"),
        ({"compare": "resembles", "qualifier": "Brawl"}, "Axe/Mace"),  # unknown: anything
        ({"qualifier": "Brawling"}, "Axe/Mace"),  # no comparison: anything
        (None, "Axe/Mace"),  # no name: any skill
    ],
)
def test_every_comparison_names_the_skills_gcs_matches(name: object, skill: str) -> None:
    doc = fixture_json(CRITERIA)
    punch = weapon_entry(doc, 1, 0, "traits")
    defaults = punch["defaults"]
    assert isinstance(defaults, list)
    defaults[1] = {"type": "skill", "name": name} if name is not None else {"type": "skill"}
    del defaults[2:]  # "is Boxing" and the null entry
    natural = import_gcs(doc).fighter.weapons[-1]
    assert (natural.name, natural.skill) == ("Natural Attacks", skill)


def test_a_specialization_is_matched_as_text_or_criteria() -> None:
    doc = fixture_json(CRITERIA)
    bash = weapon_entry(doc, 1, 0)
    defaults = bash["defaults"]
    assert isinstance(defaults, list)
    defaults[1]["specialization"] = "Buckler"  # the text form
    assert sheet(import_gcs(doc)).shield_skill == "Shield (Buckler)"
    defaults[1]["specialization"] = {"compare": "is", "qualifier": "Force Shield"}
    # The character lacks Shield (Force Shield): the block rolls against that skill,
    # which seed 000 defaults to DX-5 (the sheet's Shield (Buckler) is not it).
    assert sheet(import_gcs(doc)).shield_skill == "Shield (Force Shield)"
    del defaults[1]["specialization"]  # any specialization: the character's Shield (Buckler)
    assert sheet(import_gcs(doc)).shield_skill == "Shield (Buckler)"


def test_an_optional_specialization_is_matched_as_gcs_does() -> None:
    doc = fixture_json(CRITERIA)
    skills = doc["skills"]
    assert isinstance(skills, list)
    knife = skills[3]
    knife["specialization"] = "Large Knife"
    knife["optional_specialization"] = "Dagger"
    for entry in weapon_entry(doc, 2, 0)["defaults"], weapon_entry(doc, 2, 1)["defaults"]:
        assert isinstance(entry, list)
        entry[1]["specialization"] = {"compare": "is", "qualifier": "dagger"}
    knife_weapon = import_gcs(doc).fighter.weapons[1]
    assert knife_weapon.skill == "Knife (Large Knife)"  # by its optional "Dagger"
    assert [m.name for m in knife_weapon.modes] == ["swing", "thrust"]


def test_the_mode_takes_the_best_modifier_its_defaults_give_the_skill() -> None:
    doc = fixture_json(CRITERIA)
    kick = weapon_entry(doc, 1, 1, "traits")
    kick["defaults"] = [
        {"type": "skill", "name": {"compare": "starts_with", "qualifier": "Brawl"}, "modifier": -3},
        {"type": "skill", "name": {"compare": "is", "qualifier": "Brawling"}, "modifier": -1},
    ]
    natural = import_gcs(doc).fighter.weapons[-1]
    assert [(m.name, m.skill_modifier) for m in natural.modes] == [("punch", 0), ("kick", -1)]


def test_a_mode_whose_defaults_name_another_skill_is_left_out() -> None:
    doc = fixture_json(CRITERIA)
    kick = weapon_entry(doc, 1, 1, "traits")
    kick["defaults"] = [{"type": "skill", "name": {"compare": "is", "qualifier": "Karate"}}]
    result = import_gcs(doc)
    assert [m.name for m in result.fighter.weapons[-1].modes] == ["punch"]
    assert (
        "Natural Attacks (kick, traits[1].weapons[1]): it is not used with Brawling, "
        "the weapon's skill"
    ) in result.skipped


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(name=42), r"defaults\[1\]\.name: expected an object, got 42"),
        (
            lambda d: d.update(name={"compare": 3, "qualifier": "Axe/Mace"}),
            r"defaults\[1\]\.name\.compare: expected text, got 3",
        ),
        (
            lambda d: d.update(specialization={"compare": "is", "qualifier": ["x"]}),
            r"defaults\[1\]\.specialization\.qualifier: expected text",
        ),
    ],
)
def test_a_broken_criteria_is_named(change: Callable[[Document], None], message: str) -> None:
    doc = fixture_json(CRITERIA)
    defaults = weapon_entry(doc, 0, 0)["defaults"]
    assert isinstance(defaults, list)
    change(defaults[1])
    with pytest.raises(DataError, match=message):
        import_gcs(doc)


def test_replacements_fill_names_once_and_must_be_text() -> None:
    doc = fixture_json(CRITERIA)
    skills = doc["skills"]
    assert isinstance(skills, list)
    # A replacement naming another placeholder is not filled again.
    skills[2]["replacements"] = {"Type": "@Type@@Type@"}
    assert "Shield (@Type@@Type@)" in sheet(import_gcs(doc)).skills
    skills[2]["replacements"] = {"Type": 7}
    with pytest.raises(DataError, match=r"skills\[2\]\.replacements\.Type: expected text"):
        import_gcs(doc)
