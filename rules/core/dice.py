"""Dice: the one dice source every die goes through, dice expressions, and exact
distributions.

Nothing here touches the global random state. Every rolling function takes a
``DiceSource``: the seeded source of a battle command (the default, reproducible
per command), a scripted source for tests, a replay of recorded faces for a redo
or a replay, or dice entered by hand at the table. Each source records the faces it
gave, in order, so a command's result carries its dice and can be run again from
them. Distributions are exact ``Fraction``s obtained by enumerating every face
combination (by repeated convolution, which counts the same combinations as
``itertools.product`` without building 6**n tuples).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Protocol, TypeVar

from hexmap import MAX_DIGITS, parse_digits
from rules.core.errors import DataError, RulesError
from rules.core.quick_init import quick_init

SIDES = 6  # the 3d6 family's die

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Dice:
    """A dice expression such as 2d+1 or 1d-2; ``sides`` is 6 for the 3d6 family
    (written "2d+1") and other for the d100 family's weapons (1d8+1, written so)."""

    count: int
    adds: int = 0
    sides: int = SIDES

    def __str__(self) -> str:
        die = "d" if self.sides == SIDES else f"d{self.sides}"
        if self.adds == 0:
            return f"{self.count}{die}"
        return f"{self.count}{die}{self.adds:+d}"

    def plus(self, adds: int) -> Dice:
        return self if adds == 0 else Dice(self.count, self.adds + adds, self.sides)


class DiceSource(Protocol):
    """Where dice come from. ``randint(1, sides)`` is one die; every roll of the
    rules asks for its dice one at a time through this, and nothing else.

    ``random.Random`` satisfies it, so any generator may stand in; the battle uses
    the recording sources below."""

    def randint(self, a: int, b: int) -> int: ...


class MergedStep(Protocol[R]):
    """A part of a rolling step whose result the rest of the step reads only
    through ``reads``: hashable on everything it reads, and deterministic given
    its dice. Rolling, it is simply called; an enumerating source
    (``rules.core.enumerate``) branches once per value of ``reads`` of its result,
    with that value's whole chance, instead of once per way its dice fall (the
    wound's rolls of one blow: many ways, a few wounds)."""

    def __call__(self, rng: DiceSource) -> R: ...

    def reads(self, result: R) -> Hashable: ...

    def __hash__(self) -> int: ...


class Attempt(MergedStep[R], Protocol):
    """One try of a roll made again until it is accepted (a random hit location
    that lands under cover): what follows reads only the accepted try, through
    ``reads``."""

    def accepted(self, result: R) -> bool: ...


def roll_until(rng: DiceSource, attempt: Attempt[R]) -> tuple[R, ...]:
    """``attempt`` again and again until one is accepted: every try, in order, the
    accepted one last. An enumerating source gives the accepted one alone, with
    its chance among accepted tries (a loop no enumeration would end)."""
    if isinstance(rng, RecordingDice):
        return rng.roll_until(attempt)
    return _tries(attempt, rng)


def _tries(attempt: Attempt[R], rng: DiceSource) -> tuple[R, ...]:
    tried: list[R] = []
    while True:
        result = attempt(rng)
        tried.append(result)
        if attempt.accepted(result):
            return tuple(tried)


def run_merged(rng: DiceSource, step: MergedStep[R]) -> R:
    """``step(rng)``: the dice it rolls come from ``rng`` as if it were called
    directly; a source that enumerates may merge its results (``MergedStep``)."""
    if isinstance(rng, RecordingDice):
        return rng.run_merged(step)
    return step(rng)


@dataclass(frozen=True, slots=True)
class DiceRequest:
    """One roll a person is asked to make at the table: what it is for, as its roll
    site names it ("Fencer's parry"; "" when unnamed), its dice, each showing
    ``low..high``, and the adds its total gets (shown only: no face has them)."""

    what: str
    count: int
    high: int
    low: int = 1
    adds: int = 0

    @property
    def dice(self) -> str:
        """The dice as a GM writes them: "3d6", "2d6+1"."""
        if self.low == 1:
            text = f"{self.count}d{self.high}"
        else:
            text = f"{self.count}d({self.low}..{self.high})"
        return text + (f"{self.adds:+d}" if self.adds else "")

    def __str__(self) -> str:
        return f"{self.what}: {self.dice}" if self.what else self.dice


@dataclass(frozen=True, slots=True)
class TableRoll:
    """One roll entered at the table: what was asked, and the faces entered."""

    request: DiceRequest
    faces: tuple[int, ...]

    def __str__(self) -> str:
        """ "Fencer's parry (3d6): 6, 5, 5"."""
        faces = ", ".join(str(face) for face in self.faces)
        what = self.request.what or "a roll"
        return f"{what} ({self.request.dice}): {faces}"


