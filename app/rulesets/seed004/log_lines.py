"""Seed 004's lines in the combat log: each event's short text (its own
``describe()``, every number read from the event) and its tone; an attack's
events form one row that starts at ``AttackDeclared``."""

from __future__ import annotations

from app.event_text import Tone
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


def seed004_line(event: Event) -> tuple[str, Tone] | None:
    """The short line and tone of a seed 004 event; None for any other event."""
    text = event.describe()
    if isinstance(event, AttackDeclared):
        return text, Tone.TITLE
    if isinstance(event, CheckRolled):
        return text, Tone.SUCCESS if event.roll.succeeded else Tone.FAILURE
    if isinstance(event, AttackOutcome):
        return text, Tone.OUTCOME
    if isinstance(event, ZoneDamaged | WoundTaken | WoundEffectRolled | StatusChanged):
        harmed = not isinstance(event, ZoneDamaged) or event.damage > 0
        return text, Tone.HARM if harmed else Tone.NOTE
    if isinstance(event, DefenseNotRolled | NothingHit):
        return text, Tone.NOTE
    if isinstance(event, ZoneFound | DamageRolled | InitiativeRolled):
        return text, Tone.PLAIN
    return None


class Seed004LogLines:
    """Seed 004's ``LogFormatter``."""

    def line(self, event: Event) -> tuple[str, Tone] | None:
        return seed004_line(event)

    def opens_row(self, event: Event) -> bool:
        return isinstance(event, AttackDeclared)
