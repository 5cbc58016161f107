"""Seed 000's attack steps alone, for the benchmark (``app.benchmark``, which
finds them by the ruleset's key): the battle's own planning of one attack (its
four steps' ``plan``), without dice, odds or events (``plan_ms_median``); and its
``decide`` plus ``apply``, without ``describe`` (``resolve_per_s``)."""

from __future__ import annotations

from collections.abc import Callable

from rules.battle.attack_steps import own_answer, planned
from rules.battle.commands import Attack
from rules.battle.state import BattleState
from rules.core.dice import DiceSource
from rules.core.errors import RulesError
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.ruleset import seed000_ruleset


def _own(command: Attack) -> AttackOptions:
    choices = command.choices
    if not isinstance(choices, AttackOptions):
        raise RulesError(f"not a seed 000 attack: {type(choices).__name__}")
    return choices


def plan_attack_once(state: BattleState, command: Attack) -> None:
    """Plan ``command`` on ``state`` as the battle would (``IllegalAttackError``
    when the rules refuse it)."""
    seed000_ruleset(state.ruleset_options).steps.plan(
        state, command.attacker_id, command.defender_id, _own(command)
    )


def attack_resolver(state: BattleState, command: Attack) -> Callable[[DiceSource], BattleState]:
    """``command`` on ``state`` planned as the battle plans it (``planned``, the
    plan the roll reuses), with the defender's answer taken; the call rolls it on
    the dice given (``decide``) and returns the state after it (``apply``): the
    outcome without its log."""
    steps = seed000_ruleset(state.ruleset_options).steps
    plan = planned(steps, state, command.attacker_id, command.defender_id, _own(command))
    answer = own_answer(steps, plan, command.answer)
    decide, apply = steps.decide, steps.apply

    def resolve(dice: DiceSource) -> BattleState:
        return apply(state, plan, decide(plan, answer, dice))

    return resolve
