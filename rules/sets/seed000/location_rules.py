"""What every hit location system of seed 000 is, and the answers they share.

Seed 000's table (``rules.sets.seed000.hit_location``) and the options that replace
it - seed 001's locations (``locations_001``), seed 004's 2d6 zones
(``locations_2d6``), the FUDGE body parts (``locations_fudge``) - answer an attack's
questions alike. This module holds:

* the records they speak in: ``Location``, ``LocationAttempt``, ``LocationRoll``;
* ``HitLocationSystem``, the required core: what only the system itself can say -
  its locations and limbs, what aiming at one costs, the random roll and its exact
  chances, and what a blow does there;
* ``LocationRules``, the base every system extends. It answers what follows from
  the core (the aimable keys, a limb's key, the keys a cover hides) and gives the
  neutral answer of every rule that only some seeds have: no chinks in armor (seed
  001's), no limits on what may aim where, no near misses or shifted aims (seed
  000's), no shield limb to aim at, no location missing for an injury tolerance
  (seed 001's), no lasting modifiers or wound track per body part (the FUDGE
  option's). A system overrides only the rules its seed has;
* ``UndirectedLocations``: the random roll of a system with no rule for the
  direction of the blow (the 2d6 zones, the FUDGE parts), rolled again under cover
  (000 RANDOM HIT LOCATION) and its chances conditioned the same way.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar, Protocol, TypeVar

from rules.battle.model import DamageType
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource
from rules.core.errors import IllegalAttackError, RulesError
from rules.core.modifiers import Modifier
from rules.sets.seed000.sheet import InjuryTolerance
from rules.sets.seed000.wound_effects import BodySide, Step, Victim, WoundAssessment

__all__ = [
    "AREAS",
    "CHINKS_CITATION",
    "UNAIMED_KEY",
    "HitLocationSystem",
    "Location",
    "LocationAttempt",
    "LocationRoll",
    "LocationRules",
    "TableSide",
    "UndirectedLocations",
    "condition_on_cover",
    "known_location",
]

# The body areas a location belongs to (cover, a guarded area).
AREAS = ("head", "arm", "leg", "torso")
UNAIMED_KEY = "torso"  # the unaimed blow (base rules); aiming there is not aiming
# Seed 001's rule, which the other systems lack.
CHINKS_CITATION = cite("001", "Targeting Chinks in Armor")
Rolled = TypeVar("Rolled")


class TableSide(Enum):
    """Seed 000's table distinguishes the near (weapon) and far (shield) limbs."""

    NEAR = "near"
    FAR = "far"


@dataclass(frozen=True, slots=True)
class Location:
    """A location that can be aimed at.

    ``penalty`` is the penalty to hit it on an unarmored foe; ``shield_penalty``
    replaces it when the location is on the side where the target carries a
    shield; ``front_penalty``/``rear_penalty`` replace it when aiming from the
    front / from the side or rear. ``random`` tells whether the random table can
    land on it. ``area`` is one of head, arm, leg, torso."""

    key: str
    label: str
    area: str
    penalty: int
    citation: Citation
    random: bool = True
    side: TableSide | None = None
    shield_penalty: int | None = None
    front_penalty: int | None = None
    rear_penalty: int | None = None
    hand: bool = False
    notes: tuple[int, ...] = ()
    printed_notes: tuple[int, ...] = ()
    major_damage: str = ""


@dataclass(frozen=True, slots=True)
class LocationAttempt:
    """One pass at the table. ``dice`` are the 3d6 as rolled, ``total`` their sum
    plus the shift (-3 from above, +3 from below), ``row`` the total brought onto
    the table's range; ``sub``/``sub2`` the sub-rolls, if the row needed them (in
    seed 001, ``sub`` is the hand or foot's side die)."""

    dice: tuple[int, ...]
    shift: int
    total: int
    row: int
    sub: int | None
    sub2: int | None
    location: str
    covered: bool


@dataclass(frozen=True, slots=True)
class LocationRoll:
    """A random hit location with everything rolled to find it. Covered results
    are kept as earlier attempts; the last attempt is the hit."""

    system: str
    attempts: tuple[LocationAttempt, ...]
    location: str
    label: str
    side: BodySide | None
    side_die: int | None
    steps: tuple[Step, ...]

    @property
    def final(self) -> LocationAttempt:
        return self.attempts[-1]

    @property
    def dice(self) -> tuple[int, ...]:
        return self.final.dice


def condition_on_cover(
    dist: Mapping[str, Fraction], covered: frozenset[str], known: Mapping[str, object]
) -> Mapping[str, Fraction]:
    """Re-rolling covered results until an open one comes up gives each open
    location its chance divided by the chance of landing on any open one."""
    unknown = sorted(covered - set(known))
    if unknown:
        raise RulesError(f"unknown covered location(s): {', '.join(unknown)}")
    open_p = sum((p for k, p in dist.items() if k not in covered), Fraction(0))
    if open_p == 0:
        raise RulesError("every location the dice can reach is under cover")
    return MappingProxyType({k: p / open_p for k, p in dist.items() if k not in covered and p != 0})


