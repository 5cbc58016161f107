"""Seed 000's maneuvers and initiative. The seed takes both for granted, so they
follow the base rules of its 3d6 family (cited "base", docs/rules.md "Base rules"),
in our reading:

* Initiative: the fighter with the highest Basic Speed ((HT + DX) / 4, kept as a
  fraction) acts first; equal speeds go by DX; a tie that remains is settled by a
  die for each tied fighter, highest first, rolled again among those still equal.
* Each fighter takes one maneuver on its turn (``MANEUVERS``): what it allows is
  data (``rules.battle.maneuvers``) that the battle checks and the panes show.
  An all-out attack leaves the fighter without active defenses until its next
  turn (``maneuver_adjustments`` takes the defender's announced defenses away);
  its options are the 3rd edition's +4 to hit and two attacks on one foe (its
  third, a feint and an attack, needs the feint; +2 damage is the 4th edition's).
  An all-out defense gives +2 to the chosen kind of active defense (and a fencer
  its four free parries, 000 FENCING PARRIES). There is no feint: the ruleset has
  no feint contest. Readying needs Ready and a posture change Change posture
  (their ``permits``). Aim gives no bonus (the weapons carry no Accuracy), but a
  missile shot after a turn of it ignores bad footing (``aimed_shot``, 000
  ADVERSE COMBAT CONDITIONS). A stunned fighter can only do nothing.
* Posture limits movement (``posture_move``) as the base rules' table of
  positions says, which the seed does not give: a crouch (the seed's defensive and
  deep crouch alike) moves two thirds of the Move; kneeling, on hands and knees,
  crawling or lying prone, one hex a turn (a prone fighter crawls); sitting, not
  at all (``rules.battle.movement.basic_posture_moves``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from rules.battle.maneuvers import Maneuver, ManeuverAction, ManeuverOption, MoveAllowance
from rules.battle.model import Combatant, Delivery, Posture, Status
from rules.battle.movement import PostureMove, basic_posture_moves
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.dice import DiceSource, roll
from rules.core.errors import RulesError
from rules.core.events import CombatantEvent, Event
from rules.core.modifiers import Modifier
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.wounded import paralysed, paralysed_from_the_neck

BASE_INITIATIVE = cite("base", "initiative: Basic Speed, then DX, then a roll")
BASE_MANEUVERS = cite("base", "maneuvers: one a turn")
BASE_MOVE = cite("base", "maneuvers: Move")
BASE_ATTACK = cite("base", "maneuvers: Attack")
BASE_ALL_OUT_ATTACK = cite("base", "maneuvers: All-Out Attack")
BASE_ALL_OUT_DEFENSE = cite("base", "maneuvers: All-Out Defense")
BASE_READY = cite("base", "maneuvers: Ready")
BASE_CHANGE_POSTURE = cite("base", "maneuvers: Change Position")
BASE_AIM = cite("base", "maneuvers: Aim")
BASE_WAIT = cite("base", "maneuvers: Wait")
BASE_DO_NOTHING = cite("base", "maneuvers: Do Nothing")
BASE_POSTURE_MOVE = cite("base", "posture: movement (table of positions)")
# 000 ADVERSE COMBAT CONDITIONS, Bad Footing: "If you are firing a Missile weapon,
# taking time to aim will also eliminate this penalty."
AIM_LIFTS_BAD_FOOTING = cite("000", "ADVERSE COMBAT CONDITIONS")
BAD_FOOTING = "bad_footing"  # its key in the condition catalog

ALL_OUT_ATTACK_HIT_BONUS = 4
ALL_OUT_DEFENSE_BONUS = 2
TIE_DIE_SIDES = 6

DO_NOTHING = Maneuver(
    "do-nothing",
    "Do nothing",
    BASE_DO_NOTHING,
    "Stand still and only defend: all a stunned fighter can do.",
)

MANEUVERS: tuple[Maneuver, ...] = (
    Maneuver(
        "move",
        "Move",
        BASE_MOVE,
        "Move up to the whole Move; no attack.",
        movement=MoveAllowance.FULL,
    ),
    Maneuver(
        "attack",
        "Attack",
        BASE_ATTACK,
        "One attack with a ready weapon, and a step before or after it.",
        attacks=1,
        movement=MoveAllowance.STEP,
        implied_by_attack=True,
    ),
    Maneuver(
        "all-out-attack",
        "All-out attack",
        BASE_ALL_OUT_ATTACK,
        "Attack with everything and move up to half the Move; no active defense "
        "until the fighter's next turn.",
        attacks=1,
        movement=MoveAllowance.HALF,
        active_defenses=False,
        options=(
            ManeuverOption(
                "determined",
                f"+{ALL_OUT_ATTACK_HIT_BONUS} to hit",
                "One attack at +4 to hit.",
                attack_bonus=ALL_OUT_ATTACK_HIT_BONUS,
            ),
            ManeuverOption(
                "double", "two attacks", "Two attacks on the same foe.", attacks=2, same_foe=True
            ),
        ),
    ),
    Maneuver(
        "all-out-defense",
        "All-out defense",
        BASE_ALL_OUT_DEFENSE,
        "Only defend, with +2 to one kind of active defense until the fighter's "
        "next turn, and a step; no attack.",
        movement=MoveAllowance.STEP,
        options=tuple(
            ManeuverOption(
                kind.value,
                f"+{ALL_OUT_DEFENSE_BONUS} {kind.value}",
                f"+2 to every {kind.value} until the next turn.",
                defense_bonus=ALL_OUT_DEFENSE_BONUS,
                defense_kind=kind.value,
            )
            for kind in (DefenseKind.DODGE, DefenseKind.BLOCK, DefenseKind.PARRY)
        ),
    ),
    Maneuver(
        "ready",
        "Ready",
        BASE_READY,
        "Ready a weapon or shield, or pick something up, and a step; no attack.",
        movement=MoveAllowance.STEP,
        permits=frozenset({ManeuverAction.READY}),
    ),
    Maneuver(
        "change-posture",
        "Change posture",
        BASE_CHANGE_POSTURE,
        "Stand up, kneel, crouch, sit or lie down; no movement and no attack.",
        permits=frozenset({ManeuverAction.POSTURE}),
    ),
    Maneuver(
        "aim",
        "Aim",
        BASE_AIM,
        "Aim a ranged weapon at one foe for a later attack, and a step; no attack. "
        "A missile shot on the next turn ignores bad footing; the weapons carry no "
        "accuracy, so the GM adds the aim's bonus.",
        movement=MoveAllowance.STEP,
    ),
    Maneuver(
        "wait",
        "Wait",
        BASE_WAIT,
        "Hold the turn and attack once when the moment comes, on another "
        "fighter's turn if need be, until the next turn.",
        attacks=1,
        out_of_turn=True,
    ),
    DO_NOTHING,
)

_BY_KEY = {m.key: m for m in MANEUVERS}


def maneuver(key: str) -> Maneuver:
    try:
        return _BY_KEY[key]
    except KeyError:
        known = ", ".join(_BY_KEY)
        raise RulesError(f"no maneuver {key!r} in seed 000 (it has {known})") from None


POSTURE_MOVES = basic_posture_moves(BASE_POSTURE_MOVE)


def posture_move(posture: Posture) -> PostureMove:
    """How far a fighter in ``posture`` moves in a turn (the base rules' table)."""
    return POSTURE_MOVES[posture]


def maneuvers_for(combatant: Combatant) -> tuple[Maneuver, ...]:
    """Every maneuver for an active fighter (but Change posture once a spinal wound
    has paralysed him: he cannot get up), only doing nothing for a stunned one or
    one paralysed from the neck down (000 RANDOM BODY HIT note 17), none for the
    unconscious and the dead."""
    if combatant.status is Status.ACTIVE and not paralysed_from_the_neck(combatant):
        if paralysed(combatant):
            return tuple(m for m in MANEUVERS if ManeuverAction.POSTURE not in m.permits)
        return MANEUVERS
    if combatant.status in (Status.ACTIVE, Status.STUNNED):
        return (DO_NOTHING,)
    return ()


# --- the maneuvers in the attack -----------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class ManeuverApplied(CombatantEvent):
    """A maneuver changed an attack: the attacker's bonus, or the defender's lost
    or raised defenses."""

    text: str

    def describe(self) -> str:
        return self.text


def maneuver_adjustments(
    attacker: Combatant, defender: Combatant, options: AttackOptions
) -> tuple[AttackOptions, tuple[Event, ...]]:
    """The attack's choices as the two fighters' maneuvers change them: an all-out
    attacker's bonus to hit; a missile shot after a turn of Aim loses the bad
    footing penalty (``aimed_shot``); a defender in an all-out attack announces no
    active defense; one in an all-out defense gets its bonus (and the fencer's
    all-out parries). Unchanged when neither chose such a maneuver."""
    options, events = attacker_adjustments(attacker, options)
    options, more = defender_adjustments(defender, options)
    return options, (*events, *more)


def attacker_adjustments(
    attacker: Combatant, options: AttackOptions
) -> tuple[AttackOptions, tuple[Event, ...]]:
    """The attacker's side of ``maneuver_adjustments``: the aimed shot and an
    all-out attacker's bonus."""
    options, events = aimed_shot(attacker, options)
    if attacker.maneuver is not None:
        chosen = maneuver(attacker.maneuver.key)
        terms = chosen.terms(attacker.maneuver.option)
        if terms.attack_bonus:
            label = chosen.describe_choice(attacker.maneuver.option)
            bonus = Modifier(terms.attack_bonus, label, chosen.citation)
            options = replace(options, extra_modifiers=(*options.extra_modifiers, bonus))
    return options, events


def defender_adjustments(
    defender: Combatant, options: AttackOptions
) -> tuple[AttackOptions, tuple[Event, ...]]:
    """The defender's side of ``maneuver_adjustments``: no active defense in an
    all-out attack, an all-out defense's bonus (the events name the announced
    defenses they touch)."""
    if defender.maneuver is None:
        return options, ()
    events: list[Event] = []
    held = maneuver(defender.maneuver.key)
    terms = held.terms(defender.maneuver.option)
    label = held.describe_choice(defender.maneuver.option)
    if not terms.active_defenses and options.defenses:
        events.append(
            ManeuverApplied(
                citation=held.citation,
                combatant_id=defender.id,
                name=defender.name,
                text=f"{defender.name} is in an {label.lower()}: no active defense",
            )
        )
        options = replace(options, defenses=(), acrobatic_dodge=False)
    if terms.defense_bonus and terms.defense_kind is not None:
        kind = DefenseKind(terms.defense_kind)
        bonus = Modifier(terms.defense_bonus, label, held.citation)
        options = replace(
            options,
            all_out_defense=True,
            defense_modifiers=(*options.defense_modifiers, (kind, bonus)),
        )
        if any(d.kind is kind for d in options.defenses):
            events.append(
                ManeuverApplied(
                    citation=held.citation,
                    combatant_id=defender.id,
                    name=defender.name,
                    text=(
                        f"{defender.name} is in an {label.lower()}: "
                        f"{terms.defense_bonus:+d} to the {kind.value}"
                    ),
                )
            )
    return options, tuple(events)


def aimed_shot(
    attacker: Combatant, options: AttackOptions
) -> tuple[AttackOptions, tuple[Event, ...]]:
    """000 ADVERSE COMBAT CONDITIONS: a missile weapon fired by a fighter whose last
    turn was an Aim ignores the bad footing at its hex (the condition leaves the
    attack, and the event says why). Thrown weapons are not fired: they keep it."""
    last = attacker.maneuver_last_turn
    if last is None or last.key != "aim":
        return options, ()
    footing = [c for c in options.conditions if c.key == BAD_FOOTING]
    if not footing:
        return options, ()
    try:
        mode = attacker.fighter.weapon(options.weapon_key).mode(options.mode)
    except KeyError:  # no such weapon or mode: the attack itself refuses it
        return options, ()
    if mode.delivery is not Delivery.MISSILE:
        return options, ()
    kept = tuple(c for c in options.conditions if c.key != BAD_FOOTING)
    event = ManeuverApplied(
        citation=AIM_LIFTS_BAD_FOOTING,
        combatant_id=attacker.id,
        name=attacker.name,
        text=f"{attacker.name} took time to aim: the bad footing does not count",
    )
    return replace(options, conditions=kept), (event,)


# --- initiative ------------------------------------------------------------------------------


def basic_speed(combatant: Combatant) -> Fraction:
    """(HT + DX) / 4, unrounded."""
    a = sheet_of(combatant).attributes
    return Fraction(a.ht + a.dx, 4)


@dataclass(frozen=True, slots=True)
class InitiativeEntry:
    """One fighter's place: its Basic Speed and DX, and the tie-breaking dice it
    rolled (none when there was no tie)."""

    combatant_id: str
    name: str
    basic_speed: Fraction
    dx: int
    tie_rolls: tuple[int, ...] = ()

    def describe(self) -> str:
        # (HT + DX) / 4 is a whole number of quarters: its decimal is exact.
        text = f"{self.name} {float(self.basic_speed):g} (DX {self.dx}"
        if self.tie_rolls:
            text += ", rolled " + " then ".join(str(r) for r in self.tie_rolls)
        return text + ")"


@dataclass(frozen=True, kw_only=True)
class InitiativeRolled(Event):
    """The turn order by Basic Speed, DX and the tie rolls, first to act first."""

    entries: tuple[InitiativeEntry, ...]

    def describe(self) -> str:
        return "Initiative by Basic Speed: " + ", ".join(e.describe() for e in self.entries)

    def involved_combatants(self) -> tuple[str, ...]:
        return tuple(e.combatant_id for e in self.entries)


def initiative(state: BattleState, dice: DiceSource) -> tuple[tuple[str, ...], tuple[Event, ...]]:
    """Every fighter who is not dead, by Basic Speed, then DX, then a die each for
    the fighters still tied (``settle_ties``); the event lists them."""
    fighters = [c for c in state.combatants if c.status is not Status.DEAD]
    ranked = sorted(
        fighters, key=lambda c: (-basic_speed(c), -sheet_of(c).attributes.dx)
    )  # stable: the battle's order among equals until the dice settle them
    order: list[Combatant] = []
    rolls: dict[str, tuple[int, ...]] = {}
    i = 0
    while i < len(ranked):
        key = _rank(ranked[i])
        group = [c for c in ranked[i:] if _rank(c) == key]
        if len(group) > 1:
            settled, rolled = settle_ties(group, dice)
            order.extend(settled)
            rolls.update(rolled)
        else:
            order.extend(group)
        i += len(group)
    entries = tuple(
        InitiativeEntry(
            c.id, c.name, basic_speed(c), sheet_of(c).attributes.dx, rolls.get(c.id, ())
        )
        for c in order
    )
    event = InitiativeRolled(citation=BASE_INITIATIVE, entries=entries)
    return tuple(c.id for c in order), (event,)


def _rank(c: Combatant) -> tuple[Fraction, int]:
    return basic_speed(c), sheet_of(c).attributes.dx


def settle_ties(
    tied: Sequence[Combatant], dice: DiceSource
) -> tuple[list[Combatant], dict[str, tuple[int, ...]]]:
    """Fighters of equal Basic Speed and DX, in order: each rolls a die, highest
    first; those who rolled the same roll again among themselves. Returns the
    order and every fighter's rolls."""
    rolls: dict[str, tuple[int, ...]] = {c.id: () for c in tied}

    def settle(group: Sequence[Combatant]) -> list[Combatant]:
        if len(group) == 1:
            return list(group)
        faces = {}
        for c in group:
            what = f"{c.name}'s die for the initiative tie (highest goes first)"
            face = roll(1, dice, TIE_DIE_SIDES, what=what)[0]
            faces[c.id] = face
            rolls[c.id] = (*rolls[c.id], face)
        out: list[Combatant] = []
        for face in sorted(set(faces.values()), reverse=True):
            out.extend(settle([c for c in group if faces[c.id] == face]))
        return out

    return settle(tied), rolls
