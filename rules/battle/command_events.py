"""The events of the neutral battle's commands: moves, turns, edits, the end of a
turn, posture changes and a change of the ruleset's options."""

from __future__ import annotations

from dataclasses import dataclass

from hexmap import Facing, Hex
from rules.battle.model import Posture
from rules.battle.terrain import TerrainChange
from rules.battle.values import hex_name
from rules.core.events import Event


@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    combatant_id: str
    name: str
    path: tuple[Hex, ...]
    # Movement points: this move's cost, and the turn's total against Move
    # (rules.battle.movement); None where not tracked.
    cost: int | None = None
    move_used: int | None = None
    move: int | None = None
    verb: str = "moves"  # how its posture moves it ("crawls": rules.battle.movement)

    def describe(self) -> str:
        end = self.path[-1]
        steps = len(self.path) - 1
        # The map's own column and row, as every other line names a hex.
        where = f"{hex_name(end)} ({steps} hex{'' if steps == 1 else 'es'})"
        text = f"{self.name} {self.verb} to {where}"
        if self.cost is not None:
            text += f", {self.cost} MP"
            if self.move_used is not None and self.move is not None:
                text += f" ({self.move_used}/{self.move} this turn)"
        return text

    def involved_hexes(self) -> tuple[Hex, ...]:
        return self.path

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class Turned(Event):
    combatant_id: str
    name: str
    before: Facing
    after: Facing
    cost: int | None = None  # movement points (rules.battle.movement); None where not tracked
    free_side: bool = False  # the free one-hex-side change of the last step was used

    def describe(self) -> str:
        text = f"{self.name} turns from {self.before.label} to {self.after.label}"
        if self.cost is not None:
            text += f", {self.cost} MP"
            if self.free_side:
                text += " (one side free after a step)"
        return text

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class Edited(Event):
    combatant_id: str
    name: str
    changes: tuple[tuple[str, str, str], ...]  # (field, before, after)

    def describe(self) -> str:
        parts = ", ".join(f"{f} {a} → {b}" for f, a, b in self.changes)
        return f"GM edits {self.name}: {parts}"

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class TurnEnded(Event):
    turn: int

    def describe(self) -> str:
        return f"— Round {self.turn} begins —"


@dataclass(frozen=True, kw_only=True)
class PostureChanged(Event):
    combatant_id: str
    name: str
    before: Posture
    after: Posture
    fell: bool = False

    def describe(self) -> str:
        verb = "falls" if self.fell else "goes"
        after = self.after.value.replace("_", " ")
        return f"{self.name} {verb} {_posture_phrase(self.after, after)}"

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


def _posture_phrase(posture: Posture, text: str) -> str:
    if posture is Posture.STANDING:
        return "back on their feet (standing)"
    if posture is Posture.PRONE:
        return "prone"
    return f"to {text}"


@dataclass(frozen=True, kw_only=True)
class RulesetOptionsSet(Event):
    """The battle's ruleset options changed (e.g. 001 hit locations)."""

    before: tuple[str, ...]
    after: tuple[str, ...]

    def describe(self) -> str:
        def text(o: tuple[str, ...]) -> str:
            return ", ".join(o) if o else "none"

        return f"ruleset options: {text(self.before)} → {text(self.after)}"


@dataclass(frozen=True, kw_only=True)
class TerrainPainted(Event):
    """The GM painted ``change`` on ``hexes``; ``change_text`` is the change as the
    battle's ruleset names it (``BattlefieldRules.terrain_label``)."""

    hexes: tuple[Hex, ...]
    change: TerrainChange
    change_text: str

    def describe(self) -> str:
        n = len(self.hexes)
        return f"GM paints {n} hex{'es' if n != 1 else ''}: {self.change_text}"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return self.hexes
