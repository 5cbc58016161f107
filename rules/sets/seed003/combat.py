"""Seed 003's attack: opposed 4dF rolls, hit location and wounds by body part.

The base rules (FUDGE SRD, combat and wounds): the attacker rolls his weapon
skill + 4dF, the defender his defense (the weapon skill to parry a blow in hand,
Dodge against anything) + 4dF; the attacker's result minus the defender's is the
relative degree, and a hit needs +1 or more. The damage is the relative degree
+ the offensive damage factor (the weapon's factor, plus Strength for a
muscle-powered weapon) - the defensive damage factor of the part hit (its damage
capacity, 003 5.872, plus the armor on it); the damage table turns it into a
wound level on that part's track (``rules.sets.components.fudge_locations``).

Seed 003 (5.871): an aimed blow takes the part's size penalty; a large target
gives +1 to hit and -1 to damage; no part named is the torso; a ranged attack
past half its range ("too distant") cannot aim: it is rolled at the torso and a
hit lands on the random 1d6 location. A melee blow never rolls a random
location: the attacker names the part (our reading: the seed gives the random
table only for the distant shot). Widespread damage (5.876): every part takes
half its own final damage, rounded up, with its own armor.

Decided values beside the seed (docs/ruleset-003.md): a hit of 0 damage or less
is no wound; a helpless defender stands at a fixed Terrible (-3), no roll; an
attack from outside the defender's front arc is -1 to his defense and his shield
does not help; a shield adds its bonus (catalog ``pd``) to the defense; an
attacker off his feet is -1 in melee, a defender off his feet -1 to defend
against a blow in hand; darkness in the defender's hex is -1 (dim), -2 (dim,
darker), -3 (nearly or totally dark) to the attack; bad, very bad and
treacherous footing -1, -2, -3 to whoever stands in it; water to the knee..hip
-1, waist or chest -2, swimming -3; higher ground +1 in melee.
Cover in the defender's hex hides parts (partial: legs and feet; full: the torso
too): they cannot be aimed at, a random location on one hits the cover, a blast
misses them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from hexmap import in_front_arc, in_reach
from rules.battle.attack_choices import AttackChoices
from rules.battle.hands import hand_problem, hands_of, keep_carried
from rules.battle.model import (
    Combatant,
    DamageBase,
    Delivery,
    ParryClass,
    Posture,
    Status,
    Weapon,
    WeaponMode,
)
from rules.battle.pieces import AT_FEET, Piece
from rules.battle.state import BattleState, LaunchedPiece
from rules.battle.terrain import Footing, Light, WaterDepth
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource
from rules.core.errors import IllegalAttackError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.sets.components.fudge_locations import (
    BODY_PARTS,
    LARGE_TARGET_DAMAGE,
    LARGE_TARGET_TO_HIT,
    UNAIMED,
    AimTarget,
    BodyPart,
    BodyTracks,
    PartKind,
    PartState,
    Side,
    WoundLevel,
    WoundMark,
    aim_target,
    arm_parts,
    leg_parts,
    part_capacity,
    random_location_odds,
    roll_random_location,
    widespread_share,
    wound_for_damage,
)
from rules.sets.seed003.events import (
    AttackDeclared,
    BodyStateChanged,
    CoverStruck,
    Hobbled,
    LocationRolled,
    OpposedRolled,
    StayedStanding,
    WoundDealt,
)
from rules.sets.seed003.fudge_dice import (
    FudgeRoll,
    fudge_distribution,
    opposed_distribution,
    roll_fudge,
)
from rules.sets.seed003.sheet import DODGE, sheet_of
from rules.sets.seed003.tracks import body_of, weapon_side, with_body

SEED = "003"
HIT_LOCATION = cite(SEED, "5.871 Hit Location")
PART_DAMAGE = cite(SEED, "5.872 Damage to an Individual Body Part")
USELESS = cite(SEED, "5.873 Useless and Crippled Limbs")
MODIFIERS = cite(SEED, "5.874 Modifiers Due to Damage")
WIDESPREAD = cite(SEED, "5.876 Widespread Damage")
BASE_OPPOSED = Citation("base-003", "melee combat: opposed actions, relative degree")
BASE_RANGED = Citation("base-003", "ranged combat")
BASE_DAMAGE = Citation("base-003", "wound factors and determining wound level")
BASE_SITUATION = Citation("base-003", "combat modifiers (our values)")
BASE_SHIELD = Citation("base-003", "shields (our values)")
BASE_COVER = Citation("base-003", "cover hides parts (our rule)")
BASE_HELPLESS = Citation("base-003", "unaware or helpless defender (our value)")
HELPLESS_LEVEL = -3  # a defender who cannot defend stands at Terrible
STAND_TARGET = 3  # 003 5.873: a Superb Agility roll keeps a fighter on his feet
OFF_HAND = -1  # a one-handed weapon in the off hand (our value)
MISSILE_DODGE = -2  # base rules: dodging a propelled missile, -2 or -3 (we take -2)
MANEUVER = Citation("base-003", "combat options: all-out attack and defense (our values)")


class Defense(Enum):
    PARRY = "parry"
    DODGE = "dodge"


@dataclass(frozen=True, slots=True)
class Choices003(AttackChoices):
    """Seed 003's attack choices: the weapon and mode, the part aimed at (a key of
    ``AIM_TARGETS``; "torso" is the unaimed blow), the defense the defender makes
    (None: his better one), whether the target is large (+1 to hit, -1 damage) and
    whether the attack is widespread (a blast: every part is hit)."""

    weapon_key: str
    mode: str
    aim: str = UNAIMED.key
    defense: Defense | None = None
    large_target: bool = False
    widespread: bool = False


@dataclass(frozen=True, slots=True)
class Plan003:
    """An attack as planned, before any die."""

    attacker_id: str
    defender_id: str
    weapon: Weapon
    mode: WeaponMode
    aim: AimTarget | None  # None: a distant shot's random location
    attack_level: int
    attack_modifiers: tuple[Modifier, ...]
    defense: Defense | None  # None: the defender cannot defend
    defense_level: int
    defense_modifiers: tuple[Modifier, ...]
    offensive: int
    offensive_modifiers: tuple[Modifier, ...]
    damage_adjustment: int  # the large target's -1
    widespread: bool
    attack_side: Side
    hidden: frozenset[BodyPart] = frozenset()  # by the cover in the defender's hex

    @property
    def exposed(self) -> tuple[BodyPart, ...]:
        """The parts a widespread attack reaches: all but those the cover hides."""
        return tuple(p for p in BODY_PARTS if p not in self.hidden)

    @property
    def difference(self) -> int:
        defense = HELPLESS_LEVEL if self.defense is None else self.defense_level
        return self.attack_level - defense

    @property
    def helpless(self) -> bool:
        return self.defense is None


# --- what the attack may be -----------------------------------------------------------


def is_distant(attacker: Combatant, defender: Combatant, mode: WeaponMode) -> bool:
    """A ranged attack past half its range (its half-damage range where given)."""
    if not mode.is_ranged or mode.range_hexes is None:
        return False
    limit = mode.half_damage_hexes or mode.range_hexes // 2
    return attacker.hex.distance(defender.hex) > limit


def reach_problem(attacker: Combatant, defender: Combatant, mode: WeaponMode) -> str | None:
    if mode.is_ranged:
        distance = attacker.hex.distance(defender.hex)
        if mode.range_hexes is None or not 0 < distance <= mode.range_hexes:
            return f"{defender.name} is out of range ({distance} hexes)"
        if not in_front_arc(attacker.hex, attacker.facing, defender.hex):
            return f"{defender.name} is not in front of {attacker.name}"
        return None
    if not in_reach(attacker.hex, attacker.facing, mode.reach, defender.hex):
        return f"{defender.name} is out of reach ({mode.reach})"
    return None


def attack_side(attacker: Combatant, weapon: Weapon, body: BodyTracks) -> tuple[Side, str | None]:
    """The arm the attack uses and why it cannot be made: the weapon arm and hand
    (both arms for a two-handed weapon) must be usable; a one-handed weapon goes
    to the other hand when the weapon arm is useless."""
    side = weapon_side(attacker)
    own = all(body.usable(p) for p in arm_parts(side))
    other = all(body.usable(p) for p in arm_parts(side.other))
    if weapon.two_handed:
        if own and other:
            return side, None
        return side, f"the {weapon.name} needs both arms, and one is useless"
    if own:
        return side, None
    if other:
        return side.other, None
    return side, "both arms are useless"


def hidden_parts(state: BattleState, defender: Combatant) -> frozenset[BodyPart]:
    """The parts the cover in the defender's hex hides: partial cover the legs and
    feet, full cover the torso too (only the head and arms show)."""
    areas = state.terrain.at(defender.hex).cover.covered_areas
    hidden: set[BodyPart] = set()
    if "leg" in areas:
        hidden |= set(leg_parts())
    if "torso" in areas:
        hidden.add(BodyPart.TORSO)
    return frozenset(hidden)


def aim_problem(
    key: str,
    attacker: Combatant,
    defender: Combatant,
    mode: WeaponMode,
    widespread: bool,
    hidden: frozenset[BodyPart] = frozenset(),
) -> str | None:
    """Why the part ``key`` cannot be aimed at now (None: it can)."""
    distant = is_distant(attacker, defender, mode)
    if key == UNAIMED.key:
        if BodyPart.TORSO in hidden and not distant and not widespread:
            return "the torso is hidden by cover"
        return None
    if widespread:
        return "a widespread attack hits every part: nothing to aim at"
    if distant:
        return "too distant to aim: a hit lands on a random location (003 5.871)"
    target = aim_target(key)
    if target.part in hidden:
        return f"the {target.part.value} is hidden by cover"
    if body_of(defender).track(target.part).state is PartState.LOST:
        return f"the {target.part.value} is gone"
    return None


def held_weapon(combatant: Combatant) -> Weapon | None:
    """The weapon in the weapon hand, the main hand (``rules.battle.hands``)."""
    key = hands_of(combatant).main
    return next((w for w in combatant.fighter.weapons if w.key == key), None)


def fight_parts(c: Combatant, side: Side, two_handed: bool) -> frozenset[BodyPart]:
    """003 5.874: the parts a fighter uses in an exchange: the arm and hand (both
    for a two-handed weapon) and, on his feet, the legs and feet."""
    parts = set(arm_parts(side))
    if two_handed:
        parts |= set(arm_parts(side.other))
    if c.posture is Posture.STANDING:
        parts |= set(leg_parts())
    return frozenset(parts)


def defense_parts(c: Combatant, defense: Defense) -> frozenset[BodyPart]:
    """003 5.874: the parts a defense uses: a parry the weapon arm and hand (both
    for a two-handed weapon) and, on his feet, the legs and feet; a dodge the
    legs and feet while standing, lying down none of the limbs (the torso and
    head count for every activity)."""
    held = held_weapon(c)
    two = held is not None and held.two_handed and defense is Defense.PARRY
    parts = fight_parts(c, weapon_side(c), two)
    if defense is Defense.DODGE:
        parts = frozenset(p for p in parts if p.fells)
    return parts


def off_hand_modifier(c: Combatant, side: Side) -> tuple[Modifier, ...]:
    """A one-handed weapon in the off hand, the weapon arm being useless (our
    value, beside 003 5.874)."""
    if side is weapon_side(c):
        return ()
    return (Modifier(OFF_HAND, "off hand (the weapon arm is useless)", MODIFIERS),)


def off_feet_modifier(c: Combatant, who: str) -> tuple[Modifier, ...]:
    """A fighter off his feet in melee, ``who`` the attacker or the defender: -1
    (our value)."""
    if c.posture is Posture.STANDING:
        return ()
    return (Modifier(-1, f"{who} off his feet", BASE_SITUATION),)


def wound_modifier(c: Combatant, parts: frozenset[BodyPart]) -> tuple[Modifier, ...]:
    """003 5.874: the worst wound among ``parts`` (and the torso and head) as one
    modifier, named by its part and state ("worst wound: left leg, very hurt");
    the preview prefixes a defense's with "defense: "."""
    body = body_of(c)
    penalty, where = body.activity_penalty(parts)
    if not penalty or where is None:
        return ()
    state = body.track(where).state.label
    return (Modifier(penalty, f"worst wound: {where.value}, {state}", MODIFIERS),)


