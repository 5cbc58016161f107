"""The Dask backend of ``rules.sim.runner``: batches played on a Dask distributed
cluster (the optional ``hexfray[cluster]``: ``dask[distributed]``), one the user
started with ``dask scheduler`` and ``dask worker`` (``DaskCluster(address)``) or
any ``distributed.Client`` (a test's ``LocalCluster``).

Dask is imported only when this backend is made (``distributed()``), so a program
without the extra runs every other backend. Its workers need Hexfray's code
importable (the same version: see docs/simulation.md).
"""

from __future__ import annotations

import importlib
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rules.sim.backends import POLL_S, Backend, BatchJob, BatchResult, RunPlan, play_batch

CANCEL_CHECK_S = 0.25  # how often a cluster's running batch asks whether to stop
BATCHES_PER_THREAD = 2  # in flight at once: one playing, one ready to start


class DaskMissing(RuntimeError):
    """Dask is not installed (the optional extra ``hexfray[cluster]``)."""


def distributed() -> Any:
    """The ``distributed`` package, untyped (it ships no complete type hints)."""
    try:
        return importlib.import_module("distributed")
    except ImportError as missing:
        raise DaskMissing(
            "a Dask cluster needs the extra hexfray[cluster] (pip install 'dask[distributed]')"
        ) from missing


@dataclass(frozen=True, slots=True)
class CancelFlag:
    """Asked by a batch running on a Dask worker: has its run been cancelled? It
    reads the run's ``distributed.Event`` at most every ``CANCEL_CHECK_S``."""

    name: str

    def __call__(self) -> bool:
        now = time.monotonic()
        last = _last_checks.get(self.name)
        if last is not None and now - last[0] < CANCEL_CHECK_S:
            return last[1]
        answer = bool(distributed().Event(self.name).is_set())
        _last_checks[self.name] = (now, answer)
        return answer


# The last answer of each run's flag in this worker process: (when, answer).
_last_checks: dict[str, tuple[float, bool]] = {}


def _play_on_worker(plan: RunPlan, job: BatchJob, flag: CancelFlag) -> BatchResult:
    return play_batch(plan, job, flag)


class DaskCluster(Backend):
    """A Dask cluster: the scheduler at ``address`` ("tcp://host:8786"), or the
    cluster of ``client`` (left open: it is its owner's)."""

    name = "dask"

    def __init__(self, address: str | None = None, *, client: Any = None) -> None:
        if (address is None) == (client is None):
            raise ValueError("a scheduler's address or a client")
        self._own_client = client is None
        self._client: Any = (
            client if client is not None else distributed().Client(address, timeout=10)
        )
        self._flag = CancelFlag(f"hexfray-cancel-{uuid.uuid4().hex}")
        self._futures: set[Any] = set()

    @property
    def workers(self) -> int:
        threads: dict[str, int] = self._client.nthreads()
        return max(1, sum(threads.values()))

    @property
    def address(self) -> str:
        return str(self._client.scheduler.address)

    def play(
        self, plan: RunPlan, jobs: Iterator[BatchJob], cancelled: Callable[[], bool]
    ) -> Iterator[BatchResult]:
        client = self._client
        shared = client.scatter(plan, broadcast=True)
        pending = iter(jobs)
        exhausted = False
        in_flight = self._futures
        while True:
            while not exhausted and len(in_flight) < self.workers * BATCHES_PER_THREAD:
                job = next(pending, None)
                if job is None:
                    exhausted = True
                else:
                    in_flight.add(
                        client.submit(_play_on_worker, shared, job, self._flag, pure=False)
                    )
            if not in_flight or cancelled():
                return
            done = {f for f in in_flight if f.done()}
            if not done:
                time.sleep(POLL_S / 4)
                continue
            in_flight -= done
            for future in done:
                yield future.result()

    def close(self) -> None:
        if self._futures:
            # Running batches stop at their next battle; queued ones never start.
            distributed().Event(self._flag.name, client=self._client).set()
            self._client.cancel(list(self._futures), force=True)
            self._futures.clear()
        if self._own_client:
            self._client.close()
