"""Seed 002's attack in four steps (rules.sets.seed002.attack_steps): the plan tells
each roll and the number it is made against, the defender's answers, ``decide``
speaks the shared vocabulary of outcomes, ``decide`` and ``apply`` leave the battle
as the GM's path does, and the pane's odds (the contest and the blow, decide's
first steps) equal ``decide`` enumerated whole, Fraction for Fraction."""

from __future__ import annotations

from fractions import Fraction

from rules.battle.attack_odds import attack_odds
from rules.battle.attack_outcome import ActiveDefense, AttackOutcome, Landing, OutcomeKind
from rules.battle.attack_steps import Needs, run_attack
from rules.battle.model import Status
from rules.battle.state import BattleState
from rules.core.dice import DiceSource, ScriptedDice, SeededDice
from rules.core.enumerate import exact_outcomes
from rules.sets.seed002.attack import (
    DODGE_ANSWER,
    NO_DEFENSE,
    Attack002,
    Seed002Answer,
    defense_made,
)
from rules.sets.seed002.attack_steps import (
    STEPS,
    Seed002Rolls,
    contest_odds,
    decide,
    harm_odds,
    harm_of,
)
from tests.rules.seed002_duel import duel, fighter, parry, sword

FUMBLE, FAIL, SUCCESS, CRITICAL_ATTACK = 100, 99, 10, 3
HP = 20


def guard(hp: int = HP) -> BattleState:
    return duel(None, fighter("Defender", ("longsword", "dagger"), hp=hp))


def decided(
    faces: tuple[int, ...], answer: Seed002Answer, choices: Attack002 | None = None
) -> AttackOutcome[Seed002Rolls]:
    plan = STEPS.plan(guard(), "a", "d", choices or sword())
    dice = ScriptedDice(faces)
    outcome = STEPS.decide(plan, answer, dice)
    assert dice.unused == 0
    return outcome


# --- the plan and the answers -----------------------------------------------------------------


def test_the_plan_tells_each_roll_and_the_number_it_is_made_against() -> None:
    plan = STEPS.plan(guard(), "a", "d", sword())
    rolls = [(r.combatant_id, r.what, r.dice, r.needs, r.target) for r in plan.rolls]
    skill = {a: defense_made(plan, a).skill for a in STEPS.answers(plan)}
    assert rolls == [
        ("a", "attack", "1d100", Needs.AT_MOST, plan.attack_skill),
        ("d", "dodge", "1d100", Needs.AT_MOST, skill[DODGE_ANSWER]),
        ("d", "parry with the Longsword", "1d100", Needs.AT_MOST, skill[parry("longsword")]),
        ("d", "parry with the Dagger", "1d100", Needs.AT_MOST, skill[parry("dagger")]),
    ]
    assert STEPS.answers(plan) == (
        DODGE_ANSWER,
        parry("longsword"),
        parry("dagger"),
        NO_DEFENSE,
    )
    assert STEPS.default_answer(plan) == DODGE_ANSWER


def test_a_defender_who_can_make_no_defense_answers_none() -> None:
    plan = STEPS.plan(guard(), "a", "d", sword(helpless=True))
    assert [r.what for r in plan.rolls] == ["attack"]
    assert plan.defender_modifiers == ()
    assert STEPS.answers(plan) == (NO_DEFENSE,)
    assert defense_made(plan, DODGE_ANSWER).reason == "helpless"


# --- decide, apply --------------------------------------------------------------------------


def test_decide_speaks_the_shared_vocabulary() -> None:
    missed = decided((FAIL,), DODGE_ANSWER)
    assert (missed.kind, missed.injury, missed.location) == (OutcomeKind(Landing.MISSED), 0, None)
    fumbled = decided((FUMBLE,), DODGE_ANSWER)
    assert fumbled.kind == OutcomeKind(Landing.CRITICAL_MISS)
    assert [p.piece.name for p in fumbled.pieces] == ["Longsword"]  # dropped at the feet
    dodged = decided((SUCCESS, SUCCESS), DODGE_ANSWER)
    assert dodged.kind == OutcomeKind(Landing.DEFENDED, ActiveDefense.DODGE)
    assert dodged.kind.label == "dodged"
    parried = decided((SUCCESS, SUCCESS), parry("longsword"))
    assert parried.kind.label == "parried"
    halved = decided((SUCCESS, SUCCESS, 8), parry("dagger"))  # (8 - 2) / 2
    assert (halved.kind, halved.injury) == (OutcomeKind(Landing.HIT, ActiveDefense.PARRY), 3)
    struck = decided((SUCCESS, FAIL, 8), DODGE_ANSWER)
    assert (struck.kind, struck.injury) == (OutcomeKind(Landing.HIT), 6)
    critical = decided((CRITICAL_ATTACK,), NO_DEFENSE)  # no defense: no die of its own
    assert critical.kind == OutcomeKind(Landing.CRITICAL_HIT)
    assert critical.payload.blow is not None and critical.payload.blow.maximum


