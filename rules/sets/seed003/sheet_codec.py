"""Seed 003's character sheet as versioned JSON ("hexfray-sheet-003", version 1):
the neutral fields of a ``Fighter`` with its gear written out in the catalog's
own formats (``rules.battle.sheet_gear``), then the FUDGE statistics
(``rules.sets.seed003.sheet``). ``hit_points`` is derived from Damage Capacity
and checked against it on reading."""

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
from rules.core.errors import DataError
from rules.core.jsondata import as_object, check_keys
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


def encode_fighter(fighter: Fighter) -> dict[str, object]:
    """The whole sheet as JSON-ready data, tagged with its format and version."""
    out = encode_neutral(fighter, SHEET_FORMAT, SHEET_VERSION)
    return {**out, **write_sheet(sheet_of(fighter))}


def decode_fighter(data: object, where: str = "sheet") -> Fighter:
    """A sheet written by ``encode_fighter``; ``DataError`` names the first field
    that is wrong, and a sheet of another format or a newer version is refused."""
    obj = as_object(data, where)
    check_keys(obj, where, _REQUIRED, _OPTIONAL)
    check_format(obj, where, SHEET_FORMAT)
    check_version(obj, where, SHEET_VERSION)
    hp, move = parse_vitals(obj, where)
    stats = read_sheet(obj, where)
    boxes = overall_boxes(stats.damage_capacity)
    if hp != boxes:
        raise DataError(
            f"{where}.hit_points: the torso's track at this Damage Capacity has {boxes} boxes, "
            f"not {hp}"
        )
    weapons = decode_weapons(obj, where)
    return decode_neutral(obj, where, vitals=(hp, move), weapons=weapons, stats=stats)
