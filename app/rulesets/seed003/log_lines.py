"""Seed 003's lines in the combat log: each event's short text (its own
``describe()``, every number read from the event) and its tone; an attack's
events form one row that starts at ``AttackDeclared``."""

from __future__ import annotations

from app.event_text import Tone
from rules.core.events import Event
from rules.sets.seed003.events import (
    AttackDeclared,
    BodyStateChanged,
    CoverStruck,
    Hobbled,
    InitiativeRolled003,
    LocationRolled,
    OpposedRolled,
    StayedStanding,
    TurnPassed,
    WoundDealt,
)
from rules.sets.seed003.ruleset import PieceStruck, StrayChecked


def seed003_line(event: Event) -> tuple[str, Tone] | None:
    """The short line and tone of a seed 003 event; None for any other event."""
    text = event.describe()
    if isinstance(event, AttackDeclared):
        return text, Tone.TITLE
    if isinstance(event, OpposedRolled):
        return text, Tone.SUCCESS if event.hit else Tone.FAILURE
    if isinstance(event, WoundDealt):
        return text, Tone.HARM if event.mark is not None else Tone.NOTE
    if isinstance(event, BodyStateChanged | PieceStruck | Hobbled):
        return text, Tone.HARM
    if isinstance(event, StayedStanding):
        return text, Tone.SUCCESS if event.stood else Tone.HARM
    if isinstance(event, StrayChecked):
        return text, Tone.HARM if event.hit else Tone.SUCCESS
    if isinstance(event, TurnPassed | CoverStruck):
        return text, Tone.NOTE
    if isinstance(event, LocationRolled | InitiativeRolled003):
        return text, Tone.PLAIN
    return None


class Seed003LogLines:
    """Seed 003's ``LogFormatter``."""

    def line(self, event: Event) -> tuple[str, Tone] | None:
        return seed003_line(event)

    def opens_row(self, event: Event) -> bool:
        return isinstance(event, AttackDeclared)
