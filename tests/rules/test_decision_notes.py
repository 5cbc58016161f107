"""The headless auto-battle keeps each decision's reason with its first command
(rules.play.decision_notes), so a battle it saves shows its reasons when reopened;
the notes change nothing of the battle."""

from __future__ import annotations

from rules.battle.battle import Battle
from rules.battle.savefile import read_battle, write_battle
from rules.play.autoplay import auto_play
from rules.play.defense import DefendedDecision
from rules.sets.registry import get_ruleset
from tests.rules.test_autoplay_steps import all_computer, demo


def test_an_auto_battle_s_reasons_are_saved_with_their_commands() -> None:
    battle = demo("000")
    all_computer(battle)
    start = len(battle.commands)
    report = auto_play(battle, max_rounds=40)
    notes = dict(battle.notes)
    # The decision's reason first, then its defenders' answers', a line each.
    lines = [n.reason.split("\n") for _, n in battle.notes]
    assert [first for first, *_ in lines] == [d.reason for d in report.decisions]
    answered = [d for d in report.decisions if isinstance(d, DefendedDecision)]
    assert answered and all(len(line) == 2 for line in lines if len(line) > 1)
    assert sum(len(line) - 1 for line in lines) == sum(len(d.answers) for d in answered)
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
