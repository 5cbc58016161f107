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
from typing import ClassVar

from hexmap import in_front_arc, in_reach
from rules.battle.attack_choices import AnswerInChoices, AttackChoices, DefenderAnswer
from rules.battle.attack_steps import Needs, PlannedPair, PlannedRoll
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
    widespread_share,
)
from rules.sets.seed003.events import BodyStateChanged, Hobbled, StayedStanding
from rules.sets.seed003.fudge_dice import FudgeRoll, roll_fudge
from rules.sets.seed003.sheet import DODGE, sheet_of
from rules.sets.seed003.tracks import body_of, weapon_side

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
    ``AIM_TARGETS``; "torso" is the unaimed blow), whether the target is large (+1
    to hit, -1 damage) and whether the attack is widespread (a blast: every part
    is hit). The defense is the defender's answer (``Seed003Answer``)."""

    weapon_key: str
    mode: str
    aim: str = UNAIMED.key
    large_target: bool = False
    widespread: bool = False


@dataclass(frozen=True, slots=True)
class Seed003Answer(DefenderAnswer):
    """The defender's answer (``Attack.answer``): the defense it makes, None for
    its better one (``best_defense``). A defender who cannot defend makes none,
    whatever it answered. Battle files before schema 5 kept the defense in the
    attacker's choices."""

    defense: Defense | None = None

    was_in_choices: ClassVar[AnswerInChoices | None] = AnswerInChoices(
        "Choices003", ("defense",), before_schema=5
    )


BEST_DEFENSE = Seed003Answer()


@dataclass(frozen=True, slots=True)
class PlannedDefense:
    """One defense the defender may answer with: its level with its modifiers, or
    why it cannot be made (``problem``, None: it can)."""

    kind: Defense
    level: int
    modifiers: tuple[Modifier, ...]
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Plan003(PlannedPair):
    """An attack as planned, before any die and before the defender's answer
    (``rules.battle.attack_steps.PlannedAttack``): the attack's level with its
    modifiers, each defense the defender may make (none when it cannot defend:
    ``helpless``) and the damage's factors; the two fighters as the attack finds
    them (the wounds are rolled on a copy)."""

    attacker: Combatant
    defender: Combatant
    weapon: Weapon
    mode: WeaponMode
    aim: AimTarget | None  # None: a distant shot's random location
    attack_level: int
    attack_modifiers: tuple[Modifier, ...]
    defenses: tuple[PlannedDefense, ...]  # empty: the defender cannot defend
    best: Defense | None  # the better defense allowed (None: helpless)
    offensive: int
    offensive_modifiers: tuple[Modifier, ...]
    damage_adjustment: int  # the large target's -1
    widespread: bool
    attack_side: Side
    hidden: frozenset[BodyPart] = frozenset()  # by the cover in the defender's hex

    @property
    def helpless(self) -> bool:
        return not self.defenses

    @property
    def exposed(self) -> tuple[BodyPart, ...]:
        """The parts a widespread attack reaches: all but those the cover hides."""
        return tuple(p for p in BODY_PARTS if p not in self.hidden)

    @property
    def attacker_modifiers(self) -> tuple[Modifier, ...]:
        return self.attack_modifiers

    @property
    def defender_modifiers(self) -> tuple[Modifier, ...]:
        """The modifiers of the defense made against the default answer."""
        return self.defense_modifiers(BEST_DEFENSE)

    @property
    def rolls(self) -> tuple[PlannedRoll, ...]:
        """The attack, which must beat the defense (a helpless defender's fixed
        Terrible), then each defense the defender may make."""
        attack = PlannedRoll(
            self.attacker.id,
            "attack",
            f"4dF{self.attack_level:+d}",
            Needs.ABOVE,
            HELPLESS_LEVEL if self.helpless else None,
        )
        defenses = tuple(
            PlannedRoll(self.defender.id, d.kind.value, f"4dF{d.level:+d}", Needs.ABOVE)
            for d in self.defenses
            if d.problem is None
        )
        return (attack, *defenses)

    def defense_made(self, answer: Seed003Answer) -> PlannedDefense | None:
        """The defense rolled against ``answer`` (None: the defender cannot defend);
        ``IllegalAttackError`` for a defense it cannot make."""
        if self.helpless:
            return None
        wanted = answer.defense or self.best
        planned = next(d for d in self.defenses if d.kind is wanted)
        if planned.problem is not None:
            raise IllegalAttackError(
                f"{self.defender.name} cannot {planned.kind.value}: {planned.problem}"
            )
        return planned

    def defense_modifiers(self, answer: Seed003Answer) -> tuple[Modifier, ...]:
        """The modifiers of the defense made against ``answer``, or the helpless
        defender's fixed Terrible."""
        made = self.defense_made(answer)
        if made is None:
            return (Modifier(HELPLESS_LEVEL, f"{self.defender.name} cannot defend", BASE_HELPLESS),)
        return made.modifiers

    def difference(self, answer: Seed003Answer = BEST_DEFENSE) -> int:
        """The attack's level less the defense's against ``answer``."""
        made = self.defense_made(answer)
        return self.attack_level - (HELPLESS_LEVEL if made is None else made.level)


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
    # The defenses the defender may answer with.
    defenses: tuple[PlannedDefense, ...] = ()
    best: Defense | None = None
    if defender.status is Status.ACTIVE:
        allowed = defense_options(attacker, defender, mode)
        best = best_defense(attacker, defender, mode)
        defenses = tuple(
            _planned_defense(state, attacker, defender, mode, kind, why)
            for kind, why in allowed.items()
        )
    # The offensive damage factor.
    odf_mods = [Modifier(mode.damage.adds, f"{weapon.name} damage factor", BASE_DAMAGE)]
    if mode.damage.base is not DamageBase.FIXED:
        odf_mods.append(Modifier(sheet.strength, "Strength", BASE_DAMAGE))
    adjustment = LARGE_TARGET_DAMAGE if choices.large_target else 0
    return Plan003(
        attacker=attacker,
        defender=defender,
        weapon=weapon,
        mode=mode,
        aim=aim,
        attack_level=sum(m.value for m in attack_mods),
        attack_modifiers=tuple(attack_mods),
        defenses=defenses,
        best=best,
        offensive=sum(m.value for m in odf_mods),
        offensive_modifiers=tuple(odf_mods),
        damage_adjustment=adjustment,
        widespread=choices.widespread,
        attack_side=side,
        hidden=hidden,
    )


