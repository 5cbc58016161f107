"""A battle's "duel": its first fighter of each of its first two sides, the other
fighters taken off the map (``RemoveCombatant``, as the GM would), the rest of the
battle as it stands. The demo duel of issue 26 is seed 000's demo battle's duel."""

from __future__ import annotations

from rules.battle.battle import Battle
from rules.battle.roster import RemoveCombatant


def duel(battle: Battle) -> Battle:
    """``battle`` with only the first fighter of each of its first two sides left
    (in the file's order); ``ValueError`` when it has fighters of fewer than two."""
    firsts: dict[object, str] = {}
    for c in battle.state.combatants:
        firsts.setdefault(c.side, c.id)
    if len(firsts) < 2:
        raise ValueError("a duel needs fighters of two sides")
    kept = set(list(firsts.values())[:2])
    for c in battle.state.combatants:
        if c.id not in kept:
            battle.execute(RemoveCombatant(c.id))
    return battle
