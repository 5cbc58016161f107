"""Exact odds of a seed 002 attack: the attack's and the defense's success
levels, each by counting the 100 faces of its d100, combined through the
result matrix (``attack.outcome_keys``). The lines sum to 1. ``harm_odds`` adds
every damage die: the chances of a kill and of a major wound."""

from __future__ import annotations

from fractions import Fraction

from rules.sets.seed002.attack import (
    DefenseKind,
    Plan,
    maximum_damage,
    outcome_keys,
    rolled_damage_distribution,
    taken_damage,
)
from rules.sets.seed002.success import level_probabilities
from rules.sets.seed002.tables import LOCATION_DIE, Level, hit_locations
from rules.sets.seed002.wounds import is_major

ODDS_ORDER = (
    "critical hit",
    "critical hit, defender fumbles",
    "hit",
    "hit, defender fumbles",
    "half damage",
    "avoided",
    "miss",
    "attacker fumbles",
)


def attack_odds(plan: Plan) -> dict[str, Fraction]:
    """Each outcome of ``ODDS_ORDER`` with its exact chance (0 ones left out)."""
    attack = level_probabilities(plan.attack_skill, plan.automatic)
    if plan.defense is DefenseKind.NONE:
        defense = {Level.FAILURE: Fraction(1)}
    else:
        defense = {k: v for k, v in level_probabilities(plan.defense_skill).items() if v}
    out = dict.fromkeys(ODDS_ORDER, Fraction(0))
    for a, pa in attack.items():
        if not pa:
            continue
        if not a.succeeded:
            out[outcome_keys(plan, a, Level.FAILURE)] += pa
            continue
        for d, pd in defense.items():
            out[outcome_keys(plan, a, d)] += pa * pd
    return {k: v for k, v in out.items() if v}


def armour_distribution(plan: Plan) -> dict[int, Fraction]:
    """The armour points a blow meets: the overall ones, or with hit locations
    those of each location by its faces of the d20."""
    if not plan.locations:
        return {plan.armour: Fraction(1)}
    out: dict[int, Fraction] = {}
    for where in hit_locations():
        p = Fraction(where.high - where.low + 1, LOCATION_DIE)
        armour = plan.armour_at(where.key)
        out[armour] = out.get(armour, Fraction(0)) + p
    return out


def harm_odds(plan: Plan) -> tuple[Fraction, Fraction]:
    """The exact chances that the attack kills the defender and that it deals a
    major wound (a blow of at least the Major Wound Level that does not kill),
    over both d100s and every damage die."""
    outcomes = attack_odds(plan)
    rolled = rolled_damage_distribution(plan)
    hp, max_hp = plan.defender.hp, plan.defender.fighter.hit_points
    kill = major = Fraction(0)
    for label, p in outcomes.items():
        if label.startswith("critical hit"):
            damage = {maximum_damage(plan): Fraction(1)}
        elif label.startswith("hit") or label == "half damage":
            damage = {}
            for armour, r in armour_distribution(plan).items():
                for value, q in rolled.items():
                    taken = taken_damage(value, armour, label == "half damage")
                    damage[taken] = damage.get(taken, Fraction(0)) + q * r
        else:
            continue
        for taken, q in damage.items():
            if taken >= hp:
                kill += p * q
            elif is_major(taken, max_hp):
                major += p * q
    return kill, major
