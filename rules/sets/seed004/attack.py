"""A seed 004 melee attack, planned (``plan_attack``: the checks' bonuses and the
difficulty with its itemised, cited modifiers) and resolved
(``resolve_attack``: every die through the ``DiceSource``).

The sequence (docs/ruleset-004.md):

1. The attack: 2d6 + Dexterity modifier + Melee Combat rank against the
   difficulty: base 5, the target's size at the Close column of the base
   rules' size table (its posture makes it smaller; aiming one step smaller
   for a body part, two for a vital organ, 004 Zones), darkness, and the GM's
   adjustment. Below the difficulty it misses.
2. The defense (base rules, opposed): a dodge (2d6 + Dexterity modifier + Dodge
   rank) that beats the attack's total avoids it; a block (2d6 + Strength and
   Constitution modifiers) that beats it halves the damage. Each defense after
   the first since the defender's own turn began is at a cumulative -2. A
   surprise attack (the GM's flag, or from the defender's rear hex) and a
   fighter who cannot defend allow none.
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

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from hexmap import Arc, arc_of, in_front_arc, in_reach
from rules.battle.attack_choices import AttackChoices
from rules.battle.hands import hand_problem
from rules.battle.model import Combatant, DamageType, Delivery, Status, Weapon, WeaponMode
from rules.battle.state import AttackResult, BattleState
from rules.battle.turns import hexes_moved
from rules.core.citation import Citation, cite
from rules.core.dice import Dice, DiceSource, roll_dice
from rules.core.enumerate import exact_outcomes
from rules.core.errors import IllegalAttackError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.sets.components.zones_2d6 import (
    Blow,
    Size,
    Zone,
    aim_problem,
    aimed_size,
    roll_zone,
    zone_damage,
)
from rules.sets.seed004.checks import CheckRoll, check
from rules.sets.seed004.events import (
    AttackDeclared,
    AttackOutcome,
    CheckRolled,
    DamageRolled,
    DefenseNotRolled,
    StatusChanged,
    ZoneDamaged,
    ZoneFound,
)
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
from rules.sets.seed004.tracks import Seed004Tracks, maximum_hit_points, tracks_of
from rules.sets.seed004.wound_effects import add_wounds

MELEE = Citation("base-004", "melee combat: Melee Combat against Dodge")
SHOT = Citation("base-004", "ranged combat: a shot against the difficulty, no dodge or block")
BLOCK = Citation("base-004", "melee combat: a block halves the damage")
SURPRISE = Citation("base-004", "melee combat: a surprise attack allows no dodge or block")
EXTRA_DEFENSE = Citation("base-004", "melee combat: each further dodge at a cumulative -2")
STRENGTH_DAMAGE = Citation("base-004", "abilities: Strength adds to melee damage")
HIT_POINTS = Citation("base-004", "injury and death: hit points")
WOUNDS = Citation("base-004", "injury and death: wounds")
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
    """The attacker's choices (``Attack.options``): the weapon and mode (the mode
    carries the damage type: a knife's stab or slash), the zone aimed at (None:
    a random zone), the defender's defense, the GM's difficulty adjustment,
    whether the vital organs lie exposed, and a surprise attack."""

    weapon_key: str
    mode: str
    zone: Zone | None = None
    defense: Defense = Defense.DODGE
    adjustment: int = 0
    exposed: bool = False
    surprise: bool = False


@dataclass(frozen=True, slots=True)
class AttackPlan:
    attacker_id: str
    defender_id: str
    weapon: Weapon
    mode: WeaponMode
    blow: Blow
    zone: Zone | None
    attack_bonus: int
    difficulty: int
    modifiers: tuple[Modifier, ...]
    defense: Defense
    defense_bonus: int
    defense_note: str
    damage_dice: Dice
    strength: int
    exposed: bool
    skill: str = MELEE_SKILL  # the skill whose rank the attack adds


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
    blocked = defense_block(state, attacker, defender, choices.surprise, mode)
    defense = Defense.NONE if blocked else choices.defense
    earlier = tracks_of(defender).defenses
    penalty = EXTRA_DEFENSE_PENALTY * earlier
    if defense is Defense.DODGE:
        defense_bonus = d.abilities.modifier("dexterity") + d.skill(DODGE_SKILL) + penalty
    elif defense is Defense.BLOCK:
        defense_bonus = (
            d.abilities.modifier("strength") + d.abilities.modifier("constitution") + penalty
        )
    else:
        defense_bonus = 0
    note = blocked or ("no defense chosen" if defense is Defense.NONE else "")
    return AttackPlan(
        attacker_id=attacker.id,
        defender_id=defender.id,
        weapon=weapon,
        mode=mode,
        blow=blow_of(mode),
        zone=choices.zone,
        attack_bonus=bonus + a.skill(skill) + mode.skill_modifier,
        difficulty=difficulty,
        modifiers=tuple(modifiers),
        defense=defense,
        defense_bonus=defense_bonus,
        defense_note=note,
        damage_dice=mode.damage.fixed,
        strength=strength,
        exposed=choices.exposed,
        skill=skill,
    )


# --- the contest: attack and defense ---------------------------------------------------


class Outcome(Enum):
    MISS = "miss"
    DODGED = "dodged"
    BLOCKED = "blocked"
    HIT = "hit"


@dataclass(frozen=True, slots=True)
class Contest:
    attack: CheckRoll
    defense: CheckRoll | None
    outcome: Outcome


def contest(
    plan: AttackPlan, dice: DiceSource, attacker: str = "", defender: str = ""
) -> Contest:
    """The attack check and, if it reaches the difficulty, the defense; the names
    say whose each roll is, for dice entered at the table (the odds pass none)."""
    attack = check(dice, "attack", plan.attack_bonus, plan.difficulty, whose=attacker)
    if not attack.succeeded:
        return Contest(attack, None, Outcome.MISS)
    if plan.defense is Defense.NONE:
        return Contest(attack, None, Outcome.HIT)
    defense = check(
        dice, plan.defense.value, plan.defense_bonus, attack.total, beat=True, whose=defender
    )
    if not defense.succeeded:
        return Contest(attack, defense, Outcome.HIT)
    return Contest(
        attack, defense, Outcome.DODGED if plan.defense is Defense.DODGE else Outcome.BLOCKED
    )


def contest_odds(plan: AttackPlan) -> Mapping[Outcome, Fraction]:
    """The exact chance of each outcome (the contest run on every way the dice fall)."""
    return exact_outcomes(lambda d: contest(plan, d).outcome)


# --- the resolution ----------------------------------------------------------------------


def resolve_attack(state: BattleState, plan: AttackPlan, dice: DiceSource) -> AttackResult:
    attacker = state.combatant(plan.attacker_id)
    defender = state.combatant(plan.defender_id)
    events: list[Event] = [
        AttackDeclared(
            citation=_attack_citation(plan),
            combatant_id=attacker.id,
            name=attacker.name,
            defender_id=defender.id,
            defender_name=defender.name,
            weapon=plan.weapon.name,
            mode=plan.mode.name,
            blow=damage_label(plan.mode),
            aimed=plan.zone,
            difficulty=plan.difficulty,
            modifiers=plan.modifiers,
        )
    ]
    result = contest(plan, dice, attacker.name, defender.name)
    events.append(
        CheckRolled(
            citation=_attack_citation(plan),
            combatant_id=attacker.id,
            name=attacker.name,
            roll=result.attack,
        )
    )
    if result.outcome is Outcome.MISS:
        events.append(_outcome(plan, attacker, defender, Outcome.MISS, "misses"))
        return AttackResult((attacker, defender), tuple(events))
    if plan.defense is Defense.NONE:
        events.append(
            DefenseNotRolled(
                citation=_no_defense_citation(plan),
                combatant_id=defender.id,
                name=defender.name,
                reason=plan.defense_note,
            )
        )
    else:
        assert result.defense is not None
        events.append(
            CheckRolled(
                citation=EXTRA_DEFENSE if tracks_of(defender).defenses else MELEE,
                combatant_id=defender.id,
                name=defender.name,
                roll=result.defense,
            )
        )
        tracks = tracks_of(defender)
        defender = defender.evolve(tracks=replace(tracks, defenses=tracks.defenses + 1))
    if result.outcome is Outcome.DODGED:
        events.append(_outcome(plan, attacker, defender, Outcome.DODGED, "is dodged"))
        return AttackResult((attacker, defender), tuple(events))
    blocked = result.outcome is Outcome.BLOCKED
    events.append(
        _outcome(plan, attacker, defender, result.outcome, "is blocked" if blocked else "hits")
    )
    # the zone
    if plan.zone is not None:
        zone = plan.zone
        events.append(
            ZoneFound(citation=AIMING, combatant_id=defender.id, name=defender.name, zone=zone)
        )
    else:
        rolled = roll_zone(dice, what=f"{attacker.name}'s hit zone")
        zone = rolled.zone
        events.append(
            ZoneFound(
                citation=rolled.citation,
                combatant_id=defender.id,
                name=defender.name,
                zone=zone,
                faces=rolled.faces,
            )
        )
    # the damage
    damage = roll_dice(plan.damage_dice, dice, minimum=None, what=f"{attacker.name}'s damage")
    rolled_total = max(0, damage.raw + plan.strength)
    total = rolled_total // 2 if blocked else rolled_total
    events.append(
        DamageRolled(
            citation=BLOCK if blocked else DAMAGE,
            combatant_id=attacker.id,
            name=attacker.name,
            dice=str(plan.damage_dice),
            faces=damage.faces,
            strength=plan.strength,
            rolled=rolled_total,
            halved=blocked,
            total=total,
            blow=damage_label(plan.mode),
        )
    )
    defender, harm = injure(defender, zone, plan.blow, total, plan.exposed, dice)
    events.extend(harm)
    return AttackResult((attacker, defender), tuple(events))


def _attack_citation(plan: AttackPlan) -> Citation:
    return SHOT if plan.mode.is_ranged else MELEE


def _no_defense_citation(plan: AttackPlan) -> Citation:
    """Why no defense is rolled: a shot, a surprise attack, or the GM's choice
    or a defender who cannot act (the melee rule)."""
    if plan.mode.is_ranged:
        return SHOT
    return SURPRISE if "surprise" in plan.defense_note else MELEE


def _outcome(
    plan: AttackPlan, attacker: Combatant, defender: Combatant, outcome: Outcome, verb: str
) -> AttackOutcome:
    return AttackOutcome(
        citation=BLOCK if outcome is Outcome.BLOCKED else _attack_citation(plan),
        attacker_id=attacker.id,
        defender_id=defender.id,
        outcome=outcome.value,
        text=f"{attacker.name}'s attack {verb}"
        + (" (half damage)" if outcome is Outcome.BLOCKED else ""),
    )


def injure(
    defender: Combatant, zone: Zone, blow: Blow, damage: int, exposed: bool, dice: DiceSource
) -> tuple[Combatant, tuple[Event, ...]]:
    """A blow of ``damage`` (before armor) on ``zone``: armor, the zone's effect,
    the hit points, and the base rules' injury checks."""
    sheet = sheet_of(defender)
    reduction = sheet.armor.reduction(zone)
    left = max(0, damage - reduction)
    done = zone_damage(zone, blow, left, exposed=exposed)
    hp = defender.hp - done.damage
    defender = defender.evolve(hp=hp)
    events: list[Event] = [
        ZoneDamaged(
            citation=done.citation,
            combatant_id=defender.id,
            name=defender.name,
            aimed_zone=zone,
            zone=done.zone,
            reduction=reduction,
            left=left,
            rule=done.rule,
            multiplier=done.multiplier,
            damage=done.damage,
            hp_after=hp,
        )
    ]
    if done.damage == 0:
        return defender, tuple(events)
    defender, after = injury_checks(defender, done.base, dice)
    return defender, (*events, *after)


