"""Odds before the roll: the exact chance of every way an attack can go.

``attack_odds(plan, attacker, defender, ruleset)`` takes an ``AttackPlan`` from
``rules.sets.seed000.attack.plan_attack`` and returns an ``AttackOdds``: exact ``Fraction``s,
obtained by enumerating the dice, never by sampling. It follows
``rules.sets.seed000.attack.resolve_attack`` step by step (docs/odds.md):

1. 000 disarm: the Quick Contest replaces the rest (``rules.sets.seed000.disarm``'s exact
   distribution at the levels of ``AttackPlan.contest``): HIT, CRITICAL_MISS or
   MISSED.
2. The attack roll, total by total (``rules.sets.seed000.checks.judge``). A critical failure
   of a reliable weapon or at base skill over 15 stands only if the confirming
   rolls fail (``critical_miss_happens_probability``), else it is a plain miss. A
   plain failure under the 000 table may still land (a near miss, a miss only
   because of the aim: ``missed_location``) and goes on to the defenses.
3. The announced defenses in order until one succeeds; their scores are fixed by
   the plan, so the rolls are independent. An acrobatic dodge mixes the two
   dodge scores its Acrobatics roll can give.
4. A blow that lands: on a weapon, no injury; on a key of the battle's hit
   location system or a random location (mixed by the system's exact
   distribution), the located wound of every damage total (``assess_wound``: HP
   actually lost) and every outcome of its rolls; otherwise the uniform torso
   damage (``penetrating_damage`` / ``injury_from``, as ``roll_damage``).
5. The defender's state: ``rules.sets.seed000.damage.injury_status`` run with scripted dice
   on every branch of its HT rolls, overridden by the state a located wound
   forces, as ``resolve_attack`` does.

The module rolls nothing and changes nothing; it is cheap enough to run on every
change of the attack pane (about 1 ms warm, 15 ms cold for a random swing;
docs/odds.md).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from hexmap import Arc, Handedness
from rules.battle.model import Combatant, DamageType, Status
from rules.core.dice import Dice, dice_distribution, distribution
from rules.core.errors import IllegalAttackError
from rules.sets.seed000.attack import (
    PARRYING_LIMB,
    AttackPlan,
    WeaponAttack,
    covered_keys,
    plan_attack,
)
from rules.sets.seed000.attack_events import AttackOutcome
from rules.sets.seed000.checks import (
    Outcome,
    RollKind,
    judge,
    outcome_probabilities,
    success_probability,
)
from rules.sets.seed000.critical_misses import HIGH_SKILL, critical_miss_happens_probability
from rules.sets.seed000.damage import WoundingTable, injury_from, injury_status, penetrating_damage
from rules.sets.seed000.defense import DefensePlan
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.disarm import DisarmOutcome, contest_outcome_distribution
from rules.sets.seed000.hit_location import (
    HitLocationSystem,
    resolve_table_side,
)
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.stances import (
    ACROBATIC_FAILURE_PENALTY,
    ACROBATIC_SUCCESS_BONUS,
    DODGE_CAP,
    BodySide,
    acrobatics_skill_of,
    weapon_side,
)
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.weapon_strikes import RulesSource
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from rules.sets.seed000.wound_effects import RequiredRoll, Victim
from rules.sets.seed000.wound_effects import RollKind as WoundRollKind
from rules.sets.seed000.wound_effects import (
    _outcome as wound_roll_outcome,  # resolve_rolls' own grant
)

__all__ = [
    "AttackOdds",
    "BlowOdds",
    "DefenseOdds",
    "attack_odds",
    "blow_odds",
    "defense_roll_odds",
    "injury_distribution",
    "located_wounds",
    "location_dr",
    "location_weights",
    "missed_location",
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
    if plan.options.weapon_attack is WeaponAttack.DISARM and (
        ruleset.weapon_rules is RulesSource.SEED_000
    ):
        return _disarm_odds(plan, attacker, defender)

    # The attack roll, total by total: a failure may still land (000 table only).
    critical_hit = plain = miss = critical_fail = stray = ZERO
    shifted: dict[str, Fraction] = {}  # a failed roll that goes on to the defenses, by key
    for total, p in distribution(3).items():
        outcome = judge(total, plan.effective_skill, RollKind.STANDARD)
        if outcome is Outcome.CRITICAL_SUCCESS:
            critical_hit += p
        elif outcome is Outcome.SUCCESS:
            plain += p
        elif outcome is Outcome.CRITICAL_FAILURE:
            critical_fail += p
        else:
            to = missed_location(plan, total, ruleset)
            if to is None:
                miss += p
                if plan.options.obscured_by is not None and total <= min(
                    9, plan.effective_skill - plan.location.penalty
                ):
                    stray += p  # 000 MISSING A SPECIFIC HIT LOCATION: the one in the way
            else:
                shifted[to] = shifted.get(to, ZERO) + p
    # 000 VERIFYING / AVOIDING CRITICAL MISSES: a confirmed miss stays critical.
    confirmed = ONE
    if plan.weapon.reliable or plan.base_skill > HIGH_SKILL:
        confirmed = critical_miss_happens_probability(
            plan.base_skill, reliable=plan.weapon.reliable
        )
    avoided = critical_fail * (ONE - confirmed)
    p_shifted = sum(shifted.values(), ZERO)

    # A plain success (or a miss that still lands): the defenses in order until one
    # succeeds. A defense's success does not depend on why the blow is coming.
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
    return AttackOdds(
        effective_skill=plan.effective_skill,
        p_critical_hit=critical_hit,
        p_hit=reaching,
        p_stopped_by=tuple(d.p_stopped for d in defenses),
        p_miss=miss + avoided,
        p_critical_miss=critical_fail * confirmed,
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


def missed_location(plan: AttackPlan, total: int, ruleset: Tables) -> str | None:
    """Where an attack that failed (not critically) with ``total`` still goes on to
    the defenses, as ``resolve_attack`` decides it: 000 NEAR MISSES (missed by 1
    at the head/brain swung, the vitals impaling -> the shoulder) or 000 MISSING
    A SPECIFIC HIT LOCATION (missed only because of the aim), as the hit location
    system decides (``missed_aim``, shared with the resolution); None: a plain
    miss."""
    key = plan.hit_location
    if key is None:
        return None
    shifted = ruleset.hit_locations.missed_aim(
        key, total, plan.effective_skill, plan.location.penalty, plan.damage_spec.type,
        plan.mode.is_swing,
    )  # fmt: skip
    return None if shifted is None else shifted[0]


def defense_roll_odds(
    plan: AttackPlan, d: DefensePlan, defender: Combatant
) -> tuple[Mapping[Outcome, Fraction], Fraction | None]:
    """The outcome chances of one announced defense roll and, for an acrobatic
    dodge, the chance its Acrobatics roll succeeded (000 ACROBATIC DODGE: +2, not
    above 16, or -4 to the dodge, rolled first)."""
    if not (d.kind is DefenseKind.DODGE and plan.options.acrobatic_dodge):
        return outcome_probabilities(d.value, RollKind.DEFENSE), None
    skill = acrobatics_skill_of(defender.fighter)
    if skill is None:  # plan_attack refuses it; resolve_attack would raise
        raise IllegalAttackError(f"{defender.name} has no Acrobatics skill")
    p = success_probability(skill)
    bonus = max(0, min(ACROBATIC_SUCCESS_BONUS, DODGE_CAP - d.value))
    up = outcome_probabilities(d.value + bonus, RollKind.DEFENSE)
    down = outcome_probabilities(d.value + ACROBATIC_FAILURE_PENALTY, RollKind.DEFENSE)
    return MappingProxyType({o: p * up[o] + (ONE - p) * down[o] for o in Outcome}), p


def _disarm_odds(plan: AttackPlan, attacker: Combatant, defender: Combatant) -> AttackOdds:
    """000 DISARMING AN OPPONENT: the Quick Contest replaces the attack and the
    defenses (both 3d6 enumerated by ``rules.sets.seed000.disarm``), at exactly the levels of
    ``plan.contest`` that ``resolve_attack`` rolls against."""
    contest = plan.contest
    assert contest is not None
    dist = contest_outcome_distribution(
        contest.attacker.level, contest.defender.level, RulesSource.SEED_000
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
    injury_parts: list[tuple[Fraction, Mapping[int, Fraction]]] = []
    joint: dict[tuple[int, Status | None], Fraction] = {}  # (injury, wound state) -> p
    for weight, aim in aims:
        weights = location_weights(plan, defender, ruleset, aim)
        if not weights:  # the uniform torso damage (legacy keys, 000 unaimed)
            dist = injury_distribution(
                plan.damage_dice,
                plan.damage_spec.type,
                location_dr(plan, defender, plan.location.key),
                ruleset.wounding,
            )
            injury_parts.append((weight, dist))
            for amount, p in dist.items():
                joint[(amount, None)] = joint.get((amount, None), ZERO) + weight * p
            continue
        for key, lp in weights.items():
            for (amount, forced), p in located_wounds(plan, defender, ruleset, key).items():
                w = weight * lp * p
                joint[(amount, forced)] = joint.get((amount, forced), ZERO) + w
    injury_acc: dict[int, Fraction] = {}
    for (amount, _forced), p in joint.items():
        injury_acc[amount] = injury_acc.get(amount, ZERO) + p
    injury = MappingProxyType(dict(sorted((k, v) for k, v in injury_acc.items() if v)))
    status_acc: dict[Status, Fraction] = {}
    ht = sheet_of(f).attributes.ht
    for (amount, forced), p in joint.items():
        after = _status_after(defender.hp, defender.hp - amount, f.hit_points, ht, defender.status)
        for s, ps in after.items():
            final = _wound_state(s, forced)
            status_acc[final] = status_acc.get(final, ZERO) + p * ps
    status = MappingProxyType({s: p for s, p in status_acc.items() if p})
    return BlowOdds(injury, status)


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
) -> Mapping[tuple[int, Status | None], Fraction]:
    """A blow landing at ``key`` of the battle's hit location system, as
    ``resolve_attack`` wounds it: every damage total through the system's
    ``assess_wound`` (armor DR + the location's DR, crippling caps, excess lost,
    multipliers: the HP actually lost) and every outcome of the wound's own rolls.
    Returns (HP lost, the state the wound forces - DEAD, UNCONSCIOUS, STUNNED or
    None) -> chance."""
    system = ruleset.hit_locations
    f = defender.fighter
    side: BodySide | None = None  # a random location's side changes no HP nor state
    if plan.location.key == PARRYING_LIMB:
        side = weapon_side(defender.handedness)
    elif system.shield_limb(plan.location.key) is not None:
        side = weapon_side(defender.handedness).other
    elif not plan.options.random_location:
        table_side = system.locations[key].side
        if table_side is not None:
            side = resolve_table_side(
                table_side,
                shield_side_near=False,
                shielded=True,
                side_die=None,
                left_handed=defender.handedness is Handedness.LEFT,
            )
    victim = Victim.of(f)
    _SYSTEMS[id(system)] = system
    return _located_wounds(
        id(system),
        key,
        plan.damage_dice,
        plan.damage_spec.type,
        victim,
        location_dr(plan, defender, key),
        side,
        plan.mode.is_swing,
        plan.arc is Arc.REAR,
        plan.options.chink,
    )


_SYSTEMS: dict[int, HitLocationSystem] = {}  # keeps the cached systems (and ids) alive


@functools.cache
def _located_wounds(
    system_id: int,
    key: str,
    dice: Dice,
    damage_type: DamageType,
    victim: Victim,
    armor_dr: int,
    side: BodySide | None,
    swung: bool,
    from_back: bool,
    chink: bool,
) -> Mapping[tuple[int, Status | None], Fraction]:
    system = _SYSTEMS[system_id]
    result: dict[tuple[int, Status | None], Fraction] = {}
    for basic, p in dice_distribution(dice, 0).items():
        a = system.assess_wound(
            key,
            damage_type,
            basic,
            victim,
            armor_dr=armor_dr,
            side=side,
            swung=swung,
            from_back=from_back,
            chink=chink,
        )
        for forced, pf in _forced_states(a.rolls, a.automatic).items():
            k = (a.hp_loss, forced)
            result[k] = result.get(k, ZERO) + p * pf
    return MappingProxyType(result)


_DEADLY = frozenset({WoundCondition.DEAD, WoundCondition.DECAPITATED})


def _forced(conditions: frozenset[WoundCondition]) -> Status | None:
    """The state a wound's conditions force, by ``resolve_attack``'s precedence."""
    if conditions & _DEADLY:
        return Status.DEAD
    if WoundCondition.UNCONSCIOUS in conditions:
        return Status.UNCONSCIOUS
    if WoundCondition.STUNNED in conditions:
        return Status.STUNNED
    return None


def _wound_state(status: Status, forced: Status | None) -> Status:
    """``injury_status``'s result overridden by the wound, as ``resolve_attack``."""
    if forced is Status.DEAD:
        return Status.DEAD
    if forced is Status.UNCONSCIOUS and status is not Status.DEAD:
        return Status.UNCONSCIOUS
    if forced is Status.STUNNED and status is Status.ACTIVE:
        return Status.STUNNED
    return status