# --- the situation ----------------------------------------------------------------------

_FOOTING = {Footing.GOOD: 0, Footing.BAD: -1, Footing.VERY_BAD: -2, Footing.TREACHEROUS: -3}
_WATER = {
    WaterDepth.NONE: 0,
    WaterDepth.ANKLE: 0,
    WaterDepth.KNEE: -1,
    WaterDepth.THIGH: -1,
    WaterDepth.HIP: -1,
    WaterDepth.WAIST: -2,
    WaterDepth.CHEST: -2,
    WaterDepth.DEEP: -3,
}


def light_penalty(light: Light) -> int:
    """Darkness (our values): dim light -1 (darkness 2-5), -2 (6-8), nearly or
    totally dark -3."""
    if light.darkness <= Light.TWILIGHT.darkness:
        return 0
    if light.darkness <= 5:
        return -1
    if light.darkness <= 8:
        return -2
    return -3


def footing_penalty(footing: Footing) -> int:
    return _FOOTING[footing]


def water_penalty(water: WaterDepth) -> int:
    return _WATER[water]


def _ground(state: BattleState, c: Combatant, who: str) -> list[Modifier]:
    terrain = state.terrain.at(c.hex)
    mods = []
    if footing_penalty(terrain.footing):
        mods.append(
            Modifier(
                footing_penalty(terrain.footing),
                f"{who} on {terrain.footing.label}",
                BASE_SITUATION,
            )
        )
    if water_penalty(terrain.water):
        mods.append(
            Modifier(
                water_penalty(terrain.water),
                f"{who} in {terrain.water.value}-deep water",
                BASE_SITUATION,
            )
        )
    return mods


