"""Seed 002's tables, read from ``assets/rulesets/002/``: both situational
modifier tables with their sections, the attacker/defender result matrix, the
d10 major wound table, the damage modifier, and the weapons and armour.

Each table is parsed once (``functools.cache``); a damaged file raises
``DataError`` naming the place in it."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from hexmap import parse_digits
from rules.battle.catalog import Catalog, parse_reach
from rules.battle.model import (
    Armor,
    DamageBase,
    DamageSpec,
    DamageType,
    Delivery,
    ParryClass,
    Projectile,
    Weapon,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.core.assets import read_json
from rules.core.citation import Citation, cite
from rules.core.dice import Dice
from rules.core.errors import DataError
from rules.core.jsondata import (
    as_list,
    as_object,
    get_bool,
    get_enum,
    get_int,
    get_number,
    get_str,
)

KEY = "002"
BASE = "base-002"


class Level(Enum):
    """A d100 roll's success level (OpenQuest SRD), best first."""

    CRITICAL = "critical"
    SUCCESS = "success"
    FAILURE = "failure"
    FUMBLE = "fumble"

    @property
    def succeeded(self) -> bool:
        return self in (Level.CRITICAL, Level.SUCCESS)


class Roll(Enum):
    """Whose roll a close combat row changes."""

    ATTACK = "attack"  # the attacker's, when the row describes the target or the attack
    DEFENSE = "defense"  # the defender's
    OWN = "own"  # each side's own, when that side is in the situation
    BOTH = "both"  # both rolls (the light both fight in)


class Automatic(Enum):
    """A row that replaces the roll: an automatic critical or failure."""

    CRITICAL = "critical"
    FAILURE = "failure"


@dataclass(frozen=True, slots=True)
class ModifierRow:
    """One row of a situational table: its key, the seed's row (its citation),
    our short label, and its percentage or automatic result."""

    key: str
    seed_row: str
    label: str
    modifier: int
    automatic: Automatic | None
    citation: Citation


@dataclass(frozen=True, slots=True)
class CloseRow:
    row: ModifierRow
    roll: Roll


@dataclass(frozen=True, slots=True)
class Section:
    """A section of the ranged table: a starred one (``cumulative`` False)
    applies only its strongest row."""

    key: str
    seed_section: str
    cumulative: bool
    rows: tuple[ModifierRow, ...]

    def row(self, key: str) -> ModifierRow:
        for r in self.rows:
            if r.key == key:
                return r
        raise DataError(f"no row {key!r} in the section {self.seed_section!r}")


class Damage(Enum):
    """What a matrix cell does to the damage."""

    NONE = "none"
    ROLLED = "rolled"
    MAXIMUM = "maximum"
    BY_DEFENSE = "by-defense"  # a dodge avoids it all; a parry by size rank


@dataclass(frozen=True, slots=True)
class MatrixCell:
    attacker: Level
    defender: Level | None  # None: any (the defender does not roll)
    hit: bool
    damage: Damage
    armour: bool
    attacker_fumbles: bool
    defender_fumbles: bool

    @property
    def citation(self) -> Citation:
        return matrix_citation(self.attacker, self.defender)


def matrix_citation(attacker: Level, defender: Level | None) -> Citation:
    against = "N/A" if defender is None else defender.value.capitalize()
    return cite(KEY, f"Matrix: {attacker.value.capitalize()} vs {against}")


@dataclass(frozen=True, slots=True)
class WoundRow:
    """One row of the d10 major wound table, as data the wound code reads."""

    roll: int
    key: str
    label: str
    lose: Mapping[str, int]
    falls: bool = False
    crawl_hexes: int | None = None
    all_skills: int = 0
    perception: int = 0
    mental: int = 0
    bleeding: int = 0
    unconscious: Dice | None = None
    halve: str | None = None
    drops: str | None = None  # "left" or "right"

    @property
    def citation(self) -> Citation:
        return cite(KEY, f"Major wound {self.roll}")


@dataclass(frozen=True, slots=True)
class DamageModifier:
    """A damage modifier: ``sign`` times ``dice`` (none when ``dice`` is None)."""

    sign: int
    dice: Dice | None

    def __str__(self) -> str:
        if self.dice is None:
            return "+0"
        return f"{'+' if self.sign > 0 else '-'}{dice_text(self.dice)}"


