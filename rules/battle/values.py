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
from collections.abc import Callable, Collection, Iterable, Mapping
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from hexmap import (
    Facing,
    Hex,
    HexGrid,
    HexmapError,
    Reach,
    hex_at_offset,
    parse_digits,
    parse_signed_digits,
)
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
# A reader of one type's values (``_Decoders``): the JSON data in, the value out.
Decoder = Callable[[object], Any]
_ClassDecoder = Callable[[dict[str, object]], Any]  # an object whose class is known
# Map sizes whose readers a registry keeps (a hex read is checked against the map).
_KEPT_MAPS = 4


class _Wrong(ValueFileError):
    """A value that is not what its place needs, found by a reader of
    ``_Decoders``. The place below the value read is gathered as the error leaves
    each level (``parts``, innermost first), so that no place is written out for
    the values that are right; ``ValueCodec.decode`` names it in full."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.parts: list[str] = []

    def place(self) -> str:
        return "".join(reversed(self.parts))


def _below(wrong: _Wrong, part: str) -> _Wrong:
    wrong.parts.append(part)
    return wrong


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
        self._decoders: dict[tuple[int, int] | None, _Decoders] = {}
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
        try:
            return self.allowed_class(name, allowed)
        except _Wrong as wrong:
            raise ValueFileError(f"{where}: {wrong.problem}") from None

    def allowed_class(self, name: object, allowed: tuple[type, ...]) -> type:
        """``named`` without the place: ``_Wrong`` for a name it refuses."""
        if not isinstance(name, str):
            raise _Wrong(f"{TYPE_KEY} must be a name, got {_short(name)}")
        cls = self._by_name.get(name)
        if cls is None or not dataclasses.is_dataclass(cls):
            raise _Wrong(f"unknown kind {name!r} (made by a newer Hexfray?)")
        if not any(cls is base or issubclass(cls, base) for base in allowed):
            expected = " or ".join(b.__name__ for b in allowed)
            raise _Wrong(f"a {name} cannot stand here (a {expected} does)")
        return cls

    def decoders(self, grid: HexGrid | None) -> _Decoders:
        """The readers of this registry's types for a map of ``grid``'s size (made
        once: a registry never changes once built)."""
        key = None if grid is None else (grid.width, grid.height)
        found = self._decoders.get(key)
        if found is None:
            if len(self._decoders) >= _KEPT_MAPS:  # the oldest map's go
                del self._decoders[next(iter(self._decoders))]
            found = self._decoders[key] = _Decoders(self, key)
        return found


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

    @property
    def grid(self) -> HexGrid | None:
        return self._grid

    @grid.setter
    def grid(self, grid: HexGrid | None) -> None:
        self._grid = grid
        self._decoders = self.types.decoders(grid)

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
        """``data`` read as a value of the type ``hint``, every value in it checked;
        ``ValueFileError`` names the place below ``where`` that is wrong."""
        try:
            return self._decoders.of(hint)(data)
        except _Wrong as wrong:
            raise ValueFileError(f"{where}{wrong.place()}: {wrong.problem}") from None


class _Decoders:
    """The reader of each type a file may hold, for one registry and map size.

    A reader is made once for each type, when first needed: a class's fields, their
    types and defaults, and the reader of each field's type are looked up then, not
    for each value read (a file holds hundreds of thousands of small values). A
    reader takes the JSON data and gives the value, or raises ``_Wrong``; the
    checks and messages are the same for every value of a type."""

    def __init__(self, types_: SavedTypes, map_size: tuple[int, int] | None) -> None:
        self.types = types_
        self.map_size = map_size
        self._by_hint: dict[object, Decoder] = {}
        self._by_class: dict[type, _ClassDecoder] = {}
        self._by_allowed: dict[tuple[type, ...], Decoder] = {}

    def of(self, hint: object) -> Decoder:
        """The reader of values of the type ``hint``."""
        try:
            found = self._by_hint.get(hint)
        except TypeError:  # a hint that cannot be hashed: made each time
            return self._made(hint)
        if found is None:
            found = self._by_hint[hint] = self._made(hint)
        return found

    def _made(self, hint: object) -> Decoder:
        if hint is object:
            return self._objects((object,))
        members = typing.get_args(hint) if _is_union(hint) else (hint,)
        nullable = type(None) in members
        members = tuple(m for m in members if m is not type(None))
        classes = tuple(
            m
            for m in members
            if isinstance(m, type) and (dataclasses.is_dataclass(m) or m is object)
        )
        plain = self._plain(members[0]) if len(members) == 1 else self._one_of(members)
        objects = self._objects(classes) if classes and not _special_object(members) else None
        if objects is None and not nullable:
            if plain is _integer:
                return _integer_present
            if plain is _text:
                return _text_present

            def present(data: object) -> Any:
                if data is None:
                    raise _Wrong(_MISSING)
                return plain(data)

            return present

        def decode(data: object) -> Any:
            if data is None:
                if nullable:
                    return None
                raise _Wrong(_MISSING)
            if objects is not None and isinstance(data, dict):
                return objects(data)
            return plain(data)

        return decode

    def _one_of(self, members: tuple[object, ...]) -> Decoder:
        """A union of plain types (``Light | Footing``): the first that reads it."""
        readers = tuple(self._plain(m) for m in members)
        expected = " or ".join(_type_name(m) for m in members)

        def decode(data: object) -> Any:
            for reader in readers:
                try:
                    return reader(data)
                except _Wrong:
                    continue
            raise _Wrong(f"expected {expected}, got {_short(data)}")

        return decode

    def _plain(self, hint: object) -> Decoder:
        if hint is bool:
            return _boolean
        if hint is int:
            return _integer
        if hint is float:
            return _float
        if hint is str:
            return _text
        if isinstance(hint, type):
            if issubclass(hint, Enum):
                return _enum(hint)
            if hint is Hex:
                return self._hex
            if hint is Fraction:
                return _fraction
            if hint is Reach:
                return _reach
            if hint is Dice:
                return _dice
            if dataclasses.is_dataclass(hint):
                return self._objects((hint,))
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is tuple:
            if args == (Hex, Ellipsis):
                return self._hexes
            if args and args[-1] is not Ellipsis:
                return _fixed_tuple(tuple(self.of(a) for a in args))
            return _tuple(self.of(args[0]))
        if origin is frozenset:
            return _frozenset(self.of(args[0]))
        if origin in (Mapping, dict, MappingProxyType, typing.Mapping):
            return _mapping(self.of(args[1]))
        problem = f"cannot read a {_type_name(hint)}"

        def unreadable(data: object) -> Any:
            raise _Wrong(problem)

        return unreadable

    def _objects(self, allowed: tuple[type, ...]) -> Decoder:
        """The reader of an object of one of the ``allowed`` classes: the class it
        names (``TYPE_KEY``), or the only one allowed."""
        found = self._by_allowed.get(allowed)
        if found is not None:
            return found
        types_ = self.types
        only = allowed[0]
        default = only if len(allowed) == 1 and only is not object and only in types_ else None
        named: dict[str, type] = {}  # the names read so far
        class_reader = self._class

        def decode(data: object) -> Any:
            if not isinstance(data, dict):
                raise _Wrong(f"expected an object, got {_short(data)}")
            if TYPE_KEY in data:
                name = data[TYPE_KEY]
                cls = named.get(name) if isinstance(name, str) else None
                if cls is None:
                    cls = types_.allowed_class(name, allowed)
                    named[name] = cls
            elif default is not None:
                cls = default
            else:
                raise _Wrong(f"the object does not say what it is ({TYPE_KEY})")
            return class_reader(cls)(data)

        self._by_allowed[allowed] = decode
        return decode

    def _class(self, cls: type) -> _ClassDecoder:
        found = self._by_class.get(cls)
        if found is None:
            found = self._by_class[cls] = self._made_class(cls)
        return found

    def _made_class(self, cls: type) -> _ClassDecoder:
        """The reader of an object of ``cls`` (a dict, its class known): every key
        one of its fields, every field without a default there, each field's value
        read by its type's reader; then the class's own checks."""
        fields = self.types.fields(cls)
        known = frozenset(name for name, _, _ in fields)
        keys = known | {TYPE_KEY}
        as_json = frozenset(self.types.json_text.get(cls, ()))
        plan = tuple(
            (name, self.of(hint), default is dataclasses.MISSING, name in as_json)
            for name, hint, default in fields
        )
        class_name = cls.__name__

        def decode(data: dict[str, object]) -> Any:
            if not keys.issuperset(data):
                unknown = sorted(k for k in data if k != TYPE_KEY and k not in known)
                raise _Wrong(f"{class_name} has no {', '.join(unknown)}")
            values: dict[str, object] = {}
            for name, reader, required, json_text in plan:
                if name in data:
                    value = data[name]
                    if json_text and not isinstance(value, str):
                        values[name] = json.dumps(value, sort_keys=True)
                        continue
                    try:
                        values[name] = reader(value)
                    except _Wrong as wrong:
                        raise _below(wrong, f".{name}") from None
                elif required:
                    raise _Wrong(f"{class_name} needs {name}")
            try:
                return cls(**values)
            except Exception as exc:  # the class's own checks: any refusal is the file's fault
                raise _Wrong(short_reason(exc)) from None

        return decode

    def _hexes(self, data: object) -> tuple[Hex, ...]:
        """A list of hexes (painted terrain, a path: up to a map's every hex) as
        ``_hex`` reads each, checked inline: a painted map of 90,000 hexes reads in
        a few hundredths of a second."""
        items = _list(data)
        size = self.map_size
        width, height = size if size is not None else (0, 0)
        hexes: list[Hex] = []
        append = hexes.append
        for value in items:
            if type(value) is dict and len(value) == 2:
                col, row = value.get("col"), value.get("row")
                if (
                    type(col) is int
                    and type(row) is int
                    and (size is None or (0 <= col < width and 0 <= row < height))
                    and -MAX_INTEGER <= col <= MAX_INTEGER
                    and -MAX_INTEGER <= row <= MAX_INTEGER
                ):
                    append(hex_at_offset(col, row))
                    continue
            try:
                append(self._hex(value))
            except _Wrong as wrong:
                raise _below(wrong, f"[{len(hexes)}]") from None
        return tuple(hexes)

    def _hex(self, data: object) -> Hex:
        if not isinstance(data, dict) or data.keys() != {"col", "row"}:
            raise _Wrong(f'a hex is {{"col": ..., "row": ...}}, got {_short(data)}')
        try:
            col = _integer(data["col"])
        except _Wrong as wrong:
            raise _below(wrong, ".col") from None
        try:
            row = _integer(data["row"])
        except _Wrong as wrong:
            raise _below(wrong, ".row") from None
        place = Hex.from_offset(col, row)
        size = self.map_size
        if size is not None and not (0 <= col < size[0] and 0 <= row < size[1]):
            raise _Wrong(f"{hex_name(place)} is off the map ({size[0]} columns x {size[1]} rows)")
        return place


_MISSING = "a value is missing (null)"


def _enum(enum: type[Enum]) -> Decoder:
    members: dict[str, Enum] = dict(enum.__members__)
    names = ", ".join(enum.__members__)
    what = "facing" if enum is Facing else _type_name(enum)

    def decode(data: object) -> Enum:
        if isinstance(data, str):
            member = members.get(data)
            if member is not None:
                return member
        raise _Wrong(f"{_short(data)} is not a {what} (one of {names})")

    return decode


def _tuple(item: Decoder) -> Decoder:
    def decode(data: object) -> tuple[object, ...]:
        items = _list(data)
        out: list[object] = []
        append = out.append
        try:
            for value in items:
                append(item(value))
        except _Wrong as wrong:
            raise _below(wrong, f"[{len(out)}]") from None
        return tuple(out)

    return decode


def _fixed_tuple(readers: tuple[Decoder, ...]) -> Decoder:
    count = len(readers)

    def decode(data: object) -> tuple[object, ...]:
        items = _list(data)
        if len(items) != count:
            raise _Wrong(f"expected {count} values, got {len(items)}")
        out: list[object] = []
        append = out.append
        try:
            for reader, value in zip(readers, items, strict=True):
                append(reader(value))
        except _Wrong as wrong:
            raise _below(wrong, f"[{len(out)}]") from None
        return tuple(out)

    return decode


def _frozenset(item: Decoder) -> Decoder:
    def decode(data: object) -> frozenset[object]:
        items = _list(data)
        decoded: list[object] = []
        append = decoded.append
        try:
            for value in items:
                append(item(value))
        except _Wrong as wrong:
            raise _below(wrong, f"[{len(decoded)}]") from None
        result = frozenset(decoded)
        if len(result) != len(decoded):
            raise _Wrong("a value is listed twice")
        return result

    return decode


def _mapping(item: Decoder) -> Decoder:
    def decode(data: object) -> Mapping[str, object]:
        if not isinstance(data, dict):
            raise _Wrong(f"expected an object, got {_short(data)}")
        out: dict[str, object] = {}
        for key, value in data.items():
            try:
                text = _text(key)
            except _Wrong as wrong:
                raise _below(wrong, " key") from None
            try:
                out[text] = item(value)
            except _Wrong as wrong:
                raise _below(wrong, f".{key}") from None
        return MappingProxyType(out)

    return decode


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


# The readers of plain values: the value, or ``_Wrong``.


def _integer(data: object) -> int:
    if type(data) is int and -MAX_INTEGER <= data <= MAX_INTEGER:
        return data
    if isinstance(data, bool) or not isinstance(data, int):
        raise _Wrong(f"expected a whole number, got {_short(data)}")
    if abs(data) > MAX_INTEGER:
        raise _Wrong(f"the number {data} is too large")
    return data


def _integer_present(data: object) -> int:
    if type(data) is int and -MAX_INTEGER <= data <= MAX_INTEGER:
        return data
    if data is None:
        raise _Wrong(_MISSING)
    return _integer(data)


def _text(data: object) -> str:
    if not isinstance(data, str):
        raise _Wrong(f"expected text, got {_short(data)}")
    if len(data) > MAX_TEXT:
        raise _Wrong(f"the text is too long ({len(data)} characters)")
    return data


def _text_present(data: object) -> str:
    if data is None:
        raise _Wrong(_MISSING)
    return _text(data)


def _boolean(data: object) -> bool:
    if not isinstance(data, bool):
        raise _Wrong(f"expected true or false, got {_short(data)}")
    return data


def _float(data: object) -> float:
    if isinstance(data, bool) or not isinstance(data, int | float):
        raise _Wrong(f"expected a number, got {_short(data)}")
    if not math.isfinite(data) or abs(data) > MAX_FLOAT:
        raise _Wrong(f"the number {data} is out of range")
    return float(data)


def _list(data: object) -> list[object]:
    if not isinstance(data, list):
        raise _Wrong(f"expected a list, got {_short(data)}")
    return data


def _fraction(data: object) -> Fraction:
    text = _text(data)
    try:
        value = parse_fraction(text)  # bounded before it is converted
    except NumberTextError as exc:
        raise _Wrong(str(exc)) from None
    if abs(value.numerator) > MAX_INTEGER or value.denominator > MAX_INTEGER:
        raise _Wrong(f"the fraction {text} is too large")
    return value


def _reach(data: object) -> Reach:
    try:
        return Reach.parse(_text(data))
    except HexmapError as exc:
        raise _Wrong(str(exc)) from None


_DICE_SIDES_AND_ADDS = re.compile(r"([0-9]*)([+-][0-9]+)?")


def _dice(data: object) -> Dice:
    """ "2d+1" (d6, as ``str(Dice)`` writes them) or "1d8+1" (other sides); every
    number in ASCII digits, read by ``hexmap.digits``."""
    text = _text(data)
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
        raise _Wrong(f'expected dice like "2d+1" or "1d8", got {_short(data)}')
    return Dice(count, adds, sides)
