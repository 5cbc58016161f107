"""Domain errors of the rules layer. All subclass ValueError so callers can treat
bad input uniformly (as python-chess does with its IllegalMoveError)."""

from __future__ import annotations

import re

# A message about a file is shown in a dialog, printed on one line and logged: at most
# this long, with no line breaks or other control characters (a key of the file, quoted
# in a message, may hold any of them).
MAX_MESSAGE = 500
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class RulesError(ValueError):
    """Base of every rules-layer error."""


class IllegalCommandError(RulesError):
    """A battle command that cannot be applied to the current battle state."""


class IllegalAttackError(RulesError):
    """An attack or defense that the rules do not allow (e.g. blocking with no shield)."""


def one_line(message: str) -> str:
    """``message`` as one line of text any file can hold: control characters and
    halves of surrogate pairs written as escapes (``\\n``, ``\\ud800``), cut to
    ``MAX_MESSAGE`` characters."""
    line = _CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode(), message)
    line = line.encode("utf-8", "backslashreplace").decode("utf-8")
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 1] + "…"


class DataError(RulesError):
    """A malformed asset table (weapons, shields, armor, battle files). Its message
    names the problem for the GM, and quotes the file: it is kept to one line of
    printable text (``one_line``), whatever the file holds."""

    def __init__(self, message: object = "", *args: object) -> None:
        super().__init__(one_line(str(message)), *args)
