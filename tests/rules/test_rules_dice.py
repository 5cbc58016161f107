"""rules.core.dice: rolling with an injected generator and exact distributions."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest

from rules.core.dice import (
    Dice,
    DiceRoll,
    SeededDice,
    dice_distribution,
    distribution,
    parse_dice,
    roll,
    roll_dice,
)
from rules.core.errors import DataError, RulesError


def brute_force(count: int) -> dict[int, Fraction]:
    """Independent reference: every face combination via itertools.product."""
    sums = Counter(sum(faces) for faces in itertools.product(range(1, 7), repeat=count))
    return {t: Fraction(n, 6**count) for t, n in sums.items()}


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 5])
def test_distribution_matches_product_enumeration(count: int) -> None:
    assert dict(distribution(count)) == brute_force(count)


def test_distribution_of_3d6_known_counts() -> None:
    d = distribution(3)
    assert sum(d.values()) == 1
    assert d[3] == d[18] == Fraction(1, 216)
    assert d[10] == d[11] == Fraction(27, 216)
    assert min(d) == 3 and max(d) == 18


def test_distribution_is_read_only_and_cached() -> None:
    assert distribution(3) is distribution(3)
    with pytest.raises(TypeError):
        distribution(3)[3] = Fraction(0)  # type: ignore[index]


def test_roll_uses_only_the_given_generator() -> None:
    a = roll(10, random.Random(42))
    random.seed(0)  # the global generator must not matter
    b = roll(10, random.Random(42))
    assert a == b
    assert len(a) == 10 and all(1 <= f <= 6 for f in a)


def test_roll_rejects_bad_counts() -> None:
    with pytest.raises(RulesError):
        roll(-1, random.Random(1))
    with pytest.raises(RulesError):
        distribution(-2)
    with pytest.raises(ValueError):  # domain errors are ValueErrors
        roll(True, random.Random(1))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["hexfray/1/0", "hexfray/7/41", 3])
def test_seeded_dice_give_random_randints_faces(seed: str | int) -> None:
    """A seed rolls the faces ``random.Random.randint`` gives it, die by die, for
    whole rolls and single dice alike, so every logged battle replays as before."""
    dice, reference = SeededDice(seed), random.Random(seed)
    for sides in (6, 1, 2, 3, 5, 7, 20, 100):
        assert dice.roll(3, sides) == tuple(reference.randint(1, sides) for _ in range(3))
        for low, high in ((1, 6), (0, 0), (-3, 4), (5, 1000)):
            assert dice.randint(low, high) == reference.randint(low, high)
    assert dice.roll(0, 6) == ()
    assert dice.faces == tuple(dice.trace)
    with pytest.raises(ValueError):
        dice.randint(3, 2)


@pytest.mark.parametrize("seed", range(30))
def test_roll_dice_record_is_consistent(seed: int) -> None:
    dice = Dice(2, -4)
    r = roll_dice(dice, random.Random(seed))
    assert isinstance(r, DiceRoll)
    assert r.raw == sum(r.faces) + dice.adds
    assert r.total == max(0, r.raw)
    assert len(r.faces) == 2


def test_dice_distribution_with_minimum_is_exact() -> None:
    # 1d-2 with the damage floor of 0: faces 1 and 2 both give 0.
    d = dice_distribution(Dice(1, -2))
    assert d[0] == Fraction(2, 6)
    assert d[4] == Fraction(1, 6)
    assert sum(d.values()) == 1
    unfloored = dice_distribution(Dice(1, -2), minimum=None)
    assert unfloored[-1] == unfloored[0] == Fraction(1, 6)


@pytest.mark.parametrize(
    ("text", "dice"),
    [
        ("2d", Dice(2)),
        ("1d-2", Dice(1, -2)),
        ("3d+1", Dice(3, 1)),
        ("2d6+1", Dice(2, 1)),
        (" 4d - 1 ", Dice(4, -1)),
    ],
)
def test_parse_dice(text: str, dice: Dice) -> None:
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["", "d6", "2", "2d8", "2d+", "x2d", "1d+-2", "999d"])
def test_parse_dice_rejects_garbage(text: str) -> None:
    with pytest.raises(DataError):
        parse_dice(text)
