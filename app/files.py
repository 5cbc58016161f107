"""Battle files on disk: atomic saves, opening, and the autosave that survives a crash.

What the File menu calls:

* ``save_battle(battle, path)``: Save and Save As. The file is written whole to a
  temporary file in the same folder, flushed and fsync'd, then renamed over the
  old one (``write_atomically``): a failed or interrupted save leaves the previous
  file as it was.
* ``open_battle(path)``: Open and Open Recent. ``BattleFileError`` (its message
  is for the GM's dialog) for any file that cannot be opened; the open battle is
  untouched, since a new ``Battle`` is built. A file over ``MAX_FILE_BYTES`` is
  refused before it is read.
* ``Autosave``: after every executed, undone or redone command, one line is
  appended to a journal in the user data folder (``app.user_dirs.autosave_dir``)
  and fsync'd; the journal starts with the whole battle. ``saved(path)`` after a
  save starts it afresh, ``close()`` on a clean close removes it, and
  ``set_aside()`` keeps it for a later restore when unsaved work is left without
  the question. The journal is locked while its window writes it.
* ``find_recoverable()`` lists the journals a crash, a kill or a set-aside left
  behind (never one another window still writes), and
  ``recover(entry)`` rebuilds the battle exactly as it was at its last command
  (``discard(entry)`` throws one away).

The format is docs/file-format.md; the pure codec is ``rules.battle.savefile``.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

from app.controller import BattleController, Redraw
from app.user_dirs import autosave_dir
from rules.battle.battle import Battle, BattleChange, ChangeKind
from rules.battle.savefile import (
    FILE_SUFFIX,
    MAX_FILE_BYTES,
    BattleFileError,
    SavingRulesetFinder,
    battle_from_document,
    decode_entry,
    encode_entry,
    entry_entered,
    parse_document,
    saved_types_for,
    write_battle,
)
from rules.battle.values import ValueCodec
from rules.core.dice import ScriptedDice
from rules.core.errors import DataError
from rules.sets.registry import get_ruleset, sheet_owner

__all__ = [
    "FILE_SUFFIX",
    "Autosave",
    "BattleFileError",
    "ControllerAutosave",
    "Recoverable",
    "discard",
    "find_recoverable",
    "install_autosave",
    "open_battle",
    "recover",
    "save_battle",
    "show_damaged_bundle",
    "write_atomically",
]

log = logging.getLogger(__name__)

JOURNAL_SUFFIX = ".hexfray-journal"
JOURNAL_FORMAT = "hexfray-autosave"
JOURNAL_VERSION = 1
WRITE_CHUNK = 64 * 1024

# Called after each chunk a save writes, with the bytes written so far (tests pause
# a save in the middle with it).
WriteProgress = Callable[[int], None]


def ruleset_types(battle: Battle) -> tuple[type, ...]:
    """The saved types of the battle's ruleset (its commands, choices, sheet, tracks)."""
    return get_ruleset(battle.initial.ruleset_key).saved_types


# --- atomic writes ---------------------------------------------------------------------


