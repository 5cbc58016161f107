"""A seed 004 attack's choices, the defender's answer, and its plan
(``plan_attack``: the checks' bonuses and the difficulty with its itemised, cited
modifiers, before any die). ``rules.sets.seed004.attack_steps`` rolls it
(``decide``), applies it and tells it; ``rules.sets.seed004.injury`` is what a blow
that lands does.

The sequence (docs/ruleset-004.md):

1. The attack: 2d6 + Dexterity modifier + Melee Combat rank against the
   difficulty: base 5, the target's size at the Close column of the base
   rules' size table (its posture makes it smaller; aiming one step smaller
   for a body part, two for a vital organ, 004 Zones), darkness, and the GM's
   adjustment. Below the difficulty it misses.
2. The defense (base rules, opposed), the defender's answer: a dodge (2d6 +
   Dexterity modifier + Dodge rank) that beats the attack's total avoids it; a
   block (2d6 + Strength and Constitution modifiers) that beats it halves the
   damage. Each defense after the first since the defender's own turn began is at
   a cumulative -2. A surprise attack (the GM's flag, or from the defender's rear
   hex) and a fighter who cannot defend allow none.
3. The zone: the aimed zone, or 2d6 on the zone table (004 Zones).
4. The damage: the weapon's dice + Strength modifier (at least 0), halved by a
   block, less the zone's armor, then the zone's effect (multiplier, the human
   vital-organ rules: ``rules.sets.components.zones_2d6``).
5. Injury (base rules, Injury and Death): hit points at or below minus the
   maximum kill; a survivor with damage after armor makes a wound check (2d6 +
   Constitution modifier against that damage, before the multiplier), a
   failure is a wound (maximum HP -1; every fifth rolls a wounding effect,
   ``rules.sets.seed004.wound_effects``); below 0 HP a consciousness check (2d6 +
   Constitution and Strength modifiers against the HP below zero) or
   unconscious.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import ClassVar

from hexmap import Arc, arc_of, in_front_arc, in_reach
from rules.battle.attack_choices import AnswerInChoices, AttackChoices, DefenderAnswer
from rules.battle.attack_steps import Needs, PlannedRoll
from rules.battle.hands import hand_problem
from rules.battle.model import Combatant, DamageType, Delivery, Status, Weapon, WeaponMode
from rules.battle.state import BattleState
from rules.battle.turns import hexes_moved
from rules.core.citation import Citation, cite
from rules.core.dice import Dice
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier
from rules.sets.components.zones_2d6 import Blow, Size, Zone, aim_problem, aimed_size
from rules.sets.seed004.sheet import DODGE_SKILL, MELEE_SKILL, sheet_of
from rules.sets.seed004.tables import (
    BASE_DIFFICULTY,
    ENVIRONMENT,
    MOVEMENT,
    RANGE_TABLE,
    SIZE_TABLE,
    STANCE,
    STANCE_SIZE,
    DifficultyTable,
    Movement,
    RangeBand,
    difficulty_table,
    range_band,
)
from rules.sets.seed004.tracks import tracks_of

MELEE = Citation("base-004", "melee combat: Melee Combat against Dodge")
SHOT = Citation("base-004", "ranged combat: a shot against the difficulty, no dodge or block")
BLOCK = Citation("base-004", "melee combat: a block halves the damage")
SURPRISE = Citation("base-004", "melee combat: a surprise attack allows no dodge or block")
EXTRA_DEFENSE = Citation("base-004", "melee combat: each further dodge at a cumulative -2")
STRENGTH_DAMAGE = Citation("base-004", "abilities: Strength adds to melee damage")
DAMAGE = cite("004", "Damage")
AIMING = cite("004", "Zones: aiming for a specific zone")
GM_ADJUSTMENT = Citation("base-004", "checks: the GM adjusts the difficulty")

EXTRA_DEFENSE_PENALTY = -2

# The neutral damage types as seed 004 names them (004 Damage).
BLOWS: Mapping[DamageType, Blow] = {
    DamageType.PIERCING: Blow.PIERCING,
    DamageType.SMALL_PIERCING: Blow.PIERCING,
    DamageType.LARGE_PIERCING: Blow.PIERCING,
    DamageType.HUGE_PIERCING: Blow.PIERCING,
    DamageType.IMPALING: Blow.PIERCING,
    DamageType.BULLET: Blow.PIERCING,
    DamageType.CUTTING: Blow.SLASHING,
    DamageType.CRUSHING: Blow.BLUDGEONING,
}


# Other forms of damage (004 Damage: fire, acid ...), by name; the vital-organ
# rules treat them all as ``Blow.OTHER``.
OTHER_DAMAGE: Mapping[DamageType, str] = {
    DamageType.BURNING: "fire",
    DamageType.CORROSION: "acid",
    DamageType.TOXIC: "toxic",
    DamageType.FATIGUE: "fatigue",
}


def blow_of(mode: WeaponMode) -> Blow:
    return BLOWS.get(mode.damage.type, Blow.OTHER)


def damage_label(mode: WeaponMode) -> str:
    """The mode's damage type as seed 004 names it: piercing, slashing,
    bludgeoning, or another form (fire, acid ...)."""
    blow = blow_of(mode)
    return OTHER_DAMAGE.get(mode.damage.type, blow.label) if blow is Blow.OTHER else blow.label


class Defense(Enum):
    DODGE = "dodge"
    BLOCK = "block"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Seed004Attack(AttackChoices):
    """The attacker's choices (``Attack.choices``): the weapon and mode (the mode
    carries the damage type: a knife's stab or slash), the zone aimed at (None:
    a random zone), the GM's difficulty adjustment, whether the vital organs lie
    exposed, and a surprise attack."""

    weapon_key: str
    mode: str
    zone: Zone | None = None
    adjustment: int = 0
    exposed: bool = False
    surprise: bool = False


@dataclass(frozen=True, slots=True)
class Seed004Answer(DefenderAnswer):
    """The defender's answer (``Attack.answer``): its defense, a dodge unless it
    says otherwise. A defender who can make none (surprised, fallen, shot at)
    makes none, whatever it answered. Battle files of schema 2 kept the defense in
    the attacker's choices."""

    defense: Defense = Defense.DODGE

    was_in_choices: ClassVar[AnswerInChoices | None] = AnswerInChoices(
        "Seed004Attack", ("defense",), before_schema=3
    )


