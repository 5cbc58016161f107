"""A side played by the computer as a side (issue 25): ``SetSideControllers``
stores the side's controller in the battle, a fighter who joins the side later
(``AddCombatant``) is played so; undone, replayed, saved and reopened; a battle
without it is written as before."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.battle.battle import Battle
from rules.battle.control import ControllerSet, SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Side
from rules.battle.roster import AddCombatant, next_combatant_id
from rules.battle.savefile import battle_document, battle_types
from rules.battle.side_control import (
    SetSideControllers,
    SideControllerSet,
    hand_side_over,
)
from rules.battle.state import BattleState
from rules.battle.together import Together
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset
from tests.rules.test_edits import reopened
from tests.rules.test_history import demo_battle

RULESET_TYPES = get_ruleset("000").sheets.saved_types
CAREFUL = PolicyChoice("careful", target="weakest", retreat_below=0.3)


def newcomer(state: BattleState, side: Side) -> AddCombatant:
    """A copy of the side's first fighter, in the first free hex."""
    model = next(c for c in state.combatants if c.side is side)
    taken = {c.hex for c in state.combatants}
    free = next(h for h in state.grid.hexes() if h not in taken)
    fighter = replace(model.fighter, name="Recruit")
    return AddCombatant(replace(model, id=next_combatant_id(state), fighter=fighter, hex=free))


def test_set_side_controllers_is_a_saved_command() -> None:
    assert SetSideControllers in battle_types()


def test_a_fighter_joining_a_computer_side_is_played_by_the_computer() -> None:
    battle = demo_battle(3)
    events = battle.execute(SetSideControllers(((Side.BLUE, CAREFUL),)))
    assert [type(e) for e in events] == [SideControllerSet]
    assert "every fighter who joins it" in events[0].describe()
    assert battle.state.side_controller(Side.BLUE) == CAREFUL
    assert battle.state.controllers == ()  # the fighters there already: not by this
    events = battle.execute(newcomer(battle.state, Side.BLUE))
    recruit = battle.state.combatants[-1]
    assert battle.state.controller(recruit.id) == CAREFUL
    assert isinstance(events[-1], ControllerSet)
    assert events[-1].describe() == (
        "Recruit is now played by the computer (careful, picks the weakest, retreats past 30% hurt)"
    )
    # the GM's side: a newcomer is the GM's
    battle.execute(newcomer(battle.state, Side.RED))
    assert battle.state.controller(battle.state.combatants[-1].id) is None
    loaded = reopened(battle)
    assert loaded.state.side_controllers == ((Side.BLUE, CAREFUL),)
    again = Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset)
    assert again.state == battle.state
    battle.undo()
    battle.undo()
    assert battle.state.controller(recruit.id) is None
    battle.undo()
    assert battle.state.side_controllers == ()


def test_the_gm_takes_a_side_back() -> None:
    battle = demo_battle(3)
    battle.execute(SetSideControllers(((Side.BLUE, CAREFUL), (Side.RED, CAREFUL))))
    battle.execute(SetSideControllers(((Side.BLUE, None),)))
    assert battle.state.side_controllers == ((Side.RED, CAREFUL),)
    assert battle.execute(SetSideControllers(((Side.BLUE, None),))) == ()  # nothing to do
    with pytest.raises(IllegalCommandError):
        battle.execute(SetSideControllers(((Side.BLUE, CAREFUL), (Side.BLUE, None))))
    with pytest.raises(IllegalCommandError):
        battle.execute(SetSideControllers(((Side.BLUE, PolicyChoice("berserk")),)))
    with pytest.raises(IllegalCommandError):
        battle.execute(SetSideControllers(()))


def test_hand_side_over_is_one_command_for_the_side_and_its_fighters() -> None:
    battle = demo_battle(3)
    state = battle.state
    blue = tuple(c.id for c in state.combatants if c.side is Side.BLUE)
    battle.execute(SetControllers(((blue[0], CAREFUL),)))
    command = hand_side_over(battle.state, Side.BLUE, "aggressive")
    assert isinstance(command, Together)
    battle.execute(command)
    # each fighter keeps its settings, taking the side's policy
    assert battle.state.controller(blue[0]) == replace(CAREFUL, key="aggressive")
    assert battle.state.side_controller(Side.BLUE) == PolicyChoice("aggressive")
    assert hand_side_over(battle.state, Side.BLUE, "aggressive") is None
    battle.undo()
    assert battle.state.side_controllers == ()
    assert battle.state.controller(blue[0]) == CAREFUL
    only_side = hand_side_over(demo_battle(3).state, Side.GREEN, "careful")
    assert only_side == SetSideControllers(((Side.GREEN, PolicyChoice("careful")),))


def test_a_battle_without_side_controllers_is_written_as_before() -> None:
    document = battle_document(demo_battle(3), RULESET_TYPES)
    initial = document["initial_state"]
    assert isinstance(initial, dict) and "side_controllers" not in initial


def test_a_state_refuses_a_side_named_twice() -> None:
    state = demo_battle(3).state
    with pytest.raises(IllegalCommandError):
        replace(state, side_controllers=((Side.RED, CAREFUL), (Side.RED, CAREFUL)))
