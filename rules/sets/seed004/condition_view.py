"""Seed 004's answer to the battle's typed view of a fighter's condition
(``rules.battle.condition.FighterCondition``), from its hit points, wounds and
the tables and constants its attack reads.

* **Down** (base rules, injury and death): the dead (at or below minus the
  maximum hit points) and the unconscious (a failed consciousness check below 0).
* **Hurt**: the way from the sheet's hit points down to the death line at minus
  the maximum hit points, which each wound raises by one (the maximum is the
  sheet's less one a wound): (sheet HP - HP) / (sheet HP + maximum). 0 HP, where
  the consciousness checks begin, is about half way; 1 is dead. A wound raises it
  further, as it brings the line nearer.
* **Useless limbs**: none; seed 004's zones and wounds disable no limb.
* **Penalties**: each further dodge or block since the fighter's own turn began,
  at a cumulative -2 (``attack.EXTRA_DEFENSE_PENALTY``); and a shooter's stance
  where it raises a shot's difficulty (lying prone or crawling, +2 there, -2 here:
  ``DifficultyTable.stance``). The target's size, movement and the light are the
  attack's situation.
"""

from __future__ import annotations

from fractions import Fraction

from rules.battle.condition import (
    ABLE,
    UNHURT,
    Down,
    FighterCondition,
    Penalty,
    Rolls,
    down_as,
    hurt_below_down,
)
from rules.battle.model import Combatant, Status
from rules.core.modifiers import Modifier
from rules.sets.seed004.attack import further_defense
from rules.sets.seed004.injury import HIT_POINTS
from rules.sets.seed004.tables import STANCE, difficulty_table
from rules.sets.seed004.tracks import maximum_hit_points, tracks_of


def down_004(c: Combatant) -> FighterCondition:
    """Out of the fight, or ``ABLE``: the dead and the unconscious."""
    if c.status is Status.DEAD:
        return down_as(Down.DEAD, HIT_POINTS)
    if c.status is Status.UNCONSCIOUS:
        return down_as(Down.UNCONSCIOUS, HIT_POINTS)
    return ABLE


def condition_004(c: Combatant) -> FighterCondition:
    """``c``'s condition under seed 004: see the module's docstring."""
    down = down_004(c)
    if down.down is not None:
        return down
    hurt = hurt_004(c)
    penalties = penalties_004(c)
    if not (hurt or penalties):
        return ABLE
    return FighterCondition(able_to_act=True, hurt=hurt, penalties=penalties)


def hurt_004(c: Combatant) -> Fraction:
    """(sheet HP - HP) / (sheet HP + maximum HP), short of 1."""
    sheet = c.fighter.hit_points
    lost = sheet - c.hp
    wounds = tracks_of(c).wounds
    if lost <= 0 and not wounds:
        return UNHURT
    line = max(1, sheet + maximum_hit_points(c))
    return hurt_below_down(Fraction(max(0, lost), line))


def penalties_004(c: Combatant) -> tuple[Penalty, ...]:
    """The penalties in force on ``c``'s own rolls: see the module's docstring."""
    out: list[Penalty] = []
    earlier = tracks_of(c).defenses
    if earlier:
        out.append(Penalty(further_defense(earlier), Rolls.DEFENSES))
    stance = difficulty_table().stance[c.posture]
    if stance > 0:
        posture = c.posture.value.replace("_", " ")
        shoots = f"shoots {posture}: +{stance} to the difficulty"
        out.append(Penalty(Modifier(-stance, shoots, STANCE), Rolls.RANGED_ATTACKS))
    return tuple(out)
