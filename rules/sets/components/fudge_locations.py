"""FUDGE hit location and wounds by body part (FUDGE optional rule 5.87, seed 003),
as a neutral component: seed 003's ruleset plays it, and seed 000's
"locations-fudge" option borrows it. It imports no ruleset package.

What is here, each piece usable on its own:

- The ladder (``ladder_label``): FUDGE's seven named levels, Terrible (-3) to
  Superb (+3), and the levels past them that a hand's or a foot's damage
  capacity can reach ("Terrible-2").
- The body (``BodyPart``, ``PartGroup``, ``Side``): ten parts, torso and head
  (``PartKind.BODY``) and left/right arm, hand, leg, foot (``PartKind.LIMB``).
- Aiming (``AimTarget``, ``AIM_TARGETS``, ``aim_target``; 003 5.871): the penalty
  to hit by the size of what is aimed at: the eyes -3 (a head wound), hands, feet
  and the head -2, arms and legs -1, the torso 0; ``LARGE_TARGET_TO_HIT`` (+1) with
  ``LARGE_TARGET_DAMAGE`` (-1) for a target bigger than a man's torso; no part
  named is the torso (``UNAIMED``).
- The random location (``roll_random_location``, ``random_location_odds``): 1d6
  (1 extremity, 2 leg, 3-4 torso, 5 arm, 6 head), an extremity's second d6 (1-3
  foot, 4-6 hand), and a limb's side d6 (1-3 left, 4-6 right), every die through
  the ``DiceSource``; ``random_location_odds`` is its exact distribution,
  enumerated from the same function.
- Damage capacity per part (``part_capacity``; 003 5.872): the general level
  minus 2 for hands and feet, minus 1 for arms, legs and the head, the torso
  unchanged. Constitution is not changed per part (the caller keeps it whole).
- The wound track per part (``PartTrack``, ``BodyTracks``; 003 5.872, 5.873):
  five levels, Scratch, Hurt, Very Hurt, then Incapacitated and Near Death for
  the torso and head or Useless and Crippled for a limb, each with its boxes
  (``track_boxes``). The seed's box table is read as a rule: at Fair every level
  has 2 boxes; each level of capacity below Fair takes one box from Very Hurt,
  then Hurt, then Scratch (never below 1); each level above Fair adds one, in the
  same order (never more than 3). Incapacitated/Useless and Near Death/Crippled
  always keep 2. So Mediocre is 2 2 1 2 2 and Poor 2 1 1 2 2, as the seed's
  Fair-capacity example shows. A wound checks a box of its level; when that
  level's boxes are all checked it moves up to the next level with a free box
  (base rules, recording wounds). A wound with no free box at or above its level
  goes past the track: the torso or head is dead, a limb is lost for good
  (``PartState.DEAD`` / ``PartState.LOST``).
- The states of a part (``PartState``) and what they mean: a Useless or Crippled
  arm or hand drops what it holds; a Useless or Crippled leg or foot drops its
  owner (``drops_held``, ``fells``); ``LOST`` is permanent.
- Modifiers due to damage (``BodyTracks.activity_penalty``; 003 5.874): only the
  worst wound among the parts an activity uses counts, -1 Hurt, -2 Very Hurt, 0
  for a Scratch; the torso and head count for every activity (base rules: a body
  wound hurts all actions). ``standing_fight_parts`` is the seed's example:
  fighting on one's feet uses both legs and feet and the weapon arm and hand.
- The damage table of the base rules (``wound_for_damage``): final damage 1-2 a
  Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated, 9+ Near Death; 0 or less
  none. And widespread damage (``widespread_share``; 003 5.876): every exposed
  part takes half the final damage, rounded up, figured per part with its armor.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from fractions import Fraction
from types import MappingProxyType

from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, roll
from rules.core.enumerate import exact_outcomes
from rules.core.errors import RulesError
from rules.core.quick_init import quick_init

__all__ = [
    "AIM_TARGETS",
    "BODY_PARTS",
    "LADDER",
    "LARGE_TARGET_DAMAGE",
    "LARGE_TARGET_TO_HIT",
    "UNAIMED",
    "AimTarget",
    "BodyPart",
    "BodyTracks",
    "PartGroup",
    "PartKind",
    "PartState",
    "PartTrack",
    "RandomLocation",
    "Side",
    "WoundLevel",
    "WoundMark",
    "aim_target",
    "ladder_label",
    "part_capacity",
    "random_location_odds",
    "roll_random_location",
    "standing_fight_parts",
    "track_boxes",
    "widespread_share",
    "wound_for_damage",
]

SEED = "003"
HIT_LOCATION = cite(SEED, "5.871 Hit Location")
PART_DAMAGE = cite(SEED, "5.872 Damage to an Individual Body Part")
USELESS_LIMBS = cite(SEED, "5.873 Useless and Crippled Limbs")
DAMAGE_MODIFIERS = cite(SEED, "5.874 Modifiers Due to Damage")
WIDESPREAD = cite(SEED, "5.876 Widespread Damage")
BASE_LADDER = Citation("base-003", "the trait ladder")
BASE_WOUND_LEVELS = Citation("base-003", "wound levels and recording wounds")

# --- the ladder -----------------------------------------------------------------------

LADDER: Mapping[int, str] = MappingProxyType(
    {
        3: "Superb",
        2: "Great",
        1: "Good",
        0: "Fair",
        -1: "Mediocre",
        -2: "Poor",
        -3: "Terrible",
    }
)
LADDER_TOP = 3
LADDER_BOTTOM = -3


def ladder_label(level: int) -> str:
    """A level's name: "Fair" for 0, "Great" for +2; past the ladder's ends the
    end's name with the distance ("Terrible-2" for -5, "Superb+1" for 4)."""
    if level > LADDER_TOP:
        return f"{LADDER[LADDER_TOP]}+{level - LADDER_TOP}"
    if level < LADDER_BOTTOM:
        return f"{LADDER[LADDER_BOTTOM]}{level - LADDER_BOTTOM}"
    return LADDER[level]


