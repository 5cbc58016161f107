"""Layout: hex <-> pixel for both orientations, picking, centres, corners, culling."""

import math
import random
import time

import numpy as np
import pytest

from hexmap import Facing, Hex, HexGrid, HexmapError, Layout, Orientation

FLAT, POINTY = Orientation.FLAT, Orientation.POINTY
LAYOUTS = [
    Layout(),
    Layout(FLAT, 13.5, (-40.0, 250.25)),
    Layout(POINTY, 20.0),
    Layout(POINTY, 7.25, (300.0, -12.5)),
]
SQRT3 = math.sqrt(3)


def screen_angle(dx: float, dy: float) -> float:
    """Degrees clockwise from screen-up (y down), in [0, 360)."""
    return math.degrees(math.atan2(dx, -dy)) % 360.0


def test_flat_pixel_formula() -> None:
    layout = Layout(FLAT, 10.0, (100.0, 50.0))
    assert layout.hex_to_pixel(Hex(0, 0)) == (100.0, 50.0)
    assert layout.hex_to_pixel(Hex(2, 0)) == pytest.approx((130.0, 50.0 + 10 * SQRT3))
    assert layout.hex_to_pixel(Hex(0, 1)) == pytest.approx((100.0, 50.0 + 10 * SQRT3))


def test_pointy_pixel_formula() -> None:
    layout = Layout(POINTY, 10.0, (100.0, 50.0))
    assert layout.hex_to_pixel(Hex(1, 0)) == pytest.approx((100.0 + 10 * SQRT3, 50.0))
    assert layout.hex_to_pixel(Hex(0, 2)) == pytest.approx((100.0 + 10 * SQRT3, 80.0))


def test_facings_are_clockwise_on_a_y_down_screen() -> None:
    layout = Layout()
    vec = {f: layout.hex_to_pixel(f.vector) for f in Facing}
    assert vec[Facing.N][0] == pytest.approx(0) and vec[Facing.N][1] < 0  # up
    assert vec[Facing.NE][0] > 0 and vec[Facing.NE][1] < 0  # up-right
    assert vec[Facing.SE][0] > 0 and vec[Facing.SE][1] > 0  # down-right
    assert vec[Facing.S][0] == pytest.approx(0) and vec[Facing.S][1] > 0  # down
    assert vec[Facing.SW][0] < 0 and vec[Facing.SW][1] > 0  # down-left
    assert vec[Facing.NW][0] < 0 and vec[Facing.NW][1] < 0  # up-left
    for f in Facing:
        (ax, ay), (bx, by) = vec[f], vec[f.turned(1)]
        # With y down, a positive z cross product is a clockwise turn on screen.
        assert ax * by - ay * bx > 0
        assert screen_angle(ax, ay) == pytest.approx(f.angle_degrees)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_facing_angle_matches_pixel_vectors(layout: Layout) -> None:
    cx, cy = layout.hex_to_pixel(Hex(0, 0))
    for f in Facing:
        x, y = layout.hex_to_pixel(f.vector)
        assert layout.facing_angle(f) == pytest.approx(screen_angle(x - cx, y - cy))
    if layout.orientation is FLAT:
        assert [layout.facing_angle(f) for f in Facing] == [f.angle_degrees for f in Facing]
    else:
        assert [layout.facing_angle(f) for f in Facing] == [330, 30, 90, 150, 210, 270]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_pixel_round_trip(layout: Layout) -> None:
    rng = random.Random(12)
    for _ in range(500):
        h = Hex(rng.randint(-60, 60), rng.randint(-60, 60))
        assert layout.pixel_to_hex(*layout.hex_to_pixel(h)) == h


