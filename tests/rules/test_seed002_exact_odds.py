"""Seed 002's own exact odds (``attack_steps.exact_odds``: the contest, then the
rest of ``decide`` once for each cell of the matrix, a major wound merged by what
the odds read of it) equal ``decide`` enumerated whole, every merged step by all
it reads (``attack_odds(..., odds_reads=False)``), Fraction for Fraction in every
field: each answer (dodge, a parry with each weapon, none), high and low skills,
hit locations, a defender near death, and the demo battle's pairings."""

from __future__ import annotations

import pytest

from rules.battle.attack_odds import attack_odds
from rules.battle.savefile import read_battle
from rules.core.errors import RulesError
from rules.sets.registry import get_ruleset
from rules.sets.seed002.attack import Attack002, Plan, Seed002Answer
from rules.sets.seed002.attack_steps import STEPS, exact_odds, steps_for
from tests.rules.seed002_duel import duel, fighter, sword
from tests.rules.test_demo_battles import demo_file


def _same(plan: Plan, answer: Seed002Answer) -> None:
    own = exact_odds(plan, answer)
    enumerated = attack_odds(STEPS, plan, answer, ruleset_odds=False, odds_reads=False)
    assert dict(own.kinds) == dict(enumerated.kinds)
    assert own.expected_injury == enumerated.expected_injury
    assert own.takes_out == enumerated.takes_out
    assert attack_odds(STEPS, plan, answer) == own


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
    state = read_battle(demo_file("002").read_bytes(), rulesets=get_ruleset).state
    checked = 0
    for a in state.combatants:
        for d in state.combatants:
            if a.side is d.side:
                continue
            for w in a.fighter.weapons:
                for mode in w.modes:
                    try:
                        plan = STEPS.plan(state, a.id, d.id, Attack002(w.key, mode.name))
                    except RulesError:
                        continue
                    for answer in STEPS.answers(plan):
                        _same(plan, answer)
                    checked += 1
    assert checked > 0
