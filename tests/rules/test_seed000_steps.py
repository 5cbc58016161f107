"""Seed 000's attack in four steps (rules.sets.seed000.attack_steps): the plan needs
no answer, the defender's answers, decide's outcome in the shared vocabulary, and
the GM's path through run_attack equal to the resolution it always was, and what
an attack broke named in its outcome."""

from __future__ import annotations

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.attack_outcome import ActiveDefense, BrokenItem, Landing
from rules.battle.attack_steps import Needs, run_attack
from rules.battle.battle import Battle, command_rng
from rules.battle.catalog import load_battle_setup
from rules.battle.commands import Attack
from rules.battle.state import BattleState
from rules.core.assets import read_json
from rules.core.errors import RulesError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import NO_DEFENSE, AttackOptions, Seed000Answer
from rules.sets.seed000.attack_events import AttackOutcome as Outcome000
from rules.sets.seed000.attack_events import WeaponBroke
from rules.sets.seed000.attack_steps import attack_command, split_answer, whole_options
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.ruleset import Seed000
from rules.sets.seed000.wounded import fighter_condition
from rules.sets.seed002.attack import Seed002Answer
from tests.rules.battle_level import Make

THRUST = AttackOptions("long-spear", "thrust")  # c2, the spearman
PARRY = Seed000Answer((DefenseChoice(DefenseKind.PARRY, "rapier"),))  # c4, the fencer


def demo() -> BattleState:
    grid, combatants = load_battle_setup(read_json("battles", "demo.json"))
    return BattleState(grid, combatants)


def seed000() -> Seed000:
    ruleset = get_ruleset("000")
    assert isinstance(ruleset, Seed000)
    return ruleset


def test_the_plan_needs_no_answer_and_names_the_attack_roll() -> None:
    steps = seed000().steps
    plan = steps.plan(demo(), "c2", "c4", THRUST)
    assert plan.attack.defenses == ()  # the defender's are planned with its answer
    (roll,) = plan.rolls
    assert (roll.combatant_id, roll.dice, roll.needs) == ("c2", "3d6", Needs.AT_MOST)
    assert roll.target == plan.attack.effective_skill
    assert plan.attacker_modifiers == plan.attack.modifiers


def test_the_default_answer_is_no_defense_and_the_likeliest_comes_first() -> None:
    steps = seed000().steps
    plan = steps.plan(demo(), "c2", "c4", THRUST)
    assert steps.default_answer(plan) == NO_DEFENSE
    answers = steps.answers(plan)
    assert answers[0] == PARRY == seed000().attacks.answers(demo(), "c2", "c4", THRUST)[0]
    assert answers[-1] == NO_DEFENSE and len(set(answers)) == len(answers)
    assert Seed000Answer((DefenseChoice(DefenseKind.DODGE),)) in answers


def test_the_defenders_answer_goes_apart_from_the_choices() -> None:
    whole = whole_options(THRUST, PARRY)
    assert whole.defenses == PARRY.defenses
    assert split_answer(whole) == (THRUST, PARRY)
    assert attack_command("c2", "c4", whole) == Attack("c2", "c4", THRUST, PARRY)
    with pytest.raises(RulesError, match="answers apart"):
        seed000().steps.plan(demo(), "c2", "c4", whole)
    with pytest.raises(RulesError, match="Seed000Answer, not Seed002Answer"):
        run_attack(seed000().steps, demo(), "c2", "c4", THRUST, Seed002Answer(), command_rng(1, 0))


@pytest.mark.parametrize("answer", [NO_DEFENSE, PARRY])
def test_decide_tells_the_outcome_in_the_shared_vocabulary(answer: Seed000Answer) -> None:
    steps, state = seed000().steps, demo()
    plan = steps.plan(state, "c2", "c4", THRUST)
    landings = set()
    for seed in range(60):
        outcome = steps.decide(plan, answer, command_rng(seed, 0))
        done = outcome.payload.resolution
        landings.add(outcome.landing)
        assert outcome.landing.value == done.outcome.value  # the log's own word
        if done.outcome is Outcome000.DEFENDED:
            assert outcome.defense is ActiveDefense.PARRY and answer == PARRY
        else:
            assert outcome.defense is None
        assert outcome.injury == state.combatant("c4").hp - outcome.payload.defender.hp
        assert (outcome.location is not None) <= outcome.landing.struck
        down = fighter_condition(outcome.payload.defender)
        assert outcome.takes_out("c4") == (not down.able_to_act)
    assert {Landing.HIT, Landing.MISSED} <= landings
    assert (Landing.DEFENDED in landings) == (answer == PARRY)


def test_the_gms_path_is_the_resolution_with_the_answer_in_the_options() -> None:
    """``Attack`` through the battle (run_attack) and ``Seed000.resolution`` of the
    whole request roll the same faces into the same events and fighters."""
    state, ruleset = demo(), seed000()
    for seed in range(20):
        battle = Battle(state, seed, lambda *_: ruleset)
        events = battle.execute(Attack("c2", "c4", THRUST, PARRY))
        resolution = ruleset.resolution(
            state, "c2", "c4", whole_options(THRUST, PARRY), command_rng(seed, 0)
        )
        assert [e.describe() for e in events] == [e.describe() for e in resolution.events]
        assert battle.state.combatant("c4") == resolution.defender_after
        assert battle.state.combatant("c2") == resolution.attacker_after


def test_a_parry_that_breaks_names_the_broken_weapon_in_the_outcome(make: Make) -> None:
    """000 BREAKING A BLADE: a main-gauche parrying a morningstar may break. The
    outcome names it (``broken``), and the battle rolling the same dice logs that
    break and leaves the fencer without it; a parry that holds breaks nothing."""
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("fencer", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (a, d))
    steps = seed000().steps
    swing = AttackOptions("morningstar", "swing")
    answer = Seed000Answer((DefenseChoice(DefenseKind.PARRY, "main-gauche"),))
    plan = steps.plan(state, "a", "d", swing)
    held: list[int] = []
    for seed in range(400):
        outcome = steps.decide(plan, answer, command_rng(seed, 0))
        if outcome.broken:
            break
        if outcome.landing is Landing.DEFENDED:
            held.append(seed)
    else:
        pytest.fail("no parry broke in 400 attacks")
    assert outcome.broken == (BrokenItem("d", "main-gauche"),)
    assert outcome.landing is Landing.DEFENDED and outcome.defense is ActiveDefense.PARRY
    battle = Battle(state, seed, get_ruleset)
    events = battle.execute(Attack("a", "d", swing, answer))
    (broke,) = [e for e in events if isinstance(e, WeaponBroke)]
    assert (broke.combatant_id, broke.result.weapon.key) == ("d", "main-gauche")
    assert "main-gauche" not in {w.key for w in battle.state.combatant("d").fighter.weapons}
    assert held  # parries that held came first, and broke nothing
