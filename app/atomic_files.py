"""Files written whole or not at all, and what a file held when it was last read or written.

* ``write_atomically(path, data)``: the data goes to a hidden temporary file beside
  the target (``.NAME.<8 random characters>.tmp``), is fsync'd and renamed over the
  target, and the folder is fsync'd. Until the rename the old file is untouched; a
  failure removes the temporary file. The new file keeps the old one's mode (a new
  one gets the user's umask's mode), and a symbolic link is written through: its
  target gets the data, the link stays.
* ``publish(...)``: the same, keeping the new file open and locked (the autosave
  journal goes on appending to it).
* Leftovers: the temporary file of a writer killed before its rename stays behind.
  Every write first removes the leftovers of earlier writes of the same file
  (``remove_leftovers``); the autosave folder is cleared of its own at start. A
  temporary file is locked while it is written, so a write in progress (another
  window's) is never taken for a leftover.
* ``DiskStamp``: what a file held when this window last read or wrote it, so that a
  save can tell whether someone else has written it since (``changed_on_disk``).
"""

from __future__ import annotations

import logging
import os
import stat
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from rules.core.file_reading import READ_FLAGS, read_regular

if sys.platform == "win32":
    import msvcrt
else:
    import fcntl

log = logging.getLogger(__name__)

TEMPORARY_SUFFIX = ".tmp"
WRITE_CHUNK = 64 * 1024
# The random part of a temporary file's name: 8 characters, as tempfile.mkstemp
# (which earlier Hexfrays used) makes them, so its leftovers are recognised too.
_RANDOM_LENGTH = 8
_RANDOM_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation

# Called after each chunk a write writes, with the bytes written so far (tests pause
# or stop a write in the middle with it).
WriteProgress = Callable[[int], None]


# --- locks ------------------------------------------------------------------------------

# The lock is advisory on POSIX (flock); on Windows a byte far past the end is
# locked, because a locked byte there blocks no reader.
_WINDOWS_LOCK_OFFSET = 1 << 40


