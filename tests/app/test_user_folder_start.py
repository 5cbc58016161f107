"""A user folder that cannot be made (issue 23, "Inputs that hang or crash", 4):
``HEXFRAY_HOME`` under a regular file gave two tracebacks and no window, since
main.py caught only ``DataError``. Now every mode that uses the user folders says
in one line on stderr which folder cannot be made and why, and ends with status
2; a bundle's window, which has no terminal, shows it in a dialog too."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QWidget

import main
from tests.app.test_files_command_line import run_main

ROOT = Path(__file__).resolve().parents[2]
GCS = ROOT / "tests" / "data" / "gcs" / "sword_and_shield_v5.gcs"


@pytest.mark.parametrize(
    ("args", "folder"),
    [
        ((), "config"),
        (("--screenshot", "{tmp}/x.png"), "config"),
        (("--import-gcs", str(GCS), "--to-template", "Aldo"), "data"),
    ],
    ids=["window", "screenshot", "import"],
)
def test_a_home_under_a_file_ends_the_program_with_one_line_and_status_2(
    tmp_path: Path, args: tuple[str, ...], folder: str
) -> None:
    in_the_way = tmp_path / "notes.txt"
    in_the_way.write_text("a file, not a folder\n", encoding="utf-8")
    home = in_the_way / "hexfray"
    result = run_main(*(a.format(tmp=tmp_path) for a in args), home=home)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"hexfray: cannot make the user folder {home / folder}: {in_the_way} is a file, "
        f"not a folder (HEXFRAY_HOME is {home})"
    ]
    assert result.stdout == ""
    assert in_the_way.read_text(encoding="utf-8") == "a file, not a folder\n"


def test_the_rulesets_are_listed_whatever_the_user_folders(tmp_path: Path) -> None:
    in_the_way = tmp_path / "notes.txt"
    in_the_way.touch()
    result = run_main("--list-rulesets", home=in_the_way / "hexfray")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("000  ")


def test_a_bundle_says_in_a_dialog_which_folder_cannot_be_made(
    qapp: object,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    in_the_way = tmp_path / "notes.txt"
    in_the_way.touch()
    monkeypatch.setenv("HEXFRAY_HOME", str(in_the_way / "hexfray"))
    shown: list[tuple[str, str]] = []

    def critical(parent: QWidget | None, title: str, text: str) -> None:
        shown.append((title, text))

    monkeypatch.setattr(QMessageBox, "critical", critical)
    monkeypatch.setattr(sys, "frozen", True, raising=False)  # double-clicked: no terminal
    assert main.main([]) == 2
    ((title, text),) = shown
    assert title == "Hexfray cannot start"
    assert f"{in_the_way} is a file, not a folder" in text
    assert capsys.readouterr().err.startswith("hexfray: cannot make the user folder ")
