"""Seed 003's exact odds: 4dF by its 81 outcomes, the opposed roll by the 81 x 81,
and the attack pane's odds lines, which enumerate ``decide`` by the dice's totals,
against ``decide`` run on every face of the two rolls."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest

from rules.battle.attack_odds import attack_odds
from rules.battle.attack_outcome import ActiveDefense, Landing, OutcomeKind
from rules.battle.model import Status
from rules.battle.terrain import Cover, TerrainChange
from rules.core.dice import ScriptedDice
from rules.core.enumerate import exact_outcomes
from rules.sets.components.fudge_locations import BodyPart, WoundLevel, random_location_odds
from rules.sets.seed003.attack_steps import NO_HIT, STEPS, decide, worst_wound_odds
from rules.sets.seed003.combat import BEST_DEFENSE, Choices003, Defense, Seed003Answer, plan_attack
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


STAND_PADDING = (2, 2, 2, 2)  # an Agility roll to stay up, after the two rolls


def _key(state, plan, dice):  # type: ignore[no-untyped-def]
    rolls = decide(plan, BEST_DEFENSE, dice).payload
    return rolls.worst if rolls.hit else NO_HIT


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
    """Brute force: every one of the 6561 ways the two rolls fall, through decide."""
    state = duel()
    plan = plan_attack(state, "a", "d", choices)
    counts: dict[int, int] = {}
    for a, d in itertools.product(FACES, FACES):
        key = _key(state, plan, ScriptedDice(a + d + STAND_PADDING))
        counts[key] = counts.get(key, 0) + 1
    expected = {k: Fraction(n, 6561) for k, n in counts.items()}
    assert worst_wound_odds(plan, BEST_DEFENSE) == dict(sorted(expected.items()))
    preview = ruleset().attacks.preview_attack(state, "a", "d", choices)
    assert sum(line.probability for line in preview.odds) == 1
    assert [line.probability for line in preview.odds] == [expected[k] for k in sorted(expected)]


def _hit_and_where(plan):  # type: ignore[no-untyped-def]
    """decide enumerated: whether it hit, where the random location fell, and the
    parts wounded or spared."""

    def read(dice):  # type: ignore[no-untyped-def]
        rolls = decide(plan, BEST_DEFENSE, dice).payload
        where = None if rolls.located is None else rolls.located.part
        return rolls.hit, where, tuple(w.part for w in rolls.wounds)

    return exact_outcomes(read, by_reads=True)


def _hit_chance(plan) -> Fraction:  # type: ignore[no-untyped-def]
    rels = opposed_distribution(plan.difference())
    return sum((p for rel, p in rels.items() if rel > 0), Fraction(0))


def test_distant_shot_odds_with_the_random_location_enumerated() -> None:
    """A hit lands on the random location, rolled apart from the opposed rolls:
    each part's chance is the hit's times the location table's."""
    state = duel(template("archer"), defender_hex=south(25))
    plan = plan_attack(state, "a", "d", Choices003("shortbow", "shoot"))
    assert plan.aim is None
    found = _hit_and_where(plan)
    hit = _hit_chance(plan)
    for part, chance in random_location_odds().items():
        assert found[(True, part, (part,))] == hit * chance
    assert found[(False, None, ())] == 1 - hit
    assert sum(worst_wound_odds(plan, BEST_DEFENSE).values()) == 1


def test_odds_behind_cover_enumerated() -> None:
    """Full cover: a random location on a hidden part strikes the cover (no part
    wounded); a widespread shot wounds every part but the hidden ones."""
    state = duel(template("archer"), defender_hex=south(25))
    state = replace(
        state, terrain=state.terrain.painted((south(25),), TerrainChange(cover=Cover.FULL))
    )
    plan = plan_attack(state, "a", "d", Choices003("shortbow", "shoot"))
    assert BodyPart.TORSO in plan.hidden
    found = _hit_and_where(plan)
    hit = _hit_chance(plan)
    hidden = sum((p for part, p in random_location_odds().items() if part in plan.hidden))
    covered = sum((p for (struck, _, parts), p in found.items() if struck and not parts))
    assert covered == hit * hidden
    blast = plan_attack(state, "a", "d", Choices003("shortbow", "shoot", widespread=True))
    found = _hit_and_where(blast)
    assert found[(True, None, blast.exposed)] == _hit_chance(blast)
    assert not set(blast.exposed) & blast.hidden


