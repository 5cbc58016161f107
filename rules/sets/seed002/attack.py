"""Seed 002's attack: the attacker's choices, the defender's answer, and the
plan (skills and situational modifiers before any die). The resolution by the
result matrix is ``rules.sets.seed002.attack_steps`` (decide, apply, describe).

* The attack rolls the weapon's skill (Close Combat, Ranged Combat, Unarmed ...)
  with its modifiers; a failed or fumbled attack needs no defense.
* The defender dodges (Dodge), parries with a held weapon (its skill) or makes no
  defense; a ranged attack can be dodged, not parried (our reading). One who
  cannot defend (unconscious, paralysed below the neck, helpless) counts as a
  failed defense.
* The matrix cell (``tables.result_matrix``) decides: a dodge that succeeds
  avoids the blow; a parry that succeeds avoids it all with a weapon of the
  attacker's size rank or larger, halves the damage taken (rounded down) one
  rank smaller, and avoids nothing two or more ranks smaller; a critical defense
  avoids it whatever the sizes; a critical attack does the dice's maximum and
  ignores armour, unless the defense is critical too.
* Damage: the weapon's dice plus the damage modifier (close combat and thrown
  weapons; not bows and slings), never below 0, minus the armour points.
* A fighter at 0 hit points or less dies (OpenQuest SRD); one who survives a blow
  of at least its Major Wound Level rolls on the major wound table.
* A thrown weapon leaves the hand and lands in the target's hex, hit or miss.
* A fumble (00): an attack or parry fumble drops the weapon at the fumbler's feet,
  a dodge fumble or an unarmed one puts the fumbler prone (our reading of the
  base rules' fumble results).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import ClassVar

from hexmap import in_front_arc, in_reach
from rules.battle.attack_choices import AnswerInChoices, AttackChoices, DefenderAnswer
from rules.battle.attack_steps import Needs, PlannedPair, PlannedRoll
from rules.battle.model import Combatant, Delivery, Status, Weapon, WeaponMode
from rules.battle.pieces import Placement, PlacementKind
from rules.battle.state import BattleState
from rules.core.citation import Citation
from rules.core.dice import Dice
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier, total
from rules.sets.seed002.hands import wielding_problem
from rules.sets.seed002.sheet import DODGE, sheet_of
from rules.sets.seed002.situation import GMSituation, situation
from rules.sets.seed002.tables import (
    BASE,
    Automatic,
    Damage,
    DamageModifier,
    Level,
    MatrixCell,
    matrix_cell,
)
from rules.sets.seed002.tracks import tracks_of

BASE_DEATH = Citation(BASE, "Hit points: at 0 or less the character dies")
BASE_FUMBLES = Citation(BASE, "Fumbles in combat")
BASE_DEFENSES = Citation(BASE, "Defensive reactions: dodge and parry")
BASE_THROWN = Citation(BASE, "Ranged combat: thrown weapons")
# A thrown weapon leaves the hand and lands in its target's hex, hit or miss (ours).
THROWN_PLACEMENT = Placement(PlacementKind.ON_TARGET, citation=BASE_THROWN)
THROWN = "thrown"  # the Piece.note of a thrown weapon


NO_SITUATION = GMSituation()


class DefenseKind(Enum):
    DODGE = "dodge"
    PARRY = "parry"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Attack002(AttackChoices):
    """The attacker's choices (``Attack.choices``): the weapon and mode and the
    GM's situation."""

    weapon_key: str
    mode: str
    gm: GMSituation = NO_SITUATION


@dataclass(frozen=True, slots=True)
class Seed002Answer(DefenderAnswer):
    """The defender's answer (``Attack.answer``): its defense, a dodge unless it
    says otherwise; a parry names its weapon. A defender who can make none
    (unconscious, paralysed below the neck, helpless) makes none, whatever it
    answered. Battle files before schema 4 kept the defense in the attacker's
    choices."""

    defense: DefenseKind = DefenseKind.DODGE
    parry_weapon: str = ""

    was_in_choices: ClassVar[AnswerInChoices | None] = AnswerInChoices(
        "Attack002", ("defense", "parry_weapon"), before_schema=4
    )


DODGE_ANSWER = Seed002Answer()
NO_DEFENSE = Seed002Answer(DefenseKind.NONE)


@dataclass(frozen=True, slots=True)
class MadeDefense:
    """The defense an answer comes to against a plan (``defense_made``): what is
    rolled (NONE when no defense is made), why none (when the defender can make
    none; "" when it chose none), the parrying weapon, and its skill's base and
    modifiers."""

    kind: DefenseKind
    reason: str = ""
    parry_weapon: Weapon | None = None
    base: int = 0
    modifiers: tuple[Modifier, ...] = ()
    size_difference: int = 0  # ranks the parrying weapon is smaller than the attacking one

    @property
    def skill(self) -> int:
        return self.base + total(self.modifiers)

    @property
    def label(self) -> str:
        if self.kind is DefenseKind.PARRY and self.parry_weapon is not None:
            return f"parry with the {self.parry_weapon.name}"
        if self.kind is DefenseKind.DODGE:
            return "dodge"
        return f"no defense ({self.reason})" if self.reason else "no defense"


