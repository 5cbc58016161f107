"""arc_of, the wedges and their boundary rule, front arcs and direction_to."""

import math
import random

import pytest

from hexmap import (
    Arc,
    Facing,
    Handedness,
    Hex,
    HexmapError,
    Layout,
    arc_direction,
    arc_of,
    direction_to,
    front_arc_hexes,
    in_front_arc,
    ring,
    wedges_of,
)

RIGHT, LEFT = Handedness.RIGHT, Handedness.LEFT
ORIGIN = Hex(0, 0)

# Written out by hand, NOT derived from the code under test.
FACING_N_RIGHT_HANDED = {
    Hex(0, -1): Arc.FRONT,  # N
    Hex(1, -1): Arc.WEAPON_FRONT,  # NE: right-hand side
    Hex(1, 0): Arc.WEAPON_SIDE,  # SE
    Hex(0, 1): Arc.REAR,  # S
    Hex(-1, 1): Arc.SHIELD_SIDE,  # SW: shield on the left
    Hex(-1, 0): Arc.SHIELD_FRONT,  # NW
}
FACING_SE_LEFT_HANDED = {
    Hex(1, 0): Arc.FRONT,  # SE
    Hex(0, 1): Arc.SHIELD_FRONT,  # S: clockwise of SE, the right, the shield side
    Hex(-1, 1): Arc.SHIELD_SIDE,  # SW
    Hex(-1, 0): Arc.REAR,  # NW
    Hex(0, -1): Arc.WEAPON_SIDE,  # N
    Hex(1, -1): Arc.WEAPON_FRONT,  # NE
}
# Arc of the neighbour k steps clockwise of the facing, right-handed.
BY_STEP_RIGHT = [
    Arc.FRONT,
    Arc.WEAPON_FRONT,
    Arc.WEAPON_SIDE,
    Arc.REAR,
    Arc.SHIELD_SIDE,
    Arc.SHIELD_FRONT,
]
MIRROR = {
    Arc.FRONT: Arc.FRONT,
    Arc.REAR: Arc.REAR,
    Arc.SHIELD_FRONT: Arc.WEAPON_FRONT,
    Arc.WEAPON_FRONT: Arc.SHIELD_FRONT,
    Arc.SHIELD_SIDE: Arc.WEAPON_SIDE,
    Arc.WEAPON_SIDE: Arc.SHIELD_SIDE,
}


def test_explicit_table_facing_n_right_handed() -> None:
    for target, arc in FACING_N_RIGHT_HANDED.items():
        assert arc_of(target, ORIGIN, Facing.N, RIGHT) is arc


def test_explicit_table_facing_se_left_handed() -> None:
    origin = Hex(4, -7)
    for target, arc in FACING_SE_LEFT_HANDED.items():
        assert arc_of(origin + target, origin, Facing.SE, LEFT) is arc


@pytest.mark.parametrize("facing", list(Facing))
@pytest.mark.parametrize("handedness", list(Handedness))
def test_adjacent_hexes_all_facings(facing: Facing, handedness: Handedness) -> None:
    origin = Hex(-3, 5)
    for k in range(6):
        target = origin + facing.vector.rotated(k)
        expected = BY_STEP_RIGHT[k] if handedness is RIGHT else MIRROR[BY_STEP_RIGHT[k]]
        assert arc_of(target, origin, facing, handedness) is expected


@pytest.mark.parametrize("facing", list(Facing))
@pytest.mark.parametrize("handedness", list(Handedness))
def test_own_hex_is_front(facing: Facing, handedness: Handedness) -> None:
    assert arc_of(Hex(2, 2), Hex(2, 2), facing, handedness) is Arc.FRONT


def reference_arc(target: Hex, origin: Hex, facing: Facing, handedness: Handedness) -> Arc:
    """Independent float version: angle in pixel space, 60° wedges, ties to the front."""
    layout = Layout(size=1.0)
    ox, oy = layout.hex_to_pixel(origin)
    tx, ty = layout.hex_to_pixel(target)
    fx, fy = layout.hex_to_pixel(origin + facing.vector)
    bearing = math.degrees(math.atan2(tx - ox, oy - ty))  # clockwise from screen-up
    ahead = math.degrees(math.atan2(fx - ox, oy - fy))
    rel = (bearing - ahead + 180.0) % 360.0 - 180.0  # [-180, 180), + is clockwise
    mag = abs(rel)
    tol = 1e-7
    if mag <= 30 + tol:
        return Arc.FRONT
    if mag >= 150 + tol:
        return Arc.REAR
    right_side = rel > 0  # clockwise = the right hand
    weapon_side = right_side == (handedness is RIGHT)
    if mag <= 90 + tol:
        return Arc.WEAPON_FRONT if weapon_side else Arc.SHIELD_FRONT
    return Arc.WEAPON_SIDE if weapon_side else Arc.SHIELD_SIDE


