"""rules.sets.components.zones_2d6: every row of the 2d6 zone table, the exact zone
distribution (against enumeration of every face pair), aiming by size steps and
the human vital-organ rules at and around their thresholds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules.core.dice import ScriptedDice
from rules.core.enumerate import exact_outcomes
from rules.sets.components.zones_2d6 import (
    ZONE_TABLE,
    Blow,
    Size,
    Zone,
    aim_problem,
    aimed_size,
    armor_zone,
    roll_zone,
    zone_damage,
    zone_distribution,
    zone_for_roll,
)


@pytest.mark.parametrize(
    ("total", "zone", "multiplier"),
    [
        (2, Zone.HEART, 6),
        (3, Zone.LEGS, 1),
        (4, Zone.LEGS, 1),
        (5, Zone.TORSO, 2),
        (6, Zone.TORSO, 2),
        (7, Zone.TORSO, 2),
        (8, Zone.ARMS, 1),
        (9, Zone.ARMS, 1),
        (10, Zone.HEAD, 3),
        (11, Zone.HEAD, 3),
        (12, Zone.BRAIN, 6),
    ],
)
def test_every_total_of_the_table(total: int, zone: Zone, multiplier: int) -> None:
    assert zone_for_roll(total) is zone
    assert zone.multiplier == multiplier
    faces = (1, total - 1) if total <= 7 else (total - 6, 6)
    rolled = roll_zone(ScriptedDice(faces))
    assert (rolled.total, rolled.zone, rolled.faces) == (total, zone, faces)


def test_the_table_covers_2_to_12_once() -> None:
    totals = [t for row in ZONE_TABLE for t in row.rolls]
    assert totals == list(range(2, 13))
    with pytest.raises(ValueError):
        zone_for_roll(13)


def test_zone_distribution_is_exact_by_enumeration() -> None:
    counted: dict[Zone, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        zone = zone_for_roll(a + b)
        counted[zone] = counted.get(zone, 0) + 1
    expected = {z: Fraction(n, 36) for z, n in counted.items()}
    assert dict(zone_distribution()) == expected
    assert dict(exact_outcomes(lambda d: roll_zone(d).zone, by_totals=False)) == expected
    assert expected[Zone.TORSO] == Fraction(15, 36)
    assert expected[Zone.HEART] == expected[Zone.BRAIN] == Fraction(1, 36)
    assert sum(expected.values()) == 1


@pytest.mark.parametrize(
    ("target", "zone", "aimed"),
    [
        (Size.MEDIUM, Zone.TORSO, Size.SMALL),
        (Size.MEDIUM, Zone.HEAD, Size.SMALL),
        (Size.MEDIUM, Zone.HEART, Size.TINY),
        (Size.MEDIUM, Zone.BRAIN, Size.TINY),
        (Size.SMALL, Zone.ARMS, Size.TINY),
        (Size.SMALL, Zone.HEART, None),
        (Size.TINY, Zone.LEGS, None),
        (Size.HUGE, Zone.BRAIN, Size.MEDIUM),
        (Size.LARGE, Zone.LEGS, Size.MEDIUM),
    ],
)
def test_aiming_by_size_steps(target: Size, zone: Zone, aimed: Size | None) -> None:
    assert aimed_size(target, zone) is aimed
    assert (aim_problem(target, zone) == "") is (aimed is not None)


def test_vital_organs_wear_the_surrounding_armor() -> None:
    assert armor_zone(Zone.HEART) is Zone.TORSO
    assert armor_zone(Zone.BRAIN) is Zone.HEAD
    assert armor_zone(Zone.ARMS) is Zone.ARMS


@pytest.mark.parametrize(
    ("zone", "blow", "left", "exposed", "took", "damage"),
    [
        # bludgeoning below 10 is moved, with the surrounding zone's multiplier
        (Zone.HEART, Blow.BLUDGEONING, 9, False, Zone.TORSO, 18),
        (Zone.BRAIN, Blow.BLUDGEONING, 9, False, Zone.HEAD, 27),
        (Zone.BRAIN, Blow.BLUDGEONING, 1, False, Zone.HEAD, 3),
        # exactly 10 reaches the organ
        (Zone.HEART, Blow.BLUDGEONING, 10, False, Zone.HEART, 60),
        (Zone.BRAIN, Blow.BLUDGEONING, 11, False, Zone.BRAIN, 66),
        # slashing: nothing unless exposed
        (Zone.HEART, Blow.SLASHING, 8, False, Zone.HEART, 0),
        (Zone.BRAIN, Blow.SLASHING, 8, True, Zone.BRAIN, 48),
        # an exposed organ has no bone before it: no rule applies, x6
        (Zone.HEART, Blow.PIERCING, 2, True, Zone.HEART, 12),
        (Zone.HEART, Blow.BLUDGEONING, 6, True, Zone.HEART, 36),
        (Zone.BRAIN, Blow.PIERCING, 1, True, Zone.BRAIN, 6),
        # piercing: above 2 full, exactly 2 and below stopped
        (Zone.HEART, Blow.PIERCING, 3, False, Zone.HEART, 18),
        (Zone.BRAIN, Blow.PIERCING, 2, False, Zone.BRAIN, 0),
        (Zone.HEART, Blow.PIERCING, 1, False, Zone.HEART, 0),
        # other damage: no bone rule
        (Zone.HEART, Blow.OTHER, 1, False, Zone.HEART, 6),
        # nothing left after armor
        (Zone.HEART, Blow.PIERCING, 0, False, Zone.HEART, 0),
        (Zone.TORSO, Blow.SLASHING, -3, False, Zone.TORSO, 0),
        # the other zones are plain multipliers whatever the blow
        (Zone.TORSO, Blow.SLASHING, 4, False, Zone.TORSO, 8),
        (Zone.HEAD, Blow.BLUDGEONING, 4, False, Zone.HEAD, 12),
        (Zone.ARMS, Blow.PIERCING, 4, False, Zone.ARMS, 4),
        (Zone.LEGS, Blow.PIERCING, 1, False, Zone.LEGS, 1),
    ],
)
def test_zone_damage(
    zone: Zone, blow: Blow, left: int, exposed: bool, took: Zone, damage: int
) -> None:
    done = zone_damage(zone, blow, left, exposed=exposed)
    assert (done.zone, done.damage) == (took, damage)
    assert done.damage == done.base * done.multiplier
    assert done.moved is (took is not zone)
