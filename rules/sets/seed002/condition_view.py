"""Seed 002's answer to the battle's typed view of a fighter's condition
(``rules.battle.condition.FighterCondition``), from the same tracks and tables
its attack reads.

* **Down**: the dead (0 HP or less), the unconscious (a stopped heart, 002 Major
  wound 7, or the GM's edit) and one paralysed below the neck (002 Major wound 8).
* **Hurt** (base rules, one pool of hit points, death at 0): the share of the hit
  points lost, so 1 at 0 HP, where the fighter dies. Armour by location (the
  option "locations-d20") changes what a blow takes, not the pool, so it reads
  the same.
* **Useless limbs**: each useless arm and leg of major wounds 3, 4, 9 and 10,
  by the key the d20 hit location table names it with ("left-arm"), and the legs
  (below the torso) or all four limbs (below the neck) of a broken spine (major
  wound 8), paralysed.
* **Penalties**: broken ribs on every roll (major wound 5,
  ``situation.wound_modifiers``); lying down, the close combat table's "prone"
  on its close combat attacks and its defenses and the ranged table's "attacker
  prone" on its shots and throws (``situation.lying_modifiers``). Rows that come
  from the ground, the light or the foe are the attack's situation.
"""

from __future__ import annotations

import functools
from fractions import Fraction

from rules.battle.condition import (
    ABLE,
    UNHURT,
    Down,
    FighterCondition,
    LimbKind,
    LimbState,
    Penalty,
    Rolls,
    UselessLimb,
    down_as,
    hurt_below_down,
    with_useless_limbs,
)
from rules.battle.model import Combatant, Status
from rules.core.citation import Citation
from rules.sets.seed002.attack import BASE_DEATH
from rules.sets.seed002.situation import lying_modifiers, wound_modifiers
from rules.sets.seed002.tables import BASE, WoundRow, major_wounds
from rules.sets.seed002.tracks import tracks_of
from rules.sets.seed002.turn import HEART
from rules.sets.seed002.wounds import SPINE

# Whom the GM marks unconscious (no row of the seed's does but the heart's).
BASE_UNCONSCIOUS = Citation(BASE, "Unconsciousness: no actions until the character comes to")
SIDES = ("left", "right")
# A broken spine's paralysis, by where it is: the limbs below it.
_PARALYSED = {
    "torso": (LimbKind.LEG,),
    "neck": (LimbKind.ARM, LimbKind.LEG),
}


def down_002(c: Combatant) -> FighterCondition:
    """Out of the fight, or ``ABLE``: see the module's docstring."""
    if c.status is Status.DEAD:
        return down_as(Down.DEAD, BASE_DEATH)
    if c.status is Status.UNCONSCIOUS:
        heart = "heart" in tracks_of(c).wounds
        return down_as(Down.UNCONSCIOUS, HEART if heart else BASE_UNCONSCIOUS)
    if tracks_of(c).paralysis == "neck":
        return down_as(Down.PARALYSED, SPINE)
    return ABLE


def condition_002(c: Combatant) -> FighterCondition:
    """``c``'s condition under seed 002: see the module's docstring."""
    down = down_002(c)
    limbs = useless_limbs(c)
    if down.down is not None:
        return with_useless_limbs(down, limbs)
    hurt = hurt_002(c.hp, c.fighter.hit_points)
    penalties = penalties_002(c)
    if not (hurt or limbs or penalties):
        return ABLE
    return FighterCondition(able_to_act=True, hurt=hurt, useless_limbs=limbs, penalties=penalties)


def hurt_002(hp: int, max_hp: int) -> Fraction:
    """The share of ``max_hp`` lost at ``hp``, short of 1 (which is death)."""
    max_hp = max(1, max_hp)
    if hp >= max_hp:
        return UNHURT
    return hurt_below_down(Fraction(max_hp - hp, max_hp))


def useless_limbs(c: Combatant) -> tuple[UselessLimb, ...]:
    """The useless arms and legs of its major wounds, then those a broken spine
    paralyses (a limb once)."""
    tracks = tracks_of(c)
    if not (tracks.useless_arms or tracks.useless_legs or tracks.paralysis):
        return ()
    limbs: dict[tuple[LimbKind, str], UselessLimb] = {}
    for kind, sides in ((LimbKind.ARM, tracks.useless_arms), (LimbKind.LEG, tracks.useless_legs)):
        for side in SIDES:
            if side in sides:
                key = f"{side}-{kind.value}"
                citation = _wound_rows()[key].citation
                limbs[(kind, side)] = UselessLimb(
                    key, kind, LimbState.USELESS, f"{side} {kind.value}", citation
                )
    for kind in _PARALYSED.get(tracks.paralysis, ()):
        for side in SIDES:
            limbs.setdefault(
                (kind, side),
                UselessLimb(
                    f"{side}-{kind.value}",
                    kind,
                    LimbState.PARALYSED,
                    f"{side} {kind.value}",
                    SPINE,
                ),
            )
    return tuple(limbs.values())


@functools.cache
def _wound_rows() -> dict[str, WoundRow]:
    return {row.key: row for row in major_wounds()}


def penalties_002(c: Combatant) -> tuple[Penalty, ...]:
    """The penalties in force on ``c``'s own rolls: see the module's docstring."""
    out = [Penalty(m, Rolls.ALL) for m in wound_modifiers(c) if m.value < 0]
    lying = lying_modifiers(c)
    if lying is not None:
        close, ranged = lying
        if close.value < 0:
            out.append(Penalty(close, Rolls.MELEE_ATTACKS | Rolls.DEFENSES))
        if ranged.value < 0:
            out.append(Penalty(ranged, Rolls.RANGED_ATTACKS))
    return tuple(out)
