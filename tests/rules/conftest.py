"""Shared fixtures of the rules tests: the ruleset, the catalog, fighters placed on
real hexes, and scripted dice for exact scenarios."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import replace

import pytest

from hexmap import Facing, Handedness, Hex
from rules.battle.catalog import Catalog, load_catalog, load_fighters
from rules.battle.model import Combatant, Fighter, Side
from rules.sets.registry import get_ruleset
from rules.sets.seed000.tables import Tables
from tests.rules.sheets import amend


class ScriptedDice(random.Random):
    """A ``random.Random`` whose ``randint`` returns the given faces in order.

    For scenarios that need exact rolls (a 17 on a defense, a blow to exactly
    -HP). Running out of faces is a test error, not a silent re-roll.
    """

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self._faces = list(faces)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self._faces):
            raise AssertionError("the scripted dice ran out")
        face = self._faces[self.used]
        assert a <= face <= b, f"scripted face {face} outside {a}..{b}"
        self.used += 1
        return face

    @property
    def unused(self) -> int:
        return len(self._faces) - self.used


@pytest.fixture
def scripted() -> type[ScriptedDice]:
    return ScriptedDice


@pytest.fixture(scope="session")
def ruleset() -> Tables:
    return get_ruleset("000")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def templates() -> dict[str, Fighter]:
    return dict(load_fighters())


MakeCombatant = Callable[..., Combatant]


@pytest.fixture
def make(templates: dict[str, Fighter]) -> MakeCombatant:
    """``make("sword-and-shield", Hex(0, 0), Facing.N, id="d", handedness=LEFT, ...)``:
    a combatant from a template; extra keywords replace Fighter fields or its seed 000
    statistics (``tests.rules.sheets.amend``)."""

    def build(
        template: str,
        where: Hex,
        facing: Facing,
        id: str = "x",
        side: Side = Side.RED,
        handedness: Handedness | None = None,
        **fighter_changes: object,
    ) -> Combatant:
        fighter = templates[template]
        if handedness is not None:
            fighter = replace(fighter, handedness=handedness)
        if fighter_changes:
            fighter = amend(fighter, **fighter_changes)
        return Combatant(
            id=id, fighter=fighter, side=side, hex=where, facing=facing, hp=fighter.hit_points
        )

    return build
