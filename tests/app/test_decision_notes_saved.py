"""The computer's reasons survive a save, a reopen and an autosave recovery (issue
25): each reason is kept with its command as a note (rules.battle.notes) that the
rules never read; files without notes open as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.files import Autosave, find_recoverable, open_battle, recover, save_battle
from app.main_window import MainWindow, load_demo_battle
from rules.battle.battle import Battle
from rules.battle.commands import TurnCombatant
from rules.battle.control import SetControllers
from rules.battle.notes import MAX_NOTE_TEXT, CommandNote
from rules.battle.savefile import BattleFileError, read_battle, write_battle
from rules.play.policies import AGGRESSIVE
from rules.sets.registry import get_ruleset
from tests.app.turn_order_window import shown_window
from tests.rules.test_history import demo_battle

RULESET_TYPES = get_ruleset("000").sheets.saved_types
NOTE = CommandNote("c1", "Sword-and-shield fighter (aggressive) turns to face Fencer", "b: 1")


@pytest.fixture
def window(qtbot: QtBot, qapp: QApplication, settings: QSettings) -> Iterator[MainWindow]:
    w = shown_window(qtbot, BattleController(load_demo_battle(1, turn_order=True)), settings)
    ids = tuple(c.id for c in w.controller.state.combatants)
    w.controller.execute(SetControllers(tuple((i, AGGRESSIVE) for i in ids)))
    yield w


def reason_rows(window: MainWindow, reason: str) -> list[object]:
    return [r for r in window.log_pane.rows if r.title == reason]


def test_a_reason_is_saved_and_shown_again_when_the_battle_is_reopened(
    window: MainWindow, qtbot: QtBot, tmp_path: Path
) -> None:
    window.auto_play.step_action.trigger()
    # the decision is worked out on the worker thread: wait for its commands
    qtbot.waitUntil(lambda: not window.auto_play.running, timeout=30_000)
    decision = window.auto_play.last_decision
    assert decision is not None
    battle = window.controller.battle
    first = len(battle.commands) - len(decision.commands)
    note = battle.note(first)
    assert note is not None and note.reason == decision.reason
    assert note.combatant_id == decision.combatant_id
    assert "Best choices not taken" in note.detail
    path = tmp_path / "noted.hexfray"
    save_battle(battle, path)
    entry = json.loads(path.read_text())["log"][first]
    assert entry["note"]["reason"] == decision.reason
    reopened = open_battle(path)
    assert reopened.note(first) == note
    window.replace_battle(reopened)
    (row,) = reason_rows(window, decision.reason)
    assert "Best choices not taken" in row.plain_text()  # type: ignore[attr-defined]


def test_the_rules_never_read_a_note() -> None:
    noted, plain = demo_battle(4), demo_battle(4)
    command = TurnCombatant("c1", noted.state.combatant("c1").facing.turned(1))
    noted.execute(command, note=NOTE)
    plain.execute(command)
    assert noted.state == plain.state
    assert noted.note(0) == NOTE and plain.note(0) is None
    again = Battle.replay(noted.initial, noted.seed, noted.commands, rulesets=get_ruleset)
    assert again.state == noted.state


def test_undo_keeps_a_note_for_the_redo_and_a_new_command_drops_it(tmp_path: Path) -> None:
    battle = demo_battle(4)
    command = TurnCombatant("c1", battle.state.combatant("c1").facing.turned(1))
    battle.execute(command, note=NOTE)
    battle.undo()
    assert battle.note(0) == NOTE
    loaded = read_battle(write_battle(battle, RULESET_TYPES), rulesets=get_ruleset)
    assert loaded.note(0) == NOTE  # the undone command's note, saved with it
    loaded.redo()
    assert loaded.note(0) == NOTE
    battle.execute(command)  # another future
    assert battle.note(0) is None


def test_the_autosave_brings_the_reasons_back(tmp_path: Path) -> None:
    battle = demo_battle(6)
    autosave = Autosave(battle, tmp_path)
    battle.subscribe(autosave.record)
    command = TurnCombatant("c1", battle.state.combatant("c1").facing.turned(1))
    battle.execute(command, note=NOTE)
    battle.execute(TurnCombatant("c2", battle.state.combatant("c2").facing.turned(1)))
    battle.undo()
    battle.undo()
    battle.redo()
    autosave.set_aside()
    (entry,) = find_recoverable(tmp_path)
    recovered = recover(entry)
    assert recovered.note(0) == NOTE and recovered.note(1) is None
    assert recovered.state == battle.state


def test_a_file_without_notes_opens_as_before_and_a_damaged_note_is_named() -> None:
    battle = demo_battle(4)
    battle.execute(TurnCombatant("c1", battle.state.combatant("c1").facing.turned(1)))
    text = write_battle(battle, RULESET_TYPES)
    assert '"note"' not in text
    assert read_battle(text, rulesets=get_ruleset).notes == ()
    document = json.loads(text)
    document["log"][0]["note"] = {"combatant_id": "c1", "reason": 7}
    with pytest.raises(BattleFileError, match="note"):
        read_battle(json.dumps(document), rulesets=get_ruleset)


def test_a_long_note_is_cut_to_what_a_file_holds() -> None:
    battle = demo_battle(4)
    long = CommandNote("c1", "r" * 5000, "d" * 5000)
    battle.execute(TurnCombatant("c1", battle.state.combatant("c1").facing.turned(1)), note=long)
    loaded = read_battle(write_battle(battle, RULESET_TYPES), rulesets=get_ruleset)
    note = loaded.note(0)
    assert note is not None
    assert note.reason == "r" * MAX_NOTE_TEXT and note.detail == "d" * MAX_NOTE_TEXT
