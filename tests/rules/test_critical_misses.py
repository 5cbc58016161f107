"""rules.sets.seed000.critical_misses: verifying and avoiding critical misses, the critical
miss table, and fumbled defenses."""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from fractions import Fraction

import pytest

from hexmap import Facing
from rules.battle.model import (
    DamageType,
    ParryClass,
    Quality,
    Shield,
    ShieldSize,
    Weapon,
    WeaponKind,
)
from rules.battle.pieces import DirectionRule, PlacementKind
from rules.core.assets import read_json
from rules.core.errors import DataError, IllegalAttackError
from rules.sets.seed000.breakage import ParryBreakRule
from rules.sets.seed000.conditions import Posture
from rules.sets.seed000.critical_misses import (
    BlockMishap,
    CriticalMissCheck,
    CriticalMissResult,
    DodgeMishap,
    DodgeMishapChoice,
    Fell,
    HitSelf,
    LostBalance,
    MissAction,
    MissContext,
    ParryMishap,
    Strained,
    WeaponBroken,
    WeaponDropped,
    WeaponFlew,
    WeaponUnready,
    confirm_critical_miss,
    critical_miss_distribution,
    critical_miss_happens_probability,
    defense_critical_miss,
    dodge_mishap,
    dodge_mishap_distribution,
    load_critical_miss_table,
    parry_mishap,
    roll_critical_miss,
)
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.tables import Tables
from tests.rules.weapon_builder import build_weapon

F = Fraction
TABLES = Tables()  # the ruleset's tables, read once
FACES = list(itertools.product(range(1, 7), repeat=3))


def ways(predicate: Callable[[int], bool]) -> Fraction:
    """Chance over the 216 ways 3d6 fall, counted independently of the code."""
    return Fraction(sum(1 for f in FACES if predicate(sum(f))), 216)


def succeeds(total: int, target: int) -> bool:
    """The family's roll-under success, written out: 3-4 always, 17-18 never."""
    return total <= 4 or (total <= 16 and total <= target)


def mk(
    kind: WeaponKind,
    name: str,
    mode: tuple[str, str, str],
    parry: ParryClass = ParryClass.TWO_THIRDS,
    **changes: object,
) -> Weapon:
    """A one-mode weapon of 3 lb. on the Broadsword skill."""
    return build_weapon(kind, name, 3, mode, parry=parry, **changes)


SWORD = mk(WeaponKind.SWORD, "Broadsword", ("swing", "sw+1 cut", "1"))
FINE_SWORD = mk(WeaponKind.SWORD, "Fine sword", ("swing", "sw+1 cut", "1"), quality=Quality.FINE)
CHEAP_SWORD = mk(WeaponKind.SWORD, "Cheap sword", ("swing", "sw+1 cut", "1"), quality=Quality.CHEAP)
MACE = mk(WeaponKind.MACE, "Mace", ("swing", "sw+2 cr", "1"))
SPEAR = mk(WeaponKind.SPEAR, "Spear", ("thrust", "thr+2 imp", "1"))
BOW = mk(WeaponKind.BOW, "Bow", ("butt", "thr cr", "1"), parry=ParryClass.NONE)
FIST = mk(WeaponKind.UNARMED, "Fist", ("punch", "thr-2 cr", "C-1"))

SWING = MissContext(MissAction.SWING, DamageType.CUTTING)
THRUST_IMP = MissContext(MissAction.THRUST, DamageType.IMPALING)
MISSILE = MissContext(MissAction.MISSILE, DamageType.IMPALING)
PARRY = MissContext(MissAction.PARRY)

# chance of each 3d6 total, counted by hand
P = {t: Fraction(sum(1 for f in FACES if sum(f) == t), 216) for t in range(3, 19)}


def p_of(*totals: int) -> Fraction:
    return sum((P[t] for t in totals), Fraction(0))


# --- verifying and avoiding -------------------------------------------------------------


def test_an_ordinary_weapon_at_ordinary_skill_always_fumbles() -> None:
    check = confirm_critical_miss(12, random.Random(0))
    assert check.happens and check.verification is None and check.avoidance is None
    assert critical_miss_happens_probability(12) == 1


@pytest.mark.parametrize("skill", [6, 10, 12, 14])
def test_reliable_weapons_reroll_against_basic_skill(skill: int) -> None:
    exact = critical_miss_happens_probability(skill, reliable=True)
    assert exact == 1 - ways(lambda t: succeeds(t, skill))
    outcomes = set()
    for seed in range(60):
        check = confirm_critical_miss(skill, random.Random(seed), reliable=True)
        assert check.verification is not None and check.verification.target == skill
        assert check.happens is (not check.verification.succeeded)
        assert [str(c) for c in check.citations] == ["000 VERIFYING CRITICAL MISSES"]
        outcomes.add(check.happens)
    assert outcomes == {True, False}


