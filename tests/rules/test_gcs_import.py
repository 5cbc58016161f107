"""Seed 000's GCS import (rules.sets.seed000.gcs_import): each fixture of
tests/data/gcs/ (written for these tests, versions 2 to 5) gives the fighter
worked out by hand from the file in docs/gcs-import.md's rules; the refused files
name what is wrong; an imported fighter joins a battle by AddCombatant, attacks
with its imported weapon and defends with the parry and block that seed 000
computes, and is saved and replayed with the battle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hexmap import Handedness, Reach
from rules.battle.battle import Battle
from rules.battle.commands import Attack
from rules.battle.model import (
    Armor,
    Combatant,
    DamageBase,
    DamageSpec,
    DamageType,
    ParryClass,
    Shield,
    ShieldSize,
    Side,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.battle.roster import AddCombatant, CombatantAdded, next_combatant_id
from rules.battle.savefile import read_battle, write_battle
from rules.core.errors import DataError
from rules.sets.protocol import ImportedCharacter
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import AttackRolled, DefenseRolled
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice, block_base, parry_base
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.gcs_import import (
    MAX_FILE_BYTES,
    MAX_NESTING,
    armor_pd,
    import_gcs,
    read_gcs,
    shield_pd,
)
from rules.sets.seed000.sheet import PainThreshold, Sheet000, sheet_of
from tests.rules.test_history import demo_battle

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "gcs"


def imported(name: str) -> ImportedCharacter:
    return read_gcs((FIXTURES / name).read_bytes())


def fixture_json(name: str) -> dict[str, object]:
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def sheet(result: ImportedCharacter) -> Sheet000:
    stats = result.fighter.stats
    assert isinstance(stats, Sheet000)
    return stats


def melee(name: str, base: DamageBase, adds: int, kind: DamageType, reach: str) -> WeaponMode:
    return WeaponMode(name, DamageSpec(base, adds, kind), Reach.parse(reach))


# --- the fixtures, stat by stat ----------------------------------------------------------


def test_version_5_sword_and_shield_with_nested_skills_and_omitted_false_values() -> None:
    result = imported("sword_and_shield_v5.gcs")
    fighter, stats = result.fighter, sheet(result)
    assert (fighter.name, fighter.hit_points, fighter.move) == ("Ser Aldo", 12, 6)
    assert result.hit_points_now == 10  # calc.current: 2 HP of damage
    assert fighter.handedness is Handedness.RIGHT
    a = stats.attributes
    assert (a.st, a.dx, a.iq, a.ht) == (12, 13, 10, 12)
    # Skills from the container "Combat" and the container inside it.
    assert dict(stats.skills) == {"Broadsword": 15, "Shield (Shield)": 14, "Brawling": 13}
    assert stats.shield_skill == "Shield (Shield)"
    assert stats.combat_reflexes and not stats.fencing and not stats.ambidextrous
    # 3 + 15 + 16 + 3 (the bow, carried) + 3 + 4 (backpack and axe) = 44 lb: 2xST < 44 <= 4xST
    assert stats.encumbrance == 1
    sword, fists = fighter.weapons
    assert (sword.key, sword.kind, sword.skill, sword.parry) == (
        "gcs-broadsword",
        WeaponKind.SWORD,
        "Broadsword",
        ParryClass.TWO_THIRDS,
    )
    assert sword.modes == (
        melee("swing", DamageBase.SWING, 1, DamageType.CUTTING, "1"),
        melee("thrust", DamageBase.THRUST, 1, DamageType.CRUSHING, "1"),
    )
    assert (sword.weight, sword.min_st, sword.two_handed, sword.size) == (
        3.0,
        10,
        False,
        WeaponSize.SMALL,
    )
    # The trait's natural attack: a punch with Brawling (the best skill it names).
    assert (fists.name, fists.kind, fists.skill, fists.parry, fists.weight) == (
        "Natural Attacks",
        WeaponKind.UNARMED,
        "Brawling",
        ParryClass.FULL,
        0.0,
    )
    assert fists.modes == (melee("punch", DamageBase.THRUST, -1, DamageType.CRUSHING, "C"),)
    # DB 2 -> PD 3; the torso's DR 4 from body_type, worn DR 4 -> PD 3
    assert fighter.shield == Shield(
        "gcs-medium-shield", "Medium Shield", ShieldSize.MEDIUM, 3, 15.0
    )
    assert fighter.armor == Armor("gcs-armor", "Mail Shirt", 3, 4, 16.0)
    assert result.skipped == (
        "techniques (seed 000 has none): Feint (Broadsword)",
        "spells (seed 000 has no magic): Light",
        "Longbow: its ranged weapon (equipment[3].weapons[0]) is left out; "
        "seed 000 imports hand weapons only",
        "Medium Shield: its shield attack (Shield Bash) is left out",
        "Axe (equipment[4].children[0]): carried but not equipped",
        "traits without a seed 000 effect: Fearlessness",  # Berserk is disabled
    )
    assert "wounds: 2 HP of injury (10 HP left)" in result.imported
    assert "shield Medium Shield: DB 2 gives PD 3; blocks with Shield (Shield)" in result.imported


def test_version_4_two_handed_axe_natural_dr_and_a_hit_point_loss() -> None:
    result = imported("two_handed_v4.gcs")
    fighter, stats = result.fighter, sheet(result)
    assert (fighter.name, fighter.hit_points, fighter.move, result.hit_points_now) == (
        "Brunhild",
        14,
        5,
        11,
    )
    assert dict(stats.skills) == {"Two-Handed Axe/Mace": 14}
    assert stats.pain_threshold is PainThreshold.HIGH
    assert stats.encumbrance == 0  # 12 lb; the halberd in other_equipment is not carried
    (axe,) = fighter.weapons
    assert (axe.kind, axe.parry, axe.two_handed, axe.size, axe.min_st, axe.weight) == (
        WeaponKind.BATTLE_AXE,
        ParryClass.HALF,  # "0U": unbalanced
        True,  # "12‡"
        WeaponSize.LARGE,
        12,
        8.0,
    )
    assert axe.modes == (melee("swing", DamageBase.SWING, 3, DamageType.CUTTING, "1-2"),)
    assert fighter.shield is None
    # The body's torso DR 3 is the jacket's 2 and the trait's 1; PD from the worn 2.
    assert fighter.armor == Armor("gcs-armor", "Leather Jacket", 2, 3, 4.0)
    assert result.skipped == ()


def test_version_3_fighter_without_weapons_or_armor() -> None:
    result = imported("no_weapons_v3.gcs")
    fighter, stats = result.fighter, sheet(result)
    assert (fighter.name, fighter.hit_points, fighter.move) == ("Quill the Scribe", 9, 5)
    assert fighter.handedness is Handedness.LEFT
    assert fighter.weapons == () and fighter.shield is None and fighter.armor is None
    assert dict(stats.skills) == {"Writing": 13, "Knife": 10}
    assert stats.encumbrance == 0  # two quills of 0.5 lb
    assert result.skipped == ("traits without a seed 000 effect: Absent-Mindedness",)


def test_version_2_fencer_reads_advantages_and_hit_locations() -> None:
    result = imported("fencer_v2.gcs")
    fighter, stats = result.fighter, sheet(result)
    assert stats.fencing and stats.ambidextrous  # "0F" parry; Ambidexterity
    assert fighter.handedness is Handedness.RIGHT  # the profile names no hand
    rapier, knife = fighter.weapons
    assert (rapier.kind, rapier.parry, rapier.size) == (
        WeaponKind.RAPIER,
        ParryClass.FULL,
        WeaponSize.SMALL,
    )
    assert rapier.modes == (melee("thrust", DamageBase.THRUST, 1, DamageType.IMPALING, "1-2"),)
    assert (knife.kind, knife.parry) == (WeaponKind.KNIFE, ParryClass.TWO_THIRDS)
    assert knife.modes == (
        melee("swing", DamageBase.SWING, -2, DamageType.CUTTING, "C-1"),
        melee("thrust", DamageBase.THRUST, 0, DamageType.IMPALING, "C"),
    )
    assert fighter.armor == Armor("gcs-armor", "Padded Jacket", 1, 1, 3.0)
    assert result.skipped == (
        "Large Knife: its ranged weapon (equipment[1].weapons[2]) is left out; "
        "seed 000 imports hand weapons only",
        "Whip (equipment[2]): seed 000 has no weapon kind for the Whip skill",
        "traits without a seed 000 effect: Hums while fencing",  # inside a container
    )


def test_our_pd_rules_follow_the_catalog() -> None:
    assert [armor_pd(dr) for dr in range(8)] == [0, 1, 2, 2, 3, 4, 4, 4]
    assert [shield_pd(db, "Shield") for db in (1, 2, 3, 4)] == [2, 3, 4, 4]
    assert shield_pd(1, "Buckler") == 1


def test_without_a_body_type_the_dr_bonuses_on_the_torso_count() -> None:
    doc = fixture_json("two_handed_v4.gcs")
    settings = doc["settings"]
    assert isinstance(settings, dict)
    del settings["body_type"]
    traits = doc["traits"]
    assert isinstance(traits, list)
    traits[1]["levels"] = 2  # Damage Resistance 2: its bonus is per level
    armor = import_gcs(doc).fighter.armor
    assert armor is not None and (armor.dr, armor.pd) == (4, 2)  # jacket 2 + trait 2x1


def test_a_weapon_the_mapping_cannot_use_is_skipped_with_a_warning() -> None:
    doc = fixture_json("fencer_v2.gcs")
    equipment = doc["equipment"]
    assert isinstance(equipment, list)
    rapier_weapon = equipment[0]["weapons"][0]
    rapier_weapon["damage"]["type"] = "aff"
    equipment[1]["weapons"][0]["reach"] = "200"
    result = import_gcs(doc)
    assert [w.name for w in result.fighter.weapons] == ["Large Knife"]
    assert len(result.fighter.weapons[0].modes) == 1
    assert (
        "Rapier (thrust, equipment[0].weapons[0]): damage type 'aff' is not one of seed 000's"
        in (result.skipped)
    )
    assert (
        "Large Knife (swing, equipment[1].weapons[0]): reach '200' cannot be shown on the map"
        in result.skipped
    )


# --- refusals ----------------------------------------------------------------------------


def test_version_1_and_the_xml_format_are_refused_with_the_way_out() -> None:
    for name in ("version1.gcs", "old_format.gcs"):
        with pytest.raises(DataError, match="save it once and import it again"):
            imported(name)
    with pytest.raises(DataError, match="old XML format"):
        imported("old_format.gcs")
    with pytest.raises(DataError, match="version 1 GCS file"):
        imported("version1.gcs")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=6), "version 6: written by a newer GCS"),
        (lambda d: d.update(version="5"), "version: expected a whole number"),
        (lambda d: d.update(type="template"), "holds a 'template', not a character"),
        (lambda d: d.update(attributes={}), "attributes: expected a list"),
        (lambda d: d["attributes"][0]["calc"].update(value=10**9), r"attribute st.calc.value: "),
        (lambda d: d["attributes"][0]["calc"].update(value=12.5), "expected a whole number"),
        (lambda d: d.update(attributes=d["attributes"][1:]), "no 'st' attribute"),
        (lambda d: d["skills"].append("Broadsword"), r"skills\[1\]: expected"),
        (lambda d: d["skills"][0].update(calc={"level": "high"}), r"skills\[0\].calc.level"),
        (lambda d: d["equipment"][0].update(weight="heavy"), r"equipment\[0\].weight"),
        (lambda d: d["equipment"][0]["weapons"][0].update(damage=3), r"weapons\[0\].damage"),
        (lambda d: d["profile"].update(name=["x"]), "profile.name: expected text"),
        (
            lambda d: d["equipment"][0]["weapons"][0].update(defaults="Axe"),
            r"equipment\[0\].weapons\[0\].defaults: expected",
        ),
    ],
)
def test_a_broken_part_is_named(change: object, message: str) -> None:
    doc = fixture_json("two_handed_v4.gcs")
    assert callable(change)
    change(doc)
    with pytest.raises(DataError, match=message):
        import_gcs(doc)


def test_hostile_files_are_refused_cleanly() -> None:
    with pytest.raises(DataError, match="not JSON"):
        read_gcs(b'{"version": 5,')
    with pytest.raises(DataError, match="not UTF-8"):
        read_gcs(b"\xff\xfe{}")
    with pytest.raises(DataError, match="nested too deeply"):
        read_gcs(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(DataError, match="at most 16 MB"):
        read_gcs(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(DataError, match="the file: expected"):
        read_gcs(b"[]")
    with pytest.raises(DataError, match="not a GCS character file"):
        read_gcs(b'{"version": 5, "n": ' + b"9" * 5000 + b"}")
    deep: dict[str, object] = {"id": "Sdeep", "name": "deep", "children": []}
    top = deep
    for _ in range(MAX_NESTING + 2):
        inner: dict[str, object] = {"id": "Sdeep", "name": "deep", "children": []}
        children = top["children"]
        assert isinstance(children, list)
        children.append(inner)
        top = inner
    doc = fixture_json("sword_and_shield_v5.gcs")
    doc["skills"] = [deep]
    with pytest.raises(DataError, match=f"nested more than {MAX_NESTING} deep"):
        import_gcs(doc)


# --- in the battle -----------------------------------------------------------------------


def aldo_facing_c1(battle: Battle) -> Combatant:
    """The imported Ser Aldo in the hex in front of the demo's c1, facing it."""
    state = battle.state
    c1 = state.combatant("c1")
    result = imported("sword_and_shield_v5.gcs")
    return Combatant(
        id=next_combatant_id(state),
        fighter=result.fighter,
        side=Side.BLUE,
        hex=c1.hex + c1.facing.vector,
        facing=c1.facing.opposite(),
        hp=result.hit_points_now,
    )


