"""Damaged bundled files at start: each JSON table the program reads as it starts
(gear, fighters, the demo battle, every seed 000 and 001 table), cut short or with a
value changed, is refused as a ``DataError`` (what the start-up dialog shows) or
read; nothing else comes out."""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.battle import catalog
from rules.core import assets
from rules.core.errors import DataError
from rules.sets.seed000.tables import Tables
from tests.rules.test_savefile_fuzz import json_values, places

ASSETS = assets.asset_root()
# The tables read at start: everything under assets/ but the self-test's golden log
# and the template library, which the templates pane reads later and where a broken
# file is named and skipped, not a reason to stop (tests/app/test_templates.py).
# The tables of rulesets 002 to 004 are read when a battle of that ruleset first asks
# for them (each ruleset's own tests damage them), and the demo set-ups only by
# packaging/make_demo_battles.py.
NOT_AT_START = {"selftest", "templates", "002", "003", "004"}
START_TABLES = sorted(
    str(p.relative_to(ASSETS))
    for p in ASSETS.rglob("*.json")
    if p.parts[-2] not in NOT_AT_START and p.name != "demo-setup.json"
)
COPY = Path(tempfile.mkdtemp(prefix="hexfray-assets-"))
shutil.copytree(ASSETS, COPY / "assets")
ORIGINALS = {name: (ASSETS / name).read_bytes() for name in START_TABLES}
DOCUMENTS: dict[str, Any] = {name: json.loads(ORIGINALS[name]) for name in START_TABLES}
PLACES = {name: places(DOCUMENTS[name])[1:] for name in START_TABLES}


def read_at_start() -> None:
    """What start-up reads, with no table cached from before."""
    catalog.load_catalog.cache_clear()
    catalog.load_fighters.cache_clear()
    catalog.load_demo_battle()
    for options in ((), ("locations-001",)):
        Tables(options).read_every_table()


@pytest.fixture(autouse=True)
def copied_assets(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(assets, "bundle_root", lambda: COPY)
    yield
    for name, data in ORIGINALS.items():
        (COPY / "assets" / name).write_bytes(data)
    catalog.load_catalog.cache_clear()
    catalog.load_fighters.cache_clear()


def reads_or_refuses(name: str, data: bytes) -> None:
    (COPY / "assets" / name).write_bytes(data)
    try:
        read_at_start()
    except DataError as refusal:
        assert str(refusal)
    finally:
        (COPY / "assets" / name).write_bytes(ORIGINALS[name])


def test_the_copied_tables_read_as_they_are() -> None:
    read_at_start()


@pytest.mark.parametrize("name", START_TABLES)
def test_a_table_cut_short_names_itself(name: str) -> None:
    (COPY / "assets" / name).write_bytes(ORIGINALS[name][: len(ORIGINALS[name]) // 2])
    with pytest.raises(DataError, match=f"asset {name} is damaged"):
        read_at_start()


ASSET_FUZZ = settings(
    max_examples=400,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@ASSET_FUZZ
@given(data=st.data(), value=json_values, how=st.sampled_from(["replace", "delete"]))
def test_a_table_with_a_value_changed_is_read_or_refused(
    data: st.DataObject, value: object, how: str
) -> None:
    name = data.draw(st.sampled_from(START_TABLES))
    place = data.draw(st.sampled_from(PLACES[name]))
    document = copy.deepcopy(DOCUMENTS[name])
    parent: Any = document
    for step in place[:-1]:
        parent = parent[step]
    if how == "replace":
        parent[place[-1]] = value
    else:
        del parent[place[-1]]
    reads_or_refuses(name, json.dumps(document).encode("utf-8"))


@ASSET_FUZZ
@given(data=st.data(), noise=st.binary(min_size=1, max_size=6))
def test_a_table_with_bytes_flipped_is_read_or_refused(data: st.DataObject, noise: bytes) -> None:
    name = data.draw(st.sampled_from(START_TABLES))
    damaged = bytearray(ORIGINALS[name])
    at = data.draw(st.integers(min_value=0, max_value=len(damaged) - 1))
    damaged[at : at + len(noise)] = noise
    reads_or_refuses(name, bytes(damaged))
