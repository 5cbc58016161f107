"""Battle files on disk (app.files): atomic saves that a killed writer cannot spoil,
opening with the size limit, and the autosave journal that brings a killed
battle back to its last command."""

from __future__ import annotations

import contextlib
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.controller import BattleController
from app.files import (
    JOURNAL_SUFFIX,
    Autosave,
    BattleFileError,
    ControllerAutosave,
    discard,
    find_recoverable,
    open_battle,
    recover,
    save_battle,
    write_atomically,
)
from hexmap import Facing
from rules.battle.battle import Battle
from rules.battle.commands import TurnCombatant
from rules.battle.control import SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.savefile import MAX_FILE_BYTES
from rules.core.errors import RulesError
from tests.rules.test_history import demo_battle, play_random_sequence, random_command

ROOT = Path(__file__).resolve().parents[2]


def start_script(script: str, argument: str) -> subprocess.Popen[str]:
    """``script`` run by this Python in a process of its own, on the project's code,
    with ``argument``; the test talks to it through its stdin and stdout (text)."""
    return subprocess.Popen(
        [sys.executable, "-c", script, argument],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def played(seed: int, steps: int = 40) -> Battle:
    battle = demo_battle(seed)
    play_random_sequence(battle, random.Random(seed), steps)
    return battle


def same_battle(a: Battle, b: Battle) -> bool:
    return (
        a.state == b.state
        and a.commands == b.commands
        and a.dice_log == b.dice_log
        and a.undone == b.undone
        and a.seed == b.seed
    )


# --- saving and opening -------------------------------------------------------------


def test_a_saved_battle_opens_as_it_was(tmp_path: Path) -> None:
    battle = played(1)
    path = tmp_path / "evening.hexfray"
    text = save_battle(battle, path)
    assert path.read_text(encoding="utf-8") == text
    assert same_battle(open_battle(path), battle)
    assert [p.name for p in tmp_path.iterdir()] == ["evening.hexfray"]  # no temporary left


def test_a_failed_write_leaves_the_previous_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "evening.hexfray"
    old = played(2)
    save_battle(old, path)
    before = path.read_bytes()

    def fail(written: int) -> None:
        raise OSError("the disk is full")

    with pytest.raises(OSError, match="disk is full"):
        write_atomically(path, b"x" * 300_000, fail)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["evening.hexfray"]


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from app.files import save_battle
    from tests.rules.test_history import demo_battle
    from rules.battle.commands import EndTurn

    battle = demo_battle(9)
    for _ in range(2000):  # a long log: the file takes many chunks
        battle.execute(EndTurn())

    def pause(written: int) -> None:
        print("PAUSED", written, flush=True)
        sys.stdin.readline()  # never answered: the test kills this process here

    save_battle(battle, Path(sys.argv[1]), pause)
    """
)


def test_a_writer_killed_in_the_middle_leaves_the_old_file_loadable(tmp_path: Path) -> None:
    path = tmp_path / "evening.hexfray"
    old = played(3)
    save_battle(old, path)
    writer = start_script(WRITER, str(path))
    assert writer.stdout is not None
    line = writer.stdout.readline()
    assert line.startswith("PAUSED")
    # Half the new file is on disk, beside the old one.
    partial = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(partial) == 1 and partial[0].stat().st_size > 0
    writer.kill()
    writer.wait()
    assert same_battle(open_battle(path), old)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.hexfray"
    with path.open("wb") as f:  # sparse: 100 MB that were never written
        f.truncate(100 * 2**20)
    assert path.stat().st_size > MAX_FILE_BYTES
    with pytest.raises(BattleFileError, match="too large for a battle"):
        open_battle(path)


def test_a_missing_or_damaged_file_is_refused_with_a_message(tmp_path: Path) -> None:
    with pytest.raises(BattleFileError, match="cannot be read"):
        open_battle(tmp_path / "nowhere.hexfray")
    damaged = tmp_path / "damaged.hexfray"
    damaged.write_text('{"format": "hexfray-battle", "schema_ver', encoding="utf-8")
    with pytest.raises(BattleFileError, match="damaged or cut short"):
        open_battle(damaged)


# --- the autosave journal -----------------------------------------------------------------


def more_changes(battle: Battle, rng: random.Random, steps: int) -> None:
    """Commands, undos and redos chosen by ``rng``, on a battle already under way."""
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.25 and battle.can_undo:
            battle.undo()
        elif roll < 0.45 and battle.can_redo:
            battle.redo()
        else:
            with contextlib.suppress(RulesError):
                battle.execute(random_command(battle.state, rng))


def test_the_journal_brings_back_commands_undos_and_redos(tmp_path: Path) -> None:
    battle = played(4, steps=10)
    autosave = Autosave(battle, tmp_path)  # the journal starts with the battle as it is
    battle.subscribe(autosave.record)
    more_changes(battle, random.Random(40), 40)
    assert find_recoverable(tmp_path) == ()  # its window still writes it
    kept = autosave.set_aside()  # what a crash leaves: the journal, without its lock
    (entry,) = find_recoverable(tmp_path)
    assert entry.journal == kept and entry.changes > 10
    assert same_battle(recover(entry), battle)


def test_a_clean_close_removes_the_journal_and_a_save_starts_it_afresh(tmp_path: Path) -> None:
    battle = demo_battle(6)
    autosave = Autosave(battle, tmp_path / "autosave")
    battle.subscribe(autosave.record)
    battle.execute(TurnCombatant("c2", Facing.N))
    path = tmp_path / "saved.hexfray"
    autosave.saved(battle, path, save_battle(battle, path))
    battle.execute(TurnCombatant("c2", Facing.S))
    kept = autosave.set_aside()
    (entry,) = find_recoverable(tmp_path / "autosave")
    assert entry.journal == kept and entry.changes == 1 and entry.saved_to == path
    assert same_battle(recover(entry), battle)
    discard(entry)
    autosave.restart(battle)  # the next journal, in a file of its own
    assert autosave.path != kept and autosave.path.is_file()
    autosave.close()
    assert find_recoverable(tmp_path / "autosave") == ()
    assert list((tmp_path / "autosave").iterdir()) == []


def test_a_journal_another_window_writes_is_neither_offered_nor_discarded(
    tmp_path: Path,
) -> None:
    battle = demo_battle(6)
    other_window = Autosave(battle, tmp_path)
    this_window = Autosave(demo_battle(7), tmp_path)
    assert find_recoverable(tmp_path) == ()  # both are locked by their writers
    other_window.restart(battle)  # a save or a new battle: rewritten, still locked
    assert find_recoverable(tmp_path) == ()
    kept = other_window.set_aside()
    assert [entry.journal for entry in find_recoverable(tmp_path)] == [kept]
    written = this_window.path
    this_window.close()
    assert written is not None and not written.exists() and kept.is_file()


def test_a_last_line_cut_short_by_the_crash_is_left_out(tmp_path: Path) -> None:
    battle = demo_battle(7)
    autosave = Autosave(battle, tmp_path)
    battle.subscribe(autosave.record)
    battle.execute(TurnCombatant("c1", Facing.SE))
    expected = battle.state
    with autosave.path.open("ab") as journal:
        journal.write(b'{"executed": {"command": {"@type": "TurnCom')
    assert recover(autosave.path).state == expected


def test_a_journal_whose_battle_is_larger_than_a_battle_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal's first line is the battle as a file holds it, read once: it
    is held to a battle file's size (here lowered to what the demo takes)."""
    battle = demo_battle(7)
    autosave = Autosave(battle, tmp_path)
    first_line = autosave.path.read_bytes().partition(b"\n")[0]
    monkeypatch.setattr("app.files.MAX_FILE_BYTES", len(first_line) - 1)
    with pytest.raises(BattleFileError, match="the autosave's battle is too large"):
        recover(autosave.path)
    monkeypatch.setattr("app.files.MAX_FILE_BYTES", len(first_line))
    assert recover(autosave.path).state == battle.state


def test_a_damaged_journal_is_refused_and_can_be_discarded(tmp_path: Path) -> None:
    journal = tmp_path / f"broken{JOURNAL_SUFFIX}"
    journal.write_text('{"journal": "hexfray-autosave", "version": 1, "battle": 3}\n')
    (entry,) = find_recoverable(tmp_path)
    with pytest.raises(BattleFileError, match="holds no battle"):
        recover(entry)
    discard(entry)
    assert find_recoverable(tmp_path) == ()


def test_the_controller_autosave_follows_changes_and_a_new_battle(tmp_path: Path) -> None:
    controller = BattleController(demo_battle(8))
    autosave = ControllerAutosave(controller, tmp_path)
    controller.execute(TurnCombatant("c1", Facing.SE))
    controller.undo()
    controller.redo()
    assert same_battle(recover(autosave.journal.path), controller.battle)
    replacement = demo_battle(12)
    controller.replace_battle(replacement)
    controller.execute(TurnCombatant("c4", Facing.S))
    assert same_battle(recover(autosave.journal.path), replacement)
    assert find_recoverable(tmp_path, excluding=autosave) == ()
    autosave.close()
    assert find_recoverable(tmp_path) == ()


def play_evening(battle: Battle) -> None:
    """60 random commands, then the last one undone (the crash test's evening)."""
    rng = random.Random(21)
    while len(battle.commands) < 60:
        with contextlib.suppress(RulesError):
            battle.execute(random_command(battle.state, rng))
    battle.undo()


PLAYER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from app.files import Autosave
    from tests.app.test_files import play_evening
    from tests.rules.test_history import demo_battle

    battle = demo_battle(21)
    autosave = Autosave(battle, Path(sys.argv[1]))
    battle.subscribe(autosave.record)
    play_evening(battle)
    print("PLAYED", len(battle.commands), flush=True)
    sys.stdin.readline()  # the test kills the battle here, in the middle of the evening
    """
)


def test_a_killed_battle_is_recovered_with_its_last_command(tmp_path: Path) -> None:
    player = start_script(PLAYER, str(tmp_path))
    assert player.stdout is not None
    assert player.stdout.readline().split() == ["PLAYED", "59"]
    assert find_recoverable(tmp_path) == ()  # never offered while its Hexfray runs
    player.kill()
    player.wait()
    # The same evening, played here: the recovered battle must be it exactly.
    expected = demo_battle(21)
    play_evening(expected)
    (entry,) = find_recoverable(tmp_path)
    recovered = recover(entry)
    assert same_battle(recovered, expected)
    assert recovered.redo_command == expected.redo_command  # the last command is back


def test_the_journal_brings_back_who_plays_each_fighter(tmp_path: Path) -> None:
    """Issue 25: handing fighters to the computer and taking one back are in the
    autosave, with their undo."""
    battle = demo_battle(6)
    autosave = Autosave(battle, tmp_path)
    battle.subscribe(autosave.record)
    aggressive, careful = PolicyChoice("aggressive"), PolicyChoice("careful", "weakest", 0.25)
    battle.execute(SetControllers((("c1", aggressive), ("c3", careful))))
    battle.execute(SetControllers((("c1", None), ("c4", aggressive))))
    battle.execute(SetControllers((("c2", aggressive),)))
    battle.undo()
    autosave.set_aside()
    (entry,) = find_recoverable(tmp_path)
    recovered = recover(entry)
    assert same_battle(recovered, battle)
    assert recovered.state.controllers == (("c3", careful), ("c4", aggressive))
    assert recovered.redo_command == SetControllers((("c2", aggressive),))
