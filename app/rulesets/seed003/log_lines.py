"""Seed 003's tones in the combat log (``app.rulesets.tone_lines``)."""

from __future__ import annotations

from app.event_text import Tone
from app.rulesets.tone_lines import ToneLogLines
from rules.core.events import Event
from rules.sets.seed003 import events as ev
from rules.sets.seed003.ruleset import PieceStruck, StrayChecked


def _tone(event: Event) -> Tone | None:
    """The tone of a seed 003 event (but its attack declaration, a title)."""
    if isinstance(event, ev.OpposedRolled):
        return Tone.SUCCESS if event.hit else Tone.FAILURE
    if isinstance(event, ev.WoundDealt):
        return Tone.HARM if event.mark is not None else Tone.NOTE
    if isinstance(event, ev.BodyStateChanged | PieceStruck | ev.Hobbled):
        return Tone.HARM
    if isinstance(event, ev.StayedStanding):
        return Tone.SUCCESS if event.stood else Tone.HARM
    if isinstance(event, StrayChecked):
        return Tone.HARM if event.hit else Tone.SUCCESS
    if isinstance(event, ev.TurnPassed | ev.CoverStruck):
        return Tone.NOTE
    if isinstance(event, ev.LocationRolled | ev.InitiativeRolled003):
        return Tone.PLAIN
    return None


LOG_LINES = ToneLogLines(ev.AttackDeclared, _tone)

# The short line and tone of a seed 003 event; None for any other event.
seed003_line = LOG_LINES.line