def write_atomically(path: Path, data: bytes, progress: WriteProgress | None = None) -> None:
    """Replace ``path`` with ``data`` all at once: a temporary file in the same
    folder is written, flushed and fsync'd, then renamed over ``path``
    (``os.replace``, atomic on one file system). Until the rename the old file
    is untouched; if anything fails, the temporary file is removed."""
    folder = path.parent
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            for start in range(0, len(data), WRITE_CHUNK):
                out.write(data[start : start + WRITE_CHUNK])
                if progress is not None:
                    out.flush()
                    progress(min(start + WRITE_CHUNK, len(data)))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; Windows has no directory handles)."""
    if os.name != "posix":
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


# --- save and open -----------------------------------------------------------------------


def save_battle(battle: Battle, path: Path, progress: WriteProgress | None = None) -> str:
    """Save the whole battle (log, dice and undo position) to ``path`` atomically.
    Returns the text written (``Autosave.saved`` starts its journal from it)."""
    text = write_battle(battle, ruleset_types(battle))
    write_atomically(path, text.encode("utf-8"), progress)
    return text


def read_limited(source: BinaryIO, what: str) -> bytes:
    """At most ``MAX_FILE_BYTES`` of a file; a larger one is refused unread."""
    data = source.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise BattleFileError(
            f"{what} is too large for a battle (over {MAX_FILE_BYTES // 2**20} MB)"
        )
    return data


def open_battle(path: Path, rulesets: SavingRulesetFinder = get_ruleset) -> Battle:
    """The battle saved in ``path``; ``BattleFileError`` names what is wrong."""
    try:
        with path.open("rb") as source:
            if os.fstat(source.fileno()).st_size > MAX_FILE_BYTES:
                raise BattleFileError(
                    f"{path.name} is too large for a battle (over {MAX_FILE_BYTES // 2**20} MB)"
                )
            data = read_limited(source, path.name)
    except OSError as exc:
        raise BattleFileError(f"{path.name} cannot be read: {exc.strerror or exc}") from None
    return battle_from_document(parse_document(data), rulesets=rulesets, sheet_owner=sheet_owner)


# --- the autosave journal ------------------------------------------------------------------


# A journal is locked by the window that writes it, so that a second Hexfray neither
# offers nor discards it. The lock is advisory on POSIX (flock); on Windows a byte far
# past the end is locked, because a locked byte there blocks no reader.
_WINDOWS_LOCK_OFFSET = 1 << 40


def _lock_journal(journal: BinaryIO) -> bool:
    """Take the journal's lock without waiting; False when another holds it."""
    descriptor = journal.fileno()
    try:
        if sys.platform == "win32":
            here = os.lseek(descriptor, 0, os.SEEK_CUR)
            os.lseek(descriptor, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            try:
                msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
            finally:
                os.lseek(descriptor, here, os.SEEK_SET)
        else:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def journal_in_use(path: Path) -> bool:
    """Whether a running Hexfray (this one included) is writing ``path``."""
    try:
        with path.open("rb") as journal:
            return not _lock_journal(journal)  # closing the file drops a lock taken here
    except OSError:
        return False


def new_journal_path(folder: Path) -> Path:
    """A new journal's name: when and by which process it was started, and a
    random part, so that two battles never share one."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return folder / f"battle-{stamp}-{os.getpid()}-{os.urandom(4).hex()}{JOURNAL_SUFFIX}"


class Autosave:
    """Appends every change of a battle to a journal, fsync'd line by line.

    The first line is a header with the whole battle as a battle file holds it
    (and the file it was saved to, if any); each later line is one change:
    ``{"executed": {"command": ..., "dice": [...]}}``, ``{"undone": n}`` or
    ``{"redone": n}`` (``n``: the index of the command in the log). Connect
    ``record`` to the battle's changes (``Battle.subscribe`` or the controller's
    ``battle_changed``); call ``restart`` when the battle is replaced."""

    def __init__(self, battle: Battle, folder: Path, saved_to: Path | None = None) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self._path = new_journal_path(folder)
        self._journal: BinaryIO | None = None
        self._codec = ValueCodec(saved_types_for(ruleset_types(battle)))
        self.restart(battle, saved_to)

    @property
    def path(self) -> Path:
        return self._path

    def restart(
        self,
        battle: Battle,
        saved_to: Path | None = None,
        text: str | None = None,
        *,
        unsaved: bool = False,
    ) -> None:
        """Start the journal afresh from ``battle`` as it is now (after a save, an
        open or a new battle). ``text`` is the battle's file text if it was just
        written (a save), so it is not encoded twice. ``unsaved``: the battle it
        starts from is itself unsaved work (a restored autosave), worth restoring
        even before its first change."""
        self._codec = ValueCodec(saved_types_for(ruleset_types(battle)))
        if text is None:
            text = write_battle(battle, ruleset_types(battle))
        header = {
            "journal": JOURNAL_FORMAT,
            "version": JOURNAL_VERSION,
            "saved_to": None if saved_to is None else str(saved_to),
            "unsaved": unsaved,
            "battle": json.loads(text),
        }
        line = json.dumps(header, sort_keys=True, ensure_ascii=False) + "\n"
        # The journal is rewritten in place, on the handle that holds its lock, so no
        # other window ever sees it unlocked. What it held before is never needed:
        # a restart follows a save, or a battle the GM saved, discarded or set aside.
        if self._journal is None:
            self._journal = self._path.open("wb")
            if not _lock_journal(self._journal):
                log.warning("the autosave journal %s could not be locked", self._path)
            _sync_folder(self._path.parent)
        else:
            self._journal.seek(0)
            self._journal.truncate()
        self._journal.write(line.encode("utf-8"))
        self._journal.flush()
        os.fsync(self._journal.fileno())

    def record(self, change: BattleChange) -> None:
        """Append one change and make it durable before the next command."""
        if self._journal is None:
            return
        entry: dict[str, object]
        if change.kind is ChangeKind.EXECUTED:
            entry = {
                "executed": encode_entry(
                    change.command, change.dice, self._codec, entered=change.dice_entered
                )
            }
        elif change.kind is ChangeKind.UNDONE:
            entry = {"undone": change.index}
        else:
            entry = {"redone": change.index}
        self._journal.write((json.dumps(entry, sort_keys=True) + "\n").encode("utf-8"))
        self._journal.flush()
        os.fsync(self._journal.fileno())

    def saved(self, battle: Battle, path: Path, text: str) -> None:
        """The battle was saved to ``path`` as ``text``: the journal starts again there."""
        self.restart(battle, path, text)

    def close(self) -> None:
        """A clean close: nothing to recover, the journal goes."""
        self._close_journal()
        self._path.unlink(missing_ok=True)

    def set_aside(self) -> Path:
        """Keep the journal as it is for a later restore (unsaved work that the GM
        left without being asked) and write the next one to a new file. Returns the
        journal kept."""
        kept = self._path
        self._close_journal()
        self._path = new_journal_path(kept.parent)
        return kept

    def _close_journal(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None


class ControllerAutosave(QObject):
    """The window's autosave: every change the controller reports
    (``battle_changed``: executed, undone, redone) goes to the journal, and a
    replaced battle (``battle_reset``: new, open, recover) starts it afresh.
    ``saved`` after Save and Save As; ``close`` on a clean close or quit.

    A journal that cannot be written (a full disk) is logged, never raised into
    the GM's click: the battle goes on, and the next change tries again."""

    def __init__(
        self, controller: BattleController, folder: Path, saved_to: Path | None = None
    ) -> None:
        super().__init__(controller)
        self._controller = controller
        self.journal = Autosave(controller.battle, folder, saved_to)
        controller.battle_changed.connect(self._on_changed)
        controller.battle_reset.connect(self._on_reset)

    def _on_changed(self, change: BattleChange, redraw: Redraw) -> None:
        try:
            self.journal.record(change)
        except OSError:
            log.warning("the autosave could not record a change", exc_info=True)

    def _on_reset(self) -> None:
        self.restart(None)

    def restart(
        self, saved_to: Path | None, text: str | None = None, *, unsaved: bool = False
    ) -> None:
        try:
            self.journal.restart(self._controller.battle, saved_to, text, unsaved=unsaved)
        except OSError:
            log.warning("the autosave could not start its journal", exc_info=True)

    def saved(self, path: Path, text: str) -> None:
        """The battle was saved to ``path`` as ``text`` (``save_battle`` returns it)."""
        self.restart(path, text)

    def close(self) -> None:
        self.journal.close()

    def set_aside(self) -> Path:
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
    controller: BattleController, saved_to: Path | None = None
) -> ControllerAutosave | None:
    """The window's autosave in the user data folder, removed when the program
    quits cleanly; None (logged) when the folder cannot be written."""
    try:
        autosave = ControllerAutosave(controller, autosave_dir(), saved_to)
    except OSError:
        log.warning("no autosave: the autosave folder cannot be written", exc_info=True)
        return None
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

    @property
    def worth_offering(self) -> bool:
        """Whether restoring it could bring back anything that is not in a file."""
        return self.changes > 0 or self.unsaved_start


