"""Seed 000's dice steps enumerated alone, for the tests of their odds: each runs
the rules' own step on every way its dice can fall (nothing here computes a
chance by hand)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from rules.battle.model import Combatant, Status
from rules.core.enumerate import EnumeratingDice, exact_outcomes
from rules.sets.seed000.attack import AttackPlan, roll_attack
from rules.sets.seed000.checks import Outcome
from rules.sets.seed000.damage import injury_status
from rules.sets.seed000.dice_steps import (
    AttackRollDecision,
    AttackRollInputs,
    DefenseInputs,
    attack_roll_step,
    defense_step,
)
from rules.sets.seed000.location_rules import LocationRules
from rules.sets.seed000.odds import mix
from rules.sets.seed000.tables import Tables


def attack_roll_odds(
    inputs: AttackRollInputs, system: LocationRules, *, by_reads: bool = True
) -> Mapping[AttackRollDecision, Fraction]:
    """``attack_roll_step``'s decision on every way its dice fall."""
    return exact_outcomes(
        lambda dice: attack_roll_step(inputs, system, dice).decision, by_reads=by_reads
    )


def defense_step_odds(inputs: DefenseInputs) -> Mapping[tuple[Outcome, bool | None], Fraction]:
    """``defense_step``'s outcome and Acrobatics success on every way its dice fall."""
    return exact_outcomes(lambda dice: defense_step(inputs, dice).decision, by_reads=True)


def status_distribution(
    injury: Mapping[int, Fraction], hp: int, max_hp: int, ht: int, status: Status
) -> Mapping[Status, Fraction]:
    """The state after a blow whose injury is distributed as ``injury``:
    ``injury_status`` on every way its HT rolls fall, for each injury."""
    return mix(
        (
            p,
            exact_outcomes(
                lambda rng, lost=amount: injury_status(hp, hp - lost, max_hp, ht, status, rng)[0],
                by_reads=True,
            ),
        )
        for amount, p in injury.items()
    )


def aimed_blow_injury(
    plan: AttackPlan, attacker: Combatant, defender: Combatant, ruleset: Tables
) -> dict[int, Fraction]:
    """The injury of a blow of ``plan`` that lands where it was aimed (a miss
    that lands elsewhere left out): ``roll_attack`` on every way the dice fall."""

    def run(dice: EnumeratingDice) -> int | None:
        r = roll_attack(plan, attacker, defender, dice, ruleset)
        if r.damage is None or r.hit_location != plan.hit_location:
            return None
        return r.damage.injury

    seen = exact_outcomes(run, by_reads=True)
    landed = sum((p for k, p in seen.items() if k is not None), Fraction(0))
    return {k: p / landed for k, p in seen.items() if k is not None}
