"""Strict JSON for files from outside the program: battle files and bundled tables.

``json.loads`` as it is accepts NaN and Infinity, keeps the last of a key given
twice, and raises ``RecursionError`` or a bare ``ValueError`` on deep nesting and
numbers of thousands of digits. ``strict_json`` refuses each of those with the
caller's own error type (``DataError`` for an asset, ``BattleFileError`` for a
battle file), so nothing else comes out of reading a file.
"""

from __future__ import annotations

import json
from collections.abc import Callable

# Deeper than any table or battle file we write (the deepest table has 11 levels).
MAX_JSON_DEPTH = 64


def short_reason(exc: BaseException) -> str:
    """An exception's message, cut to 200 characters, for a message to the user."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:197] + "..."


def strict_json(
    text: str, on_error: Callable[[str], Exception], max_depth: int = MAX_JSON_DEPTH
) -> object:
    """Parse JSON text strictly: no NaN or Infinity, no key twice in an object,
    no nesting deeper than ``max_depth``. ``on_error`` turns a message into the
    exception to raise."""

    def no_constant(name: str) -> object:
        raise on_error(f"the number {name} is not allowed")

    def unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
        found: dict[str, object] = {}
        for key, value in pairs:
            if key in found:
                raise on_error(f"the key {key!r} appears twice in one object")
            found[key] = value
        return found

    try:
        data: object = json.loads(text, parse_constant=no_constant, object_pairs_hook=unique_keys)
    except json.JSONDecodeError as exc:
        raise on_error(
            f"the file is damaged or cut short (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise on_error(f"the file is nested too deeply (more than {max_depth} levels)") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise on_error(f"the file holds a number too large to read ({short_reason(exc)})") from None
    _check_depth(data, max_depth, on_error)
    return data


def _check_depth(data: object, max_depth: int, on_error: Callable[[str], Exception]) -> None:
    level: list[object] = [data]
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            raise on_error(f"the file is nested too deeply (more than {max_depth} levels)")
        following: list[object] = []
        for value in level:
            if isinstance(value, dict):
                following.extend(value.values())
            elif isinstance(value, list):
                following.extend(value)
        level = following
