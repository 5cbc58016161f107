"""FUDGE hit location and wounds by body part (seed 003, FUDGE 5.87) as a seed 000
option ("locations-fudge"), instead of the 000 table.

The body parts, the aiming penalties by size, the 1d6 random location with its
sub-rolls and the per-part wound tracks are the neutral component
``rules.sets.components.fudge_locations``; this module puts them in seed 000's
terms (docs/hit-locations.md, "FUDGE locations in seed 000"):

* **Parts.** The torso, the head (the eyes are aimed at as a head wound), and the
  left and right arm, hand, leg and foot, keyed as the component names them
  ("left arm"). An unaimed blow is at the torso (003 5.871, and seed 000's base
  rule); "random location" rolls the 1d6 table with its sub-rolls through the dice
  source, a covered part rolled again (000 RANDOM HIT LOCATION's cover rule).
* **Aiming.** A FUDGE level is two points of a 3d6 roll (``FUDGE_LEVEL``: 4dF's
  spread is about half that of 3d6), so the size penalties double: the head,
  hands and feet -4, arms and legs -2, the eyes -6, the torso 0 - seed 000's own
  penalties for the arm, leg, hand and foot.
* **Damage.** Seed 000's damage roll, armor DR and wounding multiplier give the
  injury, which comes off the HP as in seed 000. The wound it is on the part's
  track: the fighter's HP are his general damage capacity, so the injury is read on
  the FUDGE damage table scaled to 10 HP (``fudge_damage``: injury x 10 / HP,
  rounded up; 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Incapacitated or Useless,
  9+ Near Death or Crippled), and each part's capacity is the fighter's less the
  seed's levels (torso 0, head, arms and legs -1, hands and feet -2), which give
  its boxes (Fair 2 2 2 2 2, Mediocre 2 2 1 2 2, Poor 2 1 1 2 2). A wound takes a
  box of its level, or of the next level up with one free (the component's
  reading of the seed's table).
* **What a track does.** An arm or hand that becomes Useless or Crippled is a
  crippled limb that drops what it holds onto the map; a leg or foot drops the
  fighter; past Crippled the limb is lost for good (``Condition.LIMB_LOST``). The
  torso or head at Incapacitated or Near Death knocks the fighter out; past Near
  Death he is dead. Seed 000's HP states, shock and the major wound's knockdown
  roll stay as they are (the seed 000 damage is kept).
* **Modifiers due to damage** (003 5.874, ``fighting_modifiers``): the worst wound
  among the parts an attack or a defense uses, -2 (Hurt) or -4 (Very Hurt).

The tracks are not stored: every assessment replays the victim's earlier wounds
of this system (``Victim.wounds``) onto fresh tracks, so a battle file, undo and
the odds see the same boxes.

``FudgeLocations`` extends ``rules.sets.seed000.location_rules.UndirectedLocations``:
of the rules only some seeds have, it keeps the FUDGE option's own, the modifiers due
to damage and a wound track per body part.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

from rules.battle.model import DamageType
from rules.core.citation import BASE_DAMAGE, Citation
from rules.core.dice import DiceSource
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier
from rules.sets.components.fudge_locations import (
    AIM_TARGETS,
    BASE_WOUND_LEVELS,
    DAMAGE_MODIFIERS,
    HIT_LOCATION,
    PART_DAMAGE,
    USELESS_LIMBS,
    BodyPart,
    BodyTracks,
    PartGroup,
    PartKind,
    PartState,
    RandomLocation,
    Side,
    WoundMark,
    aim_target,
    arm_parts,
    leg_parts,
    random_location_odds,
    roll_random_location,
    wound_for_damage,
)
from rules.sets.seed000.location_rules import (
    Location,
    LocationAttempt,
    LocationRoll,
    UndirectedLocations,
)
from rules.sets.seed000.wound_effects import (
    BodySide,
    Condition,
    Crippling,
    Limb,
    RequiredRoll,
    Step,
    Victim,
    Wound,
    WoundAssessment,
    fraction_text,
    injury_of,
    major_wound_roll,
    shock_000,
)

__all__ = [
    "FUDGE_LEVEL",
    "SYSTEM_FUDGE",
    "FudgeLocations",
    "fudge_damage",
    "part_of",
    "tracks_of_victim",
]

SYSTEM_FUDGE = "003"
# One level of the FUDGE ladder as points of seed 000's 3d6 roll.
FUDGE_LEVEL = 2
# The HP of a fighter of Fair damage capacity: the damage table is read at this scale.
FAIR_HP = 10
# The general damage capacity the parts' levels are counted from (HP scale the damage).
GENERAL_CAPACITY = 0
OPTION_FUDGE = Citation("base-003", "wound levels: the damage table, read on seed 000's injury")
_AREAS = {
    PartGroup.TORSO: "torso",
    PartGroup.HEAD: "head",
    PartGroup.ARM: "arm",
    PartGroup.HAND: "arm",
    PartGroup.LEG: "leg",
    PartGroup.FOOT: "leg",
}
_LIMBS = {
    PartGroup.ARM: Limb.ARM,
    PartGroup.HAND: Limb.HAND,
    PartGroup.LEG: Limb.LEG,
    PartGroup.FOOT: Limb.FOOT,
}
_LIMB_STATES = frozenset({PartState.USELESS, PartState.CRIPPLED, PartState.LOST})
_OUT_STATES = frozenset({PartState.INCAPACITATED, PartState.NEAR_DEATH})


def fudge_damage(injury: int, hp: int) -> int:
    """The FUDGE damage a seed 000 injury reads as on the damage table: scaled from
    the fighter's HP to a Fair fighter's 10, rounded up (0 for no injury)."""
    if injury <= 0:
        return 0
    return math.ceil(Fraction(injury * FAIR_HP, hp))


def part_of(location_key: str, side: BodySide | None = None) -> BodyPart:
    """The part a blow at ``location_key`` marks (the eyes: the head); ``side``
    moves a limb to that side (a blow at the parrying arm, a critical miss on
    one's own weapon arm)."""
    part = aim_target(location_key).part
    if side is not None and part.kind is PartKind.LIMB:
        part = BodyPart.of(part.group, Side(side.value))
    return part


def _replay(tracks: BodyTracks, wound: Wound, hp: int) -> BodyTracks:
    level = wound_for_damage(fudge_damage(wound.injury, hp))
    if level is None:
        return tracks
    side = wound.side
    tracks, _ = tracks.with_wound(part_of(wound.location, side), level)
    return tracks


def tracks_of_victim(victim: Victim) -> BodyTracks:
    """The victim's tracks: his earlier wounds of this system, in order, on fresh
    tracks of Fair general capacity."""
    tracks = BodyTracks.for_capacity(GENERAL_CAPACITY)
    for wound in victim.wounds:
        if wound.system == SYSTEM_FUDGE:
            tracks = _replay(tracks, wound, victim.hp)
    return tracks


def _roll_part(rng: DiceSource, what: str) -> tuple[RandomLocation, LocationAttempt, Step]:
    """One roll of 003 5.871's random location, with its attempt and its step;
    ``what`` names it for dice entered at the table ("" for none)."""
    rolled = roll_random_location(rng, what=what)
    faces = rolled.faces
    sub = faces[1] if len(faces) > 1 else None
    sub2 = faces[2] if len(faces) > 2 else None
    key = rolled.part.value
    attempt = LocationAttempt(faces[:1], 0, faces[0], faces[0], sub, sub2, key, False)
    step = Step(f"1d6 {'; '.join(rolled.steps)}: {rolled.part.label}", rolled.citation)
    return rolled, attempt, step


@dataclass(frozen=True)
class FudgeLocations(UndirectedLocations):
    """FUDGE 5.87's body parts in seed 000 (see the module docstring): every part
    takes every blow (003 5.871 has no such limit). ``wounding``: seed 000's
    wounding multipliers by damage type."""

    no_chinks: ClassVar[str] = "the FUDGE locations have no chinks in armor"
    limb_keys: ClassVar[Mapping[str, str]] = MappingProxyType(
        {"arm": "right arm", "hand": "right hand", "leg": "right leg", "foot": "right foot"}
    )  # the attack gives the side with the blow
    wounding: Mapping[DamageType, Fraction]
    system: str = SYSTEM_FUDGE
    locations: Mapping[str, Location] = field(init=False, repr=False, compare=False)
    _distributions: dict[frozenset[str], Mapping[str, Fraction]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        locations = {
            t.key: Location(
                key=t.key,
                label=t.label,
                area=_AREAS[t.part.group],
                penalty=FUDGE_LEVEL * t.penalty,
                citation=t.citation,
                random=t.key != "eyes",
            )
            for t in AIM_TARGETS
        }
        object.__setattr__(self, "locations", MappingProxyType(locations))

    # --- aiming -------------------------------------------------------------------
    @property
    def random_citation(self) -> Citation:
        return HIT_LOCATION

    def penalty(
        self, location_key: str, *, shield_side: bool, melee: bool, from_front: bool = True
    ) -> tuple[Modifier, ...]:
        """003 5.871's penalty by the part's size, two 3d6 points a FUDGE level.
        A shield, melee or the direction have no rule here."""
        loc = self.location(location_key)
        if not loc.penalty:
            return ()
        levels = loc.penalty // FUDGE_LEVEL
        return (
            Modifier(
                loc.penalty,
                f"aimed at the {loc.label.lower()}: {levels} in FUDGE levels, "
                f"{FUDGE_LEVEL} a level on 3d6",
                HIT_LOCATION,
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
        """Roll 1d6 on 003 5.871's table, an extremity's second d6 (foot or hand)
        and a limb's side d6 (1-3 left, 4-6 right); a covered part is rolled again.
        The table has no rule for the direction of the blow, nor for a stance:
        left and right are the target's own."""
        rolled, attempts, steps = self.roll_uncovered(
            rng, covered, functools.partial(_roll_part, what=what or "")
        )
        part_side = rolled.part.side
        side = None if part_side is None else BodySide(part_side.value)
        label = f"{rolled.part.label} ({'; '.join(rolled.steps)})"
        final = attempts[-1]
        return LocationRoll(
            self.system, attempts, final.location, label, side, final.sub2 or final.sub, steps
        )

    def random_chances(self) -> Mapping[str, Fraction]:
        """``random_location_odds``: torso 1/3, head 1/6, each arm and leg 1/12,
        each hand and foot 1/24."""
        return MappingProxyType({part.value: p for part, p in random_location_odds().items()})

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
        """The blow's injury by seed 000's damage (armor DR, wounding multiplier),
        its wound on the part's track (003 5.872) and what the track's new state
        does (003 5.873). ``side`` moves a limb to that side; ``swung``,
        ``from_back`` and ``tight_beam`` have no rule here."""
        self.refuse_chink(chink)
        self.location(location_key)
        part = part_of(location_key, side)
        try:
            multiplier = self.wounding[damage_type]
        except KeyError:
            raise RulesError(f"no wounding multiplier for {damage_type.value}") from None
        after_armor = max(0, basic_damage - armor_dr)
        injury = injury_of(after_armor, multiplier)
        steps = [
            Step(
                f"{basic_damage} damage - DR {armor_dr} = {after_armor} past the armor, "
                f"x{fraction_text(multiplier)} {damage_type.value} = {injury} injury",
                BASE_DAMAGE,
            )
        ]
        automatic: set[Condition] = set()
        crippling: Crippling | None = None
        scaled = fudge_damage(injury, victim.hp)
        level = wound_for_damage(scaled)
        if level is not None:
            steps.append(
                Step(
                    f"{injury} injury at {victim.hp} HP reads as FUDGE damage {scaled} "
                    f"(x{FAIR_HP}/HP, rounded up): {level.label(part.kind)}",
                    OPTION_FUDGE,
                )
            )
            tracks, mark = tracks_of_victim(victim).with_wound(part, level)
            boxes = tracks.track(part).describe()
            steps.append(Step(f"{mark.describe()}; the track: {boxes}", PART_DAMAGE))
            crippling = _track_effects(mark, part, automatic, steps)
        knockdown = None
        if not automatic & {Condition.UNCONSCIOUS, Condition.DEAD}:
            knockdown = major_wound_roll(injury, victim)
        rolls: tuple[RequiredRoll, ...] = () if knockdown is None else (knockdown,)
        shock, shock_steps = shock_000(injury, Fraction(1), victim.pain)
        part_side = part.side
        return WoundAssessment(
            system=self.system,
            location=part.value,
            label=part.label,
            side=None if part_side is None else BodySide(part_side.value),
            damage_type=damage_type,
            basic_damage=basic_damage,
            armor_dr=armor_dr,
            effective_armor_dr=armor_dr,
            location_dr=0,
            penetrating=after_armor,
            multiplier=multiplier,
            injury=injury,
            hp_loss=injury,
            crippling=crippling,
            automatic=frozenset(automatic),
            rolls=rolls,
            shock_penalty=shock,
            effects=(),
            steps=tuple(steps),
            shock_steps=tuple(shock_steps),
        )

    def fighting_modifiers(
        self, fighter: Victim, *, arms: frozenset[BodySide], standing: bool
    ) -> tuple[Modifier, ...]:
        """003 5.874: only the worst wound among the parts the action uses counts
        (the torso and the head always; the arms and hands of ``arms``; the legs
        and feet when ``standing``), -1 Hurt and -2 Very Hurt, two 3d6 points a
        level."""
        if not any(w.system == self.system for w in fighter.wounds):
            return ()
        parts: set[BodyPart] = set()
        for side in arms:
            parts |= set(arm_parts(Side(side.value)))
        if standing:
            parts |= set(leg_parts())
        tracks = tracks_of_victim(fighter)
        penalty, where = tracks.activity_penalty(parts)
        if not penalty or where is None:
            return ()
        state = tracks.track(where).state
        return (
            Modifier(
                FUDGE_LEVEL * penalty,
                f"{where.value} {state.label} ({penalty:+d} in FUDGE levels): the worst "
                "wound of the parts it uses",
                DAMAGE_MODIFIERS,
            ),
        )

    def wound_tracks(self, fighter: Victim) -> tuple[str, ...]:
        """Each wounded part's track (003 5.875, keeping track of wounds): its
        state and the boxes checked of each level, Scratch to Near Death or
        Crippled ("Left hand: useless; 0/2 1/1 1/1 1/2 0/2")."""
        tracks = tracks_of_victim(fighter)
        return tuple(
            f"{t.part.label}: {t.describe()}"
            for t in tracks.parts
            if t.state is not PartState.UNHURT
        )


def _track_effects(
    mark: WoundMark, part: BodyPart, automatic: set[Condition], steps: list[Step]
) -> Crippling | None:
    """003 5.873 and the body's wound levels (base rules): what the part's new
    state does. Returns the crippling of a limb that has just become unusable."""
    before, after = mark.before, mark.after
    if part.kind is PartKind.BODY:
        if after is PartState.DEAD:
            automatic.add(Condition.DEAD)
            steps.append(Step(f"the {part.value} past Near Death: dead", BASE_WOUND_LEVELS))
        elif after in _OUT_STATES and before not in _OUT_STATES:
            automatic.add(Condition.UNCONSCIOUS)
            steps.append(
                Step(f"the {part.value} {after.label}: out of the fight", BASE_WOUND_LEVELS)
            )
        return None
    if after not in _LIMB_STATES or after is before:
        return None
    limb = _LIMBS[part.group]
    if after is PartState.LOST:
        automatic.add(Condition.LIMB_LOST)
        steps.append(Step(f"the {part.value} past Crippled: lost for good", USELESS_LIMBS))
    if before in _LIMB_STATES:
        return None  # already unusable: it drops nothing more and falls no further
    if part.drops_held:
        automatic.add(Condition.DROPPED_ITEM)
        steps.append(Step(f"the {part.value} {after.label}: drops what it holds", USELESS_LIMBS))
    else:
        steps.append(Step(f"the {part.value} {after.label}: the fighter falls", USELESS_LIMBS))
    side = part.side
    body_side = None if side is None else BodySide(side.value)
    return Crippling(limb, body_side, Fraction(0), 0, USELESS_LIMBS)


def fudge_locations(wounding: Mapping[DamageType, Fraction]) -> FudgeLocations:
    """The FUDGE locations with seed 000's wounding multipliers."""
    return FudgeLocations(MappingProxyType(dict(wounding)))
