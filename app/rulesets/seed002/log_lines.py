"""Seed 002's tones in the combat log (``app.rulesets.tone_lines``)."""

from __future__ import annotations

from app.event_text import Tone
from app.rulesets.tone_lines import ToneLogLines
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


def _tone(event: Event) -> Tone | None:
    """The tone of a seed 002 event other than ``AttackDeclared``; None for an
    event that is not seed 002's."""
    if isinstance(event, SkillRolled):
        return _ROLL_TONES[event.roll.level]
    if isinstance(event, ResultApplied):
        return Tone.OUTCOME
    if isinstance(event, DamageDealt):
        return Tone.HARM if event.taken else Tone.PLAIN
    if isinstance(event, MajorWoundRolled | StatusChanged):
        return Tone.HARM
    if isinstance(event, Fumbled):
        return Tone.CRITICAL
    if isinstance(event, DefenseNotMade | TurnEffect):
        return Tone.NOTE
    if isinstance(event, LocationRolled | TieRolled | PiecePassed):
        return Tone.PLAIN
    return None


LOG_LINES = ToneLogLines(AttackDeclared, _tone)


def seed002_line(event: Event) -> tuple[str, Tone] | None:
    """The short line and tone of a seed 002 event; None for any other event."""
    return LOG_LINES.line(event)
