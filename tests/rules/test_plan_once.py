"""The attack is planned once (issue 24, Speed): the plan the attack pane's odds
made is the plan the roll uses, when both are on the same state
(``rules.battle.attack_steps.planned``); a new state, other choices or another
ruleset's steps are planned anew. Seed 004's steps through the battle;
seed 000's preview and roll."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.battle.attack_steps import planned
from rules.battle.battle import Battle
from rules.battle.commands import Attack
from rules.core.dice import ScriptedDice
from rules.sets.registry import get_ruleset
from rules.sets.seed000.ruleset import Seed000
from rules.sets.seed004.attack import Seed004Attack
from rules.sets.seed004.attack_steps import STEPS
from tests.rules.battle_level import MISS, RAPIER, Make
from tests.rules.battle_level import duel as seed000_duel
from tests.rules.seed004_battle import RULESET, duel

CLUB = Seed004Attack("club", "strike")


@pytest.fixture
def plans_made(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """One entry for each plan seed 004's steps make."""
    made: list[str] = []
    plan = STEPS.plan

    def counting(*args: object) -> object:
        made.append("plan")
        return plan(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(STEPS, "plan", counting)
    yield made


def test_the_preview_and_the_roll_plan_once(plans_made: list[str]) -> None:
    battle = duel()
    preview = RULESET.attacks.preview_attack(battle.state, "a", "b", CLUB)
    battle.execute(Attack("a", "b", CLUB))
    assert plans_made == ["plan"]
    assert preview.odds  # the preview was planned and enumerated, then the roll reused it


def test_a_new_state_is_planned_anew(plans_made: list[str]) -> None:
    battle = duel()
    battle.execute(Attack("a", "b", CLUB))
    RULESET.attacks.preview_attack(battle.state, "a", "b", CLUB)  # the state after the blow
    assert plans_made == ["plan", "plan"]


def test_other_choices_or_an_equal_state_are_planned_anew(plans_made: list[str]) -> None:
    state = duel().state
    first = planned(STEPS, state, "a", "b", CLUB)
    assert planned(STEPS, state, "a", "b", CLUB) is first
    planned(STEPS, state, "a", "b", Seed004Attack("knife", "stab"))
    planned(STEPS, duel().state, "a", "b", CLUB)  # equal, but another object
    planned(STEPS, state, "b", "a", CLUB)
    assert len(plans_made) == 4


def test_seed_000_previews_and_rolls_one_plan(make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 000's preview plans through the plan cache too (``planned``): the roll
    that follows on the same state reuses the preview's plan, whose odds the
    preview showed."""
    state = seed000_duel(make)
    ruleset = get_ruleset(state.ruleset_key, state.ruleset_options)
    assert isinstance(ruleset, Seed000)
    steps = ruleset.steps
    made: list[str] = []
    plan = steps.plan

    def counting(*args: object) -> object:
        made.append("plan")
        return plan(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(steps, "plan", counting)
    preview = ruleset.attacks.preview_attack(state, "f", "s", RAPIER)
    assert made == ["plan"]
    Battle(state, 3, get_ruleset).execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    assert made == ["plan"]
    assert sum(line.probability for line in preview.odds) == 1
