"""Where dropped, knocked-away and broken-off pieces land on the hex map.

The weapons-on-weapons rules of seed 000 (``weapon_strikes``, ``breakage``,
``disarm``, ``critical_misses`` in ``rules.sets.seed000``) say *how* a piece leaves a hand: a
``Placement`` (at the feet, knocked away 1d3-1 hexes, flies 2d6 hexes ...) and,
once rolled, a ``weapon_strikes.Landing`` with the distance dice and a direction
die. This module puts that on the map (see docs/battlefield.md):

* **Direction die.** One d6 picks one of the six hex sides: 1 = N, 2 = NE, 3 = SE,
  4 = S, 5 = SW, 6 = NW (``Facing(die - 1)``, clockwise from north), the same
  mapping as ``weapon_strikes.Landing.facing``. A forward-or-back placement (the
  critical miss "weapon flies") takes the wielder's facing on 1-3 and the
  opposite one on 4-6. The direction is rolled only when the piece moves at all.
* **Tracing.** A piece travels hex by hex straight along that direction
  (``hexmap.ray``). What would leave the map stops on the last hex inside it
  (``HexGrid.last_inside``).
* **Someone in the way.** A piece that may hit bystanders (``StrayRule``) is
  checked against every hex with a combatant after the starting hex, in order:
  IN_PATH checks each one in the path and a hit stops the piece in that hex;
  DX_AT_LANDING checks only the hex where the piece comes down, and the piece
  lands there anyway. Whether a check hits, and what the hit does, is the
  ruleset's (``StrayHitRules``; seed 000: ``rules.sets.seed000.stray_hits``).

Everything is exact and replayable: dice come from the injected ``DiceSource``
and ``landing_distribution`` enumerates every die face to give exact ``Fraction``
probabilities of each landing hex.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from hexmap import Facing, Hex, HexGrid, ray
from rules.battle.model import Combatant
from rules.battle.pieces import DirectionRule, Landing, Piece, Placement, PlacementKind, land
from rules.battle.values import hex_name
from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.core.errors import RulesError
from rules.core.events import Event


def direction_of_die(die: int) -> Facing:
    """The hex side of a direction die: 1 = N, 2 = NE, 3 = SE, 4 = S, 5 = SW, 6 = NW."""
    if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
        raise RulesError(f"a direction die shows 1..6, got {die!r}")
    return Facing(die - 1)


def random_direction(rng: DiceSource, what: str) -> tuple[int, Facing]:
    """Roll 1d6 for a random direction: the die and the hex side it names. ``what``
    names the roll for dice entered at the table ("which way Fencer's Rapier goes")."""
    die = roll(1, rng, what=f"{what} (1 N, 2 NE, 3 SE, 4 S, 5 SW, 6 NW)")[0]
    return die, direction_of_die(die)


class StrayRule(Enum):
    """Whether and how a moving piece may hit somebody (module docstring)."""

    NONE = "hits nobody"
    IN_PATH = "may hit whoever is in its path and drop in their hex"
    DX_AT_LANDING = "whoever stands where it comes down dodges it or is hit"


def stray_rule_of(piece: Piece) -> StrayRule:
    """A piece with a ``stray_hit_factor`` may hit people: in its path when it flies
    in a random direction (000 BROKEN WEAPONS), where it lands when it flies
    forward or back (the critical miss table). Other pieces hit nobody."""
    if piece.stray_hit_factor is None or piece.placement.kind is not PlacementKind.FLIES:
        return StrayRule.NONE
    if piece.placement.direction is DirectionRule.FORWARD_OR_BACK:
        return StrayRule.DX_AT_LANDING
    return StrayRule.IN_PATH


@dataclass(frozen=True, slots=True)
class Occupant:
    """Somebody standing (or lying) in a hex a piece may pass."""

    combatant: Combatant

    @property
    def combatant_id(self) -> str:
        return self.combatant.id

    @property
    def name(self) -> str:
        return self.combatant.name


@dataclass(frozen=True, kw_only=True)
class StrayCheck:
    """One check for somebody a piece may hit: whether it hit, and the ruleset's
    event that shows the roll in the log."""

    combatant_id: str
    name: str
    hex: Hex
    rule: StrayRule
    hit: bool
    event: Event


@dataclass(frozen=True, slots=True)
class StrayAttempt:
    """A piece that may hit somebody: its name, how it left the hand, who stands
    in its way, where, and by which rule it is checked."""

    piece_name: str
    placement: Placement
    occupant: Occupant
    where: Hex
    rule: StrayRule


class StrayHitRules(ABC):
    """The ruleset's part in a flying piece: the roll for somebody in its way
    (dice through ``dice``; ``roll_hit`` says whether it hit and gives the event that
    shows it in the log) and, for exact odds, the chance that roll hits.
    ``check`` turns the roll into the ``StrayCheck`` the scatter records."""

    def check(
        self,
        piece_name: str,
        placement: Placement,
        occupant: Occupant,
        where: Hex,
        rule: StrayRule,
        dice: DiceSource,
    ) -> StrayCheck:
        attempt = StrayAttempt(piece_name, placement, occupant, where, rule)
        hit, event = self.roll_hit(attempt, dice)
        who = occupant
        return StrayCheck(
            combatant_id=who.combatant_id, name=who.name, hex=where, rule=rule, hit=hit, event=event
        )

    @abstractmethod
    def roll_hit(self, attempt: StrayAttempt, dice: DiceSource) -> tuple[bool, Event]: ...

    @abstractmethod
    def hit_chance(self, occupant: Occupant, rule: StrayRule) -> Fraction: ...


class NoStrayHits(StrayHitRules):
    """A ruleset in which a flying piece never hits anybody (chance 0): rolls
    nothing, and ``passed(piece_name, occupant)`` is the event that says so."""

    def __init__(self, passed: Callable[[str, Occupant], Event]) -> None:
        self._passed = passed

    def roll_hit(self, attempt: StrayAttempt, dice: DiceSource) -> tuple[bool, Event]:
        return False, self._passed(attempt.piece_name, attempt.occupant)

    def hit_chance(self, occupant: Occupant, rule: StrayRule) -> Fraction:
        return Fraction(0)


@dataclass(frozen=True, slots=True)
class MapLanding:
    """A piece's way on the map: where it started, the dice (``dice`` is None for
    a deliberate drop, which rolls nothing), the direction, the hexes it crossed
    (``path[0] == start``, ``path[-1] == final``), whether the map edge stopped it,
    each stray-hit roll and the damage a hit calls for."""

    piece_name: str
    placement: Placement
    start: Hex
    dice: Landing | None
    direction: Facing | None
    path: tuple[Hex, ...]
    final: Hex
    stopped_at_edge: bool
    checks: tuple[StrayCheck, ...] = ()

    @property
    def direction_die(self) -> int | None:
        return None if self.dice is None else self.dice.direction_roll

    @property
    def distance_rolled(self) -> int:
        return 0 if self.dice is None else self.dice.distance

    @property
    def distance_dice(self) -> str | None:
        dice = self.placement.dice
        return None if dice is None else str(dice)

    @property
    def hit_id(self) -> str | None:
        for check in self.checks:
            if check.hit:
                return check.combatant_id
        return None

    @property
    def citation(self) -> Citation | None:
        return self.placement.citation

    def describe(self) -> str:
        if self.dice is None or (self.distance_rolled == 0 and self.direction is None):
            if self.placement.kind is PlacementKind.ON_TARGET:
                return f"{self.piece_name} lands in the target's hex ({hex_name(self.final)})"
            where = "at the feet" if self.final == self.start else "nearby"
            return f"{self.piece_name} falls {where} ({hex_name(self.final)})"
        dice = self.placement.dice
        if dice is not None and self.dice.distance_faces:
            faces = "+".join(str(f) for f in self.dice.distance_faces)
            rolled = f"{dice}: {faces} = {self.dice.distance}"
        else:
            rolled = f"{self.dice.distance}"
        text = f"{self.piece_name} goes {rolled} hex{'' if self.dice.distance == 1 else 'es'}"
        if self.direction is not None:
            die = self.direction_die
            text += f" {self.direction.label} (direction die {die})"
        travelled = len(self.path) - 1
        if self.stopped_at_edge:
            text += f", stopped by the map edge after {travelled}"
        elif self.hit_id is not None and travelled < self.distance_rolled:
            text += f", stopped by a hit after {travelled}"
        return text + f"; lands at {hex_name(self.final)}"


# --------------------------------------------------------------------- tracing


def trace(
    start: Hex, direction: Facing, distance: int, grid: HexGrid
) -> tuple[tuple[Hex, ...], bool]:
    """The hexes from ``start`` straight along ``direction`` for ``distance`` hexes,
    cut at the map edge; and whether the edge cut it."""
    if start not in grid:
        raise RulesError(f"a piece cannot start off the map at {hex_name(start)}")
    full = ray(start, direction, distance)
    last = grid.last_inside(full)
    kept = full[: full.index(last) + 1]
    return kept, len(kept) < len(full)


def _stop_at_hit(
    piece_name: str,
    placement: Placement,
    path: tuple[Hex, ...],
    rule: StrayRule,
    occupants: Mapping[Hex, Occupant],
    hits: StrayHitRules | None,
    rng: DiceSource,
) -> tuple[tuple[Hex, ...], tuple[StrayCheck, ...]]:
    """Roll the stray checks along ``path`` in order; cut the path at a hit."""
    if hits is None or rule is StrayRule.NONE:
        return path, ()
    checks: list[StrayCheck] = []
    if rule is StrayRule.IN_PATH:
        for i, h in enumerate(path[1:], start=1):
            who = occupants.get(h)
            if who is None:
                continue
            check = hits.check(piece_name, placement, who, h, rule, rng)
            checks.append(check)
            if check.hit:
                return path[: i + 1], tuple(checks)
    elif rule is StrayRule.DX_AT_LANDING and len(path) > 1:
        who = occupants.get(path[-1])
        if who is not None:
            checks.append(hits.check(piece_name, placement, who, path[-1], rule, rng))
    return path, tuple(checks)


def scatter_landing(
    piece_name: str,
    dice: Landing,
    start: Hex,
    grid: HexGrid,
    rng: DiceSource,
    *,
    wielder_facing: Facing | None = None,
    occupants: Mapping[Hex, Occupant] | None = None,
    stray_rule: StrayRule = StrayRule.NONE,
    hits: StrayHitRules | None = None,
) -> MapLanding:
    """Trace already-rolled landing dice from ``start``; roll only the stray checks."""
    placement = dice.placement
    if placement.kind is PlacementKind.IN_HAND:
        raise RulesError(f"{piece_name} stays in the hand; there is nothing to place")
    direction = dice.facing(wielder_facing)
    if dice.distance > 0 and direction is None:
        raise RulesError(f"{piece_name} moves {dice.distance} hexes but has no direction")
    if direction is None or dice.distance == 0:
        if start not in grid:
            raise RulesError(f"a piece cannot start off the map at {hex_name(start)}")
        path: tuple[Hex, ...] = (start,)
        edge = False
    else:
        path, edge = trace(start, direction, dice.distance, grid)
    path, checks = _stop_at_hit(
        piece_name, placement, path, stray_rule, occupants or {}, hits, rng
    )
    if any(c.hit for c in checks) and stray_rule is StrayRule.IN_PATH:
        edge = False  # it came down on somebody, not at the edge
    return MapLanding(
        piece_name=piece_name,
        placement=placement,
        start=start,
        dice=dice,
        direction=direction if dice.distance > 0 else None,
        path=path,
        final=path[-1],
        stopped_at_edge=edge,
        checks=checks,
    )


def scatter_piece(
    piece: Piece,
    start: Hex,
    grid: HexGrid,
    rng: DiceSource,
    *,
    wielder_facing: Facing | None = None,
    occupants: Mapping[Hex, Occupant] | None = None,
    hits: StrayHitRules | None = None,
    whose: str = "",
) -> MapLanding:
    """Place one piece leaving a hand at ``start``; ``whose`` hand, for dice entered
    at the table.

    Dice order: the piece's landing dice if not rolled yet (distance, then the
    direction die if it moved: ``weapon_strikes.land``), then the stray checks in
    path order. A deliberate drop (DROPPED_NEARBY) rolls nothing and lands on
    ``start``: the caller passes the hex chosen (``rules.battle.items.drop_candidates``).
    """
    placement = piece.placement
    if placement.kind is PlacementKind.IN_HAND:
        raise RulesError(f"{piece.name} stays in the hand; there is nothing to place")
    if placement.kind is PlacementKind.DROPPED_NEARBY:
        if start not in grid:
            raise RulesError(f"{piece.name} cannot be dropped off the map at {hex_name(start)}")
        return MapLanding(piece.name, placement, start, None, None, (start,), start, False)
    dice = piece.landing if piece.landing is not None else land(placement, rng, piece.name, whose)
    return scatter_landing(
        piece.name,
        dice,
        start,
        grid,
        rng,
        wielder_facing=wielder_facing,
        occupants=occupants,
        stray_rule=stray_rule_of(piece),
        hits=hits,
    )


# ------------------------------------------------------------- exact odds


def _directions(placement: Placement, facing: Facing | None) -> tuple[tuple[Facing, Fraction], ...]:
    rule = placement.direction
    if rule is DirectionRule.RANDOM:
        return tuple((Facing(i), Fraction(1, 6)) for i in range(6))
    if rule is DirectionRule.FORWARD_OR_BACK:
        if facing is None:
            raise RulesError("a forward-or-back placement needs the wielder's facing")
        return ((facing, Fraction(1, 2)), (facing.opposite(), Fraction(1, 2)))
    return ()


def _outcomes(
    start: Hex,
    kind: Placement | Piece,
    grid: HexGrid,
    occupants: Mapping[Hex, Fraction],
    facing: Facing | None,
    stray_rule: StrayRule | None,
) -> Iterator[tuple[Hex, Hex | None, Fraction]]:
    """Every (landing hex, hex of the occupant hit or None, probability)."""
    if isinstance(kind, Piece):
        placement = kind.placement
        rule = stray_rule if stray_rule is not None else stray_rule_of(kind)
    else:
        placement = kind
        rule = stray_rule if stray_rule is not None else StrayRule.NONE
    if placement.kind is PlacementKind.IN_HAND:
        raise RulesError("a piece in the hand has no landing")
    if start not in grid:
        raise RulesError(f"a piece cannot start off the map at {hex_name(start)}")
    if placement.kind is PlacementKind.DROPPED_NEARBY:
        yield start, None, Fraction(1)
        return
    chances = {h: Fraction(p) for h, p in occupants.items()}
    for distance, p_distance in placement.distance_distribution().items():
        if distance == 0:
            yield start, None, p_distance
            continue
        directions = _directions(placement, facing)
        if not directions:
            raise RulesError(f"{placement} moves {distance} hexes but has no direction")
        for direction, p_direction in directions:
            path, _ = trace(start, direction, distance, grid)
            p = p_distance * p_direction
            if rule is StrayRule.IN_PATH:
                for h in path[1:]:
                    c = chances.get(h, Fraction(0))
                    if c:
                        yield h, h, p * c
                        p *= 1 - c
                        if not p:
                            break
                if p:
                    yield path[-1], None, p
            elif rule is StrayRule.DX_AT_LANDING and len(path) > 1 and chances.get(path[-1]):
                c = chances[path[-1]]
                yield path[-1], path[-1], p * c
                yield path[-1], None, p * (1 - c)
            else:
                yield path[-1], None, p


def landing_distribution(
    start: Hex,
    kind: Placement | Piece,
    grid: HexGrid,
    occupants: Mapping[Hex, Fraction] | None = None,
    *,
    facing: Facing | None = None,
    stray_rule: StrayRule | None = None,
) -> Mapping[Hex, Fraction]:
    """Exact probability of each hex a piece placed from ``start`` comes to rest in.

    ``kind`` is a ``Placement`` (e.g. ``KNOCKED_AWAY``, ``ADJACENT_OR_FEET``,
    ``ONE_HEX_RANDOM``, ``flies("2d6")``) or a ``Piece``. ``occupants`` are the hexes
    with somebody in them, each with the chance its check hits
    (``StrayHitRules.hit_chance``). ``stray_rule`` defaults to the
    piece's (``stray_rule_of``), or NONE for a bare placement. ``facing`` is the
    wielder's, needed for forward-or-back placements. A deliberate drop lands on
    ``start`` with certainty (the hex the GM chose).
    """
    result: dict[Hex, Fraction] = {}
    for where, _, p in _outcomes(start, kind, grid, occupants or {}, facing, stray_rule):
        result[where] = result.get(where, Fraction(0)) + p
    return MappingProxyType(dict(sorted(result.items())))


def stray_hit_distribution(
    start: Hex,
    kind: Placement | Piece,
    grid: HexGrid,
    occupants: Mapping[Hex, Fraction],
    *,
    facing: Facing | None = None,
    stray_rule: StrayRule | None = None,
) -> Mapping[Hex, Fraction]:
    """Exact probability that the occupant of each hex is hit (hexes never hit are
    left out); the chance nobody is hit is one minus the sum."""
    result: dict[Hex, Fraction] = {}
    for _, hit, p in _outcomes(start, kind, grid, occupants, facing, stray_rule):
        if hit is not None and p:
            result[hit] = result.get(hit, Fraction(0)) + p
    return MappingProxyType(dict(sorted(result.items())))


# --------------------------------------------------------------------- events


@dataclass(frozen=True, kw_only=True)
class PieceLanded(Event):
    """A weapon, shield or piece came to rest on the map (or in somebody's hex)."""

    landing: MapLanding
    item_id: str
    origin_id: str | None = None

    def describe(self) -> str:
        return self.landing.describe()

    def involved_hexes(self) -> tuple[Hex, ...]:
        return self.landing.path

    def involved_combatants(self) -> tuple[str, ...]:
        return () if self.origin_id is None else (self.origin_id,)
