"""Seed 002 at the turn boundaries (its major wounds' lasting effects):

* at the start of its turn, a fighter whose heart stopped (major wound 7) counts
  down its rounds unconscious: with rounds left it stays out (one fewer); with
  none left it comes to, still prone;
* at the end of its turn, a slashed stomach (major wound 6) bleeds 1 HP; at 0 HP
  or less the fighter dies (OpenQuest SRD)."""

from __future__ import annotations

from dataclasses import replace

from rules.battle.model import Combatant, Status
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.dice import DiceSource
from rules.core.events import Event
from rules.sets.seed002.attack import BASE_DEATH
from rules.sets.seed002.events import StatusChanged, TurnEffect
from rules.sets.seed002.tables import KEY
from rules.sets.seed002.tracks import tracks_of

HEART = cite(KEY, "Major wound 7")
STOMACH = cite(KEY, "Major wound 6")


def new_turn(c: Combatant) -> Combatant:
    return c


def turn_begins(
    state: BattleState, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    c = state.combatant(combatant_id)
    tracks = tracks_of(c)
    if c.status is not Status.UNCONSCIOUS or "heart" not in tracks.wounds:
        return state, ()
    if tracks.unconscious_rounds > 0:
        left = tracks.unconscious_rounds - 1
        after = c.evolve(tracks=replace(tracks, unconscious_rounds=left))
        text = f"unconscious, {left} more round{'s' if left != 1 else ''} to go"
        event = TurnEffect(citation=HEART, combatant_id=c.id, name=c.name, text=text)
        return state.with_combatants(after), (event,)
    after = c.evolve(status=Status.ACTIVE)
    woke = StatusChanged(
        citation=HEART, combatant_id=c.id, name=c.name, text="comes to (still prone)"
    )
    return state.with_combatants(after), (woke,)


def turn_ends(
    state: BattleState, combatant_id: str, dice: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    c = state.combatant(combatant_id)
    bleeding = tracks_of(c).bleeding
    if not bleeding or c.status is Status.DEAD:
        return state, ()
    hp = c.hp - bleeding
    events: list[Event] = [
        TurnEffect(
            citation=STOMACH,
            combatant_id=c.id,
            name=c.name,
            text=f"bleeds {bleeding} HP: HP {c.hp} → {hp}",
        )
    ]
    after = c.evolve(hp=hp)
    if hp <= 0:
        after = after.evolve(status=Status.DEAD)
        events.append(
            StatusChanged(
                citation=BASE_DEATH, combatant_id=c.id, name=c.name, text="dies of blood loss"
            )
        )
    return state.with_combatants(after), tuple(events)
