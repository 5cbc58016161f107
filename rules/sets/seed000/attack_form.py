"""The choices of seed 000's attack form, as data: the defense a defender most
likely announces, and every option the attack pane offers, one at a time on a
plain attack. Scripted play, the benchmark and (later) computer-controlled sides
choose among these through the ``Ruleset`` protocol."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from rules.battle.hands import wielded_weapons
from rules.battle.model import Combatant, ParryClass, Weapon, WeaponMode
from rules.core.citation import cite
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier
from rules.sets.seed000.attack import AttackOptions, SubdueMode, WeaponAttack
from rules.sets.seed000.conditions import SelectedCondition
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.locations import aim_choices
from rules.sets.seed000.missiles import ranged_defense_modifiers
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables

# The GM's situational modifier the form offers (000 ADVERSE COMBAT CONDITIONS).
SITUATIONAL = Modifier(-2, "GM's situational modifier", cite("000", "ADVERSE COMBAT CONDITIONS"))


def parrying_weapon(defender: Combatant) -> Weapon | None:
    """The defender's first weapon in hand that can parry (000 PARRY), if any."""
    return next((w for w in wielded_weapons(defender) if w.parry is not ParryClass.NONE), None)


def likely_defense(defender: Combatant, mode: WeaponMode | None = None) -> DefenseChoice:
    """A block with a shield in hand (its grip not lost), else a parry with the
    first weapon that can, else a dodge; against ``mode``, only a defense it
    allows (000 MISSILE AND THROWN WEAPONS: no parry of an arrow without Missile
    Parrying, no block of a bullet), a dodge always."""
    candidates: list[DefenseChoice] = []
    if defender.fighter.shield is not None and defender.shield_ready:
        candidates.append(DefenseChoice(DefenseKind.BLOCK))
    parrying = parrying_weapon(defender)
    if parrying is not None:
        candidates.append(DefenseChoice(DefenseKind.PARRY, parrying.key))
    for choice in candidates:
        try:
            if mode is not None:
                ranged_defense_modifiers(defender, choice, mode)
        except IllegalAttackError:
            continue
        return choice
    return DefenseChoice(DefenseKind.DODGE)


def attack_form_options(
    weapon: Weapon, mode: WeaponMode, attacker: Combatant, defender: Combatant, tables: Tables
) -> Iterator[AttackOptions]:
    """The attack pane's options one at a time, each on the plain attack (a dodge):
    each defense it offers, an aimed blow, a random location, from below and from
    above, a situational modifier, an adverse condition, striking at the defender's
    weapon to break or disarm it, each way of subduing, a chink in armour where
    the system and the damage type allow one, an acrobatic dodge, an all-out
    defense and an off-hand attack. The aimed blow is at the first location of
    the active system that the attack may aim at."""
    dodge = (DefenseChoice(DefenseKind.DODGE),)
    plain = AttackOptions(weapon_key=weapon.key, mode=mode.name, defenses=dodge)
    yield plain
    yield replace(plain, defenses=())
    if defender.fighter.shield is not None:
        yield replace(plain, defenses=(DefenseChoice(DefenseKind.BLOCK),))
    parrying = parrying_weapon(defender)
    if parrying is not None:
        yield replace(plain, defenses=(DefenseChoice(DefenseKind.PARRY, parrying.key),))
        yield replace(
            plain, defenses=(DefenseChoice(DefenseKind.PARRY, parrying.key),), all_out_defense=True
        )
    system = tables.hit_locations
    choices = aim_choices(
        system,
        defender,
        from_front=True,
        melee=not mode.is_ranged,
        damage_type=mode.damage.type,
        swung=mode.is_swing,
    )
    aimed = next((c.key for c in choices if c.key is not None and c.refusal is None), None)
    if aimed is not None:
        yield replace(plain, location=aimed)
        if system.chink_problem(mode.damage.type) is None:
            yield replace(plain, location=aimed, chink=True)
    yield replace(plain, random_location=True)
    yield replace(plain, from_below=True)
    yield replace(plain, from_above=True)
    yield replace(plain, extra_modifiers=(SITUATIONAL,))
    conditions = tables.adverse_conditions.conditions
    if conditions:
        yield replace(plain, conditions=(SelectedCondition(conditions[0].key),))
    if defender.fighter.weapons:
        struck = defender.fighter.weapons[0].key
        for weapon_attack in WeaponAttack:
            yield replace(plain, target_weapon_key=struck, weapon_attack=weapon_attack)
    st = sheet_of(attacker).attributes.st
    for subdue in SubdueMode:
        pulled = max(1, st - 3) if subdue is SubdueMode.PULLED else None
        yield replace(plain, subdue=subdue, pulled_st=pulled)
    yield replace(plain, acrobatic_dodge=True)
    yield replace(plain, off_hand=True)
