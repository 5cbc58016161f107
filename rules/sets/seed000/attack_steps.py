"""Seed 000's attack in four steps (``rules.battle.attack_steps``).

- ``plan``: the attacker's side of the attack, no dice (``Plan000``: the
  maneuvers' adjustments, the cover in the defender's hex, the combatant in the
  way, ``rules.sets.seed000.attack.plan_attack`` not ``answered``); nothing in it
  depends on the defender's answer.
- The defender's answer (``Seed000Answer``): the defenses it announces, in order,
  and whether its dodge is acrobatic. Nobody answering for it announces none, as
  an attack whose choices announced none did before the answer had its own type.
- ``decide``: the defenses planned against the plan (``plan_defenses``), then
  every roll of the attack (``roll_attack``, whose dice steps are
  ``rules.sets.seed000.dice_steps``), into the shared ``AttackOutcome`` with a
  ``Seed000Payload``: the resolution and the fighters as it leaves them.
- ``apply``: those fighters into the state; ``describe``: the log's events, the
  maneuvers' first, as the log has always read (``tell_attack``).

``describe`` tells the attack's own events from the resolution's record: the
declaration, the attack roll, a critical miss checked, a location shifted, each
defense roll (an acrobatic dodge's Acrobatics roll, a critical miss), the
defenses not rolled, the outcome, what the turn record made unready and the
damage of a blow without a hit location. The sub-steps (a defense's mishap, a
parry's break, an improvised weapon's roll, a counter, a fumble, a stray blow, a
blow on a weapon or a body and what it did at once, pieces leaving a hand) record
what they did as typed records (``rules.sets.seed000.attack_told``: each
``DefenseRoll.told``, ``AttackResolution.after_told``), which ``describe`` tells in
their place; only a fall rides as the battle's own event (``apply_fall``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

from rules.battle.attack_odds import AttackOdds as SharedOdds
from rules.battle.attack_outcome import (
    ActiveDefense,
    AttackOutcome,
    ConditionChange,
    Landing,
    OutcomeKind,
)
from rules.battle.attack_steps import Needs, PlannedPair, PlannedRoll
from rules.battle.commands import Attack
from rules.battle.hands import wielded_weapons
from rules.battle.model import Combatant, ParryClass, Status, Weapon
from rules.battle.situation import covered_areas_of
from rules.battle.state import BattleState, LaunchedPiece
from rules.core.dice import DiceSource
from rules.core.errors import IllegalAttackError, IllegalCommandError, RulesError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.core.quick_init import quick_init
from rules.sets.seed000 import maneuvers
from rules.sets.seed000.attack import (
    NO_DEFENSE,
    AttackOptions,
    AttackPlan,
    AttackResolution,
    DefenseChoice,
    DefenseKind,
    Seed000Answer,
    plan_attack,
    plan_defenses,
    roll_attack,
    tell_attack,
)
from rules.sets.seed000.attack_events import AttackOutcome as Outcome000
from rules.sets.seed000.attack_form import likely_defense
from rules.sets.seed000.missiles import THROWN_NOTE
from rules.sets.seed000.odds import AttackOdds, attack_odds, blow_standing
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.weapon_targets import can_strike_at_weapon, tag_targets
from rules.sets.seed000.wounded import condition_of, fighter_condition, paralysed_from_the_neck

__all__ = [
    "Plan000",
    "Seed000Payload",
    "Seed000Steps",
    "attack_command",
    "defended_plan",
    "known_odds",
    "preview_odds",
    "split_answer",
    "whole_options",
]


@quick_init
@dataclass(frozen=True, slots=True)
class Plan000(PlannedPair):
    """Seed 000's plan (a ``PlannedAttack``): the attacker's side of the attack
    (``attack``: every check and modifier, the effective skill, no defense
    planned), the two fighters as planned, the attacker's choices as given (the
    maneuvers adjust them again with the answer), the combatant in the way (000
    MISSING A SPECIFIC HIT LOCATION) and the ruleset's tables."""

    attack: AttackPlan
    attacker: Combatant
    defender: Combatant
    choices: AttackOptions
    bystander: Combatant | None
    tables: Tables
    adjusted: tuple[Event, ...] = ()  # the attacker's maneuver's events (none answer)

    @property
    def attacker_modifiers(self) -> tuple[Modifier, ...]:
        """Every modifier of the attack roll, the defender's PD among them (000
        PASSIVE DEFENSE: it comes off the attacker's skill)."""
        return self.attack.modifiers

    @property
    def defender_modifiers(self) -> tuple[Modifier, ...]:
        """None before the answer: each announced defense's are its own plan's."""
        return ()

    @property
    def rolls(self) -> tuple[PlannedRoll, ...]:
        contest = self.attack.contest
        if contest is not None:  # 000 DISARMING AN OPPONENT: a Quick Contest
            return (
                PlannedRoll(self.attacker.id, "disarm contest", "3d6", Needs.ABOVE),
                PlannedRoll(self.defender.id, "disarm contest", "3d6", Needs.ABOVE),
            )
        return (
            PlannedRoll(
                self.attacker.id, "attack", "3d6", Needs.AT_MOST, self.attack.effective_skill
            ),
        )


