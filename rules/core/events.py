"""Typed battle events. Commands and rule resolutions emit these; the combat log
pane only renders them, so every number a GM sees comes from an event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from hexmap import Hex
from rules.core.citation import Citation

if TYPE_CHECKING:
    from rules.battle.command_events import Edited as Edited
    from rules.battle.command_events import Moved as Moved
    from rules.battle.command_events import Turned as Turned
    from rules.battle.command_events import TurnEnded as TurnEnded


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


# The commands' events live in rules.battle.command_events, created on first use (issue 5).
_COMMAND_EVENTS = frozenset({"Moved", "Turned", "Edited", "TurnEnded"})


def __getattr__(name: str) -> object:
    if name in _COMMAND_EVENTS:
        from rules.battle import command_events

        value = getattr(command_events, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
