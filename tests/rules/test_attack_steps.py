"""The shared attack vocabulary, the four steps and the exact odds, on a toy
ruleset's attack small enough to count by hand: 1d6 to hit (4 or more), the
defender's dodge on 1d6 (5 or more; a block instead halves the damage), 1d6
damage, and a defender out of the fight at 0 hit points."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.attack_choices import AttackChoices, DefenderAnswer
from rules.battle.attack_odds import attack_odds
from rules.battle.attack_outcome import (
    ActiveDefense,
    AttackOutcome,
    ConditionChange,
    Landing,
    OutcomeKind,
)
from rules.battle.attack_steps import (
    AttackSteps,
    Needs,
    PlannedRoll,
    own_answer,
    run_attack,
)
from rules.battle.condition import Down, down_as
from rules.battle.model import Combatant, Fighter, Side, Status
from rules.battle.state import BattleState
from rules.core.citation import Citation
from rules.core.dice import DiceSource, ScriptedDice, roll
from rules.core.errors import RulesError
from rules.core.events import CombatantEvent, Event
from rules.core.modifiers import Modifier

TOY = Citation("base-toy", "the toy attack")


@dataclass(frozen=True, slots=True)
class ToyChoices(AttackChoices):
    bonus: int = 0


@dataclass(frozen=True, slots=True)
class ToyAnswer(DefenderAnswer):
    defense: ActiveDefense | None = ActiveDefense.DODGE


@dataclass(frozen=True, slots=True)
class ToyPlan:
    attacker_id: str
    defender_id: str
    attacker_modifiers: tuple[Modifier, ...]
    defender_modifiers: tuple[Modifier, ...]
    rolls: tuple[PlannedRoll, ...]
    hit_on: int
    defender_hp: int


@dataclass(frozen=True, slots=True)
class ToyRolls:
    attack: int
    defense: int | None
    damage: int | None


@dataclass(frozen=True, kw_only=True)
class ToyRolled(CombatantEvent):
    text: str

    def describe(self) -> str:
        return self.text


class SuccessAt:
    """What a d6 against ``at`` is read as: its success (hashable by value)."""

    def __init__(self, at: int) -> None:
        self.at = at

    def __call__(self, total: int) -> bool:
        return total >= self.at

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SuccessAt) and other.at == self.at

    def __hash__(self) -> int:
        return hash(self.at)


class ToySteps:
    choices_type = ToyChoices
    answer_type = ToyAnswer

    def plan(
        self, state: BattleState, attacker_id: str, defender_id: str, choices: ToyChoices
    ) -> ToyPlan:
        bonus = (Modifier(choices.bonus, "the toy bonus", TOY),) if choices.bonus else ()
        hit_on = 4 - choices.bonus
        return ToyPlan(
            attacker_id,
            defender_id,
            bonus,
            (),
            (
                PlannedRoll(attacker_id, "attack", "1d6", Needs.AT_LEAST, hit_on),
                PlannedRoll(defender_id, "dodge", "1d6", Needs.AT_LEAST, 5),
            ),
            hit_on,
            state.combatant(defender_id).hp,
        )

    def answers(self, plan: ToyPlan) -> tuple[ToyAnswer, ...]:
        return ToyAnswer(), ToyAnswer(ActiveDefense.BLOCK), ToyAnswer(None)

    def default_answer(self, plan: ToyPlan) -> ToyAnswer:
        return ToyAnswer()

    def decide(self, plan: ToyPlan, answer: ToyAnswer, dice: DiceSource) -> AttackOutcome[ToyRolls]:
        (attack,) = roll(1, dice)
        if attack < plan.hit_on:
            return AttackOutcome(Landing.MISSED, ToyRolls(attack, None, None))
        defense = None
        if answer.defense is not None:
            (defense,) = roll(1, dice, reads=SuccessAt(5))
            if defense >= 5 and answer.defense is ActiveDefense.DODGE:
                return AttackOutcome(
                    Landing.DEFENDED, ToyRolls(attack, defense, None), ActiveDefense.DODGE
                )
        (damage,) = roll(1, dice)
        blocked = defense is not None and defense >= 5
        injury = min(plan.defender_hp, damage // 2 if blocked else damage)
        out = injury >= plan.defender_hp
        return AttackOutcome(
            Landing.HIT,
            ToyRolls(attack, defense, damage),
            ActiveDefense.BLOCK if blocked else None,
            location="torso",
            injury=injury,
            conditions=(
                (ConditionChange(plan.defender_id, down_as(Down.UNCONSCIOUS, TOY)),) if out else ()
            ),
        )

    def apply(
        self, state: BattleState, plan: ToyPlan, outcome: AttackOutcome[ToyRolls]
    ) -> BattleState:
        if not outcome.injury:
            return state
        defender = state.combatant(plan.defender_id)
        status = Status.UNCONSCIOUS if outcome.takes_out(defender.id) else defender.status
        return state.with_combatants(
            replace(defender, hp=defender.hp - outcome.injury, status=status)
        )

    def describe(
        self, plan: ToyPlan, answer: ToyAnswer, outcome: AttackOutcome[ToyRolls]
    ) -> tuple[Event, ...]:
        text = f"{outcome.kind.label}: {outcome.payload.attack}, {outcome.injury} hurt"
        return (ToyRolled(combatant_id=plan.attacker_id, name="Ann", text=text),)


STEPS: AttackSteps[ToyChoices, ToyAnswer, ToyPlan, ToyRolls] = ToySteps()


def toy_state(defender_hp: int = 10) -> BattleState:
    ann = Fighter("Ann", 10, 5, ())
    bob = Fighter("Bob", 10, 5, ())
    return BattleState(
        HexGrid(5, 5),
        (
            Combatant("a", ann, Side.BLUE, Hex.from_offset(2, 2), Facing.S, 10),
            Combatant("b", bob, Side.RED, Hex.from_offset(2, 3), Facing.N, defender_hp),
        ),
    )


def brute_force(
    answer: ToyAnswer, hp: int
) -> tuple[dict[OutcomeKind, Fraction], Fraction, Fraction]:
    """Every face of the three dice, written out: kinds, expected injury, out."""
    kinds: dict[OutcomeKind, Fraction] = {}
    injury = out = Fraction(0)
    for attack, defense, damage in itertools.product(range(1, 7), repeat=3):
        p = Fraction(1, 6**3)
        if attack < 4:
            kind, hurt = OutcomeKind(Landing.MISSED), 0
        elif answer.defense is ActiveDefense.DODGE and defense >= 5:
            kind, hurt = OutcomeKind(Landing.DEFENDED, ActiveDefense.DODGE), 0
        elif answer.defense is ActiveDefense.BLOCK and defense >= 5:
            kind, hurt = OutcomeKind(Landing.HIT, ActiveDefense.BLOCK), min(hp, damage // 2)
        else:
            kind, hurt = OutcomeKind(Landing.HIT), min(hp, damage)
        kinds[kind] = kinds.get(kind, Fraction(0)) + p
        injury += hurt * p
        out += p if hurt >= hp else 0
    return kinds, injury, out


@pytest.mark.parametrize("answer", STEPS.answers(STEPS.plan(toy_state(), "a", "b", ToyChoices())))
@pytest.mark.parametrize("hp", [10, 3])
def test_the_odds_enumerate_decide_exactly(answer: ToyAnswer, hp: int) -> None:
    plan = STEPS.plan(toy_state(hp), "a", "b", ToyChoices())
    odds = attack_odds(STEPS, plan, answer)
    kinds, injury, out = brute_force(answer, hp)
    assert dict(odds.kinds) == kinds
    assert (odds.expected_injury, odds.takes_out) == (injury, out)
    assert sum(odds.kinds.values()) == 1


def test_the_gm_path_runs_the_four_steps() -> None:
    state = toy_state(3)
    result = run_attack(
        STEPS,
        state,
        "a",
        "b",
        ToyChoices(),
        ToyAnswer(ActiveDefense.BLOCK),
        ScriptedDice((6, 5, 6)),
    )
    (bob,) = result.combatants
    assert (bob.id, bob.hp, bob.status) == ("b", 0, Status.UNCONSCIOUS)
    assert [e.describe() for e in result.events] == ["hit, blocked: 6, 3 hurt"]


def test_a_miss_changes_nobody() -> None:
    result = run_attack(STEPS, toy_state(), "a", "b", ToyChoices(), None, ScriptedDice((1,)))
    assert result.combatants == ()
    assert [e.describe() for e in result.events] == ["missed: 1, 0 hurt"]


def test_no_answer_is_the_default_answer_and_a_foreign_one_is_refused() -> None:
    plan = STEPS.plan(toy_state(), "a", "b", ToyChoices())
    assert own_answer(STEPS, plan, None) == ToyAnswer()

    @dataclass(frozen=True, slots=True)
    class Other(DefenderAnswer):
        pass

    with pytest.raises(RulesError, match="ToyAnswer, not Other"):
        own_answer(STEPS, plan, Other())
    with pytest.raises(RulesError, match="ToyChoices, not str"):
        run_attack(STEPS, toy_state(), "a", "b", "club", None, ScriptedDice(()))  # type: ignore[arg-type]


def test_the_plan_tells_each_roll_and_its_number() -> None:
    plan = STEPS.plan(toy_state(), "a", "b", ToyChoices(bonus=1))
    assert [m.value for m in plan.attacker_modifiers] == [1]
    assert [(r.what, r.needs, r.target) for r in plan.rolls] == [
        ("attack", Needs.AT_LEAST, 3),
        ("dodge", Needs.AT_LEAST, 5),
    ]
