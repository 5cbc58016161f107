"""Seed 004's tones in the combat log (``app.rulesets.tone_lines``)."""

from __future__ import annotations

from app.event_text import Tone
from app.rulesets.tone_lines import ToneLogLines
from rules.core.events import Event
from rules.sets.seed004.events import (
    AttackDeclared,
    AttackOutcome,
    CheckRolled,
    DamageRolled,
    DefenseNotRolled,
    InitiativeRolled,
    NothingHit,
    StatusChanged,
    ZoneDamaged,
    ZoneFound,
)
from rules.sets.seed004.wound_effects import WoundEffectRolled, WoundTaken


def _tone(event: Event) -> Tone | None:
    """The tone of a seed 004 event other than ``AttackDeclared``; None for an
    event that is not seed 004's."""
    if isinstance(event, CheckRolled):
        return Tone.SUCCESS if event.roll.succeeded else Tone.FAILURE
    if isinstance(event, AttackOutcome):
        return Tone.OUTCOME
    if isinstance(event, ZoneDamaged | WoundTaken | WoundEffectRolled | StatusChanged):
        harmed = not isinstance(event, ZoneDamaged) or event.damage > 0
        return Tone.HARM if harmed else Tone.NOTE
    if isinstance(event, DefenseNotRolled | NothingHit):
        return Tone.NOTE
    if isinstance(event, ZoneFound | DamageRolled | InitiativeRolled):
        return Tone.PLAIN
    return None


LOG_LINES = ToneLogLines(AttackDeclared, _tone)


def seed004_line(event: Event) -> tuple[str, Tone] | None:
    """The short line and tone of a seed 004 event; None for any other event."""
    return LOG_LINES.line(event)
