"""Seed 000 at the turn's end (base rules, where the seed is silent): a stunned
fighter rolls HT to recover; a severely bleeding one loses 1 HP, with the injury
rolls that may call for, and rolls HT to stop the bleeding. The per-turn record
of defenses and a fumbled dodge's off-balance end with the turn (000
CUMULATIVE DEFENSES, 000 CRITICAL MISSES ON DEFENSE ROLLS)."""

from __future__ import annotations

from dataclasses import replace

from rules.battle.model import Combatant, Status
from rules.battle.state import BattleState
from rules.core.dice import DiceSource
from rules.core.events import Event
from rules.sets.seed000.attack_events import (
    BASE_BLEEDING,
    BASE_STUN_RECOVERY,
    INJURY_CITATION,
    BleedingRolled,
    InjuryRolled,
    StatusChanged,
    StunRecoveryRolled,
)
from rules.sets.seed000.checks import RollKind, success_roll
from rules.sets.seed000.damage import injury_status
from rules.sets.seed000.defense import start_new_turn
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tracks import with_wounds, wound_conditions, wounds_of
from rules.sets.seed000.wound_effects import Condition as WoundCondition


def new_turn(c: Combatant) -> Combatant:
    """The attacks and defenses counted this turn, and a fumbled dodge's
    off-balance, end with it."""
    return start_new_turn(c)


def end_of_turn(state: BattleState, rng: DiceSource) -> tuple[BattleState, tuple[Event, ...]]:
    """Every combatant's per-turn effects, in the order of the combatants."""
    events: list[Event] = []
    for c in state.combatants:
        changed, effects = per_turn_effects(c, rng)
        if effects:
            state = state.with_combatants(changed)
            events.extend(effects)
    return state, tuple(events)


def per_turn_effects(c: Combatant, rng: DiceSource) -> tuple[Combatant, tuple[Event, ...]]:
    """A combatant's per-turn effects at the end of a turn (base rules): the stun
    recovery roll (HT; success: active again) and severe bleeding (1 HP lost, then
    HT; success stops it: the condition leaves its wounds)."""
    events: list[Event] = []
    ht = sheet_of(c).attributes.ht
    if c.status is Status.STUNNED:
        roll = success_roll(ht, rng, RollKind.STANDARD)
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
        status, rolls, _ = injury_status(c.hp, hp_after, c.fighter.hit_points, ht, c.status, rng)
        roll = success_roll(ht, rng, RollKind.STANDARD)
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
        events.extend(
            InjuryRolled(citation=INJURY_CITATION, combatant_id=c.id, name=c.name, status_roll=r)
            for r in rolls
        )
        if status is not c.status:
            events.append(
                StatusChanged(
                    citation=INJURY_CITATION,
                    combatant_id=c.id,
                    name=c.name,
                    before=c.status,
                    after=status,
                )
            )
        wounds = wounds_of(c)
        if roll.succeeded:
            wounds = tuple(
                replace(w, conditions=w.conditions - {bleeding}) if w.bleeding else w
                for w in wounds
            )
        c = with_wounds(replace(c, hp=hp_after, status=status), wounds)
    return c, tuple(events)


