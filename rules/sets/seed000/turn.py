"""Seed 000's turn (base rules, where the seed is silent): a stunned fighter rolls
HT to recover; a severely bleeding one loses 1 HP, with the injury rolls that may
call for, and rolls HT to stop the bleeding. The per-turn record of defenses and
a fumbled dodge's off-balance end with the turn (000 CUMULATIVE DEFENSES, 000
CRITICAL MISSES ON DEFENSE ROLLS); an off-balance ends by its own clock
(``rules.sets.seed000.balance``). The shock of a fighter's wounds is its next
turn's (``rules.sets.seed000.wounded``): ``new_turn`` makes it this turn's.

In turn order (rules.battle.turns) each of these comes with the fighter's own
turn. At its start (``turn_begins``): a conscious fighter at 0 HP or less rolls HT
to stay conscious (base rules); a knockdown's mark ends (the fall came with the
blow); a lost balance ends or now lasts to the turn's end; one in shock is told
its penalty; an unconscious one's turn passes. At its end (``turn_ends``): one
standing on a crippled leg or foot rolls DX to stay up, at -2 if it attacked or
moved this turn or was hit after moving (000 RANDOM BODY HIT note 22); the stun
recovery roll and the bleeding; the turn's shock is over; so is a fumbled dodge's
off-balance, on the turn after the fumble.
Before the order is rolled, EndTurn ends everybody's turn and begins everybody's
next with the same two (rules.battle.commands.EndTurn)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.model import Combatant, Posture, Status
from rules.battle.movement import apply_fall
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.dice import DiceSource
from rules.core.events import CombatantEvent, Event
from rules.sets.seed000.attack_events import (
    BASE_BLEEDING,
    BASE_STUN_RECOVERY,
    BleedingRolled,
    StatusChanged,
    StunRecoveryRolled,
    injury_events,
)
from rules.sets.seed000.balance import balance_at_turn_end, balance_at_turn_start
from rules.sets.seed000.checks import RollKind, SuccessRoll, success_roll
from rules.sets.seed000.damage import injury_status, turn_start_consciousness
from rules.sets.seed000.defense import start_new_turn
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tracks import (
    crippled_limbs,
    tracks_of,
    with_wounds,
    wound_conditions,
    wounds_of,
)
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from rules.sets.seed000.wound_effects import Limb, standing_roll_target
from rules.sets.seed000.wounded import begin_shock, end_shock, shock_felt

NOTE_22 = cite("000", "RANDOM BODY HIT note 22")
BASE_KNOCKDOWN = cite("base", "knockdown: the fighter falls")
BASE_UNCONSCIOUS = cite("base", "unconsciousness: no maneuver")
# Postures in which a crippled leg must carry the fighter (000 note 22).
ON_THEIR_FEET = frozenset({Posture.STANDING, Posture.DEFENSIVE_CROUCH, Posture.DEEP_CROUCH})


@dataclass(frozen=True, kw_only=True)
class StandingRolled(CombatantEvent):
    """000 note 22: a DX roll to stay on a crippled leg or foot."""

    dx: int  # the roll's target, with the -2 and the shock
    roll: SuccessRoll
    acting: bool = False  # attacked or moved this turn, or hit after moving: -2
    shock: int = 0  # this turn's shock, in ``dx``

    def describe(self) -> str:
        result = "stays standing" if self.roll.succeeded else "falls"
        why = [f"{self.shock} shock"] if self.shock else []
        if self.acting:
            why.append("-2 for attacking or moving")
        extra = f" ({', '.join(why)})" if why else ""
        return (
            f"{self.name} rolls DX {self.dx}{extra} to stand on the crippled leg: "
            f"{self.roll} - {result}"
        )


@dataclass(frozen=True, kw_only=True)
class TurnPassed(CombatantEvent):
    """A fighter who cannot act this turn (unconscious): its turn passes."""

    reason: str

    def describe(self) -> str:
        return f"{self.name} is {self.reason}: the turn passes"


def new_turn(c: Combatant) -> Combatant:
    """The attacks and defenses counted last turn end with it; the shock kept for
    this turn begins."""
    return begin_shock(start_new_turn(c))


def turn_begins(
    state: BattleState, combatant_id: str, rng: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """The start of ``combatant_id``'s own turn: staying conscious at 0 HP or
    less, a knockdown ends (``knockdown_over``), a lost balance
    (``balance_at_turn_start``), its shock, an unconscious fighter's turn passing
    (the module docstring)."""
    was = state.combatant(combatant_id)
    events: list[Event] = []
    c, conscious = turn_start_consciousness(was, rng)
    if conscious is not None:
        events.extend(injury_events(c, (conscious,), was.status, c.status))
    c, fell = knockdown_over(c)
    events.extend(fell)
    c, balance = balance_at_turn_start(c)
    events.extend(balance)
    events.extend(shock_felt(c))
    if c.status is Status.UNCONSCIOUS:
        events.append(
            TurnPassed(
                citation=BASE_UNCONSCIOUS, combatant_id=c.id, name=c.name, reason="unconscious"
            )
        )
    if c is was:
        return state, tuple(events)
    return state.with_combatants(c), tuple(events)


def knockdown_over(c: Combatant) -> tuple[Combatant, tuple[Event, ...]]:
    """The fighter's next turn after a knockdown: its wounds no longer show it. The
    blow's fall came at once (``rules.sets.seed000.wounded``); one still on its
    feet (a wound marked so by hand, or in a battle saved before falls came at
    once) falls now."""
    knocked = WoundCondition.KNOCKED_DOWN
    if knocked not in wound_conditions(c):
        return c, ()
    events: tuple[Event, ...] = ()
    if c.status is not Status.DEAD:
        c, fell = apply_fall(c, citation=BASE_KNOCKDOWN)
        events = () if fell is None else (fell,)
    kept = tuple(replace(w, conditions=w.conditions - {knocked}) for w in wounds_of(c))
    return with_wounds(c, kept), events


def turn_ends(
    state: BattleState, combatant_id: str, rng: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """The end of ``combatant_id``'s own turn: the DX roll to stay up on a crippled
    leg or foot (``standing_roll``), its stun recovery roll and its bleeding
    (``per_turn_effects``); its shock ends with the turn, and so may its
    off-balance (``balance_at_turn_end``)."""
    was = state.combatant(combatant_id)
    c, stood = standing_roll(was, rng)
    c, effects = per_turn_effects(c, rng)
    c = end_shock(c)
    c, balance = balance_at_turn_end(c)
    if c is was and not (stood or effects):
        return state, ()
    return state.with_combatants(c), (*stood, *effects, *balance)


def standing_roll(c: Combatant, rng: DiceSource) -> tuple[Combatant, tuple[Event, ...]]:
    """000 RANDOM BODY HIT note 22: a conscious fighter on its feet with a crippled
    leg or foot rolls DX (less this turn's shock) to stay up, at -2 if it attacked
    or moved this turn or was hit after moving; failure: it falls."""
    legs = {Limb.LEG, Limb.FOOT}
    if not (
        c.status in (Status.ACTIVE, Status.STUNNED)
        and c.posture in ON_THEIR_FEET
        and legs & set(crippled_limbs(c))
    ):
        return c, ()
    tracks = tracks_of(c)
    # A fighter hit while moving has moved this turn: the same -2.
    acting = c.attacks_made > 0 or len(c.path_this_turn) > 1
    dx = standing_roll_target(sheet_of(c).attributes.dx + tracks.shock, acting=acting)
    roll = success_roll(dx, rng, RollKind.STANDARD, what=f"{c.name}'s DX roll to stay up")
    events: list[Event] = [
        StandingRolled(
            citation=NOTE_22,
            combatant_id=c.id,
            name=c.name,
            dx=dx,
            roll=roll,
            acting=acting,
            shock=tracks.shock,
        )
    ]
    if not roll.succeeded:
        c, fell = apply_fall(c, citation=NOTE_22)
        if fell is not None:
            events.append(fell)
    return c, tuple(events)


def per_turn_effects(c: Combatant, rng: DiceSource) -> tuple[Combatant, tuple[Event, ...]]:
    """A combatant's per-turn effects at the end of a turn (base rules): the stun
    recovery roll (HT; success: active again) and severe bleeding (1 HP lost, then
    HT; success stops it: the condition leaves its wounds)."""
    events: list[Event] = []
    ht = sheet_of(c).attributes.ht
    if c.status is Status.STUNNED:
        roll = success_roll(ht, rng, RollKind.STANDARD, what=f"{c.name}'s HT roll to recover")
        events.append(
            StunRecoveryRolled(
                citation=BASE_STUN_RECOVERY, combatant_id=c.id, name=c.name, ht=ht, roll=roll
            )
        )
        if roll.succeeded:
            events.append(
                StatusChanged(
                    citation=BASE_STUN_RECOVERY,
                    combatant_id=c.id,
                    name=c.name,
                    before=c.status,
                    after=Status.ACTIVE,
                )
            )
            c = replace(c, status=Status.ACTIVE)
    bleeding = WoundCondition.SEVERE_BLEEDING
    if bleeding in wound_conditions(c) and c.status is not Status.DEAD:
        hp_after = c.hp - 1
        status, rolls, _ = injury_status(
            c.hp, hp_after, c.fighter.hit_points, ht, c.status, rng, who=c.name
        )
        what = f"{c.name}'s HT roll to stop the bleeding"
        roll = success_roll(ht, rng, RollKind.STANDARD, what=what)
        events.append(
            BleedingRolled(
                citation=BASE_BLEEDING,
                combatant_id=c.id,
                name=c.name,
                hp_before=c.hp,
                hp_after=hp_after,
                ht=ht,
                roll=roll,
            )
        )
        events.extend(injury_events(c, rolls, c.status, status))
        wounds = wounds_of(c)
        if roll.succeeded:
            wounds = tuple(
                replace(w, conditions=w.conditions - {bleeding}) if w.bleeding else w
                for w in wounds
            )
        c = with_wounds(replace(c, hp=hp_after, status=status), wounds)
    return c, tuple(events)
