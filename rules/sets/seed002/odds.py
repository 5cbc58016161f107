"""Exact odds of a seed 002 attack: the attack's and the defense's success
levels, each by counting the 100 faces of its d100, combined through the
result matrix (``attack.outcome_keys``). The lines sum to 1."""

from __future__ import annotations

from fractions import Fraction

from rules.sets.seed002.attack import DefenseKind, Plan, outcome_keys
from rules.sets.seed002.success import level_probabilities
from rules.sets.seed002.tables import Level

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
