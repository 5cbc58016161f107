"""Seed 000's tables for the panes that show seed 000's numbers.

Seed 000's attack pane and inspector section lay out its plans, odds and
defenses. The battle state names its ruleset; the registry gives it as a
``Ruleset``, and this is the one place that narrows it to seed 000's ``Tables``,
so another ruleset gets a clear refusal instead of a missing attribute."""

from __future__ import annotations

from rules.battle.attack_steps import AttackSteps
from rules.battle.state import BattleState
from rules.core.errors import RulesError
from rules.sets.registry import ruleset_of
from rules.sets.seed000.attack import AttackOptions, Seed000Answer
from rules.sets.seed000.attack_steps import Plan000, Seed000Payload
from rules.sets.seed000.ruleset import Seed000
from rules.sets.seed000.tables import Tables


def seed000_tables(state: BattleState) -> Tables:
    """The battle's ruleset as seed 000's tables; ``RulesError`` for another ruleset."""
    ruleset = ruleset_of(state)
    if not isinstance(ruleset, Tables):
        raise RulesError(f"ruleset {ruleset.key!r} has no seed 000 tables to show")
    return ruleset


def seed000_steps(
    state: BattleState,
) -> AttackSteps[AttackOptions, Seed000Answer, Plan000, Seed000Payload]:
    """The battle's own seed 000 attack steps (the object the roll plans with, so
    that a preview's plan is the roll's: ``planned``); ``RulesError`` for another
    ruleset."""
    ruleset = ruleset_of(state)
    if not isinstance(ruleset, Seed000):
        raise RulesError(f"ruleset {ruleset.key!r} has no seed 000 attack to plan")
    return ruleset.steps
