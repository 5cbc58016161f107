"""Terrain of the battle map and the situation of one attack.

Each hex has a ``Terrain``: light, footing, water, cover and height. Most hexes are
open ground (daylight, good footing, dry, no cover, level 0), so the map stores
only the others, in a ``TerrainMap`` (sparse, frozen and comparable, so a battle
state with terrain still compares equal after a replay). The GM paints terrain
with ``rules.battle.commands.PaintTerrain`` and a ``TerrainChange``.

What terrain does to an attack (000 ADVERSE COMBAT CONDITIONS; the values are the
condition catalog's, ``assets/rulesets/000/adverse_conditions.json``):

* **Light** counts where the DEFENDER stands: the attacker must see the target.
  Twilight -1 down to nearly dark -9 is the catalog's ``bad_light``, total
  darkness its ``total_darkness`` -10.
* **Footing** and **water** count where the ATTACKER stands: it is the attacker's
  stance that suffers. ``bad_footing`` -1 or worse; ``in_water`` -1 ankle-deep to
  -6 chest-deep (Hexfray fills the depths between linearly); deeper than the chest
  the attacker is ``swimming`` (-6).
* **Cover** of the defender's hex hides body areas from random hit locations: a
  hit that lands on a covered area is rolled again (000 RANDOM HIT LOCATION).
  PARTIAL cover (a low wall, a hedge, a table) covers the legs; FULL cover (a
  battlement, an arrow slit) also covers the torso, leaving head and arms.
  Against ranged attacks a prone target in cover counts as "behind cover" for
  the posture table. Cover gives no hit modifier by itself.
* **Height** in levels: an attacker higher than the defender attacks from above,
  a lower one from below. Hexfray gives no hit modifier for it; the flags go to
  the attack (``AttackOptions.from_below``: defenses against attacks from below;
  random hit locations shift from above or below, 000 RANDOM HIT LOCATION).

What the terrain means for an attack is the ruleset's: seed 000 gathers terrain
and posture into a ``Situation`` (``rules.sets.seed000.situation``) that the attack
pane shows item by item; the GM may still override it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from hexmap import Hex
from rules.core.citation import cite
from rules.core.errors import RulesError

CONDITIONS_000 = cite("000", "ADVERSE COMBAT CONDITIONS")


class Light(Enum):
    """Light in a hex: the seed's bad light penalty, twilight -1 to nearly dark -9,
    and total darkness -10 (``penalty``)."""

    DAYLIGHT = 0
    TWILIGHT = -1
    BAD_2 = -2
    BAD_3 = -3
    BAD_4 = -4
    BAD_5 = -5
    BAD_6 = -6
    BAD_7 = -7
    BAD_8 = -8
    NEARLY_DARK = -9
    TOTAL_DARKNESS = -10

    @property
    def penalty(self) -> int:
        return int(self.value)

    @classmethod
    def from_penalty(cls, penalty: int) -> Light:
        try:
            return cls(penalty)
        except ValueError:
            raise RulesError(f"light penalties run from 0 to -10, got {penalty!r}") from None

    @property
    def label(self) -> str:
        if self is Light.DAYLIGHT:
            return "daylight"
        if self is Light.TOTAL_DARKNESS:
            return "total darkness (-10)"
        if self is Light.TWILIGHT:
            return "twilight (-1)"
        if self is Light.NEARLY_DARK:
            return "nearly dark (-9)"
        return f"bad light ({self.penalty})"


class Footing(Enum):
    """Footing in a hex: the seed's "bad footing -1 or more"."""

    GOOD = "good"
    BAD = "bad"
    VERY_BAD = "very bad"
    TREACHEROUS = "treacherous"

    @property
    def penalty(self) -> int:
        return _FOOTING[self]

    @property
    def label(self) -> str:
        if self is Footing.GOOD:
            return "good footing"
        return f"{self.value} footing ({self.penalty})"


_FOOTING = {Footing.GOOD: 0, Footing.BAD: -1, Footing.VERY_BAD: -2, Footing.TREACHEROUS: -3}


class WaterDepth(Enum):
    """Standing water: the seed gives ankle-deep -1 and chest-deep -6; Hexfray
    steps linearly between them. DEEP is over the chest: the fighter swims (-6)."""

    NONE = "none"
    ANKLE = "ankle"
    KNEE = "knee"
    THIGH = "thigh"
    HIP = "hip"
    WAIST = "waist"
    CHEST = "chest"
    DEEP = "deep"

    @property
    def penalty(self) -> int:
        return _WATER[self]

    @property
    def swimming(self) -> bool:
        return self is WaterDepth.DEEP

    @property
    def label(self) -> str:
        if self is WaterDepth.NONE:
            return "dry"
        if self is WaterDepth.DEEP:
            return "deep water, swimming (-6)"
        return f"{self.value}-deep water ({self.penalty})"


