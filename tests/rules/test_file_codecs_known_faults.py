"""The faults the readers' fuzz tests (tests/rules/test_file_codecs_fuzz.py) found on
main, each as the smallest file that shows it: a real file with one value changed.
Each must be read or refused as every hostile file is (tests/reader_fuzz.py).

Most are fixed: numbers bounded before they are converted and ASCII digits
(``rules.core.numbers``, ``hexmap.digits``), the byte-order mark, counts
(``rules.battle.limits``, and a GCS character's weapons), text no file can hold
(``rules.core.writable_text``), a message of one line whatever the file holds
(``rules.core.errors.DataError``), a file's size and a fighter's actions in one turn
(``rules.battle.limits.MAX_TURN_ACTIONS``: each defense looks through them), and
reading a file of the largest size or map within the second.
"""

from __future__ import annotations

import codecs

import pytest

from rules.battle.savefile import BattleFileError
from rules.core.errors import DataError
from tests.hostile_data import HostileFile, Raw, Repeated, changed_file, first_place, value_at
from tests.reader_fuzz import Case, check_read, usable_battle_read, usable_character
from tests.rules.reader_corpora import BATTLES, CHARACTERS, read_battle_file, read_character

BATTLE = "battles/evening-in-progress.hexfray"
ATTACK_AGAIN = 7  # an attack of its log that its recorded dice replay again and again
RAW_SHEET_BATTLE = "battles/demo-000.hexfray"  # its fighters' sheets are read on first use
CHARACTER = "sword_and_shield_v5.gcs"

def battle(*changes: tuple[str, str | None, object], name: str = BATTLE) -> HostileFile:
    """The battle file ``name`` with each (field, in an object with key, value) set
    at the field's first place."""
    document = BATTLES[name]
    return changed_file(
        BATTLES, name, {first_place(document, f, inside): v for f, inside, v in changes}
    )


def repeated(
    documents: dict[str, object], name: str, field: str, count: int, item: int = -1
) -> HostileFile:
    """The document with the list ``field`` (its first) grown by ``count`` copies
    of its item ``item`` (its last by default)."""
    place = first_place(documents[name], field)
    items = list(value_at(documents[name], place))
    return changed_file(documents, name, {place: [*items, Repeated(items[item], count)]})


BATTLE_CASES = [
    Case("a damage factor of 1e10000000", battle(("factor", "adds", "1e10000000"))),
    Case("a reach of 5,000 digits", battle(("reach", None, "9" * 5000))),
    Case("fixed dice written ²d", battle(("fixed", "adds", "²d"))),
    Case("fixed dice adding 5,000 digits", battle(("fixed", "adds", "1d+" + "9" * 5000))),
    Case("a fighter id c²", battle(("id", None, "c²"))),
    Case("a number of 4,301 digits", battle(("hp", None, Raw("9" * 4301)))),
    Case("a number of 4,000 digits, quoted in full", battle(("hp", None, Raw("9" * 4000)))),
    Case("a weight of 400 digits", battle(("weight", None, Raw("9" * 400)))),
    Case(
        "a skill of 1e400 in a sheet not yet read",
        battle(("Broadsword", None, Raw("1e400")), name=RAW_SHEET_BATTLE),
    ),
    Case(
        "a byte-order mark first",
        changed_file(BATTLES, BATTLE, {}, prefix=codecs.BOM_UTF8),
        must_read=True,
    ),
    Case("a fighter of 1,000 weapons", repeated(BATTLES, BATTLE, "weapons", 1_000)),
    Case("a log of 60,000 commands", repeated(BATTLES, BATTLE, "log", 60_000)),
    Case("a fighter of 100,000 weapons (33 MB)", repeated(BATTLES, BATTLE, "weapons", 100_000)),
    Case(
        "a fighter of 24,000 weapons (7.6 MB, within the size limit)",
        repeated(BATTLES, BATTLE, "weapons", 24_000),
    ),
    Case("terrain painted on 200,000 hexes", repeated(BATTLES, BATTLE, "hexes", 200_000)),
    Case(
        "terrain painted on 89,000 hexes (within the count limit)",
        repeated(BATTLES, BATTLE, "hexes", 89_000),
        must_read=True,
    ),
    Case("4,000 attacks in one turn", repeated(BATTLES, BATTLE, "log", 4_000, item=ATTACK_AGAIN)),
    Case("a fighter named with half a surrogate pair", battle(("name", "weapons", "Bra\ud800nn"))),
    Case("a key with a line break", battle(("Broad\nsword", "adds", 1))),
]


@pytest.mark.parametrize(("file", "must_read"), [case.param for case in BATTLE_CASES])
def test_battle_file(file: HostileFile, must_read: bool) -> None:
    outcome = check_read(
        lambda: read_battle_file(file.data), (BattleFileError,), file.what, usable_battle_read
    )
    assert outcome.kind == "returned" or not must_read, outcome.describe()


def character(*changes: tuple[str, str | None, object]) -> HostileFile:
    document = CHARACTERS[CHARACTER]
    return changed_file(
        CHARACTERS, CHARACTER, {first_place(document, f, inside): v for f, inside, v in changes}
    )


def fixed_damage(dice: str) -> tuple[tuple[str, str, object], ...]:
    """A weapon's damage as fixed dice (no "st" to base it on), written ``dice``."""
    return (("st", "base", ""), ("base", "base", dice))


GCS_CASES = [
    Case("a version of 4,301 digits", character(("version", None, Raw("9" * 4301)))),
    Case("a quantity of 4,000 digits, quoted", character(("quantity", None, Raw("9" * 4000)))),
    Case("fixed damage adding 5,000 digits", character(*fixed_damage("1d+" + "9" * 5000))),
    Case("a reach of 5,000 digits", character(("reach", "usage", "9" * 5000))),
    Case(
        "10,000 weapons",
        repeated(CHARACTERS, CHARACTER, "weapons", 10_000),
    ),
    Case("a name with half a surrogate pair", character(("name", "handedness", "Bra\ud800nn"))),
]


@pytest.mark.parametrize(("file", "must_read"), [case.param for case in GCS_CASES])
def test_gcs_file(file: HostileFile, must_read: bool) -> None:
    outcome = check_read(
        lambda: read_character(file.data), (DataError,), file.what, usable_character
    )
    assert outcome.kind == "returned" or not must_read, outcome.describe()
