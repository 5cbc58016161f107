"""Hostile data for the readers' fuzz tests (issue 23): the values a damaged or
malicious file may hold, and real documents with such values put deep inside them.

* numbers written as JSON cannot write them: huge exponents (``1e999999999``), digit
  strings past Python's 4,300-digit limit, floats that overflow to infinity;
* text that looks like a number, dice or a reach but is not quite: the same huge
  exponents and digit runs inside ``"3/2"``, ``"1d+2"`` or ``"C-1"``, and digits
  that are not ASCII (``"²"``, Arabic-Indic ``"٣"``, full-width ``"３"``), which
  ``str.isdigit`` and ``int`` accept;
* lone surrogates, as JSON escapes (``"\\ud800"``) and as raw bytes that are not UTF-8;
* byte-order marks, at the start of the file and inside text;
* deep nesting and huge counts (a list repeated tens of thousands of times);
* line breaks, NUL and other control characters inside names.

A document is plain JSON data (dicts, lists, text, numbers) in which ``Raw`` marks a
value written as the given JSON text verbatim; ``render`` makes the file's bytes.
``mutated`` takes a real document and replaces values at random places with the
values above, so that a reader gets past its first checks to the code deep inside.
"""

from __future__ import annotations

import codecs
import copy
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

Place = tuple[str | int, ...]

NON_ASCII_DIGITS = "²³¹⁰٣۳१১１𝟗߃"
SURROGATES = ("\ud800", "\udfff", "\udc80", "\ud83d")
BOM = "\ufeff"
# Lengths of the runs of digits: long ones that Python still reads as a number,
# then past int's 4,300 digits, and far past.
LONG_RUNS = (20, 400, 4_000, 4_301, 5_000, 200_000)
EXPONENTS = (309, 400, 4_301, 100_000, 10_000_000, 999_999_999, 10**18)
NESTING = (65, 100, 1_000, 100_000)
COUNTS = (1_000, 10_000, 100_000)
# A repeated element is repeated at most so far that the repeats take this many
# bytes: a reader parses a megabyte of JSON objects in a few hundredths of a second,
# and the largest files within the size limits are the explicit cases'
# (tests/*/test_*_known_faults.py).
MAX_REPEATED_BYTES = 1024 * 1024
# Lists of commands, which a reader replays one by one: at a tenth of a millisecond
# to a millisecond each (seed 002's attacks), a long evening's log takes seconds,
# which is no hostile file's doing; the explicit cases hold the longest logs.
COMMAND_LISTS = frozenset({"log", "undone"})
MAX_REPEATED_COMMANDS = 300


class Corpus(dict[str, object]):
    """Real documents by name (shown by their number, not in full, in a report)."""

    def __repr__(self) -> str:
        return f"Corpus({len(self)} documents: {', '.join(sorted(self))[:80]})"