@pytest.mark.parametrize("distance", [1, 2, 3, 4, 5])
def test_distant_hexes_match_float_angle_reference(distance: int) -> None:
    origin = Hex(7, -2)
    for facing in Facing:
        for handedness in Handedness:
            for target in ring(origin, distance):
                expected = reference_arc(target, origin, facing, handedness)
                assert arc_of(target, origin, facing, handedness) is expected, (
                    target,
                    facing,
                    handedness,
                )


def test_boundary_hexes_go_to_the_more_frontal_arc() -> None:
    # Facing N, right-handed: hexes exactly on the wedge boundaries at distance 2,
    # at screen angles -150, -90, -30, +30, +90, +150 from straight ahead.
    boundary = {
        Hex(1, -2): Arc.FRONT,  # +30: FRONT | weapon-side front
        Hex(-1, -1): Arc.FRONT,  # -30: FRONT | shield-side front
        Hex(2, -1): Arc.WEAPON_FRONT,  # +90: weapon-side front | weapon side
        Hex(-2, 1): Arc.SHIELD_FRONT,  # -90: shield-side front | shield side
        Hex(1, 1): Arc.WEAPON_SIDE,  # +150: weapon side | REAR
        Hex(-1, 2): Arc.SHIELD_SIDE,  # -150: shield side | REAR
    }
    layout = Layout()
    for target, arc in boundary.items():
        x, y = layout.hex_to_pixel(target)
        angle = math.degrees(math.atan2(x, -y))
        assert min(abs(angle - b) for b in (-150, -90, -30, 30, 90, 150)) < 1e-9
        assert len(wedges_of(target)) == 2
        assert arc_of(target, ORIGIN, Facing.N, RIGHT) is arc
        # Twice as far out it is still on the same boundary ray.
        assert arc_of(target.scale(2), ORIGIN, Facing.N, RIGHT) is arc
        # And the rule turns with the fighter.
        for k in range(6):
            assert arc_of(target.rotated(k), ORIGIN, Facing.N.turned(k), RIGHT) is arc


def test_boundary_hexes_exist_only_on_the_corner_rays() -> None:
    for h in ring(ORIGIN, 4):
        on_boundary = len(wedges_of(h)) == 2
        q, r, s = h.cube
        assert on_boundary == (q == r or r == s or s == q)
    assert sum(len(wedges_of(h)) == 2 for h in ring(ORIGIN, 4)) == 6
    assert all(len(wedges_of(h)) == 1 for h in ring(ORIGIN, 3))


def test_wedges_of_origin_is_an_error() -> None:
    with pytest.raises(HexmapError):
        wedges_of(ORIGIN)


def test_arc_properties() -> None:
    assert [a for a in Arc if a.is_front] == [Arc.FRONT, Arc.SHIELD_FRONT, Arc.WEAPON_FRONT]
    assert {a: a.frontality for a in Arc} == {
        Arc.FRONT: 0,
        Arc.SHIELD_FRONT: 1,
        Arc.WEAPON_FRONT: 1,
        Arc.SHIELD_SIDE: 2,
        Arc.WEAPON_SIDE: 2,
        Arc.REAR: 3,
    }
    assert [a.label for a in Arc] == [
        "Front",
        "Shield-side front",
        "Weapon-side front",
        "Shield side",
        "Weapon side",
        "Rear",
    ]
    assert "".join(a.letter for a in Arc) == "FswSWR"


def test_handedness_helpers() -> None:
    assert RIGHT.mirrored is LEFT and LEFT.mirrored is RIGHT
    # The shield-side front neighbour is one step towards the shield.
    for h in Handedness:
        for f in Facing:
            shield_front = ORIGIN + f.turned(h.shield_turn).vector
            assert arc_of(shield_front, ORIGIN, f, h) is Arc.SHIELD_FRONT


