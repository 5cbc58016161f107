"""Seed 003's answer to the battle's typed view of a fighter's condition
(``rules.battle.condition.FighterCondition``), from the wound tracks of its body
parts and the same modifier functions its attack plan calls.

* **Down** (``rules.sets.seed003.tracks.fighter_condition``): Incapacitated or
  worse in the torso or the head (003 5.872 and the base rules' wound levels), or
  as the GM marked it.
* **Hurt**: the wound levels (003 5.872, 5.874), a quarter a level of the worst
  wound on any part: a Scratch 1/4, Hurt 1/2, Very Hurt 3/4, and Incapacitated in
  the torso or head, out of the fight, 1. A limb past Very Hurt (Useless,
  Crippled, lost) counts as Very Hurt: it does not put the fighter out.
* **Useless limbs** (003 5.873): each arm, hand, leg and foot that is Useless,
  Crippled or lost, by its part's name ("left arm").
* **Penalties** (003 5.874 and our values beside it, ``combat``): the worst wound
  among the parts an attack with each weapon in hand uses, and the off hand when
  the weapon arm is useless (``wound_modifier``, ``off_hand_modifier``); the
  worst wound among the parts a dodge uses (``defense_parts``); off his feet, -1
  to his melee attacks and to his defenses against a blow
  (``off_feet_modifier``); an all-out attack's guard down
  (``maneuver_defense_modifiers``). The ground, the light and the foe are the
  attack's situation.
"""

from __future__ import annotations

from fractions import Fraction

from rules.battle.condition import (
    ABLE,
    UNHURT,
    FighterCondition,
    LimbKind,
    LimbState,
    Penalty,
    Rolls,
    UselessLimb,
    as_penalty,
    hurt_below_down,
    on_attacks_with,
    with_useless_limbs,
)
from rules.battle.hands import wielded_weapons
from rules.battle.model import Combatant
from rules.sets.components.fudge_locations import (
    USELESS_LIMBS,
    BodyTracks,
    PartGroup,
    PartKind,
    PartState,
    WoundLevel,
)
from rules.sets.seed003.combat import (
    Defense,
    attack_side,
    defense_parts,
    fight_parts,
    maneuver_defense_modifiers,
    off_feet_modifier,
    off_hand_modifier,
    wound_modifier,
)
from rules.sets.seed003.tracks import body_of, fighter_condition, wounded_body

_LIMB_KINDS = {
    PartGroup.ARM: LimbKind.ARM,
    PartGroup.HAND: LimbKind.HAND,
    PartGroup.LEG: LimbKind.LEG,
    PartGroup.FOOT: LimbKind.FOOT,
}
_LIMB_STATES = {
    PartState.USELESS: LimbState.USELESS,
    PartState.CRIPPLED: LimbState.CRIPPLED,
    PartState.LOST: LimbState.LOST,
}


def condition_003(c: Combatant) -> FighterCondition:
    """``c``'s condition under seed 003: see the module's docstring."""
    down = fighter_condition(c)
    body = wounded_body(c)
    limbs = () if body is None else useless_limbs(body)
    if down.down is not None:
        return with_useless_limbs(down, limbs)
    hurt = UNHURT if body is None else hurt_003(body)
    penalties = penalties_003(c, body)
    if not (hurt or limbs or penalties):
        return ABLE
    return FighterCondition(able_to_act=True, hurt=hurt, useless_limbs=limbs, penalties=penalties)


def hurt_003(body: BodyTracks) -> Fraction:
    """A quarter a level of the worst wound on any part, a limb's at most Very
    Hurt's; short of 1 (Incapacitated in the torso or head is out)."""
    worst = 0
    for track in body.parts:
        level = track.worst
        severity = len(WoundLevel) + 1 if track.past else 0 if level is None else int(level)
        if track.part.kind is PartKind.LIMB:
            severity = min(severity, WoundLevel.VERY_HURT)
        worst = max(worst, severity)
    return hurt_below_down(Fraction(worst, WoundLevel.INCAPACITATED))


def useless_limbs(body: BodyTracks) -> tuple[UselessLimb, ...]:
    """Each Useless, Crippled or lost limb of ``body``."""
    return tuple(
        UselessLimb(
            part.value,
            _LIMB_KINDS[part.group],
            _LIMB_STATES[body.track(part).state],
            part.value,
            USELESS_LIMBS,
        )
        for part in body.disabled_limbs
    )


def penalties_003(c: Combatant, body: BodyTracks | None) -> tuple[Penalty, ...]:
    """The penalties in force on ``c``'s own rolls: see the module's docstring."""
    out: list[Penalty] = []
    if body is not None:
        by_weapon = {}
        whole = body_of(c)
        for w in wielded_weapons(c):
            side, problem = attack_side(c, w, whole)
            if problem is None:
                parts = fight_parts(c, side, w.two_handed)
                by_weapon[w.key] = (*off_hand_modifier(c, side), *wound_modifier(c, parts))
        out.extend(on_attacks_with(by_weapon))
    for m in off_feet_modifier(c, "attacker"):
        out.extend(as_penalty(m, Rolls.MELEE_ATTACKS))
    if body is not None:
        for m in wound_modifier(c, defense_parts(c, Defense.DODGE)):
            out.extend(as_penalty(m, Rolls.DEFENSES))
    for m in off_feet_modifier(c, "defender"):
        out.extend(as_penalty(m, Rolls.MELEE_DEFENSES))
    for m in maneuver_defense_modifiers(c):
        out.extend(as_penalty(m, Rolls.DEFENSES))
    return tuple(out)
