"""Battle events turned into combat-log rows: plain data, no Qt, no rules.

Every number here is read from an event; nothing is computed. One row per event,
except that the events of one attack (from an event the ruleset's ``LogFormatter``
says opens a row, up to the next stand-alone event) form one multi-line row, and
``TurnEnded`` becomes a round's separator ("Round 2"). Each line keeps its event, the event's
``describe()`` text (the full sentence, with every modifier, for tooltips and
copying) and its citation. The ruleset's formatter (``app.rulesets``) gives its own
events' short lines and tones; this module knows only the battle's neutral
command events.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Protocol

from hexmap import Hex
from rules.battle.command_events import Edited, Moved, RulesetOptionsSet, Turned, TurnEnded
from rules.battle.decision import BattleContinued, BattleDecided, BattleUndecided
from rules.battle.turns import RuleOverridden, TurnBegan
from rules.core.dice import TableRoll
from rules.core.events import Event

log = logging.getLogger(__name__)


class RowKind(Enum):
    EVENT = "event"  # one stand-alone event
    ATTACK = "attack"  # the events of one attack, several lines
    TURN = "turn"  # a turn separator


class Tone(Enum):
    """How a line reads; the pane picks colours for these."""

    PLAIN = "plain"
    TITLE = "title"  # the first line of an attack
    SUCCESS = "success"  # a roll that succeeded
    FAILURE = "failure"  # a roll that failed
    CRITICAL = "critical"  # a critical success or failure
    OUTCOME = "outcome"  # what the attack came to
    HARM = "harm"  # HP lost, status worsened
    NOTE = "note"  # not rolled, unready, GM to resolve


class LogFormatter(Protocol):
    """What the log asks one ruleset about its own events (``RulesetUI.log_formatter``)."""

    def line(self, event: Event) -> tuple[str, Tone] | None:
        """The short text and tone of one of the ruleset's events; None for an
        event it has no short line for (the log then shows its ``describe()``)."""
        ...

    def opens_row(self, event: Event) -> bool:
        """Whether ``event`` starts a multi-line row (an attack's declaration):
        the events after it join that row up to the next stand-alone event."""
        ...


@dataclass(frozen=True)
class LogLine:
    text: str  # short text shown in the log
    citation: str  # "000 BLOCK", "" when the event cites nothing
    tone: Tone
    event: Event
    detail: str  # the event's describe(): the full sentence

    @property
    def plain(self) -> str:
        return f"{self.text} [{self.citation}]" if self.citation else self.text


@dataclass(frozen=True)
class LogRow:
    kind: RowKind
    lines: tuple[LogLine, ...]
    hexes: tuple[Hex, ...]  # what hovering the row highlights on the map
    combatants: tuple[str, ...]

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(line.event for line in self.lines)

    @property
    def title(self) -> str:
        return self.lines[0].text if self.lines else ""

    def plain_text(self) -> str:
        """The row as text for the clipboard: full sentences with citations."""
        if self.kind is RowKind.TURN:
            return self.title
        out = []
        for i, line in enumerate(self.lines):
            cite = f" [{line.citation}]" if line.citation else ""
            out.append(("" if i == 0 else "    ") + line.detail + cite)
        return "\n".join(out)


# Events that always make a row of their own and end an attack's group.
_STANDALONE = (Moved, Turned, Edited, TurnEnded, BattleDecided, BattleUndecided, BattleContinued)


def rows_for_events(events: Iterable[Event], formatter: LogFormatter) -> tuple[LogRow, ...]:
    """Group a stream of events into log rows (see the module docstring)."""
    rows: list[LogRow] = []
    group: list[Event] = []

    def flush() -> None:
        if group:
            rows.append(_attack_row(group, formatter))
            group.clear()

    for event in events:
        if formatter.opens_row(event):
            flush()
            group.append(event)
        elif group and not isinstance(event, _STANDALONE):
            group.append(event)
        else:
            flush()
            rows.append(_single_row(event, formatter))
    flush()
    return tuple(rows)


def rows_for_batches(
    batches: Iterable[Sequence[Event]], formatter: LogFormatter
) -> tuple[LogRow, ...]:
    """Rows of several commands' events: an attack's group never runs on into the
    events of the next command (a posture change, a guarded area ...)."""
    rows: list[LogRow] = []
    for batch in batches:
        rows.extend(rows_for_events(batch, formatter))
    return tuple(rows)


@dataclass(frozen=True, kw_only=True)
class RollEntered(Event):
    """The log's own event for one roll entered at the table (physical dice): the
    battle records the roll with its command (``BattleChange.table_rolls``), not as
    an event of the rules."""

    roll: TableRoll

    def describe(self) -> str:
        return f"Entered at the table: {self.roll}"


def entered_roll_line(roll: TableRoll) -> LogLine:
    """A roll entered at the table on a line of its own: "Entered: Spearman's
    attack (3d6): 2, 4, 6"."""
    event = RollEntered(roll=roll)
    return LogLine(f"Entered: {roll}", "", Tone.NOTE, event, event.describe())


def with_entered_dice(rows: Sequence[LogRow], rolls: Sequence[TableRoll]) -> tuple[LogRow, ...]:
    """A command's rows with each roll entered at the table (physical dice) on a
    line of its own, named by what it was for, at the end of the command's first
    row that is not a turn separator (a row of their own if it has none): the log
    says which numbers came from the table, roll by roll."""
    if not rolls:
        return tuple(rows)
    lines = tuple(entered_roll_line(roll) for roll in rolls)
    marked = list(rows)
    for i, row in enumerate(marked):
        if row.kind is not RowKind.TURN and row.lines:
            marked[i] = replace(row, lines=(*row.lines, *lines))
            return tuple(marked)
    marked.append(LogRow(RowKind.EVENT, lines, (), ()))
    return tuple(marked)


def turn_separator(turn: int) -> LogRow:
    """The separator shown at the top of the log for the battle's first turn."""
    return _turn_row(TurnEnded(turn=turn))


# --- rows ------------------------------------------------------------------------------


def _turn_row(event: TurnEnded) -> LogRow:
    line = LogLine(f"Round {event.turn}", _cite(event), Tone.TITLE, event, event.describe())
    return LogRow(RowKind.TURN, (line,), (), ())


def _single_row(event: Event, formatter: LogFormatter) -> LogRow:
    if isinstance(event, TurnEnded):
        return _turn_row(event)
    return LogRow(
        RowKind.EVENT,
        (line_for(event, formatter),),
        tuple(event.involved_hexes()),
        tuple(event.involved_combatants()),
    )


def _attack_row(events: Sequence[Event], formatter: LogFormatter) -> LogRow:
    hexes: list[Hex] = []
    ids: list[str] = []
    for e in events:
        hexes.extend(h for h in e.involved_hexes() if h not in hexes)
        ids.extend(c for c in e.involved_combatants() if c not in ids)
    lines = tuple(line_for(e, formatter) for e in events)
    return LogRow(RowKind.ATTACK, lines, tuple(hexes), tuple(ids))


# --- lines -----------------------------------------------------------------------------


def line_for(event: Event, formatter: LogFormatter) -> LogLine:
    """The short log line of one event: the ruleset's for its own events, this
    module's for the neutral command events. An event without a short text (or
    whose short text fails) shows its ``describe()``; every line keeps the event's
    citation."""
    try:
        text, tone = _text_and_tone(event, formatter)
    except Exception:  # a bug in one line's text must not blank the log
        log.exception("no short text for %s", type(event).__name__)
        text, tone = event.describe(), Tone.PLAIN
    return LogLine(text, _cite(event), tone, event, event.describe())


def _cite(event: Event) -> str:
    return str(event.citation) if event.citation is not None else ""


def _text_and_tone(event: Event, formatter: LogFormatter) -> tuple[str, Tone]:
    own = formatter.line(event)
    if own is not None:
        return own
    if isinstance(event, RulesetOptionsSet | RuleOverridden):  # a GM override stands out
        return event.describe(), Tone.NOTE
    if isinstance(event, TurnBegan | BattleDecided):
        return event.describe(), Tone.TITLE
    if isinstance(event, BattleUndecided | BattleContinued):
        return event.describe(), Tone.NOTE
    if isinstance(event, TurnEnded):
        return f"Round {event.turn}", Tone.TITLE
    return event.describe(), Tone.PLAIN
