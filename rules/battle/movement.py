"""Movement, facing changes and posture on the hex map.

Seed 000 takes movement for granted, so this follows the published basics of the
3d6 family, read as follows (docs/battlefield.md); every ruleset moves so on the
map, and each cites it as its own (``BattleRuleset.core_citations``):

* A combatant has ``Fighter.move`` movement points (MP) a turn. Stepping into one
  of the three hexes in front (the front arc: ahead and the two front diagonals)
  costs 1 MP; stepping sideways or backwards (the side and rear hexes) costs 2.
  Stepping does not change facing.
* Each step may include a one-hex-side change of facing for free. Hexfray keeps
  that free change for the next facing change after the move
  (``Combatant.free_facing_change``); every other hex side turned costs 1 MP,
  also when turning in place. A turn goes the short way round (3 sides at most).
* The GM can always move a token further: the battle records what was spent
  (``Combatant.move_used``, ``movement_left`` may go negative) rather than refuse.
* The hexes entered this turn are kept (``Combatant.path_this_turn``) so the map
  can draw the way taken and a deliberate drop can land on it (000 DROPPED
  WEAPONS). End of turn clears the path, the MP used and the free facing change.
* Postures are ``rules.battle.model.Posture`` (re-exported by ``rules.sets.seed000.conditions``); a
  fall (``apply_fall``) or the GM (``rules.battle.commands.SetPosture``) changes them. The
  ruleset's posture table gives the hit modifiers (seed 000: ``rules.sets.seed000.situation``).
* A posture limits movement too: the ruleset answers how far a fighter in each
  posture moves in a turn (``TurnRules.posture_move``, a ``PostureMove``), and
  the turn rules check it with the maneuver's allowance (``rules.battle.turns.
  move_limit``). ``basic_posture_moves`` is the 3d6 family's table, which no seed
  gives (our reading of its 3rd edition's positions): standing, the whole Move; a
  crouch, two thirds of it; kneeling, on hands and knees, crawling or lying, one
  hex a turn (a prone fighter crawls); sitting, no movement (it stands up first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import pairwise
from types import MappingProxyType

from hexmap import Facing, Handedness, Hex, HexGrid, arc_of, hex_line
from rules.battle.command_events import PostureChanged
from rules.battle.model import Combatant, Posture
from rules.battle.values import hex_name
from rules.core.citation import Citation
from rules.core.errors import IllegalCommandError

FORWARD_STEP_COST = 1
SIDE_OR_BACK_STEP_COST = 2
TURN_COST_PER_SIDE = 1


def step_cost(facing: Facing, origin: Hex, destination: Hex) -> int:
    """MP for one step between adjacent hexes: 1 into the front arc, else 2."""
    if origin.distance(destination) != 1:
        raise IllegalCommandError(
            f"{hex_name(origin)} and {hex_name(destination)} are not adjacent"
        )
    arc = arc_of(destination, origin, facing, Handedness.RIGHT)
    return FORWARD_STEP_COST if arc.is_front else SIDE_OR_BACK_STEP_COST


def hex_sides_between(before: Facing, after: Facing) -> int:
    """Hex sides turned the short way round: 0 to 3."""
    diff = (int(after) - int(before)) % 6
    return min(diff, 6 - diff)


def turn_cost(before: Facing, after: Facing, *, free_side: bool = False) -> int:
    """MP to turn from ``before`` to ``after``; ``free_side`` waives one hex side
    (the free change that comes with a step)."""
    sides = hex_sides_between(before, after)
    if free_side and sides:
        sides -= 1
    return sides * TURN_COST_PER_SIDE


def check_path(path: Sequence[Hex], grid: HexGrid) -> tuple[Hex, ...]:
    """A path of adjacent hexes, all on the map; raises ``IllegalCommandError``."""
    if not path:
        raise IllegalCommandError("a path needs at least its starting hex")
    for h in path:
        if h not in grid:
            raise IllegalCommandError(f"the path leaves the map at {hex_name(h)}")
    for a, b in pairwise(path):
        if a.distance(b) != 1:
            raise IllegalCommandError(f"the path jumps from {hex_name(a)} to {hex_name(b)}")
    return tuple(path)


def default_path(origin: Hex, destination: Hex) -> tuple[Hex, ...]:
    """The straight line of hexes (``hexmap.hex_line``) when no path is given."""
    return hex_line(origin, destination)


def path_cost(facing: Facing, path: Sequence[Hex]) -> int:
    """MP of walking ``path`` (starting hex first) without turning."""
    return sum(step_cost(facing, a, b) for a, b in pairwise(path))


@dataclass(frozen=True, slots=True)
class MoveResult:
    combatant: Combatant
    path: tuple[Hex, ...]
    cost: int


def walk(combatant: Combatant, path: Sequence[Hex]) -> MoveResult:
    """The combatant after walking ``path`` (``path[0]`` is its hex): new hex,
    MP used, the path of the turn extended, and a free facing change if it
    stepped at all."""
    full = tuple(path)
    if not full or full[0] != combatant.hex:
        raise IllegalCommandError(f"{combatant.name}'s path must start at its own hex")
    cost = path_cost(combatant.facing, full)
    so_far = combatant.path_this_turn
    if not so_far:
        trail = full
    elif so_far[-1] == full[0]:
        trail = so_far + full[1:]
    else:
        trail = so_far + full
    stepped = len(full) > 1
    moved = replace(
        combatant,
        hex=full[-1],
        path_this_turn=trail if stepped or so_far else (),
        move_used=combatant.move_used + cost,
        free_facing_change=True if stepped else combatant.free_facing_change,
    )
    return MoveResult(moved, full, cost)


def face(combatant: Combatant, facing: Facing) -> tuple[Combatant, int, bool]:
    """The combatant turned to ``facing``: (combatant, MP cost, free side used)."""
    sides = hex_sides_between(combatant.facing, facing)
    free = combatant.free_facing_change and sides > 0
    cost = turn_cost(combatant.facing, facing, free_side=free)
    turned = replace(
        combatant,
        facing=facing,
        move_used=combatant.move_used + cost,
        free_facing_change=combatant.free_facing_change and not free,
    )
    return turned, cost, free


def new_turn(combatant: Combatant) -> Combatant:
    """Movement bookkeeping at the end of a turn: path, MP and free turn cleared."""
    if not (combatant.path_this_turn or combatant.move_used or combatant.free_facing_change):
        return combatant
    return replace(combatant, path_this_turn=(), move_used=0, free_facing_change=False)


# ---------------------------------------------------------------- posture


@dataclass(frozen=True, slots=True)
class PostureMove:
    """How far a fighter in one posture moves in a turn, as its ruleset answers
    (``TurnRules.posture_move``): at most ``hexes`` hexes (None: as far as its
    movement points go), with ``move_fraction`` of its Move as movement points.
    ``verb`` is how the log says it moves ("crawls"); ``rule`` the limit in words
    for a refusal ("a prone fighter crawls one hex a turn")."""

    hexes: int | None = None
    move_fraction: Fraction = Fraction(1)
    verb: str = "moves"
    rule: str = ""
    citation: Citation | None = None

    def move_points(self, move: int) -> int:
        """The movement points a turn for a fighter whose Move is ``move``: scaled
        by ``move_fraction``, rounded down, but at least one while it has any."""
        if self.move_fraction == 1 or move <= 0:
            return move
        return max(1, int(move * self.move_fraction))


STANDING_MOVE = PostureMove()


def basic_posture_moves(citation: Citation) -> Mapping[Posture, PostureMove]:
    """The 3d6 family's posture movement (our reading of its 3rd edition's table
    of positions; no seed gives one), each citing ``citation``: a crouch two
    thirds of the Move, kneeling, on hands and knees, crawling or lying one hex a
    turn, sitting none."""
    crouch = PostureMove(
        move_fraction=Fraction(2, 3),
        rule="a crouching fighter moves two thirds of its Move",
        citation=citation,
    )

    def one_hex(verb: str, who: str) -> PostureMove:
        return PostureMove(1, verb=verb, rule=f"{who} {verb} one hex a turn", citation=citation)

    seated = PostureMove(
        0, rule="a sitting fighter cannot move: it stands up first", citation=citation
    )
    return MappingProxyType(
        {
            Posture.STANDING: replace(STANDING_MOVE, citation=citation),
            Posture.DEFENSIVE_CROUCH: crouch,
            Posture.DEEP_CROUCH: crouch,
            Posture.KNEELING: one_hex("shuffles", "a kneeling fighter"),
            Posture.HANDS_AND_KNEES: one_hex("crawls", "a fighter on hands and knees"),
            Posture.CRAWLING: one_hex("crawls", "a fighter on its belly"),
            Posture.PRONE: one_hex("crawls", "a prone fighter"),
            Posture.SITTING: seated,
            Posture.SITTING_IN_CHAIR: seated,
        }
    )


def set_posture(
    combatant: Combatant, posture: Posture, *, citation: Citation, fell: bool = False
) -> tuple[Combatant, PostureChanged | None]:
    """The combatant in ``posture`` and the event (None when nothing changed)."""
    if combatant.posture is posture:
        return combatant, None
    event = PostureChanged(
        citation=citation,
        combatant_id=combatant.id,
        name=combatant.name,
        before=combatant.posture,
        after=posture,
        fell=fell,
    )
    return replace(combatant, posture=posture), event


def apply_fall(
    combatant: Combatant, posture: Posture = Posture.PRONE, *, citation: Citation
) -> tuple[Combatant, PostureChanged | None]:
    """A fall (e.g. 000 DODGE on a fumbled dodge: "prone or supine, whichever is
    worse", or sitting): the combatant ends up in ``posture``. Returns the
    combatant and the event to log (None if already in that posture)."""
    return set_posture(combatant, posture, fell=True, citation=citation)
