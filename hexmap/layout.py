"""Hex <-> pixel geometry (Red Blob Games' "Layout"): orientation, size and origin.

Screen coordinates have y pointing down. hexy only knows pointy-top hexes without an
origin; a flat-top hex grid is the pointy-top one with x and y swapped (and q and r
swapped), which is how the flat variant is derived from hexy's matrices here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from hexmap import _hexy
from hexmap.coords import Facing, Hex
from hexmap.errors import HexmapError

# numpy is imported in the vectorised methods only (start-up time, docs/packaging.md).
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from hexmap.grid import HexGrid

_SQRT3 = math.sqrt(3.0)
_HALF_SQRT3 = _SQRT3 / 2.0


class Orientation(Enum):
    """FLAT: hexes with a flat top edge (the battle map). POINTY: a vertex on top."""

    FLAT = "flat"
    POINTY = "pointy"


# Unit corner offsets, y down, clockwise on screen. Written out rather than computed
# with cos/sin so that exact values (0, 0.5, 1) stay exact.
_FLAT_CORNERS = (
    (1.0, 0.0),
    (0.5, _HALF_SQRT3),
    (-0.5, _HALF_SQRT3),
    (-1.0, 0.0),
    (-0.5, -_HALF_SQRT3),
    (0.5, -_HALF_SQRT3),
)
_POINTY_CORNERS = (
    (_HALF_SQRT3, -0.5),
    (_HALF_SQRT3, 0.5),
    (0.0, 1.0),
    (-_HALF_SQRT3, 0.5),
    (-_HALF_SQRT3, -0.5),
    (0.0, -1.0),
)


@dataclass(frozen=True)
class Layout:
    """How hexes sit on the screen (y down).

    ``size`` is the hex radius (centre to corner) in pixels, ``origin`` the pixel
    position of the centre of ``Hex(0, 0)``.
    """

    orientation: Orientation = Orientation.FLAT
    size: float = 32.0
    origin: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if not isinstance(self.orientation, Orientation):
            raise HexmapError(f"not an Orientation: {self.orientation!r}")
        size = float(self.size)
        if not (math.isfinite(size) and size > 0):
            raise HexmapError(f"hex size must be a positive number, got {self.size!r}")
        try:
            ox, oy = (float(v) for v in self.origin)
        except (TypeError, ValueError):
            raise HexmapError(f"origin must be two numbers, got {self.origin!r}") from None
        if not (math.isfinite(ox) and math.isfinite(oy)):
            raise HexmapError(f"origin must be finite, got {self.origin!r}")
        # Normalise so equal layouts compare and hash equal (e.g. size 32 vs 32.0).
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "origin", (ox, oy))

    def hex_to_pixel(self, h: Hex) -> tuple[float, float]:
        """Pixel centre of ``h``."""
        if self.orientation is Orientation.FLAT:
            x = 1.5 * h.q
            y = _HALF_SQRT3 * h.q + _SQRT3 * h.r
        else:
            x = _SQRT3 * h.q + _HALF_SQRT3 * h.r
            y = 1.5 * h.r
        return (self.origin[0] + self.size * x, self.origin[1] + self.size * y)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex containing pixel ``(x, y)`` (picking), via hexy's cube rounding."""
        px, py = float(x) - self.origin[0], float(y) - self.origin[1]
        if not (math.isfinite(px) and math.isfinite(py)):
            raise HexmapError(f"cannot pick a hex at non-finite pixel ({x!r}, {y!r})")
        if self.orientation is Orientation.POINTY:
            q, r = _hexy.pointy_pick(px, py, self.size)
            return Hex(q, r)
        # Flat = pointy with both the pixel axes and q/r swapped.
        r, q = _hexy.pointy_pick(py, px, self.size)
        return Hex(q, r)

    def centers(self, hexes: Sequence[Hex]) -> npt.NDArray[np.float64]:
        """``(N, 2)`` float array of pixel centres, vectorised through hexy."""
        import numpy as np

        axial = _hexy.axial_array(hexes)
        if self.orientation is Orientation.POINTY:
            pixels = _hexy.pointy_pixels(axial, self.size)
        else:
            pixels = _hexy.pointy_pixels(axial[:, ::-1], self.size)[:, ::-1]
        # "+ 0.0" turns any -0.0 into 0.0 and makes a fresh contiguous array.
        return pixels + np.array(self.origin, dtype=np.float64) + 0.0

    def grid_centers(self, grid: HexGrid) -> npt.NDArray[np.float64]:
        """Read-only ``centers(grid.hexes())``, cached per (layout, grid)."""
        return _grid_centers(self, grid)

    def corner_offsets(self) -> tuple[tuple[float, float], ...]:
        """The 6 corners relative to a hex centre, clockwise on screen.

        FLAT starts at the east corner, POINTY at the upper-right one.
        """
        unit = _FLAT_CORNERS if self.orientation is Orientation.FLAT else _POINTY_CORNERS
        return tuple((self.size * cx, self.size * cy) for cx, cy in unit)

    def corners(self, h: Hex) -> tuple[tuple[float, float], ...]:
        """The 6 pixel corners of ``h`` (y down), in ``corner_offsets`` order."""
        x, y = self.hex_to_pixel(h)
        return tuple((x + dx, y + dy) for dx, dy in self.corner_offsets())

    def facing_angle(self, facing: Facing) -> float:
        """Screen angle of ``facing``'s neighbour, degrees clockwise from screen-up.

        It is the direction from ``Hex(0, 0)``'s centre to ``Facing(f).vector``'s. FLAT:
        equal to ``facing.angle_degrees`` (N=0, NE=60, ...). POINTY: 30° less (N=330,
        NE=30, SE=90, ...), because the same axial neighbours sit 30° round.
        """
        angle = 60.0 * int(Facing(facing))
        return angle if self.orientation is Orientation.FLAT else (angle - 30.0) % 360.0

    def hexes_in_rect(self, x0: float, y0: float, x1: float, y1: float, grid: HexGrid) -> list[Hex]:
        """Hexes of ``grid`` whose centre lies in the pixel rect grown by ``size``.

        Every hex whose polygon touches the rect is included (a polygon lies within
        ``size`` of its centre), which is what painting needs for culling. Corners may
        come in either order. Result is in ``grid.hexes()`` order.
        """
        import numpy as np

        left, right = sorted((float(x0), float(x1)))
        top, bottom = sorted((float(y0), float(y1)))
        centers = self.grid_centers(grid)
        inside = (
            (centers[:, 0] >= left - self.size)
            & (centers[:, 0] <= right + self.size)
            & (centers[:, 1] >= top - self.size)
            & (centers[:, 1] <= bottom + self.size)
        )
        hexes = grid.hexes()
        return [hexes[i] for i in np.flatnonzero(inside).tolist()]


@functools.lru_cache(maxsize=16)
def _grid_centers(layout: Layout, grid: HexGrid) -> npt.NDArray[np.float64]:
    centers = layout.centers(grid.hexes())
    centers.flags.writeable = False  # shared by every caller through the cache
    return centers
