"""Set-ups for striking at a weapon on the map, shared by the tests of the
weapon-strike rules and of the attack through a battle."""

from __future__ import annotations

from collections.abc import Callable

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import attacker_reach, weapon_positions
from rules.battle.model import Combatant
from rules.battle.state import BattleState

Make = Callable[..., Combatant]


def swordsman_beside_a_spear(make: Make, options: tuple[str, ...] = ()) -> BattleState:
    """A swordsman ("a") who reaches both the spearman ("d", at (5, 6) facing N)
    and a hex of his spear."""
    d = make("spearman", Hex(5, 6), Facing.N, id="d")
    spear_hexes = set(weapon_positions(d)["long-spear"])
    a = next(
        c
        for h in (d.hex + f.vector for f in Facing)
        for facing in Facing
        for c in (make("sword-and-shield", h, facing, id="a"),)
        if h not in spear_hexes
        and d.hex in attacker_reach(c, "broadsword")
        and spear_hexes & attacker_reach(c, "broadsword")
    )
    return BattleState(HexGrid(10, 10), (a, d), ruleset_options=options)
