"""Seed 003's events: every number of an attack, for the log (``app.rulesets.seed003``)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.events import CombatantEvent, Event
from rules.core.modifiers import Modifier
from rules.sets.components.fudge_locations import PartState, RandomLocation, WoundMark, ladder_label
from rules.sets.seed003.fudge_dice import FudgeRoll


@dataclass(frozen=True, kw_only=True)
class AttackDeclared(CombatantEvent):
    """An attack: who, on whom, with what, aimed where (the row of the log)."""

    defender_id: str
    defender_name: str
    weapon: str
    aim: str
    modifiers: tuple[Modifier, ...] = ()

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id, self.defender_id)

    def describe(self) -> str:
        return f"{self.name} attacks {self.defender_name} with the {self.weapon} at the {self.aim}"


@dataclass(frozen=True, kw_only=True)
class OpposedRolled(Event):
    """The opposed 4dF rolls and their relative degree; ``defense`` None is a
    helpless defender, who stands at a fixed Terrible."""

    attacker: str
    defender: str
    attack: FudgeRoll
    defense: FudgeRoll | None
    defense_kind: str
    relative: int

    @property
    def hit(self) -> bool:
        return self.relative > 0

    def describe(self) -> str:
        if self.defense is None:
            against = f"{self.defender} cannot defend (Terrible)"
        else:
            against = f"{self.defender}'s {self.defense_kind} {self.defense}"
        verdict = "hit" if self.hit else "no hit"
        return (
            f"{self.attacker} rolls {self.attack} against {against}: relative degree "
            f"{self.relative:+d}, {verdict}"
        )


@dataclass(frozen=True, kw_only=True)
class LocationRolled(CombatantEvent):
    """The random location of a distant shot (003 5.871)."""

    location: RandomLocation

    def describe(self) -> str:
        steps = ", ".join(self.location.steps)
        return f"{self.name} is hit at random: {steps} - the {self.location.part.value}"


@dataclass(frozen=True, kw_only=True)
class CoverStruck(CombatantEvent):
    """A random location that the cover in the defender's hex hides: the cover
    takes the blow (our rule)."""

    part: str

    def describe(self) -> str:
        return f"the blow lands on {self.name}'s {self.part}, behind cover: the cover takes it"


@dataclass(frozen=True, kw_only=True)
class WoundDealt(CombatantEvent):
    """The damage to one part: relative degree + offensive factor - defensive
    factor (+ the large target's -1), halved for a widespread blow, the wound
    level and the box it checked (``mark`` None: no wound)."""

    part: str
    relative: int
    offensive: int
    defensive: int
    adjustment: int
    widespread: bool
    damage: int
    mark: WoundMark | None

    def describe(self) -> str:
        parts = f"{self.relative:+d} relative {self.offensive:+d} ODF {-self.defensive:+d} DDF"
        if self.adjustment:
            parts += f" {self.adjustment:+d}"
        half = ", half (rounded up)" if self.widespread else ""
        head = f"{self.name}'s {self.part}: damage {parts}{half} = {self.damage}"
        if self.mark is None:
            return f"{head}: no wound"
        return f"{head}: {self.mark.describe()}"


@dataclass(frozen=True, kw_only=True)
class StayedStanding(CombatantEvent):
    """A useless leg or foot: the Agility roll that a Superb result passes to stay
    up (003 5.873)."""

    part: str
    roll: FudgeRoll

    @property
    def stood(self) -> bool:
        return self.roll.result >= 3

    def describe(self) -> str:
        verdict = "stays on his feet" if self.stood else "falls"
        return f"{self.name}'s {self.part} gives way: Agility {self.roll}, needs Superb - {verdict}"


@dataclass(frozen=True, kw_only=True)
class Hobbled(CombatantEvent):
    """A leg or foot turned useless: the fighter moves only slowly from now on,
    his Move halved (003 5.873, our value)."""

    move_before: int
    move_after: int

    def describe(self) -> str:
        return (
            f"{self.name} can only hobble, leaning on something: "
            f"Move {self.move_before} -> {self.move_after}"
        )


@dataclass(frozen=True, kw_only=True)
class BodyStateChanged(CombatantEvent):
    """The torso or head reached a state that stops the fighter."""

    state: PartState

    def describe(self) -> str:
        return f"{self.name} is {self.state.label}"


@dataclass(frozen=True, kw_only=True)
class InitiativeRolled003(Event):
    """Each fighter's Agility roll for the order, best first."""

    entries: tuple[tuple[str, str, FudgeRoll, tuple[int, ...]], ...]  # id, name, roll, tie dice

    def describe(self) -> str:
        parts = []
        for _, name, roll, ties in self.entries:
            tie = f", tie die {'/'.join(map(str, ties))}" if ties else ""
            parts.append(f"{name} {ladder_label(roll.result)} ({roll.result:+d}{tie})")
        return "Initiative (Agility + 4dF): " + "; ".join(parts)


@dataclass(frozen=True, kw_only=True)
class TurnPassed(CombatantEvent):
    reason: str

    def describe(self) -> str:
        return f"{self.name} is {self.reason}: the turn passes"
