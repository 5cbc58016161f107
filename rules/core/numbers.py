"""Numbers written as text in a file, bounded before Python converts them.

``Fraction("1e999999999")`` builds ten to the power of a billion, which takes
hours; ``int()`` of thousands of digits takes time or refuses. A number a battle
uses has a few digits, so every number text from a file (a fraction of a battle
file, a template or a table; every JSON number, through ``rules.core.strict_json``)
is checked here first: at most ``MAX_NUMBER_CHARS`` characters, ASCII digits only,
and a power of ten within ``MAX_EXPONENT`` (past what a float can hold, so that
every number a save writes reads back).
"""

from __future__ import annotations

import re
from fractions import Fraction

# A seed is at most 20 digits and a float 24 characters ("-2.2250738585072014e-308").
MAX_NUMBER_CHARS = 40
# Floats run from 1e-324 to 1e308: no number Hexfray writes has a larger exponent.
MAX_EXPONENT = 400

# ASCII only: Fraction() itself takes any script's digits ("٣/٤").
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE](?P<exponent>[+-]?[0-9]+))?")
_RATIO = re.compile(r"[+-]?[0-9]+/[0-9]+")


class NumberTextError(ValueError):
    """Number text that is no number, or one too long or too large to read. The
    message says which in a game master's words; the caller adds the place."""


def shown_number(text: str) -> str:
    """Number text for a message: the start of it only, as it may be a file's,
    of any length."""
    return text if len(text) <= 20 else f"{text[:17]}..."


def number_text_problem(text: str) -> str | None:
    """Why ``text`` (a number as JSON or a file writes it) is too long or too
    large to convert, or None when it is within the bounds. Whether it is a
    number at all is left to the reader."""
    if len(text) > MAX_NUMBER_CHARS:
        return (
            f"the number {shown_number(text)} is too long to read ({len(text):,} characters; "
            f"at most {MAX_NUMBER_CHARS})"
        )
    match = _DECIMAL.fullmatch(text)
    exponent = match.group("exponent") if match is not None else None
    if exponent is not None and abs(int(exponent)) > MAX_EXPONENT:
        return f"the number {text} is too large to read (a power of ten beyond {MAX_EXPONENT})"
    return None


def parse_fraction(text: str) -> Fraction:
    """An exact number written as text: "3/2", "-2", "0.25", "1e-3". Space around
    it is allowed, ASCII digits only. ``NumberTextError`` for anything else, for
    text too long or too large (``number_text_problem``) and for a zero
    denominator, before anything is converted."""
    number = text.strip()
    problem = number_text_problem(number)
    if problem is not None:
        raise NumberTextError(problem)
    if not (_DECIMAL.fullmatch(number) or _RATIO.fullmatch(number)):
        raise NumberTextError(
            f'expected a number or a fraction like "3/2", got "{shown_number(number)}"'
        )
    try:
        return Fraction(number)
    except ZeroDivisionError:
        raise NumberTextError(f"the fraction {number} divides by zero") from None