@pytest.mark.parametrize(("skill", "target"), [(16, 3), (18, 5), (20, 7), (25, 12)])
def test_high_skill_rolls_against_skill_minus_13(skill: int, target: int) -> None:
    assert critical_miss_happens_probability(skill) == 1 - ways(lambda t: succeeds(t, target))
    check: CriticalMissCheck | None = None
    found = {True: False, False: False}
    for seed in range(3000):
        check = confirm_critical_miss(skill, random.Random(seed))
        assert check.avoidance is not None and check.avoidance.target == target
        assert check.happens is (not check.avoidance.succeeded)
        found[check.happens] = True
        if all(found.values()):
            break
    assert all(found.values())
    assert critical_miss_happens_probability(15) == 1  # "over 15" only


def test_skill_16_avoids_only_on_3_or_4() -> None:
    assert critical_miss_happens_probability(16) == 1 - F(4, 216)


def test_reliable_and_high_skill_both_apply_in_turn() -> None:
    exact = critical_miss_happens_probability(17, reliable=True)
    assert exact == (1 - ways(lambda t: succeeds(t, 17))) * (1 - ways(lambda t: succeeds(t, 4)))
    for seed in range(500):
        check = confirm_critical_miss(17, random.Random(seed), reliable=True)
        assert check.verification is not None
        if check.verification.succeeded:
            assert check.avoidance is None and not check.happens
        else:
            assert check.avoidance is not None
            assert check.happens is (not check.avoidance.succeeded)


# --- the table: exact distributions ----------------------------------------------------


def test_every_total_has_one_row() -> None:
    table = TABLES.critical_misses
    assert sorted(t for row in table.rows for t in row.rolls) == list(range(3, 19))
    assert str(table.citation) == "Basic Set: critical miss table"


def test_plain_distribution_for_a_good_sword_swing() -> None:
    assert dict(critical_miss_distribution(SWORD, SWING, table=TABLES.critical_misses)) == {
        "weapon_breaks": p_of(3, 4, 17, 18),
        "hit_self": p_of(5),
        "hit_self_half": p_of(6),
        "lose_balance": p_of(7, 13),
        "weapon_turns": p_of(8, 12),
        "drop_weapon": p_of(9, 10, 11),
        "weapon_flies": p_of(14),
        "strain": p_of(15),
        "fall": p_of(16),
    }
    assert p_of(3, 4, 17, 18) == F(8, 216)


@pytest.mark.parametrize("weapon", [FINE_SWORD, MACE])
def test_sturdy_or_fine_weapons_only_break_on_a_second_breaking_roll(weapon: Weapon) -> None:
    dist = critical_miss_distribution(weapon, SWING, table=TABLES.critical_misses)
    breaks = p_of(3, 4, 17, 18)
    assert dist["weapon_breaks"] == breaks * breaks
    assert dist["drop_weapon_unconfirmed_break"] == breaks * (1 - breaks)
    assert sum(dist.values()) == 1


def test_cheap_weapons_break_instead_of_dropping() -> None:
    dist = critical_miss_distribution(CHEAP_SWORD, SWING, table=TABLES.critical_misses)
    assert dist["cheap_weapon_breaks"] == p_of(9, 10, 11) and "drop_weapon" not in dist


def test_impaling_attacks_reroll_a_five() -> None:
    dist = critical_miss_distribution(SPEAR, THRUST_IMP, table=TABLES.critical_misses)
    five = p_of(5)
    assert dist["hit_self"] == five * five  # hit yourself again: it stands
    assert dist["hit_self_half"] == p_of(6) + five * p_of(6)
    assert dist["drop_weapon_not_swinging"] == p_of(14) + five * p_of(14)
    assert dist["lose_balance"] == p_of(7, 13) * (1 + five)
    assert dist["fall"] == p_of(16) * (1 + five)
    assert "weapon_flies" not in dist
    assert sum(dist.values()) == 1


def test_missile_weapons() -> None:
    dist = critical_miss_distribution(BOW, MISSILE, table=TABLES.critical_misses)
    five = p_of(5)
    assert dist["lose_balance_missile"] == p_of(16) * (1 + five)
    assert "fall" not in dist and "weapon_flies" not in dist
    assert dist["hit_self"] == five * five


