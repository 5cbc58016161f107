"""Seed 004's tables, read from ``assets/rulesets/004/``: the melee difficulty
(``difficulty.json``: the base difficulty, the size-and-range table's Close
column, the size steps of postures, darkness) and the weapons
(``weapons.json``, the catalog's neutral format)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
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
STANCE_SIZE = Citation("base-004", "ranged combat: stance and size (kneeling small, prone tiny)")
ENVIRONMENT = Citation("base-004", "checks: the GM's difficulty for the environment")


@dataclass(frozen=True, slots=True)
class DifficultyTable:
    base: int
    size: Mapping[Size, int]
    posture_steps: Mapping[Posture, int]
    light: tuple[tuple[int, int, int], ...]  # (darkness low, high, difficulty)

    def light_difficulty(self, darkness: int) -> int:
        for low, high, difficulty in self.light:
            if low <= darkness <= high:
                return difficulty
        raise DataError(f"difficulty.json: no light row for darkness {darkness}")


def parse_difficulty(data: object, where: str = "difficulty") -> DifficultyTable:
    obj = as_object(data, where)
    check_keys(obj, where, ("base", "size", "posture_steps", "light"), ("about",))
    sizes = as_object(obj["size"], f"{where}.size")
    check_keys(sizes, f"{where}.size", tuple(s.value for s in Size))
    steps = as_object(obj["posture_steps"], f"{where}.posture_steps")
    check_keys(steps, f"{where}.posture_steps", tuple(p.value for p in Posture))
    light: list[tuple[int, int, int]] = []
    for i, row in enumerate(as_list(obj["light"], f"{where}.light")):
        at = f"{where}.light[{i}]"
        r = as_object(row, at)
        check_keys(r, at, ("darkness", "difficulty"))
        low, high = as_int_range(r["darkness"], f"{at}.darkness")
        light.append((low, high, get_int(r, "difficulty", at)))
    covered = sorted(d for low, high, _ in light for d in range(low, high + 1))
    if covered != list(range(11)):
        raise DataError(f"{where}.light: the rows must cover darkness 0..10 once each")
    for p in Posture:
        if not 0 <= as_int(steps[p.value], f"{where}.posture_steps.{p.value}") <= 4:
            raise DataError(f"{where}.posture_steps.{p.value}: 0 to 4 size steps")
    return DifficultyTable(
        base=get_int(obj, "base", where),
        size=MappingProxyType({s: as_int(sizes[s.value], f"{where}.size.{s.value}") for s in Size}),
        posture_steps=MappingProxyType({p: as_int(steps[p.value], where) for p in Posture}),
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