CHARACTERISTICS = ("str", "con", "siz", "dex", "int", "pow", "cha")

_DICE = re.compile(r"\s*([0-9]+)\s*d\s*([0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*")


def parse_dice_002(text: object, where: str) -> Dice:
    """ "1d8", "2d6+2", "1d4-1": the d100 family's dice (any sides)."""
    if not isinstance(text, str):
        raise DataError(f"{where}: dice must be text like '1d8+1', got {text!r:.40}")
    m = _DICE.fullmatch(text)
    if m is None:
        raise DataError(f"{where}: {text!r:.40} is no dice expression like '1d8+1'")
    count, sides, adds = (parse_digits(g or "0") for g in m.group(1, 2, 4))
    if count is None or sides is None or not (1 <= count <= 20 and 2 <= sides <= 100):
        raise DataError(f"{where}: {text!r:.40} needs 1-20 dice of 2-100 sides")
    if adds is None:
        raise DataError(f"{where}: the adds of {text!r:.40} are too large")
    return Dice(count, adds * (-1 if m.group(3) == "-" else 1), sides)


def dice_text(dice: Dice) -> str:
    """The dice as ``parse_dice_002`` reads them ("1d6", not the 3d6 family's "1d")."""
    adds = f"{dice.adds:+d}" if dice.adds else ""
    return f"{dice.count}d{dice.sides}{adds}"


def _row(obj: Mapping[str, object], where: str, heading: str) -> ModifierRow:
    automatic = get_enum(obj, "automatic", Automatic, where) if "automatic" in obj else None
    modifier = 0 if automatic is not None else get_int(obj, "modifier", where)
    seed_row = get_str(obj, "seed_row", where)
    return ModifierRow(
        key=get_str(obj, "key", where),
        seed_row=seed_row,
        label=get_str(obj, "label", where),
        modifier=modifier,
        automatic=automatic,
        citation=cite(KEY, f"{heading}: {seed_row}"),
    )


@functools.cache
def close_combat_rows() -> tuple[CloseRow, ...]:
    """The first table (close combat): every row that holds applies."""
    data = as_object(read_json("rulesets", KEY, "close_combat_modifiers.json"), "close")
    rows = []
    for i, item in enumerate(as_list(data["rows"], "close.rows")):
        obj = as_object(item, f"close.rows[{i}]")
        rows.append(
            CloseRow(_row(obj, f"close.rows[{i}]", "Close"), get_enum(obj, "roll", Roll, "close"))
        )
    return tuple(rows)


@functools.cache
def ranged_sections() -> tuple[Section, ...]:
    """The second table (ranged attacks) by section."""
    data = as_object(read_json("rulesets", KEY, "ranged_modifiers.json"), "ranged")
    sections = []
    for i, item in enumerate(as_list(data["sections"], "ranged.sections")):
        where = f"ranged.sections[{i}]"
        obj = as_object(item, where)
        rows = tuple(
            _row(as_object(r, f"{where}.rows[{j}]"), f"{where}.rows[{j}]", "Ranged")
            for j, r in enumerate(as_list(obj["rows"], f"{where}.rows"))
        )
        sections.append(
            Section(
                get_str(obj, "key", where),
                get_str(obj, "seed_section", where),
                get_bool(obj, "cumulative", where),
                rows,
            )
        )
    return tuple(sections)


def ranged_section(key: str) -> Section:
    for s in ranged_sections():
        if s.key == key:
            return s
    raise DataError(f"no ranged section {key!r}")


@functools.cache
def result_matrix() -> tuple[MatrixCell, ...]:
    data = as_object(read_json("rulesets", KEY, "result_matrix.json"), "matrix")
    cells = []
    for i, item in enumerate(as_list(data["cells"], "matrix.cells")):
        where = f"matrix.cells[{i}]"
        obj = as_object(item, where)
        defender = get_str(obj, "defender", where)
        cells.append(
            MatrixCell(
                attacker=get_enum(obj, "attacker", Level, where),
                defender=None if defender == "any" else Level(defender),
                hit=get_bool(obj, "hit", where),
                damage=get_enum(obj, "damage", Damage, where),
                armour=get_bool(obj, "armour", where),
                attacker_fumbles=get_bool(obj, "attacker_fumbles", where),
                defender_fumbles=get_bool(obj, "defender_fumbles", where),
            )
        )
    return tuple(cells)


