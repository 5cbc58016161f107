"""The kill test's worker (tests/app/test_files_kill.py runs it in a process of its own):
a battle is played, autosaved change by change and saved every few changes in a forked
child, which is killed (SIGKILL) at a random moment; then what the disk holds is checked.

Half the rounds kill the child at a random file operation of its own (just before the
n-th ``open``, ``fsync``, ``fchmod``, ``replace`` or ``unlink``: every step of a save
and of a journal's start is reached), the other half after a random change it reported
and a random delay (any moment in between). After each kill:

* the battle file is, byte for byte, the last battle whose save was reported done, or
  the one being saved (before the first save of a round: what the round began with);
* every journal left restores the battle with every change reported done (and, at most,
  the one being made);
* no more than one temporary file is left in each folder (the one being written at the
  kill: the next round's start and first save clear it), none larger than a battle.

Usage: ``python -m tests.app.kill_saves FOLDER KILLS SEED``; prints a JSON summary of
where the kills landed, or fails with an ``AssertionError``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from app.files import (
    Autosave,
    discard,
    find_recoverable,
    recover,
    remove_journal_leftovers,
    ruleset_types,
    save_battle_file,
)
from hexmap import Facing
from rules.battle.battle import Battle
from rules.battle.commands import EndTurn, SetPosture, TurnCombatant
from rules.battle.model import Posture
from rules.battle.savefile import write_battle
from rules.battle.state import Command
from rules.core.errors import RulesError
from tests.rules.test_history import demo_battle

SEED = 23
CHANGES = 12  # in one round: commands, undos and redos
SAVE_EVERY = 4  # a save after every fourth change
MAX_ROUNDS_PER_KILL = 3  # a round may end before its kill; give up long before forever
# The file operations a kill may come before (those of a save and of a journal's start).
KILL_POINTS = ("open", "fsync", "fchmod", "replace", "unlink")
# A timed kill comes after a change's report and this much more (a save's: the longer).
CHANGE_DELAY = 0.004
SAVE_DELAY = 0.05

Change = Callable[[Battle], object]
Snapshot = tuple[object, ...]


def snapshot(battle: Battle) -> Snapshot:
    return (battle.state, battle.commands, battle.dice_log, battle.undone, battle.seed)


def plan(rng: random.Random) -> list[Change]:
    """The changes of a round, found playable on a battle of its own."""
    battle = demo_battle(SEED)
    ids = [c.id for c in battle.state.combatants]
    changes: list[Change] = []
    while len(changes) < CHANGES:
        roll = rng.random()
        if roll < 0.2 and battle.can_undo:
            change: Change = Battle.undo
        elif roll < 0.3 and battle.can_redo:
            change = Battle.redo
        else:
            command: Command
            if roll < 0.8:
                command = TurnCombatant(rng.choice(ids), rng.choice(list(Facing)))
            elif roll < 0.9:
                command = SetPosture(rng.choice(ids), rng.choice(list(Posture)))
            else:
                command = EndTurn()

            def change(battle: Battle, command: Command = command) -> object:
                return battle.execute(command)

        try:
            change(battle)
        except RulesError:
            continue
        changes.append(change)
    return changes


class Reference:
    """What a round's battle is after each change, and the text of each save."""

    def __init__(self, changes: list[Change]) -> None:
        battle = demo_battle(SEED)
        self.after: dict[int, Snapshot] = {-1: snapshot(battle)}
        self.saves: dict[int, bytes] = {}
        for index, change in enumerate(changes):
            change(battle)
            self.after[index] = snapshot(battle)
            if is_save_point(index):
                self.saves[index] = save_text(battle)
        self.largest = max(len(text) for text in self.saves.values())


def is_save_point(index: int) -> bool:
    return (index + 1) % SAVE_EVERY == 0


def save_text(battle: Battle) -> bytes:
    return write_battle(battle, ruleset_types(battle)).encode("utf-8")


# --- the child ---------------------------------------------------------------------------


class FileOperations:
    """Counts the child's file operations of ``KILL_POINTS`` and dies by SIGKILL just
    before the ``kill_at``-th (0: never). Installed in the forked child only."""

    def __init__(self, kill_at: int) -> None:
        self.count = 0
        self.kill_at = kill_at
        for name in KILL_POINTS:
            self._count(name)

    def _count(self, name: str) -> None:
        real = getattr(os, name)

        def counted(*args: object, **kwargs: object) -> object:
            self.count += 1
            if self.count == self.kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)

        setattr(os, name, counted)


def play(
    folder: Path, changes: list[Change], report: Callable[[str], None], done: FileOperations
) -> None:
    """The child's round: the start (the autosave folder's leftovers cleared, a
    journal begun), then each change, journaled and reported, and a save after
    every ``SAVE_EVERY``-th, reported once the journal has started afresh too."""
    autosaves, path = folder / "autosave", folder / "evening.hexfray"
    remove_journal_leftovers(autosaves)
    battle = demo_battle(SEED)
    autosave = Autosave(battle, autosaves)
    battle.subscribe(autosave.record)
    report("started")
    for index, change in enumerate(changes):
        change(battle)
        report(f"changed {index}")
        if is_save_point(index):
            saved = save_battle_file(battle, path)
            autosave.saved(battle, path, saved.text, saved.stamp)
            report(f"saved {index}")
    report(f"ended {done.count}")