def test_the_imported_fighter_joins_attacks_and_defends_by_seed_000s_rules() -> None:
    battle = demo_battle(3)
    aldo = aldo_facing_c1(battle)
    events = battle.execute(AddCombatant(aldo))
    assert isinstance(events[0], CombatantAdded)
    joined = battle.state.combatant(aldo.id)
    assert (joined.name, joined.hp, joined.fighter.hit_points) == ("Ser Aldo", 10, 12)
    # Its sword attacks with the imported Broadsword 15.
    swing = AttackOptions(weapon_key="gcs-broadsword", mode="swing")
    rolled = [
        e for e in battle.execute(Attack(aldo.id, "c1", swing)) if isinstance(e, AttackRolled)
    ]
    assert [(e.skill_name, e.base_skill) for e in rolled] == [("Broadsword", 15)]
    # Parry and block are seed 000's: 2/3 of Broadsword 15 and of Shield 14, not the
    # file's 4th-edition parry 12 and block 12.
    fighter = joined.fighter
    assert parry_base(fighter, fighter.weapon("gcs-broadsword")).value == 10
    assert block_base(fighter).value == 9
    assert sheet_of(joined).skill("Broadsword") == 15
    c1_weapon = battle.state.combatant("c1").fighter.weapons[0].key
    parry = AttackOptions(
        weapon_key=c1_weapon,
        mode="swing",
        defenses=(DefenseChoice(DefenseKind.PARRY, "gcs-broadsword"),),
    )
    block = AttackOptions(
        weapon_key=c1_weapon, mode="swing", defenses=(DefenseChoice(DefenseKind.BLOCK),)
    )
    defended: list[DefenseRolled] = []
    for options in (parry, block):
        for seed in range(1, 40):  # the first seed whose attack hits, so a defense is rolled
            trial = demo_battle(seed)
            trial.execute(AddCombatant(aldo))
            found = [
                e
                for e in trial.execute(attack_command("c1", aldo.id, options))
                if isinstance(e, DefenseRolled)
            ]
            if found:
                defended.extend(found)
                break
    assert [(e.kind, e.item_name, e.base) for e in defended] == [
        (DefenseKind.PARRY, "Broadsword", 10),
        (DefenseKind.BLOCK, "Medium Shield", 9),
    ]


