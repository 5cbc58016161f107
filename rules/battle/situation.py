"""The situation of one attack (``Situation``, from ``situation_modifiers``) and
the GM's terrain-painting event (``TerrainPainted``). Kept apart from
rules.battle.terrain so that the map's first frame need not create them (issue 5);
``from rules.battle.terrain import Situation`` still works."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hexmap import Arc, Hex, arc_of
from rules.battle.model import ProneCover
from rules.battle.terrain import (
    RANDOM_LOCATION_000,
    Cover,
    Terrain,
    TerrainChange,
    terrain_conditions,
    terrain_modifiers_between,
)
from rules.core.citation import Citation
from rules.core.events import Event
from rules.core.modifiers import Modifier

if TYPE_CHECKING:
    from rules.battle.battle import BattleState
    from rules.sets.seed000.conditions import SelectedCondition


@dataclass(frozen=True)
class Situation:
    """Everything about where two combatants stand that an attack pane fills in.

    ``modifiers`` are the terrain's then the postures' hit modifiers, each with
    its reason and citation. ``conditions`` are the terrain's picks from the
    condition catalog (so the pane can tick them; the postures come from the
    posture table, not from the catalog's posture entries, which the pane must
    then leave unticked). ``covered_areas`` are the body areas the defender's
    cover hides from a random hit location; ``prone_cover`` its exposure to
    ranged attacks when lying down."""

    attacker_id: str
    defender_id: str
    arc: Arc
    distance: int
    attacker_terrain: Terrain
    defender_terrain: Terrain
    conditions: tuple[SelectedCondition, ...]
    terrain_modifiers: tuple[Modifier, ...]
    posture_modifiers: tuple[Modifier, ...]
    height_difference: int  # attacker's level minus defender's
    covered_areas: frozenset[str] = field(default_factory=frozenset)
    prone_cover: ProneCover = ProneCover.HEAD_UP_NO_COVER

    @property
    def from_above(self) -> bool:
        return self.height_difference > 0

    @property
    def from_below(self) -> bool:
        return self.height_difference < 0

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        return self.terrain_modifiers + self.posture_modifiers

    @property
    def total(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def citations(self) -> tuple[Citation, ...]:
        seen: list[Citation] = []
        for m in self.modifiers:
            if m.citation not in seen:
                seen.append(m.citation)
        if self.covered_areas and RANDOM_LOCATION_000 not in seen:
            seen.append(RANDOM_LOCATION_000)
        return tuple(seen)


def situation_modifiers(
    state: BattleState, attacker_id: str, defender_id: str, *, melee: bool = True
) -> Situation:
    """Terrain, postures, height and arc of an attack from ``attacker_id`` on
    ``defender_id`` as they stand now."""
    from rules.sets.seed000.conditions import load_posture_table, posture_modifiers  # on first use

    attacker = state.combatant(attacker_id)
    defender = state.combatant(defender_id)
    ruleset = state.ruleset.asset_dir
    at = state.terrain.at(attacker.hex)
    dt = state.terrain.at(defender.hex)
    prone_cover = (
        ProneCover.HEAD_UP_WITH_COVER if dt.cover is not Cover.NONE else ProneCover.HEAD_UP_NO_COVER
    )
    postures = posture_modifiers(
        attacker.posture,
        defender.posture,
        melee=melee,
        prone_cover=prone_cover,
        table=load_posture_table(ruleset),
    )
    return Situation(
        attacker_id=attacker.id,
        defender_id=defender.id,
        arc=arc_of(attacker.hex, defender.hex, defender.facing, defender.handedness),
        distance=attacker.hex.distance(defender.hex),
        attacker_terrain=at,
        defender_terrain=dt,
        conditions=terrain_conditions(at, dt),
        terrain_modifiers=terrain_modifiers_between(at, dt, melee=melee, ruleset=ruleset),
        posture_modifiers=postures,
        height_difference=at.height - dt.height,
        covered_areas=dt.cover.covered_areas,
        prone_cover=prone_cover,
    )


def covered_areas_of(state: BattleState, defender_id: str) -> frozenset[str]:
    """The body areas the cover in ``defender_id``'s hex hides from a random hit
    location (000 RANDOM HIT LOCATION): ``situation_modifiers(...).covered_areas``
    without the postures, terrain modifiers and arc the rest of it computes."""
    return state.terrain.at(state.combatant(defender_id).hex).cover.covered_areas


# ------------------------------------------------------------------ events


@dataclass(frozen=True, kw_only=True)
class TerrainPainted(Event):
    hexes: tuple[Hex, ...]
    change: TerrainChange

    def describe(self) -> str:
        n = len(self.hexes)
        return f"GM paints {n} hex{'es' if n != 1 else ''}: {self.change.describe()}"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return self.hexes
