"""The faults the app's readers' fuzz tests (tests/app/test_readers_fuzz.py) found
on main, each as the smallest file that shows it. Each must be read or refused as
every hostile file is (tests/reader_fuzz.py); a file the issue says to accept
(``must_read``) must be read.

Most are fixed (numbers and digits, the byte-order mark, counts, a GCS character's
weapons, text no file can hold, the autosave's lines read as strictly as a battle
file, the last New Battle set-up read whatever the settings hold, a fighter's
actions in one turn bounded, a megabyte of small entries read well within the
time: the codec's reader of each type made once, a stroke's hexes painted with
few hashes). Those still open are expected to fail, with the reason
(``Case.open_fault``).
"""

from __future__ import annotations

import codecs
import json

import pytest

from app.file_actions import RECENT_KEY
from app.files import BattleFileError
from app.new_battle import LAST_SETUP_KEY
from app.templates import TemplateFileError
from rules.battle.limits import MAX_MAP_SIDE
from rules.battle.values import TYPE_KEY
from rules.core.errors import DataError
from tests.app.app_readers import (
    JOURNALS,
    LAST_SETUP_DOCUMENT,
    SETTINGS,
    TEMPLATES,
    import_character,
    open_battle_file,
    read_journal,
    read_settings,
    read_template,
    render_journal,
    settings_text,
    template_key,
    usable_journal_read,
    usable_settings_read,
    usable_template_read,
)
from tests.hostile_data import (
    HostileFile,
    Raw,
    Repeated,
    changed_file,
    first_place,
    render,
    value_at,
)
from tests.reader_fuzz import Case, check_read, usable_battle_read
from tests.rules.reader_corpora import BATTLES, CHARACTERS

SAVED_SHEET = "saved-fencer.json"  # a 000 template as the GM's saved sheet
FIGHTER_FORM = "brawler.json"
HUGE, DIGITS = "1e10000000", Raw("9" * 4301)


def template(name: str, *changes: tuple[str, str | None, object]) -> HostileFile:
    document = TEMPLATES[name]
    return changed_file(
        TEMPLATES, name, {first_place(document, f, inside): v for f, inside, v in changes}
    )


def grown(documents: dict[str, object], name: str, field: str, count: int) -> HostileFile:
    """The document with the list ``field`` (its first) grown to ``count`` items."""
    place = first_place(documents[name], field)
    items = list(value_at(documents[name], place))
    return changed_file(documents, name, {place: [*items, Repeated(items[-1], count)]})


TEMPLATE_CASES = [
    Case("a damage factor of 1e10000000", template(SAVED_SHEET, ("factor", "adds", HUGE))),
    Case("a version of 4,301 digits", template(FIGHTER_FORM, ("version", None, DIGITS))),
    Case(
        "a byte-order mark first",
        changed_file(TEMPLATES, FIGHTER_FORM, {}, prefix=codecs.BOM_UTF8),
        must_read=True,
    ),
    Case("100,000 weapons", grown(TEMPLATES, FIGHTER_FORM, "weapons", 100_000)),
    Case("a name with half a surrogate pair", template(SAVED_SHEET, ("name", None, "Bra\ud800nn"))),
]


@pytest.mark.parametrize(("file", "must_read"), [case.param for case in TEMPLATE_CASES])
def test_template(file: HostileFile, must_read: bool) -> None:
    key = template_key(file.source)
    read = lambda: read_template(file.data, key)  # noqa: E731
    outcome = check_read(read, (TemplateFileError,), file.what, usable_template_read)
    assert outcome.kind == "returned" or not must_read, outcome.describe()


JOURNAL = "journal of evening-in-progress"
NEWCOMERS = "journal of demo-003"  # its battle's third command brings a fighter in
STROKE = "PaintTerrain"  # the terrain brush: its command lists the hexes it paints


def newcomers_of_many_skills() -> HostileFile:
    """The journal's battle with its newcomer's skills grown to 1,003 and its log
    grown to 73 commands by that newcomer again and again (the second is
    refused: a fighter of that id is on the map, so it is restored in part)."""
    header, *changes = JOURNALS[NEWCOMERS]  # type: ignore[misc]
    hostile = json.loads(json.dumps(header))
    log = hostile["battle"]["log"]
    skills = log[2]["command"]["combatant"]["fighter"]["stats"]["skills"]
    skills.extend([skills[-1]] * (1003 - len(skills)))
    log.extend([log[-1]] * (73 - len(log)))
    what = "its newcomer of 1,003 skills 71 times"
    return HostileFile(render_journal([hostile, *changes], True), f"{NEWCOMERS}; {what}")


def journal(lines: list[object], what: str) -> HostileFile:
    return HostileFile(render_journal(lines, True), f"{JOURNAL}; {what}")


def strokes_of_one_hex_again_and_again() -> HostileFile:
    """The journal's battle with the hexes of its first two strokes grown to 52,000
    by their last hex again and again (2.4 MB; the 50,000-example hand run's)."""
    header, *changes = JOURNALS[JOURNAL]  # type: ignore[misc]
    hostile = json.loads(json.dumps(header))
    strokes = [e for e in hostile["battle"]["log"] if e["command"][TYPE_KEY] == STROKE][:2]
    for entry in strokes:
        hexes = entry["command"]["hexes"]
        hexes.append(Repeated(hexes[-1], 52_000 - len(hexes)))
    return journal([hostile, *changes], "two strokes of 52,000 hexes")


