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

One child serves the calls of one test, one after another (``_Server``): a fuzz
test's 2,000 reads pay for one fork, not 2,000, each of which copied the pages of
a big test worker that Python touched. The call goes to it by ``cloudpickle``
(a lambda and what it holds). A child that reached a limit, raised what it may
not, or grew is ended, and the next call gets a fresh one.

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

import atexit
import gc
import logging
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

import cloudpickle

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


# A child that grew this much since it started is ended after the call: the next
# call's memory limit is measured from a fresh one.
SERVER_GROWTH_BYTES = 64 * 2**20


def _reset_peak_memory() -> bool:
    """Start ``VmHWM`` again from the resident memory now (Linux's clear_refs)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear_refs:
            clear_refs.write("5")
    except OSError:
        return False
    return True


def _guarded_call(
    call: Callable[[], object],
    allowed: tuple[type[BaseException], ...],
    cpu_seconds: float,
    then: Callable[[object], object] | None,
) -> Outcome:
    """Runs in the child: set the limits, call, describe the end; then ``then``
    on what the call gave (its value or the allowed exception)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        address_space = int(statm.read().split()[0]) * _PAGE
    peak_reset = _reset_peak_memory()
    resident_before = _status_kib("VmRSS" if peak_reset else "VmHWM") * 1024
    resource.setrlimit(resource.RLIMIT_AS, (address_space + MEMORY_BYTES, resource.RLIM_INFINITY))
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu_kill = int(used.ru_utime + used.ru_stime + cpu_seconds + CHECK_SECONDS)
    cpu_kill += KILL_AFTER_CPU_SECONDS
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_kill, resource.RLIM_INFINITY))
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
    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
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


def _write_message(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(8, "big") + data)
    while view:
        view = view[os.write(fd, view) :]


def _read_exactly(fd: int, count: int, deadline: float | None) -> bytes | None:
    """``count`` bytes from ``fd``; None at its end, or when ``deadline`` (a
    ``time.monotonic()``) passes first."""
    chunks: list[bytes] = []
    while count:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
        chunk = os.read(fd, min(count, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def _read_message(fd: int, deadline: float | None = None) -> bytes | None:
    size = _read_exactly(fd, 8, deadline)
    return None if size is None else _read_exactly(fd, int.from_bytes(size, "big"), deadline)


def _drop_inherited_log_handlers() -> None:
    """Send the child's log records nowhere. The handlers it inherits are the test
    process's: pytest's capture handlers keep every record for the test's report,
    and in the child nothing empties them, nor does the report ever see them. A
    reader's warning holds the exception it refused a file with, and through its
    traceback the frames and all they read: 7,400 journal reads kept 2 GB, and a
    full collection of it took 0.9 s inside one read's time (tests/test_watchdog.py)."""
    for logger in (logging.getLogger(), *logging.Logger.manager.loggerDict.values()):
        if isinstance(logger, logging.Logger):
            for handler in logger.handlers[:]:
                logger.removeHandler(handler)
    logging.getLogger().addHandler(logging.NullHandler())


def _serve(requests: int, answers: int) -> None:
    """The child's loop: each request a guarded call, each answer its outcome,
    until the test process closes the requests."""
    # The test process's collector callbacks (hypothesis times its collections) would
    # take the limit's exception where it cannot stop the call; and its objects are
    # the parent's: a collection that walked them would copy every page they lie on.
    gc.callbacks.clear()
    gc.freeze()
    _drop_inherited_log_handlers()
    signal.signal(signal.SIGPROF, _on_cpu_limit)
    while (request := _read_message(requests)) is not None:
        call, allowed, cpu_seconds, then = cloudpickle.loads(request)
        _write_message(answers, _answer(_guarded_call(call, allowed, cpu_seconds, then)))


class _Server:
    """A forked child that runs guarded calls one after another."""

    def __init__(self, test: str) -> None:
        self.test = test
        self.owner = os.getpid()
        requests_read, self.requests = os.pipe()
        self.answers, answers_write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into the test process
            status = 0
            try:
                os.close(self.requests)
                os.close(self.answers)
                _serve(requests_read, answers_write)
            except BaseException:
                status = 70
            finally:
                os._exit(status)
        self.pid = pid
        os.close(requests_read)
        os.close(answers_write)

    def run(self, request: bytes) -> Outcome:
        """The outcome of one request; the server is ended unless it answered."""
        try:
            _write_message(self.requests, request)
        except BrokenPipeError:
            return self._ended()
        answer = _read_message(self.answers, time.monotonic() + WALL_SECONDS)
        if answer is None:
            return self._ended()
        outcome = pickle.loads(answer)
        assert isinstance(outcome, Outcome)
        return outcome

    def close(self) -> None:
        if self.pid:
            os.close(self.requests)
            os.close(self.answers)
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = 0

    def _ended(self) -> Outcome:
        """The child answered nothing: why (it died, or it was stopped after
        ``WALL_SECONDS``)."""
        os.close(self.requests)
        os.close(self.answers)
        finished, status = os.waitpid(self.pid, os.WNOHANG)
        if not finished:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self.pid = 0
            return Outcome("died", details=f"no answer after {WALL_SECONDS} s (blocked?): killed")
        self.pid = 0
        if os.WIFSIGNALED(status):
            name = signal.Signals(os.WTERMSIG(status)).name
            cause = {
                "SIGXCPU": "CPU time limit: uninterruptible work past the limit",
                "SIGKILL": "killed (CPU time hard limit)",
            }.get(name, "a crash (perhaps an allocation past the memory limit)")
            return Outcome("died", error=name, details=cause)
        return Outcome("died", details=f"the child exited with status {os.WEXITSTATUS(status)}")


_server: _Server | None = None


def _server_for_this_test() -> _Server:
    """The running test's server: forked when the test first asks, so that it holds
    what the test set up (a Qt application, files)."""
    global _server
    test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
    if _server is not None and (_server.owner != os.getpid() or _server.test != test):
        if _server.owner == os.getpid():
            _server.close()
        _server = None
    if _server is None or not _server.pid:
        _server = _Server(test)
    return _server


@atexit.register
def _end_the_server() -> None:
    if _server is not None and _server.owner == os.getpid():
        _server.close()


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
    server = _server_for_this_test()
    outcome = server.run(cloudpickle.dumps((call, allowed, cpu_seconds, then)))
    if outcome.kind not in ("returned", "raised") or outcome.memory_bytes > SERVER_GROWTH_BYTES:
        server.close()  # the next call gets a child that reached no limit
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
