"""Seed 000's answer to the battle's typed view of a fighter's condition
(``rules.battle.condition.FighterCondition``), built from the same functions its
attack and wounds use, so that the view and the rolls cannot disagree.

* **Down** (``rules.sets.seed000.wounded.fighter_condition``): the dead, the
  unconscious and the paralysed from the neck down.
* **Hurt** (base rules on injury, unconsciousness and death): the hit points lost
  against the lines the base rules draw. From full HP down to 0 HP it rises to
  1/2: at 0 HP or less the fighter rolls HT every turn to stay conscious. Below
  0 it rises by 1/10 for every further multiple of the HP lost, one for each death
  roll at -1x to -4x HP, and reaches 1 at -5x HP, dead outright. Out of the fight
  it is 1.
* **Useless limbs**: each crippled arm, hand, leg or foot of a wound (by the
  wound's location key under the battle's hit location system, and its side, a
  wound without one on the weapon side as ``wounded`` takes it), lost for good
  past Crippled (003 5.873 under "locations-fudge"); and both legs under a spinal
  wound below the neck (note 17), by the keys 000 DEFENDING A SPECIFIC BODY AREA
  gives them.
* **Penalties**: this turn's shock on its attacks (``wounded.shock_modifier``:
  DX and DX-based skills, every weapon skill among them); note 12's crippled hand
  on attacks with the weapon it holds (``wounded.crippled_hand_modifier``); the
  stunned defender's -4 (``wounded.wound_defense_modifiers``); the hit location
  system's lasting wound modifiers (003 5.874 under "locations-fudge";
  ``LocationRules.fighting_modifiers``) on an attack with each weapon in hand
  and on a dodge; its posture's on its melee and ranged attacks
  (``PostureTable.attacker_modifier``); and, off-balance, the doubling of those
  active-defense penalties (``defense.off_balance_modifier``). Modifiers that
  come from the foe, the map or the defense chosen (cumulative defenses, the
  arc, terrain) are the attack plan's.
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
from rules.battle.model import Combatant, Posture, Weapon
from rules.sets.components.fudge_locations import USELESS_LIMBS
from rules.sets.seed000.attack import arms_using, victim_of
from rules.sets.seed000.damage import DEAD_OUTRIGHT_MULTIPLE
from rules.sets.seed000.defense import off_balance_modifier
from rules.sets.seed000.stances import BodyArea, BodySide, weapon_side
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import tracks_of, wounds_of
from rules.sets.seed000.wound_effects import Condition, Limb, Wound
from rules.sets.seed000.wounded import (
    BASE_CRIPPLED_ARM,
    BASE_CRIPPLED_LEG,
    NECK_LEVEL,
    NOTE_12,
    NOTE_17,
    crippled_hand_modifier,
    fighter_condition,
    shock_modifier,
    wound_defense_modifiers,
)

# 0 HP, where the rolls to stay conscious begin, is half way.
AT_ZERO_HP = Fraction(1, 2)
_LIMBS = {
    Limb.ARM: LimbKind.ARM,
    Limb.HAND: LimbKind.HAND,
    Limb.LEG: LimbKind.LEG,
    Limb.FOOT: LimbKind.FOOT,
}
# The rule that takes each crippled limb from the fight (``wounded``).
_CRIPPLED_BY = {
    LimbKind.ARM: BASE_CRIPPLED_ARM,
    LimbKind.HAND: NOTE_12,
    LimbKind.LEG: BASE_CRIPPLED_LEG,
    LimbKind.FOOT: BASE_CRIPPLED_LEG,
}
_LEG_AREAS = {BodySide.LEFT: BodyArea.LEFT_LEG, BodySide.RIGHT: BodyArea.RIGHT_LEG}


def condition_000(c: Combatant, tables: Tables) -> FighterCondition:
    """``c``'s condition under seed 000 with the battle's ``tables`` (its hit
    location system and postures): see the module's docstring."""
    down = fighter_condition(c)
    limbs = useless_limbs(c)
    if down.down is not None:
        return with_useless_limbs(down, limbs)
    hurt = hurt_000(c.hp, c.fighter.hit_points)
    penalties = penalties_000(c, tables)
    if not (hurt or limbs or penalties):
        return ABLE
    return FighterCondition(able_to_act=True, hurt=hurt, useless_limbs=limbs, penalties=penalties)


def hurt_000(hp: int, max_hp: int) -> Fraction:
    """How hurt a fighter still in the fight is at ``hp`` of ``max_hp``: 0 to 1/2
    down to 0 HP, then 1/10 more a multiple of the HP lost below 0, short of 1."""
    max_hp = max(1, max_hp)
    if hp >= max_hp:
        return UNHURT
    if hp >= 0:
        return Fraction(max_hp - hp, 2 * max_hp)
    below = Fraction(-hp, max_hp) * (1 - AT_ZERO_HP) / DEAD_OUTRIGHT_MULTIPLE
    return hurt_below_down(AT_ZERO_HP + below)


