"""The attack in four steps: the protocol a ruleset's attack answers, generic over
its own types.

- ``plan(state, attacker_id, defender_id, choices) -> plan``: no dice, pure. The
  plan says everything the dice will be rolled against (``PlannedAttack``): the
  attacker's and the defender's itemised, cited modifiers apart, and each roll
  with the number it is made against.
- ``answers(plan)`` and ``default_answer(plan)``: what the defender may answer to
  that plan (its defense, and whatever else the ruleset lets a defender choose),
  and what it answers when nobody answers for it. Whoever controls the defender
  answers: the GM through the attack pane, later a computer policy.
- ``decide(plan, answer, dice) -> AttackOutcome``: the only step that rolls. Its
  outcome (``rules.battle.attack_outcome``) is the shared vocabulary with the
  ruleset's typed payload.
- ``apply(state, plan, outcome) -> state`` and ``describe(plan, answer, outcome)
  -> events``: the state after the attack, and the log's events, for the log alone.

``run_attack`` runs the four in order: the GM's path, whose log reads as the
ruleset's events tell it. The exact odds enumerate ``decide`` itself
(``rules.battle.attack_odds``).

The attacker's choices and the defender's answer are each the ruleset's own
frozen dataclass, a subclass of ``AttackChoices`` and ``DefenderAnswer``
(``rules.battle.attack_choices``). The ``Attack`` command carries them apart,
and the ruleset's steps take them back as their own types (``own_choices``,
``own_answer``): a wrong type is refused, never cast.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, TypeVar

from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.attack_outcome import AttackOutcome
from rules.battle.model import Combatant
from rules.battle.state import AttackResult, BattleState
from rules.core.dice import DiceSource
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.core.quick_init import quick_init

__all__ = [
    "AnswerT",
    "AttackSteps",
    "ChoicesT",
    "Needs",
    "PayloadT",
    "PlanT",
    "PlannedAttack",
    "PlannedPair",
    "PlannedRoll",
    "own_answer",
    "own_choices",
    "planned",
    "run_attack",
]


class Needs(Enum):
    """How a roll succeeds against its number."""

    AT_MOST = "at most"  # roll under: 3d6 or d100 at or below the number
    AT_LEAST = "at least"  # the total reaches the number (2d6 + bonus against a difficulty)
    ABOVE = "above"  # the total beats the number, or the other side's roll (opposed)


@dataclass(frozen=True, slots=True)
class PlannedRoll:
    """One roll a planned attack may make: whose (``combatant_id``), what for in
    the ruleset's words ("attack", "dodge"), the dice with their adds as a GM
    writes them ("2d6+3"), and the number it is made against; ``target`` None:
    against the other side's roll (an opposed defense must beat the attack's
    total)."""

    combatant_id: str
    what: str
    dice: str
    needs: Needs
    target: int | None = None


class PlannedAttack(Protocol):
    """What every ruleset's plan tells, before any die: who attacks whom, the
    attacker's and the defender's itemised, cited modifiers (each in the
    ruleset's own sense: seed 004's attacker modifiers make up the difficulty),
    and every roll the attack may make with the number it is made against."""

    @property
    def attacker_id(self) -> str: ...

    @property
    def defender_id(self) -> str: ...

    @property
    def attacker_modifiers(self) -> tuple[Modifier, ...]: ...

    @property
    def defender_modifiers(self) -> tuple[Modifier, ...]: ...

    @property
    def rolls(self) -> tuple[PlannedRoll, ...]: ...


class PlannedPair:
    """A plan's ``attacker_id`` and ``defender_id`` (``PlannedAttack``), read from
    its ``attacker`` and ``defender``: the fighters as planned."""

    __slots__ = ()
    attacker: Combatant
    defender: Combatant

    @property
    def attacker_id(self) -> str:
        return self.attacker.id

    @property
    def defender_id(self) -> str:
        return self.defender.id


ChoicesT = TypeVar("ChoicesT", bound=AttackChoices)
AnswerT = TypeVar("AnswerT", bound=DefenderAnswer)
PlanT = TypeVar("PlanT", bound=PlannedAttack)
PayloadT = TypeVar("PayloadT")


class AttackSteps(Protocol[ChoicesT, AnswerT, PlanT, PayloadT]):
    """A ruleset's attack as four steps, over its own choices, answer, plan and
    payload types (see the module docstring)."""

    @property
    def choices_type(self) -> type[ChoicesT]:
        """The class of the attacker's choices these steps take."""
        ...

    @property
    def answer_type(self) -> type[AnswerT]:
        """The class of the defender's answer these steps take."""
        ...

    def plan(
        self, state: BattleState, attacker_id: str, defender_id: str, choices: ChoicesT
    ) -> PlanT:
        """The attack as planned, pure and without dice; ``IllegalAttackError``
        when it cannot be made."""
        ...

    def answers(self, plan: PlanT) -> tuple[AnswerT, ...]:
        """Every answer the defender may give to ``plan``, the likeliest first."""
        ...

    def default_answer(self, plan: PlanT) -> AnswerT:
        """The defender's answer when nobody answers for it."""
        ...

    def decide(self, plan: PlanT, answer: AnswerT, dice: DiceSource) -> AttackOutcome[PayloadT]:
        """Roll the attack: every die of it goes through ``dice``, and nothing
        else here changes a state or builds an event. A roll that names what is
        read of it (``rules.core.dice.roll(..., reads=...)``) is read through that
        alone for the outcome's shared fields: the exact odds count it so."""
        ...

    def apply(
        self, state: BattleState, plan: PlanT, outcome: AttackOutcome[PayloadT]
    ) -> BattleState:
        """The state after the attack (``state`` is the one planned in): the
        fighters as the outcome leaves them. The pieces that left a hand are the
        battle's to place."""
        ...

    def describe(
        self, plan: PlanT, answer: AnswerT, outcome: AttackOutcome[PayloadT]
    ) -> tuple[Event, ...]:
        """The log's events of the attack, in order; for the log alone."""
        ...