_WATER = {
    WaterDepth.NONE: 0,
    WaterDepth.ANKLE: -1,
    WaterDepth.KNEE: -2,
    WaterDepth.THIGH: -3,
    WaterDepth.HIP: -4,
    WaterDepth.WAIST: -5,
    WaterDepth.CHEST: -6,
    WaterDepth.DEEP: -6,
}


class Cover(Enum):
    """Cover in a hex, by the body areas (``rules.sets.seed000.hit_location`` areas) it hides
    from random hit locations."""

    NONE = "none"
    PARTIAL = "partial"  # low wall, hedge, table: legs hidden
    FULL = "full"  # battlement, arrow slit: only head and arms show

    @property
    def covered_areas(self) -> frozenset[str]:
        return _COVER[self]

    @property
    def label(self) -> str:
        if self is Cover.NONE:
            return "no cover"
        return f"{self.value} cover ({', '.join(sorted(self.covered_areas))} hidden)"


_COVER = {
    Cover.NONE: frozenset[str](),
    Cover.PARTIAL: frozenset({"leg"}),
    Cover.FULL: frozenset({"leg", "torso"}),
}


@dataclass(frozen=True, slots=True)
class Terrain:
    light: Light = Light.DAYLIGHT
    footing: Footing = Footing.GOOD
    water: WaterDepth = WaterDepth.NONE
    cover: Cover = Cover.NONE
    height: int = 0  # levels above the map's ground level (may be negative)

    def __post_init__(self) -> None:
        if isinstance(self.height, bool) or not isinstance(self.height, int):
            raise RulesError(f"terrain height must be a whole number of levels: {self.height!r}")

    @property
    def is_open(self) -> bool:
        return self == OPEN_GROUND

    def describe(self) -> str:
        parts = [
            self.light.label if self.light is not Light.DAYLIGHT else "",
            self.footing.label if self.footing is not Footing.GOOD else "",
            self.water.label if self.water is not WaterDepth.NONE else "",
            self.cover.label if self.cover is not Cover.NONE else "",
            f"height {self.height}" if self.height else "",
        ]
        return ", ".join(p for p in parts if p) or "open ground"


OPEN_GROUND = Terrain()


@dataclass(frozen=True, slots=True)
class TerrainChange:
    """What a brush stroke sets; None leaves that property of each hex alone."""

    light: Light | None = None
    footing: Footing | None = None
    water: WaterDepth | None = None
    cover: Cover | None = None
    height: int | None = None

    @classmethod
    def open_ground(cls) -> TerrainChange:
        """Reset every property: the eraser."""
        t = OPEN_GROUND
        return cls(t.light, t.footing, t.water, t.cover, t.height)

    def apply(self, t: Terrain) -> Terrain:
        return Terrain(
            light=self.light if self.light is not None else t.light,
            footing=self.footing if self.footing is not None else t.footing,
            water=self.water if self.water is not None else t.water,
            cover=self.cover if self.cover is not None else t.cover,
            height=self.height if self.height is not None else t.height,
        )

    @property
    def is_empty(self) -> bool:
        return self == TerrainChange()

    def describe(self) -> str:
        if self == TerrainChange.open_ground():
            return "open ground"
        parts = []
        if self.light is not None:
            parts.append(self.light.label)
        if self.footing is not None:
            parts.append(self.footing.label)
        if self.water is not None:
            parts.append(self.water.label)
        if self.cover is not None:
            parts.append(self.cover.label)
        if self.height is not None:
            parts.append(f"height {self.height}")
        return ", ".join(parts) or "nothing"


@dataclass(frozen=True)
class TerrainMap:
    """Sparse terrain: ``cells`` holds every hex that is not open ground, sorted by
    hex, at most once. Built from any pairs (later pairs win, open ground dropped)."""

    cells: tuple[tuple[Hex, Terrain], ...] = ()

    def __post_init__(self) -> None:
        merged: dict[Hex, Terrain] = {}
        for h, t in self.cells:
            if not isinstance(h, Hex) or not isinstance(t, Terrain):
                raise RulesError(f"terrain cells pair a Hex with a Terrain, got {(h, t)!r}")
            merged[h] = t
        cells = tuple(sorted((h, t) for h, t in merged.items() if not t.is_open))
        object.__setattr__(self, "cells", cells)

    @functools.cached_property
    def _lookup(self) -> dict[Hex, Terrain]:
        return dict(self.cells)

    def at(self, where: Hex) -> Terrain:
        return self._lookup.get(where, OPEN_GROUND)

    def __getitem__(self, where: Hex) -> Terrain:
        return self.at(where)

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[tuple[Hex, Terrain]]:
        return iter(self.cells)

    def painted(self, hexes: Iterable[Hex], change: TerrainChange) -> TerrainMap:
        updates = [(h, change.apply(self.at(h))) for h in hexes]
        return TerrainMap((*self.cells, *updates))
