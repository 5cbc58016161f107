"""Seed 004's turn (base rules, combat: actions and turns): each turn a fighter
has one action, one reaction and one free action. The action is the maneuver:
an attack (with one step, a metre, to close in: decided, docs/ruleset-004.md),
a move (its Speed in metres, one hex each, a stance change included), or
readying (drawing a weapon, picking one up); the reaction is the dodge or block
against an attack before its next turn. Initiative is 2d6 plus the Dexterity
modifier, rolled once for the battle (the base rules' alternate fixed order),
highest first; equal totals go to the higher Dexterity, then a die each, again
among those still tied. Posture limits movement (``posture_move``; the base
rules give no table, so the 3d6 family's basics, ``rules.battle.movement.
basic_posture_moves``: a crouch two thirds of the Speed; kneeling or lying, one
metre a turn, a prone fighter crawling; sitting, none)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.battle.maneuvers import Maneuver, ManeuverAction, MoveAllowance
from rules.battle.model import Combatant, Posture, Status
from rules.battle.movement import PostureMove, basic_posture_moves
from rules.battle.state import BattleState
from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.sets.seed004.events import InitiativeRolled
from rules.sets.seed004.sheet import sheet_of

ACTIONS = Citation("base-004", "combat: actions (one action, one reaction, one free action)")
INITIATIVE = Citation("base-004", "combat: turns and initiative (2d6 + Dexterity)")
POSTURE_MOVEMENT = Citation("base-004", "movement by stance (the 3d6 basics, our choice)")
POSTURE_MOVES = basic_posture_moves(POSTURE_MOVEMENT)

ATTACK = Maneuver(
    key="attack",
    label="Attack",
    citation=ACTIONS,
    description="One melee attack, with one step (a metre) to close in; turning in place "
    "is free. The reaction (dodge or block) stays.",
    attacks=1,
    movement=MoveAllowance.STEP,
    implied_by_attack=True,
)
MOVE = Maneuver(
    key="move",
    label="Move",
    citation=ACTIONS,
    description="Move up to the fighter's Speed in metres (one hex each), or change stance.",
    movement=MoveAllowance.FULL,
    permits=frozenset({ManeuverAction.POSTURE}),
)
READY = Maneuver(
    key="ready",
    label="Ready",
    citation=ACTIONS,
    description="Draw or ready a weapon, or pick one up within reach.",
    permits=frozenset({ManeuverAction.READY}),
)
MANEUVERS: tuple[Maneuver, ...] = (ATTACK, MOVE, READY)
_BY_KEY = {m.key: m for m in MANEUVERS}


def maneuver(key: str) -> Maneuver:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise RulesError(f"seed 004 has no maneuver {key!r}") from None


def posture_move(posture: Posture) -> PostureMove:
    """How far a fighter in ``posture`` moves in a turn (see the module)."""
    return POSTURE_MOVES[posture]


def maneuvers_for(combatant: Combatant) -> tuple[Maneuver, ...]:
    """Every maneuver for a fighter who can act; none for the fallen."""
    return MANEUVERS if combatant.status is Status.ACTIVE else ()


def initiative(state: BattleState, dice: DiceSource) -> tuple[tuple[str, ...], tuple[Event, ...]]:
    fighters = [c for c in state.combatants if c.status is not Status.DEAD]
    rolled: dict[str, tuple[int, ...]] = {}
    totals: dict[str, int] = {}
    for c in fighters:
        dex = sheet_of(c).abilities.modifier("dexterity")
        faces = roll(2, dice, what=f"{c.name}'s initiative", adds=dex)
        rolled[c.id] = faces
        totals[c.id] = sum(faces) + dex
    ranked = sorted(fighters, key=lambda c: (-totals[c.id], -sheet_of(c).abilities.dexterity))
    ties: dict[str, tuple[int, ...]] = {c.id: () for c in fighters}
    order: list[Combatant] = []
    i = 0
    while i < len(ranked):
        key = (totals[ranked[i].id], sheet_of(ranked[i]).abilities.dexterity)
        group = [c for c in ranked[i:] if (totals[c.id], sheet_of(c).abilities.dexterity) == key]
        order.extend(_settle(group, dice, ties))
        i += len(group)
    event = InitiativeRolled(
        citation=INITIATIVE,
        entries=tuple((c.id, c.name, rolled[c.id], totals[c.id], ties[c.id]) for c in order),
    )
    return tuple(c.id for c in order), (event,)


def _settle(
    group: Sequence[Combatant], dice: DiceSource, ties: dict[str, tuple[int, ...]]
) -> list[Combatant]:
    """Fighters still tied: a die each, highest first, again among equal dice."""
    if len(group) <= 1:
        return list(group)
    faces: dict[str, int] = {}
    for c in group:
        (face,) = roll(1, dice, what=f"{c.name}'s initiative tie")
        faces[c.id] = face
        ties[c.id] = (*ties[c.id], face)
    out: list[Combatant] = []
    for face in sorted(set(faces.values()), reverse=True):
        out.extend(_settle([c for c in group if faces[c.id] == face], dice, ties))
    return out
