"""Odds before the roll: the exact chance of every way an attack can go.

``attack_odds(plan, attacker, defender, ruleset)`` takes an ``AttackPlan`` from
``rules.sets.seed000.attack.plan_attack`` and returns an ``AttackOdds``: exact ``Fraction``s,
never sampled. It rolls nothing of its own: it runs the steps
``resolve_attack`` rolls (``rules.sets.seed000.dice_steps``) on every way their dice can
fall (``rules.core.enumerate.exact_outcomes``), each memoised on its inputs, and
chains their distributions in the resolver's order (docs/odds.md):

1. 000 disarm: the Quick Contest replaces the rest (``rules.sets.seed000.disarm``'s exact
   distribution at the levels of ``AttackPlan.contest``).
2. The attack roll step: the roll by total, a critical failure's confirming
   rolls, a failed roll that still lands (near misses, misses only because of
   the aim), a stray blow.
3. The defense step of each announced defense in order until one succeeds (an
   acrobatic dodge's Acrobatics roll first).
4. A blow that lands: on a weapon, no injury; at a key of the battle's hit
   location system or a random location (the system's exact distribution), the
   damage step, the located wound of each basic damage and its required rolls
   (``roll_required``, chained as ``resolve_rolls`` chains them); otherwise
   ``roll_damage`` itself.
5. The defender's state: ``injury_status`` itself, overridden by the wound's
   conditions (``wound_status``), as ``resolve_attack`` does.

Cheap enough to run on every change of the attack pane (docs/odds.md, "Speed").
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from hexmap import Arc
from rules.battle.model import Combatant, DamageType, Status
from rules.core.citation import cite
from rules.core.dice import SIDES, Dice
from rules.core.enumerate import EnumeratingDice, exact_outcomes, sum_ways
from rules.core.errors import IllegalAttackError
from rules.core.memo_keys import ByIdentity, Passenger
from rules.sets.seed000.attack import (
    AttackPlan,
    attack_roll_inputs,
    covered_keys,
    defense_fumbled,
    defense_inputs,
    limb_side,
    plan_attack,
    table_side,
    wound_inputs,
)
from rules.sets.seed000.attack_events import AttackOutcome
from rules.sets.seed000.checks import Outcome
from rules.sets.seed000.damage import WoundingTable, injury_status, roll_damage
from rules.sets.seed000.defense import DefensePlan
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.dice_steps import (
    STATE_CONDITIONS,
    AttackRollDecision,
    AttackRollInputs,
    DefenseInputs,
    WoundInputs,
    attack_roll_step,
    damage_step,
    defense_step,
    wound_status,
)
from rules.sets.seed000.disarm import DisarmOutcome, contest_outcome_distribution
from rules.sets.seed000.location_rules import LocationRules
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from rules.sets.seed000.wound_effects import RequiredRoll, roll_required
from rules.sets.seed000.wound_effects import RollKind as WoundRollKind
from rules.sets.seed000.wounded import NECK_LEVEL, paralysed_from_the_neck

__all__ = [
    "AttackOdds",
    "BlowOdds",
    "DefenseOdds",
    "attack_odds",
    "attack_roll_odds",
    "blow_odds",
    "defense_roll_odds",
    "defense_step_odds",
    "located_wounds",
    "location_dr",
    "location_weights",
    "mix",
    "status_distribution",
]

K = TypeVar("K")

ZERO = Fraction(0)
ONE = Fraction(1)


# --- the records ------------------------------------------------------------------


@dataclass(frozen=True)
class DefenseOdds:
    """One announced defense. ``p_rolled``: the attack plainly hit and every
    earlier defense failed. ``p_stopped``: rolled and succeeded (this defense is
    the one that stopped the blow). ``p_critical_success``: stopped with a 3 or 4
    (no penalty to later defenses, 000 CRITICAL HITS ON DEFENSE ROLLS).
    ``p_critical_failure``: rolled and critically failed (000 CRITICAL MISSES ON
    DEFENSE ROLLS: the disaster ``resolve_attack`` logs).
    ``p_acrobatic_success``: for an acrobatic dodge, the chance its Acrobatics roll
    succeeds (+2 to the dodge, not above 16; -4 on a failure), else None."""

    plan: DefensePlan
    p_rolled: Fraction
    p_stopped: Fraction
    p_critical_success: Fraction
    p_critical_failure: Fraction
    p_acrobatic_success: Fraction | None = None


@dataclass(frozen=True)
class BlowOdds:
    """What a blow that lands does, exactly: the injury and the defender's state
    after it (both distributions sum to 1)."""

    injury: Mapping[int, Fraction]
    status: Mapping[Status, Fraction]
    # The part of ``status`` whose wound also paralyses from the neck down (note
    # 17: out of the fight whatever the state, ``wounded.fighter_condition``).
    paralysed: Mapping[Status, Fraction] = field(default_factory=dict)

    @property
    def expected_injury(self) -> Fraction:
        return sum((i * p for i, p in self.injury.items()), ZERO)


@dataclass(frozen=True)
class AttackOdds:
    """The exact odds of one planned attack.

    The five outcome fields partition every way the dice can fall and sum to
    exactly 1: ``p_critical_hit + p_hit + sum(p_stopped_by) + p_miss +
    p_critical_miss``. ``p_hit`` is a plain hit that no defense stopped;
    ``p_stopped_by[i]`` that the i-th announced defense (in rolling order) is the
    one that succeeded. ``blow`` is what a landed blow (critical or not) does.

    ``p_shifted``: the attack failed but still goes on to the defenses (000 NEAR
    MISSES, 000 MISSING A SPECIFIC HIT LOCATION); it ends in ``p_hit`` or
    ``p_stopped_by``. ``p_critical_miss_avoided``: a critical failure the
    verification / avoidance roll turned into a plain miss (part of ``p_miss``).
    ``target``: "body"; "weapon" for a strike at the defender's weapon (a landed
    blow hurts no one); "contest" for the 000 disarm, whose Quick Contest
    replaces the rolls (``p_hit``: the foe loses his weapon; ``p_critical_miss``:
    the attacker loses his; ``p_miss``: neither).
    ``p_stray_blow``: the miss strikes the combatant in the way (``obscured_by``;
    part of ``p_miss``; what it does to him is not computed here).
    ``approximate``: some rule of ``resolve_attack`` is not mirrored exactly
    (``approximate_reason`` says which); every rule is today, so it is False.
    """

    effective_skill: int
    p_critical_hit: Fraction
    p_hit: Fraction
    p_stopped_by: tuple[Fraction, ...]
    p_miss: Fraction
    p_critical_miss: Fraction
    defenses: tuple[DefenseOdds, ...]
    blow: BlowOdds
    hp_before: int
    max_hp: int
    status_before: Status
    p_shifted: Fraction = ZERO
    p_critical_miss_avoided: Fraction = ZERO
    target: str = "body"
    p_stray_blow: Fraction = ZERO
    approximate: bool = False
    approximate_reason: str = ""
    # The last announced defense a parry that critically failed (part of
    # ``p_hit``): its critical miss table may hurt the defender before the blow,
    # which ``blow`` leaves out (the pane's injury is the blow's). What the shared
    # odds read (``Seed000Steps.exact_odds``): the other landed blows
    # (``unfumbled``, None: ``blow``), the expected injury of a fumbled parry and
    # its blow together, and the defender's state after them with whether a
    # wound paralysed him from the neck down (``standing``).
    p_parry_fumbled: Fraction = ZERO
    unfumbled: BlowOdds | None = None
    fumbled_injury: Fraction = ZERO
    fumbled_standing: Mapping[tuple[Status, bool], Fraction] = field(default_factory=dict)

    # --- outcomes ---------------------------------------------------------------
    @property
    def p_damage_lands(self) -> Fraction:
        return self.p_critical_hit + self.p_hit

    @property
    def p_body_blow(self) -> Fraction:
        """A blow lands on the defender's body (not on a weapon, not a contest)."""
        return self.p_damage_lands if self.target == "body" else ZERO

    @property
    def p_defended(self) -> Fraction:
        return sum(self.p_stopped_by, ZERO)

    @property
    def outcomes(self) -> Mapping[AttackOutcome, Fraction]:
        """The chance of each ``AttackOutcome`` ``resolve_attack`` can return."""
        return MappingProxyType(
            {
                AttackOutcome.CRITICAL_HIT: self.p_critical_hit,
                AttackOutcome.HIT: self.p_hit,
                AttackOutcome.DEFENDED: self.p_defended,
                AttackOutcome.MISSED: self.p_miss,
                AttackOutcome.CRITICAL_MISS: self.p_critical_miss,
            }
        )

    # --- injury -----------------------------------------------------------------
    @property
    def injury_given_hit(self) -> Mapping[int, Fraction]:
        """The injury of a blow that lands (sums to 1)."""
        return self.blow.injury

    @property
    def expected_injury_given_hit(self) -> Fraction:
        return self.blow.expected_injury

    @property
    def expected_injury(self) -> Fraction:
        """Over every outcome (a blow that doesn't land does 0)."""
        return self.p_body_blow * self.blow.expected_injury

    @property
    def injury(self) -> Mapping[int, Fraction]:
        """The injury over every outcome, 0 included (sums to 1)."""
        mixed = mix([(self.p_body_blow, self.blow.injury), (ONE - self.p_body_blow, {0: ONE})])
        return MappingProxyType(dict(sorted(mixed.items())))

    def p_injury_at_least(self, amount: int) -> Fraction:
        """The blow lands and does at least ``amount`` injury."""
        return self.p_body_blow * sum((p for i, p in self.blow.injury.items() if i >= amount), ZERO)

    def p_hp_at_most(self, level: int) -> Fraction:
        """The blow lands and leaves the defender at ``level`` HP or less."""
        return self.p_body_blow * sum(
            (p for i, p in self.blow.injury.items() if self.hp_before - i <= level), ZERO
        )

    @property
    def p_zero_hp(self) -> Fraction:
        """This blow lands and leaves the defender at 0 HP or less (for a defender
        already there, any blow that lands)."""
        return self.p_hp_at_most(0)

    # --- the defender's state -----------------------------------------------------
    @property
    def status_after(self) -> Mapping[Status, Fraction]:
        """The defender's state after the attack, over every outcome (sums to 1)."""
        return mix(
            [
                (self.p_body_blow, self.blow.status),
                (ONE - self.p_body_blow, {self.status_before: ONE}),
            ]
        )

    def p_status(self, status: Status) -> Fraction:
        return self.status_after.get(status, ZERO)

    # --- the attack pane ------------------------------------------------------------
    def summary_lines(self) -> tuple[str, ...]:
        """A few short lines for the attack pane."""
        if self.target == "contest":
            lines = [
                f"Disarms {percent(self.p_hit)} · no effect {percent(self.p_miss)}"
                f" · loses own weapon {percent(self.p_critical_miss)}"
            ]
            return (*lines, *self._approximate_lines())
        lines = [
            f"Hit {percent(self.p_damage_lands)} (critical {percent(self.p_critical_hit)})"
            f" · miss {percent(self.p_miss + self.p_critical_miss)}"
            f" (critical {percent(self.p_critical_miss)})"
        ]
        if self.defenses:
            stops = ", ".join(
                f"{_defense_name(d.plan)} {percent(d.p_stopped)}" for d in self.defenses
            )
            lines.append(f"Stopped by {stops}")
        if self.p_stray_blow:
            lines.append(f"The miss strikes the one in the way {percent(self.p_stray_blow)}")
        if self.target == "weapon":
            lines.append("A blow that lands strikes the weapon: no injury")
            return (*lines, *self._approximate_lines())
        injuries = [i for i, p in self.blow.injury.items() if p]
        lines.append(
            f"Injury if hit {min(injuries)}–{max(injuries)}, "
            f"mean {float(self.expected_injury_given_hit):.1f}"
            f" · overall mean {float(self.expected_injury):.1f}"
        )
        down = (
            f"0 HP or less {percent(self.p_zero_hp)}" if self.hp_before > 0 else "already at 0 HP"
        )
        changes = [
            f"{s.value} {percent(self.p_status(s))}"
            for s in (Status.UNCONSCIOUS, Status.DEAD)
            if s is not self.status_before and self.p_status(s)
        ]
        lines.append(" · ".join([down, *changes]))
        return (*lines, *self._approximate_lines())

    def _approximate_lines(self) -> tuple[str, ...]:
        return (f"Approximate: {self.approximate_reason}",) if self.approximate else ()


