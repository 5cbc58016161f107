"""Seed 004's tables, read from ``assets/rulesets/004/``: the melee difficulty
(``difficulty.json``: the base difficulty, the size-and-range table, the size
steps of postures, a shot's movement and stance, darkness) and the weapons
(``weapons.json``, the catalog's neutral format)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType

from rules.battle.catalog import Catalog, parse_catalog
from rules.battle.model import Posture
from rules.core.assets import read_json
from rules.core.citation import Citation
from rules.core.errors import DataError
from rules.core.jsondata import as_int, as_int_range, as_list, as_object, check_keys, get_int
from rules.sets.components.zones_2d6 import Size

KEY = "004"
BASE_DIFFICULTY = Citation("base-004", "ranged combat: determining difficulty (base 5)")
SIZE_TABLE = Citation("base-004", "ranged combat: size and range table, Close column")
RANGE_TABLE = Citation("base-004", "ranged combat: size and range table")
MOVEMENT = Citation("base-004", "ranged combat: movement of target and shooter")
STANCE = Citation("base-004", "ranged combat: the shooter's stance")
STANCE_SIZE = Citation("base-004", "ranged combat: stance and size (kneeling small, prone tiny)")
ENVIRONMENT = Citation("base-004", "checks: the GM's difficulty for the environment")


class RangeBand(Enum):
    """The base rules' range categories, as fractions of a weapon's effective
    range: close below an eighth, medium below a quarter, far below a half,
    maximum up to the effective range."""

    CLOSE = "close"
    MEDIUM = "medium"
    FAR = "far"
    MAXIMUM = "maximum"

    @property
    def column(self) -> int:
        return tuple(RangeBand).index(self)


def range_band(distance: int, effective: int) -> RangeBand | None:
    """The range category of a target ``distance`` hexes (metres) away; None
    beyond the effective range. A distance of exactly an eighth, a quarter or a
    half of it falls in the longer category."""
    if distance > effective:
        return None
    if distance * 8 < effective:
        return RangeBand.CLOSE
    if distance * 4 < effective:
        return RangeBand.MEDIUM
    if distance * 2 < effective:
        return RangeBand.FAR
    return RangeBand.MAXIMUM


class Movement(Enum):
    """The base rules' movement categories of a shot's target or shooter."""

    STILL = "still"
    SUBTLE = "subtle"
    SLOW = "slow"
    FAST = "fast"


@dataclass(frozen=True, slots=True)
class DifficultyTable:
    base: int
    range_size: Mapping[Size, tuple[int, ...]]
    posture_steps: Mapping[Posture, int]
    movement: Mapping[Movement, int]
    stance: Mapping[Posture, int]
    light: tuple[tuple[int, int, int], ...]  # (darkness low, high, difficulty)

    def size(self, size: Size, band: RangeBand = RangeBand.CLOSE) -> int:
        """The difficulty a target's size adds at a range (melee: close)."""
        return self.range_size[size][band.column]

    def light_difficulty(self, darkness: int) -> int:
        for low, high, difficulty in self.light:
            if low <= darkness <= high:
                return difficulty
        raise DataError(f"difficulty.json: no light row for darkness {darkness}")


def _numbers(obj: Mapping[str, object], keys: tuple[str, ...], where: str) -> dict[str, int]:
    check_keys(obj, where, keys)
    return {k: as_int(obj[k], f"{where}.{k}") for k in keys}


def parse_difficulty(data: object, where: str = "difficulty") -> DifficultyTable:
    obj = as_object(data, where)
    check_keys(
        obj,
        where,
        ("base", "range_size", "posture_steps", "movement", "stance", "light"),
        ("about",),
    )
    sizes = as_object(obj["range_size"], f"{where}.range_size")
    check_keys(sizes, f"{where}.range_size", tuple(s.value for s in Size))
    range_size: dict[Size, tuple[int, ...]] = {}
    for size in Size:
        at = f"{where}.range_size.{size.value}"
        row = tuple(as_int(v, f"{at}[{i}]") for i, v in enumerate(as_list(sizes[size.value], at)))
        if len(row) != len(RangeBand):
            raise DataError(f"{at}: one difficulty for each of {len(RangeBand)} ranges")
        range_size[size] = row
    postures = tuple(p.value for p in Posture)
    steps = _numbers(
        as_object(obj["posture_steps"], f"{where}.posture_steps"),
        postures,
        f"{where}.posture_steps",
    )
    if any(not 0 <= n <= 4 for n in steps.values()):
        raise DataError(f"{where}.posture_steps: 0 to 4 size steps")
    movement = _numbers(
        as_object(obj["movement"], f"{where}.movement"),
        tuple(m.value for m in Movement),
        f"{where}.movement",
    )
    stance = _numbers(as_object(obj["stance"], f"{where}.stance"), postures, f"{where}.stance")
    light: list[tuple[int, int, int]] = []
    for i, entry in enumerate(as_list(obj["light"], f"{where}.light")):
        at = f"{where}.light[{i}]"
        r = as_object(entry, at)
        check_keys(r, at, ("darkness", "difficulty"))
        low, high = as_int_range(r["darkness"], f"{at}.darkness")
        light.append((low, high, get_int(r, "difficulty", at)))
    covered = sorted(d for low, high, _ in light for d in range(low, high + 1))
    if covered != list(range(11)):
        raise DataError(f"{where}.light: the rows must cover darkness 0..10 once each")
    return DifficultyTable(
        base=get_int(obj, "base", where),
        range_size=MappingProxyType(range_size),
        posture_steps=MappingProxyType({p: steps[p.value] for p in Posture}),
        movement=MappingProxyType({m: movement[m.value] for m in Movement}),
        stance=MappingProxyType({p: stance[p.value] for p in Posture}),
        light=tuple(light),
    )


@functools.cache
def difficulty_table() -> DifficultyTable:
    return parse_difficulty(read_json("rulesets", KEY, "difficulty.json"), "difficulty.json")


@functools.cache
def catalog() -> Catalog:
    """The seed 004 weapons; no shields (a block is Strength and Constitution) and
    no armor suits (armor is by zone, on the sheet)."""
    return parse_catalog(read_json("rulesets", KEY, "weapons.json"), {"shields": []}, {"armor": []})
