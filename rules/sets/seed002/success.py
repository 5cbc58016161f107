"""The d100 skill roll and its success levels (OpenQuest SRD, cited "base-002"):

* roll 1d100 (01-00, 00 read as 100) against the skill in percent;
* a roll of at most a tenth of the skill, rounded up, is a critical;
* a roll of at most the skill is a success; 01-05 always succeed, 96-99 always fail;
* 00 is a fumble, whatever the skill;
* a row that makes a result automatic (a helpless target in close combat, a
  hurricane) is that result without a roll.

``level_probabilities`` is the exact distribution by counting the 100 faces."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.sets.seed002.tables import BASE, Automatic, Level

BASE_SKILL_ROLL = Citation(BASE, "The basic skill test: 1d100 at or under the skill")
BASE_CRITICAL = Citation(BASE, "Critical success: a tenth of the skill, rounded up")
BASE_FUMBLE = Citation(BASE, "Fumble: a roll of 00")
ALWAYS_SUCCEEDS = 5  # 01-05
ALWAYS_FAILS = 96  # 96-99 (00 fumbles)
FUMBLE_FACE = 100


def critical_threshold(skill: int) -> int:
    return -(-skill // 10) if skill > 0 else 0


def level_of(face: int, skill: int) -> Level:
    """The success level of a d100 ``face`` (1-100) at ``skill`` percent."""
    if face == FUMBLE_FACE:
        return Level.FUMBLE
    if face <= critical_threshold(skill) and face < ALWAYS_FAILS:
        return Level.CRITICAL
    if face <= ALWAYS_SUCCEEDS or (face <= skill and face < ALWAYS_FAILS):
        return Level.SUCCESS
    return Level.FAILURE


@dataclass(frozen=True, slots=True)
class PercentileRoll:
    """One skill roll: the skill it was made at, the face (None: no roll, the
    result was automatic) and its level."""

    skill: int
    face: int | None
    level: Level
    automatic: Automatic | None = None


def roll_skill(
    skill: int,
    dice: DiceSource,
    what: str,
    automatic: Automatic | None = None,
    *,
    read: bool = False,
) -> PercentileRoll:
    """The roll at ``skill``; ``read``: its caller reads it through its level
    alone (the odds may branch once per level, ``rules.core.enumerate``)."""
    if automatic is Automatic.CRITICAL:
        return PercentileRoll(skill, None, Level.CRITICAL, automatic)
    if automatic is Automatic.FAILURE:
        return PercentileRoll(skill, None, Level.FAILURE, automatic)
    reads = _level_at(skill) if read else None
    (face,) = roll(1, dice, 100, what=what, reads=reads)
    return PercentileRoll(skill, face, level_of(face, skill))


@functools.cache
def _level_at(skill: int) -> Callable[[int], Level]:
    """The level of a face at ``skill``: one function per skill, so that the
    enumeration's groups of faces by level (cached by the function) are made
    once per skill rather than on every roll."""
    return functools.partial(_level_of_face, skill)


def _level_of_face(skill: int, face: int) -> Level:
    return level_of(face, skill)


def level_probabilities(skill: int, automatic: Automatic | None = None) -> dict[Level, Fraction]:
    """The exact chance of each level, by counting the faces 1..100."""
    out = dict.fromkeys(Level, Fraction(0))
    if automatic is Automatic.CRITICAL:
        out[Level.CRITICAL] = Fraction(1)
        return out
    if automatic is Automatic.FAILURE:
        out[Level.FAILURE] = Fraction(1)
        return out
    for face in range(1, 101):
        out[level_of(face, skill)] += Fraction(1, 100)
    return out
