"""The settings file is checked before Qt reads it (app.user_dirs.settings_at,
app.settings_file): a line in Qt's variant syntax asking for a list of two billion
values made Qt abort the program (``std::bad_alloc``) at every start, however it was
spelled. Such a file is left alone and the program runs on its defaults for the
session; Hexfray's own files are read as they are. Each start runs in a forked child
(tests/watchdog.py), so that an abort fails the test instead of ending the test
process."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import user_dirs
from app.file_actions import RECENT_KEY, read_recent_files
from app.preferences import DiceMode, Preferences, read_preferences, write_preferences
from app.settings_file import qt_variant_problem
from tests.watchdog import run_guarded

# A list of 2**31 - 1 values, in Qt's variant syntax, and the same spelled with
# the escapes Qt's INI format reads ("\x40" and "\100" are "@").
HUGE_LIST = "@Variant(\\0\\0\\0\\t\\x7f\\xff\\xff\\xff)"
SPELLINGS = (
    HUGE_LIST,
    f'"{HUGE_LIST}"',
    f"a, {HUGE_LIST}",
    "\\x40" + HUGE_LIST[1:],
    "\\x0040" + HUGE_LIST[1:],
    "\\100" + HUGE_LIST[1:],
)


def preferences_at_start() -> str:
    """What the window does first: read the preferences from the program's settings."""
    store = user_dirs.settings()
    preferences = read_preferences(store)
    recent = ", ".join(str(p) for p in read_recent_files(store)) or "no recent files"
    return f"{preferences.dice_mode.value}; {recent}"


@pytest.mark.parametrize("value", SPELLINGS)
def test_settings_in_qts_variant_syntax_are_left_alone_and_the_program_starts(
    value: str,
) -> None:
    path = user_dirs.settings_path()
    text = f"[dice]\nmode=physical\n[colours]\nside\\red={value}\n[files]\nrecent=/a.hexfray\n"
    path.write_text(text)
    outcome = run_guarded(preferences_at_start)
    assert outcome.kind == "returned", outcome.describe()
    assert outcome.value == "computer; no recent files"  # nothing of the file was read
    assert path.read_text() == text
    assert qt_variant_problem(text.encode()) is not None


def test_the_settings_hexfray_writes_are_read_as_they_are(tmp_path: Path) -> None:
    path = tmp_path / "settings.ini"
    store = user_dirs.settings_at(path)
    write_preferences(store, Preferences(dice_mode=DiceMode.PHYSICAL))
    store.setValue(RECENT_KEY, ["/battles/@Variant/evening.hexfray"])
    store.sync()
    assert qt_variant_problem(path.read_bytes()) is None
    again = user_dirs.settings_at(path)
    assert Path(again.fileName()) == path
    assert read_preferences(again).dice_mode is DiceMode.PHYSICAL
    assert read_recent_files(again) == (Path("/battles/@Variant/evening.hexfray"),)
