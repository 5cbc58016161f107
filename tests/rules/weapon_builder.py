"""Test weapons written the way the rules print them, shared by the rules tests.

Each test module keeps its own weapons (their numbers differ with what the module
checks); only the way of writing one down is shared here.
"""

from __future__ import annotations

from hexmap import Reach
from rules.battle.model import ParryClass, Weapon, WeaponKind, WeaponMode
from rules.sets.seed000.breakage import parse_damage


def build_weapon(
    kind: WeaponKind,
    name: str,
    weight: float,
    *modes: tuple[str, str, str],
    skill: str = "Broadsword",
    parry: ParryClass = ParryClass.TWO_THIRDS,
    **changes: object,
) -> Weapon:
    """A weapon from (mode name, "sw+1 cut", reach text) triples; the key is the
    name in lower case with dashes; extra keywords set other ``Weapon`` fields."""
    built = tuple(WeaponMode(n, parse_damage(d), Reach.parse(r)) for n, d, r in modes)
    return Weapon(
        key=name.lower().replace(" ", "-"),
        name=name,
        kind=kind,
        skill=skill,
        modes=built,
        parry=parry,
        weight=weight,
        **changes,  # type: ignore[arg-type]
    )
