"""Seed 002's attack: the choices, the plan (skills and situational modifiers
before any die) and the resolution by the result matrix.

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
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from hexmap import in_front_arc, in_reach
from rules.battle.attack_choices import AttackChoices
from rules.battle.model import Combatant, Delivery, Posture, Status, Weapon, WeaponMode
from rules.battle.pieces import AT_FEET, Piece, Placement, PlacementKind
from rules.battle.state import AttackResult, BattleState, LaunchedPiece
from rules.core.citation import Citation
from rules.core.dice import Dice, DiceSource, dice_distribution, roll
from rules.core.errors import IllegalAttackError
from rules.core.events import Event
from rules.core.modifiers import Modifier, total
from rules.sets.seed002.events import (
    AttackDeclared,
    DamageDealt,
    DefenseNotMade,
    Fumbled,
    LocationRolled,
    ResultApplied,
    SkillRolled,
    StatusChanged,
)
from rules.sets.seed002.hands import wielding_problem
from rules.sets.seed002.sheet import DODGE, sheet_of
from rules.sets.seed002.situation import GMSituation, situation
from rules.sets.seed002.success import (
    BASE_CRITICAL,
    BASE_FUMBLE,
    BASE_SKILL_ROLL,
    PercentileRoll,
    roll_skill,
)
from rules.sets.seed002.tables import (
    BASE,
    LOCATION_DIE,
    Automatic,
    Damage,
    DamageModifier,
    Level,
    MatrixCell,
    dice_text,
    location_for,
    matrix_cell,
)
from rules.sets.seed002.tracks import tracks_of
from rules.sets.seed002.wounds import is_major, major_wound

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
    """The attack's choices: the weapon and mode, the defender's defense (a parry
    names its weapon) and the GM's situation."""

    weapon_key: str
    mode: str
    defense: DefenseKind = DefenseKind.DODGE
    parry_weapon: str = ""
    gm: GMSituation = NO_SITUATION


@dataclass(frozen=True, slots=True)
class Plan:
    attacker: Combatant
    defender: Combatant
    weapon: Weapon
    mode: WeaponMode
    attack_base: int
    attack_modifiers: tuple[Modifier, ...]
    automatic: Automatic | None
    automatic_reason: str
    defense: DefenseKind  # what is rolled (NONE when no defense can be made)
    defense_reason: str  # why none, when none
    parry_weapon: Weapon | None
    defense_base: int
    defense_modifiers: tuple[Modifier, ...]
    damage: Dice
    damage_modifier: DamageModifier
    armour: int
    # The option "locations-d20": a blow that armour can stop rolls a d20 for its
    # location, whose armour points count (``armour_at``).
    locations: bool = False
    armour_by_location: Mapping[str, int] = field(default_factory=dict)

    def armour_at(self, location: str) -> int:
        return self.armour_by_location.get(location, self.armour)

    @property
    def attack_skill(self) -> int:
        return self.attack_base + total(self.attack_modifiers)

    @property
    def defense_skill(self) -> int:
        return self.defense_base + total(self.defense_modifiers)

    @property
    def size_difference(self) -> int:
        """Ranks the parrying weapon is smaller than the attacking one (0 or less:
        as large or larger)."""
        if self.parry_weapon is None:
            return 0
        return self.weapon.size.rank - self.parry_weapon.size.rank

    @property
    def defense_label(self) -> str:
        if self.defense is DefenseKind.PARRY and self.parry_weapon is not None:
            return f"parry with the {self.parry_weapon.name}"
        if self.defense is DefenseKind.DODGE:
            return "dodge"
        return f"no defense ({self.defense_reason})" if self.defense_reason else "no defense"


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
    defense = choices.defense
    reason = no_defense_reason(defender, choices.gm) if defense is not DefenseKind.NONE else ""
    parry = None
    defense_base = 0
    if reason:
        defense = DefenseKind.NONE
    elif defense is DefenseKind.PARRY:
        if mode.is_ranged:
            raise IllegalAttackError("a ranged attack can be dodged, not parried")
        parry = _find_weapon(defender, choices.parry_weapon)
        problem = parry_problem(defender, parry)
        if problem is not None:
            raise IllegalAttackError(f"{defender.name} cannot parry: {problem}")
        defense_base = sheet_of(defender).skill(parry.skill)
    elif defense is DefenseKind.DODGE:
        defense_base = sheet_of(defender).skill(DODGE)
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
        defense=defense,
        defense_reason=reason,
        parry_weapon=parry,
        defense_base=defense_base,
        defense_modifiers=sit.defense if defense is not DefenseKind.NONE else (),
        damage=fixed,
        damage_modifier=dm,
        armour=armour,
        locations=locations,
        armour_by_location=sheet_of(defender).armour_by_location,
    )


