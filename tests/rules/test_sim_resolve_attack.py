"""The simulation path's attack (rules.sim.simulate.resolve_attack) leaves the state
``Battle.execute`` leaves, on the same dice, for every demo matchup of every
ruleset (each fighter of its demo against every other, each of the attack form's
choices) and a few dice streams each; its tally reads the outcome."""

from __future__ import annotations

import pytest

from rules.battle.battle import Battle
from rules.sets.registry import get_ruleset, ruleset_keys
from rules.sim.duel import demo_matchups
from rules.sim.simulate import PlanMemo, SimTally, StreamDice, battle_dice, resolve_attack

STREAMS = (1, 2, 3)


@pytest.mark.parametrize("key", ruleset_keys())
def test_each_matchup_resolves_as_the_battle_executes_it(key: str) -> None:
    cases = demo_matchups(key)
    assert cases
    plans = PlanMemo()
    for seed in STREAMS:
        for index, (state, ruleset, command) in enumerate(cases):
            stream = seed * 100_000 + index
            tally = SimTally()
            after = resolve_attack(
                command, state, StreamDice(battle_dice(stream)), ruleset, tally, plans
            )
            battle = Battle(state, stream, get_ruleset)
            battle.execute(command, StreamDice(battle_dice(stream)))
            assert after == battle.state, (key, index, seed)
            attacker_before, defender_before = state.combatants
            attacker_after, defender_after = after.combatants
            if attacker_after.hp == attacker_before.hp:  # no blow of its own came back
                lost = max(0, defender_before.hp - defender_after.hp)
                assert sum(tally.injury_by_location.values()) == lost, (key, index, seed)