NO_DEFENSE = Seed004Answer(Defense.NONE)
ANSWERS = (Seed004Answer(Defense.DODGE), Seed004Answer(Defense.BLOCK), NO_DEFENSE)


@dataclass(frozen=True, slots=True)
class AttackPlan:
    """The attack before any die (``rules.battle.attack_steps.PlannedAttack``): who
    and with what, the attack's bonus and the difficulty with its modifiers, the
    bonus of each defense the defender may answer with (``defense_block``: why it
    can make none, "" if it can) and the defenses it made since its turn began,
    the damage, and the defender as the attack finds it (its injury is rolled on
    a copy)."""

    attacker_id: str
    attacker_name: str
    defender_id: str
    defender_name: str
    defender: Combatant
    weapon: Weapon
    mode: WeaponMode
    blow: Blow
    zone: Zone | None
    attack_bonus: int
    difficulty: int
    modifiers: tuple[Modifier, ...]
    defense_block: str
    dodge_bonus: int
    block_bonus: int
    earlier_defenses: int
    damage_dice: Dice
    strength: int
    exposed: bool
    skill: str = MELEE_SKILL  # the skill whose rank the attack adds

    @property
    def attacker_modifiers(self) -> tuple[Modifier, ...]:
        """The difficulty's modifiers (seed 004's attack reaches a difficulty)."""
        return self.modifiers

    @property
    def defender_modifiers(self) -> tuple[Modifier, ...]:
        """The cumulative -2 of each defense made since the defender's turn began."""
        return (further_defense(self.earlier_defenses),) if self.earlier_defenses else ()

    @property
    def rolls(self) -> tuple[PlannedRoll, ...]:
        """The attack against the difficulty, then each defense the defender may
        make, which must beat the attack's total."""
        attack = PlannedRoll(
            self.attacker_id,
            "attack",
            f"2d6{self.attack_bonus:+d}",
            Needs.AT_LEAST,
            self.difficulty,
        )
        defenses = tuple(
            PlannedRoll(self.defender_id, d.value, f"2d6{self.defense_bonus(d):+d}", Needs.ABOVE)
            for d in (Defense.DODGE, Defense.BLOCK)
            if not self.defense_block
        )
        return (attack, *defenses)

    def defense_made(self, answer: Seed004Answer) -> Defense:
        """The defense rolled against ``answer``: none when the defender can make none."""
        return Defense.NONE if self.defense_block else answer.defense

    def defense_bonus(self, defense: Defense) -> int:
        if defense is Defense.DODGE:
            return self.dodge_bonus
        if defense is Defense.BLOCK:
            return self.block_bonus
        return 0

    def no_defense_note(self, defense: Defense) -> str:
        """Why ``defense`` is no dodge or block, "" when it is one."""
        if defense is not Defense.NONE:
            return ""
        return self.defense_block or "no defense chosen"


def further_defense(earlier: int) -> Modifier:
    """What a defense costs after ``earlier`` defenses since the defender's own turn
    began: a cumulative -2 each (the plan's defender modifier, and the penalty in
    force the fighter's condition shows)."""
    made = f"{earlier} defense{'s' if earlier > 1 else ''} since its own turn began"
    return Modifier(EXTRA_DEFENSE_PENALTY * earlier, made, EXTRA_DEFENSE)