# --- the body -------------------------------------------------------------------------


class PartKind(Enum):
    """Torso and head take body wounds (Incapacitated, Near Death); limbs take
    Useless and Crippled instead."""

    BODY = "body"
    LIMB = "limb"


class Side(Enum):
    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> Side:
        return Side.RIGHT if self is Side.LEFT else Side.LEFT


class PartGroup(Enum):
    """A part without its side, with the rules that depend on it only."""

    TORSO = "torso"
    HEAD = "head"
    ARM = "arm"
    HAND = "hand"
    LEG = "leg"
    FOOT = "foot"

    @property
    def kind(self) -> PartKind:
        return PartKind.BODY if self in (PartGroup.TORSO, PartGroup.HEAD) else PartKind.LIMB

    @property
    def capacity_offset(self) -> int:
        """003 5.872: levels off the general damage capacity."""
        return _CAPACITY_OFFSETS[self]

    @property
    def aim_penalty(self) -> int:
        """003 5.871: the penalty to hit the part, by its size."""
        return _AIM_PENALTIES[self]


_CAPACITY_OFFSETS = {
    PartGroup.TORSO: 0,
    PartGroup.HEAD: -1,
    PartGroup.ARM: -1,
    PartGroup.LEG: -1,
    PartGroup.HAND: -2,
    PartGroup.FOOT: -2,
}
_AIM_PENALTIES = {
    PartGroup.TORSO: 0,
    PartGroup.HEAD: -2,
    PartGroup.ARM: -1,
    PartGroup.LEG: -1,
    PartGroup.HAND: -2,
    PartGroup.FOOT: -2,
}


class BodyPart(Enum):
    """The ten parts with a wound track each, in the order a sheet lists them."""

    TORSO = "torso"
    HEAD = "head"
    LEFT_ARM = "left arm"
    LEFT_HAND = "left hand"
    RIGHT_ARM = "right arm"
    RIGHT_HAND = "right hand"
    LEFT_LEG = "left leg"
    LEFT_FOOT = "left foot"
    RIGHT_LEG = "right leg"
    RIGHT_FOOT = "right foot"

    @property
    def group(self) -> PartGroup:
        return _GROUP_OF[self]

    @property
    def side(self) -> Side | None:
        return _SIDE_OF[self]

    @property
    def kind(self) -> PartKind:
        return self.group.kind

    @property
    def label(self) -> str:
        return self.value.capitalize()

    @property
    def drops_held(self) -> bool:
        """003 5.873: a Useless arm or hand drops what it holds."""
        return self.group in (PartGroup.ARM, PartGroup.HAND)

    @property
    def fells(self) -> bool:
        """003 5.873: a Useless leg or foot drops its owner to the ground."""
        return self.group in (PartGroup.LEG, PartGroup.FOOT)

    @classmethod
    def of(cls, group: PartGroup, side: Side | None = None) -> BodyPart:
        """The part of ``group`` on ``side`` (no side for torso and head)."""
        if group.kind is PartKind.BODY:
            if side is not None:
                raise RulesError(f"the {group.value} has no side")
            return cls(group.value)
        if side is None:
            raise RulesError(f"which {group.value}: left or right?")
        return cls(f"{side.value} {group.value}")