@pytest.mark.parametrize("layout", LAYOUTS)
def test_picking_just_inside_and_outside_edges(layout: Layout) -> None:
    rng = random.Random(13)
    offsets = layout.corner_offsets()
    for _ in range(60):
        h = Hex(rng.randint(-30, 30), rng.randint(-30, 30))
        cx, cy = layout.hex_to_pixel(h)
        neighbour_centres = {n: layout.hex_to_pixel(n) for n in h.neighbors()}
        for i in range(6):
            (ax, ay), (bx, by) = offsets[i], offsets[(i + 1) % 6]
            mx, my = (ax + bx) / 2, (ay + by) / 2  # middle of an edge
            assert layout.pixel_to_hex(cx + 0.999 * mx, cy + 0.999 * my) == h
            assert layout.pixel_to_hex(cx + 0.98 * ax, cy + 0.98 * ay) == h  # near a corner
            # Just across the edge: the neighbour whose centre is nearest.
            px, py = cx + 1.001 * mx, cy + 1.001 * my
            nearest = min(
                neighbour_centres,
                key=lambda n: math.dist((px, py), neighbour_centres[n]),
            )
            assert layout.pixel_to_hex(px, py) == nearest


def test_picking_flat_top_edges_by_name() -> None:
    layout = Layout(FLAT, 10.0)
    half_height = 10.0 * SQRT3 / 2
    assert layout.pixel_to_hex(0.0, -half_height + 0.01) == Hex(0, 0)
    assert layout.pixel_to_hex(0.0, -half_height - 0.01) == Hex(0, -1)  # across the top: N
    assert layout.pixel_to_hex(0.0, half_height + 0.01) == Hex(0, 1)  # across the bottom: S
    assert layout.pixel_to_hex(9.9, 0.0) == Hex(0, 0)  # east corner is still inside
    pointy = Layout(POINTY, 10.0)
    assert pointy.pixel_to_hex(0.0, -9.9) == Hex(0, 0)  # top vertex
    assert pointy.pixel_to_hex(half_height + 0.01, 0.0) == Hex(1, 0)  # across the right edge


@pytest.mark.parametrize("layout", LAYOUTS)
def test_picking_returns_the_nearest_centre(layout: Layout) -> None:
    # A hex is exactly the set of points nearer its centre than any other centre.
    rng = random.Random(14)
    for _ in range(400):
        x = layout.origin[0] + rng.uniform(-400, 400)
        y = layout.origin[1] + rng.uniform(-400, 400)
        picked = layout.pixel_to_hex(x, y)
        candidates = [picked, *picked.neighbors()]
        dists = sorted(math.dist((x, y), layout.hex_to_pixel(c)) for c in candidates)
        if dists[1] - dists[0] < 1e-6:
            continue  # on an edge: either answer is right
        assert math.dist((x, y), layout.hex_to_pixel(picked)) == dists[0]


def test_picking_rejects_non_finite_points() -> None:
    with pytest.raises(HexmapError):
        Layout().pixel_to_hex(float("nan"), 0.0)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_centers_equal_hex_to_pixel(layout: Layout) -> None:
    rng = random.Random(15)
    hexes = [Hex(rng.randint(-99, 99), rng.randint(-99, 99)) for _ in range(300)]
    centers = layout.centers(hexes)
    assert centers.shape == (300, 2) and centers.dtype == np.float64
    expected = np.array([layout.hex_to_pixel(h) for h in hexes])
    np.testing.assert_allclose(centers, expected, rtol=0, atol=1e-9)
    assert layout.centers([]).shape == (0, 2)


def test_centers_have_no_negative_zero() -> None:
    hexes = [Hex(0, 0), Hex(0, -1), Hex(-1, 0), Hex(2, -1)]
    for layout in (Layout(FLAT, 5.0), Layout(POINTY, 5.0)):
        centers = layout.centers(hexes)
        zeros = centers == 0.0
        assert zeros.any()
        assert not np.signbit(centers[zeros]).any()


