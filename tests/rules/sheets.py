"""Test helpers for fighters: change the neutral fields and the seed 000
statistics (``Sheet000``) in one call, as tests did when the sheet was flat."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from rules.battle.model import Fighter
from rules.sets.seed000.sheet import Sheet000, sheet_of, with_sheet

SHEET_FIELDS = frozenset(f.name for f in fields(Sheet000))


def amend(fighter: Fighter, **changes: Any) -> Fighter:
    """``replace`` over both parts: ``amend(f, move=4, skills={...})``."""
    stats = {k: v for k, v in changes.items() if k in SHEET_FIELDS}
    neutral = {k: v for k, v in changes.items() if k not in SHEET_FIELDS}
    if stats:
        fighter = with_sheet(fighter, replace(sheet_of(fighter), **stats))
    return replace(fighter, **neutral) if neutral else fighter


def seed000_fighter(
    name: str = "Test",
    *,
    hit_points: int = 10,
    move: int = 5,
    weapons: tuple[Any, ...] = (),
    **changes: Any,
) -> Fighter:
    """A fighter with seed 000 statistics: defaults (10 in every attribute, no
    skills) unless ``changes`` name them or the other neutral fields."""
    fighter = Fighter(name, hit_points, move, tuple(weapons), Sheet000())
    return amend(fighter, **changes)
