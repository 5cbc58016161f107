"""Handedness, the six arcs around a combatant, and the 60° wedges behind them.

The arcs feed the directional rules of seed 000: "000 PASSIVE DEFENSE" (a shield's PD
counts only against attacks from the front and the shield side), "000 BLOCK" and
"000 PARRY" (penalties for blows from the weapon-arm side, the side and the rear).
Which penalty goes with which arc is decided in ``rules``; this module only says
where an attack comes from. See docs/arcs.md for pictures.
"""

from __future__ import annotations

import functools
from enum import Enum

from hexmap.coords import Facing, Hex, as_int
from hexmap.errors import HexmapError
from hexmap.shapes import ring


class Handedness(Enum):
    """Which hand holds the weapon; the shield (or off hand) is on the other side."""

    RIGHT = "right"  # weapon in the right hand, shield on the LEFT
    LEFT = "left"  # the mirror image

    @property
    def mirrored(self) -> Handedness:
        """The other handedness."""
        return Handedness.LEFT if self is Handedness.RIGHT else Handedness.RIGHT

    @property
    def shield_turn(self) -> int:
        """Hex sides to turn from the facing towards the shield side: -1 (left) or +1."""
        # Facings count clockwise, so the left-hand side is counter-clockwise.
        return -1 if self is Handedness.RIGHT else 1


class Arc(Enum):
    """The arc an attack comes from, relative to the defender's facing and hands."""

    FRONT = "front"
    SHIELD_FRONT = "shield-side front"
    WEAPON_FRONT = "weapon-side front"
    SHIELD_SIDE = "shield side"
    WEAPON_SIDE = "weapon side"
    REAR = "rear"

    @property
    def is_front(self) -> bool:
        """FRONT and the two front diagonals: the half of the world a fighter faces."""
        return self in _FRONT_ARCS

    @property
    def frontality(self) -> int:
        """0 front, 1 the two front diagonals, 2 the two sides, 3 rear."""
        return _FRONTALITY[self]

    @property
    def label(self) -> str:
        """Human text, e.g. "Shield-side front"."""
        return self.value[0].upper() + self.value[1:]

    @property
    def letter(self) -> str:
        """One-letter code used in diagrams: F s w S W R."""
        return _LETTERS[self]


_FRONT_ARCS = frozenset({Arc.FRONT, Arc.SHIELD_FRONT, Arc.WEAPON_FRONT})
_FRONTALITY = {
    Arc.FRONT: 0,
    Arc.SHIELD_FRONT: 1,
    Arc.WEAPON_FRONT: 1,
    Arc.SHIELD_SIDE: 2,
    Arc.WEAPON_SIDE: 2,
    Arc.REAR: 3,
}
_LETTERS = {
    Arc.FRONT: "F",
    Arc.SHIELD_FRONT: "s",
    Arc.WEAPON_FRONT: "w",
    Arc.SHIELD_SIDE: "S",
    Arc.WEAPON_SIDE: "W",
    Arc.REAR: "R",
}

# Arc of the wedge that lies k hex sides clockwise of the facing, for a RIGHT-handed
# fighter (shield on the left, i.e. counter-clockwise). LEFT swaps shield and weapon.
_ARC_BY_TURN_RIGHT = (
    Arc.FRONT,
    Arc.WEAPON_FRONT,
    Arc.WEAPON_SIDE,
    Arc.REAR,
    Arc.SHIELD_SIDE,
    Arc.SHIELD_FRONT,
)
_MIRROR = {
    Arc.FRONT: Arc.FRONT,
    Arc.SHIELD_FRONT: Arc.WEAPON_FRONT,
    Arc.WEAPON_FRONT: Arc.SHIELD_FRONT,
    Arc.SHIELD_SIDE: Arc.WEAPON_SIDE,
    Arc.WEAPON_SIDE: Arc.SHIELD_SIDE,
    Arc.REAR: Arc.REAR,
}

# Wedge of each direction as an ordering of the cube coordinates (q, r, s) = indices
# (0, 1, 2): the wedge of Facing f holds the points with
# cube[a] >= cube[b] >= cube[c] for (a, b, c) = _WEDGE_ORDER[f]. Strictly greater is
# the inside; a tie is one of the boundary rays running out through the hex corners.
# The neighbour vector itself satisfies it, e.g. N = (0, -1, +1): s > q > r.
_WEDGE_ORDER = (
    (2, 0, 1),  # N:  s >= q >= r
    (0, 2, 1),  # NE: q >= s >= r
    (0, 1, 2),  # SE: q >= r >= s
    (1, 0, 2),  # S:  r >= q >= s
    (1, 2, 0),  # SW: r >= s >= q
    (2, 1, 0),  # NW: s >= r >= q
)


def wedges_of(vector: Hex) -> tuple[Facing, ...]:
    """The direction wedge(s) containing ``vector`` (a hex relative to the centre).

    One facing for a point inside a wedge, the two neighbouring facings (ascending)
    for a point on the boundary ray between them. Pure integer comparisons; the
    zero vector is in no wedge and raises ``HexmapError``.
    """
    if vector == Hex(0, 0):
        raise HexmapError("the centre hex lies in no direction wedge")
    cube = vector.cube
    return tuple(
        Facing(f) for f, (a, b, c) in enumerate(_WEDGE_ORDER) if cube[a] >= cube[b] >= cube[c]
    )


