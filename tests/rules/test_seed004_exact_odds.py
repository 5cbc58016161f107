"""Seed 004's own exact odds (``attack_steps.exact_odds``: the contest, then the
blow enumerated once for each way it lands) equal ``decide`` enumerated whole
(``attack_odds(..., ruleset_odds=False)``), Fraction for Fraction in every field:
over every weapon and mode, random and aimed zones, each answer, a defender
already wounded or near death, and the demo battle's pairings."""

from __future__ import annotations

import pytest

from rules.core.errors import RulesError
from rules.sets.components.zones_2d6 import Zone
from rules.sets.seed004.attack import ANSWERS, NO_DEFENSE, AttackPlan, Seed004Answer, Seed004Attack
from rules.sets.seed004.attack_steps import STEPS, exact_odds
from tests.rules.exact_odds_checks import assert_own_odds_enumerated, check_demo_pairings
from tests.rules.seed004_battle import WEAPONS, duel, fighter


def _same(plan: AttackPlan, answer: Seed004Answer) -> None:
    assert_own_odds_enumerated(STEPS, exact_odds, plan, answer)


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
    check_demo_pairings("004", STEPS, Seed004Attack, _same)
