"""Auto-play by the battle's own controllers (``state.controller``) and its step
API: the next decision of the fighter whose turn it is, not yet executed."""

from __future__ import annotations

from pathlib import Path

from rules.battle.battle import Battle
from rules.battle.control import SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.savefile import read_battle
from rules.play.autoplay import AutoPlayer, auto_play
from rules.play.policies import CAREFUL
from rules.sets.registry import get_ruleset

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"


def demo(key: str) -> Battle:
    text = (BATTLES / f"demo-{key}.hexfray").read_text(encoding="utf-8")
    return read_battle(text, rulesets=get_ruleset)


def all_computer(battle: Battle, choice: PolicyChoice = CAREFUL) -> None:
    ids = tuple(c.id for c in battle.state.combatants)
    battle.execute(SetControllers(tuple((i, choice) for i in ids)))


def test_with_no_mapping_a_gm_fighter_s_turn_stops_the_driver() -> None:
    battle = demo("000")
    before = len(battle.commands)
    report = auto_play(battle)  # nobody is the computer's: the first turn waits
    active = battle.state.active_id
    assert active is not None
    assert not report.decided and report.decisions == []
    assert report.stopped_for == f"{battle.state.combatant(active).name}'s turn, the GM's to play"
    assert len(battle.commands) == before


def test_with_no_mapping_the_stored_policies_play_to_the_end() -> None:
    battle = demo("000")
    all_computer(battle)
    report = auto_play(battle, max_rounds=40)
    assert report.decided and report.refused == []
    fighters = {c.id: c.name for c in battle.state.combatants}
    for decision in report.decisions:  # each played by its stored policy
        assert decision.reason.startswith(f"{fighters[decision.combatant_id]} (careful) ")


def test_the_driver_stops_when_the_turn_passes_to_a_gm_fighter() -> None:
    battle = demo("000")
    first = battle.state.active_id
    assert first is not None
    battle.execute(SetControllers(((first, CAREFUL),)))
    report = auto_play(battle)
    assert report.decisions and {d.combatant_id for d in report.decisions} == {first}
    assert battle.state.active_id != first
    assert "the GM's to play" in report.stopped_for


def test_the_next_decision_is_not_executed_and_names_the_fighter_whose_turn_it_is() -> None:
    battle = demo("000")
    all_computer(battle)
    player = AutoPlayer()
    commands = len(battle.commands)
    decision = player.next_decision(battle.ruleset_of(battle.state), battle.state)
    assert decision is not None and decision.commands
    assert decision.combatant_id == battle.state.active_id
    assert len(battle.commands) == commands  # only chosen
    assert len(decision.alternatives) <= 3
    for command in decision.commands:
        battle.execute(command)
    assert len(battle.commands) == commands + len(decision.commands)


def test_no_decision_for_a_gm_fighter_nor_a_decided_battle() -> None:
    battle = demo("000")
    player = AutoPlayer()
    assert player.next_decision(battle.ruleset_of(battle.state), battle.state) is None
    assert "GM" in player.waits_for(battle.state)
    all_computer(battle)
    auto_play(battle, max_rounds=40)
    assert battle.state.outcome is not None
    assert player.next_decision(battle.ruleset_of(battle.state), battle.state) is None
    assert player.waits_for(battle.state) == "the battle is decided"


def test_stepping_decision_by_decision_plays_the_driver_s_battle() -> None:
    stepped, driven = demo("000"), demo("000")
    all_computer(stepped)
    all_computer(driven)
    auto_play(driven, max_rounds=40)
    player = AutoPlayer()
    while decision := player.next_decision(stepped.ruleset_of(stepped.state), stepped.state):
        for command in decision.commands:
            stepped.execute(command)
    assert stepped.commands == driven.commands
    assert stepped.state == driven.state