def attack_situation(
    state: BattleState, attacker: Combatant, defender: Combatant, mode: WeaponMode
) -> tuple[Modifier, ...]:
    """The map's modifiers to the attack roll."""
    mods = _ground(state, attacker, "attacker")
    light = state.terrain.at(defender.hex).light
    if light_penalty(light):
        mods.append(Modifier(light_penalty(light), f"target in {light.label}", BASE_SITUATION))
    if not mode.is_ranged:
        mods.extend(off_feet_modifier(attacker, "attacker"))
        up = state.terrain.at(attacker.hex).height - state.terrain.at(defender.hex).height
        if up > 0:
            mods.append(Modifier(1, "higher ground", BASE_SITUATION))
    elif defender.posture is not Posture.STANDING and is_distant(attacker, defender, mode):
        mods.append(Modifier(-1, "distant target lying low", BASE_SITUATION))
    return tuple(mods)


def defense_situation(
    state: BattleState, attacker: Combatant, defender: Combatant, mode: WeaponMode
) -> tuple[Modifier, ...]:
    """The map's modifiers to the defense roll."""
    mods = _ground(state, defender, "defender")
    if not in_front_arc(defender.hex, defender.facing, attacker.hex):
        mods.append(Modifier(-1, "attacked from the side or behind", BASE_SITUATION))
    if not mode.is_ranged:
        mods.extend(off_feet_modifier(defender, "defender"))
        up = state.terrain.at(defender.hex).height - state.terrain.at(attacker.hex).height
        if up > 0:
            mods.append(Modifier(1, "defender on higher ground", BASE_SITUATION))
    return tuple(mods)


