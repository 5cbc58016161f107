"""rules.sets.seed000.breakage: parry breakage and the 000 BROKEN WEAPONS table."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Reach
from rules.battle.catalog import Catalog
from rules.battle.model import (
    DamageBase,
    DamageType,
    ParryClass,
    Quality,
    Weapon,
    WeaponKind,
    WeaponSize,
)
from rules.battle.pieces import PlacementKind
from rules.core.assets import read_json
from rules.core.errors import DataError, IllegalAttackError
from rules.sets.seed000.breakage import (
    BreakResult,
    ParryBreakRule,
    ParryResult,
    break_outcome_distribution,
    break_weapon,
    load_broken_weapon_table,
    parry_break_chance,
    parry_break_distribution,
    parse_damage,
    roll_parry_break,
    times_broken,
)
from rules.sets.seed000.tables import Tables
from tests.rules.weapon_builder import build_weapon

F = Fraction
TABLES = Tables()  # the ruleset's tables, read once
BLADES, BROKEN = TABLES.blade_breaking, TABLES.broken_weapons


mk = build_weapon  # the shared builder under this module's short name


BROADSWORD = mk(
    WeaponKind.SWORD, "Broadsword", 3, ("swing", "sw+1 cut", "1"), ("thrust", "thr+2 imp", "1")
)
GREATSWORD = mk(
    WeaponKind.TWO_HEX_SWORD,
    "Greatsword",
    7,
    ("swing", "sw+3 cut", "1-2"),
    ("thrust", "thr+3 imp", "2"),
    two_handed=True,
    size=WeaponSize.LARGE,
)
RAPIER = mk(WeaponKind.RAPIER, "Rapier", 2.75, ("thrust", "thr+1 imp", "1"), skill="Fencing")
FOIL = mk(WeaponKind.FOIL, "Foil", 1, ("thrust", "thr imp", "1"), skill="Fencing")
SABER = mk(WeaponKind.SABER, "Saber", 2, ("swing", "sw-1 cut", "1"), ("thrust", "thr+1 imp", "1"))
KNIFE = mk(WeaponKind.KNIFE, "Knife", 0.5, ("thrust", "thr-1 imp", "C"), skill="Knife")
SPEAR = mk(WeaponKind.SPEAR, "Spear", 4, ("thrust", "thr+2 imp", "1"), skill="Spear")
PIKE = mk(WeaponKind.PIKE, "Pike", 13, ("thrust", "thr+3 imp", "2-3"), skill="Spear")
GREAT_AXE = mk(WeaponKind.BATTLE_AXE, "Great axe", 8, ("swing", "sw+3 cut", "1-2"))
HALBERD = mk(
    WeaponKind.POLEARM,
    "Halberd",
    12,
    ("swing", "sw+5 cut", "2-3"),
    ("thrust", "thr+3 imp", "1-3"),
    skill="Polearm",
    parry=ParryClass.HALF,
)
AXE = mk(WeaponKind.AXE, "Axe", 4, ("swing", "sw+2 cut", "1"), skill="Axe/Mace")
MACE = mk(WeaponKind.MACE, "Mace", 5, ("swing", "sw+2 cr", "1"), skill="Axe/Mace")
MORNINGSTAR = mk(WeaponKind.FLAIL, "Morningstar", 6, ("swing", "sw+3 cr", "1"), skill="Flail")
NUNCHAKU = mk(WeaponKind.FLAIL, "Nunchaku", 2, ("swing", "sw+1 cr", "1"), skill="Flail")
KUSARI = mk(WeaponKind.CHAIN, "Kusari", 5, ("swing", "sw+2 cr", "1-4"), skill="Kusari")
HEAVY_CHAIN = mk(WeaponKind.CHAIN, "Heavy chain", 6, ("swing", "sw+1 cr", "1-2"), skill="Kusari")
CLUB = mk(WeaponKind.CLUB, "Club", 3, ("swing", "sw+1 cr", "1"))
STAFF = mk(WeaponKind.STAFF, "Quarterstaff", 4, ("swing", "sw+2 cr", "1-2"), skill="Staff")
CHAIR = mk(WeaponKind.IMPROVISED, "Chair", 8, ("swing", "sw cr", "1"))
BOW = mk(WeaponKind.BOW, "Bow", 2, ("butt", "thr cr", "1"), parry=ParryClass.NONE)
CROSSBOW = mk(WeaponKind.CROSSBOW, "Crossbow", 6, ("butt", "thr cr", "1"), parry=ParryClass.NONE)
SLING = mk(WeaponKind.SLING, "Sling", 0.5, ("swing", "sw cr", "1"), parry=ParryClass.NONE)
PISTOL = mk(WeaponKind.GUN, "Pistol", 2, ("butt", "thr cr", "C"), parry=ParryClass.NONE)
MAIN_GAUCHE = mk(WeaponKind.MAIN_GAUCHE, "Main-gauche", 1.25, ("thrust", "thr imp", "C-1"))
FIST = mk(WeaponKind.UNARMED, "Fist", 0, ("punch", "thr-2 cr", "C-1"), parry=ParryClass.FULL)

ALL_BREAKABLE = [
    BROADSWORD,
    GREATSWORD,
    RAPIER,
    FOIL,
    SABER,
    KNIFE,
    SPEAR,
    PIKE,
    GREAT_AXE,
    HALBERD,
    AXE,
    MACE,
    MORNINGSTAR,
    NUNCHAKU,
    KUSARI,
    HEAVY_CHAIN,
    CLUB,
    STAFF,
    CHAIR,
    BOW,
    CROSSBOW,
    SLING,
    PISTOL,
    MAIN_GAUCHE,
]

EXPECTED = {
    "Broadsword": {"useless": F(1, 2), "broken_blade": F(1, 2)},
    "Greatsword": {"useless": F(1, 2), "broken_blade": F(1, 2)},
    "Saber": {"useless": F(1, 2), "broken_blade": F(1, 2)},
    "Rapier": {"useless": F(1, 2), "dagger": F(1, 2)},
    "Foil": {"useless": F(1, 2), "dagger": F(1, 2)},
    "Knife": {"useless": F(1)},
    "Main-gauche": {"useless": F(1)},
    "Bow": {"useless": F(1)},
    "Crossbow": {"useless": F(1)},
    "Sling": {"useless": F(1)},
    "Pistol": {"useless": F(1)},
    "Spear": {"head_off": F(1, 2), "shaft_broken": F(1, 2)},
    "Pike": {"head_off": F(1, 2), "shaft_broken": F(1, 2)},
    "Great axe": {"club": F(1, 2), "near_hand": F(1, 2)},
    "Halberd": {"pole": F(1, 3), "quarterstaff_and_axe": F(1, 3), "club_and_battle_axe": F(1, 3)},
    "Axe": {"useless": F(1, 2), "short_club": F(1, 2)},
    "Mace": {"useless": F(1, 2), "short_club": F(1, 2)},
    "Morningstar": {"at_chain": F(2, 3), "stump": F(1, 6), "shorter_flail": F(1, 6)},
    "Nunchaku": {"at_chain": F(2, 3), "stump": F(1, 6), "shorter_flail": F(1, 6)},
    "Kusari": {"at_handle": F(1, 3), "middle": F(1, 3), "at_head": F(1, 3)},
    "Heavy chain": {"shortened": F(1)},
    "Club": {"useless": F(1, 2), "short_club": F(1, 2)},
    "Quarterstaff": {"useless": F(1, 2), "short_club": F(1, 2)},
    "Chair": {"useless": F(1, 2), "gm_ruling": F(1, 2)},
}


def find(weapon: Weapon, outcome: str, tries: int = 500) -> BreakResult:
    """The first seed whose break of ``weapon`` gives ``outcome``."""
    for seed in range(tries):
        result = break_weapon(weapon, random.Random(seed), table=BROKEN)
        if result.outcome == outcome:
            return result
    raise AssertionError(f"no seed below {tries} gives {outcome} for {weapon.name}")


def held(result: BreakResult) -> Weapon:
    assert result.weapon_in_hand is not None
    return result.weapon_in_hand


# --- parry breakage ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("quality", "chance"),
    [
        (Quality.CHEAP, F(2, 3)),
        (Quality.GOOD, F(1, 2)),
        (Quality.FINE, F(1, 6)),
        (Quality.VERY_FINE, F(0)),
    ],
)
def test_parry_break_by_quality_at_three_times_the_weight(quality: Quality, chance: F) -> None:
    rapier = mk(WeaponKind.RAPIER, "Rapier", 2.75, ("thrust", "thr imp", "1"), quality=quality)
    at_3x = parry_break_chance(rapier, 8.25, table=BLADES)
    assert at_3x.probability == chance and at_3x.weight_ratio == 3
    assert str(at_3x.citation) == "000 BREAKING A BLADE"
    assert parry_break_chance(rapier, 8.24, table=BLADES).probability == 0
    assert parry_break_chance(rapier, 20, ParryResult.FAILURE, table=BLADES).probability == 0
    # a critical failure breaks even a very fine weapon, so every quality
    assert (
        parry_break_chance(rapier, 20, ParryResult.CRITICAL_FAILURE, table=BLADES).probability == 1
    )
    assert (
        parry_break_chance(rapier, 5, ParryResult.CRITICAL_FAILURE, table=BLADES).probability == 0
    )


def test_flat_third_option_needs_more_than_three_times() -> None:
    third = ParryBreakRule.FLAT_THIRD
    assert parry_break_chance(KNIFE, 1.5, rule=third, table=BLADES).probability == 0
    chance = parry_break_chance(KNIFE, 1.6, rule=third, table=BLADES)
    assert chance.probability == F(1, 3) and str(chance.citation) == "000 BREAKING WEAPONS"
    fine = mk(WeaponKind.KNIFE, "Fine knife", 0.5, ("thrust", "thr imp", "C"), quality=Quality.FINE)
    assert parry_break_chance(fine, 5, rule=third, table=BLADES).probability == F(1, 3)
    assert (
        parry_break_chance(
            fine, 5, ParryResult.CRITICAL_FAILURE, rule=third, table=BLADES
        ).probability
        == 0
    )
    assert parry_break_chance(FIST, 100, table=BLADES).probability == 0


def test_parry_break_roll_on_a_d6_and_exact_distribution() -> None:
    outcomes: Counter[bool] = Counter()
    for seed in range(200):
        rolled = roll_parry_break(RAPIER, 9, random.Random(seed), blades=BLADES, broken=BROKEN)
        assert rolled.die is not None and 1 <= rolled.die <= 6
        assert rolled.broke is (rolled.die <= 3)
        assert (rolled.result is not None) is rolled.broke
        if rolled.result is not None:
            assert rolled.result.outcome in ("useless", "dagger")
        outcomes[rolled.broke] += 1
    assert outcomes[True] and outcomes[False]
    sure = roll_parry_break(
        RAPIER, 20, random.Random(1), ParryResult.CRITICAL_FAILURE, blades=BLADES, broken=BROKEN
    )
    assert sure.die is None and sure.broke
    never = roll_parry_break(RAPIER, 2, random.Random(1), blades=BLADES, broken=BROKEN)
    assert never.die is None and not never.broke and never.result is None
    dist = parry_break_distribution(RAPIER, 9, blades=BLADES, broken=BROKEN)
    assert dict(dist) == {"intact": F(1, 2), "useless": F(1, 4), "dagger": F(1, 4)}
    assert dict(parry_break_distribution(RAPIER, 2, blades=BLADES, broken=BROKEN)) == {"intact": 1}


# --- the table: sections and exact chances ------------------------------------------------


@pytest.mark.parametrize("weapon", ALL_BREAKABLE, ids=lambda w: w.name)
def test_exact_outcome_distribution(weapon: Weapon) -> None:
    dist = break_outcome_distribution(weapon, table=BROKEN)
    assert dict(dist) == EXPECTED[weapon.name]
    assert sum(dist.values()) == 1


@pytest.mark.parametrize("weapon", ALL_BREAKABLE, ids=lambda w: w.name)
def test_every_die_face_maps_to_its_outcome_exactly(weapon: Weapon, scripted: type) -> None:
    section = BROKEN.section(weapon)
    sides = section.die_sides
    counts: Counter[str] = Counter()
    for face in range(1, sides + 1 if len(section.outcomes) > 1 else 2):
        dice = scripted([face, *([1] * 20)]) if len(section.outcomes) > 1 else scripted([1] * 20)
        counts[break_weapon(weapon, dice, table=BROKEN).outcome] += 1
    total = sum(counts.values())
    assert {k: F(v, total) for k, v in counts.items()} == EXPECTED[weapon.name]


@pytest.mark.parametrize("weapon", ALL_BREAKABLE, ids=lambda w: w.name)
def test_every_outcome_is_reachable_with_a_seed(weapon: Weapon) -> None:
    for outcome in EXPECTED[weapon.name]:
        result = find(weapon, outcome)
        assert result.weapon is weapon and result.section
        assert result.citations[0].heading == "BROKEN WEAPONS"
        for piece in result.pieces:
            assert piece.landing is not None  # every leaving piece is placed
            assert piece.placement.kind is not PlacementKind.IN_HAND


def test_every_catalog_weapon_but_fists_has_a_section(catalog: Catalog) -> None:
    for weapon in catalog.weapons.values():
        if weapon.kind is WeaponKind.UNARMED:
            with pytest.raises(IllegalAttackError):
                break_weapon(weapon, random.Random(0), table=BROKEN)
            continue
        dist = break_outcome_distribution(weapon, table=BROKEN)
        assert sum(dist.values()) == 1
        for outcome in dist:
            find(weapon, outcome)


# --- the outcomes in detail ---------------------------------------------------------------


def test_useless_weapons() -> None:
    for weapon in (KNIFE, BOW, CROSSBOW, SLING, PISTOL, MAIN_GAUCHE):
        result = break_weapon(weapon, random.Random(0), table=BROKEN)
        assert result.useless and result.weapon_in_hand is None and result.pieces == ()
        assert result.in_hand is not None and result.in_hand.name.startswith("ruined")
    assert break_weapon(PISTOL, random.Random(0), table=BROKEN).citations[1].heading == (
        "GUNS AND MISSILE WEAPONS"
    )


def test_broken_sword_halves_cuts_and_thrusts_crush_at_basic() -> None:
    result = find(BROADSWORD, "broken_blade")
    sword = held(result)
    assert sword.name == "broken Broadsword" and sword.key == "broadsword:broken"
    assert times_broken(sword) == 1
    assert sword.mode("swing").damage == replace(BROADSWORD.mode("swing").damage, factor=F(1, 2))
    thrust = sword.mode("thrust").damage
    assert (thrust.base, thrust.adds, thrust.type) == (DamageBase.THRUST, 0, DamageType.CRUSHING)
    assert thrust.factor == 1
    assert find(BROADSWORD, "useless").weapon_in_hand is None
    assert held(find(SABER, "broken_blade")).kind is WeaponKind.SABER


def test_broken_two_hex_sword_reaches_one_hex() -> None:
    sword = held(find(GREATSWORD, "broken_blade"))
    assert sword.kind is WeaponKind.SWORD
    assert all(m.reach == Reach.of(1) for m in sword.modes)


def test_broken_rapier_or_foil_is_a_dagger_one_point_weaker() -> None:
    for weapon in (RAPIER, FOIL):
        dagger = held(find(weapon, "dagger"))
        assert (dagger.kind, dagger.skill) == (WeaponKind.KNIFE, "Knife")
        (mode,) = dagger.modes
        assert (mode.damage.base, mode.damage.adds, mode.damage.type) == (
            DamageBase.THRUST,
            -2,
            DamageType.IMPALING,
        )
        assert mode.reach == Reach.of(0)


def test_spear_head_off_gives_a_quarterstaff_and_a_dagger_at_the_feet() -> None:
    result = find(SPEAR, "head_off")
    staff = held(result)
    assert (staff.kind, staff.two_handed, staff.parry) == (WeaponKind.STAFF, True, ParryClass.FULL)
    assert staff.mode("swing").damage == parse_damage("sw+2 cr")
    (head,) = result.pieces
    assert head.weapon is not None and head.weapon.kind is WeaponKind.KNIFE
    assert head.placement.kind is PlacementKind.AT_FEET
    assert head.landing is not None and head.landing.distance == 0


def test_spear_shaft_broken_gives_a_club_and_a_shorter_spear_on_the_ground() -> None:
    for weapon, reach in ((SPEAR, Reach.of(1)), (PIKE, Reach.of(1, 2))):
        result = find(weapon, "shaft_broken")
        assert held(result).kind is WeaponKind.CLUB
        assert held(result).mode("swing").reach == Reach.of(1)
        (rest,) = result.pieces
        assert rest.weapon is not None and rest.weapon.kind is weapon.kind
        assert rest.weapon.mode("thrust").damage == weapon.mode("thrust").damage
        assert rest.weapon.mode("thrust").reach == reach
        assert rest.placement.kind is PlacementKind.AT_FEET


def test_battle_axe_club_or_clumsy_axe_at_the_feet() -> None:
    club = find(GREAT_AXE, "club")
    assert held(club).kind is WeaponKind.CLUB and club.pieces == ()
    near = find(GREAT_AXE, "near_hand")
    assert near.weapon_in_hand is None and not near.useless
    (axe,) = near.pieces
    assert axe.weapon is not None and axe.weapon.kind is WeaponKind.AXE
    assert axe.weapon.mode("swing").skill_modifier == -4
    assert axe.weapon.mode("swing").reach == Reach.of(1)
    assert axe.placement.kind is PlacementKind.AT_FEET


def test_polearm_three_ways() -> None:
    pole = held(find(HALBERD, "pole"))
    (thrust,) = pole.modes
    assert thrust.reach == HALBERD.reach and pole.parry is HALBERD.parry
    assert pole.skill == "Polearm" and thrust.damage.type is DamageType.CRUSHING
    staff = find(HALBERD, "quarterstaff_and_axe")
    assert held(staff).kind is WeaponKind.STAFF
    (head,) = staff.pieces
    assert head.weapon is not None and head.weapon.kind is WeaponKind.AXE
    assert head.weapon.modes[0].skill_modifier == -4
    short = find(HALBERD, "club_and_battle_axe")
    assert held(short).kind is WeaponKind.CLUB
    (axe,) = short.pieces
    assert axe.weapon is not None and axe.weapon.kind is WeaponKind.BATTLE_AXE
    assert axe.weapon.modes[0].skill_modifier == -2 and axe.weapon.reach == Reach.of(1, 2)


def test_axes_and_maces_leave_a_short_club() -> None:
    for weapon in (AXE, MACE):
        result = find(weapon, "short_club")
        assert held(result).kind is WeaponKind.CLUB
        (head,) = result.pieces
        assert head.weapon is None and head.placement.kind is PlacementKind.AT_FEET


def test_flail_breaking_at_the_chain_throws_a_section_2d6_hexes() -> None:
    distances = set()
    directions = set()
    for seed in range(400):
        result = break_weapon(MORNINGSTAR, random.Random(seed), table=BROKEN)
        if result.outcome != "at_chain":
            continue
        assert held(result).name == "handle of Morningstar"
        assert held(result).mode("swing").damage == parse_damage("sw+1 cr")  # heavy: club
        (loose,) = result.pieces
        assert loose.weapon is not None and loose.stray_hit_factor == F(1, 2)
        assert loose.landing is not None and loose.placement.dice is not None
        assert str(loose.placement.dice) == "2d6"
        assert loose.landing.distance == sum(loose.landing.distance_faces)
        distances.add(loose.landing.distance)
        directions.add(loose.landing.direction_roll)
    assert distances == set(range(2, 13)) and directions == set(range(1, 7))
    light = held(find(NUNCHAKU, "at_chain"))
    assert light.mode("swing").damage == parse_damage("sw cr")  # light: baton


def test_flail_section_breaks_stump_or_shorter_flail() -> None:
    stump = find(MORNINGSTAR, "stump")
    assert stump.weapon_in_hand is None and stump.in_hand is not None
    (rest,) = stump.pieces
    assert rest.weapon is None and rest.placement.dice is not None
    assert str(rest.placement.dice) == "1d6"
    assert rest.landing is not None and 1 <= rest.landing.distance <= 6
    short = find(MORNINGSTAR, "shorter_flail")
    half = replace(MORNINGSTAR.mode("swing").damage, factor=F(1, 2))
    assert held(short).mode("swing").damage == half
    (tip,) = short.pieces
    assert tip.weapon is None and tip.placement.dice is not None
    assert str(tip.placement.dice) == "2d6"


def test_chains_with_handle_and_head() -> None:
    handle = find(KUSARI, "at_handle")
    assert handle.weapon_in_hand is None
    (rest,) = handle.pieces
    assert rest.weapon is not None
    assert rest.weapon.modes[0].damage == KUSARI.modes[0].damage  # full damage
    assert rest.weapon.reach == KUSARI.reach and rest.stray_hit_factor == F(1, 2)
    middle = find(KUSARI, "middle")
    short = held(middle)
    assert short.reach == Reach.of(1) and short.modes[0].damage.type is DamageType.CRUSHING
    assert short.mode("swing").damage.factor == F(1, 2)
    (head_end,) = middle.pieces
    assert head_end.weapon is not None and head_end.weapon.reach == Reach.of(1, 2)  # 1-4 halved
    assert head_end.weapon.mode("swing").damage.factor == F(1, 2)
    head = find(KUSARI, "at_head")
    assert held(head).reach == KUSARI.reach
    assert held(head).mode("swing").damage.factor == F(1, 2)
    (flying,) = head.pieces
    assert flying.weapon is None and flying.placement.kind is PlacementKind.FLIES


def test_plain_chain_loses_one_damage_per_break_to_minus_two_and_reach_over_one() -> None:
    first = held(break_weapon(HEAVY_CHAIN, random.Random(0), table=BROKEN))
    assert first.modes[0].damage.adds == 0 and first.reach == Reach.of(1)
    second = held(break_weapon(first, random.Random(0), table=BROKEN))
    assert second.modes[0].damage.adds == -1 and times_broken(second) == 2
    third = held(break_weapon(second, random.Random(0), table=BROKEN))
    assert third.modes[0].damage.adds == -1  # at most -2 in all
    assert times_broken(third) == 3


def test_reach_halving_rounds_down_to_at_least_one() -> None:
    for reach, halved in (("1-2", Reach.of(1)), ("3", Reach.of(1)), ("4", Reach.of(2))):
        chain = mk(WeaponKind.CHAIN, "Kusari", 5, ("swing", "sw+2 cr", reach))
        (head_end,) = find(chain, "middle").pieces
        assert head_end.weapon is not None and head_end.weapon.reach == halved


def test_other_weapons() -> None:
    assert held(find(CLUB, "short_club")).kind is WeaponKind.CLUB
    assert held(find(STAFF, "short_club")).weight == 2
    gm = find(CHAIR, "gm_ruling")
    assert gm.gm_ruling and held(gm).name == "broken Chair"
    with pytest.raises(IllegalAttackError):
        break_weapon(FIST, random.Random(0), table=BROKEN)


# --- the loader ------------------------------------------------------------------------


def table_data() -> dict[str, object]:
    data = read_json("rulesets", "000", "broken_weapons.json")
    assert isinstance(data, dict)
    return copy.deepcopy(data)


def test_the_shipped_table_loads_and_every_section_sums_to_one() -> None:
    table = load_broken_weapon_table(table_data())
    assert {s.key for s in table.sections} >= {"swords", "flails", "chains", "plain_chains"}
    for section in table.sections:
        assert sum(o.chance for o in section.outcomes) == 1
        assert section.die_sides in (1, 2, 3, 6)


@pytest.mark.parametrize(
    "breakage",
    [
        "chance",
        "template",
        "duplicate",
        "placement",
        "damage",
        "reach",
        "unknown key",
    ],
)
def test_loader_rejects_malformed_tables(breakage: str) -> None:
    data = table_data()
    sections = data["sections"]
    assert isinstance(sections, list)
    flails = next(s for s in sections if s["key"] == "flails")
    outcome = flails["outcomes"][0]
    if breakage == "chance":
        outcome["chance"] = "1/2"
    elif breakage == "template":
        outcome["in_hand"]["template_by_weight"] = [{"template": "nope"}]
    elif breakage == "duplicate":
        flails["outcomes"][1]["key"] = outcome["key"]
    elif breakage == "placement":
        outcome["pieces"][0]["placement"] = {"kind": "orbit"}
    elif breakage == "damage":
        templates = data["templates"]
        assert isinstance(templates, dict)
        templates["club"]["modes"][0]["damage"] = "swing+1 crushing"
    elif breakage == "reach":
        swords = next(s for s in sections if s["key"] == "two_hex_swords")
        swords["outcomes"][1]["in_hand"]["reach"] = {"cap": 1, "halve": True}
    else:
        outcome["colour"] = "red"
    with pytest.raises(DataError):
        load_broken_weapon_table(json.loads(json.dumps(data)))