@functools.cache
def _forced_states(
    rolls: tuple[RequiredRoll, ...], automatic: frozenset[WoundCondition]
) -> Mapping[Status | None, Fraction]:
    """``resolve_rolls`` enumerated: every 3d6 total of every roll it makes (a roll
    needing an earlier failure only after one), each outcome's conditions as
    ``resolve_rolls`` grants them; reduced to the state they force."""
    State = tuple[frozenset[WoundRollKind], frozenset[WoundCondition]]
    states: dict[State, Fraction] = {(frozenset(), automatic & _RELEVANT): ONE}
    for req in rolls:
        branches = _roll_branches(req)
        nxt: dict[State, Fraction] = {}
        for (failed, conds), p in states.items():
            if req.requires_failed is not None and req.requires_failed not in failed:
                nxt[(failed, conds)] = nxt.get((failed, conds), ZERO) + p
                continue
            for (fails, got), pb in branches.items():
                k = (failed | {req.kind} if fails else failed, conds | got)
                nxt[k] = nxt.get(k, ZERO) + p * pb
        states = nxt
    result: dict[Status | None, Fraction] = {}
    for (_failed, conds), p in states.items():
        forced = _forced(conds)
        result[forced] = result.get(forced, ZERO) + p
    return MappingProxyType(result)


