"""Seed 003's maneuvers, initiative and turn (base rules, FUDGE SRD combat
options and rounds; the values are ours, docs/ruleset-003.md).

- Initiative: every fighter not dead rolls Agility + 4dF once, when the order is
  rolled; best result first, then the better Agility, then a d6 each (highest
  first; still equal: the battle's order). The seed's -1 to initiative for an
  aimed blow does not apply: Hexfray rolls the order once, not each round.
- Maneuvers: Attack (one attack, one step; the maneuver an attack takes),
  All-out attack (+1 to hit, -2 to defend until the next turn, half Move),
  All-out defense (+2 to defend, no attack, one step), Move (full Move) and Ready
  (ready or pick up a weapon, change posture, one step).
- A fighter who cannot act (Incapacitated, Near Death: unconscious) passes his turn.
- Posture limits movement (``posture_move``; FUDGE leaves it to the GM, so the
  3d6 family's basics, ``rules.battle.movement.basic_posture_moves``): a crouch
  two thirds of the Move; kneeling or lying, one hex a turn (a prone fighter
  crawls); sitting, none.
"""

from __future__ import annotations

from rules.battle.maneuvers import Maneuver, ManeuverAction, MoveAllowance
from rules.battle.model import Combatant, Posture, Status
from rules.battle.movement import PostureMove, basic_posture_moves
from rules.battle.state import BattleState
from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.sets.seed003.events import InitiativeRolled003, TurnPassed
from rules.sets.seed003.fudge_dice import FudgeRoll, roll_fudge
from rules.sets.seed003.sheet import sheet_of
from rules.sets.seed003.tracks import BASE_WOUND_LEVELS, body_of

BASE_INITIATIVE = Citation("base-003", "initiative (Agility roll, our choice of trait)")
BASE_OPTIONS = Citation("base-003", "combat options (our values)")
BASE_POSTURE_MOVE = Citation("base-003", "movement by posture (the 3d6 basics, our choice)")
POSTURE_MOVES = basic_posture_moves(BASE_POSTURE_MOVE)

MANEUVERS: tuple[Maneuver, ...] = (
    Maneuver(
        "attack",
        "Attack",
        BASE_OPTIONS,
        "One attack; one step.",
        attacks=1,
        movement=MoveAllowance.STEP,
        implied_by_attack=True,
    ),
    Maneuver(
        "all-out-attack",
        "All-out attack",
        BASE_OPTIONS,
        "One attack at +1; -2 to defend until the next turn; half Move.",
        attacks=1,
        movement=MoveAllowance.HALF,
    ),
    Maneuver(
        "all-out-defense",
        "All-out defense",
        BASE_OPTIONS,
        "No attack; +2 to defend until the next turn; one step.",
        movement=MoveAllowance.STEP,
    ),
    Maneuver("move", "Move", BASE_OPTIONS, "Full Move; no attack.", movement=MoveAllowance.FULL),
    Maneuver(
        "ready",
        "Ready",
        BASE_OPTIONS,
        "Ready or pick up a weapon, or change posture; one step.",
        movement=MoveAllowance.STEP,
        permits=frozenset({ManeuverAction.READY, ManeuverAction.POSTURE}),
    ),
)
_BY_KEY = {m.key: m for m in MANEUVERS}


def maneuver(key: str) -> Maneuver:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise RulesError(f"seed 003 has no maneuver {key!r}") from None


def posture_move(posture: Posture) -> PostureMove:
    """How far a fighter in ``posture`` moves in a turn (see the module)."""
    return POSTURE_MOVES[posture]


def maneuvers_for(c: Combatant) -> tuple[Maneuver, ...]:
    return MANEUVERS if c.status is Status.ACTIVE else ()


def initiative(state: BattleState, dice: DiceSource) -> tuple[tuple[str, ...], tuple[Event, ...]]:
    fighters = [c for c in state.combatants if c.status is not Status.DEAD]
    rolls: dict[str, FudgeRoll] = {
        c.id: roll_fudge(sheet_of(c).agility, dice, f"{c.name}'s initiative") for c in fighters
    }

    def rank(c: Combatant) -> tuple[int, int]:
        return rolls[c.id].result, sheet_of(c).agility

    ranked = sorted(fighters, key=lambda c: rank(c), reverse=True)
    ties: dict[str, tuple[int, ...]] = {}
    order: list[Combatant] = []
    i = 0
    while i < len(ranked):
        group = [c for c in ranked[i:] if rank(c) == rank(ranked[i])]
        if len(group) > 1:
            for c in group:
                ties[c.id] = roll(1, dice, what=f"{c.name}'s initiative tie")
            group.sort(key=lambda c: ties[c.id][0], reverse=True)
        order.extend(group)
        i += len(group)
    event = InitiativeRolled003(
        citation=BASE_INITIATIVE,
        entries=tuple((c.id, c.name, rolls[c.id], ties.get(c.id, ())) for c in order),
    )
    return tuple(c.id for c in order), (event,)


def turn_begins(
    state: BattleState, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    c = state.combatant(combatant_id)
    if c.status is Status.UNCONSCIOUS:
        reason = body_of(c).body_state.label
        return state, (
            TurnPassed(citation=BASE_WOUND_LEVELS, combatant_id=c.id, name=c.name, reason=reason),
        )
    return state, ()


def turn_ends(
    state: BattleState, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    return state, ()
