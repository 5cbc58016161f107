"""rules.sets.seed000.weapon_strikes: striking at weapons, defending them, chopping shafts,
breaking blades, 001 weapon DR/HP, subduing, and abstract piece placement."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from hexmap import Facing
from rules.battle.model import (
    INTACT,
    DamageType,
    ParryClass,
    Quality,
    Weapon,
    WeaponCondition,
    WeaponDamageState,
    WeaponKind,
    WeaponSize,
)
from rules.battle.pieces import (
    AT_FEET,
    DirectionRule,
    DistanceDice,
    Placement,
    PlacementKind,
    flies,
    land,
)
from rules.core.errors import DataError, IllegalAttackError
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.weapon_strikes import (
    ADJACENT_OR_FEET,
    KNOCKED_AWAY,
    METAL_FACED_SHAFT,
    ONE_HEX_RANDOM,
    WEAPON_STRIKES_000,
    WEAPON_STRIKES_001,
    WOODEN_SHAFT,
    Material,
    StrikePurpose,
    WeaponUse,
    blade_break_threshold,
    blunt_end,
    check_weapon_defense,
    cut_shaft,
    damage_weapon,
    flat_of_blade,
    is_blade,
    knock_away_placement,
    load_blade_table,
    load_integrity_table,
    pulled_punch,
    shaft_stats,
    strike_blade,
    use_weakened_weapon,
    weapon_defense_options,
    weapon_integrity,
)
from tests.rules.weapon_builder import build_weapon

S000, S001 = WEAPON_STRIKES_000, WEAPON_STRIKES_001
TABLES = Tables()  # the ruleset's tables, read once
BLADES, INTEGRITY = TABLES.blade_breaking, TABLES.weapon_integrity


mk = build_weapon  # the shared builder under this module's short name

BROADSWORD = mk(
    WeaponKind.SWORD, "Broadsword", 3, ("swing", "sw+1 cut", "1"), ("thrust", "thr+1 cr", "1")
)
KNIFE = mk(
    WeaponKind.KNIFE,
    "Knife",
    0.5,
    ("swing", "sw-3 cut", "C-1"),
    ("thrust", "thr-1 imp", "C"),
    skill="Knife",
)
MAIN_GAUCHE = mk(
    WeaponKind.MAIN_GAUCHE,
    "Main-gauche",
    1.25,
    ("thrust", "thr imp", "C-1"),
    skill="Main-Gauche",
    parry=ParryClass.FULL,
)
RAPIER = mk(
    WeaponKind.RAPIER,
    "Rapier",
    2.75,
    ("thrust", "thr+1 imp", "1"),
    skill="Fencing",
    parry=ParryClass.FULL,
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
SPEAR = mk(
    WeaponKind.SPEAR,
    "Spear",
    4,
    ("thrust", "thr+2 imp", "1"),
    skill="Spear",
    wooden_shaft=True,
    size=WeaponSize.LARGE,
)
LONG_SPEAR = mk(
    WeaponKind.SPEAR,
    "Long spear",
    5,
    ("thrust", "thr+3 imp", "1-2"),
    skill="Spear",
    wooden_shaft=True,
    two_handed=True,
    size=WeaponSize.LARGE,
)
HALBERD = mk(
    WeaponKind.POLEARM,
    "Halberd",
    12,
    ("swing", "sw+5 cut", "2-3"),
    ("thrust", "thr+3 imp", "1-3"),
    skill="Polearm",
    wooden_shaft=True,
    metal_faced=True,
    two_handed=True,
    size=WeaponSize.LARGE,
)
PISTOL = mk(
    WeaponKind.GUN, "Pistol", 2, ("butt", "thr cr", "C"), skill="Guns", parry=ParryClass.NONE
)
CARBINE = mk(
    WeaponKind.GUN,
    "Carbine",
    6,
    ("butt", "thr cr", "1"),
    skill="Guns",
    parry=ParryClass.NONE,
    two_handed=True,
)
RIFLE = mk(
    WeaponKind.GUN,
    "Rifle",
    10,
    ("butt", "thr+1 cr", "1"),
    skill="Guns",
    parry=ParryClass.NONE,
    two_handed=True,
    size=WeaponSize.LARGE,
)
FIST = mk(
    WeaponKind.UNARMED,
    "Fist",
    0,
    ("punch", "thr-2 cr", "C-1"),
    skill="Brawling",
    parry=ParryClass.FULL,
)


# --- distance dice and landings ------------------------------------------------


def test_distance_dice_parse_and_exact_distributions() -> None:
    assert DistanceDice.parse("1d3-1") == DistanceDice(1, 3, -1)
    assert str(DistanceDice.parse(" 2d6 ")) == "2d6"
    thirds = Fraction(1, 3)
    assert dict(DistanceDice(1, 3, -1).distribution()) == {0: thirds, 1: thirds, 2: thirds}
    assert dict(DistanceDice(1, 2, -1).distribution()) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    two_d6 = DistanceDice(2, 6).distribution()
    assert two_d6[7] == Fraction(6, 36) and two_d6[2] == Fraction(1, 36) and min(two_d6) == 2
    assert sum(two_d6.values()) == 1
    for bad in ("d6", "2x6", "1d", "1d6+x", "1d0"):
        with pytest.raises(DataError):
            DistanceDice.parse(bad)


def test_knocked_away_lands_0_to_2_hexes_with_a_direction_only_when_moved() -> None:
    seen: dict[int, set[int | None]] = {}
    for seed in range(300):
        landing = land(KNOCKED_AWAY, random.Random(seed))
        assert landing.distance == landing.distance_faces[0] - 1
        seen.setdefault(landing.distance, set()).add(landing.direction_roll)
        if landing.distance == 0:
            assert landing.direction_roll is None and landing.facing() is None
        else:
            assert landing.direction_roll is not None
            assert landing.facing() is Facing(landing.direction_roll - 1)
    assert set(seen) == {0, 1, 2}
    assert seen[1] | seen[2] == set(range(1, 7))


def test_one_hex_random_and_fixed_placements() -> None:
    for seed in range(40):
        landing = land(ONE_HEX_RANDOM, random.Random(seed))
        assert landing.distance == 1 and landing.distance_faces == ()
        assert landing.direction_roll in range(1, 7)
    at_feet = land(AT_FEET, random.Random(1))
    assert (at_feet.distance, at_feet.direction_roll) == (0, None)
    assert dict(AT_FEET.distance_distribution()) == {0: 1}
    assert dict(ONE_HEX_RANDOM.distance_distribution()) == {1: 1}


def test_flying_placement_rolls_2d6_and_forward_or_back_needs_the_facing() -> None:
    placement = flies("2d6")
    assert placement.kind is PlacementKind.FLIES and placement.direction is DirectionRule.RANDOM
    distances = {land(placement, random.Random(s)).distance for s in range(400)}
    assert distances == set(range(2, 13))
    back_and_forth = Placement(
        PlacementKind.FLIES, DistanceDice(1), 0, DirectionRule.FORWARD_OR_BACK
    )
    facings = set()
    for seed in range(50):
        landing = land(back_and_forth, random.Random(seed))
        facing = landing.facing(Facing.NE)
        assert facing is (Facing.NE if landing.direction_roll in (1, 2, 3) else Facing.SW)
        facings.add(facing)
        with pytest.raises(ValueError):
            landing.facing()
    assert facings == {Facing.NE, Facing.SW}


def test_knock_away_placement_by_size() -> None:
    assert knock_away_placement(KNIFE) is KNOCKED_AWAY
    assert knock_away_placement(GREATSWORD) is ADJACENT_OR_FEET
    assert dict(ADJACENT_OR_FEET.distance_distribution()) == {0: Fraction(1, 2), 1: Fraction(1, 2)}


# --- penalties and targets -------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "value"),
    [
        (KNIFE, -5),
        (MAIN_GAUCHE, -5),
        (PISTOL, -5),
        (CARBINE, -4),
        (RIFLE, -4),
        (HALBERD, -3),
        (BROADSWORD, -4),
        (SPEAR, -4),
        (GREATSWORD, -4),
        (RAPIER, -4),
    ],
)
def test_000_penalty_very_small_polearm_other(target: Weapon, value: int) -> None:
    mod = S000.strike_penalty(target)
    assert mod.value == value and str(mod.citation) == "000 STRIKING AT WEAPONS"


@pytest.mark.parametrize(
    ("target", "value"),
    [
        (KNIFE, -5),
        (MAIN_GAUCHE, -5),
        (BROADSWORD, -4),
        (SPEAR, -4),
        (RAPIER, -4),
        (GREATSWORD, -3),
        (LONG_SPEAR, -3),
        (HALBERD, -3),
        (PISTOL, -5),
        (CARBINE, -4),
        (RIFLE, -3),
    ],
)
def test_001_penalty_by_reach_and_firearm_size(target: Weapon, value: int) -> None:
    mod = S001.strike_penalty(target)
    assert mod.value == value and str(mod.citation) == "001 Striking at Weapons"


def test_bare_hands_are_no_weapon_target() -> None:
    for rules in (S000, S001):
        with pytest.raises(IllegalAttackError):
            rules.strike_penalty(FIST)


def test_disarm_extra_minus_two_unless_fencing() -> None:
    for rules in (S000, S001):
        assert rules.disarm_penalty(RAPIER) is None
        assert rules.disarm_penalty(MAIN_GAUCHE) is None
        smallsword = mk(
            WeaponKind.SWORD, "Smallsword", 1.5, ("thrust", "thr+1 imp", "1"), skill="Smallsword"
        )
        assert rules.disarm_penalty(smallsword) is None
        extra = rules.disarm_penalty(BROADSWORD)
        assert extra is not None and extra.value == -2
    mods = S001.strike_modifiers(KNIFE, BROADSWORD, StrikePurpose.DISARM)
    assert [m.value for m in mods] == [-5, -2]
    assert [m.value for m in S000.strike_modifiers(KNIFE, BROADSWORD)] == [-5]


def test_000_targets_used_weapons_always_and_others_in_reach() -> None:
    cases = itertools.product([False, True], repeat=2)
    for used, in_reach in cases:
        t = S000.targetable(
            BROADSWORD, weapon_in_reach=in_reach, used_against_attacker_this_turn=used
        )
        assert t.allowed is (used or in_reach)


def test_001_targets_reach_two_weapons_the_turn_after_they_attacked() -> None:
    for weapon in (BROADSWORD, LONG_SPEAR, HALBERD):
        for last_turn, in_reach in itertools.product([False, True], repeat=2):
            t = S001.targetable(
                weapon, weapon_in_reach=in_reach, attacked_or_feinted_last_turn=last_turn
            )
            long = weapon.reach.max >= 2
            assert t.allowed is (in_reach or (last_turn and long))


def test_defending_a_weapon_dodge_or_parry_with_it_only() -> None:
    options = weapon_defense_options(KNIFE, target_ready=True)
    assert options.allows(DefenseKind.DODGE)
    assert options.allows(DefenseKind.PARRY, "knife")
    assert not options.allows(DefenseKind.PARRY, "broadsword")
    assert not options.allows(DefenseKind.BLOCK)
    assert not options.passive_defense and not options.shield_defense_bonus and options.retreat
    with pytest.raises(IllegalAttackError):
        check_weapon_defense(options, DefenseKind.BLOCK)
    with pytest.raises(IllegalAttackError):
        check_weapon_defense(options, DefenseKind.PARRY, "broadsword")
    check_weapon_defense(options, DefenseKind.PARRY, "knife")
    unready = weapon_defense_options(KNIFE, target_ready=False)
    assert unready.parry_with is None and unready.allows(DefenseKind.DODGE)
    assert weapon_defense_options(PISTOL, target_ready=True).parry_with is None


# --- cutting through a shaft -------------------------------------------------------


def test_shaft_stats_wood_and_metal_faced() -> None:
    assert shaft_stats(SPEAR) == WOODEN_SHAFT and (WOODEN_SHAFT.dr, WOODEN_SHAFT.hp) == (3, 8)
    assert shaft_stats(HALBERD) == METAL_FACED_SHAFT
    assert (METAL_FACED_SHAFT.dr, METAL_FACED_SHAFT.hp) == (4, 12)
    assert shaft_stats(BROADSWORD) is None
    with pytest.raises(IllegalAttackError):
        cut_shaft(BROADSWORD, INTACT, 10, DamageType.CUTTING)


def test_only_cutting_blows_chop_and_basic_damage_past_dr_counts() -> None:
    with pytest.raises(IllegalAttackError):
        cut_shaft(SPEAR, INTACT, 20, DamageType.CRUSHING)
    hit = cut_shaft(SPEAR, INTACT, 10, DamageType.CUTTING)
    assert (hit.penetrating, hit.after.damage_taken, hit.broke) == (7, 7, False)
    assert hit.after.condition is WeaponCondition.DAMAGED
    assert cut_shaft(SPEAR, INTACT, 3, DamageType.CUTTING).after.condition is WeaponCondition.INTACT
    chop = cut_shaft(SPEAR, INTACT, 11, DamageType.CUTTING)
    assert chop.broke and chop.after.condition is WeaponCondition.BROKEN
    assert not cut_shaft(HALBERD, INTACT, 15, DamageType.CUTTING).broke
    assert cut_shaft(HALBERD, INTACT, 16, DamageType.CUTTING).broke


def test_triple_the_breaking_damage_weakens_then_the_next_use_breaks() -> None:
    state = INTACT
    taken = []
    for _ in range(4):  # 7 past DR each time: 7, 14, 21, 28 >= 3 x 8
        hit = cut_shaft(SPEAR, state, 10, DamageType.CUTTING)
        state = hit.after
        taken.append((state.damage_taken, state.weakened))
    assert taken == [(7, False), (14, False), (21, False), (28, True)]
    assert state.condition is WeaponCondition.WEAKENED and not state.broken
    for use in WeaponUse:
        assert use_weakened_weapon(state, use).broken
    assert use_weakened_weapon(WeaponDamageState(5), WeaponUse.PARRY) == WeaponDamageState(5)
    assert not cut_shaft(SPEAR, state, 3, DamageType.CUTTING).broke  # stopped by DR
    assert cut_shaft(SPEAR, state, 4, DamageType.CUTTING).broke
    broken = WeaponDamageState(30, False, True)
    assert cut_shaft(SPEAR, broken, 10, DamageType.CUTTING).after == broken


# --- breaking a blade -----------------------------------------------------------------


def blade(
    kind: WeaponKind,
    name: str,
    weight: float,
    skill: str = "Broadsword",
    quality: Quality = Quality.GOOD,
) -> Weapon:
    return mk(kind, name, weight, ("swing", "sw cut", "1"), skill=skill, quality=quality)


@pytest.mark.parametrize(
    ("weapon", "damage"),
    [
        (blade(WeaponKind.FOIL, "Foil", 1), 3),
        (blade(WeaponKind.KNIFE, "Stiletto", 0.25), 3),
        (blade(WeaponKind.KNIFE, "Thin knife", 0.5), 3),
        (blade(WeaponKind.RAPIER, "Rapier", 2.75), 4),
        (blade(WeaponKind.RAPIER, "Smallsword", 1.5), 4),
        (blade(WeaponKind.KNIFE, "Dagger", 0.25), 4),
        (blade(WeaponKind.MAIN_GAUCHE, "Main-gauche", 1.25), 4),
        (blade(WeaponKind.SWORD, "Court sword", 1.5, skill="Smallsword"), 4),
        (blade(WeaponKind.KNIFE, "Knife", 0.5), 6),
        (blade(WeaponKind.KNIFE, "Large knife", 1), 6),
        (blade(WeaponKind.SWORD, "Shortsword", 2, skill="Shortsword"), 6),
        (blade(WeaponKind.SABER, "Saber", 2), 6),
        (blade(WeaponKind.SWORD, "Broadsword", 3), 8),
        (blade(WeaponKind.SWORD, "Bastard sword", 5), 10),
        (blade(WeaponKind.TWO_HEX_SWORD, "Greatsword", 7), 10),
    ],
)
def test_blade_classes_follow_the_seed_list(weapon: Weapon, damage: int) -> None:
    threshold = blade_break_threshold(weapon, BROADSWORD, table=BLADES)
    assert threshold.base == damage and threshold.threshold == damage
    assert str(threshold.citation) == "000 BREAKING A BLADE"


def test_quality_halves_or_doubles_the_damage_needed() -> None:
    good, fine = BROADSWORD, blade(WeaponKind.SWORD, "Fine broadsword", 3, quality=Quality.FINE)
    cheap = blade(WeaponKind.SWORD, "Cheap sword", 3, quality=Quality.CHEAP)
    very_fine = blade(WeaponKind.SWORD, "Very fine sword", 3, quality=Quality.VERY_FINE)
    assert blade_break_threshold(good, fine, table=BLADES).threshold == 4
    assert blade_break_threshold(fine, good, table=BLADES).threshold == 16
    assert (
        blade_break_threshold(very_fine, cheap, table=BLADES).threshold == 16
    )  # one step, not more
    assert blade_break_threshold(cheap, very_fine, table=BLADES).threshold == 4
    assert blade_break_threshold(fine, fine, table=BLADES).threshold == 8
    foil = blade(WeaponKind.FOIL, "Foil", 1)
    assert blade_break_threshold(foil, fine, table=BLADES).threshold == Fraction(3, 2)
    assert not strike_blade(foil, fine, 1, DamageType.CRUSHING, table=BLADES).broke
    assert strike_blade(foil, fine, 2, DamageType.CRUSHING, table=BLADES).broke


def test_strike_blade_needs_cutting_or_crushing_and_a_blade() -> None:
    assert strike_blade(BROADSWORD, BROADSWORD, 8, DamageType.CUTTING, table=BLADES).broke
    assert not strike_blade(BROADSWORD, BROADSWORD, 7, DamageType.CUTTING, table=BLADES).broke
    with pytest.raises(IllegalAttackError):
        strike_blade(BROADSWORD, BROADSWORD, 20, DamageType.IMPALING, table=BLADES)
    with pytest.raises(IllegalAttackError):
        blade_break_threshold(SPEAR, BROADSWORD, table=BLADES)
    assert is_blade(KNIFE, table=BLADES) and not is_blade(HALBERD, table=BLADES)


def test_blade_table_loader_rejects_bad_data() -> None:
    good = {
        "citation": {"seed": "000", "heading": "BREAKING A BLADE"},
        "damage_types": ["cut"],
        "classes": [{"key": "k", "label": "k", "damage": 3}],
        "assign": [{"kind": "knife", "class": "k"}],
        "attacker_better_factor": "1/2",
        "defender_better_factor": "2",
        "parry_weight_ratio": "3",
        "parry_break_chances": {"cheap": "2/3", "good": "1/2", "fine": "1/6", "very fine": "0"},
    }
    assert load_blade_table(good).classes["k"].damage == 3
    for change in (
        {"assign": [{"kind": "knife", "class": "nope"}]},
        {"classes": [{"key": "k", "label": "k", "damage": 0}]},
        {"parry_break_chances": {"cheap": "2/3", "good": "3/2", "fine": "1/6", "very fine": "0"}},
        {"parry_break_chances": {"good": "1/2"}},
        {"extra": 1},
    ):
        with pytest.raises(DataError):
            load_blade_table({**good, **change})
    assert BLADES.parry_break_chances[Quality.GOOD] == Fraction(1, 2)


# --- 001 breaking a weapon -----------------------------------------------------------------


def test_001_weapon_dr_by_material_and_hp_by_weight() -> None:
    sword = weapon_integrity(BROADSWORD, table=INTEGRITY)
    assert (sword.material, sword.dr, sword.hp) == (Material.METAL, 6, 8)
    assert weapon_integrity(SPEAR, table=INTEGRITY).material is Material.WOOD
    assert weapon_integrity(SPEAR, table=INTEGRITY).dr == 3
    assert weapon_integrity(HALBERD, table=INTEGRITY).material is Material.METAL_FACED_WOOD
    assert (
        weapon_integrity(HALBERD, table=INTEGRITY).dr == 4
        and weapon_integrity(HALBERD, table=INTEGRITY).hp == 14
    )
    staff = mk(WeaponKind.STAFF, "Staff", 4, ("swing", "sw+2 cr", "1-2"))
    assert weapon_integrity(staff, table=INTEGRITY).material is Material.WOOD
    sling = mk(WeaponKind.SLING, "Sling", 0.5, ("swing", "sw cr", "1"), parry=ParryClass.NONE)
    assert weapon_integrity(sling, table=INTEGRITY).material is Material.SOFT
    assert weapon_integrity(KNIFE, table=INTEGRITY).hp == 3
    table = INTEGRITY
    assert [table.hp(w) for w in (0.5, 0.6, 2, 2.5, 5, 7, 12, 40)] == [3, 5, 6, 8, 10, 12, 14, 16]
    with pytest.raises(IllegalAttackError):
        weapon_integrity(FIST, table=INTEGRITY)


def test_001_damage_accumulates_to_the_weapon_hp() -> None:
    first = damage_weapon(BROADSWORD, INTACT, 10, table=INTEGRITY)  # DR 6 -> 4
    assert (first.penetrating, first.after.damage_taken, first.broke) == (4, 4, False)
    second = damage_weapon(BROADSWORD, first.after, 10, table=INTEGRITY)
    assert second.broke and second.after.damage_taken == 8
    assert damage_weapon(BROADSWORD, INTACT, 6, table=INTEGRITY).after == INTACT
    assert str(first.citation) == "001 Breaking a Weapon"


def test_integrity_loader_rejects_bad_bands() -> None:
    data = {
        "citation": {"seed": "001", "heading": "Breaking a Weapon"},
        "dr": {"metal": 6, "wood": 3, "metal-faced wood": 4, "soft": 1},
        "wood_kinds": ["staff"],
        "soft_kinds": [],
        "hp_by_weight": [{"max_weight": 1, "hp": 4}, {"hp": 9}],
    }
    assert load_integrity_table(data).hp(3) == 9
    with pytest.raises(DataError):
        load_integrity_table({**data, "hp_by_weight": [{"max_weight": 1, "hp": 4}]})
    with pytest.raises(DataError):
        load_integrity_table({**data, "dr": {"metal": 6}})


# --- 001 subduing -----------------------------------------------------------------------


def test_pulled_punches() -> None:
    assert pulled_punch(BROADSWORD, 12, 1).st == 1
    assert pulled_punch(None, 12, 12).st == 12
    crossbow = mk(
        WeaponKind.CROSSBOW, "Crossbow", 6, ("butt", "thr cr", "1"), parry=ParryClass.NONE
    )
    for weapon in (crossbow, PISTOL):
        with pytest.raises(IllegalAttackError):
            pulled_punch(weapon, 12, 5)
    for st in (0, 13):
        with pytest.raises(IllegalAttackError):
            pulled_punch(BROADSWORD, 12, st)


def test_flat_of_the_blade_and_blunt_end() -> None:
    flat = flat_of_blade(BROADSWORD.mode("swing"))
    assert flat.damage.type is DamageType.CRUSHING and flat.damage.adds == 1
    with pytest.raises(IllegalAttackError):
        flat_of_blade(BROADSWORD.mode("thrust"))
    butt = blunt_end(SPEAR.mode("thrust"))
    assert (butt.mode.damage.adds, butt.mode.damage.type, butt.needs_ready) == (
        1,
        DamageType.CRUSHING,
        False,
    )
    assert blunt_end(LONG_SPEAR.mode("thrust")).needs_ready
    assert blunt_end(HALBERD.mode("thrust")).needs_ready
    with pytest.raises(IllegalAttackError):
        blunt_end(BROADSWORD.mode("swing"))