class DiceEntryCancelled(Exception):
    """The person at the table did not enter a roll: the command is abandoned.
    Not a ``RulesError``: nothing was refused, and nothing is reported as such."""


class RecordingDice:
    """Base of the recording sources: ``trace`` holds every face given, in order.

    A roll site may say what it rolls (``roll(..., what="Fencer's parry")``): the
    source hears it through ``note`` just before the roll. Only a source that asks
    a person (``EnteredDice``) keeps it; the others ignore it, so the note changes
    no face and costs a seeded or enumerated roll one call at most."""

    def __init__(self) -> None:
        self.trace: list[int] = []

    def note(self, what: str, adds: int = 0) -> None:
        """What the next roll is for, and the adds its total gets (ignored here)."""

    @property
    def entered(self) -> bool:
        """Whether the faces given were entered by a person at the table."""
        return False

    @property
    def table_rolls(self) -> tuple[TableRoll, ...]:
        """Each roll entered at the table, in order, with what it was for (none
        unless ``entered``): the combat log shows each on a line of its own."""
        return ()

    def randint(self, a: int, b: int) -> int:
        face = self._next(a, b)
        if isinstance(face, bool) or not isinstance(face, int) or not a <= face <= b:
            raise RulesError(f"a die must show {a}..{b}, got {face!r}")
        self.trace.append(face)
        return face

    def _next(self, a: int, b: int) -> int:
        raise NotImplementedError

    def roll(
        self, count: int, sides: int, reads: Callable[[int], Hashable] | None = None
    ) -> tuple[int, ...]:
        """The faces of one roll of ``count`` dice (``roll``), one die at a time.
        The enumerating source (``rules.core.enumerate``) gives a roll's dice at
        once, branching on their total (or on what ``reads`` makes of it)."""
        return tuple(self.randint(1, sides) for _ in range(count))

    def run_merged(self, step: MergedStep[R]) -> R:
        """``step`` on these dice (``run_merged``); the enumerating source merges."""
        return step(self)

    def roll_until(self, attempt: Attempt[R]) -> tuple[R, ...]:
        """Every try of ``attempt`` on these dice (``roll_until``)."""
        return _tries(attempt, self)

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(self.trace)


class SeededDice(RecordingDice):
    """Dice from a ``random.Random`` seeded with ``seed`` (text or number): the
    same seed gives the same faces, whatever rolled before elsewhere.

    Each face is the draw ``random.Random.randint`` makes (``face_below``), taken
    straight from the generator's bits: every die of every command comes through
    here, and ``randint`` makes two Python calls more per die to draw the same."""

    def __init__(self, seed: str | int) -> None:
        super().__init__()
        self._random = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        # random.Random only gives faces in a..b, so the base class's check of the
        # face is left out.
        face = a + face_below(self._random.getrandbits, b - a + 1)
        self.trace.append(face)
        return face

    def roll(
        self, count: int, sides: int, reads: Callable[[int], Hashable] | None = None
    ) -> tuple[int, ...]:
        # The same faces in the same order as the base class's die-by-die roll.
        getrandbits = self._random.getrandbits
        if sides < 1 and count > 0:
            raise ValueError(f"empty range for randint: {sides} value(s)")
        # ``face_below`` for each die, written out here: every die of every
        # command comes through this loop.
        bits = sides.bit_length()
        drawn: list[int] = []
        for _ in range(count):
            below = getrandbits(bits)
            while below >= sides:
                below = getrandbits(bits)
            drawn.append(1 + below)
        faces = tuple(drawn)
        self.trace.extend(faces)
        return faces


def face_below(getrandbits: Callable[[int], int], n: int) -> int:
    """A number in ``0..n-1`` (``n`` >= 1), drawn as ``random.Random.randrange(n)``
    draws it: as many bits as ``n`` has, again until the number is below ``n``. So
    ``a + face_below(r.getrandbits, b - a + 1)`` is the face ``r.randint(a, b)``
    gives, and a seed rolls the faces it always rolled. An empty range is a
    ``ValueError``, as for ``randint``."""
    if n < 1:
        raise ValueError(f"empty range for randint: {n} value(s)")
    bits = n.bit_length()
    below = getrandbits(bits)
    while below >= n:
        below = getrandbits(bits)
    return below


class DiceExhaustedError(RulesError):
    """A replayed or scripted source was asked for more dice than it holds."""


