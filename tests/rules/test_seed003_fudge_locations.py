"""The FUDGE hit-location component (rules.sets.components.fudge_locations):
every row of 003 5.871's size and 1d6 tables, the sub-rolls, 5.872's capacities
and box counts, the wound track's moves, 5.874's worst-wound rule, 5.876's half."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RulesError
from rules.sets.components.fudge_locations import (
    AIM_TARGETS,
    BODY_PARTS,
    UNAIMED,
    BodyPart,
    BodyTracks,
    PartGroup,
    PartState,
    Side,
    WoundLevel,
    aim_target,
    ladder_label,
    part_capacity,
    random_location_odds,
    roll_random_location,
    standing_fight_parts,
    track_boxes,
    widespread_share,
    wound_for_damage,
)


def test_ladder_names_and_past_its_ends() -> None:
    assert [ladder_label(n) for n in range(-3, 4)] == [
        "Terrible",
        "Poor",
        "Mediocre",
        "Fair",
        "Good",
        "Great",
        "Superb",
    ]
    assert ladder_label(-5) == "Terrible-2"
    assert ladder_label(4) == "Superb+1"


@pytest.mark.parametrize(
    ("key", "part", "penalty"),
    [
        ("eyes", BodyPart.HEAD, -3),
        ("head", BodyPart.HEAD, -2),
        ("left hand", BodyPart.LEFT_HAND, -2),
        ("right foot", BodyPart.RIGHT_FOOT, -2),
        ("left arm", BodyPart.LEFT_ARM, -1),
        ("right leg", BodyPart.RIGHT_LEG, -1),
        ("torso", BodyPart.TORSO, 0),
    ],
)
def test_size_penalty_rows(key: str, part: BodyPart, penalty: int) -> None:
    target = aim_target(key)
    assert (target.part, target.penalty) == (part, penalty)


def test_unaimed_is_the_torso_and_unknown_parts_are_refused() -> None:
    assert aim_target(None) is UNAIMED
    assert UNAIMED.part is BodyPart.TORSO and UNAIMED.penalty == 0
    with pytest.raises(RulesError):
        aim_target("tail")
    assert len(AIM_TARGETS) == 11


def _brute_force() -> dict[BodyPart, Fraction]:
    """Every face of three d6 (the unused dice are counted as rolled and ignored)."""
    counts: dict[BodyPart, int] = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        dice = ScriptedDice(faces)
        part = roll_random_location(dice).part
        counts[part] = counts.get(part, 0) + 1
    return {p: Fraction(n, 216) for p, n in counts.items()}


def test_random_location_distribution_is_exact() -> None:
    odds = random_location_odds()
    assert odds == _brute_force()
    assert sum(odds.values()) == 1
    assert odds[BodyPart.TORSO] == Fraction(1, 3)
    assert odds[BodyPart.HEAD] == Fraction(1, 6)
    for part in (BodyPart.LEFT_ARM, BodyPart.RIGHT_ARM, BodyPart.LEFT_LEG, BodyPart.RIGHT_LEG):
        assert odds[part] == Fraction(1, 12)
    for part in (BodyPart.LEFT_HAND, BodyPart.RIGHT_HAND, BodyPart.LEFT_FOOT, BodyPart.RIGHT_FOOT):
        assert odds[part] == Fraction(1, 24)


@pytest.mark.parametrize(
    ("faces", "part", "used"),
    [
        ((1, 1, 1), BodyPart.LEFT_FOOT, 3),
        ((1, 3, 4), BodyPart.RIGHT_FOOT, 3),
        ((1, 4, 3), BodyPart.LEFT_HAND, 3),
        ((1, 6, 6), BodyPart.RIGHT_HAND, 3),
        ((2, 3), BodyPart.LEFT_LEG, 2),
        ((2, 4), BodyPart.RIGHT_LEG, 2),
        ((3,), BodyPart.TORSO, 1),
        ((4,), BodyPart.TORSO, 1),
        ((5, 1), BodyPart.LEFT_ARM, 2),
        ((5, 6), BodyPart.RIGHT_ARM, 2),
        ((6,), BodyPart.HEAD, 1),
    ],
)
def test_every_row_of_the_location_die_and_its_sub_rolls(
    faces: tuple[int, ...], part: BodyPart, used: int
) -> None:
    dice = ScriptedDice(faces)
    located = roll_random_location(dice)
    assert located.part is part
    assert located.faces == faces[:used]
    assert dice.unused == 0


@pytest.mark.parametrize(
    ("group", "offset"),
    [
        (PartGroup.FOOT, -2),
        (PartGroup.HAND, -2),
        (PartGroup.ARM, -1),
        (PartGroup.LEG, -1),
        (PartGroup.HEAD, -1),
        (PartGroup.TORSO, 0),
    ],
)
def test_part_capacity_rows(group: PartGroup, offset: int) -> None:
    assert part_capacity(0, group) == offset
    assert part_capacity(2, group) == 2 + offset


def test_the_seeds_fair_example_table() -> None:
    tracks = BodyTracks.for_capacity(0)
    expected = {
        BodyPart.TORSO: (2, 2, 2, 2, 2),
        BodyPart.HEAD: (2, 2, 1, 2, 2),
        BodyPart.LEFT_ARM: (2, 2, 1, 2, 2),
        BodyPart.LEFT_HAND: (2, 1, 1, 2, 2),
        BodyPart.RIGHT_ARM: (2, 2, 1, 2, 2),
        BodyPart.RIGHT_HAND: (2, 1, 1, 2, 2),
        BodyPart.LEFT_LEG: (2, 2, 1, 2, 2),
        BodyPart.LEFT_FOOT: (2, 1, 1, 2, 2),
        BodyPart.RIGHT_LEG: (2, 2, 1, 2, 2),
        BodyPart.RIGHT_FOOT: (2, 1, 1, 2, 2),
    }
    assert {t.part: t.boxes for t in tracks.parts} == expected


@pytest.mark.parametrize(
    ("capacity", "boxes"),
    [
        (-5, (1, 1, 1, 2, 2)),
        (-3, (1, 1, 1, 2, 2)),
        (-2, (2, 1, 1, 2, 2)),
        (-1, (2, 2, 1, 2, 2)),
        (0, (2, 2, 2, 2, 2)),
        (1, (2, 2, 3, 2, 2)),
        (2, (2, 3, 3, 2, 2)),
        (3, (3, 3, 3, 2, 2)),
    ],
)
def test_box_counts_by_capacity(capacity: int, boxes: tuple[int, ...]) -> None:
    assert track_boxes(capacity) == boxes


def test_a_full_level_moves_the_wound_up_and_past_the_track_a_limb_is_lost() -> None:
    tracks = BodyTracks.for_capacity(0)  # the left hand is Poor: 2 1 1 2 2
    states = []
    for _ in range(7):
        tracks, mark = tracks.with_wound(BodyPart.LEFT_HAND, WoundLevel.HURT)
        states.append((mark.marked, mark.after))
    assert states == [
        (WoundLevel.HURT, PartState.HURT),
        (WoundLevel.VERY_HURT, PartState.VERY_HURT),
        (WoundLevel.INCAPACITATED, PartState.USELESS),
        (WoundLevel.INCAPACITATED, PartState.USELESS),
        (WoundLevel.NEAR_DEATH, PartState.CRIPPLED),
        (WoundLevel.NEAR_DEATH, PartState.CRIPPLED),
        (None, PartState.LOST),
    ]
    # A lost limb stays lost.
    tracks, mark = tracks.with_wound(BodyPart.LEFT_HAND, WoundLevel.SCRATCH)
    assert mark.after is PartState.LOST and tracks.track(BodyPart.LEFT_HAND).boxes_free == 0


def test_body_states_incapacitated_near_death_dead() -> None:
    tracks = BodyTracks.for_capacity(0)
    tracks, mark = tracks.with_wound(BodyPart.HEAD, WoundLevel.INCAPACITATED)
    assert mark.after is PartState.INCAPACITATED and tracks.body_state is PartState.INCAPACITATED
    for _ in range(3):
        tracks, mark = tracks.with_wound(BodyPart.TORSO, WoundLevel.NEAR_DEATH)
    assert mark.marked is None and tracks.body_state is PartState.DEAD


def test_only_the_worst_wound_of_the_activity_counts() -> None:
    """003 5.874's example: Hurt right arm, Very Hurt left leg, Hurt right foot."""
    tracks = BodyTracks.for_capacity(0)
    tracks, _ = tracks.with_wound(BodyPart.RIGHT_ARM, WoundLevel.HURT)
    tracks, _ = tracks.with_wound(BodyPart.LEFT_LEG, WoundLevel.VERY_HURT)
    tracks, _ = tracks.with_wound(BodyPart.RIGHT_FOOT, WoundLevel.HURT)
    fighting = standing_fight_parts(Side.RIGHT)
    assert tracks.activity_penalty(fighting) == (-2, BodyPart.LEFT_LEG)
    # Picking a lock: the right arm and hand only.
    assert tracks.activity_penalty((BodyPart.RIGHT_ARM, BodyPart.RIGHT_HAND)) == (
        -1,
        BodyPart.RIGHT_ARM,
    )
    assert tracks.activity_penalty((BodyPart.LEFT_HAND,)) == (0, None)


