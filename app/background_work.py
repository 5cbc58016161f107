"""Work a pane asks for that may take longer than a frame (the exact odds of an
attack), done on a worker thread so that the window never waits for it.

A pane keeps one ``LatestResult``: each ``request`` replaces the one before (a
request not yet started is dropped), and only the latest request's result is
delivered, on the GUI thread, through the callback given with it. A result asked
for outright (``wait``) is delivered at once; its queued delivery then does
nothing. Every pane shares one worker thread: the work is pure Python, which one
thread at a time runs anyway.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Generic, TypeVar

from PySide6.QtCore import QObject, Signal

__all__ = ["LatestResult"]

T = TypeVar("T")

# How long the worker may keep the interpreter while the GUI thread waits for it
# (Python's default is 5 ms): a frame's Python code comes back to the interpreter
# many times, and waited up to that much each time while a decision was worked out.
WORKER_SWITCH_INTERVAL_S = 0.0005

_jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
_worker_started = threading.Lock()
_worker: threading.Thread | None = None


def _submit(work: Callable[[], T]) -> Future[T]:
    """Run ``work`` on the shared worker thread, a daemon: quitting never waits
    for odds nobody will see."""
    global _worker
    with _worker_started:
        if _worker is None:
            sys.setswitchinterval(min(sys.getswitchinterval(), WORKER_SWITCH_INTERVAL_S))
            _worker = threading.Thread(target=_work_forever, name="hexfray-work", daemon=True)
            _worker.start()
    future: Future[T] = Future()

    def job() -> None:
        if not future.set_running_or_notify_cancel():
            return  # cancelled before it started
        try:
            future.set_result(work())
        except BaseException as error:  # the deliverer reads it
            future.set_exception(error)

    _jobs.put(job)
    return future


def _work_forever() -> None:
    while True:
        _jobs.get()()


class LatestResult(QObject, Generic[T]):
    """One pane's latest request to the shared worker thread."""

    _done = Signal(int)  # the request's number, from the worker thread

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._number = 0
        self._future: Future[T] | None = None
        self._deliver: Callable[[Future[T]], None] | None = None
        self._done.connect(self._on_done)  # queued: emitted by the worker thread

    @property
    def pending(self) -> bool:
        """A request is under way or its result not yet delivered."""
        return self._deliver is not None

    def request(self, work: Callable[[], T], deliver: Callable[[Future[T]], None]) -> None:
        """Do ``work`` on the worker thread; when it ends, and if no other request
        came since, call ``deliver`` with its future on the GUI thread."""
        self.cancel()
        number = self._number
        self._deliver = deliver
        future = _submit(work)
        self._future = future
        future.add_done_callback(lambda _f: self._announce(number))

    def cancel(self) -> None:
        """Forget the request under way: its result will not be delivered (and it
        is not started, if it has not been)."""
        self._number += 1
        if self._future is not None:
            self._future.cancel()
        self._future = None
        self._deliver = None

    def wait(self) -> None:
        """Wait for the latest request and deliver its result now."""
        future = self._future
        if future is not None and self._deliver is not None:
            future.exception()  # waits; an error is the deliverer's to read
            self._on_done(self._number)

    def _announce(self, number: int) -> None:
        """On the worker thread: tell the GUI thread that request ``number`` ended."""
        with contextlib.suppress(RuntimeError):  # the pane was closed and deleted meanwhile
            self._done.emit(number)

    def _on_done(self, number: int) -> None:
        if number != self._number or self._deliver is None or self._future is None:
            return  # a later request replaced it, or it was delivered already
        deliver, future = self._deliver, self._future
        self._deliver = None
        deliver(future)
