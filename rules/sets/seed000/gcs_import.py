"""A fighter from a GURPS Character Sheet (GCS) file, for seed 000.

GCS writes JSON, versions 2 to 5 of its format (docs/gcs-import.md names every
choice made here). The characters are 4th-edition and seed 000 is a 3rd-edition
ruleset, so the reader takes over what both editions share and recomputes the rest:

* attributes, skill levels, weapons (damage, reach, the parry class their parry
  text gives) and the torso's DR are taken as the file states them;
* parry and block are never read from the file (its ``calc.parry`` is the
  4th-edition value): seed 000 computes them from the skill and the parry class;
* a shield's DB becomes a PD, worn armor's DR gives a PD (``armor_pd``);
* whatever seed 000 cannot represent (ranged weapons, spells, techniques, traits
  without a seed 000 effect, unequipped gear) is left out and listed for the GM.

Version 1 files and the old XML format are refused with a message telling the
GM to save them once in a current GCS; any other problem is a ``DataError``
that names the part of the file, never a crash.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from hexmap import Handedness, HexmapError, Reach, parse_signed_digits
from rules.battle.limits import MAX_WEAPONS, check_counts
from rules.battle.model import (
    Armor,
    DamageBase,
    DamageSpec,
    DamageType,
    Fighter,
    ParryClass,
    Shield,
    ShieldSize,
    Weapon,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.battle.sides import MAX_SIDE_NAME
from rules.core.dice import parse_dice
from rules.core.errors import DataError
from rules.core.jsondata import JSONObject, as_list, as_object
from rules.core.numbers import number_text_problem
from rules.core.strict_json import bounded_loads, check_depth
from rules.core.writable_text import unwritable_text
from rules.sets.protocol import CharacterFileKind, ImportedCharacter
from rules.sets.seed000.gcs_criteria import (
    GcsSkill,
    SkillDefault,
    fill_placeholders,
    read_replacements,
    read_text_criteria,
)
from rules.sets.seed000.sheet import (
    MAX_ENCUMBRANCE,
    SHEET_DESCRIPTION,
    Attributes,
    PainThreshold,
    Sheet000,
    encumbrance_level,
)

FORMAT_VERSIONS = range(2, 6)  # the JSON formats GCS 5 reads and writes
MAX_FILE_BYTES = 16 * 1024 * 1024  # the largest real sheets are a few hundred kB
MAX_NESTING = 32  # containers inside containers
# Lists and objects inside each other: a container is two (itself and its
# ``children``), and the deepest real sheets are far from this.
MAX_JSON_DEPTH = 2 * MAX_NESTING + 16
MAX_ATTRIBUTE = 99
MAX_HIT_POINTS = 999
MAX_MOVE = 99
SKILL_LEVELS = (-50, 99)
MAX_WEIGHT_LB = 100_000.0
MAX_NAME = MAX_SIDE_NAME  # as many characters as the character editor's name box holds
RESAVE = "open it in a current GURPS Character Sheet (GCS 5), save it once and import it again"

# Armor PD by the DR of the worn armor on the torso, as in the seed 000 catalog's
# suits (assets/armor.json): cloth DR 1 PD 1, leather DR 2 PD 2, mail and scale
# DR 4 PD 3, half-plate and plate DR 5-6 PD 4.
ARMOR_PD_BY_DR = ((1, 1), (2, 2), (4, 3), (5, 4))  # (at least this DR, PD)
MAX_SHIELD_PD = 4
BUCKLER_PD = 1

# The 4th-edition weapon skills and the seed 000 weapon kind each stands for; the
# kinds that depend on the blow are chosen by its damage type (cut: axe).
_KIND_BY_SKILL: Mapping[str, WeaponKind] = MappingProxyType(
    {
        "broadsword": WeaponKind.SWORD,
        "shortsword": WeaponKind.SWORD,
        "two-handed sword": WeaponKind.TWO_HEX_SWORD,
        "rapier": WeaponKind.RAPIER,
        "smallsword": WeaponKind.RAPIER,
        "saber": WeaponKind.SABER,
        "main-gauche": WeaponKind.MAIN_GAUCHE,
        "knife": WeaponKind.KNIFE,
        "spear": WeaponKind.SPEAR,
        "polearm": WeaponKind.POLEARM,
        "staff": WeaponKind.STAFF,
        "flail": WeaponKind.FLAIL,
        "two-handed flail": WeaponKind.FLAIL,
        "brawling": WeaponKind.UNARMED,
        "boxing": WeaponKind.UNARMED,
        "karate": WeaponKind.UNARMED,
    }
)
_AXE_OR_MACE: Mapping[str, tuple[WeaponKind, WeaponKind]] = MappingProxyType(
    {
        "axe/mace": (WeaponKind.AXE, WeaponKind.MACE),
        "two-handed axe/mace": (WeaponKind.BATTLE_AXE, WeaponKind.MACE),
    }
)
_CUTTING = (DamageType.CUTTING, DamageType.IMPALING)
# Weapons that scatter as large ones when dropped (000 DROPPED WEAPONS), as in the
# catalog; any two-handed weapon is large as well.
_LARGE_KINDS = frozenset(
    {
        WeaponKind.SPEAR,
        WeaponKind.PIKE,
        WeaponKind.POLEARM,
        WeaponKind.STAFF,
        WeaponKind.TWO_HEX_SWORD,
        WeaponKind.BATTLE_AXE,
    }
)

# Version 5 names an item's kind by the first letter of its id (GCS's model/kinds).
_V5_KINDS: Mapping[str, str] = MappingProxyType(
    {
        "s": "skill",
        "S": "skill_container",
        "q": "technique",
        "p": "spell",
        "P": "spell_container",
        "r": "ritual_magic_spell",
        "t": "trait",
        "T": "trait_container",
        "e": "equipment",
        "E": "equipment_container",
        "w": "melee_weapon",
        "W": "ranged_weapon",
    }
)
# Traits with a seed 000 effect, by name (lower case).
_COMBAT_REFLEXES = "combat reflexes"
_AMBIDEXTERITY = "ambidexterity"
_PAIN_THRESHOLDS: Mapping[str, PainThreshold] = MappingProxyType(
    {"high pain threshold": PainThreshold.HIGH, "low pain threshold": PainThreshold.LOW}
)
_DEFENSE_BONUSES = ("block", "parry", "dodge")  # a shield's DB, as GCS bonuses
_WEIGHT = re.compile(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(lb|lbs|#|kg|oz|g|tn|t)?\s*$")
_LB_PER_UNIT: Mapping[str, float] = MappingProxyType(
    {
        "lb": 1.0,
        "lbs": 1.0,
        "#": 1.0,
        "kg": 2.2,
        "oz": 1 / 16,
        "g": 0.0022,
        "tn": 2000.0,
        "t": 2205.0,
    }
)
ORIGIN_PREFIX = "gcs:"  # Fighter.origin of an imported character: "gcs:" and the file's id
# GCS ids: a UUID (versions 2 to 4) or a letter and 16 characters (version 5).
_ORIGIN_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_LEADING_INT = re.compile(r"\s*([+-]?[0-9]+)")


def gcs_file_kind() -> CharacterFileKind:
    """The GCS character file as seed 000's ruleset offers it (``character_file_kinds``)."""
    return CharacterFileKind("GURPS Character Sheet", (".gcs",), read_gcs, MAX_FILE_BYTES)