# --- damage -------------------------------------------------------------------------------


def maximum_damage(plan: Plan) -> int:
    d, dm = plan.damage, plan.damage_modifier
    most = d.count * d.sides + d.adds
    if dm.dice is not None:
        most += dm.dice.count * dm.dice.sides if dm.sign > 0 else -dm.dice.count
    return max(0, most)


def rolled_damage_distribution(plan: Plan) -> dict[int, Fraction]:
    """The exact distribution of the damage rolled (weapon plus modifier, at least 0)."""
    out: dict[int, Fraction] = {}
    weapon = dice_distribution(plan.damage, None)
    dm = plan.damage_modifier
    extra = {0: Fraction(1)} if dm.dice is None else dict(dice_distribution(dm.dice, None))
    for a, pa in weapon.items():
        for b, pb in extra.items():
            value = max(0, a + dm.sign * b if dm.dice is not None else a)
            out[value] = out.get(value, Fraction(0)) + pa * pb
    return dict(sorted(out.items()))


def taken_damage(rolled: int, armour: int, halved: bool) -> int:
    after = max(0, rolled - armour)
    return after // 2 if halved else after


def cell_damage_kind(cell: MatrixCell, plan: Plan) -> tuple[bool, bool, bool]:
    """(damage is done, it is the maximum, it is halved) for the cell and plan."""
    if cell.damage is Damage.NONE:
        return False, False, False
    if cell.damage is Damage.MAXIMUM:
        return True, True, False
    if cell.damage is Damage.BY_DEFENSE:
        if plan.defense is DefenseKind.DODGE:
            return False, False, False
        diff = plan.size_difference
        if diff <= 0:
            return False, False, False
        return True, False, diff == 1
    return True, False, False


def result_text(cell: MatrixCell, plan: Plan) -> str:
    done, maximum, halved = cell_damage_kind(cell, plan)
    if cell.attacker_fumbles:
        return "the attacker fumbles"
    if not cell.hit and not done:
        if cell.attacker is Level.FAILURE:
            return "the attack misses"
        return "the defender avoids the attack"
    if not done:
        if plan.defense is DefenseKind.DODGE:
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


# --- resolution ---------------------------------------------------------------------------


def _fumble(
    who: Combatant, weapon: Weapon | None, what: str
) -> tuple[Combatant, Fumbled, tuple[LaunchedPiece, ...]]:
    """An attack or parry fumble drops its weapon; a dodge or unarmed fumble falls."""
    if weapon is not None and weapon.kind.value != "unarmed":
        event = Fumbled(
            citation=BASE_FUMBLES,
            combatant_id=who.id,
            name=who.name,
            text=f"the {what} drops the {weapon.name}",
        )
        return who, event, (LaunchedPiece(Piece(weapon.name, weapon, AT_FEET), who.id),)
    fallen = who if who.posture is Posture.PRONE else who.evolve(posture=Posture.PRONE)
    event = Fumbled(
        citation=BASE_FUMBLES, combatant_id=who.id, name=who.name, text=f"the {what} ends prone"
    )
    return fallen, event, ()


def roll_damage(plan: Plan, dice: DiceSource) -> tuple[tuple[int, ...], int]:
    d = plan.damage
    faces = roll(d.count, dice, d.sides, what=f"{plan.attacker.name}'s damage", adds=d.adds)
    value = sum(faces) + d.adds
    dm = plan.damage_modifier
    if dm.dice is not None:
        extra = roll(
            dm.dice.count,
            dice,
            dm.dice.sides,
            what=f"{plan.attacker.name}'s damage modifier ({dm})",
        )
        faces = (*faces, *extra)
        value += dm.sign * (sum(extra) + dm.dice.adds)
    return faces, max(0, value)