class ScriptedDice(RecordingDice):
    """Dice that show the given faces in order; asking for one more is an error,
    never a silent roll. Replays a command's recorded dice (redo, replay) and
    scripts exact scenarios in tests.

    Faces ``entered`` at the table are given roll by roll as they were entered,
    each kept with what it was for (``table_rolls``), as ``EnteredDice`` kept them."""

    def __init__(self, faces: Iterable[int], *, entered: bool = False) -> None:
        super().__init__()
        self._faces = tuple(faces)
        self._entered = entered
        self._table: _TableRecord | None = _TableRecord() if entered else None

    @property
    def entered(self) -> bool:
        """The recorded faces were entered at the table (a redo keeps the mark)."""
        return self._entered

    @property
    def table_rolls(self) -> tuple[TableRoll, ...]:
        return () if self._table is None else tuple(self._table.rolls)

    def note(self, what: str, adds: int = 0) -> None:
        if self._table is not None:
            self._table.note(what, adds)

    def randint(self, a: int, b: int) -> int:
        face = super().randint(a, b)
        if self._table is not None:
            self._table.keep(1, a, b, (face,))
        return face

    def roll(
        self, count: int, sides: int, reads: Callable[[int], Hashable] | None = None
    ) -> tuple[int, ...]:
        if self._table is None:
            return super().roll(count, sides, reads)
        # One roll of ``count`` dice, as it was entered: not ``count`` rolls of one.
        faces = tuple(RecordingDice.randint(self, 1, sides) for _ in range(count))
        self._table.keep(count, 1, sides, faces)
        return faces

    def _next(self, a: int, b: int) -> int:
        used = len(self.trace)
        if used >= len(self._faces):
            raise DiceExhaustedError(
                f"the recorded dice ran out after {len(self._faces)} face(s)"
            )
        return self._faces[used]

    @property
    def unused(self) -> int:
        return len(self._faces) - len(self.trace)


DiceAsk = Callable[[DiceRequest], Sequence[int]]


class _TableRecord:
    """The rolls of a command entered at the table: the note a roll site gave for
    the next roll, and each roll kept as a ``TableRoll``."""

    def __init__(self) -> None:
        self.rolls: list[TableRoll] = []
        self._what = ""
        self._adds = 0

    def note(self, what: str, adds: int) -> None:
        self._what, self._adds = what, adds

    def request(self, count: int, low: int, high: int) -> DiceRequest:
        """The request for the next roll, which uses up the note."""
        request = DiceRequest(self._what, count, high, low, self._adds)
        self._what, self._adds = "", 0
        return request

    def keep(self, count: int, low: int, high: int, faces: tuple[int, ...]) -> None:
        request = self.request(count, low, high)
        if count:  # a roll of no dice (0d+2) was asked of nobody
            self.rolls.append(TableRoll(request, faces))


class EnteredDice(RecordingDice):
    """Dice read off the table (physical-dice mode): ``ask(request)`` returns the
    faces a person entered for one roll, all its dice at once, or raises
    ``DiceEntryCancelled``. A face outside the request's ``low..high``, or too few
    or too many faces, is refused (``RulesError``)."""

    def __init__(self, ask: DiceAsk) -> None:
        super().__init__()
        self._ask = ask
        self._table = _TableRecord()

    def note(self, what: str, adds: int = 0) -> None:
        self._table.note(what, adds)

    @property
    def entered(self) -> bool:
        return bool(self.trace)

    @property
    def table_rolls(self) -> tuple[TableRoll, ...]:
        return tuple(self._table.rolls)

    def roll(
        self, count: int, sides: int, reads: Callable[[int], Hashable] | None = None
    ) -> tuple[int, ...]:
        return self._entered_faces(count, 1, sides)

    def _next(self, a: int, b: int) -> int:
        (face,) = self._entered_faces(1, a, b, record=False)  # the base records it
        return face

    def _entered_faces(
        self, count: int, low: int, high: int, *, record: bool = True
    ) -> tuple[int, ...]:
        request = self._table.request(count, low, high)  # the note was for this roll only
        if count == 0:  # a roll of no dice (0d+2): nothing to ask
            return ()
        faces = tuple(self._ask(request))
        if len(faces) != count:
            raise RulesError(f"{request} needs {count} face(s), got {len(faces)}")
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or not low <= face <= high:
                raise RulesError(f"a die must show {low}..{high}, got {face!r}")
        if record:
            self.trace.extend(faces)
        self._table.rolls.append(TableRoll(request, faces))
        return faces


MAX_DICE = 200  # sanity bound for enumeration; damage for ST 1000 is ~100d


