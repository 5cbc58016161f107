"""The battle layer knows no ruleset: ``rules.battle`` names no ruleset key and no
ruleset package in its code; what it needs to know of rulesets it asks the
registry (``rules.sets.registry``): the ruleset a file without a key means, and
whose a sheet is (each ruleset's sheet class declares its key, and the registry
knows which ruleset reads the catalog's not yet read sheets)."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import RawSheet, load_fighters
from rules.battle.model import Combatant, RulesetSheet, Side
from rules.battle.savefile import BattleFileError, SavingRuleset, read_battle, write_battle
from rules.battle.state import BattleState
from rules.core.formats import DEFAULT_RULESET_KEY
from rules.sets.registry import RULESETS, get_ruleset, raw_sheet_owner, sheet_owner
from rules.sets.sheet_refusal import sheet_ruleset_key

BATTLE_PACKAGE = Path(__file__).resolve().parents[2] / "rules" / "battle"

# A ruleset key ("000", "002" ...) standing alone in a text, or a ruleset package
# ("seed000", "rules.sets", as a regular expression "rules\.sets\.seed(...)" too).
RULESET_KEY = re.compile(r"(?<![\w.])0\d\d(?![\w])")
RULESET_PACKAGE = re.compile(r"seed\W{0,2}\d|rules\W{0,2}\.sets|sets\W{0,2}\.seed", re.IGNORECASE)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that stand alone as statements: docstrings
    (of modules, classes, functions and attributes), which may name rulesets."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def ruleset_names_in_code(source: str) -> Iterator[tuple[int, str]]:
    """(line, text) of every string literal (f-string parts included) and every
    name or imported module in ``source``'s code that names a ruleset key or
    package; docstrings and comments are not code and may."""
    tree = ast.parse(source)
    skipped = docstrings(tree)
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in skipped:
                texts.append(node.value)
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, ast.alias):
            texts.extend(filter(None, (node.name, node.asname)))
        elif isinstance(node, ast.ImportFrom) and node.module:
            texts.append(node.module)
        for text in texts:
            if RULESET_KEY.search(text) or RULESET_PACKAGE.search(text):
                yield getattr(node, "lineno", 0), text


def test_the_scan_finds_keys_and_packages_in_code_only() -> None:
    source = '''
"""Seed 000's rules.sets.seed000 may be named in a docstring."""
# and "002" in a comment
import re

OWNER = "000"
PACKAGE = re.compile(r"rules\\.sets\\.seed(?P<key>[0-9]+)")
from rules.sets.seed004 import tables
label = f"c{7:03} of {OWNER!r}"
hex_label = "c007"


def f(key: str = "003") -> str:
    """The key, e.g. "002"."""
    return seed002_name
'''
    found = [text for _line, text in ruleset_names_in_code(source)]
    assert found.count("000") == 1 and "003" in found
    assert r"rules\.sets\.seed(?P<key>[0-9]+)" in found
    assert "rules.sets.seed004" in found and "seed002_name" in found
    assert not any("docstring" in text or "e.g." in text or "c007" in text for text in found)


@pytest.mark.parametrize("path", sorted(BATTLE_PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_battle_layer_names_no_ruleset_in_its_code(path: Path) -> None:
    found = list(ruleset_names_in_code(path.read_text(encoding="utf-8")))
    assert found == [], f"rules/battle/{path.name} names a ruleset: {found}"


# --- what the battle asks of the registry instead -----------------------------------------


def test_the_default_key_is_a_registered_ruleset_and_no_key_means_it() -> None:
    assert DEFAULT_RULESET_KEY in RULESETS
    assert get_ruleset(None) is get_ruleset(DEFAULT_RULESET_KEY)
    assert get_ruleset() is get_ruleset(DEFAULT_RULESET_KEY)
    assert BattleState(HexGrid(3, 3), ()).ruleset_key == DEFAULT_RULESET_KEY


@pytest.mark.parametrize("key", sorted(RULESETS))
def test_each_rulesets_sheet_declares_its_registered_key(key: str) -> None:
    sheet = get_ruleset(key).sheets.sheet_type
    assert sheet is not RulesetSheet and sheet.ruleset_key == key
    assert sheet_ruleset_key(sheet()) == key
    assert sheet_owner(sheet.__name__) == key


def test_one_ruleset_reads_the_catalogs_raw_sheets() -> None:
    readers = [key for key in RULESETS if get_ruleset(key).sheets.sheet_type.reads_raw_sheets]
    assert len(readers) == 1
    assert raw_sheet_owner() == readers[0]
    assert sheet_owner(RawSheet.__name__) == readers[0]
    fencer = load_fighters()["fencer"]
    assert isinstance(fencer.stats, RawSheet) and sheet_ruleset_key(fencer.stats) == readers[0]
    assert RulesetSheet.ruleset_key is None and sheet_ruleset_key(RulesetSheet()) is None


def duel_without_key() -> Battle:
    fencer = load_fighters()["fencer"]
    red = Combatant("c1", fencer, Side.RED, Hex.from_offset(1, 1), Facing.S, fencer.hit_points)
    blue = Combatant("c2", fencer, Side.BLUE, Hex.from_offset(1, 3), Facing.N, fencer.hit_points)
    return Battle(BattleState(HexGrid(5, 5), (red, blue)), 3, get_ruleset)


def test_a_file_without_a_ruleset_key_is_read_by_the_registrys_default() -> None:
    battle = duel_without_key()
    text = write_battle(battle, get_ruleset(DEFAULT_RULESET_KEY).sheets.saved_types)
    assert "ruleset_key" not in json.loads(text)["initial_state"]  # left out at its default
    asked: list[str | None] = []

    def finder(key: str | None, options: Sequence[str]) -> SavingRuleset:
        asked.append(key)
        return get_ruleset(key, options)

    loaded = read_battle(text, rulesets=finder, sheet_owner=sheet_owner)
    assert asked[0] is None  # the file names none: the registry decides
    assert loaded.state == battle.state and loaded.state.ruleset_key == DEFAULT_RULESET_KEY


@pytest.mark.parametrize("bad", [None, 7, "x" * 101])
def test_a_ruleset_key_that_is_no_name_is_refused(bad: object) -> None:
    document = json.loads(write_battle(duel_without_key(), get_ruleset().sheets.saved_types))
    document["initial_state"]["ruleset_key"] = bad
    with pytest.raises(BattleFileError, match="ruleset_key: expected the ruleset's name"):
        read_battle(json.dumps(document), rulesets=get_ruleset, sheet_owner=sheet_owner)