_RELEVANT = _DEADLY | {WoundCondition.UNCONSCIOUS, WoundCondition.STUNNED}


@functools.cache
def _roll_branches(req: RequiredRoll) -> Mapping[tuple[bool, frozenset[WoundCondition]], Fraction]:
    """One wound roll, its 16 totals grouped by (failed, the conditions that can
    force a state) - what ``resolve_rolls`` grants each total."""
    result: dict[tuple[bool, frozenset[WoundCondition]], Fraction] = {}
    for total, p in distribution(3).items():
        outcome = judge(total, req.target)
        got = wound_roll_outcome(req, (), total, outcome).conditions & _RELEVANT
        k = (not outcome.is_success, got)
        result[k] = result.get(k, ZERO) + p
    return MappingProxyType(result)


def injury_distribution(
    dice: Dice, damage_type: DamageType, dr: int, wounding: WoundingTable
) -> Mapping[int, Fraction]:
    """The exact injury of ``dice`` of ``damage_type`` against ``dr`` (sums to 1,
    ascending): every total of the damage roll (floored at 0, as ``roll_damage``
    rolls it) through ``penetrating_damage`` and ``injury_from``."""
    return _injury_distribution(dice, dr, wounding.multiplier(damage_type), wounding.minimum_injury)


@functools.cache
def _injury_distribution(
    dice: Dice, dr: int, multiplier: Fraction, minimum: int
) -> Mapping[int, Fraction]:
    result: dict[int, Fraction] = {}
    for basic, p in dice_distribution(dice, 0).items():
        injury = injury_from(penetrating_damage(basic, dr), multiplier, minimum)
        result[injury] = result.get(injury, ZERO) + p
    return MappingProxyType(dict(sorted(result.items())))


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


