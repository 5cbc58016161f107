"""Battle events turned into combat-log rows: plain data, no Qt, no rules.

Every number here is read from an event; nothing is computed. One row per event,
except that the events of one attack (from ``AttackDeclared`` up to the next
stand-alone event) form one multi-line row, and ``TurnEnded`` becomes a turn
separator. Each line keeps its event, the event's ``describe()`` text (the full
sentence, with every modifier, for tooltips and copying) and its citation.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from hexmap import Hex
from rules.battle.command_events import Edited, Moved, RulesetOptionsSet, Turned, TurnEnded
from rules.core.events import Event
from rules.sets.seed000.attack_events import (
    AcrobaticDodgeRolled,
    AttackAdjusted,
    AttackDeclared,
    AttackOutcome,
    AttackResolved,
    AttackRolled,
    BleedingRolled,
    BystanderStruck,
    CriticalMissChecked,
    CriticalMissTableRolled,
    DamageDealt,
    DefenseCriticalMiss,
    DefenseMishapResolved,
    DefenseNotRolled,
    DefenseRolled,
    DisarmContested,
    HeavyShieldUnreadied,
    HitLocationRolled,
    ImprovisedParryRolled,
    InjuryRolled,
    LocationShifted,
    ParryBreakRolled,
    PiecesLeftHand,
    SideBlowDamaged,
    StatusChanged,
    StunRecoveryRolled,
    UnarmedCounterRolled,
    WeakenedWeaponSnapped,
    WeaponBroke,
    WeaponStruck,
    WeaponUnreadied,
    WoundInflicted,
)
from rules.sets.seed000.checks import Outcome, SuccessRoll
from rules.sets.seed000.missiles import THROWN_NOTE

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


def rows_for_batches(batches: Iterable[Sequence[Event]]) -> tuple[LogRow, ...]:
    """Rows of several commands' events: an attack's group never runs on into the
    events of the next command (a posture change, a guarded area ...)."""
    rows: list[LogRow] = []
    for batch in batches:
        rows.extend(rows_for_events(batch))
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
    """The short log line of one event. An event this module has no short text
    for (or whose short text fails) shows its ``describe()``; every line keeps
    the event's citation."""
    try:
        text, tone = _text_and_tone(event)
    except Exception:  # a bug in one line's text must not blank the log
        log.exception("no short text for %s", type(event).__name__)
        text, tone = event.describe(), Tone.PLAIN
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
    special = _special_text_and_tone(event)
    if special is not None:
        return special
    for kinds, tone in _DESCRIBED:
        if isinstance(event, kinds):
            return event.describe(), tone
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


# --- the events of the wired seed 000/001 rules (rules.sets.seed000.attack_events) ---


def _faces(dice: Iterable[int]) -> str:
    return "+".join(str(d) for d in dice)


def _hit_location(e: HitLocationRolled) -> tuple[str, Tone]:
    tries = []
    for a in e.roll.attempts:
        shift = f" {a.shift:+d}" if a.shift else ""
        covered = " covered, again" if a.covered else ""
        tries.append(f"{_faces(a.dice)}{shift} → {a.location}{covered}")
    side = f" ({e.roll.side.value})" if e.roll.side is not None else ""
    return f"Hit location {'; '.join(tries)}: {e.roll.label}{side}", Tone.PLAIN


def _wound(e: WoundInflicted) -> tuple[str, Tone]:
    a, w = e.assessment, e.wound
    text = f"Wound at the {a.label.lower()}: {a.injury} injury, {a.hp_loss} HP"
    if w.crippled is not None:
        text += f", {w.crippled.value} crippled"
    conditions = sorted(c.value for c in w.conditions if c.value != "crippled")
    if conditions:
        text += "; " + ", ".join(conditions)
    return text, Tone.HARM


def _acrobatic(e: AcrobaticDodgeRolled) -> tuple[str, Tone]:
    return (
        f"Acrobatic dodge {_roll_text(e.result.roll)}: dodge {e.applied.value:+d}",
        _roll_tone(e.result.roll),
    )


def _parry_break(e: ParryBreakRolled) -> tuple[str, Tone]:
    verdict = "breaks" if e.roll.broke else "holds"
    die = f" (d6 {e.roll.die})" if e.roll.die is not None else ""
    return f"{e.weapon_name} parries a heavy blow{die}: it {verdict}", (
        Tone.HARM if e.roll.broke else Tone.SUCCESS
    )


def _improvised_parry(e: ImprovisedParryRolled) -> tuple[str, Tone]:
    outcome = e.roll.outcome.value
    tone = Tone.SUCCESS if outcome == "unharmed" else Tone.HARM
    return f"Improvised {e.weapon_name} parried (d6 {e.roll.die}): {outcome}", tone


def _weapon_struck(e: WeaponStruck) -> tuple[str, Tone]:
    verdict = "breaks" if e.broke else "holds"
    return (
        f"Blow on the {e.weapon_name}: {e.basic_damage} basic, {e.text}; it {verdict}",
        Tone.HARM if e.broke else Tone.PLAIN,
    )


def _disarm(e: DisarmContested) -> tuple[str, Tone]:
    r = e.result
    return (
        f"Disarm contest {r.attacker_roll} vs {r.defender_roll}: {r.outcome.value}",
        Tone.OUTCOME,
    )


def _pieces_left_hand(e: PiecesLeftHand) -> tuple[str, Tone]:
    """A weapon thrown on purpose is no mishap: said plainly, where it lands."""
    if e.pieces and all(p.note == THROWN_NOTE for p in e.pieces):
        # "Spearman's Knife, thrown at Fencer, lands in the target's hex"
        text = "; ".join(f"{e.name}'s {p.name}, {e.reason}, {p.placement}" for p in e.pieces)
        return text, Tone.PLAIN
    return e.describe(), Tone.HARM


def _special_text_and_tone(event: Event) -> tuple[str, Tone] | None:
    """The lines with a short text of their own; None for the others."""
    if isinstance(event, HitLocationRolled):
        return _hit_location(event)
    if isinstance(event, WoundInflicted):
        return _wound(event)
    if isinstance(event, AcrobaticDodgeRolled):
        return _acrobatic(event)
    if isinstance(event, ParryBreakRolled):
        return _parry_break(event)
    if isinstance(event, ImprovisedParryRolled):
        return _improvised_parry(event)
    if isinstance(event, WeaponStruck):
        return _weapon_struck(event)
    if isinstance(event, DisarmContested):
        return _disarm(event)
    if isinstance(event, PiecesLeftHand):
        return _pieces_left_hand(event)
    return None


# The events whose line is their describe(), and how it reads.
_DESCRIBED: tuple[tuple[tuple[type[Event], ...], Tone], ...] = (
    ((LocationShifted, AttackAdjusted, HeavyShieldUnreadied, StunRecoveryRolled,
      RulesetOptionsSet), Tone.NOTE),
    ((WeaponBroke, SideBlowDamaged, WeakenedWeaponSnapped, BystanderStruck, BleedingRolled),
     Tone.HARM),
    ((CriticalMissChecked, CriticalMissTableRolled, DefenseMishapResolved), Tone.CRITICAL),
    ((UnarmedCounterRolled,), Tone.OUTCOME),
)  # fmt: skip


def _number(value: Fraction) -> str:
    """A multiplier such as Fraction(3, 2) as "1.5"."""
    return f"{float(value):g}"


def outcome_of(row: LogRow) -> AttackOutcome | None:
    """The outcome of an attack row, read from its ``AttackResolved`` event."""
    for line in row.lines:
        if isinstance(line.event, AttackResolved):
            return line.event.outcome
    return None
