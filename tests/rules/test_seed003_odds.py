"""Seed 003's exact odds: 4dF by its 81 outcomes, the opposed roll by the 81 x 81,
and the attack pane's odds lines against the resolution itself, enumerated."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest

from rules.battle.model import Status
from rules.battle.terrain import Cover, TerrainChange
from rules.core.dice import ScriptedDice
from rules.core.enumerate import exact_outcomes
from rules.sets.components.fudge_locations import BodyPart, WoundLevel
from rules.sets.seed003.combat import Choices003, outcome_odds, plan_attack, resolve
from rules.sets.seed003.fudge_dice import (
    fudge_distribution,
    opposed_distribution,
    roll_fudge,
)
from rules.sets.seed003.tracks import body_of, with_body
from tests.rules.seed003_battle import duel, restat, ruleset, south, template

FACES = tuple(itertools.product((1, 2, 3), repeat=4))  # the 81 ways of 4dF


def test_4df_by_its_81_outcomes() -> None:
    counts: dict[int, int] = {}
    for faces in FACES:
        result = roll_fudge(0, ScriptedDice(faces), "test").result
        counts[result] = counts.get(result, 0) + 1
    assert counts == {-4: 1, -3: 4, -2: 10, -1: 16, 0: 19, 1: 16, 2: 10, 3: 4, 4: 1}
    assert fudge_distribution() == {k: Fraction(n, 81) for k, n in counts.items()}


@pytest.mark.parametrize("difference", [-3, 0, 2])
def test_opposed_roll_by_the_81_by_81_outcomes(difference: int) -> None:
    counts: dict[int, int] = {}
    for a, d in itertools.product(FACES, FACES):
        rel = (
            roll_fudge(difference, ScriptedDice(a), "a").result
            - roll_fudge(0, ScriptedDice(d), "d").result
        )
        counts[rel] = counts.get(rel, 0) + 1
    assert opposed_distribution(difference) == {k: Fraction(n, 6561) for k, n in counts.items()}


def _key(state, plan, dice):  # type: ignore[no-untyped-def]
    result = resolve(state, plan, dice, effects=False)
    return result.worst if result.hit else -1


@pytest.mark.parametrize(
    "choices",
    [
        Choices003("broadsword", "swing"),
        Choices003("broadsword", "swing", aim="left hand"),
        Choices003("broadsword", "swing", aim="head", large_target=True),
        Choices003("broadsword", "swing", widespread=True),
    ],
)
def test_odds_lines_match_every_face_of_the_resolution(choices: Choices003) -> None:
    """Brute force: every one of the 6561 ways the two rolls fall, through resolve."""
    state = duel()
    plan = plan_attack(state, "a", "d", choices)
    counts: dict[int, int] = {}
    for a, d in itertools.product(FACES, FACES):
        key = _key(state, plan, ScriptedDice(a + d))
        counts[key] = counts.get(key, 0) + 1
    expected = {k: Fraction(n, 6561) for k, n in counts.items()}
    assert outcome_odds(plan, state.combatant("d")) == dict(sorted(expected.items()))
    preview = ruleset().preview_attack(state, "a", "d", choices)
    assert sum(line.probability for line in preview.odds) == 1
    assert [line.probability for line in preview.odds] == [expected[k] for k in sorted(expected)]


def test_distant_shot_odds_with_the_random_location_enumerated() -> None:
    state = duel(template("archer"), defender_hex=south(25))
    plan = plan_attack(state, "a", "d", Choices003("shortbow", "shoot"))
    assert plan.aim is None
    enumerated = exact_outcomes(lambda dice: _key(state, plan, dice))
    assert dict(sorted(enumerated.items())) == outcome_odds(plan, state.combatant("d"))
    assert sum(enumerated.values()) == 1


def test_odds_behind_cover_enumerated() -> None:
    state = duel(template("archer"), defender_hex=south(25))
    state = replace(
        state, terrain=state.terrain.painted((south(25),), TerrainChange(cover=Cover.FULL))
    )
    for choices in (
        Choices003("shortbow", "shoot"),
        Choices003("shortbow", "shoot", widespread=True),
    ):
        plan = plan_attack(state, "a", "d", choices)
        assert BodyPart.TORSO in plan.hidden
        enumerated = exact_outcomes(lambda dice, plan=plan: _key(state, plan, dice))
        assert dict(sorted(enumerated.items())) == outcome_odds(plan, state.combatant("d"))


def test_a_helpless_defender_is_fixed_at_terrible() -> None:
    state = duel()
    state = state.with_combatants(state.combatant("d").evolve(status=Status.UNCONSCIOUS))
    plan = plan_attack(state, "a", "d", Choices003("broadsword", "swing"))
    assert plan.helpless and plan.difference == 1 + 3
    enumerated = exact_outcomes(lambda dice: _key(state, plan, dice))
    assert dict(sorted(enumerated.items())) == outcome_odds(plan, state.combatant("d"))


def _wounded(state, marks):  # type: ignore[no-untyped-def]
    d = state.combatant("d")
    body = body_of(d)
    for part, level in marks:
        body, _ = body.with_wound(part, level)
    return state.with_combatants(with_body(d, body))


@pytest.mark.parametrize(
    ("aim", "marks", "absent", "present"),
    [
        # The head's single Very Hurt box is checked: a Very Hurt wound checks an
        # Incapacitated box instead, so no line reads Very Hurt.
        ("head", ((BodyPart.HEAD, WoundLevel.VERY_HURT),), "hit: Very Hurt", "hit: Incapacitated"),
        # Both Crippled boxes of the hand checked: a Crippled wound takes it for good.
        (
            "left hand",
            ((BodyPart.LEFT_HAND, WoundLevel.NEAR_DEATH),) * 2,
            "hit: Crippled",
            "hit: limb lost",
        ),
    ],
)
def test_odds_read_the_box_each_wound_checks_on_the_defenders_tracks(
    aim: str, marks: tuple[tuple[BodyPart, WoundLevel], ...], absent: str, present: str
) -> None:
    """Brute force over the 6561 ways through resolve, on a wounded defender."""
    state = _wounded(duel(restat(template("swordsman"), strength=3)), marks)
    choices = Choices003("broadsword", "swing", aim=aim)
    plan = plan_attack(state, "a", "d", choices)
    counts: dict[int, int] = {}
    for a, d in itertools.product(FACES, FACES):
        key = _key(state, plan, ScriptedDice(a + d))
        counts[key] = counts.get(key, 0) + 1
    expected = {k: Fraction(n, 6561) for k, n in sorted(counts.items())}
    assert outcome_odds(plan, state.combatant("d")) == expected
    labels = {line.label for line in ruleset().preview_attack(state, "a", "d", choices).odds}
    assert absent not in labels and present in labels
