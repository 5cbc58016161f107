"""The base of a ruleset's attack role (``rules.sets.protocol.Attacks``) over its
attack in four steps (``rules.battle.attack_steps``), generic over the ruleset's
own choices, answer, plan and payload types.

It runs the attack and lists the defender's answers through the steps; a
ruleset's subclass adds what is its own: the default attack and the variants its
form offers, the preview of a plan in its own terms (``preview``, typed by the
plan and the answer), the situation the map implies and, for the generic attack
pane, its form."""

from __future__ import annotations

from typing import Generic

from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.attack_steps import (
    AnswerT,
    AttackSteps,
    ChoicesT,
    PayloadT,
    PlanT,
    own_answer,
    planned,
    run_attack,
)
from rules.battle.state import AttackResult, BattleState
from rules.core.dice import DiceSource

__all__ = ["StepAttacks"]


class StepAttacks(Generic[ChoicesT, AnswerT, PlanT, PayloadT]):
    """The attack of a ruleset in four ``steps``."""

    def __init__(self, steps: AttackSteps[ChoicesT, AnswerT, PlanT, PayloadT]) -> None:
        self.steps = steps

    def attack(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: AttackChoices,
        answer: DefenderAnswer | None,
        dice: DiceSource,
    ) -> AttackResult:
        """The attack in four steps (``run_attack``)."""
        return run_attack(self.steps, state, attacker_id, defender_id, choices, answer, dice)

    def answers(
        self, state: BattleState, attacker_id: str, defender_id: str, choices: AttackChoices
    ) -> tuple[AnswerT, ...]:
        """The steps' answers to the plan of ``choices``, the likeliest first."""
        return self.steps.answers(planned(self.steps, state, attacker_id, defender_id, choices))

    def planned_with(
        self,
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: AttackChoices,
        answer: DefenderAnswer | None,
    ) -> tuple[PlanT, AnswerT]:
        """The plan of ``choices`` (made once: ``planned``) and ``answer`` as the
        steps' own type, the default answer to the plan for None."""
        plan = planned(self.steps, state, attacker_id, defender_id, choices)
        return plan, own_answer(self.steps, plan, answer)
