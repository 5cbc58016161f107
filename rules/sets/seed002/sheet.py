"""Seed 002's character sheet: the OpenQuest characteristics and percentile
skills (OpenQuest SRD, cited "base-002"), carried in ``Fighter.stats``.

* Characteristics: STR, CON, SIZ, DEX, INT, POW, CHA.
* Hit points: (CON + SIZ) / 2, rounded up (``base_hit_points``): what a template
  starts with; the sheet's hit points are the GM's to change.
* Combat skills in percent: Close Combat, Ranged Combat, Dodge and Unarmed; a
  skill the sheet lacks starts at its base (``SKILL_BASES``): STR + DEX for Close
  Combat and Unarmed, DEX + INT for Ranged Combat, DEX + 10 for Dodge.
* The damage modifier comes from STR + SIZ (``tables.damage_modifier``).
* Armour points: one overall value, the armour's (``Fighter.armor``'s DR).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import ClassVar

from rules.battle.catalog import RawSheet
from rules.battle.model import Combatant, Fighter, RulesetSheet
from rules.battle.sheet_gear import sheet_stats
from rules.core.citation import Citation
from rules.core.errors import DataError
from rules.core.jsondata import as_int, as_object, check_keys, get_int, parse_json_text
from rules.sets.seed002.tables import (
    BASE,
    CHARACTERISTICS,
    LOCATION_KEYS,
    DamageModifier,
    damage_modifier,
)
from rules.sets.sheet_fields import (
    SheetDescription,
    SheetEntries,
    SheetField,
    SheetFieldKind,
    SheetValue,
    WeaponPart,
    entry_int,
)

BASE_CHARACTERISTICS = Citation(BASE, "Characteristics")
BASE_HIT_POINTS = Citation(BASE, "Hit points: (CON + SIZ) / 2, rounded up")
BASE_SKILLS = Citation(BASE, "Combat skills and their base values")
BASE_DAMAGE_MODIFIER = Citation(BASE, "Damage modifier by STR + SIZ")

CLOSE_COMBAT = "Close Combat"
RANGED_COMBAT = "Ranged Combat"
DODGE = "Dodge"
UNARMED = "Unarmed"


@dataclass(frozen=True, slots=True)
class Characteristics:
    """STR, CON, SIZ, DEX, INT, POW and CHA (keys "str" ... "cha" in the files)."""

    strength: int = 11
    constitution: int = 11
    size: int = 11
    dexterity: int = 11
    intelligence: int = 11
    power: int = 11
    charisma: int = 11

    def value(self, key: str) -> int:
        return int(getattr(self, _FIELD[key]))

    def with_value(self, key: str, value: int) -> Characteristics:
        if key not in _FIELD:
            raise DataError(f"no characteristic {key!r}")
        return replace(self, **{_FIELD[key]: value})

    @classmethod
    def of(cls, values: Mapping[str, int]) -> Characteristics:
        return cls(**{_FIELD[k]: v for k, v in values.items()})


_FIELD = {
    "str": "strength",
    "con": "constitution",
    "siz": "size",
    "dex": "dexterity",
    "int": "intelligence",
    "pow": "power",
    "cha": "charisma",
}


def _skill_base(c: Characteristics, name: str) -> int:
    return SKILL_BASES[name](c) if name in SKILL_BASES else 0


SKILL_BASES: Mapping[str, Callable[[Characteristics], int]] = MappingProxyType(
    {
        CLOSE_COMBAT: lambda c: c.strength + c.dexterity,
        UNARMED: lambda c: c.strength + c.dexterity,
        RANGED_COMBAT: lambda c: c.dexterity + c.intelligence,
        DODGE: lambda c: c.dexterity + 10,
    }
)


@dataclass(frozen=True, slots=True)
class Sheet002(RulesetSheet):
    """A fighter's seed 002 statistics."""

    ruleset_key: ClassVar[str | None] = "002"

    characteristics: Characteristics = Characteristics()
    skills: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    # Armour points by hit location (the option "locations-d20"); a location it
    # lacks has the armour's overall points.
    armour_by_location: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    def __hash__(self) -> int:
        # A mapping proxy does not hash: without this no attack plan holding a
        # fighter hashes, and the policies' odds cache never finds one again.
        return hash(
            (self.characteristics, frozenset(self.skills.items()),
             frozenset(self.armour_by_location.items()))
        )  # fmt: skip

    def skill(self, name: str) -> int:
        """The skill in percent; its base value when the sheet lacks it."""
        if name in self.skills:
            return self.skills[name]
        return _skill_base(self.characteristics, name)

    @property
    def damage_modifier(self) -> DamageModifier:
        return damage_modifier(self.characteristics.strength + self.characteristics.size)


