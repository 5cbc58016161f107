"""Traceability of seed 003 (docs/rules.md, section "Seed 003"): every numbered
section of the seed file (5.871 .. 5.876), every row of its 1d6 table and of its
capacity list, and every rule inside its sections has a row; no other "003 " row;
the rows' code and tests exist, and each names a battle-level test (one that
executes ``Battle`` commands: tests/rules/test_seed003_battle.py)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tests.test_rules_traceability import SEEDS
from tests.traceability_checks import assert_rows_cover, assert_rows_trace

SEED_003 = SEEDS / "003_15579ac7d0506469.txt"
REPO = Path(__file__).resolve().parent.parent
BATTLE_LEVEL = "tests/rules/test_seed003_battle.py"
H1 = "003 5.871 Hit Location"
H2 = "003 5.872 Damage to an Individual Body Part"
H3 = "003 5.873 Useless and Crippled Limbs"
H4 = "003 5.874 Modifiers Due to Damage"
H6 = "003 5.876 Widespread Damage"
needs_seed = pytest.mark.skipif(not SEED_003.exists(), reason="seed texts not present")


@cache
def seed_003_labels() -> tuple[str, ...]:
    """The numbered sections ("5.871 Hit Location"), the 1d6 table's rows
    ("5.871 Hit Location: 2 Leg") and the capacity list's ("...: Foot -2")."""
    text = SEED_003.read_text(encoding="utf-8")
    sections = re.findall(r"(5\.87[1-9]) (.+?) -{5,}", text)
    labels = [f"003 {number} {title.strip()}" for number, title in sections]
    table = re.search(r"Rolled Hit (.+?) On a result", text)
    assert table is not None
    for face, part in re.findall(r"(\d) ([A-Z][a-z]+)", table.group(1)):
        labels.append(f"{H1}: {face} {part}")
    capacity = text[text.index("5.872") : text.index("That is,")]
    for part, levels in re.findall(r"([A-Z][a-z]+): -(\d) level", capacity):
        labels.append(f"{H2}: {part} -{levels}")
    return tuple(labels)


# The rules inside the seed's sections, by the section they belong to.
RULES_IN_SECTIONS = (
    f"{H1}: eyes, coins -3",
    f"{H1}: hands, feet, heads -2",
    f"{H1}: legs, arms -1",
    f"{H1}: human torsos +0",
    f"{H1}: giant's body +1, -1 damage",
    f"{H1}: no part named",
    f"{H1}: ranged attacks",
    f"{H1}: too distant",
    f"{H1}: foot or hand",
    f"{H1}: left or right",
    f"{H1}: hit location die",
    f"{H1}: initiative",
    f"{H2}: constitution unchanged",
    f"{H2}: the Fair example table",
    f"{H2}: body and head wounds",
    f"{H2}: Useless and Crippled",
    f"{H3}: drops what is held",
    f"{H3}: must be healed",
    f"{H3}: leg or foot falls",
    f"{H3}: Superb agility",
    f"{H3}: standing again",
    f"{H3}: crippled heals slower",
    f"{H3}: beyond crippled",
    f"{H4}: most severe only",
    f"{H4}: appropriate activity",
    f"{H6}: half, rounded up",
    f"{H6}: armor per part",
)
# What the seed takes for granted, from its base rules (docs/ruleset-003.md).
BASE_ROWS = (
    "003 base: the ladder and traits",
    "003 base: opposed 4dF",
    "003 base: damage factors",
    "003 base: damage table and wound levels",
    "003 base: initiative and maneuvers",
    "003 base: situational modifiers",
)


@needs_seed
def test_the_extraction_finds_the_seed_s_structure() -> None:
    labels = seed_003_labels()
    assert labels[:6] == (H1, H2, H3, H4, "003 5.875 Keeping Track of Wounds", H6)
    assert f"{H1}: 1 Extremity" in labels and f"{H1}: 6 Head" in labels
    assert f"{H2}: Foot -2" in labels and f"{H2}: Torso -0" in labels
    assert len(labels) == 6 + 6 + 6


@needs_seed
def test_every_rule_has_a_row_and_every_row_a_rule() -> None:
    assert_rows_cover("003", {*seed_003_labels(), *RULES_IN_SECTIONS, *BASE_ROWS})


def test_every_row_names_code_and_a_battle_level_test_that_exist() -> None:
    assert_rows_trace("003", BATTLE_LEVEL)


def test_the_battle_level_tests_run_battle_commands() -> None:
    text = (REPO / BATTLE_LEVEL).read_text(encoding="utf-8")
    assert "b.execute(" in text
    helper = (REPO / "tests" / "rules" / "seed003_battle.py").read_text(encoding="utf-8")
    assert "Battle(state" in helper
