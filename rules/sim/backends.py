"""Where the batches of a run are played: the backends of ``rules.sim.runner``.

* ``InProcess``: here, one battle after another (tests, a single core, debugging).
* ``ProcessPool``: a ``concurrent.futures.ProcessPoolExecutor`` on every core, the
  default. Its workers are started with "spawn" on every system, so a packaged
  program starts them as it starts on Windows and macOS (``main.py`` calls
  ``multiprocessing.freeze_support()`` first thing).
* ``DaskCluster`` (``rules.sim.dask_backend``): a Dask distributed cluster, the
  optional ``hexfray[cluster]``, imported only when that backend is made.

Each backend's ``play`` hands out the batches, a few at a time per worker, and
yields each ``BatchResult`` as it finishes. It checks ``cancelled`` at least every
``POLL_S`` seconds and, once it is true, stops: pending batches are dropped, the
pool's worker processes are ended, the cluster's tasks are cancelled and its
running batches stop at their next battle (``CancelFlag``). Nothing here opens a
socket or keeps a queue of its own.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from rules.sim.battle_record import BattleRecord, BattleSetup, simulate_battle
from rules.sim.seeds import battle_seed

POLL_S = 0.1  # how often a waiting backend looks at the cancel flag
BATCHES_PER_WORKER = 2  # in flight at once: one playing, one ready to start


@dataclass(frozen=True, slots=True)
class RunPlan:
    """What every battle of a run shares."""

    setup: BattleSetup
    master_seed: int
    max_rounds: int


@dataclass(frozen=True, slots=True)
class BatchJob:
    """Battles ``first`` .. ``first + count - 1`` of a run, batch number ``index``."""

    index: int
    first: int
    count: int


@dataclass(frozen=True, slots=True)
class BatchResult:
    job: BatchJob
    records: tuple[BattleRecord, ...]


class BatchCancelled(Exception):
    """A batch stopped part-way because its run was cancelled."""


def play_batch(
    plan: RunPlan, job: BatchJob, cancelled: Callable[[], bool] | None = None
) -> BatchResult:
    """Play one batch (in whatever process or machine runs it). ``cancelled``,
    asked between battles, stops it with ``BatchCancelled``."""
    records = []
    for index in range(job.first, job.first + job.count):
        if cancelled is not None and cancelled():
            raise BatchCancelled(f"batch {job.index} cancelled")
        seed = battle_seed(plan.master_seed, index)
        records.append(simulate_battle(plan.setup, seed, plan.max_rounds))
    return BatchResult(job, tuple(records))


class Backend(ABC):
    """Plays batches; made for one run and closed by the runner when it ends."""

    name: str

    @property
    @abstractmethod
    def workers(self) -> int:
        """How many batches it plays at once."""

    @abstractmethod
    def play(
        self, plan: RunPlan, jobs: Iterator[BatchJob], cancelled: Callable[[], bool]
    ) -> Iterator[BatchResult]:
        """Each job's result as it finishes; stops early once ``cancelled()``."""

    @abstractmethod
    def close(self) -> None:
        """Stop every worker it started and let go of what it holds."""


# --- here -----------------------------------------------------------------------------
class InProcess(Backend):
    name = "in-process"

    @property
    def workers(self) -> int:
        return 1

    def play(
        self, plan: RunPlan, jobs: Iterator[BatchJob], cancelled: Callable[[], bool]
    ) -> Iterator[BatchResult]:
        for job in jobs:
            try:
                yield play_batch(plan, job, cancelled)
            except BatchCancelled:
                return

    def close(self) -> None:
        pass  # nothing started


# --- a local process pool -------------------------------------------------------------
def _start_worker() -> None:
    """A pool worker leaves Ctrl+C to the run, which ends the workers itself, and
    collects its garbage (a packaged program's start pauses the collector, and its
    worker is that program started again: packaging/rthook_pause_gc.py)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    gc.enable()


def available_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class ProcessPool(Backend):
    name = "process pool"

    def __init__(self, workers: int | None = None) -> None:
        self._workers = workers if workers is not None else available_cores()
        if self._workers < 1:
            raise ValueError(f"at least one worker, not {self._workers}")
        self._executor: ProcessPoolExecutor | None = None

    @property
    def workers(self) -> int:
        return self._workers

    def play(
        self, plan: RunPlan, jobs: Iterator[BatchJob], cancelled: Callable[[], bool]
    ) -> Iterator[BatchResult]:
        self._executor = ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
        )
        in_flight: set[Future[BatchResult]] = set()
        pending = iter(jobs)
        exhausted = False
        while True:
            while not exhausted and len(in_flight) < self._workers * BATCHES_PER_WORKER:
                job = next(pending, None)
                if job is None:
                    exhausted = True
                else:
                    in_flight.add(self._executor.submit(play_batch, plan, job))
            if not in_flight or cancelled():
                return
            done, in_flight = wait(in_flight, timeout=POLL_S, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        # The worker processes, taken before shutdown() lets go of them.
        processes: dict[int, Any] = dict(getattr(executor, "_processes", None) or {})
        executor.shutdown(wait=False, cancel_futures=True)
        _end_workers(list(processes.values()))


def _end_workers(processes: list[Any]) -> None:
    """End the pool's worker processes now, also in the middle of a batch (after a
    run that finished they are idle): a cancelled run stops within a second.
    (Python 3.14's ``ProcessPoolExecutor.terminate_workers`` does this; 3.11 has no
    public way, hence the executor's ``_processes``.)"""
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=1.0)
