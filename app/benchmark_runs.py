"""The benchmark's figures of runs of many battles (``main.py simulate``'s runner,
rules.sim.runner), on the seed 000 demo duel (its first fighter of each side,
``rules.sim.duel.demo_duel``), every fighter computer-controlled:

* ``sim_scaling_2_workers``: the process pool's throughput with 2 workers over its
  throughput with 1, each in battles a second once every worker has handed back its
  first batch (the workers' start-up is not counted);
* ``sim_memory_growth_pct``: how much the resident memory of a run in this process
  grows from the end of a warm-up to the end of the run, in percent of the first.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rules.sim.backends import BatchResult, InProcess, ProcessPool
from rules.sim.battle_record import BattleSetup, battle_setup
from rules.sim.duel import demo_duel
from rules.sim.runner import run_battles
from rules.sim.tally import Tally

SCALING_ROUNDS = 2  # rounds of each duel: short battles, many batches


def demo_duel_setup() -> BattleSetup:
    return battle_setup(demo_duel("000"))


@dataclass(frozen=True)
class Throughput:
    workers: int
    battles: int  # counted (after every worker's first batch)
    seconds: float

    @property
    def per_second(self) -> float:
        return self.battles / self.seconds if self.seconds > 0 else 0.0


def pool_throughput(
    setup: BattleSetup, workers: int, batches_per_worker: int, batch: int, seed: int
) -> Throughput:
    """Battles a second on a pool of ``workers`` once each has finished a batch."""
    finished: list[tuple[float, int]] = []
    run_battles(
        setup,
        runs=workers * batches_per_worker * batch,
        master_seed=seed,
        max_rounds=SCALING_ROUNDS,
        backend=ProcessPool(workers),
        size=batch,
        on_progress=lambda n: finished.append((time.perf_counter(), n)),
    )
    start = finished[workers - 1][0]
    counted = sum(n for _t, n in finished[workers:])
    return Throughput(workers, counted, finished[-1][0] - start)


def _spin(count: int) -> int:
    total = 0
    for i in range(count):
        total += i * i % 7
    return total


def loop_scaling(count: int) -> float:
    """A bare Python loop's throughput on 2 worker processes over 1 (workers started
    first): what the machine itself gives a second process, beside which
    ``sim_scaling_2_workers`` is read (a core another program keeps busy caps both)."""
    rates = []
    for workers in (1, 2):
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            list(pool.map(_spin, [1] * workers))
            start = time.perf_counter()
            list(pool.map(_spin, [count] * workers))
            rates.append(workers * count / (time.perf_counter() - start))
    return rates[1] / rates[0]


def resident_bytes() -> int:
    """This process's resident memory now (Linux), else its peak so far."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


@dataclass(frozen=True)
class MemoryGrowth:
    warm_up: int
    battles: int  # after the warm-up
    before_bytes: int
    after_bytes: int

    @property
    def percent(self) -> float:
        return 100 * (self.after_bytes - self.before_bytes) / self.before_bytes


def memory_growth(setup: BattleSetup, warm_up: int, battles: int, seed: int) -> MemoryGrowth:
    """A run of ``warm_up + battles`` battles in this process, counted as
    ``main.py simulate`` counts them; the resident memory after the warm-up's batch
    and at the end."""
    marks: list[int] = []

    def mark(batch: BatchResult, _tally: Tally) -> None:
        if batch.job.index == 0:
            marks.append(resident_bytes())

    run_battles(
        setup,
        runs=warm_up + battles,
        master_seed=seed,
        max_rounds=SCALING_ROUNDS,
        backend=InProcess(),
        size=warm_up,
        on_batch=mark,
    )
    return MemoryGrowth(warm_up, battles, marks[0], resident_bytes())
