"""Run a callable under the limits every reader of a file must keep: 1 s of CPU time
and 200 MB of memory (issue 23). The call runs in a forked child, so that nothing it
does can hang, swell or break the test process:

* time: an interval timer of the child's CPU time (``ITIMER_PROF``) raises
  ``Overran`` (a ``BaseException``, which a reader's ``except Exception`` does not
  swallow) at the limit. Code that holds the interpreter in C (a ``10**999999999``)
  cannot be interrupted: ``RLIMIT_CPU`` kills the child a few seconds later, and a
  child blocked without using CPU (a FIFO) is killed after ``WALL_SECONDS``.
  CPU time rather than the wall clock, so that a busy machine does not fail a read;
* memory: ``RLIMIT_AS`` lets the child's address space grow by ``MEMORY_BYTES`` and
  no more, so that an allocation past it is a ``MemoryError`` (or a crash) instead
  of a machine out of memory; the growth of its resident memory is checked too.

A limit reached counts even when the reader caught the exception and raised its own
error instead (its ``__context__`` holds it). The child answers with an ``Outcome``:
the value the callable returned, or the exception it raised (the type, the message,
and whether it is one of the ``allowed`` types), or which limit it reached. What the
call gave may be checked in the child after it (``then``: a battle saved and read
back), outside its time.

Forking is reliable under pytest-xdist: each worker forks its own children, none of
them touches the worker's channel, and a child always ends with ``os._exit``. A
child that dies or answers nothing is an ``Outcome`` too, never a hung test.
"""

from __future__ import annotations

import gc
import os
import pickle
import resource
import select
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

CPU_SECONDS = 1.0
MEMORY_BYTES = 200 * 2**20
# Uninterruptible C code is killed by RLIMIT_CPU a little after the limit (SIGXCPU at
# the soft limit, SIGKILL at the hard one); a child using no CPU after WALL_SECONDS.
KILL_AFTER_CPU_SECONDS = 3
# What a read gave is checked after it (saved, read back ...), within this long.
CHECK_SECONDS = 20.0
WALL_SECONDS = 60.0
_PAGE = os.sysconf("SC_PAGE_SIZE")


class Overran(BaseException):
    """The call used more CPU time than it may."""


@dataclass(frozen=True)
class Outcome:
    """How a guarded call ended.

    ``kind`` is "returned", "raised" (an exception of the ``allowed`` types),
    "unexpected" (any other exception), "overran" (the time limit), "memory" (the
    memory limit) or "died" (the child ended without an answer: a crash, or a kill
    for uninterruptible work). ``value`` is what the callable returned (its repr if
    it cannot be pickled); ``error`` the exception's qualified type name,
    ``message`` its text, ``details`` a traceback or the cause of death;
    ``cpu_seconds`` and ``memory_bytes`` what the child used.
    """

    kind: str
    value: object = None
    error: str = ""
    message: str = ""
    details: str = ""
    cpu_seconds: float = 0.0
    memory_bytes: int = 0

    def describe(self) -> str:
        """One paragraph for an assertion message."""
        used = f"{self.cpu_seconds:.2f} s CPU, {self.memory_bytes / 2**20:.0f} MB"
        if self.kind == "returned":
            return f"returned {self.value!r:.200} ({used})"
        head = f"{self.kind}: {self.error}: {self.message[:500]!r} ({used})"
        return f"{head}\n{self.details}" if self.details else head


def _type_name(exc: BaseException) -> str:
    kind = type(exc)
    return f"{kind.__module__}.{kind.__qualname__}"


