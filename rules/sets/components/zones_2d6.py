"""The 2d6 hit zones of seed 004 (the Endless Horizons damage chapter), neutral
and pure: the zone table with its damage multipliers, aiming at a zone by size
steps, and the bone protection of a human's vital organs. It imports only
``rules.core`` and serves any ruleset (seed 004 itself; seed 000's
"locations-2d6" option).

How a hit is resolved with it (004 Zones):

1. The zone: ``roll_zone(dice)`` rolls 2d6 through the ``DiceSource`` and reads
   ``ZONE_TABLE`` (``zone_for_roll``); an aimed attack that succeeds names its
   zone instead and rolls nothing. ``zone_distribution()`` is the exact chance of
   each zone. The two vital-organ rows are told apart: 2 is the heart, 12 the
   brain (next to the head's 10 and 11); ``Zone.HEART`` and ``Zone.BRAIN`` both
   read "vital organ" in the table and have the same multiplier.
2. The armor: the caller subtracts the damage reduction of the zone's armor
   (``armor_zone``: a vital organ is covered by what covers the zone around it,
   the torso for the heart and the head for the brain) from the damage rolled.
3. The zone's effect: ``zone_damage(zone, blow, damage_after_armor)`` gives the
   damage done, after the vital-organ rules and the multiplier (torso x2, head
   x3, vital organ x6, arms and legs x1), and which zone took it.

The human vital-organ rules (004 Humans), read on the damage left after armor:

- bludgeoning below 10 (``BLUDGEONING_REACHES_ORGAN``) is a hit on the zone
  around the organ, with that zone's multiplier (torso x2 for the heart, head x3
  for the brain); exactly 10 or more reaches the organ (x6);
- slashing cannot harm an organ that is not exposed: no damage at all (the rib
  cage or skull turns the edge);
- piercing above 2 (``PIERCING_STOPPED_UP_TO``) does full damage (x6); 2 or less
  (exactly 2 included) is stopped by the bone: no damage;
- other damage (fire, acid ...) has no special rule for humans: x6;
- an exposed organ (the caller's ``exposed``) has no bone before it: these rules
  are all about the skull and the rib cage, so none applies and any damage is x6.

Aiming (004 Zones, sizes from the base rules' size categories): aiming at a body
part makes the target one size step smaller, at a vital organ two steps;
``aimed_size`` gives the size the attack is made against, None when it would be
below ``Size.TINY`` (aiming at that zone is then impossible, ``aim_problem``
says why). The difficulty a size means is the ruleset's.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, distribution, roll

ZONES_CITATION = cite("004", "Zones")
VITAL_CITATION = cite("004", "Vital Organs")
HUMANS_CITATION = cite("004", "Humans")
SIZE_CITATION = Citation("base-004", "ranged combat: size categories")

# Bludgeoning damage (after armor) below this reaches only the zone around the organ.
BLUDGEONING_REACHES_ORGAN = 10
# Piercing damage (after armor) of this much or less is stopped by the bone.
PIERCING_STOPPED_UP_TO = 2
# A vital organ's multiplier, when any damage reaches it.
VITAL_MULTIPLIER = 6


class Zone(Enum):
    """A hit zone of a human or human-like creature (004 Zones)."""

    HEART = "heart"
    LEGS = "legs"
    TORSO = "torso"
    ARMS = "arms"
    HEAD = "head"
    BRAIN = "brain"

    @property
    def label(self) -> str:
        return _LABELS[self]

    @property
    def is_vital(self) -> bool:
        return self in (Zone.HEART, Zone.BRAIN)

    @property
    def multiplier(self) -> int:
        """The damage multiplier of a hit that the zone itself takes."""
        return _MULTIPLIERS[self]

    @property
    def surrounding(self) -> Zone:
        """The zone around a vital organ (torso for the heart, head for the
        brain); any other zone is its own."""
        return _SURROUNDING.get(self, self)


_LABELS = {
    Zone.HEART: "vital organ (heart)",
    Zone.LEGS: "legs",
    Zone.TORSO: "torso",
    Zone.ARMS: "arms",
    Zone.HEAD: "head",
    Zone.BRAIN: "vital organ (brain)",
}
_MULTIPLIERS = {
    Zone.HEART: VITAL_MULTIPLIER,
    Zone.LEGS: 1,
    Zone.TORSO: 2,
    Zone.ARMS: 1,
    Zone.HEAD: 3,
    Zone.BRAIN: VITAL_MULTIPLIER,
}
_SURROUNDING = {Zone.HEART: Zone.TORSO, Zone.BRAIN: Zone.HEAD}

# The zones that wear armor of their own (a vital organ wears its surrounding's).
ARMORED_ZONES: tuple[Zone, ...] = (Zone.HEAD, Zone.TORSO, Zone.ARMS, Zone.LEGS)


def armor_zone(zone: Zone) -> Zone:
    """The zone whose armor protects ``zone``."""
    return zone.surrounding


@dataclass(frozen=True, slots=True)
class ZoneRow:
    """One row of the 2d6 zone table: the totals, the zone and the row's citation."""

    rolls: tuple[int, ...]
    zone: Zone
    citation: Citation

    @property
    def label(self) -> str:
        """The row as the seed names it: "5,6,7 Torso"."""
        return f"{','.join(map(str, self.rolls))} {self.zone.label}"


