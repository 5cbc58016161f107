"""The three backends play the same battles: one master seed gives identical
records in this process, on a pool of 2 workers and on a Dask LocalCluster the
test starts itself; cancelling a pool ends its workers at once."""

from __future__ import annotations

import multiprocessing
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.files import open_battle
from rules.sim.backends import Backend, BatchResult, InProcess, ProcessPool
from rules.sim.battle_record import BattleRecord, BattleSetup, battle_setup
from rules.sim.duel import duel_of
from rules.sim.runner import Cancel, RunResult, run_battles

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"
RUNS = 6
MAX_ROUNDS = 4  # seed 004's duel hurts somebody within 4 rounds in most battles


@pytest.fixture(scope="module")
def duel_004() -> BattleSetup:
    return battle_setup(duel_of(open_battle(BATTLES / "demo-004.hexfray").state))


def played(setup: BattleSetup, backend: Backend) -> tuple[list[BattleRecord], RunResult]:
    records: list[BattleRecord] = []

    def keep(batch: BatchResult, _tally: object) -> None:
        records.extend(batch.records)

    result = run_battles(
        setup, runs=RUNS, master_seed=26, max_rounds=MAX_ROUNDS, backend=backend, on_batch=keep
    )
    return records, result


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    """A Dask LocalCluster of 2 worker processes, one thread each, and its client."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_identical_in_process_on_two_workers_and_on_a_dask_cluster(
    duel_004: BattleSetup, dask_client: Any
) -> None:
    alone, alone_result = played(duel_004, InProcess())
    assert len(alone) == RUNS and not alone_result.cancelled
    assert len({r.seed for r in alone}) == RUNS
    assert any(f.injury for r in alone for f in r.fighters)  # the battles did something
    pooled, pooled_result = played(duel_004, ProcessPool(2))
    assert pooled == alone
    assert pooled_result.tally.summary() == alone_result.tally.summary()

    from rules.sim.dask_backend import DaskCluster

    on_cluster, cluster_result = played(duel_004, DaskCluster(client=dask_client))
    assert on_cluster == alone
    assert cluster_result.tally.summary() == alone_result.tally.summary()


def test_cancel_ends_the_pools_workers(tmp_path: Path) -> None:
    # Whole demo battles: each takes seconds, so the workers are mid-batch.
    setup = battle_setup(open_battle(BATTLES / "demo-000.hexfray"))
    cancel = Cancel()
    backend = ProcessPool(2)
    outcome: list[RunResult] = []
    before = set(multiprocessing.active_children())
    run = threading.Thread(
        target=lambda: outcome.append(
            run_battles(
                setup, runs=400, master_seed=1, max_rounds=50, backend=backend, cancel=cancel
            )
        )
    )
    run.start()
    workers: list[multiprocessing.process.BaseProcess] = []
    for _ in range(600):  # the workers start (spawned: they import the rules first)
        workers = [p for p in multiprocessing.active_children() if p not in before]
        if len(workers) == 2:
            break
        time.sleep(0.1)
    assert len(workers) == 2
    cancel()
    run.join(timeout=30)
    assert not run.is_alive()
    (result,) = outcome
    assert result.cancelled and result.battles == 0
    assert not any(p.is_alive() for p in workers)


def test_cancel_stops_the_clusters_batches(dask_client: Any) -> None:
    from rules.sim.dask_backend import DaskCluster

    setup = battle_setup(open_battle(BATTLES / "demo-000.hexfray"))
    cancel = Cancel()
    outcome: list[RunResult] = []
    run = threading.Thread(
        target=lambda: outcome.append(
            run_battles(
                setup,
                runs=400,
                master_seed=1,
                max_rounds=50,
                backend=DaskCluster(client=dask_client),
                cancel=cancel,
            )
        )
    )
    run.start()
    for _ in range(600):  # until both workers play a batch
        if sum(len(tasks) for tasks in dask_client.processing().values()) >= 2:
            break
        time.sleep(0.1)
    cancel()
    run.join(timeout=30)
    assert not run.is_alive()
    (result,) = outcome
    assert result.cancelled and result.battles == 0
    for _ in range(100):  # the scheduler lets go of the cancelled tasks
        if not any(dask_client.processing().values()):
            break
        time.sleep(0.1)
    assert not any(dask_client.processing().values())
