"""Battle files on disk: atomic saves, opening, and the autosave that survives a crash.

What the File menu calls:

* ``save_battle_file(battle, path)``: Save and Save As. The file is written whole
  and renamed over the old one (``app.atomic_files.write_atomically``): a failed
  or interrupted save leaves the previous file as it was. It returns the text and
  the ``DiskStamp`` of what the file holds, so that the next save can tell
  whether someone else has written the file since (``changed_on_disk``).
* ``open_battle(path)``: Open and Open Recent. ``BattleFileError`` (its message
  is for the GM's dialog) for any file that cannot be opened; the open battle is
  untouched, since a new ``Battle`` is built. Only a regular file is read (never a
  named pipe or a device), and one over ``MAX_FILE_BYTES`` is refused before it
  is read (``rules.core.file_reading``).
* ``Autosave``: after every executed, undone or redone command, one line is
  appended to a journal in the user data folder (``app.user_dirs.autosave_dir``)
  and fsync'd; the journal starts with the whole battle. ``saved(path)`` after a
  save starts it afresh in a new file, and only once that is written and synced
  is the old one removed; ``close()`` on a clean close removes it, and
  ``set_aside()`` keeps it for a later restore when unsaved work is left without
  the question. The journal is locked while its window writes it.
* ``ControllerAutosave``: the window's autosave. A journal that cannot be written
  is reported (``problem``, ``status_changed``) and written afresh at the next
  change or ``retry``.
* ``find_recoverable()`` lists the journals a crash, a kill or a set-aside left
  behind (never one another window still writes), and
  ``recover(entry)`` rebuilds the battle exactly as it was at its last command
  (``PartlyRecovered``: the changes up to a damaged line; ``discard(entry)``
  throws one away).

The format is docs/file-format.md; the pure codec is ``rules.battle.savefile``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QMessageBox

from app.atomic_files import (
    DiskStamp,
    WriteProgress,
    changed_on_disk,
    file_stamp,
    lock_file,
    publish,
    remove_leftovers,
    write_atomically,
)
from app.controller import BattleController, Redraw
from app.user_dirs import autosave_dir
from rules.battle.battle import Battle, BattleChange, ChangeKind
from rules.battle.savefile import (
    FILE_SUFFIX,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    BattleFileError,
    SavingRulesetFinder,
    battle_from_document,
    checked_document,
    decode_entry,
    encode_entry,
    entry_entered,
    entry_note,
    parse_document,
    saved_types_for,
    write_battle,
    written_in,
)
from rules.battle.values import ValueCodec
from rules.core.dice import ScriptedDice
from rules.core.errors import DataError
from rules.core.file_reading import open_for_reading, read_regular_file
from rules.core.strict_json import strict_json
from rules.sets.registry import get_ruleset, sheet_owner

__all__ = [
    "FILE_SUFFIX",
    "Autosave",
    "BattleFileError",
    "ControllerAutosave",
    "DiskStamp",
    "PartlyRecovered",
    "Recoverable",
    "SavedBattle",
    "battle_file_changed",
    "battle_file_stamp",
    "discard",
    "find_recoverable",
    "install_autosave",
    "open_battle",
    "recover",
    "save_battle",
    "save_battle_file",
    "show_damaged_bundle",
    "write_atomically",
    "write_problem",
]

log = logging.getLogger(__name__)

JOURNAL_SUFFIX = ".hexfray-journal"
JOURNAL_FORMAT = "hexfray-autosave"
JOURNAL_VERSION = 1
# A journal holds the whole battle (at most a battle file's MAX_FILE_BYTES, written
# more tightly) and the changes since; a save starts it afresh.
MAX_JOURNAL_BYTES = 2 * MAX_FILE_BYTES
SHOWN_AROUND = 40  # characters of a file's line shown either side of what cannot be written


def ruleset_types(battle: Battle) -> tuple[type, ...]:
    """The saved types of the battle's ruleset (its commands, choices, sheet, tracks)."""
    return get_ruleset(battle.initial.ruleset_key).sheets.saved_types


# --- save and open -----------------------------------------------------------------------