def _dead(defender: Combatant, why: str) -> tuple[Combatant, Event]:
    return defender.evolve(status=Status.DEAD), StatusChanged(
        citation=HIT_POINTS,
        combatant_id=defender.id,
        name=defender.name,
        status=Status.DEAD,
        reason=why,
    )


def injury_checks(
    defender: Combatant, wound_damage: int, dice: DiceSource
) -> tuple[Combatant, tuple[Event, ...]]:
    """After hit points were lost: death at minus the maximum, else the wound
    check against ``wound_damage`` (after armor, before the multiplier), then a
    consciousness check below 0 HP."""
    events: list[Event] = []
    maximum = maximum_hit_points(defender)
    if defender.status is Status.DEAD:
        return defender, ()
    if defender.hp <= -maximum:
        defender, event = _dead(defender, f"{defender.hp} HP, at or below -{maximum}")
        return defender, (event,)
    con = sheet_of(defender).abilities.modifier("constitution")
    wound = check(dice, "wound check", con, wound_damage, whose=defender.name)
    events.append(
        CheckRolled(citation=WOUNDS, combatant_id=defender.id, name=defender.name, roll=wound)
    )
    if not wound.succeeded:
        defender, wounded = add_wounds(defender, 1, dice, WOUNDS)
        events.extend(wounded)
        maximum = maximum_hit_points(defender)
        if maximum <= 0 or defender.hp <= -maximum:
            defender, event = _dead(
                defender, f"{defender.hp} HP with wounds leaving maximum HP {maximum}"
            )
            events.append(event)
            return defender, tuple(events)
    if defender.hp < 0 and defender.status is Status.ACTIVE:
        defender, more = consciousness_check(defender, dice)
        events.extend(more)
    return defender, tuple(events)


