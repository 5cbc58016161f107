"""A modifier to a roll, with its reason and the seed rule behind it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.core.citation import Citation
from rules.core.quick_init import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Modifier:
    value: int
    reason: str
    citation: Citation

    def __str__(self) -> str:
        return f"{self.value:+d} {self.reason} ({self.citation})"


def total(modifiers: Iterable[Modifier]) -> int:
    return sum(m.value for m in modifiers)