def test_parry_context() -> None:
    dist = critical_miss_distribution(SWORD, PARRY, table=TABLES.critical_misses)
    assert dist["hit_self"] == p_of(5)  # a parry is no impaling attack: no re-roll
    assert dist["drop_weapon_not_swinging"] == p_of(14)
    assert dist["fall"] == p_of(16)
    assert sum(dist.values()) == 1


# --- the table: rolled consequences --------------------------------------------------------


def find_key(weapon: Weapon, context: MissContext, key: str) -> CriticalMissResult:
    for seed in range(20000):
        result = roll_critical_miss(weapon, context, random.Random(seed), tables=TABLES)
        if result.key == key:
            return result
    raise AssertionError(f"no seed gives {key}")


@pytest.mark.parametrize(
    ("weapon", "context"),
    [
        (SWORD, SWING),
        (FINE_SWORD, SWING),
        (CHEAP_SWORD, SWING),
        (SPEAR, THRUST_IMP),
        (BOW, MISSILE),
        (SWORD, PARRY),
        (MACE, PARRY),
    ],
)
def test_every_result_is_reachable(weapon: Weapon, context: MissContext) -> None:
    for key in critical_miss_distribution(weapon, context, table=TABLES.critical_misses):
        result = find_key(weapon, context, key)
        assert result.weapon is weapon and result.totals[0] in range(3, 19)


def test_consequence_records() -> None:
    broke = find_key(SWORD, SWING, "weapon_breaks")
    assert isinstance(broke.consequence, WeaponBroken)
    assert broke.consequence.result.outcome in ("useless", "broken_blade")
    assert broke.totals[0] in (3, 4, 17, 18) and len(broke.rolls) == 1

    dropped = find_key(SWORD, SWING, "drop_weapon")
    assert isinstance(dropped.consequence, WeaponDropped)
    assert dropped.consequence.piece.placement.kind is PlacementKind.AT_FEET
    assert dropped.consequence.piece.weapon is SWORD

    flew = find_key(SWORD, SWING, "weapon_flies")
    assert isinstance(flew.consequence, WeaponFlew)
    piece = flew.consequence.piece
    assert piece.placement.direction is DirectionRule.FORWARD_OR_BACK
    assert piece.stray_hit_factor == F(1, 2) and piece.landing is not None
    assert 1 <= piece.landing.distance <= 6
    assert piece.landing.facing(Facing.N) in (Facing.N, Facing.S)

    turned = find_key(SWORD, SWING, "weapon_turns")
    assert turned.consequence == WeaponUnready(1)
    balance = find_key(SWORD, SWING, "lose_balance")
    assert balance.consequence == LostBalance(-2)
    assert find_key(SWORD, SWING, "strain").consequence == Strained(30)
    assert find_key(SWORD, SWING, "fall").consequence == Fell(Posture.PRONE)
    assert find_key(BOW, MISSILE, "lose_balance_missile").consequence == LostBalance(-2)

    half = find_key(SWORD, SWING, "hit_self_half")
    assert isinstance(half.consequence, HitSelf) and half.consequence.damage_factor == F(1, 2)
    locations = set()
    for seed in range(5000):
        result = roll_critical_miss(SWORD, SWING, random.Random(seed), tables=TABLES)
        if isinstance(result.consequence, HitSelf):
            die = result.consequence.location_die
            assert result.consequence.location == ("arm" if die <= 3 else "leg")
            locations.add(result.consequence.location)
    assert locations == {"arm", "leg"}


def test_rerolls_are_recorded() -> None:
    unconfirmed = find_key(FINE_SWORD, SWING, "drop_weapon_unconfirmed_break")
    assert len(unconfirmed.rolls) == 2 and unconfirmed.totals[1] not in (3, 4, 17, 18)
    assert isinstance(unconfirmed.consequence, WeaponDropped)
    confirmed = find_key(FINE_SWORD, SWING, "weapon_breaks")
    assert len(confirmed.rolls) == 2 and confirmed.totals[1] in (3, 4, 17, 18)
    twice = find_key(SPEAR, THRUST_IMP, "hit_self")
    assert twice.totals == (5, 5)
    cheap = find_key(CHEAP_SWORD, SWING, "cheap_weapon_breaks")
    assert isinstance(cheap.consequence, WeaponBroken)


def test_bare_hands_use_another_table() -> None:
    with pytest.raises(IllegalAttackError):
        roll_critical_miss(FIST, SWING, random.Random(0), tables=TABLES)


def table_data() -> dict[str, object]:
    data = read_json("rulesets", "000", "critical_miss_table.json")
    assert isinstance(data, dict)
    return copy.deepcopy(data)