@dataclass(frozen=True, slots=True)
class Plan(PlannedPair):
    """The attack before any die (``rules.battle.attack_steps.PlannedAttack``):
    who and with what, the attack's skill and modifiers, why the defender can
    make no defense ("" if it can), its Dodge and the modifiers on any defense
    (a parry's skill is found by ``defense_made``), the damage and armour.
    Nothing in it depends on the defender's answer."""

    attacker: Combatant
    defender: Combatant
    weapon: Weapon
    mode: WeaponMode
    attack_base: int
    attack_modifiers: tuple[Modifier, ...]
    automatic: Automatic | None
    automatic_reason: str
    no_defense: str
    dodge_base: int
    defense_modifiers: tuple[Modifier, ...]
    damage: Dice
    damage_modifier: DamageModifier
    armour: int
    # The option "locations-d20": a blow that armour can stop rolls a d20 for its
    # location, whose armour points count (``armour_at``).
    locations: bool = False
    armour_by_location: Mapping[str, int] = field(default_factory=dict)

    def __hash__(self) -> int:
        # The odds cache keys on the plan: the mapping hashed by its items.
        named = (getattr(self, f.name) for f in fields(self) if f.name != "armour_by_location")
        return hash((*named, frozenset(self.armour_by_location.items())))

    def armour_at(self, location: str) -> int:
        return self.armour_by_location.get(location, self.armour)

    @property
    def attacker_modifiers(self) -> tuple[Modifier, ...]:
        return self.attack_modifiers

    @property
    def defender_modifiers(self) -> tuple[Modifier, ...]:
        """The situational modifiers on any defense (none when none can be made)."""
        return () if self.no_defense else self.defense_modifiers

    @property
    def attack_skill(self) -> int:
        return self.attack_base + total(self.attack_modifiers)

    @property
    def rolls(self) -> tuple[PlannedRoll, ...]:
        """The attack's d100 at most its skill, then each defense the defender may
        make at most its own: a dodge, and a parry with each weapon that can."""
        attack = PlannedRoll(self.attacker_id, "attack", "1d100", Needs.AT_MOST, self.attack_skill)
        if self.no_defense:
            return (attack,)
        answers = [DODGE_ANSWER]
        if not self.mode.is_ranged:
            answers += [
                Seed002Answer(DefenseKind.PARRY, w.key)
                for w in self.defender.fighter.weapons
                if parry_problem(self.defender, w) is None
            ]
        defenses = tuple(defense_made(self, a) for a in answers)
        return (
            attack,
            *(
                PlannedRoll(self.defender_id, d.label, "1d100", Needs.AT_MOST, d.skill)
                for d in defenses
            ),
        )


def defense_made(plan: Plan, answer: Seed002Answer) -> MadeDefense:
    """The defense ``answer`` comes to against ``plan``: none when the defender can
    make none; ``IllegalAttackError`` for a parry that cannot be made (against a
    ranged attack, or with a weapon that cannot parry)."""
    kind = answer.defense
    if kind is DefenseKind.NONE:
        return MadeDefense(DefenseKind.NONE)
    if plan.no_defense:
        return MadeDefense(DefenseKind.NONE, plan.no_defense)
    if kind is DefenseKind.DODGE:
        return MadeDefense(kind, base=plan.dodge_base, modifiers=plan.defense_modifiers)
    if plan.mode.is_ranged:
        raise IllegalAttackError("a ranged attack can be dodged, not parried")
    defender = plan.defender
    parry = _find_weapon(defender, answer.parry_weapon)
    problem = parry_problem(defender, parry)
    if problem is not None:
        raise IllegalAttackError(f"{defender.name} cannot parry: {problem}")
    return MadeDefense(
        kind,
        parry_weapon=parry,
        base=sheet_of(defender).skill(parry.skill),
        modifiers=plan.defense_modifiers,
        size_difference=plan.weapon.size.rank - parry.size.rank,
    )


def reaches(attacker: Combatant, mode: WeaponMode, defender: Combatant) -> bool:
    if mode.is_ranged:
        distance = attacker.hex.distance(defender.hex)
        in_range = mode.range_hexes is not None and 0 < distance <= mode.range_hexes
        return in_range and in_front_arc(attacker.hex, attacker.facing, defender.hex)
    return in_reach(attacker.hex, attacker.facing, mode.reach, defender.hex)


def attack_problem(attacker: Combatant, weapon: Weapon, mode: WeaponMode) -> str | None:
    if attacker.status is not Status.ACTIVE:
        return f"{attacker.name} is {attacker.status.value}"
    if weapon.key in attacker.unready:
        return f"the {weapon.name} is not ready"
    return wielding_problem(attacker, weapon)


def parry_problem(defender: Combatant, weapon: Weapon) -> str | None:
    if weapon.is_missile_weapon:
        return f"a {weapon.name} cannot parry"
    if weapon.key in defender.unready:
        return f"the {weapon.name} is not ready"
    return wielding_problem(defender, weapon)


