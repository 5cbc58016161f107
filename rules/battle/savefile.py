"""The battle file (``.hexfray``): a whole battle as versioned, readable JSON.

A file holds the schema version, the version of the rules engine that wrote it,
the battle's initial state and seed, the command log with the faces each command
rolled, and the undo position: the undone commands with their faces, the next
redo first. Loading rebuilds the battle with ``Battle.restore`` on the recorded
faces, so nothing is rolled again and the state is the one saved
(docs/file-format.md describes the format).

This module is pure: text in, ``Battle`` out, and back. The values are written by
the generic codec of ``rules.battle.values`` with the battle's own types and the
types its ruleset names (``SheetRules.saved_types``: its commands, attack
choices, sheet and tracks). Reading and writing files is ``app.files``'s.

Every problem with a file is a ``BattleFileError`` whose message names it in a
game master's terms: a damaged or cut-short file, a newer or unknown version,
huge numbers, deep nesting, too large a file, too many of anything (fighters,
weapons, commands ...: ``rules.battle.limits``), wrong types, ids given twice, hexes
off the map (by column and row), unknown commands or a log that cannot be
replayed, and a fighter whose sheet is another ruleset's than the battle's (named,
with both rulesets: ``foreign_sheet``). Nothing else comes out of ``read_battle``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import ModuleType

import rules.battle as battle_package
from hexmap import HexGrid
from rules.battle.attack_choices import DefenderAnswer
from rules.battle.battle import Battle
from rules.battle.catalog import RawSheet
from rules.battle.commands import Attack  # (and every command battle_types saves)
from rules.battle.edits import check_fighter
from rules.battle.limits import MAX_MAP_SIDE, check_counts
from rules.battle.model import Combatant, RulesetSheet, RulesetTracks
from rules.battle.notes import CommandNote, note_data, note_from
from rules.battle.state import BattleRuleset, BattleState, Command
from rules.battle.values import (
    TYPE_KEY,
    SavedTypes,
    ValueCodec,
    ValueFileError,
    hex_name,
)
from rules.core.dice import ScriptedDice
from rules.core.errors import DataError, IllegalCommandError
from rules.core.strict_json import strict_json
from rules.core.version import ENGINE_VERSION
from rules.core.writable_text import unwritable_text

FORMAT = "hexfray-battle"
SCHEMA_VERSION = 6
FILE_SUFFIX = ".hexfray"
# A battle of 10,000 commands is a few megabytes; anything far larger is no battle.
MAX_FILE_BYTES = 8 * 1024 * 1024  # a long evening writes a megabyte; 8 MB parse in 0.3 s
MAX_DEPTH = 64
MAX_SEED = 2**64
MAX_FACE = 1000

_ENTRY_KEYS = frozenset({"command", "dice"})
_DOCUMENT_KEYS = frozenset(
    {"format", "schema_version", "engine_version", "seed", "initial_state", "log", "undone"}
)
# What ``migrate`` adds to a document it lifted: the schema version the file was
# written in, for what is lifted as it is read (``lift_attack``).
WRITTEN_IN = "written_in_schema"


class BattleFileError(DataError):
    """A battle file that cannot be opened. The message says why, in a game
    master's terms, naming the place in the file; the open battle is untouched."""


class PartlyReplayedFile(BattleFileError):
    """A file whose log these rules replay only in part (it was saved by a Hexfray
    whose rules differ, or a command in it is refused): ``battle`` is the battle
    after the first ``replayed`` of its ``total`` commands, offered to the GM
    rather than nothing."""

    def __init__(self, message: str, battle: Battle, replayed: int, total: int) -> None:
        super().__init__(message)
        self.battle = battle
        self.replayed = replayed
        self.total = total


# What the file asks of a ruleset: the types of its own that a battle holds
# (``BattleRuleset.sheets.saved_types``).
SavingRuleset = BattleRuleset


