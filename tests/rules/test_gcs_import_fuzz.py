"""Hostile GCS files (issue 13): whatever document the reader is fed (random
JSON-like values, the fixtures with a part replaced or removed, huge numbers,
deep nesting, random bytes), it returns an imported character or raises its own
``DataError``, never another exception. Each property stops at a few hundred
examples, so the whole file runs in a few seconds."""

from __future__ import annotations

import json
import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.errors import DataError
from rules.sets.protocol import ImportedCharacter
from rules.sets.seed000.gcs_import import import_gcs, read_gcs

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "gcs"
JSON_FIXTURES = sorted(p for p in FIXTURES.glob("*.gcs") if p.read_bytes().lstrip()[:1] == b"{")
FUZZ = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

# Keys the reader looks for, so that random documents reach past the first checks.
GCS_KEYS = (
    "version", "type", "id", "profile", "name", "attributes", "attr_id", "adj", "calc",
    "value", "current", "damage", "skills", "children", "level", "equipment", "traits",
    "advantages", "weapons", "st", "base", "reach", "parry", "block", "usage", "strength",
    "equipped", "features", "amount", "dr_bonus", "settings", "body_type", "hit_locations",
    "locations", "dr", "weight", "quantity", "handedness", "defaults",
)  # fmt: skip
HUGE_NUMBERS = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40),
    st.sampled_from([10**18, -(10**18), 2**63, 2**64 + 1, 10**300]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308, -1e308, 5e-324, math.inf, -math.inf, math.nan]),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    HUGE_NUMBERS,
    st.integers(min_value=-3, max_value=20),
    st.text(max_size=12),
    st.sampled_from(["1", "C,1", "C, 1", "0F", "No", "sw", "thr", "cut", "1d+2", "st", "hp"]),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(GCS_KEYS), st.text(max_size=6)), inner, max_size=5
        ),
    ),
    max_leaves=30,
)


def fixture(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def places(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place in a parsed document, as the keys and indexes leading to it."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += places(inner, (*path, index))
    return found


def replaced(document: object, path: tuple[object, ...], new: object, *, remove: bool) -> object:
    """A copy of ``document`` with the value at ``path`` replaced by ``new`` (or,
    with ``remove``, taken out of its object or list)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(document, dict):
        copy = dict(document)
        if remove and not rest:
            del copy[head]
        else:
            copy[head] = replaced(copy[head], rest, new, remove=remove)
        return copy
    assert isinstance(document, list) and isinstance(head, int)
    items = list(document)
    if remove and not rest:
        del items[head]
    else:
        items[head] = replaced(items[head], rest, new, remove=remove)
    return items


def nested(value: object, depth: int, as_list: bool) -> object:
    for _ in range(depth):
        value = [value] if as_list else {"children": [value], "name": "box"}
    return value


def imports_or_refuses(document: object) -> None:
    try:
        result = import_gcs(document)
    except DataError:
        return
    assert isinstance(result, ImportedCharacter)


def reads_or_refuses(data: bytes) -> None:
    try:
        result = read_gcs(data)
    except DataError:
        return
    assert isinstance(result, ImportedCharacter)


@FUZZ
@given(JSON_VALUES)
def test_random_documents(document: object) -> None:
    imports_or_refuses(document)


@settings(FUZZ, max_examples=80)
@given(
    st.fixed_dictionaries(
        {"version": st.sampled_from([2, 3, 4, 5])},
        optional={key: JSON_VALUES for key in GCS_KEYS if key != "version"},
    )
)
def test_random_documents_of_a_known_version(document: dict[str, object]) -> None:
    imports_or_refuses(document)


@FUZZ
@given(st.data())
def test_mutated_fixtures(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(JSON_FIXTURES), label="fixture")
    document = fixture(path)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3), label="mutations")):
        where = data.draw(st.sampled_from(places(document)), label="place")
        remove = bool(where) and data.draw(st.booleans(), label="remove")
        new = data.draw(st.one_of(JSON_VALUES, HUGE_NUMBERS), label="value")
        document = replaced(document, where, new, remove=remove)
    imports_or_refuses(document)
    text = json.dumps(document, allow_nan=True).encode()
    reads_or_refuses(text)


@FUZZ
@given(
    st.sampled_from(JSON_FIXTURES),
    st.integers(min_value=0, max_value=400),  # json.dumps itself stops near 1000
    st.booleans(),
    st.sampled_from(["skills", "equipment", "traits", "weapons", "attributes", "profile"]),
)
def test_deep_nesting(path: Path, depth: int, as_list: bool, key: str) -> None:
    document = fixture(path)
    assert isinstance(document, dict)
    document[key] = [nested({"name": "deep", "children": []}, depth, as_list)]
    imports_or_refuses(document)
    reads_or_refuses(json.dumps(document).encode())


@FUZZ
@given(st.binary(max_size=200), st.sampled_from([b"", b"{", b'{"version": 5, "x": [', b"<"]))
def test_random_bytes(data: bytes, prefix: bytes) -> None:
    reads_or_refuses(prefix + data)


@FUZZ
@given(
    st.integers(min_value=1, max_value=200_000),
    st.sampled_from([(b"[", b"]"), (b'{"children": [', b"]}"), (b'{"a": ', b"}")]),
)
def test_deep_nesting_in_the_files_text(depth: int, brackets: tuple[bytes, bytes]) -> None:
    opening, closing = brackets
    reads_or_refuses(b'{"version": 5, "skills": [' + opening * depth + closing * depth + b"]}")
