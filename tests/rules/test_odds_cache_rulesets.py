"""The policies' odds cache (rules.play.policies.OddsCache) finds an attack of
every ruleset again: its key is the attack's plan and answer, so each ruleset's
plan must hash, and equal plans alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.battle.attack_steps import planned
from rules.battle.savefile import read_battle
from rules.play.policies import OddsCache
from rules.sets.registry import get_ruleset

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"


@pytest.mark.parametrize("key", ["002", "003", "004"])
def test_the_odds_cache_finds_an_attack_of_every_ruleset_again(key: str) -> None:
    """Bug: the seed 002 and 004 sheets held their skills in a mapping proxy,
    which does not hash, so no attack plan of theirs hashed and the odds cache
    weighed the same attack again on every step of a turn."""
    text = (BATTLES / f"demo-{key}.hexfray").read_text(encoding="utf-8")
    state = read_battle(text, rulesets=get_ruleset).state
    ruleset = get_ruleset(key)
    me = state.active_id
    assert me is not None
    foe = next(c for c in state.combatants if c.side is not state.combatant(me).side)
    steps = ruleset.attacks.steps  # type: ignore[attr-defined]
    choices = ruleset.attacks.default_attack(state, me, foe.id)
    plan = planned(steps, state, me, foe.id, choices)
    again = planned(steps, state, me, foe.id, choices)
    assert plan == again and hash(plan) == hash(again)
    answer = steps.default_answer(plan)
    cache = OddsCache()
    first = cache.odds(steps, plan, answer)
    assert cache.odds(steps, again, answer) is first  # found, not worked out again
