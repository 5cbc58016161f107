"""A generic, explicit JSON codec for the battle's frozen data, for battle files.

Every value of a battle (its state, its commands, a ruleset's sheets, tracks and
attack choices) is made of frozen dataclasses, enums, tuples, frozensets,
read-only mappings and plain numbers and text. ``SavedTypes`` is the registry of
the dataclasses and enums a file may hold: the roots it is given and every type
their fields name, found once from the type hints. The codec writes each value
by the type its field declares and reads it back the same way, checking every
value against that type. A file names a class only by its registered name
(``"@type": "MoveCombatant"``) where the field allows more than one class (a
command in the log, a ruleset's sheet); nothing named in a file is imported or
evaluated, and a name the registry lacks is refused.

How values look (docs/file-format.md): a dataclass is an object of its fields,
fields at their default left out; an enum member is its name (``"N"``,
``"DEFENSIVE_CROUCH"``); a hex is ``{"col": c, "row": r}`` in the map's offset
columns and rows, as the app shows them; a ``Fraction`` is text (``"3/2"``); a
reach is its text (``"C-1"``); a tuple is a list; a frozenset a sorted list; a
mapping an object.

Errors are ``ValueFileError`` (a ``DataError``) naming the place in the file and
the problem in a game master's terms.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import types
import typing
from collections.abc import Collection, Iterable, Mapping
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from hexmap import Facing, Hex, HexGrid, HexmapError, Reach, parse_digits, parse_signed_digits
from rules.core.dice import Dice
from rules.core.errors import DataError
from rules.core.numbers import NumberTextError, parse_fraction
from rules.core.strict_json import short_reason

TYPE_KEY = "@type"
# Bounds that keep a hostile file from making the battle roll or draw forever.
MAX_INTEGER = 10**9
MAX_FLOAT = 1e9
MAX_TEXT = 10_000
MAX_DICE = 100  # dice in one expression (a weapon's fixed damage)
MAX_SIDES = 1000  # sides of one die (d100 skills; a weapon's d8)


class ValueFileError(DataError):
    """A value of a battle file that is not what its place in the file needs."""


def hex_name(where: Hex) -> str:
    """A hex as the app names it: its column and row on the map."""
    col, row = where.to_offset()
    return f"column {col}, row {row}"


def _short(value: object) -> str:
    text = (
        json.dumps(value) if isinstance(value, str | int | float | bool) else type(value).__name__
    )
    if isinstance(value, dict):
        text = "an object"
    elif isinstance(value, list):
        text = "a list"
    elif value is None:
        text = "null"
    return text if len(text) <= 40 else text[:37] + "..."


def _type_name(hint: object) -> str:
    return getattr(hint, "__name__", str(hint))


_Field = tuple[str, object, object]  # name, type hint, default (MISSING: required)


class SavedTypes:
    """The dataclasses and enums a battle file may hold, by name.

    ``roots`` and every dataclass and enum their fields name are registered; a
    field typed as a base class (``Command``, ``RulesetSheet``) or ``object``
    takes any registered subclass, named in the file."""

    def __init__(
        self, roots: Iterable[type], json_text: Mapping[type, Collection[str]] | None = None
    ) -> None:
        self._by_name: dict[str, type] = {}
        self._fields: dict[type, tuple[_Field, ...]] = {}
        # Text fields that hold JSON (a not yet read sheet's keys): written as the
        # JSON itself, so the file shows them as data, and read back as that text.
        self.json_text: Mapping[type, Collection[str]] = json_text or {}
        for root in roots:
            self._register(root)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self._by_name)

    def __contains__(self, cls: object) -> bool:
        return isinstance(cls, type) and self._by_name.get(cls.__name__) is cls

    def subclasses_of(self, base: type) -> tuple[type, ...]:
        """The registered classes derived from ``base`` (``base`` left out)."""
        return tuple(
            cls for cls in self._by_name.values() if cls is not base and issubclass(cls, base)
        )

    def _register(self, hint: object) -> None:
        if not isinstance(hint, type):
            for arg in typing.get_args(hint):
                self._register(arg)
            return
        if hint in _SPECIAL or hint in _PRIMITIVES or hint is object:
            return
        is_dataclass = dataclasses.is_dataclass(hint)
        if not is_dataclass and not issubclass(hint, Enum):
            for arg in typing.get_args(hint):
                self._register(arg)
            return
        known = self._by_name.get(hint.__name__)
        if known is hint:
            return
        if known is not None:
            raise TypeError(
                f"two saved types are named {hint.__name__}: "
                f"{known.__module__} and {hint.__module__}"
            )
        self._by_name[hint.__name__] = hint
        if is_dataclass:
            fields = self.fields(hint)
            for _, field_hint, _ in fields:
                self._register(field_hint)

    def fields(self, cls: type) -> tuple[_Field, ...]:
        found = self._fields.get(cls)
        if found is None:
            hints = typing.get_type_hints(cls)
            found = tuple(
                (f.name, hints[f.name], _default_of(f)) for f in dataclasses.fields(cls) if f.init
            )
            self._fields[cls] = found
        return found

    def named(self, name: object, allowed: tuple[type, ...], where: str) -> type:
        """The registered class a file names, if the place allows it."""
        if not isinstance(name, str):
            raise ValueFileError(f"{where}: {TYPE_KEY} must be a name, got {_short(name)}")
        cls = self._by_name.get(name)
        if cls is None or not dataclasses.is_dataclass(cls):
            raise ValueFileError(f"{where}: unknown kind {name!r} (made by a newer Hexfray?)")
        if not any(cls is base or issubclass(cls, base) for base in allowed):
            expected = " or ".join(b.__name__ for b in allowed)
            raise ValueFileError(f"{where}: a {name} cannot stand here (a {expected} does)")
        return cls


def _default_of(f: dataclasses.Field[Any]) -> object:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


_PRIMITIVES: frozenset[type] = frozenset({int, str, bool, float, type(None)})
_SPECIAL: frozenset[type] = frozenset({Hex, Fraction, Reach, Dice})


class ValueCodec:
    """Writes and reads values by their declared type, with ``types``'s classes.

    ``grid`` (once known) is the map every hex read must lie on: a hex off the map
    is refused with its column and row."""

    def __init__(self, types_: SavedTypes, grid: HexGrid | None = None) -> None:
        self.types = types_
        self.grid = grid

    # --- writing --------------------------------------------------------------------
    def encode(self, value: object, hint: object) -> object:
        if value is None:
            return None
        if isinstance(value, Enum):
            return value.name
        if isinstance(value, bool | int | str):
            return value
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(f"cannot save the number {value}")
            return value
        if isinstance(value, Hex):
            col, row = value.to_offset()
            return {"col": col, "row": row}
        if isinstance(value, Fraction | Reach | Dice):
            return str(value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return self._encode_dataclass(value, hint)
        origin = typing.get_origin(_without_none(hint))
        args = typing.get_args(_without_none(hint))
        if isinstance(value, tuple):
            if origin is tuple and args and args[-1] is not Ellipsis:
                return [self.encode(v, a) for v, a in zip(value, args, strict=True)]
            item = args[0] if args else object
            return [self.encode(v, item) for v in value]
        if isinstance(value, frozenset):
            item = args[0] if args else object
            encoded = [self.encode(v, item) for v in value]
            return sorted(encoded, key=lambda e: json.dumps(e, sort_keys=True))
        if isinstance(value, Mapping):
            item = args[1] if len(args) == 2 else object
            return {str(k): self.encode(v, item) for k, v in sorted(value.items())}
        raise TypeError(f"cannot save a {type(value).__name__} ({hint})")

    def _encode_dataclass(self, value: object, hint: object) -> dict[str, object]:
        cls = type(value)
        if cls not in self.types:
            raise TypeError(f"{cls.__name__} is not a saved type")
        out: dict[str, object] = {}
        if _dataclasses_of(hint) != (cls,):
            out[TYPE_KEY] = cls.__name__
        for name, field_hint, default in self.types.fields(cls):
            field_value = getattr(value, name)
            if default is not dataclasses.MISSING and _same(field_value, default):
                continue
            if name in self.types.json_text.get(cls, ()) and isinstance(field_value, str):
                out[name] = _embedded_json(field_value)
            else:
                out[name] = self.encode(field_value, field_hint)
        return out

    # --- reading --------------------------------------------------------------------
    def decode(self, data: object, hint: object, where: str) -> Any:
        if hint is object:
            return self._decode_dataclass(data, (object,), where)
        members = typing.get_args(hint) if _is_union(hint) else (hint,)
        if data is None:
            if type(None) in members:
                return None
            raise ValueFileError(f"{where}: a value is missing (null)")
        members = tuple(m for m in members if m is not type(None))
        classes = tuple(m for m in members if dataclasses.is_dataclass(m) or m is object)
        if classes and isinstance(data, dict) and not _special_object(members):
            return self._decode_dataclass(data, classes, where)  # type: ignore[arg-type]
        if len(members) != 1:
            return self._decode_one_of(data, members, where)
        return self._decode_plain(data, members[0], where)

    def _decode_one_of(self, data: object, members: tuple[object, ...], where: str) -> Any:
        """A union of plain types (``Light | Footing``): the first that reads it."""
        for member in members:
            try:
                return self._decode_plain(data, member, where)
            except ValueFileError:
                continue
        expected = " or ".join(_type_name(m) for m in members)
        raise ValueFileError(f"{where}: expected {expected}, got {_short(data)}")

    def _decode_plain(self, data: object, hint: object, where: str) -> Any:
        if hint is bool:
            if not isinstance(data, bool):
                raise ValueFileError(f"{where}: expected true or false, got {_short(data)}")
            return data
        if hint is int:
            return _integer(data, where)
        if hint is float:
            if isinstance(data, bool) or not isinstance(data, int | float):
                raise ValueFileError(f"{where}: expected a number, got {_short(data)}")
            if not math.isfinite(data) or abs(data) > MAX_FLOAT:
                raise ValueFileError(f"{where}: the number {data} is out of range")
            return float(data)
        if hint is str:
            return _text(data, where)
        if isinstance(hint, type):
            if issubclass(hint, Enum):
                return self._decode_enum(data, hint, where)
            if hint is Hex:
                return self._decode_hex(data, where)
            if hint is Fraction:
                return _fraction(data, where)
            if hint is Reach:
                try:
                    return Reach.parse(_text(data, where))
                except HexmapError as exc:
                    raise ValueFileError(f"{where}: {exc}") from None
            if hint is Dice:
                return _dice(data, where)
            if dataclasses.is_dataclass(hint):
                return self._decode_dataclass(data, (hint,), where)
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is tuple:
            items = _list(data, where)
            if args == (Hex, Ellipsis):
                return self._decode_hexes(items, where)
            if args and args[-1] is not Ellipsis:
                if len(items) != len(args):
                    raise ValueFileError(f"{where}: expected {len(args)} values, got {len(items)}")
                return tuple(
                    self.decode(v, a, f"{where}[{i}]")
                    for i, (v, a) in enumerate(zip(items, args, strict=True))
                )
            return tuple(self.decode(v, args[0], f"{where}[{i}]") for i, v in enumerate(items))
        if origin is frozenset:
            items = _list(data, where)
            decoded = [self.decode(v, args[0], f"{where}[{i}]") for i, v in enumerate(items)]
            result = frozenset(decoded)
            if len(result) != len(decoded):
                raise ValueFileError(f"{where}: a value is listed twice")
            return result
        if origin in (Mapping, dict, MappingProxyType, typing.Mapping):
            if not isinstance(data, dict):
                raise ValueFileError(f"{where}: expected an object, got {_short(data)}")
            return MappingProxyType(
                {
                    _text(k, f"{where} key"): self.decode(v, args[1], f"{where}.{k}")
                    for k, v in data.items()
                }
            )
        raise ValueFileError(f"{where}: cannot read a {_type_name(hint)}")

    def _decode_enum(self, data: object, enum: type[Enum], where: str) -> Enum:
        if isinstance(data, str) and data in enum.__members__:
            return enum.__members__[data]
        names = ", ".join(enum.__members__)
        what = "facing" if enum is Facing else _type_name(enum)
        raise ValueFileError(f"{where}: {_short(data)} is not a {what} (one of {names})")

    def _decode_hexes(self, items: list[object], where: str) -> tuple[Hex, ...]:
        """A list of hexes (painted terrain, a path: up to a map's every hex) as
        ``_decode_hex`` reads each, without naming each one's place unless it is
        wrong: a painted map of 160,000 hexes reads in a tenth of a second."""
        grid = self.grid
        width, height = (grid.width, grid.height) if grid is not None else (0, 0)
        hexes: list[Hex] = []
        for i, data in enumerate(items):
            if type(data) is dict and len(data) == 2:
                col, row = data.get("col"), data.get("row")
                if (
                    type(col) is int
                    and type(row) is int
                    and (grid is None or (0 <= col < width and 0 <= row < height))
                    and abs(col) <= MAX_INTEGER
                    and abs(row) <= MAX_INTEGER
                ):
                    hexes.append(Hex.from_offset(col, row))
                    continue
            hexes.append(self._decode_hex(data, f"{where}[{i}]"))
        return tuple(hexes)

    def _decode_hex(self, data: object, where: str) -> Hex:
        if not isinstance(data, dict) or set(data) != {"col", "row"}:
            raise ValueFileError(
                f'{where}: a hex is {{"col": ..., "row": ...}}, got {_short(data)}'
            )
        col = _integer(data["col"], f"{where}.col")
        row = _integer(data["row"], f"{where}.row")
        place = Hex.from_offset(col, row)
        grid = self.grid
        if grid is not None and place not in grid:
            raise ValueFileError(
                f"{where}: {hex_name(place)} is off the map "
                f"({grid.width} columns x {grid.height} rows)"
            )
        return place

    def _decode_dataclass(self, data: object, allowed: tuple[type, ...], where: str) -> Any:
        if not isinstance(data, dict):
            raise ValueFileError(f"{where}: expected an object, got {_short(data)}")
        if TYPE_KEY in data:
            cls = self.types.named(data[TYPE_KEY], allowed, where)
        elif len(allowed) == 1 and allowed[0] is not object and allowed[0] in self.types:
            cls = allowed[0]
        else:
            raise ValueFileError(f"{where}: the object does not say what it is ({TYPE_KEY})")
        fields = self.types.fields(cls)
        known = {name for name, _, _ in fields}
        unknown = sorted(k for k in data if k != TYPE_KEY and k not in known)
        if unknown:
            raise ValueFileError(f"{where}: {cls.__name__} has no {', '.join(unknown)}")
        values: dict[str, object] = {}
        for name, field_hint, default in fields:
            if name in data:
                if name in self.types.json_text.get(cls, ()) and not isinstance(data[name], str):
                    values[name] = json.dumps(data[name], sort_keys=True)
                else:
                    values[name] = self.decode(data[name], field_hint, f"{where}.{name}")
            elif default is dataclasses.MISSING:
                raise ValueFileError(f"{where}: {cls.__name__} needs {name}")
        try:
            return cls(**values)
        except Exception as exc:  # the class's own checks: any refusal is the file's fault
            raise ValueFileError(f"{where}: {short_reason(exc)}") from None


def _embedded_json(text: str) -> object:
    """JSON text as the data it holds, when writing that data back gives the same
    text (so the value read back is equal); else the text itself."""
    try:
        data: object = json.loads(text)
    except ValueError:
        return text
    return data if json.dumps(data, sort_keys=True) == text else text


def _same(value: object, default: object) -> bool:
    try:
        return type(value) is type(default) and bool(value == default)
    except Exception:  # a value that cannot compare is written out
        return False


def _is_union(hint: object) -> bool:
    return isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union


def _without_none(hint: object) -> object:
    if _is_union(hint):
        rest = tuple(a for a in typing.get_args(hint) if a is not type(None))
        return rest[0] if len(rest) == 1 else hint
    return hint


def _dataclasses_of(hint: object) -> tuple[type, ...]:
    members = typing.get_args(hint) if _is_union(hint) else (hint,)
    return tuple(m for m in members if isinstance(m, type) and dataclasses.is_dataclass(m))


def _special_object(members: tuple[object, ...]) -> bool:
    """A hex, written as an object, is no dataclass of the file's own."""
    return Hex in members


def _integer(data: object, where: str) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        raise ValueFileError(f"{where}: expected a whole number, got {_short(data)}")
    if abs(data) > MAX_INTEGER:
        raise ValueFileError(f"{where}: the number {data} is too large")
    return data


def _text(data: object, where: str) -> str:
    if not isinstance(data, str):
        raise ValueFileError(f"{where}: expected text, got {_short(data)}")
    if len(data) > MAX_TEXT:
        raise ValueFileError(f"{where}: the text is too long ({len(data)} characters)")
    return data


def _list(data: object, where: str) -> list[object]:
    if not isinstance(data, list):
        raise ValueFileError(f"{where}: expected a list, got {_short(data)}")
    return data


def _fraction(data: object, where: str) -> Fraction:
    text = _text(data, where)
    try:
        value = parse_fraction(text)  # bounded before it is converted
    except NumberTextError as exc:
        raise ValueFileError(f"{where}: {exc}") from None
    if abs(value.numerator) > MAX_INTEGER or value.denominator > MAX_INTEGER:
        raise ValueFileError(f"{where}: the fraction {text} is too large")
    return value


_DICE_SIDES_AND_ADDS = re.compile(r"([0-9]*)([+-][0-9]+)?")


def _dice(data: object, where: str) -> Dice:
    """ "2d+1" (d6, as ``str(Dice)`` writes them) or "1d8+1" (other sides); every
    number in ASCII digits, read by ``hexmap.digits``."""
    text = _text(data, where)
    count_text, sep, rest = text.partition("d")
    match = _DICE_SIDES_AND_ADDS.fullmatch(rest)
    count = parse_digits(count_text)
    sides = parse_digits(match.group(1)) if match is not None and match.group(1) else 6
    adds = parse_signed_digits(match.group(2)) if match is not None and match.group(2) else 0
    if (
        not sep
        or match is None
        or count is None
        or sides is None
        or adds is None
        or not 0 <= count <= MAX_DICE
        or not 2 <= sides <= MAX_SIDES
        or abs(adds) > MAX_INTEGER
    ):
        raise ValueFileError(f'{where}: expected dice like "2d+1" or "1d8", got {_short(data)}')
    return Dice(count, adds, sides)