def _planned_defense(
    state: BattleState,
    attacker: Combatant,
    defender: Combatant,
    mode: WeaponMode,
    kind: Defense,
    problem: str | None,
) -> PlannedDefense:
    """One defense with its modifiers (the skill, the shield from the front, the
    worst wound among the parts it uses, the map, a missile, the maneuver); a
    defense that cannot be made is planned at 0 with its reason."""
    if problem is not None:
        return PlannedDefense(kind, 0, (), problem)
    level, name = _defense_level(defender, kind)
    mods = [Modifier(level, name, BASE_OPPOSED)]
    shield = defender.fighter.shield
    front = in_front_arc(defender.hex, defender.facing, attacker.hex)
    if shield is not None and shield.pd and front and defender.shield_ready:
        mods.append(Modifier(shield.pd, shield.name, BASE_SHIELD))
    mods.extend(wound_modifier(defender, defense_parts(defender, kind)))
    mods.extend(defense_situation(state, attacker, defender, mode))
    if mode.delivery is Delivery.MISSILE:
        # Base rules: a shot from a bow or a gun is harder to dodge than a
        # thrown weapon (-2 or -3 there; -2 here).
        mods.append(Modifier(MISSILE_DODGE, "dodging a missile", BASE_RANGED))
    mods.extend(maneuver_defense_modifiers(defender))
    return PlannedDefense(kind, sum(m.value for m in mods), tuple(mods))


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