def test_torso_wounds_count_for_every_activity() -> None:
    tracks, _ = BodyTracks.for_capacity(0).with_wound(BodyPart.TORSO, WoundLevel.HURT)
    assert tracks.activity_penalty(()) == (-1, BodyPart.TORSO)


def test_standing_fight_parts() -> None:
    assert standing_fight_parts(Side.LEFT) == {
        BodyPart.LEFT_LEG,
        BodyPart.LEFT_FOOT,
        BodyPart.RIGHT_LEG,
        BodyPart.RIGHT_FOOT,
        BodyPart.LEFT_ARM,
        BodyPart.LEFT_HAND,
    }
    assert len(standing_fight_parts(Side.RIGHT, two_handed=True)) == 8


@pytest.mark.parametrize(
    ("damage", "level"),
    [
        (-1, None),
        (0, None),
        (1, WoundLevel.SCRATCH),
        (2, WoundLevel.SCRATCH),
        (3, WoundLevel.HURT),
        (4, WoundLevel.HURT),
        (5, WoundLevel.VERY_HURT),
        (6, WoundLevel.VERY_HURT),
        (7, WoundLevel.INCAPACITATED),
        (8, WoundLevel.INCAPACITATED),
        (9, WoundLevel.NEAR_DEATH),
        (15, WoundLevel.NEAR_DEATH),
    ],
)
def test_damage_table_rows(damage: int, level: WoundLevel | None) -> None:
    assert wound_for_damage(damage) is level


