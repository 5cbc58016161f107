"""The gear catalog, fighter templates and battle setups, loaded from ``assets/``.

``load_*`` functions read files through ``rules.core.assets``; every ``parse_*``
function is pure (parsed JSON in, frozen objects out) and raises ``DataError`` on
malformed data, naming the place in the data.

A fighter's neutral fields (name, hit points, Move, handedness, gear) are read
here; the rest of a template, and what a battle file adds to it, is the
ruleset's: it travels unread as a ``RawSheet`` and the ruleset reads it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType
from typing import Protocol, TypeVar

from hexmap import Facing, Handedness, Hex, HexGrid, HexmapError, Reach
from rules.battle.model import (
    Armor,
    Combatant,
    DamageBase,
    DamageSpec,
    DamageType,
    Delivery,
    Fighter,
    ParryClass,
    Projectile,
    Quality,
    RulesetSheet,
    Shield,
    ShieldSize,
    Side,
    Weapon,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.battle.values import hex_name
from rules.core.assets import read_json
from rules.core.dice import parse_dice
from rules.core.errors import DataError
from rules.core.jsondata import (
    as_enum,
    as_fraction,
    as_list,
    as_object,
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_number,
    get_str,
)

T = TypeVar("T")


class _Keyed(Protocol):
    @property
    def key(self) -> str: ...


K = TypeVar("K", bound=_Keyed)


@dataclass(frozen=True)
class Catalog:
    weapons: Mapping[str, Weapon]
    shields: Mapping[str, Shield]
    armor: Mapping[str, Armor]

    def weapon(self, key: str) -> Weapon:
        return _lookup(self.weapons, key, "weapon")

    def shield(self, key: str) -> Shield:
        return _lookup(self.shields, key, "shield")

    def armor_suit(self, key: str) -> Armor:
        return _lookup(self.armor, key, "armor")


def _lookup(table: Mapping[str, T], key: str, what: str) -> T:
    try:
        return table[key]
    except KeyError:
        raise DataError(f"no {what} {key!r} in the catalog") from None


# --- gear -------------------------------------------------------------------------


def parse_damage_spec(data: object, where: str = "damage") -> DamageSpec:
    obj = as_object(data, where)
    check_keys(obj, where, ("base", "type"), ("adds", "dice", "factor"))
    base = get_enum(obj, "base", DamageBase, where)
    fixed = None
    if base is DamageBase.FIXED:
        try:
            fixed = parse_dice(get_str(obj, "dice", where))
        except DataError as exc:
            raise DataError(f"{where}.dice: {exc}") from exc
    elif "dice" in obj:
        raise DataError(f"{where}.dice: only a fixed-damage mode has its own dice")
    return DamageSpec(
        base=base,
        adds=get_int(obj, "adds", where, 0),
        type=get_enum(obj, "type", DamageType, where),
        fixed=fixed,
        # a broken weapon's reduced damage (000 BROKEN WEAPONS), e.g. "1/2"
        factor=as_fraction(obj["factor"], f"{where}.factor") if "factor" in obj else Fraction(1),
    )


def parse_reach(value: object, where: str) -> Reach:
    if not isinstance(value, str):
        raise DataError(f'{where}: reach must be text like "1" or "C-1", got {value!r}')
    try:
        return Reach.parse(value)
    except HexmapError as exc:
        raise DataError(f"{where}: {exc}") from exc


def parse_mode(data: object, where: str = "mode") -> WeaponMode:
    obj = as_object(data, where)
    check_keys(
        obj,
        where,
        ("name", "damage"),
        ("reach", "skill_modifier", "delivery", "projectile", "range", "half_damage_range"),
    )
    # 000 MISSILE AND THROWN WEAPONS: absent delivery is a melee mode (reach needed);
    # a thrown or missile mode needs a projectile and a range, its reach (where the
    # weapon is held, default "C") is optional.
    delivery = get_enum(obj, "delivery", Delivery, where, Delivery.MELEE)
    ranged = delivery is not Delivery.MELEE
    if not ranged and "reach" not in obj:
        raise DataError(f"{where}: a melee mode needs a reach")
    if not ranged and any(k in obj for k in ("projectile", "range", "half_damage_range")):
        raise DataError(f"{where}: projectile and range are for thrown or missile modes")
    projectile = get_enum(obj, "projectile", Projectile, where, Projectile.NONE)
    range_hexes = get_int(obj, "range", where) if ranged else None
    half = get_int(obj, "half_damage_range", where, 0) if ranged else 0
    if ranged and projectile is Projectile.NONE:
        raise DataError(f"{where}: a {delivery.value} mode needs a projectile")
    if range_hexes is not None and (range_hexes < 1 or not 0 <= half <= range_hexes):
        raise DataError(f"{where}: range must be at least 1 and half_damage_range within it")
    return WeaponMode(
        name=get_str(obj, "name", where),
        damage=parse_damage_spec(obj["damage"], f"{where}.damage"),
        reach=parse_reach(obj.get("reach", "C"), f"{where}.reach"),
        skill_modifier=get_int(obj, "skill_modifier", where, 0),
        delivery=delivery,
        projectile=projectile,
        range_hexes=range_hexes,
        half_damage_hexes=half or None,
    )


def parse_weapon(
    data: object, where: str = "weapon", known: Mapping[str, Weapon] | None = None
) -> Weapon:
    """One weapon. 000 IMPROVISED WEAPONS: an improvised item (kind "improvised")
    names in ``like`` the real weapon it is treated as (a key in ``known``); its
    skill and parry class follow that weapon unless the item states its own, and
    ``clumsiness`` (0 or less) is its skill modifier."""
    obj = as_object(data, where)
    check_keys(
        obj,
        where,
        ("key", "name", "kind", "weight", "modes"),
        (
            "skill",
            "parry",
            "like",
            "clumsiness",
            "two_handed",
            "size",
            "quality",
            "min_st",
            "reliable",
            "wooden_shaft",
            "metal_faced",
        ),
    )
    kind = get_enum(obj, "kind", WeaponKind, where)
    like = _like_weapon(obj, kind, where, known or {})
    clumsiness = get_int(obj, "clumsiness", where, 0)
    if clumsiness > 0 or (clumsiness and like is None):
        raise DataError(f"{where}.clumsiness: a skill penalty (0 or less) of an improvised item")
    for name in ("skill", "parry"):
        if like is None and name not in obj:
            raise DataError(f"{where}: missing {name!r} (only an improvised item has 'like')")
    modes = tuple(
        parse_mode(m, f"{where}.modes[{i}]")
        for i, m in enumerate(as_list(obj["modes"], f"{where}.modes"))
    )
    if not modes:
        raise DataError(f"{where}.modes: a weapon needs at least one mode")
    names = [m.name for m in modes]
    if len(set(names)) != len(names):
        raise DataError(f"{where}.modes: duplicate mode names {names}")
    min_st = get_int(obj, "min_st", where, 0)
    if min_st < 0:
        raise DataError(f"{where}.min_st: must not be negative")
    return Weapon(
        key=get_str(obj, "key", where),
        name=get_str(obj, "name", where),
        kind=kind,
        skill=get_str(obj, "skill", where) if "skill" in obj or like is None else like.skill,
        modes=modes,
        parry=(
            get_enum(obj, "parry", ParryClass, where)
            if "parry" in obj or like is None
            else like.parry
        ),
        weight=get_number(obj, "weight", where),
        two_handed=get_bool(obj, "two_handed", where, False),
        size=get_enum(obj, "size", WeaponSize, where, WeaponSize.SMALL),
        quality=get_enum(obj, "quality", Quality, where, Quality.GOOD),
        min_st=min_st,
        reliable=get_bool(obj, "reliable", where, False),
        wooden_shaft=get_bool(obj, "wooden_shaft", where, False),
        metal_faced=get_bool(obj, "metal_faced", where, False),
        like=None if like is None else like.key,
        clumsiness=clumsiness,
    )


def _like_weapon(
    obj: Mapping[str, object], kind: WeaponKind, where: str, known: Mapping[str, Weapon]
) -> Weapon | None:
    """000 IMPROVISED WEAPONS: the real weapon an improvised item is treated as."""
    improvised = kind is WeaponKind.IMPROVISED
    if "like" not in obj:
        if improvised:
            raise DataError(f"{where}.like: an improvised item names the weapon it is like")
        return None
    if not improvised:
        raise DataError(f"{where}.like: only an improvised item is 'like' another weapon")
    key = get_str(obj, "like", where)
    like = known.get(key)
    if like is None:
        raise DataError(f"{where}.like: no real weapon {key!r} in the catalog")
    return like


def _parse_weapons(data: object) -> Mapping[str, Weapon]:
    """The weapons file: real weapons first, then the improvised items, each
    resolved against the real weapons (000 IMPROVISED WEAPONS)."""
    obj = as_object(data, "weapons")
    check_keys(obj, "weapons", ("weapons",), ("about",))
    items = list(enumerate(as_list(obj["weapons"], "weapons")))

    def improvised(item: object) -> bool:
        return isinstance(item, dict) and item.get("kind") == WeaponKind.IMPROVISED.value

    real: dict[str, Weapon] = {}
    parsed: dict[int, Weapon] = {}
    for i, item in items:
        if not improvised(item):
            parsed[i] = w = parse_weapon(item, f"weapons[{i}]")
            real.setdefault(w.key, w)
    for i, item in items:
        if improvised(item):
            parsed[i] = parse_weapon(item, f"weapons[{i}]", real)
    result: dict[str, Weapon] = {}
    for i, _ in items:
        w = parsed[i]
        if w.key in result:
            raise DataError(f"weapons[{i}]: duplicate key {w.key!r}")
        result[w.key] = w
    return MappingProxyType(result)


def parse_shield(data: object, where: str = "shield") -> Shield:
    obj = as_object(data, where)
    check_keys(obj, where, ("key", "name", "size", "pd", "weight"), ("heavy",))
    pd = get_int(obj, "pd", where)
    if pd < 0:
        raise DataError(f"{where}.pd: must not be negative")
    return Shield(
        key=get_str(obj, "key", where),
        name=get_str(obj, "name", where),
        size=get_enum(obj, "size", ShieldSize, where),
        pd=pd,
        weight=get_number(obj, "weight", where),
        heavy=get_bool(obj, "heavy", where, False),
    )


def parse_armor(data: object, where: str = "armor") -> Armor:
    obj = as_object(data, where)
    check_keys(obj, where, ("key", "name", "pd", "dr"), ("weight",))
    pd, dr = get_int(obj, "pd", where), get_int(obj, "dr", where)
    if pd < 0 or dr < 0:
        raise DataError(f"{where}: PD and DR must not be negative")
    return Armor(
        key=get_str(obj, "key", where),
        name=get_str(obj, "name", where),
        pd=pd,
        dr=dr,
        weight=get_number(obj, "weight", where, 0.0),
    )


def _keyed(data: object, list_key: str, parse: Callable[[object, str], K]) -> Mapping[str, K]:
    obj = as_object(data, list_key)
    check_keys(obj, list_key, (list_key,), ("about",))
    result: dict[str, K] = {}
    for i, item in enumerate(as_list(obj[list_key], list_key)):
        where = f"{list_key}[{i}]"
        value = parse(item, where)
        key = value.key
        if key in result:
            raise DataError(f"{where}: duplicate key {key!r}")
        result[key] = value
    return MappingProxyType(result)


def parse_catalog(weapons: object, shields: object, armor: object) -> Catalog:
    """Parse the three gear files: ``{"weapons": [...]}``, ``{"shields": [...]}``,
    ``{"armor": [...]}``."""
    return Catalog(
        weapons=_parse_weapons(weapons),
        shields=_keyed(shields, "shields", parse_shield),
        armor=_keyed(armor, "armor", parse_armor),
    )


@functools.cache
def load_catalog() -> Catalog:
    return parse_catalog(
        read_json("weapons.json"), read_json("shields.json"), read_json("armor.json")
    )


# --- fighters -----------------------------------------------------------------------

# The keys of a fighter template the neutral catalog reads; every other key is the
# ruleset's part of the sheet, handed to the ruleset unread (``RawSheet``).
FIGHTER_REQUIRED = ("key", "name", "hit_points", "move", "weapons")
FIGHTER_OPTIONAL = ("shield", "armor", "handedness")
# The keys of a battle file's combatant the catalog reads; the rest amend the
# template's ruleset part (seed 000: "skills").
COMBATANT_REQUIRED = ("template", "side", "at", "facing")
COMBATANT_OPTIONAL = ("id", "name", "extra_weapons")


@dataclass(frozen=True, slots=True)
class RawSheet(RulesetSheet):
    """A ruleset's part of a fighter as the files hold it, not yet read.

    The battle loads and draws before any ruleset package is imported (the first
    frame imports none), so the catalog cannot read a ruleset's statistics; the
    ruleset reads these on first use (seed 000: ``sheet_of``) and refuses them
    there, naming ``where``, if they are malformed."""

    fields: str  # a JSON object, keys sorted: the template's keys the catalog does not read
    where: str  # the template's place in the data, for the ruleset's error messages
    carried_weight: float  # lb of the template's gear (seed 000 derives encumbrance from it)
    # A battle file's amendments, in order: (a JSON object of the combatant's keys
    # the catalog does not read, its place in the data).
    amendments: tuple[tuple[str, str], ...] = ()


def carried_weight(fighter: Fighter) -> float:
    total = sum(w.weight for w in fighter.weapons)
    if fighter.shield is not None:
        total += fighter.shield.weight
    if fighter.armor is not None:
        total += fighter.armor.weight
    return total


def parse_vitals(obj: Mapping[str, object], where: str) -> tuple[int, int]:
    """Hit points (at least 1) and Move (at least 0)."""
    hp, move = get_int(obj, "hit_points", where), get_int(obj, "move", where)
    if hp < 1 or move < 0:
        raise DataError(f"{where}: hit_points must be >= 1 and move >= 0")
    return hp, move


def _ruleset_part(obj: Mapping[str, object], neutral: tuple[str, ...]) -> str:
    return json.dumps({k: v for k, v in obj.items() if k not in neutral}, sort_keys=True)


def parse_fighter(data: object, catalog: Catalog, where: str = "fighter") -> tuple[str, Fighter]:
    """A template: ``(key, Fighter)``. Gear is named by catalog keys; the keys the
    catalog does not know become the fighter's ``RawSheet``."""
    obj = as_object(data, where)
    check_keys(obj, where, FIGHTER_REQUIRED, tuple(obj))  # the rest is the ruleset's to check
    weapons = tuple(
        _gear(catalog.weapon, k, f"{where}.weapons[{i}]")
        for i, k in enumerate(as_list(obj["weapons"], f"{where}.weapons"))
    )
    shield = _gear(catalog.shield, obj["shield"], f"{where}.shield") if "shield" in obj else None
    armor = _gear(catalog.armor_suit, obj["armor"], f"{where}.armor") if "armor" in obj else None
    hp, move = parse_vitals(obj, where)
    fighter = Fighter(
        name=get_str(obj, "name", where),
        hit_points=hp,
        move=move,
        weapons=weapons,
        handedness=get_enum(obj, "handedness", Handedness, where, Handedness.RIGHT),
        shield=shield,
        armor=armor,
    )
    stats = RawSheet(
        _ruleset_part(obj, FIGHTER_REQUIRED + FIGHTER_OPTIONAL), where, carried_weight(fighter)
    )
    return get_str(obj, "key", where), replace(fighter, stats=stats)


