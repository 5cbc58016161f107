"""Seed 002's lines in the combat log: each event's short text (its own
``describe()``, every number read from the event) and its tone; an attack's
events form one row that starts at ``AttackDeclared``."""

from __future__ import annotations

from app.event_text import Tone
from rules.core.events import Event
from rules.sets.seed002.events import (
    AttackDeclared,
    DamageDealt,
    DefenseNotMade,
    Fumbled,
    LocationRolled,
    MajorWoundRolled,
    ResultApplied,
    SkillRolled,
    StatusChanged,
    TurnEffect,
)
from rules.sets.seed002.maneuvers import TieRolled
from rules.sets.seed002.stray_hits import PiecePassed
from rules.sets.seed002.tables import Level

_ROLL_TONES = {
    Level.CRITICAL: Tone.CRITICAL,
    Level.SUCCESS: Tone.SUCCESS,
    Level.FAILURE: Tone.FAILURE,
    Level.FUMBLE: Tone.CRITICAL,
}


def seed002_line(event: Event) -> tuple[str, Tone] | None:
    """The short line and tone of a seed 002 event; None for any other event."""
    text = event.describe()
    if isinstance(event, AttackDeclared):
        return text, Tone.TITLE
    if isinstance(event, SkillRolled):
        return text, _ROLL_TONES[event.roll.level]
    if isinstance(event, ResultApplied):
        return text, Tone.OUTCOME
    if isinstance(event, DamageDealt):
        return text, Tone.HARM if event.taken else Tone.PLAIN
    if isinstance(event, MajorWoundRolled | StatusChanged):
        return text, Tone.HARM
    if isinstance(event, Fumbled):
        return text, Tone.CRITICAL
    if isinstance(event, DefenseNotMade | TurnEffect):
        return text, Tone.NOTE
    if isinstance(event, LocationRolled | TieRolled | PiecePassed):
        return text, Tone.PLAIN
    return None


class Seed002LogLines:
    """Seed 002's ``LogFormatter``."""

    def line(self, event: Event) -> tuple[str, Tone] | None:
        return seed002_line(event)

    def opens_row(self, event: Event) -> bool:
        return isinstance(event, AttackDeclared)