def read_gcs(data: bytes) -> ImportedCharacter:
    """The fighter of a ``.gcs`` file's bytes; ``DataError`` if it cannot be read."""
    if len(data) > MAX_FILE_BYTES:
        raise DataError(
            f"the file is {len(data) // (1024 * 1024)} MB; a character sheet is far "
            f"smaller (at most {MAX_FILE_BYTES // (1024 * 1024)} MB is read)"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"not a GCS character file: not UTF-8 text (byte {exc.start})") from exc
    if text.lstrip().startswith("<"):
        raise DataError(f"this is a character file of the old XML format: {RESAVE}")
    try:
        document = bounded_loads(text, max_depth=MAX_JSON_DEPTH)
    except json.JSONDecodeError as exc:
        raise DataError(
            f"not a GCS character file: not JSON (line {exc.lineno}, column {exc.colno})"
        ) from exc
    except RecursionError as exc:
        raise DataError("not a GCS character file: its JSON is nested too deeply") from exc
    except ValueError as exc:  # a number too long or too large (bounded_loads names it)
        raise DataError(f"not a GCS character file: {exc}") from exc
    return import_gcs(document, text)


def import_gcs(document: object, source: str | None = None) -> ImportedCharacter:
    """The fighter of a GCS document (the file's JSON, parsed; ``source``, its
    text, if known)."""
    check_depth(document, MAX_JSON_DEPTH, _too_deep)
    check_counts(document, DataError)  # no list longer than a battle file's may be
    unwritable = unwritable_text(document, source)  # a fighter no battle file could hold
    if unwritable is not None:
        raise DataError(unwritable)
    doc = as_object(document, "the file")
    version = _format_version(doc)
    return _Reader(doc, version).character()


def _too_deep(message: str) -> DataError:
    return DataError(f"not a GCS character file: {message}")


def armor_pd(worn_dr: int) -> int:
    """Our PD for worn armor of DR ``worn_dr`` on the torso (``ARMOR_PD_BY_DR``)."""
    pd = 0
    for at_least, value in ARMOR_PD_BY_DR:
        if worn_dr >= at_least:
            pd = value
    return pd


def shield_pd(db: int, name: str) -> int:
    """Our PD for a 4th-edition shield of DB ``db``: one more than its DB (a small
    shield's DB 1 is PD 2, a large shield's DB 3 is PD 4), and PD 1 for a buckler."""
    if "buckler" in name.lower():
        return BUCKLER_PD
    return min(db + 1, MAX_SHIELD_PD)


# --- the document ---------------------------------------------------------------------


