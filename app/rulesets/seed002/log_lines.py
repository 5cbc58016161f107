"""Seed 002's tones in the combat log (``app.rulesets.tone_lines``)."""

from __future__ import annotations

from app.event_text import Tone
from app.rulesets.tone_lines import ToneLogLines
from rules.core.events import Event
from rules.sets.seed002 import events as ev
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
    """The tone of a seed 002 event (but its attack declaration, a title)."""
    if isinstance(event, ev.SkillRolled):
        return _ROLL_TONES[event.roll.level]
    if isinstance(event, ev.ResultApplied):
        return Tone.OUTCOME
    if isinstance(event, ev.DamageDealt):
        return Tone.HARM if event.taken else Tone.PLAIN
    if isinstance(event, ev.MajorWoundRolled | ev.StatusChanged):
        return Tone.HARM
    if isinstance(event, ev.Fumbled):
        return Tone.CRITICAL
    if isinstance(event, ev.DefenseNotMade | ev.TurnEffect):
        return Tone.NOTE
    if isinstance(event, ev.LocationRolled | TieRolled | PiecePassed):
        return Tone.PLAIN
    return None


LOG_LINES = ToneLogLines(ev.AttackDeclared, _tone)

# The short line and tone of a seed 002 event; None for any other event.
seed002_line = LOG_LINES.line