@dataclass(frozen=True)
class HostileFile:
    """A file's bytes, what was done to make them, in words, and the name of the
    real document they were made from."""

    data: bytes
    what: str
    source: str = ""

    def __repr__(self) -> str:
        return f"HostileFile({len(self.data)} bytes: {self.what})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """Hypothesis's report shows the same, not megabytes of the file's bytes."""
        printer.text(repr(self))


@dataclass(frozen=True)
class Raw:
    """A value written into the file as this JSON text, as it is (json.dumps cannot
    write ``1e999999999`` or a number of 5,000 digits as a number)."""

    text: str


@dataclass(frozen=True)
class RawBytes:
    """A string value whose bytes in the file are these, inside the quotes (not
    UTF-8: a lone surrogate as CESU bytes, a stray continuation byte)."""

    data: bytes


@dataclass(frozen=True)
class Repeated:
    """``value`` ``count`` times more, as items of the list it stands in (written
    once at the end, so that a later change of the document cannot grow each copy)."""

    value: object
    count: int


# --- the hostile values -------------------------------------------------------------------


def _scientific(mantissa: str, letter: str, sign: str, exponent: int) -> str:
    return f"{mantissa}{letter}{sign}{exponent}"


exponents = st.one_of(st.sampled_from(EXPONENTS), st.integers(min_value=300, max_value=10**12))
huge_scientific = st.builds(
    _scientific,
    st.sampled_from(["1", "-1", "9.5", "0.1", "123", "-0"]),
    st.sampled_from(["e", "E"]),
    st.sampled_from(["", "+", "-"]),
    exponents,
)
digit_runs = st.builds(
    lambda digit, length: digit * length, st.sampled_from("91"), st.sampled_from(LONG_RUNS)
)

# Numbers as the file writes them: in JSON's syntax, beyond what Python reads quietly.
raw_numbers: st.SearchStrategy[Raw] = st.one_of(
    huge_scientific.map(Raw),
    digit_runs.map(Raw),
    digit_runs.map(lambda run: Raw("-" + run)),
    digit_runs.map(lambda run: Raw("0." + run)),
    st.sampled_from(["1e400", "-1e400", "1e-400", "4.9e-325", "1" + "0" * 4300]).map(Raw),
)
# Numbers json.dumps writes: out of every sheet's range, but readable.
big_integers = st.one_of(
    st.sampled_from([10**9 + 1, -(10**9) - 1, 2**31, 2**63, 2**64 + 1, -(2**63), 10**4000]),
    st.integers(min_value=-(10**30), max_value=10**30),
)
odd_floats = st.sampled_from([1e308, -1e308, 5e-324, 0.1, -0.0, 1e9 + 0.5])


def _in_numeric_text(template: str, number: str) -> str:
    return template.format(number)


NUMERIC_TEMPLATES = (
    "{}", "-{}", "{}/2", "1/{}", "3/{}", "{}d", "{}d6", "1d{}", "1d+{}", "2d-{}", "{}d+1",
    "C-{}", "c{}", "{}-2", "1-{}", "C,{}", "{}e5", "1e{}", "{}.5",
)  # fmt: skip

# What a number inside text may be: an exponent, a long run, a non-ASCII digit.
numeric_parts = st.one_of(
    huge_scientific,
    digit_runs,
    st.sampled_from(NON_ASCII_DIGITS),
    st.sampled_from(NON_ASCII_DIGITS).map(lambda d: "1" + d),
    st.sampled_from(["0", "00", "-0", "+1", " 1", "1_000", "0x10", "1e-999999999"]),
)
numeric_texts = st.builds(_in_numeric_text, st.sampled_from(NUMERIC_TEMPLATES), numeric_parts)

odd_texts = st.sampled_from(
    [
        "", " ", "\x00", "a\nb", "line\r\nbreak", "\t", BOM, BOM + "12", "NaN", "Infinity",
        "-Infinity", "null", "true", "@type", "RawSheet", "c0", "c-1", "C", "0d0", "1d0",
        "1d1000001", "99999d6", "x" * 10_001, "\u202eevil", "\U0001f5e1", "𝕏",
    ]
)  # fmt: skip
surrogate_texts = st.one_of(
    st.sampled_from(SURROGATES),
    st.builds(lambda s, t: f"Bra{s}nn{t}", st.sampled_from(SURROGATES), st.sampled_from(["", "²"])),
)
long_texts = st.sampled_from([10**4 + 1, 10**5, 10**6]).map(lambda n: "x" * n)
invalid_utf8 = st.sampled_from(
    [b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xff", b"\xc0\x80", b"\x80", b"ab\xe2\x82", b"\xf4\x90"]
).map(RawBytes)

hostile_texts: st.SearchStrategy[str] = st.one_of(
    numeric_texts, odd_texts, surrogate_texts, st.text(max_size=12)
)


def deep(depth: int, kind: str) -> Raw:
    """A value nested ``depth`` levels: lists, objects, or both in turn."""
    if kind == "list":
        return Raw("[" * depth + "1" + "]" * depth)
    if kind == "object":
        return Raw('{"a":' * depth + "1" + "}" * depth)
    return Raw('[{"a":' * (depth // 2) + "[]" + "}]" * (depth // 2))


deep_values = st.builds(
    deep, st.sampled_from(NESTING), st.sampled_from(["list", "object", "mixed"])
)

hostile_scalars: st.SearchStrategy[object] = st.one_of(
    raw_numbers, big_integers, odd_floats, hostile_texts, invalid_utf8, st.none(), st.booleans()
)
hostile_values: st.SearchStrategy[object] = st.one_of(
    hostile_scalars,
    deep_values,
    long_texts,
    st.lists(hostile_scalars, max_size=3),
    st.dictionaries(hostile_texts, hostile_scalars, max_size=3),
)


# --- rendering ----------------------------------------------------------------------------


def render(document: object, *, ascii_only: bool = True, indent: int | None = None) -> bytes:
    """The file's bytes: ``document`` as JSON, each ``Raw`` and ``RawBytes`` as it
    is. ``ascii_only`` writes every other character as a JSON escape (a lone
    surrogate as ``\\ud800``); without it, text is UTF-8 and a lone surrogate is
    its three bytes, which are not UTF-8."""
    raws: list[bytes] = []

    def placeholder(value: object) -> str:
        if isinstance(value, Raw):
            raws.append(value.text.encode("ascii"))
        elif isinstance(value, RawBytes):
            raws.append(b'"' + value.data + b'"')
        elif isinstance(value, Repeated):
            one = render(value.value, ascii_only=ascii_only)
            raws.append(b", ".join([one] * value.count))
        else:
            raise TypeError(f"not JSON: {type(value).__name__}")
        return f"\x00{len(raws) - 1}\x00"

    text = json.dumps(document, ensure_ascii=ascii_only, default=placeholder, indent=indent)
    data = text.encode("utf-8", "surrogatepass")
    return _PLACEHOLDER.sub(lambda found: raws[int(found.group(1))], data) if raws else data


_PLACEHOLDER = re.compile(rb'"\\u0000([0-9]+)\\u0000"')


def text_of(data: bytes) -> str:
    """``data`` as text, whatever bytes it holds (to write it in another encoding)."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


