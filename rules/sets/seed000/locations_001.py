"""Seed 001's hit locations, selectable instead of seed 000's table.

Seed 001 ("Hit Location") lists eleven humanoid locations with a penalty to hit and
changes to the wounding multiplier, targeting chinks in armor, random hit location,
injury tolerance and large-area injury. Its numbers are data,
``assets/rulesets/001/hit_locations.json``; ``parse_locations_001`` turns the
parsed JSON into a frozen ``Locations001``; the ruleset reads the asset once
(``rules.sets.seed000.tables.Tables.locations_001``).

Things the seed refers to without printing them are filled from the published
rules of its family (4th edition) and said so in the data and in
docs/hit-locations.md: the 3d6 random location table, the ordinary wounding
multipliers, the Unliving/Homogenous/Diffuse modifiers, shock and knockdown.

``Locations001`` extends ``rules.sets.seed000.location_rules.LocationRules`` with the
seed's own rules: chinks in armor, aims at the shield arm and hand, what may aim at
the eye and vitals, and the locations an injury tolerance lacks.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

from rules.battle.model import DamageType
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, distribution, roll, roll_until
from rules.core.errors import DataError, IllegalAttackError, RulesError
from rules.core.jsondata import (
    JSONObject,
    as_enum,
    as_fraction,
    as_int_range,
    as_list,
    as_object,
    check_keys,
    get_bool,
    get_int,
    get_str,
)
from rules.core.memo_keys import ByIdentity
from rules.core.modifiers import Modifier
from rules.sets.seed000.hit_location import parse_location
from rules.sets.seed000.location_rules import (
    Location,
    LocationAttempt,
    LocationRoll,
    LocationRules,
    condition_on_cover,
)
from rules.sets.seed000.sheet import InjuryTolerance
from rules.sets.seed000.wound_effects import (
    PIERCING_TYPES,
    SHOCK_CAP,
    BodySide,
    Condition,
    Crippling,
    Effect,
    Limb,
    PainThreshold,
    RequiredRoll,
    RollKind,
    Step,
    Victim,
    WoundAssessment,
    crippling_minimum,
    fraction_text,
    injury_of,
)

__all__ = [
    "Locations001",
    "large_area_dr",
    "large_area_location",
    "parse_locations_001",
]

HIT_LOCATION_001 = cite("001", "Hit Location")
RANDOM_001 = cite("001", "Random Hit Location")
LIMBS_001 = ("arm", "hand", "leg", "foot")
# 001 Hit Location: "shield arm" / "shield hand" aim at the far limb carrying a shield.
SHIELD_LIMBS_001 = {"shield arm": "arm", "shield hand": "hand"}
DEFAULT_AIM_001 = "torso"  # 001 Hit Location: the target of an attack that names none
CHINKS_001 = cite("001", "Targeting Chinks in Armor")
TOLERANCE_001 = cite("001", "Injury Tolerance and Hit Location")
LARGE_AREA_001 = cite("001", "Large-Area Injury")
GRAPPLING_001 = cite("001", "Grappling and Hit Location")
TIGHT_BEAM_001 = cite("001", "Tight-Beam Burning Attacks")
BASE_TABLE_4E = Citation("base", "4th-edition humanoid hit location table (3d6)")
BASE_WOUNDING_4E = Citation("base", "4th-edition wounding modifiers")
BASE_TOLERANCE_4E = Citation("base", "Injury to Unliving, Homogenous, and Diffuse Targets")
BASE_KNOCKDOWN_4E = Citation("base", "knockdown and stunning (HT roll on a major wound)")
BASE_SHOCK_4E = Citation("base", "shock (-1 per HP of injury, at most -4; pain thresholds)")
LOW_PAIN_SHOCK_CAP = 8
KNOCKDOWN_PAIN = {PainThreshold.HIGH: 3, PainThreshold.LOW: -4}

_LIVING_REDUCTION_ALL = (
    InjuryTolerance.UNLIVING,
    InjuryTolerance.HOMOGENOUS,
    InjuryTolerance.DIFFUSE,
)
_BLUNT_LOCATION = (InjuryTolerance.HOMOGENOUS, InjuryTolerance.DIFFUSE)
_BRAINLESS_KEEPS = frozenset({"eye", "skull", "vitals"})


@dataclass(frozen=True, slots=True)
class Wound001:
    """The wound rules of one seed 001 location (parsed from its ``wound``)."""

    extra_dr: int = 0
    all_multiplier: Fraction | None = None
    multipliers: Mapping[DamageType, Fraction] = field(default_factory=lambda: MappingProxyType({}))
    tight_beam_multiplier: Fraction | None = None
    allowed: frozenset[DamageType] | None = None
    tight_beam: bool = False
    knockdown: int = 0
    exempt: frozenset[DamageType] = frozenset()
    brain: bool = False  # skull and eye: No Brain changes them
    eye: bool = False
    vitals: bool = False  # vitals and groin: No Vitals makes them torso hits
    head_or_vitals: bool = False  # knockdown roll already over HP/3
    corrosion_blinds: bool = False
    male_crushing_shock: Fraction = Fraction(1)
    male_shock_cap: int = SHOCK_CAP
    male_knockdown: int = 0
    limb_reduction: frozenset[DamageType] = frozenset()
    cripple_limb: Limb | None = None
    cripple_divisor: int = 0
    excess_lost: bool = False
    describe: str = ""


@dataclass(frozen=True, slots=True)
class RandomRow001:
    low: int
    high: int
    location: str
    side: str | None  # "right", "left", "die" or None


@dataclass(frozen=True)
class Locations001(LocationRules):
    """Seed 001's hit locations (see the module docstring)."""

    limb_keys: ClassVar[Mapping[str, str]] = MappingProxyType({limb: limb for limb in LIMBS_001})
    system: str
    locations: Mapping[str, Location]
    wounds: Mapping[str, Wound001]
    rows: tuple[RandomRow001, ...]
    side_die_right: tuple[int, int]
    from_above_map: Mapping[str, str]
    wounding: Mapping[DamageType, Fraction]
    bullet_as: DamageType
    unliving: Mapping[DamageType, Fraction]
    homogenous: Mapping[DamageType, Fraction]
    diffuse_piercing_cap: int
    diffuse_other_cap: int
    chink_torso: int
    chink_other: int
    chink_dr_divisor: int
    lacking: Mapping[InjuryTolerance, frozenset[str]]
    # ``exact_distribution`` by (from above, covered): a random location under cover
    # checks its odds on every roll. Not an init field (``replace`` starts afresh).
    _distributions: dict[tuple[bool, frozenset[str]], Mapping[str, Fraction]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    # --- aiming -------------------------------------------------------------------
    @property
    def random_citation(self) -> Citation:
        return RANDOM_001

    def aimed_penalty(
        self,
        location_key: str,
        *,
        shield_side: bool,
        from_front: bool,
        chink: bool,
        melee: bool = True,
    ) -> tuple[Modifier, ...]:
        return self.penalty(location_key, shield_side=shield_side, melee=melee, chink=chink)

    def chink_problem(self, damage_type: DamageType, *, tight_beam: bool = False) -> str | None:
        """001 Targeting Chinks in Armor: piercing, impaling or tight-beam burning only."""
        if chinks_allowed(self._norm(damage_type), tight_beam=tight_beam):
            return None
        return (
            f"a {damage_type.value} attack cannot aim at a chink in the armor: only piercing, "
            f"impaling and tight-beam burning attacks can ({CHINKS_001})"
        )

    def aim_keys(self, *, shielded: bool) -> tuple[str, ...]:
        """Every location but the torso, and the shield arm and hand of a shield bearer."""
        keys = super().aim_keys(shielded=shielded)
        return (*keys, *SHIELD_LIMBS_001) if shielded else keys

    def shield_limb(self, aimed: str | None) -> str | None:
        """The limb "shield arm" or "shield hand" names."""
        return None if aimed is None else SHIELD_LIMBS_001.get(aimed)

    def lacking_locations(self, tolerances: Iterable[InjuryTolerance]) -> frozenset[str]:
        """Locations a target with these tolerances does not have (No Eyes, No
        Head, No Neck): they cannot be targeted; pass them as ``covered`` to
        ``roll_random`` so a random hit rolls again."""
        out: set[str] = set()
        for t in tolerances:
            out |= self.lacking.get(t, frozenset())
        return frozenset(out)

    def aim_problem(
        self,
        location_key: str,
        damage_type: DamageType,
        *,
        swung: bool,
        tight_beam: bool = False,
        tolerances: frozenset[InjuryTolerance] = frozenset(),
    ) -> str | None:
        """Why the attack may not aim at the location: a lacking location cannot be
        targeted; the eye and vitals take only impaling, piercing and tight-beam
        burning attacks; fatigue damage ignores hit location (the torso only)."""
        label = self.location(location_key).label.lower()
        if location_key in self.lacking_locations(tolerances):
            return f"cannot aim at the {label}: the target has none ({TOLERANCE_001})"
        if damage_type is DamageType.FATIGUE:
            allowed = location_key == "torso"
        else:
            wound = self.wounds[location_key]
            allowed = self._type_allowed(wound, self._norm(damage_type), tight_beam)
        if allowed:
            return None
        return f"a {damage_type.value} attack cannot aim at the {label} ({HIT_LOCATION_001})"

    def _type_allowed(self, w: Wound001, dt: DamageType, tight_beam: bool) -> bool:
        if w.allowed is None:
            return True
        return dt in w.allowed or (w.tight_beam and tight_beam and dt is DamageType.BURNING)

    def penalty(
        self,
        location_key: str,
        *,
        shield_side: bool,
        melee: bool,
        from_front: bool = True,
        chink: bool = False,
        grappling: bool = False,
    ) -> tuple[Modifier, ...]:
        """Itemised modifiers to hit a location (001 Hit Location).

        ``shield_side``: the limb carries a shield (arm -4, hand -8). ``chink``:
        aiming at a chink in the armor there, -8 on the torso and -10 elsewhere,
        instead of the location penalty. ``grappling``: grabbing, not striking,
        halves the penalty (its size rounded up). ``melee`` and ``from_front`` have
        no rule in seed 001."""
        loc = self.location(location_key)
        name = loc.label.lower()
        if chink:
            value = self.chink_torso if location_key == "torso" else self.chink_other
            return (Modifier(value, f"aimed at a chink in the armor of the {name}", CHINKS_001),)
        mods: list[Modifier] = []
        if loc.penalty:
            mods.append(Modifier(loc.penalty, f"aimed at the {name}", HIT_LOCATION_001))
        if shield_side and loc.shield_penalty is not None and loc.shield_penalty != loc.penalty:
            mods.append(
                Modifier(
                    loc.shield_penalty - loc.penalty, f"{name} holding a shield", HIT_LOCATION_001
                )
            )
        if grappling:
            total = sum(m.value for m in mods)
            halved = -math.ceil(Fraction(-total, 2))
            if halved != total:
                mods.append(Modifier(halved - total, "grappling: penalty halved", GRAPPLING_001))
        return tuple(mods)

    # --- the dice -------------------------------------------------------------------
    def lookup(self, total: int, side_die: int | None = None) -> tuple[str, BodySide | None]:
        """The location and side for a 3d6 total (and the side die for hand/foot)."""
        for r in self.rows:
            if r.low <= total <= r.high:
                if r.side == "die":
                    if side_die is None:
                        raise RulesError(f"{r.location} needs a side die")
                    lo, hi = self.side_die_right
                    return r.location, BodySide.RIGHT if lo <= side_die <= hi else BodySide.LEFT
                return r.location, None if r.side is None else BodySide(r.side)
        raise RulesError(f"no row for a 3d6 total of {total}")

    def _above(self, key: str, from_above: bool) -> str:
        return self.from_above_map.get(key, key) if from_above else key

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
        """Roll 3d6 on the humanoid table (001 Random Hit Location); hand and foot
        take a side die (1-3 right). From directly above, feet count as hands and
        legs as arms. A covered (or lacking) result is rolled again. The table's
        sides are the target's own right and left, so ``left_handed``,
        ``shield_side_near`` and ``shielded`` do not matter; ``from_below``,
        ``from_back`` and ``from_side`` have no rule in seed 001. All are ignored."""
        if from_above and from_below:
            raise RulesError("an attack cannot come both from above and from below")
        if covered:
            self.exact_distribution(from_above, covered=covered)
        tried = roll_until(rng, _HumanoidTry(ByIdentity(self), from_above, covered, what))
        attempts = tuple(attempt for attempt, _, _ in tried)
        steps = tuple(step for _, step, _ in tried)
        side = tried[-1][2]
        key, side_die = attempts[-1].location, attempts[-1].sub
        return LocationRoll(
            self.system, attempts, key, self.locations[key].label, side, side_die, steps
        )

    def exact_distribution(
        self,
        from_above: bool = False,
        from_below: bool = False,
        from_back: bool = False,
        covered: frozenset[str] = frozenset(),
        *,
        from_side: bool = False,
    ) -> Mapping[str, Fraction]:
        """Exact chance of each location by enumerating 3d6 (the side die does
        not change the location); once per direction and cover."""
        if from_above and from_below:
            raise RulesError("an attack cannot come both from above and from below")
        args = (from_above, covered)
        known = self._distributions.get(args)
        if known is not None:
            return known
        dist: dict[str, Fraction] = {}
        for total, p in distribution(3).items():
            key = self._above(self.lookup(total, 1)[0], from_above)
            dist[key] = dist.get(key, Fraction(0)) + p
        result = (
            condition_on_cover(dist, covered, self.locations)
            if covered
            else MappingProxyType(dict(sorted(dist.items())))
        )
        self._distributions[args] = result
        return result

    def exact_side_distribution(
        self, from_above: bool = False
    ) -> Mapping[tuple[str, BodySide], Fraction]:
        """Exact chance of each (limb, side) - 3d6 x side die enumerated."""
        dist: dict[tuple[str, BodySide], Fraction] = {}
        for total, p in distribution(3).items():
            for die in range(1, 7):
                key, side = self.lookup(total, die)
                if side is not None:
                    k = (self._above(key, from_above), side)
                    dist[k] = dist.get(k, Fraction(0)) + p / 6
        return MappingProxyType(dist)

    # --- wounds ----------------------------------------------------------------------
    def _norm(self, dt: DamageType) -> DamageType:
        return self.bullet_as if dt is DamageType.BULLET else dt

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
        """What a blow does at a seed 001 location.

        ``armor_dr`` is the armor's DR there after any armor divisor; ``chink``
        halves it (piercing, impaling and tight-beam burning attacks only).
        ``tight_beam`` marks a burning attack as tight-beam. ``swung`` and
        ``from_back`` have no rule in seed 001."""
        return _assess_001(
            self,
            location_key,
            damage_type,
            basic_damage,
            victim,
            armor_dr=armor_dr,
            side=side,
            tight_beam=tight_beam,
            chink=chink,
        )


# --------------------------------------------------------------------------- large area


def chinks_allowed(damage_type: DamageType, *, tight_beam: bool = False) -> bool:
    """001 Targeting Chinks in Armor: only a piercing, impaling or tight-beam
    burning attack may aim at a chink."""
    return (
        damage_type is DamageType.IMPALING
        or damage_type in PIERCING_TYPES
        or (tight_beam and damage_type is DamageType.BURNING)
    )


def large_area_dr(torso_dr: int, exposed_drs: Iterable[int]) -> int:
    """001 Large-Area Injury: the average of the torso's DR and the lowest DR among
    the exposed locations (the torso counts), rounded up."""
    lowest = min([torso_dr, *exposed_drs])
    return math.ceil(Fraction(torso_dr + lowest, 2))


def large_area_location(exposed: Iterable[str]) -> str:
    """001 Large-Area Injury: treated as a torso hit unless only one location is
    exposed (then that location; a lone limb loses injury past a major wound)."""
    keys = frozenset(exposed)
    if len(keys) == 1:
        return next(iter(keys))
    return "torso"


# --------------------------------------------------------------------------- assessment


def _assess_001(
    t: Locations001,
    location_key: str,
    damage_type: DamageType,
    basic_damage: int,
    victim: Victim,
    *,
    armor_dr: int,
    side: BodySide | None,
    tight_beam: bool,
    chink: bool,
) -> WoundAssessment:
    loc = t.location(location_key)
    if basic_damage < 0 or armor_dr < 0:
        raise RulesError("basic damage and armor DR cannot be negative")
    tol = victim.tolerances
    dt = t._norm(damage_type)
    tight = tight_beam and dt is DamageType.BURNING
    steps: list[Step] = []
    effects: list[Effect] = []
    if location_key in t.lacking_locations(tol):
        raise IllegalAttackError(f"the target has no {loc.label.lower()} ({TOLERANCE_001})")
    w = t.wounds[location_key]
    if not t._type_allowed(w, dt, tight_beam):
        raise IllegalAttackError(
            f"only impaling, piercing and tight-beam burning attacks can target the "
            f"{loc.label.lower()} ({HIT_LOCATION_001})"
        )
    if damage_type is not dt:
        steps.append(Step(f"bullets count as {dt.value} damage", BASE_WOUNDING_4E))

    # Which location's effects apply.
    effect_key = location_key
    if damage_type is DamageType.FATIGUE:
        effect_key = "torso"
        steps.append(Step("fatigue damage ignores hit location", HIT_LOCATION_001))
    elif InjuryTolerance.NO_VITALS in tol and w.vitals:
        effect_key = "torso"
        steps.append(Step("No Vitals: treated as a torso hit", TOLERANCE_001))
    elif InjuryTolerance.NO_BRAIN in tol and w.eye:
        effect_key = "face"
        steps.append(
            Step(
                "No Brain: an eye hit is a face hit (the eye can still be crippled)", TOLERANCE_001
            )
        )
    ew = t.wounds[effect_key]
    blunt = any(x in tol for x in _BLUNT_LOCATION)
    brainless = InjuryTolerance.NO_BRAIN in tol and ew.brain
    exempt = dt in ew.exempt

    # Armor and location DR.
    eff_armor = armor_dr
    if chink:
        if not chinks_allowed(dt, tight_beam=tight_beam):
            raise IllegalAttackError(
                "only piercing, impaling and tight-beam burning attacks can target chinks "
                f"({CHINKS_001})"
            )
        eff_armor = armor_dr // t.chink_dr_divisor
        steps.append(Step(f"chink in the armor: DR {armor_dr} halved to {eff_armor}", CHINKS_001))
    location_dr = 0 if exempt or effect_key == "torso" else ew.extra_dr
    if location_dr:
        steps.append(Step(f"the skull gives DR {location_dr} more", HIT_LOCATION_001))
    penetrating = max(0, basic_damage - eff_armor - location_dr)

    # Wounding multiplier.
    mult = t.wounding[dt]
    mult_cite = BASE_WOUNDING_4E
    piercing_like = dt is DamageType.IMPALING or dt in PIERCING_TYPES
    if dt is DamageType.FATIGUE:
        pass
    elif blunt:
        if InjuryTolerance.HOMOGENOUS in tol and piercing_like:
            mult, mult_cite = t.homogenous[dt], BASE_TOLERANCE_4E
        elif piercing_like and InjuryTolerance.UNLIVING in tol:
            mult, mult_cite = t.unliving[dt], BASE_TOLERANCE_4E
        steps.append(
            Step("Diffuse/Homogenous: no wounding modifier for the location", TOLERANCE_001)
        )
    elif InjuryTolerance.UNLIVING in tol and piercing_like and effect_key not in _BRAINLESS_KEEPS:
        mult, mult_cite = t.unliving[dt], TOLERANCE_001
    elif not exempt and not brainless:
        if ew.all_multiplier is not None:
            mult, mult_cite = ew.all_multiplier, HIT_LOCATION_001
        elif dt in ew.multipliers:
            mult, mult_cite = ew.multipliers[dt], HIT_LOCATION_001
        elif tight and ew.tight_beam_multiplier is not None:
            mult, mult_cite = ew.tight_beam_multiplier, TIGHT_BEAM_001
        elif dt in ew.limb_reduction and not any(x in tol for x in _LIVING_REDUCTION_ALL):
            mult, mult_cite = Fraction(1), HIT_LOCATION_001
    if brainless and ew.all_multiplier is not None:
        steps.append(Step("No Brain: no extra wounding or knockdown modifier", TOLERANCE_001))
    injury = injury_of(penetrating, mult)
    if InjuryTolerance.DIFFUSE in tol and injury:
        cap = t.diffuse_piercing_cap if piercing_like else t.diffuse_other_cap
        if injury > cap:
            steps.append(Step(f"Diffuse: at most {cap} injury", BASE_TOLERANCE_4E))
            injury = cap
    if penetrating:
        steps.append(
            Step(f"{penetrating} penetrating x{fraction_text(mult)} = {injury} injury", mult_cite)
        )

    # Crippling (eyes and limbs, whatever the tolerance) and excess lost.
    hp = victim.hp
    hp_loss = injury
    crippling: Crippling | None = None
    auto: set[Condition] = set()
    if w.cripple_limb is not None and injury and damage_type is not DamageType.FATIGUE:
        limit = Fraction(hp, w.cripple_divisor)
        if injury > limit:
            lost = 0
            if w.excess_lost:
                keep = crippling_minimum(hp, w.cripple_divisor)
                lost = max(0, injury - keep)
                hp_loss = min(hp_loss, keep)
            crippling = Crippling(w.cripple_limb, side, limit, lost, HIT_LOCATION_001)
            auto.add(Condition.CRIPPLED)
            if w.cripple_limb is Limb.EYE:
                auto.add(Condition.BLINDED_EYE)
            steps.append(
                Step(
                    f"injury {injury} over HP/{w.cripple_divisor} cripples the "
                    f"{w.cripple_limb.value}" + (f"; {lost} excess lost" if lost else ""),
                    HIT_LOCATION_001,
                )
            )
    if (
        ew.corrosion_blinds
        and dt is DamageType.CORROSION
        and not blunt
        and injury > Fraction(hp, 2)
    ):
        auto.add(Condition.BLINDED_BOTH if injury > hp else Condition.BLINDED_EYE)
        steps.append(Step("a major corrosion wound to the face blinds", HIT_LOCATION_001))

    # Knockdown.
    kd = 0
    if not blunt and not exempt and not brainless:
        kd = ew.knockdown
        if victim.male and ew.male_knockdown:
            kd += ew.male_knockdown
    rolls: list[RequiredRoll] = []
    major = injury > Fraction(hp, 2)
    # The base rules' head and vitals trigger is one of the location's knockdown
    # effects: 001 takes them away for toxic damage to the skull or eye, a target
    # with No Brain (skull), Diffuse or Homogenous (and No Vitals: a torso hit).
    head_hit = (
        ew.head_or_vitals
        and not (blunt or exempt or brainless)
        and injury > Fraction(hp, 3)
    )
    if injury and damage_type is not DamageType.FATIGUE and (major or head_hit):
        pain = KNOCKDOWN_PAIN.get(victim.pain, 0)
        target = victim.ht + kd + pain
        why = "major wound" if major else "head or vitals hit over HP/3"
        extra = f", {kd:+d} for the location" if kd else ""
        extra += f", {pain:+d} pain threshold" if pain else ""
        rolls.append(
            RequiredRoll(
                RollKind.KNOCKDOWN,
                target,
                HIT_LOCATION_001 if kd else BASE_KNOCKDOWN_4E,
                f"{why}: HT{extra}; failure stuns and knocks down, by 5 or more knocks out",
                on_failure=frozenset({Condition.STUNNED, Condition.KNOCKED_DOWN}),
                failure_margin=5,
                on_failure_by=frozenset({Condition.UNCONSCIOUS}),
            )
        )

    # Shock.
    shock = 0
    shock_steps: list[Step] = []
    shock_factor = Fraction(1)
    if hp_loss and damage_type is not DamageType.FATIGUE:
        shock = -min(hp_loss, SHOCK_CAP)
        shock_steps.append(Step(f"shock {shock}", BASE_SHOCK_4E))
        cap = SHOCK_CAP
        if ew.male_crushing_shock != 1 and victim.male and dt is DamageType.CRUSHING:
            shock_factor = ew.male_crushing_shock
            cap = ew.male_shock_cap
            shock = -min(math.floor(-shock * shock_factor), cap)
            shock_steps.append(
                Step(f"groin, crushing: shock doubled (at most -{cap}): {shock}", HIT_LOCATION_001)
            )
        if victim.pain is PainThreshold.HIGH:
            shock = 0
            shock_steps.append(Step("high pain threshold: no shock", BASE_SHOCK_4E))
        elif victim.pain is PainThreshold.LOW:
            shock = -min(-shock * 2, max(cap, LOW_PAIN_SHOCK_CAP))
            shock_steps.append(Step(f"low pain threshold doubles shock: {shock}", BASE_SHOCK_4E))
    if ew.describe and injury:
        effects.append(Effect(ew.describe, HIT_LOCATION_001))
    return WoundAssessment(
        system=t.system,
        location=location_key,
        label=loc.label,
        side=side,
        damage_type=damage_type,
        basic_damage=basic_damage,
        armor_dr=armor_dr,
        effective_armor_dr=eff_armor,
        location_dr=location_dr,
        penetrating=penetrating,
        multiplier=mult,
        injury=injury,
        hp_loss=hp_loss,
        crippling=crippling,
        automatic=frozenset(auto),
        rolls=tuple(rolls),
        shock_penalty=shock,
        effects=tuple(effects),
        steps=tuple(steps),
        knockdown_modifier=kd,
        shock_factor=shock_factor,
        shock_steps=tuple(shock_steps),
        shock_citation=HIT_LOCATION_001 if shock_factor != 1 else None,
    )


# --------------------------------------------------------------------------- loading


def _fraction_map(obj: JSONObject, where: str) -> dict[DamageType, Fraction]:
    return {as_enum(k, DamageType, where): as_fraction(v, f"{where}.{k}") for k, v in obj.items()}


def _type_set(value: object, where: str) -> frozenset[DamageType]:
    return frozenset(
        as_enum(v, DamageType, f"{where}[{i}]") for i, v in enumerate(as_list(value, where))
    )


def _parse_wound(data: object, where: str) -> Wound001:
    obj = as_object(data, where)
    check_keys(
        obj,
        where,
        (),
        (
            "extra_dr",
            "all_multiplier",
            "multipliers",
            "tight_beam_multiplier",
            "allowed",
            "tight_beam",
            "knockdown",
            "exempt",
            "brain",
            "eye",
            "vitals",
            "head_or_vitals",
            "corrosion_blinds",
            "male_crushing_shock",
            "male_shock_cap",
            "male_knockdown",
            "limb_reduction",
            "cripple",
            "describe",
        ),
    )
    kw: dict[str, object] = {}
    for key in ("extra_dr", "knockdown", "male_shock_cap", "male_knockdown"):
        if key in obj:
            kw[key] = get_int(obj, key, where)
    for key in ("tight_beam", "brain", "eye", "vitals", "head_or_vitals", "corrosion_blinds"):
        if key in obj:
            kw[key] = get_bool(obj, key, where)
    for key in ("all_multiplier", "tight_beam_multiplier", "male_crushing_shock"):
        if key in obj:
            kw[key] = as_fraction(obj[key], f"{where}.{key}")
    if "multipliers" in obj:
        kw["multipliers"] = MappingProxyType(
            _fraction_map(
                as_object(obj["multipliers"], f"{where}.multipliers"), f"{where}.multipliers"
            )
        )
    for key in ("allowed", "exempt", "limb_reduction"):
        if key in obj:
            kw[key] = _type_set(obj[key], f"{where}.{key}")
    if "cripple" in obj:
        c = as_object(obj["cripple"], f"{where}.cripple")
        check_keys(c, f"{where}.cripple", ("limb", "divisor", "excess_lost"))
        kw["cripple_limb"] = as_enum(c["limb"], Limb, f"{where}.cripple.limb")
        divisor = get_int(c, "divisor", f"{where}.cripple")
        if divisor < 1:
            raise DataError(f"{where}.cripple.divisor: must be at least 1")
        kw["cripple_divisor"] = divisor
        kw["excess_lost"] = get_bool(c, "excess_lost", f"{where}.cripple")
    if "describe" in obj:
        kw["describe"] = get_str(obj, "describe", where)
    return Wound001(**kw)  # type: ignore[arg-type]


def parse_locations_001(data: object) -> Locations001:
    """Parsed seed 001 ``hit_locations.json`` -> ``Locations001``."""
    w = "hit_locations(001)"
    obj = as_object(data, w)
    check_keys(
        obj,
        w,
        (
            "seed",
            "random_table",
            "side_die",
            "from_above",
            "locations",
            "wounding",
            "bullet_as",
            "unliving",
            "homogenous",
            "diffuse",
            "chinks",
            "lacking",
        ),
        ("about",),
    )
    locations: dict[str, Location] = {}
    wounds: dict[str, Wound001] = {}
    for key, raw in as_object(obj["locations"], f"{w}.locations").items():
        where = f"{w}.locations.{key}"
        lo = as_object(raw, where)
        check_keys(lo, where, ("label", "area", "penalty"), ("random", "shield_penalty", "wound"))
        locations[key] = parse_location(key, lo, where, HIT_LOCATION_001)
        wounds[key] = _parse_wound(lo.get("wound", {}), f"{where}.wound")
    rows: list[RandomRow001] = []
    for i, raw in enumerate(as_list(obj["random_table"], f"{w}.random_table")):
        where = f"{w}.random_table[{i}]"
        ro = as_object(raw, where)
        check_keys(ro, where, ("roll", "location"), ("side",))
        low, high = as_int_range(ro["roll"], f"{where}.roll")
        side = ro.get("side")
        if side not in (None, "right", "left", "die"):
            raise DataError(f"{where}.side: expected 'right', 'left' or 'die'")
        rows.append(
            RandomRow001(
                low, high, get_str(ro, "location", where), side if isinstance(side, str) else None
            )
        )
    sd = as_object(obj["side_die"], f"{w}.side_die")
    check_keys(sd, f"{w}.side_die", ("right", "left"))
    fa = as_object(obj["from_above"], f"{w}.from_above")
    diffuse = as_object(obj["diffuse"], f"{w}.diffuse")
    check_keys(diffuse, f"{w}.diffuse", ("impaling_or_piercing", "other"))
    chinks = as_object(obj["chinks"], f"{w}.chinks")
    check_keys(chinks, f"{w}.chinks", ("torso", "other", "dr_divisor"))
    lacking_raw = as_object(obj["lacking"], f"{w}.lacking")
    lacking: dict[InjuryTolerance, frozenset[str]] = {}
    for k, v in lacking_raw.items():
        names = as_list(v, f"{w}.lacking.{k}")
        if not all(isinstance(n, str) for n in names):
            raise DataError(f"{w}.lacking.{k}: expected location names")
        lacking[as_enum(k, InjuryTolerance, f"{w}.lacking")] = frozenset(str(n) for n in names)
    wounding = _fraction_map(as_object(obj["wounding"], f"{w}.wounding"), f"{w}.wounding")
    missing = sorted(
        t.value for t in DamageType if t is not DamageType.BULLET and t not in wounding
    )
    if missing:
        raise DataError(f"{w}.wounding: no multiplier for {', '.join(missing)}")
    table = Locations001(
        system=get_str(obj, "seed", w),
        locations=MappingProxyType(locations),
        wounds=MappingProxyType(wounds),
        rows=tuple(rows),
        side_die_right=as_int_range(sd["right"], f"{w}.side_die.right"),
        from_above_map=MappingProxyType({k: get_str(fa, k, f"{w}.from_above") for k in fa}),
        wounding=MappingProxyType(wounding),
        bullet_as=as_enum(obj["bullet_as"], DamageType, f"{w}.bullet_as"),
        unliving=MappingProxyType(
            _fraction_map(as_object(obj["unliving"], f"{w}.unliving"), f"{w}.unliving")
        ),
        homogenous=MappingProxyType(
            _fraction_map(as_object(obj["homogenous"], f"{w}.homogenous"), f"{w}.homogenous")
        ),
        diffuse_piercing_cap=get_int(diffuse, "impaling_or_piercing", f"{w}.diffuse"),
        diffuse_other_cap=get_int(diffuse, "other", f"{w}.diffuse"),
        chink_torso=get_int(chinks, "torso", f"{w}.chinks"),
        chink_other=get_int(chinks, "other", f"{w}.chinks"),
        chink_dr_divisor=get_int(chinks, "dr_divisor", f"{w}.chinks"),
        lacking=MappingProxyType(lacking),
    )
    _validate_001(table)
    return table


def _validate_001(t: Locations001) -> None:
    names = set(t.locations)
    refs = [r.location for r in t.rows] + list(t.from_above_map) + list(t.from_above_map.values())
    for keys in t.lacking.values():
        refs += list(keys)
    bad = sorted(set(refs) - names)
    if bad:
        raise DataError(f"hit_locations(001): unknown location(s) {', '.join(bad)}")
    for total in range(3, 19):
        hits = [r for r in t.rows if r.low <= total <= r.high]
        if len(hits) != 1:
            raise DataError(f"hit_locations(001).random_table: {len(hits)} rows for {total}")
    on_table = {r.location for r in t.rows}
    for key, loc in t.locations.items():
        if loc.random != (key in on_table):
            raise DataError(
                f"hit_locations(001).locations.{key}: 'random' does not match the table"
            )
    if t.chink_dr_divisor < 1:
        raise DataError("hit_locations(001).chinks.dr_divisor: must be at least 1")


@dataclass(frozen=True, slots=True)
class _HumanoidTry:
    """One roll on the humanoid table (``Locations001.roll_random``): 3d6, a
    hand or foot's side die, the location, and whether it is under cover (then
    rolled again). What follows reads where the accepted roll landed, and on
    which side."""

    table: ByIdentity[Locations001]
    from_above: bool
    covered: frozenset[str]
    what: str | None

    def __call__(self, rng: DiceSource) -> tuple[LocationAttempt, Step, BodySide | None]:
        table, what = self.table.value, self.what
        dice = roll(3, rng, what=what)
        total = sum(dice)
        row_key, side = table.lookup(total, 1)
        side_die: int | None = None
        if any(r.low <= total <= r.high and r.side == "die" for r in table.rows):
            side_what = None if what is None else f"{what}: side die (1-3 right)"
            side_die = roll(1, rng, what=side_what)[0]
            row_key, side = table.lookup(total, side_die)
        key = table._above(row_key, self.from_above)
        hidden = key in self.covered
        text = f"3d6 {'+'.join(map(str, dice))} = {total}: {row_key}"
        if side_die is not None:
            text += f"; side die {side_die}"
        if side is not None:
            text += f" ({side.value})"
        if key != row_key:
            text += f", from directly above: {key}"
        if hidden:
            text += " (under cover: roll again)"
        step = Step(text, BASE_TABLE_4E if not hidden else RANDOM_001)
        attempt = LocationAttempt(dice, 0, total, total, side_die, None, key, hidden)
        return attempt, step, side

    def reads(self, result: tuple[LocationAttempt, Step, BodySide | None]) -> Hashable:
        return result[0].location, result[2]

    def accepted(self, result: tuple[LocationAttempt, Step, BodySide | None]) -> bool:
        return not result[0].covered
