"""Checks shared by the traceability tests of one seed's section of docs/rules.md
(tests/test_rules_traceability_003.py, _004.py): the section's rows by label,
and every row's code, tests and battle-level test found in the repository."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_rules_traceability import Row, parse_refs, parse_rows

REPO = Path(__file__).resolve().parent.parent


def rows_of(key: str) -> dict[str, Row]:
    """The rows of seed ``key``'s section, by label ("003 ...")."""
    return {r.heading: r for r in parse_rows() if r.heading.startswith(f"{key} ")}


def assert_rows_cover(key: str, need: set[str]) -> None:
    """Seed ``key``'s rows are exactly the labels ``need``: every one has a row
    (else the missing are named), and no row names another (else the stray)."""
    rows = set(rows_of(key))
    missing = sorted(need - rows)
    assert not missing, f"seed {key} rules without a row in docs/rules.md: {missing}"
    stray = sorted(rows - need)
    assert not stray, f"rows that name no seed {key} rule: {stray}"


def assert_rows_trace(key: str, battle_level: str | tuple[str, ...]) -> None:
    """Every row of seed ``key`` names code and tests that exist, one of them in
    ``battle_level``."""
    problems = row_problems(key, battle_level)
    assert not problems, "\n".join(problems)


def row_problems(key: str, battle_level: str | tuple[str, ...]) -> list[str]:
    """What is wrong with seed ``key``'s rows: a row without code or tests, a
    named file or name that does not exist, a row naming no test of
    ``battle_level`` (the test files that execute Battle commands)."""
    problems: list[str] = []
    for r in parse_rows():
        if not r.heading.startswith(f"{key} "):
            continue
        for cell, kind in ((r.implemented, "code"), (r.tests, "test")):
            refs = parse_refs(cell)
            if not refs:
                problems.append(f"{r.heading}: no {kind}")
            for ref in refs:
                path = (REPO / "docs" / ref.path).resolve()
                if not path.is_file():
                    problems.append(f"{r.heading}: no file {ref.path}")
                    continue
                text = path.read_text(encoding="utf-8")
                for name in ref.names:
                    last = re.escape(name.split(".")[-1])
                    if not re.search(rf"^\s*(def|class)\s+{last}\b|^\s*{last}\s*[:=]", text, re.M):
                        problems.append(f"{r.heading}: {name} not in {ref.path}")
        battle = [
            ref for ref in parse_refs(r.tests) if ref.path.endswith(battle_level) and ref.names
        ]
        if not battle:
            problems.append(f"{r.heading}: no battle-level test ({battle_level})")
    return problems
