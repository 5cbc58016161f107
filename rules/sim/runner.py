"""Runs of many simulated battles: one runner, three backends.

``run_battles`` plays battles ``0 .. runs-1`` of one ``BattleSetup``, battle ``i``
on the seed spawned for it from the run's master seed (``rules.sim.seeds``), and
counts them (``rules.sim.tally``). The battles go out in batches (``BatchJob``: a
few hundred battles per task, so that starting a task and sending its results
back cost little next to the battles) to a backend (``rules.sim.backends``): in
this process, a local process pool on every core (the default), or a Dask
cluster.

Batches come back in whatever order the workers finish them; the runner counts
them in batch order. So the counts, the rows written and the point where
``until_ci`` stops a run depend on the master seed, the number of runs and the
setup only, never on the backend or how many workers it has.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rules.sim.backends import Backend, BatchJob, BatchResult, RunPlan
from rules.sim.battle_record import BattleSetup
from rules.sim.tally import Tally

MAX_BATCH = 200  # battles in one task
# A small run is still cut into this many batches at least, so that every worker
# of a pool (or a small cluster) gets some.
MIN_BATCHES = 16


def batch_size(runs: int) -> int:
    """The battles in one batch of a run of ``runs``: at most ``MAX_BATCH``, fewer
    when the run is small. It depends on ``runs`` alone, so a run stops at the same
    battle on every backend."""
    return max(1, min(MAX_BATCH, math.ceil(runs / MIN_BATCHES)))


def batch_jobs(runs: int, size: int) -> Iterator[BatchJob]:
    for index, first in enumerate(range(0, runs, size)):
        yield BatchJob(index, first, min(size, runs - first))


@dataclass
class RunResult:
    """A run's counts, and how it ended: all its battles played, stopped early
    because every win rate's interval was narrow enough (``settled``), or
    cancelled (``cancelled``: the counts of the batches finished in order before)."""

    tally: Tally
    runs: int  # the battles asked for
    settled: bool = False
    cancelled: bool = False
    seconds: float = 0.0

    @property
    def battles(self) -> int:
        return self.tally.battles


@dataclass
class Cancel:
    """Cancels a run from any thread (a window's button, a signal, a test)."""

    _event: threading.Event = field(default_factory=threading.Event)

    def __call__(self) -> None:
        self._event.set()

    @property
    def requested(self) -> bool:
        return self._event.is_set()


def run_battles(
    setup: BattleSetup,
    *,
    runs: int,
    master_seed: int,
    max_rounds: int,
    backend: Backend,
    until_ci: float | None = None,
    size: int | None = None,
    cancel: Cancel | None = None,
    on_batch: Callable[[BatchResult, Tally], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> RunResult:
    """Play ``runs`` battles of ``setup`` on ``backend`` and count them.

    ``until_ci``: stop once every side's win-rate 95% interval is at most this
    wide (checked after each batch, in batch order). ``on_batch``: called with
    each batch in order and the counts so far (rows of a CSV file);
    ``on_progress``: with the number of battles of each batch as it finishes, in
    any order (a progress bar). ``cancel``: stops the run within a second, every
    worker included. The backend is closed when the run ends.
    """
    if runs < 1:
        raise ValueError(f"a run is at least one battle, not {runs}")
    started = time.perf_counter()
    plan = RunPlan(setup, master_seed, max_rounds)
    result = RunResult(Tally(), runs)
    waiting: dict[int, BatchResult] = {}
    next_index = 0
    try:
        stream = backend.play(
            plan, batch_jobs(runs, size or batch_size(runs)), cancelled=_flag(cancel)
        )
        for batch in stream:
            if on_progress is not None:
                on_progress(len(batch.records))
            waiting[batch.job.index] = batch
            while next_index in waiting and not result.settled:
                ready = waiting.pop(next_index)
                next_index += 1
                result.tally.add_all(ready.records)
                if on_batch is not None:
                    on_batch(ready, result.tally)
                result.settled = until_ci is not None and result.tally.narrow_enough(until_ci)
            if result.settled:
                break
        # A backend's stream ends early only when the run is cancelled.
        result.cancelled = not result.settled and result.tally.battles < runs
    finally:
        backend.close()
        result.seconds = time.perf_counter() - started
    return result


def _flag(cancel: Cancel | None) -> Callable[[], bool]:
    if cancel is None:
        return lambda: False
    return lambda: cancel.requested
