"""Hostile files against the program's readers (issue 23, "What must hold"): the
GM's templates, the autosave journal, a character file imported through the app,
a battle file opened from disk, and the settings. Each read succeeds or raises the
reader's own error with a message for the GM, within 1 s of CPU time and 200 MB
(tests/reader_fuzz.py, tests/watchdog.py). The pure codecs under them (the battle
file, GCS) are fuzzed in tests/rules/test_file_codecs_fuzz.py.

The readers and the real files they are given are tests/app/app_readers.py's: what
a successful read gives must be usable (a template's fighter joins a battle and the
template saves again, a restored battle saves, the last New Battle set-up makes a
battle that saves).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QApplication

from app.controller import BattleController
from app.files import BattleFileError
from app.main_window import GEOMETRY_KEY, LEGEND_FOLDED_KEY, STATE_KEY, MainWindow, load_demo_battle
from app.map.animation import SETTINGS_KEY as ANIMATIONS_KEY
from app.new_battle import new_battle
from app.templates import TemplateFileError
from app.user_dirs import settings_at
from rules.core.errors import DataError
from tests.app.app_readers import (
    JOURNALS,
    LAST_SETUP,
    SETTINGS,
    TEMPLATES,
    WORK,
    folder,
    import_character,
    open_battle_file,
    read_journal,
    read_settings,
    read_template,
    render_journal,
    settings_files,
    settings_text,
    template_key,
    usable_journal_read,
    usable_settings_read,
    usable_template_read,
)
from tests.hostile_data import HostileFile, hostile_files, mutated_files, render
from tests.reader_fuzz import (
    check_read,
    fuzz_settings,
    missing_fields,
    usable_battle,
    usable_battle_read,
)
from tests.rules.reader_corpora import BATTLES, CHARACTERS, gcs_fields
from tests.watchdog import run_guarded

BATTLE_ERRORS = (BattleFileError,)
TEMPLATE_ERRORS = (TemplateFileError,)
IMPORT_ERRORS = (DataError,)

# --- templates --------------------------------------------------------------------------------


def check_template(file: HostileFile) -> None:
    key = template_key(file.source)
    read = lambda: read_template(file.data, key)  # noqa: E731
    check_read(read, TEMPLATE_ERRORS, file.what, usable_template_read)


def test_every_template_as_the_gms_own_reads() -> None:
    for name, document in TEMPLATES.items():
        data, key = render(document), template_key(name)
        read = lambda data=data, key=key: read_template(data, key)  # noqa: E731
        outcome = check_read(read, TEMPLATE_ERRORS, usable=usable_template_read)
        assert outcome.kind == "returned", name


@fuzz_settings(0.75)
@given(mutated_files(TEMPLATES, missing_fields))
def test_templates_with_hostile_values_deep_inside(file: HostileFile) -> None:
    check_template(file)


@fuzz_settings(0.25)
@given(hostile_files(TEMPLATES))
def test_templates_damaged_as_a_whole(file: HostileFile) -> None:
    check_template(file)


# --- the autosave journal ---------------------------------------------------------------------


def test_every_journal_restores() -> None:
    for name, lines in JOURNALS.items():
        data = render_journal(lines, True)
        read = lambda data=data: read_journal(data)  # noqa: E731
        outcome = check_read(read, BATTLE_ERRORS, usable=usable_journal_read)
        assert outcome.kind == "returned" and outcome.value != "nothing to restore", name


@fuzz_settings(0.75)
@given(mutated_files(JOURNALS, missing_fields, render_journal))
def test_journals_with_hostile_values_deep_inside(file: HostileFile) -> None:
    check_read(lambda: read_journal(file.data), BATTLE_ERRORS, file.what, usable_journal_read)


@fuzz_settings(0.25)
@given(hostile_files(JOURNALS, to_bytes=render_journal))
def test_journals_damaged_as_a_whole(file: HostileFile) -> None:
    check_read(lambda: read_journal(file.data), BATTLE_ERRORS, file.what, usable_journal_read)


# --- a character file imported through the app, a battle file opened from disk ------------


@fuzz_settings(0.25)
@given(st.one_of(mutated_files(CHARACTERS, gcs_fields), hostile_files(CHARACTERS)))
def test_character_files_imported_to_a_template(file: HostileFile) -> None:
    read = lambda: import_character(file.data)  # noqa: E731
    check_read(read, IMPORT_ERRORS, file.what, usable_template_read)


@fuzz_settings(0.15)
@given(hostile_files(BATTLES))
def test_battle_files_opened_from_disk(file: HostileFile) -> None:
    check_read(lambda: open_battle_file(file.data), BATTLE_ERRORS, file.what, usable_battle_read)


# --- the settings -----------------------------------------------------------------------------


def test_the_settings_as_written_read_back() -> None:
    written = settings_text(SETTINGS)
    outcome = check_read(lambda: read_settings(written), (), usable=usable_settings_read)
    assert outcome.value == "the set-up as written", outcome.describe()
    # Two sides of one starting fighter each: two AddCombatant commands.
    assert usable_battle(new_battle(LAST_SETUP)) == "a battle of 2 commands"


@fuzz_settings(1.0)
@given(settings_files())
def test_settings_files_with_hostile_values(file: HostileFile) -> None:
    check_read(lambda: read_settings(file.data), (), file.what, usable_settings_read)


def window_started_on(layout: bytes) -> str:
    """A window started as the program starts it, on settings whose saved layout
    (geometry and dock state) and view settings are ``layout``'s bytes."""
    with folder() as where:
        path = where / "settings.ini"
        store = settings_at(path)
        for key in (GEOMETRY_KEY, STATE_KEY):
            store.setValue(key, QByteArray(layout))
        for key in (LEGEND_FOLDED_KEY, ANIMATIONS_KEY):
            store.setValue(key, layout.decode("latin-1"))
        store.sync()
        window = MainWindow(BattleController(load_demo_battle()), settings_at(path))
        window.show()
        QApplication.processEvents()
        return f"layout restored: {window.restore_layout()}"


def test_a_window_starts_on_any_saved_layout(qapp: QApplication) -> None:
    """The saved layout goes to Qt's own readers (``restoreGeometry``,
    ``restoreState``): whatever bytes the settings hold there, the window starts.
    A real layout with a count made huge at several places, cut short, and bytes
    that are no layout; a window takes more than a reader's second to build."""
    window = MainWindow(BattleController(load_demo_battle()), settings_at(WORK / "real.ini"))
    real = bytes(window.saveState(1))
    window.close()
    huge = b"\x7f\xff\xff\xff"
    layouts = [
        *(real[:at] + huge + real[at + 4 :] for at in range(8, len(real) - 4, len(real) // 4)),
        real[: len(real) // 2],
        bytes(range(256)),
        b"",
    ]
    for layout in layouts:
        outcome = run_guarded(lambda layout=layout: window_started_on(layout), cpu_seconds=10)
        assert outcome.kind == "returned", f"{layout[:40]!r}: {outcome.describe()}"
