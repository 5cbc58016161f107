"""The shared part of a ruleset's stray hits (rules.battle.scatter): the
``StrayHitRules`` base turns the ruleset's ``roll_hit`` into the ``StrayCheck``
the scatter records, and ``NoStrayHits`` lets a piece pass everybody by."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hexmap import Facing, Hex, HexGrid, ray
from rules.battle import scatter
from rules.battle.model import Combatant, Side
from rules.battle.pieces import Piece, flies
from rules.battle.scatter import Occupant, StrayAttempt, StrayRule
from rules.core.dice import DiceSource, ScriptedDice
from rules.core.events import Event
from tests.rules.sheets import seed000_fighter

GRID = HexGrid(20, 20)
START = Hex.from_offset(10, 10)
BOB_HEX = START + Facing.N.vector.scale(2)
FLIES_2D6 = flies("2d6")


@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    piece_name: str
    name: str


@dataclass(frozen=True, kw_only=True)
class Struck(Event):
    attempt: StrayAttempt


class AlwaysHits(scatter.StrayHitRules):
    def roll_hit(self, attempt: StrayAttempt, dice: DiceSource) -> tuple[bool, Event]:
        return True, Struck(attempt=attempt)

    def hit_chance(self, occupant: Occupant, rule: StrayRule) -> Fraction:
        return Fraction(1)


def _bob() -> dict[Hex, Occupant]:
    return {BOB_HEX: Occupant(Combatant("bob", seed000_fighter(), Side.RED, BOB_HEX, Facing.S, 10))}


def _club() -> Piece:
    return Piece("Club", None, FLIES_2D6, stray_hit_factor=Fraction(1))


def _passed(piece_name: str, occupant: Occupant) -> Event:
    return Passed(piece_name=piece_name, name=occupant.name)


def test_a_piece_passes_by_under_no_stray_hits() -> None:
    dice = ScriptedDice((2, 2, 1))  # 2d6 = 4 hexes, direction 1 = N
    landing = scatter.scatter_piece(
        _club(),
        START,
        GRID,
        dice,
        occupants=_bob(),
        hits=scatter.NoStrayHits(_passed),
    )
    assert landing.final == START + Facing.N.vector.scale(4) and landing.hit_id is None
    (check,) = landing.checks
    assert (check.combatant_id, check.hex, check.rule, check.hit) == (
        "bob",
        BOB_HEX,
        StrayRule.IN_PATH,
        False,
    )
    assert check.event == Passed(piece_name="Club", name=check.name)
    assert scatter.NoStrayHits(_passed).hit_chance(_bob()[BOB_HEX], StrayRule.IN_PATH) == 0


def test_the_base_records_the_ruleset_s_roll_and_a_hit_stops_the_piece() -> None:
    dice = ScriptedDice((2, 2, 1))
    landing = scatter.scatter_piece(_club(), START, GRID, dice, occupants=_bob(), hits=AlwaysHits())
    assert landing.final == BOB_HEX and landing.path == ray(START, Facing.N, 2)
    (check,) = landing.checks
    assert check.hit and landing.hit_id == "bob"
    assert isinstance(check.event, Struck)
    assert check.event.attempt == StrayAttempt(
        "Club", FLIES_2D6, _bob()[BOB_HEX], BOB_HEX, StrayRule.IN_PATH
    )