def blow_skill(weapon: Weapon) -> str:
    """The skill of a blow: the weapon's own, but Melee Combat for a ranged
    weapon used in melee (a pistol's butt strike is not a Firearms check)."""
    return MELEE_SKILL if any(m.is_ranged for m in weapon.modes) else weapon.skill


def target_size(defender: Combatant, table: DifficultyTable | None = None) -> Size:
    """The defender's size category as it stands: its own size, a step smaller
    kneeling or sitting, two lying prone (never below tiny)."""
    table = table or difficulty_table()
    own = sheet_of(defender).size
    steps = table.posture_steps[defender.posture]
    return tuple(Size)[max(0, own.step - steps)]


def defense_block(
    state: BattleState,
    attacker: Combatant,
    defender: Combatant,
    surprise: bool,
    mode: WeaponMode | None = None,
) -> str:
    """Why the defender can make no dodge or block; "" if it can."""
    if defender.status is not Status.ACTIVE:
        return f"{defender.name} is {defender.status.value}"
    if mode is not None and mode.is_ranged:
        return "no dodge or block against a shot"
    if surprise:
        return "a surprise attack"
    if arc_of(attacker.hex, defender.hex, defender.facing, defender.handedness) is Arc.REAR:
        return "attacked from behind (a surprise attack)"
    return ""


def target_movement(defender: Combatant) -> Movement:
    """How a shot's target moves (base rules): still when it cannot act, subtle
    standing, slow when its last turn's movement was up to half its Speed, fast
    beyond (its path since its own turn began: the last one it moved in)."""
    if defender.status is not Status.ACTIVE:
        return Movement.STILL
    moved = hexes_moved(defender)
    if moved == 0:
        return Movement.SUBTLE
    return Movement.SLOW if moved * 2 <= defender.fighter.move else Movement.FAST


def _size_modifier(
    defender: Combatant, zone: Zone | None, band: RangeBand, table: DifficultyTable
) -> Modifier:
    """The target's size (a step or two smaller when aiming at a zone) at the
    range; ``IllegalAttackError`` for an aim below tiny."""
    size = target_size(defender, table)
    posture = defender.posture.value.replace("_", " ")
    at = "" if band is RangeBand.CLOSE else f" at {band.value} range"
    if zone is None:
        citation = SIZE_TABLE if band is RangeBand.CLOSE else RANGE_TABLE
        if defender.posture.value != "standing":
            citation = STANCE_SIZE
        return Modifier(
            table.size(size, band),
            f"{defender.name} is a {size.label} target ({posture}){at}",
            citation,
        )
    problem = aim_problem(size, zone)
    if problem:
        raise IllegalAttackError(f"cannot aim at the {zone.label}: {problem}")
    aimed = aimed_size(size, zone)
    assert aimed is not None
    return Modifier(
        table.size(aimed, band), f"aimed at the {zone.label}: a {aimed.label} target{at}", AIMING
    )


def _light_modifiers(
    state: BattleState, attacker: Combatant, defender: Combatant, table: DifficultyTable
) -> list[Modifier]:
    darkness = max(
        state.terrain.at(attacker.hex).light.darkness, state.terrain.at(defender.hex).light.darkness
    )
    light = table.light_difficulty(darkness)
    return [Modifier(light, f"darkness {darkness} of 10", ENVIRONMENT)] if light else []


def _shot_modifiers(
    attacker: Combatant, defender: Combatant, table: DifficultyTable
) -> list[Modifier]:
    """A shot's movement of target and shooter and the shooter's stance."""
    mods: list[Modifier] = []
    moving = target_movement(defender)
    if table.movement[moving]:
        mods.append(
            Modifier(table.movement[moving], f"{defender.name} moves ({moving.value})", MOVEMENT)
        )
    if hexes_moved(attacker) and table.movement[Movement.SLOW]:
        mods.append(
            Modifier(table.movement[Movement.SLOW], f"{attacker.name} moved (slow)", MOVEMENT)
        )
    stance = table.stance[attacker.posture]
    if stance:
        posture = attacker.posture.value.replace("_", " ")
        mods.append(Modifier(stance, f"{attacker.name} shoots {posture}", STANCE))
    return mods


def situation_modifiers(
    state: BattleState, attacker: Combatant, defender: Combatant, table: DifficultyTable
) -> tuple[Modifier, ...]:
    """What the map adds to a melee attack's difficulty: the target's size as it
    stands, and the darkness of the darker of the two hexes."""
    return (
        _size_modifier(defender, None, RangeBand.CLOSE, table),
        *_light_modifiers(state, attacker, defender, table),
    )


