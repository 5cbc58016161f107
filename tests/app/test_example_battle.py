"""The example battle file (assets/battles/evening-in-progress.hexfray): a battle in
progress that loads, has every part a file can hold, is what its script writes,
and ships in the bundle."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from app.files import open_battle

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
EXAMPLE = ROOT / "assets" / "battles" / "evening-in-progress.hexfray"


def packaging_script(name: str) -> ModuleType:
    """A script of packaging/ by path (packaging/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        f"hexfray_packaging_{name}", PACKAGING / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_is_a_battle_in_progress() -> None:
    battle = open_battle(EXAMPLE)
    state = battle.state
    assert state.turn >= 3
    assert state.items, "items on the ground"
    assert len(state.terrain) > 0, "painted terrain"
    assert any(c.hp < c.fighter.hit_points for c in state.combatants), "a wounded fighter"
    assert len(battle.commands) >= 10 and any(battle.event_batches), "a log"
    assert battle.can_redo, "an undone command waiting for a redo"


def test_the_script_writes_the_example_as_it_is(tmp_path: Path) -> None:
    out = tmp_path / "example.hexfray"
    subprocess.run(
        [sys.executable, str(PACKAGING / "make_example_battle.py"), "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    assert out.read_bytes() == EXAMPLE.read_bytes(), (
        "the rules or the format changed: run python packaging/make_example_battle.py"
    )


def test_the_bundle_keeps_the_battles() -> None:
    policy = packaging_script("bundle_policy")
    spec = (PACKAGING / "hexfray.spec").read_text(encoding="utf-8")
    assert '(str(ROOT / "assets"), "assets")' in spec
    assert policy.keep("assets/battles/evening-in-progress.hexfray")