# --- the plan -----------------------------------------------------------------------------


def defense_options(
    attacker: Combatant, defender: Combatant, mode: WeaponMode
) -> dict[Defense, str | None]:
    """Each defense and why it cannot be made (None: it can)."""
    parry: str | None = None
    weapon = held_weapon(defender)
    if mode.is_ranged:
        parry = "a missile cannot be parried"
    elif weapon is None or weapon.key in defender.unready:
        parry = f"{defender.name} holds no ready weapon"
    elif weapon.parry is ParryClass.NONE or all(m.is_ranged for m in weapon.modes):
        parry = f"the {weapon.name} cannot parry"
    elif attack_side(defender, weapon, body_of(defender))[1] is not None:
        parry = "the weapon arm is useless"
    return {Defense.PARRY: parry, Defense.DODGE: None}


def _defense_level(defender: Combatant, kind: Defense) -> tuple[int, str]:
    sheet = sheet_of(defender)
    if kind is Defense.PARRY:
        weapon = held_weapon(defender)
        assert weapon is not None
        return sheet.skill(weapon.skill), f"{weapon.skill} (parry)"
    return sheet.skill(DODGE), DODGE


def best_defense(attacker: Combatant, defender: Combatant, mode: WeaponMode) -> Defense:
    """The defense with the higher skill among those allowed (parry on a tie)."""
    allowed = [k for k, p in defense_options(attacker, defender, mode).items() if p is None]
    return max(allowed, key=lambda k: (_defense_level(defender, k)[0], k is Defense.PARRY))


