"""The 3d6 roll-under success roll and its criticals.

Seed 000 takes the success roll for granted, so the base roll follows the
published 3rd-edition basics of the family (cited ``BASE_SUCCESS_ROLL`` and
``BASE_CRITICALS``):

* roll 3d6; the roll succeeds if the total is at most the effective skill;
* 3 and 4 always succeed and are critical successes; 5 is a critical success at
  effective skill 15 or more, 6 at 16 or more;
* 17 and 18 always fail; 18 is always a critical failure, 17 is a critical failure
  at effective skill 15 or less and a plain failure above; any roll that fails by
  10 or more is a critical failure.

Defense rolls use seed 000's own criticals instead (``RollKind.DEFENSE``), and
only those: "000 CRITICAL HITS ON DEFENSE ROLLS" makes a 3 or 4 (only) a critical
success, "000 CRITICAL MISSES ON DEFENSE ROLLS" makes 17 and 18 critical failures
at any score, and no other defense roll fails critically - not even one that
fails by 10 or more, so that a desperate parry at a low score is a plain failure,
not a disaster.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from rules.core.citation import BASE_CRITICALS, BASE_SUCCESS_ROLL, Citation, cite
from rules.core.dice import DiceSource, distribution, roll
from rules.core.quick_init import quick_init


class Outcome(Enum):
    CRITICAL_SUCCESS = "critical success"
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical failure"

    def __init__(self, value: str) -> None:
        # Fixed for each outcome, and read for every roll: plain attributes, as a
        # property would look two members up on the class each time.
        self.is_success = value in ("critical success", "success")
        self.is_critical = value in ("critical success", "critical failure")


class RollKind(Enum):
    """Which critical thresholds apply."""

    STANDARD = "standard"  # skill, attribute and attack rolls: the base rules
    DEFENSE = "defense"  # active defense rolls: seed 000's criticals

    @property
    def citations(self) -> tuple[Citation, ...]:
        if self is RollKind.DEFENSE:
            return (
                BASE_SUCCESS_ROLL,
                cite("000", "CRITICAL HITS ON DEFENSE ROLLS"),
                cite("000", "CRITICAL MISSES ON DEFENSE ROLLS"),
            )
        return (BASE_SUCCESS_ROLL, BASE_CRITICALS)


def judge(total: int, target: int, kind: RollKind = RollKind.STANDARD) -> Outcome:
    """The outcome of a 3d6 total rolled against ``target``."""
    if total <= 4:
        return Outcome.CRITICAL_SUCCESS
    if kind is RollKind.STANDARD:
        if (total == 5 and target >= 15) or (total == 6 and target >= 16):
            return Outcome.CRITICAL_SUCCESS
        if total == 18 or (total == 17 and target <= 15):
            return Outcome.CRITICAL_FAILURE
        if total >= target + 10:
            return Outcome.CRITICAL_FAILURE
    elif total >= 17:
        return Outcome.CRITICAL_FAILURE
    if total >= 17 or total > target:
        return Outcome.FAILURE
    return Outcome.SUCCESS


@quick_init
@dataclass(frozen=True, slots=True)
class SuccessRoll:
    """A rolled 3d6 success roll. ``margin`` is target minus total: the margin of
    success when >= 0, of failure when negative."""

    target: int
    dice: tuple[int, ...]
    total: int
    outcome: Outcome
    margin: int
    kind: RollKind = RollKind.STANDARD

    @property
    def succeeded(self) -> bool:
        return self.outcome.is_success

    def __str__(self) -> str:
        faces = "+".join(str(d) for d in self.dice)
        return f"{faces} = {self.total} vs {self.target}: {self.outcome.value}"


@dataclass(frozen=True, slots=True)
class OutcomeAt:
    """What a success roll is read as: its outcome at ``target`` (compared by
    value, so that an enumerating source groups the totals once per target)."""

    target: int
    kind: RollKind = RollKind.STANDARD

    def __call__(self, total: int) -> Outcome:
        return judge(total, self.target, self.kind)


@functools.cache
def outcome_at(target: int, kind: RollKind) -> OutcomeAt:
    """``OutcomeAt(target, kind)``, made once per target: every success roll passes
    one, and only an enumerating source reads it."""
    return OutcomeAt(target, kind)


def success_roll(
    target: int,
    rng: DiceSource,
    kind: RollKind = RollKind.STANDARD,
    *,
    total_read: bool = False,
    what: str | None = None,
) -> SuccessRoll:
    """Roll 3d6 against ``target`` (any integer; 3 and 4 succeed even below 3).

    The roll tells the dice source that it is read as its outcome, unless
    ``total_read`` (the caller reads the total too, as the attack roll does for a
    near miss): odds that enumerate a step branch on the four outcomes of such a
    roll, not on its sixteen totals (``rules.core.enumerate``, ``by_reads``).
    ``what``: what is rolled, for dice entered at the table (``rules.core.dice.roll``)."""
    dice = roll(3, rng, reads=None if total_read else outcome_at(target, kind), what=what)
    total = sum(dice)
    return SuccessRoll(target, dice, total, judge(total, target, kind), target - total, kind)


@functools.cache
def outcome_probabilities(
    skill: int, kind: RollKind = RollKind.STANDARD
) -> Mapping[Outcome, Fraction]:
    """Exact probability of each outcome, by enumerating the 216 ways 3d6 fall."""
    result = dict.fromkeys(Outcome, Fraction(0))
    for total, p in distribution(3).items():
        result[judge(total, skill, kind)] += p
    return MappingProxyType(result)


def success_probability(skill: int, kind: RollKind = RollKind.STANDARD) -> Fraction:
    probs = outcome_probabilities(skill, kind)
    return probs[Outcome.CRITICAL_SUCCESS] + probs[Outcome.SUCCESS]
