"""Axial hex coordinates and the six facings of a flat-top hex map.

Conventions (Red Blob Games' hexagon guide, axial/cube coordinates):

* ``Hex(q, r)`` with the implied third cube coordinate ``s = -q - r``.
* Screen coordinates have y pointing DOWN. With flat-top hexes, ``r`` grows towards
  the bottom of the screen and ``q`` grows towards the right (and half a row down).
* ``Facing`` names the six neighbours across the hex EDGES of a flat-top hex,
  numbered clockwise on screen starting at north (straight up).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from enum import IntEnum
from typing import SupportsIndex

from hexmap.errors import HexmapError


def _is_numpy_bool(value: object) -> bool:
    cls = type(value)
    return cls.__module__ == "numpy" and cls.__name__ in ("bool", "bool_")


def as_int(value: object, what: str = "value") -> int:
    """Return ``value`` as a plain ``int``.

    Accepts ints, numpy integers and integral floats (``2.0``, ``-0.0``: hexy hands back
    float arrays). Rejects bools, non-integral or non-finite floats and everything else
    with a ``HexmapError``.
    """
    # Fast path: nearly every Hex is built from plain ints (hot in attack resolution).
    if type(value) is int:
        return value
    # bool is an int subclass, but True as a coordinate is always a bug.
    # numpy's bool is not an int subclass: recognised by its type, without importing
    # numpy here (it is loaded only where vectorised work is done; start-up time).
    if isinstance(value, bool) or _is_numpy_bool(value):
        raise HexmapError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, SupportsIndex):
        return int(value.__index__())
    if isinstance(value, numbers.Real):
        as_float = float(value)
        if math.isfinite(as_float) and as_float.is_integer():
            return int(as_float)  # int() also turns -0.0 into 0
    raise HexmapError(f"{what} must be an integer, got {value!r}")


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in axial coordinates. Immutable, hashable, ordered by ``(q, r)``."""

    q: int
    r: int

    def __post_init__(self) -> None:
        # Coerce so that Hex(1.0, -0.0) == Hex(1, 0) and hashes alike; the frozen
        # dataclass needs object.__setattr__ for that.
        object.__setattr__(self, "q", as_int(self.q, "Hex.q"))
        object.__setattr__(self, "r", as_int(self.r, "Hex.r"))

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    @property
    def cube(self) -> tuple[int, int, int]:
        """Cube coordinates ``(q, r, s)``; they always sum to 0."""
        return (self.q, self.r, -self.q - self.r)

    def __add__(self, other: Hex) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q - other.q, self.r - other.r)

    def __neg__(self) -> Hex:
        return Hex(-self.q, -self.r)

    def neighbor(self, facing: Facing) -> Hex:
        """The adjacent hex across the edge in direction ``facing``."""
        return self + Facing(facing).vector

    def neighbors(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in ``Facing`` order (N, NE, SE, S, SW, NW)."""
        return tuple(self + v for v in _VECTORS)

    def length(self) -> int:
        """Distance from ``Hex(0, 0)`` in hex steps."""
        return max(abs(self.q), abs(self.r), abs(self.q + self.r))

    def distance(self, other: Hex) -> int:
        """Number of hex steps between the two hexes (``(self - other).length()``
        without making the difference a Hex: every attack plan asks it)."""
        dq, dr = self.q - other.q, self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))

    def scale(self, k: int) -> Hex:
        """This vector multiplied by the integer ``k``."""
        k = as_int(k, "scale factor")
        return Hex(self.q * k, self.r * k)

    def rotated(self, steps_clockwise: int) -> Hex:
        """Rotate around ``Hex(0, 0)`` by 60° steps, clockwise on a y-down screen.

        Negative steps rotate counter-clockwise. ``Facing.N.vector.rotated(1)`` is
        ``Facing.NE.vector``.
        """
        q, r, s = self.cube
        for _ in range(as_int(steps_clockwise, "steps") % 6):
            # One clockwise step in cube coordinates: (q, r, s) -> (-r, -s, -q).
            q, r, s = -r, -s, -q
        return Hex(q, r)

    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        """Hex from "odd-q" offset coordinates (flat-top map, odd columns shoved down)."""
        col = as_int(col, "col")
        row = as_int(row, "row")
        # col & 1 is 1 for odd columns, also for negative ones in Python.
        return cls(col, row - (col - (col & 1)) // 2)

    def to_offset(self) -> tuple[int, int]:
        """``(col, row)`` in "odd-q" offset coordinates; inverse of ``from_offset``."""
        return (self.q, self.r + (self.q - (self.q & 1)) // 2)


# Hex's own slots, set directly by ``hex_at_offset`` (the class is frozen).
_new_hex = object.__new__
_set_q = Hex.__dict__["q"].__set__
_set_r = Hex.__dict__["r"].__set__


def hex_at_offset(col: int, row: int) -> Hex:
    """``Hex.from_offset(col, row)`` for numbers already known to be plain ints
    (``type(n) is int``: a file's hexes, checked as they are read), made without
    ``Hex``'s conversion of its numbers in a quarter of the time: a stroke over a
    map's 90,000 hexes."""
    made: Hex = _new_hex(Hex)
    _set_q(made, col)
    _set_r(made, row - (col - (col & 1)) // 2)
    return made


class Facing(IntEnum):
    """The six directions across the edges of a flat-top hex, clockwise on screen.

    ``Facing.N`` points straight up (negative screen y). ``int(facing)`` is the number
    of 60° clockwise steps from north.
    """

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    @property
    def vector(self) -> Hex:
        """The axial step to the neighbour in this direction."""
        return _VECTORS[self]

    def turned(self, steps: int) -> Facing:
        """Turn by ``steps`` hex sides: +1 is one step clockwise, -1 counter-clockwise."""
        return Facing((int(self) + as_int(steps, "steps")) % 6)

    def opposite(self) -> Facing:
        """The facing pointing the other way."""
        return self.turned(3)

    @property
    def angle_degrees(self) -> float:
        """Screen angle for the FLAT-top layout, clockwise from north (N=0, NE=60, ...).

        For a pointy-top layout use ``Layout.facing_angle``.
        """
        return 60.0 * int(self)

    @property
    def label(self) -> str:
        """Short compass text: "N", "NE", ..."""
        return self.name

    @classmethod
    def from_vector(cls, vector: Hex) -> Facing:
        """The facing whose unit vector is ``vector``; ``HexmapError`` if it is no unit step."""
        try:
            return cls(_VECTORS.index(vector))
        except ValueError:
            raise HexmapError(f"{vector!r} is not a unit step between neighbours") from None


# Indexed by Facing; clockwise on a y-down screen for flat-top hexes.
_VECTORS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)
