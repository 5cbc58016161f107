"""Exact distributions of whatever the dice decide, by running the deciding code
itself on every way the dice can fall.

``exact_outcomes(run)`` calls ``run(dice)`` with an enumerating ``DiceSource``
again and again, depth first: each run follows a path of choices already made,
and the first die asked for beyond the path ends that run and opens one branch
per face. Every run that finishes is one way the dice can fall; its result is
weighed by the chance of the faces on its path. The result is a read-only
mapping result -> ``Fraction`` summing to exactly 1.

So the odds of a step of the rules and its resolution are one piece of code: the
resolver rolls the step on seeded or recorded dice, the odds run the same step
here. A caller memoises each step on its inputs (they are small and hashable),
which keeps whole attacks cheap: the steps of an attack are independent given
their inputs.

With ``by_totals`` (the default) a roll of several dice through
``rules.core.dice.roll`` branches once per total, weighed by its number of ways,
with one representative set of faces: exact whenever the step reads a roll only
through its total, as every roll of the rules does (3d6 against a target, damage
dice, table rolls). ``by_totals=False`` branches on every face of every die; the
tests use it to confirm that the totals suffice.

With ``by_reads`` a roll that says what its caller reads of it (``roll(...,
reads=...)``: a success roll reads its outcome at its target) branches once per
value of that, with the faces of its lowest total: exact when the run reads
such rolls through that value only (an HT roll whose success alone matters). A
step enumerated so is tested against the same step enumerated by totals.

With ``odds_reads`` a merged step that says what an attack's exact odds read of
it (its ``odds_reads``: never where a piece lands) branches once per value of
that rather than of its ``reads``: exact when the run's result reads nothing
else of the step (``rules.battle.attack_odds``: how the attack lands, the
defender's injury and standing). Tested against the same odds without it.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Generic, TypeVar

from rules.core.dice import Attempt, MergedStep, RecordingDice, distribution
from rules.core.errors import RulesError

__all__ = ["EnumeratingDice", "exact_outcomes", "representative_faces", "sum_ways"]

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")

MERGED_STEPS_KEPT = 2048  # merged steps' distributions kept (one per distinct input)


class _MoreDice(BaseException):
    """The run asked for a die beyond its path: branch ``width`` ways here.

    A ``BaseException`` so that no ``except Exception`` in the rules can swallow it."""

    def __init__(self, width: int) -> None:
        super().__init__(width)
        self.width = width


def representative_faces(count: int, sides: int, total: int) -> tuple[int, ...]:
    """One set of ``count`` faces of ``sides``-sided dice showing ``total``
    (the lowest dice first, each as small as the rest allows)."""
    faces: list[int] = []
    left = total
    for i in range(count):
        rest = count - i - 1
        face = max(1, left - rest * sides)
        faces.append(face)
        left -= face
    return tuple(faces)


@functools.cache
def _totals(count: int, sides: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The branches of one roll by totals: representative faces and their number
    of ways (out of ``sides ** count``)."""
    ways = sides**count
    return tuple(
        (representative_faces(count, sides, total), int(p * ways))
        for total, p in distribution(count, sides).items()
    )


