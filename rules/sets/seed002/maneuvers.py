"""Seed 002's turn order and combat actions (OpenQuest SRD, cited "base-002"; the
seed has neither), in our reading:

* Initiative: the highest DEX acts first (DEX as the sheet has it now, after any
  lost to major wounds); fighters of equal DEX each roll 1d10, highest first,
  again among those still tied.
* One combat action a turn (``MANEUVERS``): Attack (one attack, close or ranged,
  and a step), Move (the whole Move, no attack), Ready (draw or pick up a
  weapon, and a step), Change posture (stand up, lie down), Wait (hold the action
  and attack once later in the round, on another's turn) and Do nothing.
  Defensive reactions (dodge, parry) are not limited.
* An unconscious or dead fighter takes no action; one paralysed below the neck
  can only do nothing; one with a useless leg or paralysed below the torso
  cannot change posture (it cannot get up).
* Posture limits movement (``posture_move``): off its feet (kneeling, on hands
  and knees, crawling, lying prone) a fighter crawls 2 hexes a round at most, the
  seed's crawl of 2 m a round (002 major wounds 3 and 4; a hex is about a metre);
  sitting, it does not move; a crouch moves two thirds of the Move (the SRD has
  no crouch: the 3d6 family's basics, ``rules.battle.movement``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.maneuvers import Maneuver, ManeuverAction, MoveAllowance
from rules.battle.model import Combatant, Posture, Status
from rules.battle.movement import PostureMove, basic_posture_moves
from rules.battle.state import BattleState
from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.core.errors import RulesError
from rules.core.events import CombatantEvent, Event
from rules.sets.seed002.sheet import sheet_of
from rules.sets.seed002.tables import BASE
from rules.sets.seed002.tracks import tracks_of

BASE_INITIATIVE = Citation(BASE, "Combat rounds: order of action by DEX")
BASE_ACTIONS = Citation(BASE, "Combat actions")
SEED_CRAWL = Citation("002", "major wounds: useless leg, crawl at 2 m a round")
CRAWL_HEXES = 2
TIE_DIE = 10

DO_NOTHING = Maneuver("do-nothing", "Do nothing", BASE_ACTIONS, "Take no action this round.")

MANEUVERS: tuple[Maneuver, ...] = (
    Maneuver(
        "attack",
        "Attack",
        BASE_ACTIONS,
        "One close combat or ranged attack, and a step before or after it.",
        attacks=1,
        movement=MoveAllowance.STEP,
        implied_by_attack=True,
    ),
    Maneuver(
        "move",
        "Move",
        BASE_ACTIONS,
        "Move up to the whole Move; no attack.",
        movement=MoveAllowance.FULL,
    ),
    Maneuver(
        "ready",
        "Ready",
        BASE_ACTIONS,
        "Draw, ready or pick up a weapon, and a step; no attack.",
        movement=MoveAllowance.STEP,
        permits=frozenset({ManeuverAction.READY}),
    ),
    Maneuver(
        "change-posture",
        "Change posture",
        BASE_ACTIONS,
        "Stand up, kneel or lie down; no movement and no attack.",
        permits=frozenset({ManeuverAction.POSTURE}),
    ),
    Maneuver(
        "wait",
        "Wait",
        BASE_ACTIONS,
        "Hold the action: one attack later in the round, on another fighter's turn.",
        attacks=1,
        out_of_turn=True,
    ),
    DO_NOTHING,
)

_BY_KEY = {m.key: m for m in MANEUVERS}


def maneuver(key: str) -> Maneuver:
    try:
        return _BY_KEY[key]
    except KeyError:
        raise RulesError(f"no maneuver {key!r} in seed 002 (it has {', '.join(_BY_KEY)})") from None


def _crawl(who: str) -> PostureMove:
    return PostureMove(
        CRAWL_HEXES,
        verb="crawls",
        rule=f"{who} crawls {CRAWL_HEXES} hexes a round",
        citation=SEED_CRAWL,
    )


POSTURE_MOVES = {
    **basic_posture_moves(BASE_ACTIONS),
    Posture.KNEELING: _crawl("a kneeling fighter"),
    Posture.HANDS_AND_KNEES: _crawl("a fighter on hands and knees"),
    Posture.CRAWLING: _crawl("a fighter on its belly"),
    Posture.PRONE: _crawl("a prone fighter"),
}


def posture_move(posture: Posture) -> PostureMove:
    """How far a fighter in ``posture`` moves in a round (see the module)."""
    return POSTURE_MOVES[posture]


def maneuvers_for(c: Combatant) -> tuple[Maneuver, ...]:
    if c.status is not Status.ACTIVE:
        return ()
    tracks = tracks_of(c)
    if tracks.paralysis == "neck":
        return (DO_NOTHING,)
    if tracks.paralysis or tracks.useless_legs:
        return tuple(m for m in MANEUVERS if ManeuverAction.POSTURE not in m.permits)
    return MANEUVERS


@dataclass(frozen=True, kw_only=True)
class TieRolled(CombatantEvent):
    dex: int
    face: int

    def describe(self) -> str:
        return f"{self.name} (DEX {self.dex}) rolls {self.face} on 1d10 to settle a tie"


def dex_of(c: Combatant) -> int:
    return sheet_of(c).characteristics.dexterity


def initiative(state: BattleState, dice: DiceSource) -> tuple[tuple[str, ...], tuple[Event, ...]]:
    """Every fighter who is not dead, by DEX, ties by 1d10 (highest first, again)."""
    alive = [c for c in state.combatants if c.status is not Status.DEAD]
    events: list[Event] = []
    order: list[str] = []
    by_dex: dict[int, list[Combatant]] = {}
    for c in alive:
        by_dex.setdefault(dex_of(c), []).append(c)
    for dex in sorted(by_dex, reverse=True):
        order.extend(_settle(by_dex[dex], dice, events))
    return tuple(order), tuple(events)


def _settle(tied: list[Combatant], dice: DiceSource, events: list[Event]) -> list[str]:
    if len(tied) == 1:
        return [tied[0].id]
    rolls: dict[int, list[Combatant]] = {}
    for c in tied:
        (face,) = roll(1, dice, TIE_DIE, what=f"{c.name}'s initiative tie")
        events.append(
            TieRolled(
                citation=BASE_INITIATIVE, combatant_id=c.id, name=c.name, dex=dex_of(c), face=face
            )
        )
        rolls.setdefault(face, []).append(c)
    out: list[str] = []
    for face in sorted(rolls, reverse=True):
        out.extend(_settle(rolls[face], dice, events))
    return out
