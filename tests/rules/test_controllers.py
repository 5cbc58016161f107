"""Who controls a fighter, at the battle level: ``SetControllers`` executed on a
Battle, undone, replayed from the seed, saved and reopened through the battle file
and the autosave journal's entries; files from before computer control open with
every fighter the GM's."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from rules.battle.battle import Battle
from rules.battle.control import ControllerSet, SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.policy_settings import controller_text, policy_problem, policy_text
from rules.battle.roster import RemoveCombatant
from rules.battle.savefile import (
    BattleFileError,
    battle_document,
    battle_types,
    decode_entry,
    encode_entry,
    read_battle,
    saved_types_for,
)
from rules.battle.state import BattleState
from rules.battle.values import ValueCodec
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset
from tests.rules.test_edits import reopened
from tests.rules.test_history import demo_battle

RULESET_TYPES = get_ruleset("000").sheets.saved_types
AGGRESSIVE = PolicyChoice("aggressive")
CAREFUL = PolicyChoice("careful", target="weakest", retreat_below=0.3)
EXAMPLE_FILE = Path(__file__).parents[2] / "assets" / "battles" / "evening-in-progress.hexfray"


def controllers_of(state: BattleState) -> dict[str, PolicyChoice | None]:
    return {c.id: state.controller(c.id) for c in state.combatants}


def test_set_controllers_is_a_saved_command() -> None:
    assert SetControllers in battle_types()


def test_a_battle_starts_with_every_fighter_the_gm_s() -> None:
    battle = demo_battle(3)
    assert set(controllers_of(battle.state).values()) == {None}
    assert battle.state.controllers == ()


def test_a_side_handed_to_the_computer_is_one_command_with_a_line_per_fighter() -> None:
    battle = demo_battle(3)
    events = battle.execute(SetControllers((("c1", AGGRESSIVE), ("c2", CAREFUL))))
    assert controllers_of(battle.state) == {"c1": AGGRESSIVE, "c2": CAREFUL, "c3": None, "c4": None}
    assert [e.describe() for e in events] == [
        "Sword-and-shield fighter is now played by the computer (aggressive)",
        "Spearman is now played by the computer (careful, picks the weakest, "
        "retreats past 30% hurt)",
    ]
    assert all(isinstance(e, ControllerSet) for e in events)
    assert [e.involved_combatants() for e in events] == [("c1",), ("c2",)]


def test_the_gm_takes_a_fighter_over_and_hands_it_back() -> None:
    battle = demo_battle(3)
    battle.execute(SetControllers((("c4", AGGRESSIVE),)))
    (taken,) = battle.execute(SetControllers((("c4", None),)))
    assert taken.describe() == "The GM takes over Fencer"
    assert battle.state.controller("c4") is None
    assert battle.state.controllers == ()
    (handed,) = battle.execute(SetControllers((("c4", AGGRESSIVE),)))
    assert handed.describe() == "Fencer is now played by the computer (aggressive)"


def test_only_the_fighters_whose_controller_changes_are_logged() -> None:
    battle = demo_battle(3)
    battle.execute(SetControllers((("c1", AGGRESSIVE),)))
    events = battle.execute(SetControllers((("c1", AGGRESSIVE), ("c2", AGGRESSIVE))))
    assert [e.describe() for e in events] == ["Spearman is now played by the computer (aggressive)"]
    assert battle.execute(SetControllers((("c1", AGGRESSIVE), ("c3", None)))) == ()
    # Kept in the order of the combatants, whatever order they were set in.
    battle.execute(SetControllers((("c4", CAREFUL), ("c3", AGGRESSIVE))))
    assert [i for i, _ in battle.state.controllers] == ["c1", "c2", "c3", "c4"]


def test_an_undo_gives_back_the_controllers_before_and_a_redo_the_new_ones() -> None:
    battle = demo_battle(3)
    battle.execute(SetControllers((("c1", AGGRESSIVE), ("c3", CAREFUL))))
    before = battle.state
    battle.execute(SetControllers((("c1", None), ("c3", AGGRESSIVE), ("c4", AGGRESSIVE))))
    after = battle.state
    battle.undo()
    assert battle.state == before
    assert controllers_of(battle.state) == {"c1": AGGRESSIVE, "c2": None, "c3": CAREFUL, "c4": None}
    battle.redo()
    assert battle.state == after
    battle.undo()
    battle.undo()
    assert battle.state.controllers == ()


@pytest.mark.parametrize(
    ("controllers", "refusal"),
    [
        ((), "no fighter is given a controller"),
        ((("c9", AGGRESSIVE),), "no combatant with id 'c9'"),
        ((("c1", AGGRESSIVE), ("c1", None)), "'c1' is given two controllers"),
        ((("c1", PolicyChoice("berserk")),), "no computer policy is called 'berserk'"),
        ((("c1", PolicyChoice("careful", target="tallest")),), "no target 'tallest'"),
        ((("c1", PolicyChoice("careful", retreat_below=1.5)),), "from 0 to 1, got 1.5"),
        ((("c1", PolicyChoice("careful", retreat_below=float("nan"))),), "from 0 to 1"),
    ],
)
def test_a_controller_no_policy_can_play_is_refused(
    controllers: tuple[tuple[str, PolicyChoice | None], ...], refusal: str
) -> None:
    battle = demo_battle(3)
    with pytest.raises(IllegalCommandError, match=refusal.replace("(", r"\(")):
        battle.execute(SetControllers(controllers))
    assert battle.commands == ()


def test_the_settings_in_words() -> None:
    assert policy_text(PolicyChoice("skirmisher", target="most-dangerous")) == (
        "skirmisher, picks the most dangerous"
    )
    # Only the careful policy retreats: the threshold of the others is not shown.
    assert policy_text(PolicyChoice("aggressive", retreat_below=0.2)) == "aggressive"
    assert policy_text(PolicyChoice("careful")) == "careful, retreats past 50% hurt"
    assert controller_text(None) == "the GM"
    assert controller_text(AGGRESSIVE) == "the computer (aggressive)"
    assert policy_problem(CAREFUL) is None


def test_the_controllers_are_saved_reopened_and_replayed() -> None:
    battle = demo_battle(5)
    battle.execute(SetControllers((("c1", AGGRESSIVE), ("c2", CAREFUL))))
    battle.execute(SetControllers((("c3", PolicyChoice("skirmisher")),)))
    battle.execute(SetControllers((("c1", None),)))
    battle.undo()
    loaded = reopened(battle)
    assert controllers_of(loaded.state) == {
        "c1": AGGRESSIVE,
        "c2": CAREFUL,
        "c3": PolicyChoice("skirmisher"),
        "c4": None,
    }
    assert loaded.events == battle.events
    loaded.redo()
    battle.redo()
    assert loaded.state == battle.state
    assert loaded.state.controller("c1") is None
    again = Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset)
    assert again.state == battle.state
    assert again.events == battle.events


def test_the_file_writes_a_choice_with_only_its_settings_off_their_default() -> None:
    battle = demo_battle(5)
    battle.execute(SetControllers((("c1", AGGRESSIVE), ("c2", CAREFUL), ("c3", None))))
    log = battle_document(battle, RULESET_TYPES)["log"]
    assert isinstance(log, list) and len(log) == 1
    assert log[0]["command"] == {
        "@type": "SetControllers",
        "controllers": [
            ["c1", {"key": "aggressive"}],
            ["c2", {"key": "careful", "retreat_below": 0.3, "target": "weakest"}],
            ["c3", None],
        ],
    }


def test_an_initial_state_with_controllers_is_saved_and_reopened() -> None:
    """A battle may start with computer fighters (New Battle's sides, a demo to
    auto-play): the initial state keeps them."""
    demo = demo_battle(2)
    initial = replace(demo.initial, controllers=(("c2", AGGRESSIVE), ("c4", CAREFUL)))
    battle = Battle(initial, 2, get_ruleset)
    document = battle_document(battle, RULESET_TYPES)
    state = document["initial_state"]
    assert isinstance(state, dict)
    assert state["controllers"] == [
        ["c2", {"key": "aggressive"}],
        ["c4", {"key": "careful", "retreat_below": 0.3, "target": "weakest"}],
    ]
    assert reopened(battle).state.controller("c4") == CAREFUL


def test_a_battle_without_computer_fighters_writes_no_controllers() -> None:
    """The file of a battle played by the GM alone is as before computer control."""
    battle = demo_battle(5)
    battle.execute(SetControllers((("c1", AGGRESSIVE),)))
    battle.execute(SetControllers((("c1", None),)))
    state = battle_document(battle, RULESET_TYPES)["initial_state"]
    assert isinstance(state, dict) and "controllers" not in state


def test_a_file_from_before_computer_control_opens_with_every_fighter_the_gm_s() -> None:
    text = EXAMPLE_FILE.read_text(encoding="utf-8")
    assert "controllers" not in text and "SetControllers" not in text
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state.combatants
    assert loaded.state.controllers == ()
    assert set(controllers_of(loaded.state).values()) == {None}
    # The GM can hand its fighters to the computer, and the file keeps them.
    some = loaded.state.combatants[0].id
    loaded.execute(SetControllers(((some, AGGRESSIVE),)))
    assert reopened(loaded).state.controller(some) == AGGRESSIVE


def hand_edited(battle: Battle, controllers: object) -> str:
    document = battle_document(battle, RULESET_TYPES)
    state = document["initial_state"]
    assert isinstance(state, dict)
    state["controllers"] = controllers
    return json.dumps(document)


@pytest.mark.parametrize(
    ("controllers", "refusal"),
    [
        ([["c9", {"key": "aggressive"}]], "controllers name no combatant"),
        ([["c1", {"key": "aggressive"}], ["c1", {"key": "careful"}]], "two controllers"),
        ([["c1", {"key": "berserk"}]], "no computer policy is called 'berserk'"),
        ([["c1", {"key": "careful", "retreat_below": 7}]], "from 0 to 1"),
        ([["c1", None]], "a value is missing"),
        ([["c1", {"key": "careful", "mood": "grim"}]], "PolicyChoice has no mood"),
    ],
)
def test_a_hand_edited_file_with_controllers_no_policy_can_play_is_refused(
    controllers: object, refusal: str
) -> None:
    with pytest.raises(BattleFileError, match=refusal) as raised:
        read_battle(hand_edited(demo_battle(1), controllers), rulesets=get_ruleset)
    assert "initial_state" in str(raised.value)


def test_the_autosave_journal_s_entry_keeps_the_command() -> None:
    codec = ValueCodec(saved_types_for(RULESET_TYPES))
    command = SetControllers((("c1", CAREFUL), ("c2", None)))
    entry = json.loads(json.dumps(encode_entry(command, (), codec)))
    assert decode_entry(entry, codec, "change 1") == (command, ())


def test_a_fighter_taken_off_the_map_leaves_its_controller_behind() -> None:
    """A newcomer given its id later is the GM's; an undo brings both back."""
    battle = demo_battle(3)
    battle.execute(SetControllers((("c4", AGGRESSIVE), ("c2", CAREFUL))))
    with_it = battle.state
    battle.execute(RemoveCombatant("c4"))
    assert battle.state.controllers == (("c2", CAREFUL),)
    battle.undo()
    assert battle.state == with_it
    assert reopened(battle).state.controller("c4") == AGGRESSIVE


def test_a_state_refuses_controllers_of_fighters_it_does_not_hold() -> None:
    initial = demo_battle(1).initial
    with pytest.raises(IllegalCommandError, match="name no combatant"):
        replace(initial, controllers=(("c7", AGGRESSIVE),))
    with pytest.raises(IllegalCommandError, match="two controllers"):
        replace(initial, controllers=(("c1", AGGRESSIVE), ("c1", CAREFUL)))
