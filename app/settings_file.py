"""Whether Qt may read a settings file: the values it spells in its own syntax.

Qt's INI format writes some values in a syntax of its own, and ``@Variant(...)``
holds the serialized bytes of any Qt type, which Qt reads without limits: one line
of forty bytes asking for a list of two billion values makes Qt end the program
(``std::bad_alloc``, then abort) as soon as the file is read, so at every start.
Hexfray never writes that syntax (its settings are text, numbers, true or false,
lists of text and ``@ByteArray``), so a file that holds it, even spelled with Qt's
escapes (``\\x40`` or ``\\100`` for ``@``, quoted, inside a list), is not one Hexfray
wrote: ``app.user_dirs.settings`` never hands it to Qt. A recent file's path that
holds ``@Variant(`` counts too: a rare price for never reading Qt's variants.
"""

from __future__ import annotations

import re

_VARIANT = "@Variant("
# Qt's INI escapes: a hexadecimal or octal code for any character, or a character
# after a backslash (its value taken modulo 2**16, as Qt keeps one UTF-16 unit).
_ESCAPE = re.compile(r"\\(?:x([0-9A-Fa-f]+)|([0-7]+)|(.))", re.DOTALL)


def _unescaped(text: str) -> str:
    """``text`` with Qt's INI escapes replaced by the characters they stand for."""

    def character(found: re.Match[str]) -> str:
        hexadecimal, octal, other = found.groups()
        if hexadecimal is not None:  # modulo 2**16 only the last four digits count
            return chr(int(hexadecimal[-4:], 16))
        if octal is not None:
            return chr(int(octal[-6:], 8) % 0x10000)
        return str(other)

    return _ESCAPE.sub(character, text)


def qt_variant_problem(data: bytes) -> str | None:
    """Why Qt must not read settings of these bytes (None: it may)."""
    if _VARIANT in _unescaped(data.decode("latin-1")):
        return "it holds values in Qt's variant syntax, which Hexfray never writes"
    return None