@quick_init
@dataclass(frozen=True, slots=True)
class Seed000Payload:
    """Seed 000's record of one attack (``AttackOutcome.payload``): the resolution
    (every roll, the attack roll step, the events its sub-steps recorded) and the
    fighters as the attack leaves them,
    each new action tagged with whom it was aimed at (000 STRIKING AT WEAPONS);
    ``adjusted``: the maneuvers' events, told first."""

    resolution: AttackResolution
    attacker: Combatant
    defender: Combatant
    bystander: Combatant | None
    adjusted: tuple[Event, ...]


_LANDING = {
    Outcome000.CRITICAL_HIT: Landing.CRITICAL_HIT,
    Outcome000.HIT: Landing.HIT,
    Outcome000.DEFENDED: Landing.DEFENDED,
    Outcome000.MISSED: Landing.MISSED,
    Outcome000.CRITICAL_MISS: Landing.CRITICAL_MISS,
}
_DEFENDED = {
    DefenseKind.DODGE: ActiveDefense.DODGE,
    DefenseKind.PARRY: ActiveDefense.PARRY,
    DefenseKind.BLOCK: ActiveDefense.BLOCK,
}


def whole_options(choices: AttackOptions, answer: Seed000Answer) -> AttackOptions:
    """The engine's whole request (``plan_attack``): the attacker's choices with
    the defender's answer in them."""
    if not answer.defenses and not answer.acrobatic_dodge:
        return choices
    return replace(choices, defenses=answer.defenses, acrobatic_dodge=answer.acrobatic_dodge)


def split_answer(options: AttackOptions) -> tuple[AttackOptions, Seed000Answer]:
    """The engine's whole request (``plan_attack``) as an ``Attack`` command
    carries it: the attacker's choices and the defender's answer apart."""
    answer = Seed000Answer(options.defenses, options.acrobatic_dodge)
    if answer == NO_DEFENSE:
        return options, answer
    return replace(options, defenses=(), acrobatic_dodge=False), answer


def attack_command(
    attacker_id: str, defender_id: str, options: AttackOptions, *, gm_override: bool = False
) -> Attack:
    """The ``Attack`` command of the engine's whole request: the attacker's
    choices and the defender's answer apart (``split_answer``)."""
    choices, answer = split_answer(options)
    return Attack(attacker_id, defender_id, choices, answer, gm_override)


def _answer_in_choices(choices: AttackOptions) -> None:
    if choices.defenses or choices.acrobatic_dodge:
        raise RulesError(
            "seed 000's defender answers apart: its defenses and acrobatic dodge go in "
            "the attack's Seed000Answer, not in the attacker's AttackOptions"
        )