def test_an_attack_that_kills_tells_the_defender_taken_out() -> None:
    plan = STEPS.plan(guard(hp=4), "a", "d", sword())
    outcome = STEPS.decide(plan, NO_DEFENSE, ScriptedDice((SUCCESS, 8)))
    assert outcome.takes_out("d") and not outcome.takes_out("a")
    assert outcome.payload.died and outcome.payload.defender.status is Status.DEAD


def test_decide_and_apply_leave_the_battle_as_the_gm_s_path() -> None:
    state = guard(hp=8)
    for seed in range(40):
        answer = (DODGE_ANSWER, parry("dagger"), NO_DEFENSE)[seed % 3]
        path = run_attack(STEPS, state, "a", "d", sword(), answer, SeededDice(seed))
        plan = STEPS.plan(state, "a", "d", sword())
        outcome = STEPS.decide(plan, answer, SeededDice(seed))
        assert STEPS.apply(state, plan, outcome) == path.after
        assert STEPS.describe(plan, answer, outcome) == path.events
        assert outcome.pieces == path.pieces


# --- the odds: decide's first steps against decide whole ------------------------------------------


def test_the_pane_s_odds_equal_decide_enumerated_whole() -> None:
    """A defender of 6 HP (Major Wound Level 3), parrying with its dagger one rank
    smaller than the longsword: kills, major wounds and the lines' kinds from
    ``decide`` itself on every way the dice fall, major wounds' dice and all."""
    state = guard(hp=6)
    answer = parry("dagger")
    plan = STEPS.plan(state, "a", "d", sword())
    whole = attack_odds(STEPS, plan, answer)

    def harm(dice: DiceSource) -> tuple[bool, bool]:
        return harm_of(decide(plan, answer, dice).payload.blow, 6, 6)

    kill, major = harm_odds(plan, answer)
    by_decide = exact_outcomes(harm, by_reads=True)
    assert kill == by_decide.get((True, False), 0)
    assert major == by_decide.get((False, True), 0)
    assert kill > 0 and major > 0
    assert whole.takes_out >= kill  # a major wound's unconscious are taken out too
    lines = contest_odds(plan, answer)
    assert whole.chance(OutcomeKind(Landing.DEFENDED, ActiveDefense.PARRY)) == lines["avoided"]
    assert whole.chance(OutcomeKind(Landing.HIT, ActiveDefense.PARRY)) == lines["half damage"]
    assert whole.chance(OutcomeKind(Landing.MISSED)) == lines["miss"]
    assert whole.chance(OutcomeKind(Landing.CRITICAL_MISS)) == lines["attacker fumbles"]
    critical = lines.get("critical hit", 0) + lines.get("critical hit, defender fumbles", 0)
    assert whole.chance(OutcomeKind(Landing.CRITICAL_HIT)) == critical
    assert sum(whole.kinds.values()) == 1


def test_decide_read_by_levels_equals_decide_by_every_face() -> None:
    """The d100s are read by their success levels alone: enumerated so, decide's
    outcome equals decide enumerated on every face of both."""
    plan = STEPS.plan(guard(hp=100), "a", "d", sword())

    def summary(dice: DiceSource) -> tuple[OutcomeKind, int]:
        outcome = decide(plan, DODGE_ANSWER, dice)
        return outcome.kind, outcome.injury

    by_reads = exact_outcomes(summary, by_reads=True)
    by_faces = exact_outcomes(summary, by_reads=False)
    assert by_reads == by_faces
    assert sum(by_reads.values()) == Fraction(1)