def _gear(lookup: Callable[[str], T], key: object, where: str) -> T:
    if not isinstance(key, str):
        raise DataError(f"{where}: expected a catalog key, got {key!r}")
    try:
        return lookup(key)
    except DataError as exc:
        raise DataError(f"{where}: {exc}") from exc


def parse_fighters(data: object, catalog: Catalog) -> Mapping[str, Fighter]:
    obj = as_object(data, "fighters")
    check_keys(obj, "fighters", ("fighters",), ("about",))
    result: dict[str, Fighter] = {}
    for i, item in enumerate(as_list(obj["fighters"], "fighters")):
        key, fighter = parse_fighter(item, catalog, f"fighters[{i}]")
        if key in result:
            raise DataError(f"fighters[{i}]: duplicate key {key!r}")
        result[key] = fighter
    return MappingProxyType(result)


@functools.cache
def load_fighters() -> Mapping[str, Fighter]:
    """The fighter templates of ``assets/fighters.json`` by key."""
    return parse_fighters(read_json("fighters.json"), load_catalog())


# --- battle setups ------------------------------------------------------------------


def load_battle_setup(
    data: object,
    templates: Mapping[str, Fighter] | None = None,
) -> tuple[HexGrid, tuple[Combatant, ...]]:
    """A battle file: the map size and the combatants placed on it.

    Combatant ids are "c1", "c2", ... by position unless the file gives them.
    """
    templates = load_fighters() if templates is None else templates
    obj = as_object(data, "battle")
    check_keys(obj, "battle", ("map", "combatants"), ("name", "about"))
    size = as_object(obj["map"], "battle.map")
    check_keys(size, "battle.map", ("cols", "rows"))
    cols, rows = get_int(size, "cols", "battle.map"), get_int(size, "rows", "battle.map")
    if cols < 1 or rows < 1:
        raise DataError(f"battle.map: at least 1 x 1 hexes, got {cols} x {rows}")
    grid = HexGrid(cols, rows)
    combatants: list[Combatant] = []
    seen: set[str] = set()
    for i, item in enumerate(as_list(obj["combatants"], "battle.combatants")):
        where = f"battle.combatants[{i}]"
        c = _parse_combatant(item, where, f"c{i + 1}", templates, grid)
        if c.id in seen:
            raise DataError(f"{where}: duplicate id {c.id!r}")
        if any(o.hex == c.hex for o in combatants):
            raise DataError(f"{where}: another combatant already stands on {hex_name(c.hex)}")
        seen.add(c.id)
        combatants.append(c)
    return grid, tuple(combatants)


