"""Seed 004's character sheet (base rules, docs/ruleset-004.md): six abilities
ranked 1 to 10 (5 average; the modifier is the rank minus 5), skill ranks added
to checks as bonuses (Melee Combat, Dodge), the damage reduction worn on each
zone (004 Zones: armor by zone) and the fighter's size category.

Hit points are the neutral ``Fighter.hit_points`` (the base rules give 25 plus
Constitution and Strength ranks, ``base_hit_points``); Move is the base rules'
Speed (5 plus the Dexterity and Strength modifiers, ``base_speed``), one hex a
metre. A fighter from a template's catalog form brings its statistics unread
(``RawSheet``); ``sheet_of`` reads them on first use with ``read_sheet``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import ClassVar

from rules.battle.catalog import RawSheet
from rules.battle.edits import SheetProblem, weapon_place
from rules.battle.model import (
    Combatant,
    DamageBase,
    DamageType,
    Delivery,
    Fighter,
    RulesetSheet,
)
from rules.battle.sheet_gear import sheet_stats
from rules.core.citation import Citation
from rules.core.errors import DataError
from rules.core.jsondata import as_enum, as_int, as_object, check_keys, get_enum, parse_json_text
from rules.sets import sheet_fields
from rules.sets.components.zones_2d6 import ARMORED_ZONES, Size, Zone, armor_zone
from rules.sets.sheet_fields import (
    SheetDescription,
    SheetEntries,
    SheetField,
    SheetFieldKind,
    WeaponPart,
)

ABILITIES = ("strength", "dexterity", "constitution", "intelligence", "perception", "charisma")
ABILITY_LABELS = {a: a.capitalize() for a in ABILITIES}
ABILITY_MIN, ABILITY_MAX, AVERAGE = 1, 10, 5
SKILL_MIN, SKILL_MAX = 0, 10
DR_MAX = 20
HIT_POINTS_MAX, SPEED_MAX = 200, 30
MELEE_SKILL = "Melee Combat"
DODGE_SKILL = "Dodge"
ABILITIES_CITATION = Citation("base-004", "character creation: abilities and modifiers")
SKILLS_CITATION = Citation("base-004", "skills: ranks as bonuses to checks")
HIT_POINTS_CITATION = Citation("base-004", "secondary abilities: hit points and speed")

SHEET_REQUIRED = ("abilities", "skills")
SHEET_OPTIONAL = ("armor_by_zone", "size")


@dataclass(frozen=True, slots=True)
class Abilities:
    strength: int = AVERAGE
    dexterity: int = AVERAGE
    constitution: int = AVERAGE
    intelligence: int = AVERAGE
    perception: int = AVERAGE
    charisma: int = AVERAGE

    def rank(self, name: str) -> int:
        value: int = getattr(self, name)
        return value

    def modifier(self, name: str) -> int:
        """The base rules' modifier: one per rank above or below the average 5."""
        return self.rank(name) - AVERAGE


@dataclass(frozen=True, slots=True)
class ZoneArmor:
    """Damage reduction worn on each zone (a vital organ wears its surrounding
    zone's, ``armor_zone``)."""

    head: int = 0
    torso: int = 0
    arms: int = 0
    legs: int = 0

    def reduction(self, zone: Zone) -> int:
        value: int = getattr(self, armor_zone(zone).value)
        return value


@dataclass(frozen=True, slots=True)
class Sheet004(RulesetSheet):
    """A fighter's seed 004 statistics."""

    ruleset_key: ClassVar[str | None] = "004"

    abilities: Abilities = Abilities()
    skills: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    armor: ZoneArmor = ZoneArmor()
    size: Size = Size.MEDIUM

    def __hash__(self) -> int:
        # A mapping proxy does not hash: without this no attack plan holding a
        # fighter hashes, and the policies' odds cache never finds one again.
        return hash((self.abilities, frozenset(self.skills.items()), self.armor, self.size))

    def skill(self, name: str) -> int:
        """A skill's rank; 0 (untrained) when the sheet lacks it."""
        return self.skills.get(name, 0)


def base_hit_points(sheet: Sheet004) -> int:
    return 25 + sheet.abilities.constitution + sheet.abilities.strength


def base_speed(sheet: Sheet004) -> int:
    return max(0, 5 + sheet.abilities.modifier("dexterity") + sheet.abilities.modifier("strength"))


# --- reading and writing ---------------------------------------------------------------


