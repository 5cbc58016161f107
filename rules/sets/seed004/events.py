"""Seed 004's events: every number the log shows comes from one of these."""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.model import Status
from rules.core.events import CombatantEvent, Event
from rules.core.modifiers import Modifier
from rules.sets.components.zones_2d6 import Zone
from rules.sets.seed004.checks import CheckRoll


@dataclass(frozen=True, kw_only=True)
class AttackDeclared(CombatantEvent):
    """``name`` attacks ``defender_name`` with a weapon mode; ``aimed`` is the
    zone aimed at (None: a random zone), ``difficulty`` the number the attack
    must reach, with its ``modifiers``."""

    defender_id: str
    defender_name: str
    weapon: str
    mode: str
    blow: str
    aimed: Zone | None
    difficulty: int
    modifiers: tuple[Modifier, ...]

    def describe(self) -> str:
        aim = f", aimed at the {self.aimed.label}" if self.aimed is not None else ""
        return (
            f"{self.name} attacks {self.defender_name} with {self.weapon} ({self.mode}, "
            f"{self.blow}{aim}): difficulty {self.difficulty}"
        )

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id, self.defender_id)


@dataclass(frozen=True, kw_only=True)
class CheckRolled(CombatantEvent):
    """A check of ``name``'s: the attack, a dodge or block, a wound or
    consciousness check."""

    roll: CheckRoll

    def describe(self) -> str:
        return f"{self.name}'s {self.roll.what}: {self.roll.text()}"


@dataclass(frozen=True, kw_only=True)
class DefenseNotRolled(CombatantEvent):
    """The defender makes no dodge or block, and why."""

    reason: str

    def describe(self) -> str:
        return f"{self.name} does not defend: {self.reason}"


@dataclass(frozen=True, kw_only=True)
class AttackOutcome(Event):
    """What the attack came to: "miss", "dodged", "blocked", "hit"."""

    attacker_id: str
    defender_id: str
    outcome: str
    text: str

    def describe(self) -> str:
        return self.text

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.attacker_id, self.defender_id)


@dataclass(frozen=True, kw_only=True)
class ZoneFound(CombatantEvent):
    """The zone hit: rolled on 2d6 (``faces``) or aimed (no faces)."""

    zone: Zone
    faces: tuple[int, ...] = ()

    def describe(self) -> str:
        if not self.faces:
            return f"The aimed attack hits {self.name}'s {self.zone.label}"
        total = sum(self.faces)
        faces = "+".join(map(str, self.faces))
        return f"Hit zone {total} ({faces}): {self.name}'s {self.zone.label}"


@dataclass(frozen=True, kw_only=True)
class DamageRolled(CombatantEvent):
    """The damage of ``name``'s blow: the dice, the Strength modifier, and the
    total (halved, rounded down, by a block)."""

    dice: str
    faces: tuple[int, ...]
    strength: int
    rolled: int
    halved: bool
    total: int
    blow: str

    def describe(self) -> str:
        faces = "+".join(map(str, self.faces)) or "0"
        strength = f", Strength {self.strength:+d}" if self.strength else ""
        half = f", halved by the block to {self.total}" if self.halved else ""
        return (
            f"{self.name}'s damage {self.dice}: {faces}{strength} = {self.rolled} {self.blow}{half}"
        )


@dataclass(frozen=True, kw_only=True)
class ZoneDamaged(CombatantEvent):
    """Damage on ``name``'s zone: the armor's reduction, what was left, the vital
    organ rule that applied ("" for none), the zone that took it and its
    multiplier, the hit points lost and those left."""

    aimed_zone: Zone
    zone: Zone
    reduction: int
    left: int
    rule: str
    multiplier: int
    damage: int
    hp_after: int

    def describe(self) -> str:
        rule = f"; {self.rule}" if self.rule else ""
        return (
            f"{self.name}'s {self.aimed_zone.label}: armor {self.reduction}, "
            f"{self.left} left{rule}; {self.zone.label} x{self.multiplier} = "
            f"{self.damage} HP lost ({self.hp_after} HP left)"
        )


@dataclass(frozen=True, kw_only=True)
class StatusChanged(CombatantEvent):
    status: Status
    reason: str

    def describe(self) -> str:
        return f"{self.name} is {self.status.value}: {self.reason}"


@dataclass(frozen=True, kw_only=True)
class InitiativeRolled(Event):
    """Each fighter's initiative (2d6 + Dexterity modifier), highest first; a
    tie is settled by the higher Dexterity, then by a die each (``tie``)."""

    entries: tuple[tuple[str, str, tuple[int, ...], int, tuple[int, ...]], ...]

    def describe(self) -> str:
        parts = []
        for _cid, name, faces, total, tie in self.entries:
            extra = f", tie die {'/'.join(map(str, tie))}" if tie else ""
            parts.append(f"{name} {total} ({'+'.join(map(str, faces))}{extra})")
        return "Initiative: " + ", ".join(parts)

    def involved_combatants(self) -> tuple[str, ...]:
        return tuple(e[0] for e in self.entries)


@dataclass(frozen=True, kw_only=True)
class NothingHit(CombatantEvent):
    """A flying piece passed ``name``: seed 004 has no rule for stray hits."""

    piece: str

    def describe(self) -> str:
        return f"{self.piece} passes {self.name} harmlessly (seed 004 has no stray hits)"
