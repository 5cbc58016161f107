"""Text that a file can hold.

A JSON escape can spell half of a surrogate pair (``"\\ud800"``): Python keeps it in
a ``str``, but UTF-8, the encoding of every file Hexfray writes, cannot hold it. A
battle that took such a name in could never be saved again, and its autosave would
stop (issue 23). So every reader refuses such text where it enters, naming its
place in the file: the battle file and the template (``rules.battle.savefile``), the
character files a ruleset imports, the last New Battle set-up.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

UNWRITABLE = "holds half of a surrogate pair, which no file can hold"


def _unwritable(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _texts(data: object) -> Iterator[tuple[str, str]]:
    """Every key and text in parsed JSON ``data``, with its place, without recursion."""
    pending: list[tuple[object, str]] = [(data, "")]
    while pending:
        value, where = pending.pop()
        if isinstance(value, str):
            yield value, where
        elif isinstance(value, dict):
            for key, inner in value.items():
                place = f"{where}.{key}" if where else str(key)
                if isinstance(key, str):
                    yield key, place
                pending.append((inner, place))
        elif isinstance(value, list):
            pending.extend((inner, f"{where}[{i}]") for i, inner in enumerate(value))


# How a surrogate enters JSON text: as an escape ("\\ud800"), or as itself in a
# ``str`` that was never UTF-8.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF]")


def _may_hold_a_surrogate(source: str) -> bool:
    if "\\u" in source and _SURROGATE_ESCAPE.search(source) is not None:
        return True
    try:
        source.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def unwritable_text(data: object, source: str | None = None) -> str | None:
    """Where parsed JSON ``data`` holds a key or text that no file can hold, as a
    message ("profile.name holds half of a surrogate pair, ..."); None if nowhere.
    ``source``, the JSON text ``data`` was parsed from, if known: text without a
    surrogate or its escape needs no search of the data (a second for 30 MB)."""
    if source is not None and not _may_hold_a_surrogate(source):
        return None
    for text, where in _texts(data):
        if _unwritable(text):
            return f"{where or 'the text'} {UNWRITABLE}"
    return None
