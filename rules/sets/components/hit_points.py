"""Health as hit points, for the rulesets that count them (the 3d6, d100 and 2d6
systems): "current/maximum" in the Combatants list, the bar as full as the share
of hit points left."""

from __future__ import annotations

from fractions import Fraction

from rules.battle.model import Combatant
from rules.sets.protocol import Health

HIT_POINTS_HEADING = "HP"


def hit_points_health(current: int, maximum: int, note: str = "") -> Health:
    """``current`` of ``maximum`` hit points (below 0 and an empty bar once down to
    0), with ``note`` after the tooltip's count ("less 1 for a wound")."""
    share = Fraction(max(0, min(current, maximum)), maximum) if maximum > 0 else Fraction(0)
    tooltip = f"{current} of {maximum} hit points" + (f", {note}" if note else "")
    return Health(f"{current}/{maximum}", share, tooltip)


def fighter_hit_points(combatant: Combatant) -> Health:
    """The combatant's hit points of its fighter's maximum (``hit_points_health``)."""
    return hit_points_health(combatant.hp, combatant.fighter.hit_points)