@dataclass(frozen=True)
class SavedBattle:
    """A save: the text written and what the file holds now."""

    text: str
    stamp: DiskStamp


def save_battle_file(
    battle: Battle, path: Path, progress: WriteProgress | None = None
) -> SavedBattle:
    """Save the whole battle (log, dice and undo position) to ``path`` atomically.
    ``OSError`` when the file cannot be written, ``UnicodeEncodeError`` for text
    that UTF-8 cannot hold (a lone surrogate); either way the old file is kept."""
    text = write_battle(battle, ruleset_types(battle))
    return SavedBattle(text, write_atomically(path, text.encode("utf-8"), progress))


def save_battle(battle: Battle, path: Path, progress: WriteProgress | None = None) -> str:
    """``save_battle_file``'s text (``Autosave.saved`` starts its journal from it)."""
    return save_battle_file(battle, path, progress).text


def battle_file_stamp(path: Path) -> DiskStamp | None:
    """What the battle file ``path`` holds now (None: it cannot be read)."""
    return file_stamp(path, MAX_FILE_BYTES)


def battle_file_changed(path: Path, known: DiskStamp | None) -> bool:
    """Whether ``path`` holds something else than ``known`` (what this window last
    read or wrote there), so that saving would replace someone else's work."""
    return changed_on_disk(path, known, MAX_FILE_BYTES)


def write_problem(problem: OSError | ValueError) -> str:
    """Why a file could not be written, for the GM's dialog. Text that UTF-8 cannot
    hold is shown where it is in the battle: the line of the file it would be on."""
    if isinstance(problem, UnicodeEncodeError) and isinstance(problem.object, str):
        text, at = problem.object, problem.start
        line_end = text.find("\n", at)
        line_end = len(text) if line_end < 0 else line_end
        # The line around the character, at most SHOWN_AROUND characters either side.
        start = max(text.rfind("\n", 0, at) + 1, at - SHOWN_AROUND)
        end = min(line_end, at + SHOWN_AROUND)
        excerpt = text[start:end].strip().rstrip(",")
        shown = excerpt.encode("utf-8", "replace").decode("utf-8")
        character = ord(text[at])
        surrogate = ", half of a surrogate pair" if 0xD800 <= character < 0xE000 else ""
        return (
            f"the battle holds text that no file can hold: {shown} "
            f"(the character U+{character:04X}{surrogate})"
        )
    if isinstance(problem, OSError):
        return problem.strerror or str(problem) or type(problem).__name__
    return str(problem) or type(problem).__name__


def open_battle(path: Path, rulesets: SavingRulesetFinder = get_ruleset) -> Battle:
    """The battle saved in ``path``; ``BattleFileError`` names what is wrong. Only
    a regular file of at most ``MAX_FILE_BYTES`` is read."""
    try:
        data = read_regular_file(
            path, MAX_FILE_BYTES, BattleFileError, name=path.name, kind="a battle file"
        )
    except OSError as exc:
        raise BattleFileError(f"{path.name} cannot be read: {exc.strerror or exc}") from None
    return battle_from_document(parse_document(data), rulesets=rulesets, sheet_owner=sheet_owner)


def open_battle_or_say_why(path: Path) -> Battle | None:
    """The battle saved in ``path`` for a command-line tool, or None after one
    line on stderr saying why it cannot be opened (the tool then exits 2)."""
    try:
        return open_battle(path)
    except BattleFileError as refusal:
        print(f"hexfray: cannot open {path}: {refusal}", file=sys.stderr)
        return None


def add_battle_file_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    """The command-line tools' first argument: the saved battle they work on."""
    parser.add_argument("file", metavar="FILE.hexfray", type=Path, help=help_text)


# --- the autosave journal ------------------------------------------------------------------


def journal_in_use(path: Path) -> bool:
    """Whether a running Hexfray (this one included) is writing ``path`` (never
    a file that is not a regular file: no journal is one)."""
    try:
        descriptor = open_for_reading(path, BattleFileError, name=path.name)
    except (OSError, BattleFileError):
        return False
    try:
        return not lock_file(descriptor)
    finally:
        os.close(descriptor)  # which drops a lock taken here


