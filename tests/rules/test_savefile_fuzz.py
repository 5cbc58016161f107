"""Fuzzing the battle file loader: thousands of malformed files (valid files with a
value replaced, a key dropped or added, the text cut or bytes flipped; random JSON;
random bytes). Nothing but ``BattleFileError`` may come out, and the battle open
beside them never changes."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battle.battle import Battle
from rules.battle.savefile import BattleFileError, read_battle, write_battle
from rules.sets.registry import get_ruleset
from tests.rules.test_history import demo_battle, play_random_sequence

RULESET_TYPES = get_ruleset("000").sheets.saved_types
FUZZ = settings(
    max_examples=800,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _valid_battle() -> Battle:
    battle = demo_battle(11)
    play_random_sequence(battle, random.Random(11), 30)
    return battle


VALID_BATTLE = _valid_battle()
VALID_TEXT = write_battle(VALID_BATTLE, RULESET_TYPES)
VALID_DOCUMENT: dict[str, Any] = json.loads(VALID_TEXT)
OPEN_BATTLE = demo_battle(2)
OPEN_STATE = OPEN_BATTLE.state

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["N", "S", "RED", "SWORD", "@type", "Attack", "MoveCombatant", "1-2", "3/2"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def places(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Every place (path of keys and indexes) in a JSON document."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found.extend(places(value, (*path, key)))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.extend(places(value, (*path, index)))
    return found


VALID_PLACES = places(VALID_DOCUMENT)


def loads_or_refuses(data: str | bytes) -> None:
    try:
        loaded = read_battle(data, rulesets=get_ruleset)
    except BattleFileError as refusal:
        assert str(refusal)  # a message for the dialog
    else:
        assert isinstance(loaded, Battle)
    assert OPEN_BATTLE.state is OPEN_STATE


@FUZZ
@given(
    place=st.sampled_from(VALID_PLACES[1:]),
    how=st.sampled_from(["replace", "delete", "add"]),
    value=json_values,
)
def test_a_valid_file_with_one_value_changed_is_loaded_or_refused(
    place: tuple[object, ...], how: str, value: object
) -> None:
    document = copy.deepcopy(VALID_DOCUMENT)
    parent: Any = document
    for step in place[:-1]:
        parent = parent[step]
    last: Any = place[-1]
    if how == "replace":
        parent[last] = value
    elif how == "delete":
        del parent[last]
    elif isinstance(parent, dict):
        parent[f"{last}_extra"] = value
    else:
        parent.insert(last, value)
    loads_or_refuses(json.dumps(document))


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(VALID_TEXT)), flips=st.binary(max_size=8))
def test_a_valid_file_cut_short_or_with_bytes_flipped_is_refused_or_loaded(
    cut: int, flips: bytes
) -> None:
    data = bytearray(VALID_TEXT.encode("utf-8")[:cut])
    for i, byte in enumerate(flips):
        if data:
            data[(cut * (i + 1) * 7919) % len(data)] = byte
    loads_or_refuses(bytes(data))


@FUZZ
@given(value=json_values)
def test_random_json_is_refused(value: object) -> None:
    loads_or_refuses(json.dumps(value))


@FUZZ
@given(
    value=json_values,
    key=st.sampled_from(sorted(VALID_DOCUMENT)),
)
def test_a_random_part_of_a_file_is_refused_or_loaded(value: object, key: str) -> None:
    document = copy.deepcopy(VALID_DOCUMENT)
    document[key] = value
    loads_or_refuses(json.dumps(document))


@FUZZ
@given(data=st.binary(max_size=200))
def test_random_bytes_are_refused(data: bytes) -> None:
    loads_or_refuses(data)
