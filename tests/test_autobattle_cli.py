"""``main.py autobattle FILE.hexfray``: a saved battle played to its end without a
window; the winner, the rounds and each fighter's end state, one line each or one
JSON object; a bad file is one line and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import main
from app.files import open_battle

DEMO_000 = Path(__file__).resolve().parents[1] / "assets" / "battles" / "demo-000.hexfray"


def test_the_seed_000_demo_is_played_and_saved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "played.hexfray"
    assert main.main(["autobattle", str(DEMO_000), "--save", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Winner: The Duke's guard"
    assert lines[1].startswith("Rounds: ")
    assert len(lines) == 2 + 4  # one line per fighter
    assert any("out of the fight" in line for line in lines[2:])
    saved = open_battle(out)  # it replays
    assert saved.state.outcome is not None and saved.state.outcome.winner is not None


def test_json_with_a_seed_and_a_round_limit(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["autobattle", str(DEMO_000), "--json", "--seed", "7", "--max-rounds", "1"]
    assert main.main(args) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1
    result = json.loads(printed[0])
    assert result["rounds"] == 1 and result["refused"] == []
    assert not result["decided"] and result["winner"] is None
    assert [f["id"] for f in result["fighters"]] == ["c1", "c2", "c3", "c4"]
    assert main.main(args) == 0
    assert json.loads(capsys.readouterr().out) == result  # the same seed, the same battle


def test_a_bad_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.hexfray"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    assert main.main(["autobattle", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1 and "cannot open" in captured.err
    assert main.main(["autobattle", str(tmp_path / "missing.hexfray")]) == 2
