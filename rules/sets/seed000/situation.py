"""The situation of one attack under seed 000: terrain and postures as itemised,
cited hit modifiers (000 ADVERSE COMBAT CONDITIONS), the catalog conditions the
terrain calls for, height, arc and the cover that hides body areas from a random
hit location (000 RANDOM HIT LOCATION). The attack pane shows it item by item; the
GM may still override it."""

from __future__ import annotations

from dataclasses import dataclass, field

from hexmap import Arc, arc_of
from rules.battle.model import ProneCover
from rules.battle.state import BattleState
from rules.battle.terrain import Cover, Footing, Light, Terrain, WaterDepth
from rules.core.citation import Citation, cite
from rules.core.modifiers import Modifier
from rules.sets.seed000.conditions import ConditionCatalog, SelectedCondition, posture_modifiers
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.terrain_penalties import footing_penalty, light_penalty, water_penalty

RANDOM_LOCATION_000 = cite("000", "RANDOM HIT LOCATION")


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
    state: BattleState, attacker_id: str, defender_id: str, *, tables: Tables, melee: bool = True
) -> Situation:
    """Terrain, postures, height and arc of an attack from ``attacker_id`` on
    ``defender_id`` as they stand now, by the battle's ``tables``."""
    attacker = state.combatant(attacker_id)
    defender = state.combatant(defender_id)
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
        table=tables.postures,
    )
    return Situation(
        attacker_id=attacker.id,
        defender_id=defender.id,
        arc=arc_of(attacker.hex, defender.hex, defender.facing, defender.handedness),
        distance=attacker.hex.distance(defender.hex),
        attacker_terrain=at,
        defender_terrain=dt,
        conditions=terrain_conditions(at, dt),
        terrain_modifiers=terrain_modifiers_between(
            at, dt, melee=melee, catalog=tables.adverse_conditions
        ),
        posture_modifiers=postures,
        height_difference=at.height - dt.height,
        covered_areas=dt.cover.covered_areas,
        prone_cover=prone_cover,
    )


def terrain_conditions(attacker: Terrain, defender: Terrain) -> tuple[SelectedCondition, ...]:
    """The catalog conditions the terrain calls for: light at the defender's hex,
    footing and water at the attacker's, at seed 000's values for them
    (``rules.sets.seed000.terrain_penalties``)."""
    picks: list[SelectedCondition] = []
    light = defender.light
    if light is Light.TOTAL_DARKNESS:
        picks.append(SelectedCondition("total_darkness"))
    elif light is not Light.DAYLIGHT:
        picks.append(SelectedCondition("bad_light", light_penalty(light)))
    if attacker.footing is not Footing.GOOD:
        picks.append(SelectedCondition("bad_footing", footing_penalty(attacker.footing)))
    if attacker.water.swimming:
        picks.append(SelectedCondition("swimming"))
    elif attacker.water is not WaterDepth.NONE:
        picks.append(SelectedCondition("in_water", water_penalty(attacker.water)))
    return tuple(picks)


_WHERE = {
    "bad_light": "the target's hex",
    "total_darkness": "the target's hex",
    "bad_footing": "the attacker's hex",
    "in_water": "the attacker's hex",
    "swimming": "the attacker's hex",
}


def terrain_modifiers_between(
    attacker: Terrain,
    defender: Terrain,
    *,
    melee: bool = True,
    catalog: ConditionCatalog,
) -> tuple[Modifier, ...]:
    """Itemised hit modifiers of the terrain, with the ``catalog``'s values and
    citations; each reason says whose hex it comes from."""
    out: list[Modifier] = []
    for pick in terrain_conditions(attacker, defender):
        for m in catalog.condition_modifiers([pick], melee=melee, swinging=False):
            out.append(Modifier(m.value, f"{m.reason} at {_WHERE[pick.key]}", m.citation))
    return tuple(out)


def terrain_modifiers(
    state: BattleState, attacker_id: str, defender_id: str, *, tables: Tables, melee: bool = True
) -> tuple[Modifier, ...]:
    """``terrain_modifiers_between`` for two combatants of a battle."""
    attacker = state.combatant(attacker_id)
    defender = state.combatant(defender_id)
    return terrain_modifiers_between(
        state.terrain.at(attacker.hex),
        state.terrain.at(defender.hex),
        melee=melee,
        catalog=tables.adverse_conditions,
    )