def _side_named(part: BodyPart) -> Side | None:
    first = part.value.split()[0]
    return Side(first) if first in ("left", "right") else None


# Each part's group and side, read from its name once (the wound rules ask often).
_GROUP_OF = {part: PartGroup(part.value.split()[-1]) for part in BodyPart}
_SIDE_OF = {part: _side_named(part) for part in BodyPart}


BODY_PARTS: tuple[BodyPart, ...] = tuple(BodyPart)


def arm_parts(side: Side) -> tuple[BodyPart, BodyPart]:
    """The arm and hand of one side."""
    return BodyPart.of(PartGroup.ARM, side), BodyPart.of(PartGroup.HAND, side)


def leg_parts() -> tuple[BodyPart, ...]:
    """Both legs and feet."""
    return (BodyPart.LEFT_LEG, BodyPart.LEFT_FOOT, BodyPart.RIGHT_LEG, BodyPart.RIGHT_FOOT)


def standing_fight_parts(weapon_side: Side, *, two_handed: bool = False) -> frozenset[BodyPart]:
    """003 5.874's example: fighting on one's feet uses the legs and feet and the
    weapon arm and hand (both arms and hands for a two-handed weapon)."""
    parts = set(leg_parts()) | set(arm_parts(weapon_side))
    if two_handed:
        parts |= set(arm_parts(weapon_side.other))
    return frozenset(parts)


# --- aiming ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AimTarget:
    """What an attack may aim at: ``key`` as an attack's choices name it, the part
    whose track a hit marks, and the penalty to hit by its size."""

    key: str
    label: str
    part: BodyPart
    penalty: int
    citation: Citation = HIT_LOCATION


def _part_target(part: BodyPart) -> AimTarget:
    return AimTarget(part.value, part.label, part, part.group.aim_penalty)


# The eyes: the seed's smallest size (-3, "eyes, coins"); a hit there is a head wound.
EYES = AimTarget("eyes", "Eyes", BodyPart.HEAD, -3)
AIM_TARGETS: tuple[AimTarget, ...] = (
    *(_part_target(p) for p in BODY_PARTS[:2]),
    EYES,
    *(_part_target(p) for p in BODY_PARTS[2:]),
)
UNAIMED = AIM_TARGETS[0]  # 003 5.871: an attack that names no part is at the torso
# 003 5.871: a target larger than a man's torso (a giant's body, a dragon) is easier
# to hit, and the bonus does not become damage.
LARGE_TARGET_TO_HIT = 1
LARGE_TARGET_DAMAGE = -1

_AIMS_BY_KEY = {t.key: t for t in AIM_TARGETS}


def aim_target(key: str | None) -> AimTarget:
    """The target named by ``key``; None is the torso. ``RulesError`` for a key
    that names nothing."""
    if key is None:
        return UNAIMED
    target = _AIMS_BY_KEY.get(key)
    if target is None:
        known = ", ".join(_AIMS_BY_KEY)
        raise RulesError(f"no body part {key!r} to aim at (one of {known})")
    return target


# --- the random location --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RandomLocation:
    """One roll of the random location: the part hit, the faces in the order
    rolled (the location die, then the extremity die if any, then the side die if
    any) and each step in a GM's words ("1: extremity", "5: hand", "2: left")."""

    part: BodyPart
    faces: tuple[int, ...]
    steps: tuple[str, ...]
    citation: Citation = HIT_LOCATION


# The location die: face -> what it hits; None is an extremity (a second die).
LOCATION_DIE: Mapping[int, PartGroup | None] = MappingProxyType(
    {
        1: None,
        2: PartGroup.LEG,
        3: PartGroup.TORSO,
        4: PartGroup.TORSO,
        5: PartGroup.ARM,
        6: PartGroup.HEAD,
    }
)


def extremity_of(face: int) -> PartGroup:
    """The extremity die: 1-3 a foot, 4-6 a hand."""
    return PartGroup.FOOT if face <= 3 else PartGroup.HAND


def side_of(face: int) -> Side:
    """The side die: 1-3 left, 4-6 right."""
    return Side.LEFT if face <= 3 else Side.RIGHT


