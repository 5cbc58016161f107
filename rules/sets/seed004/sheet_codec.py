"""Seed 004's character sheet as versioned JSON ("hexfray-sheet-004", version 1):
the neutral fields of a ``Fighter`` with its weapons written out in full in the
catalog's format (``rules.battle.sheet_gear`` writes them,
``rules.battle.catalog.parse_weapon`` reads them back), and
its seed 004 statistics (``rules.sets.seed004.sheet``)."""

from __future__ import annotations

from rules.battle import sheet_gear as gear
from rules.battle.catalog import parse_vitals
from rules.battle.model import Fighter
from rules.sets.seed004 import sheet

SHEET_FORMAT = "hexfray-sheet-004"
SHEET_VERSION = 1

_KEYS = ((*gear.REQUIRED, *sheet.SHEET_REQUIRED), ("handedness", "origin", *sheet.SHEET_OPTIONAL))


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    """The whole sheet as JSON-ready data, tagged with its format and version
    (a seed 004 fighter carries no shield and no armor: none is written)."""
    out = gear.encode_neutral(fighter, SHEET_FORMAT, SHEET_VERSION, shield=None, armor=None)
    return {**out, **sheet.write_sheet(sheet.sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first wrong
    field; another format (checked first) or a newer version is refused."""
    obj = gear.sheet_object(data, where, SHEET_FORMAT, SHEET_VERSION, _KEYS, format_first=True)
    vitals = parse_vitals(obj, where)
    weapons = gear.decode_weapons(obj, where)
    stats = sheet.read_sheet(obj, where)
    return gear.decode_neutral(obj, where, vitals=vitals, weapons=weapons, stats=stats)