@dataclass(frozen=True, slots=True)
class WoundEffects:
    """What the wounds did beyond the boxes (``roll_wound_effects``): the Move
    before and after a leg gave way (None: unchanged), the part that gave way
    with the Agility roll to stay up (None: none rolled), the body's new state
    when it stopped the fighter (None: it did not)."""

    hobbled: tuple[int, int] | None = None
    stand: tuple[BodyPart, FudgeRoll] | None = None
    stopped: PartState | None = None


def roll_wound_effects(
    c: Combatant, before: BodyTracks, after: BodyTracks, dice: DiceSource
) -> tuple[Combatant, WoundEffects, tuple[LaunchedPiece, ...]]:
    """What newly useless limbs and a stopped body do (003 5.873): an arm or hand
    drops what it holds (the weapon hand its weapon, the other a shield; either
    one a two-handed weapon) at the feet; a leg or foot drops the fighter unless
    a Superb Agility roll keeps him up, and from then on he moves only slowly
    (``hobbled_move``); the torso or head at Incapacitated or worse stops him."""
    hobbled: tuple[int, int] | None = None
    legs_before = any(before.track(p).state.disabled for p in leg_parts())
    legs_after = any(after.track(p).state.disabled for p in leg_parts())
    if legs_after and not legs_before:
        slow = hobbled_move(c.fighter.move)
        if slow < c.fighter.move:
            hobbled = (c.fighter.move, slow)
            c = c.evolve(fighter=replace(c.fighter, move=slow))
    pieces: list[LaunchedPiece] = []
    stand: tuple[BodyPart, FudgeRoll] | None = None
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
                rolled = roll_fudge(
                    sheet_of(c).agility,
                    dice,
                    f"{c.name}'s Agility to stay up",
                    at_least=STAND_TARGET,
                )
                stand = (part, rolled)
                if rolled.result < STAND_TARGET:
                    c = c.evolve(posture=Posture.PRONE)
            else:
                c = c.evolve(posture=Posture.PRONE)
    stopped: PartState | None = None
    if after.body_state is not before.body_state and after.body_state.disabled:
        stopped = after.body_state
        if c.posture is Posture.STANDING:
            c = c.evolve(posture=Posture.PRONE)
    return c, WoundEffects(hobbled, stand, stopped), tuple(pieces)


def wound_effect_events(c: Combatant, effects: WoundEffects) -> tuple[Event, ...]:
    """The log's events of ``effects`` on ``c``, in the order they happened."""
    events: list[Event] = []
    if effects.hobbled is not None:
        move_before, move_after = effects.hobbled
        events.append(
            Hobbled(
                citation=USELESS,
                combatant_id=c.id,
                name=c.name,
                move_before=move_before,
                move_after=move_after,
            )
        )
    if effects.stand is not None:
        part, rolled = effects.stand
        events.append(
            StayedStanding(
                citation=USELESS, combatant_id=c.id, name=c.name, part=part.value, roll=rolled
            )
        )
    if effects.stopped is not None:
        events.append(
            BodyStateChanged(
                citation=PART_DAMAGE, combatant_id=c.id, name=c.name, state=effects.stopped
            )
        )
    return tuple(events)


def wound_effects(
    c: Combatant, before: BodyTracks, after: BodyTracks, dice: DiceSource
) -> tuple[Combatant, tuple[Event, ...], tuple[LaunchedPiece, ...]]:
    """``roll_wound_effects`` with its events, for a wound outside an attack (a
    flying piece's)."""
    c, effects, pieces = roll_wound_effects(c, before, after, dice)
    return c, wound_effect_events(c, effects), pieces


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


# --- the outcome of a wound ------------------------------------------------------------


PAST_THE_TRACK = len(WoundLevel) + 1  # an outcome past a track's last box: dead or lost


def outcome_of(mark: WoundMark) -> int:
    """A wound's outcome for the odds: the level of the box it checked (1 Scratch
    .. 5 Near Death/Crippled; a full level passes the wound up, so a Hurt on a
    full Hurt row is a Very Hurt), ``PAST_THE_TRACK`` when it went past the last
    box (the torso or head dead, a limb lost), 0 when the part was already gone."""
    if mark.marked is not None:
        return int(mark.marked)
    return 0 if mark.before is mark.after else PAST_THE_TRACK
