"""Traceability of seed 002 (docs/rules.md, section "Seed 002"): every row of
both situational modifier tables (and each section of the second), every cell
of the result matrix, every face of the major wound table and every note has a
row, extracted from the seed file; no other "002 " row; the rows' code and
tests exist, and each names a battle-level test (one that executes ``Battle``
commands)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from tests.test_rules_traceability import SEEDS, Row, _defines, parse_refs, parse_rows

SEED_002 = SEEDS / "002_814acb322fa082f2.txt"
REPO = Path(__file__).resolve().parent.parent
# A test is battle-level when its body executes Battle commands: directly, or
# through the helpers of tests/rules/seed002_duel.py and the test files that
# execute an Attack on a battle (each named here by what it calls).
BATTLE_MARKERS = (
    ".execute(",
    "attack(",
    "attack_skill(",
    "dodge_skill(",
    "run(",
    "wounded(",
    "brute_force(",
)
HELPERS_THAT_EXECUTE = {
    "attack(": "tests/rules/seed002_duel.py",
    "attack_skill(": "tests/rules/test_seed002_modifiers.py",
    "dodge_skill(": "tests/rules/test_seed002_modifiers.py",
    "run(": "tests/rules/test_seed002_matrix.py",
    "wounded(": "tests/rules/test_seed002_wounds.py",
    "brute_force(": "tests/rules/test_seed002_odds.py",
}
# What the seed takes for granted, from its base rules (docs/ruleset-002.md).
BASE_ROWS = (
    "002 base: success levels",
    "002 base: characteristics, hit points and damage",
    "002 base: major wound trigger",
    "002 base: initiative and maneuvers",
    "002 base: defenses",
    "002 base: hit locations (option locations-d20)",
)
NOTES = ("002 Note star", "002 Note †", "002 Note ‡")

needs_seed = pytest.mark.skipif(not SEED_002.exists(), reason="seed texts not present")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


@cache
def seed_002_labels() -> tuple[str, ...]:
    """ "002 Close: <row>" for the first table, "002 Ranged: <section or row>" for
    the second, "002 Matrix: <attacker> vs <defender>", "002 Major wound <n>"."""
    labels: list[str] = []
    table = 0
    for line in SEED_002.read_text(encoding="utf-8").splitlines():
        cells = _cells(line)
        if not line.startswith(("|", "-")) and "|" not in line:
            continue
        if cells[0] == "Situation":
            table += 1
            continue
        if cells[0] in ("Attacker", "d10") or set(line) <= set("-|"):
            continue
        if re.fullmatch(r"\d+", cells[0]):
            labels.append(f"002 Major wound {cells[0]}")
        elif cells[0] in ("Fumble", "Failure", "Success", "Critical"):
            labels.append(f"002 Matrix: {cells[0]} vs {cells[1]}")
        else:
            text = re.sub(r"[*†‡]", "", cells[0]).strip().rstrip(".").strip()
            labels.append(f"002 {'Close' if table == 1 else 'Ranged'}: {text}")
    return tuple(labels)


def rows_002() -> dict[str, Row]:
    return {r.heading: r for r in parse_rows() if r.heading.startswith("002 ")}


@needs_seed
def test_the_extraction_finds_the_seed_s_structure() -> None:
    labels = seed_002_labels()
    assert labels[0] == "002 Close: Target is helpless"
    assert len([x for x in labels if x.startswith("002 Close: ")]) == 9
    assert "002 Ranged: Wind" in labels and "002 Ranged: Attacker is underwater" in labels
    assert len([x for x in labels if x.startswith("002 Ranged: ")]) == 5 + 14
    assert len([x for x in labels if x.startswith("002 Matrix: ")]) == 10
    assert labels[-1] == "002 Major wound 10"


@needs_seed
def test_every_table_row_cell_and_note_has_a_row() -> None:
    need = {*seed_002_labels(), *NOTES, *BASE_ROWS}
    missing = sorted(need - set(rows_002()))
    assert not missing, f"seed 002 rules without a row in docs/rules.md: {missing}"


@needs_seed
def test_no_stray_002_rows() -> None:
    need = {*seed_002_labels(), *NOTES, *BASE_ROWS}
    stray = sorted(set(rows_002()) - need)
    assert not stray, f"rows that name no seed 002 rule: {stray}"


def _body(text: str, name: str) -> str:
    return text.split(f"def {name}(", 1)[1].split("\ndef ", 1)[0]


def _calls(body: str, marker: str) -> bool:
    """``marker`` ("attack(") called in ``body`` as itself, not as ``plan_attack(``."""
    if marker.startswith("."):
        return marker in body
    return re.search(rf"(?<![\w.]){re.escape(marker)}", body) is not None


def _is_battle_level(text: str, name: str) -> bool:
    return any(_calls(_body(text, name), marker) for marker in BATTLE_MARKERS)


def test_every_row_names_code_and_a_battle_level_test_that_exist() -> None:
    problems: list[str] = []
    for heading, row in rows_002().items():
        for ref in parse_refs(row.implemented):
            path = (REPO / "docs" / ref.path).resolve()
            if not path.is_file():
                problems.append(f"{heading}: no file {ref.path}")
                continue
            text = path.read_text(encoding="utf-8")
            problems.extend(
                f"{heading}: {n} not in {ref.path}" for n in ref.names if not _defines(text, n)
            )
        battle_level = False
        for ref in parse_refs(row.tests):
            rel = ref.path.removeprefix("../")
            path = REPO / rel
            if not path.is_file():
                problems.append(f"{heading}: no test file {ref.path}")
                continue
            text = path.read_text(encoding="utf-8")
            for name in ref.names:
                if not re.search(rf"^def {re.escape(name)}\(", text, re.M):
                    problems.append(f"{heading}: no test {name} in {ref.path}")
                else:
                    battle_level |= _is_battle_level(text, name)
        if not battle_level:
            problems.append(f"{heading}: names no battle-level test")
    assert not problems, "\n".join(problems)


def test_the_helpers_execute_battle_commands() -> None:
    """Each helper a battle-level test may call executes a command on a Battle."""
    for call, rel in HELPERS_THAT_EXECUTE.items():
        text = (REPO / rel).read_text(encoding="utf-8")
        name = call.removesuffix("(")
        assert re.search(rf"^def {name}\(", text, re.M), f"{rel} defines no {name}"
        body = _body(text, name)
        others = [m for m in BATTLE_MARKERS if m != call]  # ".execute(" or another helper
        assert any(_calls(body, m) for m in others), f"{rel}::{name} executes no command"