def plan_attack(
    state: BattleState, attacker_id: str, defender_id: str, choices: Choices003
) -> Plan003:
    """The attack as planned; ``IllegalAttackError`` if it cannot be made."""
    if attacker_id == defender_id:
        raise IllegalAttackError("a combatant cannot attack itself")
    attacker = state.combatant(attacker_id)
    defender = state.combatant(defender_id)
    if attacker.status is not Status.ACTIVE:
        raise IllegalAttackError(f"{attacker.name} is {attacker.status.value}")
    if defender.status is Status.DEAD:
        raise IllegalAttackError(f"{defender.name} is dead")
    try:
        weapon = attacker.fighter.weapon(choices.weapon_key)
        mode = weapon.mode(choices.mode)
    except KeyError:
        raise IllegalAttackError(
            f"{attacker.name} has no {choices.weapon_key} {choices.mode}"
        ) from None
    if weapon.key in attacker.unready:
        raise IllegalAttackError(f"the {weapon.name} is not ready")
    problem = hand_problem(attacker, weapon.key) or reach_problem(attacker, defender, mode)
    if problem is not None:
        raise IllegalAttackError(problem)
    body = body_of(attacker)
    side, problem = attack_side(attacker, weapon, body)
    if problem is not None:
        raise IllegalAttackError(problem)
    hidden = hidden_parts(state, defender)
    problem = aim_problem(choices.aim, attacker, defender, mode, choices.widespread, hidden)
    if problem is not None:
        raise IllegalAttackError(problem)
    sheet = sheet_of(attacker)
    citation = BASE_RANGED if mode.is_ranged else BASE_OPPOSED
    attack_mods: list[Modifier] = [Modifier(sheet.skill(weapon.skill), weapon.skill, citation)]
    if mode.skill_modifier:
        attack_mods.append(Modifier(mode.skill_modifier, f"{mode.name}", citation))
    attack_mods.extend(off_hand_modifier(attacker, side))
    distant = is_distant(attacker, defender, mode)
    aim: AimTarget | None = None if distant else aim_target(choices.aim)
    if aim is not None and aim.penalty:
        attack_mods.append(Modifier(aim.penalty, f"aimed at the {aim.label.lower()}", HIT_LOCATION))
    if choices.large_target:
        attack_mods.append(Modifier(LARGE_TARGET_TO_HIT, "large target", HIT_LOCATION))
    attack_mods.extend(wound_modifier(attacker, fight_parts(attacker, side, weapon.two_handed)))
    attack_mods.extend(attack_situation(state, attacker, defender, mode))
    attack_mods.extend(_maneuver_attack(attacker))
    # The defense.
    defense: Defense | None
    defense_mods: list[Modifier] = []
    if defender.status is not Status.ACTIVE:
        defense = None
        defense_mods.append(
            Modifier(HELPLESS_LEVEL, f"{defender.name} cannot defend", BASE_HELPLESS)
        )
    else:
        allowed = defense_options(attacker, defender, mode)
        defense = choices.defense or best_defense(attacker, defender, mode)
        why = allowed[defense]
        if why is not None:
            raise IllegalAttackError(f"{defender.name} cannot {defense.value}: {why}")
        level, name = _defense_level(defender, defense)
        defense_mods.append(Modifier(level, name, BASE_OPPOSED))
        shield = defender.fighter.shield
        front = in_front_arc(defender.hex, defender.facing, attacker.hex)
        if shield is not None and shield.pd and front and defender.shield_ready:
            defense_mods.append(Modifier(shield.pd, shield.name, BASE_SHIELD))
        defense_mods.extend(wound_modifier(defender, defense_parts(defender, defense)))
        defense_mods.extend(defense_situation(state, attacker, defender, mode))
        if mode.delivery is Delivery.MISSILE:
            # Base rules: a shot from a bow or a gun is harder to dodge than a
            # thrown weapon (-2 or -3 there; -2 here).
            defense_mods.append(Modifier(MISSILE_DODGE, "dodging a missile", BASE_RANGED))
        defense_mods.extend(maneuver_defense_modifiers(defender))
    # The offensive damage factor.
    odf_mods = [Modifier(mode.damage.adds, f"{weapon.name} damage factor", BASE_DAMAGE)]
    if mode.damage.base is not DamageBase.FIXED:
        odf_mods.append(Modifier(sheet.strength, "Strength", BASE_DAMAGE))
    adjustment = LARGE_TARGET_DAMAGE if choices.large_target else 0
    return Plan003(
        attacker_id=attacker.id,
        defender_id=defender.id,
        weapon=weapon,
        mode=mode,
        aim=aim,
        attack_level=sum(m.value for m in attack_mods),
        attack_modifiers=tuple(attack_mods),
        defense=defense,
        defense_level=sum(m.value for m in defense_mods),
        defense_modifiers=tuple(defense_mods),
        offensive=sum(m.value for m in odf_mods),
        offensive_modifiers=tuple(odf_mods),
        damage_adjustment=adjustment,
        widespread=choices.widespread,
        attack_side=side,
        hidden=hidden,
    )


