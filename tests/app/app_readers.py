"""The app's readers as the program uses them, for the readers' fuzz tests (issue 23,
tests/app/test_readers_fuzz.py and its known faults): each writes its file into a
folder of its own and reads it as the program does, then checks that what it gives
is usable (``usable_*_read``, tests/reader_fuzz.py). Also the real files they change: the templates
(bundled, and the 000 ones as the GM's saved sheets), autosave journals of the
bundled battles, and the settings file as the program writes it.
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st
from PySide6.QtCore import QByteArray, QSettings

from app.export_folders import export_folder, remember_export_folder
from app.file_actions import MAX_RECENT, RECENT_KEY, read_recent_files, recent_file_there
from app.files import (
    JOURNAL_SUFFIX,
    Autosave,
    PartlyRecovered,
    find_recoverable,
    open_battle,
    recover,
)
from app.gcs_import import import_to_template
from app.help import GUIDE_SEEN_KEY, guide_seen
from app.main_window import GEOMETRY_KEY, LEGEND_FOLDED_KEY, STATE_KEY
from app.map.animation import SETTINGS_KEY as ANIMATIONS_KEY
from app.new_battle import (
    LAST_SETUP_KEY,
    NewBattleSetup,
    SideSetup,
    new_battle,
    read_last_setup,
    write_last_setup,
)
from app.preferences import Preferences, read_preferences, write_preferences
from app.templates import (
    CUSTOM_PREFIX,
    Template,
    parse_template,
    read_template_file,
    template_document,
)
from app.user_dirs import settings_at
from rules.battle.battle import Battle
from rules.battle.model import Side
from rules.battle.savefile import read_battle
from rules.core.dice import ScriptedDice
from rules.core.errors import DataError
from rules.sets.registry import get_ruleset
from tests.hostile_data import (
    Corpus,
    HostileFile,
    Repeated,
    damaged,
    hostile_texts,
    invalid_utf8,
    mutated,
    render,
    text_of,
)
from tests.reader_fuzz import (
    ROOT,
    demo_battle_of,
    joins_a_battle,
    usable_battle,
)

WORK = Path(tempfile.mkdtemp(prefix="readers-fuzz-"))
atexit.register(shutil.rmtree, WORK, ignore_errors=True)


@contextmanager
def folder() -> Iterator[Path]:
    """A folder of one example's own, removed after it."""
    path = Path(tempfile.mkdtemp(dir=WORK))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# --- templates --------------------------------------------------------------------------------


def usable_template(template: Template) -> str:
    """The checks of a template in the library: it saves again as the library
    writes it (Rename) and reads back, and its fighter joins a battle."""
    ruleset = get_ruleset(template.ruleset_key)
    key = template.key.removeprefix(CUSTOM_PREFIX)
    document = template_document(
        ruleset, template.ruleset_key, key, template.name, template.description, template.fighter
    )
    text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False)
    parse_template(text.encode("utf-8"), key, custom=True)
    return joins_a_battle(template.fighter, template.fighter.hit_points, template.ruleset_key)


def _template_documents() -> Corpus:
    """The bundled templates, and the 000 ones as the GM's saved sheets (the form a
    fighter saved from a battle takes: the gear written out in full)."""
    found = Corpus()
    for path in sorted((ROOT / "assets" / "templates").glob("*.json")):
        found[path.name] = json.loads(path.read_text(encoding="utf-8"))
        template = read_template_file(path)
        if "fighter" in found[path.name]:  # type: ignore[operator]
            ruleset = get_ruleset(template.ruleset_key)
            key = f"saved-{template.key}"
            found[f"{key}.json"] = template_document(
                ruleset, template.ruleset_key, key, template.name, "Saved.", template.fighter
            )
    return found


TEMPLATES = _template_documents()


def read_template(data: bytes, key: str) -> Template:
    """The GM's template file ``key``.json read as the library reads it."""
    with folder() as where:
        path = where / f"{key}.json"
        path.write_bytes(data)
        return read_template_file(path, custom=True)


def usable_template_read(found: object) -> str:
    """What reading a template gives: a usable template, or a refusal."""
    if isinstance(found, Template):
        return usable_template(found)
    assert isinstance(found, BaseException), f"the read gave {type(found).__name__}"
    return "refused"


def template_key(source: str) -> str:
    """The key of a template file made from the document ``source`` (its file's name)."""
    return source.removesuffix(".json")


# --- the autosave journal ---------------------------------------------------------------------


def _journal_of(battle: Battle, into: Path) -> list[object]:
    """The journal of ``battle`` replayed command by command, its first half before
    the journal starts (so that its header holds fighters and a log), with an undo
    and a redo at the end: its header and its changes, parsed."""
    again = Battle(battle.initial, battle.seed, get_ruleset)
    steps = list(zip(battle.commands, battle.dice_log, strict=True))
    half = len(steps) // 2
    for command, faces in steps[:half]:
        again.execute(command, ScriptedDice(faces))
    autosave = Autosave(again, into)
    again.subscribe(autosave.record)
    for command, faces in steps[half:]:
        again.execute(command, ScriptedDice(faces))
    again.undo()
    again.redo()
    again.undo()
    path = autosave.set_aside()
    assert path is not None
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def _journals() -> Corpus:
    into = Path(tempfile.mkdtemp(dir=WORK))
    battles = {f"demo-{key}": demo_battle_of(key) for key in ("000", "002", "003", "004")}
    evening = (ROOT / "assets" / "battles" / "evening-in-progress.hexfray").read_bytes()
    battles["evening-in-progress"] = read_battle(evening, rulesets=get_ruleset)
    return Corpus((f"journal of {name}", _journal_of(b, into)) for name, b in battles.items())