def matrix_cell(attacker: Level, defender: Level) -> MatrixCell:
    """The cell for the two levels (an attack that fails or fumbles ignores the
    defense)."""
    for c in result_matrix():
        if c.attacker is attacker and c.defender in (None, defender):
            return c
    raise DataError(f"the result matrix has no cell {attacker.value} / {defender.value}")


@functools.cache
def major_wounds() -> tuple[WoundRow, ...]:
    data = as_object(read_json("rulesets", KEY, "major_wounds.json"), "wounds")
    rows = []
    for i, item in enumerate(as_list(data["rows"], "wounds.rows")):
        where = f"wounds.rows[{i}]"
        obj = as_object(item, where)
        lose_obj = as_object(obj.get("lose", {}), f"{where}.lose")
        lose = {}
        for k in lose_obj:
            if k not in CHARACTERISTICS:
                raise DataError(f"{where}.lose: no characteristic {k!r}")
            lose[k] = get_int(lose_obj, k, f"{where}.lose")
        unconscious = obj.get("unconscious")
        rows.append(
            WoundRow(
                roll=get_int(obj, "roll", where),
                key=get_str(obj, "key", where),
                label=get_str(obj, "label", where),
                lose=MappingProxyType(lose),
                falls=get_bool(obj, "falls", where, False),
                crawl_hexes=get_int(obj, "crawl_hexes", where) if "crawl_hexes" in obj else None,
                all_skills=get_int(obj, "all_skills", where, 0),
                perception=get_int(obj, "perception", where, 0),
                mental=get_int(obj, "mental", where, 0),
                bleeding=get_int(obj, "bleeding", where, 0),
                unconscious=None
                if unconscious is None
                else parse_dice_002(unconscious, f"{where}.unconscious"),
                halve=get_str(obj, "halve", where) if "halve" in obj else None,
                drops=get_str(obj, "drops", where) if "drops" in obj else None,
            )
        )
    if [r.roll for r in rows] != list(range(1, 11)):
        raise DataError("wounds.rows: one row for each face of the d10, 1 to 10")
    return tuple(rows)


def wound_row(face: int) -> WoundRow:
    return major_wounds()[face - 1]


@functools.cache
def damage_modifier_table() -> tuple[tuple[int, DamageModifier], ...]:
    data = as_object(read_json("rulesets", KEY, "damage_modifier.json"), "damage_modifier")
    out = []
    for i, item in enumerate(as_list(data["rows"], "damage_modifier.rows")):
        where = f"damage_modifier.rows[{i}]"
        obj = as_object(item, where)
        text = get_str(obj, "modifier", where).strip()
        if text == "0":
            modifier = DamageModifier(0, None)
        else:
            sign = -1 if text.startswith("-") else 1
            modifier = DamageModifier(sign, parse_dice_002(text.lstrip("+-"), where))
        out.append((get_int(obj, "up_to", where), modifier))
    return tuple(out)


def damage_modifier(str_plus_siz: int) -> DamageModifier:
    """The damage modifier for STR + SIZ (OpenQuest SRD)."""
    for up_to, modifier in damage_modifier_table():
        if str_plus_siz <= up_to:
            return modifier
    return damage_modifier_table()[-1][1]


# --- the gear --------------------------------------------------------------------------


def parse_mode_002(data: object, where: str) -> WeaponMode:
    obj = as_object(data, where)
    delivery = get_enum(obj, "delivery", Delivery, where, Delivery.MELEE)
    ranged = delivery is not Delivery.MELEE
    projectile = Projectile.NONE
    if delivery is Delivery.THROWN:
        projectile = Projectile.THROWN
    elif delivery is Delivery.MISSILE:
        projectile = Projectile.LOW_TECH_MISSILE
    dice = parse_dice_002(obj["damage"], f"{where}.damage")
    return WeaponMode(
        name=get_str(obj, "name", where),
        damage=DamageSpec(DamageBase.FIXED, 0, get_enum(obj, "type", DamageType, where), dice),
        reach=parse_reach(obj.get("reach", "1"), f"{where}.reach"),
        delivery=delivery,
        projectile=projectile,
        range_hexes=get_int(obj, "range", where) if ranged else None,
    )