def _location_group(face: int) -> PartGroup | None:
    return LOCATION_DIE[face]


def roll_random_location(dice: DiceSource, *, whose: str = "", what: str = "") -> RandomLocation:
    """Roll the random location (003 5.871) through ``dice``: 1d6 on the table, a
    second d6 for an extremity, a last d6 for the side of a limb. ``whose`` names
    the target for dice rolled at the table ("Brigand's hit location"), or ``what``
    the whole roll ("where the blow lands on Brigand: hit location")."""
    prefix = f"{what}: " if what else f"{whose}'s " if whose else ""
    # Each die is read only through what it selects (``reads``): the exact odds
    # branch once per group, extremity and side rather than per face.
    (face,) = roll(1, dice, what=f"{prefix}hit location", reads=_location_group)
    faces = [face]
    group = LOCATION_DIE[face]
    if group is None:
        steps = [f"{face}: extremity"]
        (second,) = roll(
            1, dice, what=f"{prefix}extremity (1-3 foot, 4-6 hand)", reads=extremity_of
        )
        faces.append(second)
        group = extremity_of(second)
        steps.append(f"{second}: {group.value}")
    else:
        steps = [f"{face}: {group.value}"]
    side: Side | None = None
    if group.kind is PartKind.LIMB:
        (third,) = roll(
            1, dice, what=f"{prefix}{group.value}'s side (1-3 left, 4-6 right)", reads=side_of
        )
        faces.append(third)
        side = side_of(third)
        steps.append(f"{third}: {side.value}")
    return RandomLocation(BodyPart.of(group, side), tuple(faces), tuple(steps))


@functools.cache
def random_location_odds() -> Mapping[BodyPart, Fraction]:
    """The exact chance of each part under ``roll_random_location``: torso 1/3,
    head 1/6, each arm and each leg 1/12, each hand and each foot 1/24."""
    odds = exact_outcomes(lambda dice: roll_random_location(dice).part)
    return MappingProxyType({p: odds[p] for p in BODY_PARTS if p in odds})


# --- damage capacity and the wound tracks ---------------------------------------------


def part_capacity(general: int, part: BodyPart | PartGroup) -> int:
    """003 5.872: a part's damage capacity from the general one (ladder levels)."""
    group = part.group if isinstance(part, BodyPart) else part
    return general + group.capacity_offset


class WoundLevel(IntEnum):
    """The five levels of a wound track, worst last."""

    SCRATCH = 1
    HURT = 2
    VERY_HURT = 3
    INCAPACITATED = 4  # a limb: Useless
    NEAR_DEATH = 5  # a limb: Crippled

    def label(self, kind: PartKind = PartKind.BODY) -> str:
        names = _LIMB_LEVEL_NAMES if kind is PartKind.LIMB else _BODY_LEVEL_NAMES
        return names[self]

    @property
    def penalty(self) -> int:
        """The modifier of a wound at this level (Scratch 0, Hurt -1, Very Hurt
        -2); the two worst levels stop the part instead (``PartState``)."""
        return _LEVEL_PENALTIES.get(self, 0)


_BODY_LEVEL_NAMES = {
    WoundLevel.SCRATCH: "Scratch",
    WoundLevel.HURT: "Hurt",
    WoundLevel.VERY_HURT: "Very Hurt",
    WoundLevel.INCAPACITATED: "Incapacitated",
    WoundLevel.NEAR_DEATH: "Near Death",
}
_LIMB_LEVEL_NAMES = {
    **_BODY_LEVEL_NAMES,
    WoundLevel.INCAPACITATED: "Useless",
    WoundLevel.NEAR_DEATH: "Crippled",
}
_LEVEL_PENALTIES = {WoundLevel.HURT: -1, WoundLevel.VERY_HURT: -2}
LEVELS: tuple[WoundLevel, ...] = tuple(WoundLevel)

# The order in which capacity away from Fair takes or adds boxes (see the module doc).
_BOX_ORDER = (WoundLevel.VERY_HURT, WoundLevel.HURT, WoundLevel.SCRATCH)
FAIR_BOXES = 2
MIN_BOXES = 1
MAX_BOXES = 3