def no_defense_reason(defender: Combatant, gm: GMSituation) -> str:
    """Why the defender can make no defense at all ("" if it can)."""
    if not defender.status.can_defend or defender.status is not Status.ACTIVE:
        return defender.status.value
    if tracks_of(defender).paralysis == "neck":
        return "paralysed below the neck"
    if gm.helpless:
        return "helpless"
    return ""


def _find_weapon(who: Combatant, key: str) -> Weapon:
    for w in who.fighter.weapons:
        if w.key == key:
            return w
    raise IllegalAttackError(f"{who.name} has no weapon {key!r}")


def plan_attack(
    state: BattleState,
    attacker_id: str,
    defender_id: str,
    choices: Attack002,
    *,
    locations: bool = False,
) -> Plan:
    if attacker_id == defender_id:
        raise IllegalAttackError("a combatant cannot attack itself")
    attacker, defender = state.combatant(attacker_id), state.combatant(defender_id)
    weapon = _find_weapon(attacker, choices.weapon_key)
    try:
        mode = weapon.mode(choices.mode)
    except KeyError:
        raise IllegalAttackError(f"the {weapon.name} has no mode {choices.mode!r}") from None
    problem = attack_problem(attacker, weapon, mode)
    if problem is not None:
        raise IllegalAttackError(f"{attacker.name} cannot attack with the {weapon.name}: {problem}")
    if not reaches(attacker, mode, defender):
        raise IllegalAttackError(f"{defender.name} is out of the {weapon.name}'s reach")
    sit = situation(state, attacker, defender, mode, choices.gm)
    sheet = sheet_of(attacker)
    defender_sheet = sheet_of(defender)
    fixed = mode.damage.fixed
    if fixed is None:
        raise IllegalAttackError(f"the {weapon.name}'s {mode.name} has no damage dice")
    dm = DamageModifier(0, None) if mode.delivery is Delivery.MISSILE else sheet.damage_modifier
    armour = defender.fighter.armor.dr if defender.fighter.armor is not None else 0
    return Plan(
        attacker=attacker,
        defender=defender,
        weapon=weapon,
        mode=mode,
        attack_base=sheet.skill(weapon.skill),
        attack_modifiers=sit.attack,
        automatic=sit.automatic,
        automatic_reason=sit.automatic_reason,
        no_defense=no_defense_reason(defender, choices.gm),
        dodge_base=defender_sheet.skill(DODGE),
        defense_modifiers=sit.defense,
        damage=fixed,
        damage_modifier=dm,
        armour=armour,
        locations=locations,
        armour_by_location=defender_sheet.armour_by_location,
    )


# --- damage and the matrix's cell -----------------------------------------------------------


def maximum_damage(plan: Plan) -> int:
    d, dm = plan.damage, plan.damage_modifier
    most = d.count * d.sides + d.adds
    if dm.dice is not None:
        most += dm.dice.count * dm.dice.sides if dm.sign > 0 else -dm.dice.count
    return max(0, most)


def taken_damage(rolled: int, armour: int, halved: bool) -> int:
    after = max(0, rolled - armour)
    return after // 2 if halved else after


def cell_damage_kind(cell: MatrixCell, defense: MadeDefense) -> tuple[bool, bool, bool]:
    """(damage is done, it is the maximum, it is halved) for the cell and the
    defense made."""
    if cell.damage is Damage.NONE:
        return False, False, False
    if cell.damage is Damage.MAXIMUM:
        return True, True, False
    if cell.damage is Damage.BY_DEFENSE:
        if defense.kind is DefenseKind.DODGE:
            return False, False, False
        diff = defense.size_difference
        if diff <= 0:
            return False, False, False
        return True, False, diff == 1
    return True, False, False


def result_text(cell: MatrixCell, defense: MadeDefense) -> str:
    done, maximum, halved = cell_damage_kind(cell, defense)
    if cell.attacker_fumbles:
        return "the attacker fumbles"
    if not cell.hit and not done:
        if cell.attacker is Level.FAILURE:
            return "the attack misses"
        return "the defender avoids the attack"
    if not done:
        if defense.kind is DefenseKind.DODGE:
            return "the dodge avoids the attack"
        return "the parry stops all damage (its weapon is as large or larger)"
    text = "a hit"
    if maximum:
        text = "a critical hit: maximum damage, armour ignored"
    elif halved:
        text = "the parry halves the damage (its weapon is one size rank smaller)"
    elif cell.damage is Damage.BY_DEFENSE:
        text = "the parry avoids nothing (its weapon is two or more ranks smaller)"
    if cell.defender_fumbles:
        text += "; the defender fumbles"
    return text


def outcome_keys(defense: MadeDefense, attack: Level, defended: Level) -> str:
    """The odds line an attack and defense level lead to."""
    cell = matrix_cell(attack, defended)
    done, maximum, halved = cell_damage_kind(cell, defense)
    if cell.attacker_fumbles:
        return "attacker fumbles"
    if not done:
        return "miss" if attack is Level.FAILURE else "avoided"
    if maximum:
        return "critical hit, defender fumbles" if cell.defender_fumbles else "critical hit"
    if halved:
        return "half damage"
    return "hit, defender fumbles" if cell.defender_fumbles else "hit"
