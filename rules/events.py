"""Typed battle events. Commands and rule resolutions emit these; the combat log
pane only renders them, so every number a GM sees comes from an event."""

from __future__ import annotations

from dataclasses import dataclass

from hexmap import Facing, Hex
from rules.citation import Citation


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event. ``citation`` names the seed rule behind it, if any."""

    citation: Citation | None = None

    def describe(self) -> str:
        """One line of plain text for the log."""
        return type(self).__name__

    def involved_hexes(self) -> tuple[Hex, ...]:
        """Hexes the log highlights on the map when the entry is hovered."""
        return ()

    def involved_combatants(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True, kw_only=True)
class CombatantEvent(Event):
    """An event about one combatant: the log names it and hovering selects it."""

    combatant_id: str
    name: str

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class Moved(Event):
    combatant_id: str
    name: str
    path: tuple[Hex, ...]
    # Movement points: this move's cost, and the turn's total against Move
    # (rules.movement); None where not tracked.
    cost: int | None = None
    move_used: int | None = None
    move: int | None = None

    def describe(self) -> str:
        end = self.path[-1]
        steps = len(self.path) - 1
        text = f"{self.name} moves to {end.q},{end.r} ({steps} hex{'' if steps == 1 else 'es'})"
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
    cost: int | None = None  # movement points (rules.movement); None where not tracked
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
        return f"— Turn {self.turn} begins —"
