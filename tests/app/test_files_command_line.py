"""``python main.py FILE.hexfray``: a battle file from the command line, with
``--screenshot`` too; a file that cannot be opened ends the program with status 2
and one line on stderr, never a traceback."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QWidget

import main
from app.files import save_battle
from app.screenshot import pick_selection
from hexmap import HexGrid
from rules.battle import catalog
from rules.battle.battle import Battle
from rules.battle.state import BattleState
from rules.core import assets
from rules.sets.registry import get_ruleset

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "assets" / "battles" / "evening-in-progress.hexfray"


def run_main(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "main.py"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HEXFRAY_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"},
        check=False,
    )


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "cannot be read"),
        ('{"format": "hexfray-battle", "schema_version": 2, "seed": ', "damaged or cut short"),
        ('{"format": "hexfray-battle", "schema_version": 99}', "newer than this Hexfray"),
    ],
    ids=["missing", "truncated", "newer"],
)
def test_a_file_that_cannot_be_opened_exits_with_status_2_and_one_line(
    tmp_path: Path, content: str | None, reason: str
) -> None:
    path = tmp_path / "battle.hexfray"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = run_main(str(path), home=tmp_path / "home")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"hexfray: cannot open {path}: ")
    assert reason in lines[0]
    assert "Traceback" not in result.stderr


def test_a_screenshot_of_a_battle_file(tmp_path: Path) -> None:
    picture = tmp_path / "battle.png"
    result = run_main("--screenshot", str(picture), str(EXAMPLE), home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert picture.read_bytes().startswith(b"\x89PNG")


@pytest.fixture
def damaged_fighters(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The bundle with its fighter templates cut short."""
    shutil.copytree(assets.asset_root(), tmp_path / "assets")
    fighters = tmp_path / "assets" / "fighters.json"
    fighters.write_bytes(fighters.read_bytes()[:300])
    monkeypatch.setattr(assets, "bundle_root", lambda: tmp_path)
    catalog.load_catalog.cache_clear()
    catalog.load_fighters.cache_clear()
    yield
    catalog.load_catalog.cache_clear()
    catalog.load_fighters.cache_clear()


def test_a_damaged_bundled_table_at_start_shows_a_dialog(
    qapp: object, damaged_fighters: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[tuple[str, str]] = []

    def critical(parent: QWidget | None, title: str, text: str) -> None:
        shown.append((title, text))

    monkeypatch.setattr(QMessageBox, "critical", critical)
    assert main.run_gui(1) == main.EXIT_DAMAGED_BUNDLE
    ((title, text),) = shown
    assert title == "Hexfray cannot start"
    assert "asset fighters.json is damaged" in text and "cut short" in text


def test_a_bundle_opens_the_window_and_says_there_why_a_file_cannot_be_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = tmp_path / "cut.hexfray"
    bad.write_text('{"format": "hexfray-battle", "schema_version": 2, "seed": ', encoding="utf-8")
    started: list[dict[str, object]] = []

    def run_gui(seed: int, **options: object) -> int:
        started.append(options)
        return 0

    monkeypatch.setattr(main, "run_gui", run_gui)
    assert main.main([str(bad)]) == main.EXIT_BAD_FILE  # from source: the terminal is told
    assert started == []
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # a bundle has no terminal
    assert main.main([str(bad)]) == 0
    (options,) = started
    assert options["open_in_window"] == bad and options["battle_file"] is None
    assert options["battle"] is None
    assert main.main(["--screenshot", str(tmp_path / "x.png"), str(bad)]) == main.EXIT_BAD_FILE


def test_the_window_tells_why_the_file_it_was_given_cannot_be_opened(
    qtbot: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    bad = tmp_path / "cut.hexfray"
    bad.write_text('{"format": "hexfray-battle", "schema_version": 2, "seed": ', encoding="utf-8")
    window = main.open_window(1, open_in_window=bad)
    problems: list[str] = []
    window.file_actions.show_problem = lambda title, text: problems.append(text)
    qtbot.waitUntil(lambda: bool(problems), timeout=10000)  # type: ignore[attr-defined]
    assert problems[0].startswith("cut.hexfray cannot be opened: ")
    assert window.file_actions.path is None and window.controller.state.combatants
    window.file_actions.stop_autosave()
    window.close()
    window.deleteLater()


def test_a_screenshot_of_a_battle_without_fighters(
    qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 23, "Inputs that hang or crash", 5: picking whom to select raised IndexError.
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    empty = Battle(BattleState(HexGrid(12, 9), ()), 5, get_ruleset)
    path = tmp_path / "empty.hexfray"
    save_battle(empty, path)
    picture = tmp_path / "empty.png"
    assert main.main(["--screenshot", str(picture), str(path)]) == 0
    assert picture.read_bytes().startswith(b"\x89PNG")
    assert pick_selection(()) is None