# The ruleset of a key with options; no key (a file whose state names none) means the
# registry's default (rules.core.formats.DEFAULT_RULESET_KEY).
SavingRulesetFinder = Callable[[str | None, Sequence[str]], SavingRuleset]
# The key of the ruleset whose sheet class has this name, ``RawSheet`` included
# (rules.sets.registry knows; app.files asks it), None for a name no ruleset has.
SheetOwner = Callable[[str], str | None]


def commands_defined_in(package: ModuleType) -> tuple[type[Command], ...]:
    """Every ``Command`` subclass defined in a module of ``package`` that has been
    imported: a package's command modules are imported by whoever names its
    commands (here: ``rules.battle.commands``, which imports the turn commands),
    so a command added to one is saved with no more work. A test checks in a fresh
    program that no command is missed."""
    prefix = package.__name__ + "."
    found: set[type[Command]] = set()
    pending: list[type[Command]] = [Command]
    while pending:
        for sub in pending.pop().__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith(prefix):
                found.add(sub)
    return tuple(sorted(found, key=lambda cls: cls.__name__))


@functools.cache
def battle_types() -> tuple[type, ...]:
    """The battle's own saved types: the state, the sheet and tracks bases, the
    not yet read sheet (``RawSheet``) and every command ``rules.battle`` defines."""
    commands = commands_defined_in(battle_package)
    return (BattleState, RawSheet, RulesetSheet, RulesetTracks, *commands)


def saved_types_for(ruleset_types: Iterable[type]) -> SavedTypes:
    """The registry of a battle's file: the battle's types and its ruleset's. A
    not yet read sheet's template keys (``RawSheet.fields``) show as data."""
    return _saved_types(tuple(ruleset_types))


@functools.cache
def _saved_types(ruleset_types: tuple[type, ...]) -> SavedTypes:
    # Built once per ruleset: walking every type's fields takes tens of
    # milliseconds, which each save and each autosave start would pay again. A
    # registry never changes once built.
    return SavedTypes((*battle_types(), *ruleset_types), json_text={RawSheet: ("fields",)})


# --- writing ------------------------------------------------------------------------


def battle_document(battle: Battle, ruleset_types: Iterable[type]) -> dict[str, object]:
    """The battle as JSON-ready data (``write_battle`` makes it text)."""
    codec = ValueCodec(saved_types_for(ruleset_types))
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "engine_version": ENGINE_VERSION,
        "seed": battle.seed,
        "initial_state": codec.encode(battle.initial, BattleState),
        "log": [
            encode_entry(command, faces, codec, entered=entered, note=battle.note(index))
            for index, (command, faces, entered) in enumerate(
                zip(battle.commands, battle.dice_log, battle.entered_log, strict=True)
            )
        ],
        "undone": [
            encode_entry(
                command, faces, codec, entered=entered, note=battle.note(len(battle.commands) + k)
            )
            for k, ((command, faces), entered) in enumerate(
                zip(battle.undone, battle.undone_entered, strict=True)
            )
        ],
    }


def document_text(document: Mapping[str, object]) -> str:
    """Indented, keys sorted, one stable text for one battle."""
    return (
        json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
    )


def write_battle(battle: Battle, ruleset_types: Iterable[type]) -> str:
    return document_text(battle_document(battle, ruleset_types))


def encode_entry(
    command: Command,
    faces: Sequence[int],
    codec: ValueCodec,
    *,
    entered: bool = False,
    note: CommandNote | None = None,
) -> dict[str, object]:
    """One log entry as the file holds it (the autosave journal writes these).
    Faces entered at the table (physical dice) are marked ``"entered": true``; an
    entry without the mark, as every file before physical dice, is the computer's."""
    entry: dict[str, object] = {"command": codec.encode(command, Command), "dice": list(faces)}
    if entered:
        entry["entered"] = True
    if note is not None:  # why it was given (rules.battle.notes); none before notes
        entry["note"] = note_data(note)
    return entry


# --- reading ------------------------------------------------------------------------


