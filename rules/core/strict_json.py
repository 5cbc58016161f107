"""Strict JSON for files from outside the program: battle files and bundled tables.

``json.loads`` as it is accepts NaN and Infinity, keeps the last of a key given
twice, raises ``RecursionError`` or a bare ``ValueError`` on deep nesting and
numbers of thousands of digits, turns ``1e999999999`` into infinity and refuses a
byte-order mark. ``strict_json`` refuses each of those but the mark, which it
skips, with the caller's own error type (``DataError`` for an asset,
``BattleFileError`` for a battle file), so nothing else comes out of reading a
file. Its numbers are bounded before they are converted (``bounded_loads``, which
the GCS import uses as well).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from rules.core.numbers import MAX_NUMBER_CHARS, NumberTextError, number_text_problem

# Deeper than any table or battle file we write (the deepest table has 11 levels).
MAX_JSON_DEPTH = 64
BYTE_ORDER_MARK = "\ufeff"


def short_reason(exc: BaseException) -> str:
    """An exception's message, cut to 200 characters, for a message to the user."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def strict_json(
    text: str, on_error: Callable[[str], Exception], max_depth: int = MAX_JSON_DEPTH
) -> object:
    """Parse JSON text strictly: no NaN or Infinity, no key twice in an object,
    no nesting deeper than ``max_depth``, no number too long or too large
    (``bounded_loads``); a byte-order mark before it is skipped. ``on_error``
    turns a message into the exception to raise."""

    def no_constant(name: str) -> object:
        raise on_error(f"the number {name} is not allowed")

    def unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
        found = dict(pairs)  # in C: a file's million objects are read in a second
        if len(found) < len(pairs):
            raise on_error(f"the key {_first_repeated(pairs)!r} appears twice in one object")
        return found

    if text.startswith(BYTE_ORDER_MARK):  # some editors put one before UTF-8 text
        text = text[len(BYTE_ORDER_MARK) :]
    try:
        data = bounded_loads(
            text, parse_constant=no_constant, object_pairs_hook=unique_keys, max_depth=max_depth
        )
    except json.JSONDecodeError as exc:
        raise on_error(
            f"the file is damaged or cut short (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise on_error(f"the file is nested too deeply (more than {max_depth} levels)") from None
    except NumberTextError as exc:
        raise on_error(str(exc)) from None
    except ValueError as exc:  # nothing known; as every reader's, one line for the GM
        raise on_error(f"the file cannot be read ({short_reason(exc)})") from None
    return data


# The largest whole number of at most ``MAX_NUMBER_CHARS`` digits, bar one.
_LARGEST_SHORT_INT = 10 ** (MAX_NUMBER_CHARS - 1)


def _first_repeated(pairs: list[tuple[str, object]]) -> str:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    raise AssertionError("no key repeats")


class _UnreadNumber:
    """A number of the text that was not converted, and why: it stands in the data
    until ``bounded_loads`` has found its place to name."""

    __slots__ = ("problem",)

    def __init__(self, problem: str) -> None:
        self.problem = problem


def bounded_loads(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, **options: Any) -> object:
    """``json.loads(text, **options)`` with every number's text bounded before it
    is converted (``rules.core.numbers.number_text_problem``: its length and its
    power of ten), no infinite float, and nothing nested deeper than
    ``max_depth`` (``RecursionError``, as ``json`` itself raises for the deepest).
    A number beyond them is a ``NumberTextError`` naming its place
    ("log[3].dice[0]: the number ...").

    Whole numbers are read by Python itself, which refuses more than 4,300
    digits at once, and checked after: a hook for each of a file's hundreds of
    thousands of numbers would take a second. Only a file that holds a long one
    is read again number by number, to name it."""
    try:
        data = _loads_checking_each_number(text, int, options)
    except ValueError as exc:
        if isinstance(exc, json.JSONDecodeError | NumberTextError):
            raise
        return _loads_checking_each_number(text, None, options)  # Python refused a number
    if not _within_depth_and_short(data, max_depth):
        return _loads_checking_each_number(text, None, options)
    return data


def _loads_checking_each_number(
    text: str | bytes, read_int: Callable[[str], object] | None, options: dict[str, Any]
) -> object:
    """``json.loads`` with each float's text (and each whole number's, unless
    ``read_int`` converts them) bounded by ``number_text_problem``; the first
    number beyond it raises ``NumberTextError`` with its place."""
    unread: list[_UnreadNumber] = []

    def checked(number: str, convert: Callable[[str], object]) -> object:
        problem = number_text_problem(number)
        if problem is None:
            value = convert(number)
            if not isinstance(value, float) or math.isfinite(value):
                return value
            problem = f"the number {number} is too large to read"
        unread.append(_UnreadNumber(problem))
        return unread[-1]

    def read_float(number: str) -> object:
        if len(number) <= MAX_NUMBER_CHARS and "e" not in number and "E" not in number:
            return float(number)  # short, without a power of ten: always finite
        return checked(number, float)

    data: object = json.loads(
        text,
        parse_int=read_int or (lambda number: checked(number, int)),
        parse_float=read_float,
        **options,
    )
    if unread:
        place = _place_of(data, unread[0], MAX_JSON_DEPTH * 4)
        raise NumberTextError(f"{place}: {unread[0].problem}" if place else unread[0].problem)
    return data


def _place_of(data: object, target: object, max_depth: int) -> str:
    """Where ``target`` stands in ``data``, as messages name it
    ("initial_state.combatants[0].hp"); "" at the top or when deeper than
    ``max_depth`` (a depth the caller refuses anyway)."""
    pending: list[tuple[object, str, int]] = [(data, "", 0)]
    while pending:
        value, place, depth = pending.pop()
        if value is target:
            return place
        if depth >= max_depth:
            continue
        if isinstance(value, dict):
            pending.extend(
                (v, f"{place}.{k}" if place else str(k), depth + 1) for k, v in value.items()
            )
        elif isinstance(value, list):
            pending.extend((v, f"{place}[{i}]", depth + 1) for i, v in enumerate(value))
    return ""


def _within_depth_and_short(data: object, max_depth: int) -> bool:
    """Whether ``data`` holds no whole number longer than a number's text may be;
    ``RecursionError`` if it is nested deeper than ``max_depth``. Level by level,
    without a stack."""
    short = True
    level: list[object] = [data]
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            raise RecursionError(f"nested more than {max_depth} deep")
        following: list[object] = []
        extend = following.extend
        for value in level:
            if type(value) is str:  # most values: nothing to look at
                continue
            if isinstance(value, dict):
                extend(value.values())
            elif isinstance(value, list):
                extend(value)
            elif isinstance(value, int) and not -_LARGEST_SHORT_INT < value < _LARGEST_SHORT_INT:
                short = False  # the depth is still looked at to the bottom
        level = following
    return short


def check_depth(data: object, max_depth: int, on_error: Callable[[str], Exception]) -> None:
    """Refuse parsed JSON ``data`` nested deeper than ``max_depth`` (``on_error``),
    before anything walks it recursively."""
    try:
        _within_depth_and_short(data, max_depth)
    except RecursionError:
        raise on_error(f"the file is nested too deeply (more than {max_depth} levels)") from None