def stroke_over_the_largest_map() -> HostileFile:
    """The journal's battle on the largest map (``MAX_MAP_SIDE`` a side) with its
    first stroke over every hex of it, 90,000 distinct ones (2.3 MB); two small
    strokes come after it."""
    header, *changes = JOURNALS[JOURNAL]  # type: ignore[misc]
    hostile = json.loads(json.dumps(header))
    hostile["battle"]["initial_state"]["grid"] = {"height": MAX_MAP_SIDE, "width": MAX_MAP_SIDE}
    stroke = next(e for e in hostile["battle"]["log"] if e["command"][TYPE_KEY] == STROKE)
    side = range(MAX_MAP_SIDE)
    stroke["command"]["hexes"] = [{"col": col, "row": row} for col in side for row in side]
    return journal([hostile, *changes], f"a stroke over every hex of a {MAX_MAP_SIDE}-hex map")


def _journal_cases() -> list[Case]:
    header, *changes = JOURNALS[JOURNAL]  # type: ignore[misc]
    deep_header = Raw("[" * 100_000 + "]" * 100_000)
    factor = first_place(header, "factor", inside="adds")
    hostile_header = json.loads(json.dumps(header))
    value_at(hostile_header, factor[:-1])[factor[-1]] = "1e10000000"
    attack = next(line for line in changes if "Attack" in json.dumps(line))
    return [
        Case("71 newcomers of 1,003 skills each (1 MB)", newcomers_of_many_skills()),
        Case("two strokes of 52,000 hexes (2.4 MB)", strokes_of_one_hex_again_and_again()),
        Case("a stroke over the largest map's 90,000 hexes", stroke_over_the_largest_map()),
        Case("a first line nested 100,000 deep", journal([deep_header, *changes], "deep")),
        Case(
            "a damage factor of 1e10000000 in its battle",
            journal([hostile_header, *changes], f"{factor} = '1e10000000'"),
        ),
        Case(
            "4,000 attacks in one turn",
            journal([header, *changes, Repeated(attack, 4_000)], "an attack 4,000 times"),
        ),
        Case(
            "a byte-order mark first",
            HostileFile(codecs.BOM_UTF8 + render_journal([header, *changes], True), "a BOM"),
        ),
    ]


@pytest.mark.parametrize(("file", "must_read"), [case.param for case in _journal_cases()])
def test_journal(file: HostileFile, must_read: bool) -> None:
    read = lambda: read_journal(file.data)  # noqa: E731
    outcome = check_read(read, (BattleFileError,), file.what, usable_journal_read)
    assert outcome.kind == "returned" or not must_read, outcome.describe()


CHARACTER = "sword_and_shield_v5.gcs"


def _large_character() -> HostileFile:
    """A character of 3,000 weapons, whose template would be over 1 MB."""
    document = CHARACTERS[CHARACTER]
    place = first_place(document, "equipment")
    items = list(value_at(document, place))
    armed = next(item for item in items if "weapons" in item)
    return changed_file(CHARACTERS, CHARACTER, {place: [*items, Repeated(armed, 3_000)]})


IMPORT_CASES = [
    Case("a character of 3,000 weapons, whose template would be over 1 MB", _large_character()),
    Case(
        "a name with half a surrogate pair",
        changed_file(
            CHARACTERS,
            CHARACTER,
            {first_place(CHARACTERS[CHARACTER], "name", "handedness"): "Bra\ud800nn"},
        ),
    ),
]


@pytest.mark.parametrize(("file", "must_read"), [case.param for case in IMPORT_CASES])
def test_character_imported_to_a_template(file: HostileFile, must_read: bool) -> None:
    read = lambda: import_character(file.data)  # noqa: E731
    outcome = check_read(read, (DataError,), file.what, usable_template_read)
    assert outcome.kind == "returned" or not must_read, outcome.describe()


BATTLE = "battles/evening-in-progress.hexfray"
OPEN_CASES = [
    Case(
        "a byte-order mark first",
        changed_file(BATTLES, BATTLE, {}, prefix=codecs.BOM_UTF8),
        must_read=True,
    ),
]


@pytest.mark.parametrize(("file", "must_read"), [case.param for case in OPEN_CASES])
def test_battle_file_opened(file: HostileFile, must_read: bool) -> None:
    read = lambda: open_battle_file(file.data)  # noqa: E731
    outcome = check_read(read, (BattleFileError,), file.what, usable_battle_read)
    assert outcome.kind == "returned" or not must_read, outcome.describe()


def last_setup(text: str, what: str) -> HostileFile:
    return HostileFile(settings_text({**SETTINGS, LAST_SETUP_KEY: text}), what)


def _sides_named(name: str) -> str:
    document = json.loads(json.dumps(LAST_SETUP_DOCUMENT))
    document["sides"][0]["name"] = name
    return render(document).decode("ascii")


LONG_NAME = "x" * 100_000  # no file system takes a name this long
SETTINGS_CASES = [
    Case(
        "an export folder named with 100,000 characters",
        HostileFile(settings_text({**SETTINGS, "export/folder.png": LONG_NAME}), "export"),
    ),
    Case(
        "a recent file named with 100,000 characters",
        HostileFile(settings_text({**SETTINGS, RECENT_KEY: [LONG_NAME]}), "recent"),
    ),
    Case("a last set-up nested 2,000 deep", last_setup("[" * 2000 + "]" * 2000, "deep")),
    Case(
        "a side named with half a surrogate pair",
        last_setup(_sides_named("Bra\ud800nn"), "side name"),
    ),
]


@pytest.mark.parametrize(("file", "must_read"), [case.param for case in SETTINGS_CASES])
def test_settings(file: HostileFile, must_read: bool) -> None:
    outcome = check_read(lambda: read_settings(file.data), (), file.what, usable_settings_read)
    assert outcome.kind == "returned", outcome.describe()
