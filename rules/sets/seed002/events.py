"""Seed 002's events: every number the log shows comes from one of these."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.events import CombatantEvent, Event
from rules.sets.seed002.success import PercentileRoll


@dataclass(frozen=True, kw_only=True)
class AttackDeclared(Event):
    attacker_id: str
    attacker_name: str
    defender_id: str
    defender_name: str
    weapon_name: str
    mode: str
    defense: str  # "dodge", "parry with the Longsword", "no defense"

    def describe(self) -> str:
        return (
            f"{self.attacker_name} attacks {self.defender_name} with the {self.weapon_name} "
            f"({self.mode}); {self.defense}"
        )

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.attacker_id, self.defender_id)


@dataclass(frozen=True, kw_only=True)
class SkillRolled(CombatantEvent):
    """A d100 roll of an attack or a defense."""

    what: str  # "attack", "dodge", "parry"
    roll: PercentileRoll

    def describe(self) -> str:
        r = self.roll
        if r.face is None:
            return f"{self.name}'s {self.what}: automatic {r.level.value}"
        face = "00" if r.face == 100 else f"{r.face:02d}"
        return f"{self.name}'s {self.what} {face} vs {r.skill}%: {r.level.value}"


@dataclass(frozen=True, kw_only=True)
class DefenseNotMade(CombatantEvent):
    reason: str

    def describe(self) -> str:
        return f"{self.name} makes no defense: {self.reason}"


@dataclass(frozen=True, kw_only=True)
class ResultApplied(Event):
    """The result matrix's cell, in a line."""

    text: str

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True, kw_only=True)
class DamageDealt(CombatantEvent):
    dice: str  # "1d8+1d2"
    faces: tuple[int, ...]
    rolled: int
    maximum: bool
    armour: int  # the armour points that counted (0 when ignored)
    halved: bool
    taken: int
    hp_before: int
    hp_after: int
    max_hp: int

    def describe(self) -> str:
        how = "maximum" if self.maximum else "+".join(str(f) for f in self.faces) or "0"
        half = ", halved" if self.halved else ""
        return (
            f"Damage {self.dice}: {how} = {self.rolled}; armour {self.armour}{half} → "
            f"{self.taken}; HP {self.hp_before} → {self.hp_after}/{self.max_hp}"
        )


@dataclass(frozen=True, kw_only=True)
class LocationRolled(CombatantEvent):
    """The d20 of the hit location (the option "locations-d20")."""

    face: int
    label: str
    armour: int

    def describe(self) -> str:
        return f"Hit location d20 {self.face}: the {self.label}, armour {self.armour}"


@dataclass(frozen=True, kw_only=True)
class MajorWoundRolled(CombatantEvent):
    face: int
    label: str
    spine_face: int | None
    effects: str

    def describe(self) -> str:
        spine = "" if self.spine_face is None else f" (spine die {self.spine_face})"
        return f"{self.name}: major wound, d10 {self.face}{spine}: {self.label}; {self.effects}"


@dataclass(frozen=True, kw_only=True)
class Fumbled(CombatantEvent):
    text: str

    def describe(self) -> str:
        return f"{self.name} fumbles: {self.text}"


@dataclass(frozen=True, kw_only=True)
class StatusChanged(CombatantEvent):
    text: str

    def describe(self) -> str:
        return f"{self.name} {self.text}"


@dataclass(frozen=True, kw_only=True)
class TurnEffect(CombatantEvent):
    """What a turn boundary did: bleeding, unconsciousness counting down."""

    text: str

    def describe(self) -> str:
        return f"{self.name}: {self.text}"
