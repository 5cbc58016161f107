"""Seed 004's own exact odds (``attack_steps.exact_odds``: the contest, then the
blow enumerated once for each way it lands) equal ``decide`` enumerated whole
(``attack_odds(..., ruleset_odds=False)``), Fraction for Fraction in every field:
over every weapon and mode, random and aimed zones, each answer, a defender
already wounded or near death, and the demo battle's pairings."""

from __future__ import annotations

import pytest

from rules.battle.attack_odds import attack_odds
from rules.battle.savefile import read_battle
from rules.core.errors import RulesError
from rules.sets.components.zones_2d6 import Zone
from rules.sets.registry import get_ruleset
from rules.sets.seed004.attack import ANSWERS, NO_DEFENSE, AttackPlan, Seed004Answer, Seed004Attack
from rules.sets.seed004.attack_steps import STEPS, exact_odds
from tests.rules.seed004_battle import WEAPONS, duel, fighter
from tests.rules.test_demo_battles import demo_file


def _same(plan: AttackPlan, answer: Seed004Answer) -> None:
    own = exact_odds(plan, answer)
    enumerated = attack_odds(STEPS, plan, answer, ruleset_odds=False)
    assert dict(own.kinds) == dict(enumerated.kinds)
    assert own.expected_injury == enumerated.expected_injury
    assert own.takes_out == enumerated.takes_out
    assert attack_odds(STEPS, plan, answer) == own


@pytest.mark.parametrize("bob_hp", [35, 3])
@pytest.mark.parametrize("zone", [None, Zone.HEAD, Zone.TORSO])
def test_every_weapon_and_answer(bob_hp: int, zone: Zone | None) -> None:
    state = duel(fighter("Ann", strength=8), bob_hp=bob_hp, bob_wounds=1).state
    checked = 0
    for weapon in WEAPONS:
        w = state.combatant("a").fighter.weapon(weapon)
        for mode in w.modes:
            try:
                plan = STEPS.plan(state, "a", "b", Seed004Attack(weapon, mode.name, zone))
            except RulesError:
                continue
            for answer in (*ANSWERS, NO_DEFENSE):
                _same(plan, answer)
            checked += 1
    assert checked >= 3  # the melee weapons within reach


def test_the_demo_battles_pairings() -> None:
    state = read_battle(demo_file("004").read_bytes(), rulesets=get_ruleset).state
    checked = 0
    for a in state.combatants:
        for d in state.combatants:
            if a.side is d.side:
                continue
            for w in a.fighter.weapons:
                for mode in w.modes:
                    try:
                        plan = STEPS.plan(state, a.id, d.id, Seed004Attack(w.key, mode.name))
                    except RulesError:
                        continue
                    for answer in STEPS.answers(plan):
                        _same(plan, answer)
                    checked += 1
    assert checked > 0
