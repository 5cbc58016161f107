"""Hostile files against the pure readers (issue 23, "What must hold"): the battle
file codec (``read_battle``) and seed 000's GCS reader (``read_gcs``). Each read
succeeds or raises the reader's own error with a message for the GM, within 1 s of
CPU time and 200 MB (tests/reader_fuzz.py, tests/watchdog.py). The files and readers are
tests/rules/reader_corpora.py's.

The inputs are the real files (the bundled battles, the legacy battle, the GCS
fixtures) with hostile values put at random places in them (tests/hostile_data.py),
and the same files damaged as a whole. A read that succeeds must give what the
program goes on to use: a battle that can be saved and read back and that names
a newcomer, or an imported fighter that can join a battle which then saves.
"""

from __future__ import annotations

from hypothesis import given

from rules.battle.savefile import BattleFileError
from rules.core.errors import DataError
from tests.hostile_data import HostileFile, hostile_files, mutated_files
from tests.reader_fuzz import (
    check_read,
    fuzz_settings,
    missing_fields,
    usable_battle_read,
    usable_character,
)
from tests.rules.reader_corpora import (
    BATTLE_FILES,
    BATTLES,
    CHARACTERS,
    GCS_FILES,
    OLD_FORMAT,
    gcs_fields,
    read_battle_file,
    read_character,
)

BATTLE_ERRORS = (BattleFileError,)

# --- the battle file -----------------------------------------------------------------------


def test_every_real_battle_file_reads() -> None:
    for path in BATTLE_FILES:
        data = path.read_bytes()
        outcome = check_read(
            lambda data=data: read_battle_file(data), BATTLE_ERRORS, usable=usable_battle_read
        )
        assert outcome.kind == "returned", path


@fuzz_settings(0.75)
@given(mutated_files(BATTLES, missing_fields))
def test_battle_files_with_hostile_values_deep_inside(file: HostileFile) -> None:
    check_read(lambda: read_battle_file(file.data), BATTLE_ERRORS, file.what, usable_battle_read)


@fuzz_settings(0.25)
@given(hostile_files(BATTLES))
def test_battle_files_damaged_as_a_whole(file: HostileFile) -> None:
    check_read(lambda: read_battle_file(file.data), BATTLE_ERRORS, file.what, usable_battle_read)


# --- the GCS character file ----------------------------------------------------------------


def test_every_gcs_fixture_reads() -> None:
    for path in GCS_FILES:
        data = path.read_bytes()
        outcome = check_read(
            lambda data=data: read_character(data), (DataError,), usable=usable_character
        )
        assert outcome.kind == ("raised" if path.name == OLD_FORMAT else "returned"), path


@fuzz_settings(0.75)
@given(mutated_files(CHARACTERS, gcs_fields))
def test_gcs_files_with_hostile_values_deep_inside(file: HostileFile) -> None:
    check_read(lambda: read_character(file.data), (DataError,), file.what, usable_character)


@fuzz_settings(0.25)
@given(hostile_files(CHARACTERS))
def test_gcs_files_damaged_as_a_whole(file: HostileFile) -> None:
    check_read(lambda: read_character(file.data), (DataError,), file.what, usable_character)