def parse_document(text: str | bytes, *, any_text: bool = False) -> dict[str, object]:
    """The file's JSON, checked for size, syntax and nesting, migrated to this
    schema version, its lists checked against the battle's limits
    (``rules.battle.limits.check_counts``) before anything is built from it.
    ``any_text``: text no file can hold is read too (an autosave journal restores
    the battle as it was, and its Save names such text)."""
    if len(text) > MAX_FILE_BYTES:
        raise BattleFileError(
            f"the file is too large for a battle ({len(text) // 2**20} MB; "
            f"at most {MAX_FILE_BYTES // 2**20} MB)"
        )
    return checked_document(
        json_object(
            text,
            BattleFileError,
            MAX_DEPTH,
            kind="a battle file",
            holding="battle",
            any_text=any_text,
        )
    )


def checked_document(data: dict[str, object]) -> dict[str, object]:
    """A battle's JSON object, already read strictly (``json_object``; an autosave's
    first line holds one), migrated to this schema version and its lists checked
    against the battle's limits before anything is built from it."""
    document = migrate(data)
    check_counts(document, BattleFileError)
    return document


def json_object(
    text: str | bytes,
    on_error: Callable[[str], Exception],
    max_depth: int,
    *,
    kind: str,
    holding: str,
    any_text: bool = False,
) -> dict[str, object]:
    """The JSON object a file of Hexfray's holds (a battle file, a template),
    bytes read as UTF-8 and parsed by ``strict_json``; ``on_error`` for text that
    is not text or holds no object ("this is not {kind} (no Hexfray {holding}
    inside)"), and for text no file can hold (``rules.core.writable_text``)
    unless ``any_text``. Shared so that every such file is checked as strictly."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise on_error(f"this is not {kind} (it is not text)") from None
    data = strict_json(text, on_error, max_depth)
    if not isinstance(data, dict):
        raise on_error(f"this is not {kind} (no Hexfray {holding} inside)")
    unwritable = None if any_text else unwritable_text(data, text)  # it could never be saved again
    if unwritable is not None:
        raise on_error(unwritable)
    return data


def read_battle(
    text: str | bytes, *, rulesets: SavingRulesetFinder, sheet_owner: SheetOwner | None = None
) -> Battle:
    """The battle a file holds, rebuilt on its recorded dice. ``BattleFileError``
    for any problem, and for nothing else. ``sheet_owner`` names the ruleset of a
    sheet of another ruleset in the file (``foreign_sheet``)."""
    return battle_from_document(parse_document(text), rulesets=rulesets, sheet_owner=sheet_owner)


def battle_from_document(
    document: Mapping[str, object],
    *,
    rulesets: SavingRulesetFinder,
    sheet_owner: SheetOwner | None = None,
) -> Battle:
    unknown = sorted(set(document) - _DOCUMENT_KEYS - {WRITTEN_IN})
    if unknown:
        raise BattleFileError(
            f"the file holds parts this Hexfray does not know: {', '.join(unknown)}"
        )
    missing = sorted(_DOCUMENT_KEYS - set(document) - {"engine_version"})
    if missing:
        raise BattleFileError(f"the file lacks {', '.join(missing)}")
    seed = document["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > MAX_SEED:
        raise BattleFileError(f"seed: expected a whole number, got {seed!r:.40}")
    raw_state = document["initial_state"]
    if not isinstance(raw_state, dict):
        raise BattleFileError("initial_state: expected an object")
    ruleset = _ruleset_named(raw_state, rulesets)
    try:
        codec = ValueCodec(saved_types_for(ruleset.sheets.saved_types))
    except TypeError as exc:  # the ruleset's types cannot be saved: a bug, not the file's
        raise BattleFileError(f"the battle's ruleset cannot read files: {exc}") from None
    refusal = foreign_sheet(document, ruleset, sheet_owner)
    if refusal is not None:
        raise BattleFileError(refusal)
    try:
        codec.grid = _grid(codec, raw_state)
        initial = _initial_state(codec, raw_state)
        version = written_in(document)
        log = _entries(codec, document["log"], "log entry", version)
        undone = _entries(codec, document["undone"], "undone entry", version)
    except ValueFileError as exc:
        raise BattleFileError(str(exc)) from None
    for combatant in initial.combatants:  # as AddCombatant checks a newcomer in the log
        try:
            check_fighter(combatant.fighter, initial.grid, ruleset)
        except IllegalCommandError as refusal:
            raise BattleFileError(f"initial_state: {refusal}") from None
    marks = _entered_marks(document["log"])
    try:
        return Battle.restore(
            initial,
            seed,
            tuple(command for command, _ in log),
            tuple(faces for _, faces in log),
            undone,
            rulesets=rulesets,
            entered=(*marks, *_entered_marks(document["undone"])),
            notes=(
                *_entry_notes(document["log"]),
                *_entry_notes(document["undone"], len(log)),
            ),
        )
    except Exception as exc:  # a rule refusing a command, or a bug it hit: the log cannot run
        reason = str(exc) or type(exc).__name__
        message = f"the battle's log cannot be replayed: {reason:.200}"
    partial, replayed = _replayable_part(initial, seed, log, marks, rulesets)
    raise PartlyReplayedFile(message, partial, replayed, len(log) + len(undone))


# How deep below a part of the file a fighter sits: initial_state.combatants[i].fighter,
# log[i].command.combatant.fighter (AddCombatant), log[i].command.fighter (EditFighter).
_FIGHTER_DEPTH = 4


def _fighters_in(data: object) -> list[Mapping[str, object]]:
    """Every fighter a part of a file holds (an object with a name and a tagged
    ``stats``: the initial state's combatants, a command's newcomer or edited
    sheet) within ``_FIGHTER_DEPTH`` levels, in the file's order; no deeper, so
    that a long log is looked through quickly. Only objects and lists are
    looked into (a stroke's 90,000 hexes are a call each)."""
    found: list[Mapping[str, object]] = []

    def look_into(value: dict[str, object] | list[object], depth: int) -> None:
        if isinstance(value, dict):
            stats = value.get("stats")
            if isinstance(stats, dict) and TYPE_KEY in stats and "name" in value:
                found.append(value)
                return
            children: Iterable[object] = value.values()
        else:
            children = value
        if depth < _FIGHTER_DEPTH:
            for child in children:
                if isinstance(child, dict | list):
                    look_into(child, depth + 1)

    if isinstance(data, dict | list):
        look_into(data, 0)
    return found


def foreign_sheet(
    document: Mapping[str, object], ruleset: SavingRuleset, sheet_owner: SheetOwner | None
) -> str | None:
    """Why the file cannot be opened because a fighter in it is of another ruleset
    than the battle's (``SheetRules.refusal``: its sheet is none of the
    battle's ruleset's sheet types): the fighter's name and place, its sheet's
    ruleset (``sheet_owner``'s answer) and the battle's. A not yet read sheet
    (``RawSheet``) is the battle's own if its ruleset reads such sheets. None when
    every fighter is the battle's ruleset's (or the sheet's name is no ruleset's
    at all: then the codec names it as unknown)."""
    own = {
        cls.__name__
        for cls in (ruleset.sheets.sheet_type, *ruleset.sheets.saved_types)
        if isinstance(cls, type) and issubclass(cls, ruleset.sheets.sheet_type)
    }
    own.add(RulesetSheet.__name__)
    if ruleset.sheets.sheet_type.reads_raw_sheets:
        own.add(RawSheet.__name__)
    parts: list[tuple[str, object]] = [("the initial state", document.get("initial_state"))]
    for what in ("log", "undone"):
        entries = document.get(what)
        if isinstance(entries, list):
            parts.extend((f"{what} entry {i}", e) for i, e in enumerate(entries, start=1))
    for part, data in parts:
        for fighter in _fighters_in(data):
            stats = fighter["stats"]
            assert isinstance(stats, dict)
            kind = stats[TYPE_KEY]
            if not isinstance(kind, str) or kind in own:
                continue
            owner = sheet_owner(kind) if sheet_owner is not None else None
            if owner is None or owner == ruleset.key:
                continue
            name = fighter.get("name")
            who = f"{name:.60}" if isinstance(name, str) else "a fighter"
            return (
                f"{who} ({part}) is a fighter of ruleset {owner} (a {kind:.40} sheet), and "
                f"this battle plays ruleset {ruleset.key}: a battle holds fighters of its "
                "own ruleset only"
            )
    return None


def _replayable_part(
    initial: BattleState,
    seed: int,
    log: Sequence[tuple[Command, tuple[int, ...]]],
    marks: Sequence[bool],
    rulesets: SavingRulesetFinder,
) -> tuple[Battle, int]:
    """The battle after the commands of ``log`` that replay, up to the first that
    does not, and how many did (the redo list is left out)."""
    battle = Battle(initial, seed, rulesets)
    for index, (command, faces) in enumerate(log):
        entered = index < len(marks) and marks[index]
        try:
            battle.execute(command, ScriptedDice(faces, entered=entered))
        except Exception:  # the first command these rules refuse, as in the full replay
            return battle, index
    return battle, len(log)


def _ruleset_named(raw_state: Mapping[str, object], rulesets: SavingRulesetFinder) -> SavingRuleset:
    key = raw_state.get("ruleset_key")
    options = raw_state.get("ruleset_options", [])
    if "ruleset_key" in raw_state and (not isinstance(key, str) or len(key) > 100):
        raise BattleFileError("initial_state.ruleset_key: expected the ruleset's name")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise BattleFileError("initial_state.ruleset_options: expected a list of names")
    try:  # no key: the registry's default (docs/file-format.md)
        return rulesets(key if isinstance(key, str) else None, tuple(options))
    except Exception as exc:  # an unknown ruleset or option
        raise BattleFileError(f"the battle's rules cannot be found: {exc}") from None


def _grid(codec: ValueCodec, raw_state: Mapping[str, object]) -> HexGrid:
    grid: HexGrid = codec.decode(raw_state.get("grid"), HexGrid, "initial_state.grid")
    if grid.width > MAX_MAP_SIDE or grid.height > MAX_MAP_SIDE:
        raise BattleFileError(
            f"initial_state.grid: a map of {grid.width} x {grid.height} hexes is too large "
            f"(at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE})"
        )
    return grid


def _initial_state(codec: ValueCodec, raw_state: Mapping[str, object]) -> BattleState:
    _check_unique_ids(raw_state.get("combatants"), "combatants", "combatants")
    _check_unique_ids(raw_state.get("items"), "items", "items")
    state: BattleState = codec.decode(raw_state, BattleState, "initial_state")
    _check_standing(state)
    return state


def _check_unique_ids(entries: object, part: str, what: str) -> None:
    """Two combatants (or items) with one id, named before anything else is read."""
    if not isinstance(entries, list):
        return
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        ident = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(ident, str):
            continue
        if ident in seen:
            raise BattleFileError(f"initial_state.{part}[{i}]: two {what} have the id {ident!r}")
        seen.add(ident)


def _check_standing(state: BattleState) -> None:
    """Two fighters still on their feet never share a hex."""
    standing: dict[object, Combatant] = {}
    for c in state.combatants:
        if not c.status.can_defend:
            continue
        other = standing.get(c.hex)
        if other is not None:
            raise BattleFileError(
                f"initial_state: {other.name} and {c.name} both stand at {hex_name(c.hex)}"
            )
        standing[c.hex] = c


def _entries(
    codec: ValueCodec, data: object, what: str, version: int
) -> tuple[tuple[Command, tuple[int, ...]], ...]:
    if not isinstance(data, list):
        raise BattleFileError(f"{what.split()[0]}: expected a list of commands")
    answers = answers_in_choices(codec, version)
    out: list[tuple[Command, tuple[int, ...]]] = []
    for i, entry in enumerate(data, start=1):
        where = f"{what} {i}"
        if not isinstance(entry, dict) or not _ENTRY_KEYS <= set(entry) <= _ENTRY_KEYS | {
            "entered",
            "note",
        }:
            raise BattleFileError(f'{where}: expected {{"command": ..., "dice": [...]}}')
        if entry.get("entered", True) is not True:
            raise BattleFileError(f"{where}.entered: expected true (the dice were entered)")
        entry_note(entry, where)  # a damaged note is the file's damage, found now
        command = decode_command(entry["command"], codec, where, answers=answers)
        out.append((command, _faces(entry["dice"], where)))
    return tuple(out)


def decode_command(
    data: object,
    codec: ValueCodec,
    where: str,
    *,
    version: int = SCHEMA_VERSION,
    answers: Mapping[str, type[DefenderAnswer]] | None = None,
) -> Command:
    """A command as a battle file or an autosave journal of schema ``version``
    holds it: an older ``Attack`` is lifted to today's shape first
    (``lift_attack``). ``answers``: ``answers_in_choices(codec, version)``, when
    known already."""
    if answers is None:
        answers = answers_in_choices(codec, version)
    command: Command = codec.decode(lift_attack(data, answers), Command, where)
    return command


def _faces(data: object, where: str) -> tuple[int, ...]:
    if not isinstance(data, list):
        raise BattleFileError(f"{where}.dice: expected a list of die faces")
    for face in data:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= MAX_FACE:
            raise BattleFileError(f"{where}.dice: {face!r:.40} is no face of a die")
    return tuple(data)


def entry_entered(data: object) -> bool:
    """Whether a log entry (checked by ``decode_entry`` or the file's reading) holds
    faces entered at the table."""
    return isinstance(data, dict) and data.get("entered") is True


def entry_note(data: object, where: str = "entry") -> CommandNote | None:
    """The note of a log entry (None: it has none, as every entry before notes)."""
    if not isinstance(data, dict) or "note" not in data:
        return None
    try:
        return note_from(data["note"], where)
    except DataError as exc:
        raise BattleFileError(str(exc)) from None


def _entry_notes(entries: object, start: int = 0) -> tuple[tuple[int, CommandNote], ...]:
    """The notes of a list of entries checked already, by place from ``start``."""
    if not isinstance(entries, list):
        return ()
    found = ((start + i, entry_note(e)) for i, e in enumerate(entries))
    return tuple((i, note) for i, note in found if note is not None)


def _entered_marks(entries: object) -> tuple[bool, ...]:
    return tuple(entry_entered(e) for e in entries) if isinstance(entries, list) else ()


def decode_entry(
    data: object, codec: ValueCodec, where: str, version: int = SCHEMA_VERSION
) -> tuple[Command, tuple[int, ...]]:
    """One log entry written by ``encode_entry`` (the autosave journal's), by a
    Hexfray that wrote files of schema ``version`` (the journal's battle's:
    ``written_in``), its lists checked against the battle's limits first."""
    check_counts(data, BattleFileError, root=where)
    try:
        (entry,) = _entries(codec, [data], where, version)
    except ValueFileError as exc:
        raise BattleFileError(str(exc)) from None
    return entry


# --- migrations ---------------------------------------------------------------------


def _from_version_1(document: dict[str, object]) -> dict[str, object]:
    """Version 1, the first draft: ``version`` for the schema, ``state`` for the
    initial state, and the commands and their dice in two parallel lists
    (``commands``, ``dice``); nothing undone was kept."""
    commands, dice = document.pop("commands", None), document.pop("dice", None)
    if not isinstance(commands, list) or not isinstance(dice, list):
        raise BattleFileError("a version 1 file has its commands and dice as two lists")
    if len(commands) != len(dice):
        raise BattleFileError(f"the file lists {len(commands)} commands but dice for {len(dice)}")
    document.pop("version", None)
    if "state" in document:
        document["initial_state"] = document.pop("state")
    document["log"] = [{"command": c, "dice": d} for c, d in zip(commands, dice, strict=True)]
    document["undone"] = []
    document["schema_version"] = 2
    return document


def _from_version_2(document: dict[str, object]) -> dict[str, object]:
    """Version 2: an ``Attack`` held the attacker's choices as ``options``, with the
    defender's answer inside them. Every attack is lifted to today's shape as it is
    read (``lift_attack``), those of an autosave journal too, so the document
    itself only moves on."""
    document["schema_version"] = 3
    return document


def _answer_moved_out(document: dict[str, object]) -> dict[str, object]:
    """A version after which one more ruleset's defender answers apart
    (``DefenderAnswer.was_in_choices``: seed 003's from version 5, seed
    000's from version 6). Its attacks
    are lifted as they are read (``lift_attack``), so the document only moves on."""
    document["schema_version"] = schema_version_of(document) + 1
    return document


# schema version -> the function that lifts a document of it by one version
MIGRATIONS: Mapping[int, Callable[[dict[str, object]], dict[str, object]]] = {
    1: _from_version_1,
    2: _from_version_2,
    3: _answer_moved_out,
    4: _answer_moved_out,
    5: _answer_moved_out,
}


def answers_in_choices(codec: ValueCodec, version: int) -> dict[str, type[DefenderAnswer]]:
    """The defender answers of the codec's types that files of schema ``version``
    kept in the attacker's choices (``DefenderAnswer.was_in_choices``), by the
    name of the choices type that held them."""
    found: dict[str, type[DefenderAnswer]] = {}
    for cls in codec.types.subclasses_of(DefenderAnswer):
        assert issubclass(cls, DefenderAnswer)
        kept = cls.was_in_choices
        if kept is not None and version < kept.before_schema:
            found[kept.choices_type] = cls
    return found


def written_in(document: Mapping[str, object]) -> int:
    """The schema version a document read by ``parse_document`` was written in."""
    version = document.get(WRITTEN_IN, document.get("schema_version"))
    return version if isinstance(version, int) and not isinstance(version, bool) else 0


def lift_attack(data: object, answers: Mapping[str, type[DefenderAnswer]]) -> object:
    """An ``Attack`` (a command's data) as an older file or journal wrote it, in
    today's shape; any other data as it is. Schema 2 named the attacker's choices
    ``options``: they become ``choices``. In a file written before a ruleset's
    defender answered apart (``answers``: ``answers_in_choices`` of the file's
    version), an attack without an ``answer`` whose choices are of that ruleset's
    type has the answer's fields moved out of the choices into an answer of its
    type (fields the choices left at their default stay at the answer's)."""
    if not isinstance(data, dict) or data.get(TYPE_KEY) != Attack.__name__:
        return data
    lifted = dict(data)
    if "options" in lifted and "choices" not in lifted:
        lifted["choices"] = lifted.pop("options")
    choices = lifted.get("choices")
    if "answer" in lifted or not isinstance(choices, dict):
        return lifted
    kind = choices.get(TYPE_KEY)
    answer = answers.get(kind) if isinstance(kind, str) else None
    if answer is None or answer.was_in_choices is None:
        return lifted
    moved = answer.was_in_choices.fields
    lifted["choices"] = {k: v for k, v in choices.items() if k not in moved}
    lifted["answer"] = {TYPE_KEY: answer.__name__, **{k: choices[k] for k in moved if k in choices}}
    return lifted


def schema_version_of(document: Mapping[str, object]) -> int:
    if document.get("format") != FORMAT:
        raise BattleFileError("this is not a Hexfray battle file")
    version = document.get("schema_version", document.get("version"))
    if isinstance(version, bool) or not isinstance(version, int):
        raise BattleFileError("the file does not say which version of the format it is")
    return version


def migrate(document: dict[str, object]) -> dict[str, object]:
    """The document in this schema version: older ones lifted step by step (and
    the version they were written in kept as ``WRITTEN_IN``), a newer one
    refused."""
    version = schema_version_of(document)
    if version > SCHEMA_VERSION:
        written_by = document.get("engine_version")
        by = f" by Hexfray {written_by}" if isinstance(written_by, str) else ""
        raise BattleFileError(
            f"the file was saved{by:.60} in format version {version}, newer than this "
            f"Hexfray ({ENGINE_VERSION}) reads (up to {SCHEMA_VERSION}): update Hexfray to open it"
        )
    if version < 1:
        raise BattleFileError(f"the file's format version {version} does not exist")
    written = version
    while version < SCHEMA_VERSION:
        document = MIGRATIONS[version](document)
        version = schema_version_of(document)
    if written != version:
        document[WRITTEN_IN] = written
    return document
