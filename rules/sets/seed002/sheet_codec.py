"""Seed 002's character sheet as versioned JSON, "hexfray-sheet-002" version 1:
the fighter's neutral fields, its characteristics and skills, and its gear
written out in full (a weapon or armour may also be named by its catalog key,
as the templates do)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from rules.battle import sheet_gear as gear
from rules.battle.catalog import parse_vitals
from rules.battle.model import Armor, Delivery, Fighter, Weapon, WeaponMode
from rules.core.errors import DataError
from rules.core.jsondata import as_object, check_keys, get_int, get_number, get_str
from rules.sets.seed002.sheet import read_sheet, sheet_of, write_sheet
from rules.sets.seed002.tables import catalog_002, dice_text, parse_weapon_002

T = TypeVar("T")

SHEET_FORMAT = "hexfray-sheet-002"
SHEET_VERSION = 1
_KEYS = (
    (*gear.REQUIRED, "characteristics", "skills"),
    ("armour", "armour_by_location", "handedness", "origin"),
)


def encode_mode(mode: WeaponMode) -> dict[str, object]:
    fixed = mode.damage.fixed
    if fixed is None:
        raise DataError(f"the {mode.name} mode has no damage dice")
    out: dict[str, object] = {
        "name": mode.name,
        "damage": dice_text(fixed),
        "type": mode.damage.type.value,
        "reach": str(mode.reach),
    }
    if mode.delivery is not Delivery.MELEE:
        out["delivery"] = mode.delivery.value
        out["range"] = mode.range_hexes or 0
    return out


def encode_weapon(w: Weapon) -> dict[str, object]:
    out: dict[str, object] = {
        "key": w.key,
        "name": w.name,
        "kind": w.kind.value,
        "skill": w.skill,
        "size": w.size.value,
        "weight": w.weight,
        "modes": [encode_mode(m) for m in w.modes],
    }
    if w.two_handed:
        out["two_handed"] = True
    return out


def encode_armour(a: Armor) -> dict[str, object]:
    return {"key": a.key, "name": a.name, "ap": a.dr, "weight": a.weight}


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    out: dict[str, object] = {
        "format": SHEET_FORMAT,
        "version": SHEET_VERSION,
        "name": fighter.name,
        "hit_points": fighter.hit_points,
        "move": fighter.move,
        "handedness": fighter.handedness.value,
        "weapons": [encode_weapon(w) for w in fighter.weapons],
    }
    if fighter.armor is not None:
        out["armour"] = encode_armour(fighter.armor)
    if fighter.origin:
        out["origin"] = fighter.origin
    return {**out, **write_sheet(sheet_of(fighter))}


def _by_key(table: Mapping[str, T], key: str, where: str, what: str) -> T:
    """A weapon or armour that the sheet names by its seed 002 catalog key."""
    try:
        return table[key]
    except KeyError:
        raise DataError(f"{where}: no seed 002 {what} {key!r:.40}") from None


def _weapon(data: object, where: str) -> Weapon:
    if isinstance(data, str):
        return _by_key(catalog_002().weapons, data, where, "weapon")
    return parse_weapon_002(data, where)


def _armour(data: object, where: str) -> Armor:
    if isinstance(data, str):
        return _by_key(catalog_002().armor, data, where, "armour")
    obj = as_object(data, where)
    check_keys(obj, where, ("key", "name", "ap"), ("weight",))
    ap = get_int(obj, "ap", where)
    if not 0 <= ap <= 30:
        raise DataError(f"{where}.ap: armour points are 0 to 30")
    return Armor(
        get_str(obj, "key", where),
        get_str(obj, "name", where),
        0,
        ap,
        get_number(obj, "weight", where, 0.0),
    )


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    obj = gear.sheet_object(data, where, SHEET_FORMAT, SHEET_VERSION, _KEYS)
    vitals = parse_vitals(obj, where)
    own = ("characteristics", "skills", "armour_by_location")
    stats = read_sheet({k: obj[k] for k in own if k in obj}, where)
    weapons = gear.decode_weapons(obj, where, _weapon)
    return gear.decode_neutral(
        obj, where, vitals=vitals, weapons=weapons, stats=stats, armor_key="armour", armor=_armour
    )