def test_arc_direction_points_at_the_middle_of_each_arc() -> None:
    for h in Handedness:
        for f in Facing:
            for arc in Arc:
                d = arc_direction(f, h, arc)
                assert arc_of(ORIGIN + d.vector.scale(3), ORIGIN, f, h) is arc


def test_bad_handedness_is_rejected() -> None:
    with pytest.raises(HexmapError):
        arc_of(Hex(0, -1), ORIGIN, Facing.N, "right")  # type: ignore[arg-type]


@pytest.mark.parametrize(("distance", "count"), [(0, 1), (1, 3), (2, 7), (3, 9), (4, 13), (5, 15)])
def test_front_arc_hex_counts(distance: int, count: int) -> None:
    for f in Facing:
        hexes = front_arc_hexes(Hex(1, 1), f, distance)
        assert len(hexes) == count
        assert all(Hex(1, 1).distance(h) == distance for h in hexes)


def test_front_arc_hexes_explicit_and_reference() -> None:
    assert front_arc_hexes(ORIGIN, Facing.N, 0) == {ORIGIN}
    assert front_arc_hexes(ORIGIN, Facing.N, 1) == {Hex(0, -1), Hex(1, -1), Hex(-1, 0)}
    assert front_arc_hexes(ORIGIN, Facing.S, 1) == {Hex(0, 1), Hex(1, 0), Hex(-1, 1)}
    for f in Facing:
        for d in (2, 3, 5):
            expected = {h for h in ring(ORIGIN, d) if reference_arc(h, ORIGIN, f, LEFT).is_front}
            assert front_arc_hexes(ORIGIN, f, d) == expected
    with pytest.raises(HexmapError):
        front_arc_hexes(ORIGIN, Facing.N, -1)


def test_direction_to_neighbours_and_far_hexes() -> None:
    for f in Facing:
        assert direction_to(Hex(3, 3), Hex(3, 3) + f.vector) is f
        assert direction_to(Hex(3, 3), Hex(3, 3) + f.vector.scale(5)) is f
    assert direction_to(ORIGIN, Hex(1, -3)) is Facing.N  # inside the N wedge
    with pytest.raises(HexmapError):
        direction_to(ORIGIN, ORIGIN)


def test_direction_to_boundary_goes_clockwise() -> None:
    # The ray between N and NE, and the one between NW and N (across the wrap).
    assert direction_to(ORIGIN, Hex(1, -2)) is Facing.NE
    assert direction_to(ORIGIN, Hex(-1, -1)) is Facing.N
    assert direction_to(ORIGIN, Hex(2, -1)) is Facing.SE  # between NE and SE
    assert direction_to(ORIGIN, Hex(-2, 1)) is Facing.NW  # between SW and NW


def test_direction_to_turns_with_the_map() -> None:
    rng = random.Random(21)
    for _ in range(300):
        v = Hex(rng.randint(-9, 9), rng.randint(-9, 9))
        if v == ORIGIN:
            continue
        o = Hex(rng.randint(-9, 9), rng.randint(-9, 9))
        d = direction_to(o, o + v)
        assert d in wedges_of(v)
        for k in range(6):
            assert direction_to(o, o + v.rotated(k)) is d.turned(k)


def test_in_front_arc_agrees_with_arc_of_on_random_hexes() -> None:
    rng = random.Random(31)
    for _ in range(3000):
        origin = Hex(rng.randint(-50, 50), rng.randint(-50, 50))
        target = origin + Hex(rng.randint(-12, 12), rng.randint(-12, 12))
        facing = Facing(rng.randrange(6))
        for hand in (RIGHT, LEFT):
            assert in_front_arc(origin, facing, target) == arc_of(
                target, origin, facing, hand
            ).is_front


def test_in_front_arc_by_hand() -> None:
    assert in_front_arc(ORIGIN, Facing.N, ORIGIN)  # the own hex counts as front
    assert in_front_arc(ORIGIN, Facing.N, Hex(2, -1))  # exactly abeam: front
    assert in_front_arc(ORIGIN, Facing.N, Hex(-2, 1))
    assert not in_front_arc(ORIGIN, Facing.N, Hex(1, 0))  # SE neighbour: side
    assert not in_front_arc(ORIGIN, Facing.N, Hex(0, 3))  # behind
    assert in_front_arc(ORIGIN, Facing.S, Hex(0, 3))
