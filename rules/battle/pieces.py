"""Pieces on their way to the map: a weapon, a shield or a broken-off part that
leaves a hand, how it goes (``Placement``: at the feet, dropped, knocked away,
flying some dice of hexes) and, once rolled, the dice of its landing (``Landing``).

Ruleset-neutral: a ruleset says which placement a piece gets; the battle traces
it on the map (``rules.battle.scatter``). Direction die ``n`` means
``hexmap.Facing(n - 1)`` (1 = N, then clockwise) for a random direction; for a
forward-or-back placement 1-3 is the wielder's facing and 4-6 the opposite one
(``Landing.facing``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from hexmap import Facing, parse_digits
from rules.battle.model import Weapon
from rules.core.citation import Citation
from rules.core.dice import DiceSource, distribution, roll, run_merged
from rules.core.errors import DataError, RulesError


class PlacementKind(Enum):
    """How a weapon or piece of one leaves (or stays in) the hand."""

    IN_HAND = "in hand"
    AT_FEET = "at the wielder's feet"
    DROPPED_IN_HEX = "dropped in the wielder's hex"
    DROPPED_NEARBY = "dropped deliberately: a hex passed through or an adjacent hex"
    ADJACENT_OR_FEET = "at the wielder's feet or in an adjacent hex"
    KNOCKED_AWAY = "knocked away in a random direction"
    ONE_HEX_RANDOM = "one hex away in a random direction"
    FLIES = "flies away"
    # A thrown weapon: it starts from the target's hex (000 MISSILE AND THROWN WEAPONS).
    ON_TARGET = "lands in the target's hex"
    WIDE_OF_TARGET = "lands wide of the target"


class DirectionRule(Enum):
    NONE = "none"
    RANDOM = "random hex side (1d6)"
    FORWARD_OR_BACK = "straight forward or straight back (1d6: 1-3 forward)"


@dataclass(frozen=True, slots=True)
class DistanceDice:
    """Dice for a distance in hexes: ``count`` d ``sides`` + ``adds``, never below 0.
    ``1d3`` is rolled as a three-sided die (a d6 halved, rounding up, at the table)."""

    count: int
    sides: int = 6
    adds: int = 0

    def __post_init__(self) -> None:
        if self.count < 0 or self.sides < 1:
            raise RulesError(f"bad distance dice {self.count}d{self.sides}")

    def __str__(self) -> str:
        adds = f"{self.adds:+d}" if self.adds else ""
        return f"{self.count}d{self.sides}{adds}"

    @classmethod
    def parse(cls, text: str) -> DistanceDice:
        """Parse "2d6", "1d6", "1d3-1", "1d2-1". Raises ``DataError``."""
        cleaned = text.replace(" ", "").lower()
        count_text, sep, rest = cleaned.partition("d")
        sides_text, sign, adds_text = rest, "+", "0"
        for mark in "+-":
            if mark in rest:
                sides_text, sign, adds_text = rest.partition(mark)
        count, sides, adds = (parse_digits(t) for t in (count_text, sides_text, adds_text))
        if not sep or count is None or sides is None or adds is None or sides < 1:
            raise DataError(f"bad distance dice {text!r:.40}")
        return cls(count, sides, adds if sign == "+" else -adds)

    def distribution(self) -> Mapping[int, Fraction]:
        """Exact distribution of the distance (floored at 0)."""
        result: dict[int, Fraction] = {}
        for total, p in distribution(self.count, self.sides).items():
            value = max(0, total + self.adds)
            result[value] = result.get(value, Fraction(0)) + p
        return MappingProxyType(dict(sorted(result.items())))


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a piece goes, in abstract terms. ``distance`` is rolled (``dice``) or
    fixed; ``direction`` says which direction die, if any, applies."""

    kind: PlacementKind
    dice: DistanceDice | None = None
    fixed_distance: int = 0
    direction: DirectionRule = DirectionRule.NONE
    citation: Citation | None = None

    def __str__(self) -> str:
        if self.dice is not None:
            return f"{self.kind.value} ({self.dice} hexes)"
        return self.kind.value

    def distance_distribution(self) -> Mapping[int, Fraction]:
        if self.dice is None:
            return MappingProxyType({self.fixed_distance: Fraction(1)})
        return self.dice.distribution()


# The key of a broken-off part is its weapon's key with this mark (one per break):
# such a part lies on the map as a piece, not as a weapon.
BROKEN_MARK = ":broken"

IN_HAND = Placement(PlacementKind.IN_HAND)
AT_FEET = Placement(PlacementKind.AT_FEET)


def flies(dice: str | DistanceDice, citation: Citation | None = None) -> Placement:
    """A piece flying ``dice`` hexes in a random direction (e.g. a flail head, 2d6)."""
    parsed = DistanceDice.parse(dice) if isinstance(dice, str) else dice
    return Placement(PlacementKind.FLIES, parsed, 0, DirectionRule.RANDOM, citation)


