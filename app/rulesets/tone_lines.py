"""A ruleset's lines in the combat log when each is its event's own
``describe()`` (every number read from the event) in a tone the ruleset picks:
the attack's declaration opens a row, as a title, and the attack's events after
it join that row. The log lines of seeds 002, 003 and 004 are one each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.event_text import LogFormatter, Tone
from rules.core.events import Event


@dataclass(frozen=True)
class ToneLogLines:
    """The ``LogFormatter`` of a ruleset: ``opening`` (its attack declaration)
    opens a row as a title; ``tone_of`` gives each of its other events a tone,
    None for an event that is not the ruleset's (the log then shows it whole)."""

    opening: type[Event]
    tone_of: Callable[[Event], Tone | None]

    def line(self, event: Event) -> tuple[str, Tone] | None:
        if isinstance(event, self.opening):
            return event.describe(), Tone.TITLE
        tone = self.tone_of(event)
        return None if tone is None else (event.describe(), tone)

    def opens_row(self, event: Event) -> bool:
        return isinstance(event, self.opening)


# Typed as the protocol, so mypy proves ToneLogLines is a whole LogFormatter.
_CHECK: Callable[[type[Event], Callable[[Event], Tone | None]], LogFormatter] = ToneLogLines
