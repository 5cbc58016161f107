"""Typed events of one attack, for the combat log. Each names its seed rule."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TypedDict

from hexmap import Arc, Hex
from rules.checks import SuccessRoll
from rules.citation import BASE_DAMAGE, BASE_INJURY, BASE_SUCCESS_ROLL, cite
from rules.damage import DamageResult, StatusRoll
from rules.defense import DefenseKind
from rules.events import Event
from rules.model import Status
from rules.modifiers import Modifier


class AttackOutcome(Enum):
    CRITICAL_HIT = "critical hit"
    HIT = "hit"
    DEFENDED = "defended"
    MISSED = "missed"
    CRITICAL_MISS = "critical miss"

    @property
    def is_hit(self) -> bool:
        return self in (AttackOutcome.CRITICAL_HIT, AttackOutcome.HIT)


def _mods(modifiers: tuple[Modifier, ...]) -> str:
    return "".join(f" {m.value:+d} {m.reason}" for m in modifiers if m.value)


class Between(TypedDict):
    """The fields every attack event shares, to pass as ``**between``."""

    attacker_id: str
    attacker_name: str
    defender_id: str
    defender_name: str
    attacker_hex: Hex
    defender_hex: Hex


@dataclass(frozen=True, kw_only=True)
class _Between(Event):
    attacker_id: str
    attacker_name: str
    defender_id: str
    defender_name: str
    attacker_hex: Hex
    defender_hex: Hex

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.attacker_hex, self.defender_hex)

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.attacker_id, self.defender_id)


@dataclass(frozen=True, kw_only=True)
class AttackDeclared(_Between):
    weapon_name: str
    mode: str
    location_label: str
    arc: Arc
    below: bool
    announced: tuple[str, ...]  # the defenses, in order

    def describe(self) -> str:
        below = ", from below" if self.below else ""
        defenses = ", ".join(self.announced) if self.announced else "no active defense"
        return (
            f"{self.attacker_name} attacks {self.defender_name} with the {self.weapon_name} "
            f"({self.mode}) at the {self.location_label.lower()}, from the {self.arc.value}"
            f"{below}; {self.defender_name} announces {defenses}"
        )


@dataclass(frozen=True, kw_only=True)
class AttackRolled(_Between):
    skill_name: str
    base_skill: int
    modifiers: tuple[Modifier, ...]
    effective_skill: int
    roll: SuccessRoll

    def describe(self) -> str:
        return (
            f"{self.attacker_name} attack roll: {self.skill_name} {self.base_skill}"
            f"{_mods(self.modifiers)} = {self.effective_skill}; rolled {self.roll}"
        )


@dataclass(frozen=True, kw_only=True)
class DefenseRolled(_Between):
    kind: DefenseKind
    item_name: str | None
    base: int
    base_reason: str
    modifiers: tuple[Modifier, ...]
    value: int
    roll: SuccessRoll

    def describe(self) -> str:
        item = f" ({self.item_name})" if self.item_name else ""
        return (
            f"{self.defender_name} {self.kind.value}{item}: {self.base} [{self.base_reason}]"
            f"{_mods(self.modifiers)} = {self.value}; rolled {self.roll}"
        )


@dataclass(frozen=True, kw_only=True)
class DefenseNotRolled(_Between):
    """An announced defense that was never rolled; it still counts as used."""

    kind: DefenseKind
    item_name: str | None
    reason: str

    def describe(self) -> str:
        item = f" ({self.item_name})" if self.item_name else ""
        return (
            f"{self.defender_name}'s announced {self.kind.value}{item} is not rolled "
            f"({self.reason}) but counts as made this turn"
        )


_DEFENSE_DISASTER = {
    DefenseKind.DODGE: "roll vs DX or fall; at best off-balance",
    DefenseKind.BLOCK: "the shield's grip is lost (bucklers and small shields are dropped)",
    DefenseKind.PARRY: "roll on the critical miss table",
}


@dataclass(frozen=True, kw_only=True)
class DefenseCriticalMiss(_Between):
    kind: DefenseKind
    item_name: str | None

    def describe(self) -> str:
        return (
            f"{self.defender_name}'s {self.kind.value} fails disastrously: "
            f"{_DEFENSE_DISASTER[self.kind]} (GM resolves; not automated yet)"
        )


@dataclass(frozen=True, kw_only=True)
class AttackResolved(_Between):
    outcome: AttackOutcome

    def describe(self) -> str:
        text = {
            AttackOutcome.CRITICAL_HIT: f"Critical hit on {self.defender_name}: no defense allowed",
            AttackOutcome.HIT: f"{self.attacker_name} hits {self.defender_name}",
            AttackOutcome.DEFENDED: f"{self.defender_name} defends against {self.attacker_name}",
            AttackOutcome.MISSED: f"{self.attacker_name} misses {self.defender_name}",
            AttackOutcome.CRITICAL_MISS: (
                f"{self.attacker_name} critically misses (critical miss table not automated yet)"
            ),
        }
        return text[self.outcome]


@dataclass(frozen=True, kw_only=True)
class DamageDealt(_Between):
    damage: DamageResult

    def describe(self) -> str:
        return f"{self.defender_name} takes damage: {self.damage}"


@dataclass(frozen=True, kw_only=True)
class InjuryRolled(Event):
    combatant_id: str
    name: str
    status_roll: StatusRoll

    def describe(self) -> str:
        return f"{self.name}: {self.status_roll}"

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class StatusChanged(Event):
    combatant_id: str
    name: str
    before: Status
    after: Status

    def describe(self) -> str:
        return f"{self.name} is now {self.after.value} (was {self.before.value})"

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class WeaponUnreadied(Event):
    combatant_id: str
    name: str
    weapon_name: str

    def describe(self) -> str:
        return f"{self.name}'s {self.weapon_name} is unready and must be readied"

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


# Citations the events carry by default.
ATTACK_ROLL_CITATION = BASE_SUCCESS_ROLL
DAMAGE_CITATION = BASE_DAMAGE
INJURY_CITATION = BASE_INJURY
DEFENSE_CRITICAL_MISS_CITATION = cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
READINESS_CITATION = cite("000", "PARRY")
DEFENSES_CITATION = cite("000", "DEFENSES")
