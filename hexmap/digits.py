"""Whole numbers written in digits, read from text a file or a GM gave.

``str.isdigit()`` passes characters that ``int()`` refuses ("²"), and ``int()``
itself takes any script's digits ("٣"), spaces, underscores and signs, and spends
time on (or refuses) text of thousands of digits. Every piece of digit text in
Hexfray (a reach, dice, a combatant's id number, a face typed in) is read here:
ASCII digits 0-9 only, at most ``max_digits`` of them, checked before converting.
"""

from __future__ import annotations

# 999,999,999: more than any count, face, reach, id number or seed a battle uses.
MAX_DIGITS = 9


def is_digits(text: str) -> bool:
    """Whether ``text`` is one or more ASCII digits 0-9 and nothing else."""
    # isdigit() alone passes "²" and "٣"; among ASCII characters it is 0-9 only.
    return text.isascii() and text.isdigit()


def parse_digits(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """The number ``text`` spells in ASCII digits; None for empty text, anything
    but the digits 0-9 (a sign, a space, "²", "٣") or more than ``max_digits``."""
    if len(text) > max_digits or not is_digits(text):
        return None
    return int(text)


def parse_signed_digits(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """As ``parse_digits``, after an optional leading "+" or "-": "+3", "-12", "7"."""
    sign = -1 if text[:1] == "-" else 1
    value = parse_digits(text[1:] if text[:1] in ("+", "-") else text, max_digits)
    return None if value is None else sign * value
