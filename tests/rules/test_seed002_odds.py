"""Seed 002's exact odds: the success levels by counting the d100's faces, the
damage by enumerating every die, and the attack pane's odds against a brute
force that resolves the attack through ``Battle`` for each of the 100 x 100
faces of the attack and the defense."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from hexmap import Hex
from rules.battle.commands import Attack
from rules.battle.model import Status
from rules.battle.state import BattleState
from rules.core.enumerate import exact_outcomes
from rules.sets.seed002.attack import (
    DODGE_ANSWER,
    NO_DEFENSE,
    Attack002,
    DefenseKind,
    Seed002Answer,
    defense_made,
    plan_attack,
)
from rules.sets.seed002.attack_steps import harm_odds, roll_damage
from rules.sets.seed002.events import DamageDealt, Fumbled, MajorWoundRolled, ResultApplied
from rules.sets.seed002.situation import GMSituation
from rules.sets.seed002.success import critical_threshold, level_of, level_probabilities
from rules.sets.seed002.tables import Automatic, Level
from tests.rules.seed002_duel import (
    RULESET,
    FacesThenOnes,
    battle,
    duel,
    fighter,
    of,
    parry,
    sword,
)


@pytest.mark.parametrize(
    ("skill", "counts"),
    [
        (50, (5, 45, 49, 1)),
        (0, (0, 5, 94, 1)),
        (-30, (0, 5, 94, 1)),
        (7, (1, 6, 92, 1)),
        (120, (12, 83, 4, 1)),
        (95, (10, 85, 4, 1)),
    ],
)
def test_success_levels_by_counting_the_faces(skill: int, counts: tuple[int, ...]) -> None:
    """Base rules: critical at a tenth (rounded up), 01-05 succeed, 96-99 fail, 00 fumbles."""
    found = Counter(level_of(face, skill) for face in range(1, 101))
    assert tuple(found[level] for level in Level) == counts
    assert level_probabilities(skill) == {
        lv: Fraction(n, 100) for lv, n in zip(Level, counts, strict=True)
    }
    assert level_of(100, 500) is Level.FUMBLE
    assert critical_threshold(41) == 5


def test_automatic_results_are_certain() -> None:
    assert level_probabilities(10, Automatic.CRITICAL)[Level.CRITICAL] == 1
    assert level_probabilities(90, Automatic.FAILURE)[Level.FAILURE] == 1


def test_damage_distribution_matches_every_die() -> None:
    state = duel(fighter("Strong", strength=18, size=14))  # +1d4
    plan = plan_attack(state, "a", "d", sword())
    brute: Counter[int] = Counter(a + b for a, b in itertools.product(range(1, 9), range(1, 5)))
    assert rolled(plan) == {k: Fraction(n, 32) for k, n in brute.items()}
    weak = plan_attack(duel(fighter("Weak", strength=5, size=5)), "a", "d", sword())  # -1d6
    floored: Counter[int] = Counter(
        max(0, a - b) for a, b in itertools.product(range(1, 9), range(1, 7))
    )
    assert rolled(weak) == {k: Fraction(n, 48) for k, n in floored.items()}


def rolled(plan):  # type: ignore[no-untyped-def]
    """The damage ``decide`` rolls (``roll_damage``), on every way its dice fall."""
    return dict(exact_outcomes(lambda dice: roll_damage(plan, dice)[1]))


def outcome(events) -> str:  # type: ignore[no-untyped-def]
    fumblers = {e.combatant_id for e in of(events, Fumbled)}
    if "a" in fumblers:
        return "attacker fumbles"
    if of(events, ResultApplied)[0].text == "the attack misses":
        return "miss"
    damage = of(events, DamageDealt)
    if not damage:
        return "avoided"
    fumbles = ", defender fumbles" if "d" in fumblers else ""
    if damage[0].maximum:
        return "critical hit" + fumbles
    if damage[0].halved:
        return "half damage"
    return "hit" + fumbles


def brute_force(
    state: BattleState, choices: Attack002, answer: Seed002Answer = DODGE_ANSWER
) -> dict[str, Fraction]:
    counts: Counter[str] = Counter()
    plan = plan_attack(state, "a", "d", choices)
    defends = defense_made(plan, answer).kind is not DefenseKind.NONE
    for fa, fd in itertools.product(range(1, 101), repeat=2):
        b = battle(state)
        faces = (fa, fd) if defends else (fa,)
        command = Attack("a", "d", choices, answer)
        counts[outcome(b.execute(command, FacesThenOnes(faces)))] += 1
    return {k: Fraction(n, 10_000) for k, n in counts.items()}


def preview(
    state: BattleState, choices: Attack002, answer: Seed002Answer = DODGE_ANSWER
) -> dict[str, Fraction]:
    lines = RULESET.attacks.preview_attack(state, "a", "d", choices, answer).odds
    assert sum(line.probability for line in lines) == 1
    return {line.label: line.probability for line in lines}


TOUGH = fighter("Defender", ("longsword", "dagger"), hp=100)


@pytest.mark.parametrize(
    ("choices", "answer"),
    [
        (sword(), DODGE_ANSWER),
        (sword(), parry("dagger")),
        (sword(), parry("longsword")),
        (sword(), NO_DEFENSE),
        (sword(helpless=True), DODGE_ANSWER),
    ],
    ids=["dodge", "parry-smaller", "parry-equal", "none", "helpless"],
)
def test_preview_odds_match_brute_force_of_both_d100(
    choices: Attack002, answer: Seed002Answer
) -> None:
    state = duel(None, TOUGH)
    assert preview(state, choices, answer) == brute_force(state, choices, answer)


def test_preview_odds_of_a_two_ranks_smaller_parry_and_high_skills() -> None:
    staff = fighter("Staff", ("quarterstaff",), skills={"Close Combat": 120})
    state = duel(staff, TOUGH)
    choices = Attack002("quarterstaff", "strike")
    odds = preview(state, choices, parry("dagger"))
    assert odds == brute_force(state, choices, parry("dagger"))
    assert "half damage" not in odds


def test_preview_names_the_skills_and_the_modifiers() -> None:
    shown = RULESET.attacks.preview_attack(
        duel(None, TOUGH), "a", "d", sword(attacker_mounted=True)
    )
    assert shown.summary.startswith("Close Combat 75% (Longsword, cut, 1d8)")
    assert [m.value for m in shown.modifiers] == [25, -25]
    assert shown.modifiers[1].reason.startswith("defense: ")


def test_kill_and_major_wound_chances_match_brute_force_of_every_die() -> None:
    """A shortsword (1d6) parried by a dagger (one rank smaller: half damage) on a
    defender of 6 HP (Major Wound Level 3) in hard leather: every face of the
    attack, the parry and the damage die through ``Battle``."""
    state = duel(fighter("Swordsman", ("shortsword",)), fighter("Small", ("dagger",), hp=6))
    choices, answer = Attack002("shortsword", "cut"), parry("dagger")
    kills = majors = 0
    for fa, fd, fx in itertools.product(range(1, 101), range(1, 101), range(1, 7)):
        b = battle(state)
        events = b.execute(Attack("a", "d", choices, answer), FacesThenOnes((fa, fd, fx)))
        kills += b.state.combatant("d").status is Status.DEAD
        majors += bool(of(events, MajorWoundRolled))
    plan = plan_attack(state, "a", "d", choices)
    assert harm_odds(plan, answer) == (Fraction(kills, 60_000), Fraction(majors, 60_000))
    summary = RULESET.attacks.preview_attack(state, "a", "d", choices, answer).summary
    assert summary.endswith(
        f"kills {float(Fraction(kills, 60_000)) * 100:.1f}%, "
        f"major wound {float(Fraction(majors, 60_000)) * 100:.1f}%"
    )


@pytest.mark.parametrize(
    "gm",
    [{}, {"wind": "high-wind", "obscured": "obscured"}, {"wind": "hurricane"}, {"helpless": True}],
    ids=["shot", "wind-and-mist", "hurricane", "helpless"],
)
def test_preview_odds_of_a_shot_match_brute_force_of_both_d100(gm: dict[str, object]) -> None:
    """The ranged table's rows (a section's row, two sections together, an
    automatic failure, a helpless target that makes no defense) through the
    same brute force over both d100s."""
    archer = fighter("Archer", ("shortbow",))
    state = duel(archer, TOUGH, defender_hex=Hex.from_offset(8, 15))
    choices = Attack002("shortbow", "shoot", gm=GMSituation(**gm))  # type: ignore[arg-type]
    odds = preview(state, choices)
    assert odds == brute_force(state, choices)
    if gm.get("wind") == "hurricane":
        assert odds == {"miss": 1}
