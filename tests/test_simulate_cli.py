"""``main.py simulate FILE.hexfray``: the summary on stdout, the progress bar on
stderr, per-battle CSV rows, --until-ci, sweeps; a bad file or argument is one
line on stderr and exit status 2. (In this process, --workers 1: the backends'
equality is tests/rules/test_sim_backends.py.)"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import main
from app.files import open_battle, save_battle
from app.simulate_cli import parse_args
from rules.battle.battle import Battle
from rules.sets.registry import get_ruleset
from rules.sim.duel import duel_of
from rules.sim.runner import batch_size
from rules.sim.seeds import battle_seed

BATTLES = Path(__file__).resolve().parents[1] / "assets" / "battles"


@pytest.fixture(scope="module")
def duel_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Seed 003's demo duel (the Barbarian against the Swordsman): quick battles."""
    path = tmp_path_factory.mktemp("sim") / "duel.hexfray"
    state = duel_of(open_battle(BATTLES / "demo-003.hexfray").state)
    save_battle(Battle(state, 0, get_ruleset), path)
    return path


def simulate(*args: str) -> int:
    return main.main(["simulate", *args])


def test_summary_on_stdout_progress_on_stderr_rows_in_csv(
    duel_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows_file = tmp_path / "rows.csv"
    args = [str(duel_file), "--runs", "4", "--seed", "5", "--max-rounds", "2", "--workers", "1"]
    assert simulate(*args, "--csv", str(rows_file)) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith("4 battles in ")
    assert lines[1] == "Battles: 4"
    assert any(line.startswith("Raiders wins: ") and "95% CI" in line for line in lines)
    assert "Barbarian (Raiders):" in captured.out and "Swordsman (Ford wardens):" in captured.out
    assert "4/4" in captured.err
    assert "battle/s" in captured.err or "s/battle" in captured.err  # the rate
    with rows_file.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["battle"]) for r in rows] == [0, 1, 2, 3]
    assert [int(r["seed"]) for r in rows] == [battle_seed(5, i) for i in range(4)]
    assert {r["Barbarian end"] for r in rows} <= {"standing", "unconscious", "dead"}
    assert all(r["rounds"] in ("1", "2") for r in rows)
    assert all(r["rounds"] == "2" for r in rows if r["stopped"] == "1")
    # the summary counts the battles the rows say stopped at the round limit
    stopped = sum(r["stopped"] == "1" for r in rows)
    assert f"stopped at the round limit: {stopped} = {stopped / 4:.1%}" in captured.out


def test_json_repeats_with_the_seed(duel_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(duel_file), "--runs", "3", "--seed", "8", "--max-rounds", "1", "--workers", "1"]
    assert simulate(*args, "--json") == 0
    first = json.loads(capsys.readouterr().out)
    assert simulate(*args, "--json") == 0
    second = json.loads(capsys.readouterr().out)
    for run in (first, second):
        del run["seconds"], run["battles_per_s"]
    assert first == second
    assert first["battles"] == 3 and set(first["wins"]) == {"red", "blue"}
    assert first["side_names"] == {"red": "Raiders", "blue": "Ford wardens"}
    decided = sum(first["wins"][side]["count"] for side in ("red", "blue"))
    assert first["stopped"]["count"] + decided + first["draws"]["count"] == 3


def test_until_ci_stops_once_the_intervals_are_narrow_enough(
    duel_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Any interval is at most 1 wide: the run stops after its first batch.
    args = [str(duel_file), "--runs", "64", "--seed", "1", "--max-rounds", "1", "--workers", "1"]
    assert simulate(*args, "--until-ci", "1", "--json") == 0
    result = json.loads(capsys.readouterr().out)
    assert result["settled"] and result["battles"] == batch_size(64) < 64


def test_a_sweep_prints_a_row_per_value_and_writes_them(
    duel_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "sweep.csv"
    args = [str(duel_file), "--runs", "2", "--seed", "4", "--max-rounds", "1", "--workers", "1"]
    assert simulate(*args, "--sweep", "Barbarian.strength=good,superb", "--csv", str(table)) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Sweep of Barbarian's strength (win rates with 95% intervals)"
    assert out[1].split()[:2] == ["strength", "battles"]
    assert [line.split()[:2] for line in out[2:]] == [["good", "2"], ["superb", "2"]]
    with table.open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0][:3] == ["strength", "battles", "Raiders wins"]
    assert [r[0] for r in rows[1:]] == ["good", "superb"]


BAD_ARGUMENTS = [
    ["--runs", "0", "--seed", "1"],
    ["--runs", "9" * 5000, "--seed", "1"],  # refused before int()
    ["--runs", "5", "--seed", "-1"],
    ["--runs", "5", "--seed", "1", "--until-ci", "0"],
    ["--runs", "5", "--seed", "1", "--until-ci", "1e999999999"],  # refused before float()
    ["--runs", "5", "--seed", "1", "--until-ci", "2"],
    ["--runs", "5", "--seed", "1", "--workers", "0"],
    ["--runs", "5", "--seed", "1", "--workers", "2", "--scheduler", "tcp://h:8786"],
    ["--runs", "5", "--seed", "1", "--scheduler", "not an address"],
    ["--runs", "5", "--seed", "1", "--sweep", "Fencer.skill"],
    ["--runs", "5", "--seed", "1", "--max-rounds", "0"],
    ["--seed", "1"],
    ["--runs", "5"],
]


@pytest.mark.parametrize("arguments", BAD_ARGUMENTS)
def test_a_bad_argument_is_one_line_and_status_2(
    duel_file: Path, arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        simulate(str(duel_file), *arguments)
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1


def test_a_bad_file_or_sweep_is_one_line_and_status_2(
    duel_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.hexfray"
    bad.write_text('{"format": "something else"}', encoding="utf-8")
    plain = ["--runs", "2", "--seed", "1", "--workers", "1"]
    cases = [
        [str(bad), *plain],
        [str(tmp_path / "missing.hexfray"), *plain],
        [str(duel_file), *plain, "--sweep", "Nobody.skill=1..3"],
        [str(duel_file), *plain, "--sweep", "Barbarian.strength=mighty"],
        [str(duel_file), *plain, "--csv", str(tmp_path / "no" / "such" / "folder.csv")],
    ]
    for case in cases:
        assert simulate(*case) == 2, case
        captured = capsys.readouterr()
        assert captured.out == "" and len(captured.err.splitlines()) == 1, case


OPTION = st.sampled_from(
    ["--runs", "--seed", "--workers", "--scheduler", "--until-ci", "--max-rounds", "--sweep"]
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(OPTION, st.text(max_size=60)), max_size=5))
def test_any_arguments_are_read_or_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], options: list[tuple[str, str]]
) -> None:
    argv = ["duel.hexfray", "--runs", "3", "--seed", "2"]
    for option, value in options:
        argv += [option, value]
    try:
        args = parse_args(argv)
    except SystemExit as stop:
        assert stop.code == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
        return
    assert args.runs >= 1 and args.seed >= 0
    assert args.until_ci is None or 0 < args.until_ci <= 1