@functools.cache
def track_boxes(capacity: int) -> tuple[int, int, int, int, int]:
    """The boxes of each level (Scratch .. Near Death/Crippled) of a track at
    ``capacity``: Fair 2 2 2 2 2, Mediocre 2 2 1 2 2, Poor 2 1 1 2 2, Terrible and
    below 1 1 1 2 2; Good 2 2 3 2 2, Great 2 3 3 2 2, Superb and above 3 3 3 2 2."""
    boxes = dict.fromkeys(LEVELS, FAIR_BOXES)
    step = 1 if capacity > 0 else -1
    for level in _BOX_ORDER[: min(abs(capacity), len(_BOX_ORDER))]:
        boxes[level] = max(MIN_BOXES, min(MAX_BOXES, boxes[level] + step))
    s, h, v, i, n = (boxes[level] for level in LEVELS)
    return (s, h, v, i, n)


class PartState(Enum):
    """How a part is, from its worst checked box."""

    UNHURT = "unhurt"
    SCRATCHED = "scratched"
    HURT = "hurt"
    VERY_HURT = "very hurt"
    INCAPACITATED = "incapacitated"  # torso or head
    NEAR_DEATH = "near death"  # torso or head
    DEAD = "dead"  # torso or head: past Near Death
    USELESS = "useless"  # a limb
    CRIPPLED = "crippled"  # a limb: as useless, heals twice as slowly
    LOST = "lost"  # a limb past Crippled: cut off, crushed, withered; permanent

    @property
    def disabled(self) -> bool:
        """Whether the part can no longer be used (limb) or act (body)."""
        return self in _DISABLED

    @property
    def label(self) -> str:
        return self.value


_DISABLED = frozenset(
    {
        PartState.INCAPACITATED,
        PartState.NEAR_DEATH,
        PartState.DEAD,
        PartState.USELESS,
        PartState.CRIPPLED,
        PartState.LOST,
    }
)
_STATE_BY_LEVEL = {
    PartKind.BODY: {
        WoundLevel.SCRATCH: PartState.SCRATCHED,
        WoundLevel.HURT: PartState.HURT,
        WoundLevel.VERY_HURT: PartState.VERY_HURT,
        WoundLevel.INCAPACITATED: PartState.INCAPACITATED,
        WoundLevel.NEAR_DEATH: PartState.NEAR_DEATH,
    },
    PartKind.LIMB: {
        WoundLevel.SCRATCH: PartState.SCRATCHED,
        WoundLevel.HURT: PartState.HURT,
        WoundLevel.VERY_HURT: PartState.VERY_HURT,
        WoundLevel.INCAPACITATED: PartState.USELESS,
        WoundLevel.NEAR_DEATH: PartState.CRIPPLED,
    },
}


@dataclass(frozen=True, slots=True)
class WoundMark:
    """What one wound did to one part: the level dealt, the level whose box it
    checked (higher when the dealt level was full; None when it went past the
    track), and the part's state before and after."""

    part: BodyPart
    dealt: WoundLevel
    marked: WoundLevel | None
    before: PartState
    after: PartState

    @property
    def moved_up(self) -> bool:
        return self.marked is None or self.marked > self.dealt

    def describe(self) -> str:
        kind = self.part.kind
        text = f"{self.part.label}: {self.dealt.label(kind)}"
        if self.marked is None:
            text += f", no box left: {self.after.label}"
        elif self.marked != self.dealt:
            text += f", box full: marked {self.marked.label(kind)}"
        shown = self.marked.label(kind).lower() if self.marked is not None else ""
        if self.after is not self.before and self.after.disabled and self.after.label != shown:
            text += f" ({self.after.label})"
        return text