def read_sheet(obj: Mapping[str, object], where: str) -> Sheet004:
    """The seed 004 part of a sheet (the keys of ``SHEET_REQUIRED`` and
    ``SHEET_OPTIONAL``; the caller checks that no other key is there)."""
    raw = as_object(obj["abilities"], f"{where}.abilities")
    check_keys(raw, f"{where}.abilities", ABILITIES)
    ranks = {a: as_int(raw[a], f"{where}.abilities.{a}") for a in ABILITIES}
    for a, rank in ranks.items():
        if not ABILITY_MIN <= rank <= ABILITY_MAX:
            raise DataError(f"{where}.abilities.{a}: {ABILITY_MIN} to {ABILITY_MAX}, not {rank}")
    skills_raw = as_object(obj["skills"], f"{where}.skills")
    skills: dict[str, int] = {}
    for name, value in skills_raw.items():
        rank = as_int(value, f"{where}.skills.{name}")
        if not name.strip() or not SKILL_MIN <= rank <= SKILL_MAX:
            raise DataError(f"{where}.skills.{name}: a named skill of rank 0 to {SKILL_MAX}")
        skills[name] = rank
    armor = ZoneArmor()
    if "armor_by_zone" in obj:
        zones = as_object(obj["armor_by_zone"], f"{where}.armor_by_zone")
        names = tuple(z.value for z in ARMORED_ZONES)
        check_keys(zones, f"{where}.armor_by_zone", (), names)
        values = {k: as_int(v, f"{where}.armor_by_zone.{k}") for k, v in zones.items()}
        if any(not 0 <= v <= DR_MAX for v in values.values()):
            raise DataError(f"{where}.armor_by_zone: damage reduction 0 to {DR_MAX}")
        armor = ZoneArmor(**values)
    return Sheet004(
        abilities=Abilities(**ranks),
        skills=MappingProxyType(dict(sorted(skills.items()))),
        armor=armor,
        size=get_enum(obj, "size", Size, where, Size.MEDIUM),
    )


def write_sheet(sheet: Sheet004) -> dict[str, object]:
    out: dict[str, object] = {
        "abilities": {a: sheet.abilities.rank(a) for a in ABILITIES},
        "skills": dict(sheet.skills),
    }
    armor = {z.value: sheet.armor.reduction(z) for z in ARMORED_ZONES if sheet.armor.reduction(z)}
    if armor:
        out["armor_by_zone"] = armor
    if sheet.size is not Size.MEDIUM:
        out["size"] = sheet.size.value
    return out


def sheet_of(who: Fighter | Combatant) -> Sheet004:
    """The seed 004 statistics of a fighter (or of a combatant's fighter)."""
    return sheet_stats(who, Sheet004, _read_raw, "004")


@functools.lru_cache(maxsize=256)
def _read_raw(raw: RawSheet) -> Sheet004:
    obj = as_object(parse_json_text(raw.fields, raw.where), raw.where)
    for text, where in raw.amendments:  # a battle file's skills, added to the template's
        amendment = as_object(parse_json_text(text, where), where)
        check_keys(amendment, where, (), ("skills",))
        if "skills" in amendment:
            skills = {**as_object(obj.get("skills", {}), raw.where)}
            skills.update(as_object(amendment["skills"], f"{where}.skills"))
            obj = {**obj, "skills": skills}
    check_keys(obj, raw.where, SHEET_REQUIRED, SHEET_OPTIONAL)
    return read_sheet(obj, raw.where)


def with_sheet(fighter: Fighter, sheet: Sheet004) -> Fighter:
    return replace(fighter, stats=sheet)


# --- the editor's description ------------------------------------------------------------


def _ability_field(name: str) -> SheetField:
    return SheetField(
        name,
        ABILITY_LABELS[name],
        SheetFieldKind.NUMBER,
        "Abilities",
        ABILITY_MIN,
        ABILITY_MAX,
        tooltip="Rank 1 to 10, 5 average; the modifier is the rank minus 5 "
        f"({ABILITIES_CITATION}).",
    )


def _armor_field(zone: Zone) -> SheetField:
    return SheetField(
        f"dr_{zone.value}",
        f"{zone.label.capitalize()} DR",
        SheetFieldKind.NUMBER,
        "Armor by zone",
        0,
        DR_MAX,
        tooltip="Damage reduction subtracted from a hit on this zone before its multiplier"
        + (
            " (also covers the " + ("heart" if zone is Zone.TORSO else "brain") + ")"
            if zone in (Zone.TORSO, Zone.HEAD)
            else ""
        )
        + " (004 Zones).",
    )


