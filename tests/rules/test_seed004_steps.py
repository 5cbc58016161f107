"""Seed 004's attack in four steps (rules.sets.seed004.attack_steps): the plan tells
each roll and the number it is made against, the defender's answers, ``decide``
speaks the shared vocabulary of outcomes, ``decide`` and ``apply`` leave the battle
as the GM's path does, and the whole attack's exact odds, which enumerate
``decide``, agree with the pane's odds and with an enumeration by every total."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.battle.attack_odds import attack_odds
from rules.battle.attack_outcome import ActiveDefense, AttackOutcome, Landing, OutcomeKind
from rules.battle.attack_steps import Needs, run_attack
from rules.battle.condition import Down
from rules.battle.state import BattleState
from rules.core.dice import ScriptedDice, SeededDice
from rules.core.enumerate import exact_outcomes
from rules.sets.components.zones_2d6 import Zone
from rules.sets.seed004.attack import (
    NO_DEFENSE,
    AttackPlan,
    Defense,
    Seed004Answer,
    Seed004Attack,
)
from rules.sets.seed004.attack_steps import STEPS, Seed004Rolls
from rules.sets.seed004.sheet import ZoneArmor
from rules.sets.seed004.tracks import tracks_of
from tests.rules.seed004_battle import RULESET, duel, fighter

CLUB = Seed004Attack("club", "strike")
DODGE = Seed004Answer(Defense.DODGE)
BLOCK = Seed004Answer(Defense.BLOCK)


def decided(
    state: BattleState, faces: tuple[int, ...], answer: Seed004Answer, choices: Seed004Attack = CLUB
) -> AttackOutcome[Seed004Rolls]:
    plan = STEPS.plan(state, "a", "b", choices)
    dice = ScriptedDice(faces)
    outcome = STEPS.decide(plan, answer, dice)
    assert dice.unused == 0
    return outcome


# --- the plan and the answers -----------------------------------------------------------------


def test_the_plan_tells_each_roll_and_the_number_it_is_made_against() -> None:
    plan = STEPS.plan(duel().state, "a", "b", CLUB)
    assert [(r.combatant_id, r.what, r.dice, r.needs, r.target) for r in plan.rolls] == [
        ("a", "attack", "2d6+2", Needs.AT_LEAST, 6),
        ("b", "dodge", "2d6+1", Needs.ABOVE, None),  # must beat the attack's total
        ("b", "block", "2d6+0", Needs.ABOVE, None),
    ]
    assert sum(m.value for m in plan.attacker_modifiers) == plan.difficulty == 6
    assert plan.defender_modifiers == ()


def test_a_defense_made_shows_as_the_defenders_cited_modifier() -> None:
    battle = duel()
    state = STEPS.apply(battle.state, *_plan_and_outcome(battle.state, (3, 3, 4, 4), DODGE))
    assert tracks_of(state.combatant("b")).defenses == 1
    plan = STEPS.plan(state, "a", "b", CLUB)
    (penalty,) = plan.defender_modifiers
    assert penalty.value == -2 and penalty.citation.heading.endswith("cumulative -2")
    assert plan.rolls[1].dice == "2d6-1"


def _plan_and_outcome(
    state: BattleState, faces: tuple[int, ...], answer: Seed004Answer
) -> tuple[AttackPlan, AttackOutcome[Seed004Rolls]]:
    plan = STEPS.plan(state, "a", "b", CLUB)
    return plan, STEPS.decide(plan, answer, ScriptedDice(faces))


def test_the_defender_answers_a_dodge_a_block_or_none_and_none_when_surprised() -> None:
    state = duel().state
    plan = STEPS.plan(state, "a", "b", CLUB)
    assert STEPS.answers(plan) == (DODGE, BLOCK, NO_DEFENSE)
    assert STEPS.default_answer(plan) == DODGE
    surprised = STEPS.plan(state, "a", "b", Seed004Attack("club", "strike", surprise=True))
    assert STEPS.answers(surprised) == (NO_DEFENSE,) == (STEPS.default_answer(surprised),)
    assert [r.what for r in surprised.rolls] == ["attack"]


# --- decide: the shared vocabulary -------------------------------------------------------------


def test_a_miss_a_dodge_and_a_block_in_the_shared_words() -> None:
    state = duel().state
    miss = decided(state, (1, 2), DODGE)
    assert (miss.kind, miss.location, miss.injury, miss.payload.defender) == (
        OutcomeKind(Landing.MISSED),
        None,
        0,
        None,
    )
    dodged = decided(state, (3, 3, 4, 4), DODGE)
    assert dodged.kind == OutcomeKind(Landing.DEFENDED, ActiveDefense.DODGE)
    assert dodged.kind.label == "dodged" and dodged.injury == 0
    # attack 8; block 9; torso (6); club 5 + 2 = 7 halved to 3, x2; wound check 6 against 3
    blocked = decided(state, (3, 3, 4, 5, 3, 3, 5, 3, 3), BLOCK)
    assert blocked.kind == OutcomeKind(Landing.HIT, ActiveDefense.BLOCK)
    assert (blocked.location, blocked.injury, blocked.conditions) == ("torso", 6, ())


def test_a_killing_blow_changes_the_defenders_condition() -> None:
    state = duel(bob_hp=-30).state  # at -30 of 35: one more point kills
    killed = decided(state, (3, 3, 3, 3, 1), NO_DEFENSE)  # torso; 1 + 2 = 3, x2
    assert killed.takes_out("b") and not killed.takes_out("a")
    condition = killed.condition_of("b")
    assert condition is not None and condition.down is Down.DEAD
    assert killed.injury == 6


def test_an_aimed_blow_strikes_its_zone_and_rolls_none() -> None:
    aimed = decided(
        duel().state, (5, 5, 1, 1, 3, 3, 3), DODGE, Seed004Attack("club", "strike", Zone.HEAD)
    )
    assert aimed.location == "head" and aimed.payload.zone_roll is None


# --- decide and apply against the GM's path ------------------------------------------------------


@pytest.mark.parametrize("answer", [DODGE, BLOCK, NO_DEFENSE])
def test_decide_and_apply_leave_the_battle_as_the_gm_path_does(answer: Seed004Answer) -> None:
    bob = fighter("Bob", hp=12, armor=ZoneArmor(torso=1))
    state = duel(bob=bob, bob_hp=3).state
    for seed in range(40):
        plan = STEPS.plan(state, "a", "b", CLUB)
        outcome = STEPS.decide(plan, answer, SeededDice(seed))
        applied = STEPS.apply(state, plan, outcome)
        gm = run_attack(STEPS, state, "a", "b", CLUB, answer, SeededDice(seed))
        assert applied.with_combatants(*gm.combatants) == applied, seed
        assert state.with_combatants(*gm.combatants) == applied, seed


# --- the exact odds of the whole attack ----------------------------------------------------------

PANE = {
    "miss": OutcomeKind(Landing.MISSED),
    "dodged": OutcomeKind(Landing.DEFENDED, ActiveDefense.DODGE),
    "hit, blocked (half damage)": OutcomeKind(Landing.HIT, ActiveDefense.BLOCK),
    "hit": OutcomeKind(Landing.HIT),
}


@pytest.mark.parametrize("answer", [DODGE, BLOCK, NO_DEFENSE])
@pytest.mark.parametrize("choices", [CLUB, Seed004Attack("knife", "stab", Zone.HEART)])
def test_the_whole_odds_agree_with_the_panes(answer: Seed004Answer, choices: Seed004Attack) -> None:
    state = duel().state
    plan = STEPS.plan(state, "a", "b", choices)
    odds = attack_odds(STEPS, plan, answer)
    preview = RULESET.attacks.preview_attack(state, "a", "b", choices, answer)
    assert dict(odds.kinds) == {PANE[line.label]: line.probability for line in preview.odds}
    assert sum(odds.kinds.values()) == 1
    assert odds.expected_injury > 0 and odds.takes_out == 0  # 35 HP: no blow kills


def test_the_whole_odds_read_the_rolls_as_every_total_does() -> None:
    """``decide`` enumerated by what it reads of its checks and zone roll (the odds)
    against ``decide`` enumerated by every total: the same outcome, injury and
    condition. Bob at 2 HP, so that a blow may knock him out or kill him."""
    state = duel(fighter("Ann", strength=8), bob_hp=2).state
    # No defense and an aimed blow: the fewest branches by every total.
    choices = Seed004Attack("knife", "stab", Zone.TORSO, surprise=True)
    plan = STEPS.plan(state, "a", "b", choices)

    def summary(dice: object) -> tuple[OutcomeKind, int, bool]:
        outcome = STEPS.decide(plan, NO_DEFENSE, dice)  # type: ignore[arg-type]
        return outcome.kind, outcome.injury, outcome.takes_out("b")

    by_totals = exact_outcomes(summary)
    odds = attack_odds(STEPS, plan, NO_DEFENSE)
    kinds: dict[OutcomeKind, Fraction] = {}
    for (kind, _, _), p in by_totals.items():
        kinds[kind] = kinds.get(kind, Fraction(0)) + p
    assert dict(odds.kinds) == kinds
    assert odds.expected_injury == sum(
        (hurt * p for (_, hurt, _), p in by_totals.items()), Fraction(0)
    )
    assert odds.takes_out == sum(p for (_, _, out), p in by_totals.items() if out)
    assert 0 < odds.takes_out < 1