class Seed000Steps:
    """Seed 000's ``AttackSteps`` over one ruleset's tables (its options pick the
    hit location system and the rest)."""

    choices_type = AttackOptions
    answer_type = Seed000Answer

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def plan(
        self, state: BattleState, attacker_id: str, defender_id: str, choices: AttackOptions
    ) -> Plan000:
        _answer_in_choices(choices)
        attacker = state.combatant(attacker_id)
        defender = state.combatant(defender_id)
        if attacker.id == defender.id:
            raise IllegalCommandError("a combatant cannot attack itself")
        # The two maneuvers (all-out attack, all-out defense) shape the attack.
        options, adjusted = maneuvers.maneuver_adjustments(attacker, defender, choices)
        tables = self.tables

        def in_reach(att: Combatant, dfn: Combatant, weapon: Weapon) -> bool:
            allowed, _ = can_strike_at_weapon(
                state,
                att.id,
                dfn.id,
                weapon.key,
                attacker_weapon_key=options.weapon_key,
                attacker_mode=options.mode,
                strikes=tables.weapon_strikes,
            )
            return allowed

        reach = in_reach if options.target_weapon_key is not None else None
        # 000 RANDOM HIT LOCATION: the cover in the defender's hex hides body areas
        # from random locations; they join the options' own.
        covered = covered_areas_of(state, defender.id)
        if not covered <= options.covered:
            options = replace(options, covered=options.covered | covered)
        # 000 MISSING A SPECIFIC HIT LOCATION: the combatant in the way.
        bystander = None if options.obscured_by is None else state.combatant(options.obscured_by)
        alone = plan_attack(
            attacker, defender, options, tables, weapon_in_reach=reach, answered=False
        )
        return Plan000(alone, attacker, defender, choices, bystander, tables, adjusted)

    def answers(self, plan: Plan000) -> tuple[Seed000Answer, ...]:
        """Each single defense the defender may announce against the plan, the
        likeliest first (``likely_defense``), then a dodge, a block, a parry with
        each weapon in hand that parries, an acrobatic dodge, and none last; only
        none when it can make no active defense. (The GM may announce several, in
        an order: the attack pane.)"""
        defender = plan.defender
        if plan.attack.no_active_defense:
            return (NO_DEFENSE,)
        choices = [likely_defense(defender, plan.attack.mode), DefenseChoice(DefenseKind.DODGE)]
        if defender.fighter.shield is not None:
            choices.append(DefenseChoice(DefenseKind.BLOCK))
        choices.extend(
            DefenseChoice(DefenseKind.PARRY, w.key)
            for w in wielded_weapons(defender)
            if w.parry is not ParryClass.NONE
        )
        offered = [Seed000Answer((c,)) for c in dict.fromkeys(choices)]
        offered.append(Seed000Answer((DefenseChoice(DefenseKind.DODGE),), acrobatic_dodge=True))
        return (*(a for a in offered if self._plannable(plan, a)), NO_DEFENSE)

    def _plannable(self, plan: Plan000, answer: Seed000Answer) -> bool:
        made, _ = _answered(plan, answer)
        try:
            plan_defenses(
                plan.attack, plan.defender, made.defenses, made.acrobatic_dodge, self.tables
            )
        except IllegalAttackError:
            return False
        return True

    def default_answer(self, plan: Plan000) -> Seed000Answer:
        """No defense announced."""
        return NO_DEFENSE

    def decide(
        self, plan: Plan000, answer: Seed000Answer, dice: DiceSource
    ) -> AttackOutcome[Seed000Payload]:
        """The announced defenses planned (the maneuvers may take them away), then
        the attack rolled: the only step that rolls."""
        attacker, defender = plan.attacker, plan.defender
        whole, adjusted = _defended(plan, answer)
        resolution = roll_attack(
            whole, attacker, defender, dice, plan.tables, bystander=plan.bystander
        )
        attacker_after = tag_targets(attacker, resolution.attacker_after, defender.id)
        defender_after = tag_targets(defender, resolution.defender_after, attacker.id)
        payload = Seed000Payload(
            resolution, attacker_after, defender_after, resolution.bystander_after, adjusted
        )
        landing = _LANDING[resolution.outcome]
        defense = None
        if landing is Landing.DEFENDED:
            stopped = next(r for r in resolution.defense_rolls if r.succeeded)
            defense = _DEFENDED[stopped.plan.kind]
        changes = [(attacker, attacker_after), (defender, defender_after)]
        if plan.bystander is not None and resolution.bystander_after is not None:
            changes.append((plan.bystander, resolution.bystander_after))
        conditions: list[ConditionChange] = []
        for before, after in changes:
            # the condition reads the status and the wounds (tracks) alone
            if after.status is not before.status or after.tracks is not before.tracks:
                now, was = fighter_condition(after), fighter_condition(before)
                if now is not was and now != was:  # the one ABLE for most: no compare
                    conditions.append(ConditionChange(after.id, now))
        return AttackOutcome(
            landing,
            payload,
            defense=defense,
            location=resolution.hit_location if landing.struck else None,
            injury=max(0, defender.hp - defender_after.hp),
            conditions=tuple(conditions),
            pieces=_launched(resolution),
            broken=resolution.broken,
        )

    def exact_odds(self, plan: Plan000, answer: Seed000Answer) -> SharedOdds | None:
        """The shared odds of ``decide`` (``rules.battle.attack_odds``) from the
        chained odds (``rules.sets.seed000.odds``), exactly: tens of milliseconds
        where enumerating ``decide`` takes up to seconds. None, and enumerated, for
        a disarm, a strike at a weapon and a parry before another defense: a
        fumbled parry's critical miss table may hurt the defender with its own
        weapon and change the later defenses (000 CRITICAL MISSES ON DEFENSE
        ROLLS); the chained odds count it for a last parry only."""
        defenses = _answered(plan, answer)[0].defenses
        if any(c.kind is DefenseKind.PARRY for c in defenses[:-1]):
            return None
        odds = preview_odds(plan, answer)
        if odds.target != "body":
            return None
        kinds: dict[OutcomeKind, Fraction] = {}
        for kind, p in (
            (OutcomeKind(Landing.CRITICAL_HIT), odds.p_critical_hit),
            (OutcomeKind(Landing.HIT), odds.p_hit),
            *(
                (OutcomeKind(Landing.DEFENDED, _DEFENDED[d.plan.kind]), d.p_stopped)
                for d in odds.defenses
            ),
            (OutcomeKind(Landing.MISSED), odds.p_miss),
            (OutcomeKind(Landing.CRITICAL_MISS), odds.p_critical_miss),
        ):
            if p:
                kinds[kind] = kinds.get(kind, Fraction(0)) + p
        # Out of the fight: the defender's condition changed by the blow (its state
        # and a paralysis at neck level; nothing else the attack does changes it)
        # to one unable to act.
        defender = plan.defender
        before = fighter_condition(defender)
        was_paralysed = paralysed_from_the_neck(defender)

        def out(status: Status, paralysed: bool) -> bool:
            now = condition_of(status, lambda: paralysed)
            return now != before and not now.able_to_act

        fumbled = odds.p_parry_fumbled  # hurt by its own parry's fumble first
        blow = odds.blow if odds.unfumbled is None else odds.unfumbled
        landed = odds.p_body_blow - fumbled
        taken = landed * sum(
            (p * out(*k) for k, p in blow_standing(blow, was_paralysed).items()), Fraction(0)
        ) + fumbled * sum((p * out(*k) for k, p in odds.fumbled_standing.items()), Fraction(0))
        injury = landed * blow.expected_injury + fumbled * odds.fumbled_injury
        return SharedOdds(MappingProxyType(kinds), injury, taken)

    def apply(
        self, state: BattleState, plan: Plan000, outcome: AttackOutcome[Seed000Payload]
    ) -> BattleState:
        """The fighters as the attack left them."""
        done = outcome.payload
        fighters = [done.attacker, done.defender]
        if done.bystander is not None:
            fighters.append(done.bystander)
        return state.with_combatants(*fighters)

    def describe(
        self, plan: Plan000, answer: Seed000Answer, outcome: AttackOutcome[Seed000Payload]
    ) -> tuple[Event, ...]:
        """The maneuvers' events, then the attack's (``tell_attack``)."""
        done = outcome.payload
        told = tell_attack(done.resolution, plan.attacker, plan.defender, plan.tables)
        return (*done.adjusted, *told) if done.adjusted else told


