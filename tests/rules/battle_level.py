"""What the battle-level tests (commands executed on a ``Battle``, its events and
state read back) share: ``Make``, the ``make`` fixture's type; ``of``, a batch's
events of one kind; and the duel of the turn, maneuver and wound tests, the
fencer against the swordsman, with its turn order started."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.hands import draw, hand_problem, hands_of, put_away
from rules.battle.model import Combatant, Side
from rules.battle.state import BattleState
from rules.battle.turns import StartTurns
from rules.core.dice import ScriptedDice
from rules.core.events import Event
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions

Make = Callable[..., Combatant]
E = TypeVar("E", bound=Event)

GRID = HexGrid(20, 20)
HOME = Hex.from_offset(8, 10)
SOUTH = HOME + Facing.S.vector  # the hex in front of a fighter at HOME facing S
# 15: a miss at any skill the fencer or the swordsman has against the other's PD
# (not a critical failure), after which nothing else is rolled.
MISS = (5, 5, 5)
RAPIER = AttackOptions("rapier", "thrust")
BROADSWORD = AttackOptions("broadsword", "swing")


def of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def in_hand(who: Combatant, key: str) -> Combatant:
    """``who`` with its weapon ``key`` drawn, what it held before put away and, for
    a two-handed weapon, the shield off its arm (``rules.battle.hands``): for a test
    of a weapon that the sheet carries at the belt."""
    if hand_problem(who, key) is None:
        return who
    shield = who.fighter.shield
    for held in hands_of(who).held:
        if shield is None or held != shield.key:
            who = put_away(who, held)
    if shield is not None and who.fighter.weapon(key).two_handed:
        who = replace(who, fighter=replace(who.fighter, shield=None))
    return draw(who, key)


def duel(
    make: Make, *others: Combatant, swordsman_hex: Hex = SOUTH, **fencer: object
) -> BattleState:
    """The fencer ("f", blue; Basic Speed 6.25: first in the order) at HOME facing
    south, the swordsman ("s", red; 6) facing north at ``swordsman_hex`` (by
    default in front of it: each within the other's reach), and ``others``;
    ``fencer`` changes the fencer's sheet (the ``make`` fixture's keywords)."""
    f = make("fencer", HOME, Facing.S, id="f", side=Side.BLUE, **fencer)
    s = make("sword-and-shield", swordsman_hex, Facing.N, id="s", side=Side.RED)
    return BattleState(GRID, (f, s, *others))


def started(state: BattleState, dice: tuple[int, ...] = ()) -> Battle:
    """A battle (seed 3) on ``state`` with its turn order rolled on ``dice``."""
    battle = Battle(state, 3, get_ruleset)
    battle.execute(StartTurns(), ScriptedDice(dice))
    return battle
