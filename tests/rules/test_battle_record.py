"""The simulation interface (rules.sim.battle_record): a setup made once, battles
played from it on their own seeds, records small and picklable."""

from __future__ import annotations

import pickle
from pathlib import Path

from rules.sim.battle_record import battle_setup, simulate_battle, start_state
from rules.sim.simulate import replay_battle

DEMO_000 = Path(__file__).resolve().parents[2] / "assets" / "battles" / "demo-000.hexfray"


def test_a_simulated_battle_is_the_one_replayed_through_battle() -> None:
    setup = battle_setup(DEMO_000)
    record = simulate_battle(setup, 7, 12, keep_choices=True)
    battle, report = replay_battle(start_state(setup), 7, 12)
    assert record.seed == 7
    assert record.rounds == report.rounds
    assert record.stopped is not report.decided
    assert record.winner == (report.winner.value if report.winner is not None else None)
    assert record.choices == tuple(d.label for d in report.decisions)
    by_id = {c.id: c for c in battle.state.combatants}
    assert {f.combatant_id for f in record.fighters} == set(by_id)
    for end in record.fighters:
        c = by_id[end.combatant_id]
        assert end.injury == c.fighter.hit_points - c.hp
        assert end.side == c.side.value
        assert end.end in ("standing", "unconscious", "dead")


def test_setup_and_record_are_picklable_and_the_same_seed_plays_the_same() -> None:
    setup = pickle.loads(pickle.dumps(battle_setup(DEMO_000)))
    first = simulate_battle(setup, 3, 8)
    assert pickle.loads(pickle.dumps(first)) == first
    assert simulate_battle(setup, 3, 8) == first
