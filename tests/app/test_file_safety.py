"""Saves and autosaves that lose no work and respect the GM's files (app.atomic_files,
app.files): a save keeps the file's mode and writes through a symbolic link, clears
the leftovers of killed saves; the journal is replaced only once its successor is
written and synced, falls behind visibly rather than wrongly on a failed write,
takes any text; a damaged change restores the changes before it; a save can tell
that the file changed on disk since."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import stat
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from app.atomic_files import DiskStamp, lock_file, temporary_target
from app.files import (
    JOURNAL_SUFFIX,
    Autosave,
    PartlyRecovered,
    battle_file_changed,
    battle_file_stamp,
    find_recoverable,
    open_battle,
    recover,
    remove_journal_leftovers,
    save_battle_file,
    write_problem,
)
from rules.battle.battle import Battle
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset
from tests.app.test_files import more_changes, played, same_battle
from tests.rules.test_history import demo_battle

pytestmark = pytest.mark.skipif(os.name != "posix", reason="file modes, links and flock")


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@contextlib.contextmanager
def failing_fsync(after: int = 0) -> Iterator[None]:
    """The disk is full: every ``os.fsync`` after the first ``after`` raises ENOSPC
    (a full disk shows at the write or, with delayed allocation, at the sync)."""
    real = os.fsync
    calls = 0

    def fsync(descriptor: int) -> None:
        nonlocal calls
        calls += 1
        if calls > after:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(descriptor)

    os.fsync = fsync  # type: ignore[assignment]
    try:
        yield
    finally:
        os.fsync = real


# --- the file's mode, links and leftovers -------------------------------------------------


def test_a_save_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "evening.hexfray"
    save_battle_file(played(1, 5), path)
    path.chmod(0o640)
    save_battle_file(played(2, 5), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    path.chmod(0o604)  # a mode the umask below would take bits from
    with umask(0o077):
        save_battle_file(played(3, 5), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o604


def test_a_new_file_gets_the_mode_of_the_users_umask(tmp_path: Path) -> None:
    for mask, mode in ((0o022, 0o644), (0o002, 0o664), (0o077, 0o600)):
        path = tmp_path / f"new-{mask:o}.hexfray"
        with umask(mask):
            save_battle_file(played(1, 5), path)
        assert stat.S_IMODE(path.stat().st_mode) == mode


def test_a_save_through_a_symbolic_link_writes_its_target(tmp_path: Path) -> None:
    kept = tmp_path / "campaign"
    kept.mkdir()
    target = kept / "evening.hexfray"
    save_battle_file(played(1, 5), target)
    link = tmp_path / "current.hexfray"
    link.symlink_to(target)
    newer = played(2, 12)
    save_battle_file(newer, link)
    assert link.is_symlink() and link.resolve() == target
    assert same_battle(open_battle(target), newer)
    assert temporaries(tmp_path) == [] and temporaries(kept) == []


def test_a_save_removes_the_leftovers_of_killed_saves_of_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "evening.hexfray"
    leftovers = [".evening.hexfray.a1b2c3d4.tmp", ".evening.hexfray.k_9zq0x1.tmp"]
    others = [
        ".other.hexfray.a1b2c3d4.tmp",  # another file's: its own next save clears it
        ".evening.hexfray.notes.tmp",  # the GM's own file, not a temporary of ours
        "evening.hexfray.a1b2c3d4.tmp",
    ]
    for name in leftovers + others:
        (tmp_path / name).write_bytes(b"x" * 1000)
    in_progress = tmp_path / ".evening.hexfray.0000live.tmp"  # another window saving now
    in_progress.write_bytes(b"")
    with in_progress.open("rb") as writer:
        assert lock_file(writer.fileno())
        save_battle_file(played(1, 5), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [*others, in_progress.name, path.name]
    )
    assert [temporary_target(name) for name in leftovers] == ["evening.hexfray"] * 2
    assert temporary_target(".evening.hexfray.notes.tmp") is None


def test_start_removes_the_leftovers_of_killed_journal_writes(tmp_path: Path) -> None:
    journal_leftover = tmp_path / f".battle-20250101-000000-1-abcd{JOURNAL_SUFFIX}.5f3k2m9q.tmp"
    journal_leftover.write_bytes(b'{"journal": "hexfray-autos')
    unrelated = tmp_path / ".notes.txt.5f3k2m9q.tmp"
    unrelated.write_bytes(b"kept")
    autosave = Autosave(demo_battle(3), tmp_path)  # this window's: complete, locked
    assert remove_journal_leftovers(tmp_path) == 1
    assert not journal_leftover.exists() and unrelated.exists()
    assert autosave.path is not None and autosave.path.is_file()


# --- the journal is replaced only once its successor is written ----------------------------


def test_a_journal_restart_that_cannot_be_written_keeps_the_old_journal(tmp_path: Path) -> None:
    battle = played(4, 10)
    autosave = Autosave(battle, tmp_path)
    battle.subscribe(autosave.record)
    more_changes(battle, random.Random(4), 20)
    journal = autosave.path
    assert journal is not None
    before = journal.read_bytes()
    with failing_fsync(), pytest.raises(OSError, match="No space left"):
        autosave.restart(battle)
    assert journal.read_bytes() == before and autosave.path == journal
    assert [p.name for p in tmp_path.iterdir()] == [journal.name]  # no temporary left
    assert same_battle(recover(journal), battle)


def test_a_change_that_cannot_be_written_holds_the_journal_until_it_starts_again(
    tmp_path: Path,
) -> None:
    battle = played(5, 10)
    autosave = Autosave(battle, tmp_path)
    battle.subscribe(autosave.record)
    more_changes(battle, random.Random(5), 5)
    with failing_fsync(), pytest.raises(OSError):
        more_changes(battle, random.Random(6), 1)
    assert not autosave.up_to_date
    more_changes(battle, random.Random(7), 10)  # not appended after the lost line
    autosave.restart(battle, unsaved=True)  # the retry: the whole battle as it is now
    assert autosave.up_to_date
    more_changes(battle, random.Random(8), 10)
    journal = autosave.set_aside()
    assert journal is not None and same_battle(recover(journal), battle)


# --- text that no file can hold -------------------------------------------------------------


def with_fighter_named(name: str, seed: int = 6) -> Battle:
    """The demo battle whose first fighter is called ``name``."""
    battle = demo_battle(seed)
    first, *others = battle.initial.combatants
    renamed = replace(first, fighter=replace(first.fighter, name=name))
    return Battle(BattleState(battle.initial.grid, (renamed, *others)), seed, get_ruleset)


def test_a_save_of_a_lone_surrogate_fails_with_the_text_named_and_keeps_the_old_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "evening.hexfray"
    save_battle_file(played(1, 5), path)
    before = path.read_bytes()
    with pytest.raises(UnicodeEncodeError) as refused:
        save_battle_file(with_fighter_named("Bra\ud800nn"), path)
    assert path.read_bytes() == before and temporaries(tmp_path) == []
    message = write_problem(refused.value)
    assert '"name": "Bra?nn"' in message and "U+D800, half of a surrogate pair" in message


def test_the_journal_holds_any_text_a_battle_holds(tmp_path: Path) -> None:
    battle = with_fighter_named("Bra\ud800nn Þórr")
    autosave = Autosave(battle, tmp_path)
    battle.subscribe(autosave.record)
    more_changes(battle, random.Random(9), 10)
    journal = autosave.set_aside()
    assert journal is not None
    json.loads(journal.read_bytes().decode("ascii").splitlines()[0])
    recovered = recover(journal)
    assert same_battle(recovered, battle)
    assert recovered.initial.combatants[0].fighter.name == "Bra\ud800nn Þórr"


# --- a damaged change -------------------------------------------------------------------------

CHANGES = 24


def journal_with_changes(folder: Path) -> tuple[Path, list[Battle]]:
    """A journal of ``CHANGES`` changes (commands, undos, redos) and the battle after
    each number of them (its copies, rebuilt from the journal's own lines)."""
    battle = played(10, 8)
    autosave = Autosave(battle, folder)
    battle.subscribe(autosave.record)
    rng = random.Random(10)
    while len(autosave_lines(autosave.path)) < CHANGES:
        more_changes(battle, rng, 1)  # one change, or none when the command is refused
    journal = autosave.set_aside()
    assert journal is not None
    lines = journal.read_bytes().split(b"\n")[:-1]
    states = []
    for count in range(CHANGES + 1):
        prefix = folder / f"prefix-{count}"
        prefix.write_bytes(b"\n".join(lines[: count + 1]) + b"\n")
        states.append(recover(prefix))
        prefix.unlink()
    assert same_battle(states[-1], battle)
    return journal, states


def autosave_lines(path: Path | None) -> list[bytes]:
    assert path is not None
    return path.read_bytes().split(b"\n")[1:-1]


DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "bytes flipped": lambda line: line[:10] + bytes(b ^ 0x5A for b in line[10:20]) + line[20:],
    "cut short": lambda line: line[: len(line) // 2],
    "empty": lambda line: b"",
    "not UTF-8": lambda line: b"\xff\xfe" + line,
    "two changes in one": lambda line: b'{"undone": 1, "redone": 2}',
    "not following the log": lambda line: b'{"undone": 999}',
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("position", [1, CHANGES // 2, CHANGES - 1])
def test_a_damaged_change_restores_every_change_before_it(
    tmp_path: Path, damage: str, position: int
) -> None:
    journal, states = journal_with_changes(tmp_path)
    header, *changes = journal.read_bytes().split(b"\n")[:-1]
    changes[position - 1] = DAMAGE[damage](changes[position - 1])
    journal.write_bytes(b"\n".join([header, *changes]) + b"\n")
    with pytest.raises(PartlyRecovered) as partly:
        recover(journal)
    assert (partly.value.recovered, partly.value.total) == (position - 1, CHANGES)
    assert partly.value.lost == CHANGES - position + 1
    assert f"autosave change {position}" in str(partly.value)
    assert same_battle(partly.value.battle, states[position - 1])


# --- what a file held ----------------------------------------------------------------------


def test_a_stamp_tells_whether_the_file_was_written_since(tmp_path: Path) -> None:
    path = tmp_path / "evening.hexfray"
    stamp = save_battle_file(played(1, 5), path).stamp
    assert stamp == battle_file_stamp(path)
    assert not battle_file_changed(path, stamp)
    os.utime(path, ns=(1, 1))  # touched, not changed: the bytes are compared
    assert not battle_file_changed(path, stamp)
    assert not battle_file_changed(path, DiskStamp(stamp.fingerprint))  # bytes only, as a journal
    save_battle_file(played(2, 5), path)  # another window saves there
    assert battle_file_changed(path, stamp)
    assert battle_file_changed(path, None)  # a file this window never read
    path.unlink()
    assert not battle_file_changed(path, stamp)  # nothing there to lose


def test_a_journal_says_when_its_file_has_been_saved_again_since(tmp_path: Path) -> None:
    folder, path = tmp_path / "autosave", tmp_path / "evening.hexfray"
    battle = played(11, 5)
    autosave = Autosave(battle, folder)
    battle.subscribe(autosave.record)
    saved = save_battle_file(battle, path)
    autosave.saved(battle, path, saved.text, saved.stamp)
    more_changes(battle, random.Random(11), 5)
    autosave.set_aside()  # the crash
    (entry,) = find_recoverable(folder)
    assert entry.saved_stamp == DiskStamp(saved.stamp.fingerprint) and not entry.file_changed
    save_battle_file(played(12, 30), path)  # newer work, saved from another window
    (entry,) = find_recoverable(folder)
    assert entry.file_changed


# --- a real full disk ----------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KB RAM file system, where the system lets this test mount one (as root),
    for a disk that is really full; elsewhere the tests above inject ENOSPC."""
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount_point)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip("no small file system can be mounted here")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "--lazy", str(mount_point)], check=True)


def fill(folder: Path, leave: int) -> Path:
    """A file that takes all the free space of ``folder``'s file system but ``leave`` bytes."""
    status = os.statvfs(folder)
    filler = folder / "filler"
    filler.write_bytes(b"x" * (status.f_bavail * status.f_frsize - leave))
    return filler


def test_a_full_disk_keeps_the_old_file_and_the_old_journal_whole(small_disk: Path) -> None:
    path = small_disk / "evening.hexfray"
    battle = played(12, 30)
    save_battle_file(demo_battle(12), path)
    before = path.read_bytes()
    autosave = Autosave(battle, small_disk / "autosave")
    battle.subscribe(autosave.record)
    more_changes(battle, random.Random(12), 5)
    journal = autosave.path
    assert journal is not None
    journaled = journal.read_bytes()
    filler = fill(small_disk, 4096)
    with pytest.raises(OSError, match="No space left"):
        save_battle_file(battle, path)
    with pytest.raises(OSError, match="No space left"):
        autosave.restart(battle)  # the whole battle does not fit
    assert path.read_bytes() == before and journal.read_bytes() == journaled
    assert temporaries(small_disk) == [] and temporaries(small_disk / "autosave") == []
    assert not autosave.up_to_date
    filler.unlink()  # space freed: the retry writes the whole battle
    autosave.restart(battle, unsaved=True)
    kept = autosave.set_aside()
    assert kept is not None and same_battle(recover(kept), battle) and not journal.exists()