def base_hit_points(c: Characteristics) -> int:
    return -(-(c.constitution + c.size) // 2)


def sheet_of(who: Fighter | Combatant) -> Sheet002:
    return sheet_stats(who, Sheet002, _read_raw, "002")


def _read_raw(raw: RawSheet) -> Sheet002:
    obj = as_object(parse_json_text(raw.fields, raw.where), raw.where)
    return read_sheet(obj, raw.where)


def read_characteristics(data: object, where: str) -> Characteristics:
    obj = as_object(data, where)
    check_keys(obj, where, CHARACTERISTICS)
    values = {k: get_int(obj, k, where) for k in CHARACTERISTICS}
    bad = [k for k, v in values.items() if not 1 <= v <= 99]
    if bad:
        raise DataError(f"{where}.{bad[0]}: a characteristic is 1 to 99")
    return Characteristics.of(values)


def read_skills(data: object, where: str) -> Mapping[str, int]:
    obj = as_object(data, where)
    skills = {}
    for name, level in obj.items():
        value = as_int(level, f"{where}.{name}")
        if not SKILL_MINIMUM <= value <= SKILL_MAXIMUM:
            raise DataError(f"{where}.{name}: a skill is {SKILL_MINIMUM}% to {SKILL_MAXIMUM}%")
        skills[name] = value
    return MappingProxyType(dict(sorted(skills.items())))


def read_armour_by_location(data: object, where: str) -> Mapping[str, int]:
    obj = as_object(data, where)
    check_keys(obj, where, (), LOCATION_KEYS)
    out = {}
    for key in obj:
        ap = get_int(obj, key, where)
        if not 0 <= ap <= MAX_AP:
            raise DataError(f"{where}.{key}: armour points are 0 to {MAX_AP}")
        out[key] = ap
    return MappingProxyType({k: out[k] for k in LOCATION_KEYS if k in out})


def read_sheet(obj: Mapping[str, object], where: str) -> Sheet002:
    check_keys(obj, where, ("characteristics", "skills"), ("armour_by_location",))
    by_location = obj.get("armour_by_location", {})
    return Sheet002(
        read_characteristics(obj["characteristics"], f"{where}.characteristics"),
        read_skills(obj["skills"], f"{where}.skills"),
        read_armour_by_location(by_location, f"{where}.armour_by_location"),
    )


def write_sheet(sheet: Sheet002) -> dict[str, object]:
    c = sheet.characteristics
    out: dict[str, object] = {
        "characteristics": {k: c.value(k) for k in CHARACTERISTICS},
        "skills": dict(sorted(sheet.skills.items())),
    }
    if sheet.armour_by_location:
        out["armour_by_location"] = dict(sheet.armour_by_location)
    return out


# --- the editor's description -------------------------------------------------------------
SKILL_MINIMUM = 0
SKILL_MAXIMUM = 200
MAX_AP = 30

_LABELS = {
    "str": ("STR", "Strength: damage modifier (with SIZ), Close Combat base"),
    "con": ("CON", "Constitution: hit points (with SIZ)"),
    "siz": ("SIZ", "Size: hit points, damage modifier; above 20 easier to shoot"),
    "dex": ("DEX", "Dexterity: initiative order, Dodge and combat skill bases"),
    "int": ("INT", "Intelligence: Ranged Combat base"),
    "pow": ("POW", "Power"),
    "cha": ("CHA", "Charisma"),
}

SHEET_DESCRIPTION = SheetDescription(
    fields=(
        *(
            SheetField(k, label, SheetFieldKind.NUMBER, "Characteristics", 1, 99, tooltip=tip)
            for k, (label, tip) in _LABELS.items()
        ),
        SheetField(
            "hit_points",
            "Hit points",
            SheetFieldKind.NUMBER,
            "Characteristics",
            1,
            200,
            tooltip="OpenQuest: (CON + SIZ) / 2 rounded up; the health bar's scale",
        ),
        SheetField(
            "move", "Move", SheetFieldKind.NUMBER, "Characteristics", 0, 30, tooltip="Hexes a round"
        ),
        *(
            SheetField(
                f"ap_{k}",
                f"AP {k.replace('-', ' ')}",
                SheetFieldKind.NUMBER,
                "Armour by location",
                0,
                MAX_AP,
                optional=True,
                tooltip="Armour points here, with the option locations-d20; "
                "empty: the armour's overall points",
            )
            for k in LOCATION_KEYS
        ),
    ),
    skill_minimum=SKILL_MINIMUM,
    skill_maximum=SKILL_MAXIMUM,
    weapon_parts=frozenset(
        {
            WeaponPart.KIND,
            WeaponPart.HANDS,
            WeaponPart.WEIGHT,
            WeaponPart.SIZE,
            WeaponPart.DICE,
            WeaponPart.DAMAGE_TYPE,
            WeaponPart.RANGE,
        }
    ),
    skills_tooltip=(
        "Percent: Close Combat (base STR+DEX), Ranged Combat (DEX+INT), Dodge (DEX+10), "
        "Unarmed (STR+DEX); a weapon rolls its own skill"
    ),
)


def sheet_entries(fighter: Fighter) -> SheetEntries:
    sheet = sheet_of(fighter)
    c = sheet.characteristics
    values: dict[str, SheetValue] = {k: c.value(k) for k in CHARACTERISTICS}
    values["hit_points"] = fighter.hit_points
    values["move"] = fighter.move
    for k in LOCATION_KEYS:
        values[f"ap_{k}"] = sheet.armour_by_location.get(k)
    return SheetEntries(values=MappingProxyType(values), skills=sheet.skills)


def with_sheet_entries(fighter: Fighter, entries: SheetEntries) -> Fighter:
    problems = SHEET_DESCRIPTION.problems(entries)
    if problems:
        raise DataError(f"{problems[0].place}: {problems[0].message}")
    values = entries.values
    by_location = {
        k: entry_int(values, f"ap_{k}") for k in LOCATION_KEYS if values.get(f"ap_{k}") is not None
    }
    sheet = Sheet002(
        Characteristics.of({k: entry_int(values, k) for k in CHARACTERISTICS}),
        MappingProxyType(dict(sorted(entries.skills.items()))),
        MappingProxyType(by_location),
    )
    hit_points, move = entry_int(values, "hit_points"), entry_int(values, "move")
    return replace(fighter, stats=sheet, hit_points=hit_points, move=move)