def defended_plan(plan: Plan000, answer: Seed000Answer) -> AttackPlan:
    """The engine's whole plan of ``plan`` against ``answer``: the defenses the
    defender's maneuver leaves it, planned (``plan_defenses``), as ``decide`` rolls
    them."""
    return _defended(plan, answer)[0]


def preview_odds(plan: Plan000, answer: Seed000Answer) -> AttackOdds:
    """The exact odds of ``plan`` against ``answer``, the attack pane's and
    ``Seed000.preview_attack``'s: of the plan the roll then makes (``planned``)."""
    global _last_odds
    known = known_odds(plan, answer)
    if known is not None:
        return known
    odds = attack_odds(
        defended_plan(plan, answer), plan.attacker, plan.defender, plan.tables, check=False
    )
    _last_odds = (plan, answer, odds)
    return odds


def known_odds(plan: Plan000, answer: Seed000Answer) -> AttackOdds | None:
    """The odds of ``plan`` against ``answer`` if they were the last worked out
    (``preview_odds``), else None: the pane shows them at once."""
    last = _last_odds
    if last is not None and last[0] is plan and last[1] == answer:
        return last[2]
    return None


# The odds last asked for: the pane asks again for the plan it shows (``planned``
# keeps one plan object per attack), on every repaint of its lines.
_last_odds: tuple[Plan000, Seed000Answer, AttackOdds] | None = None