def resolve_attack(state: BattleState, plan: Plan, dice: DiceSource) -> AttackResult:
    attacker, defender = plan.attacker, plan.defender
    events: list[Event] = [
        AttackDeclared(
            citation=BASE_DEFENSES,
            attacker_id=attacker.id,
            attacker_name=attacker.name,
            defender_id=defender.id,
            defender_name=defender.name,
            weapon_name=plan.weapon.name,
            mode=plan.mode.name,
            defense=plan.defense_label,
        )
    ]
    pieces: list[LaunchedPiece] = []
    attack = roll_skill(plan.attack_skill, dice, f"{attacker.name}'s attack", plan.automatic)
    events.append(_rolled(attacker, "attack", attack))
    defense_level = Level.FAILURE
    if attack.level.succeeded:
        if plan.defense is DefenseKind.NONE:
            events.append(
                DefenseNotMade(
                    citation=BASE_DEFENSES,
                    combatant_id=defender.id,
                    name=defender.name,
                    reason=plan.defense_reason or "none chosen",
                )
            )
        else:
            what = plan.defense.value
            defense = roll_skill(plan.defense_skill, dice, f"{defender.name}'s {what}")
            events.append(_rolled(defender, what, defense))
            defense_level = defense.level
    cell = matrix_cell(attack.level, defense_level)
    events.append(ResultApplied(citation=cell.citation, text=result_text(cell, plan)))
    done, maximum, halved = cell_damage_kind(cell, plan)
    if done:
        defender, more, launched = _damage(plan, defender, cell, maximum, halved, dice)
        events.extend(more)
        pieces.extend(launched)
    if cell.attacker_fumbles:
        attacker, event, launched = _fumble(attacker, plan.weapon, "attack")
        events.append(event)
        pieces.extend(launched)
    elif plan.mode.delivery is Delivery.THROWN:
        thrown = Piece(plan.weapon.name, plan.weapon, THROWN_PLACEMENT, note=THROWN)
        pieces.append(LaunchedPiece(thrown, attacker.id, defender.hex))
    if cell.defender_fumbles and defender.status is not Status.DEAD:
        weapon = plan.parry_weapon if plan.defense is DefenseKind.PARRY else None
        defender, event, launched = _fumble(defender, weapon, plan.defense.value)
        events.append(event)
        pieces.extend(launched)
    return AttackResult((attacker, defender), tuple(events), tuple(pieces))


def _rolled(who: Combatant, what: str, r: PercentileRoll) -> SkillRolled:
    return SkillRolled(
        citation=matrix_citation_for(r), combatant_id=who.id, name=who.name, what=what, roll=r
    )


def matrix_citation_for(r: PercentileRoll) -> Citation:
    if r.level is Level.CRITICAL:
        return BASE_CRITICAL
    if r.level is Level.FUMBLE:
        return BASE_FUMBLE
    return BASE_SKILL_ROLL


def _damage(
    plan: Plan,
    defender: Combatant,
    cell: MatrixCell,
    maximum: bool,
    halved: bool,
    dice: DiceSource,
) -> tuple[Combatant, list[Event], tuple[LaunchedPiece, ...]]:
    if maximum:
        faces: tuple[int, ...] = ()
        rolled = maximum_damage(plan)
    else:
        faces, rolled = roll_damage(plan, dice)
    events: list[Event] = []
    armour = plan.armour if cell.armour else 0
    if plan.locations and cell.armour:
        (face,) = roll(1, dice, LOCATION_DIE, what=f"{defender.name}'s hit location")
        where = location_for(face)
        armour = plan.armour_at(where.key)
        events.append(
            LocationRolled(
                citation=where.citation,
                combatant_id=defender.id,
                name=defender.name,
                face=face,
                label=where.label,
                armour=armour,
            )
        )
    taken = taken_damage(rolled, armour, halved)
    max_hp = defender.fighter.hit_points
    hp_after = defender.hp - taken
    dm = "" if plan.damage_modifier.dice is None else str(plan.damage_modifier)
    events.append(
        DamageDealt(
            citation=cell.citation,
            combatant_id=defender.id,
            name=defender.name,
            dice=f"{dice_text(plan.damage)}{dm}",
            faces=faces,
            rolled=rolled,
            maximum=maximum,
            armour=armour,
            halved=halved,
            taken=taken,
            hp_before=defender.hp,
            hp_after=hp_after,
            max_hp=max_hp,
        )
    )
    after = defender.evolve(hp=hp_after)
    pieces: tuple[LaunchedPiece, ...] = ()
    if hp_after <= 0 and defender.status is not Status.DEAD:
        after = after.evolve(status=Status.DEAD, posture=Posture.PRONE)
        events.append(
            StatusChanged(
                citation=BASE_DEATH, combatant_id=defender.id, name=defender.name, text="dies"
            )
        )
    elif is_major(taken, max_hp):
        after, wound_events, pieces = major_wound(after, dice)
        events.extend(wound_events)
    return after, events, pieces


def outcome_keys(plan: Plan, attack: Level, defense: Level) -> str:
    """The odds line an attack and defense level lead to."""
    cell = matrix_cell(attack, defense)
    done, maximum, halved = cell_damage_kind(cell, plan)
    if cell.attacker_fumbles:
        return "attacker fumbles"
    if not done:
        return "miss" if attack is Level.FAILURE else "avoided"
    if maximum:
        return "critical hit, defender fumbles" if cell.defender_fumbles else "critical hit"
    if halved:
        return "half damage"
    return "hit, defender fumbles" if cell.defender_fumbles else "hit"