def test_the_addition_is_undone_saved_and_replayed() -> None:
    battle = demo_battle(5)
    aldo = aldo_facing_c1(battle)
    battle.execute(AddCombatant(aldo))
    swing = AttackOptions(weapon_key="gcs-broadsword", mode="swing")
    battle.execute(Attack(aldo.id, "c1", swing))
    ruleset = get_ruleset("000")
    loaded = read_battle(write_battle(battle, ruleset.sheets.saved_types), rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert loaded.state.combatant(aldo.id).fighter == aldo.fighter
    battle.undo()
    battle.undo()
    assert all(c.id != aldo.id for c in battle.state.combatants)
    battle.redo()
    assert battle.state.combatant(aldo.id) == aldo


def test_the_ruleset_offers_the_gcs_importer() -> None:
    (kind,) = get_ruleset("000").sheets.character_file_kinds()
    assert (kind.label, kind.suffixes) == ("GURPS Character Sheet", (".gcs",))
    assert kind.read((FIXTURES / "no_weapons_v3.gcs").read_bytes()).fighter.name == (
        "Quill the Scribe"
    )


# --- the character's id: a later import of the same character updates it ------------------


@pytest.mark.parametrize(
    ("name", "origin"),
    [
        ("sword_and_shield_v5.gcs", "gcs:Ahexfray0000test1"),
        ("two_handed_v4.gcs", "gcs:4d3c2b1a-0000-4000-8000-hexfray00004"),
        ("no_weapons_v3.gcs", "gcs:3c2b1a00-0000-4000-8000-hexfray00003"),
        ("fencer_v2.gcs", "gcs:2b1a0000-0000-4000-8000-hexfray00002"),
    ],
)
def test_the_fighter_keeps_the_files_id_as_its_origin(name: str, origin: str) -> None:
    result = imported(name)
    assert result.fighter.origin == origin
    assert not any("the character's id" in line for line in result.skipped)


@pytest.mark.parametrize("bad_id", [None, "", 42, "no spaces allowed", "x" * 65])
def test_without_a_usable_id_the_character_imports_as_a_new_one(bad_id: object) -> None:
    doc = fixture_json("no_weapons_v3.gcs")
    if bad_id is None:
        del doc["id"]
    else:
        doc["id"] = bad_id
    result = import_gcs(doc)
    assert result.fighter.origin == ""
    assert any(
        line.startswith("the character's id (missing or malformed)") for line in result.skipped
    )


def test_the_origin_is_saved_with_the_sheet_and_the_battle() -> None:
    ruleset = get_ruleset("000")
    fighter = imported("two_handed_v4.gcs").fighter
    encoded = ruleset.sheets.encode(fighter)
    assert isinstance(encoded, dict)
    assert encoded["origin"] == fighter.origin
    assert ruleset.sheets.decode(encoded) == fighter
    battle = demo_battle(2)
    brunhild = Combatant(
        id=next_combatant_id(battle.state),
        fighter=fighter,
        side=Side.BLUE,
        hex=battle.state.combatant("c1").hex + battle.state.combatant("c1").facing.vector,
        facing=battle.state.combatant("c1").facing.opposite(),
        hp=fighter.hit_points,
    )
    battle.execute(AddCombatant(brunhild))
    loaded = read_battle(write_battle(battle, ruleset.sheets.saved_types), rulesets=get_ruleset)
    assert loaded.state.combatant(brunhild.id).fighter.origin == fighter.origin