def read_journal(path: Path) -> bytes:
    """The journal's bytes: a regular file of at most ``MAX_JOURNAL_BYTES``
    (``BattleFileError`` otherwise, and when it cannot be read)."""
    try:
        return read_regular_file(
            path, MAX_JOURNAL_BYTES, BattleFileError, name=path.name, kind="an autosave"
        )
    except OSError as exc:
        raise BattleFileError(f"{path.name} cannot be read: {exc.strerror or exc}") from None


def new_journal_path(folder: Path) -> Path:
    """A new journal's name: when and by which process it was started, and a
    random part, so that two battles never share one."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return folder / f"battle-{stamp}-{os.getpid()}-{os.urandom(4).hex()}{JOURNAL_SUFFIX}"


def remove_journal_leftovers(folder: Path) -> int:
    """Remove the temporary files of journals whose writing was killed (at start:
    another window's journal in the making is locked and stays)."""
    return remove_leftovers(folder, lambda name: name.endswith(JOURNAL_SUFFIX))


AutosaveFolder = Path | Callable[[], Path]


class Autosave:
    """Appends every change of a battle to a journal, fsync'd line by line.

    The first line is a header with the whole battle as a battle file holds it
    (and the file it was saved to, if any); each later line is one change:
    ``{"executed": {"command": ..., "dice": [...]}}``, ``{"undone": n}`` or
    ``{"redone": n}`` (``n``: the index of the command in the log). Connect
    ``record`` to the battle's changes (``Battle.subscribe`` or the controller's
    ``battle_changed``); call ``restart`` when the battle is replaced.

    ``folder`` may be a function that makes the folder, called at each start, so
    that a folder that could not be made is tried again. With ``start`` False the
    first journal waits for ``restart``."""

    def __init__(
        self,
        battle: Battle,
        folder: AutosaveFolder,
        saved_to: Path | None = None,
        *,
        stamp: DiskStamp | None = None,
        start: bool = True,
    ) -> None:
        self._folder: Callable[[], Path] = (lambda: folder) if isinstance(folder, Path) else folder
        self._path: Path | None = None
        self._journal: BinaryIO | None = None
        self._behind = False  # a change could not be written: only a restart catches up
        self._codec = ValueCodec(saved_types_for(ruleset_types(battle)))
        if start:
            self.restart(battle, saved_to, stamp=stamp)

    @property
    def path(self) -> Path | None:
        """The journal written now (None before it starts, after a close or a set-aside)."""
        return self._path

    @property
    def up_to_date(self) -> bool:
        """Whether the journal holds the battle with every change so far."""
        return self._journal is not None and not self._behind

    def restart(
        self,
        battle: Battle,
        saved_to: Path | None = None,
        text: str | None = None,
        *,
        unsaved: bool = False,
        stamp: DiskStamp | None = None,
    ) -> None:
        """Start the journal afresh from ``battle`` as it is now (after a save, an
        open or a new battle), in a new file; the old journal is removed only once
        the new one is written and synced (``OSError`` leaves it as it was).
        ``text`` is the battle's file text if it was just written (a save), so it
        is not encoded twice. ``unsaved``: the battle it starts from is itself
        unsaved work (a restored autosave), worth restoring even before its first
        change. ``stamp``: what ``saved_to`` held when this battle was read from it
        or written to it (a restore compares it with the file)."""
        codec = ValueCodec(saved_types_for(ruleset_types(battle)))
        if text is None:
            text = write_battle(battle, ruleset_types(battle))
        header = {
            "journal": JOURNAL_FORMAT,
            "version": JOURNAL_VERSION,
            "saved_to": None if saved_to is None else str(saved_to),
            "saved_fingerprint": None if stamp is None else stamp.fingerprint,
            "unsaved": unsaved,
            "battle": json.loads(text),
        }
        # ASCII, with JSON's escapes for anything else: any text a battle holds can
        # be journaled, even a lone surrogate that UTF-8 cannot hold.
        line = (json.dumps(header, sort_keys=True) + "\n").encode("ascii")
        try:
            folder = self._folder()
            folder.mkdir(parents=True, exist_ok=True)
            path = new_journal_path(folder)
            # Written whole under a hidden name, locked, then renamed: no other
            # window ever sees it unlocked or half written.
            journal, _ = publish(path, line, keep_open=True)
        except BaseException:
            self._behind = True  # the old journal is kept, but is no longer this battle's
            raise
        old_path, old_journal = self._path, self._journal
        self._path, self._journal, self._codec, self._behind = path, journal, codec, False
        self._drop(old_journal, old_path)

    def record(self, change: BattleChange) -> None:
        """Append one change and make it durable before the next command. A
        journal that is not up to date takes no more lines (a line after a lost one
        would not follow the log): it waits for a restart."""
        if self._journal is None or self._behind:
            return
        entry: dict[str, object]
        if change.kind is ChangeKind.EXECUTED:
            entry = {
                "executed": encode_entry(
                    change.command,
                    change.dice,
                    self._codec,
                    entered=change.dice_entered,
                    note=change.note,
                )
            }
        elif change.kind is ChangeKind.UNDONE:
            entry = {"undone": change.index}
        else:
            entry = {"redone": change.index}
        data = memoryview((json.dumps(entry, sort_keys=True) + "\n").encode("ascii"))
        try:
            while data:
                data = data[self._journal.write(data) or 0 :]
            os.fsync(self._journal.fileno())
        except BaseException:
            self._behind = True
            raise

    def saved(self, battle: Battle, path: Path, text: str, stamp: DiskStamp | None = None) -> None:
        """The battle was saved to ``path`` as ``text``: the journal starts again there."""
        self.restart(battle, path, text, stamp=stamp)

    def close(self) -> None:
        """A clean close: nothing to recover, the journal goes."""
        path, self._path = self._path, None
        self._close_journal()
        if path is not None:
            path.unlink(missing_ok=True)

    def set_aside(self) -> Path | None:
        """Keep the journal as it is for a later restore (unsaved work that the GM
        left without being asked); the next ``restart`` writes a new one. Returns
        the journal kept."""
        kept, self._path = self._path, None
        self._close_journal()
        return kept

    def _close_journal(self) -> None:
        journal, self._journal = self._journal, None
        if journal is not None:
            journal.close()

    @staticmethod
    def _drop(journal: BinaryIO | None, path: Path | None) -> None:
        """The journal a restart replaced: closed and removed (a journal that stays
        by a failure is offered at the next start, which loses nothing)."""
        try:
            if journal is not None:
                journal.close()
            if path is not None:
                path.unlink(missing_ok=True)
        except OSError:
            log.warning("the autosave journal %s could not be removed", path, exc_info=True)


class ControllerAutosave(QObject):
    """The window's autosave: every change the controller reports
    (``battle_changed``: executed, undone, redone) goes to the journal, and a
    replaced battle (``battle_reset``: new, open, recover) starts it afresh.
    ``saved`` after Save and Save As; ``close`` on a clean close or quit.

    A journal that cannot be written (a full disk, a folder that cannot be made)
    never raises into the GM's click: the battle goes on, ``problem`` says why and
    ``status_changed`` tells the window (an empty text: it works again). The next
    change, or ``retry``, writes the journal afresh from the battle as it is then.
    ``unsaved_work`` tells whether that battle is unsaved work (the window's File
    menu knows; without it, it is taken to be)."""

    status_changed = Signal(str)

    def __init__(
        self,
        controller: BattleController,
        folder: AutosaveFolder,
        saved_to: Path | None = None,
        *,
        stamp: DiskStamp | None = None,
    ) -> None:
        super().__init__(controller)
        self._controller = controller
        self.problem = ""
        self.unsaved_work: Callable[[], bool] = lambda: True
        self._saved_to: Path | None = None
        self._stamp: DiskStamp | None = None
        self.journal = Autosave(controller.battle, folder, start=False)
        controller.battle_changed.connect(self._on_changed)
        controller.battle_reset.connect(self._on_reset)
        self.restart(saved_to, stamp=stamp)

    @property
    def working(self) -> bool:
        """Whether the journal holds the battle with every change so far."""
        return self.journal.up_to_date

    def _on_changed(self, change: BattleChange, redraw: Redraw) -> None:
        if not self.journal.up_to_date:
            self.retry()
            return
        try:
            self.journal.record(change)
        except (OSError, ValueError) as exc:
            self._failed(exc, "record a change")

    def _on_reset(self) -> None:
        self.restart(None)

    def restart(
        self,
        saved_to: Path | None,
        text: str | None = None,
        *,
        unsaved: bool = False,
        stamp: DiskStamp | None = None,
    ) -> bool:
        """The journal afresh from the battle as it is now; False (and ``problem``)
        when it cannot be written."""
        self._saved_to, self._stamp = saved_to, stamp
        try:
            self.journal.restart(
                self._controller.battle, saved_to, text, unsaved=unsaved, stamp=stamp
            )
        except (OSError, ValueError) as exc:
            self._failed(exc, "start its journal")
            return False
        if self.problem:
            self.problem = ""
            log.info("the autosave works again")
            self.status_changed.emit("")
        return True

    def retry(self) -> bool:
        """Write the journal again from the battle as it is now (after a failure,
        the journal lacks changes). True when the autosave works."""
        return self.restart(self._saved_to, unsaved=self.unsaved_work(), stamp=self._stamp)

    def _failed(self, exc: OSError | ValueError, doing: str) -> None:
        log.warning("the autosave could not %s", doing, exc_info=True)
        reason = write_problem(exc)
        if isinstance(exc, FileExistsError | NotADirectoryError) and exc.filename:
            reason = f"a file is in the way of its folder {exc.filename}"
        elif isinstance(exc, OSError) and exc.filename:
            reason = f"{reason}: {exc.filename}"
        self.problem = reason
        self.status_changed.emit(reason)

    def saved(self, path: Path, text: str, stamp: DiskStamp | None = None) -> None:
        """The battle was saved to ``path`` as ``text`` (``save_battle_file`` gives both)."""
        self.restart(path, text, stamp=stamp)

    def close(self) -> None:
        self.journal.close()

    def set_aside(self) -> Path | None:
        """Keep the journal for a later restore; one that lacks changes is written
        afresh first, so that it holds them."""
        if not self.journal.up_to_date:
            self.retry()
        return self.journal.set_aside()


def damaged_bundle_message(damaged: DataError) -> str:
    return (
        "A file that came with Hexfray is damaged, so Hexfray cannot start:\n\n"
        f"{damaged}\n\nInstall Hexfray again to repair it."
    )


def show_damaged_bundle(damaged: DataError) -> None:
    """The dialog for a bundled table that cannot be read at start (``rules.core.assets``
    refuses every damage as a ``DataError``): the packaged app has no terminal to
    show a traceback in."""
    log.error("a bundled file is damaged: %s", damaged)
    QMessageBox.critical(None, "Hexfray cannot start", damaged_bundle_message(damaged))


def install_autosave(
    controller: BattleController, saved_to: Path | None = None, stamp: DiskStamp | None = None
) -> ControllerAutosave:
    """The window's autosave in the user data folder, removed when the program
    quits cleanly. The leftovers of journals killed while they were written go
    first. A folder that cannot be written leaves the autosave failing (its
    ``problem``), to be tried again."""
    try:
        remove_journal_leftovers(autosave_dir())
    except OSError:
        log.warning("the autosave folder cannot be made", exc_info=True)
    autosave = ControllerAutosave(controller, autosave_dir, saved_to, stamp=stamp)
    application = QCoreApplication.instance()
    if application is not None:
        application.aboutToQuit.connect(autosave.close)
    return autosave


@dataclass(frozen=True)
class Recoverable:
    """A journal left behind by a Hexfray that did not close cleanly."""

    journal: Path
    saved_to: Path | None  # the battle file it was last saved to, if any
    modified: float  # the journal's last change, seconds since the epoch
    changes: int  # the changes after the header
    unsaved_start: bool = False  # the header's battle is unsaved work (it was restored)
    # What saved_to held when the journal's battle was read from it or saved to it
    # (None for a journal that does not say), and whether it holds something else
    # now: another save has replaced the battle the journal continues.
    saved_stamp: DiskStamp | None = None
    file_changed: bool = False
    # The first line as it was read to find the journal, and its JSON (the newest
    # journal's only): restoring it parses the battle, up to 8 MB, once, not twice.
    first_line: tuple[bytes, object] | None = field(default=None, compare=False, repr=False)

    @property
    def worth_offering(self) -> bool:
        """Whether restoring it could bring back anything that is not in a file."""
        return self.changes > 0 or self.unsaved_start


def _file_changed_since(saved_to: Path, stamp: DiskStamp | None, journal_time: float) -> bool:
    """Whether ``saved_to`` holds something else than the journal's battle began
    from; a journal that does not say what the file held asks whether the file
    was written after the journal's last change."""
    if stamp is not None:
        return battle_file_changed(saved_to, stamp)
    try:
        return saved_to.stat().st_mtime > journal_time
    except OSError:
        return False


def _path_named(saved_to: object, journal: Path) -> Path | None:
    """The battle file a journal names, None when it names none or a name no file
    can have (half a surrogate pair, a NUL: asking the disk about it would raise):
    its battle is restored as unsaved work."""
    if not isinstance(saved_to, str):
        return None
    try:
        usable = bool(os.fsencode(saved_to)) and "\x00" not in saved_to
    except UnicodeError:
        usable = False
    if not usable:
        log.warning("the autosave %s names no file that can be: its battle is unsaved", journal)
        return None
    return Path(saved_to)


def find_recoverable(
    folder: Path | None = None, *, excluding: ControllerAutosave | Autosave | None = None
) -> tuple[Recoverable, ...]:
    """The journals in the autosave folder, newest first (start-up offers these),
    but for those a running Hexfray still writes (this window's own, which
    ``excluding`` names even when the lock is unavailable, and another window's)."""
    try:
        where = folder if folder is not None else autosave_dir()
    except OSError:  # no autosave folder: nothing to offer (the autosave itself warns)
        return ()
    own = excluding.journal if isinstance(excluding, ControllerAutosave) else excluding
    found: list[Recoverable] = []
    newest: tuple[int, bytes, object] | None = None  # its place in found, its first line
    for journal in where.glob(f"*{JOURNAL_SUFFIX}"):
        if (own is not None and journal == own.path) or journal_in_use(journal):
            continue
        try:
            first, _, rest = read_journal(journal).partition(b"\n")
            changes = rest.count(b"\n")  # a last line without its newline was cut short
            header = _journal_json(first, "the autosave's first line")
            saved_to = header.get("saved_to") if isinstance(header, dict) else None
            unsaved_start = isinstance(header, dict) and header.get("unsaved") is True
            known = header.get("saved_fingerprint") if isinstance(header, dict) else None
            modified = journal.stat().st_mtime
        except (OSError, ValueError) as exc:  # BattleFileError too: nothing to offer
            log.warning("the autosave %s is not offered: %s", journal, exc)
            continue
        file = _path_named(saved_to, journal)
        stamp = DiskStamp(known) if isinstance(known, str) else None
        changed = file is not None and _file_changed_since(file, stamp, modified)
        if newest is None or modified > found[newest[0]].modified:
            newest = (len(found), first, header)
        found.append(Recoverable(journal, file, modified, changes, unsaved_start, stamp, changed))
    if newest is not None:
        place, first, header = newest
        found[place] = replace(found[place], first_line=(first, header))
    found.sort(key=lambda r: r.modified, reverse=True)
    return tuple(found)


class PartlyRecovered(BattleFileError):
    """A journal with a damaged change: ``battle`` is the battle after the
    ``recovered`` changes before it, of the journal's ``total``; the message says
    what is wrong with the first one lost."""

    def __init__(self, message: str, battle: Battle, recovered: int, total: int) -> None:
        super().__init__(message)
        self.battle = battle
        self.recovered = recovered
        self.total = total

    @property
    def lost(self) -> int:
        return self.total - self.recovered


def recover(entry: Recoverable | Path, rulesets: SavingRulesetFinder = get_ruleset) -> Battle:
    """The battle of a journal at its last complete change. A last line cut short
    by the crash is left out. A damaged change is a ``PartlyRecovered`` that holds
    the battle after the changes before it; a journal whose first line (the
    battle it starts from) is damaged is a ``BattleFileError``."""
    path = entry.journal if isinstance(entry, Recoverable) else entry
    lines = read_journal(path).split(b"\n")
    complete = lines[:-1]  # the part after the last newline was being written
    if not complete:
        raise BattleFileError("the autosave is empty")
    if len(complete[0]) > MAX_FILE_BYTES:  # the first line is the battle, as a file holds it
        raise BattleFileError(
            f"the autosave's battle is too large ({len(complete[0]) // 2**20} MB; "
            f"a battle file holds at most {MAX_FILE_BYTES // 2**20} MB)"
        )
    read = entry.first_line if isinstance(entry, Recoverable) else None
    header = _journal_header(complete[0], read)  # read as strictly as a battle file
    battle_data = header["battle"]
    assert isinstance(battle_data, dict)  # _journal_header checked it
    document = checked_document(dict(battle_data))  # a migration changes the copy only
    battle = battle_from_document(document, rulesets=rulesets, sheet_owner=sheet_owner)
    codec = ValueCodec(saved_types_for(ruleset_types(battle)), battle.initial.grid)
    version = written_in(document)  # the Hexfray that wrote the journal wrote its changes so
    changes = complete[1:]
    for number, line in enumerate(changes, start=1):
        try:
            _replay_line(battle, codec, line, f"autosave change {number}", version)
        except BattleFileError as damage:
            # A change that does not replay leaves the battle as it was before it
            # (Battle.execute, undo and redo change nothing when they refuse).
            raise PartlyRecovered(str(damage), battle, number - 1, len(changes)) from None
    return battle


def _journal_json(line: bytes, what: str) -> object:
    """A journal line's JSON, read as strictly as a battle file (numbers bounded
    before they are converted, no nesting deeper than a battle file's): a
    ``BattleFileError`` naming ``what`` for a line that is damaged."""

    def damaged(problem: str) -> BattleFileError:
        return BattleFileError(f"{what} is damaged: {problem}")

    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise damaged("it is not text") from None
    return strict_json(text, damaged, MAX_DEPTH)


def _journal_header(line: bytes, read: tuple[bytes, object] | None) -> dict[str, object]:
    """The journal's first line, ``line``, as JSON: ``read``'s when it read the
    same line (``find_recoverable`` did), else read now."""
    if read is not None and read[0] == line:
        header = read[1]
    else:
        header = _journal_json(line, "the autosave's first line")
    if not isinstance(header, dict) or header.get("journal") != JOURNAL_FORMAT:
        raise BattleFileError("this is not a Hexfray autosave")
    if header.get("version") != JOURNAL_VERSION:
        raise BattleFileError(f"the autosave's version {header.get('version')!r} is not known")
    if not isinstance(header.get("battle"), dict):
        raise BattleFileError("the autosave holds no battle")
    return header


def _replay_line(battle: Battle, codec: ValueCodec, line: bytes, where: str, version: int) -> None:
    change = _journal_json(line, where)
    if not isinstance(change, dict) or len(change) != 1:
        raise BattleFileError(f"{where}: expected one change")
    ((kind, value),) = change.items()
    try:
        if kind == "executed":
            command, faces = decode_entry(value, codec, where, version)
            battle.execute(
                command, ScriptedDice(faces, entered=entry_entered(value)), entry_note(value, where)
            )
        elif kind == "undone" and value == len(battle.commands) - 1:
            battle.undo()
        elif kind == "redone" and value == len(battle.commands):
            battle.redo()
        else:
            raise BattleFileError(f"{where}: {kind} {value!r:.40} does not follow the log")
    except BattleFileError:
        raise
    except Exception as exc:  # a rule refusing the change: the journal does not fit
        raise BattleFileError(f"{where} cannot be replayed: {exc}") from None


def discard(entry: Recoverable) -> None:
    """Throw a journal away (the GM declined to recover it)."""
    entry.journal.unlink(missing_ok=True)