def roll(
    count: int,
    rng: DiceSource,
    sides: int = SIDES,
    *,
    reads: Callable[[int], Hashable] | None = None,
    what: str | None = None,
    adds: int = 0,
) -> tuple[int, ...]:
    """Roll ``count`` dice; the faces in the order rolled.

    ``reads``: what the caller makes of the total (a success roll: its outcome at
    its target). It changes no face; a source that enumerates may branch once per
    value of it instead of once per total, when its user vouches that the code it
    runs reads the roll through nothing else (``rules.core.enumerate``).

    ``what``: what is rolled, in a GM's words ("Fencer's parry"), with ``adds``, the
    adds its total gets: told to the source (``RecordingDice.note``) for a person
    who rolls at the table; no face changes. The odds pass none."""
    if not (type(count) is int and 0 <= count <= MAX_DICE and type(sides) is int and sides > 0):
        _check_count(count, sides)  # the full check, for anything but plain ints in range
    if isinstance(rng, RecordingDice):
        if what is not None:
            rng.note(what, adds)
        return rng.roll(count, sides, reads)
    return tuple(rng.randint(1, sides) for _ in range(count))


@functools.cache
def distribution(count: int, sides: int = SIDES) -> Mapping[int, Fraction]:
    """Exact distribution of the sum of ``count`` dice (read-only mapping, sorted)."""
    _check_count(count, sides)
    ways: dict[int, int] = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    combos = sides**count
    return MappingProxyType({t: Fraction(n, combos) for t, n in sorted(ways.items())})


def _check_count(count: int, sides: int) -> None:
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_DICE:
        raise RulesError(f"dice count must be an integer 0..{MAX_DICE}, got {count!r}")
    if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
        raise RulesError(f"dice need at least one side, got {sides!r}")


@quick_init
@dataclass(frozen=True, slots=True)
class DiceRoll:
    """One roll of a dice expression: the faces, the raw sum with adds, and the
    total after the expression's minimum."""

    dice: Dice
    faces: tuple[int, ...]
    raw: int  # sum of faces + adds, may be below the minimum
    minimum: int | None
    total: int

    def __str__(self) -> str:
        faces = "+".join(str(f) for f in self.faces) or "0"
        adds = f"{self.dice.adds:+d}" if self.dice.adds else ""
        floor = f" (minimum {self.minimum})" if self.total != self.raw else ""
        return f"{self.dice}: {faces}{adds} = {self.total}{floor}"


def apply_minimum(raw: int, minimum: int | None) -> int:
    return raw if minimum is None else max(minimum, raw)


def roll_dice(
    dice: Dice, rng: DiceSource, minimum: int | None = 0, *, what: str | None = None
) -> DiceRoll:
    """Roll a dice expression such as 2d+1.

    ``minimum`` floors the result; the default 0 is the family's rule for a damage
    roll whose minus would make it negative (basic damage is never below 0, see
    ``rules.sets.seed000.damage``). Pass None for no floor. ``what``: as ``roll``'s.
    """
    faces = roll(dice.count, rng, dice.sides, what=what, adds=dice.adds)
    raw = sum(faces) + dice.adds
    return DiceRoll(dice, faces, raw, minimum, apply_minimum(raw, minimum))


@functools.cache
def dice_distribution(dice: Dice, minimum: int | None = 0) -> Mapping[int, Fraction]:
    """Exact distribution of ``roll_dice(dice, rng, minimum).total``."""
    result: dict[int, Fraction] = {}
    for total, p in distribution(dice.count, dice.sides).items():
        value = apply_minimum(total + dice.adds, minimum)
        result[value] = result.get(value, Fraction(0)) + p
    return MappingProxyType(dict(sorted(result.items())))


_DICE = re.compile(r"\s*([0-9]+)\s*d(?:6)?\s*(?:([+-])\s*([0-9]+))?\s*")


def parse_dice(text: str) -> Dice:
    """Parse "2d", "1d-2", "3d+1" (also "2d6+1"), in ASCII digits of at most
    ``hexmap.digits.MAX_DIGITS`` each (read by ``parse_digits``). Raises ``DataError``."""
    if not isinstance(text, str):
        raise DataError(f"dice must be text like '2d+1', got {text!r:.40}")
    shown = repr(text if len(text) <= 40 else f"{text[:37]}...")
    match = _DICE.fullmatch(text)
    if match is None:
        raise DataError(f"bad dice expression {shown} (expected e.g. '2d+1')")
    count = parse_digits(match.group(1))
    if count is None or count > MAX_DICE:
        raise DataError(f"bad dice expression {shown}: more than {MAX_DICE} dice")
    adds = parse_digits(match.group(3) or "0")
    if adds is None:
        raise DataError(f"bad dice expression {shown}: the adds have more than {MAX_DIGITS} digits")
    if match.group(2) == "-":
        adds = -adds
    return Dice(count, adds)
