"""Weapon reach: which hexes a weapon can strike, and where the weapon itself is."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from hexmap.arcs import front_arc_hexes, in_front_arc
from hexmap.coords import Facing, Hex, as_int
from hexmap.digits import is_digits, parse_digits
from hexmap.errors import HexmapError

# Sanity cap so a typo like "1-100000" cannot make a million-hex set. Real melee
# reaches are C to about 7.
MAX_REACH = 99


def _parse_token(token: str, text: str) -> int:
    token = token.strip()
    if token in ("c", "C"):
        return 0
    value = parse_digits(token)
    if value is not None and value <= MAX_REACH:
        return value
    if is_digits(token):
        distance = str(value) if value is not None else f"a distance of {len(token):,} digits"
        raise HexmapError(f"bad reach {_shown(text)}: {distance} is beyond {MAX_REACH}")
    raise HexmapError(f"bad reach {_shown(text)}: {_shown(token)} is neither C nor a distance")


def _shown(text: str) -> str:
    """Text for a message, quoted; the start of it only, as it may be a file's, of
    any length."""
    return repr(text if len(text) <= 40 else f"{text[:37]}...")


def _token(distance: int) -> str:
    return "C" if distance == 0 else str(distance)


@dataclass(frozen=True)
class Reach:
    """The distances (in hexes) at which a weapon strikes; 0 is reach "C" (own hex)."""

    distances: frozenset[int]

    def __post_init__(self) -> None:
        values = frozenset(as_int(d, "reach distance") for d in self.distances)
        if not values:
            raise HexmapError("a reach needs at least one distance")
        if min(values) < 0 or max(values) > MAX_REACH:
            raise HexmapError(f"reach distances must be within 0..{MAX_REACH}: {sorted(values)}")
        object.__setattr__(self, "distances", values)

    @classmethod
    def of(cls, *distances: int) -> Reach:
        """``Reach.of(1, 2)`` is reach "1-2"."""
        return cls(frozenset(distances))

    @classmethod
    def parse(cls, text: str) -> Reach:
        """Parse reach text: "C", "1", "1-2", "C-1", "C,1", "1,2", "C,2-3", ...

        Comma-separated items, each a distance ("C" = 0, case-insensitive) or an
        ascending range "a-b". Raises ``HexmapError`` on anything else.
        """
        if not isinstance(text, str):
            raise HexmapError(f"reach text must be a string, got {text!r}")
        distances: set[int] = set()
        for item in text.split(","):
            if not item.strip():
                raise HexmapError(f"bad reach {_shown(text)}: empty item")
            ends = item.split("-")
            if len(ends) == 1:
                distances.add(_parse_token(ends[0], text))
            elif len(ends) == 2:
                low, high = (_parse_token(end, text) for end in ends)
                if low >= high:
                    raise HexmapError(
                        f"bad reach {_shown(text)}: range {_shown(item.strip())} not ascending"
                    )
                distances.update(range(low, high + 1))
            else:
                raise HexmapError(f"bad reach {_shown(text)}: {_shown(item.strip())}")
        return cls(frozenset(distances))

    def __str__(self) -> str:
        """Canonical text: runs of consecutive distances as "a-b", others comma-separated."""
        runs: list[list[int]] = []
        for d in sorted(self.distances):
            if runs and runs[-1][-1] == d - 1:
                runs[-1].append(d)
            else:
                runs.append([d])
        return ",".join(
            _token(run[0]) if len(run) == 1 else f"{_token(run[0])}-{_token(run[-1])}"
            for run in runs
        )

    def __contains__(self, distance: object) -> bool:
        return distance in self.distances

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self.distances))

    @property
    def max(self) -> int:
        """Longest distance (0 for "C")."""
        return max(self.distances)

    @property
    def min(self) -> int:
        """Shortest distance (0 for "C")."""
        return min(self.distances)


def reach_hexes(origin: Hex, facing: Facing, reach: Reach) -> frozenset[Hex]:
    """Hexes a weapon of ``reach`` can strike from ``origin`` facing ``facing``.

    For each distance d of the reach: the hexes at exactly d in the front arc
    (d = 0 is the wielder's own hex). Boundary hexes count as front (see ``arc_of``),
    so reach 1 is 3 hexes and reach 2 is 7.
    """
    result: set[Hex] = set()
    for d in reach.distances:
        result |= front_arc_hexes(origin, facing, d)
    return frozenset(result)


def in_reach(origin: Hex, facing: Facing, reach: Reach, target: Hex) -> bool:
    """Can a weapon of ``reach`` strike ``target`` from ``origin`` facing ``facing``?

    ``target in reach_hexes(origin, facing, reach)``, decided from the cube distance
    and one comparison for the front half-plane, without building any hexes (the
    attack path asks this for one hex at a time).
    """
    dq, dr = target.q - origin.q, target.r - origin.r
    distance = max(abs(dq), abs(dr), abs(dq + dr))
    return distance in reach.distances and in_front_arc(origin, facing, target)


def reaches_any(origin: Hex, facing: Facing, reach: Reach, targets: Iterable[Hex]) -> bool:
    """Is any of ``targets`` within ``reach`` (``in_reach``)? For "is a hex of that
    weapon (``weapon_hexes``) within my reach?" (001 Striking at Weapons)."""
    return any(in_reach(origin, facing, reach, t) for t in targets)


def weapon_hexes(origin: Hex, facing: Facing, reach: Reach) -> tuple[Hex, ...]:
    """Where the weapon itself is on the map, nearest the wielder first.

    Per "001 Striking at Weapons in Tactical Combat", by the reach's longest
    distance: C is in the wielder's hex; 1 is in the wielder's hex and the hex
    directly in front; 2 (and 3) are in the two (three) hexes directly in front.
    Longer reaches continue the last rule: the n hexes directly in front.
    """
    step = Facing(facing).vector
    longest = reach.max
    if longest == 0:
        return (origin,)
    if longest == 1:
        return (origin, origin + step)
    return tuple(origin + step.scale(i) for i in range(1, longest + 1))