JOURNALS = _journals()


def render_journal(lines: object, ascii_only: bool) -> bytes:
    """A journal's bytes: one JSON document a line, each ending in a newline (a
    line repeated to a huge count is that many lines)."""
    assert isinstance(lines, list)
    rendered = []
    for line in lines:
        if isinstance(line, Repeated):
            rendered.append((render(line.value, ascii_only=ascii_only) + b"\n") * line.count)
        else:
            rendered.append(render(line, ascii_only=ascii_only) + b"\n")
    return b"".join(rendered)


def read_journal(data: bytes) -> tuple[Battle, ...]:
    """A journal left in the autosave folder, found and restored as the start does:
    the battles restored (none when it is not offered)."""
    with folder() as where:
        (where / f"battle-20250101-000000-1-abcd{JOURNAL_SUFFIX}").write_bytes(data)
        return tuple(recover(entry) for entry in find_recoverable(where))


def usable_journal_read(found: object) -> str:
    """What restoring a journal gives: battles that can be played on and saved (a
    journal holds any text a battle held, so not necessarily as UTF-8), a partly
    restored battle offered to the GM, or a refusal."""
    if isinstance(found, tuple):
        words = [usable_battle(battle, as_utf8=False) for battle in found]
        return "; ".join(words) or "nothing to restore"
    if isinstance(found, PartlyRecovered):
        return f"partly: {usable_battle(found.battle, as_utf8=False)}"
    assert isinstance(found, BaseException), f"the read gave {type(found).__name__}"
    return "refused"


# --- a character file imported through the app, a battle file opened from disk ------------


def import_character(data: bytes) -> Template:
    """``--import-gcs FILE --to-template NAME``: the file read, its fighter saved as
    the GM's template; a refused import leaves no template behind."""
    with folder() as where:
        source, templates = where / "character.gcs", where / "templates"
        source.write_bytes(data)
        templates.mkdir()
        try:
            template, _result = import_to_template(source, "Imported", templates)
        except DataError:
            left = sorted(p.name for p in templates.iterdir())
            assert not left, f"the refused import left {left} behind"
            raise
        return template


def open_battle_file(data: bytes) -> Battle:
    """File ▸ Open on a file of these bytes (``usable_battle_read`` checks it)."""
    with folder() as where:
        path = where / "evening.hexfray"
        path.write_bytes(data)
        return open_battle(path)


# --- the settings -----------------------------------------------------------------------------

EXPORT_SUFFIXES = (".png", ".md", ".html")
LAST_SETUP = NewBattleSetup(
    24,
    16,
    "000",
    (),
    (SideSetup(Side.RED, "Red", "#c0392b"), SideSetup(Side.BLUE, "Blue", "#2e86c1")),
    seed=12345,
    starting_fighters=1,
    roll_initiative=True,
)
# What a window saves of its layout (the bytes of saveGeometry and saveState).
LAYOUT = QByteArray(bytes(range(256)) * 4)


def settings_values() -> dict[str, object]:
    """Every setting the program reads, as the program writes it."""
    with folder() as where:
        store = QSettings(str(where / "settings.ini"), QSettings.Format.IniFormat)
        write_preferences(store, Preferences())
        write_last_setup(store, LAST_SETUP)
        for suffix in EXPORT_SUFFIXES:
            remember_export_folder(store, suffix, where / f"export{suffix}")
        store.setValue(RECENT_KEY, [str(where / f"{n}.hexfray") for n in range(MAX_RECENT)])
        store.setValue(GUIDE_SEEN_KEY, True)
        store.setValue(LEGEND_FOLDED_KEY, True)
        store.setValue(ANIMATIONS_KEY, False)
        store.setValue(GEOMETRY_KEY, LAYOUT)
        store.setValue(STATE_KEY, LAYOUT)
        return {key: store.value(key) for key in store.allKeys()}