def find_recoverable(
    folder: Path | None = None, *, excluding: ControllerAutosave | Autosave | None = None
) -> tuple[Recoverable, ...]:
    """The journals in the autosave folder, newest first (start-up offers these),
    but for those a running Hexfray still writes (this window's own, which
    ``excluding`` names even when the lock is unavailable, and another window's)."""
    where = folder if folder is not None else autosave_dir()
    own = excluding.journal if isinstance(excluding, ControllerAutosave) else excluding
    found: list[Recoverable] = []
    for journal in where.glob(f"*{JOURNAL_SUFFIX}"):
        if (own is not None and journal == own.path) or journal_in_use(journal):
            continue
        try:
            with journal.open("rb") as source:
                first = source.readline(MAX_FILE_BYTES + 1)
                changes = sum(1 for line in source if line.endswith(b"\n"))
            header = json.loads(first)
            saved_to = header.get("saved_to") if isinstance(header, dict) else None
            unsaved_start = isinstance(header, dict) and header.get("unsaved") is True
            modified = journal.stat().st_mtime
        except (OSError, ValueError):
            continue  # unreadable: recover() names the problem if the GM picks it
        found.append(
            Recoverable(
                journal,
                Path(saved_to) if isinstance(saved_to, str) else None,
                modified,
                changes,
                unsaved_start,
            )
        )
    found.sort(key=lambda r: r.modified, reverse=True)
    return tuple(found)