@functools.cache
def _by_reads(
    count: int, sides: int, reads: Callable[[int], Hashable]
) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The branches of one roll by what ``reads`` makes of its total: the faces
    of the lowest total with that value, and the ways of all of them. Kept per
    reading (a reading that compares by value, such as a success roll's target,
    is grouped once)."""
    groups: dict[Hashable, tuple[tuple[int, ...], int]] = {}
    for faces, ways in _totals(count, sides):
        value = reads(sum(faces))
        known = groups.get(value)
        groups[value] = (faces, ways) if known is None else (known[0], known[1] + ways)
    return tuple(groups.values())


class EnumeratingDice(RecordingDice):
    """Follows ``path``, one branch index per choice; the first choice beyond it
    stops the run (``exact_outcomes`` then tries every branch). ``weight`` is the
    chance of the faces given so far."""

    def __init__(
        self,
        path: tuple[int, ...],
        *,
        by_totals: bool = True,
        by_reads: bool = False,
        merge: bool | None = None,
        odds_reads: bool = False,
    ) -> None:
        super().__init__()
        self._path = path
        self._by_totals = by_totals
        self._by_reads = by_reads
        self._merge = by_reads if merge is None else merge
        self._odds_reads = odds_reads
        self.used = 0
        # The chance of the faces given so far, kept as whole numbers: ``ways``
        # out of ``out_of`` (no Fraction is reduced per die).
        self.ways = 1
        self.out_of = 1

    @property
    def weight(self) -> Fraction:
        return Fraction(self.ways, self.out_of)

    def _choose(self, width: int) -> int:
        if self.used >= len(self._path):
            raise _MoreDice(width)
        index = self._path[self.used]
        self.used += 1
        return index

    def _next(self, a: int, b: int) -> int:
        width = b - a + 1
        index = self._choose(width)
        self.out_of *= width
        return a + index

    def roll(
        self, count: int, sides: int, reads: Callable[[int], Hashable] | None = None
    ) -> tuple[int, ...]:
        if reads is not None and self._by_reads:
            branches = _by_reads(count, sides, reads)
        elif not self._by_totals or count <= 1:
            return super().roll(count, sides)
        else:
            branches = _totals(count, sides)
        faces, ways = branches[self._choose(len(branches))]
        self.ways *= ways
        self.out_of *= sides**count
        self.trace.extend(faces)
        return faces

    def run_merged(self, step: MergedStep[R]) -> R:
        """With ``merge`` (``by_reads``'s default), one branch per value of
        ``step.reads`` of its result (see the module docstring); otherwise ``step``
        on these dice, die by die."""
        if not self._merge:
            return step(self)
        branches: tuple[_MergedBranch[R], ...] = _merged_branches(
            step, self._by_totals, self._odds_reads and hasattr(step, "odds_reads")
        )
        branch = branches[0] if len(branches) == 1 else branches[self._choose(len(branches))]
        self.ways *= branch.ways
        self.out_of *= branch.out_of
        self.trace.extend(branch.faces)
        return branch.result


    def roll_until(self, attempt: Attempt[R]) -> tuple[R, ...]:
        """The accepted try alone: one branch per accepted result (by what is read
        of it when merging), with its chance among accepted tries."""
        branches: tuple[_MergedBranch[R], ...] = _accepted_branches(
            attempt, self._by_totals, self._by_reads, self._merge
        )
        branch = branches[0] if len(branches) == 1 else branches[self._choose(len(branches))]
        self.ways *= branch.ways
        self.out_of *= branch.out_of
        self.trace.extend(branch.faces)
        return (branch.result,)


@dataclass(frozen=True, slots=True)
class _MergedBranch(Generic[R]):
    """One value of what is read of a merged step: the result and faces of its
    first way, and its whole chance as ``ways`` out of ``out_of``."""

    result: R
    faces: tuple[int, ...]
    ways: int
    out_of: int


@functools.lru_cache(maxsize=MERGED_STEPS_KEPT)
def _merged_branches(
    step: MergedStep[R], by_totals: bool, odds_reads: bool = False
) -> tuple[_MergedBranch[R], ...]:
    """One branch per value of ``step.reads`` (with ``odds_reads``: of its
    ``odds_reads``, the steps merged within it likewise)."""
    first: dict[Hashable, tuple[R, tuple[int, ...]]] = {}
    ways: dict[Hashable, dict[int, int]] = {}
    reads = step.odds_reads if odds_reads else step.reads  # type: ignore[attr-defined]
    for result, dice in _runs(step, by_totals=by_totals, by_reads=True, odds_reads=odds_reads):
        read = reads(result)
        if read not in first:
            first[read] = (result, tuple(dice.trace))
        counts = ways.setdefault(read, {})
        counts[dice.out_of] = counts.get(dice.out_of, 0) + dice.ways
    branches = []
    for read, (result, faces) in first.items():
        chance = sum_ways(ways[read])
        branches.append(_MergedBranch(result, faces, chance.numerator, chance.denominator))
    return tuple(branches)


@functools.lru_cache(maxsize=MERGED_STEPS_KEPT)
def _accepted_branches(
    attempt: Attempt[R], by_totals: bool, by_reads: bool, merge: bool
) -> tuple[_MergedBranch[R], ...]:
    first: dict[Hashable, tuple[R, tuple[int, ...]]] = {}
    ways: dict[Hashable, dict[int, int]] = {}
    for result, dice in _runs(attempt, by_totals=by_totals, by_reads=by_reads, merge=merge):
        if not attempt.accepted(result):
            continue
        read = attempt.reads(result) if merge else (result, tuple(dice.trace))
        if read not in first:
            first[read] = (result, tuple(dice.trace))
        counts = ways.setdefault(read, {})
        counts[dice.out_of] = counts.get(dice.out_of, 0) + dice.ways
    if not first:
        raise RulesError("no try can be accepted")
    chances = {read: sum_ways(counts) for read, counts in ways.items()}
    accepted = sum(chances.values(), Fraction(0))
    branches = []
    for read, (result, faces) in first.items():
        chance = chances[read] / accepted
        branches.append(_MergedBranch(result, faces, chance.numerator, chance.denominator))
    return tuple(branches)


def _runs(
    run: Callable[[EnumeratingDice], R],
    *,
    by_totals: bool,
    by_reads: bool,
    merge: bool | None = None,
    odds_reads: bool = False,
) -> Iterator[tuple[R, EnumeratingDice]]:
    """Each way ``run`` can end, depth first: its result and the dice of its path."""
    pending: list[tuple[int, ...]] = [()]
    while pending:
        path = pending.pop()
        dice = EnumeratingDice(
            path, by_totals=by_totals, by_reads=by_reads, merge=merge, odds_reads=odds_reads
        )
        try:
            result = run(dice)
        except _MoreDice as more:
            pending.extend((*path, i) for i in range(more.width - 1, -1, -1))
            continue
        if dice.used != len(path):
            raise RulesError("the enumerated step rolled differently on the same dice")
        yield result, dice


def exact_outcomes(
    run: Callable[[EnumeratingDice], K],
    *,
    by_totals: bool = True,
    by_reads: bool = False,
    merge: bool | None = None,
    odds_reads: bool = False,
) -> Mapping[K, Fraction]:
    """The exact distribution of ``run(dice)`` over every way the dice can fall
    (see the module docstring). ``run`` must be deterministic given its dice and
    roll finitely many (a step that re-rolls until something comes up must be
    enumerated without the re-roll and conditioned by the caller). ``merge``
    (``by_reads`` unless given): merged steps branch by their results; the tests
    turn it off to check that merging changes nothing. ``odds_reads``: merged
    steps that have one branch by their ``odds_reads`` (the module docstring)."""
    ways: dict[K, dict[int, int]] = {}  # result -> out of -> ways
    runs = _runs(run, by_totals=by_totals, by_reads=by_reads, merge=merge, odds_reads=odds_reads)
    for key, dice in runs:
        counts = ways.setdefault(key, {})
        counts[dice.out_of] = counts.get(dice.out_of, 0) + dice.ways
    return MappingProxyType({key: sum_ways(counts) for key, counts in ways.items()})


def sum_ways(counts: Mapping[int, int]) -> Fraction:
    """``sum(ways / out_of)`` over ``counts`` (out of -> ways), reduced once: a
    result's paths, or any sum of chances kept as whole numbers."""
    common = math.lcm(*counts)
    return Fraction(sum(n * (common // d) for d, n in counts.items()), common)
