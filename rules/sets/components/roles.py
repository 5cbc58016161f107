"""Role objects that rulesets compose from their own functions and tables
(``rules.sets.protocol``: ``Ruleset.sheets``, ``.turns``, ``.conditions``,
``.battlefield``), so that no ruleset repeats a forwarding method per question:
it names the function that answers each one, once.

A role whose answers are rules of the ruleset's own (its attack:
``rules.sets.components.attacks``) is a class of the ruleset's package instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from hexmap import Hex
from rules.battle.catalog import Catalog
from rules.battle.condition import FighterCondition
from rules.battle.edits import SheetProblem
from rules.battle.maneuvers import Maneuver
from rules.battle.model import (
    Combatant,
    Fighter,
    Posture,
    RulesetSheet,
    Shield,
    Weapon,
    WeaponKind,
)
from rules.battle.movement import PostureMove
from rules.battle.pieces import Piece
from rules.battle.scatter import StrayHitRules
from rules.battle.state import BattleState
from rules.battle.terrain import TerrainFact, fact_label
from rules.core.dice import DiceSource
from rules.core.events import Event
from rules.sets.protocol import CharacterFileKind, Health, LegalAction, SheetSection
from rules.sets.sheet_fields import SheetDescription, SheetEntries
from rules.sets.sheet_refusal import sheet_refusal_in

__all__ = ["BattlefieldRole", "ConditionsRole", "SheetsRole", "TurnsRole"]

# What the start or the end of a combatant's turn brings.
TurnStep = Callable[[BattleState, str, DiceSource], tuple[BattleState, tuple[Event, ...]]]
PieceHit = Callable[
    [BattleState, Piece, Weapon | None, Combatant, str, Hex, DiceSource],
    tuple[BattleState, tuple[Event, ...]],
]


def _no_file_kinds() -> tuple[CharacterFileKind, ...]:
    return ()


@dataclass(frozen=True, slots=True, eq=False)
class SheetsRole:
    """``rules.sets.protocol.Sheets`` from the ruleset's sheet functions."""

    key: str  # the ruleset's, for a refusal's words
    sheet_type: type[RulesetSheet]
    saved_types_of: Callable[[], tuple[type, ...]]
    catalog: Callable[[], Catalog]
    sections: Callable[[Combatant], tuple[SheetSection, ...]]
    encode: Callable[[Fighter], dict[str, object]]
    decode: Callable[[object], Fighter]
    sheet_description: SheetDescription
    entries: Callable[[Fighter], SheetEntries]
    with_entries: Callable[[Fighter, SheetEntries], Fighter]
    problems: Callable[[Fighter], tuple[SheetProblem, ...]]
    character_file_kinds: Callable[[], tuple[CharacterFileKind, ...]] = _no_file_kinds

    @property
    def saved_types(self) -> tuple[type, ...]:
        return self.saved_types_of()

    def description(self) -> SheetDescription:
        return self.sheet_description

    def refusal(self, fighter: Fighter) -> str | None:
        return sheet_refusal_in(fighter, self, self.key)


@dataclass(frozen=True, slots=True, eq=False)
class TurnsRole:
    """``rules.sets.protocol.Turns`` from the ruleset's turn functions;
    ``legal_actions`` is the ruleset's call of the shared
    ``rules.sets.components.legal_actions``."""

    initiative: Callable[[BattleState, DiceSource], tuple[tuple[str, ...], tuple[Event, ...]]]
    maneuvers_for: Callable[[Combatant], tuple[Maneuver, ...]]
    maneuver: Callable[[str], Maneuver]
    posture_move: Callable[[Posture], PostureMove]
    new_turn: Callable[[Combatant], Combatant]
    turn_begins: TurnStep
    turn_ends: TurnStep
    legal_actions: Callable[[BattleState, str], tuple[LegalAction, ...]]

    def maneuvers(self, state: BattleState, combatant_id: str) -> tuple[Maneuver, ...]:
        return self.maneuvers_for(state.combatant(combatant_id))


@dataclass(frozen=True, slots=True, eq=False)
class ConditionsRole:
    """``rules.sets.protocol.Conditions`` from the ruleset's condition functions:
    ``condition`` the whole view, ``down`` whether and how it is out of the fight
    only (``fighter_condition``'s ``details`` False)."""

    condition: Callable[[Combatant], FighterCondition]
    down: Callable[[Combatant], FighterCondition]
    labels: Callable[[Combatant], tuple[str, ...]]
    health: Callable[[Combatant], Health]
    health_heading: str

    def fighter_condition(self, combatant: Combatant, *, details: bool = True) -> FighterCondition:
        return self.condition(combatant) if details else self.down(combatant)


@dataclass(frozen=True, slots=True, eq=False)
class BattlefieldRole:
    """``rules.sets.protocol.Battlefield`` from the ruleset's stray-hit rules,
    piece hits, terrain names and placeable items."""

    stray_hits: StrayHitRules
    piece_hit: PieceHit
    placeable_items: Callable[[], tuple[Weapon | Shield, ...]]
    terrain_label: Callable[[TerrainFact], str] = field(default=fact_label)


def placeable_from(
    catalog: Callable[[], Catalog], *, shields: bool
) -> Callable[[], tuple[Weapon | Shield, ...]]:
    """The catalog's weapons but bare hands by name, then (``shields``) its shields
    by name: what a GM may put on the map."""

    def placeable() -> tuple[Weapon | Shield, ...]:
        c = catalog()
        weapons = sorted(
            (w for w in c.weapons.values() if w.kind is not WeaponKind.UNARMED),
            key=lambda w: w.name.lower(),
        )
        kept = sorted(c.shields.values(), key=lambda s: s.name.lower()) if shields else []
        return (*weapons, *kept)

    return placeable