def recover(entry: Recoverable | Path, rulesets: SavingRulesetFinder = get_ruleset) -> Battle:
    """The battle of a journal at its last complete change. A last line cut short
    by the crash is left out; any other problem is a ``BattleFileError``."""
    path = entry.journal if isinstance(entry, Recoverable) else entry
    try:
        with path.open("rb") as source:
            data = read_limited(source, path.name)
    except OSError as exc:
        raise BattleFileError(f"{path.name} cannot be read: {exc.strerror or exc}") from None
    lines = data.split(b"\n")
    complete = lines[:-1]  # the part after the last newline was being written
    if not complete:
        raise BattleFileError("the autosave is empty")
    header = _journal_header(complete[0])
    battle = battle_from_document(
        parse_document(json.dumps(header["battle"])), rulesets=rulesets, sheet_owner=sheet_owner
    )
    codec = ValueCodec(saved_types_for(ruleset_types(battle)), battle.initial.grid)
    for number, line in enumerate(complete[1:], start=1):
        _replay_line(battle, codec, line, f"autosave change {number}")
    return battle


def _journal_header(line: bytes) -> dict[str, object]:
    try:
        header = json.loads(line)
    except ValueError:
        raise BattleFileError("the autosave is damaged (its first line)") from None
    if not isinstance(header, dict) or header.get("journal") != JOURNAL_FORMAT:
        raise BattleFileError("this is not a Hexfray autosave")
    if header.get("version") != JOURNAL_VERSION:
        raise BattleFileError(f"the autosave's version {header.get('version')!r} is not known")
    if not isinstance(header.get("battle"), dict):
        raise BattleFileError("the autosave holds no battle")
    return header


def _replay_line(battle: Battle, codec: ValueCodec, line: bytes, where: str) -> None:
    try:
        change = json.loads(line)
    except ValueError:
        raise BattleFileError(f"{where} is damaged") from None
    if not isinstance(change, dict) or len(change) != 1:
        raise BattleFileError(f"{where}: expected one change")
    ((kind, value),) = change.items()
    try:
        if kind == "executed":
            command, faces = decode_entry(value, codec, where)
            battle.execute(command, ScriptedDice(faces, entered=entry_entered(value)))
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
