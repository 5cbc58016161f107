"""Hex arithmetic, coercion, offset coordinates, distance, rotation and Facing."""

import dataclasses
import math
import operator
import random

import numpy as np
import pytest

from hexmap import Facing, Hex, HexmapError, Layout

ORIGIN = Hex(0, 0)


def test_coordinates_are_coerced_to_plain_ints() -> None:
    h = Hex(1.0, -0.0)  # type: ignore[arg-type]
    assert h == Hex(1, 0)
    assert type(h.q) is int and type(h.r) is int
    assert repr(h) == "Hex(q=1, r=0)"  # no "-0" sneaks into text
    assert hash(h) == hash(Hex(1, 0))
    n = Hex(np.int64(3), np.float64(-2.0))  # type: ignore[arg-type]
    assert n == Hex(3, -2) and type(n.q) is int and type(n.r) is int


@pytest.mark.parametrize("bad", [1.5, float("nan"), float("inf"), "1", None, True, np.bool_(True)])
def test_non_integral_coordinates_are_rejected(bad: object) -> None:
    with pytest.raises(HexmapError):
        Hex(bad, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):  # HexmapError is a ValueError
        Hex(0, bad)  # type: ignore[arg-type]


def test_hex_is_frozen_hashable_and_ordered() -> None:
    h = Hex(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        h.q = 5  # type: ignore[misc]
    assert {Hex(1, 2), Hex(1, 2), Hex(2, 1)} == {Hex(2, 1), Hex(1, 2)}
    assert sorted([Hex(1, 0), Hex(0, 5), Hex(0, -1)]) == [Hex(0, -1), Hex(0, 5), Hex(1, 0)]


def test_cube_coordinates() -> None:
    h = Hex(3, -5)
    assert h.s == 2
    assert h.cube == (3, -5, 2)
    assert sum(h.cube) == 0


def test_arithmetic() -> None:
    assert Hex(1, 2) + Hex(-3, 5) == Hex(-2, 7)
    assert Hex(1, 2) - Hex(-3, 5) == Hex(4, -3)
    assert -Hex(1, -2) == Hex(-1, 2)
    assert Hex(2, -1).scale(3) == Hex(6, -3)
    assert Hex(2, -1).scale(0) == ORIGIN
    assert Hex(2, -1).scale(-1) == Hex(-2, 1)
    with pytest.raises(TypeError):
        operator.add(Hex(1, 2), (1, 2))
    with pytest.raises(TypeError):
        operator.sub(Hex(1, 2), 3)
    with pytest.raises(HexmapError):
        Hex(1, 2).scale(1.5)  # type: ignore[arg-type]


def test_distance_examples() -> None:
    assert ORIGIN.distance(ORIGIN) == 0
    assert ORIGIN.distance(Hex(3, -1)) == 3
    assert Hex(1, 2).distance(Hex(-2, 4)) == 3
    assert Hex(-4, 0).distance(Hex(4, 0)) == 8
    assert Hex(0, -4).distance(Hex(4, -8)) == 4  # cube (4, -4, 0)
    assert Hex(2, -1).length() == 2


def test_distance_equals_breadth_first_steps() -> None:
    # Independent of the formula: walk the neighbour graph.
    depth = {ORIGIN: 0}
    frontier = [ORIGIN]
    for step in range(1, 7):
        frontier = [n for h in frontier for n in h.neighbors() if n not in depth]
        for n in frontier:
            depth.setdefault(n, step)
    assert len(depth) == 1 + 3 * 6 * 7
    for h, steps in depth.items():
        assert h.length() == steps
        assert ORIGIN.distance(h) == steps
        assert h.distance(ORIGIN) == steps


def test_distance_is_translation_invariant_and_symmetric() -> None:
    rng = random.Random(11)
    for _ in range(300):
        a, b, t = (Hex(rng.randint(-40, 40), rng.randint(-40, 40)) for _ in range(3))
        assert a.distance(b) == b.distance(a) == (a + t).distance(b + t)


def test_neighbors_in_facing_order() -> None:
    h = Hex(2, 3)
    assert h.neighbors() == (Hex(2, 2), Hex(3, 2), Hex(3, 3), Hex(2, 4), Hex(1, 4), Hex(1, 3))
    assert h.neighbors() == tuple(h.neighbor(f) for f in Facing)
    assert all(h.distance(n) == 1 for n in h.neighbors())


def test_rotation_examples() -> None:
    assert Hex(2, -1).rotated(1) == Hex(1, 1)
    assert Hex(2, -1).rotated(-1) == Hex(1, -2)
    assert Hex(2, -1).rotated(3) == Hex(-2, 1)
    assert Hex(2, -1).rotated(6) == Hex(2, -1)
    assert Hex(2, -1).rotated(-7) == Hex(2, -1).rotated(5)
    for f in Facing:
        for k in range(-7, 8):
            assert f.vector.rotated(k) == f.turned(k).vector


def test_rotation_is_clockwise_60_degrees_on_screen() -> None:
    # Check against a pixel-space rotation: (x, y) -> rotate clockwise by 60° on a
    # y-down screen, which is the ordinary rotation matrix with +60°.
    layout = Layout()
    c, s = math.cos(math.radians(60)), math.sin(math.radians(60))
    rng = random.Random(5)
    for _ in range(200):
        h = Hex(rng.randint(-20, 20), rng.randint(-20, 20))
        x, y = layout.hex_to_pixel(h)
        rx, ry = layout.hex_to_pixel(h.rotated(1))
        assert rx == pytest.approx(c * x - s * y, abs=1e-9)
        assert ry == pytest.approx(s * x + c * y, abs=1e-9)
        assert h.rotated(1).length() == h.length()


def test_offset_examples_odd_q() -> None:
    assert Hex.from_offset(0, 0) == Hex(0, 0)
    assert Hex.from_offset(1, 0) == Hex(1, 0)
    assert Hex.from_offset(2, 0) == Hex(2, -1)
    assert Hex.from_offset(3, 0) == Hex(3, -1)
    assert Hex.from_offset(3, 4) == Hex(3, 3)
    assert Hex.from_offset(-1, 0) == Hex(-1, 1)
    assert Hex(4, -1).to_offset() == (4, 1)


def test_offset_odd_columns_are_shoved_down() -> None:
    # In the flat-top layout a hex of offset (col, row) is centred at
    # y = sqrt(3) * size * (row + 0.5 for odd columns).
    layout = Layout(size=1.0)
    for col in range(-5, 6):
        for row in range(-5, 6):
            x, y = layout.hex_to_pixel(Hex.from_offset(col, row))
            assert x == pytest.approx(1.5 * col)
            assert y == pytest.approx(math.sqrt(3) * (row + 0.5 * (col % 2)))


def test_offset_round_trip() -> None:
    rng = random.Random(3)
    for _ in range(500):
        col, row = rng.randint(-100, 100), rng.randint(-100, 100)
        assert Hex.from_offset(col, row).to_offset() == (col, row)
        h = Hex(rng.randint(-100, 100), rng.randint(-100, 100))
        assert Hex.from_offset(*h.to_offset()) == h


def test_facing_vectors_match_the_brief() -> None:
    assert [(f.name, f.vector) for f in Facing] == [
        ("N", Hex(0, -1)),
        ("NE", Hex(1, -1)),
        ("SE", Hex(1, 0)),
        ("S", Hex(0, 1)),
        ("SW", Hex(-1, 1)),
        ("NW", Hex(-1, 0)),
    ]
    assert [int(f) for f in Facing] == [0, 1, 2, 3, 4, 5]


def test_facing_turns_wrap() -> None:
    assert Facing.N.turned(1) is Facing.NE
    assert Facing.N.turned(-1) is Facing.NW
    assert Facing.NW.turned(1) is Facing.N
    assert Facing.SE.turned(-8) is Facing.N
    assert Facing.S.turned(0) is Facing.S
    assert [f.opposite() for f in Facing] == [
        Facing.S,
        Facing.SW,
        Facing.NW,
        Facing.N,
        Facing.NE,
        Facing.SE,
    ]
    for f in Facing:
        assert f.opposite().vector == -f.vector


def test_facing_labels_and_angles() -> None:
    assert [f.label for f in Facing] == ["N", "NE", "SE", "S", "SW", "NW"]
    assert [f.angle_degrees for f in Facing] == [0.0, 60.0, 120.0, 180.0, 240.0, 300.0]


def test_facing_from_vector() -> None:
    for f in Facing:
        assert Facing.from_vector(f.vector) is f
    with pytest.raises(HexmapError):
        Facing.from_vector(Hex(2, -2))
    with pytest.raises(HexmapError):
        Facing.from_vector(ORIGIN)
