"""Seed 002's own exact odds (``attack_steps.exact_odds``: the contest, then the
rest of ``decide`` once for each cell of the matrix, a major wound merged by what
the odds read of it) equal ``decide`` enumerated whole, every merged step by all
it reads (``attack_odds(..., odds_reads=False)``), Fraction for Fraction in every
field: each answer (dodge, a parry with each weapon, none), high and low skills,
hit locations, a defender near death, and the demo battle's pairings."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from rules.sets.seed002.attack import Attack002, Plan, Seed002Answer
from rules.sets.seed002.attack_steps import STEPS, exact_odds, steps_for
from tests.rules.exact_odds_checks import assert_own_odds_enumerated, check_demo_pairings
from tests.rules.seed002_duel import duel, fighter, sword


def _same(plan: Plan, answer: Seed002Answer) -> None:
    assert_own_odds_enumerated(STEPS, exact_odds, plan, answer, odds_reads=False)


@pytest.mark.parametrize("hp", [20, 3])
@pytest.mark.parametrize("skills", [{}, {"Close Combat": 120, "Dodge": 95}, {"Close Combat": 7}])
def test_every_answer(hp: int, skills: dict[str, int]) -> None:
    state = duel(
        fighter("Attacker", skills=skills),
        fighter("Defender", ("longsword", "dagger"), hp=hp, skills=skills),
    )
    for located in (False, True):
        for choices in (sword(), sword(helpless=True), Attack002("longsword", "thrust")):
            try:
                plan = steps_for(located).plan(state, "a", "d", choices)
            except RulesError:
                continue
            assert plan.locations is located
            for answer in STEPS.answers(plan):
                _same(plan, answer)


def test_the_demo_battles_pairings() -> None:
    check_demo_pairings("002", STEPS, Attack002, _same)
