"""Seed 003's tones in the combat log (``app.rulesets.tone_lines``)."""

from __future__ import annotations

from app.event_text import Tone
from app.rulesets.tone_lines import ToneLogLines
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


def _tone(event: Event) -> Tone | None:
    """The tone of a seed 003 event other than ``AttackDeclared``; None for an
    event that is not seed 003's."""
    if isinstance(event, OpposedRolled):
        return Tone.SUCCESS if event.hit else Tone.FAILURE
    if isinstance(event, WoundDealt):
        return Tone.HARM if event.mark is not None else Tone.NOTE
    if isinstance(event, BodyStateChanged | PieceStruck | Hobbled):
        return Tone.HARM
    if isinstance(event, StayedStanding):
        return Tone.SUCCESS if event.stood else Tone.HARM
    if isinstance(event, StrayChecked):
        return Tone.HARM if event.hit else Tone.SUCCESS
    if isinstance(event, TurnPassed | CoverStruck):
        return Tone.NOTE
    if isinstance(event, LocationRolled | InitiativeRolled003):
        return Tone.PLAIN
    return None


LOG_LINES = ToneLogLines(AttackDeclared, _tone)


def seed003_line(event: Event) -> tuple[str, Tone] | None:
    """The short line and tone of a seed 003 event; None for any other event."""
    return LOG_LINES.line(event)