ZONE_TABLE: tuple[ZoneRow, ...] = (
    ZoneRow((2,), Zone.HEART, cite("004", "Zones: 2 Vital Organ")),
    ZoneRow((3, 4), Zone.LEGS, cite("004", "Zones: 3,4 Legs")),
    ZoneRow((5, 6, 7), Zone.TORSO, cite("004", "Zones: 5,6,7 Torso")),
    ZoneRow((8, 9), Zone.ARMS, cite("004", "Zones: 8,9 Arms")),
    ZoneRow((10, 11), Zone.HEAD, cite("004", "Zones: 10, 11 Head")),
    ZoneRow((12,), Zone.BRAIN, cite("004", "Zones: 12 Vital Organ")),
)


def zone_row(total: int) -> ZoneRow:
    """The table row of a 2d6 total (2..12); ``ValueError`` outside it."""
    for row in ZONE_TABLE:
        if total in row.rolls:
            return row
    raise ValueError(f"a 2d6 total is 2..12, got {total}")


def zone_for_roll(total: int) -> Zone:
    return zone_row(total).zone


@dataclass(frozen=True, slots=True)
class ZoneRoll:
    """A rolled hit zone: the two faces, their total and the zone."""

    faces: tuple[int, ...]
    total: int
    zone: Zone

    @property
    def citation(self) -> Citation:
        return zone_row(self.total).citation


def roll_zone(dice: DiceSource, what: str = "hit zone", *, zone_read: bool = False) -> ZoneRoll:
    """Roll 2d6 for the hit zone, through ``dice``. ``zone_read``: the caller
    reads the roll through its zone alone (not its total or row), so the exact
    odds may branch once per zone (``rules.core.enumerate``, ``by_reads``)."""
    faces = roll(2, dice, reads=zone_for_roll if zone_read else None, what=what)
    total = sum(faces)
    return ZoneRoll(faces, total, zone_for_roll(total))


@functools.cache
def zone_distribution() -> Mapping[Zone, Fraction]:
    """The exact chance of each zone on a random hit (sums to 1)."""
    chances: dict[Zone, Fraction] = {}
    for total, p in distribution(2).items():
        zone = zone_for_roll(total)
        chances[zone] = chances.get(zone, Fraction(0)) + p
    return MappingProxyType(chances)


# --- aiming --------------------------------------------------------------------------


class Size(Enum):
    """The base rules' size categories of a target, smallest first (a standing
    human is medium, kneeling or sitting small, lying prone tiny)."""

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"

    @property
    def step(self) -> int:
        """Its place on the scale: tiny 0 .. huge 4."""
        return _SIZE_ORDER.index(self)

    @property
    def label(self) -> str:
        return self.value


_SIZE_ORDER = tuple(Size)


def aim_steps(zone: Zone) -> int:
    """Size steps that aiming at ``zone`` costs: two for a vital organ, one for
    any other body part."""
    return 2 if zone.is_vital else 1


