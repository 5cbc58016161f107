"""The kill test: saves and autosave appends killed (SIGKILL) at random moments, at
least 100 times, in a process of its own (tests/app/kill_saves.py says what is
checked after each kill: the battle file old or new, every change reported done in
the journal, no temporary files piling up)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KILLS = 100
RAM_FOLDER = Path("/dev/shm")


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    """Where the battle is saved: a RAM file system when there is one. A SIGKILL
    leaves the page cache as it was, so the disk itself is not what is tested, and
    a real disk's fsyncs would make the hundreds of saves slow."""
    if RAM_FOLDER.is_dir() and os.access(RAM_FOLDER, os.W_OK):
        with tempfile.TemporaryDirectory(dir=RAM_FOLDER, prefix="hexfray-kill-") as ram:
            yield Path(ram)
    else:
        yield tmp_path


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the worker forks its children")
def test_saves_and_autosaves_killed_at_random_moments_lose_nothing(folder: Path) -> None:
    worker = subprocess.run(
        [sys.executable, "-m", "tests.app.kill_saves", str(folder), str(KILLS), "2025"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=600,  # a hang is a failure, not a wait for ever
    )
    assert worker.returncode == 0, worker.stderr[-3000:]
    totals = json.loads(worker.stdout)
    assert totals["kills"] >= KILLS
    # The kills landed everywhere: at file operations and in between, in the
    # middle of saves (a temporary file left, the file already the new battle) and
    # of journal starts, and after a change was journaled but not yet reported.
    assert totals["at_file_operations"] >= 40 and totals["timed"] >= 20
    assert totals["save_temporary_left"] > 0 and totals["journal_temporary_left"] > 0
    assert totals["file_new"] > 0 and totals["journal_ahead"] > 0
