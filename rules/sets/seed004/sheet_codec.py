"""Seed 004's character sheet as versioned JSON ("hexfray-sheet-004", version 1):
the neutral fields of a ``Fighter`` with its weapons written out in full in the
catalog's format (``rules.battle.catalog.parse_weapon`` reads them back), and
its seed 004 statistics (``rules.sets.seed004.sheet``)."""

from __future__ import annotations

from hexmap import Handedness
from rules.battle.catalog import parse_vitals, parse_weapon
from rules.battle.model import DamageSpec, Delivery, Fighter, Projectile, Weapon, WeaponMode
from rules.core.errors import DataError
from rules.core.jsondata import as_list, as_object, check_keys, get_enum, get_int, get_str
from rules.sets.seed004.sheet import (
    SHEET_OPTIONAL,
    SHEET_REQUIRED,
    read_sheet,
    sheet_of,
    write_sheet,
)

SHEET_FORMAT = "hexfray-sheet-004"
SHEET_VERSION = 1

_REQUIRED = ("format", "version", "name", "hit_points", "move", "weapons", *SHEET_REQUIRED)
_OPTIONAL = ("handedness", "origin", *SHEET_OPTIONAL)


def _damage(spec: DamageSpec) -> dict[str, object]:
    out: dict[str, object] = {"base": spec.base.value, "type": spec.type.value}
    if spec.adds:
        out["adds"] = spec.adds
    if spec.fixed is not None:
        out["dice"] = str(spec.fixed)
    if spec.factor != 1:
        out["factor"] = str(spec.factor)
    return out


def _mode(mode: WeaponMode) -> dict[str, object]:
    out: dict[str, object] = {
        "name": mode.name,
        "damage": _damage(mode.damage),
        "reach": str(mode.reach),
    }
    if mode.skill_modifier:
        out["skill_modifier"] = mode.skill_modifier
    if mode.delivery is not Delivery.MELEE:
        out["delivery"] = mode.delivery.value
    if mode.projectile is not Projectile.NONE:
        out["projectile"] = mode.projectile.value
    if mode.range_hexes is not None:
        out["range"] = mode.range_hexes
    if mode.half_damage_hexes is not None:
        out["half_damage_range"] = mode.half_damage_hexes
    return out


def encode_weapon(weapon: Weapon) -> dict[str, object]:
    return {
        "key": weapon.key,
        "name": weapon.name,
        "kind": weapon.kind.value,
        "skill": weapon.skill,
        "parry": weapon.parry.value,
        "weight": weapon.weight,
        "modes": [_mode(m) for m in weapon.modes],
        "two_handed": weapon.two_handed,
        "size": weapon.size.value,
    }


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    """The whole sheet as JSON-ready data, tagged with its format and version."""
    out: dict[str, object] = {
        "format": SHEET_FORMAT,
        "version": SHEET_VERSION,
        "name": fighter.name,
        "hit_points": fighter.hit_points,
        "move": fighter.move,
        "weapons": [encode_weapon(w) for w in fighter.weapons],
        "handedness": fighter.handedness.value,
    }
    if fighter.origin:
        out["origin"] = fighter.origin
    return {**out, **write_sheet(sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first wrong
    field; another format or a newer version is refused."""
    obj = as_object(data, where)
    if "format" in obj and obj["format"] != SHEET_FORMAT:
        raise DataError(f"{where}.format: a {SHEET_FORMAT!r} sheet, not {obj['format']!r}")
    check_keys(obj, where, _REQUIRED, _OPTIONAL)
    version = get_int(obj, "version", where)
    if not 1 <= version <= SHEET_VERSION:
        raise DataError(
            f"{where}.version: this Hexfray reads sheet versions 1 to {SHEET_VERSION}, "
            f"not {version}"
        )
    hp, move = parse_vitals(obj, where)
    weapons = tuple(
        parse_weapon(w, f"{where}.weapons[{i}]")
        for i, w in enumerate(as_list(obj["weapons"], f"{where}.weapons"))
    )
    keys = [w.key for w in weapons]
    if len(set(keys)) != len(keys):
        raise DataError(f"{where}.weapons: duplicate keys {keys}")
    return Fighter(
        name=get_str(obj, "name", where),
        hit_points=hp,
        move=move,
        weapons=weapons,
        stats=read_sheet(obj, where),
        handedness=get_enum(obj, "handedness", Handedness, where, Handedness.RIGHT),
        origin=get_str(obj, "origin", where) if "origin" in obj else "",
    )
