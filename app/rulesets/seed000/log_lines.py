"""Seed 000's lines in the combat log: the short text and tone of each of its
events, and its grouping: an attack's events form one multi-line row that starts
at ``AttackDeclared``.

Every number is read from an event (``rules.sets.seed000.attack_events``); the
generic ``app.event_text`` builds the rows and handles the neutral command events.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from app.event_text import LogRow, Tone
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
    as_clause,
)
from rules.sets.seed000.balance import BalanceRegained
from rules.sets.seed000.checks import Outcome, SuccessRoll
from rules.sets.seed000.missiles import THROWN_NOTE
from rules.sets.seed000.wounded import KnockdownRolled, ShockFelt, ShockTaken


class Seed000LogLines:
    """Seed 000's ``LogFormatter``."""

    def line(self, event: Event) -> tuple[str, Tone] | None:
        return seed000_line(event)

    def opens_row(self, event: Event) -> bool:
        return isinstance(event, AttackDeclared)


def _roll_tone(roll: SuccessRoll) -> Tone:
    if roll.outcome in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE):
        return Tone.CRITICAL
    return Tone.SUCCESS if roll.succeeded else Tone.FAILURE


def _roll_text(roll: SuccessRoll) -> str:
    faces = "+".join(str(d) for d in roll.dice)
    return f"{roll.total} ({faces}) vs {roll.target}: {roll.outcome.value}"


def _item(name: str | None) -> str:
    return f" ({name})" if name else ""


def seed000_line(event: Event) -> tuple[str, Tone] | None:
    """The short line and tone of one of seed 000's events; None for any other."""
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
        reduced = "" if d.basic == d.roll.total else f", reduced to {d.basic}"
        return (
            f"Damage {d.roll} {d.damage_type.value}{reduced}; DR {d.dr} → {d.penetrating}{mult} "
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
    return None


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
        f"Blow on the {e.weapon_name}: {e.basic_damage} basic, {as_clause(e.text)}; "
        f"it {verdict}",
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


def _knockdown(e: KnockdownRolled) -> tuple[str, Tone]:
    """A major wound's roll (rules.sets.seed000.wounded): failed, the fighter is down."""
    o = e.outcome
    result = "stunned and knocked down" if o.failed else "stays up"
    return (
        f"{e.name}: major wound, HT {o.total} ({_faces(o.dice)}) vs {o.roll.target}: "
        f"{o.outcome.value}, {result}",
        Tone.HARM if o.failed else Tone.SUCCESS,
    )


def _special_text_and_tone(event: Event) -> tuple[str, Tone] | None:
    """The lines with a short text of their own; None for the others."""
    if isinstance(event, KnockdownRolled):
        return _knockdown(event)
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
    ((LocationShifted, AttackAdjusted, HeavyShieldUnreadied, StunRecoveryRolled), Tone.NOTE),
    ((ShockTaken, ShockFelt, BalanceRegained), Tone.NOTE),
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