def aimed_size(target: Size, zone: Zone) -> Size | None:
    """The size an attack aimed at ``zone`` of a ``target``-sized foe is made
    against; None when it would fall below tiny (the zone cannot be aimed at)."""
    step = target.step - aim_steps(zone)
    return _SIZE_ORDER[step] if step >= 0 else None


def aim_problem(target: Size, zone: Zone) -> str:
    """Why ``zone`` cannot be aimed at on a ``target``-sized foe; "" if it can."""
    if aimed_size(target, zone) is not None:
        return ""
    steps = aim_steps(zone)
    return (
        f"a {target.label} target made {steps} size step{'s' if steps > 1 else ''} "
        "smaller would be below tiny"
    )


# --- the zone's effect ---------------------------------------------------------------


class Blow(Enum):
    """The kind of damage, as the vital-organ rules tell them apart."""

    PIERCING = "piercing"
    SLASHING = "slashing"
    BLUDGEONING = "bludgeoning"
    OTHER = "other"  # fire, acid ...: no bone protection rule

    @property
    def label(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class ZoneDamage:
    """What a hit on a zone did: ``zone`` is the zone that took it (the
    surrounding one when a bludgeoning blow was turned aside), ``base`` the damage
    after armor (and after the organ rules: 0 when the bone stopped it),
    ``multiplier`` the zone's, ``damage`` the hit points lost, and ``rule`` a few
    words on a vital-organ rule that applied ("" for none), cited."""

    aimed_zone: Zone
    zone: Zone
    base: int
    multiplier: int
    damage: int
    rule: str = ""
    citation: Citation = ZONES_CITATION

    @property
    def moved(self) -> bool:
        return self.zone is not self.aimed_zone

    @property
    def stopped(self) -> bool:
        """The organ rules turned a hit with damage into none."""
        return bool(self.rule) and self.damage == 0


def zone_damage(zone: Zone, blow: Blow, after_armor: int, *, exposed: bool = False) -> ZoneDamage:
    """The damage a hit on ``zone`` does with ``after_armor`` left after the
    zone's armor; a vital organ follows the human rules (``exposed``: the organ
    lies open, no skull or rib cage guards it, so no bone rule applies and any
    blow does x6)."""
    left = max(0, after_armor)
    if not zone.is_vital or left == 0:
        return ZoneDamage(zone, zone, left, zone.multiplier, left * zone.multiplier)
    if exposed:
        return ZoneDamage(
            zone,
            zone,
            left,
            VITAL_MULTIPLIER,
            left * VITAL_MULTIPLIER,
            "the organ lies exposed: no bone guards it",
            HUMANS_CITATION,
        )
    if blow is Blow.BLUDGEONING and left < BLUDGEONING_REACHES_ORGAN:
        around = zone.surrounding
        return ZoneDamage(
            zone,
            around,
            left,
            around.multiplier,
            left * around.multiplier,
            f"bludgeoning below {BLUDGEONING_REACHES_ORGAN}: the {around.label} takes it",
            HUMANS_CITATION,
        )
    if blow is Blow.SLASHING:
        return ZoneDamage(
            zone,
            zone,
            0,
            VITAL_MULTIPLIER,
            0,
            "slashing cannot harm an unexposed organ",
            HUMANS_CITATION,
        )
    if blow is Blow.PIERCING and left <= PIERCING_STOPPED_UP_TO:
        return ZoneDamage(
            zone,
            zone,
            0,
            VITAL_MULTIPLIER,
            0,
            f"piercing of {PIERCING_STOPPED_UP_TO} or less is stopped by the bone",
            HUMANS_CITATION,
        )
    rule = {
        Blow.PIERCING: f"piercing above {PIERCING_STOPPED_UP_TO} goes through the bone",
        Blow.BLUDGEONING: f"bludgeoning of {BLUDGEONING_REACHES_ORGAN} or more crushes through",
    }.get(blow, "")
    return ZoneDamage(
        zone,
        zone,
        left,
        VITAL_MULTIPLIER,
        left * VITAL_MULTIPLIER,
        rule,
        HUMANS_CITATION if rule else VITAL_CITATION,
    )
