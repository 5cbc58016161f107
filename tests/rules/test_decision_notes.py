"""The headless auto-battle keeps each decision's reason with its first command
(rules.play.decision_notes), so a battle it saves shows its reasons when reopened;
the notes change nothing of the battle."""

from __future__ import annotations

from rules.battle.battle import Battle
from rules.battle.savefile import read_battle, write_battle
from rules.play.autoplay import auto_play
from rules.sets.registry import get_ruleset
from tests.rules.test_autoplay_steps import all_computer, demo


def test_an_auto_battle_s_reasons_are_saved_with_their_commands() -> None:
    battle = demo("000")
    all_computer(battle)
    start = len(battle.commands)
    report = auto_play(battle, max_rounds=40)
    notes = dict(battle.notes)
    assert [n.reason for _, n in battle.notes] == [d.reason for d in report.decisions]
    index = start
    for decision in report.decisions:  # each before its decision's first command
        while index not in notes:
            index += 1
        assert battle.commands[index] == decision.commands[0]
        assert notes[index].combatant_id == decision.combatant_id
        assert "Best choices not taken:" in notes[index].detail
        index += 1
    types = get_ruleset("000").sheets.saved_types
    loaded = read_battle(write_battle(battle, types), rulesets=get_ruleset)
    assert loaded.notes == battle.notes
    again = Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset)
    assert again.state == battle.state
