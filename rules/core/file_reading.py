"""Reading a file whole: only a regular file, and never more than its reader's limit.

Every reader of a file Hexfray is handed (a battle file, an autosave journal, a
template, a character file, the settings) and the bundled tables read through
here, so that no file can hang the program or fill the memory:

* The file is looked at before it is opened, and opened without blocking
  (``O_NONBLOCK``: a named pipe opened for reading does not wait for a writer; on
  a regular file the flag changes nothing), and the open descriptor is looked at
  again (``fstat``), since the name may have changed in between. Anything but a
  regular file (a folder, a named pipe, a device such as ``/dev/zero``, a socket)
  is refused unread: "NAME is not a regular file (a named pipe)".
* A file larger than the reader's limit is refused before a byte is read, and at
  most the limit and one byte more are ever read, so a file that grows while it
  is read (or whose size the system does not know) is refused too.

A refusal is the reader's own error (``refuse`` makes it from the message); a file
that cannot be opened or read raises ``OSError`` as it comes.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a named pipe opened to be read must not hang
_NO_TERMINAL = getattr(os, "O_NOCTTY", 0)  # a terminal opened by mistake never becomes ours
READ_FLAGS = os.O_RDONLY | _BINARY | _NONBLOCK | _NO_TERMINAL

Refuse = Callable[[str], Exception]


def kind_of_file(mode: int) -> str | None:
    """What a file that is not a regular file is, in a few words; None for a
    regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "no kind of file Hexfray reads"


def size_text(size: int) -> str:
    """A size as a person reads it: "700 bytes", "12 KB", "1.5 MB", "64 MB"."""
    if size < 1024:
        return f"{size} bytes"
    if size < 1024 * 1024:
        return f"{size // 1024} KB"
    megabytes = size / (1024 * 1024)
    text = f"{megabytes:.1f}" if megabytes < 10 else f"{megabytes:.0f}"
    return f"{text.removesuffix('.0')} MB"


def not_regular(name: str, kind: str) -> str:
    return f"{name} is not a regular file ({kind})"


def too_large(name: str, size: int | None, limit: int, kind: str) -> str:
    """``size`` None: more than ``limit`` bytes were read (the file grew)."""
    how_large = f"over {size_text(limit)}" if size is None else size_text(size)
    return f"{name} is too large for {kind} ({how_large}; at most {size_text(limit)})"


def open_for_reading(path: Path, refuse: Refuse, *, name: str) -> int:
    """A descriptor of the regular file ``path``, opened without blocking (to be
    closed by the caller); ``refuse`` for anything else, ``OSError`` when it
    cannot be opened."""
    kind = kind_of_file(os.stat(path).st_mode)  # a device is never even opened
    if kind is not None:
        raise refuse(not_regular(name, kind))
    descriptor = os.open(path, READ_FLAGS)
    try:
        kind = kind_of_file(os.fstat(descriptor).st_mode)  # what was opened, in case it changed
        if kind is not None:
            raise refuse(not_regular(name, kind))
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def check_regular(path: Path, limit: int, refuse: Refuse, *, name: str, kind: str) -> None:
    """``refuse`` unless ``path`` is a regular file of at most ``limit`` bytes, for
    a reader that opens it itself (Qt's settings); nothing is read."""
    descriptor = open_for_reading(path, refuse, name=name)
    try:
        size = os.fstat(descriptor).st_size
    finally:
        os.close(descriptor)
    if size > limit:
        raise refuse(too_large(name, size, limit, kind))


def read_regular(
    path: Path, limit: int, refuse: Refuse, *, name: str, kind: str
) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file ``path`` of at most ``limit`` bytes, and what
    ``fstat`` said of it when it was opened. ``refuse`` turns the message for a
    file that is not a regular file, or too large for ``kind`` ("a battle file"),
    into the reader's error; ``name`` is the file as the message names it."""
    descriptor = open_for_reading(path, refuse, name=name)
    with os.fdopen(descriptor, "rb") as source:
        status = os.fstat(source.fileno())
        if status.st_size > limit:
            raise refuse(too_large(name, status.st_size, limit, kind))
        # The size it has, and one byte more to see whether it grew.
        data = source.read(status.st_size + 1)
        if len(data) > status.st_size:  # it grew, or its size is not known (/proc)
            data += source.read(limit + 1 - len(data))
    if len(data) > limit:
        raise refuse(too_large(name, None, limit, kind))
    return data, status


def read_regular_file(path: Path, limit: int, refuse: Refuse, *, name: str, kind: str) -> bytes:
    """``read_regular``'s bytes."""
    return read_regular(path, limit, refuse, name=name, kind=kind)[0]
