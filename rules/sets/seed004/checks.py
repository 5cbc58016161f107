"""The base rules' check: 2d6 plus bonuses, a success at or above the difficulty
(``Check``); an opposed defense (dodge, block) must exceed the attack's total."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll

CHECK_CITATION = Citation("base-004", "checks: 2d6 plus bonuses against a difficulty")


@dataclass(frozen=True, slots=True)
class CheckRoll:
    """One 2d6 check: its faces, bonus and total, what it had to reach and
    whether it did (``beat``: a total above ``against`` was needed, an opposed
    defense; else at least ``against``, a difficulty)."""

    what: str
    faces: tuple[int, ...]
    bonus: int
    against: int
    beat: bool = False

    @property
    def total(self) -> int:
        return sum(self.faces) + self.bonus

    @property
    def succeeded(self) -> bool:
        return self.total > self.against if self.beat else self.total >= self.against

    def text(self) -> str:
        faces = "+".join(map(str, self.faces))
        bonus = f"{self.bonus:+d}" if self.bonus else ""
        need = " (must beat it)" if self.beat else ""
        result = "success" if self.succeeded else "failure"
        return f"{self.total} ({faces}{bonus}) vs {self.against}{need}: {result}"


@dataclass(frozen=True, slots=True)
class SucceedsAt:
    """What a check is read as when only its success matters: 2d6 + ``bonus``
    reaching (or, ``beat``, passing) ``against``. Compared by value, so that an
    enumerating source groups a check's totals once per such reading."""

    bonus: int
    against: int
    beat: bool

    def __call__(self, total: int) -> bool:
        reached = total + self.bonus
        return reached > self.against if self.beat else reached >= self.against


@functools.cache
def _succeeds_at(bonus: int, against: int, beat: bool) -> SucceedsAt:
    return SucceedsAt(bonus, against, beat)


def check(
    dice: DiceSource,
    what: str,
    bonus: int,
    against: int,
    *,
    beat: bool = False,
    whose: str = "",
    success_read: bool = False,
) -> CheckRoll:
    """Roll a 2d6 check through ``dice``; ``whose`` check it is, for dice entered at
    the table ("Bruiser's attack"; the odds pass none). ``success_read``: the
    caller reads the check through its success alone (not its total), which lets
    the exact odds branch twice on it instead of eleven times
    (``rules.core.enumerate``, ``by_reads``); no face changes."""
    reads = _succeeds_at(bonus, against, beat) if success_read else None
    faces = roll(2, dice, reads=reads, what=f"{whose}'s {what}" if whose else what, adds=bonus)
    return CheckRoll(what, faces, bonus, against, beat)
