"""``python main.py --import-gcs FILE.gcs --to-template NAME``: a batch import
without a window. The character becomes the GM's template NAME in the user data
folder (HEXFRAY_HOME here), read back by app.templates as the library loads it;
one line says what was written and what was left out. A file that cannot be read
or imported ends the program with status 2 and one line on stderr, never a
traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.new_battle import new_combatant
from app.templates import load_library
from app.user_dirs import templates_dir
from hexmap import Handedness, Hex
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.sets.seed000.gcs_import import read_gcs
from tests.rules.test_history import demo_battle

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "data" / "gcs"


def run_python(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**env, "HEXFRAY_HOME": str(home)},
        check=False,
    )


def run_import(source: Path, name: str, home: Path) -> subprocess.CompletedProcess[str]:
    return run_python(
        str(ROOT / "main.py"), "--import-gcs", str(source), "--to-template", name, home=home
    )


def import_aldo(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> subprocess.CompletedProcess[str]:
    """The batch import of Ser Aldo's file as the template ``name``, in a home of
    the test's, which the test then reads as its own (HEXFRAY_HOME)."""
    home = tmp_path / "home"
    result = run_import(FIXTURES / "sword_and_shield_v5.gcs", name, home)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    monkeypatch.setenv("HEXFRAY_HOME", str(home))
    return result


def test_a_gcs_file_becomes_a_custom_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = import_aldo("Ser Aldo", tmp_path, monkeypatch)
    written = templates_dir() / "ser-aldo.json"
    imported = read_gcs((FIXTURES / "sword_and_shield_v5.gcs").read_bytes())
    assert result.stdout.splitlines() == [
        f"wrote template 'Ser Aldo' to {written} from sword_and_shield_v5.gcs; "
        f"left out {len(imported.skipped)}: " + "; ".join(imported.skipped)
    ]
    assert "spells (seed 000 has no magic): Light" in result.stdout
    library = load_library()
    assert library.problems == ()
    template = library.template("custom:ser-aldo")
    assert template is not None and template.custom
    assert template.fighter == imported.fighter


def test_the_template_takes_the_name_given_and_its_fighter_keeps_the_characters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = import_aldo("Shield wall", tmp_path, monkeypatch)
    written = templates_dir() / "shield-wall.json"
    assert result.stdout.startswith(
        f"wrote template 'Shield wall' (its fighter: 'Ser Aldo') to {written} from "
        "sword_and_shield_v5.gcs; left out "
    )
    template = load_library().template("custom:shield-wall")
    assert template is not None
    assert (template.name, template.fighter.name) == ("Shield wall", "Ser Aldo")
    assert template.fighter == read_gcs((FIXTURES / "sword_and_shield_v5.gcs").read_bytes()).fighter
    # Placed in a battle, the fighter is Ser Aldo.
    battle = demo_battle(2)
    placed = new_combatant(
        battle.state, template, Side.BLUE, Hex.from_offset(1, 1), Handedness.RIGHT
    )
    battle.execute(AddCombatant(placed))
    assert battle.state.combatant(placed.id).name == "Ser Aldo"


def test_a_second_batch_of_the_same_name_writes_a_second_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    document = json.loads((FIXTURES / "no_weapons_v3.gcs").read_text(encoding="utf-8"))
    document.pop("traits", None)
    document.pop("advantages", None)  # its only trait has no seed 000 effect
    source = tmp_path / "scribe.gcs"
    source.write_text(json.dumps(document), encoding="utf-8")
    first = run_import(source, "Scribe", home)
    second = run_import(source, "Scribe", home)
    assert (first.returncode, second.returncode) == (0, 0)
    assert first.stdout.strip().endswith("from scribe.gcs; nothing was left out")
    assert "scribe.json" in first.stdout and "scribe-2.json" in second.stdout


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("version1.gcs", "cannot import {path}: this is a version 1 GCS file"),
        ("old_format.gcs", "cannot import {path}: this is a character file of the old XML"),
        ("no_such_file.gcs", "cannot use {path}: No such file or directory"),
        ("notes.txt", "cannot import {path}: no ruleset of Hexfray imports .txt files"),
        ("broken.gcs", "cannot import {path}: not a GCS character file: not JSON"),
    ],
)
def test_a_file_that_cannot_be_imported_exits_with_status_2_and_one_line(
    tmp_path: Path, source: str, message: str
) -> None:
    path = FIXTURES / source
    if source in ("notes.txt", "broken.gcs"):
        path = tmp_path / source
        path.write_text('{"version": 5, "profile": ', encoding="utf-8")
    home = tmp_path / "home"
    result = run_import(path, "Whoever", home)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("hexfray: " + message.format(path=path))
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert not (home / "data" / "templates").exists() or not any(
        (home / "data" / "templates").iterdir()
    )


def test_a_huge_or_endless_file_is_refused_without_reading_it_all(tmp_path: Path) -> None:
    huge = tmp_path / "huge.gcs"
    with huge.open("wb") as file:
        file.truncate(200 * 1024 * 1024)  # sparse: 200 MB of zeros on no disk space
    result = run_import(huge, "Huge", tmp_path / "home")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"hexfray: cannot import {huge}: the file is too large for a character file "
        "(200 MB; at most 16 MB)"
    ]
    zeros = tmp_path / "zeros.gcs"
    zeros.symlink_to("/dev/zero")  # a file without end
    endless = run_import(zeros, "Zero", tmp_path / "home")
    assert endless.returncode == 2
    assert endless.stderr.splitlines() == [
        f"hexfray: cannot import {zeros}: the file is not a regular file (a device)"
    ]


def test_the_batch_needs_no_application_and_no_display(tmp_path: Path) -> None:
    source = FIXTURES / "two_handed_v4.gcs"
    script = (
        "import sys, main\n"
        "from PySide6.QtCore import QCoreApplication\n"
        f"code = main.main(['--import-gcs', {str(source)!r}, '--to-template', 'Brunhild'])\n"
        "assert QCoreApplication.instance() is None\n"
        "sys.exit(code)\n"
    )
    result = run_python("-c", script, home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("wrote template 'Brunhild'")


def test_the_two_options_go_together(tmp_path: Path) -> None:
    result = run_python(
        str(ROOT / "main.py"), "--import-gcs", str(FIXTURES / "fencer_v2.gcs"), home=tmp_path
    )
    assert result.returncode == 2
    assert "--import-gcs and --to-template go together" in result.stderr


def test_a_character_too_large_for_a_template_leaves_no_file_behind(tmp_path: Path) -> None:
    # Issue 23, "Inputs that hang or crash", 5: the 2 MB template was written, then
    # refused when read back, and every start listed it as a problem.
    sheet = json.loads((FIXTURES / "sword_and_shield_v5.gcs").read_text(encoding="utf-8"))
    lore = [
        {"id": f"s{n:016d}", "name": f"Lore {n} " + "of far lands " * 12, "calc": {"level": 12}}
        for n in range(8000)
    ]
    sheet["skills"].extend(lore)
    source = tmp_path / "scholar.gcs"
    source.write_text(json.dumps(sheet), encoding="utf-8")
    home = tmp_path / "home"
    result = run_import(source, "Scholar", home)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"hexfray: cannot import {source}: the template would take 1.3 MB; a template "
        "takes at most 1 MB"
    ]
    templates = home / "data" / "templates"
    assert list(templates.iterdir()) == []
    assert load_library(templates).problems == ()