def percent(p: Fraction) -> str:
    """An exact probability as a GM reads it: one decimal, with the ends marked
    ("<0.1%", ">99.9%") so that a tiny chance never reads as 0 or 100."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def _defense_name(d: DefensePlan) -> str:
    item = f" ({d.item_name})" if d.item_name and d.kind is not DefenseKind.DODGE else ""
    return f"{d.kind.value}{item}"


# --- the attack ----------------------------------------------------------------------


def attack_odds(
    plan: AttackPlan,
    attacker: Combatant,
    defender: Combatant,
    ruleset: Tables,
    *,
    check: bool = True,
) -> AttackOdds:
    """The exact odds of ``plan``, as ``resolve_attack`` would roll it.

    With ``check`` (the default) the plan is recomputed and compared, as
    ``resolve_attack`` does, and a stale plan raises ``IllegalAttackError``.
    """
    if check and plan_attack(attacker, defender, plan.options, ruleset) != plan:
        raise IllegalAttackError("the attack plan no longer matches the combatants")
    if plan.contest is not None:  # the disarm's Quick Contest replaces the rest (000)
        return _disarm_odds(plan, attacker, defender)

    # The attack roll step on every way the dice fall: a failure may still land.
    critical_hit = plain = miss = critical_fail = stray = avoided = ZERO
    shifted: dict[str, Fraction] = {}  # a failed roll that goes on to the defenses, by key
    system = ruleset.hit_locations
    for decision, p in attack_roll_odds(attack_roll_inputs(plan), ByIdentity(system)).items():
        if decision.outcome is AttackOutcome.CRITICAL_HIT:
            critical_hit += p
        elif decision.shifted_to is not None:
            shifted[decision.shifted_to] = shifted.get(decision.shifted_to, ZERO) + p
        elif decision.defended:
            plain += p
        elif decision.outcome is AttackOutcome.CRITICAL_MISS:
            critical_fail += p
        else:
            miss += p
            stray += p if decision.stray else ZERO
            avoided += p if decision.critical_miss_avoided else ZERO
    p_shifted = sum(shifted.values(), ZERO)

    # A plain success (or a miss that still lands): the defense step of each
    # announced defense in order until one succeeds. A defense's success does not
    # depend on why the blow is coming.
    reaching = plain + p_shifted
    defenses: list[DefenseOdds] = []
    for d in plan.defenses:
        roll, acrobatic = defense_roll_odds(plan, d, defender)
        succeeds = roll[Outcome.CRITICAL_SUCCESS] + roll[Outcome.SUCCESS]
        defenses.append(
            DefenseOdds(
                plan=d,
                p_rolled=reaching,
                p_stopped=reaching * succeeds,
                p_critical_success=reaching * roll[Outcome.CRITICAL_SUCCESS],
                p_critical_failure=reaching * roll[Outcome.CRITICAL_FAILURE],
                p_acrobatic_success=acrobatic,
            )
        )
        reaching *= ONE - succeeds
    undefended = ONE if plain + p_shifted == 0 else reaching / (plain + p_shifted)

    # Where the landed blows strike: the plan's aim (or a random location) for a
    # critical or plain hit, the shifted location for a miss that still landed.
    target = "body" if plan.target_weapon is None else "weapon"
    fumbled = _fumbled_parry(
        plan,
        attacker,
        defender,
        ruleset,
        [(plain, plan.hit_location), *((p, key) for key, p in shifted.items())],
        defenses,
        critical_hit,
        undefended,
    ) if target == "body" else None
    lands: list[tuple[Fraction, str | None]] = [
        (critical_hit + plain * undefended, plan.hit_location),
        *((p * undefended, key) for key, p in shifted.items()),
    ]
    landed = sum((w for w, _ in lands), ZERO)
    if target == "weapon":
        blow = _no_blow(defender)
    else:
        blow = _mixed_blow(
            [(w / landed, key) for w, key in lands if w] if landed else [(ONE, plan.hit_location)],
            plan,
            defender,
            ruleset,
        )
    odds = AttackOdds(
        effective_skill=plan.effective_skill,
        p_critical_hit=critical_hit,
        p_hit=reaching,
        p_stopped_by=tuple(d.p_stopped for d in defenses),
        p_miss=miss,
        p_critical_miss=critical_fail,
        defenses=tuple(defenses),
        blow=blow,
        hp_before=defender.hp,
        max_hp=defender.fighter.hit_points,
        status_before=defender.status,
        p_shifted=p_shifted,
        p_critical_miss_avoided=avoided,
        target=target,
        p_stray_blow=stray,
    )
    if fumbled is not None:
        p_fumbled, unfumbled, injury, standing = fumbled
        odds = replace(
            odds,
            p_parry_fumbled=p_fumbled,
            unfumbled=unfumbled,
            fumbled_injury=injury,
            fumbled_standing=standing,
        )
    return odds


def _fumbled_parry(
    plan: AttackPlan,
    attacker: Combatant,
    defender: Combatant,
    ruleset: Tables,
    reaching: list[tuple[Fraction, str | None]],
    defenses: list[DefenseOdds],
    critical_hit: Fraction,
    undefended: Fraction,
) -> tuple[Fraction, BlowOdds, Fraction, Mapping[tuple[Status, bool], Fraction]] | None:
    """A last announced defense that is a parry and may critically fail: the
    ``AttackOdds`` fields of that branch (``p_parry_fumbled`` and the rest). The
    blows that reach the defenses (``reaching``: weight, aim) fumbled at the last
    parry's rate (after every earlier defense failed) land on the defender as the
    fumble leaves him (``defense_fumbled`` on every way its dice fall); the rest
    land on him as he is. None when no such fumble can happen."""
    last = defenses[-1] if defenses else None
    if last is None or last.plan.kind is not DefenseKind.PARRY or not last.p_critical_failure:
        return None
    # of the blows that reach the defenses, those the last parry's fumble lets through
    rate = last.p_critical_failure / sum((w for w, _ in reaching), ZERO)
    at_fumble = [(w * rate, aim) for w, aim in reaching if w]
    p_fumbled = sum((w for w, _ in at_fumble), ZERO)
    if not p_fumbled:
        return None
    rest = undefended - rate
    normal = [(critical_hit, plan.hit_location), *((w * rest, a) for w, a in reaching)]
    normal_weight = sum((w for w, _ in normal), ZERO)
    unfumbled = (
        _mixed_blow([(w / normal_weight, a) for w, a in normal if w], plan, defender, ruleset)
        if normal_weight
        else _no_blow(defender)
    )
    aims = [(w / p_fumbled, a) for w, a in at_fumble]
    parry = last.plan
    # The fumbler by its text: a combatant with a condition's details does not hash.
    fumblers: dict[str, Combatant] = {}

    def fumbled(rng: EnumeratingDice) -> str:
        fumbler = defense_fumbled(plan, parry, attacker, defender, rng, ruleset)
        text = repr(fumbler)
        fumblers.setdefault(text, fumbler)
        return text

    # where a broken or flung piece lands changes neither the fumbler nor the blow
    after = exact_outcomes(fumbled, by_reads=True, odds_reads=True)
    injury = ZERO
    standing: dict[tuple[Status, bool], Fraction] = {}
    for text, q in after.items():
        fumbler = fumblers[text]
        blow = _mixed_blow(aims, plan, fumbler, ruleset)
        injury += q * (defender.hp - fumbler.hp + blow.expected_injury)
        for key, p in blow_standing(blow, paralysed_from_the_neck(fumbler)).items():
            standing[key] = standing.get(key, ZERO) + q * p
    return p_fumbled, unfumbled, injury, MappingProxyType(standing)


def blow_standing(blow: BlowOdds, paralysed: bool) -> Mapping[tuple[Status, bool], Fraction]:
    """The defender's state after ``blow`` lands, with whether he is paralysed
    from the neck down (``paralysed``: already; else by the blow's wound)."""
    result: dict[tuple[Status, bool], Fraction] = {}
    for s, p in blow.status.items():
        by_wound = blow.paralysed.get(s, ZERO)
        for key, q in (((s, paralysed), p - by_wound), ((s, True), by_wound)):
            if q:
                result[key] = result.get(key, ZERO) + q
    return MappingProxyType(result)


@functools.cache
def attack_roll_odds(
    inputs: AttackRollInputs, system: ByIdentity[LocationRules]
) -> Mapping[AttackRollDecision, Fraction]:
    """``attack_roll_step`` on every way the dice fall: the attack roll by total
    (the step reads it), the confirming rolls by outcome."""
    return exact_outcomes(
        lambda dice: attack_roll_step(inputs, system.value, dice).decision, by_reads=True
    )


@functools.cache
def defense_step_odds(inputs: DefenseInputs) -> Mapping[tuple[Outcome, bool | None], Fraction]:
    """``defense_step`` on every way the dice fall (it reads its rolls' outcomes
    only): the defense roll's outcome and the Acrobatics roll's success."""
    return exact_outcomes(lambda dice: defense_step(inputs, dice).decision, by_reads=True)


def defense_roll_odds(
    plan: AttackPlan, d: DefensePlan, defender: Combatant
) -> tuple[Mapping[Outcome, Fraction], Fraction | None]:
    """The outcome chances of one announced defense roll and, for an acrobatic
    dodge, the chance its Acrobatics roll succeeded (000 ACROBATIC DODGE: +2, not
    above 16, or -4 to the dodge, rolled first)."""
    joint = defense_step_odds(defense_inputs(plan, d, defender))
    outcomes = dict.fromkeys(Outcome, ZERO)
    acrobatic: Fraction | None = None
    for (outcome, acrobatic_success), p in joint.items():
        outcomes[outcome] += p
        if acrobatic_success is not None:
            acrobatic = (acrobatic or ZERO) + (p if acrobatic_success else ZERO)
    return MappingProxyType(outcomes), acrobatic


def _disarm_odds(plan: AttackPlan, attacker: Combatant, defender: Combatant) -> AttackOdds:
    """000 DISARMING AN OPPONENT: the Quick Contest replaces the attack and the
    defenses (both 3d6 enumerated by ``rules.sets.seed000.disarm``), at exactly the levels of
    ``plan.contest`` that ``resolve_attack`` rolls against."""
    contest = plan.contest
    assert contest is not None
    dist = contest_outcome_distribution(
        contest.attacker.level, contest.defender.level, contest.rules
    )
    won = dist.get(DisarmOutcome.DEFENDER_DISARMED, ZERO)
    lost = dist.get(DisarmOutcome.ATTACKER_DISARMED, ZERO)
    return AttackOdds(
        effective_skill=plan.effective_skill,
        p_critical_hit=ZERO,
        p_hit=won,
        p_stopped_by=tuple(ZERO for _ in plan.defenses),
        p_miss=ONE - won - lost,
        p_critical_miss=lost,
        defenses=tuple(DefenseOdds(d, ZERO, ZERO, ZERO, ZERO) for d in plan.defenses),
        blow=_no_blow(defender),
        hp_before=defender.hp,
        max_hp=defender.fighter.hit_points,
        status_before=defender.status,
        target="contest",
    )


# --- a blow that lands -------------------------------------------------------------


def _no_blow(defender: Combatant) -> BlowOdds:
    return BlowOdds(MappingProxyType({0: ONE}), MappingProxyType({defender.status: ONE}))


def blow_odds(
    plan: AttackPlan,
    defender: Combatant,
    ruleset: Tables,
    aimed_key: str | None = None,
) -> BlowOdds:
    """The injury and the defender's state after a blow of ``plan`` that lands on
    the body at ``aimed_key`` (default: the plan's; a shifted miss passes its own).

    ``resolve_attack`` damages the defender as it is after its defenses were
    recorded; that changes its turn record, readiness and maybe the gear in hand
    (a fumble), never its HP, state, armor or the traits the wound rules read, so
    ``defender`` itself serves."""
    return _mixed_blow([(ONE, aimed_key or plan.hit_location)], plan, defender, ruleset)


def _mixed_blow(
    aims: Iterable[tuple[Fraction, str | None]],
    plan: AttackPlan,
    defender: Combatant,
    ruleset: Tables,
) -> BlowOdds:
    """Blows landing at each aim with its weight (None: the plan's own way - the
    uniform torso or a random location)."""
    f = defender.fighter
    # (injury, the wound's conditions that change the state) -> out of -> ways:
    # whole numbers, each reduced once at the end (a random location mixes some
    # 28 locations' wounds); the uniform torso damage gives its state itself.
    joint: dict[tuple[int, frozenset[WoundCondition]], dict[int, int]] = {}
    torso: dict[tuple[int, Status], Fraction] = {}
    for weight, aim in aims:
        weights = location_weights(plan, defender, ruleset, aim)
        if not weights:  # the uniform torso damage (legacy keys, 000 unaimed)
            blow = _torso_blow(
                plan.damage_dice,
                plan.damage_spec.factor,
                plan.damage_spec.type,
                (defender.hp, f.hit_points, sheet_of(f).attributes.ht, defender.status),
                location_dr(plan, defender, plan.location.key),
                Passenger(defender),
                ByIdentity(ruleset.wounding),
            )
            for struck, p in blow.items():
                torso[struck] = torso.get(struck, ZERO) + weight * p
            continue
        for key, lp in weights.items():
            at = weight * lp
            for k, p in located_wounds(plan, defender, ruleset, key).items():
                counts = joint.setdefault(k, {})
                out_of = at.denominator * p.denominator
                counts[out_of] = counts.get(out_of, 0) + at.numerator * p.numerator
    injury_acc: dict[int, Fraction] = {}
    status_acc: dict[Status, Fraction] = {}
    paralysed_acc: dict[Status, Fraction] = {}
    for (amount, state), p in torso.items():
        injury_acc[amount] = injury_acc.get(amount, ZERO) + p
        status_acc[state] = status_acc.get(state, ZERO) + p
    ht = sheet_of(f).attributes.ht
    for (amount, conditions), ways in joint.items():
        p = sum_ways(ways)
        injury_acc[amount] = injury_acc.get(amount, ZERO) + p
        after = _status_after(defender.hp, defender.hp - amount, f.hit_points, ht, defender.status)
        for s, ps in after.items():
            final = wound_status(s, conditions)
            status_acc[final] = status_acc.get(final, ZERO) + p * ps
            if WoundCondition.PARALYZED in conditions:
                paralysed_acc[final] = paralysed_acc.get(final, ZERO) + p * ps
    injury = MappingProxyType(dict(sorted((k, v) for k, v in injury_acc.items() if v)))
    status = MappingProxyType({s: p for s, p in status_acc.items() if p})
    paralysed = MappingProxyType({s: p for s, p in paralysed_acc.items() if p})
    return BlowOdds(injury, status, paralysed)


@functools.cache
def _torso_blow(
    dice: Dice,
    factor: Fraction,
    damage_type: DamageType,
    _health: tuple[int, int, int, Status],
    _dr: int,
    defender: Passenger[Combatant],
    wounding: ByIdentity[WoundingTable],
) -> Mapping[tuple[int, Status], Fraction]:
    """``roll_damage`` itself on every way the dice fall (its HT rolls read by
    outcome): the injury and the state after. Memoised on what it reads of the
    defender: HP, maximum HP, HT and state (``_health``) and the armor's DR."""

    def blow(rng: EnumeratingDice) -> tuple[int, Status]:
        damage = roll_damage(
            dice, damage_type, defender.value, rng, wounding.value, factor=factor
        )
        return damage.injury, damage.status_after

    return exact_outcomes(blow, by_reads=True)


def location_weights(
    plan: AttackPlan,
    defender: Combatant,
    ruleset: Tables,
    aimed_key: str | None = None,
) -> Mapping[str, Fraction]:
    """Where a blow that lands strikes, in the battle's hit location system, with
    its chance: the aimed key for sure, or for a random swing the system's
    ``exact_distribution`` as ``resolve_attack`` rolls it (direction, covered
    locations). Empty: the blow takes the uniform torso damage (an unaimed blow
    under the 000 table, a legacy location key)."""
    key = aimed_key or plan.hit_location
    if key is not None:
        return MappingProxyType({key: ONE})
    if not plan.options.random_location:
        return MappingProxyType({})
    system = ruleset.hit_locations
    covered = covered_keys(system, plan.options.covered)  # re-rolled when hit
    covered |= system.lacking_locations(sheet_of(defender).injury_tolerance)
    # The system's own count, the one ``roll_random`` checks its cover against
    # (kept per table for each direction and cover).
    return system.exact_distribution(
        plan.options.from_above,
        plan.options.from_below,
        plan.arc is Arc.REAR,
        covered,
        from_side=plan.arc in (Arc.SHIELD_SIDE, Arc.WEAPON_SIDE),
    )


def location_dr(plan: AttackPlan, defender: Combatant, location_key: str) -> int:
    """The armor's DR a blow meets at ``location_key``: its uniform DR, exactly as
    ``roll_damage`` and the located wounds (as ``armor_dr``) take it; a located
    wound adds the location's own DR itself (``assess_wound``)."""
    armor = defender.fighter.armor
    return armor.dr if armor is not None else 0


def located_wounds(
    plan: AttackPlan, defender: Combatant, ruleset: Tables, key: str
) -> Mapping[tuple[int, frozenset[WoundCondition]], Fraction]:
    """A blow landing at ``key`` of the battle's hit location system, as
    ``resolve_attack`` wounds it: every damage total through the system's
    ``assess_wound`` (armor DR + the location's DR, crippling caps, excess lost,
    multipliers: the HP actually lost) and every outcome of the wound's own rolls.
    Returns (HP lost, the wound's conditions that change the state -
    ``attack_steps.STATE_CONDITIONS``, read by ``wound_status``, and a paralysis
    at neck level, which takes the fighter out) -> chance."""
    system = ruleset.hit_locations
    # A random location's rolled side changes no HP nor state: it is not counted.
    side = limb_side(plan, system, defender)
    if side is None and not plan.options.random_location:
        side = table_side(system, key, defender)
    inputs = wound_inputs(
        defender,
        key,
        plan.damage_spec.type,
        side,
        swung=plan.mode.is_swing,
        from_back=plan.arc is Arc.REAR,
        chink=plan.options.chink,
    )
    return _located_wounds(
        ByIdentity(system), inputs, plan.damage_dice, plan.damage_spec.factor
    )


@functools.cache
def _located_wounds(
    system: ByIdentity[LocationRules], inputs: WoundInputs, dice: Dice, factor: Fraction
) -> Mapping[tuple[int, frozenset[WoundCondition]], Fraction]:
    """The damage step on every way its dice fall, each basic damage's wound
    (``WoundInputs.assess``) and every outcome of its required rolls that can
    change the state. Counted in ways (one denominator: the damage dice's and 216
    per roll of the longest such chain), so that no Fraction is reduced along the
    way."""
    # (ways of the damage, HP lost, automatic conditions, state rolls kept, their ways)
    parts: list[
        tuple[int, int, frozenset[WoundCondition], int, Mapping[Conditions, int], Conditions]
    ] = []
    longest = 0
    damage_ways = SIDES**dice.count
    for basic, p in _basic_damage(dice, factor).items():
        a = inputs.assess(system.value, basic)
        made, counts = _required_rolls_ways(_state_rolls(a.rolls))
        automatic = a.automatic & KEPT_CONDITIONS
        # a paralysis below the neck leaves the fighter in the fight
        dropped = frozenset() if a.location in NECK_LEVEL else _NOT_AT_NECK
        parts.append((int(p * damage_ways), a.hp_loss, automatic, made, counts, dropped))
        longest = max(longest, made)
    result: dict[tuple[int, frozenset[WoundCondition]], int] = {}
    for ways, hp_loss, automatic, made, counts, dropped in parts:
        scale = ways * WAYS_3D6 ** (longest - made)
        for granted, n in counts.items():
            k = (hp_loss, (automatic | granted) - dropped)
            result[k] = result.get(k, 0) + scale * n
    denominator = damage_ways * WAYS_3D6**longest
    return MappingProxyType({k: Fraction(n, denominator) for k, n in result.items()})


@functools.cache
def _basic_damage(dice: Dice, factor: Fraction) -> Mapping[int, Fraction]:
    """``damage_step`` on every way the dice fall: the basic damage."""
    return exact_outcomes(lambda rng: damage_step(dice, factor, rng)[1])


@functools.cache
def _required_rolls_ways(
    rolls: tuple[RequiredRoll, ...],
) -> tuple[int, Mapping[frozenset[WoundCondition], int]]:
    """A wound's required rolls chained as ``resolve_rolls`` chains them (a roll
    that needs an earlier failure is made only after one), each roll's
    ``roll_required`` enumerated: the conditions that change the state, in ways
    out of 216 per roll (the number of rolls, and the ways: a roll not made
    counts all 216 of them)."""
    State = tuple[frozenset[WoundRollKind], frozenset[WoundCondition]]
    states: dict[State, int] = {(frozenset(), frozenset()): 1}
    for req in rolls:
        # roll_required reads neither the kind nor the chain: one enumeration each.
        alike = replace(req, kind=_SHAPE_KIND, requires_failed=None)
        branches = [(k, int(p * WAYS_3D6)) for k, p in _required_roll_odds(alike).items()]
        nxt: dict[State, int] = {}
        for (failed, conds), n in states.items():
            if req.requires_failed is not None and req.requires_failed not in failed:
                nxt[(failed, conds)] = nxt.get((failed, conds), 0) + n * WAYS_3D6
                continue
            for (fails, got), ways in branches:
                k = (failed | {req.kind} if fails else failed, conds | got)
                nxt[k] = nxt.get(k, 0) + n * ways
        states = nxt
    counts: dict[frozenset[WoundCondition], int] = {}
    for (_failed, conds), n in states.items():
        counts[conds] = counts.get(conds, 0) + n
    return len(rolls), MappingProxyType(counts)


WAYS_3D6 = 6**3
Conditions = frozenset[WoundCondition]
# What the odds keep of a wound's conditions: those that change the state, and a
# paralysis, which takes a fighter out when the wound is at neck level (note 17).
KEPT_CONDITIONS = STATE_CONDITIONS | {WoundCondition.PARALYZED}
_NOT_AT_NECK = frozenset({WoundCondition.PARALYZED})
# Stands in for every required roll's own citation in ``_state_shape``.
_SHAPE_CITATION = cite("000", "RANDOM BODY HIT")
_SHAPE_KIND = WoundRollKind.KNOCKOUT  # ... and for its kind, where only the chain reads it


@functools.cache
def _state_rolls(rolls: tuple[RequiredRoll, ...]) -> tuple[RequiredRoll, ...]:
    """The rolls of a wound that can change the defender's state, as
    ``_state_shape``s: those that grant a state condition, and those a later roll
    needs failed. The rest (a roll against a lung or spleen hit, say) change
    nothing the odds count, whatever they show: each counts 216 ways of 216."""
    needed = {r.requires_failed for r in rolls if r.requires_failed is not None}
    shapes = [_state_shape(r) for r in rolls]
    return tuple(
        [
            r
            for r in shapes
            if r.on_failure or r.on_critical_failure or r.on_failure_by or r.kind in needed
        ]
    )


def _state_shape(req: RequiredRoll) -> RequiredRoll:
    """``req`` with only what the odds read of it: its kind and chain, its target
    (with ``critical_only`` and ``failure_margin``) and the conditions it grants
    that change the state. The many rolls that differ
    only in their reason, citation, limb or lasting conditions (a 000 random
    location's wounds on each damage total) are then enumerated once, cold."""
    return replace(
        req,
        citation=_SHAPE_CITATION,
        reason="",
        limb=None,
        on_failure=req.on_failure & KEPT_CONDITIONS,
        on_critical_failure=req.on_critical_failure & KEPT_CONDITIONS,
        on_failure_by=req.on_failure_by & KEPT_CONDITIONS,
    )


@functools.cache
def _required_roll_odds(
    req: RequiredRoll,
) -> Mapping[tuple[bool, frozenset[WoundCondition]], Fraction]:
    """``roll_required`` on every way its roll falls (read by outcome and what
    it grants): failed, and the conditions it grants that change the state."""

    def rolled(rng: EnumeratingDice) -> tuple[bool, frozenset[WoundCondition]]:
        outcome = roll_required(req, rng)
        return outcome.failed, outcome.conditions & KEPT_CONDITIONS

    return exact_outcomes(rolled, by_reads=True)


def mix(weighted: Iterable[tuple[Fraction, Mapping[K, Fraction]]]) -> Mapping[K, Fraction]:
    """``sum(weight * distribution)``: e.g. the injury over hit locations, each
    location's injury distribution weighted by the chance of hitting it. Keys keep
    their first-seen order; zero entries are dropped."""
    result: dict[K, Fraction] = {}
    for weight, dist in weighted:
        if not weight:
            continue
        for key, p in dist.items():
            result[key] = result.get(key, ZERO) + weight * p
    return MappingProxyType({k: p for k, p in result.items() if p})


# --- the state after the blow -----------------------------------------------------------


def status_distribution(
    injury: Mapping[int, Fraction], hp: int, max_hp: int, ht: int, status: Status
) -> Mapping[Status, Fraction]:
    """The defender's state after a blow whose injury is distributed as
    ``injury``, by ``injury_status`` and its HT rolls (sums to 1)."""
    return mix(
        (p, _status_after(hp, hp - amount, max_hp, ht, status)) for amount, p in injury.items()
    )


@functools.cache
def _status_after(
    hp_before: int, hp_after: int, max_hp: int, ht: int, status: Status
) -> Mapping[Status, Fraction]:
    """``injury_status`` on every way its HT rolls fall (it reads their outcomes
    only)."""
    return exact_outcomes(
        lambda rng: injury_status(hp_before, hp_after, max_hp, ht, status, rng)[0],
        by_reads=True,
    )