def _maneuver_attack(c: Combatant) -> tuple[Modifier, ...]:
    if c.maneuver is not None and c.maneuver.key == "all-out-attack":
        return (Modifier(1, "all-out attack", MANEUVER),)
    return ()


def maneuver_defense_modifiers(c: Combatant) -> tuple[Modifier, ...]:
    """What the fighter's maneuver does to its defenses: an all-out attack's
    guard down, an all-out defense's bonus."""
    if c.maneuver is None:
        return ()
    if c.maneuver.key == "all-out-attack":
        return (Modifier(-2, "all-out attack: guard down", MANEUVER),)
    if c.maneuver.key == "all-out-defense":
        return (Modifier(2, "all-out defense", MANEUVER),)
    return ()


# --- the damage -----------------------------------------------------------------------------


def defensive_factor(defender: Combatant, part: BodyPart) -> int:
    """The part's defensive damage factor: its damage capacity (003 5.872) plus
    the armor on it (the suit where it covers the part, the helmet on the head)."""
    sheet = sheet_of(defender)
    armor = 0
    if part is BodyPart.HEAD:
        armor = sheet.helmet
    elif defender.fighter.armor is not None and part in sheet.armor_cover.parts:
        armor = defender.fighter.armor.dr
    return part_capacity(sheet.damage_capacity, part) + armor


def part_damage(plan: Plan003, defender: Combatant, relative: int, part: BodyPart) -> int:
    damage = relative + plan.offensive + plan.damage_adjustment - defensive_factor(defender, part)
    return widespread_share(damage) if plan.widespread else damage


# --- the resolution -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Resolution:
    attacker: Combatant
    defender: Combatant
    events: tuple[Event, ...]
    pieces: tuple[LaunchedPiece, ...]
    hit: bool
    worst: int  # the worst box checked (``outcome_of``; 0: none)


