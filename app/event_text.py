"""Battle events turned into combat-log rows: plain data, no Qt, no rules.

Every number here is read from an event; nothing is computed. One row per event,
except that the events of one attack (from ``AttackDeclared`` up to the next
stand-alone event) form one multi-line row, and ``TurnEnded`` becomes a turn
separator. Each line keeps its event, the event's ``describe()`` text (the full
sentence, with every modifier, for tooltips and copying) and its citation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from hexmap import Hex
from rules.attack_events import (
    AttackDeclared,
    AttackOutcome,
    AttackResolved,
    AttackRolled,
    DamageDealt,
    DefenseCriticalMiss,
    DefenseNotRolled,
    DefenseRolled,
    InjuryRolled,
    StatusChanged,
    WeaponUnreadied,
)
from rules.checks import Outcome, SuccessRoll
from rules.events import Edited, Event, Moved, Turned, TurnEnded


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
_STANDALONE = (Moved, Turned, Edited, TurnEnded)


def rows_for_events(events: Iterable[Event]) -> tuple[LogRow, ...]:
    """Group a stream of events into log rows (see the module docstring)."""
    rows: list[LogRow] = []
    group: list[Event] = []

    def flush() -> None:
        if group:
            rows.append(_attack_row(group))
            group.clear()

    for event in events:
        if isinstance(event, AttackDeclared):
            flush()
            group.append(event)
        elif group and not isinstance(event, _STANDALONE):
            group.append(event)
        else:
            flush()
            rows.append(_single_row(event))
    flush()
    return tuple(rows)


def turn_separator(turn: int) -> LogRow:
    """The separator shown at the top of the log for the battle's first turn."""
    event = TurnEnded(turn=turn)
    return _single_row(event)


# --- rows ------------------------------------------------------------------------------


def _single_row(event: Event) -> LogRow:
    if isinstance(event, TurnEnded):
        line = LogLine(f"Turn {event.turn}", _cite(event), Tone.TITLE, event, event.describe())
        return LogRow(RowKind.TURN, (line,), (), ())
    return LogRow(
        RowKind.EVENT,
        (line_for(event),),
        tuple(event.involved_hexes()),
        tuple(event.involved_combatants()),
    )


def _attack_row(events: Sequence[Event]) -> LogRow:
    hexes: list[Hex] = []
    ids: list[str] = []
    for e in events:
        hexes.extend(h for h in e.involved_hexes() if h not in hexes)
        ids.extend(c for c in e.involved_combatants() if c not in ids)
    return LogRow(RowKind.ATTACK, tuple(line_for(e) for e in events), tuple(hexes), tuple(ids))


# --- lines -----------------------------------------------------------------------------


def line_for(event: Event) -> LogLine:
    """The short log line of one event."""
    text, tone = _text_and_tone(event)
    return LogLine(text, _cite(event), tone, event, event.describe())


def _cite(event: Event) -> str:
    return str(event.citation) if event.citation is not None else ""


def _roll_tone(roll: SuccessRoll) -> Tone:
    if roll.outcome in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE):
        return Tone.CRITICAL
    return Tone.SUCCESS if roll.succeeded else Tone.FAILURE


def _roll_text(roll: SuccessRoll) -> str:
    faces = "+".join(str(d) for d in roll.dice)
    return f"{roll.total} ({faces}) vs {roll.target}: {roll.outcome.value}"


def _item(name: str | None) -> str:
    return f" ({name})" if name else ""


def _text_and_tone(event: Event) -> tuple[str, Tone]:
    if isinstance(event, AttackDeclared):
        below = ", from below" if event.below else ""
        return (
            f"{event.attacker_name} → {event.defender_name}: {event.weapon_name} "
            f"{event.mode} at the {event.location_label.lower()}, "
            f"from the {event.arc.value}{below}",
            Tone.TITLE,
        )
    if isinstance(event, AttackRolled):
        return f"Attack {_roll_text(event.roll)}", _roll_tone(event.roll)
    if isinstance(event, DefenseRolled):
        kind = event.kind.value.capitalize()
        return f"{kind}{_item(event.item_name)} {_roll_text(event.roll)}", _roll_tone(event.roll)
    if isinstance(event, DefenseNotRolled):
        kind = event.kind.value.capitalize()
        return f"{kind}{_item(event.item_name)} not rolled: {event.reason}", Tone.NOTE
    if isinstance(event, DefenseCriticalMiss):
        return event.describe(), Tone.CRITICAL
    if isinstance(event, AttackResolved):
        return event.describe(), Tone.OUTCOME
    if isinstance(event, DamageDealt):
        d = event.damage
        mult = "" if d.multiplier == 1 else f" ×{_number(d.multiplier)}"
        return (
            f"Damage {d.roll} {d.damage_type.value}; DR {d.dr} → {d.penetrating}{mult} "
            f"= {d.injury} injury; HP {d.hp_before} → {d.hp_after}/{d.max_hp}",
            Tone.HARM if d.injury else Tone.PLAIN,
        )
    if isinstance(event, InjuryRolled):
        sr = event.status_roll
        return (
            f"HT to {sr.check.value} at {sr.threshold} HP: {_roll_text(sr.roll)}",
            _roll_tone(sr.roll),
        )
    if isinstance(event, StatusChanged):
        return f"{event.name} is now {event.after.value}", Tone.HARM
    if isinstance(event, WeaponUnreadied):
        return f"{event.name}'s {event.weapon_name} becomes unready", Tone.NOTE
    if isinstance(event, TurnEnded):
        return f"Turn {event.turn}", Tone.TITLE
    return event.describe(), Tone.PLAIN


def _number(value: object) -> str:
    """A multiplier such as Fraction(3, 2) as "1.5"."""
    try:
        as_float = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return str(value)
    return f"{as_float:g}"


def outcome_of(row: LogRow) -> AttackOutcome | None:
    """The outcome of an attack row, read from its ``AttackResolved`` event."""
    for line in row.lines:
        if isinstance(line.event, AttackResolved):
            return line.event.outcome
    return None
