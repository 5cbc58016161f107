"""Typed battle events. Commands and rule resolutions emit these; the combat log
pane only renders them, so every number a GM sees comes from an event."""

from __future__ import annotations

from dataclasses import dataclass

from hexmap import Hex
from rules.core.citation import Citation


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
