"""Traceability of seed 004 (docs/rules.md, section "Seed 004"): every heading
of the seed file (a line ending in the pilcrow), every row of its zone table
and every rule inside its sections has a row; no other "004 " row; the rows'
code and tests exist, and each names a battle-level test (one that executes
``Battle`` commands: tests/rules/test_seed004_battle.py, test_seed004_ranged.py)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tests.test_rules_traceability import SEEDS
from tests.traceability_checks import assert_rows_cover, assert_rows_trace

SEED_004 = SEEDS / "004_faa62cfc54a6b0ed.txt"
REPO = Path(__file__).resolve().parent.parent
BATTLE_LEVEL = ("tests/rules/test_seed004_battle.py", "tests/rules/test_seed004_ranged.py")
needs_seed = pytest.mark.skipif(not SEED_004.exists(), reason="seed texts not present")


@cache
def seed_004_labels() -> tuple[str, ...]:
    """The seed's headings ("Zones") and its table's rows ("Zones: 5,6,7 Torso")."""
    labels: list[str] = []
    for line in SEED_004.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.endswith("\u00b6"):
            labels.append(f"004 {line[:-1].strip()}")
            continue
        row = re.fullmatch(r"\|\s*(\d[\d, ]*)\|\s*([^|]+?)\s*\|.*", line)
        if row:
            labels.append(f"004 Zones: {row.group(1).strip()} {row.group(2)}")
    return tuple(labels)


# The rules inside the seed's sections, by the section they belong to.
RULES_IN_SECTIONS = (
    "004 Damage: other forms of damage",
    "004 Zones: armor",
    "004 Zones: wound check",
    "004 Zones: aiming for a specific zone",
    "004 Humans: bludgeoning below ten",
    "004 Humans: slashing unless exposed",
    "004 Humans: piercing above two",
    "004 Humans: piercing below two",
)
# What the seed takes for granted, from its base rules (docs/ruleset-004.md).
BASE_ROWS = (
    "004 base: checks, melee and the block",
    "004 base: initiative and maneuvers",
    "004 base: shots (ranged combat)",
)


def test_every_row_names_code_and_a_battle_level_test_that_exist() -> None:
    assert_rows_trace("004", BATTLE_LEVEL)


@needs_seed
def test_the_extraction_finds_the_seed_s_structure() -> None:
    labels = seed_004_labels()
    assert labels[:2] == ("004 Damage", "004 Zones")
    assert "004 Zones: 5,6,7 Torso" in labels and "004 Zones: 10, 11 Head" in labels
    assert labels[-2:] == ("004 Vital Organs", "004 Humans")
    assert len(labels) == 4 + 6


@needs_seed
def test_every_rule_has_a_row_and_every_row_a_rule() -> None:
    assert_rows_cover("004", {*seed_004_labels(), *RULES_IN_SECTIONS, *BASE_ROWS})


def test_the_battle_level_tests_run_battle_commands() -> None:
    for path in BATTLE_LEVEL:
        text = (REPO / path).read_text(encoding="utf-8")
        assert "battle.execute(" in text or "hit(battle" in text
    helper = (REPO / "tests" / "rules" / "seed004_battle.py").read_text(encoding="utf-8")
    assert "battle.execute(Attack(" in helper


def cited_base_rules() -> set[str]:
    """Every ``Citation("base-004", ...)`` text in seed 004's code and its zones."""
    sources = [*sorted((REPO / "rules" / "sets" / "seed004").glob("*.py"))]
    sources.append(REPO / "rules" / "sets" / "components" / "zones_2d6.py")
    found: set[str] = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        found.update(re.findall(r'Citation\(\s*"base-004",\s*"([^"]+)"\s*\)', text))
    return found


def test_every_base_rule_the_code_cites_is_listed_in_the_docs_page() -> None:
    page = (REPO / "docs" / "ruleset-004.md").read_text(encoding="utf-8")
    section = page.split("## Every base-rule choice", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| ([^|]+?) \|", section, re.M)) - {
        "Cited as (Endless Horizons base rules)"
    }
    cited = cited_base_rules()
    assert len(cited) >= 20
    assert not cited - listed, f"cited but not listed: {sorted(cited - listed)}"
    assert not listed - cited, f"listed but never cited: {sorted(listed - cited)}"
