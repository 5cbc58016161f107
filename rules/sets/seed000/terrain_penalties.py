"""Seed 000's penalties for the terrain facts of the map (000 ADVERSE COMBAT
CONDITIONS), and the names the panes give the facts in a seed 000 battle.

The condition catalog (``assets/rulesets/000/adverse_conditions.json``) gives
ranges: bad light -1 at twilight down to -9 when it is nearly dark, total
darkness -10, bad footing -1 or worse, standing in water -1 ankle-deep down to -6
chest-deep, swimming -6. The tables below pick the value of each painted fact
inside those ranges: one point of penalty for each degree of darkness, one for
each grade of footing, and the depths between ankle and chest stepped linearly.
``rules.sets.seed000.situation`` turns them into catalog picks and modifiers.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.battle.terrain import Footing, Light, TerrainFact, WaterDepth
from rules.core.citation import cite

CONDITIONS_000 = cite("000", "ADVERSE COMBAT CONDITIONS")

LIGHT_PENALTIES: Mapping[Light, int] = {
    Light.DAYLIGHT: 0,
    Light.TWILIGHT: -1,
    Light.DIM_2: -2,
    Light.DIM_3: -3,
    Light.DIM_4: -4,
    Light.DIM_5: -5,
    Light.DIM_6: -6,
    Light.DIM_7: -7,
    Light.DIM_8: -8,
    Light.NEARLY_DARK: -9,
    Light.TOTAL_DARKNESS: -10,
}

FOOTING_PENALTIES: Mapping[Footing, int] = {
    Footing.GOOD: 0,
    Footing.BAD: -1,
    Footing.VERY_BAD: -2,
    Footing.TREACHEROUS: -3,
}

# DEEP is the catalog's "swimming", the others its "in_water".
WATER_PENALTIES: Mapping[WaterDepth, int] = {
    WaterDepth.NONE: 0,
    WaterDepth.ANKLE: -1,
    WaterDepth.KNEE: -2,
    WaterDepth.THIGH: -3,
    WaterDepth.HIP: -4,
    WaterDepth.WAIST: -5,
    WaterDepth.CHEST: -6,
    WaterDepth.DEEP: -6,
}


def light_penalty(light: Light) -> int:
    """The hit modifier of the light at the target's hex."""
    return LIGHT_PENALTIES[light]


def footing_penalty(footing: Footing) -> int:
    """The hit modifier of the footing at the attacker's hex."""
    return FOOTING_PENALTIES[footing]


def water_penalty(water: WaterDepth) -> int:
    """The hit modifier of the water the attacker stands (or swims) in."""
    return WATER_PENALTIES[water]


def terrain_penalty(fact: TerrainFact) -> int:
    """The hit modifier a terrain fact gives where it counts; cover gives none
    (it hides body areas from a random hit location instead)."""
    if isinstance(fact, Light):
        return light_penalty(fact)
    if isinstance(fact, Footing):
        return footing_penalty(fact)
    if isinstance(fact, WaterDepth):
        return water_penalty(fact)
    return 0


def terrain_label(fact: TerrainFact) -> str:
    """A terrain fact as a seed 000 battle names it: with its penalty, and dim
    light by the seed's name for it ("bad light (-4)", "knee-deep water (-2)")."""
    penalty = terrain_penalty(fact)
    if not penalty:
        return fact.label
    if isinstance(fact, Light) and fact.is_dim:
        return f"bad light ({penalty})"
    return f"{fact.label} ({penalty})"
