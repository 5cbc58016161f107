"""The rectangular battle map: flat-top hexes in "odd-q" offset layout."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hexmap.coords import Hex, as_int
from hexmap.errors import HexmapError

if TYPE_CHECKING:
    from hexmap.layout import Layout


@dataclass(frozen=True)
class HexGrid:
    """A ``width`` x ``height`` map of offset columns and rows, ``Hex.from_offset`` style.

    Column 0, row 0 is ``Hex(0, 0)``; odd columns sit half a hex lower.
    """

    width: int  # columns
    height: int  # rows

    def __post_init__(self) -> None:
        width = as_int(self.width, "grid width")
        height = as_int(self.height, "grid height")
        if width < 1 or height < 1:
            raise HexmapError(f"a grid needs at least 1x1 hexes, got {width}x{height}")
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "height", height)

    def __contains__(self, h: object) -> bool:
        if not isinstance(h, Hex):
            return False
        col, row = h.to_offset()
        return 0 <= col < self.width and 0 <= row < self.height

    def __len__(self) -> int:
        return self.width * self.height

    @functools.cached_property
    def _hexes(self) -> tuple[Hex, ...]:
        return tuple(
            Hex.from_offset(col, row) for col in range(self.width) for row in range(self.height)
        )

    def hexes(self) -> tuple[Hex, ...]:
        """All hexes, column by column (col 0 rows 0..h-1, col 1, ...); computed once."""
        return self._hexes

    def last_inside(self, path: Sequence[Hex]) -> Hex:
        """The last hex of ``path`` before it first leaves the grid.

        ``path[0]`` must be on the grid. Useful to stop a flying piece at the map edge.
        """
        if not path:
            raise HexmapError("last_inside needs a non-empty path")
        if path[0] not in self:
            raise HexmapError(f"path starts off the grid at {path[0]!r}")
        last = path[0]
        for h in path[1:]:
            if h not in self:
                break
            last = h
        return last

    def pixel_bounds(self, layout: Layout) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)``: left, top, right, bottom of the union of all hex polygons."""
        centers = layout.grid_centers(self)
        offsets = layout.corner_offsets()
        dx = [o[0] for o in offsets]
        dy = [o[1] for o in offsets]
        return (
            float(centers[:, 0].min()) + min(dx),
            float(centers[:, 1].min()) + min(dy),
            float(centers[:, 0].max()) + max(dx),
            float(centers[:, 1].max()) + max(dy),
        )
