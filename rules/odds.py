"""Odds before the roll: the exact chance of every way an attack can go.

``attack_odds(plan, attacker, defender, ruleset)`` takes an ``AttackPlan`` from
``rules.attack.plan_attack`` and returns an ``AttackOdds``: exact ``Fraction``s,
obtained by enumerating the dice, never by sampling. It follows
``rules.attack.resolve_attack`` step by step:

1. The attack is a standard 3d6 success roll against ``plan.effective_skill``
   (``rules.checks.outcome_probabilities``, which counts the 216 ways 3d6 fall
   through ``judge``). A critical failure is a critical miss, a failure a miss, a
   critical success a critical hit that allows no defense.
2. On a plain success the announced defenses are rolled in the announced order
   (``RollKind.DEFENSE``: 3-4 critical success, 17-18 critical failure) until one
   succeeds. Every defense's score is fixed by the plan (announced means made,
   000 DEFENSES), so the rolls are independent: defense ``i`` is rolled with the
   chance that the attack plainly hit and every earlier defense failed.
3. A blow that lands (critical hit or an undefended hit) rolls the damage dice
   (``rules.dice.dice_distribution`` with the floor of 0, as ``roll_damage``
   rolls them); each total goes through ``penetrating_damage`` and
   ``injury_from`` - the very functions ``roll_damage`` uses - with the DR and
   wounding multiplier ``roll_damage`` takes. A critical hit does normal damage
   for now, as in ``resolve_attack``.
4. The defender's state after the blow enumerates ``rules.damage.injury_status``
   itself: it is run with scripted dice on every branch of its HT rolls (each
   roll either succeeds or fails), each branch weighted by the exact chance of
   that roll's outcome at the target the roll itself records.

Hit locations: ``resolve_attack`` hits the aimed location (or the torso) for
sure and ``roll_damage`` applies one uniform armor DR. The blow is nevertheless
computed as a mixture over locations (``location_weights`` x
``injury_distribution`` at ``location_dr``), so that a random hit location
(``HitLocationSystem.exact_distribution``) or location armor plugs in by
changing those two functions only.

The module rolls nothing and changes nothing; it is cheap enough to run on every
change of the attack pane (well under a millisecond once the caches are warm;
docs/odds.md).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from rules.attack import AttackPlan, plan_attack
from rules.attack_events import AttackOutcome
from rules.checks import Outcome, RollKind, outcome_probabilities, success_probability
from rules.damage import WoundingTable, injury_from, injury_status, penetrating_damage
from rules.defense import DefenseKind, DefensePlan
from rules.dice import dice_distribution
from rules.errors import IllegalAttackError
from rules.model import Combatant, DamageType, Dice, Status
from rules.ruleset import Ruleset

__all__ = [
    "AttackOdds",
    "BlowOdds",
    "DefenseOdds",
    "attack_odds",
    "blow_odds",
    "injury_distribution",
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
    DEFENSE ROLLS: the disaster ``resolve_attack`` logs)."""

    plan: DefensePlan
    p_rolled: Fraction
    p_stopped: Fraction
    p_critical_success: Fraction
    p_critical_failure: Fraction


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

    # --- outcomes ---------------------------------------------------------------
    @property
    def p_damage_lands(self) -> Fraction:
        return self.p_critical_hit + self.p_hit

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
        return self.p_damage_lands * self.blow.expected_injury

    @property
    def injury(self) -> Mapping[int, Fraction]:
        """The injury over every outcome, 0 included (sums to 1)."""
        mixed = mix(
            [(self.p_damage_lands, self.blow.injury), (ONE - self.p_damage_lands, {0: ONE})]
        )
        return MappingProxyType(dict(sorted(mixed.items())))

    def p_injury_at_least(self, amount: int) -> Fraction:
        """The blow lands and does at least ``amount`` injury."""
        return self.p_damage_lands * sum(
            (p for i, p in self.blow.injury.items() if i >= amount), ZERO
        )

    def p_hp_at_most(self, level: int) -> Fraction:
        """The blow lands and leaves the defender at ``level`` HP or less."""
        return self.p_damage_lands * sum(
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
                (self.p_damage_lands, self.blow.status),
                (ONE - self.p_damage_lands, {self.status_before: ONE}),
            ]
        )

    def p_status(self, status: Status) -> Fraction:
        return self.status_after.get(status, ZERO)

    # --- the attack pane ------------------------------------------------------------
    def summary_lines(self) -> tuple[str, ...]:
        """A few short lines for the attack pane."""
        lines = [
            f"Hit {_pct(self.p_damage_lands)} (critical {_pct(self.p_critical_hit)})"
            f" · miss {_pct(self.p_miss + self.p_critical_miss)}"
            f" (critical {_pct(self.p_critical_miss)})"
        ]
        if self.defenses:
            stops = ", ".join(f"{_defense_name(d.plan)} {_pct(d.p_stopped)}" for d in self.defenses)
            lines.append(f"Stopped by {stops}")
        injuries = [i for i, p in self.blow.injury.items() if p]
        lines.append(
            f"Injury if hit {min(injuries)}–{max(injuries)}, "
            f"mean {float(self.expected_injury_given_hit):.1f}"
            f" · overall mean {float(self.expected_injury):.1f}"
        )
        down = f"0 HP or less {_pct(self.p_zero_hp)}" if self.hp_before > 0 else "already at 0 HP"
        changes = [
            f"{s.value} {_pct(self.p_status(s))}"
            for s in (Status.UNCONSCIOUS, Status.DEAD)
            if s is not self.status_before and self.p_status(s)
        ]
        lines.append(" · ".join([down, *changes]))
        return tuple(lines)