SETTINGS = settings_values()
LAST_SETUP_DOCUMENT = json.loads(str(SETTINGS[LAST_SETUP_KEY]))
# Values the INI file spells in Qt's own syntax, written into it as they are.
RAW_INI_VALUES = (
    b"@Variant(\\0\\0\\0\\t\\x7f\\xff\\xff\\xff)",  # a list of 2**31 - 1 values
    b"@Variant(\\0\\0\\0\\v\\0\\x7f\\xff\\xff\\xff)",  # a string list, likewise
    b"@Variant(\\0\\0\\0\\b\\0\\0\\x7f\\xff\\xff)",  # a map, likewise
    b"@Variant(\\0\\0\\0\\f\\0\\x7f\\xff\\xff\\xff)",  # a byte array of 2 GB
    b"@Variant(\\xff\\xff\\xff\\xff\\0)",
    b"@Variant(",
    b"@ByteArray(" + b"x" * 100_000 + b")",
    b"@Size(99999999999999999999 1)",
    b"@Rect(1 2 3",
    b"@Point(\xed\xa0\x80 1)",
    b"\xed\xa0\x80",
    b"\xef\xbb\xbf#c0392b",
    b'"\\ud800"',
    b"\\x0",
    b"\\",
    b", ".join([b"a"] * 100_000),
    b"x" * 1_000_000,
)


@dataclass(frozen=True)
class SettingsRead:
    """Every setting the program reads, as it reads them."""

    preferences: Preferences
    last_setup: NewBattleSetup | None
    recent: tuple[Path, ...]
    recent_there: tuple[bool, ...]


def read_settings(data: bytes) -> SettingsRead:
    """Every setting read from a settings file of these bytes, as the program reads
    them: the preferences, the last New Battle set-up, the export folders, Open
    Recent (and whether each of its files is there, as its menu shows), the
    first-run guide and the window's own. None may fail: a setting that cannot be
    read is its default."""
    with folder() as where:
        path = where / "settings.ini"
        path.write_bytes(data)
        # Settings that cannot be used give way to settings of the session, in a
        # temporary folder: this example's, removed with it.
        tempfile.tempdir = str(where)
        store = settings_at(path)  # as app.user_dirs.settings() opens it
        for suffix in EXPORT_SUFFIXES:
            export_folder(store, suffix)
        guide_seen(store)
        bool(store.value(LEGEND_FOLDED_KEY, False, type=bool))  # as the window reads them
        store.value(GEOMETRY_KEY)
        store.value(STATE_KEY)
        str(store.value(ANIMATIONS_KEY, None))
        recent = read_recent_files(store)
        return SettingsRead(
            read_preferences(store),
            read_last_setup(store),
            recent,
            tuple(recent_file_there(path) for path in recent),
        )


def usable_settings_read(found: object) -> str:
    """What the settings give: colours the map can draw in, at most ``MAX_RECENT``
    recent files, and a last New Battle set-up that makes a battle that saves."""
    assert isinstance(found, SettingsRead), f"the read gave {type(found).__name__}"
    preferences = found.preferences
    colours = (*preferences.side_colours.values(), *preferences.arc_colours.values())
    assert all(len(c) == 7 and c.startswith("#") for c in colours), colours
    assert len(found.recent) <= MAX_RECENT
    if found.last_setup is None:
        return "no set-up"
    if found.last_setup == LAST_SETUP:  # as written: its battle is checked once, not each time
        return "the set-up as written"
    return usable_battle(new_battle(found.last_setup))


def settings_text(values: dict[str, object]) -> bytes:
    """The settings file that holds ``values``, as ``QSettings`` writes it."""
    with folder() as where:
        store = QSettings(str(where / "settings.ini"), QSettings.Format.IniFormat)
        for key, value in values.items():
            store.setValue(key, value)
        store.sync()
        return (where / "settings.ini").read_bytes()


@st.composite
def settings_files(draw: st.DrawFn) -> HostileFile:
    """The settings file with values changed (written by ``QSettings``, as a newer
    or damaged program might have), with raw lines in Qt's own syntax, or damaged
    as a whole."""
    values = dict(SETTINGS)
    notes = []
    for _ in range(draw(st.integers(min_value=1, max_value=3), label="changes")):
        key = draw(st.sampled_from(sorted(values)), label="key")
        if key == LAST_SETUP_KEY:
            document, changes = draw(mutated(Corpus({"last set-up": LAST_SETUP_DOCUMENT})))
            value: object = text_of(render(document))
            notes.append(f"{key}: {'; '.join(changes[1:])}")
        else:
            value = draw(
                st.one_of(
                    hostile_texts,
                    st.lists(hostile_texts, max_size=4),
                    st.sampled_from([-1, 2**62, 1e308, -0.0]),
                    st.sampled_from([10_000, 100_000]).map(lambda n: ["x"] * n),
                    st.binary(max_size=64).map(QByteArray),
                ),
                label="value",
            )
            notes.append(f"{key}: {value!r:.80}")
        values[key] = value
    data = settings_text(values)
    how = draw(st.sampled_from(["values", "raw", "raw", "damaged"]), label="how")
    if how == "raw":
        lines = data.split(b"\n")
        at = draw(st.sampled_from([i for i, line in enumerate(lines) if b"=" in line]))
        raw = draw(st.one_of(st.sampled_from(RAW_INI_VALUES), invalid_utf8.map(lambda r: r.data)))
        lines[at] = lines[at].split(b"=")[0] + b"=" + raw
        data = b"\n".join(lines)
        notes.append(f"line {at} = {raw[:60]!r}")
    elif how == "damaged":
        data, damage = draw(damaged(data))
        notes.append(damage)
    return HostileFile(data, "; ".join(notes))