SHEET_DESCRIPTION = SheetDescription(
    fields=(
        *(_ability_field(a) for a in ABILITIES),
        SheetField(
            "hit_points",
            "Hit points",
            SheetFieldKind.NUMBER,
            "Secondary abilities",
            1,
            HIT_POINTS_MAX,
            tooltip="The fighter's maximum hit points; the base rules give 25 + Constitution "
            f"+ Strength ranks ({HIT_POINTS_CITATION}).",
        ),
        SheetField(
            "move",
            "Speed",
            SheetFieldKind.NUMBER,
            "Secondary abilities",
            0,
            SPEED_MAX,
            tooltip="Metres (hexes) the Move maneuver covers; the base rules give 5 + the "
            f"Dexterity and Strength modifiers ({HIT_POINTS_CITATION}).",
        ),
        *(_armor_field(z) for z in ARMORED_ZONES),
        SheetField(
            "size",
            "Size",
            SheetFieldKind.CHOICE,
            "Body",
            choices=tuple(s.value for s in Size),
            tooltip="The fighter's size category standing (a human is medium); kneeling "
            "makes it a step smaller, lying prone two (base rules).",
        ),
    ),
    skill_minimum=SKILL_MIN,
    skill_maximum=SKILL_MAX,
    # What seed 004 reads of a weapon beyond its name, skill and reach: each mode's
    # own dice, damage type and skill modifier, a missile mode's effective range
    # (its range bands); no 1/2D range, no shield and no armor suit.
    weapon_parts=frozenset(
        {WeaponPart.DICE, WeaponPart.DAMAGE_TYPE, WeaponPart.SKILL_MODIFIER, WeaponPart.RANGE}
    ),
    protection_parts=frozenset(),
    # The damage types by seed 004's names (004 Damage), as the form and the log
    # name them; the catalog's torch burns (fire).
    damage_types=(
        (DamageType.PIERCING, "piercing"),
        (DamageType.CUTTING, "slashing"),
        (DamageType.CRUSHING, "bludgeoning"),
        (DamageType.BURNING, "fire"),
        (DamageType.CORROSION, "acid"),
    ),
    skills_tooltip=f"Skill ranks, each a bonus to its checks: {MELEE_SKILL} to attack, "
    f"{DODGE_SKILL} to dodge, a ranged weapon's own skill (Firearms) to shoot "
    f"({SKILLS_CITATION}).",
)


def sheet_entries(fighter: Fighter) -> SheetEntries:
    sheet = sheet_of(fighter)
    values: dict[str, sheet_fields.SheetValue] = {a: sheet.abilities.rank(a) for a in ABILITIES}
    values["hit_points"] = fighter.hit_points
    values["move"] = fighter.move
    values.update({f"dr_{z.value}": sheet.armor.reduction(z) for z in ARMORED_ZONES})
    values["size"] = sheet.size.value
    return SheetEntries(values=values, skills=dict(sheet.skills))


def with_sheet_entries(fighter: Fighter, entries: SheetEntries) -> Fighter:
    problems = SHEET_DESCRIPTION.problems(entries)
    if problems:
        raise DataError(problems[0].message)

    def number(key: str) -> int:
        value = entries.values[key]
        assert isinstance(value, int)
        return value

    sheet = Sheet004(
        abilities=Abilities(**{a: number(a) for a in ABILITIES}),
        skills=MappingProxyType(dict(sorted(entries.skills.items()))),
        armor=ZoneArmor(**{z.value: number(f"dr_{z.value}") for z in ARMORED_ZONES}),
        size=as_enum(entries.values["size"], Size, "size"),
    )
    return replace(with_sheet(fighter, sheet), hit_points=number("hit_points"), move=number("move"))


def sheet_problems(fighter: Fighter) -> tuple[SheetProblem, ...]:
    """A weapon mode whose damage is not its own dice (seed 004 has no damage by
    thrust or swing), a thrown mode (no rule for the weapon's flight), a shield
    or an armor suit (seed 004 blocks with Strength and Constitution and wears
    armor by zone)."""
    found: list[SheetProblem] = []
    for i, w in enumerate(fighter.weapons):
        for j, m in enumerate(w.modes):
            if m.damage.base is not DamageBase.FIXED:
                found.append(
                    SheetProblem(
                        weapon_place(i, f"modes/{j}/damage"),
                        f"{w.name} ({m.name}): seed 004 damage is the weapon's own dice.",
                    )
                )
            elif m.delivery is Delivery.THROWN:
                found.append(
                    SheetProblem(
                        weapon_place(i, f"modes/{j}/delivery"),
                        f"{w.name} ({m.name}): seed 004 throws no weapons.",
                    )
                )
    if fighter.shield is not None:
        found.append(SheetProblem("shield", "Seed 004 blocks with Strength and Constitution."))
    if fighter.armor is not None:
        found.append(SheetProblem("armor", "Seed 004 armor is by zone (Armor by zone fields)."))
    return tuple(found)
