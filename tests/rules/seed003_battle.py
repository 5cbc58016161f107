"""What seed 003's battle-level tests share: fighters from the bundled 003
templates, a duel on an open map through ``Battle``, and dice spelled as Fudge
faces ("+" 3, "0" 2, "-" 1)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.model import Combatant, Fighter, Side
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset
from rules.sets.seed003.ruleset import Seed003, seed003_ruleset
from rules.sets.seed003.sheet import Sheet003, sheet_of, with_sheet

TEMPLATES = Path(__file__).resolve().parents[2] / "assets" / "templates"
GRID = HexGrid(20, 40)
HOME = Hex.from_offset(8, 10)
SOUTH = HOME + Facing.S.vector


def south(n: int) -> Hex:
    """The hex ``n`` hexes straight south of HOME."""
    return Hex.from_offset(8, 10 + n)


def ruleset() -> Seed003:
    return seed003_ruleset()


def template(name: str) -> Fighter:
    doc = json.loads((TEMPLATES / f"003-{name}.json").read_text())
    return ruleset().sheets.decode(doc["sheet"])


def restat(fighter: Fighter, **changes: object) -> Fighter:
    sheet = replace(sheet_of(fighter), **changes)  # type: ignore[arg-type]
    assert isinstance(sheet, Sheet003)
    return with_sheet(fighter, sheet)


def combatant(fighter: Fighter, where: Hex, facing: Facing, cid: str, side: Side) -> Combatant:
    return Combatant(cid, fighter, side, where, facing, fighter.hit_points)


def duel(
    attacker: Fighter | None = None,
    defender: Fighter | None = None,
    *,
    defender_hex: Hex = SOUTH,
    defender_facing: Facing = Facing.N,
) -> BattleState:
    """The swordsman "a" (blue) at HOME facing south, the defender "d" (red,
    by default a second swordsman) facing north in front of him."""
    a = combatant(attacker or template("swordsman"), HOME, Facing.S, "a", Side.BLUE)
    d = combatant(defender or template("swordsman"), defender_hex, defender_facing, "d", Side.RED)
    return BattleState(GRID, (a, d), ruleset_key="003")


def battle(state: BattleState) -> Battle:
    return Battle(state, 3, get_ruleset)


def fudge(signs: str) -> tuple[int, ...]:
    """Faces of Fudge dice from signs: "++0-" -> (3, 3, 2, 1)."""
    return tuple({"+": 3, "0": 2, "-": 1}[s] for s in signs)