def _limit_reached(exc: BaseException) -> BaseException | None:
    """The ``Overran`` or ``MemoryError`` behind ``exc`` (itself, or an exception
    the reader caught before it raised ``exc``), if any."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, Overran | MemoryError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def _on_cpu_limit(signum: int, frame: FrameType | None) -> None:
    raise Overran("more than its CPU time")


def _ending(exc: BaseException, allowed: tuple[type[BaseException], ...]) -> Outcome:
    """How a call that raised ``exc`` ended."""
    reached = _limit_reached(exc)
    details = "".join(traceback.format_exception(exc))
    if isinstance(reached, Overran):
        return Outcome("overran", error=_type_name(exc), message=str(exc), details=details)
    if reached is not None:
        return Outcome("memory", error=_type_name(exc), message=str(exc), details=details)
    if isinstance(exc, allowed):
        return Outcome("raised", error=_type_name(exc), message=str(exc))
    return Outcome("unexpected", error=_type_name(exc), message=str(exc), details=details)


def _limited(seconds: float, call: Callable[[], object]) -> object:
    """``call()`` stopped (``Overran``) after ``seconds`` of CPU time."""
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return call()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def _child(
    call: Callable[[], object],
    allowed: tuple[type[BaseException], ...],
    cpu_seconds: float,
    then: Callable[[object], object] | None,
) -> Outcome:
    """Runs in the forked child: set the limits, call, describe the end; then
    ``then`` on what the call gave (its value or the allowed exception)."""
    # The test process's collector callbacks (hypothesis times its collections) would
    # take the limit's exception where it cannot stop the call.
    gc.callbacks.clear()
    # The test process's objects are the parent's: a collection that walked them would
    # write to every page of them, copying each (seconds of a big worker's time).
    gc.freeze()
    with open("/proc/self/statm", encoding="ascii") as statm:
        address_space = int(statm.read().split()[0]) * _PAGE
    resident_before = _status_kib("VmRSS") * 1024
    resource.setrlimit(resource.RLIMIT_AS, (address_space + MEMORY_BYTES, resource.RLIM_INFINITY))
    cpu_kill = int(cpu_seconds + CHECK_SECONDS) + KILL_AFTER_CPU_SECONDS
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_kill, cpu_kill + 1))
    signal.signal(signal.SIGPROF, _on_cpu_limit)
    started = time.process_time()
    found: object
    try:
        found = _limited(cpu_seconds, call)
        outcome = Outcome("returned", found)
    except BaseException as exc:  # everything is an answer here, nothing leaves the child
        found, outcome = exc, _ending(exc, allowed)
    cpu = time.process_time() - started
    grown = max(0, _status_kib("VmHWM") * 1024 - resident_before)
    value = outcome.value
    if then is not None and outcome.kind in ("returned", "raised"):
        try:
            value = _limited(CHECK_SECONDS, lambda: then(found))
        except BaseException as exc:  # what the read gave is no good
            checked = _ending(exc, ())
            outcome = Outcome(
                "unexpected",
                error=checked.error,
                message=f"what the read gave fails its check: {checked.message}",
                details=checked.details,
            )
    return Outcome(
        outcome.kind,
        value if outcome.kind == "returned" else None,
        outcome.error,
        outcome.message,
        outcome.details,
        cpu,
        grown,
    )


def _answer(outcome: Outcome) -> bytes:
    try:
        return pickle.dumps(outcome)
    except Exception:  # a value that cannot travel: its repr does
        kept = Outcome(**{**outcome.__dict__, "value": repr(outcome.value)[:1000]})
        return pickle.dumps(kept)


def run_guarded(
    call: Callable[[], object],
    allowed: tuple[type[BaseException], ...] = (),
    cpu_seconds: float = CPU_SECONDS,
    then: Callable[[object], object] | None = None,
) -> Outcome:
    """``call()`` in a forked child under the limits (``cpu_seconds`` of CPU time,
    ``MEMORY_BYTES``); its ``Outcome``. An exception of the ``allowed`` types is
    "raised", any other "unexpected". ``then`` checks what the call gave, its
    value or the allowed exception, outside the call's time (within
    ``CHECK_SECONDS``): its answer is the outcome's value, and an exception it
    raises makes the outcome "unexpected"."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test process
        status = 0
        try:
            os.close(reading)
            data = _answer(_child(call, allowed, cpu_seconds, then))
            view = memoryview(data)
            while view:
                view = view[os.write(writing, view) :]
        except BaseException:
            status = 70
        finally:
            os._exit(status)
    os.close(writing)
    chunks: list[bytes] = []
    deadline = time.monotonic() + WALL_SECONDS
    killed = False
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                killed = True
                break
            ready, _, _ = select.select([reading], [], [], left)
            if not ready:
                continue
            chunk = os.read(reading, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(reading)
        _, status = os.waitpid(pid, 0)
    if killed:
        return Outcome("died", details=f"no answer after {WALL_SECONDS} s (blocked?): killed")
    if chunks:
        outcome = pickle.loads(b"".join(chunks))
        assert isinstance(outcome, Outcome)
        if outcome.memory_bytes > MEMORY_BYTES and outcome.kind in ("returned", "raised"):
            return Outcome(
                "memory",
                outcome.value,
                outcome.error,
                outcome.message,
                f"its resident memory grew by {outcome.memory_bytes / 2**20:.0f} MB",
                outcome.cpu_seconds,
                outcome.memory_bytes,
            )
        return outcome
    if os.WIFSIGNALED(status):
        name = signal.Signals(os.WTERMSIG(status)).name
        cause = {
            "SIGXCPU": "CPU time limit: uninterruptible work past the limit",
            "SIGKILL": "killed (CPU time hard limit)",
        }.get(name, "a crash (perhaps an allocation past the memory limit)")
        return Outcome("died", error=name, details=cause)
    return Outcome("died", details=f"the child exited with status {os.WEXITSTATUS(status)}")
