"""Seed 000's attack plan alone, for the benchmark's ``plan_ms_median``
(``app.benchmark``, which finds it by the ruleset's key): the battle's own
planning of one attack (its four steps' ``plan``), without dice, odds or events."""

from __future__ import annotations

from rules.battle.commands import Attack
from rules.battle.state import BattleState
from rules.core.errors import RulesError
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.ruleset import seed000_ruleset


def plan_attack_once(state: BattleState, command: Attack) -> None:
    """Plan ``command`` on ``state`` as the battle would (``IllegalAttackError``
    when the rules refuse it)."""
    choices = command.choices
    if not isinstance(choices, AttackOptions):
        raise RulesError(f"not a seed 000 attack: {type(choices).__name__}")
    seed000_ruleset(state.ruleset_options).steps.plan(
        state, command.attacker_id, command.defender_id, choices
    )
