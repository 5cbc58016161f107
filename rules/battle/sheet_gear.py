"""The ruleset-neutral part of a ruleset's character sheet codec: a sheet's
format and version check, its gear written out in the catalog's own formats
(``rules.battle.catalog`` reads them back through the same checks as the asset
files), its list of weapons read with unique keys, and the ``Fighter`` built
from the neutral fields.

Each ruleset's ``sheet_codec`` names its own format and version, adds its own
statistics and its own gear fields; what it writes stays its own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar

from hexmap import Handedness
from rules.battle.catalog import RawSheet, parse_armor, parse_shield, parse_weapon
from rules.battle.model import (
    Armor,
    Combatant,
    DamageBase,
    DamageSpec,
    Delivery,
    Fighter,
    Projectile,
    RulesetSheet,
    Shield,
    Weapon,
    WeaponMode,
)
from rules.core.errors import DataError
from rules.core.jsondata import as_list, as_object, check_keys, get_enum, get_int, get_str

S = TypeVar("S", bound=RulesetSheet)

# The neutral fields every sheet has, and the gear a ruleset may let it carry.
REQUIRED = ("format", "version", "name", "hit_points", "move", "weapons")
GEAR_OPTIONAL = ("shield", "armor", "handedness", "origin")


def encode_damage(spec: DamageSpec) -> dict[str, object]:
    """A mode's damage in the format ``parse_damage_spec`` reads."""
    out: dict[str, object] = {"base": spec.base.value, "type": spec.type.value}
    if spec.adds:
        out["adds"] = spec.adds
    if spec.base is DamageBase.FIXED and spec.fixed is not None:
        out["dice"] = str(spec.fixed)
    if spec.factor != 1:
        out["factor"] = str(spec.factor)
    return out


