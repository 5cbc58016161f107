"""How many of each thing a battle holds at most, and the checks that keep to it.

A battle file, an autosave journal and a template are plain lists of data: a few
megabytes can hold a fighter with 100,000 weapons, which would take gigabytes and
minutes to build. Each list a file can grow is bounded here by what a battle can
use, far beyond any battle played at a table (docs/file-format.md, "Limits"):

* ``check_counts`` looks through a file's JSON before anything is built from it
  and refuses the first list that is too long, naming where it is, how many it
  holds and the limit ("initial_state.combatants[0].fighter.weapons: 100,000
  weapons; a fighter carries at most 50");
* ``state_count_problem`` and the battle's own checks keep a battle in play
  within the same limits (``rules.battle.aftermath.run_command``,
  ``rules.battle.battle.Battle.execute``, ``rules.battle.edits.fighter_problems``),
  so that every battle saved can be opened again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rules.battle.state import BattleState

MAX_FIGHTERS = 500  # fighters in a battle, fallen ones included
MAX_WEAPONS = 50  # weapons a fighter carries (in hand, slung, picked up)
MAX_MODES = 20  # ways one weapon is used (swing, thrust, thrown ...)
MAX_ITEMS = 10_000  # items lying on the map
MAX_COMMANDS = 50_000  # commands of a battle: its log and its redo list together
MAX_FACES = 1_000  # dice one command rolls
MAX_MAP_SIDE = 300  # hexes along one side: a stroke over all of them reads in half a second
MAX_HEXES = MAX_MAP_SIDE * MAX_MAP_SIDE  # a list of hexes: the painted terrain, a path
# Attacks and defenses of one fighter in one turn (a turn at the table has a few):
# each defense looks through them (000 CUMULATIVE DEFENSES).
MAX_TURN_ACTIONS = 100
MAX_ENTRIES = 10_000  # any other list or object in a file (skills, wounds, sides ...)


@dataclass(frozen=True)
class CountLimit:
    """The most entries a list may hold, what they are, and who holds them:
    "weapons; a fighter carries at most 50"."""

    limit: int
    things: str
    holder: str

    def message(self, where: str, count: int) -> str:
        return f"{where}: {count:,} {self.things}; {self.holder} at most {self.limit:,}"


_HEXES = CountLimit(MAX_HEXES, "hexes", "the largest map has")
_COMMANDS = CountLimit(MAX_COMMANDS, "commands", "a battle holds")
GENERAL_LIMIT = CountLimit(MAX_ENTRIES, "entries", "a list in a file holds")

# The lists a file holds by the name of their part (a field of the battle's types,
# or of the document); every other list and object has ``GENERAL_LIMIT``.
LIMITS_BY_PART: Mapping[str, CountLimit] = MappingProxyType(
    {
        "combatants": CountLimit(MAX_FIGHTERS, "fighters", "a battle holds"),
        "controllers": CountLimit(MAX_FIGHTERS, "controllers", "a battle holds"),
        "weapons": CountLimit(MAX_WEAPONS, "weapons", "a fighter carries"),
        "modes": CountLimit(MAX_MODES, "modes", "a weapon has"),
        "items": CountLimit(MAX_ITEMS, "items", "the map holds"),
        "dice": CountLimit(MAX_FACES, "die faces", "a command rolls"),
        "log": _COMMANDS,
        "undone": _COMMANDS,
        "cells": _HEXES,
        "hexes": _HEXES,
        "path": _HEXES,
        "path_this_turn": _HEXES,
    }
)
# The parts of a battle document whose entries the messages call "log entry 3".
_ENTRY_LISTS = frozenset({"log", "undone"})


def _place(parts: tuple[str | int, ...], root: str) -> str:
    """``("initial_state", "combatants", 0, "fighter")`` as the file's readers name
    it: "initial_state.combatants[0].fighter"; "log entry 3" for the log's third."""
    text = root
    for index, part in enumerate(parts):
        if isinstance(part, int):
            if index == 1 and not root and parts[0] in _ENTRY_LISTS:
                text += f" entry {part + 1}"
            else:
                text = f"{text or 'the file'}[{part}]"
        else:
            text += f".{part}" if text else part
    return text or "the file"