def _pct(p: Fraction) -> str:
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
    ruleset: Ruleset,
    *,
    check: bool = True,
) -> AttackOdds:
    """The exact odds of ``plan``, as ``resolve_attack`` would roll it.

    With ``check`` (the default) the plan is recomputed and compared, as
    ``resolve_attack`` does, and a stale plan raises ``IllegalAttackError``.
    """
    if check and plan_attack(attacker, defender, plan.options, ruleset) != plan:
        raise IllegalAttackError("the attack plan no longer matches the combatants")
    attack = outcome_probabilities(plan.effective_skill, RollKind.STANDARD)

    # A plain success: the announced defenses in order until one succeeds.
    reaching = attack[Outcome.SUCCESS]  # the blow is still coming at this defense
    defenses: list[DefenseOdds] = []
    for d in plan.defenses:
        roll = outcome_probabilities(d.value, RollKind.DEFENSE)
        succeeds = roll[Outcome.CRITICAL_SUCCESS] + roll[Outcome.SUCCESS]
        defenses.append(
            DefenseOdds(
                plan=d,
                p_rolled=reaching,
                p_stopped=reaching * succeeds,
                p_critical_success=reaching * roll[Outcome.CRITICAL_SUCCESS],
                p_critical_failure=reaching * roll[Outcome.CRITICAL_FAILURE],
            )
        )
        reaching *= ONE - succeeds

    return AttackOdds(
        effective_skill=plan.effective_skill,
        p_critical_hit=attack[Outcome.CRITICAL_SUCCESS],
        p_hit=reaching,
        p_stopped_by=tuple(d.p_stopped for d in defenses),
        p_miss=attack[Outcome.FAILURE],
        p_critical_miss=attack[Outcome.CRITICAL_FAILURE],
        defenses=tuple(defenses),
        blow=blow_odds(plan, defender, ruleset),
        hp_before=defender.hp,
        max_hp=defender.fighter.hit_points,
        status_before=defender.status,
    )


# --- a blow that lands -------------------------------------------------------------


def blow_odds(plan: AttackPlan, defender: Combatant, ruleset: Ruleset) -> BlowOdds:
    """The injury and the defender's state after a blow of ``plan`` that lands.

    ``resolve_attack`` damages the defender as it is after its defenses were
    recorded; that changes only its turn record and readiness, never its HP,
    state or armor, so ``defender`` itself serves."""
    damage_type = plan.damage_spec.type
    weighted = [
        (
            p,
            injury_distribution(
                plan.damage_dice, damage_type, location_dr(plan, defender, key), ruleset.wounding
            ),
        )
        for key, p in location_weights(plan).items()
    ]
    injury = MappingProxyType(dict(sorted(mix(weighted).items())))
    status = status_distribution(
        injury,
        defender.hp,
        defender.fighter.hit_points,
        defender.fighter.attributes.ht,
        defender.status,
    )
    return BlowOdds(injury, status)


def location_weights(plan: AttackPlan) -> Mapping[str, Fraction]:
    """Where a blow that lands strikes, with its chance. ``resolve_attack`` hits
    the aimed location (the torso when unaimed) for sure; a random hit location
    would return its ``exact_distribution`` here."""
    return MappingProxyType({plan.location.key: ONE})


def location_dr(plan: AttackPlan, defender: Combatant, location_key: str) -> int:
    """The DR a blow meets at ``location_key``: the armor's uniform DR, exactly as
    ``roll_damage`` takes it (location armor would be chosen here)."""
    armor = defender.fighter.armor
    return armor.dr if armor is not None else 0


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


class _Branch(random.Random):
    """Dice that make each success roll come out as scripted: 1+1+1 (a success
    at any target) or 6+6+6 (a failure at any target)."""

    def __init__(self, successes: tuple[bool, ...]) -> None:
        super().__init__(0)
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
