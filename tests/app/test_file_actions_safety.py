"""The File menu never loses a GM's work (app.file_actions): Save never silently
replaces a file written since this window read or wrote it (a restored old
autosave asks, and its restore question says the file is newer); a damaged
autosave restores the changes before the damage; a restore on a full disk keeps
the only copy; an autosave that cannot write says so in the window until it works
again; a name no file can hold ends in a dialog, the old file kept."""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from app.controller import BattleController
from app.file_actions import (
    ChangedFileChoice,
    RecoveryChoice,
    ask_changed_file_with_dialog,
    recovery_question,
)
from app.files import (
    ControllerAutosave,
    PartlyRecovered,
    find_recoverable,
    open_battle,
    recover,
    save_battle_file,
)
from app.main_window import MainWindow, load_demo_battle
from hexmap import Facing
from rules.battle.commands import TurnCombatant
from rules.core.errors import RulesError
from tests.app.own_home import main_window_in_own_home
from tests.app.test_file_actions import Answers, crashed_battle, dirty
from tests.app.test_file_safety import failing_fsync, temporaries, with_fighter_named
from tests.app.test_files import same_battle
from tests.rules.test_history import random_command

window = main_window_in_own_home


@pytest.fixture
def home(window: MainWindow, tmp_path: Path) -> Path:
    """The window's user folders (``use_own_home`` puts them there)."""
    return tmp_path / "home"


@pytest.fixture
def answers(window: MainWindow) -> Answers:
    return Answers(window.file_actions)


def play(controller: BattleController, commands: int, seed: int) -> None:
    """``commands`` more commands in the log (random ones; those refused do not count)."""
    rng = random.Random(seed)
    wanted = len(controller.battle.commands) + commands
    while len(controller.battle.commands) < wanted:
        with contextlib.suppress(RulesError):
            controller.battle.execute(random_command(controller.state, rng))


def start_answering(window: MainWindow, qtbot: object, choice: RecoveryChoice) -> list[object]:
    """The window's start (its autosave, then the offer), every offer answered ``choice``."""
    offers: list[object] = []

    def answer(entry: object) -> RecoveryChoice:
        offers.append(entry)
        return choice

    window.file_actions.ask_recovery = answer
    done: list[bool] = []
    window.file_actions.start(None, then=lambda _restored: done.append(True))
    qtbot.waitUntil(lambda: bool(done))  # type: ignore[attr-defined]
    return offers


def test_restoring_an_old_autosave_never_silently_replaces_newer_work(
    window: MainWindow, answers: Answers, home: Path, tmp_path: Path, qtbot: object
) -> None:
    path = tmp_path / "evening.hexfray"
    # A crash leaves an autosave: the battle saved with 25 commands, 5 more played.
    crashed = BattleController(load_demo_battle(5))
    autosave = ControllerAutosave(crashed, home / "data" / "autosave")
    play(crashed, 25, seed=1)
    saved = save_battle_file(crashed.battle, path)
    autosave.saved(path, saved.text, saved.stamp)
    play(crashed, 5, seed=2)
    autosave.set_aside()
    # The next start: Later. The GM opens the file, plays 50 commands and saves.
    assert len(start_answering(window, qtbot, RecoveryChoice.LATER)) == 1
    actions = window.file_actions
    assert actions.open_path(path)
    play(window.controller, 50, seed=3)
    actions.save_action.trigger()  # no question: this window read the file
    newer = path.read_bytes()
    assert len(open_battle(path).commands) == 75
    # File ▸ Restore Autosave…: the question says the file holds newer work.
    offers: list[object] = []
    actions.ask_recovery = lambda entry: offers.append(entry) or RecoveryChoice.RESTORE
    actions.restore_action.trigger()
    (entry,) = offers
    assert entry.file_changed  # type: ignore[attr-defined]
    _, explanation = recovery_question(entry)  # type: ignore[arg-type]
    assert "evening.hexfray has been saved again since this autosave began" in explanation
    assert len(window.controller.battle.commands) == 30
    # Ctrl+S asks: Cancel keeps the file, Save As keeps it too.
    asked: list[str] = []
    actions.ask_changed_file = lambda name: asked.append(name) or ChangedFileChoice.CANCEL
    actions.save_action.trigger()
    assert asked == ["evening.hexfray"] and path.read_bytes() == newer
    actions.ask_changed_file = lambda name: ChangedFileChoice.SAVE_AS
    actions.choose_save_path = lambda suggested: tmp_path / "restored"
    actions.save_action.trigger()
    assert path.read_bytes() == newer
    assert len(open_battle(tmp_path / "restored.hexfray").commands) == 30
    assert actions.path == tmp_path / "restored.hexfray" and not window.isWindowModified()