def resolve(
    state: BattleState, plan: Plan003, dice: DiceSource, *, effects: bool = True
) -> Resolution:
    """Roll the attack: the two 4dF rolls, the location, the wounds and what they
    do (the dropped weapon, the fall, the fighter stopped). ``effects`` False
    leaves out the rolls after the wounds (the odds read only the wounds)."""
    attacker = state.combatant(plan.attacker_id)
    defender = state.combatant(plan.defender_id)
    aim = (
        "whole body"
        if plan.widespread
        else ("random location" if plan.aim is None else plan.aim.label.lower())
    )
    citation = BASE_RANGED if plan.mode.is_ranged else BASE_OPPOSED
    events: list[Event] = [
        AttackDeclared(
            citation=citation,
            combatant_id=attacker.id,
            name=attacker.name,
            defender_id=defender.id,
            defender_name=defender.name,
            weapon=f"{plan.weapon.name} ({plan.mode.name})",
            aim=aim,
            modifiers=plan.attack_modifiers,
        )
    ]
    attack = roll_fudge(plan.attack_level, dice, f"{attacker.name}'s attack")
    defense_roll: FudgeRoll | None = None
    if plan.defense is None:
        against = HELPLESS_LEVEL
    else:
        defense_roll = roll_fudge(
            plan.defense_level, dice, f"{defender.name}'s {plan.defense.value}"
        )
        against = defense_roll.result
    relative = attack.result - against
    events.append(
        OpposedRolled(
            citation=citation,
            attacker=attacker.name,
            defender=defender.name,
            attack=attack,
            defense=defense_roll,
            defense_kind="defense" if plan.defense is None else plan.defense.value,
            relative=relative,
        )
    )
    if relative <= 0:
        return Resolution(attacker, defender, tuple(events), (), False, 0)
    if plan.widespread:
        parts: tuple[BodyPart, ...] = plan.exposed
    elif plan.aim is None:
        located = roll_random_location(dice, whose=defender.name)
        events.append(
            LocationRolled(
                citation=HIT_LOCATION,
                combatant_id=defender.id,
                name=defender.name,
                location=located,
            )
        )
        parts = (located.part,)
        if located.part in plan.hidden:
            events.append(
                CoverStruck(
                    citation=BASE_COVER,
                    combatant_id=defender.id,
                    name=defender.name,
                    part=located.part.value,
                )
            )
            parts = ()
    else:
        parts = (plan.aim.part,)
    body = body_of(defender)
    before = body
    worst = 0
    for part in parts:
        damage = part_damage(plan, defender, relative, part)
        level = wound_for_damage(damage)
        mark = None
        if level is not None:
            body, mark = body.with_wound(part, level)
            worst = max(worst, outcome_of(mark))
        events.append(
            WoundDealt(
                citation=WIDESPREAD if plan.widespread else PART_DAMAGE,
                combatant_id=defender.id,
                name=defender.name,
                part=part.value,
                relative=relative,
                offensive=plan.offensive,
                defensive=defensive_factor(defender, part),
                adjustment=plan.damage_adjustment,
                widespread=plan.widespread,
                damage=damage,
                mark=mark,
            )
        )
    defender = with_body(defender, body)
    if not effects:
        return Resolution(attacker, defender, tuple(events), (), True, worst)
    defender, more, pieces = wound_effects(defender, before, body, dice)
    events.extend(more)
    return Resolution(attacker, defender, tuple(events), pieces, True, worst)


def wound_effects(
    c: Combatant, before: BodyTracks, after: BodyTracks, dice: DiceSource
) -> tuple[Combatant, tuple[Event, ...], tuple[LaunchedPiece, ...]]:
    """What newly useless limbs and a stopped body do (003 5.873): an arm or hand
    drops what it holds (the weapon hand its weapon, the other a shield; either
    one a two-handed weapon) at the feet; a leg or foot drops the fighter unless
    a Superb Agility roll keeps him up, and from then on he moves only slowly
    (``hobbled_move``); the torso or head at Incapacitated or worse stops him."""
    events: list[Event] = []
    legs_before = any(before.track(p).state.disabled for p in leg_parts())
    legs_after = any(after.track(p).state.disabled for p in leg_parts())
    if legs_after and not legs_before:
        slow = hobbled_move(c.fighter.move)
        if slow < c.fighter.move:
            events.append(
                Hobbled(
                    citation=USELESS,
                    combatant_id=c.id,
                    name=c.name,
                    move_before=c.fighter.move,
                    move_after=slow,
                )
            )
            c = c.evolve(fighter=replace(c.fighter, move=slow))
    pieces: list[LaunchedPiece] = []
    side = weapon_side(c)
    fell_checked = False
    for part in BODY_PARTS:
        was, now = before.track(part).state, after.track(part).state
        if was.disabled or not now.disabled or part.kind is not PartKind.LIMB:
            continue
        if part.drops_held:
            held = held_weapon(c)
            two_handed = held is not None and held.two_handed
            c, piece = _drop_held(c, part.side is side or two_handed)
            if piece is not None:
                pieces.append(LaunchedPiece(piece, c.id))
        elif part.fells and not fell_checked and c.posture is Posture.STANDING:
            fell_checked = True
            if c.status is Status.ACTIVE:
                stand = roll_fudge(sheet_of(c).agility, dice, f"{c.name}'s Agility to stay up")
                event = StayedStanding(
                    citation=USELESS, combatant_id=c.id, name=c.name, part=part.value, roll=stand
                )
                events.append(event)
                if not event.stood:
                    c = c.evolve(posture=Posture.PRONE)
            else:
                c = c.evolve(posture=Posture.PRONE)
    if after.body_state is not before.body_state and after.body_state.disabled:
        events.append(
            BodyStateChanged(
                citation=PART_DAMAGE, combatant_id=c.id, name=c.name, state=after.body_state
            )
        )
        if c.posture is Posture.STANDING:
            c = c.evolve(posture=Posture.PRONE)
    return c, tuple(events), tuple(pieces)