def parse_weapon_002(data: object, where: str) -> Weapon:
    obj = as_object(data, where)
    modes = tuple(
        parse_mode_002(m, f"{where}.modes[{i}]")
        for i, m in enumerate(as_list(obj["modes"], f"{where}.modes"))
    )
    kind = get_enum(obj, "kind", WeaponKind, where)
    missile = all(m.delivery is Delivery.MISSILE for m in modes)
    return Weapon(
        key=get_str(obj, "key", where),
        name=get_str(obj, "name", where),
        kind=kind,
        skill=get_str(obj, "skill", where),
        modes=modes,
        parry=ParryClass.NONE if missile else ParryClass.FULL,
        weight=get_number(obj, "weight", where, 0.0),
        two_handed=get_bool(obj, "two_handed", where, False),
        size=get_enum(obj, "size", WeaponSize, where),
    )


@functools.cache
def catalog_002() -> Catalog:
    """Seed 002's weapons and armour (armour points as the armour's DR; PD 0)."""
    weapons_data = as_object(read_json("rulesets", KEY, "weapons.json"), "weapons")
    weapons = {}
    for i, item in enumerate(as_list(weapons_data["weapons"], "weapons.weapons")):
        w = parse_weapon_002(item, f"weapons[{i}]")
        weapons[w.key] = w
    armour_data = as_object(read_json("rulesets", KEY, "armour.json"), "armour")
    armour = {}
    for i, item in enumerate(as_list(armour_data["armour"], "armour.armour")):
        where = f"armour[{i}]"
        obj = as_object(item, where)
        a = Armor(
            key=get_str(obj, "key", where),
            name=get_str(obj, "name", where),
            pd=0,
            dr=get_int(obj, "ap", where),
            weight=get_number(obj, "weight", where, 0.0),
        )
        armour[a.key] = a
    return Catalog(MappingProxyType(weapons), MappingProxyType({}), MappingProxyType(armour))


@dataclass(frozen=True, slots=True)
class HitLocation:
    """A row of the d20 hit location table (the option "locations-d20")."""

    low: int
    high: int
    key: str
    label: str

    @property
    def citation(self) -> Citation:
        return Citation(BASE, f"Hit locations (d20): {self.low}-{self.high} {self.label}")


LOCATION_DIE = 20


@functools.cache
def hit_locations() -> tuple[HitLocation, ...]:
    data = as_object(read_json("rulesets", KEY, "hit_locations.json"), "hit_locations")
    rows = []
    for i, item in enumerate(as_list(data["rows"], "hit_locations.rows")):
        where = f"hit_locations.rows[{i}]"
        obj = as_object(item, where)
        rows.append(
            HitLocation(
                get_int(obj, "from", where),
                get_int(obj, "to", where),
                get_str(obj, "key", where),
                get_str(obj, "label", where),
            )
        )
    faces = [f for r in rows for f in range(r.low, r.high + 1)]
    if faces != list(range(1, LOCATION_DIE + 1)):
        raise DataError("hit_locations.rows: each face of the d20 once, 1 to 20 in order")
    return tuple(rows)


def location_for(face: int) -> HitLocation:
    for r in hit_locations():
        if r.low <= face <= r.high:
            return r
    raise DataError(f"no hit location for the d20 face {face}")


LOCATION_KEYS = ("head", "chest", "abdomen", "right-arm", "left-arm", "right-leg", "left-leg")


def read_every_table() -> None:
    """Read (and check) every table once."""
    if sorted(r.key for r in hit_locations()) != sorted(LOCATION_KEYS):
        raise DataError(f"hit_locations.rows: the locations are {', '.join(LOCATION_KEYS)}")
    close_combat_rows()
    ranged_sections()
    result_matrix()
    major_wounds()
    damage_modifier_table()
    catalog_002()
