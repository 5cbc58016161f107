"""Reach parsing and printing, reach_hexes and weapon_hexes."""

import random

import pytest

from hexmap import (
    MAX_REACH,
    Facing,
    Handedness,
    Hex,
    HexmapError,
    Reach,
    arc_of,
    in_reach,
    reach_hexes,
    reaches_any,
    weapon_hexes,
)

ORIGIN = Hex(0, 0)


@pytest.mark.parametrize(
    ("text", "distances", "canonical"),
    [
        ("C", {0}, "C"),
        ("c", {0}, "C"),
        ("1", {1}, "1"),
        ("2", {2}, "2"),
        ("3", {3}, "3"),
        ("1-2", {1, 2}, "1-2"),
        ("2-3", {2, 3}, "2-3"),
        ("C-1", {0, 1}, "C-1"),
        ("C,1", {0, 1}, "C-1"),
        ("1,2", {1, 2}, "1-2"),
        ("C,2", {0, 2}, "C,2"),
        (" 1 - 3 ", {1, 2, 3}, "1-3"),
        ("C,2-3", {0, 2, 3}, "C,2-3"),
        ("3,1", {1, 3}, "1,3"),
        ("1-2,2-3", {1, 2, 3}, "1-3"),
    ],
)
def test_parse_and_canonical_text(text: str, distances: set[int], canonical: str) -> None:
    reach = Reach.parse(text)
    assert reach.distances == frozenset(distances)
    assert str(reach) == canonical
    assert Reach.parse(str(reach)) == reach


@pytest.mark.parametrize(
    "text",
    ["", " ", "0-0", "2-1", "1-", "-1", "x", "1.5", "1--2", "1,,2", "C-C", "1-2-3", "D", "100"],
)
def test_bad_reach_text(text: str) -> None:
    with pytest.raises(HexmapError):
        Reach.parse(text)
    with pytest.raises(ValueError):
        Reach.parse(text)


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(HexmapError):
        Reach.parse(None)  # type: ignore[arg-type]


def test_text_round_trip_random_sets() -> None:
    rng = random.Random(8)
    for _ in range(200):
        ds = frozenset(rng.sample(range(0, 8), rng.randint(1, 5)))
        reach = Reach(ds)
        assert Reach.parse(str(reach)) == reach


def test_reach_value_object() -> None:
    r = Reach.of(1, 2)
    assert r == Reach.parse("1-2") and hash(r) == hash(Reach.parse("2,1"))
    assert (r.min, r.max) == (1, 2)
    assert Reach.parse("C").max == 0
    assert Reach.parse("C,3").min == 0
    assert 2 in r and 3 not in r
    assert list(Reach.of(3, 0, 1)) == [0, 1, 3]
    with pytest.raises(HexmapError):
        Reach(frozenset())
    with pytest.raises(HexmapError):
        Reach.of(-1)
    with pytest.raises(HexmapError):
        Reach.of(MAX_REACH + 1)


def test_reach_c_is_own_hex() -> None:
    for f in Facing:
        assert reach_hexes(Hex(3, 4), f, Reach.parse("C")) == {Hex(3, 4)}


def test_reach_1_and_2_facing_n_by_hand() -> None:
    assert reach_hexes(ORIGIN, Facing.N, Reach.parse("1")) == {
        Hex(0, -1),
        Hex(1, -1),
        Hex(-1, 0),
    }
    two = {
        Hex(0, -2),  # straight ahead
        Hex(1, -2),  # on the FRONT | weapon-side boundary -> front
        Hex(-1, -1),  # on the FRONT | shield-side boundary -> front
        Hex(2, -2),  # front diagonal
        Hex(-2, 0),  # front diagonal
        Hex(2, -1),  # exactly abeam, front/side boundary -> front diagonal
        Hex(-2, 1),  # exactly abeam on the other side
    }
    assert reach_hexes(ORIGIN, Facing.N, Reach.parse("2")) == two
    assert reach_hexes(ORIGIN, Facing.N, Reach.parse("1-2")) == two | {
        Hex(0, -1),
        Hex(1, -1),
        Hex(-1, 0),
    }