def hobbled_move(move: int) -> int:
    """003 5.873: on a useless leg or foot a fighter moves again only slowly,
    leaning on something: half his Move, rounded down, at least 1 (our value)."""
    return max(1, move // 2)


def _drop_held(c: Combatant, weapon_hand: bool) -> tuple[Combatant, Piece | None]:
    f = c.fighter
    placement = replace(AT_FEET, citation=USELESS)
    if weapon_hand:
        held = held_weapon(c)
        if held is None:
            return c, None
        fighter = replace(f, weapons=tuple(w for w in f.weapons if w.key != held.key))
        emptied = c.evolve(fighter=fighter, unready=c.unready - {held.key})
        return keep_carried(c, emptied), Piece(held.name, held, placement)
    if f.shield is None:
        return c, None
    return keep_carried(c, c.evolve(fighter=replace(f, shield=None))), Piece(
        f.shield.name, None, placement, note="a shield"
    )


# --- the odds --------------------------------------------------------------------------------


PAST_THE_TRACK = len(WoundLevel) + 1  # an outcome past a track's last box: dead or lost


def outcome_of(mark: WoundMark) -> int:
    """A wound's outcome for the odds: the level of the box it checked (1 Scratch
    .. 5 Near Death/Crippled; a full level passes the wound up, so a Hurt on a
    full Hurt row is a Very Hurt), ``PAST_THE_TRACK`` when it went past the last
    box (the torso or head dead, a limb lost), 0 when the part was already gone."""
    if mark.marked is not None:
        return int(mark.marked)
    return 0 if mark.before is mark.after else PAST_THE_TRACK


def relative_odds(plan: Plan003) -> dict[int, Fraction]:
    """The exact distribution of the relative degree: the opposed rolls over the
    81 x 81 outcomes, or against a helpless defender's fixed Terrible the attack's
    81 alone."""
    if plan.helpless:
        return {plan.difference + k: p for k, p in fudge_distribution().items()}
    return dict(opposed_distribution(plan.difference))


def hit_odds(plan: Plan003) -> Fraction:
    return sum((p for rel, p in relative_odds(plan).items() if rel > 0), Fraction(0))


def outcome_odds(plan: Plan003, defender: Combatant) -> dict[int, Fraction]:
    """The exact chance of each outcome: -1 no hit, 0 a hit without a wound, 1..5
    the worst box the wounds check on the defender's tracks as they stand
    (Scratch .. Near Death/Crippled, ``outcome_of``), ``PAST_THE_TRACK`` past a
    track's last box, over the 81 x 81 outcomes of the two rolls and the random
    location's 1/3, 1/6 ... ."""
    body = body_of(defender)
    out: dict[int, Fraction] = {}
    locations: dict[tuple[BodyPart, ...], Fraction]
    if plan.widespread:
        locations = {plan.exposed: Fraction(1)}
    elif plan.aim is None:
        locations = {}
        for located, chance in random_location_odds().items():
            key = () if located in plan.hidden else (located,)
            locations[key] = locations.get(key, Fraction(0)) + chance
    else:
        locations = {(plan.aim.part,): Fraction(1)}
    for rel, p in relative_odds(plan).items():
        if rel <= 0:
            out[-1] = out.get(-1, Fraction(0)) + p
            continue
        for parts, q in locations.items():
            worst = 0
            for part in parts:
                level = wound_for_damage(part_damage(plan, defender, rel, part))
                if level is not None:
                    worst = max(worst, outcome_of(body.track(part).with_wound(level)[1]))
            out[worst] = out.get(worst, Fraction(0)) + p * q
    return dict(sorted(out.items()))
