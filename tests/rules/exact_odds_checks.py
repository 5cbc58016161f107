"""Checks shared by the seeds' exact-odds tests: a ruleset's own ``exact_odds``
against ``decide`` enumerated whole, and the demo battle's pairings run through it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.battle.attack_odds import AttackOdds, attack_odds
from rules.battle.savefile import read_battle
from rules.core.errors import RulesError
from rules.sets.registry import get_ruleset
from tests.rules.test_demo_battles import demo_file


def assert_own_odds_enumerated(
    steps: Any,
    own_odds: Callable[[Any, Any], AttackOdds],
    plan: Any,
    answer: Any,
    *,
    odds_reads: bool = True,
) -> None:
    """``own_odds`` equals ``decide`` enumerated (``odds_reads=False``: every merged
    step branched by all it reads), field by field, and is what ``attack_odds``
    hands out."""
    own = own_odds(plan, answer)
    enumerated = attack_odds(steps, plan, answer, ruleset_odds=False, odds_reads=odds_reads)
    assert dict(own.kinds) == dict(enumerated.kinds)
    assert own.expected_injury == enumerated.expected_injury
    assert own.takes_out == enumerated.takes_out
    assert attack_odds(steps, plan, answer) == own


def check_demo_pairings(
    seed: str,
    steps: Any,
    attack: Callable[[str, str], Any],
    check: Callable[[Any, Any], None],
) -> None:
    """``check(plan, answer)`` on every attack of the seed's demo battle, each
    fighter on each foe where they stand, with every weapon, mode and answer;
    ``attack(weapon_key, mode_name)`` builds the attacker's choices."""
    state = read_battle(demo_file(seed).read_bytes(), rulesets=get_ruleset).state
    checked = 0
    for a in state.combatants:
        for d in state.combatants:
            if a.side is d.side:
                continue
            for w in a.fighter.weapons:
                for mode in w.modes:
                    try:
                        plan = steps.plan(state, a.id, d.id, attack(w.key, mode.name))
                    except RulesError:
                        continue
                    for answer in steps.answers(plan):
                        check(plan, answer)
                    checked += 1
    assert checked > 0