def test_a_file_written_by_another_program_is_replaced_only_when_the_gm_says_so(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    actions = window.file_actions
    path = tmp_path / "evening.hexfray"
    assert actions.save_to(path)
    dirty(window)
    path.touch()  # touched, not changed: no question
    actions.save_action.trigger()
    other = BattleController(load_demo_battle(9))
    play(other, 3, seed=9)
    save_battle_file(other.battle, path)  # another window saves the same file
    dirty(window)
    asked: list[str] = []
    actions.ask_changed_file = lambda name: asked.append(name) or ChangedFileChoice.REPLACE
    actions.save_action.trigger()
    assert asked == ["evening.hexfray"]
    assert same_battle(open_battle(path), window.controller.battle)
    dirty(window)
    actions.save_action.trigger()  # this window wrote it last: no question
    assert asked == ["evening.hexfray"]


def test_a_damaged_autosave_restores_the_changes_before_the_damage(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    crashed = crashed_battle(home)  # four changes: two turns, an undo, a turn
    (entry,) = find_recoverable()
    header, *changes = entry.journal.read_bytes().split(b"\n")[:-1]
    changes[2] = b'{"undone": 1'  # the undo, damaged
    entry.journal.write_bytes(b"\n".join([header, *changes]) + b"\n")
    partial: list[PartlyRecovered] = []
    window.file_actions.ask_restore_partly = lambda partly: partial.append(partly) or False
    assert start_answering(window, qtbot, RecoveryChoice.RESTORE)
    assert [(p.recovered, p.total) for p in partial] == [(2, 4)]
    assert entry.journal.is_file()  # Cancel: the autosave is kept
    window.file_actions.ask_restore_partly = lambda partly: True
    window.file_actions.ask_recovery = lambda entry: RecoveryChoice.RESTORE
    window.file_actions.restore_action.trigger()
    assert window.controller.battle.commands == (
        crashed.battle.commands[0],
        TurnCombatant("c4", Facing.N),
    )
    assert window.isWindowModified() and not entry.journal.exists()


def test_a_restore_on_a_full_disk_keeps_the_only_copy(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    crashed = crashed_battle(home)
    (entry,) = find_recoverable()
    only_copy = entry.journal.read_bytes()
    start_answering(window, qtbot, RecoveryChoice.LATER)
    actions = window.file_actions
    assert actions.autosave is not None
    own = actions.autosave.journal.path
    assert own is not None
    own_before = own.read_bytes()
    actions.ask_recovery = lambda entry: RecoveryChoice.RESTORE
    with failing_fsync():
        actions.restore_action.trigger()
    assert entry.journal.read_bytes() == only_copy  # kept: the restored battle is in no file
    assert own.read_bytes() == own_before and temporaries(own.parent) == []
    assert window.controller.battle.commands == crashed.battle.commands
    assert "autosave is kept" in window.statusBar().currentMessage()
    assert actions.autosave_warning.isVisible()
    assert "No space left on device" in actions.autosave_warning.label.text()
    actions.autosave_warning.retry_button.click()  # space freed: Retry
    assert not actions.autosave_warning.isVisible()
    journal = actions.autosave.journal.path
    assert journal is not None and same_battle(recover(journal), crashed.battle)


def test_an_autosave_folder_that_cannot_be_made_warns_until_retry_works(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    (home / "data").mkdir(parents=True)
    in_the_way = home / "data" / "autosave"
    in_the_way.write_text("not a folder")
    start_answering(window, qtbot, RecoveryChoice.LATER)
    actions = window.file_actions
    warning = actions.autosave_warning
    assert warning.isVisible() and "a file is in the way" in warning.label.text()
    assert actions.autosave is not None and not actions.autosave.working
    dirty(window)  # every change tries again
    assert warning.isVisible()
    in_the_way.unlink()
    warning.retry_button.click()
    assert not warning.isVisible() and actions.autosave.working
    assert window.statusBar().currentMessage() == "The autosave works again"
    journal = actions.autosave.journal.path
    assert journal is not None and same_battle(recover(journal), window.controller.battle)


def test_a_full_disk_during_play_warns_and_the_next_change_catches_up(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    start_answering(window, qtbot, RecoveryChoice.LATER)
    actions = window.file_actions
    warning = actions.autosave_warning
    dirty(window)
    with failing_fsync():
        dirty(window)
        assert warning.isVisible() and "No space left on device" in warning.label.text()
        dirty(window)  # tried again, in vain
        assert warning.isVisible()
    dirty(window)  # space freed: the journal catches up with the whole battle
    assert not warning.isVisible()
    assert actions.autosave is not None
    journal = actions.autosave.journal.set_aside()  # a crash now
    assert journal is not None and same_battle(recover(journal), window.controller.battle)
    (left,) = find_recoverable()
    assert left.worth_offering  # the header holds unsaved work


def test_a_name_no_file_can_hold_ends_in_a_dialog_and_the_old_file_stays(
    window: MainWindow, answers: Answers, home: Path, tmp_path: Path, qtbot: object
) -> None:
    start_answering(window, qtbot, RecoveryChoice.LATER)
    actions = window.file_actions
    path = tmp_path / "evening.hexfray"
    assert actions.save_to(path)
    before = path.read_bytes()
    window.controller.replace_battle(with_fighter_named("Bra\ud800nn"))
    dirty(window)
    assert not actions.save_to(path)
    (problem,) = answers.problems
    assert problem.startswith(f"The battle could not be saved to {path}: ")
    assert '"name": "Bra?nn"' in problem and problem.endswith("is as it was.")
    assert path.read_bytes() == before and temporaries(tmp_path) == []
    # The autosave goes on: the battle, its name and its change are in the journal.
    assert actions.autosave is not None and actions.autosave.working
    assert not actions.autosave_warning.isVisible()
    journal = actions.autosave.journal.path
    assert journal is not None and same_battle(recover(journal), window.controller.battle)


def test_the_changed_file_question_is_a_real_dialog_with_save_as_first(
    window: MainWindow,
) -> None:
    """The default question, answered from the event loop: Save As is the default
    button, Replace and Cancel are there, and Esc cancels."""
    seen: list[list[str]] = []

    def answer(caption: str | None) -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append([b.text() for b in box.buttons()])
        assert box.defaultButton().text() == "Save As…"
        if caption is None:
            box.escapeButton().click()
        else:
            next(b for b in box.buttons() if b.text() == caption).click()

    for caption, expected in (
        ("Replace", ChangedFileChoice.REPLACE),
        ("Save As…", ChangedFileChoice.SAVE_AS),
        (None, ChangedFileChoice.CANCEL),
    ):
        QTimer.singleShot(0, lambda caption=caption: answer(caption))
        assert ask_changed_file_with_dialog(window, "evening.hexfray") is expected
    assert all(sorted(buttons) == ["Cancel", "Replace", "Save As…"] for buttons in seen)