def consciousness_check(
    defender: Combatant, dice: DiceSource
) -> tuple[Combatant, tuple[Event, ...]]:
    """Below 0 HP: 2d6 + Constitution and Strength modifiers against the hit
    points below zero, or unconscious."""
    a = sheet_of(defender).abilities
    stay = check(
        dice,
        "consciousness check",
        a.modifier("constitution") + a.modifier("strength"),
        -defender.hp,
        whose=defender.name,
    )
    events: list[Event] = [
        CheckRolled(citation=HIT_POINTS, combatant_id=defender.id, name=defender.name, roll=stay)
    ]
    if not stay.succeeded:
        defender = defender.evolve(status=Status.UNCONSCIOUS)
        events.append(
            StatusChanged(
                citation=HIT_POINTS,
                combatant_id=defender.id,
                name=defender.name,
                status=Status.UNCONSCIOUS,
                reason=f"failed to stay conscious at {defender.hp} HP",
            )
        )
    return defender, tuple(events)


def new_turn_tracks(combatant: Combatant) -> Combatant:
    """Its reaction comes back: no defenses made since its turn began."""
    tracks = tracks_of(combatant)
    if not tracks.defenses:
        return combatant
    return combatant.evolve(tracks=replace(tracks, defenses=0))


def result_key(result: AttackResult) -> Hashable:
    """What an enumerated attack came to, for tests: the defender's HP and status."""
    defender = result.combatants[1]
    return defender.hp, defender.status


__all__ = [
    "AttackPlan",
    "Contest",
    "Defense",
    "Outcome",
    "Seed004Attack",
    "Seed004Tracks",
    "contest",
    "contest_odds",
    "plan_attack",
    "resolve_attack",
]
