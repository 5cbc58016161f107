"""HexGrid: membership, the cached hex list, last_inside and pixel bounds."""

import itertools

import pytest

from hexmap import Facing, Hex, HexGrid, HexmapError, Layout, Orientation, disk, hex_line, ray


def test_contains() -> None:
    grid = HexGrid(5, 4)
    assert Hex(0, 0) in grid
    assert Hex.from_offset(4, 3) in grid
    assert Hex.from_offset(5, 0) not in grid
    assert Hex.from_offset(0, 4) not in grid
    assert Hex.from_offset(-1, 0) not in grid
    assert Hex.from_offset(0, -1) not in grid
    assert Hex(2, -1) in grid  # offset (2, 0): even columns ride higher in axial r
    assert Hex(1, -1) not in grid  # offset (1, -1)
    assert (0, 0) not in grid
    assert "0,0" not in grid


def test_hexes_count_order_and_cache() -> None:
    grid = HexGrid(100, 100)
    hexes = grid.hexes()
    assert len(hexes) == 10000 == len(grid) == len(set(hexes))
    assert grid.hexes() is hexes
    assert all(h in grid for h in hexes)
    assert hexes[:3] == (Hex.from_offset(0, 0), Hex.from_offset(0, 1), Hex.from_offset(0, 2))
    assert hexes[100] == Hex.from_offset(1, 0)
    assert [h.to_offset() for h in hexes] == list(itertools.product(range(100), range(100)))


def test_membership_agrees_with_hex_list() -> None:
    grid = HexGrid(7, 5)
    listed = set(grid.hexes())
    for h in disk(Hex(3, 0), 12):
        assert (h in grid) == (h in listed)


def test_grid_validation() -> None:
    for w, h in ((0, 5), (5, 0), (-1, 3)):
        with pytest.raises(HexmapError):
            HexGrid(w, h)
    with pytest.raises(HexmapError):
        HexGrid(2.5, 3)  # type: ignore[arg-type]
    assert HexGrid(3.0, 2) == HexGrid(3, 2)  # type: ignore[arg-type]


def test_last_inside() -> None:
    grid = HexGrid(10, 10)
    start = Hex.from_offset(5, 5)
    # Straight north from row 5: rows 4..0 are on the map, then it leaves.
    assert grid.last_inside(ray(start, Facing.N, 12)) == Hex.from_offset(5, 0)
    inside_line = hex_line(start, Hex.from_offset(7, 6))
    assert grid.last_inside(inside_line) == Hex.from_offset(7, 6)
    assert grid.last_inside([start]) == start
    # Leaving and coming back: stops before the first exit.
    path = [start, Hex.from_offset(-1, 0), Hex.from_offset(1, 1)]
    assert grid.last_inside(path) == start
    with pytest.raises(HexmapError):
        grid.last_inside([])
    with pytest.raises(HexmapError):
        grid.last_inside([Hex.from_offset(-1, 0), start])


@pytest.mark.parametrize(
    "layout",
    [Layout(), Layout(Orientation.POINTY, 10.0, (5.0, -7.0)), Layout(size=3.0, origin=(50, 60))],
)
@pytest.mark.parametrize(("width", "height"), [(1, 1), (2, 1), (1, 2), (6, 4)])
def test_pixel_bounds_cover_every_corner(layout: Layout, width: int, height: int) -> None:
    grid = HexGrid(width, height)
    corners = [c for h in grid.hexes() for c in layout.corners(h)]
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    assert grid.pixel_bounds(layout) == pytest.approx((min(xs), min(ys), max(xs), max(ys)))


def test_pixel_bounds_example() -> None:
    # Two flat-top columns of one row: column 1 hangs half a hex lower.
    bounds = HexGrid(2, 1).pixel_bounds(Layout(size=2.0))
    half = 3**0.5
    assert bounds == pytest.approx((-2.0, -half, 5.0, 2 * half))