@quick_init
@dataclass(frozen=True, slots=True)
class PartTrack:
    """One part's wound track: its damage capacity (ladder level), the boxes
    checked at each level (Scratch .. Near Death/Crippled) and whether a wound
    went past the track (dead torso or head, lost limb)."""

    part: BodyPart
    capacity: int
    checked: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    past: bool = False

    @property
    def boxes(self) -> tuple[int, int, int, int, int]:
        return track_boxes(self.capacity)

    @property
    def worst(self) -> WoundLevel | None:
        """The worst level with a checked box; None for an unhurt part."""
        for level in reversed(LEVELS):
            if self.checked[level - 1]:
                return level
        return None

    @property
    def state(self) -> PartState:
        if self.past:
            return PartState.DEAD if self.part.kind is PartKind.BODY else PartState.LOST
        worst = self.worst
        if worst is None:
            return PartState.UNHURT
        return _STATE_BY_LEVEL[self.part.kind][worst]

    @property
    def penalty(self) -> int:
        """The part's modifier while usable: 0, -1 (Hurt) or -2 (Very Hurt)."""
        worst = self.worst
        return 0 if worst is None else worst.penalty

    @property
    def boxes_free(self) -> int:
        if self.past:
            return 0
        return sum(self.boxes) - sum(self.checked)

    def with_wound(self, level: WoundLevel) -> tuple[PartTrack, WoundMark]:
        """The track after a wound at ``level``: a free box of that level, else of
        the next level up with one; none left, and the part is dead or lost."""
        before = self.state
        if self.past:
            return self, WoundMark(self.part, level, None, before, before)
        boxes = self.boxes
        for target in LEVELS[level - 1 :]:
            if self.checked[target - 1] < boxes[target - 1]:
                checked = list(self.checked)
                checked[target - 1] += 1
                c = tuple(checked)
                new = replace(self, checked=(c[0], c[1], c[2], c[3], c[4]))
                return new, WoundMark(self.part, level, target, before, new.state)
        new = replace(self, past=True)
        return new, WoundMark(self.part, level, None, before, new.state)

    def describe(self) -> str:
        """The track as a sheet row: "Hurt; boxes 2/2 1/2 0/1 0/2 0/2"."""
        marks = " ".join(f"{c}/{b}" for c, b in zip(self.checked, self.boxes, strict=True))
        return f"{self.state.label}; {marks}"


@dataclass(frozen=True, slots=True)
class BodyTracks:
    """The wound tracks of all ten parts (``BODY_PARTS`` order) of one fighter."""

    parts: tuple[PartTrack, ...]

    @classmethod
    def for_capacity(cls, general: int) -> BodyTracks:
        """Fresh tracks for a fighter of general damage capacity ``general``."""
        return cls(tuple(PartTrack(p, part_capacity(general, p)) for p in BODY_PARTS))

    def __post_init__(self) -> None:
        if tuple(t.part for t in self.parts) != BODY_PARTS:
            raise RulesError("a body's tracks list the ten parts in order")

    def track(self, part: BodyPart) -> PartTrack:
        return self.parts[BODY_PARTS.index(part)]

    def with_wound(self, part: BodyPart, level: WoundLevel) -> tuple[BodyTracks, WoundMark]:
        track, mark = self.track(part).with_wound(level)
        index = BODY_PARTS.index(part)
        return BodyTracks((*self.parts[:index], track, *self.parts[index + 1 :])), mark

    def usable(self, part: BodyPart) -> bool:
        return not self.track(part).state.disabled

    def activity_penalty(self, parts: Iterable[BodyPart]) -> tuple[int, BodyPart | None]:
        """003 5.874: the modifier of an activity that uses ``parts`` (the torso
        and head always count): the worst single wound among them, with its part
        (None: no wound counts). Not cumulative: two Hurt parts are -1."""
        counted = {BodyPart.TORSO, BodyPart.HEAD, *parts}
        worst = 0
        where: BodyPart | None = None
        for part in BODY_PARTS:
            if part in counted:
                penalty = self.track(part).penalty
                if penalty < worst:
                    worst, where = penalty, part
        return worst, where

    @property
    def body_state(self) -> PartState:
        """The worse of the torso's and the head's states (base rules: body and
        head wounds are the main text's, so either one can stop the fighter)."""
        torso = self.track(BodyPart.TORSO).state
        head = self.track(BodyPart.HEAD).state
        order = _BODY_ORDER
        return torso if order.index(torso) >= order.index(head) else head

    @property
    def disabled_limbs(self) -> tuple[BodyPart, ...]:
        return tuple(
            t.part for t in self.parts if t.part.kind is PartKind.LIMB and t.state.disabled
        )


_BODY_ORDER = (
    PartState.UNHURT,
    PartState.SCRATCHED,
    PartState.HURT,
    PartState.VERY_HURT,
    PartState.INCAPACITATED,
    PartState.NEAR_DEATH,
    PartState.DEAD,
)


# --- the damage table and widespread damage -------------------------------------------


def wound_for_damage(damage: int) -> WoundLevel | None:
    """The base rules' damage table: 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8
    Incapacitated (a limb: Useless), 9 and more Near Death (a limb: Crippled);
    0 or less no wound."""
    if damage <= 0:
        return None
    return LEVELS[min((damage - 1) // 2, len(LEVELS) - 1)]


def widespread_share(final_damage: int) -> int:
    """003 5.876: what each exposed part takes of a widespread attack's final
    damage: half, rounded up (0 or less stays no damage)."""
    if final_damage <= 0:
        return final_damage
    return -(-final_damage // 2)
