"""Seed 004's 2d6 hit zones as a seed 000 option ("locations-2d6"), instead of the
000 table.

The zones, their multipliers, the size steps of an aim and the human vital-organ
rules are the neutral component ``rules.sets.components.zones_2d6``; this module
puts them in seed 000's terms (docs/hit-locations.md, "Seed 004's zones in seed
000"):

* **Zones.** ``torso``, ``legs``, ``arms``, ``head``, ``heart`` (a roll of 2) and
  ``brain`` (12). A blow aimed at nothing is at the torso, as in seed 000 (base
  rules: the unaimed target); the "random location" choice rolls the 2d6 table
  (004 Zones) through the dice source, a covered zone rolled again (000 RANDOM HIT
  LOCATION's cover rule).
* **Aiming.** Seed 004 makes the target one size step smaller for a body part and
  two for a vital organ; in seed 000 each step costs ``SIZE_STEP_PENALTY`` (-3)
  to the attack. Every fighter of seed 000 is a man-sized target (medium): seed
  000's posture penalties already make a lower target harder to hit, so no zone
  is ever too small to aim at in melee (a medium target two steps smaller is
  still tiny) and any damage type may aim anywhere.
* **Damage.** Seed 000's damage roll, its armor DR (the same on every zone: a
  seed 000 armor covers the body), then the zone's effect on what is left: the
  vital-organ rules (crushing is bludgeoning, cutting slashing, impaling and the
  piercing types and bullets piercing; burning, corrosion, toxic and fatigue
  damage have no bone rule) and a multiplier that is the LARGER of the zone's
  (torso x2, head x3, vital organ x6, limbs x1) and seed 000's wounding
  multiplier for the damage type (cutting x3/2, impaling x2): seed 000's family
  lets a location's multiplier replace the ordinary one, never multiply it.
* **After the blow**, seed 000's base rules: the injury comes off the HP, with
  its shock and, over HP/2, the major wound's knockdown roll. Seed 004 has no
  crippling, so no zone cripples a limb.

``Zones2d6`` extends ``rules.sets.seed000.location_rules.UndirectedLocations``: none
of the rules only some seeds have applies to the zones, so it keeps every neutral
answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

from rules.battle.model import DamageType
from rules.core.citation import BASE_DAMAGE, Citation
from rules.core.dice import DiceSource
from rules.core.errors import IllegalAttackError, RulesError
from rules.core.modifiers import Modifier
from rules.sets.components.zones_2d6 import (
    ZONE_TABLE,
    ZONES_CITATION,
    Blow,
    Zone,
    ZoneRow,
    aim_steps,
    roll_zone,
    zone_damage,
    zone_distribution,
)
from rules.sets.seed000.location_rules import (
    UNAIMED_KEY,
    Location,
    LocationAttempt,
    LocationRoll,
    UndirectedLocations,
)
from rules.sets.seed000.wound_effects import (
    PIERCING_TYPES,
    BodySide,
    RequiredRoll,
    Step,
    Victim,
    WoundAssessment,
    fraction_text,
    injury_of,
    major_wound_roll,
    shock_000,
)

__all__ = [
    "SIZE_STEP_PENALTY",
    "SYSTEM_2D6",
    "Zones2d6",
    "blow_of",
    "zone_label",
    "zone_of",
    "zones_2d6",
]

SYSTEM_2D6 = "004"
# One size step of seed 004's aiming, as a penalty to seed 000's 3d6 attack roll:
# the middle of seed 000's own aimed penalties for a body part (arm and leg -2,
# vitals -3, hand and foot -4, head -5).
SIZE_STEP_PENALTY = -3

# Seed 000's body areas (cover, a guarded area) and the zones inside them. A
# zone's key is its value ("heart"); ``Zone`` lists them in the table's order.
_AREAS: Mapping[Zone, str] = MappingProxyType(
    {
        Zone.HEART: "torso",
        Zone.LEGS: "leg",
        Zone.TORSO: "torso",
        Zone.ARMS: "arm",
        Zone.HEAD: "head",
        Zone.BRAIN: "head",
    }
)


def zone_label(zone: Zone) -> str:
    """The zone as the attack pane's "Aim at" list and the log name it ("Heart")."""
    return zone.value.capitalize()


def _zone_possessive(zone: Zone) -> str:
    """'the torso's', 'the arms'' (a plural zone takes the apostrophe alone)."""
    name = zone.value
    return f"the {name}'" if name.endswith("s") else f"the {name}'s"


def blow_of(damage_type: DamageType) -> Blow:
    """Seed 000's damage type as seed 004's vital-organ rules tell blows apart:
    crushing bludgeons, cutting slashes, impaling, the piercing types and bullets
    pierce; burning, corrosion, toxic and fatigue damage are "other" (no bone
    rule for them)."""
    if damage_type is DamageType.CRUSHING:
        return Blow.BLUDGEONING
    if damage_type is DamageType.CUTTING:
        return Blow.SLASHING
    if damage_type is DamageType.IMPALING or damage_type in PIERCING_TYPES:
        return Blow.PIERCING
    if damage_type is DamageType.BULLET:
        return Blow.PIERCING
    return Blow.OTHER


def zone_of(key: str) -> Zone:
    try:
        return Zone(key)
    except ValueError:
        known = ", ".join(z.value for z in Zone)
        raise IllegalAttackError(f"unknown hit location {key!r} (known: {known})") from None


