"""rules.sets.seed000.disarm: 000 DISARMING AN OPPONENT and 001 Knocking a Weapon Away."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rules.battle.model import Fighter, ParryClass, Weapon, WeaponKind, WeaponSize
from rules.battle.pieces import PlacementKind
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier
from rules.sets.seed000.checks import Outcome, outcome_probabilities
from rules.sets.seed000.disarm import (
    ContestWinner,
    DisarmOutcome,
    DisarmResult,
    Hand,
    contest_outcome_distribution,
    contest_winner,
    disarm_outcome_distribution,
    disarm_win_probability,
    resolve_disarm,
)
from rules.sets.seed000.sheet import Attributes
from rules.sets.seed000.weapon_strikes import (
    WEAPON_STRIKES_000,
    WEAPON_STRIKES_001,
    WeaponStrikeRules,
    weight_bonus,
)
from tests.rules.sheets import amend, seed000_fighter
from tests.rules.weapon_builder import build_weapon

S000, S001 = WEAPON_STRIKES_000, WEAPON_STRIKES_001
CS, S, F, CF = Outcome.CRITICAL_SUCCESS, Outcome.SUCCESS, Outcome.FAILURE, Outcome.CRITICAL_FAILURE


def mk(
    kind: WeaponKind,
    name: str,
    weight: float,
    mode: tuple[str, str, str],
    skill: str,
    parry: ParryClass = ParryClass.TWO_THIRDS,
    **changes: object,
) -> Weapon:
    """A one-mode weapon, its skill and parry written positionally."""
    return build_weapon(kind, name, weight, mode, skill=skill, parry=parry, **changes)


BROADSWORD = mk(WeaponKind.SWORD, "Broadsword", 3, ("swing", "sw+1 cut", "1"), "Broadsword")
AXE = mk(WeaponKind.AXE, "Axe", 4, ("swing", "sw+2 cut", "1"), "Axe/Mace", ParryClass.HALF)
GREATSWORD = mk(
    WeaponKind.TWO_HEX_SWORD,
    "Greatsword",
    7,
    ("swing", "sw+3 cut", "1-2"),
    "Two-Handed Sword",
    two_handed=True,
    size=WeaponSize.LARGE,
)
PIKE = mk(WeaponKind.PIKE, "Pike", 13, ("thrust", "thr+3 imp", "2-3"), "Spear", two_handed=True)
RAPIER = mk(WeaponKind.RAPIER, "Rapier", 2.75, ("thrust", "thr+1 imp", "1"), "Fencing")
KNIFE = mk(WeaponKind.KNIFE, "Knife", 0.5, ("thrust", "thr-1 imp", "C"), "Knife")
WHIP = mk(WeaponKind.IMPROVISED, "Whip", 2, ("swing", "sw-2 cr", "1-2"), "Whip")
JITTE = mk(WeaponKind.CLUB, "Jitte", 1, ("swing", "sw cr", "1"), "Jitte/Sai")
BOW = mk(
    WeaponKind.BOW,
    "Bow",
    2,
    ("butt", "thr cr", "1"),
    "Bow",
    ParryClass.NONE,
    two_handed=True,
    size=WeaponSize.LARGE,
)
FIST = mk(WeaponKind.UNARMED, "Fist", 0, ("punch", "thr-2 cr", "C-1"), "Brawling", ParryClass.FULL)


def fighter(st: int = 10, dx: int = 10, **skills: int) -> Fighter:
    return seed000_fighter(
        name="F",
        attributes=Attributes(st=st, dx=dx),
        hit_points=10,
        move=5,
        skills={k.replace("_", " "): v for k, v in skills.items()},
        weapons=(),
    )


SKILLED = seed000_fighter(
    name="Skilled",
    attributes=Attributes(st=10, dx=12),
    hit_points=10,
    move=5,
    skills={
        "Broadsword": 14,
        "Axe/Mace": 13,
        "Two-Handed Sword": 12,
        "Spear": 12,
        "Fencing": 15,
        "Knife": 13,
        "Whip": 12,
        "Jitte/Sai": 12,
        "Bow": 14,
        "Brawling": 12,
    },
    weapons=(),
)


def values(mods: tuple[Modifier, ...]) -> list[int]:
    return [m.value for m in mods]


# --- modifiers against the seeds' lists -------------------------------------------------


def test_000_attacker_size_penalty_and_minus_two_unless_fencing() -> None:
    mods = S000.disarm_modifiers(SKILLED, BROADSWORD, SKILLED, BROADSWORD)
    assert mods.attack_roll == ()  # the contest replaces the attack
    assert values(mods.attacker_contest) == [-4, -2]
    assert mods.defender_contest == ()
    assert values(S000.disarm_modifiers(SKILLED, RAPIER, SKILLED, KNIFE).attacker_contest) == [-5]
    assert {str(m.citation) for m in mods.attacker_contest} == {
        "000 STRIKING AT WEAPONS",
        "000 DISARMING AN OPPONENT",
    }


@pytest.mark.parametrize(
    ("defender_weight", "attacker_weight", "bonus"),
    [
        (3, 3, 0),
        (2, 3, 0),
        (3.5, 3, 1),
        (5.9, 3, 1),
        (6, 3, 2),
        (8.9, 3, 2),
        (9, 3, 3),
        (13, 3, 4),
        (1, 0.5, 2),
    ],
)
def test_000_heavier_weapon_bonus_is_linear(
    defender_weight: float, attacker_weight: float, bonus: int
) -> None:
    assert weight_bonus(defender_weight, attacker_weight) == bonus


def test_000_defender_bonuses_heavier_stronger_two_handed() -> None:
    weak, strong = fighter(st=10), fighter(st=13)
    mods = S000.disarm_modifiers(weak, BROADSWORD, strong, AXE)
    assert values(mods.defender_contest) == [1, 1]  # heavier (4 vs 3), stronger
    mods = S000.disarm_modifiers(weak, BROADSWORD, weak, GREATSWORD)
    assert values(mods.defender_contest) == [2, 2]  # 7/3 -> +2, two-handed +2
    pike = S000.disarm_modifiers(weak, BROADSWORD, strong, PIKE)
    assert values(pike.defender_contest) == [4, 1, 2]
    assert S000.disarm_modifiers(strong, AXE, weak, BROADSWORD).defender_contest == ()


def test_000_missile_weapon_defender_rolls_dx() -> None:
    contest = S000.disarm_contest(SKILLED, BROADSWORD, SKILLED, BOW)
    assert (contest.defender.base, contest.defender.basis) == (12, "DX")
    contest = S000.disarm_contest(SKILLED, BROADSWORD, SKILLED, AXE)
    assert (contest.defender.base, contest.defender.basis) == (13, "Axe/Mace skill")
    assert contest.attacker.level == 14 - 4 - 2


def test_000_needs_a_weapon_with_weight() -> None:
    with pytest.raises(IllegalAttackError):
        S000.disarm_modifiers(SKILLED, FIST, SKILLED, BROADSWORD)
    with pytest.raises(IllegalAttackError):
        S000.disarm_modifiers(SKILLED, BROADSWORD, SKILLED, FIST)


def test_001_modifiers() -> None:
    mods = S001.disarm_modifiers(SKILLED, BROADSWORD, SKILLED, GREATSWORD)
    assert values(mods.attack_roll) == [-3, -2]
    assert mods.attacker_contest == ()
    assert values(mods.defender_contest) == [2]
    assert str(mods.defender_contest[0].citation) == "001 Knocking a Weapon Away"
    assert values(S001.disarm_modifiers(SKILLED, RAPIER, SKILLED, KNIFE).attack_roll) == [-5]
    for tool in (WHIP, JITTE):
        mods = S001.disarm_modifiers(SKILLED, tool, SKILLED, BROADSWORD)
        assert values(mods.attacker_contest) == [2]
    # no weight or ST bonus in 001
    assert S001.disarm_modifiers(fighter(st=8), KNIFE, fighter(st=18), AXE).defender_contest == ()
    # bare hands can parry, so they may disarm; a bow cannot
    assert S001.disarm_modifiers(SKILLED, FIST, SKILLED, BROADSWORD).attack_roll
    with pytest.raises(IllegalAttackError):
        S001.disarm_modifiers(SKILLED, BOW, SKILLED, BROADSWORD)


def test_001_either_side_may_use_a_st_based_level() -> None:
    brute = fighter(st=15, dx=10, Broadsword=12)
    deft = fighter(st=9, dx=14, Axe_Mace=13)
    deft = amend(deft, skills={"Axe/Mace": 13})
    contest = S001.disarm_contest(brute, BROADSWORD, deft, AXE)
    assert (contest.attacker.base, contest.attacker.basis) == (17, "ST-based Broadsword skill")
    assert (contest.defender.base, contest.defender.basis) == (13, "Axe/Mace skill")
    assert contest.attacker.level == 17
    vs_bow = S001.disarm_contest(deft, AXE, brute, BOW)
    assert (vs_bow.defender.base, vs_bow.defender.basis) == (15, "ST-based DX")
    in_000 = S000.disarm_contest(brute, BROADSWORD, deft, AXE)
    assert in_000.attacker.base == 12  # no ST option in 000


# --- the quick contest --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attacker", "defender", "winner", "by"),
    [
        ((S, 3), (S, 1), ContestWinner.ATTACKER, 2),
        ((S, 0), (F, -1), ContestWinner.ATTACKER, 1),
        ((F, -2), (F, -5), ContestWinner.ATTACKER, 3),
        ((S, 2), (S, 2), ContestWinner.TIE, 0),
        ((F, -1), (S, 0), ContestWinner.DEFENDER, 1),
        ((CS, -2), (F, -1), ContestWinner.ATTACKER, 1),  # a 4 at skill 2 still succeeds
        ((F, 4), (S, 0), ContestWinner.DEFENDER, 1),  # a 17 at skill 21 still fails
        ((F, 4), (F, 2), ContestWinner.TIE, 0),  # both automatic failures
    ],
)
def test_quick_contest_winner(
    attacker: tuple[Outcome, int], defender: tuple[Outcome, int], winner: ContestWinner, by: int
) -> None:
    assert contest_winner(attacker, defender) == (winner, by)


def brute_force(
    a_level: int, d_level: int, rules: WeaponStrikeRules
) -> dict[DisarmOutcome, Fraction]:
    """Independent enumeration of every face of both 3d6 (216 x 216 ways)."""
    from rules.sets.seed000.checks import judge

    counts: dict[DisarmOutcome, int] = {}
    faces = list(itertools.product(range(1, 7), repeat=3))
    totals = [sum(f) for f in faces]
    for a_total in totals:
        a_out = judge(a_total, a_level)
        a_eff = max(0, a_level - a_total) if a_out in (CS, S) else min(-1, a_level - a_total)
        for d_total in totals:
            d_out = judge(d_total, d_level)
            d_eff = max(0, d_level - d_total) if d_out in (CS, S) else min(-1, d_level - d_total)
            if a_out is CF:
                key = DisarmOutcome.ATTACKER_DISARMED
            elif a_eff > d_eff:
                key = DisarmOutcome.DEFENDER_DISARMED
            elif rules is S000:
                key = DisarmOutcome.NO_EFFECT
            elif d_eff - a_eff >= 3:
                key = DisarmOutcome.DEFENDER_KEEPS_READY
            else:
                key = DisarmOutcome.DEFENDER_KEEPS_UNREADY
            counts[key] = counts.get(key, 0) + 1
    return {k: Fraction(v, 216**2) for k, v in counts.items()}


@pytest.mark.parametrize("levels", [(8, 13), (12, 12), (16, 9), (4, 20)])
@pytest.mark.parametrize("rules", [S000, S001])
def test_exact_distribution_matches_brute_force(
    levels: tuple[int, int], rules: WeaponStrikeRules
) -> None:
    dist = contest_outcome_distribution(*levels, rules)
    assert dict(dist) == brute_force(*levels, rules)
    assert sum(dist.values()) == 1
    assert dist[DisarmOutcome.ATTACKER_DISARMED] == outcome_probabilities(levels[0])[CF]


def test_equal_levels_split_the_non_ties_evenly() -> None:
    """At 10 vs 10 the contest is symmetric: the attacker wins half of the untied
    contests, less the one case his critical failure overrides (his 17 beats an 18)."""
    from rules.core.dice import distribution

    dist = contest_outcome_distribution(10, 10, S000)
    p_tie = sum(p * p for p in distribution(3).values())  # equal totals
    override = Fraction(3, 216) * Fraction(1, 216)
    assert dist[DisarmOutcome.DEFENDER_DISARMED] == (1 - p_tie) / 2 - override
    assert dist[DisarmOutcome.ATTACKER_DISARMED] == Fraction(4, 216)


def test_win_probability_grows_with_skill() -> None:
    probs = [
        disarm_win_probability(
            amend(SKILLED, skills={"Broadsword": s}), BROADSWORD, SKILLED, AXE, rules=S000
        )
        for s in range(8, 22)
    ]
    assert probs == sorted(probs) and probs[0] < probs[-1]
    dist = disarm_outcome_distribution(SKILLED, BROADSWORD, SKILLED, AXE, rules=S001)
    assert (
        disarm_win_probability(SKILLED, BROADSWORD, SKILLED, AXE, rules=S001)
        == dist[DisarmOutcome.DEFENDER_DISARMED]
    )


# --- resolving ------------------------------------------------------------------------


def find(
    outcome: DisarmOutcome,
    rules: WeaponStrikeRules,
    *,
    defender_weapon: Weapon = AXE,
    knock_away: bool = False,
) -> DisarmResult:
    """The first seed whose disarm attempt (broadsword against ``defender_weapon``)
    ends in ``outcome``."""
    for seed in range(3000):
        result = resolve_disarm(
            SKILLED,
            BROADSWORD,
            SKILLED,
            defender_weapon,
            random.Random(seed),
            rules=rules,
            knock_away=knock_away,
        )
        if result.outcome is outcome:
            return result
    raise AssertionError(f"no seed gives {outcome}")


def consistent(result: DisarmResult) -> None:
    a, d = result.attacker_roll, result.defender_roll
    assert a.target == result.contest.attacker.level
    assert d.target == result.contest.defender.level
    assert (result.winner, result.won_by) == contest_winner(
        (a.outcome, a.margin), (d.outcome, d.margin)
    )


def test_000_outcomes() -> None:
    won = find(DisarmOutcome.DEFENDER_DISARMED, S000)
    consistent(won)
    assert won.disarmed is Hand.DEFENDER and won.dropped is not None
    assert won.dropped.weapon is AXE
    assert won.dropped.placement.kind is PlacementKind.DROPPED_IN_HEX
    assert won.dropped.landing is not None and won.dropped.landing.distance == 0
    nothing = find(DisarmOutcome.NO_EFFECT, S000)
    consistent(nothing)
    assert nothing.dropped is None and not nothing.defender_weapon_unready
    fumble = find(DisarmOutcome.ATTACKER_DISARMED, S000)
    consistent(fumble)
    assert fumble.attacker_roll.outcome is CF and fumble.disarmed is Hand.ATTACKER
    assert fumble.dropped is not None and fumble.dropped.weapon is BROADSWORD


def test_000_knock_away_option_scatters_by_size() -> None:
    small = find(DisarmOutcome.DEFENDER_DISARMED, S000, knock_away=True)
    assert small.dropped is not None
    assert small.dropped.placement.kind is PlacementKind.KNOCKED_AWAY
    large = find(DisarmOutcome.DEFENDER_DISARMED, S000, knock_away=True, defender_weapon=GREATSWORD)
    assert large.dropped is not None
    assert large.dropped.placement.kind is PlacementKind.ADJACENT_OR_FEET


def test_001_outcomes() -> None:
    won = find(DisarmOutcome.DEFENDER_DISARMED, S001)
    consistent(won)
    assert won.dropped is not None and won.dropped.placement.kind is PlacementKind.ONE_HEX_RANDOM
    landing = won.dropped.landing
    assert landing is not None and landing.distance == 1 and landing.direction_roll in range(1, 7)
    unready = find(DisarmOutcome.DEFENDER_KEEPS_UNREADY, S001)
    consistent(unready)
    assert unready.defender_weapon_unready and unready.winner is not ContestWinner.ATTACKER
    assert unready.won_by < 3 or unready.winner is ContestWinner.TIE
    tie = next(
        r
        for s in range(3000)
        if (
            r := resolve_disarm(SKILLED, BROADSWORD, SKILLED, AXE, random.Random(s), rules=S001)
        ).winner
        is ContestWinner.TIE
        and r.attacker_roll.outcome is not CF
    )
    assert tie.outcome is DisarmOutcome.DEFENDER_KEEPS_UNREADY
    ready = find(DisarmOutcome.DEFENDER_KEEPS_READY, S001)
    consistent(ready)
    assert ready.won_by >= 3 and not ready.defender_weapon_unready and ready.dropped is None
    fumble = find(DisarmOutcome.ATTACKER_DISARMED, S001)
    assert fumble.dropped is not None and fumble.dropped.weapon is BROADSWORD
    assert fumble.dropped.placement.kind is PlacementKind.ONE_HEX_RANDOM
    assert {str(c) for c in fumble.citations} == {
        "001 Knocking a Weapon Away",
        "Basic Set: quick contests",
    }
