"""The runner (rules.sim.runner): battles numbered and seeded from the master seed
whatever the batches and the order they come back in, counted in batch order,
stopped by --until-ci at the same battle on every backend, and cancelled."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import numpy as np
import pytest

from rules.sim.backends import Backend, BatchJob, BatchResult, RunPlan
from rules.sim.battle_record import BattleRecord, BattleSetup, FighterEnd
from rules.sim.runner import MAX_BATCH, Cancel, batch_jobs, batch_size, run_battles
from rules.sim.seeds import battle_seed, battle_seeds

SETUP = BattleSetup(text="{}", ruleset_key="000")  # never played: the backends below fake it


def fake_battle(seed: int) -> BattleRecord:
    """A battle whose outcome follows from its seed (red wins 3 in 4)."""
    winner = "red" if seed % 4 else "blue"
    return BattleRecord(
        seed=seed,
        winner=winner,
        stopped=False,
        rounds=1 + seed % 7,
        fighters=(FighterEnd("c1", "A", "red", "standing", 0),
                  FighterEnd("c2", "B", "blue", "standing", 0)),
        injury_by_location=(),
        dropped=0,
        broken=0,
        knocked_away=0,
        scatter=(),
    )  # fmt: skip


class Shuffled(Backend):
    """Plays fake battles and hands the batches back in a shuffled order, as
    workers finishing at different times would."""

    name = "shuffled"

    def __init__(self, order_seed: int, cancel_after: Cancel | None = None) -> None:
        self.order = random.Random(order_seed)
        self.cancel_after = cancel_after
        self.closed = False
        self.handed_out = 0

    @property
    def workers(self) -> int:
        return 3

    def play(
        self, plan: RunPlan, jobs: Iterator[BatchJob], cancelled: Callable[[], bool]
    ) -> Iterator[BatchResult]:
        window: list[BatchJob] = []
        pending = list(jobs)
        while pending or window:
            while pending and len(window) < 4:
                window.append(pending.pop(0))
            job = window.pop(self.order.randrange(len(window)))
            if cancelled():
                return
            seeds = battle_seeds(plan.master_seed, job.first, job.count)
            self.handed_out += 1
            yield BatchResult(job, tuple(fake_battle(s) for s in seeds))
            if self.cancel_after is not None and self.handed_out == 2:
                self.cancel_after()

    def close(self) -> None:
        self.closed = True


def test_seeds_are_the_master_seeds_spawned_children() -> None:
    children = np.random.SeedSequence(2026).spawn(5)
    expected = [int(c.generate_state(1, dtype=np.uint64)[0]) for c in children]
    assert [battle_seed(2026, i) for i in range(5)] == expected
    assert battle_seeds(2026, 2, 3) == tuple(expected[2:])
    assert battle_seed(2027, 0) != battle_seed(2026, 0)
    with pytest.raises(ValueError):
        battle_seed(-1, 0)


def test_batches_cover_the_run_once() -> None:
    assert batch_size(1) == 1 and batch_size(160) == 10 and batch_size(10**6) == MAX_BATCH
    jobs = list(batch_jobs(1001, 200))
    assert [(j.index, j.first, j.count) for j in jobs] == [
        (0, 0, 200), (1, 200, 200), (2, 400, 200), (3, 600, 200), (4, 800, 200), (5, 1000, 1),
    ]  # fmt: skip


def rows_of(order_seed: int, **options: object) -> tuple[list[tuple[int, int]], object]:
    rows: list[tuple[int, int]] = []

    def keep(batch: BatchResult, _tally: object) -> None:
        rows.extend((batch.job.first + i, r.seed) for i, r in enumerate(batch.records))

    backend = Shuffled(order_seed)
    result = run_battles(
        SETUP,
        master_seed=9,
        max_rounds=5,
        backend=backend,
        on_batch=keep,
        **options,  # type: ignore[arg-type]
    )
    assert backend.closed
    return rows, result


def test_batches_counted_in_order_whatever_order_they_finish_in() -> None:
    first, result_a = rows_of(1, runs=1000)
    second, result_b = rows_of(2, runs=1000)
    assert first == second == [(i, battle_seed(9, i)) for i in range(1000)]
    assert result_a.tally.summary() == result_b.tally.summary()  # type: ignore[attr-defined]


def test_until_ci_stops_at_the_same_battle_whatever_the_order() -> None:
    stops = set()
    for order in range(4):
        rows, result = rows_of(order, runs=20_000, until_ci=0.05)
        assert result.settled and not result.cancelled  # type: ignore[attr-defined]
        assert result.tally.narrow_enough(0.05)  # type: ignore[attr-defined]
        stops.add(len(rows))
    assert len(stops) == 1
    (stop,) = stops
    assert stop < 20_000 and stop % batch_size(20_000) == 0


def test_cancel_keeps_what_was_counted_in_order() -> None:
    cancel = Cancel()
    backend = Shuffled(0, cancel_after=cancel)
    result = run_battles(
        SETUP, runs=5000, master_seed=9, max_rounds=5, backend=backend, cancel=cancel
    )
    assert result.cancelled and not result.settled and backend.closed
    assert result.battles < 5000 and result.battles % batch_size(5000) == 0
