"""The one place that talks to ``hexy`` (Hexy 1.4.4).

hexy works on float numpy arrays in its own conventions, which must not leak out:

* its cube order is ``(x, y, z) = (q, s, r)`` and its axial pairs are ``(x, z) = (q, r)``;
* it returns floats, sometimes ``-0.0``; we round and convert to ``int`` here;
* its compass names (NE, SE, ...) assume y-up, so we never use them;
* its pixel matrix is POINTY-top with y down and has no origin; ``hexmap.layout`` adds
  the flat-top variant (by swapping axes) and the origin.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexmap.coords import Hex

# hexy and numpy are imported inside the functions: loading numpy takes tens of ms,
# and the map's first frame needs neither (start-up time, docs/packaging.md).
if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]
    IntArray = npt.NDArray[np.int64]


def axial_array(hexes: Sequence[Hex]) -> IntArray:
    """``(N, 2)`` int array of ``(q, r)``; the only per-hex Python loop is building it."""
    import numpy as np

    flat = np.fromiter((c for h in hexes for c in (h.q, h.r)), dtype=np.int64, count=2 * len(hexes))
    return flat.reshape(len(hexes), 2)


def _hexes_from_hexy_cubes(cubes: object) -> tuple[Hex, ...]:
    import numpy as np

    arr = np.asarray(cubes, dtype=np.float64).reshape(-1, 3)
    # hexy cube columns are (x=q, y=s, z=r); rint + int64 also removes -0.0.
    qr = np.rint(arr[:, [0, 2]]).astype(np.int64)
    return tuple(Hex(int(q), int(r)) for q, r in qr.tolist())


def _hexy_cube(h: Hex) -> FloatArray:
    import numpy as np

    return np.array([h.q, h.s, h.r], dtype=np.float64)


def ring(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Hexes at exactly ``radius`` (>= 0) from ``center``, in hexy's order."""
    import hexy

    return _hexes_from_hexy_cubes(hexy.get_ring(_hexy_cube(center), radius))


def disk(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Hexes within ``radius`` (>= 0) of ``center``: rings 0, 1, ... in hexy's order."""
    import hexy

    return _hexes_from_hexy_cubes(hexy.get_disk(_hexy_cube(center), radius))


def pointy_pixels(axial: npt.NDArray[np.int64] | FloatArray, size: float) -> FloatArray:
    """``(N, 2)`` pointy-top pixel offsets (y down, no origin) of ``(N, 2)`` axial rows."""
    import hexy
    import numpy as np

    if len(axial) == 0:
        return np.zeros((0, 2), dtype=np.float64)
    return np.asarray(
        hexy.axial_to_pixel(np.asarray(axial, dtype=np.float64), size), dtype=np.float64
    ).reshape(-1, 2)


def pointy_pick(x: float, y: float, size: float) -> tuple[int, int]:
    """Axial ``(q, r)`` of the pointy-top hex containing pixel offset ``(x, y)``."""
    import hexy
    import numpy as np

    axial = np.asarray(
        hexy.pixel_to_axial(np.array([[x, y]], dtype=np.float64), size), dtype=np.float64
    ).reshape(2)
    # round() of a float is an int, so no -0.0 survives.
    return (round(float(axial[0])), round(float(axial[1])))