@dataclass(frozen=True, slots=True)
class Landing:
    """The dice rolled to place a piece: distance faces and total, and the direction
    die (1-6) when the piece moved at all (None at distance 0 or with no direction)."""

    placement: Placement
    distance_faces: tuple[int, ...]
    distance: int
    direction_roll: int | None

    def facing(self, wielder_facing: Facing | None = None) -> Facing | None:
        """The map direction the piece went: ``Facing(roll - 1)`` for a random
        direction; the wielder's facing (1-3) or its opposite (4-6) for
        forward-or-back, which needs ``wielder_facing``."""
        if self.direction_roll is None:
            return None
        rule = self.placement.direction
        if rule is DirectionRule.RANDOM:
            return Facing(self.direction_roll - 1)
        if rule is DirectionRule.FORWARD_OR_BACK:
            if wielder_facing is None:
                raise RulesError("a forward-or-back landing needs the wielder's facing")
            return wielder_facing if self.direction_roll <= 3 else wielder_facing.opposite()
        return None

    def __str__(self) -> str:
        where = f"{self.distance} hex" + ("" if self.distance == 1 else "es")
        if self.direction_roll is not None:
            where += f", direction die {self.direction_roll}"
        return where


_WHICH_WAY = {
    DirectionRule.RANDOM: "1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW",
    DirectionRule.FORWARD_OR_BACK: "1-3 forward, 4-6 back",
}


def land(
    placement: Placement, rng: DiceSource, name: str | None = None, whose: str = ""
) -> Landing:
    """Roll where a piece lands: first the distance dice (if any), then — only if it
    moved — one d6 for the direction. ``name``: the piece's, and ``whose``: who held
    it, for dice entered at the table ("Fencer: how far the Broadsword goes").
    A merged step (``Landed``)."""
    return run_merged(rng, Landed(placement, name, whose))


@dataclass(frozen=True, slots=True)
class Landed:
    """``land`` as a merged step (``rules.core.dice.run_merged``): what follows
    reads where the piece lands, not the faces that sent it there (the log's);
    an attack's exact odds read nothing of it (``piece_read``), so that a weapon
    breaking into flying pieces branches by its pieces alone."""

    placement: Placement
    name: str | None
    whose: str

    def __call__(self, rng: DiceSource) -> Landing:
        return _land(self.placement, rng, self.name, self.whose)

    def reads(self, result: Landing) -> Hashable:
        return result.distance, result.direction_roll

    def odds_reads(self, result: Landing) -> Hashable:
        return None


def _land(placement: Placement, rng: DiceSource, name: str | None, whose: str) -> Landing:
    faces: tuple[int, ...] = ()
    held = f"{whose}: " if whose else ""
    if placement.dice is not None:
        dice = placement.dice
        what = None if name is None else f"{held}how far the {name} goes (hexes)"
        faces = roll(dice.count, rng, dice.sides, what=what, adds=dice.adds)
        distance = max(0, sum(faces) + placement.dice.adds)
    else:
        distance = placement.fixed_distance
    direction: int | None = None
    if distance > 0 and placement.direction is not DirectionRule.NONE:
        which = _WHICH_WAY.get(placement.direction, "")
        what = None if name is None else f"{held}which way the {name} goes ({which})"
        direction = roll(1, rng, what=what)[0]
    return Landing(placement, faces, distance, direction)


@dataclass(frozen=True, slots=True)
class Piece:
    """A weapon or a piece of one, and where it is or goes.

    ``weapon`` is None for a useless piece; a broken-off part's "half damage" is
    in its modes' damage (``DamageSpec.factor``). ``stray_hit_factor`` is set for a
    flying piece that may hit someone in its path for that fraction of its damage.
    ``landing`` is filled in once the placement is rolled.
    """

    name: str
    weapon: Weapon | None
    placement: Placement
    landing: Landing | None = None
    stray_hit_factor: Fraction | None = None
    note: str = ""

    @property
    def usable(self) -> bool:
        return self.weapon is not None

    def landed(self, rng: DiceSource, whose: str) -> Piece:
        """This piece with its placement rolled (in-hand pieces stay as they are);
        ``whose``: who held it, for dice entered at the table."""
        if self.placement.kind is PlacementKind.IN_HAND:
            return self
        return replace(self, landing=land(self.placement, rng, self.name, whose))


def landing_read(piece: Piece) -> Hashable:
    """What the rules read of a piece whose flight is rolled: the piece and where
    it lands, not the faces that sent it there (the log's). A merged step's
    ``reads`` (``rules.core.dice.run_merged``)."""
    landing = piece.landing
    where = None if landing is None else (landing.distance, landing.direction_roll)
    return piece.name, piece.weapon, piece.placement, piece.stray_hit_factor, piece.note, where


def piece_read(piece: Piece) -> Hashable:
    """What the exact odds of an attack read of a piece whose flight is rolled:
    the piece, not where it lands (its landing changes the map, never how the
    attack lands, the defender's injury or standing). A merged step's
    ``odds_reads`` (``rules.core.dice.MergedStep``)."""
    return piece.name, piece.weapon, piece.placement, piece.stray_hit_factor, piece.note
