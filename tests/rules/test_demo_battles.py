"""Each ruleset's demo battle (assets/battles/demo-<key>.hexfray, written by
packaging/make_demo_battles.py): it exists for every registered ruleset, is what
the script writes, and plays ten rounds through ``Battle`` commands chosen from
the ruleset's legal actions, with replay, undo and save/load giving the same
battle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "packaging" / "make_demo_battles.py"


def test_the_committed_demos_are_what_the_script_writes() -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--check"], cwd=ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
