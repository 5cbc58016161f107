"""How many of each thing a battle holds (rules.battle.limits): a file one over a
limit is refused before anything is built from it, with a message naming the
count and the limit; a file at the limit opens; and a battle in play never grows
past what a file may hold, so every battle saved opens again (issue 23, "Inputs
that hang or crash", 5: a 30 MB file of one fighter with 100,000 weapons took
3.8 GB and 222 s to open)."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, PickUpItem, TurnCombatant
from rules.battle.edits import EditFighter, fighter_problems
from rules.battle.items import GroundItem, ItemKind
from rules.battle.limits import (
    MAX_COMMANDS,
    MAX_ENTRIES,
    MAX_FACES,
    MAX_FIGHTERS,
    MAX_HEXES,
    MAX_ITEMS,
    MAX_MODES,
    MAX_TURN_ACTIONS,
    MAX_WEAPONS,
    check_counts,
)
from rules.battle.model import ActionKind, TurnAction
from rules.battle.roster import AddCombatant
from rules.battle.savefile import (
    BattleFileError,
    decode_entry,
    read_battle,
    saved_types_for,
    write_battle,
)
from rules.battle.state import BattleState
from rules.battle.values import ValueCodec
from rules.core.errors import IllegalCommandError
from rules.sets.protocol import plain_attack
from rules.sets.registry import get_ruleset, ruleset_of
from tests.rules.test_history import demo_battle

RULESET_TYPES = get_ruleset("000").sheets.saved_types
Document = dict[str, Any]


def document_of(battle: Battle) -> Document:
    data: Document = json.loads(write_battle(battle, RULESET_TYPES))
    return data


def base_document() -> Document:
    """The demo battle on a map of 30 x 20 hexes (room for 600 fighters), with a
    broadsword lying at column 2, row 2."""
    battle = demo_battle(1)
    sword = battle.initial.combatants[0].fighter.weapons[0]
    item = GroundItem("i1", sword.name, ItemKind.WEAPON, sword, None, Hex.from_offset(2, 2), "")
    initial = replace(battle.initial, grid=HexGrid(30, 20), items=(item,), next_item=2)
    return document_of(Battle(initial, 1, get_ruleset))


def opened(data: Document) -> Battle:
    return read_battle(json.dumps(data), rulesets=get_ruleset)


def refusal(data: Document) -> str:
    with pytest.raises(BattleFileError) as refused:
        opened(data)
    return str(refused.value)


# --- files, one over each limit and at it ----------------------------------------------


def with_fighters(count: int) -> Document:
    data = base_document()
    first = data["initial_state"]["combatants"][0]
    fighters = []
    for number in range(count):
        fighter = copy.deepcopy(first)
        fighter["id"] = f"c{number + 1}"
        fighter["hex"] = {"col": number % 30, "row": number // 30}
        fighters.append(fighter)
    data["initial_state"]["combatants"] = fighters
    return data


def test_a_battle_of_one_fighter_too_many_is_refused_and_one_at_the_limit_opens() -> None:
    assert refusal(with_fighters(MAX_FIGHTERS + 1)) == (
        f"initial_state.combatants: {MAX_FIGHTERS + 1:,} fighters; a battle holds at most "
        f"{MAX_FIGHTERS:,}"
    )
    assert len(opened(with_fighters(MAX_FIGHTERS)).state.combatants) == MAX_FIGHTERS


def with_weapons(count: int) -> Document:
    data = base_document()
    fighter = data["initial_state"]["combatants"][0]["fighter"]
    sword = fighter["weapons"][0]
    fighter["weapons"] = [{**copy.deepcopy(sword), "key": f"sword-{n}"} for n in range(count)]
    return data


def test_a_fighter_of_one_weapon_too_many_is_refused_and_one_at_the_limit_opens() -> None:
    assert refusal(with_weapons(MAX_WEAPONS + 1)) == (
        f"initial_state.combatants[0].fighter.weapons: {MAX_WEAPONS + 1} weapons; "
        f"a fighter carries at most {MAX_WEAPONS}"
    )
    fighter = opened(with_weapons(MAX_WEAPONS)).state.combatants[0].fighter
    assert len(fighter.weapons) == MAX_WEAPONS


def with_modes(count: int) -> Document:
    data = base_document()
    sword = data["initial_state"]["combatants"][0]["fighter"]["weapons"][0]
    swing = sword["modes"][0]
    sword["modes"] = [{**copy.deepcopy(swing), "name": f"swing {n}"} for n in range(count)]
    return data


def test_a_weapon_of_one_mode_too_many_is_refused_and_one_at_the_limit_opens() -> None:
    assert refusal(with_modes(MAX_MODES + 1)) == (
        f"initial_state.combatants[0].fighter.weapons[0].modes: {MAX_MODES + 1} modes; "
        f"a weapon has at most {MAX_MODES}"
    )
    sword = opened(with_modes(MAX_MODES)).state.combatants[0].fighter.weapons[0]
    assert len(sword.modes) == MAX_MODES


def with_items(count: int) -> Document:
    """``count`` useless pieces of a broken weapon lying on the map."""
    data = base_document()
    piece = {**data["initial_state"]["items"][0], "kind": "PIECE", "weapon": None}
    data["initial_state"]["items"] = [{**piece, "id": f"i{n + 1}"} for n in range(count)]
    data["initial_state"]["next_item"] = count + 1
    return data


def test_a_map_of_one_item_too_many_is_refused_and_one_at_the_limit_opens() -> None:
    assert refusal(with_items(MAX_ITEMS + 1)) == (
        f"initial_state.items: {MAX_ITEMS + 1:,} items; the map holds at most {MAX_ITEMS:,}"
    )
    assert len(opened(with_items(MAX_ITEMS)).state.items) == MAX_ITEMS


def with_commands(logged: int, undone: int) -> Document:
    data = base_document()
    facings = [f.name for f in Facing]

    def turn(number: int) -> Document:
        command = {"@type": "TurnCombatant", "combatant_id": "c1", "facing": facings[number % 6]}
        return {"command": command, "dice": []}

    data["log"] = [turn(n) for n in range(logged)]
    data["undone"] = [turn(logged + n) for n in range(undone)]
    return data


def test_a_log_of_one_command_too_many_is_refused_and_one_at_the_limit_opens() -> None:
    assert refusal(with_commands(MAX_COMMANDS + 1, 0)) == (
        f"log: {MAX_COMMANDS + 1:,} commands; a battle holds at most {MAX_COMMANDS:,}"
    )
    # The redo list counts with the log: a battle holds both.
    assert refusal(with_commands(MAX_COMMANDS, 1)) == (
        f"the log and the redo list: {MAX_COMMANDS + 1:,} commands; a battle holds at most "
        f"{MAX_COMMANDS:,}"
    )
    battle = opened(with_commands(MAX_COMMANDS - 1, 1))
    assert (len(battle.commands), len(battle.undone)) == (MAX_COMMANDS - 1, 1)


def with_faces(count: int) -> Document:
    data = with_commands(1, 0)
    data["log"][0]["dice"] = [1] * count
    return data


def test_a_command_of_one_die_too_many_is_refused_and_one_at_the_limit_opens() -> None:
    assert refusal(with_faces(MAX_FACES + 1)) == (
        f"log entry 1.dice: {MAX_FACES + 1:,} die faces; a command rolls at most {MAX_FACES:,}"
    )
    assert len(opened(with_faces(MAX_FACES)).commands) == 1


def test_any_other_list_is_bounded_too() -> None:
    data = base_document()
    data["initial_state"]["initiative"] = ["c1"] * (MAX_ENTRIES + 1)
    assert refusal(data) == (
        f"initial_state.initiative: {MAX_ENTRIES + 1:,} entries; a list in a file holds at "
        f"most {MAX_ENTRIES:,}"
    )
    skills = {f"Lore {n}": 10 for n in range(MAX_ENTRIES + 1)}
    data = base_document()
    sheet = data["initial_state"]["combatants"][0]["fighter"]["stats"]
    sheet["fields"]["skills"] = skills
    assert refusal(data).startswith(
        f"initial_state.combatants[0].fighter.stats.fields.skills: {MAX_ENTRIES + 1:,} entries"
    )


def test_a_list_of_hexes_may_cover_the_largest_map_and_no_more() -> None:
    def refused(data: object) -> str | None:
        try:
            check_counts(data, BattleFileError)
        except BattleFileError as refusal:
            return str(refusal)
        return None

    assert refused({"cells": [0] * MAX_HEXES}) is None
    assert refused({"log": [{"command": {"hexes": [0] * (MAX_HEXES + 1)}}], "undone": []}) == (
        f"log entry 1.command.hexes: {MAX_HEXES + 1:,} hexes; the largest map has at most "
        f"{MAX_HEXES:,}"
    )
    assert refused([0] * MAX_ENTRIES) is None
    assert refused([[0] * (MAX_ENTRIES + 1)]) == (
        f"the file[0]: {MAX_ENTRIES + 1:,} entries; a list in a file holds at most {MAX_ENTRIES:,}"
    )


def test_an_autosave_change_is_bounded_as_a_file_is() -> None:
    data = with_weapons(MAX_WEAPONS + 1)
    newcomer = data["initial_state"]["combatants"][0]
    entry = {"command": {"@type": "AddCombatant", "combatant": newcomer}, "dice": []}
    codec = ValueCodec(saved_types_for(RULESET_TYPES), HexGrid(30, 20))
    with pytest.raises(BattleFileError) as refused:
        decode_entry(entry, codec, "autosave change 7")
    assert str(refused.value) == (
        f"autosave change 7.command.combatant.fighter.weapons: {MAX_WEAPONS + 1} weapons; "
        f"a fighter carries at most {MAX_WEAPONS}"
    )


# --- a battle in play keeps to the limits -----------------------------------------------


def crowded_battle(count: int) -> Battle:
    """The demo battle's first fighter ``count`` times, on a 30 x 20 map."""
    battle = demo_battle(1)
    first = battle.initial.combatants[0]
    fighters = tuple(
        replace(first, id=f"c{n + 1}", hex=Hex.from_offset(n % 30, n // 30)) for n in range(count)
    )
    state = BattleState(HexGrid(30, 20), fighters)
    return Battle(state, 1, get_ruleset)


def test_no_fighter_joins_a_battle_that_holds_as_many_as_a_file_may() -> None:
    battle = crowded_battle(MAX_FIGHTERS - 1)
    newcomer = replace(battle.state.combatants[0], id="new", hex=Hex.from_offset(29, 19))
    battle.execute(AddCombatant(newcomer))
    assert len(battle.state.combatants) == MAX_FIGHTERS
    another = replace(newcomer, id="another", hex=Hex.from_offset(28, 19))
    with pytest.raises(IllegalCommandError, match=f"at most {MAX_FIGHTERS} fighters"):
        battle.execute(AddCombatant(another))
    assert len(battle.state.combatants) == MAX_FIGHTERS
    assert len(battle.commands) == 1


def test_a_sheet_of_too_many_weapons_or_modes_is_a_problem_the_editor_shows() -> None:
    battle = demo_battle(1)
    fighter = battle.state.combatants[0].fighter
    sword = fighter.weapons[0]
    armoury = tuple(replace(sword, key=f"sword-{n}") for n in range(MAX_WEAPONS + 1))
    problems = fighter_problems(replace(fighter, weapons=armoury), battle.state.grid)
    assert problems[0].place == "weapons"
    assert problems[0].message == (
        f"{MAX_WEAPONS + 1} weapons; a fighter carries at most {MAX_WEAPONS}."
    )
    many_ways = replace(
        sword, modes=tuple(replace(sword.modes[0], name=f"swing {n}") for n in range(MAX_MODES + 1))
    )
    problems = fighter_problems(replace(fighter, weapons=(many_ways,)), battle.state.grid)
    assert [p.place for p in problems] == ["weapons/0/modes"]
    with pytest.raises(IllegalCommandError, match="a fighter carries at most"):
        battle.execute(
            EditFighter(battle.state.combatants[0].id, replace(fighter, weapons=armoury))
        )
    assert battle.commands == ()


def test_a_pick_up_that_would_make_one_weapon_too_many_is_refused() -> None:
    battle = demo_battle(1)
    holder = battle.state.combatants[0]
    sword = holder.fighter.weapons[0]
    armoury = tuple(replace(sword, key=f"sword-{n}") for n in range(MAX_WEAPONS))
    # All of them slung, a hand free for the one on the ground.
    loaded = replace(
        holder,
        fighter=replace(holder.fighter, weapons=armoury),
        carried=frozenset(w.key for w in armoury),
    )
    lying = GroundItem("i1", sword.name, ItemKind.WEAPON, sword, None, holder.hex, "")
    state = replace(battle.initial.with_combatants(loaded), items=(lying,), next_item=2)
    crowded = Battle(state, 1, get_ruleset)
    with pytest.raises(IllegalCommandError, match=f"more than {MAX_WEAPONS} weapons"):
        crowded.execute(PickUpItem(holder.id, "i1"))
    assert crowded.state.combatants[0].fighter.weapons == armoury


def test_a_full_log_takes_no_more_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rules.battle.battle.MAX_COMMANDS", 2)
    battle = demo_battle(1)
    who = battle.state.combatants[0].id
    battle.execute(TurnCombatant(who, Facing.N))
    battle.execute(TurnCombatant(who, Facing.S))
    with pytest.raises(IllegalCommandError, match="the battle's log is full"):
        battle.execute(TurnCombatant(who, Facing.N))
    battle.undo()  # an undo makes room, and the redo goes where the command was
    battle.redo()
    assert len(battle.commands) == 2


def test_a_command_that_rolls_more_dice_than_a_file_holds_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("rules.battle.battle.MAX_FACES", 0)
    battle = demo_battle(3)  # the spearman's long spear reaches the fencer
    choices = get_ruleset("000").attacks.default_attack(battle.state, "c2", "c4")
    assert choices is not None
    with pytest.raises(IllegalCommandError, match="a command rolls at most 0"):
        battle.execute(Attack("c2", "c4", choices))
    assert battle.commands == ()
    assert battle.state == battle.initial


def with_actions(count: int) -> Battle:
    """The demo battle (free play) with its spearman having attacked ``count``
    times this turn already."""
    state = demo_battle(1).state
    spearman = state.combatant("c2")
    done = tuple(TurnAction(ActionKind.ATTACK, "long-spear") for _ in range(count))
    return Battle(state.with_combatants(replace(spearman, actions_this_turn=done)), 1, get_ruleset)


def test_no_fighter_acts_more_often_in_one_turn_than_the_limit() -> None:
    """Each defense looks through the turn's earlier actions (000 CUMULATIVE
    DEFENSES): a turn of thousands replayed in quadratic time, so the battle holds
    a fighter to MAX_TURN_ACTIONS attacks and defenses in one turn."""
    battle = with_actions(MAX_TURN_ACTIONS - 1)
    attack = plain_attack(ruleset_of(battle.state), battle.state, "c2", "c1")
    assert attack is not None
    battle.execute(attack)
    assert len(battle.state.combatant("c2").actions_this_turn) == MAX_TURN_ACTIONS
    full = with_actions(MAX_TURN_ACTIONS)
    refused = f"more than {MAX_TURN_ACTIONS} times in one turn"
    with pytest.raises(IllegalCommandError, match=refused):
        full.execute(attack)
    assert full.commands == ()
