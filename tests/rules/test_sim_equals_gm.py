"""The simulation path equals the GM's path (issue 26, "What must hold"): a battle
simulated (rules.sim.simulate) and the same battle played through ``Battle`` on the
same one stream of dice (replay_battle) end in the same state: winner, rounds,
every fighter's hit points, wounds and conditions, the items on the ground where
they lie; the record's counts are read from that battle.

A few seeds of each ruleset's demo duel with the computer's decisions (each
battle costs seconds of thinking), and hundreds with scripted fighters (cheap);
``python -m rules.sim.check --seeds N [--whole]`` runs the computer's on many.
"""

from __future__ import annotations

import pytest

from rules.battle.battle import Battle
from rules.sets.registry import get_ruleset, ruleset_keys
from rules.sim.battle_record import BattleSetup, battle_setup, simulate_battle
from rules.sim.check import differing_seeds
from rules.sim.duel import demo_duel, demo_state
from rules.sim.simulate import replay_battle, replay_decisions, simulate
from tests.rules.scripted_player import ScriptedPlayer

SEEDS = (1, 2)
MAX_ROUNDS = 12


@pytest.mark.parametrize("key", ruleset_keys())
def test_a_simulated_duel_ends_as_the_battle_replayed(key: str) -> None:
    start = demo_duel(key)
    for seed in SEEDS:
        simulated = simulate(start, seed, MAX_ROUNDS)
        battle, report = replay_battle(start, seed, MAX_ROUNDS)
        assert simulated.state == battle.state, (key, seed)
        assert simulated.report.rounds == report.rounds
        assert simulated.report.winner == report.winner
        assert simulated.report.decided == report.decided


def test_the_record_reads_the_replayed_battle() -> None:
    start = demo_duel("seed000")
    setup: BattleSetup = battle_setup(start)
    for seed in SEEDS:
        record = simulate_battle(setup, seed, MAX_ROUNDS)
        battle, report = replay_battle(start, seed, MAX_ROUNDS)
        state = battle.state
        assert record.rounds == report.rounds
        assert record.stopped is not report.decided
        assert {f.combatant_id: f.injury for f in record.fighters} == {
            c.id: c.fighter.hit_points - c.hp for c in state.combatants
        }
        assert sum(i for _, i in record.injury_by_location) == sum(
            f.injury for f in record.fighters
        )


@pytest.mark.parametrize("key", ruleset_keys())
def test_a_simulated_duel_replays_from_its_decisions(key: str) -> None:
    start = demo_duel(key)
    assert differing_seeds(key, False, range(3, 3 + len(SEEDS)), MAX_ROUNDS) == []
    simulated = simulate(start, 5, MAX_ROUNDS, keep_decisions=True)
    replayed = replay_decisions(start, 5, simulated.report.decisions)
    assert replayed.state == simulated.state
    # the replay is an ordinary battle: its log replays on its recorded faces
    again = Battle.replay(start, 5, replayed.commands, replayed.dice_log, rulesets=get_ruleset)
    assert again.state == simulated.state


# Seeds per ruleset: of its demo duel, and of its whole demo battle.
SCRIPTED_SEEDS = {False: 200, True: 100}


@pytest.mark.parametrize("key", ruleset_keys())
@pytest.mark.parametrize("whole", [False, True], ids=["duel", "whole"])
def test_scripted_battles_simulated_replay_through_battle(key: str, whole: bool) -> None:
    """Many seeds, the fighters scripted (cheap), so the rules path is checked
    where the computer's thinking would cost seconds a battle."""
    start = demo_state(key) if whole else demo_duel(key)
    for seed in range(SCRIPTED_SEEDS[whole]):
        simulated = simulate(start, seed, 30, keep_decisions=True, player=ScriptedPlayer())
        replayed = replay_decisions(start, seed, simulated.report.decisions)
        assert replayed.state == simulated.state, (key, whole, seed)
