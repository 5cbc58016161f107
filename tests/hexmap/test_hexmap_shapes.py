"""hex_line (nudged), ring, disk and ray."""

import itertools
import math
import random

import pytest

from hexmap import Facing, Hex, HexmapError, disk, hex_line, ray, ring

ORIGIN = Hex(0, 0)


def random_hex(rng: random.Random, span: int = 30) -> Hex:
    return Hex(rng.randint(-span, span), rng.randint(-span, span))


def redblob_float_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """Red Blob Games' line with the float nudge (1e-6, 2e-6, -3e-6), as a reference."""
    n = a.distance(b)
    nudge = (1e-6, 2e-6, -3e-6)
    start = [c + e for c, e in zip(a.cube, nudge, strict=True)]
    end = [c + e for c, e in zip(b.cube, nudge, strict=True)]
    out = []
    for i in range(n + 1):
        t = i / max(n, 1)
        frac = [s + (e - s) * t for s, e in zip(start, end, strict=True)]
        rq, rr, rs = (math.floor(v + 0.5) for v in frac)
        dq, dr, ds = (abs(r - v) for r, v in zip((rq, rr, rs), frac, strict=True))
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex(rq, rr))
    return tuple(out)


def test_line_examples() -> None:
    assert hex_line(Hex(2, 2), Hex(2, 2)) == (Hex(2, 2),)
    assert hex_line(ORIGIN, Hex(0, -3)) == (ORIGIN, Hex(0, -1), Hex(0, -2), Hex(0, -3))
    # Running exactly along hex edges: the midpoint (1, -1/2, -1/2) is on the edge
    # between Hex(1, 0) and Hex(1, -1); the nudge (+r, -s) picks Hex(1, 0) both ways.
    assert hex_line(ORIGIN, Hex(2, -1)) == (ORIGIN, Hex(1, 0), Hex(2, -1))
    assert hex_line(Hex(2, -1), ORIGIN) == (Hex(2, -1), Hex(1, 0), ORIGIN)
    assert hex_line(ORIGIN, Hex(4, -2)) == (ORIGIN, Hex(1, 0), Hex(2, -1), Hex(3, -1), Hex(4, -2))


def test_line_basic_properties() -> None:
    rng = random.Random(1)
    for _ in range(500):
        a, b = random_hex(rng), random_hex(rng)
        line = hex_line(a, b)
        assert len(line) == a.distance(b) + 1
        assert line[0] == a and line[-1] == b
        assert all(p.distance(q) == 1 for p, q in itertools.pairwise(line))
        assert all(a.distance(h) == i for i, h in enumerate(line))


def test_line_translation_invariance() -> None:
    rng = random.Random(2)
    for _ in range(1000):
        a, b, t = random_hex(rng), random_hex(rng), random_hex(rng, 500)
        assert hex_line(a + t, b + t) == tuple(h + t for h in hex_line(a, b))
    # Exact integer arithmetic: holds far away from the origin as well.
    big = Hex(10**12, -(10**12) + 3)
    assert hex_line(big, big + Hex(4, -2)) == tuple(big + h for h in hex_line(ORIGIN, Hex(4, -2)))


def test_line_symmetry() -> None:
    rng = random.Random(3)
    for _ in range(1000):
        a, b = random_hex(rng), random_hex(rng)
        assert hex_line(b, a) == hex_line(a, b)[::-1]
    # Including lines along the edge-running directions, where ties are everywhere.
    for a in disk(ORIGIN, 3):
        for v in (Hex(1, -2), Hex(2, -1), Hex(1, 1), Hex(-1, 2), Hex(-2, 1), Hex(-1, -1)):
            for k in (1, 2, 3, 5):
                b = a + v.scale(k)
                assert hex_line(b, a) == hex_line(a, b)[::-1]


def test_line_matches_red_blob_float_reference() -> None:
    rng = random.Random(4)
    pairs = [(random_hex(rng), random_hex(rng)) for _ in range(500)]
    pairs += [(ORIGIN, h) for h in disk(ORIGIN, 6)]  # many exact edge-running lines
    for a, b in pairs:
        assert hex_line(a, b) == redblob_float_line(a, b)


def test_ring_sizes_and_contents() -> None:
    center = Hex(3, -4)
    assert ring(center, 0) == (center,)
    for radius in range(1, 8):
        hexes = ring(center, radius)
        assert len(hexes) == 6 * radius == len(set(hexes))
        brute = {
            Hex(q, r)
            for q in range(-10, 17)
            for r in range(-17, 10)
            if Hex(q, r).distance(center) == radius
        }
        assert set(hexes) == brute
        # A closed walk, in a fixed order.
        walk = (*hexes, hexes[0])
        assert all(p.distance(q) == 1 for p, q in itertools.pairwise(walk))
        assert hexes[0] == center + Facing.NW.vector.scale(radius)
        assert all(type(h.q) is int and type(h.r) is int for h in hexes)
    assert ring(center, 2) == ring(center, 2)
    with pytest.raises(HexmapError):
        ring(center, -1)


def test_disk_sizes_and_contents() -> None:
    center = Hex(-2, 5)
    assert disk(center, 0) == (center,)
    for radius in range(0, 8):
        hexes = disk(center, radius)
        assert len(hexes) == 1 + 3 * radius * (radius + 1) == len(set(hexes))
        brute = {
            Hex(q, r)
            for q in range(-12, 9)
            for r in range(-5, 16)
            if Hex(q, r).distance(center) <= radius
        }
        assert set(hexes) == brute
        assert hexes[0] == center
        assert [center.distance(h) for h in hexes] == sorted(center.distance(h) for h in hexes)
    with pytest.raises(HexmapError):
        disk(center, -2)


def test_ray() -> None:
    assert ray(Hex(1, 1), Facing.SE, 0) == (Hex(1, 1),)
    assert ray(Hex(1, 1), Facing.SE, 3) == (Hex(1, 1), Hex(2, 1), Hex(3, 1), Hex(4, 1))
    for f in Facing:
        r = ray(ORIGIN, f, 4)
        assert r == hex_line(ORIGIN, f.vector.scale(4))
    with pytest.raises(HexmapError):
        ray(ORIGIN, Facing.N, -1)
