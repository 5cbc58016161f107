"""rules.sets.seed000.damage: damage by ST, DR, wounding, injury and the injury states."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from hexmap import Facing, Hex
from rules.battle.model import Armor, Combatant, DamageBase, DamageSpec, DamageType, Status
from rules.core.dice import Dice
from rules.core.errors import DataError, RulesError
from rules.sets.seed000.damage import (
    StatusCheck,
    injury_from,
    injury_status,
    parse_damage_table,
    parse_wounding_table,
    penetrating_damage,
    roll_damage,
    turn_start_consciousness,
    weapon_damage,
)
from rules.sets.seed000.tables import Tables


def test_damage_by_st_sample_rows(ruleset: Tables) -> None:
    t = ruleset.damage_table
    # Published 3rd-edition rows.
    assert (t.thrust(10), t.swing(10)) == (Dice(1, -2), Dice(1))
    assert (t.thrust(13), t.swing(13)) == (Dice(1), Dice(2, -1))
    assert (t.thrust(20), t.swing(20)) == (Dice(2, -1), Dice(3, 2))
    assert (t.thrust(40), t.swing(40)) == (Dice(4, 1), Dice(7, -1))
    assert (t.thrust(100), t.swing(100)) == (Dice(11), Dice(13))


def test_damage_table_covers_st_1_to_40_and_never_decreases(ruleset: Tables) -> None:
    t = ruleset.damage_table

    def mean(d: Dice) -> Fraction:
        return Fraction(7, 2) * d.count + d.adds

    for st in range(1, 200):
        assert mean(t.swing(st)) >= mean(t.thrust(st))
        if st > 1:
            assert mean(t.thrust(st)) >= mean(t.thrust(st - 1))
            assert mean(t.swing(st)) >= mean(t.swing(st - 1))


def test_between_and_beyond_listed_rows(ruleset: Tables) -> None:
    t = ruleset.damage_table
    assert t.thrust(44) == t.thrust(40)  # the lower listed row applies
    assert t.swing(110) == Dice(14) and t.thrust(110) == Dice(12)  # +1d per 10 ST past 100
    with pytest.raises(RulesError):
        t.thrust(0)


def test_weapon_damage_adds_to_thrust_or_swing(ruleset: Tables) -> None:
    sw_plus_1 = DamageSpec(DamageBase.SWING, 1, DamageType.CUTTING)
    thr_minus_2 = DamageSpec(DamageBase.THRUST, -2, DamageType.CRUSHING)
    assert weapon_damage(sw_plus_1, 12, ruleset.damage_table) == ruleset.damage_table.swing(
        12
    ).plus(1)
    assert ruleset.weapon_damage(thr_minus_2, 10) == Dice(1, -4)
    fixed = DamageSpec(DamageBase.FIXED, 1, DamageType.CRUSHING, fixed=Dice(2))
    assert ruleset.weapon_damage(fixed, 3) == Dice(2, 1)
    with pytest.raises(RulesError):
        ruleset.weapon_damage(DamageSpec(DamageBase.FIXED, 0, DamageType.CRUSHING), 10)


def test_penetration_and_wounding(ruleset: Tables) -> None:
    assert penetrating_damage(7, 4) == 3
    assert penetrating_damage(3, 4) == 0
    with pytest.raises(RulesError):
        penetrating_damage(3, -1)
    cut = ruleset.wounding_multiplier(DamageType.CUTTING)
    imp = ruleset.wounding_multiplier(DamageType.IMPALING)
    cr = ruleset.wounding_multiplier(DamageType.CRUSHING)
    assert (cut, imp, cr) == (Fraction(3, 2), 2, 1)
    assert injury_from(5, cut) == 7  # 7.5 rounds down
    assert injury_from(1, cut) == 1
    assert injury_from(3, imp) == 6
    assert injury_from(0, imp) == 0
    # pi- (x1/2, the 4th-edition option): 1 penetrating still wounds for 1.
    small = ruleset.wounding_multiplier(DamageType.SMALL_PIERCING)
    assert small == Fraction(1, 2)
    assert injury_from(1, small) == 1 and injury_from(5, small) == 2


# --- injury states, with exact dice -------------------------------------------------

HT_PASS = (3, 3, 3)  # 9: passes HT 10
HT_FAIL = (6, 6, 4)  # 16: fails HT 10


def test_no_rolls_above_zero_hp(scripted: Any) -> None:
    status, rolls, outright = injury_status(10, 1, 10, 10, Status.ACTIVE, scripted([]))
    assert (status, rolls, outright) == (Status.ACTIVE, (), False)


def test_zero_hp_rolls_to_stay_conscious(scripted: Any) -> None:
    status, rolls, _ = injury_status(5, 0, 10, 10, Status.ACTIVE, scripted(HT_FAIL))
    assert status is Status.UNCONSCIOUS
    assert [r.check for r in rolls] == [StatusCheck.CONSCIOUSNESS]
    status, rolls, _ = injury_status(5, -3, 10, 10, Status.ACTIVE, scripted(HT_PASS))
    assert status is Status.ACTIVE and len(rolls) == 1


def test_minus_hp_rolls_to_live_then_to_stay_conscious(scripted: Any) -> None:
    dice = scripted(HT_PASS + HT_PASS)
    status, rolls, _ = injury_status(2, -10, 10, 10, Status.ACTIVE, dice)
    assert [(r.check, r.threshold) for r in rolls] == [
        (StatusCheck.DEATH, -10),
        (StatusCheck.CONSCIOUSNESS, 0),
    ]
    assert status is Status.ACTIVE and dice.unused == 0
    status, rolls, _ = injury_status(2, -10, 10, 10, Status.ACTIVE, scripted(HT_FAIL))
    assert status is Status.DEAD and len(rolls) == 1


def test_one_blow_past_several_multiples_rolls_for_each(scripted: Any) -> None:
    dice = scripted(HT_PASS * 4)
    status, rolls, _ = injury_status(-5, -31, 10, 10, Status.UNCONSCIOUS, dice)
    # crosses -10, -20, -30; already unconscious: no consciousness roll
    assert [r.threshold for r in rolls] == [-10, -20, -30]
    assert status is Status.UNCONSCIOUS and dice.unused == 3


def test_five_times_minus_hp_is_dead_outright(scripted: Any) -> None:
    status, rolls, outright = injury_status(10, -50, 10, 10, Status.ACTIVE, scripted([]))
    assert (status, rolls, outright) == (Status.DEAD, (), True)
    status, _, outright = injury_status(10, -49, 10, 10, Status.ACTIVE, scripted(HT_PASS * 5))
    assert status is not Status.DEAD and not outright


def test_already_dead_rolls_nothing(scripted: Any) -> None:
    assert injury_status(-20, -30, 10, 10, Status.DEAD, scripted([]))[:2] == (Status.DEAD, ())


def test_turn_start_consciousness(make: Callable[..., Combatant], scripted: Any) -> None:
    c = make("spearman", Hex(0, 0), Facing.N)
    same, r = turn_start_consciousness(c, scripted([]))
    assert same is c and r is None
    low = replace(c, hp=0)
    out, r = turn_start_consciousness(low, scripted((6, 6, 6)))
    assert r is not None and out.status is Status.UNCONSCIOUS


@pytest.mark.parametrize("seed", range(60))
def test_roll_damage_record_is_consistent(
    seed: int, make: Callable[..., Combatant], ruleset: Tables
) -> None:
    target = make("sword-and-shield", Hex(0, 0), Facing.N, armor=Armor("t", "Test", 2, 3))
    target = replace(target, hp=4)
    dice = Dice(3, 1)
    r = roll_damage(dice, DamageType.CUTTING, target, random.Random(seed), ruleset.wounding)
    assert r.basic == max(0, sum(r.roll.faces) + 1)
    assert r.dr == 3
    assert r.penetrating == max(0, r.basic - 3)
    assert r.injury == (0 if r.penetrating == 0 else max(1, r.penetrating * 3 // 2))
    assert r.hp_after == r.hp_before - r.injury == 4 - r.injury
    deaths = [s for s in r.status_rolls if s.check is StatusCheck.DEATH]
    crossed = [t for t in (-12, -24, -36, -48) if 4 > t >= r.hp_after]
    assert [s.threshold for s in deaths] == crossed[: len(deaths)]
    if r.status_after is Status.DEAD:
        assert r.killed_outright or not deaths[-1].roll.succeeded
    applied = r.apply_to(target)
    assert (applied.hp, applied.status) == (r.hp_after, r.status_after)


@pytest.mark.parametrize(
    "data",
    [
        [],
        {"rows": [], "beyond_last_row": {"per_st": 10, "add_dice": 1}},
        {"rows": [{"st": 1, "thrust": "1d", "swing": "1d"}]},
        {
            "rows": [{"st": 5, "thrust": "1d", "swing": "zz"}],
            "beyond_last_row": {"per_st": 10, "add_dice": 1},
        },
        {
            "rows": [
                {"st": 5, "thrust": "1d", "swing": "1d"},
                {"st": 5, "thrust": "1d", "swing": "1d"},
            ],
            "beyond_last_row": {"per_st": 10, "add_dice": 1},
        },
        {
            "rows": [{"st": 1, "thrust": "1d", "swing": "1d"}],
            "beyond_last_row": {"per_st": 0, "add_dice": 1},
        },
        {
            "rows": [{"st": "1", "thrust": "1d", "swing": "1d"}],
            "beyond_last_row": {"per_st": 10, "add_dice": 1},
        },
    ],
)
def test_malformed_damage_tables(data: object) -> None:
    with pytest.raises(DataError):
        parse_damage_table(data)


@pytest.mark.parametrize(
    "data",
    [
        {"multipliers": {"cut": "x"}},
        {"multipliers": {"slash": "1"}},
        {"multipliers": {"cut": "-1"}},
        {"multipliers": {"cut": True}},
        {"multipliers": {"cut": "3/2"}, "minimum_injury_if_penetrating": -1},
        {"multiplers": {}},
    ],
)
def test_malformed_wounding_tables(data: object) -> None:
    with pytest.raises(DataError):
        parse_wounding_table(data)


def test_wounding_table_without_a_type_refuses_it() -> None:
    table = parse_wounding_table({"multipliers": {"cut": "3/2"}})
    with pytest.raises(RulesError):
        table.multiplier(DamageType.CRUSHING)