def shot_range(attacker: Combatant, defender: Combatant, mode: WeaponMode) -> RangeBand | None:
    """The range category of a shot at ``defender``; None when it cannot be made
    (beyond the effective range, in the shooter's own hex, outside its front)."""
    distance = attacker.hex.distance(defender.hex)
    if mode.range_hexes is None or distance == 0:
        return None
    if not in_front_arc(attacker.hex, attacker.facing, defender.hex):
        return None
    return range_band(distance, mode.range_hexes)


def plan_attack(
    state: BattleState, attacker_id: str, defender_id: str, choices: Seed004Attack
) -> AttackPlan:
    """The attack as planned; ``IllegalAttackError`` when it cannot be made."""
    if attacker_id == defender_id:
        raise IllegalAttackError("a combatant cannot attack itself")
    attacker = state.combatant(attacker_id)
    defender = state.combatant(defender_id)
    table = difficulty_table()
    try:
        weapon = attacker.fighter.weapon(choices.weapon_key)
        mode = weapon.mode(choices.mode)
    except KeyError:
        raise IllegalAttackError(
            f"{attacker.name} has no {choices.weapon_key} ({choices.mode})"
        ) from None
    if weapon.key in attacker.unready:
        raise IllegalAttackError(f"{attacker.name}'s {weapon.name} is not ready")
    not_in_hand = hand_problem(attacker, weapon.key)
    if not_in_hand is not None:
        raise IllegalAttackError(not_in_hand)
    if attacker.status is not Status.ACTIVE:
        raise IllegalAttackError(f"{attacker.name} is {attacker.status.value}")
    if defender.status is Status.DEAD:
        raise IllegalAttackError(f"{defender.name} is dead")
    if mode.damage.fixed is None:
        raise IllegalAttackError(f"{weapon.name} ({mode.name}) has no damage dice of its own")
    a = sheet_of(attacker)
    d = sheet_of(defender)
    if mode.is_ranged:
        if mode.delivery is not Delivery.MISSILE:
            raise IllegalAttackError(f"seed 004 throws no weapons ({weapon.name}, {mode.name})")
        band = shot_range(attacker, defender, mode)
        if band is None:
            raise IllegalAttackError(f"{defender.name} is out of {weapon.name}'s range")
        modifiers = [Modifier(table.base, "base difficulty of a shot", BASE_DIFFICULTY)]
        modifiers.append(_size_modifier(defender, choices.zone, band, table))
        modifiers.extend(_shot_modifiers(attacker, defender, table))
        bonus = a.abilities.modifier("dexterity") + a.abilities.modifier("perception")
        strength = 0  # a shot's damage is the weapon's alone
        skill = weapon.skill
    else:
        if not in_reach(attacker.hex, attacker.facing, mode.reach, defender.hex):
            raise IllegalAttackError(f"{defender.name} is out of {weapon.name}'s reach")
        modifiers = [Modifier(table.base, "base difficulty of a melee attack", BASE_DIFFICULTY)]
        modifiers.append(_size_modifier(defender, choices.zone, RangeBand.CLOSE, table))
        bonus = a.abilities.modifier("dexterity")
        strength = a.abilities.modifier("strength")
        skill = blow_skill(weapon)
    modifiers.extend(_light_modifiers(state, attacker, defender, table))
    if choices.adjustment:
        modifiers.append(Modifier(choices.adjustment, "the GM's adjustment", GM_ADJUSTMENT))
    difficulty = sum(m.value for m in modifiers)
    penalty = EXTRA_DEFENSE_PENALTY * tracks_of(defender).defenses
    return AttackPlan(
        attacker_id=attacker.id,
        attacker_name=attacker.name,
        defender_id=defender.id,
        defender_name=defender.name,
        defender=defender,
        weapon=weapon,
        mode=mode,
        blow=blow_of(mode),
        zone=choices.zone,
        attack_bonus=bonus + a.skill(skill) + mode.skill_modifier,
        difficulty=difficulty,
        modifiers=tuple(modifiers),
        defense_block=defense_block(state, attacker, defender, choices.surprise, mode),
        dodge_bonus=d.abilities.modifier("dexterity") + d.skill(DODGE_SKILL) + penalty,
        block_bonus=(
            d.abilities.modifier("strength") + d.abilities.modifier("constitution") + penalty
        ),
        earlier_defenses=tracks_of(defender).defenses,
        damage_dice=mode.damage.fixed,
        strength=strength,
        exposed=choices.exposed,
        skill=skill,
    )


def new_turn_tracks(combatant: Combatant) -> Combatant:
    """Its reaction comes back: no defenses made since its turn began."""
    tracks = tracks_of(combatant)
    if not tracks.defenses:
        return combatant
    return combatant.evolve(tracks=replace(tracks, defenses=0))


__all__ = [
    "ANSWERS",
    "NO_DEFENSE",
    "AttackPlan",
    "Defense",
    "Seed004Answer",
    "Seed004Attack",
    "plan_attack",
]