def test_a_helpless_defender_is_fixed_at_terrible() -> None:
    state = duel()
    state = state.with_combatants(state.combatant("d").evolve(status=Status.UNCONSCIOUS))
    plan = plan_attack(state, "a", "d", Choices003("broadsword", "swing"))
    assert plan.helpless and plan.difference() == 1 + 3
    enumerated = exact_outcomes(lambda dice: _key(state, plan, dice), by_totals=False)
    assert dict(sorted(enumerated.items())) == worst_wound_odds(plan, BEST_DEFENSE)
    hit = sum((p for rel, p in fudge_distribution().items() if 1 + 3 + rel > 0), Fraction(0))
    assert sum(p for k, p in enumerated.items() if k != NO_HIT) == hit


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
    """Brute force over the 6561 ways through decide, on a wounded defender."""
    state = _wounded(duel(restat(template("swordsman"), strength=3)), marks)
    choices = Choices003("broadsword", "swing", aim=aim)
    plan = plan_attack(state, "a", "d", choices)
    counts: dict[int, int] = {}
    for a, d in itertools.product(FACES, FACES):
        key = _key(state, plan, ScriptedDice(a + d + STAND_PADDING))
        counts[key] = counts.get(key, 0) + 1
    expected = {k: Fraction(n, 6561) for k, n in sorted(counts.items())}
    assert worst_wound_odds(plan, BEST_DEFENSE) == expected
    labels = {
        line.label for line in ruleset().attacks.preview_attack(state, "a", "d", choices).odds
    }
    assert absent not in labels and present in labels


@pytest.mark.parametrize("defense", [Defense.PARRY, Defense.DODGE])
def test_the_shared_odds_of_each_answer_are_the_opposed_rolls(defense: Defense) -> None:
    """``attack_odds`` enumerates decide: the chance of a hit is the opposed roll's
    chance of +1 or more at the two levels, the rest is the defense's."""
    state = duel()
    plan = plan_attack(state, "a", "d", Choices003("broadsword", "swing"))
    answer = Seed003Answer(defense)
    odds = attack_odds(STEPS, plan, answer)
    hit = sum((p for rel, p in opposed_distribution(plan.difference(answer)).items() if rel > 0))
    assert odds.chance(OutcomeKind(Landing.HIT)) == hit
    defended = OutcomeKind(Landing.DEFENDED, ActiveDefense(defense.value))
    assert odds.chance(defended) == 1 - hit
    assert sum(odds.kinds.values()) == 1
    assert 0 < odds.takes_out < hit and odds.expected_injury > 0


def test_the_answers_are_the_defenses_the_defender_can_make_the_better_first() -> None:
    state = duel()
    plan = plan_attack(state, "a", "d", Choices003("broadsword", "swing"))
    assert STEPS.answers(plan)[0] == Seed003Answer(plan.best)
    assert {a.defense for a in STEPS.answers(plan)} == {Defense.PARRY, Defense.DODGE}
    shot = plan_attack(
        duel(template("archer"), defender_hex=south(3)), "a", "d", Choices003("shortbow", "shoot")
    )
    assert STEPS.answers(shot) == (Seed003Answer(Defense.DODGE),)


def test_the_odds_by_what_is_read_equal_the_odds_by_every_total() -> None:
    """The pane's odds branch on the location's dice and the Agility roll to stay
    up by what decide reads of them; the same odds enumerated by every total."""
    plan = plan_attack(duel(), "a", "d", Choices003("broadsword", "swing", aim="left leg"))
    by_totals = exact_outcomes(lambda dice: _key(None, plan, dice))
    assert worst_wound_odds(plan, BEST_DEFENSE) == dict(sorted(by_totals.items()))
    shot = plan_attack(
        duel(template("archer"), defender_hex=south(25)), "a", "d", Choices003("shortbow", "shoot")
    )
    helpless = shot.defender.evolve(status=Status.UNCONSCIOUS)
    shot = replace(shot, defender=helpless, defenses=(), best=None)
    by_totals = exact_outcomes(lambda dice: _key(None, shot, dice))
    assert worst_wound_odds(shot, BEST_DEFENSE) == dict(sorted(by_totals.items()))
