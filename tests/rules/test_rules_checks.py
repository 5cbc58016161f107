"""rules.sets.seed000.checks: the 3d6 success roll, its criticals and exact odds."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from rules.sets.seed000.checks import (
    Outcome,
    RollKind,
    judge,
    outcome_probabilities,
    success_probability,
    success_roll,
)

CS, S, F, CF = (
    Outcome.CRITICAL_SUCCESS,
    Outcome.SUCCESS,
    Outcome.FAILURE,
    Outcome.CRITICAL_FAILURE,
)
DEFENSE = RollKind.DEFENSE


def ways(predicate: object) -> Fraction:
    """Probability over the 216 3d6 results, counted independently of the code."""
    assert callable(predicate)
    hits = sum(1 for f in itertools.product(range(1, 7), repeat=3) if predicate(sum(f)))
    return Fraction(hits, 216)


def test_skill_10_succeeds_exactly_half_the_time() -> None:
    assert success_probability(10) == Fraction(1, 2)


@pytest.mark.parametrize("skill", range(4, 17))
def test_success_probability_is_roll_under_in_the_plain_range(skill: int) -> None:
    assert success_probability(skill) == ways(lambda t: t <= skill)


def test_3_and_4_always_succeed_17_and_18_always_fail() -> None:
    for skill in (-10, 0, 2):
        assert judge(3, skill) is CS and judge(4, skill) is CS
        assert success_probability(skill) == ways(lambda t: t <= 4)
    for skill in (17, 20, 30):
        assert judge(17, skill) is F and judge(18, skill) is CF
        assert success_probability(skill) == ways(lambda t: t <= 16)


def test_critical_success_thresholds_15_and_16() -> None:
    assert judge(5, 14) is S and judge(5, 15) is CS
    assert judge(6, 15) is S and judge(6, 16) is CS
    assert outcome_probabilities(14)[CS] == ways(lambda t: t <= 4)
    assert outcome_probabilities(15)[CS] == ways(lambda t: t <= 5)
    assert outcome_probabilities(16)[CS] == ways(lambda t: t <= 6)


def test_critical_failure_thresholds() -> None:
    assert judge(17, 15) is CF and judge(17, 16) is F
    assert judge(18, 16) is CF
    # failing by 10 or more
    assert judge(15, 5) is CF and judge(14, 5) is F
    assert outcome_probabilities(16)[CF] == ways(lambda t: t == 18)
    assert outcome_probabilities(15)[CF] == ways(lambda t: t >= 17)
    assert outcome_probabilities(6)[CF] == ways(lambda t: t >= 16)


def test_defense_rolls_use_seed_000_criticals() -> None:
    # 000 CRITICAL HITS ON DEFENSE ROLLS: only 3 or 4; 000 CRITICAL MISSES: 17 and 18.
    assert judge(5, 16, DEFENSE) is S and judge(6, 16, DEFENSE) is S
    assert judge(4, 16, DEFENSE) is CS
    assert judge(17, 16, DEFENSE) is CF
    p = outcome_probabilities(16, DEFENSE)
    assert p[CS] == ways(lambda t: t <= 4)
    assert p[CF] == ways(lambda t: t >= 17)


@pytest.mark.parametrize("score", range(-4, 8))
def test_a_defense_that_fails_by_10_or_more_is_no_disaster(score: int) -> None:
    # 000 CRITICAL MISSES ON DEFENSE ROLLS alone: 17 and 18 are the only disasters,
    # however low the score (the base "fail by 10" is for the other rolls only).
    assert judge(score + 10, score, DEFENSE) is (CF if score + 10 >= 17 else F)
    p = outcome_probabilities(score, DEFENSE)
    assert p[CF] == ways(lambda t: t >= 17)
    assert p[F] == ways(lambda t: max(score, 4) < t < 17)


@pytest.mark.parametrize("kind", list(RollKind))
@pytest.mark.parametrize("skill", [-3, 3, 9, 12, 15, 16, 19])
def test_outcome_probabilities_sum_to_one_and_match_judge(kind: RollKind, skill: int) -> None:
    probs = outcome_probabilities(skill, kind)
    assert sum(probs.values()) == 1
    for outcome in Outcome:
        assert probs[outcome] == ways(lambda t, o=outcome: judge(t, skill, kind) is o)


@pytest.mark.parametrize("seed", range(40))
def test_success_roll_record_is_consistent(seed: int) -> None:
    r = success_roll(11, random.Random(seed))
    assert r.total == sum(r.dice) and len(r.dice) == 3
    assert r.margin == 11 - r.total
    assert r.outcome is judge(r.total, 11)
    assert r.succeeded is r.outcome.is_success
