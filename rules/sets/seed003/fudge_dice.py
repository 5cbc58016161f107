"""FUDGE dice (base rules): 4dF, four dice each showing -1, 0 or +1, added to a
trait's level on the ladder. Each die goes through the ``DiceSource`` as a
three-sided die, 1 for "-", 2 for a blank, 3 for "+" (at the table: a Fudge die,
or a d6 read 1-2 "-", 3-4 blank, 5-6 "+"), so the roll's total tells its result
and the odds enumerate it by totals."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.sets.components.fudge_locations import ladder_label

BASE_DICE = Citation("base-003", "Fudge dice (4dF)")
FUDGE_DICE = 4
FUDGE_SIDES = 3  # face 1 is "-", 2 a blank, 3 "+"


def face_value(face: int) -> int:
    """A Fudge die's value from its face 1..3."""
    return face - 2


@dataclass(frozen=True, slots=True)
class FudgeRoll:
    """One trait roll: the trait's level with its modifiers (``level``), the four
    faces (1..3) and the result on the ladder (``level`` + the dice)."""

    level: int
    faces: tuple[int, ...]

    @property
    def dice(self) -> int:
        return sum(face_value(f) for f in self.faces)

    @property
    def result(self) -> int:
        return self.level + self.dice

    def __str__(self) -> str:
        signs = "".join("-0+"[f - 1] for f in self.faces)
        return (
            f"{ladder_label(self.level)} {signs} = {ladder_label(self.result)} ({self.result:+d})"
        )


def roll_fudge(
    level: int, dice: DiceSource, what: str, *, at_least: int | None = None
) -> FudgeRoll:
    """Roll 4dF for a trait at ``level`` (with its modifiers). ``at_least``: the
    roll is read only as whether its result reaches that (``rules.core.dice.roll``'s
    ``reads``: the exact odds branch on that alone)."""
    reads = None if at_least is None else _reaches(at_least - level)
    faces = roll(
        FUDGE_DICE, dice, FUDGE_SIDES, what=f"{what} (4dF: 1 -, 2 blank, 3 +)", reads=reads
    )
    return FudgeRoll(level, faces)


@functools.cache
def _reaches(dice_needed: int) -> Callable[[int], Hashable]:
    """Whether a 4dF total of faces (4..12) shows at least ``dice_needed`` on the
    dice; one function per number, so the enumeration's groups are kept once."""

    def reached(total: int) -> Hashable:
        return total - FUDGE_DICE * 2 >= dice_needed

    return reached


@functools.cache
def fudge_distribution() -> Mapping[int, Fraction]:
    """The exact distribution of 4dF, by every one of the 81 ways the dice fall:
    -4 and +4 1/81, -3 and +3 4/81, -2 and +2 10/81, -1 and +1 16/81, 0 19/81."""
    counts: dict[int, int] = {}
    for faces in itertools.product((-1, 0, 1), repeat=FUDGE_DICE):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    total = FUDGE_SIDES**FUDGE_DICE
    return MappingProxyType({k: Fraction(n, total) for k, n in sorted(counts.items())})


@functools.cache
def opposed_distribution(difference: int) -> Mapping[int, Fraction]:
    """The relative degree of an opposed roll whose two levels differ by
    ``difference`` (attacker's minus defender's): ``difference`` + 4dF - 4dF,
    over the 81 x 81 outcomes."""
    dist = fudge_distribution()
    out: dict[int, Fraction] = {}
    for a, pa in dist.items():
        for d, pd in dist.items():
            key = difference + a - d
            out[key] = out.get(key, Fraction(0)) + pa * pd
    return MappingProxyType(dict(sorted(out.items())))
