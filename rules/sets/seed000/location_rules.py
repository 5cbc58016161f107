"""What a hit location system taken from another seed answers alike in seed 000.

The options ``locations-fudge`` (``rules.sets.seed000.locations_fudge``) and
``locations-2d6`` (``rules.sets.seed000.locations_2d6``) replace the 000 table with
a seed's parts or zones that know none of the 000 table's own rules: no chinks in
armor (seed 001's), no near misses or shifted aims, no shield limb, no missing
locations for an injury tolerance. ``ReplacementLocations`` holds those answers,
the aimed penalty of a known location, the cover rule (000 RANDOM HIT LOCATION: a
covered location is rolled again, and its chance conditioned away), so that each
option's module holds only what its seed says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from fractions import Fraction
from typing import ClassVar, TypeVar

from rules.battle.model import DamageType
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource
from rules.core.errors import IllegalAttackError, RulesError
from rules.core.modifiers import Modifier
from rules.sets.seed000.hit_location import Location, LocationAttempt, condition_on_cover
from rules.sets.seed000.sheet import InjuryTolerance
from rules.sets.seed000.wound_effects import Step

__all__ = ["UNAIMED_KEY", "ReplacementLocations", "chinks_need_001"]

UNAIMED_KEY = "torso"  # the unaimed blow (base rules), the default of both seeds too
Rolled = TypeVar("Rolled")


def chinks_need_001(name: str) -> str:
    """Why a system of another seed refuses a chink in armor."""
    return (
        f"the {name} have no chinks in armor: they need the 001 hit locations "
        f"({cite('001', 'Targeting Chinks in Armor')})"
    )


class ReplacementLocations:
    """The answers of seed 000's ``HitLocationSystem`` protocol that a system of
    another seed gives alike (see the module docstring). A subclass is a frozen
    dataclass with ``locations`` and a ``_distributions`` cache, names itself in
    ``system_name`` and its limbs in ``limb_keys``, and gives its aim ``penalty``
    and the chances of its random roll (``random_chances``)."""

    locations: Mapping[str, Location]
    _distributions: dict[frozenset[str], Mapping[str, Fraction]]
    system_name: ClassVar[str]
    # seed 000's limb words ("arm", "hand", "leg", "foot") as the system's keys
    limb_keys: ClassVar[Mapping[str, str]]

    def penalty(
        self, location_key: str, *, shield_side: bool, melee: bool, from_front: bool = True
    ) -> tuple[Modifier, ...]:
        raise NotImplementedError

    def random_chances(self) -> Mapping[str, Fraction]:
        """The exact chance of each key on the system's random roll, nothing covered."""
        raise NotImplementedError

    # --- aiming -------------------------------------------------------------------
    def aimed_penalty(
        self,
        location_key: str,
        *,
        shield_side: bool,
        from_front: bool,
        chink: bool,
        melee: bool = True,
    ) -> tuple[Modifier, ...]:
        self.refuse_chink(chink)
        return self.penalty(location_key, shield_side=shield_side, melee=melee)

    def chink_problem(self, damage_type: DamageType, *, tight_beam: bool = False) -> str | None:
        return chinks_need_001(self.system_name)

    def refuse_chink(self, chink: bool) -> None:
        """Refuse a blow at a chink in armor (seed 001's rule only)."""
        if chink:
            raise IllegalAttackError(chinks_need_001(self.system_name))

    def aim_keys(self, *, shielded: bool) -> tuple[str, ...]:
        """Every location but the unaimed one (aiming there is not aiming)."""
        return tuple(k for k in self.locations if k != UNAIMED_KEY)

    def limb_key(self, limb: str) -> str:
        try:
            return self.limb_keys[limb]
        except KeyError:
            known = ", ".join(self.limb_keys)
            raise RulesError(f"no limb {limb!r} (limbs: {known})") from None

    def shield_limb(self, aimed: str | None) -> str | None:
        return None  # no location is the shield's

    def covered_keys(self, areas: frozenset[str]) -> frozenset[str]:
        return frozenset(k for k, loc in self.locations.items() if loc.area in areas)

    def lacking_locations(self, tolerances: Iterable[InjuryTolerance]) -> frozenset[str]:
        return frozenset()  # injury tolerance is seed 001's rule

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
        return None  # near misses and shifted aims belong to the 000 table

    # --- the dice -------------------------------------------------------------------
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