@pytest.mark.parametrize("breakage", ["missing", "duplicate", "no_effect", "condition", "range"])
def test_loader_rejects_malformed_tables(breakage: str) -> None:
    data = table_data()
    results = data["results"]
    assert isinstance(results, list)
    if breakage == "missing":
        results.pop()
    elif breakage == "duplicate":
        results[1]["rolls"] = [5, 6]
    elif breakage == "no_effect":
        del results[5]["exceptions"][0]["effect"]
    elif breakage == "condition":
        results[5]["exceptions"][0]["if"] = "rainy"
    else:
        results[2]["rolls"] = [6, 19]
    with pytest.raises(DataError):
        load_critical_miss_table(data)
    assert load_critical_miss_table(table_data()).rows


# --- fumbled defenses --------------------------------------------------------------------


def test_dodge_mishap_fall_prone_or_off_balance_by_default() -> None:
    seen = set()
    for seed in range(100):
        mishap = dodge_mishap(11, random.Random(seed))
        if mishap.dx_roll.succeeded:
            assert (mishap.posture, mishap.off_balance) == (Posture.STANDING, True)
        else:
            assert (mishap.posture, mishap.off_balance) == (Posture.PRONE, False)
        seen.add(mishap.posture)
        sitting = dodge_mishap(11, random.Random(seed), choice=DodgeMishapChoice.SITTING)
        assert sitting.posture is (Posture.SITTING if mishap.dx_roll.succeeded else Posture.PRONE)
        assert not sitting.off_balance
    assert seen == {Posture.STANDING, Posture.PRONE}
    assert dict(dodge_mishap_distribution(11)) == {
        "prone": 1 - ways(lambda t: succeeds(t, 11)),
        "off-balance": ways(lambda t: succeeds(t, 11)),
    }
    sitting_dist = dodge_mishap_distribution(11, choice=DodgeMishapChoice.SITTING)
    assert set(sitting_dist) == {"prone", "sitting"}


def shield(size: ShieldSize) -> Shield:
    return Shield(key=size.value, name=size.value, size=size, pd=2, weight=8)


def test_block_mishap_drops_small_shields_else_loses_grip() -> None:
    for size in (ShieldSize.BUCKLER, ShieldSize.SMALL):
        mishap = defense_critical_miss(
            DefenseKind.BLOCK, random.Random(0), shield=shield(size), tables=TABLES
        )
        assert isinstance(mishap, BlockMishap)
        assert mishap.dropped is not None and not mishap.pd_still_counts
        assert mishap.dropped.placement.kind is PlacementKind.AT_FEET
    for size in (ShieldSize.MEDIUM, ShieldSize.LARGE):
        mishap = defense_critical_miss(
            DefenseKind.BLOCK, random.Random(0), shield=shield(size), tables=TABLES
        )
        assert isinstance(mishap, BlockMishap)
        assert mishap.dropped is None and mishap.shield_unready and mishap.pd_still_counts


def test_parry_mishap_goes_to_the_table() -> None:
    mishap = defense_critical_miss(DefenseKind.PARRY, random.Random(3), weapon=SWORD, tables=TABLES)
    assert isinstance(mishap, ParryMishap) and mishap.heavy_weapon_break is None
    assert mishap.critical_miss is not None
    assert mishap.critical_miss.context.action is MissAction.PARRY
    light = parry_mishap(SWORD, random.Random(3), attacking_weight=8, tables=TABLES)
    assert light.critical_miss is not None  # under 3x: the table


def test_parrying_a_weapon_three_times_heavier_breaks_even_a_very_fine_one() -> None:
    very_fine = mk(
        WeaponKind.SWORD, "Very fine", ("swing", "sw cut", "1"), quality=Quality.VERY_FINE
    )
    mishap = defense_critical_miss(
        DefenseKind.PARRY, random.Random(0), weapon=very_fine, attacking_weight=9, tables=TABLES
    )
    assert isinstance(mishap, ParryMishap)
    assert mishap.critical_miss is None and mishap.heavy_weapon_break is not None
    flat = parry_mishap(
        very_fine,
        random.Random(0),
        attacking_weight=9,
        rule=ParryBreakRule.FLAT_THIRD,
        tables=TABLES,
    )
    assert flat.critical_miss is not None and flat.heavy_weapon_break is None


def test_defense_mishap_needs_its_inputs() -> None:
    mishap = defense_critical_miss(DefenseKind.DODGE, random.Random(0), dx=12, tables=TABLES)
    assert isinstance(mishap, DodgeMishap)
    for kind in DefenseKind:
        with pytest.raises(IllegalAttackError):
            defense_critical_miss(kind, random.Random(0), tables=TABLES)