@pytest.mark.parametrize(
    ("text", "count"),
    [("C", 1), ("1", 3), ("2", 7), ("3", 9), ("1-2", 10), ("2-3", 16), ("C-1", 4), ("C,2", 8)],
)
def test_reach_counts_all_facings(text: str, count: int) -> None:
    reach = Reach.parse(text)
    origin = Hex(-2, 6)
    for f in Facing:
        hexes = reach_hexes(origin, f, reach)
        assert len(hexes) == count
        assert {origin.distance(h) for h in hexes} == set(reach.distances)


def test_reach_hexes_turn_with_the_facing() -> None:
    origin = Hex(5, -3)
    for text in ("1", "2", "3", "2-3"):
        reach = Reach.parse(text)
        base = reach_hexes(ORIGIN, Facing.N, reach)
        for f in Facing:
            hexes = reach_hexes(origin, f, reach)
            assert hexes == {origin + h.rotated(f) for h in base}
            # Nothing beside or behind the fighter.
            assert all(arc_of(h, origin, f, Handedness.LEFT).is_front for h in hexes)


def test_weapon_hexes() -> None:
    o = Hex(2, 2)
    for f in Facing:
        v = f.vector
        assert weapon_hexes(o, f, Reach.parse("C")) == (o,)
        assert weapon_hexes(o, f, Reach.parse("1")) == (o, o + v)
        assert weapon_hexes(o, f, Reach.parse("2")) == (o + v, o + v.scale(2))
        assert weapon_hexes(o, f, Reach.parse("3")) == (o + v, o + v.scale(2), o + v.scale(3))
        # Multi-distance reaches go by their longest distance.
        assert weapon_hexes(o, f, Reach.parse("C-1")) == (o, o + v)
        assert weapon_hexes(o, f, Reach.parse("1-2")) == (o + v, o + v.scale(2))
        assert weapon_hexes(o, f, Reach.parse("2-3")) == weapon_hexes(o, f, Reach.parse("3"))
    assert weapon_hexes(Hex(0, 0), Facing.SE, Reach.parse("2")) == (Hex(1, 0), Hex(2, 0))


def _random_reach(rng: random.Random) -> Reach:
    return Reach(frozenset(rng.sample(range(0, 9), rng.randint(1, 4))))


def test_in_reach_agrees_with_reach_hexes_on_random_cases() -> None:
    rng = random.Random(2026)
    for _ in range(400):
        origin = Hex(rng.randint(-30, 30), rng.randint(-30, 30))
        facing = Facing(rng.randrange(6))
        reach = _random_reach(rng)
        shown = reach_hexes(origin, facing, reach)
        # every hex around the origin out to one beyond the reach, so the misses count too
        for dq in range(-reach.max - 1, reach.max + 2):
            for dr in range(-reach.max - 1, reach.max + 2):
                target = origin + Hex(dq, dr)
                assert in_reach(origin, facing, reach, target) == (target in shown), (
                    origin, facing, reach, target,
                )


def test_in_reach_by_hand() -> None:
    one_two = Reach.parse("1-2")
    assert in_reach(ORIGIN, Facing.N, one_two, Hex(0, -1))
    assert in_reach(ORIGIN, Facing.N, one_two, Hex(2, -1))  # abeam at 2: front
    assert not in_reach(ORIGIN, Facing.N, one_two, Hex(1, 0))  # beside at 1
    assert not in_reach(ORIGIN, Facing.N, one_two, Hex(0, -3))  # too far
    assert not in_reach(ORIGIN, Facing.N, one_two, ORIGIN)  # no reach C
    assert in_reach(ORIGIN, Facing.S, Reach.parse("C"), ORIGIN)
    assert not in_reach(ORIGIN, Facing.S, Reach.parse("1"), Hex(0, -1))  # behind


def test_reaches_any_agrees_with_reach_hexes() -> None:
    rng = random.Random(9)
    for _ in range(300):
        origin = Hex(rng.randint(-9, 9), rng.randint(-9, 9))
        facing = Facing(rng.randrange(6))
        reach = _random_reach(rng)
        other = Hex(rng.randint(-12, 12), rng.randint(-12, 12))
        weapon_at = weapon_hexes(other, Facing(rng.randrange(6)), _random_reach(rng))
        expected = bool(set(weapon_at) & reach_hexes(origin, facing, reach))
        assert reaches_any(origin, facing, reach, weapon_at) == expected
    assert not reaches_any(ORIGIN, Facing.N, Reach.parse("1"), ())