@pytest.mark.parametrize(("damage", "share"), [(0, 0), (1, 1), (2, 1), (3, 2), (8, 4), (9, 5)])
def test_widespread_half_rounded_up(damage: int, share: int) -> None:
    assert widespread_share(damage) == share


def test_parts_and_their_rules() -> None:
    assert [p.drops_held for p in BODY_PARTS].count(True) == 4
    assert [p.fells for p in BODY_PARTS].count(True) == 4
    assert BodyPart.of(PartGroup.HAND, Side.LEFT) is BodyPart.LEFT_HAND
    with pytest.raises(RulesError):
        BodyPart.of(PartGroup.HAND)
    assert WoundLevel.INCAPACITATED.label(BodyPart.LEFT_ARM.kind) == "Useless"
    assert WoundLevel.NEAR_DEATH.label(BodyPart.HEAD.kind) == "Near Death"


def test_a_wound_mark_in_a_gms_words() -> None:
    tracks = BodyTracks.for_capacity(0)
    tracks, mark = tracks.with_wound(BodyPart.RIGHT_ARM, WoundLevel.INCAPACITATED)
    assert mark.describe() == "Right arm: Useless"
    tracks, mark = tracks.with_wound(BodyPart.RIGHT_ARM, WoundLevel.SCRATCH)
    assert mark.describe() == "Right arm: Scratch"
    tracks, mark = tracks.with_wound(BodyPart.HEAD, WoundLevel.VERY_HURT)
    tracks, mark = tracks.with_wound(BodyPart.HEAD, WoundLevel.VERY_HURT)
    assert mark.describe() == "Head: Very Hurt, box full: marked Incapacitated"
    tracks, mark = tracks.with_wound(BodyPart.TORSO, WoundLevel.SCRATCH)
    assert mark.describe() == "Torso: Scratch"
    for _ in range(5):
        tracks, mark = tracks.with_wound(BodyPart.LEFT_FOOT, WoundLevel.NEAR_DEATH)
    assert mark.describe() == "Left foot: Crippled, no box left: lost"