def known_location(locations: Mapping[str, Location], key: str) -> Location:
    """The location under ``key``; every system refuses an unknown key the same way,
    listing the keys it knows so that a typo in a plan is easy to spot."""
    try:
        return locations[key]
    except KeyError:
        known = ", ".join(locations)
        raise IllegalAttackError(f"unknown hit location {key!r} (known: {known})") from None


class HitLocationSystem(Protocol):
    """The required core of a hit location system: what only the system can say.
    Arguments a system has no rule for are ignored by it."""

    system: str
    locations: Mapping[str, Location]
    # seed 000's limb words ("arm", "hand", "leg", "foot") as the system's keys
    limb_keys: ClassVar[Mapping[str, str]]

    @property
    def random_citation(self) -> Citation:
        """The rule of a random hit location in this system."""
        ...

    def penalty(
        self, location_key: str, *, shield_side: bool, melee: bool, from_front: bool = True
    ) -> tuple[Modifier, ...]:
        """The itemised modifiers to hit the location."""
        ...

    def roll_random(
        self,
        rng: DiceSource,
        *,
        from_above: bool = False,
        from_below: bool = False,
        from_back: bool = False,
        from_side: bool = False,
        covered: frozenset[str] = frozenset(),
        shield_side_near: bool = False,
        shielded: bool = True,
        left_handed: bool = False,
        what: str | None = None,
    ) -> LocationRoll:
        """A random location, every die rolled through ``rng``; a ``covered`` result
        is rolled again. ``what`` names the roll for dice entered at the table."""
        ...

    def exact_distribution(
        self,
        from_above: bool = False,
        from_below: bool = False,
        from_back: bool = False,
        covered: frozenset[str] = frozenset(),
        *,
        from_side: bool = False,
    ) -> Mapping[str, Fraction]:
        """The exact chance of each location of ``roll_random``, by enumerating
        every way its dice can fall."""
        ...

    def assess_wound(
        self,
        location_key: str,
        damage_type: DamageType,
        basic_damage: int,
        victim: Victim,
        *,
        armor_dr: int = 0,
        side: BodySide | None = None,
        swung: bool = False,
        from_back: bool = False,
        tight_beam: bool = False,
        chink: bool = False,
    ) -> WoundAssessment:
        """What the blow does there (``rules.sets.seed000.wound_effects``)."""
        ...


