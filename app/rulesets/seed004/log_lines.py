"""Seed 004's tones in the combat log (``app.rulesets.tone_lines``)."""

from __future__ import annotations

from app.event_text import Tone
from app.rulesets.tone_lines import ToneLogLines
from rules.core.events import Event
from rules.sets.seed004 import events as ev
from rules.sets.seed004.wound_effects import WoundEffectRolled, WoundTaken


def _tone(event: Event) -> Tone | None:
    """The tone of a seed 004 event (but its attack declaration, a title)."""
    if isinstance(event, ev.CheckRolled):
        return Tone.SUCCESS if event.roll.succeeded else Tone.FAILURE
    if isinstance(event, ev.AttackOutcome):
        return Tone.OUTCOME
    if isinstance(event, ev.ZoneDamaged | WoundTaken | WoundEffectRolled | ev.StatusChanged):
        harmed = not isinstance(event, ev.ZoneDamaged) or event.damage > 0
        return Tone.HARM if harmed else Tone.NOTE
    if isinstance(event, ev.DefenseNotRolled | ev.NothingHit):
        return Tone.NOTE
    if isinstance(event, ev.ZoneFound | ev.DamageRolled | ev.InitiativeRolled):
        return Tone.PLAIN
    return None


LOG_LINES = ToneLogLines(ev.AttackDeclared, _tone)

# The short line and tone of a seed 004 event; None for any other event.
seed004_line = LOG_LINES.line
