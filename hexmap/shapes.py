"""Lines, rings and disks of hexes."""

from __future__ import annotations

from hexmap import _hexy
from hexmap.coords import Facing, Hex, as_int
from hexmap.errors import HexmapError

# Red Blob's nudge direction (q, r, s) = (+1, +2, -3) * epsilon. It sums to zero, so a
# nudged point stays on the q + r + s = 0 plane, and the three sizes differ, so no two
# coordinates can ever tie when rounding.
_NUDGE = (1, 2, -3)


def _round_nudged(scaled: tuple[int, int, int], n: int) -> Hex:
    """Cube-round the point ``scaled / n + epsilon * _NUDGE`` for an infinitesimal epsilon.

    Everything is integer arithmetic, so the result is exact for any coordinates: the
    nudge only decides what floating point would leave to chance (exact halves and
    equal rounding errors), exactly as a tiny positive epsilon would.
    """
    rounded: list[int] = []
    keys: list[tuple[int, int]] = []
    for value, c in zip(scaled, _NUDGE, strict=True):
        twice = 2 * value + n
        k = twice // (2 * n)  # round half up ...
        if twice % (2 * n) == 0 and c < 0:
            k -= 1  # ... but an exact half nudged downwards rounds down
        d = k * n - value  # (rounded - real) * n, ignoring the nudge
        # |rounded - (real + c*eps)| compares as (|d|, first-order term in eps).
        keys.append((abs(d), -c if d > 0 else (c if d < 0 else abs(c))))
        rounded.append(k)
    # Cube rounding: recompute the coordinate that moved furthest from the others.
    worst = max(range(3), key=keys.__getitem__)
    rounded[worst] = -(sum(rounded) - rounded[worst])
    return Hex(rounded[0], rounded[1])


def hex_line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The straight line of hexes from ``a`` to ``b``, both included.

    ``len(hex_line(a, b)) == a.distance(b) + 1`` and consecutive hexes are adjacent.
    Each sample point of the line is nudged by an infinitesimal ``(+1, +2, -3)`` in
    ``(q, r, s)`` (Red Blob Games' nudge, computed exactly) so that lines running along
    hex edges fall consistently on one side. Guarantees, for all hexes ``a``, ``b``, ``t``:

    * translation: ``hex_line(a + t, b + t) == tuple(h + t for h in hex_line(a, b))``;
    * symmetry: ``hex_line(b, a) == hex_line(a, b)[::-1]`` (both ends use the same
      nudge, so both lines sample the same nudged points, just in reverse order);
    * it agrees with Red Blob's floating-point line nudged by ``(1e-6, 2e-6, -3e-6)``
      wherever that one is exact (coordinates well below a million).

    The nudge is fixed in map space, not relative to the line, so a line is not
    rotation- or mirror-symmetric on its edge-running stretches: it always leans to
    the same side of the map.
    """
    n = a.distance(b)
    if n == 0:
        return (a,)
    ac, bc = a.cube, b.cube
    # Point i is a + (b - a) * i / n; scaled by n that is a * (n - i) + b * i, an
    # expression symmetric in (a, i) <-> (b, n - i), hence the exact symmetry.
    return tuple(
        _round_nudged(
            (ac[0] * (n - i) + bc[0] * i, ac[1] * (n - i) + bc[1] * i, ac[2] * (n - i) + bc[2] * i),
            n,
        )
        for i in range(n + 1)
    )


def _radius(radius: int) -> int:
    radius = as_int(radius, "radius")
    if radius < 0:
        raise HexmapError(f"radius must be >= 0, got {radius}")
    return radius


def ring(center: Hex, radius: int) -> tuple[Hex, ...]:
    """The ``6 * radius`` hexes at exactly ``radius`` from ``center`` (``(center,)`` for 0).

    Order is hexy's and deterministic: it starts at ``center + NW * radius`` and runs
    counter-clockwise on screen (towards SW first).
    """
    return _hexy.ring(center, _radius(radius))


def disk(center: Hex, radius: int) -> tuple[Hex, ...]:
    """The ``1 + 3 * radius * (radius + 1)`` hexes within ``radius`` of ``center``.

    Order: ``center`` first, then ``ring(center, 1)``, ``ring(center, 2)``, ...
    """
    return _hexy.disk(center, _radius(radius))


def ray(origin: Hex, facing: Facing, length: int) -> tuple[Hex, ...]:
    """``origin`` and the ``length`` hexes straight ahead of it in direction ``facing``.

    For things that fly off in one of the six directions (seed 000's knocked-away
    weapons and flail heads); cut it at the map edge with ``HexGrid.last_inside``.
    """
    step = Facing(facing).vector
    return tuple(origin + step.scale(i) for i in range(_radius(length) + 1))