def _parse_combatant(
    data: object,
    where: str,
    default_id: str,
    templates: Mapping[str, Fighter],
    grid: HexGrid,
) -> Combatant:
    obj = as_object(data, where)
    check_keys(obj, where, COMBATANT_REQUIRED, tuple(obj))  # the rest is the ruleset's to check
    template = get_str(obj, "template", where)
    if template not in templates:
        raise DataError(f"{where}.template: no fighter template {template!r}")
    fighter = templates[template]
    if "name" in obj:
        fighter = replace(fighter, name=get_str(obj, "name", where))
    if "extra_weapons" in obj:  # optional gear beyond the template's (e.g. a throwing knife)
        catalog = load_catalog()
        extra = []
        for j, key in enumerate(as_list(obj["extra_weapons"], f"{where}.extra_weapons")):
            if not isinstance(key, str) or key not in catalog.weapons:
                raise DataError(f"{where}.extra_weapons[{j}]: no weapon {key!r} in the catalog")
            extra.append(catalog.weapons[key])
        fighter = replace(fighter, weapons=(*fighter.weapons, *extra))
    amendment = _ruleset_part(obj, COMBATANT_REQUIRED + COMBATANT_OPTIONAL)
    if amendment != "{}":
        # The ruleset's keys of the entry (seed 000: skill levels added to the
        # template's) go to the ruleset with the template's own.
        raw = fighter.stats
        if not isinstance(raw, RawSheet):
            raise DataError(
                f"{where}: the statistics of template {template!r} are read already; "
                "a battle file amends only a template as the files hold it"
            )
        amended = replace(raw, amendments=(*raw.amendments, (amendment, where)))
        fighter = replace(fighter, stats=amended)
    at = as_object(obj["at"], f"{where}.at")
    check_keys(at, f"{where}.at", ("col", "row"))
    where_hex = Hex.from_offset(
        get_int(at, "col", f"{where}.at"), get_int(at, "row", f"{where}.at")
    )
    if where_hex not in grid:
        raise DataError(
            f"{where}.at: {hex_name(where_hex)} is off the {grid.width} x {grid.height} map"
        )
    return Combatant(
        id=get_str(obj, "id", where, default_id),
        fighter=fighter,
        side=get_enum(obj, "side", Side, where),
        hex=where_hex,
        facing=as_enum(obj["facing"], Facing, f"{where}.facing"),
        hp=fighter.hit_points,
    )


def load_demo_battle() -> tuple[HexGrid, tuple[Combatant, ...]]:
    return load_battle_setup(read_json("battles", "demo.json"))