class LocationRules(HitLocationSystem):
    """The base of every hit location system (see the module docstring): the
    answers that follow from the core, and the neutral answer of each rule only
    some seeds have, for a system to override where its seed has the rule."""

    # Why a blow at a chink in the armor is refused (seed 001's rule only).
    no_chinks: ClassVar[str] = "these hit locations have no chinks in armor"

    # --- what follows from the core ----------------------------------------------
    def location(self, key: str) -> Location:
        return known_location(self.locations, key)

    def aim_keys(self, *, shielded: bool) -> tuple[str, ...]:
        """Every key an attack may aim at, in the system's order: each location but
        the unaimed one (aiming there is not aiming), and the aims a system adds
        (001's shield arm and hand, for a ``shielded`` target)."""
        return tuple(k for k in self.locations if k != UNAIMED_KEY)

    def limb_key(self, limb: str) -> str:
        """The location key of a limb (arm, hand, leg, foot)."""
        try:
            return self.limb_keys[limb]
        except KeyError:
            known = ", ".join(self.limb_keys)
            raise RulesError(f"no limb {limb!r} (limbs: {known})") from None

    def area_keys(self, area: str) -> frozenset[str]:
        """Every location of an area (head, arm, leg, torso), e.g. for ``covered``."""
        if area not in AREAS:
            raise RulesError(f"unknown area {area!r}; areas are {', '.join(AREAS)}")
        return frozenset(k for k, loc in self.locations.items() if loc.area == area)

    def covered_keys(self, areas: frozenset[str]) -> frozenset[str]:
        """The location keys inside the covered body areas."""
        out: frozenset[str] = frozenset()
        for area in areas:
            out |= self.area_keys(area)
        return out

    # --- chinks in armor: seed 001's rule -------------------------------------------
    def chink_problem(self, damage_type: DamageType, *, tight_beam: bool = False) -> str | None:
        """Why an attack of ``damage_type`` cannot aim at a chink in the armor, with
        the rule cited; None when it can."""
        return self._chinks_refused()

    def refuse_chink(self, chink: bool) -> None:
        """Refuse a blow at a chink in armor, in a system without them."""
        if chink:
            raise IllegalAttackError(self._chinks_refused())

    def _chinks_refused(self) -> str:
        return f"{self.no_chinks}: they need the 001 hit locations ({CHINKS_CITATION})"

    def aimed_penalty(
        self,
        location_key: str,
        *,
        shield_side: bool,
        from_front: bool,
        chink: bool,
        melee: bool = True,
    ) -> tuple[Modifier, ...]:
        """The modifiers of a blow aimed at the location (``melee``: a hand-weapon
        blow, which may cost more) or at a chink in its armor, where the system
        has that rule: else ``IllegalAttackError``."""
        self.refuse_chink(chink)
        return self.penalty(
            location_key, shield_side=shield_side, melee=melee, from_front=from_front
        )

    # --- what may aim where ---------------------------------------------------------
    def shield_limb(self, aimed: str | None) -> str | None:
        """The limb an aim such as "shield arm" names, where the system has such
        aims (seed 001); else None."""
        return None

    def lacking_locations(self, tolerances: Iterable[InjuryTolerance]) -> frozenset[str]:
        """Locations a target with these injury tolerances does not have (seed
        001's rule): none."""
        return frozenset()

    def aim_problem(
        self,
        location_key: str,
        damage_type: DamageType,
        *,
        swung: bool,
        tight_beam: bool = False,
        tolerances: frozenset[InjuryTolerance] = frozenset(),
    ) -> str | None:
        """Why this attack (its damage type, a swing) cannot aim at the location,
        with the rule cited; None when it can. Asked when the attack is planned,
        so that no blow is refused only once it lands. With no such rule, every
        location takes every blow."""
        self.location(location_key)
        return None

    def can_target(
        self,
        location_key: str,
        damage_type: DamageType,
        *,
        tight_beam: bool = False,
        tolerances: frozenset[InjuryTolerance] = frozenset(),
    ) -> bool:
        """Whether an attack of ``damage_type`` may aim at the location."""
        problem = self.aim_problem(
            location_key, damage_type, swung=False, tight_beam=tight_beam, tolerances=tolerances
        )
        return problem is None

    # --- misses: seed 000's rules ---------------------------------------------------
    def missed_aim(
        self,
        location_key: str,
        total: int,
        effective_skill: int,
        aim_penalty: int,
        damage_type: DamageType,
        swung: bool,
        hand_weapon: bool = True,
    ) -> tuple[str, str, Citation] | None:
        """Where a failed (not critical) blow aimed at ``location_key`` lands
        anyway, if the defender fails to defend: the location, why, and the rule;
        None for a plain miss. ``hand_weapon`` is False for a thrown or missile
        attack."""
        return None

    # --- lasting wounds by body part: the FUDGE option's rules ----------------------
    def fighting_modifiers(
        self, fighter: Victim, *, arms: frozenset[BodySide], standing: bool
    ) -> tuple[Modifier, ...]:
        """The lasting modifiers the fighter's own wounds of this system give an
        attack or a defense that uses the arms (and hands) of ``arms`` and, when
        ``standing``, the legs (``fighter.wounds``: his wounds so far). Seed 000's
        shock and crippled limbs are ``rules.sets.seed000.wounded``'s, whatever the
        system. A fighter without wounds has none, and an attack does not ask."""
        return ()

    def wound_tracks(self, fighter: Victim) -> tuple[str, ...]:
        """One line per wounded body part of a system that keeps a wound track
        per part ("Left hand: useless; 0/2 1/1 1/1 1/2 0/2"), for the inspector."""
        return ()


class UndirectedLocations(LocationRules):
    """A system whose random roll has no rule for the direction of the blow. A
    subclass is a frozen dataclass with a ``_distributions`` cache and gives the
    chances of its roll (``random_chances``); its ``roll_random`` rolls through
    ``roll_uncovered``."""

    _distributions: dict[frozenset[str], Mapping[str, Fraction]]

    @abstractmethod
    def random_chances(self) -> Mapping[str, Fraction]:
        """The exact chance of each key on the system's random roll, nothing covered."""

    def roll_uncovered(
        self,
        rng: DiceSource,
        covered: frozenset[str],
        roll_once: Callable[[DiceSource], tuple[Rolled, LocationAttempt, Step]],
    ) -> tuple[Rolled, tuple[LocationAttempt, ...], tuple[Step, ...]]:
        """Roll ``roll_once`` (the rolled result, its attempt and its step in the
        log) until it lands on a location not covered (000 RANDOM HIT LOCATION's
        cover rule): the last result, and every roll's attempt and step, a covered
        one marked so."""
        if covered:  # fail early (and never loop) when every location is covered
            self.exact_distribution(covered=covered)
        attempts: list[LocationAttempt] = []
        steps: list[Step] = []
        while True:
            rolled, attempt, step = roll_once(rng)
            if attempt.location in covered:
                attempt = replace(attempt, covered=True)
                step = Step(f"{step.text} (under cover: roll again)", step.citation)
            attempts.append(attempt)
            steps.append(step)
            if not attempt.covered:
                return rolled, tuple(attempts), tuple(steps)

    def exact_distribution(
        self,
        from_above: bool = False,
        from_below: bool = False,
        from_back: bool = False,
        covered: frozenset[str] = frozenset(),
        *,
        from_side: bool = False,
    ) -> Mapping[str, Fraction]:
        """The exact chance of each location (``random_chances``), covered ones
        conditioned away; the direction of the blow has no rule here."""
        known = self._distributions.get(covered)
        if known is None:
            chances = self.random_chances()
            if covered:
                chances = condition_on_cover(chances, covered, self.locations)
            known = chances
            self._distributions[covered] = known
        return known
