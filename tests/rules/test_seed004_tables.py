"""Seed 004's tables (assets/rulesets/004/): read as they are; damaged (cut short,
a value changed or deleted) they are refused as a ``DataError`` naming the
place, or read; nothing else comes out."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battle.catalog import parse_catalog
from rules.core.assets import asset_root
from rules.core.errors import DataError
from rules.core.strict_json import strict_json
from rules.sets.seed004.tables import catalog, difficulty_table, parse_difficulty
from rules.sets.seed004.wound_effects import parse_wound_effects, wound_effects
from tests.rules.test_savefile_fuzz import json_values, places

FOLDER = asset_root() / "rulesets" / "004"
DIFFICULTY = json.loads((FOLDER / "difficulty.json").read_text(encoding="utf-8"))
WEAPONS = json.loads((FOLDER / "weapons.json").read_text(encoding="utf-8"))
EFFECTS = json.loads((FOLDER / "wound_effects.json").read_text(encoding="utf-8"))


def read(name: str, document: object) -> None:
    if name == "difficulty":
        parse_difficulty(document)
    elif name == "effects":
        parse_wound_effects(document)
    else:
        parse_catalog(document, {"shields": []}, {"armor": []})


def test_the_tables_read_as_they_are() -> None:
    assert [e.roll for e in wound_effects()] == list(range(1, 11))
    table = difficulty_table()
    assert (table.base, table.light_difficulty(9)) == (5, 4)
    assert sorted(catalog().weapons) == [
        "club",
        "crossbow",
        "fists",
        "knife",
        "machete",
        "pistol",
        "sledgehammer",
        "spear",
        "torch",
    ]


@pytest.mark.parametrize("name", ["difficulty.json", "weapons.json", "wound_effects.json"])
def test_a_table_cut_short_is_refused(name: str) -> None:
    text = (FOLDER / name).read_text(encoding="utf-8")
    with pytest.raises(DataError):
        strict_json(text[: len(text) // 2], DataError)


def test_light_rows_must_cover_every_darkness_once() -> None:
    broken = copy.deepcopy(DIFFICULTY)
    broken["light"] = broken["light"][:-1]
    with pytest.raises(DataError, match=r"darkness 0\.\.10"):
        parse_difficulty(broken)


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data(), value=json_values, how=st.sampled_from(["replace", "delete"]))
def test_a_changed_table_is_read_or_refused(data: st.DataObject, value: object, how: str) -> None:
    name, original = data.draw(
        st.sampled_from([("difficulty", DIFFICULTY), ("weapons", WEAPONS), ("effects", EFFECTS)])
    )
    document: Any = copy.deepcopy(original)
    place = data.draw(st.sampled_from(places(document)[1:]))
    parent: Any = document
    for step in place[:-1]:
        parent = parent[step]
    if how == "replace":
        parent[place[-1]] = value
    else:
        del parent[place[-1]]
    try:
        read(name, document)
    except DataError as refusal:
        assert str(refusal)