def _format_version(doc: JSONObject) -> int:
    if "version" not in doc or doc.get("version") == 1 or ("calc" not in doc and "ST" in doc):
        raise DataError(f"this is a version 1 GCS file, which GCS 5 no longer reads: {RESAVE}")
    version = doc["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise DataError(f"version: expected a whole number, got {_short(version)}")
    if version > FORMAT_VERSIONS[-1]:
        raise DataError(
            f"version {version}: written by a newer GCS than Hexfray knows "
            f"(it reads versions {FORMAT_VERSIONS[0]} to {FORMAT_VERSIONS[-1]})"
        )
    if version not in FORMAT_VERSIONS:
        raise DataError(f"version {version} is not a GCS character format")
    kind = doc.get("type", "character")
    if kind != "character":
        raise DataError(f"type: this GCS file holds a {_short(kind)}, not a character")
    return version


@dataclass(frozen=True, slots=True)
class _Item:
    """An entry of one of the file's lists, with its place for messages."""

    data: JSONObject
    where: str
    kind: str
    equipped: bool = True  # it and every container around it

    @property
    def name(self) -> str:
        for key in ("name", "description"):
            value = self.data.get(key)
            if isinstance(value, str) and value.strip():
                return fill_placeholders(value, self.replacements).strip()
        return self.where

    @property
    def replacements(self) -> Mapping[str, str]:
        """What the placeholders of its names, and of its weapons' skills, stand for."""
        return read_replacements(self.data, self.where)

    def skill(self) -> GcsSkill:
        """The skill or technique this entry is, by its name and specializations."""
        name = self._text_field("name")
        if not name:
            raise DataError(f"{self.where}.name: a skill needs a name")
        return GcsSkill(
            name,
            self._text_field("specialization"),
            self._text_field("optional_specialization"),
        )

    def _text_field(self, key: str) -> str:
        text = _text(self.data.get(key), f"{self.where}.{key}")
        return fill_placeholders(text, self.replacements).strip()

    def label(self) -> str:
        return f"{self.name} ({self.where})"


@dataclass(frozen=True, slots=True)
class _Mode:
    mode: WeaponMode
    parry: ParryClass
    fencing: bool


class _Reader:
    """One import: reads the document once and gathers what it took and skipped."""

    def __init__(self, doc: JSONObject, version: int) -> None:
        self.doc = doc
        self.version = version
        self.imported: list[str] = []
        self.skipped: list[str] = []
        self.gcs_skills: list[GcsSkill] = []  # the character's skills that have a level
        # Skills a weapon names that the character lacks, by their key on the sheet.
        self.lacking_skills: dict[str, GcsSkill] = {}

    # --- the whole character ----------------------------------------------------------
    def character(self) -> ImportedCharacter:
        name = self._name()
        values = self._attributes()
        attributes = Attributes(
            st=self._on_sheet("st", self._attribute(values, "st", 1, MAX_ATTRIBUTE)),
            dx=self._on_sheet("dx", self._attribute(values, "dx", 1, MAX_ATTRIBUTE)),
            iq=self._on_sheet("iq", self._attribute(values, "iq", 1, MAX_ATTRIBUTE)),
            ht=self._on_sheet("ht", self._attribute(values, "ht", 1, MAX_ATTRIBUTE)),
        )
        file_hit_points = self._attribute(values, "hp", 1, MAX_HIT_POINTS)
        hit_points = self._on_sheet("hit_points", file_hit_points)
        move = self._on_sheet("move", self._attribute(values, "basic_move", 0, MAX_MOVE))
        self.imported.append(
            f"ST {attributes.st}, DX {attributes.dx}, IQ {attributes.iq}, HT {attributes.ht}; "
            f"HP {hit_points}, Move {move}"
        )
        now = self._current_hp(values["hp"], file_hit_points, hit_points)
        skills = self._skills()
        traits = self._traits()
        equipment = list(self._walk("equipment"))
        weapons: list[Weapon] = []
        fencing = False
        for item in [*equipment, *traits]:
            if item.kind in ("equipment", "equipment_container") and not item.equipped:
                continue
            weapon, fences = self._weapon(item, skills)
            if weapon is not None:
                if len(weapons) == MAX_WEAPONS:  # no battle takes the fighter: stop early
                    raise DataError(
                        f"{item.where}: more than {MAX_WEAPONS} weapons; a fighter carries "
                        f"at most {MAX_WEAPONS}"
                    )
                weapons.append(_unique_key(weapon, weapons))
                fencing = fencing or fences
        shield, shield_skill = self._shield(equipment, skills)
        armor = self._armor(equipment, traits)
        self._report_unequipped(equipment)
        encumbrance = self._encumbrance(equipment, attributes.st)
        flags = self._trait_effects(traits)
        sheet = Sheet000(
            attributes=attributes,
            skills=MappingProxyType(self._sheet_skills(skills, attributes, weapons)),
            shield_skill=shield_skill,
            encumbrance=encumbrance,
            combat_reflexes=flags.combat_reflexes,
            fencing=fencing,
            pain_threshold=flags.pain_threshold,
            ambidextrous=flags.ambidextrous,
        )
        fighter = Fighter(
            name=name,
            hit_points=hit_points,
            move=move,
            weapons=tuple(weapons),
            stats=sheet,
            handedness=self._handedness(),
            shield=shield,
            armor=armor,
            origin=self._origin(),
        )
        return ImportedCharacter(fighter, now, tuple(self.imported), tuple(self.skipped))

    def _origin(self) -> str:
        """The fighter's origin, "gcs:<the file's id>": GCS gives each character an
        id when it is made and keeps it through every save, so a later import of the
        same character is recognised. Without a usable id it imports as a new one."""
        value = self.doc.get("id")
        if isinstance(value, str) and _ORIGIN_ID.fullmatch(value):
            return f"{ORIGIN_PREFIX}{value}"
        self.skipped.append(
            "the character's id (missing or malformed): importing this file again "
            "adds a new fighter instead of updating this one"
        )
        return ""

    def _name(self) -> str:
        profile = as_object(self.doc.get("profile", {}), "profile")
        name = profile.get("name")
        if name is None:
            return "Imported character"
        if not isinstance(name, str):
            raise DataError(f"profile.name: expected text, got {_short(name)}")
        name = name.strip()
        if len(name) > MAX_NAME:
            self.skipped.append(
                f"name: {len(name)} characters, more than the character editor takes; "
                f"the fighter joins with the first {MAX_NAME}"
            )
        return name[:MAX_NAME].strip() or "Imported character"

    def _handedness(self) -> Handedness:
        profile = as_object(self.doc.get("profile", {}), "profile")
        hand = profile.get("handedness")
        if isinstance(hand, str) and hand.strip().lower() == "left":
            return Handedness.LEFT
        return Handedness.RIGHT

    # --- attributes -----------------------------------------------------------------
    def _attributes(self) -> dict[str, JSONObject]:
        found: dict[str, JSONObject] = {}
        for i, entry in enumerate(as_list(self.doc.get("attributes"), "attributes")):
            where = f"attributes[{i}]"
            attr = as_object(entry, where)
            attr_id = attr.get("attr_id")
            if not isinstance(attr_id, str):
                raise DataError(f"{where}.attr_id: expected text, got {_short(attr_id)}")
            found.setdefault(attr_id, attr)
        return found

    def _attribute(
        self, values: Mapping[str, JSONObject], attr_id: str, low: int, high: int
    ) -> int:
        if attr_id not in values:
            raise DataError(f"attributes: the file has no {attr_id!r} attribute")
        calc = as_object(values[attr_id].get("calc"), f"attribute {attr_id}.calc")
        return _whole(calc.get("value"), f"attribute {attr_id}.calc.value", low, high)

    def _on_sheet(self, key: str, value: int) -> int:
        """``value`` within the range of seed 000's sheet field ``key`` (the
        character editor's): a value beyond it joins at its nearest end, and the
        report says so."""
        field = next(f for f in SHEET_DESCRIPTION.fields if f.key == key)
        kept = min(max(value, field.minimum), field.maximum)
        if kept != value:
            self.skipped.append(
                f"{field.label} {value} is beyond the sheet's {field.minimum} to "
                f"{field.maximum}: the fighter joins with {field.label} {kept}"
            )
        return kept

    def _current_hp(self, hp: JSONObject, in_file: int, hit_points: int) -> int:
        """The HP the fighter joins with: ``hit_points`` less the file's injury (of
        its ``in_file`` hit points), at least 1."""
        calc = as_object(hp.get("calc"), "attribute hp.calc")
        if "current" in calc:
            now_in_file = _whole(
                calc["current"], "attribute hp.calc.current", -100 * in_file, in_file
            )
        else:
            damage = _whole(hp.get("damage", 0), "attribute hp.damage", 0, 101 * in_file)
            now_in_file = in_file - damage
        now = hit_points - (in_file - now_in_file)
        if now < 1:
            self.skipped.append(
                f"HP: the file's current HP is {now_in_file}; the fighter joins with 1 HP "
                "(wounds below 1 HP are not brought over)"
            )
            return 1
        if now < hit_points:
            self.imported.append(f"wounds: {hit_points - now} HP of injury ({now} HP left)")
        return now

    # --- the lists and their containers -----------------------------------------------
    def _kind(self, item: JSONObject, where: str) -> str:
        declared = item.get("type")
        if isinstance(declared, str):
            return declared
        if self.version >= 5:
            item_id = item.get("id")
            if isinstance(item_id, str) and item_id:
                return _V5_KINDS.get(item_id[0], "")
            raise DataError(f"{where}.id: a version 5 entry needs an id, got {_short(item_id)}")
        raise DataError(f"{where}.type: expected text, got {_short(declared)}")

    def _walk(self, list_key: str, *, alias: str | None = None) -> Iterator[_Item]:
        """Every entry of a list, containers' children after their container."""
        key = list_key if list_key in self.doc or alias is None else alias
        stack: list[tuple[list[object], str, int, bool]] = [
            (as_list(self.doc.get(key, []), key), key, 0, True)
        ]
        while stack:
            entries, where, depth, equipped = stack.pop()
            if depth > MAX_NESTING:
                raise DataError(f"{where}: containers nested more than {MAX_NESTING} deep")
            children: list[tuple[list[object], str, int, bool]] = []
            for i, entry in enumerate(entries):
                place = f"{where}[{i}]"
                data = as_object(entry, place)
                item_equipped = equipped and data.get("equipped", False) is True
                item = _Item(data, place, self._kind(data, place), item_equipped)
                yield item
                if "children" in data:
                    kids = as_list(data["children"], f"{place}.children")
                    children.append((kids, f"{place}.children", depth + 1, item_equipped))
            stack.extend(reversed(children))

    # --- skills, spells, traits -------------------------------------------------------
    def _skills(self) -> dict[str, int]:
        skills: dict[str, int] = {}
        techniques: list[str] = []
        for item in self._walk("skills"):
            if item.kind == "skill_container":
                continue
            if item.kind == "technique":
                techniques.append(item.skill().key)
                continue
            if item.kind != "skill":
                self.skipped.append(f"{item.label()}: not a skill ({item.kind or 'unknown'})")
                continue
            skill = item.skill()
            calc = item.data.get("calc")
            level = calc.get("level") if isinstance(calc, dict) else None
            if level is None:
                self.skipped.append(f"skill {skill.key}: the file gives no level")
                continue
            value = _whole(level, f"{item.where}.calc.level", *SKILL_LEVELS)
            skills[skill.key] = max(value, skills.get(skill.key, value))
            self.gcs_skills.append(skill)
        if techniques:
            self.skipped.append(
                f"techniques (seed 000 has none): {', '.join(sorted(set(techniques)))}"
            )
        spells = [i.name for i in self._walk("spells") if not i.kind.endswith("container")]
        if spells:
            self.skipped.append(f"spells (seed 000 has no magic): {', '.join(sorted(set(spells)))}")
        if skills:
            listed = ", ".join(f"{n} {v}" for n, v in sorted(skills.items()))
            self.imported.append(f"skills: {listed}")
        return skills

    def _sheet_skills(
        self, skills: Mapping[str, int], attributes: Attributes, weapons: list[Weapon]
    ) -> dict[str, int]:
        """The skills on the sheet: the file's levels within the sheet's range, and
        each weapon's skill the character lacks at seed 000's default for it."""
        low, high = SHEET_DESCRIPTION.skill_minimum, SHEET_DESCRIPTION.skill_maximum
        levels = {name: min(max(level, low), high) for name, level in skills.items()}
        beyond = [f"{n} {v} joins at {levels[n]}" for n, v in skills.items() if v != levels[n]]
        if beyond:
            listed = ", ".join(beyond)
            self.skipped.append(f"skill levels beyond the sheet's {low} to {high}: {listed}")
        untrained = Sheet000(attributes=attributes)  # every skill at its default
        for name in dict.fromkeys(w.skill for w in weapons if w.skill not in levels):
            default = untrained.skill(name)
            levels[name] = min(max(default, low), high)
            self.imported.append(
                f"skill {name} at {levels[name]}: the character lacks the skill its weapon "
                f"is used with, so it joins at seed 000's default, DX-5 ({default})"
            )
        return levels

    def _traits(self) -> list[_Item]:
        """The enabled traits (``advantages`` in version 2)."""
        enabled: list[_Item] = []
        disabled_places: list[str] = []
        for item in self._walk("traits", alias="advantages"):
            if item.data.get("disabled", False) is True or any(
                item.where.startswith(p) for p in disabled_places
            ):
                disabled_places.append(f"{item.where}.children")
                continue
            enabled.append(item)
        return enabled

    def _trait_effects(self, traits: list[_Item]) -> _TraitEffects:
        combat_reflexes = ambidextrous = False
        pain = PainThreshold.NORMAL
        other: list[str] = []
        for item in traits:
            if item.kind.endswith("container"):
                continue
            name = item.name.lower()
            if name == _COMBAT_REFLEXES:
                combat_reflexes = True
            elif name == _AMBIDEXTERITY:
                ambidextrous = True
            elif name in _PAIN_THRESHOLDS:
                pain = _PAIN_THRESHOLDS[name]
            elif "weapons" not in item.data and _torso_dr(item) is None:
                other.append(item.name)  # a trait's weapons and DR are read elsewhere
        known = [
            label
            for label, present in (
                ("Combat Reflexes", combat_reflexes),
                ("Ambidexterity", ambidextrous),
                (f"{pain.value.title()} Pain Threshold", pain is not PainThreshold.NORMAL),
            )
            if present
        ]
        if known:
            self.imported.append(f"traits: {', '.join(known)}")
        if other:
            self.skipped.append(
                f"traits without a seed 000 effect: {', '.join(sorted(set(other)))}"
            )
        return _TraitEffects(combat_reflexes, ambidextrous, pain)

    # --- the skill a weapon is used with --------------------------------------------------
    def _best_skill(
        self, owner: _Item, weapon: JSONObject, where: str, skills: Mapping[str, int]
    ) -> str | None:
        """The skill the character uses the weapon with, by its key on the sheet:
        of the skills it has that the weapon's defaults name, the one that gives the
        highest level (the first default, then the first skill, among equals). Else
        a skill the character lacks, which seed 000 defaults to DX-5 whatever it
        is: of those the defaults name exactly, the one of the best modifier (a
        spear's Spear at +0 before its Polearm at -4; the first among equals)."""
        defaults = _skill_defaults(owner, weapon, where)
        known = [
            (skills[skill.key] + default.modifier, -i, -j, skill.key)
            for i, default in enumerate(defaults)
            for j, skill in enumerate(self.gcs_skills)
            if default.matches(skill)
        ]
        if known:
            return max(known)[3]
        lacking = [
            (default.modifier, -i, named)
            for i, default in enumerate(defaults)
            if (named := default.named_skill()) is not None
        ]
        if not lacking:
            return None
        named = max(lacking, key=lambda found: found[:2])[2]
        self.lacking_skills.setdefault(named.key, named)
        return named.key

    def _skill_modifier(
        self, owner: _Item, weapon: JSONObject, where: str, skill_key: str
    ) -> int | None:
        """The modifier of a weapon entry to the skill ``skill_key`` (the best of
        its defaults that name it), None when no default names it."""
        named = [s for s in self.gcs_skills if s.key == skill_key]
        if skill_key in self.lacking_skills:
            named.append(self.lacking_skills[skill_key])
        modifiers = [
            d.modifier
            for d in _skill_defaults(owner, weapon, where)
            if any(d.matches(skill) for skill in named)
        ]
        return max(modifiers, default=None)

    # --- weapons -----------------------------------------------------------------------
    def _weapon_entries(self, item: _Item) -> list[tuple[JSONObject, str, str]]:
        """(weapon, its place, its kind) of an item's ``weapons`` list."""
        if "weapons" not in item.data:
            return []
        entries = []
        for i, entry in enumerate(as_list(item.data["weapons"], f"{item.where}.weapons")):
            where = f"{item.where}.weapons[{i}]"
            weapon = as_object(entry, where)
            entries.append((weapon, where, self._kind(weapon, where)))
        return entries

    def _weapon(self, item: _Item, skills: Mapping[str, int]) -> tuple[Weapon | None, bool]:
        """The item's hand weapon (its melee modes) and whether it parries as a
        fencing weapon; None for a shield (``_shield``) or what cannot be used."""
        entries = self._weapon_entries(item)
        if not entries or any(_blocks(w) for w, _where, k in entries if k == "melee_weapon"):
            return None, False
        melee = [(w, where) for w, where, k in entries if k == "melee_weapon"]
        for _w, where, entry_kind in entries:
            if entry_kind != "melee_weapon":
                what = (
                    "ranged weapon"
                    if entry_kind == "ranged_weapon"
                    else f"weapon of kind {entry_kind!r}"
                )
                self.skipped.append(
                    f"{item.name}: its {what} ({where}) is left out; "
                    "seed 000 imports hand weapons only"
                )
        if not melee:
            return None, False
        skill_name = self._best_skill(item, *melee[0], skills)
        if skill_name is None:
            self.skipped.append(f"{item.label()}: its weapon names no skill")
            return None, False
        modes: list[_Mode] = []
        strength = ""
        for entry, where in melee:
            mode = self._mode(item, entry, where, skill_name, [m.mode.name for m in modes])
            if mode is not None:
                modes.append(mode)
                strength = strength or _text(entry.get("strength"), f"{where}.strength")
        if not modes:
            return None, False
        kind = _weapon_kind(skill_name, modes[0].mode.damage.type)
        if kind is None:
            self.skipped.append(
                f"{item.label()}: seed 000 has no weapon kind for the {skill_name} skill"
            )
            return None, False
        two_handed = "†" in strength or "‡" in strength
        parry = max((m.parry for m in modes), key=lambda p: p.fraction)
        if kind is WeaponKind.UNARMED and parry is not ParryClass.NONE:
            parry = ParryClass.FULL  # bare hands parry at full skill (the catalog's fist)
        if kind is WeaponKind.FLAIL and parry is ParryClass.HALF:
            parry = ParryClass.THIRD  # seed 000's flails parry at a third
        weapon = Weapon(
            key=_slug(item.name),
            name=item.name,
            kind=kind,
            skill=skill_name,
            modes=tuple(m.mode for m in modes),
            parry=parry,
            weight=self._weight(item) if item.kind.startswith("equipment") else 0.0,
            two_handed=two_handed,
            size=WeaponSize.LARGE if two_handed or kind in _LARGE_KINDS else WeaponSize.SMALL,
            min_st=_leading_int(strength, 0, 0, MAX_ATTRIBUTE),
        )
        described = "; ".join(f"{m.name} {m.damage} {m.reach_text}" for m in weapon.modes)
        self.imported.append(
            f"weapon {weapon.name} ({skill_name}): {described}; parry class {parry.value}"
        )
        return weapon, any(m.fencing for m in modes)

    def _mode(
        self,
        item: _Item,
        weapon: JSONObject,
        where: str,
        skill_name: str,
        taken: list[str],
    ) -> _Mode | None:
        usage = _text(weapon.get("usage"), f"{where}.usage").strip().lower()
        name = {"swung": "swing", "thrusted": "thrust"}.get(usage, usage) or "attack"
        if name in taken:
            name = f"{name} {len(taken) + 1}"
        label = f"{item.name} ({name}, {where})"
        modifier = self._skill_modifier(item, weapon, where, skill_name)
        if modifier is None:
            self.skipped.append(f"{label}: it is not used with {skill_name}, the weapon's skill")
            return None
        damage = self._damage(weapon, where, label)
        if damage is None:
            return None
        reach_text = _text(weapon.get("reach"), f"{where}.reach").replace("*", "").strip()
        try:
            reach = Reach.parse(reach_text)
        except HexmapError:
            self.skipped.append(f"{label}: reach {reach_text!r} cannot be shown on the map")
            return None
        parry_text = _text(weapon.get("parry"), f"{where}.parry").strip()
        return _Mode(
            WeaponMode(name=name, damage=damage, reach=reach, skill_modifier=modifier),
            _parry_class(parry_text),
            "f" in parry_text.lower(),
        )

    def _damage(self, weapon: JSONObject, where: str, label: str) -> DamageSpec | None:
        damage = as_object(weapon.get("damage"), f"{where}.damage")
        type_text = _text(damage.get("type"), f"{where}.damage.type").strip()
        try:
            damage_type = DamageType(type_text)
        except ValueError:
            self.skipped.append(f"{label}: damage type {type_text!r} is not one of seed 000's")
            return None
        strength_base = _text(damage.get("st"), f"{where}.damage.st").strip()
        base_text = _text(damage.get("base"), f"{where}.damage.base").replace(" ", "")
        if strength_base in ("sw", "thr"):
            base = DamageBase.SWING if strength_base == "sw" else DamageBase.THRUST
            adds = parse_signed_digits(base_text or "0", 3)  # "+2", "-1"; not "+1d"
            if adds is None:
                self.skipped.append(
                    f"{label}: damage {strength_base}{base_text:.20} adds dice to {strength_base}"
                )
                return None
            return DamageSpec(base, adds, damage_type)
        if strength_base:
            self.skipped.append(f"{label}: damage based on {strength_base!r} is not seed 000's")
            return None
        try:
            dice = parse_dice(base_text)
        except DataError:
            self.skipped.append(f"{label}: damage {base_text!r} is not a dice roll")
            return None
        return DamageSpec(DamageBase.FIXED, 0, damage_type, fixed=dice)

    # --- the shield ---------------------------------------------------------------------
    def _shield(
        self, equipment: list[_Item], skills: Mapping[str, int]
    ) -> tuple[Shield | None, str]:
        shield: Shield | None = None
        shield_skill = "Shield"
        for item in equipment:
            blocking = [
                (w, where)
                for w, where, k in self._weapon_entries(item)
                if k == "melee_weapon" and _blocks(w)
            ]
            if not blocking or not item.equipped:
                continue
            if shield is not None:
                self.skipped.append(f"{item.label()}: a second shield (seed 000 carries one)")
                continue
            db = max((_bonus(item, attr) for attr in _DEFENSE_BONUSES), default=0)
            if db < 1:
                self.skipped.append(f"{item.label()}: a shield without a DB bonus")
                continue
            pd = shield_pd(db, item.name)
            shield = Shield(
                key=_slug(item.name),
                name=item.name,
                size=_shield_size(pd),
                pd=pd,
                weight=self._weight(item),
                heavy=pd >= MAX_SHIELD_PD,
            )
            skill = self._best_skill(item, *blocking[0], skills)
            shield_skill = skill if skill is not None else shield_skill
            self.imported.append(
                f"shield {item.name}: DB {db} gives PD {pd}; blocks with {shield_skill}"
            )
            bashes = ", ".join(
                _text(w.get("usage"), f"{where}.usage") or where for w, where in blocking
            )
            self.skipped.append(f"{item.name}: its shield attack ({bashes}) is left out")
        return shield, shield_skill

    # --- armor -------------------------------------------------------------------------
    def _armor(self, equipment: list[_Item], traits: list[_Item]) -> Armor | None:
        worn = [i for i in equipment if i.equipped and _torso_dr(i) is not None]
        worn_dr = sum(_torso_dr(i) or 0 for i in worn)
        natural_dr = sum(_torso_dr(i) or 0 for i in traits)
        body_dr = self._body_torso_dr()
        dr = body_dr if body_dr is not None else worn_dr + natural_dr
        if dr <= 0:
            return None
        pd = armor_pd(worn_dr)
        names = [i.name for i in worn] or ["natural DR"]
        source = "the body's torso" if body_dr is not None else "the torso's DR bonuses"
        self.imported.append(
            f"armor: DR {dr} ({source}); PD {pd} for worn armor of DR {worn_dr} "
            "(seed 000 has one DR and PD for the whole body)"
        )
        return Armor(
            key="gcs-armor",
            name=", ".join(names)[:80],
            pd=pd,
            dr=dr,
            weight=sum(self._weight(i) for i in worn),
        )

    def _body_torso_dr(self) -> int | None:
        """The torso's DR as GCS computed it (``settings.body_type``, called
        ``settings.hit_locations`` in version 2), None if the file has none."""
        settings = self.doc.get("settings")
        if not isinstance(settings, dict):
            return None
        key = "body_type" if "body_type" in settings else "hit_locations"
        if key not in settings:
            return None
        where = f"settings.{key}"
        body = as_object(settings[key], where)
        for i, entry in enumerate(as_list(body.get("locations", []), f"{where}.locations")):
            place = f"{where}.locations[{i}]"
            location = as_object(entry, place)
            if location.get("id") != "torso":
                continue
            calc = location.get("calc")
            if not isinstance(calc, dict):
                return None
            dr = as_object(calc.get("dr", {}), f"{place}.calc.dr")
            return _whole(dr.get("all", 0), f"{place}.calc.dr.all", 0, 999)
        return None

    # --- weight and what stays behind -----------------------------------------------------
    def _weight(self, item: _Item) -> float:
        """One of the item (its own weight, without its contents)."""
        calc = item.data.get("calc")
        for source, key in ((calc, "weight"), (item.data, "weight"), (item.data, "base_weight")):
            if isinstance(source, dict) and key in source:
                return _pounds(source[key], f"{item.where}.{key}")
        return 0.0

    def _encumbrance(self, equipment: list[_Item], st: int) -> int:
        carried = 0.0
        for item in equipment:
            quantity = _whole(item.data.get("quantity", 1), f"{item.where}.quantity", 0, 100_000)
            carried += self._weight(item) * quantity
        if carried > MAX_WEIGHT_LB:
            raise DataError(f"equipment: {carried:g} lb carried is beyond any character")
        try:
            level = encumbrance_level(carried, st)
        except DataError:
            self.skipped.append(
                f"encumbrance: {carried:g} lb is more than ST {st} can carry; "
                "the fighter joins extra-heavily encumbered"
            )
            return MAX_ENCUMBRANCE
        self.imported.append(f"encumbrance level {level} ({carried:g} lb carried)")
        return level

    def _report_unequipped(self, equipment: list[_Item]) -> None:
        for item in equipment:
            if item.equipped:
                continue
            if "weapons" in item.data or _torso_dr(item) is not None or _has_dr(item):
                self.skipped.append(f"{item.label()}: carried but not equipped")


@dataclass(frozen=True, slots=True)
class _TraitEffects:
    combat_reflexes: bool
    ambidextrous: bool
    pain_threshold: PainThreshold


# --- small readers ---------------------------------------------------------------------


def _whole(value: object, where: str, low: int, high: int) -> int:
    """A whole number within ``low..high`` (GCS writes some as 12.0)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise DataError(f"{where}: expected a number, got {_short(value)}")
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise DataError(f"{where}: expected a whole number, got {_short(value)}")
        value = int(value)
    if not low <= value <= high:
        raise DataError(f"{where}: {value} is out of range ({low} to {high})")
    return value


def _text(value: object, where: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DataError(f"{where}: expected text, got {_short(value)}")
    return value


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}..."


def _pounds(value: object, where: str) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        pounds = float(value)
    else:
        match = _WEIGHT.fullmatch(_text(value, where))
        if match is None:
            raise DataError(f"{where}: expected a weight like '3 lb', got {_short(value)}")
        problem = number_text_problem(match.group(1))  # bounded before float()
        if problem is not None:
            raise DataError(f"{where}: {problem}")
        pounds = float(match.group(1)) * _LB_PER_UNIT[match.group(2) or "lb"]
    if not 0 <= pounds <= MAX_WEIGHT_LB:
        raise DataError(f"{where}: {pounds:g} lb is out of range")
    return pounds


def _leading_int(text: str, default: int, low: int, high: int) -> int:
    """The whole number ``text`` begins with, within ``low..high`` (a longer one
    counts as the end of the range its sign points to); ``default`` for none."""
    match = _LEADING_INT.match(text)
    if match is None:
        return default
    number = match.group(1)
    value = parse_signed_digits(number)
    if value is None:  # more digits than any range here: past its end
        return low if number.startswith("-") else high
    return max(low, min(high, value))


def _skill_defaults(owner: _Item, weapon: JSONObject, where: str) -> list[SkillDefault]:
    """The skills a weapon of ``owner`` is used with, each with its modifier; a
    name and a specialization may be text or a criteria (``gcs_criteria``)."""
    found: list[SkillDefault] = []
    for i, entry in enumerate(as_list(weapon.get("defaults", []), f"{where}.defaults")):
        if entry is None:  # GCS skips an empty default
            continue
        place = f"{where}.defaults[{i}]"
        default = as_object(entry, place)
        kind = default.get("type")
        if not isinstance(kind, str) or kind.strip().lower() != "skill":
            continue  # an attribute's default (DX-4): seed 000 defaults skills itself
        found.append(
            SkillDefault(
                read_text_criteria(default.get("name"), f"{place}.name", owner.replacements),
                read_text_criteria(
                    default.get("specialization"), f"{place}.specialization", owner.replacements
                ),
                _whole(default.get("modifier", 0), f"{place}.modifier", -99, 99),
            )
        )
    return found


def _weapon_kind(skill_name: str, damage_type: DamageType) -> WeaponKind | None:
    base = skill_name.split(" (")[0].strip().lower()
    if base in _AXE_OR_MACE:
        cutting, crushing = _AXE_OR_MACE[base]
        return cutting if damage_type in _CUTTING else crushing
    return _KIND_BY_SKILL.get(base)


def _parry_class(text: str) -> ParryClass:
    """The seed 000 parry class a 4th-edition parry text stands for: "No" cannot
    parry, "U" (unbalanced) parries at half, "F" (fencing) or a bonus ("+2", a
    staff) at full, any other number (balanced) at two thirds."""
    lowered = text.lower()
    if not lowered or lowered.startswith("no"):
        return ParryClass.NONE
    if "u" in lowered:
        return ParryClass.HALF
    if "f" in lowered or _leading_int(text, 0, -99, 99) > 0:
        return ParryClass.FULL
    return ParryClass.TWO_THIRDS


def _blocks(weapon: JSONObject) -> bool:
    block = weapon.get("block")
    return (
        isinstance(block, str)
        and bool(block.strip())
        and not block.strip().lower().startswith("no")
    )


def _bonus(item: _Item, attribute: str) -> int:
    """The item's attribute bonus to ``attribute`` (a shield's DB is its bonus to
    block, parry and dodge)."""
    total = 0
    for i, feature in enumerate(_features(item)):
        if feature.get("type") == "attribute_bonus" and feature.get("attribute") == attribute:
            total += _whole(feature.get("amount", 0), f"{item.where}.features[{i}].amount", -99, 99)
    return total


def _features(item: _Item) -> list[JSONObject]:
    features = item.data.get("features", [])
    where = f"{item.where}.features"
    return [as_object(f, f"{where}[{i}]") for i, f in enumerate(as_list(features, where))]


def _dr_locations(feature: JSONObject, where: str) -> list[str]:
    """A DR bonus's locations: ``locations`` (version 5) or ``location``."""
    if "locations" in feature:
        return [_text(loc, f"{where}.locations") for loc in as_list(feature["locations"], where)]
    return [_text(feature.get("location"), f"{where}.location")]