def useless_limbs(c: Combatant) -> tuple[UselessLimb, ...]:
    """Each crippled, lost or paralysed arm, hand, leg and foot of ``c``, once."""
    wounds = wounds_of(c)
    if not wounds:
        return ()
    limbs: dict[tuple[LimbKind, BodySide], UselessLimb] = {}
    at: dict[str, tuple[LimbKind, BodySide]] = {}  # a location's limb, for a later loss
    for w in wounds:
        kind = _LIMBS.get(w.crippled) if w.crippled is not None else None
        lost = Condition.LIMB_LOST in w.conditions
        if kind is not None:
            side = _side(c, w)
            key = (kind, side)
            at.setdefault(w.location, key)
            was = limbs.get(key)
            if was is None or (lost and was.state is not LimbState.LOST):
                state = LimbState.LOST if lost else LimbState.CRIPPLED
                citation = USELESS_LIMBS if lost else _CRIPPLED_BY[kind]
                location = w.location if was is None else was.location
                limbs[key] = UselessLimb(
                    location, kind, state, f"{side.value} {kind.value}", citation
                )
        elif lost and w.location in at:  # a useless limb wounded past Crippled
            was = limbs[at[w.location]]
            limbs[at[w.location]] = UselessLimb(
                was.location, was.kind, LimbState.LOST, was.label, USELESS_LIMBS
            )
    for w in wounds:
        if Condition.PARALYZED in w.conditions and w.location not in NECK_LEVEL:
            for side, area in _LEG_AREAS.items():
                limbs.setdefault(
                    (LimbKind.LEG, side),
                    UselessLimb(
                        area.value, LimbKind.LEG, LimbState.PARALYSED, f"{side.value} leg", NOTE_17
                    ),
                )
    return tuple(limbs.values())


def _side(c: Combatant, w: Wound) -> BodySide:
    return weapon_side(c.handedness) if w.side is None else w.side


def penalties_000(c: Combatant, tables: Tables) -> tuple[Penalty, ...]:
    """The penalties in force on ``c``'s own rolls (see the module's docstring)."""
    tracks = tracks_of(c)
    out: list[Penalty] = []
    defenses: list[Penalty] = []
    if tracks.shock:
        out.extend(as_penalty(shock_modifier(c), Rolls.ATTACKS))
    if tracks.wounds:
        weapons = wielded_weapons(c)
        for w in weapons:
            out.extend(as_penalty(crippled_hand_modifier(c, w), Rolls.ATTACKS, w.key))
        out.extend(_lasting_on_attacks(c, tables, weapons))
    defenses.extend(Penalty(m, Rolls.DEFENSES) for m in wound_defense_modifiers(c) if m.value < 0)
    if tracks.wounds:
        dodge = tables.hit_locations.fighting_modifiers(
            victim_of(c), arms=frozenset(), standing=c.posture is Posture.STANDING
        )
        defenses.extend(p for m in dodge for p in as_penalty(m, Rolls.DEFENSES))
    if tracks.off_balance and defenses:
        defenses.append(
            Penalty(off_balance_modifier(sum(p.amount for p in defenses)), Rolls.DEFENSES)
        )
    if c.posture is not Posture.STANDING:
        out.extend(_posture(c, tables))
    return (*out, *defenses) if defenses else tuple(out)


def _lasting_on_attacks(
    c: Combatant, tables: Tables, weapons: tuple[Weapon, ...]
) -> tuple[Penalty, ...]:
    """The hit location system's lasting wound modifiers on an attack with each
    weapon in hand (the arms it uses)."""
    standing = c.posture is Posture.STANDING
    victim = victim_of(c)
    system = tables.hit_locations
    return on_attacks_with(
        {
            w.key: system.fighting_modifiers(victim, arms=arms_using(c, w), standing=standing)
            for w in weapons
        }
    )


def _posture(c: Combatant, tables: Tables) -> tuple[Penalty, ...]:
    """The fighter's posture on its own melee and ranged attacks (one penalty
    when the two are the same)."""
    melee = tables.postures.attacker_modifier(c.posture, melee=True)
    ranged = tables.postures.attacker_modifier(c.posture, melee=False)
    if melee == ranged:
        return as_penalty(melee, Rolls.ATTACKS)
    return (*as_penalty(melee, Rolls.MELEE_ATTACKS), *as_penalty(ranged, Rolls.RANGED_ATTACKS))