def encode_mode(mode: WeaponMode) -> dict[str, object]:
    """A weapon mode in the format ``parse_mode`` reads."""
    out: dict[str, object] = {
        "name": mode.name,
        "damage": encode_damage(mode.damage),
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
    """A weapon's neutral fields in the format of ``parse_weapon``; a ruleset
    with more weapon fields appends them."""
    return {
        "key": weapon.key,
        "name": weapon.name,
        "kind": weapon.kind.value,
        "skill": weapon.skill,
        "parry": weapon.parry.value,
        "weight": weapon.weight,
        "modes": [encode_mode(m) for m in weapon.modes],
        "two_handed": weapon.two_handed,
        "size": weapon.size.value,
    }


def encode_shield(shield: Shield) -> dict[str, object]:
    """A shield's neutral fields in the format of ``parse_shield``."""
    return {
        "key": shield.key,
        "name": shield.name,
        "size": shield.size.value,
        "pd": shield.pd,
        "weight": shield.weight,
    }


def encode_armor(armor: Armor) -> dict[str, object]:
    """An armor in the format of ``parse_armor``."""
    return {
        "key": armor.key,
        "name": armor.name,
        "pd": armor.pd,
        "dr": armor.dr,
        "weight": armor.weight,
    }


def encode_neutral(
    fighter: Fighter,
    sheet_format: str,
    version: int,
    *,
    weapon: Callable[[Weapon], dict[str, object]] = encode_weapon,
    shield: Callable[[Shield], dict[str, object]] | None = encode_shield,
    armor: Callable[[Armor], dict[str, object]] | None = encode_armor,
) -> dict[str, object]:
    """The sheet's neutral fields tagged with its format and version, in this
    order: format, version, name, hit_points, move, weapons, handedness, then the
    shield and armor (when the fighter has them and the ruleset writes them) and
    the origin (when there is one)."""
    out: dict[str, object] = {
        "format": sheet_format,
        "version": version,
        "name": fighter.name,
        "hit_points": fighter.hit_points,
        "move": fighter.move,
        "weapons": [weapon(w) for w in fighter.weapons],
        "handedness": fighter.handedness.value,
    }
    if shield is not None and fighter.shield is not None:
        out["shield"] = shield(fighter.shield)
    if armor is not None and fighter.armor is not None:
        out["armor"] = armor(fighter.armor)
    if fighter.origin:
        out["origin"] = fighter.origin
    return out


def check_format(obj: Mapping[str, object], where: str, sheet_format: str) -> None:
    """Refuse a sheet of another format than ``sheet_format``."""
    fmt = get_str(obj, "format", where)
    if fmt != sheet_format:
        raise DataError(f"{where}.format: a {sheet_format!r} sheet, not {fmt!r:.40}")


def check_version(obj: Mapping[str, object], where: str, version: int) -> None:
    """Refuse a sheet of a version this Hexfray does not read (1 to ``version``)."""
    found = get_int(obj, "version", where)
    if not 1 <= found <= version:
        raise DataError(
            f"{where}.version: this Hexfray reads sheet versions 1 to {version}, not {found}"
        )


def sheet_object(
    data: object,
    where: str,
    sheet_format: str,
    version: int,
    keys: tuple[tuple[str, ...], tuple[str, ...]],
    *,
    format_first: bool = False,
) -> Mapping[str, object]:
    """The sheet ``data`` as an object whose keys are among ``keys`` (required,
    optional), of the format ``sheet_format`` and a version from 1 to
    ``version``; ``format_first``: a named format is checked before the keys."""
    obj = as_object(data, where)
    if format_first and "format" in obj:
        check_format(obj, where, sheet_format)
    check_keys(obj, where, *keys)
    check_format(obj, where, sheet_format)
    check_version(obj, where, version)
    return obj


def decode_weapons(
    obj: Mapping[str, object],
    where: str,
    parse: Callable[[object, str], Weapon] = parse_weapon,
) -> tuple[Weapon, ...]:
    """The sheet's ``weapons``, each read by ``parse``; their keys must differ."""
    weapons = tuple(
        parse(w, f"{where}.weapons[{i}]")
        for i, w in enumerate(as_list(obj["weapons"], f"{where}.weapons"))
    )
    keys = [w.key for w in weapons]
    if len(set(keys)) != len(keys):
        raise DataError(f"{where}.weapons: duplicate keys {keys}")
    return weapons


def decode_neutral(
    obj: Mapping[str, object],
    where: str,
    *,
    vitals: tuple[int, int],
    weapons: tuple[Weapon, ...],
    stats: RulesetSheet,
    armor_key: str = "armor",
    armor: Callable[[object, str], Armor] = parse_armor,
) -> Fighter:
    """The ``Fighter`` of a sheet whose keys are checked: its ``vitals`` (hit
    points, move), ``weapons`` and ``stats`` already read, its name, handedness,
    shield (``parse_shield``), armor (under ``armor_key``, read by ``armor``) and
    origin read here."""
    hp, move = vitals
    return Fighter(
        name=get_str(obj, "name", where),
        hit_points=hp,
        move=move,
        weapons=weapons,
        stats=stats,
        handedness=get_enum(obj, "handedness", Handedness, where, Handedness.RIGHT),
        shield=parse_shield(obj["shield"], f"{where}.shield") if "shield" in obj else None,
        armor=armor(obj[armor_key], f"{where}.{armor_key}") if armor_key in obj else None,
        origin=get_str(obj, "origin", where) if "origin" in obj else "",
    )


def sheet_stats(
    who: Fighter | Combatant, sheet_type: type[S], read_raw: Callable[[RawSheet], S], key: str
) -> S:
    """The statistics of ruleset ``key`` (a ``sheet_type``) of a fighter or of a
    combatant's fighter, read by ``read_raw`` if the files' ``RawSheet`` is still
    unread; ``DataError`` for a fighter with another ruleset's statistics."""
    stats = who.fighter.stats if isinstance(who, Combatant) else who.stats
    if isinstance(stats, sheet_type):
        return stats
    if isinstance(stats, RawSheet):
        return read_raw(stats)
    raise DataError(f"{who.name} has no seed {key} statistics (a {type(stats).__name__})")