def _torso_dr(item: _Item) -> int | None:
    """The item's DR bonus on the torso against every damage type (bonuses that
    name a damage type, such as mail's -2 against crushing, are left out); None
    if it gives the torso none."""
    total: int | None = None
    for i, feature in enumerate(_features(item)):
        where = f"{item.where}.features[{i}]"
        if feature.get("type") != "dr_bonus" or feature.get("specialization", "all") != "all":
            continue
        if not {"torso", "all"} & set(_dr_locations(feature, where)):
            continue
        amount = _whole(feature.get("amount", 0), f"{where}.amount", -999, 999)
        if feature.get("per_level", False) is True:  # Damage Resistance 3: three times
            amount *= _whole(item.data.get("levels", 1), f"{item.where}.levels", 0, 999)
        total = (total or 0) + amount
    return total


def _has_dr(item: _Item) -> bool:
    return any(f.get("type") == "dr_bonus" for f in _features(item))


def _shield_size(pd: int) -> ShieldSize:
    return {1: ShieldSize.BUCKLER, 2: ShieldSize.SMALL, 3: ShieldSize.MEDIUM}.get(
        pd, ShieldSize.LARGE
    )


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
    return f"gcs-{slug or 'item'}"


def _unique_key(weapon: Weapon, earlier: list[Weapon]) -> Weapon:
    taken = {w.key for w in earlier}
    key, number = weapon.key, 1
    while key in taken:
        number += 1
        key = f"{weapon.key}-{number}"
    return weapon if key == weapon.key else replace(weapon, key=key)