def test_centers_of_ten_thousand_hexes_are_vectorised() -> None:
    grid = HexGrid(100, 100)
    layout = Layout()
    start = time.perf_counter()
    centers = layout.centers(grid.hexes())
    elapsed = time.perf_counter() - start
    assert centers.shape == (10000, 2)
    assert elapsed < 1.0  # typically a few milliseconds
    for i in (0, 1, 99, 100, 5050, 9999):
        assert tuple(centers[i]) == pytest.approx(layout.hex_to_pixel(grid.hexes()[i]))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_corner_offsets(layout: Layout) -> None:
    offsets = layout.corner_offsets()
    assert len(offsets) == 6
    for i, (x, y) in enumerate(offsets):
        assert math.hypot(x, y) == pytest.approx(layout.size)
        nx, ny = offsets[(i + 1) % 6]
        assert x * ny - y * nx > 0  # clockwise on a y-down screen
    ys = sorted(y for _, y in offsets)
    if layout.orientation is FLAT:
        # Flat top edge: the two highest corners share their y.
        assert ys[0] == pytest.approx(ys[1]) == pytest.approx(-layout.size * SQRT3 / 2)
    else:
        assert offsets[5] == pytest.approx((0.0, -layout.size))  # a vertex on top


@pytest.mark.parametrize("layout", LAYOUTS)
def test_corners_and_shared_edges(layout: Layout) -> None:
    h = Hex(3, -2)
    cx, cy = layout.hex_to_pixel(h)
    corners = layout.corners(h)
    for (x, y), (dx, dy) in zip(corners, layout.corner_offsets(), strict=True):
        assert (x, y) == pytest.approx((cx + dx, cy + dy))
    for n in h.neighbors():
        shared = [c for c in corners if any(math.dist(c, d) < 1e-9 for d in layout.corners(n))]
        assert len(shared) == 2  # neighbours share exactly one edge


def test_layout_validation_and_equality() -> None:
    for bad_size in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(HexmapError):
            Layout(size=bad_size)
    with pytest.raises(HexmapError):
        Layout("flat")  # type: ignore[arg-type]
    with pytest.raises(HexmapError):
        Layout(origin=(0.0, float("nan")))
    with pytest.raises(HexmapError):
        Layout(origin=(1.0,))  # type: ignore[arg-type]
    assert Layout(size=32, origin=(0, 0)) == Layout()
    assert hash(Layout(size=32)) == hash(Layout())


@pytest.mark.parametrize("layout", LAYOUTS)
def test_hexes_in_rect_matches_brute_force(layout: Layout) -> None:
    grid = HexGrid(23, 17)
    x0, y0, x1, y1 = grid.pixel_bounds(layout)
    rng = random.Random(16)
    for _ in range(40):
        ax, bx = sorted(rng.uniform(x0 - 50, x1 + 50) for _ in range(2))
        ay, by = sorted(rng.uniform(y0 - 50, y1 + 50) for _ in range(2))
        got = layout.hexes_in_rect(ax, ay, bx, by, grid)
        s = layout.size
        expected = [
            h
            for h in grid.hexes()
            if ax - s <= layout.hex_to_pixel(h)[0] <= bx + s
            and ay - s <= layout.hex_to_pixel(h)[1] <= by + s
        ]
        assert got == expected
        # Corner order does not matter.
        assert layout.hexes_in_rect(bx, by, ax, ay, grid) == got
        # Culling never drops a hex that is visible in the rect.
        chosen = set(got)
        for _ in range(30):
            p = layout.pixel_to_hex(rng.uniform(ax, bx), rng.uniform(ay, by))
            assert p not in grid or p in chosen


def test_hexes_in_rect_whole_map_and_nothing() -> None:
    layout = Layout()
    grid = HexGrid(30, 20)
    assert layout.hexes_in_rect(*grid.pixel_bounds(layout), grid) == list(grid.hexes())
    assert layout.hexes_in_rect(-5000, -5000, -4000, -4000, grid) == []


def test_grid_centers_are_cached_and_read_only() -> None:
    layout, grid = Layout(), HexGrid(10, 10)
    centers = layout.grid_centers(grid)
    assert layout.grid_centers(HexGrid(10, 10)) is centers
    with pytest.raises(ValueError):
        centers[0, 0] = 1.0
