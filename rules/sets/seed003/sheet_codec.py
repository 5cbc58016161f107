"""Seed 003's character sheet as versioned JSON ("hexfray-sheet-003", version 1):
the neutral fields of a ``Fighter`` with its gear written out in the catalog's
own formats (``rules.battle.sheet_gear``), then the FUDGE statistics
(``rules.sets.seed003.sheet``). ``hit_points`` is derived from Damage Capacity
and checked against it on reading."""

from __future__ import annotations

from rules.battle import sheet_gear as gear
from rules.battle.catalog import parse_vitals
from rules.battle.model import Fighter
from rules.core.errors import DataError
from rules.sets.seed003 import sheet

SHEET_FORMAT = "hexfray-sheet-003"
SHEET_VERSION = 1

_KEYS = ((*gear.REQUIRED, *sheet.SHEET_REQUIRED), (*gear.GEAR_OPTIONAL, *sheet.SHEET_OPTIONAL))


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    """The whole sheet as JSON-ready data, tagged with its format and version."""
    out = gear.encode_neutral(fighter, SHEET_FORMAT, SHEET_VERSION)
    return {**out, **sheet.write_sheet(sheet.sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first field
    that is wrong, and a sheet of another format or a newer version is refused."""
    obj = gear.sheet_object(data, where, SHEET_FORMAT, SHEET_VERSION, _KEYS)
    hp, move = parse_vitals(obj, where)
    stats = sheet.read_sheet(obj, where)
    boxes = sheet.overall_boxes(stats.damage_capacity)
    if hp != boxes:
        raise DataError(
            f"{where}.hit_points: the torso's track at this Damage Capacity has {boxes} boxes, "
            f"not {hp}"
        )
    weapons = gear.decode_weapons(obj, where)
    return gear.decode_neutral(obj, where, vitals=(hp, move), weapons=weapons, stats=stats)
