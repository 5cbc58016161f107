"""The GM's roster commands: adding and removing a combatant, undone, saved and
replayed like any command, and the turn order that takes a newcomer in."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hexmap import Facing, Hex
from rules.battle.battle import Battle, BattleChange
from rules.battle.catalog import load_fighters
from rules.battle.commands import EndTurn
from rules.battle.model import Combatant, Side
from rules.battle.roster import (
    AddCombatant,
    CombatantAdded,
    CombatantRemoved,
    RemoveCombatant,
    next_combatant_id,
)
from rules.battle.savefile import battle_types, read_battle, write_battle
from rules.battle.sides import SideSetup, side_name
from rules.battle.state import BattleState
from rules.battle.turns import StartTurns
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset
from tests.rules.test_history import demo_battle

RULESET_TYPES = get_ruleset("000").sheets.saved_types


def newcomer(state: BattleState, template: str, col: int, row: int, side: Side) -> Combatant:
    fighter = load_fighters()[template]
    return Combatant(
        id=next_combatant_id(state),
        fighter=fighter,
        side=side,
        hex=Hex.from_offset(col, row),
        facing=Facing.S,
        hp=fighter.hit_points,
    )


def test_an_added_fighter_stands_on_the_map_and_an_undo_takes_it_away() -> None:
    battle = demo_battle(3)
    before = battle.state
    fencer = newcomer(before, "fencer", 2, 2, Side.BLUE)
    assert fencer.id == "c5"
    events = battle.execute(AddCombatant(fencer))
    assert battle.state.combatant("c5") == fencer
    assert [type(e) for e in events] == [CombatantAdded]
    assert events[0].describe() == "Fencer joins the battle at column 2, row 2"
    battle.undo()
    assert battle.state == before
    battle.redo()
    assert battle.state.combatant("c5") == fencer


def test_a_fighter_is_not_added_on_another_off_the_map_or_twice() -> None:
    battle = demo_battle(3)
    state = battle.state
    taken = newcomer(state, "fencer", *state.combatant("c1").hex.to_offset(), Side.BLUE)
    with pytest.raises(IllegalCommandError, match="Sword-and-shield fighter stands at column 11"):
        battle.execute(AddCombatant(taken))
    with pytest.raises(IllegalCommandError, match="off the map"):
        battle.execute(AddCombatant(newcomer(state, "fencer", 40, 2, Side.BLUE)))
    again = replace(newcomer(state, "fencer", 2, 2, Side.BLUE), id="c1")
    with pytest.raises(IllegalCommandError, match="'c1' is on the map"):
        battle.execute(AddCombatant(again))
    assert battle.state == state and battle.commands == ()


def test_a_removed_fighter_leaves_and_an_undo_brings_it_back() -> None:
    battle = demo_battle(3)
    before = battle.state
    events = battle.execute(RemoveCombatant("c2"))
    assert [c.id for c in battle.state.combatants] == ["c1", "c3", "c4"]
    assert isinstance(events[0], CombatantRemoved)
    assert events[0].describe() == "Spearman leaves the battle (from column 13, row 6)"
    battle.undo()
    assert battle.state == before


def test_the_roster_commands_are_saved_and_a_saved_battle_loads_them_again() -> None:
    assert {AddCombatant, RemoveCombatant} <= set(battle_types())
    battle = demo_battle(5)
    battle.execute(AddCombatant(newcomer(battle.state, "spearman", 3, 3, Side.GREEN)))
    battle.execute(RemoveCombatant("c1"))
    battle.execute(AddCombatant(newcomer(battle.state, "fencer", 4, 3, Side.GREEN)))
    battle.undo()
    text = write_battle(battle, RULESET_TYPES)
    entries = json.loads(text)["log"]
    assert [e["command"]["@type"] for e in entries] == ["AddCombatant", "RemoveCombatant"]
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert loaded.commands == battle.commands
    assert loaded.undone == battle.undone


def started(battle: Battle) -> tuple[str, ...]:
    battle.execute(StartTurns())
    return battle.state.initiative


def test_a_fighter_added_while_the_turns_run_gets_its_turn_in_the_order() -> None:
    battle = demo_battle(8)
    order = started(battle)
    assert len(order) == 4
    added = newcomer(battle.state, "fencer", 2, 2, Side.GOLD)
    (event,) = battle.execute(AddCombatant(added))
    new_order = battle.state.initiative
    assert sorted(new_order) == sorted((*order, added.id))
    # the others keep their order
    assert tuple(i for i in new_order if i != added.id) == order
    assert isinstance(event, CombatantAdded) and event.joined_order
    # The Fencer template ranks with the demo's Fencer (same Basic Speed and DX):
    # it comes right before or after it, never elsewhere.
    place = new_order.index(added.id)
    neighbours = {new_order[place - 1] if place else None, *new_order[place + 1 : place + 2]}
    assert "c4" in neighbours
    # Ending turns one by one reaches the newcomer within two rounds.
    actives = []
    for _ in range(10):
        battle.execute(EndTurn())
        actives.append(battle.state.active_id)
    assert added.id in actives


def test_removing_the_fighter_whose_turn_it_is_passes_the_turn_on() -> None:
    battle = demo_battle(8)
    order = started(battle)
    first, second = order[0], order[1]
    assert battle.state.active_id == first
    battle.execute(RemoveCombatant(first))
    assert battle.state.initiative == order[1:]
    assert battle.state.active_id == second
    battle.execute(RemoveCombatant(order[2]))  # not its turn: the order just shrinks
    assert battle.state.initiative == (second, order[3])
    battle.execute(EndTurn())
    assert battle.state.active_id == order[3]
    battle.execute(RemoveCombatant(order[3]))  # the last of the round: a new round
    assert (battle.state.active_id, battle.state.round) == (second, 2)
    battle.execute(RemoveCombatant(second))
    assert not battle.state.initiative and battle.state.active_id is None


def test_sides_named_by_the_gm_are_checked_and_named() -> None:
    sides = (
        SideSetup(Side.RED, "The Duke's guard", "#aa2211"),
        SideSetup(Side.BLUE, "Raiders", "#2244aa"),
    )
    assert side_name(sides, Side.BLUE) == "Raiders"
    assert side_name(sides, Side.GOLD) == "Gold"
    with pytest.raises(IllegalCommandError, match="colour"):
        SideSetup(Side.RED, "Red", "red")
    with pytest.raises(IllegalCommandError, match="name"):
        SideSetup(Side.RED, "  ", "#112233")
    with pytest.raises(IllegalCommandError, match="named twice"):
        BattleState(demo_battle(1).state.grid, (), sides=(sides[0], sides[0]))


def test_the_change_of_a_removal_or_an_undone_arrival_names_who_left() -> None:
    battle = demo_battle(3)
    changes: list[BattleChange] = []
    battle.subscribe(changes.append)
    battle.execute(RemoveCombatant("c2"))
    fencer = newcomer(battle.state, "fencer", 2, 2, Side.BLUE)
    battle.execute(AddCombatant(fencer))
    battle.undo()
    assert [change.changed_ids for change in changes] == [
        frozenset({"c2"}),
        frozenset({fencer.id}),
        frozenset({fencer.id}),
    ]
