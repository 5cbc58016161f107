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

from rules.battle import sheet_gear as gear
from rules.battle.catalog import load_catalog, parse_vitals, parse_weapon
from rules.battle.model import Fighter, Shield, Weapon
from rules.sets.seed000 import sheet

SHEET_FORMAT = "hexfray-sheet-000"
SHEET_VERSION = 1

# The neutral fields, then the seed 000 statistics (``rules.sets.seed000.sheet``).
_KEYS = ((*gear.REQUIRED, *sheet.SHEET_REQUIRED), (*gear.GEAR_OPTIONAL, *sheet.SHEET_OPTIONAL))


def encode_weapon(weapon: Weapon) -> dict[str, object]:
    """A weapon in the format of ``assets/weapons.json``: the neutral fields
    (``rules.battle.sheet_gear``), then seed 000's own."""
    out: dict[str, object] = {
        **gear.encode_weapon(weapon),
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
    return {**gear.encode_shield(shield), "heavy": shield.heavy}


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    """The whole sheet as JSON-ready data, tagged with its format and version."""
    out = gear.encode_neutral(
        fighter, SHEET_FORMAT, SHEET_VERSION, weapon=encode_weapon, shield=encode_shield
    )
    return {**out, **sheet.write_sheet(sheet.sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first field
    that is wrong, and a sheet of another format or a newer version is refused."""
    obj = gear.sheet_object(data, where, SHEET_FORMAT, SHEET_VERSION, _KEYS)
    vitals = parse_vitals(obj, where)
    stats = sheet.read_sheet(obj, where)
    known: Mapping[str, Weapon] = load_catalog().weapons
    weapons = gear.decode_weapons(obj, where, lambda w, at: parse_weapon(w, at, known))
    return gear.decode_neutral(obj, where, vitals=vitals, weapons=weapons, stats=stats)
