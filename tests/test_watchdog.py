"""The watchdog's child serves a test's calls one after another (tests/watchdog.py):
what one call left must not be kept for the next ones, or a long fuzz test's child
grows until a collection of what it kept overruns a read's time (issue 23)."""

from __future__ import annotations

import gc
import logging
import weakref

from tests.watchdog import run_guarded

log = logging.getLogger(__name__)
# In the child: the exceptions its calls refused a file with, held weakly.
refusals: list[weakref.ref[BaseException]] = []


class Refused(Exception):
    """A reader's own error."""


def refuse_and_warn() -> None:
    """A reader that refuses a file and logs why, the exception in the record's
    arguments (as ``app.files.find_recoverable`` does)."""
    try:
        raise Refused("the file is damaged")
    except Refused as exc:
        refusals.append(weakref.ref(exc))
        log.warning("the file is not read: %s", exc)
        raise


def refusals_kept() -> int:
    gc.collect()
    return sum(refusal() is not None for refusal in refusals)


def test_the_child_keeps_no_log_record_of_a_call() -> None:
    for _ in range(3):
        assert run_guarded(refuse_and_warn, (Refused,)).kind == "raised"
    kept = run_guarded(refusals_kept)
    assert kept.kind == "returned" and kept.value == 0