def own_choices(
    steps: AttackSteps[ChoicesT, AnswerT, PlanT, PayloadT], choices: object
) -> ChoicesT:
    """``choices`` as the steps' own type; ``RulesError`` for another ruleset's."""
    if not isinstance(choices, steps.choices_type):
        raise RulesError(
            f"this ruleset's attack takes {steps.choices_type.__name__}, "
            f"not {type(choices).__name__}"
        )
    return choices


def own_answer(
    steps: AttackSteps[ChoicesT, AnswerT, PlanT, PayloadT], plan: PlanT, answer: object | None
) -> AnswerT:
    """``answer`` as the steps' own type, the default answer to ``plan`` for None;
    ``RulesError`` for another ruleset's."""
    if answer is None:
        return steps.default_answer(plan)
    if not isinstance(answer, steps.answer_type):
        raise RulesError(
            f"this ruleset's defender answers with {steps.answer_type.__name__}, "
            f"not {type(answer).__name__}"
        )
    return answer


@quick_init
@dataclass(frozen=True, slots=True)
class _RecentPlan:
    steps: object
    state: BattleState  # held, so that no other state takes its place (its id)
    attacker_id: str
    defender_id: str
    choices: AttackChoices
    choices_hash: int | None  # None: not hashed (planned alone on its state), or unhashable
    plan: object


def _hash_of(choices: AttackChoices) -> int | None:
    try:
        return hash(choices)
    except TypeError:  # a field that does not hash: compared whole
        return None


# Plans of the last attacks planned: the attack pane's odds plan the attack the GM
# then rolls, on the same state. A state is never changed, so a plan made on the
# very same state object with equal choices is the plan (docs/architecture.md).
_RECENT_PLANS_KEPT = 8
_recent_plans: deque[_RecentPlan] = deque(maxlen=_RECENT_PLANS_KEPT)
_recent_plans_lock = threading.Lock()  # the pane's odds are planned off the GUI thread


def planned(
    steps: AttackSteps[ChoicesT, AnswerT, PlanT, PayloadT],
    state: BattleState,
    attacker_id: str,
    defender_id: str,
    choices: AttackChoices,
) -> PlanT:
    """``steps.plan`` of the attacker's ``choices`` on ``state``, made once: the
    preview's plan is the roll's. Plans are pure, so one made on the same state
    object with the same steps and equal choices is reused."""
    hashed: int | None = None  # the choices' hash, once two plans of the state are seen
    matched = 0
    with _recent_plans_lock:
        for recent in _recent_plans:
            if (
                recent.state is state
                and recent.steps is steps
                and recent.attacker_id == attacker_id
                and recent.defender_id == defender_id
            ):
                if recent.choices is choices:
                    return recent.plan  # type: ignore[return-value]
                # Several choices planned on one state (the pane's variants) are told
                # apart by their hashes, not by comparing every field of each.
                matched += 1
                if matched == 2:
                    hashed = _hash_of(choices)
                if (
                    hashed is not None
                    and recent.choices_hash is not None
                    and recent.choices_hash != hashed
                ):
                    continue
                if recent.choices == choices:
                    return recent.plan  # type: ignore[return-value]
    plan = steps.plan(state, attacker_id, defender_id, own_choices(steps, choices))
    with _recent_plans_lock:
        _recent_plans.append(
            _RecentPlan(steps, state, attacker_id, defender_id, choices, hashed, plan)
        )
    return plan


def run_attack(
    steps: AttackSteps[ChoicesT, AnswerT, PlanT, PayloadT],
    state: BattleState,
    attacker_id: str,
    defender_id: str,
    choices: AttackChoices,
    answer: DefenderAnswer | None,
    dice: DiceSource,
) -> AttackResult:
    """The GM's path: plan, the defender's answer (its default for None), decide,
    apply and describe. The result holds the fighters ``apply`` changed, the
    events, the pieces the battle places, and the state ``apply`` made."""
    plan = planned(steps, state, attacker_id, defender_id, choices)
    taken = own_answer(steps, plan, answer)
    outcome = steps.decide(plan, taken, dice)
    after = steps.apply(state, plan, outcome)
    changed = tuple(
        now for now, was in zip(after.combatants, state.combatants, strict=True) if now is not was
    )
    return AttackResult(changed, steps.describe(plan, taken, outcome), outcome.pieces, after)
