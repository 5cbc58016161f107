"""Terrain of the battle map: the facts a ruleset reads, not what they do.

Each hex has a ``Terrain``: light, footing, water, cover and height. Most hexes are
open ground (daylight, good footing, dry, no cover, level 0), so the map stores
only the others, in a ``TerrainMap`` (sparse, frozen and comparable, so a battle
state with terrain still compares equal after a replay). The GM paints terrain
with ``rules.battle.commands.PaintTerrain`` and a ``TerrainChange``.

The values are what a GM sees at the table, in steps fine enough for every
system to read its own levels from them:

* **Light**: a darkness degree from 0 (daylight) through twilight (1) and dim
  light (2 to 8) to nearly dark (9) and total darkness (10). A ruleset with
  fewer levels of dim light and darkness groups the degrees.
* **Footing**: good, bad, very bad or treacherous.
* **Water**: dry, ankle-, knee-, thigh-, hip-, waist- or chest-deep, or deep water
  in which one swims.
* **Cover**: none, partial (a low wall, a hedge, a table: the legs are hidden) or
  full (a battlement, an arrow slit: only head and arms show), named by the body
  areas it hides.
* **Height** in whole levels above the map's ground level.

Each value's ``label`` names the fact only. What terrain does to an attack, and
how a pane names it in those terms, is the ruleset's (``BattlefieldRules.terrain_label``;
seed 000: ``rules.sets.seed000.terrain_penalties`` and ``rules.sets.seed000.situation``).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from hexmap import Hex
from rules.core.errors import RulesError

MAX_DARKNESS = 10


class Light(Enum):
    """Light in a hex, by its darkness degree (``darkness``): 0 daylight,
    1 twilight, 2 to 8 dim light, 9 nearly dark, 10 total darkness."""

    DAYLIGHT = 0
    TWILIGHT = 1
    DIM_2 = 2
    DIM_3 = 3
    DIM_4 = 4
    DIM_5 = 5
    DIM_6 = 6
    DIM_7 = 7
    DIM_8 = 8
    NEARLY_DARK = 9
    TOTAL_DARKNESS = MAX_DARKNESS

    @property
    def darkness(self) -> int:
        return int(self.value)

    @classmethod
    def of_darkness(cls, darkness: int) -> Light:
        try:
            return cls(darkness)
        except ValueError:
            raise RulesError(
                f"darkness runs from 0 (daylight) to {MAX_DARKNESS} (total darkness), "
                f"got {darkness!r}"
            ) from None

    @property
    def is_dim(self) -> bool:
        """Darker than twilight, not yet nearly dark (degrees 2 to 8)."""
        return Light.TWILIGHT.darkness < self.darkness < Light.NEARLY_DARK.darkness

    @property
    def label(self) -> str:
        if self.is_dim:
            return f"dim light (darkness {self.darkness} of {MAX_DARKNESS})"
        return self.name.lower().replace("_", " ")


class Footing(Enum):
    """Footing in a hex, from good to treacherous."""

    GOOD = "good"
    BAD = "bad"
    VERY_BAD = "very bad"
    TREACHEROUS = "treacherous"

    @property
    def label(self) -> str:
        return f"{self.value} footing"


class WaterDepth(Enum):
    """Standing water, by how deep it reaches on a standing fighter; DEEP is over
    the chest: the fighter swims."""

    NONE = "none"
    ANKLE = "ankle"
    KNEE = "knee"
    THIGH = "thigh"
    HIP = "hip"
    WAIST = "waist"
    CHEST = "chest"
    DEEP = "deep"

    @property
    def swimming(self) -> bool:
        return self is WaterDepth.DEEP

    @property
    def label(self) -> str:
        if self is WaterDepth.NONE:
            return "dry"
        if self is WaterDepth.DEEP:
            return "deep water, swimming"
        return f"{self.value}-deep water"


class Cover(Enum):
    """Cover in a hex, by the body areas it hides (the ``leg`` and ``torso`` areas
    of a hit-location table)."""

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

# A terrain property's value that is not a number (the height is one).
TerrainFact = Light | Footing | WaterDepth | Cover
# How a terrain fact is named: ``fact_label``, or a ruleset's ``terrain_label``.
TerrainLabel = Callable[[TerrainFact], str]


def fact_label(fact: TerrainFact) -> str:
    """The fact's own name, with nothing a ruleset makes of it."""
    return fact.label


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

    def describe(self, label: TerrainLabel = fact_label) -> str:
        """What differs from open ground, each fact named by ``label``."""
        parts = [
            label(self.light) if self.light is not Light.DAYLIGHT else "",
            label(self.footing) if self.footing is not Footing.GOOD else "",
            label(self.water) if self.water is not WaterDepth.NONE else "",
            label(self.cover) if self.cover is not Cover.NONE else "",
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

    def describe(self, label: TerrainLabel = fact_label) -> str:
        """What the stroke sets, each fact named by ``label``."""
        if self == TerrainChange.open_ground():
            return "open ground"
        facts = (self.light, self.footing, self.water, self.cover)
        parts = [label(fact) for fact in facts if fact is not None]
        if self.height is not None:
            parts.append(f"height {self.height}")
        return ", ".join(parts) or "nothing"


# A stroke of fewer cells than a map's cells over this is put in place cell by
# cell (``TerrainMap._with_few``); a larger one sorts the map's cells again.
_FEW_CELLS_PER_MAP = 64


def _by_hex(cell: tuple[Hex, Terrain]) -> tuple[int, int]:
    return (cell[0].q, cell[0].r)


def _sorted_cells(merged: dict[Hex, Terrain]) -> tuple[tuple[Hex, Terrain], ...]:
    """The cells that are not open ground, sorted by hex; the open ones are taken
    out of ``merged``, which is then the map's look-up. A map painted all over
    holds a few kinds of terrain: each kind (each object) is asked once whether
    it is open, and the hexes are sorted by their numbers, not compared as
    objects (a 300 x 300 map in a few hundredths of a second)."""
    open_by_id: dict[int, bool] = {}
    opened = []
    for h, t in merged.items():
        is_open = open_by_id.get(id(t))
        if is_open is None:
            is_open = open_by_id[id(t)] = t.is_open
        if is_open:
            opened.append(h)
    for h in opened:
        del merged[h]
    return tuple(sorted(merged.items(), key=_by_hex))


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
        object.__setattr__(self, "cells", _sorted_cells(merged))
        self.__dict__["_lookup"] = merged

    @classmethod
    def _of_checked(cls, merged: dict[Hex, Terrain]) -> TerrainMap:
        """The map of ``merged``, whose every cell pairs a Hex with a Terrain
        already (a painted map): not checked again."""
        made = object.__new__(cls)
        object.__setattr__(made, "cells", _sorted_cells(merged))
        made.__dict__["_lookup"] = merged
        return made

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
        # A stroke over the whole map (90,000 hexes) paints a few kinds of terrain:
        # each kind's outcome is worked out once, a hex painted twice is painted
        # once, and each hex is hashed as few times as can be (a Hex's hash is
        # Python's): dicts built from dicts reuse the hashes they hold.
        stroke = dict.fromkeys(hexes)
        if not all(issubclass(kind, Hex) for kind in set(map(type, stroke))):
            wrong = next(h for h in stroke if not isinstance(h, Hex))
            painted = change.apply(OPEN_GROUND)
            raise RulesError(f"terrain cells pair a Hex with a Terrain, got {(wrong, painted)!r}")
        lookup = self._lookup
        if len(lookup) < len(stroke):
            repainted = [(h, t) for h, t in lookup.items() if h in stroke]
        else:
            repainted = [(h, t) for h in stroke if (t := lookup.get(h)) is not None]
        outcome = {id(OPEN_GROUND): change.apply(OPEN_GROUND)}  # by the terrain object
        updates = dict.fromkeys(stroke, outcome[id(OPEN_GROUND)])  # as if all were open
        for h, before in repainted:
            after = outcome.get(id(before))
            if after is None:
                after = outcome[id(before)] = change.apply(before)
            updates[h] = after
        merged = dict(lookup)
        merged.update(updates)
        if len(updates) * _FEW_CELLS_PER_MAP >= len(self.cells):
            return TerrainMap._of_checked(merged)
        return self._with_few(updates, merged)

    def _with_few(self, updates: dict[Hex, Terrain], merged: dict[Hex, Terrain]) -> TerrainMap:
        """This map with a few cells painted (``updates``; ``merged`` its
        look-up with them), each put in its place in the sorted cells rather
        than every cell sorted again (a small stroke on a map painted all over)."""
        cells = list(self.cells)
        open_by_id: dict[int, bool] = {}
        for h, after in updates.items():
            is_open = open_by_id.get(id(after))
            if is_open is None:
                is_open = open_by_id[id(after)] = after.is_open
            key = (h.q, h.r)
            i = bisect.bisect_left(cells, key, key=_by_hex)
            if i < len(cells) and _by_hex(cells[i]) == key:  # painted before
                if is_open:
                    del cells[i]
                else:
                    cells[i] = (cells[i][0], after)  # the map's own hex, as a merge keeps
            elif not is_open:
                cells.insert(i, (h, after))
            if is_open:
                del merged[h]
        made = object.__new__(TerrainMap)
        object.__setattr__(made, "cells", tuple(cells))
        made.__dict__["_lookup"] = merged
        return made
