"""Seed 004's character sheet as versioned JSON ("hexfray-sheet-004", version 1):
the neutral fields of a ``Fighter`` with its weapons written out in full in the
catalog's format (``rules.battle.sheet_gear`` writes them,
``rules.battle.catalog.parse_weapon`` reads them back), and
its seed 004 statistics (``rules.sets.seed004.sheet``)."""

from __future__ import annotations

from rules.battle.catalog import parse_vitals
from rules.battle.model import Fighter
from rules.battle.sheet_gear import (
    check_format,
    check_version,
    decode_neutral,
    decode_weapons,
    encode_neutral,
)
from rules.core.jsondata import as_object, check_keys
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


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    """The whole sheet as JSON-ready data, tagged with its format and version
    (a seed 004 fighter carries no shield and no armor: none is written)."""
    out = encode_neutral(fighter, SHEET_FORMAT, SHEET_VERSION, shield=None, armor=None)
    return {**out, **write_sheet(sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first wrong
    field; another format or a newer version is refused."""
    obj = as_object(data, where)
    if "format" in obj:
        check_format(obj, where, SHEET_FORMAT)
    check_keys(obj, where, _REQUIRED, _OPTIONAL)
    check_version(obj, where, SHEET_VERSION)
    vitals = parse_vitals(obj, where)
    weapons = decode_weapons(obj, where)
    return decode_neutral(obj, where, vitals=vitals, weapons=weapons, stats=read_sheet(obj, where))
