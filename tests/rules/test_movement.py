"""rules.battle.movement and the movement commands: paths, movement points, facing
changes, the path of the turn, postures and falls."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Facing, Hex, HexGrid, hex_line
from rules.battle.battle import Battle
from rules.battle.command_events import Moved, PostureChanged, Turned
from rules.battle.commands import EndTurn, MoveCombatant, SetPosture, TurnCombatant
from rules.battle.movement import (
    apply_fall,
    check_path,
    face,
    hex_sides_between,
    new_turn,
    path_cost,
    step_cost,
    turn_cost,
    walk,
)
from rules.battle.state import BattleState
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.conditions import Posture
from rules.sets.seed000.core_citations import POSTURES_000

GRID = HexGrid(12, 12)
HOME = Hex.from_offset(6, 6)


@pytest.fixture
def battle(make) -> Battle:
    a = make("sword-and-shield", HOME, Facing.N, id="a")
    b = make("spearman", Hex.from_offset(1, 1), Facing.S, id="b")
    return Battle(BattleState(GRID, (a, b)), 11, get_ruleset)


def test_front_steps_cost_one_side_and_back_steps_two():
    costs = {f: step_cost(Facing.N, HOME, HOME + f.vector) for f in Facing}
    assert costs == {
        Facing.N: 1,
        Facing.NE: 1,
        Facing.NW: 1,
        Facing.SE: 2,
        Facing.SW: 2,
        Facing.S: 2,
    }
    with pytest.raises(IllegalCommandError):
        step_cost(Facing.N, HOME, HOME + Hex(0, 2))


def test_turning_costs_one_per_hex_side_the_short_way():
    assert [hex_sides_between(Facing.N, f) for f in Facing] == [0, 1, 2, 3, 2, 1]
    assert turn_cost(Facing.N, Facing.S) == 3
    assert turn_cost(Facing.N, Facing.S, free_side=True) == 2
    assert turn_cost(Facing.N, Facing.N, free_side=True) == 0


def test_path_checks_and_costs():
    line = hex_line(HOME, HOME + Facing.N.vector.scale(3))
    assert check_path(line, GRID) == line
    assert path_cost(Facing.N, line) == 3
    assert path_cost(Facing.S, line) == 6  # backing up
    with pytest.raises(IllegalCommandError):
        check_path((HOME, HOME + Hex(0, 2)), GRID)
    with pytest.raises(IllegalCommandError):
        check_path((Hex.from_offset(0, 0), Hex.from_offset(0, 0) + Facing.N.vector), GRID)
    with pytest.raises(IllegalCommandError):
        check_path((), GRID)


def test_walk_and_face(make):
    c = make("fencer", HOME, Facing.N)
    path = (HOME, HOME + Facing.N.vector, HOME + Facing.N.vector + Facing.NE.vector)
    moved = walk(c, path)
    assert moved.cost == 2 and moved.combatant.hex == path[-1]
    assert moved.combatant.path_this_turn == path and moved.combatant.free_facing_change
    turned, cost, free = face(moved.combatant, Facing.SE)  # 2 sides, one free
    assert (cost, free) == (1, True) and turned.move_used == 3
    assert not turned.free_facing_change
    again, cost, free = face(turned, Facing.S)
    assert (cost, free) == (1, False)
    with pytest.raises(IllegalCommandError):
        walk(c, path[1:])
    fresh = new_turn(again)
    assert fresh.path_this_turn == () and fresh.move_used == 0 and fresh.hex == path[-1]


def test_move_command_records_path_and_cost(battle):
    dest = HOME + Facing.N.vector.scale(2)
    events = battle.execute(MoveCombatant("a", dest))
    moved = battle.state.combatant("a")
    assert moved.hex == dest and moved.move_used == 2
    assert moved.path_this_turn == hex_line(HOME, dest)
    assert isinstance(events[0], Moved)
    assert events[0].path == hex_line(HOME, dest) and events[0].cost == 2
    assert events[0].involved_hexes() == hex_line(HOME, dest)
    assert "2 MP (2/6 this turn)" in events[0].describe()
    # a second move continues the path of the turn
    side = dest + Facing.SE.vector
    battle.execute(MoveCombatant("a", side))
    moved = battle.state.combatant("a")
    assert moved.path_this_turn == (*hex_line(HOME, dest), side)
    assert moved.move_used == 4 and moved.movement_left == 2


def test_move_along_an_explicit_path(battle):
    path = (HOME + Facing.NW.vector, HOME + Facing.NW.vector + Facing.N.vector)
    battle.execute(MoveCombatant("a", path[-1], path=path))  # own hex left out
    moved = battle.state.combatant("a")
    assert moved.path_this_turn == (HOME, *path) and moved.move_used == 2
    with pytest.raises(IllegalCommandError):
        battle.execute(MoveCombatant("a", HOME, path=(HOME + Hex(3, 0),)))
    with pytest.raises(IllegalCommandError):
        battle.execute(MoveCombatant("a", HOME, path=(path[-1], path[0])))  # ends elsewhere


def test_moves_past_move_are_recorded_not_refused(battle):
    far = HOME + Facing.S.vector.scale(5)  # backing up 5 hexes: 10 MP
    battle.execute(MoveCombatant("a", far))
    assert battle.state.combatant("a").movement_left == -4


def test_turn_command_costs(battle):
    events = battle.execute(TurnCombatant("a", Facing.S))
    assert isinstance(events[0], Turned) and events[0].cost == 3 and not events[0].free_side
    battle.execute(MoveCombatant("a", HOME + Facing.S.vector))
    events = battle.execute(TurnCombatant("a", Facing.SW))
    assert events[0].cost == 0 and events[0].free_side
    assert "one side free" in events[0].describe()
    assert battle.state.combatant("a").move_used == 4


def test_end_turn_clears_the_movement_record(battle):
    battle.execute(MoveCombatant("a", HOME + Facing.N.vector))
    battle.execute(EndTurn())
    a = battle.state.combatant("a")
    assert a.path_this_turn == () and a.move_used == 0 and not a.free_facing_change
    assert a.hex == HOME + Facing.N.vector


def test_replay_reproduces_movement(battle):
    battle.execute(MoveCombatant("a", HOME + Facing.N.vector.scale(2)))
    battle.execute(TurnCombatant("a", Facing.NE))
    battle.execute(SetPosture("a", Posture.KNEELING))
    replay = Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset)
    assert replay.state == battle.state


def test_postures_and_falls(battle, make):
    events = battle.execute(SetPosture("a", Posture.KNEELING))
    assert isinstance(events[0], PostureChanged) and events[0].after is Posture.KNEELING
    assert events[0].citation == POSTURES_000  # seed 000's battle cites its own heading
    assert battle.state.combatant("a").posture is Posture.KNEELING
    assert battle.execute(SetPosture("a", Posture.KNEELING)) == ()
    c = make("fencer", HOME, Facing.N)
    assert c.posture is Posture.STANDING
    fallen, event = apply_fall(c, citation=POSTURES_000)
    assert fallen.posture is Posture.PRONE and event is not None and event.fell
    assert "falls prone" in event.describe()
    same, none = apply_fall(fallen, Posture.PRONE, citation=POSTURES_000)
    assert same is fallen and none is None
    seated, event = apply_fall(c, Posture.SITTING, citation=POSTURES_000)
    assert seated.posture is Posture.SITTING and event is not None
    up = replace(seated, posture=Posture.STANDING)
    assert up.posture is Posture.STANDING
