"""The base rules' check: 2d6 plus bonuses, a success at or above the difficulty
(``Check``); an opposed defense (dodge, block) must exceed the attack's total."""

from __future__ import annotations

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


def check(
    dice: DiceSource, what: str, bonus: int, against: int, *, beat: bool = False, whose: str = ""
) -> CheckRoll:
    """Roll a 2d6 check through ``dice``; ``whose`` check it is, for dice entered at
    the table ("Bruiser's attack"; the odds pass none)."""
    faces = roll(2, dice, what=f"{whose}'s {what}" if whose else what, adds=bonus)
    return CheckRoll(what, faces, bonus, against, beat)
