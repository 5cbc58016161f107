"""Seed 003's character sheet as versioned JSON ("hexfray-sheet-003", version 1):
the neutral fields of a ``Fighter`` with its gear written out in the catalog's
own formats (``rules.battle.catalog``), then the FUDGE statistics
(``rules.sets.seed003.sheet``). ``hit_points`` is derived from Damage Capacity
and checked against it on reading."""

from __future__ import annotations

from hexmap import Handedness
from rules.battle.catalog import parse_armor, parse_shield, parse_vitals, parse_weapon
from rules.battle.model import (
    Armor,
    DamageBase,
    DamageSpec,
    Delivery,
    Fighter,
    Projectile,
    Shield,
    Weapon,
    WeaponMode,
)
from rules.core.errors import DataError
from rules.core.jsondata import as_list, as_object, check_keys, get_enum, get_int, get_str
from rules.sets.seed003.sheet import (
    SHEET_OPTIONAL,
    SHEET_REQUIRED,
    overall_boxes,
    read_sheet,
    sheet_of,
    write_sheet,
)

SHEET_FORMAT = "hexfray-sheet-003"
SHEET_VERSION = 1

_REQUIRED = ("format", "version", "name", "hit_points", "move", "weapons", *SHEET_REQUIRED)
_OPTIONAL = ("shield", "armor", "handedness", "origin", *SHEET_OPTIONAL)


def _damage(spec: DamageSpec) -> dict[str, object]:
    out: dict[str, object] = {"base": spec.base.value, "type": spec.type.value}
    if spec.adds:
        out["adds"] = spec.adds
    if spec.base is DamageBase.FIXED and spec.fixed is not None:
        out["dice"] = str(spec.fixed)
    if spec.factor != 1:
        out["factor"] = str(spec.factor)
    return out


def _mode(mode: WeaponMode) -> dict[str, object]:
    out: dict[str, object] = {"name": mode.name, "damage": _damage(mode.damage)}
    out["reach"] = str(mode.reach)
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


def encode_shield(shield: Shield) -> dict[str, object]:
    return {
        "key": shield.key,
        "name": shield.name,
        "size": shield.size.value,
        "pd": shield.pd,
        "weight": shield.weight,
    }


def encode_armor(armor: Armor) -> dict[str, object]:
    return {
        "key": armor.key,
        "name": armor.name,
        "pd": armor.pd,
        "dr": armor.dr,
        "weight": armor.weight,
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
    if fighter.shield is not None:
        out["shield"] = encode_shield(fighter.shield)
    if fighter.armor is not None:
        out["armor"] = encode_armor(fighter.armor)
    if fighter.origin:
        out["origin"] = fighter.origin
    return {**out, **write_sheet(sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first field
    that is wrong, and a sheet of another format or a newer version is refused."""
    obj = as_object(data, where)
    check_keys(obj, where, _REQUIRED, _OPTIONAL)
    fmt = get_str(obj, "format", where)
    if fmt != SHEET_FORMAT:
        raise DataError(f"{where}.format: a {SHEET_FORMAT!r} sheet, not {fmt!r}")
    version = get_int(obj, "version", where)
    if not 1 <= version <= SHEET_VERSION:
        raise DataError(
            f"{where}.version: this Hexfray reads sheet versions 1 to {SHEET_VERSION}, "
            f"not {version}"
        )
    hp, move = parse_vitals(obj, where)
    stats = read_sheet(obj, where)
    boxes = overall_boxes(stats.damage_capacity)
    if hp != boxes:
        raise DataError(
            f"{where}.hit_points: the torso's track at this Damage Capacity has {boxes} boxes, "
            f"not {hp}"
        )
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
        stats=stats,
        handedness=get_enum(obj, "handedness", Handedness, where, Handedness.RIGHT),
        shield=parse_shield(obj["shield"], f"{where}.shield") if "shield" in obj else None,
        armor=parse_armor(obj["armor"], f"{where}.armor") if "armor" in obj else None,
        origin=get_str(obj, "origin", where) if "origin" in obj else "",
    )
