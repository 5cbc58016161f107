"""Seed 000's character sheet as versioned JSON: every field of a ``Fighter`` (its
neutral fields, its seed 000 statistics read by ``rules.sets.seed000.sheet``) with
its gear written out in full, so that a sheet edited during a battle, or one
that no template holds, saves and loads as it is.

The gear uses the catalog's own formats (``rules.battle.sheet_gear`` writes the
neutral fields, ``rules.battle.catalog`` reads them), so a weapon, shield or armor
reads back through the same checks as the asset files.
An improvised weapon names the real catalog weapon it is like
(000 IMPROVISED WEAPONS), which must exist when the sheet is read.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.battle.catalog import load_catalog, parse_vitals, parse_weapon
from rules.battle.model import Fighter, Shield, Weapon
from rules.battle.sheet_gear import (
    check_format,
    check_version,
    decode_neutral,
    decode_weapons,
    encode_neutral,
)
from rules.battle.sheet_gear import encode_shield as encode_neutral_shield
from rules.battle.sheet_gear import encode_weapon as encode_neutral_weapon
from rules.core.jsondata import as_object, check_keys
from rules.sets.seed000.sheet import (
    SHEET_OPTIONAL,
    SHEET_REQUIRED,
    read_sheet,
    sheet_of,
    write_sheet,
)

SHEET_FORMAT = "hexfray-sheet-000"
SHEET_VERSION = 1

# The neutral fields, then the seed 000 statistics (``rules.sets.seed000.sheet``).
_REQUIRED = ("format", "version", "name", "hit_points", "move", "weapons", *SHEET_REQUIRED)
_OPTIONAL = ("shield", "armor", "handedness", "origin", *SHEET_OPTIONAL)


def encode_weapon(weapon: Weapon) -> dict[str, object]:
    """A weapon in the format of ``assets/weapons.json``: the neutral fields
    (``rules.battle.sheet_gear``), then seed 000's own."""
    out: dict[str, object] = {
        **encode_neutral_weapon(weapon),
        "quality": weapon.quality.value,
        "min_st": weapon.min_st,
        "reliable": weapon.reliable,
        "wooden_shaft": weapon.wooden_shaft,
        "metal_faced": weapon.metal_faced,
    }
    if weapon.like is not None:
        out["like"] = weapon.like
        out["clumsiness"] = weapon.clumsiness
    return out


def encode_shield(shield: Shield) -> dict[str, object]:
    return {**encode_neutral_shield(shield), "heavy": shield.heavy}


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    """The whole sheet as JSON-ready data, tagged with its format and version."""
    out = encode_neutral(
        fighter, SHEET_FORMAT, SHEET_VERSION, weapon=encode_weapon, shield=encode_shield
    )
    return {**out, **write_sheet(sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first field
    that is wrong, and a sheet of another format or a newer version is refused."""
    obj = as_object(data, where)
    check_keys(obj, where, _REQUIRED, _OPTIONAL)
    check_format(obj, where, SHEET_FORMAT)
    check_version(obj, where, SHEET_VERSION)
    vitals = parse_vitals(obj, where)
    stats = read_sheet(obj, where)
    known: Mapping[str, Weapon] = load_catalog().weapons
    weapons = decode_weapons(obj, where, lambda w, at: parse_weapon(w, at, known))
    return decode_neutral(obj, where, vitals=vitals, weapons=weapons, stats=stats)
