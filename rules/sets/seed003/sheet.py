"""Seed 003's character sheet (base rules, FUDGE SRD: traits on the ladder,
damage capacity, offensive and defensive damage factors), read and written.

- Attributes on the seven-step ladder, Terrible (-3) to Superb (+3): Strength
  (a muscle-powered weapon's offensive factor), Agility (initiative, the Superb
  roll to stay on one's feet), Damage Capacity (the wound tracks' boxes and the
  defensive factor, per part: 003 5.872) and Constitution (the same for every
  part: 003 5.872; shown, used by no other rule here).
- Skills by name on the same ladder; a skill the sheet lacks is Poor (-2), the
  base rules' default for an unskilled action. "Dodge" is the defense against
  missiles and the alternative to parrying.
- Armor: the neutral ``Armor``'s ``dr`` is its FUDGE defensive factor (light +1,
  medium +2, heavy +3, very heavy +4); ``armor_cover`` says which parts it
  covers, ``helmet`` is the head's own armor factor.
- ``Fighter.hit_points`` is the number of boxes of the torso's track (the
  overall track), derived from Damage Capacity by
  ``rules.sets.components.fudge_locations.track_boxes``.

A template's statistics arrive unread (``RawSheet``): ``sheet_of`` reads them
once, with the same reading as the sheet codec (``read_sheet``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar

from rules.battle.catalog import RawSheet
from rules.battle.edits import SheetProblem
from rules.battle.model import Combatant, Fighter, RulesetSheet
from rules.battle.sheet_gear import sheet_stats
from rules.core.errors import DataError
from rules.core.jsondata import as_int, as_object, check_keys, get_enum, get_int, parse_json_text
from rules.sets.components.fudge_locations import (
    LADDER,
    LADDER_BOTTOM,
    LADDER_TOP,
    BodyPart,
    ladder_label,
    track_boxes,
)
from rules.sets.sheet_fields import (
    ProtectionPart,
    SheetDescription,
    SheetEntries,
    SheetField,
    SheetFieldKind,
    WeaponPart,
    skill_place,
)

UNSKILLED = -2  # Poor: the level of a skill the sheet lacks (base rules)
DODGE = "Dodge"


class ArmorCover(Enum):
    """Which parts the suit of armor covers (the head has its own ``helmet``)."""

    TORSO = "torso"  # a breastplate, a jerkin
    BODY = "body"  # torso, arms and legs; not hands, feet or head
    FULL = "full"  # every part but the head: gauntlets and boots too

    @property
    def parts(self) -> frozenset[BodyPart]:
        return _COVERED[self]


_LIMBS = frozenset({BodyPart.LEFT_ARM, BodyPart.RIGHT_ARM, BodyPart.LEFT_LEG, BodyPart.RIGHT_LEG})
_EXTREMITIES = frozenset(
    {BodyPart.LEFT_HAND, BodyPart.RIGHT_HAND, BodyPart.LEFT_FOOT, BodyPart.RIGHT_FOOT}
)
_COVERED = {
    ArmorCover.TORSO: frozenset({BodyPart.TORSO}),
    ArmorCover.BODY: frozenset({BodyPart.TORSO}) | _LIMBS,
    ArmorCover.FULL: frozenset({BodyPart.TORSO}) | _LIMBS | _EXTREMITIES,
}


@dataclass(frozen=True, slots=True)
class Sheet003(RulesetSheet):
    ruleset_key: ClassVar[str | None] = "003"

    strength: int = 0
    agility: int = 0
    damage_capacity: int = 0
    constitution: int = 0
    skills: tuple[tuple[str, int], ...] = ()
    armor_cover: ArmorCover = ArmorCover.BODY
    helmet: int = 0

    def skill(self, name: str) -> int:
        for key, level in self.skills:
            if key == name:
                return level
        return UNSKILLED

    @property
    def skill_map(self) -> dict[str, int]:
        return dict(self.skills)


def sheet_of(who: Fighter | Combatant) -> Sheet003:
    """The seed 003 statistics of a fighter (or of a combatant's fighter)."""
    return sheet_stats(who, Sheet003, _read_raw, "003")


def overall_boxes(damage_capacity: int) -> int:
    """``Fighter.hit_points`` of a fighter of this damage capacity: the torso's boxes."""
    return sum(track_boxes(damage_capacity))


def with_sheet(fighter: Fighter, sheet: Sheet003) -> Fighter:
    """The fighter with ``sheet``, its hit points (the torso's boxes) to match."""
    return replace(fighter, stats=sheet, hit_points=overall_boxes(sheet.damage_capacity))


# --- reading and writing the sheet's keys -----------------------------------------------

ATTRIBUTES = ("strength", "agility", "damage_capacity", "constitution")
SHEET_REQUIRED = ("attributes", "skills")
SHEET_OPTIONAL = ("armor_cover", "helmet")
ATTRIBUTE_LABELS = {
    "strength": "Strength",
    "agility": "Agility",
    "damage_capacity": "Damage Capacity",
    "constitution": "Constitution",
}
MAX_HELMET = 4


def _level(value: object, where: str) -> int:
    level = as_int(value, where)
    if not LADDER_BOTTOM <= level <= LADDER_TOP:
        raise DataError(f"{where}: a ladder level {LADDER_BOTTOM}..{LADDER_TOP}, got {level}")
    return level


def read_sheet(obj: Mapping[str, object], where: str) -> Sheet003:
    """The sheet's keys of ``obj`` (a template or a saved sheet, whose other keys
    the caller checks)."""
    attributes = as_object(obj["attributes"], f"{where}.attributes")
    check_keys(attributes, f"{where}.attributes", ATTRIBUTES, ())
    levels = {k: _level(attributes[k], f"{where}.attributes.{k}") for k in ATTRIBUTES}
    skills_obj = as_object(obj["skills"], f"{where}.skills")
    skills = tuple(
        (name, _level(value, f"{where}.skills.{name}"))
        for name, value in sorted(skills_obj.items())
    )
    helmet = get_int(obj, "helmet", where, 0)
    if not 0 <= helmet <= MAX_HELMET:
        raise DataError(f"{where}.helmet: an armor factor 0..{MAX_HELMET}, got {helmet}")
    return Sheet003(
        strength=levels["strength"],
        agility=levels["agility"],
        damage_capacity=levels["damage_capacity"],
        constitution=levels["constitution"],
        skills=skills,
        armor_cover=get_enum(obj, "armor_cover", ArmorCover, where, ArmorCover.BODY),
        helmet=helmet,
    )


def write_sheet(sheet: Sheet003) -> dict[str, object]:
    """The sheet's keys as ``read_sheet`` reads them."""
    return {
        "attributes": {k: getattr(sheet, k) for k in ATTRIBUTES},
        "skills": dict(sorted(sheet.skills)),
        "armor_cover": sheet.armor_cover.value,
        "helmet": sheet.helmet,
    }


@functools.cache
def _read_raw(raw: RawSheet) -> Sheet003:
    obj = as_object(parse_json_text(raw.fields, raw.where), raw.where)
    check_keys(obj, raw.where, SHEET_REQUIRED, SHEET_OPTIONAL)
    return read_sheet(obj, raw.where)


# --- the sheet for the character editor ---------------------------------------------------

_LADDER_CHOICES = tuple(LADDER[n] for n in range(LADDER_TOP, LADDER_BOTTOM - 1, -1))
_BY_NAME = {name: level for level, name in LADDER.items()}

SHEET_DESCRIPTION = SheetDescription(
    fields=(
        *(
            SheetField(
                key,
                ATTRIBUTE_LABELS[key],
                SheetFieldKind.CHOICE,
                "Attributes",
                choices=_LADDER_CHOICES,
                tooltip="A level of the FUDGE ladder (base rules), Terrible to Superb.",
            )
            for key in ATTRIBUTES
        ),
        SheetField(
            "armor_cover",
            "Armor covers",
            SheetFieldKind.CHOICE,
            "Protection",
            choices=tuple(c.value for c in ArmorCover),
            tooltip="The parts the armor's factor protects (003 5.876: per part).",
        ),
        SheetField(
            "helmet",
            "Helmet",
            SheetFieldKind.NUMBER,
            "Protection",
            minimum=0,
            maximum=MAX_HELMET,
            tooltip="The head's own armor factor (0: bare-headed).",
        ),
    ),
    skill_minimum=LADDER_BOTTOM,
    skill_maximum=LADDER_TOP,
    skills_tooltip="Skill levels on the ladder, -3 (Terrible) to +3 (Superb); "
    "a skill not listed is Poor (-2).",
    # What seed 003 reads of a weapon: bare hands or not, whether it parries, its
    # hands, whether Strength adds (thr/sw) or not (fixed), its factor (the adds),
    # a mode's skill modifier, and a shot's range and half range (past it the
    # shot is too distant to aim: 003 5.871).
    weapon_parts=frozenset(
        {
            WeaponPart.KIND,
            WeaponPart.PARRY,
            WeaponPart.HANDS,
            WeaponPart.DAMAGE_BASE,
            WeaponPart.ADDS,
            WeaponPart.SKILL_MODIFIER,
            WeaponPart.RANGE,
            WeaponPart.HALF_DAMAGE_RANGE,
        }
    ),
    # What seed 003 reads of the shield and armor: the shield's bonus to the
    # defense (its PD) and the suit's defensive factor (its DR).
    protection_parts=frozenset(
        {
            ProtectionPart.SHIELD,
            ProtectionPart.SHIELD_PD,
            ProtectionPart.ARMOR,
            ProtectionPart.ARMOR_DR,
        }
    ),
)


def sheet_entries(fighter: Fighter) -> SheetEntries:
    sheet = sheet_of(fighter)
    values: dict[str, int | bool | str | None] = {
        key: ladder_label(getattr(sheet, key)) for key in ATTRIBUTES
    }
    values["armor_cover"] = sheet.armor_cover.value
    values["helmet"] = sheet.helmet
    return SheetEntries(values, dict(sheet.skills))


def with_sheet_entries(fighter: Fighter, entries: SheetEntries) -> Fighter:
    problems = SHEET_DESCRIPTION.problems(entries)
    if problems:
        raise DataError(problems[0].message)
    v = entries.values
    levels = {key: _BY_NAME[str(v[key])] for key in ATTRIBUTES}
    helmet = v["helmet"]
    assert isinstance(helmet, int)
    sheet = Sheet003(
        strength=levels["strength"],
        agility=levels["agility"],
        damage_capacity=levels["damage_capacity"],
        constitution=levels["constitution"],
        skills=tuple(sorted(entries.skills.items())),
        armor_cover=ArmorCover(str(v["armor_cover"])),
        helmet=helmet,
    )
    return with_sheet(fighter, sheet)


def sheet_problems(fighter: Fighter) -> tuple[SheetProblem, ...]:
    """A weapon whose skill the sheet lacks is allowed (it is rolled at Poor), so
    only the skills' own ranges are checked here."""
    sheet = sheet_of(fighter)
    return tuple(
        SheetProblem(skill_place(name), f"{name} must be -3 to 3, not {level}.")
        for name, level in sheet.skills
        if not LADDER_BOTTOM <= level <= LADDER_TOP
    )
