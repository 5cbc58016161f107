"""A ruleset's character sheet described as data, for the character editor
(``app.character_editor``): which fields it has, their kind, their range and
what they mean (``SheetDescription``), and a fighter's values in them
(``SheetEntries``). The editor draws one box per field and knows no stat, skill
or trait by name; the ruleset turns the entries back into a fighter
(``rules.sets.protocol.Ruleset.with_sheet_entries``).

The neutral parts of a fighter (name, handedness, weapons, shield, armor) are
the battle's model (``rules.battle.model``) and the editor edits them directly;
their checks are ``rules.battle.edits.fighter_problems``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from rules.battle.edits import SheetProblem
from rules.battle.model import DamageType
from rules.core.errors import DataError

SheetValue = int | bool | str | None


def entry_int(values: Mapping[str, SheetValue], key: str) -> int:
    """The whole number in the entries' field ``key`` (``DataError`` if not one)."""
    value = values.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataError(f"{key}: a whole number, got {value!r:.40}")
    return value


class SheetFieldKind(Enum):
    NUMBER = "number"  # a whole number within minimum..maximum (None if optional)
    FLAG = "flag"  # yes or no
    CHOICE = "choice"  # one of ``choices``
    TEXT = "text"  # a line of text, not blank


@dataclass(frozen=True, slots=True)
class SheetField:
    """One field of a sheet: ``key`` in ``SheetEntries.values``, its ``label``, the
    ``section`` it is shown in ("Attributes", "Defenses", "Traits"), and its range
    or choices."""

    key: str
    label: str
    kind: SheetFieldKind
    section: str
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    optional: bool = False  # a number that may be left out (None)
    tooltip: str = ""

    def problem(self, value: SheetValue) -> str | None:
        """Why ``value`` cannot stand in this field, or None."""
        if self.kind is SheetFieldKind.NUMBER:
            if value is None:
                return None if self.optional else f"{self.label} needs a value."
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{self.label} is a whole number."
            if not self.minimum <= value <= self.maximum:
                return f"{self.label} must be {self.minimum} to {self.maximum}, not {value}."
            return None
        if self.kind is SheetFieldKind.FLAG:
            return None if isinstance(value, bool) else f"{self.label} is yes or no."
        if self.kind is SheetFieldKind.CHOICE:
            if value in self.choices:
                return None
            return f"{self.label} is one of {', '.join(self.choices)}."
        if not isinstance(value, str) or not value.strip():
            return f"{self.label} cannot be blank."
        return None


def skill_place(name: str) -> str:
    """The place of a skill's level in a sheet problem: "skills/Broadsword"."""
    return f"skills/{name}"


class WeaponPart(Enum):
    """A part of the neutral weapon (``rules.battle.model.Weapon`` and its modes)
    that the character editor edits only for a ruleset that reads it. The name,
    key and skill of a weapon and the name and reach of its modes are always
    edited: every ruleset reads them."""

    KIND = "kind"  # WeaponKind (seed 000: broken weapons, fencing parries ...)
    PARRY = "parry"  # ParryClass (seed 000's parry as a fraction of skill)
    HANDS = "hands"  # two-handed or not
    WEIGHT = "weight"
    SIZE = "size"  # WeaponSize (seed 000's dropped weapons, seed 002's size ranks)
    DAMAGE_BASE = "damage base"  # thr, sw or fixed; without it every mode is fixed
    DICE = "dice"  # a fixed mode's own dice ("1d8+1")
    ADDS = "adds"  # the adds to thr or sw
    DAMAGE_TYPE = "damage type"
    SKILL_MODIFIER = "skill modifier"  # a mode's modifier to the weapon's skill
    RANGE = "range"  # a thrown or missile mode's range in hexes
    HALF_DAMAGE_RANGE = "half damage range"  # seed 000's 1/2D range


ALL_WEAPON_PARTS = frozenset(WeaponPart)


class ProtectionPart(Enum):
    """A part of the neutral shield and armor (``rules.battle.model.Shield``,
    ``Armor``) that the character editor edits only for a ruleset that reads it;
    their names are always edited."""

    SHIELD = "shield"  # the whole shield (a ruleset without shields hides it)
    SHIELD_SIZE = "shield size"
    SHIELD_PD = "shield pd"  # seed 000's passive defense of the shield
    ARMOR = "armor"  # the whole suit (a ruleset with armor by zone on its sheet hides it)
    ARMOR_PD = "armor pd"
    ARMOR_DR = "armor dr"  # damage resistance, armour points ...
    WEIGHT = "weight"  # of the shield and of the armor


ALL_PROTECTION_PARTS = frozenset(ProtectionPart)


@dataclass(frozen=True, slots=True)
class SheetDescription:
    """Every field of a ruleset's sheet, in the order the editor shows them, the
    range of a skill level (skills are a list of names and levels), and the parts
    of a weapon, a shield and a suit of armor the ruleset reads (``weapon_parts``,
    ``protection_parts``; the editor hides the others, which keep their values),
    and the damage types a mode may take, each by the ruleset's name for it
    (``damage_types``: seed 004 has piercing, slashing, bludgeoning; empty: every
    ``DamageType`` by its 3d6 code, "cr", "imp", "pi-")."""

    fields: tuple[SheetField, ...]
    skill_minimum: int
    skill_maximum: int
    skills_tooltip: str = ""
    weapon_parts: frozenset[WeaponPart] = ALL_WEAPON_PARTS
    protection_parts: frozenset[ProtectionPart] = ALL_PROTECTION_PARTS
    damage_types: tuple[tuple[DamageType, str], ...] = ()

    @property
    def damage_type_choices(self) -> tuple[tuple[str, DamageType], ...]:
        """The damage types the editor offers, (name, type), in the ruleset's order."""
        if self.damage_types:
            return tuple((name, t) for t, name in self.damage_types)
        return tuple((t.value, t) for t in DamageType)

    def reads(self, part: WeaponPart) -> bool:
        """Whether the ruleset reads this part of a weapon (the editor shows it)."""
        return part in self.weapon_parts

    def field(self, key: str) -> SheetField:
        for f in self.fields:
            if f.key == key:
                return f
        raise KeyError(key)

    @property
    def sections(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(f.section for f in self.fields))

    def problems(self, entries: SheetEntries) -> tuple[SheetProblem, ...]:
        """Each value out of its field's range or choices, each missing value, each
        skill without a name or with a level out of range."""
        found: list[SheetProblem] = []
        for f in self.fields:
            problem = f.problem(entries.values.get(f.key))
            if problem is not None:
                found.append(SheetProblem(f.key, problem))
        for name, level in entries.skills.items():
            if not name.strip():
                found.append(SheetProblem(skill_place(name), "A skill needs a name."))
            elif not self.skill_minimum <= level <= self.skill_maximum:
                found.append(
                    SheetProblem(
                        skill_place(name),
                        f"{name} must be {self.skill_minimum} to {self.skill_maximum}, "
                        f"not {level}.",
                    )
                )
        return tuple(found)


@dataclass(frozen=True, slots=True)
class SheetEntries:
    """A fighter's values in a sheet's fields (by ``SheetField.key``) and its skill
    levels by name."""

    values: Mapping[str, SheetValue]
    skills: Mapping[str, int]
