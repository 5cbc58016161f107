"""Odds before the roll: the exact chance of every way an attack can go.

``attack_odds(plan, attacker, defender, ruleset)`` takes an ``AttackPlan`` from
``rules.sets.seed000.attack.plan_attack`` and returns an ``AttackOdds``: exact
``Fraction``s, never sampled. It has no rules of its own: it runs
``roll_attack``, the rolling code of ``Seed000Steps.decide``, on every way the dice
can fall (``rules.core.enumerate.exact_outcomes``) and reads each resolution
(``resolution_odds``); the attack pane's odds run ``decide`` itself so
(``rules.sets.seed000.attack_steps.preview_odds``).

A roll branches once per value of what the resolver reads of it (a defense roll:
its outcome), and the wound's rolls of one blow once per wound they make
(``rules.core.dice.run_merged``), so an attack takes hundreds of runs of the
resolver, not the millions of ways its dice fall (docs/odds.md, "Speed").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TypeVar

from rules.battle.model import Combatant, Status
from rules.core.dice import DiceSource
from rules.core.enumerate import exact_outcomes
from rules.core.errors import IllegalAttackError
from rules.sets.seed000.attack import AttackPlan, AttackResolution, plan_attack, roll_attack
from rules.sets.seed000.attack_events import AttackOutcome
from rules.sets.seed000.checks import Outcome
from rules.sets.seed000.defense import DefensePlan
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.tables import Tables

__all__ = [
    "AttackOdds",
    "BlowOdds",
    "DefenseOdds",
    "attack_odds",
    "location_dr",
    "mix",
    "percent",
    "resolution_odds",
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
    # the defender's state after the attack, over every outcome (sums to 1)
    status_after: Mapping[Status, Fraction]
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
    """The exact odds of ``plan``: ``roll_attack``, the rolls of ``decide``, run
    on every way the dice can fall.

    With ``check`` (the default) the plan is recomputed and compared, as
    ``resolve_attack`` does, and a stale plan raises ``IllegalAttackError``.
    """
    if check and plan_attack(attacker, defender, plan.options, ruleset) != plan:
        raise IllegalAttackError("the attack plan no longer matches the combatants")
    return resolution_odds(
        lambda dice: roll_attack(plan, attacker, defender, dice, ruleset), plan, defender
    )


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the odds read of one resolution."""

    outcome: AttackOutcome
    stopped: int  # the index of the defense that stopped the blow, or -1
    defenses: tuple[tuple[Outcome, bool | None], ...]  # each rolled: outcome, Acrobatics
    body_blow: bool  # a blow landed on the defender's body
    injury: int
    status: Status  # the defender's, after everything
    shifted: bool
    stray: bool
    critical_miss_avoided: bool


def _seen(r: AttackResolution) -> _Seen:
    step = r.attack_step
    stopped = len(r.defense_rolls) - 1 if r.outcome is AttackOutcome.DEFENDED else -1
    defenses = tuple(
        (d.outcome, None if d.acrobatic is None else d.acrobatic.decision[1])
        for d in r.defense_rolls
    )
    return _Seen(
        r.outcome,
        stopped,
        defenses,
        r.damage is not None and r.plan.target_weapon is None,
        0 if r.damage is None else r.damage.injury,
        r.defender_after.status,
        step is not None and step.shifted is not None,
        step is not None and step.stray,
        step is not None
        and step.confirming is not None
        and not step.confirming.happens
        and r.outcome is AttackOutcome.MISSED,
    )


def resolution_odds(
    run: Callable[[DiceSource], AttackResolution], plan: AttackPlan, defender: Combatant
) -> AttackOdds:
    """The odds of the resolutions ``run`` gives on every way the dice can fall
    (``rules.core.enumerate.exact_outcomes``, each roll branching on what the
    resolver reads of it and each merged step on its result)."""
    seen = exact_outcomes(lambda dice: _seen(run(dice)), by_reads=True)
    outcomes = dict.fromkeys(AttackOutcome, ZERO)
    defenses = [
        dict.fromkeys(("rolled", "stopped", "critical", "fumbled", "acro"), ZERO)
        for _ in plan.defenses
    ]
    injury: dict[int, Fraction] = {}
    blow_status: dict[Status, Fraction] = {}
    status: dict[Status, Fraction] = {}
    landed = shifted = stray = avoided = ZERO
    for k, p in seen.items():
        outcomes[k.outcome] += p
        for i, (rolled, acrobatic) in enumerate(k.defenses):
            d = defenses[i]
            d["rolled"] += p
            if i == k.stopped:
                d["stopped"] += p
                d["critical"] += p if rolled is Outcome.CRITICAL_SUCCESS else ZERO
            d["fumbled"] += p if rolled is Outcome.CRITICAL_FAILURE else ZERO
            d["acro"] += p if acrobatic else ZERO
        if k.body_blow:
            landed += p
            injury[k.injury] = injury.get(k.injury, ZERO) + p
            blow_status[k.status] = blow_status.get(k.status, ZERO) + p
        status[k.status] = status.get(k.status, ZERO) + p
        shifted += p if k.shifted else ZERO
        stray += p if k.stray else ZERO
        avoided += p if k.critical_miss_avoided else ZERO
    if landed:
        blow = BlowOdds(
            MappingProxyType({i: q / landed for i, q in sorted(injury.items())}),
            MappingProxyType({s: q / landed for s, q in blow_status.items()}),
        )
    else:
        blow = _no_blow(defender)
    return AttackOdds(
        effective_skill=plan.effective_skill,
        p_critical_hit=outcomes[AttackOutcome.CRITICAL_HIT],
        p_hit=outcomes[AttackOutcome.HIT],
        p_stopped_by=tuple(d["stopped"] for d in defenses),
        p_miss=outcomes[AttackOutcome.MISSED],
        p_critical_miss=outcomes[AttackOutcome.CRITICAL_MISS],
        defenses=tuple(
            DefenseOdds(
                plan=dp,
                p_rolled=d["rolled"],
                p_stopped=d["stopped"],
                p_critical_success=d["critical"],
                p_critical_failure=d["fumbled"],
                p_acrobatic_success=(d["acro"] / d["rolled"] if d["rolled"] else None)
                if dp.kind is DefenseKind.DODGE and plan.options.acrobatic_dodge
                else None,
            )
            for dp, d in zip(plan.defenses, defenses, strict=True)
        ),
        blow=blow,
        hp_before=defender.hp,
        max_hp=defender.fighter.hit_points,
        status_before=defender.status,
        p_shifted=shifted,
        p_critical_miss_avoided=avoided,
        target="contest"
        if plan.contest is not None
        else ("body" if plan.target_weapon is None else "weapon"),
        p_stray_blow=stray,
        status_after=MappingProxyType({s: q for s, q in status.items() if q}),
    )


def _no_blow(defender: Combatant) -> BlowOdds:
    return BlowOdds(MappingProxyType({0: ONE}), MappingProxyType({defender.status: ONE}))


def location_dr(plan: AttackPlan, defender: Combatant, location_key: str) -> int:
    """The armor's DR a blow meets at ``location_key``: its uniform DR, exactly as
    ``roll_damage`` and the located wounds (as ``armor_dr``) take it; a located
    wound adds the location's own DR itself (``assess_wound``)."""
    armor = defender.fighter.armor
    return armor.dr if armor is not None else 0


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