# The plan last defended, with its answer: the exact odds run ``decide`` thousands of
# times on one plan and answer, and planning the defenses rolls nothing (one entry,
# replaced whole, so that the pane's odds thread and the roll may share it).
_last_defended: tuple[Plan000, Seed000Answer, tuple[AttackPlan, tuple[Event, ...]]] | None = None


def _defended(plan: Plan000, answer: Seed000Answer) -> tuple[AttackPlan, tuple[Event, ...]]:
    global _last_defended
    last = _last_defended
    if last is not None and last[0] is plan and (last[1] is answer or last[1] == answer):
        return last[2]
    made, adjusted = _answered(plan, answer)
    whole = plan_defenses(
        plan.attack, plan.defender, made.defenses, made.acrobatic_dodge, plan.tables
    )
    _last_defended = (plan, answer, (whole, adjusted))
    return whole, adjusted


def _answered(plan: Plan000, answer: Seed000Answer) -> tuple[Seed000Answer, tuple[Event, ...]]:
    """The answer as the defender's maneuver leaves it (one without active
    defenses takes the announced ones away), and the maneuvers' events: the
    attacker's, planned, then the defender's."""
    if plan.defender.maneuver is None:
        return answer, plan.adjusted
    options, more = maneuvers.defender_adjustments(
        plan.defender, whole_options(plan.choices, answer)
    )
    return Seed000Answer(options.defenses, options.acrobatic_dodge), (*plan.adjusted, *more)


def _launched(resolution: AttackResolution) -> tuple[LaunchedPiece, ...]:
    """What left a hand, with where it starts (000 MISSILE AND THROWN WEAPONS: a
    thrown weapon from its target)."""
    target_hex = resolution.defender_after.hex
    launched = []
    for i, piece in enumerate(resolution.pieces):
        origin = (
            resolution.piece_origins[i]
            if i < len(resolution.piece_origins)
            else resolution.plan.defender_id
        )
        thrown = piece.note == THROWN_NOTE and origin == resolution.plan.attacker_id
        launched.append(LaunchedPiece(piece, origin, target_hex if thrown else None))
    return tuple(launched)