@dataclass(frozen=True)
class Zones2d6(UndirectedLocations):
    """Seed 004's hit zones in seed 000 (see the module docstring). ``wounding``:
    seed 000's wounding multipliers by damage type (``Tables.wounding``)."""

    no_chinks: ClassVar[str] = "the 2d6 zones have no chinks in armor"
    limb_keys: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"arm": "arms", "hand": "arms", "leg": "legs", "foot": "legs"}
    )
    wounding: Mapping[DamageType, Fraction]
    system: str = SYSTEM_2D6
    locations: Mapping[str, Location] = field(init=False, repr=False, compare=False)
    _distributions: dict[frozenset[str], Mapping[str, Fraction]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        locations = {
            zone.value: Location(
                key=zone.value,
                label=zone_label(zone),
                area=_AREAS[zone],
                penalty=0 if zone.value == UNAIMED_KEY else SIZE_STEP_PENALTY * aim_steps(zone),
                citation=ZONES_CITATION,
            )
            for zone in Zone
        }
        object.__setattr__(self, "locations", MappingProxyType(locations))

    # --- aiming -------------------------------------------------------------------
    @property
    def random_citation(self) -> Citation:
        return ZONES_CITATION

    def penalty(
        self, location_key: str, *, shield_side: bool, melee: bool, from_front: bool = True
    ) -> tuple[Modifier, ...]:
        """Aimed at a zone: one size step (-3) for a body part, two for a vital
        organ (004 Zones); the torso is the unaimed blow, with none. A shield or
        the direction has no rule here."""
        zone = zone_of(location_key)
        if location_key == UNAIMED_KEY:
            return ()
        steps = aim_steps(zone)
        return (
            Modifier(
                SIZE_STEP_PENALTY * steps,
                f"aimed at the {zone.value}: {steps} size step"
                f"{'s' if steps > 1 else ''} smaller, {SIZE_STEP_PENALTY} a step",
                ZONES_CITATION,
            ),
        )

    # --- the dice -------------------------------------------------------------------
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
        """Roll 2d6 on the zone table (004 Zones); a covered zone is rolled again.
        The table has no sides and no rule for the direction of the blow."""

        def roll_once(dice: DiceSource) -> tuple[Zone, LocationAttempt, Step]:
            rolled = roll_zone(dice, what or "hit zone")
            key = rolled.zone.value
            faces = "+".join(map(str, rolled.faces))
            text = f"2d6 {faces} = {rolled.total}: {zone_label(rolled.zone)}"
            attempt = LocationAttempt(
                rolled.faces, 0, rolled.total, rolled.total, None, None, key, False
            )
            return rolled.zone, attempt, Step(text, rolled.citation)

        zone, attempts, steps = self.roll_uncovered(rng, covered, roll_once)
        return LocationRoll(self.system, attempts, zone.value, zone_label(zone), None, None, steps)

    def random_chances(self) -> Mapping[str, Fraction]:
        """The exact chance of each zone on 2d6 (``zone_distribution``)."""
        return MappingProxyType({z.value: p for z, p in zone_distribution().items()})

    # --- wounds ----------------------------------------------------------------------
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
        """What the blow does at the zone: seed 000's armor DR, then the zone's
        effect on what is left (004 Zones, 004 Vital Organs, 004 Humans): the
        vital-organ rules, and the larger of the zone's multiplier and seed 000's
        for the damage type. Shock and a major wound's knockdown roll are seed
        000's base rules. ``side``, ``swung``, ``from_back`` and ``tight_beam``
        have no rule here."""
        self.refuse_chink(chink)
        self.location(location_key)
        zone = zone_of(location_key)
        try:
            ordinary = self.wounding[damage_type]
        except KeyError:
            raise RulesError(f"no wounding multiplier for {damage_type.value}") from None
        after_armor = max(0, basic_damage - armor_dr)
        steps = [
            Step(
                f"{basic_damage} damage - DR {armor_dr} = {after_armor} past the armor",
                BASE_DAMAGE,
            )
        ]
        hit = zone_damage(zone, blow_of(damage_type), after_armor)
        if hit.rule:
            steps.append(Step(f"{zone.value}: {hit.rule}", hit.citation))
        took = hit.zone
        if hit.damage == 0:
            # Nothing passed the armor, or the bone stopped it: a stopped blow reads
            # "x0" in the log, not the organ's x6.
            injury = 0
            multiplier = Fraction(0) if hit.stopped else Fraction(hit.multiplier)
        else:
            multiplier = max(Fraction(hit.multiplier), ordinary)
            injury = injury_of(hit.base, multiplier)
            steps.append(
                Step(
                    f"x{fraction_text(multiplier)}: the larger of {_zone_possessive(took)} "
                    f"x{hit.multiplier} and {damage_type.value} x{fraction_text(ordinary)}"
                    f" = {injury} injury",
                    _row_of(took).citation,
                )
            )
        knockdown = major_wound_roll(injury, victim)
        rolls: tuple[RequiredRoll, ...] = () if knockdown is None else (knockdown,)
        shock, shock_steps = shock_000(injury, Fraction(1), victim.pain)
        return WoundAssessment(
            system=self.system,
            location=took.value,
            label=zone_label(took),
            side=None,
            damage_type=damage_type,
            basic_damage=basic_damage,
            armor_dr=armor_dr,
            effective_armor_dr=armor_dr,
            location_dr=0,
            penetrating=after_armor,
            multiplier=multiplier,
            injury=injury,
            hp_loss=injury,
            crippling=None,
            automatic=frozenset(),
            rolls=rolls,
            shock_penalty=shock,
            effects=(),
            steps=tuple(steps),
            shock_steps=tuple(shock_steps),
        )


_ROWS = {row.zone: row for row in ZONE_TABLE}


def _row_of(zone: Zone) -> ZoneRow:
    """The zone's row of the 2d6 table (each zone has one)."""
    return _ROWS[zone]


def zones_2d6(wounding: Mapping[DamageType, Fraction]) -> Zones2d6:
    """The 2d6 zones with seed 000's wounding multipliers."""
    return Zones2d6(MappingProxyType(dict(wounding)))