def arc_for_turn(steps_clockwise: int, handedness: Handedness) -> Arc:
    """Arc of the wedge ``steps_clockwise`` hex sides clockwise from the facing."""
    arc = _ARC_BY_TURN_RIGHT[as_int(steps_clockwise, "steps") % 6]
    return arc if handedness is Handedness.RIGHT else _MIRROR[arc]


def arc_direction(facing: Facing, handedness: Handedness, arc: Arc) -> Facing:
    """The neighbour direction at the centre of ``arc``'s wedge."""
    facing = Facing(facing)
    for k in range(6):
        if arc_for_turn(k, handedness) is arc:
            return facing.turned(k)
    raise HexmapError(f"not an Arc: {arc!r}")  # pragma: no cover - exhaustive above


def arc_of(target: Hex, origin: Hex, facing: Facing, handedness: Handedness) -> Arc:
    """Arc of ``target`` as seen by a combatant on ``origin`` facing ``facing``.

    Adjacent hexes: the hex ahead is FRONT, its two neighbours are the front diagonals
    (shield-side front on the shield hand's side), the two rear diagonals are the
    sides and the hex behind is REAR.

    Further hexes: the plane is cut into six 60° wedges, each centred on one
    neighbour direction, with boundaries running from the centre of ``origin``
    through its corners. A hex belongs to the wedge its centre lies in. A hex whose
    centre lies exactly on a boundary goes to the MORE FRONTAL of the two arcs
    (FRONT < front diagonals < sides < REAR); adjacent wedges always differ in
    frontality, so this is never ambiguous. Decided with exact integer comparisons.

    ``target == origin`` is FRONT: a combatant's own hex counts as front (close
    combat, reach C).
    """
    if not isinstance(handedness, Handedness):
        raise HexmapError(f"not a Handedness: {handedness!r}")
    if type(facing) is not Facing:  # a member already, as every attack passes it
        facing = Facing(facing)
    dq, dr = target.q - origin.q, target.r - origin.r
    if not (dq or dr):
        return Arc.FRONT
    return _arc_of_offset(dq, dr, facing, handedness)


@functools.lru_cache(maxsize=4096)
def _arc_of_offset(dq: int, dr: int, facing: Facing, handedness: Handedness) -> Arc:
    """``arc_of`` for a target ``(dq, dr)`` away from the origin (never ``(0, 0)``).
    Memoised: every attack asks it, and the same few offsets come back."""
    arcs = [arc_for_turn(w - facing, handedness) for w in wedges_of(Hex(dq, dr))]
    return min(arcs, key=lambda arc: arc.frontality)


# The front half-plane of each facing as one comparison of two cube coordinates
# (indices into (q, r, s)): ``target - origin`` is in the front arcs exactly when
# cube[lo] <= cube[hi]. For N that is r <= s, i.e. the centre is not below the
# origin's on screen; the other facings are the same test rotated (one clockwise
# step maps (q, r, s) to (-r, -s, -q)). Equality is the line exactly abeam, the
# front-diagonal/side boundary that counts as front (see ``arc_of``).
_FRONT_HALF_PLANE = ((1, 2), (1, 0), (2, 0), (2, 1), (0, 1), (0, 2))


def in_front_arc(origin: Hex, facing: Facing, target: Hex) -> bool:
    """Is ``target`` in a front arc (FRONT or a front diagonal) of a combatant on
    ``origin`` facing ``facing``? The same answer as ``arc_of(...).is_front`` for any
    handedness, from one integer comparison; the own hex counts as front."""
    lo, hi = _FRONT_HALF_PLANE[facing]
    dq, dr = target.q - origin.q, target.r - origin.r
    cube = (dq, dr, -dq - dr)
    return cube[lo] <= cube[hi]


def front_arc_hexes(origin: Hex, facing: Facing, distance: int) -> frozenset[Hex]:
    """Hexes at exactly ``distance`` from ``origin`` whose arc is a front arc.

    Handedness does not matter (it only swaps the two front diagonals). This is the
    closed half-plane ahead: ``3 * distance`` hexes at an odd distance, and
    ``3 * distance + 1`` at an even one, where the two hexes exactly abeam lie on a
    front/side boundary and count as front. Distance 0 gives ``{origin}`` (the own
    hex counts as front).
    """
    distance = as_int(distance, "distance")
    if distance < 0:
        raise HexmapError(f"distance must be >= 0, got {distance}")
    return frozenset(
        h for h in ring(origin, distance) if arc_of(h, origin, facing, Handedness.RIGHT).is_front
    )


def direction_to(origin: Hex, target: Hex) -> Facing:
    """The neighbour direction whose 60° wedge (as for ``arc_of``) contains ``target``.

    A target exactly on the boundary between two wedges gets the CLOCKWISE one of the
    two (so the rule turns with the map: rotating both hexes rotates the answer).
    ``target == origin`` has no direction and raises ``HexmapError``.
    """
    candidates = wedges_of(target - origin)
    if len(candidates) == 1:
        return candidates[0]
    first, second = candidates
    # Ascending pair of neighbours: (f, f+1), or (N, NW) across the wrap-around.
    return second if second - first == 1 else first