def check_counts(data: object, refuse: Callable[[str], Exception], *, root: str = "") -> None:
    """Refuse (``refuse`` makes the error from the message) the first list or
    object in the JSON ``data`` that holds more than its part may
    (``LIMITS_BY_PART``, else ``GENERAL_LIMIT``). ``root`` names ``data`` itself in
    the message ("log entry 3"; empty: a whole document). A battle document's log
    and redo list are counted together too."""
    found = _over_limit(data)
    if found is not None:
        parts, limit, count = found
        raise refuse(limit.message(_place(parts, root), count))
    if isinstance(data, dict):
        log, undone = data.get("log"), data.get("undone")
        if isinstance(log, list) and isinstance(undone, list):
            total = len(log) + len(undone)
            if total > MAX_COMMANDS:
                raise refuse(
                    f"the log and the redo list: {total:,} commands; a battle holds at "
                    f"most {MAX_COMMANDS:,}"
                )


# The limits by part as a plain dict: the look-up runs for every list and object.
_LIMIT_BY_PART: dict[object, int] = {part: limit.limit for part, limit in LIMITS_BY_PART.items()}


def _over_limit(data: object) -> tuple[tuple[str | int, ...], CountLimit, int] | None:
    """The place, limit and size of the first list or object of ``data`` over its
    limit. A quick walk finds whether there is one (a file holds millions of
    values; numbers and text are never looked into), a second one with places
    names it."""
    if isinstance(data, dict | list) and _holds_too_many(data, None):
        return _named_over_limit(data)
    return None


def _holds_too_many(value: dict[str, object] | list[object], part: object) -> bool:
    """Whether ``value`` (the ``part`` of its object) or anything in it is over
    its limit. Recursive: a file's JSON is checked for depth before this
    (``rules.core.strict_json``, at most 64 levels)."""
    if len(value) > _LIMIT_BY_PART.get(part, MAX_ENTRIES):
        return True
    if isinstance(value, dict):
        for key, child in value.items():
            if isinstance(child, dict | list) and _holds_too_many(child, key):
                return True
    else:
        for child in value:
            if isinstance(child, dict | list) and _holds_too_many(child, None):
                return True
    return False


def _named_over_limit(data: object) -> tuple[tuple[str | int, ...], CountLimit, int] | None:
    pending: list[tuple[object, tuple[str | int, ...]]] = [(data, ())]
    while pending:
        value, parts = pending.pop()
        if not isinstance(value, dict | list):
            continue
        part = parts[-1] if parts else None
        limit = LIMITS_BY_PART.get(part, GENERAL_LIMIT) if isinstance(part, str) else GENERAL_LIMIT
        if len(value) > limit.limit:
            return parts, limit, len(value)
        children = value.items() if isinstance(value, dict) else enumerate(value)
        pending.extend((child, (*parts, key)) for key, child in children)
    return None


def state_count_problem(state: BattleState) -> str | None:
    """Why ``state`` holds more than a battle may (too many fighters, items on the
    map, weapons on one fighter, or actions of one fighter this turn), for the
    command that would make it so; None when it keeps to the limits."""
    if len(state.combatants) > MAX_FIGHTERS:
        return f"a battle holds at most {MAX_FIGHTERS:,} fighters"
    if len(state.items) > MAX_ITEMS:
        return f"the map holds at most {MAX_ITEMS:,} items"
    for combatant in state.combatants:
        if len(combatant.fighter.weapons) > MAX_WEAPONS:
            return f"{combatant.name} would carry more than {MAX_WEAPONS} weapons"
        if len(combatant.actions_this_turn) > MAX_TURN_ACTIONS:
            return (
                f"{combatant.name} would attack or defend more than {MAX_TURN_ACTIONS} "
                "times in one turn"
            )
    return None
