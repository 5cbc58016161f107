"""Checked access to parsed JSON for the pure table loaders.

Every loader turns ``json.loads`` output into frozen objects through these
helpers, so any malformed table raises ``DataError`` naming the place in the data
(``weapons[3].modes[0].reach``) instead of a bare KeyError or TypeError.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from enum import Enum
from fractions import Fraction
from typing import TypeVar

from rules.core.citation import Citation
from rules.core.errors import DataError
from rules.core.numbers import NumberTextError, parse_fraction
from rules.core.strict_json import strict_json

E = TypeVar("E", bound=Enum)

JSONObject = Mapping[str, object]


def parse_json_text(text: str, where: str) -> object:
    """JSON that a file holds as text (a sheet's keys not yet read), parsed as
    strictly as the file itself (``strict_json``: numbers bounded, no key twice)."""
    return strict_json(text, lambda problem: DataError(f"{where}: {problem}"))


def as_object(value: object, where: str) -> JSONObject:
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise DataError(f"{where}: expected an object, got {_short(value)}")
    return value


def as_list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise DataError(f"{where}: expected a list, got {_short(value)}")
    return value


def check_keys(
    obj: JSONObject, where: str, required: Collection[str], optional: Collection[str] = ()
) -> None:
    """Missing required keys and unknown keys (typos) are both errors."""
    missing = [k for k in required if k not in obj]
    if missing:
        raise DataError(f"{where}: missing {', '.join(sorted(missing))}")
    unknown = [k for k in obj if k not in required and k not in optional]
    if unknown:
        raise DataError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")


def get_str(obj: JSONObject, key: str, where: str, default: str | None = None) -> str:
    value = obj.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where}.{key}: expected a non-empty string, got {_short(value)}")
    return value


def get_int(obj: JSONObject, key: str, where: str, default: int | None = None) -> int:
    value = obj.get(key, default)
    return as_int(value, f"{where}.{key}")


def as_int(value: object, where: str) -> int:
    # bool is an int subclass; true/false where a number belongs is a data error.
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"{where}: expected an integer, got {_short(value)}")
    return value


def as_int_range(value: object, where: str) -> tuple[int, int]:
    """An inclusive ``[low, high]`` pair of integers, such as a row of dice totals."""
    items = as_list(value, where)
    if len(items) != 2:
        raise DataError(f"{where}: expected [low, high]")
    low, high = as_int(items[0], f"{where}[0]"), as_int(items[1], f"{where}[1]")
    if low > high:
        raise DataError(f"{where}: low {low} is above high {high}")
    return low, high


def get_number(obj: JSONObject, key: str, where: str, default: float | None = None) -> float:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"{where}.{key}: expected a number, got {_short(value)}")
    if value < 0:
        raise DataError(f"{where}.{key}: must not be negative, got {value}")
    return float(value)


def get_bool(obj: JSONObject, key: str, where: str, default: bool | None = None) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise DataError(f"{where}.{key}: expected true or false, got {_short(value)}")
    return value


def get_enum(obj: JSONObject, key: str, enum: type[E], where: str, default: E | None = None) -> E:
    if key not in obj and default is not None:
        return default
    return as_enum(obj.get(key), enum, f"{where}.{key}")


def as_enum(value: object, enum: type[E], where: str) -> E:
    for member in enum:
        if value == member.value or value == member.name:
            return member
    choices = ", ".join(repr(m.value) for m in enum)
    raise DataError(f"{where}: {_short(value)} is not one of {choices}")


def as_fraction(value: object, where: str) -> Fraction:
    """An exact number: an integer or a string such as "3/2" (bounded before it is
    converted: ``rules.core.numbers.parse_fraction``)."""

    if isinstance(value, bool):
        raise DataError(f"{where}: expected a number or fraction, got {value!r}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return parse_fraction(value)
        except NumberTextError as exc:
            raise DataError(f"{where}: {exc}") from None
    raise DataError(f'{where}: expected an integer or a fraction like "3/2", got {_short(value)}')


def get_citation(
    obj: JSONObject, key: str, where: str, default: Citation | None = None
) -> Citation:
    """A citation object ``{"seed": "000", "heading": "BLOCK"}`` under ``key``."""
    if key not in obj:
        if default is None:
            raise DataError(f"{where}: missing {key}")
        return default
    c = as_object(obj[key], f"{where}.{key}")
    check_keys(c, f"{where}.{key}", ("seed", "heading"))
    return Citation(get_str(c, "seed", f"{where}.{key}"), get_str(c, "heading", f"{where}.{key}"))


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
