"""Seed 000's answer when a flying piece may hit somebody on the map.

* **In the path** (000 BROKEN WEAPONS, flail and chain pieces: somebody in the way
  may be struck for half damage, and the piece then lies in their hex): each
  person in the path is hit on 3d6 of 9 or less (chance 3/8). The seed gives no
  number; 9 or less is its own figure for a blow that goes astray and catches a
  character next to the target (000 MISSING A SPECIFIC HIT LOCATION): our choice.
* **Where it comes down** (the critical miss table's flying weapon): whoever
  stands there rolls DX and is hit on a failure.
* **The damage** of a hit: the piece's ``stray_hit_factor`` of the source
  weapon's swing (or first) mode with the holder's ST, rounded down, then DR,
  wounding and the injury rolls as for any blow (``rules.sets.seed000.damage``).

The neutral tracing is ``rules.battle.scatter``; these are the rules it asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hexmap import Hex
from rules.battle.model import Combatant, DamageType, Weapon
from rules.battle.pieces import Piece
from rules.battle.scatter import Occupant, StrayAttempt, StrayHitRules, StrayRule
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.dice import Dice, DiceSource
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.sets.seed000.attack_events import injury_events
from rules.sets.seed000.checks import SuccessRoll, success_probability, success_roll
from rules.sets.seed000.damage import DamageResult, WoundingTable, roll_damage
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.wounded import after_blow

BROKEN_000 = cite("000", "BROKEN WEAPONS")
# The "9 or less" of a blow that goes astray and hits an adjacent character.
ASTRAY_000 = cite("000", "MISSING A SPECIFIC HIT LOCATION")

IN_PATH_HIT_TARGET = 9  # 3d6 <= 9 hits someone in the way
IN_PATH_HIT_CHANCE = success_probability(IN_PATH_HIT_TARGET)  # 3/8


@dataclass(frozen=True, kw_only=True)
class StrayHitChecked(Event):
    """The roll for somebody a flying piece may hit."""

    piece_name: str
    combatant_id: str
    name: str
    hex: Hex
    rule: StrayRule
    roll: SuccessRoll
    hit: bool

    def describe(self) -> str:
        if self.rule is StrayRule.DX_AT_LANDING:
            verdict = "is hit" if self.hit else "gets out of the way"
            return (
                f"{self.piece_name} comes down on {self.name}: DX roll {self.roll}; "
                f"{self.name} {verdict}"
            )
        verdict = "hits" if self.hit else "misses"
        return (
            f"{self.piece_name} flies at {self.name}: {self.roll} (hits on 9 or less); "
            f"it {verdict}"
        )

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


class Seed000StrayHits(StrayHitRules):
    """``rules.battle.scatter.StrayHitRules`` by seed 000 (module docstring)."""

    def roll_hit(self, attempt: StrayAttempt, dice: DiceSource) -> tuple[bool, Event]:
        occupant, rule = attempt.occupant, attempt.rule
        piece, name = attempt.piece_name, occupant.name
        if rule is StrayRule.DX_AT_LANDING:
            dx = sheet_of(occupant.combatant).attributes.dx
            roll = success_roll(dx, dice, what=f"{name}'s DX roll to dodge the falling {piece}")
            hit = not roll.succeeded
        elif rule is StrayRule.IN_PATH:
            what = f"whether the flying {piece} hits {name} (hits on {IN_PATH_HIT_TARGET} or less)"
            roll = success_roll(IN_PATH_HIT_TARGET, dice, what=what)
            hit = roll.succeeded
        else:
            raise RulesError(f"{attempt.piece_name} hits nobody: there is nothing to check")
        event = StrayHitChecked(
            citation=attempt.placement.citation,
            piece_name=attempt.piece_name,
            combatant_id=occupant.combatant_id,
            name=occupant.name,
            hex=attempt.where,
            rule=rule,
            roll=roll,
            hit=hit,
        )
        return hit, event

    def hit_chance(self, occupant: Occupant, rule: StrayRule) -> Fraction:
        if rule is StrayRule.IN_PATH:
            return IN_PATH_HIT_CHANCE
        if rule is StrayRule.DX_AT_LANDING:
            return 1 - success_probability(sheet_of(occupant.combatant).attributes.dx)
        return Fraction(0)


@dataclass(frozen=True, slots=True)
class StrayDamage:
    """What a stray hit by a piece does: ``factor`` times a roll of ``dice``
    (rounded down) of ``damage_type``. ``source`` says whose weapon and mode."""

    dice: Dice
    damage_type: DamageType
    factor: Fraction
    source: str


def stray_damage(
    piece: Piece, source: Weapon | None, holder: Combatant, tables: Tables
) -> StrayDamage | None:
    """What a stray hit by ``piece`` does: ``stray_hit_factor`` of the source
    weapon's swing (or first) mode with the holder's ST (000 BROKEN WEAPONS: "1/2
    damage"); None if the piece can hit nobody or has no weapon to go by."""
    if piece.stray_hit_factor is None:
        return None
    weapon = source if source is not None else piece.weapon
    if weapon is None:
        return None
    mode = next((m for m in weapon.modes if m.is_swing), weapon.modes[0])
    factor = piece.stray_hit_factor * mode.damage.factor  # a broken weapon's own factor
    dice = tables.weapon_damage(mode.damage, sheet_of(holder).attributes.st)
    return StrayDamage(dice, mode.damage.type, factor, f"{weapon.name} {mode.name}")


def roll_stray_damage(
    damage: StrayDamage,
    target: Combatant,
    rng: DiceSource,
    wounding: WoundingTable,
    piece_name: str,
) -> DamageResult:
    """Roll a stray hit of ``piece_name`` on ``target``: the dice, times the factor
    (rounded down: "1/2 damage" halves the basic damage), then DR, wounding and the
    injury rolls exactly as for any blow (rules.sets.seed000.damage). ``target``
    itself is not changed."""
    what = f"damage of the {piece_name} that hit {target.name} ({damage.source})"
    return roll_damage(
        damage.dice, damage.damage_type, target, rng, wounding, factor=damage.factor, what=what
    )


@dataclass(frozen=True, kw_only=True)
class StrayHitDamaged(Event):
    """A flying piece hit somebody: the damage rolled and applied."""

    combatant_id: str
    name: str
    piece_name: str
    hex: Hex
    factor: Fraction
    damage: DamageResult

    def describe(self) -> str:
        share = "" if self.factor == 1 else f" for {self.factor} damage"
        return f"{self.piece_name} hits {self.name}{share}: {self.damage}"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


def piece_hit(
    state: BattleState,
    tables: Tables,
    piece: Piece,
    source_weapon: Weapon | None,
    holder: Combatant,
    victim_id: str,
    where: Hex,
    rng: DiceSource,
) -> tuple[BattleState, tuple[Event, ...]]:
    """Roll and apply the damage of a stray hit (DR, wounding, injury rolls); a
    piece with nothing to hurt with leaves the victim as it was."""
    damage = stray_damage(piece, source_weapon, holder, tables)
    if damage is None:
        return state, ()
    target = state.combatant(victim_id)
    result = roll_stray_damage(damage, target, rng, tables.wounding, piece.name)
    events: list[Event] = [
        StrayHitDamaged(
            citation=piece.placement.citation or BROKEN_000,
            combatant_id=target.id,
            name=target.name,
            piece_name=piece.name,
            hex=where,
            factor=damage.factor,
            damage=result,
        )
    ]
    events.extend(
        injury_events(target, result.status_rolls, result.status_before, result.status_after)
    )
    struck, hurt = after_blow(target, result.apply_to(target), result)  # shock, knockdown
    events.extend(hurt.events())
    return state.with_combatants(struck), tuple(events)