def run_child(folder: Path, changes: list[Change], kill_at: int, write: int) -> None:
    operations = FileOperations(kill_at)

    def report(line: str) -> None:
        os.write(write, f"{line}\n".encode())

    try:
        play(folder, changes, report, operations)
    finally:
        os._exit(0)  # never back into the worker's own loop


# --- the killer ---------------------------------------------------------------------------


class Round:
    """One child, killed at a file operation (``kill_at``) or after ``after_reports``
    reports and ``delay`` seconds; ``reports`` is all it said before it died."""

    def __init__(self, folder: Path, changes: list[Change], kill_at: int = 0) -> None:
        self.reports: list[str] = []
        read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(read)
            run_child(folder, changes, kill_at, write)
        os.close(write)
        self._source = os.fdopen(read, "rb")

    def wait_for(self, reports: int) -> None:
        while len(self.reports) < reports:
            line = self._source.readline()
            if not line:
                return
            self.reports.append(line.decode().strip())

    def kill(self, delay: float) -> None:
        time.sleep(delay)
        os.kill(self.pid, signal.SIGKILL)
        self.finish()

    def finish(self) -> None:
        os.waitpid(self.pid, 0)
        self.reports.extend(line.decode().strip() for line in self._source)
        self._source.close()

    @property
    def killed(self) -> bool:
        return not any(r.startswith("ended") for r in self.reports)

    def last(self, kind: str) -> int | None:
        found = [int(r.split()[1]) for r in self.reports if r.startswith(kind + " ")]
        return max(found) if found else None


def temporaries(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.endswith(".tmp")] if folder.is_dir() else []


def check(
    folder: Path, reference: Reference, round_: Round, before: bytes | None
) -> dict[str, int]:
    """The promises after a kill; what the kill hit, to be counted."""
    path, autosaves = folder / "evening.hexfray", folder / "autosave"
    where = f"after {round_.reports[-3:]}"
    # The battle file: the last battle saved, or the one being saved.
    saved = round_.last("saved")
    old = before if saved is None else reference.saves[saved]
    upcoming = [i for i in sorted(reference.saves) if saved is None or i > saved]
    new = reference.saves[upcoming[0]] if upcoming else None
    now = path.read_bytes() if path.exists() else None
    assert now in (old, new), f"the battle file is neither the old nor the new {where}"
    # The journals: every change reported done, and at most the one being made.
    done = round_.last("changed")
    done = -1 if done is None else done
    allowed = [reference.after[done], reference.after.get(done + 1)]
    entries = find_recoverable(autosaves)
    restored = [snapshot(recover(entry)) for entry in entries]
    for entry, battle in zip(entries, restored, strict=True):
        assert battle in allowed, f"{entry.journal.name} lacks a change {where}"
    assert entries or done == -1, f"no journal holds the {done + 1} changes done {where}"
    # Temporary files: the one being written, at most, and no larger than a battle.
    left = {name: temporaries(folder / name) for name in ("", "autosave")}
    for files in left.values():
        assert len(files) <= 1, f"temporary files pile up: {files} {where}"
        assert all(p.stat().st_size <= reference.largest for p in files)
    for entry in entries:  # the GM restores it (or throws it away): the next round is new
        discard(entry)
    return {
        "file_new": int(now is not None and now == new and now != old),
        "journal_ahead": int(allowed[1] is not None and allowed[1] in restored),
        "journals_left": len(entries),
        "save_temporary_left": len(left[""]),
        "journal_temporary_left": len(left["autosave"]),
    }


def main(folder: Path, kills: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    changes = plan(random.Random(SEED))
    reference = Reference(changes)
    calibration = Round(folder, changes)  # a whole round: how many file operations it makes
    calibration.finish()
    (ended,) = [r for r in calibration.reports if r.startswith("ended")]
    operations = int(ended.split()[1])
    reports = len(calibration.reports)
    check(folder, reference, calibration, None)
    totals = {"kills": 0, "at_file_operations": 0, "timed": 0, "rounds": 0}
    before = (folder / "evening.hexfray").read_bytes()
    while totals["kills"] < kills and totals["rounds"] < kills * MAX_ROUNDS_PER_KILL:
        totals["rounds"] += 1
        if totals["rounds"] % 2:
            round_ = Round(folder, changes, kill_at=rng.randint(1, operations))
            round_.finish()
            kind = "at_file_operations"
        else:
            round_ = Round(folder, changes)
            target = rng.randrange(1, reports)
            round_.wait_for(target)
            last = round_.reports[-1] if round_.reports else ""
            slow = last.startswith("changed") and is_save_point(int(last.split()[1]))
            round_.kill(rng.uniform(0, SAVE_DELAY if slow else CHANGE_DELAY))
            kind = "timed"
        for name, count in check(folder, reference, round_, before).items():
            totals[name] = totals.get(name, 0) + count
        if round_.killed:
            totals["kills"] += 1
            totals[kind] += 1
        path = folder / "evening.hexfray"
        before = path.read_bytes() if path.exists() else None
    return totals


if __name__ == "__main__":
    folder, kills, seed = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(main(folder, kills, seed), sort_keys=True))