class _OutOfDice(Exception):
    pass


class _Branch:
    """Dice that make each success roll come out as scripted: 1+1+1 (a success
    at any target) or 6+6+6 (a failure at any target)."""

    def __init__(self, successes: tuple[bool, ...]) -> None:
        self._faces = [f for ok in successes for f in ((1, 1, 1) if ok else (6, 6, 6))]
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        if self.used >= len(self._faces):
            raise _OutOfDice
        face = self._faces[self.used]
        self.used += 1
        return face


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
    """``injury_status`` enumerated: it only asks whether each HT roll succeeded,
    so it is run once per branch of successes and failures, extending a branch
    whenever it wants one more roll; a branch weighs the exact chance of its
    rolls' outcomes at the targets (and criticals) the rolls record."""
    result: dict[Status, Fraction] = {}
    pending: list[tuple[bool, ...]] = [()]
    while pending:
        branch = pending.pop()
        rng = _Branch(branch)
        try:
            after, rolls, _outright = injury_status(hp_before, hp_after, max_hp, ht, status, rng)
        except _OutOfDice:
            pending += [(*branch, True), (*branch, False)]
            continue
        if rng.used != 3 * len(branch) or len(rolls) != len(branch):
            raise AssertionError("injury_status rolled other than one 3d6 per status roll")
        weight = ONE
        for ok, r in zip(branch, rolls, strict=True):
            if r.roll.succeeded is not ok:
                raise AssertionError("a scripted status roll came out the other way")
            p = success_probability(r.roll.target, r.roll.kind)
            weight *= p if ok else ONE - p
        if weight:
            result[after] = result.get(after, ZERO) + weight
    return MappingProxyType(result)