def lock_file(descriptor: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False when another
    holds it. Closing the file drops the lock."""
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


# --- what a file held -----------------------------------------------------------------------


@dataclass(frozen=True)
class DiskStamp:
    """What a file held when this window last read or wrote it: a fingerprint of
    its bytes (``fingerprint``), and its identity (device, inode, size,
    modification time in ns) that tells quickly that it is unchanged.
    ``identity`` None: compare the bytes."""

    fingerprint: str
    identity: tuple[int, int, int, int] | None = None


def _identity(status: os.stat_result) -> tuple[int, int, int, int]:
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def fingerprint(data: bytes) -> str:
    """The bytes' length, CRC-32 and Adler-32: what tells another program's save
    from ours (a change on disk is no attack to guard against), with zlib, which
    the window has loaded already (docs/packaging.md: no module for start-up that
    the first frame does not need)."""
    return f"{len(data)}-{zlib.crc32(data):08x}-{zlib.adler32(data):08x}"


class _NotStamped(Exception):
    """A file ``file_stamp`` does not read: not a regular file, or too large."""


def file_stamp(path: Path, limit: int) -> DiskStamp | None:
    """What ``path`` holds now; None when it is not a regular file of at most
    ``limit`` bytes that can be read (``rules.core.file_reading``)."""
    try:
        data, status = read_regular(path, limit, _NotStamped, name=path.name, kind="a stamp")
    except (OSError, _NotStamped):
        return None
    return DiskStamp(fingerprint(data), _identity(status))


def changed_on_disk(path: Path, known: DiskStamp | None, limit: int) -> bool:
    """Whether a save to ``path`` would replace something other than what
    ``known`` says it held (None: nothing is known of it). A missing file has
    nothing to lose; a file that cannot be read counts as changed."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    if known is None:
        return True
    if known.identity == _identity(status):
        return False
    now = file_stamp(path, limit)
    return now is None or now.fingerprint != known.fingerprint


# --- leftovers ------------------------------------------------------------------------------


def temporary_name(target_name: str) -> str:
    return f".{target_name}.{os.urandom(_RANDOM_LENGTH // 2).hex()}{TEMPORARY_SUFFIX}"


def temporary_target(name: str) -> str | None:
    """The name of the file whose temporary file ``name`` is, or None when ``name``
    is none of ours (``.TARGET.<8 characters>.tmp``)."""
    if not name.startswith(".") or not name.endswith(TEMPORARY_SUFFIX):
        return None
    target, _, random_part = name[1 : -len(TEMPORARY_SUFFIX)].rpartition(".")
    if not target or len(random_part) != _RANDOM_LENGTH:
        return None
    if not set(random_part) <= _RANDOM_CHARACTERS:
        return None
    return target


def remove_leftovers(folder: Path, belongs: Callable[[str], bool]) -> int:
    """Remove the temporary files in ``folder`` that killed writes left behind,
    those whose target's name ``belongs``; a temporary file still being written
    (locked) stays. Returns how many went; a folder that cannot be read is left."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        target = temporary_target(entry.name)
        if target is None or not belongs(target):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            if _remove_unless_locked(Path(entry.path)):
                removed += 1
        except OSError:
            log.warning("a leftover temporary file could not be removed", exc_info=True)
    if removed:
        log.info("removed %d leftover temporary files in %s", removed, folder)
    return removed


def _remove_unless_locked(path: Path) -> bool:
    if sys.platform == "win32":  # a file another program has open cannot be removed there
        path.unlink()
        return True
    descriptor = os.open(path, READ_FLAGS)  # a named pipe put there must not hang
    try:
        if not lock_file(descriptor):
            return False
        # Removed while locked: its writer, if it has just made it, finds it gone
        # once it has the lock, and makes another (``_create_temporary``).
        path.unlink()
        return True
    finally:
        os.close(descriptor)


# --- atomic writes ----------------------------------------------------------------------


def _existing_mode(target: Path) -> int | None:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        return None


def _create_temporary(target: Path, mode: int) -> tuple[int, Path]:
    """A new temporary file beside ``target``, open for writing and locked."""
    for _ in range(100):
        temporary = target.with_name(temporary_name(target.name))
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY, mode)
        except FileExistsError:
            continue
        # A clean-up that took it for a leftover holds its lock or has removed it.
        if lock_file(descriptor) and os.fstat(descriptor).st_nlink > 0:
            return descriptor, temporary
        os.close(descriptor)
    raise FileExistsError(f"no free name for a temporary file in {target.parent}")


def _write_all(out: BinaryIO, data: bytes, progress: WriteProgress | None) -> None:
    for start in range(0, len(data), WRITE_CHUNK):
        chunk = memoryview(data)[start : start + WRITE_CHUNK]
        while chunk:
            written = out.write(chunk)
            chunk = chunk[written or 0 :]
        if progress is not None:
            progress(min(start + WRITE_CHUNK, len(data)))


def publish(
    path: Path, data: bytes, progress: WriteProgress | None = None, *, keep_open: bool = False
) -> tuple[BinaryIO | None, tuple[int, int, int, int]]:
    """Replace ``path`` (through a symbolic link: its target) with ``data``, all at
    once. Returns the new file, open for appending and locked when ``keep_open``
    (unbuffered: a failed write leaves nothing to be written later), and its
    identity."""
    target = Path(os.path.realpath(path))
    folder = target.parent
    remove_leftovers(folder, lambda name: name == target.name)
    mode = _existing_mode(target)
    # A new file: the mode the user's umask gives. An existing one keeps its own;
    # until then the temporary file is no more open than the old file was.
    descriptor, temporary = _create_temporary(target, 0o666 if mode is None else mode & 0o666)
    try:
        out: BinaryIO = os.fdopen(descriptor, "wb", buffering=0)
    except BaseException:
        os.close(descriptor)
        temporary.unlink(missing_ok=True)
        raise
    try:
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(out.fileno(), mode)
        _write_all(out, data, progress)
        os.fsync(out.fileno())
        identity = _identity(os.fstat(out.fileno()))
        if sys.platform == "win32":
            out.close()  # Windows renames no open file
        os.replace(temporary, target)
    except BaseException:
        out.close()
        temporary.unlink(missing_ok=True)
        raise
    sync_folder(folder)
    if not keep_open:
        out.close()
        return None, identity
    if sys.platform == "win32":
        out = target.open("r+b", buffering=0)
        out.seek(0, os.SEEK_END)
        if not lock_file(out.fileno()):
            log.warning("%s could not be locked", target)
    return out, identity


def write_atomically(path: Path, data: bytes, progress: WriteProgress | None = None) -> DiskStamp:
    """Replace ``path`` with ``data`` all at once (``publish``); returns what it
    holds now."""
    _, identity = publish(path, data, progress)
    return DiskStamp(fingerprint(data), identity)


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; Windows has no folder handles). A
    file system that cannot sync a folder is logged: the file itself is written."""
    if os.name != "posix":
        return
    try:
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
    except OSError:
        log.warning("the folder %s could not be synced", folder, exc_info=True)