ENCODINGS: dict[str, Callable[[bytes], bytes]] = {
    "utf-8": lambda data: data,
    "utf-8 with a BOM": lambda data: codecs.BOM_UTF8 + data,
    "two BOMs": lambda data: codecs.BOM_UTF8 * 2 + data,
    "BOM after blanks": lambda data: b" \n" + codecs.BOM_UTF8 + data,
    "utf-16 with a BOM": lambda data: text_of(data).encode("utf-16", "surrogatepass"),
    "utf-16-le without one": lambda data: text_of(data).encode("utf-16-le", "surrogatepass"),
}


# --- real documents with hostile parts -----------------------------------------------------


def places(data: object, path: Place = (), per_list: int = 50) -> list[Place]:
    """Every place (the keys and indexes leading to it) in a document, the root
    first; of a long list only its first ``per_list`` items."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(places(value, (*path, key), per_list))
    elif isinstance(data, list):
        for index, value in enumerate(data[:per_list]):
            found.extend(places(value, (*path, index), per_list))
    return found


def value_at(document: object, place: Place) -> Any:
    value: Any = document
    for step in place:
        value = value[step]
    return value


_JSON_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def _twisted(value: object, twist: str, part: str) -> object:
    """``value`` nearly as it is: text with ``part`` spliced in, a number written
    as ``part`` (a ``Raw`` number, or a text holding one)."""
    if isinstance(value, str):
        if twist == "append":
            return value + part
        if twist == "prepend":
            return part + value
        digits = [i for i, c in enumerate(value) if c.isdigit()]
        if digits:  # a digit of "3/2", "1d+2" or "C-1" replaced
            at = digits[len(digits) // 2]
            return value[:at] + part + value[at + 1 :]
        return value + part
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Raw(part) if _JSON_NUMBER.fullmatch(part) else part  # or a number as text
    return part


# How a place is changed, the likeliest first: numbers (the hangs and
# tracebacks all start at one), then a value nearly as it was, which gets deepest.
CHANGES = (
    "number", "number", "number", "twist", "twist", "replace", "add", "remove", "repeat", "nest",
)  # fmt: skip
# The fields an object leaves out at their defaults (a damage's "factor"), which a
# reader reads only when they are there: where a hostile number is put too.
KeyChooser = Callable[[Mapping[str, object]], Sequence[str]]


def no_fields(obj: Mapping[str, object]) -> Sequence[str]:
    return ()


def keys_seen(documents: Iterable[object]) -> KeyChooser:
    """The keys of any object in ``documents`` that an object lacks."""
    seen: set[str] = set()
    pending = list(documents)
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            seen.update(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    ordered = sorted(seen)
    return lambda obj: [k for k in ordered if k not in obj]


# A number where the file holds one, or a text that holds a digit ("3/2", "1d+2",
# "C-1", "c4"): in JSON's syntax beyond Python's quiet reading, as text, or the old
# text with a long run, an exponent or a non-ASCII digit in the place of a digit.
# The numbers of issue 23's hangs and tracebacks, drawn as often as all the others.
WORST_NUMBERS: tuple[object, ...] = (
    "1e10000000", "1e999999999", Raw("1e999999999"), Raw("1e400"), Raw("9" * 5000),
    "9" * 5000, "²", "٣", "²d", "c²", "1d+" + "9" * 5000, "C-" + "9" * 5000,
)  # fmt: skip
hostile_numbers: st.SearchStrategy[object] = st.one_of(
    st.sampled_from(WORST_NUMBERS), raw_numbers, numeric_parts, numeric_texts, big_integers
)


@st.composite
def mutated(
    draw: st.DrawFn,
    documents: Mapping[str, object],
    fields: KeyChooser = no_fields,
    max_changes: int = 3,
) -> tuple[object, list[str]]:
    """One of ``documents`` with one to ``max_changes`` places changed, and the
    document's name and the changes made, in words (for a failure's note). A
    change is one of ``CHANGES``:

    * number: a number, a text holding a digit, or a field the object leaves out
      (``fields``) becomes a hostile number (``hostile_numbers``, or the old text
      with a long run, an exponent or a non-ASCII digit in the place of a digit);
    * twist: a text or number nearly as it was, a surrogate, a byte-order mark or a
      numeric part spliced into it;
    * replace: any value becomes a hostile one (``hostile_values``);
    * add: an object gains a key of another object of the documents;
    * remove, repeat (a list to a huge count), nest (deep lists).
    """
    name = draw(st.sampled_from(sorted(documents)), label="document")
    document = copy.deepcopy(documents[name])
    other_keys = keys_seen(documents.values())
    notes: list[str] = [name]
    for _ in range(draw(st.integers(min_value=1, max_value=max_changes), label="changes")):
        how = draw(st.sampled_from(CHANGES), label="how")
        spots = _spots_for(how, document, fields, other_keys)
        if not spots:
            how, spots = "replace", _spots_for("replace", document, fields, other_keys)
        # A field's name first, then one of its places: a field that occurs once
        # (a damage's "factor") is drawn as often as one every fighter has.
        by_name: dict[str, list[Place]] = {}
        for spot in spots:
            by_name.setdefault(_field_name(spot), []).append(spot)
        field = draw(st.sampled_from(sorted(by_name)), label="field")
        where = draw(st.sampled_from(by_name[field]), label="place")
        parent = value_at(document, where[:-1]) if where else None
        old = _get(parent, where[-1]) if where else document
        if how == "remove" and where:
            del parent[where[-1]]  # type: ignore[index]
            notes.append(f"removed {where}")
            continue
        if how == "number":
            new: object = draw(hostile_numbers, label="number")
            if isinstance(old, str) and draw(st.booleans(), label="splice"):
                new = _twisted(old, "splice", draw(numeric_parts, label="part"))
            elif isinstance(old, int | float) and isinstance(new, str):
                new = Raw(new) if _JSON_NUMBER.fullmatch(new) else new
        elif how == "twist":
            new = _twisted(
                old,
                draw(st.sampled_from(["append", "prepend", "splice"]), label="twist"),
                draw(st.one_of(numeric_parts, surrogate_texts, st.just(BOM)), label="part"),
            )
        elif how == "add":
            new = draw(hostile_values, label="value")
        elif how == "repeat":
            assert isinstance(old, list)
            count = draw(st.sampled_from(COUNTS), label="count")
            if where and where[-1] in COMMAND_LISTS:
                count = min(count, MAX_REPEATED_COMMANDS)
            # A copy: a later change of the list's last item must not grow each copy.
            item = copy.deepcopy(old[-1].value if isinstance(old[-1], Repeated) else old[-1])
            size = max(1, len(render(item)))
            new = [*old, Repeated(item, max(1, min(count, MAX_REPEATED_BYTES // size)))]
        elif how == "nest":
            new = deep(draw(st.sampled_from(NESTING), label="depth"), "list")
        else:
            new = draw(hostile_values, label="value")
        notes.append(f"{how} {where}: {_note(new)}")
        if not where:
            document = new
        else:
            parent[where[-1]] = new  # type: ignore[index]
    return document, notes


def _field_name(place: Place) -> str:
    """The name of the field a place is in: its last key ("[]" for a list's item)."""
    return next((str(step) for step in reversed(place) if isinstance(step, str)), "[]")


def _get(parent: object, step: str | int) -> object:
    """The value at ``step`` of ``parent`` (None for a field not there yet)."""
    if isinstance(parent, dict):
        return parent.get(step)
    assert isinstance(parent, list) and isinstance(step, int)
    return parent[step]


def _spots_for(
    how: str, document: object, fields: KeyChooser, other_keys: KeyChooser
) -> list[Place]:
    """The places a change of kind ``how`` fits, a field not there yet as the place
    it would take: numbers and texts with a digit and the ``fields`` objects leave
    out (number), texts and numbers (twist), other keys an object lacks (add), lists
    (repeat); every place but the root (replace, remove, nest)."""
    every = places(document)[1:]
    if how in ("replace", "remove", "nest"):
        return every or [()]
    found: list[Place] = []
    for place in every:
        value = value_at(document, place)
        if how == "number":
            if _is_numeric(value):
                found.append(place)
            elif isinstance(value, dict):
                found.extend((*place, key) for key in fields(value) if key not in value)
        elif how == "twist" and _is_scalar(value):
            found.append(place)
        elif how == "add" and isinstance(value, dict):
            found.extend((*place, key) for key in other_keys(value)[:20])
        elif how == "repeat" and isinstance(value, list) and value:
            found.append(place)
    return found


def _is_numeric(value: object) -> bool:
    if isinstance(value, str):
        return any(c.isdigit() for c in value[:100])
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_scalar(value: object) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _note(value: object) -> str:
    if isinstance(value, list) and value and isinstance(value[-1], Repeated):
        return f"a list of {len(value) - 1 + value[-1].count}"
    if isinstance(value, Raw | RawBytes | str):
        text = repr(value)
        return text if len(text) <= 80 else f"{text[:60]}... ({len(text)} characters)"
    return f"{value!r:.80}"


# A document's file: its bytes, as ASCII with JSON escapes or not.
Renderer = Callable[[object, bool], bytes]


def render_json(document: object, ascii_only: bool) -> bytes:
    return render(document, ascii_only=ascii_only)


@st.composite
def hostile_files(
    draw: st.DrawFn, documents: Mapping[str, object], to_bytes: Renderer = render_json
) -> HostileFile:
    """A real document as a file that is damaged as a whole: another encoding or a
    byte-order mark, cut short, bytes changed, wrapped deep, or random bytes; and
    how, in words."""
    name = draw(st.sampled_from(sorted(documents)), label="document")
    data = to_bytes(documents[name], draw(st.booleans(), label="ascii"))
    broken, how = draw(damaged(data))
    return HostileFile(broken, f"{name}, {how}", name)


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> tuple[bytes, str]:
    """A file's ``data`` damaged as a whole, and how, in words."""
    how = draw(
        st.sampled_from(["encoding", "cut", "flip", "wrap", "trailing", "random"]), label="how"
    )
    if how == "encoding":
        name = draw(st.sampled_from(sorted(ENCODINGS)), label="encoding")
        return ENCODINGS[name](data), name
    if how == "cut":
        at = draw(st.integers(min_value=0, max_value=len(data)), label="at")
        return data[:at], f"cut at byte {at} of {len(data)}"
    if how == "flip":
        changed = bytearray(data)
        for _ in range(draw(st.integers(min_value=1, max_value=4), label="flips")):
            at = draw(st.integers(min_value=0, max_value=len(changed) - 1), label="at")
            changed[at] = draw(st.integers(min_value=0, max_value=255), label="byte")
        return bytes(changed), "bytes changed"
    if how == "wrap":
        depth = draw(st.sampled_from(NESTING), label="depth")
        return b"[" * depth + data + b"]" * depth, f"inside {depth} lists"
    if how == "trailing":
        tail = draw(st.sampled_from([b"\x00", b"}", b"\n{}", codecs.BOM_UTF8, b"\xff" * 3]))
        return data + tail, f"followed by {tail!r}"
    return draw(st.binary(max_size=300), label="bytes"), "random bytes"


@st.composite
def mutated_files(
    draw: st.DrawFn,
    documents: Mapping[str, object],
    fields: KeyChooser = no_fields,
    to_bytes: Renderer = render_json,
    max_changes: int = 3,
) -> HostileFile:
    """A ``mutated`` document as a file's bytes: its text as JSON escapes or as
    UTF-8 (where a lone surrogate is bytes that are not UTF-8), sometimes after a
    byte-order mark; and the changes, in words."""
    document, notes = draw(mutated(documents, fields, max_changes))
    ascii_only = draw(st.sampled_from([True, True, False]), label="ascii")
    data = to_bytes(document, ascii_only)
    notes.append("escaped" if ascii_only else "raw UTF-8")
    if draw(st.sampled_from([False] * 9 + [True]), label="bom"):
        data = codecs.BOM_UTF8 + data
        notes.append("after a BOM")
    return HostileFile(data, "; ".join(notes), notes[0])


# --- the hostile files of issue 23, as explicit examples ------------------------------------


def first_place(document: object, field: str, inside: str | None = None) -> Place:
    """The first place of ``field`` in ``document`` (in an object that has ``inside``
    as a key, when given: ``first_place(doc, "factor", inside="adds")`` is where a
    damage's factor goes)."""
    key = field if inside is None else inside
    for place in places(document, per_list=1_000_000):
        value = value_at(document, place)
        if isinstance(value, dict) and key in value:
            return (*place, field)
    raise LookupError(f"no {field!r} in the document")


def changed_file(
    documents: Mapping[str, object],
    name: str,
    changes: Mapping[Place, object],
    to_bytes: Renderer = render_json,
    prefix: bytes = b"",
) -> HostileFile:
    """The document ``name`` with the value at each place of ``changes`` replaced
    (or added), as a file (after ``prefix``): an explicit example."""
    document = copy.deepcopy(documents[name])
    for where, value in changes.items():
        value_at(document, where[:-1])[where[-1]] = value
    notes = "; ".join(f"{where} = {_note(value)}" for where, value in changes.items())
    before = f"after {prefix!r}; " if prefix else ""
    return HostileFile(prefix + to_bytes(document, True), f"{name}; {before}{notes}", name)
