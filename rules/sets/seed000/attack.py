"""Planning and resolving one melee attack under seed 000.

``plan_attack`` rolls no dice: it checks the attack is possible and computes the
arc, the attacker's effective skill with every modifier (aimed location, the
defender's PD - which seed 000 SUBTRACTS from the attacker's chance, "000 PASSIVE
DEFENSE" - cumulative-defense penalties, situational modifiers), each announced
defense's final score, and the damage dice.

``resolve_attack`` rolls: the attack against the effective skill; on a plain
success each announced defense in the announced order until one succeeds (000
DEFENSES: defenses are announced before any roll and can't be added as earlier
ones fail); a critical hit allows no defense (base rules). It returns a frozen
record of every roll with the updated combatants and the log's events. What the
dice decide - the attack roll and its consequences, each defense, the damage,
the located wound - it rolls through the steps of ``rules.sets.seed000.dice_steps``,
which ``rules.sets.seed000.odds`` enumerates for the exact odds; the mishaps that
follow a decision (critical miss table, fumbles, breakage) are rolled here.

Seed 000 / 001 rules wired in (docs/rules-core.md, "The attack, wired"): hit
locations from the battle's hit location system (``Tables.hit_locations``: 000's
table, or 001's with the ``locations-001`` option) with aimed penalties, random
locations, near misses and misses only because of the aim, located wounds
(``rules.sets.seed000.wound_effects``); adverse combat conditions; acrobatic dodges, defended
body areas, fencing parries, off-balance; critical misses (verifying, avoiding, the
table) on attacks and on defenses; parries breaking against heavy weapons;
striking at weapons (cutting shafts, breaking blades, 001 damage), disarming
(000 contest, 001 knock-away); subduing (001) and chinks in armor (001); the
counter-blow on an unarmed attacker after a weapon parry, the bare-handed parrying
limb at +2, heavy shields needing readying, the critical miss table applied (falls,
hitting oneself, strains), weakened weapons snapping, covered areas re-rolled,
stray blows on the combatant in the way (000), 001 shield arm / hand. Pieces
that leave a hand are returned as ``AttackResolution.pieces`` for the map.

Interpretations (see docs/rules-core.md):

* Every announced defense counts as made this turn - for the cumulative penalty,
  the blocks-per-turn limit and weapon readiness - whether or not it came to be
  rolled (the attack missed, was a critical hit, or an earlier defense succeeded):
  the defender committed to it when announcing. The exception is a defense won
  with a critical success (3 or 4): it gives no penalty to later defenses
  (000 CRITICAL HITS ON DEFENSE ROLLS).
* One defense of each kind per attack (000 DEFENSES, 000 CUMULATIVE DEFENSES),
  so not two parries with two weapons against one attack, though 000 PARRY
  alone would allow it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from typing import ClassVar

from hexmap import Arc, Handedness, arc_of, in_reach
from rules.battle.attack_choices import AnswerInChoices, AttackChoices, DefenderAnswer
from rules.battle.attack_outcome import BrokenItem
from rules.battle.hands import hand_problem, keep_carried
from rules.battle.model import (
    INTACT,
    ActionKind,
    Combatant,
    CombatantChanges,
    DamageSpec,
    DamageType,
    Delivery,
    Fighter,
    Posture,
    Status,
    TurnAction,
    Weapon,
    WeaponKind,
    WeaponMode,
)
from rules.battle.movement import apply_fall
from rules.battle.pieces import AT_FEET, Piece
from rules.core.citation import BASE_CRITICALS, BASE_SUCCESS_ROLL, BASE_WEAPONS, Citation, cite
from rules.core.dice import Dice, DiceSource, run_merged
from rules.core.errors import IllegalAttackError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.core.quick_init import quick_init
from rules.sets.seed000.attack_events import (
    ATTACK_ROLL_CITATION,
    BLOCK_CITATION,
    DAMAGE_CITATION,
    DEFENSE_CRITICAL_MISS_CITATION,
    DEFENSES_CITATION,
    READINESS_CITATION,
    UNARMED_PARRIES_CITATION,
    AcrobaticDodgeRolled,
    AttackAdjusted,
    AttackDeclared,
    AttackOutcome,
    AttackResolved,
    AttackRolled,
    Between,
    CriticalMissChecked,
    DamageDealt,
    DefenseCriticalMiss,
    DefenseNotRolled,
    DefenseRolled,
    HeavyShieldUnreadied,
    LocationShifted,
    WeaponUnreadied,
    event_pair,
    injury_events,
)
from rules.sets.seed000.attack_told import (
    BlowPair,
    ContestResolvedTold,
    CriticalMissTold,
    DefenseMishapTold,
    DisarmTold,
    ImprovisedParryTold,
    LocatedBlowTold,
    ParryBreakTold,
    PiecesLostTold,
    StrayBlowTold,
    Told,
    UnarmedCounterTold,
    WeaponBrokeTold,
    WeaponSnappedTold,
    WeaponStruckTold,
    tell,
)
from rules.sets.seed000.balance import lose_balance, off_balance_problem
from rules.sets.seed000.breakage import (
    BROKEN_WEAPONS_000,
    BreakResult,
    break_weapon,
    parry_break_chance,
    roll_parry_break,
)
from rules.sets.seed000.checks import Outcome, RollKind, SuccessRoll, success_roll
from rules.sets.seed000.conditions import (
    ConditionError,
    SelectedCondition,
    large_shield_modifier,
    minimum_st_modifier,
    off_hand_modifier,
)
from rules.sets.seed000.critical_misses import (
    BlockMishap,
    CriticalMissResult,
    DodgeMishap,
    Fell,
    HitSelf,
    LostBalance,
    MissAction,
    MissContext,
    NoMishap,
    ParryMishap,
    Strained,
    WeaponBroken,
    WeaponDropped,
    WeaponFlew,
    WeaponUnready,
    defense_critical_miss,
    roll_critical_miss,
)
from rules.sets.seed000.damage import DamageResult, StatusRolls, roll_damage
from rules.sets.seed000.defense import (
    HEAVY_SHIELD_UNREADY_PENALTY,
    DefenseChoice,
    DefensePlan,
    DefenseSituation,
    PassiveDefense,
    attack_cumulative_modifiers,
    plan_defense,
    unready_after_use,
)
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.dice_steps import (
    AttackRollInputs,
    AttackRollStep,
    DefenseInputs,
    DefenseStep,
    WoundInputs,
    attack_roll_step,
    damage_step,
    defense_step,
    wound_status,
)
from rules.sets.seed000.disarm import (
    DisarmContest,
    DisarmOutcome,
    DisarmResult,
    Hand,
)
from rules.sets.seed000.hit_location import (
    MISSING_000,
    HitLocationTable,
    LocationRoll,
    TableSide,
    resolve_table_side,
)
from rules.sets.seed000.improvised import (
    IMPROVISED_000,
    ImprovisedParryOutcome,
    clumsiness_modifier,
    damaged_improvised,
    is_improvised,
    roll_improvised_parry,
)
from rules.sets.seed000.location_rules import AREAS, LocationRules
from rules.sets.seed000.locations import HitLocation, aim_at
from rules.sets.seed000.locations_001 import CHINKS_001
from rules.sets.seed000.missiles import (
    MISSILE_AND_THROWN_000,
    RANDOM_LOCATION_000,
    THROWN_NOTE,
    forced_random_location,
    range_problem,
    ranged_defense_modifiers,
    thrown_placement,
)
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.stances import (
    ACROBATIC_CITATION,
    FENCING_CITATION,
    BodyArea,
    BodySide,
    acrobatics_skill_of,
    combatant_stance,
    defended_area_modifier,
    fencing_parry_allowed,
    free_parries_per_turn,
    stance_modifier,
    weapon_side,
)
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import BalanceBack, tracks_of, with_tracks, wounds_of
from rules.sets.seed000.weapon_strikes import (
    SUBDUING_001,
    StrikePurpose,
    WeaponStrikeRules,
    WeaponUse,
    blunt_end,
    check_weapon_defense,
    flat_of_blade,
    pulled_punch,
    turns_end_for_end,
    use_weakened_weapon,
    weapon_defense_options,
)
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from rules.sets.seed000.wound_effects import Victim, Wound, WoundRolls, note_000, wound_from
from rules.sets.seed000.wounded import (
    after_blow,
    after_wound,
    defense_problem,
    kept_shock,
    weapon_hand_weapon,
    wielding_problem,
    wound_attack_modifiers,
    wound_defense_modifiers,
)

__all__ = [
    "NO_DEFENSE",
    "AttackOptions",
    "AttackOutcome",
    "AttackPlan",
    "AttackResolution",
    "DefenseChoice",
    "DefenseKind",
    "DefenseRoll",
    "Modifier",
    "Seed000Answer",
    "SubdueMode",
    "WeaponAttack",
    "WeaponInReach",
    "defense_fumbled",
    "plan_attack",
    "plan_defenses",
    "resolve_attack",
    "roll_attack",
    "tell_attack",
]

_OUTCOME_CITATIONS = {
    AttackOutcome.CRITICAL_HIT: BASE_CRITICALS,
    AttackOutcome.HIT: BASE_SUCCESS_ROLL,
    AttackOutcome.DEFENDED: DEFENSES_CITATION,
    AttackOutcome.MISSED: BASE_SUCCESS_ROLL,
    AttackOutcome.CRITICAL_MISS: BASE_CRITICALS,
}


class WeaponAttack(Enum):
    """An attack on the defender's weapon: 000 STRIKING AT WEAPONS / 001 Breaking a
    Weapon (BREAK), 000 DISARMING AN OPPONENT / 001 Knocking a Weapon Away (DISARM)."""

    BREAK = "break"
    DISARM = "disarm"


class SubdueMode(Enum):
    """001 Subduing a Foe."""

    PULLED = "pulled"  # strike at a chosen ST (``pulled_st``)
    FLAT = "flat"  # the flat of a blade: a swung cut does crushing damage
    BLUNT_END = "blunt end"  # the butt of a thrusting weapon: -1 damage, crushing


# The map's answer to "is a hex of the defender's weapon within the attacker's reach?"
# (the battlefield supplies it from hexmap weapon positions; None: assume it is).
WeaponInReach = Callable[[Combatant, Combatant, Weapon], bool]

STRIKING_000 = cite("000", "STRIKING AT WEAPONS")
PARRYING_LIMB = "parrying limb"  # HitLocation key of an attack at the parrying limb


@dataclass(frozen=True)
class AttackOptions(AttackChoices):
    weapon_key: str
    mode: str
    location: str | None = None  # aimed hit location key; None is the torso
    defenses: tuple[DefenseChoice, ...] = ()  # announced before any roll, rolled in order
    from_below: bool = False
    extra_modifiers: tuple[Modifier, ...] = ()  # the GM's situational modifiers
    # rules.sets.seed000.conditions: adverse combat conditions, the attacker's and the defender's
    conditions: tuple[SelectedCondition, ...] = ()
    # swing randomly: roll the hit location table (000 / 001 RANDOM HIT LOCATION)
    random_location: bool = False
    from_above: bool = False
    target_weapon_key: str | None = None  # the defender's weapon struck at
    weapon_attack: WeaponAttack | None = None
    subdue: SubdueMode | None = None  # 001 Subduing a Foe
    pulled_st: int | None = None  # with SubdueMode.PULLED
    chink: bool = False  # 001 Targeting Chinks in Armor
    acrobatic_dodge: bool = False  # 000 ACROBATIC DODGE (the defender's choice)
    all_out_defense: bool = False  # the defender's maneuver (fencing: 4 free parries)
    # The defender's maneuver's bonuses to one kind of active defense (all-out
    # defense: +2), by kind (rules.sets.seed000.maneuvers fills them in).
    defense_modifiers: tuple[tuple[DefenseKind, Modifier], ...] = ()
    # 000 MISSING A SPECIFIC HIT LOCATION: the combatant partly in the way (id)
    obscured_by: str | None = None
    # 000 UNARMED PARRIES: aim at the limb the defender parried with bare-handed this
    # turn, at +2 (the arm; only after such a parry).
    at_parrying_limb: bool = False
    # 000 ADVERSE COMBAT CONDITIONS: an off-hand attack, -4 less the points of
    # Off-Hand Weapons Training (the GM enters them); none if ambidextrous.
    off_hand: bool = False
    off_hand_training: int = 0
    # 000 DROPPED WEAPONS: a weapon lost to a 000 disarm is knocked away (small
    # weapons 1d3-1 hexes in a random direction, large ones at the feet or beside)
    # instead of dropping in the wielder's hex (000 DISARMING AN OPPONENT).
    knock_away: bool = False
    # 000 RANDOM HIT LOCATION: body areas (head, arm, leg, torso) under cover; a
    # random location that lands there is rolled again. The battle adds the
    # defender's hex cover (rules.battle.terrain).
    covered: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Seed000Answer(DefenderAnswer):
    """The defender's answer to a seed 000 attack (``Attack.answer``): the
    defenses it announces, rolled in that order until one succeeds (000 DEFENSES:
    announced before any roll), and whether its dodge is acrobatic (000 ACROBATIC
    DODGE). None announced: no defense. Battle files before schema 6 kept both in
    the attacker's ``AttackOptions``, the engine's whole request (``plan_attack``
    still reads them there; an ``Attack`` command's choices leave them empty)."""

    defenses: tuple[DefenseChoice, ...] = ()
    acrobatic_dodge: bool = False

    was_in_choices: ClassVar[AnswerInChoices | None] = AnswerInChoices(
        "AttackOptions", ("defenses", "acrobatic_dodge"), before_schema=6
    )


NO_DEFENSE = Seed000Answer()


@quick_init
@dataclass(frozen=True)
class AttackPlan:
    """Everything about an attack that needs no dice.
    ``effective_skill == base_skill + sum(modifiers)``."""

    attacker_id: str
    defender_id: str
    options: AttackOptions
    weapon: Weapon
    mode: WeaponMode
    distance: int
    arc: Arc  # where the attack comes from, seen by the defender
    location: HitLocation
    skill_name: str
    base_skill: int
    modifiers: tuple[Modifier, ...]
    effective_skill: int
    passive_defense: PassiveDefense
    defenses: tuple[DefensePlan, ...]
    damage_spec: DamageSpec
    damage_dice: Dice
    attacker_weapon_unready_after: bool  # 000 PARRY: 1/2 and 1/3 weapons
    # The key in ``Tables.hit_locations`` the blow is aimed at (None: the legacy
    # uniform torso/location table, a random location or a weapon).
    hit_location: str | None = None
    location_system: str = ""  # "000" or "001": the system placing the blow
    target_weapon: Weapon | None = None  # struck at or disarmed
    no_active_defense: bool = False  # a selected condition removes active defenses
    effective_st: int = 0  # the ST behind the damage (pulled blows: the chosen ST)
    adjustments: tuple[tuple[str, Citation], ...] = ()  # subduing, chinks ...
    # 000 DISARMING AN OPPONENT: the Quick Contest that replaces the attack roll and
    # the defenses - both levels with every modifier, exactly as ``resolve_attack``
    # rolls them and ``rules.sets.seed000.odds`` counts them (None for any other attack).
    contest: DisarmContest | None = None

    @property
    def below(self) -> bool:
        return self.options.from_below


@dataclass(frozen=True)
class DefenseRoll:
    """One announced defense rolled: its plan (an acrobatic dodge's with the
    Acrobatics roll's modifier), the roll, the Acrobatics roll first (000 ACROBATIC
    DODGE: the step with its result and the modifier applied), and what its
    sub-steps did after it (a fumble's mishap, a parry's break, an improvised
    weapon's damage, a counter at an unarmed attacker: ``attack_told.Told``), which
    ``tell_attack`` tells after the roll's own."""

    plan: DefensePlan
    roll: SuccessRoll
    acrobatic: DefenseStep | None = None
    told: tuple[Told, ...] = ()

    @property
    def succeeded(self) -> bool:
        return self.roll.succeeded

    @property
    def outcome(self) -> Outcome:
        return self.roll.outcome


@quick_init
@dataclass(frozen=True)
class AttackResolution:
    plan: AttackPlan
    attack_roll: SuccessRoll
    defense_rolls: tuple[DefenseRoll, ...]
    outcome: AttackOutcome
    damage: DamageResult | None
    attacker_after: Combatant
    defender_after: Combatant
    events: tuple[Event, ...]
    # Weapons, shields and pieces that left a hand, with their placement (and landing):
    # the battle puts them on the map.
    pieces: tuple[Piece, ...] = ()
    piece_origins: tuple[str, ...] = ()  # the combatant id each piece left, in order
    location_roll: LocationRoll | None = None
    hit_location: str | None = None  # where the blow landed, in the hit location system
    # 000 MISSING A SPECIFIC HIT LOCATION: the combatant in the way after a stray blow
    # (None: nobody was hit, or no bystander was passed to ``resolve_attack``).
    bystander_after: Combatant | None = None
    # The weapons the attack broke or ruined (a remnant may stay in hand), in order.
    broken: tuple[BrokenItem, ...] = ()
    # ``roll_attack``'s record for ``tell_attack``: the attack roll step (None: the
    # 000 disarm's contest), and what its sub-steps did after the outcome, in order
    # (``attack_told.Told``; each defense's: ``DefenseRoll``).
    attack_step: AttackRollStep | None = None
    turn: TurnRecorded | None = None  # what the turn record made unready
    after_told: tuple[Told, ...] = ()
    # A blow without a hit location: where in ``after_told`` its damage and
    # injury rolls are told (``damage``), before what the wound did at once.
    blow_told: int | None = None


def _weapon_and_mode(attacker: Combatant, options: AttackOptions) -> tuple[Weapon, WeaponMode]:
    try:
        weapon = attacker.fighter.weapon(options.weapon_key)
    except KeyError:
        raise IllegalAttackError(f"{attacker.name} has no weapon {options.weapon_key!r}") from None
    not_in_hand = hand_problem(attacker, weapon.key)
    if not_in_hand is not None:
        raise IllegalAttackError(not_in_hand)
    try:
        mode = weapon.mode(options.mode)
    except KeyError:
        modes = ", ".join(m.name for m in weapon.modes)
        raise IllegalAttackError(
            f"the {weapon.name} has no mode {options.mode!r} (modes: {modes})"
        ) from None
    return weapon, mode


def plan_attack(
    attacker: Combatant,
    defender: Combatant,
    options: AttackOptions,
    ruleset: Tables,
    *,
    weapon_in_reach: WeaponInReach | None = None,
    answered: bool = True,
) -> AttackPlan:
    """Check and compute an attack without rolling. Raises ``IllegalAttackError``.

    ``weapon_in_reach`` answers, for a strike at a weapon, whether a hex of it is
    within reach (000 STRIKING AT WEAPONS); without it the weapon is taken to be
    in reach (its wielder is). ``answered`` False: the attacker's side alone, every
    check and modifier of the attack but no defense planned (``defenses`` empty,
    whatever ``options`` announce); ``plan_defenses`` adds the defender's."""
    if attacker.id == defender.id:
        raise IllegalAttackError("a combatant cannot attack itself")
    if attacker.status is not Status.ACTIVE:
        raise IllegalAttackError(f"{attacker.name} is {attacker.status.value} and cannot attack")
    unbalanced = off_balance_problem(attacker)  # 000 CRITICAL MISSES ON DEFENSE ROLLS
    if unbalanced is not None:
        raise IllegalAttackError(unbalanced)
    weapon, base_mode = _weapon_and_mode(attacker, options)
    if weapon.key in attacker.unready:
        raise IllegalAttackError(f"{attacker.name}'s {weapon.name} is not ready")
    if weapon.key in tracks_of(attacker).strained_weapons:
        raise IllegalAttackError(
            f"{attacker.name}'s arm holding the {weapon.name} is strained "
            "(critical miss table: STRAIN)"
        )
    wound_problem = wielding_problem(attacker, weapon)  # crippled arm, paralysis
    if wound_problem is not None:
        raise IllegalAttackError(wound_problem)
    if base_mode.is_ranged:  # 000 MISSILE AND THROWN WEAPONS: range, not reach
        options = _ranged_options(attacker, defender, weapon, base_mode, options)
    elif not in_reach(attacker.hex, attacker.facing, base_mode.reach, defender.hex):
        raise IllegalAttackError(
            f"{defender.name} is not within the {weapon.name}'s reach {base_mode.reach} "
            f"in front of {attacker.name}"
        )
    _check_options(options)
    _check_parrying_limb(options, defender)
    fighter = attacker.fighter
    sheet = sheet_of(fighter)
    mode, st, adjustments = _subdued(weapon, base_mode, sheet.attributes.st, options)
    turning = _turning_problem(attacker, weapon, options)
    if turning is not None:
        raise IllegalAttackError(turning)
    swinging = mode.is_swing
    arc = attack_arc(attacker, defender)
    system = ruleset.hit_locations
    target = _target_weapon(attacker, defender, weapon, options, ruleset, weapon_in_reach)
    location, hit_key, location_mods = _aim(options, system, defender, arc, mode, target)
    aim_problem = None if hit_key is None else system.aim_problem(
        hit_key, mode.damage.type, swung=swinging, tolerances=sheet_of(defender).injury_tolerance
    )
    if aim_problem is not None:
        raise IllegalAttackError(f"{defender.name}: {aim_problem}")
    if options.chink:
        adjustments += (("aimed at a chink in the armor: the armor's DR is halved", CHINKS_001),)

    mods: list[Modifier] = []
    if mode.skill_modifier:
        mods.append(Modifier(mode.skill_modifier, f"{weapon.name} {mode.name}", BASE_WEAPONS))
    clumsy = clumsiness_modifier(weapon)  # 000 IMPROVISED WEAPONS
    if clumsy is not None:
        mods.append(clumsy)
    mods.extend(location_mods)
    if _stance_decides(system, hit_key, options.random_location):
        # named in the pane's breakdown (at 0) and, as an adjustment, in the log
        stance = stance_modifier(defender, combatant_stance(defender))
        mods.append(stance)
        adjustments += ((stance.reason, stance.citation),)
    strike_at = len(mods)  # where the weapon-strike modifiers sit in ``mods``
    strike_mods: tuple[Modifier, ...] = ()
    if target is not None and options.weapon_attack is not None:
        purpose = (
            StrikePurpose.DISARM
            if options.weapon_attack is WeaponAttack.DISARM
            else StrikePurpose.BREAK
        )
        strike_mods = ruleset.weapon_strikes.strike_modifiers(target, weapon, purpose)
        mods.extend(strike_mods)
    # 000 ADVERSE COMBAT CONDITIONS that follow from the gear (rules.sets.seed000.conditions).
    # The minimum ST is the fighter's own: a pulled blow may take any lower ST
    # (001 Subduing a Foe) without being wielded any worse.
    for automatic in (
        minimum_st_modifier(sheet.attributes.st, weapon.min_st),
        large_shield_modifier(fighter.shield, swinging),
        _off_hand(options, sheet.ambidextrous),
    ):
        if automatic is not None:
            mods.append(automatic)
    # ... and those the GM selected for this attack (most attacks have none).
    no_defense = False
    if options.conditions:
        try:
            catalog = ruleset.adverse_conditions
            mods.extend(
                catalog.condition_modifiers(
                    options.conditions, melee=not mode.is_ranged, swinging=swinging
                )
            )
            no_defense = catalog.removes_active_defenses(options.conditions)
        except ConditionError as e:
            raise IllegalAttackError(str(e)) from None
    mods.extend(attack_cumulative_modifiers(attacker.actions_this_turn, weapon.key, weapon.name))
    mods.extend(wound_attack_modifiers(attacker, weapon))  # shock, a crippled hand
    # The system's lasting wound modifiers (003 5.874 under locations-fudge; none else).
    if wounds_of(attacker):  # the arms asked for only once he has a wound
        mods.extend(_lasting_wound_modifiers(system, attacker, arms_using(attacker, weapon)))
    if target is None:
        pd = ruleset.passive_defense(
            defender.fighter, arc, _shield_pd_factor(system, hit_key, swinging)
        )
    else:  # 000 DEFENSE AGAINST WEAPON ATTACKS: no PD protects a weapon
        pd = PassiveDefense(0, 0, False, 0, ())
    mods.extend(pd.modifiers)
    mods.extend(options.extra_modifiers)
    base_skill = sheet.skill(weapon.skill)
    effective = base_skill + sum([m.value for m in mods])
    contest = None
    if target is not None and options.weapon_attack is WeaponAttack.DISARM:
        # 000: the Quick Contest replaces the attack (001: None, it follows a hit).
        # The attacker's contest roll: the seed's size and non-fencing penalties
        # (the contest adds them) and every other modifier of this attack -
        # the GM's, adverse conditions, posture and terrain, off-hand, min-ST,
        # cumulative attack penalties. No PD (000 DEFENSE AGAINST WEAPON ATTACKS);
        # the defender rolls with the seed's own bonuses only. docs/rules-core.md.
        situational = (*mods[:strike_at], *mods[strike_at + len(strike_mods) :])
        contest = ruleset.weapon_strikes.contest_before_attack(
            fighter, weapon, defender.fighter, target, attacker_extra=situational
        )
    if options.knock_away and contest is None:
        raise IllegalAttackError(
            "knocking the weapon away is the GM's choice for a 000 disarm "
            f"({cite('000', 'DROPPED WEAPONS')}); a 001 disarm always sends it one yard"
        )

    alone = AttackPlan(
        attacker_id=attacker.id,
        defender_id=defender.id,
        options=options,
        weapon=weapon,
        mode=mode,
        distance=attacker.hex.distance(defender.hex),
        arc=arc,
        location=location,
        skill_name=weapon.skill,
        base_skill=base_skill,
        modifiers=tuple(mods),
        effective_skill=effective,
        passive_defense=pd,
        defenses=(),
        damage_spec=mode.damage,
        damage_dice=ruleset.weapon_damage(mode.damage, st),
        attacker_weapon_unready_after=unready_after_use(weapon),
        hit_location=hit_key,
        location_system=system.system if (hit_key or options.random_location) else "",
        target_weapon=target,
        no_active_defense=no_defense,
        effective_st=st,
        adjustments=adjustments,
        contest=contest,
    )
    if not answered:
        return alone
    return plan_defenses(alone, defender, options.defenses, options.acrobatic_dodge, ruleset)


def plan_defenses(
    plan: AttackPlan,
    defender: Combatant,
    defenses: tuple[DefenseChoice, ...],
    acrobatic_dodge: bool,
    ruleset: Tables,
) -> AttackPlan:
    """``plan`` (``plan_attack``'s, not ``answered``) with the defender's announced
    ``defenses`` planned, in order, each with its final score (000 DEFENSES:
    announced before any roll); ``acrobatic_dodge``: the dodge among them is
    acrobatic (000 ACROBATIC DODGE). Raises ``IllegalAttackError`` for defenses
    the defender cannot announce."""
    if not defenses and not acrobatic_dodge and not plan.options.defenses:
        return plan  # nothing announced: the attacker's plan as it is
    options = replace(plan.options, defenses=defenses, acrobatic_dodge=acrobatic_dodge)
    target, mode, system = plan.target_weapon, plan.mode, ruleset.hit_locations
    if plan.no_active_defense and defenses:
        raise IllegalAttackError(
            "a selected condition leaves the defender no active defense "
            "(000 ADVERSE COMBAT CONDITIONS)"
        )
    kinds = [d.kind for d in defenses]
    if len(kinds) > 1 and len(set(kinds)) < len(kinds):
        repeated = next(kind for kind in DefenseKind if kinds.count(kind) > 1)
        raise IllegalAttackError(
            f"only one {repeated.value} against one attack ({DEFENSES_CITATION})"
        )
    if target is not None:
        allowed = weapon_defense_options(target, target_ready=target.key not in defender.unready)
        for choice in defenses:
            check_weapon_defense(allowed, choice.kind, choice.weapon_key)
    if acrobatic_dodge:
        if DefenseKind.DODGE not in kinds:
            raise IllegalAttackError(f"an acrobatic dodge is a dodge ({ACROBATIC_CITATION})")
        if any(a.acrobatic for a in defender.actions_this_turn):
            raise IllegalAttackError(
                f"{defender.name} already tried an acrobatic dodge this turn "
                f"(once per turn, {ACROBATIC_CITATION})"
            )
        if acrobatics_skill_of(defender.fighter) is None:
            raise IllegalAttackError(
                f"{defender.name} has no Acrobatics skill ({ACROBATIC_CITATION})"
            )
    situation = DefenseSituation(
        arc=plan.arc,
        below=options.from_below,
        attack_is_swing=mode.is_swing,
        attack_is_unarmed=plan.weapon.kind is WeaponKind.UNARMED,
        pd_total=plan.passive_defense.total,
    )
    area_key = None if target is not None or options.random_location else plan.location.key
    # 000 DEFENDING A SPECIFIC BODY AREA guards the body: not a weapon struck at.
    guarded = tracks_of(defender).defended_area if target is None else None
    history: list[TurnAction] = list(defender.actions_this_turn)
    plans: list[DefensePlan] = []
    for choice in defenses:
        refused = defense_problem(defender, choice)  # paralysis, a crippled arm or hand
        if refused is not None:
            raise IllegalAttackError(refused)
        extra = ranged_defense_modifiers(defender, choice, mode) + wound_defense_modifiers(defender)
        extra += _lasting_wound_modifiers(system, defender, _defending_arms(defender, choice))
        if guarded is not None:
            extra = (*_area_modifiers(defender, guarded, area_key, choice.kind), *extra)
        if options.defense_modifiers:
            extra += tuple(m for kind, m in options.defense_modifiers if kind is choice.kind)
        planned = plan_defense(
            defender,
            choice,
            situation,
            history,
            ruleset.directional,
            ruleset.defense_cap,
            ruleset.defense_plus_pd_cap,
            extra_modifiers=extra,
            free_parries=_free_parries(defender, choice, options),
            free_parry_citation=FENCING_CITATION,
        )
        plans.append(planned)
        history.append(planned.action)

    return _with_fields(plan, options=options, defenses=tuple(plans))


def _with_fields(plan: AttackPlan, **fields: object) -> AttackPlan:
    """``dataclasses.replace`` for fields that need no check: a shallow copy with
    them set, at a third of replace's cost (every attack plans its defenses so)."""
    copied = copy.copy(plan)
    for name, value in fields.items():
        object.__setattr__(copied, name, value)  # frozen: as the dataclass's __init__ does
    return copied


def _ranged_options(
    attacker: Combatant,
    defender: Combatant,
    weapon: Weapon,
    mode: WeaponMode,
    options: AttackOptions,
) -> AttackOptions:
    """Check a thrown or missile attack's range and options; the options as planned
    (000 RANDOM HIT LOCATION: a random location beyond a missile's 1/2D range)."""
    problem = range_problem(attacker, defender.hex, mode)
    if problem is not None:
        raise IllegalAttackError(
            f"{defender.name} cannot be hit with the {weapon.name} ({mode.name}): {problem} "
            f"({MISSILE_AND_THROWN_000})"
        )
    # 001 Subduing a Foe: a thrown weapon, bow or sling may pull its blow (the
    # crossbow and the gun are refused by pulled_punch); 001 Breaking a Weapon: any
    # weapon may be shot or thrown at. Disarms, the flat and the blunt end are blows
    # in hand.
    if options.weapon_attack is WeaponAttack.DISARM or options.subdue not in (
        None,
        SubdueMode.PULLED,
    ):
        raise IllegalAttackError(
            f"disarms, the flat of a blade and the blunt end are blows in hand, not a "
            f"{mode.delivery.value} attack ({SUBDUING_001})"
        )
    if forced_random_location(mode, attacker.hex.distance(defender.hex)):
        aimed = options.location is not None or options.weapon_attack is not None
        if aimed or options.chink or options.at_parrying_limb:
            raise IllegalAttackError(
                f"beyond the {weapon.name}'s 1/2D range ({mode.half_damage_hexes} hexes) a "
                f"missile hits a random location and cannot aim ({RANDOM_LOCATION_000})"
            )
        return replace(options, random_location=True)
    return options


def _check_options(options: AttackOptions) -> None:
    if options.from_above and options.from_below:
        raise IllegalAttackError("an attack cannot come both from above and from below")
    if options.random_location and (options.location is not None or options.chink):
        raise IllegalAttackError("a random swing aims at no location (and at no chink)")
    if (options.weapon_attack is None) != (options.target_weapon_key is None):
        raise IllegalAttackError("a strike at a weapon names both the weapon and its purpose")
    if options.weapon_attack is not None and (
        options.location is not None or options.random_location or options.chink
    ):
        raise IllegalAttackError("a strike at a weapon aims at no body location")
    if options.pulled_st is not None and options.subdue is not SubdueMode.PULLED:
        raise IllegalAttackError(f"a chosen ST is for a pulled blow ({SUBDUING_001})")
    if options.subdue is SubdueMode.PULLED and options.pulled_st is None:
        raise IllegalAttackError(f"a pulled blow needs the ST to strike at ({SUBDUING_001})")
    unknown = sorted(options.covered.difference(AREAS)) if options.covered else ()
    if unknown:
        raise IllegalAttackError(
            f"unknown covered area(s) {', '.join(unknown)}; areas are {', '.join(AREAS)}"
        )
    if options.at_parrying_limb and (
        options.location is not None
        or options.random_location
        or options.weapon_attack is not None
        or options.chink
    ):
        raise IllegalAttackError(
            f"an attack at the parrying limb aims at that limb only ({UNARMED_PARRIES_CITATION})"
        )


def parried_bare_handed(defender: Combatant) -> bool:
    """Whether the defender parried bare-handed this turn (000 UNARMED PARRIES):
    a parry in the turn record with an unarmed weapon."""
    unarmed = {w.key for w in defender.fighter.weapons if w.kind is WeaponKind.UNARMED}
    return any(
        a.kind is ActionKind.PARRY and a.weapon_key in unarmed for a in defender.actions_this_turn
    )


def _check_parrying_limb(options: AttackOptions, defender: Combatant) -> None:
    if options.at_parrying_limb and not parried_bare_handed(defender):
        raise IllegalAttackError(
            f"{defender.name} has not parried bare-handed this turn ({UNARMED_PARRIES_CITATION})"
        )


# 000 UNARMED PARRIES: the parrying limb is the arm, +2 to hit it.
PARRYING_LIMB_BONUS = 2


def covered_keys(system: LocationRules, areas: frozenset[str]) -> frozenset[str]:
    """The system's location keys inside the covered body areas."""
    return system.covered_keys(areas) if areas else frozenset()


def _subdued(
    weapon: Weapon, mode: WeaponMode, st: int, options: AttackOptions
) -> tuple[WeaponMode, int, tuple[tuple[str, Citation], ...]]:
    """001 Subduing a Foe: the mode and ST the blow uses."""
    if options.subdue is None:  # most attacks
        return mode, st, ()
    if options.subdue is SubdueMode.PULLED:
        assert options.pulled_st is not None
        pulled = pulled_punch(
            None if weapon.kind is WeaponKind.UNARMED else weapon, st, options.pulled_st
        )
        return mode, pulled.st, ((f"pulled blow at ST {pulled.st} of {st}", pulled.citation),)
    if options.subdue is SubdueMode.FLAT:
        flat = flat_of_blade(mode)
        return flat, st, (("the flat of the blade: crushing damage", SUBDUING_001),)
    if options.subdue is SubdueMode.BLUNT_END:
        blunt = blunt_end(mode)
        return blunt.mode, st, (("the blunt end: -1 damage, crushing", blunt.citation),)
    return mode, st, ()


def _turning_problem(attacker: Combatant, weapon: Weapon, options: AttackOptions) -> str | None:
    """001 Subduing a Foe: a long weapon strikes with its blunt end only once a Ready
    turned it around (``ReverseWeapon``), and with its point only once turned back."""
    butt_first = weapon.key in tracks_of(attacker).reversed_weapons
    blunt = options.subdue is SubdueMode.BLUNT_END
    if blunt and not butt_first and turns_end_for_end(weapon):
        return (
            f"the {weapon.name} must first be turned end for end to strike with its "
            f"blunt end: a Ready ({SUBDUING_001})"
        )
    if butt_first and not blunt:
        return (
            f"the {weapon.name} is held butt first: it strikes with its blunt end until "
            f"a Ready turns it back ({SUBDUING_001})"
        )
    return None


def _target_weapon(
    attacker: Combatant,
    defender: Combatant,
    weapon: Weapon,
    options: AttackOptions,
    ruleset: Tables,
    weapon_in_reach: WeaponInReach | None,
) -> Weapon | None:
    if options.target_weapon_key is None:
        return None
    try:
        target = defender.fighter.weapon(options.target_weapon_key)
    except KeyError:
        raise IllegalAttackError(
            f"{defender.name} has no weapon {options.target_weapon_key!r}"
        ) from None
    in_reach = True if weapon_in_reach is None else weapon_in_reach(attacker, defender, target)
    verdict = ruleset.weapon_strikes.targetable(target, weapon_in_reach=in_reach)
    if not verdict.allowed:
        raise IllegalAttackError(
            f"{attacker.name} cannot strike at the {target.name}: {verdict.reason} "
            f"({verdict.citation})"
        )
    return target


def _off_hand(options: AttackOptions, ambidextrous: bool) -> Modifier | None:
    try:
        return off_hand_modifier(
            off_hand=options.off_hand, ambidextrous=ambidextrous, training=options.off_hand_training
        )
    except ConditionError as e:
        raise IllegalAttackError(str(e)) from None


def _aim(
    options: AttackOptions,
    system: LocationRules,
    defender: Combatant,
    arc: Arc,
    mode: WeaponMode,
    target: Weapon | None,
) -> tuple[HitLocation, str | None, tuple[Modifier, ...]]:
    """The aimed location, its key in the hit location system (None: a weapon, a
    random location, or seed 000's unaimed blow) and the penalties to hit it."""
    if target is not None:
        return HitLocation("weapon", target.name, 0, STRIKING_000), None, ()
    if options.random_location:
        return HitLocation("random", "random location", 0, system.random_citation), None, ()
    if options.at_parrying_limb:
        arm = system.limb_key("arm")
        base = system.penalty(
            arm, shield_side=False, melee=not mode.is_ranged, from_front=arc.is_front
        )
        bonus = Modifier(
            PARRYING_LIMB_BONUS, "at the bare-handed parrying limb", UNARMED_PARRIES_CITATION
        )
        mods = (*base, bonus)
        penalty = sum(m.value for m in mods)
        return (
            HitLocation(PARRYING_LIMB, "parrying arm", penalty, UNARMED_PARRIES_CITATION),
            arm,
            mods,
        )
    return aim_at(
        system,
        defender,
        options.location,
        from_front=arc.is_front,
        melee=not mode.is_ranged,
        chink=options.chink,
        damage_type=mode.damage.type,
    )


def _stance_decides(system: LocationRules, hit_key: str | None, random: bool) -> bool:
    """Whether the defender's stance matters to this blow (000 REFUSED VS. OPEN
    STANCES): an aim at a far limb, whose penalty it picks, or a random location on
    a table of near and far limbs, whose side it decides."""
    if hit_key is not None:
        return system.locations[hit_key].side is TableSide.FAR
    return random and any(loc.side is TableSide.FAR for loc in system.locations.values())


def _shield_pd_factor(
    system: LocationRules, hit_key: str | None, swung: bool
) -> tuple[int, str, Citation] | None:
    """000 RANDOM BODY HIT note 13, for a blow aimed at a location of seed 000's
    table: the shield's PD counts double against a swing at the chest area and
    always at the shield arm, elbow and hand (an unaimed or random blow, whose
    location is not known when the PD counts, and seed 001's locations: once)."""
    if hit_key is None or not isinstance(system, HitLocationTable):
        return None
    times = system.shield_pd_factor(hit_key, swung=swung)
    if times == 1:
        return None
    label = system.locations[hit_key].label.lower()
    always = system.shield_pd_factor(hit_key, swung=False) > 1
    why = f"the {label} is always covered twice" if always else f"a swung blow at the {label}"
    return times, why, note_000(13)


def _area_modifiers(
    defender: Combatant, guarded: BodyArea, location_key: str | None, kind: DefenseKind
) -> tuple[Modifier, ...]:
    """000 DEFENDING A SPECIFIC BODY AREA (block and parry only), ``guarded`` by
    the defender."""
    if location_key == "random":
        return ()
    try:
        mod = defended_area_modifier(guarded, location_key, kind, handedness=defender.handedness)
    except ConditionError:  # a location the rule does not place (001's bare limbs)
        return ()
    return () if mod is None else (mod,)


def _free_parries(defender: Combatant, choice: DefenseChoice, options: AttackOptions) -> int:
    """000 FENCING PARRIES: 2 free parries a turn, 4 on all-out defense."""
    if choice.kind is not DefenseKind.PARRY or choice.weapon_key is None:
        return 0
    try:
        weapon = defender.fighter.weapon(choice.weapon_key)
    except KeyError:
        return 0  # plan_defense reports the missing weapon
    if not fencing_parry_allowed(defender.fighter, weapon):
        return 0
    return free_parries_per_turn(options.all_out_defense)


def attack_arc(attacker: Combatant, defender: Combatant) -> Arc:
    """The arc of the defender the attack comes from."""
    return arc_of(attacker.hex, defender.hex, defender.facing, defender.handedness)


class _Flow:
    """The combatants and records of one resolution, as the steps change them."""

    def __init__(self, attacker: Combatant, defender: Combatant, between: Between) -> None:
        self.attacker = attacker
        self.defender = defender
        self.between = between
        self.events: list[Told] = []
        self.pieces: list[Piece] = []
        self.origins: list[str] = []
        self.bystander: Combatant | None = None  # hit by a stray blow
        self.broken: list[BrokenItem] = []  # weapons broken or ruined, in order

    def get(self, combatant_id: str) -> Combatant:
        if self.bystander is not None and combatant_id == self.bystander.id:
            return self.bystander
        return self.attacker if combatant_id == self.attacker.id else self.defender

    def put(self, c: Combatant) -> None:
        if c.id == self.attacker.id:
            self.attacker = c
        elif self.bystander is not None and c.id == self.bystander.id:
            self.bystander = c
        else:
            self.defender = c

    def pair(self, striker: Combatant, struck: Combatant) -> Between:
        """The shared event fields for a blow of ``striker`` on ``struck``."""
        return event_pair(striker, struck)

    def lose(
        self, c: Combatant, pieces: tuple[Piece, ...], reason: str, citation: Citation
    ) -> None:
        """Record pieces that left ``c``'s hands (the map places them)."""
        if not pieces:
            return
        self.pieces.extend(pieces)
        self.origins.extend(c.id for _ in pieces)
        self.events.append(PiecesLostTold(c.id, c.name, c.hex, pieces, reason, citation))


def resolve_attack(
    plan: AttackPlan,
    attacker: Combatant,
    defender: Combatant,
    rng: DiceSource,
    ruleset: Tables,
    *,
    weapon_in_reach: WeaponInReach | None = None,
    bystander: Combatant | None = None,
    check: bool = True,
) -> AttackResolution:
    """Roll the attack of ``plan``. The plan must match the combatants as they
    are now: with ``check`` (the default) it is recomputed and compared, and a
    stale plan is refused; a caller that has just planned it (the ``Attack``
    command) passes ``check=False`` and the attack is planned once.

    The steps, in order: declaration; (000 disarm: the Quick Contest instead of the
    rest); the attack roll; a critical miss checked (000 VERIFYING / AVOIDING) and
    rolled on the table; a miss that still lands (000 NEAR MISSES, 000 MISSING A
    SPECIFIC HIT LOCATION) goes on to the defenses like a hit; on a plain success
    each announced defense in order (acrobatic dodge roll first; a fumbled defense's
    mishap; a parry against a 3x heavier weapon may break); the turn records; then
    the blow: on a weapon (break, 001 disarm) or on the body (random location,
    located wound, its rolls, a crippled hand's drop), a weakened weapon snapping on
    a solid hit; a stray blow on ``bystander`` (the ``obscured_by`` combatant, 000
    MISSING A SPECIFIC HIT LOCATION) when the miss is 9 or less."""
    if check and (
        plan_attack(attacker, defender, plan.options, ruleset, weapon_in_reach=weapon_in_reach)
        != plan
    ):
        raise IllegalAttackError("the attack plan no longer matches the combatants")
    rolled = roll_attack(plan, attacker, defender, rng, ruleset, bystander=bystander)
    return replace(rolled, events=tell_attack(rolled, attacker, defender, ruleset))


def roll_attack(
    plan: AttackPlan,
    attacker: Combatant,
    defender: Combatant,
    rng: DiceSource,
    ruleset: Tables,
    *,
    bystander: Combatant | None = None,
) -> AttackResolution:
    """``resolve_attack``'s rolls and the combatants after them, without the log's
    own events (``events`` empty): the declaration, the attack roll, the defenses
    not rolled and the outcome are ``tell_attack``'s to tell from the record; what
    the sub-steps did is kept in order as typed records (``attack_told.Told``: each
    ``DefenseRoll.told``, and ``after_told``)."""
    if bystander is not None and (
        bystander.id != plan.options.obscured_by or bystander.id in (attacker.id, defender.id)
    ):
        raise IllegalAttackError("the bystander is not the combatant named as in the way")
    between = event_pair(attacker, defender)
    flow = _Flow(attacker, defender, between)
    events = flow.events
    if plan.contest is not None:  # the disarm's Quick Contest replaces the rest (000)
        return _disarm_contest_000(plan, flow, rng, ruleset.weapon_strikes)

    step = attack_roll_step(
        attack_roll_inputs(plan), ruleset.hit_locations, rng, f"{attacker.name}'s attack"
    )
    attack_roll = step.roll

    hit_key = plan.hit_location
    rolls: list[DefenseRoll] = []
    outcome, defend = step.outcome, step.defended
    if step.shifted is not None:
        hit_key = step.shifted[0]
    elif step.stray and bystander is not None:
        flow.bystander = bystander
    if defend:
        for d in plan.defenses:
            r = _roll_defense(plan, d, flow, rng, ruleset)
            rolls.append(r)
            if r.succeeded:
                outcome = AttackOutcome.DEFENDED
                break

    hit = outcome.is_hit
    defender_record, turn = _record_turn(plan, flow, rolls)
    # A blow on the defender's body takes his turn record into the same copy as its
    # injury (nothing before it reads the record); anything else, the record now.
    if defender_record and (not hit or plan.target_weapon is not None):
        flow.defender = flow.defender.evolve(**defender_record)
        defender_record = {}
    if outcome is AttackOutcome.CRITICAL_MISS:
        _attack_fumble(plan, flow, rng, ruleset)
    if flow.bystander is not None:
        _stray_blow(plan, flow, attack_roll, rng, ruleset)

    damage: DamageResult | None = None
    location_roll: LocationRoll | None = None
    blow_told: int | None = None
    if hit and plan.target_weapon is not None:
        _hit_weapon(plan, flow, rng, ruleset)
        hit_key = None
    elif hit and (hit_key is not None or plan.options.random_location):
        damage, location_roll, hit_key = _located_blow(
            plan, flow, hit_key, rng, ruleset, defender_record
        )
    elif hit:
        damage = roll_damage(
            plan.damage_dice,
            plan.damage_spec.type,
            flow.defender,
            rng,
            ruleset.wounding,
            factor=plan.damage_spec.factor,
            what=f"{attacker.name}'s damage",
        )
        injured: CombatantChanges = {
            **defender_record,
            "hp": damage.hp_after,
            "status": damage.status_after,
        }
        struck = flow.defender
        flow.defender = struck.evolve(**injured)
        blow_told = len(events)  # the damage and its injury rolls: tell_attack's
        flow.defender, hurt = after_blow(struck, flow.defender, damage)  # shock, knockdown
        events.append(hurt)
    if hit:  # 000 CUTTING THROUGH A WEAPON: the attacker's solid hit
        _use_weakened(flow, flow.attacker.id, plan.weapon.key, WeaponUse.SOLID_HIT, rng, ruleset)
    if plan.mode.delivery is Delivery.THROWN:
        _throw_leaves_hand(plan, flow, outcome)

    return AttackResolution(
        plan=plan,
        attack_roll=attack_roll,
        defense_rolls=tuple(rolls),
        outcome=outcome,
        damage=damage,
        attacker_after=flow.attacker,
        defender_after=flow.defender,
        events=(),
        pieces=tuple(flow.pieces),
        piece_origins=tuple(flow.origins),
        location_roll=location_roll,
        hit_location=hit_key if hit else None,
        bystander_after=flow.bystander,
        broken=tuple(flow.broken),
        attack_step=step,
        turn=turn,
        after_told=tuple(events),
        blow_told=blow_told,
    )


def tell_attack(
    resolution: AttackResolution, attacker: Combatant, defender: Combatant, ruleset: Tables
) -> tuple[Event, ...]:
    """The log's events of a ``roll_attack`` of ``attacker`` on ``defender`` (as
    they were before it), in order: declared (its adjustments, a defender without
    active defenses), the attack roll, a critical miss checked, a location shifted
    or a stray miss to resolve, the defenses' own events, the defenses not rolled
    and why, the outcome, then what followed it."""
    plan = resolution.plan
    between = event_pair(attacker, defender)
    events: list[Event] = [
        AttackDeclared(
            citation=DEFENSES_CITATION,
            weapon_name=plan.weapon.name,
            mode=plan.mode.name,
            location_label=plan.location.label,
            arc=plan.arc,
            below=plan.below,
            announced=tuple([_defense_label(d) for d in plan.defenses]),
            **between,
        )
    ]
    for text, citation in plan.adjustments:
        events.append(AttackAdjusted(citation=citation, text=text, **between))
    if plan.no_active_defense:
        events.append(
            AttackAdjusted(
                citation=cite("000", "ADVERSE COMBAT CONDITIONS"),
                text=f"{defender.name} can make no active defense",
                **between,
            )
        )
    step = resolution.attack_step
    if step is None:  # the disarm's Quick Contest told its own (000)
        return (*events, *tell(resolution.after_told, between))
    events.append(
        AttackRolled(
            citation=ATTACK_ROLL_CITATION,
            skill_name=plan.skill_name,
            base_skill=plan.base_skill,
            modifiers=plan.modifiers,
            effective_skill=plan.effective_skill,
            roll=step.roll,
            **between,
        )
    )
    if step.confirming is not None:
        events.append(
            CriticalMissChecked(
                citation=step.confirming.citations[0], check=step.confirming, **between
            )
        )
    if step.shifted is not None:
        to_key, reason, citation = step.shifted
        events.append(
            LocationShifted(
                citation=citation,
                from_label=plan.location.label,
                to_label=ruleset.hit_locations.locations[to_key].label,
                reason=reason,
                **between,
            )
        )
    elif step.stray and resolution.bystander_after is None:
        events.append(
            AttackAdjusted(
                citation=MISSING_000,
                text=(
                    f"the miss (rolled {step.roll.total}) hits "
                    f"{plan.options.obscured_by}, in the way, if {defender.name} fails "
                    "to parry or block (GM resolves)"
                ),
                **between,
            )
        )
    for r in resolution.defense_rolls:
        events.extend(_defense_told(r, between))
    rolled = len(resolution.defense_rolls)
    # Why the rest were not rolled, by the attack roll's outcome (asked only if any).
    skipped = _NOT_ROLLED_BECAUSE[step.outcome] if rolled < len(plan.defenses) else ""
    for d in plan.defenses[rolled:]:
        events.append(
            DefenseNotRolled(
                citation=DEFENSES_CITATION,
                kind=d.kind,
                item_name=d.item_name,
                reason=skipped,
                **between,
            )
        )
    outcome = resolution.outcome
    events.append(AttackResolved(citation=_OUTCOME_CITATIONS[outcome], outcome=outcome, **between))
    if resolution.turn is not None:
        events.extend(_turn_told(plan, resolution.turn, attacker, defender))
    after, at, damage = resolution.after_told, resolution.blow_told, resolution.damage
    if at is None or damage is None:
        events.extend(tell(after, between))
        return tuple(events)
    events.extend(tell(after[:at], between))
    events.append(DamageDealt(citation=DAMAGE_CITATION, damage=damage, **between))
    events.extend(
        injury_events(defender, damage.status_rolls, damage.status_before, damage.status_after)
    )
    events.extend(tell(after[at:], between))
    return tuple(events)


# --- resolution steps -------------------------------------------------------------


# Why the announced defenses not rolled were not, by the attack roll's outcome.
_NOT_ROLLED_BECAUSE = {
    AttackOutcome.CRITICAL_MISS: "the attack critically missed",
    AttackOutcome.MISSED: "the attack missed",
    AttackOutcome.CRITICAL_HIT: "no defense against a critical hit",
    AttackOutcome.HIT: "an earlier defense succeeded",
}


def attack_roll_inputs(plan: AttackPlan) -> AttackRollInputs:
    """What the attack roll step reads of ``plan``."""
    return AttackRollInputs(
        effective_skill=plan.effective_skill,
        base_skill=plan.base_skill,
        reliable=plan.weapon.reliable,
        aimed_key=plan.hit_location,
        aim_penalty=plan.location.penalty,
        damage_type=plan.damage_spec.type,
        swung=plan.mode.is_swing,
        obscured=plan.options.obscured_by is not None,
        hand_weapon=not plan.mode.is_ranged,
    )


def defense_inputs(plan: AttackPlan, d: DefensePlan, defender: Combatant) -> DefenseInputs:
    """What the defense step reads of an announced defense."""
    if d.kind is DefenseKind.DODGE and plan.options.acrobatic_dodge:
        skill = acrobatics_skill_of(defender.fighter)
        return DefenseInputs(d.value, acrobatic=True, acrobatics=skill)
    return DefenseInputs(d.value)


@quick_init
@dataclass(frozen=True, slots=True)
class TurnRecorded:
    """What the attack's turn record made unready, for the log: the attacker's
    weapon (000 PARRY: a 1/2 or 1/3 weapon), the names of the defender's weapons
    that parried so, and its heavy shield that blocked (000 BLOCK), if any."""

    attacker_weapon: bool = False
    defender_weapons: tuple[str, ...] = ()
    heavy_shield: str | None = None


def _record_turn(
    plan: AttackPlan, flow: _Flow, rolls: list[DefenseRoll]
) -> tuple[CombatantChanges, TurnRecorded]:
    """The attacker's turn record and readiness; the defender's: every announced
    defense counts, except critical successes. Each action names whom it was aimed
    at (000 STRIKING AT WEAPONS reads it), so no second copy is needed to add that.
    The attacker is copied here; the defender's changes are returned, for the
    caller to make in one copy with a blow's (copies are the costly step here),
    with what went unready (``tell_attack`` tells it)."""
    attacker = flow.attacker
    defender = flow.defender
    attack = TurnAction(ActionKind.ATTACK, plan.weapon.key, target_id=defender.id)
    acted = (*attacker.actions_this_turn, attack)
    if plan.attacker_weapon_unready_after:
        flow.attacker = attacker.evolve(
            actions_this_turn=acted, unready=attacker.unready | {plan.weapon.key}
        )
    else:
        flow.attacker = attacker.evolve(actions_this_turn=acted)
    recorded = TurnRecorded(attacker_weapon=plan.attacker_weapon_unready_after)
    if not plan.defenses:
        return {}, recorded  # nothing announced: the defender's record stays as it is
    acrobatic_dodge = plan.options.acrobatic_dodge
    actions: list[TurnAction] = []
    for i, d in enumerate(plan.defenses):
        won_critically = i < len(rolls) and rolls[i].roll.outcome is Outcome.CRITICAL_SUCCESS
        actions.append(
            TurnAction(
                d.action.kind,
                d.action.weapon_key,
                counts=not won_critically,
                target_id=attacker.id,
                acrobatic=acrobatic_dodge and d.choice.kind is DefenseKind.DODGE,
            )
        )
    # The weapons that go unready, if the defender still holds them (a parry may
    # have broken one); a shield's readiness is ``heavy_shield_unready`` below.
    unreadied = [d for d in plan.defenses if d.becomes_unready]
    if unreadied:
        held = {w.key for w in defender.fighter.weapons}
        unreadied = [d for d in unreadied if d.action.weapon_key in held]
    shield = defender.fighter.shield
    heavy_block = (
        shield is not None
        and shield.heavy
        and any(d.choice.kind is DefenseKind.BLOCK and d.becomes_unready for d in plan.defenses)
    )
    keys = {d.action.weapon_key for d in unreadied if d.action.weapon_key is not None}
    taken = (*defender.actions_this_turn, *actions)
    unready = defender.unready | keys if keys else defender.unready
    changes: CombatantChanges = {"actions_this_turn": taken, "unready": unready}
    if heavy_block:  # 000 BLOCK: a heavy shield must be readied between uses
        changes["heavy_shield_unready"] = True
    names = tuple(d.item_name for d in unreadied if d.item_name is not None)
    heavy = shield.name if heavy_block and shield is not None else None
    return changes, replace(recorded, defender_weapons=names, heavy_shield=heavy)


def _turn_told(
    plan: AttackPlan, recorded: TurnRecorded, attacker: Combatant, defender: Combatant
) -> list[Event]:
    """The turn record's events: what went unready, the attacker's first."""
    events: list[Event] = []
    if recorded.attacker_weapon:
        events.append(
            WeaponUnreadied(
                citation=READINESS_CITATION,
                combatant_id=attacker.id,
                name=attacker.name,
                weapon_name=plan.weapon.name,
            )
        )
    for weapon_name in recorded.defender_weapons:
        events.append(
            WeaponUnreadied(
                citation=READINESS_CITATION,
                combatant_id=defender.id,
                name=defender.name,
                weapon_name=weapon_name,
            )
        )
    if recorded.heavy_shield is not None:
        events.append(
            HeavyShieldUnreadied(
                citation=BLOCK_CITATION,
                combatant_id=defender.id,
                name=defender.name,
                shield_name=recorded.heavy_shield,
                penalty=HEAVY_SHIELD_UNREADY_PENALTY,
            )
        )
    return events


def _roll_defense(
    plan: AttackPlan, d: DefensePlan, flow: _Flow, rng: DiceSource, ruleset: Tables
) -> DefenseRoll:
    """One announced defense: the acrobatic roll first (000 ACROBATIC DODGE), the
    defense roll, a fumble's mishap, a parry's chance to break."""
    what = f"{flow.defender.name}'s {d.kind.value}"
    step = defense_step(defense_inputs(plan, d, flow.defender), rng, what)
    acrobatic = None
    if step.acrobatic is not None and step.applied is not None:
        acrobatic = step
        d = replace(d, modifiers=(*d.modifiers, step.applied), value=d.value + step.applied.value)
    told = len(flow.events)  # the sub-steps' events, kept with the roll
    if step.roll.outcome is Outcome.CRITICAL_FAILURE:
        _defense_fumble(plan, d, flow, rng, ruleset)
    elif step.roll.succeeded and d.kind is DefenseKind.PARRY and d.choice.weapon_key is not None:
        key = d.choice.weapon_key
        if not _use_weakened(flow, flow.defender.id, key, WeaponUse.PARRY, rng, ruleset):
            _parry_break(plan, key, flow, rng, ruleset)
            _improvised_parry(key, flow, rng)
            _unarmed_counter(plan, key, flow, rng, ruleset)
    after = tuple(flow.events[told:])
    del flow.events[told:]
    return DefenseRoll(d, step.roll, acrobatic, after)


def _defense_told(r: DefenseRoll, between: Between) -> list[Event]:
    """A defense roll's events: the Acrobatics roll, the defense roll, a critical
    miss on it, then its sub-steps' (``DefenseRoll.told``)."""
    d = r.plan
    events: list[Event] = []
    step = r.acrobatic
    if step is not None and step.acrobatic is not None and step.applied is not None:
        events.append(
            AcrobaticDodgeRolled(
                citation=ACROBATIC_CITATION, result=step.acrobatic, applied=step.applied, **between
            )
        )
    events.append(
        DefenseRolled(
            citation=d.citation,
            kind=d.kind,
            item_name=d.item_name,
            base=d.base,
            base_reason=d.base_reason,
            modifiers=d.modifiers,
            value=d.value,
            roll=r.roll,
            **between,
        )
    )
    if r.outcome is Outcome.CRITICAL_FAILURE:
        events.append(
            DefenseCriticalMiss(
                citation=DEFENSE_CRITICAL_MISS_CITATION,
                kind=d.kind,
                item_name=d.item_name,
                **between,
            )
        )
    events.extend(tell(r.told, between))
    return events


def _improvised_parry(weapon_key: str, flow: _Flow, rng: DiceSource) -> None:
    """000 IMPROVISED WEAPONS: an improvised item that parried may be damaged or
    ruined - 1d6 (rules.sets.seed000.improvised): 1 ruined, useless at the wielder's feet; 2
    damaged, a further -1 to its skill from then on; 3-6 unharmed."""
    d = flow.defender
    try:
        weapon = d.fighter.weapon(weapon_key)
    except KeyError:  # already broke on this parry
        return
    if not is_improvised(weapon):
        return
    pr = roll_improvised_parry(rng, f"{d.name}'s {weapon.name} after the parry")
    flow.events.append(ImprovisedParryTold(weapon.name, pr))
    if pr.outcome is ImprovisedParryOutcome.RUINED:
        flow.put(_swap_weapon(d, weapon_key, None))
        flow.broken.append(BrokenItem(d.id, weapon_key))
        ruined = Piece(f"ruined {weapon.name}", None, AT_FEET)
        flow.lose(d, (ruined,), f"the {weapon.name} was ruined parrying", IMPROVISED_000)
    elif pr.outcome is ImprovisedParryOutcome.DAMAGED:
        f = d.fighter
        weapons = tuple(damaged_improvised(w) if w.key == weapon_key else w for w in f.weapons)
        flow.put(d.evolve(fighter=replace(f, weapons=weapons)))


def _unarmed_counter(
    plan: AttackPlan, weapon_key: str, flow: _Flow, rng: DiceSource, ruleset: Tables
) -> None:
    """000 PARRIES VS. UNARMED ATTACKERS: after a weapon parry of an unarmed attack
    the defender rolls weapon skill +2; success does the weapon's normal damage to
    the attacking limb (the hand, the foot for a kick) on the attacker."""
    if plan.weapon.kind is not WeaponKind.UNARMED:
        return
    d = flow.defender
    try:
        weapon = d.fighter.weapon(weapon_key)
    except KeyError:  # broke on the parry
        return
    if weapon.kind is WeaponKind.UNARMED or not weapon.modes:
        return
    a = flow.attacker
    system = ruleset.hit_locations
    limb = "foot" if "kick" in f"{plan.weapon.name} {plan.mode.name}".lower() else "hand"
    key = system.limb_key(limb)
    skill = sheet_of(d).skill(weapon.skill)
    roll = success_roll(
        skill + 2, rng, RollKind.STANDARD, what=f"{d.name}'s counter at {a.name}'s {limb}"
    )
    flow.events.append(UnarmedCounterTold(weapon.name, skill, roll, system.locations[key].label))
    if not roll.succeeded:
        return
    mode = weapon.modes[0]
    _body_blow(
        flow,
        a.id,
        flow.pair(d, a),
        key,
        ruleset.weapon_damage(mode.damage, sheet_of(d).attributes.st),
        mode.damage.type,
        mode.is_swing,
        rng,
        ruleset,
        arc=attack_arc(d, a),
        factor=mode.damage.factor,
        side=weapon_side(a.handedness),
        side_reason="the parry struck the attacking limb",
    )


def _use_weakened(
    flow: _Flow,
    combatant_id: str,
    weapon_key: str,
    use: WeaponUse,
    rng: DiceSource,
    ruleset: Tables,
) -> bool:
    """000 CUTTING THROUGH A WEAPON: a weakened weapon breaks on its wielder's next
    solid hit or parry. Returns whether it broke."""
    c = flow.get(combatant_id)
    state = c.weapon_state(weapon_key)
    if state is None or not state.weakened or state.broken:
        return False
    try:
        weapon = c.fighter.weapon(weapon_key)
    except KeyError:
        return False
    after = use_weakened_weapon(state, use)
    states = tuple((k, st) for k, st in c.weapon_states if k != weapon_key)
    c = c.evolve(weapon_states=(*states, (weapon_key, after)))
    flow.put(c)
    flow.events.append(WeaponSnappedTold(c.id, c.name, weapon.name, use))
    try:
        result = break_weapon(weapon, rng, table=ruleset.broken_weapons, who=c.name)
    except IllegalAttackError:  # nothing on the table to roll: it is gone
        flow.put(_swap_weapon(c, weapon_key, None))
        flow.broken.append(BrokenItem(c.id, weapon_key))
        return True
    _broken(flow, c, result, f"weakened, it snapped on a {use.value}")
    return True


def _parry_break(
    plan: AttackPlan, weapon_key: str, flow: _Flow, rng: DiceSource, ruleset: Tables
) -> None:
    """000 BREAKING A BLADE / BREAKING WEAPONS: parrying a weapon 3x heavier."""
    try:
        parrying = flow.defender.fighter.weapon(weapon_key)
    except KeyError:
        return
    blades = ruleset.blade_breaking
    if parry_break_chance(parrying, plan.weapon.weight, table=blades).probability == 0:
        return
    pb = roll_parry_break(
        parrying,
        plan.weapon.weight,
        rng,
        blades=blades,
        broken=ruleset.broken_weapons,
        who=flow.defender.name,
    )
    flow.events.append(ParryBreakTold(parrying.name, pb))
    if pb.result is not None:
        _broken(flow, flow.defender, pb.result, "parried a much heavier weapon")


def _broken(flow: _Flow, c: Combatant, result: BreakResult, cause: str) -> None:
    """A weapon broke: the remnant (if any) replaces it in hand, pieces leave."""
    flow.events.append(WeaponBrokeTold(c.id, c.name, c.hex, result, cause))
    remnant = result.weapon_in_hand
    flow.broken.append(BrokenItem(c.id, result.weapon.key))
    flow.put(_swap_weapon(c, result.weapon.key, remnant))
    flow.lose(c, result.pieces, f"the {result.weapon.name} broke", BROKEN_WEAPONS_000)


def _throw_leaves_hand(plan: AttackPlan, flow: _Flow, outcome: AttackOutcome) -> None:
    """000 MISSILE AND THROWN WEAPONS: a thrown weapon leaves the thrower's hand. It
    lands in the defender's hex on a hit or a defended throw, else scattered from
    there like a knocked-away weapon (``rules.sets.seed000.missiles.thrown_placement``); the
    battle places it from the defender's hex (``Piece.note`` THROWN_NOTE)."""
    c = flow.attacker
    held = next((w for w in c.fighter.weapons if w.key == plan.weapon.key), None)
    if held is None:  # already dropped or broken by the attack's own mishaps
        return
    on_target = outcome.is_hit or outcome is AttackOutcome.DEFENDED
    flow.put(_swap_weapon(c, held.key, None))
    piece = Piece(held.name, held, thrown_placement(held, on_target), note=THROWN_NOTE)
    flow.lose(flow.attacker, (piece,), f"thrown at {flow.defender.name}", MISSILE_AND_THROWN_000)


def _swap_weapon(c: Combatant, key: str, new: Weapon | None) -> Combatant:
    """``c`` with weapon ``key`` replaced by ``new`` (None: gone from hand)."""
    f = c.fighter
    weapons = tuple(
        w2
        for w in f.weapons
        for w2 in ((w,) if w.key != key else ((new,) if new is not None else ()))
    )
    states = tuple((k, s) for k, s in c.weapon_states if k != key)
    swapped = c.evolve(
        fighter=replace(f, weapons=weapons), unready=c.unready - {key}, weapon_states=states
    )
    return keep_carried(c, swapped)  # nothing carried leaps into the hand


def _defense_fumble(
    plan: AttackPlan, d: DefensePlan, flow: _Flow, rng: DiceSource, ruleset: Tables
) -> None:
    """000 CRITICAL MISSES ON DEFENSE ROLLS, applied."""
    c = flow.defender
    f = c.fighter
    weapon: Weapon | None = None
    if d.kind is DefenseKind.PARRY and d.choice.weapon_key is not None:
        weapon = f.weapon(d.choice.weapon_key)
        if weapon.kind is WeaponKind.UNARMED:
            _bare_handed_fumble(flow, c, d.kind, DEFENSE_CRITICAL_MISS_CITATION, "fumble")
            return
    mishap = defense_critical_miss(
        d.kind,
        rng,
        tables=ruleset,
        dx=sheet_of(f).attributes.dx,
        shield=f.shield,
        weapon=weapon,
        attacking_weight=plan.weapon.weight,
        who=c.name,
    )
    dx_roll = None
    posture_events: list[Event] = []
    if isinstance(mishap, DodgeMishap):
        dx_roll = mishap.dx_roll
        if mishap.off_balance:
            flow.defender = lose_balance(c, BalanceBack.AFTER_NEXT_TURN)
            applied = (
                "keeps his feet but is off-balance: no attack and defense penalties "
                "doubled until the end of his next turn"
            )
        else:
            fallen, fell = apply_fall(c, mishap.posture, citation=DEFENSE_CRITICAL_MISS_CITATION)
            flow.defender = fallen
            applied = f"falls {mishap.posture.value}"
            if fell is not None:
                posture_events.append(fell)
    elif isinstance(mishap, BlockMishap):
        if mishap.dropped is not None:
            dropped = c.evolve(fighter=replace(f, shield=None), shield_ready=True)
            flow.defender = keep_carried(c, dropped)
            flow.lose(
                c,
                (mishap.dropped,),
                "a fumbled block drops a small shield",
                DEFENSE_CRITICAL_MISS_CITATION,
            )
            applied = f"drops the {mishap.shield.name}"
        else:
            flow.defender = c.evolve(shield_ready=False)
            applied = f"loses the grip on the {mishap.shield.name}: unready, its PD still counts"
    else:
        assert isinstance(mishap, ParryMishap)
        if mishap.heavy_weapon_break is not None:
            _broken(flow, c, mishap.heavy_weapon_break, "fumbled a parry of a much heavier weapon")
            applied = f"the {mishap.weapon.name} breaks"
        elif mishap.critical_miss is not None:
            applied = "the critical miss table"
            flow.events.append(
                DefenseMishapTold(
                    c.id, c.name, c.hex, d.kind, applied, DEFENSE_CRITICAL_MISS_CITATION
                )
            )
            _apply_miss_table(flow, c.id, mishap.critical_miss, rng, ruleset, plan)
            return
        else:
            applied = "no further effect"
    flow.events.append(
        DefenseMishapTold(
            c.id, c.name, c.hex, d.kind, applied, DEFENSE_CRITICAL_MISS_CITATION, dx_roll
        )
    )
    flow.events.extend(posture_events)


def defense_fumbled(
    plan: AttackPlan,
    d: DefensePlan,
    attacker: Combatant,
    defender: Combatant,
    rng: DiceSource,
    ruleset: Tables,
) -> Combatant:
    """The defender after its announced defense ``d`` critically failed (000
    CRITICAL MISSES ON DEFENSE ROLLS, ``_defense_fumble`` itself): the exact odds
    enumerate it, since a fumbled parry's critical miss table may hurt the
    defender with its own weapon before the blow lands."""
    flow = _Flow(attacker, defender, event_pair(attacker, defender))
    _defense_fumble(plan, d, flow, rng, ruleset)
    return flow.defender


def _bare_handed_fumble(
    flow: _Flow, who: Combatant, kind: DefenseKind, citation: Citation, what: str
) -> None:
    """The critical miss table has no row for bare hands: the GM rules, and the log says so."""
    applied = f"a bare-handed {what}: the GM rules (no table for bare hands)"
    flow.events.append(DefenseMishapTold(who.id, who.name, who.hex, kind, applied, citation))


def _attack_fumble(plan: AttackPlan, flow: _Flow, rng: DiceSource, ruleset: Tables) -> None:
    """The critical miss table for a confirmed critical miss (base)."""
    if plan.weapon.kind is WeaponKind.UNARMED:
        _bare_handed_fumble(flow, flow.attacker, DefenseKind.PARRY, BASE_CRITICALS, "critical miss")
        return
    action = MissAction.SWING if plan.mode.is_swing else MissAction.THRUST
    context = MissContext(action, plan.damage_spec.type)
    result = roll_critical_miss(plan.weapon, context, rng, tables=ruleset, who=flow.attacker.name)
    _apply_miss_table(flow, flow.attacker.id, result, rng, ruleset, plan)


def _apply_miss_table(
    flow: _Flow,
    combatant_id: str,
    result: CriticalMissResult,
    rng: DiceSource,
    ruleset: Tables,
    plan: AttackPlan,
) -> None:
    """The critical miss table's result, applied: FALL puts the fumbler prone
    (rules.battle.movement.apply_fall), HIT SELF rolls the weapon's damage against the
    fumbler's arm or leg, STRAIN cripples the weapon arm (the weapon can neither
    attack nor parry), the rest as the table says."""
    c = flow.get(combatant_id)
    weapon = result.weapon
    consequence = result.consequence
    if isinstance(consequence, WeaponDropped | WeaponFlew):
        flow.put(_swap_weapon(c, weapon.key, None))
        verb = "drops" if isinstance(consequence, WeaponDropped) else "loses hold of"
        applied = f"{verb} the {weapon.name}"
    elif isinstance(consequence, WeaponBroken):
        applied = f"the {weapon.name} breaks"
    elif isinstance(consequence, WeaponUnready):
        flow.put(c.evolve(unready=c.unready | {weapon.key}))
        turns = consequence.turns
        applied = f"the {weapon.name} is unready ({turns} turn{'' if turns == 1 else 's'} to ready)"
    elif isinstance(consequence, LostBalance):
        flow.put(lose_balance(c, BalanceBack.AT_NEXT_TURN))
        applied = (
            f"loses balance: no action until next turn, defenses "
            f"{consequence.defense_modifier:+d} (off-balance)"
        )
    elif isinstance(consequence, Fell):
        fallen, fell = apply_fall(c, consequence.posture, citation=result.citations[0])
        flow.put(fallen)
        applied = f"falls {consequence.posture.value}"
    elif isinstance(consequence, HitSelf):
        applied = (
            f"hits own {consequence.location} (die {consequence.location_die}) for "
            f"{consequence.damage_factor} of the damage"
        )
    elif isinstance(consequence, Strained):
        strained = tracks_of(c).strained_weapons | {weapon.key}
        flow.put(with_tracks(c, replace(tracks_of(c), strained_weapons=strained)))
        applied = (
            f"strains the weapon arm: crippled for {consequence.minutes} minutes, "
            f"the {weapon.name} unusable"
        )
    else:
        assert isinstance(consequence, NoMishap)
        applied = "no further mishap"
    flow.events.append(CriticalMissTold(c.id, c.name, c.hex, result, applied))
    if isinstance(consequence, WeaponBroken):
        _broken(flow, flow.get(combatant_id), consequence.result, "critical miss")
    elif isinstance(consequence, WeaponDropped | WeaponFlew):
        flow.lose(c, (consequence.piece,), "critical miss", result.citations[0])
    elif isinstance(consequence, Fell) and fell is not None:
        flow.events.append(fell)
    elif isinstance(consequence, HitSelf):
        _hit_self(flow, c, weapon, consequence, rng, ruleset, plan)


def _hit_self(
    flow: _Flow,
    c: Combatant,
    weapon: Weapon,
    hit: HitSelf,
    rng: DiceSource,
    ruleset: Tables,
    plan: AttackPlan,
) -> None:
    """Critical miss table, HIT SELF: the weapon's damage (times the table's
    factor) on the fumbler's own weapon-side arm or leg."""
    if weapon.key == plan.weapon.key and c.id == plan.attacker_id:
        dice, dtype, swung = plan.damage_dice, plan.damage_spec.type, plan.mode.is_swing
        broken_factor = plan.damage_spec.factor
    elif weapon.modes:
        mode = weapon.modes[0]
        dice = ruleset.weapon_damage(mode.damage, sheet_of(c).attributes.st)
        dtype, swung, broken_factor = mode.damage.type, mode.is_swing, mode.damage.factor
    else:
        return
    limb = "arm" if hit.location == "arm" else "leg"
    _body_blow(
        flow,
        c.id,
        flow.pair(c, c),
        ruleset.hit_locations.limb_key(limb),
        dice,
        dtype,
        swung,
        rng,
        ruleset,
        arc=Arc.FRONT,
        factor=hit.damage_factor * broken_factor,
        side=weapon_side(c.handedness),
        side_reason="a critical miss: hit self",
    )


def _stray_blow(
    plan: AttackPlan, flow: _Flow, attack_roll: SuccessRoll, rng: DiceSource, ruleset: Tables
) -> None:
    """000 MISSING A SPECIFIC HIT LOCATION: the miss hits the combatant in the way,
    at a random location, with the attack's damage."""
    b = flow.bystander
    assert b is not None
    a = flow.attacker
    pair = flow.pair(a, b)
    needed = min(9, plan.effective_skill - plan.location.penalty)
    told = StrayBlowTold(BlowPair.of(pair), flow.defender.name, attack_roll.total, needed)
    flow.events.append(told)
    arc = attack_arc(a, b)
    _body_blow(
        flow,
        b.id,
        pair,
        None,
        plan.damage_dice,
        plan.damage_spec.type,
        plan.mode.is_swing,
        rng,
        ruleset,
        arc=arc,
        from_above=plan.options.from_above,
        from_below=plan.options.from_below,
        factor=plan.damage_spec.factor,
        side_reason=f"a stray blow meant for {flow.defender.name}",
    )


def _located_blow(
    plan: AttackPlan,
    flow: _Flow,
    hit_key: str | None,
    rng: DiceSource,
    ruleset: Tables,
    record: CombatantChanges,
) -> tuple[DamageResult, LocationRoll | None, str]:
    """A blow on the defender's body with the battle's hit location system: the
    random location if swung randomly (covered areas rolled again), the wound there
    and its rolls. ``record``: the defender's turn record, made with the wound."""
    d = flow.defender
    side = limb_side(plan, ruleset.hit_locations, d)
    return _body_blow(
        flow,
        d.id,
        flow.between,
        hit_key,
        plan.damage_dice,
        plan.damage_spec.type,
        plan.mode.is_swing,
        rng,
        ruleset,
        arc=plan.arc,
        from_above=plan.options.from_above,
        from_below=plan.options.from_below,
        chink=plan.options.chink,
        covered=covered_keys(ruleset.hit_locations, plan.options.covered),
        factor=plan.damage_spec.factor,
        side=side,
        record=record,
    )


def _body_blow(
    flow: _Flow,
    target_id: str,
    between: Between,
    hit_key: str | None,
    dice: Dice,
    dtype: DamageType,
    swung: bool,
    rng: DiceSource,
    ruleset: Tables,
    *,
    arc: Arc,
    from_above: bool = False,
    from_below: bool = False,
    chink: bool = False,
    covered: frozenset[str] = frozenset(),
    factor: Fraction = Fraction(1),
    side: BodySide | None = None,
    side_reason: str | None = None,
    record: CombatantChanges | None = None,
) -> tuple[DamageResult, LocationRoll | None, str]:
    """A blow on ``target_id``'s body: the random location (``hit_key`` None), the
    damage (``factor`` of the rolled dice, rounded down), the located wound and its
    rolls, a crippled hand's drop. ``between`` names striker and struck for the
    events; ``side`` overrides the side of an aimed limb; ``record``: other changes
    to the one struck, made in the same copy as the wound."""
    system = ruleset.hit_locations
    d = flow.get(target_id)
    f = d.fighter
    sheet = sheet_of(f)
    left = d.handedness is Handedness.LEFT
    location_roll: LocationRoll | None = None
    if hit_key is None:
        covered = covered | system.lacking_locations(sheet.injury_tolerance)
        location_roll = system.roll_random(
            rng,
            from_above=from_above,
            from_below=from_below,
            from_back=arc is Arc.REAR,
            from_side=arc in (Arc.SHIELD_SIDE, Arc.WEAPON_SIDE),
            covered=covered,
            shield_side_near=arc in (Arc.SHIELD_FRONT, Arc.SHIELD_SIDE),
            shielded=combatant_stance(d).stance.sides_differ,  # 000 REFUSED VS. OPEN STANCES
            left_handed=left,
            what=f"where the blow lands on {d.name}",
        )
        hit_key, side = location_roll.location, location_roll.side
    elif side is None:
        side = table_side(system, hit_key, d)
    rolled, basic = damage_step(dice, factor, rng, f"{between['attacker_name']}'s damage")
    inputs = wound_inputs(
        d, hit_key, dtype, side, swung=swung, from_back=arc is Arc.REAR, chink=chink
    )
    assessment = inputs.assess(system, basic)
    outcomes = run_merged(rng, WoundRolls(assessment.rolls, d.name))
    wound = wound_from(assessment, outcomes)
    hp_after = d.hp - wound.injury
    rolled_state = run_merged(
        rng, StatusRolls(d.hp, hp_after, f.hit_points, sheet.attributes.ht, d.status, d.name)
    )
    status = wound_status(rolled_state.status, wound.conditions)
    damage = DamageResult(
        dice=dice,
        roll=rolled,
        damage_type=dtype,
        basic=basic,
        dr=assessment.effective_armor_dr + assessment.location_dr,
        penetrating=assessment.penetrating,
        multiplier=assessment.multiplier,
        injury=wound.injury,
        hp_before=d.hp,
        hp_after=hp_after,
        max_hp=f.hit_points,
        status_before=d.status,
        status_after=status,
        status_rolls=rolled_state.rolls,
        killed_outright=rolled_state.killed_outright,
        citation=assessment.citations[0] if assessment.citations else DAMAGE_CITATION,
    )
    # One copy for the injury, the state, the wound, its shock and the turn record.
    held = tracks_of(d)
    tracks, shocked = kept_shock(
        d,
        replace(held, wounds=(*held.wounds, wound)),
        damage.status_after,
        assessment.shock_penalty,
    )
    wounded: CombatantChanges = {
        **(record or {}),
        "hp": damage.hp_after,
        "status": damage.status_after,
        "tracks": tracks,
    }
    flow.put(d.evolve(**wounded))
    flow.events.append(
        LocatedBlowTold(
            BlowPair.of(between),
            d,
            location_roll,
            None if location_roll is None else system.random_citation,
            assessment,
            outcomes,
            wound,
            damage,
            side_reason,
        )
    )
    if WoundCondition.DROPPED_ITEM in wound.conditions:
        _drop_from_hand(flow, wound.side, damage.citation, target_id)
    struck, hurt = after_wound(  # its shock logged, falls
        d, flow.get(target_id), assessment, wound, shock_kept=shocked
    )
    flow.put(struck)
    flow.events.append(hurt)
    return damage, location_roll, hit_key


def limb_side(plan: AttackPlan, system: LocationRules, c: Combatant) -> BodySide | None:
    """The side of the limb a blow aimed at the parrying limb (the weapon side) or
    at a shield limb (the other side) strikes; None for any other aim."""
    if plan.location.key == PARRYING_LIMB:
        return weapon_side(c.handedness)
    if system.shield_limb(plan.location.key) is not None:
        return weapon_side(c.handedness).other
    return None


def table_side(system: LocationRules, key: str, c: Combatant) -> BodySide | None:
    """The side of an aimed location that has one (the near side: the weapon
    hand's)."""
    side = system.locations[key].side
    if side is None:
        return None
    return resolve_table_side(
        side,
        shield_side_near=False,
        shielded=True,
        side_die=None,
        left_handed=c.handedness is Handedness.LEFT,
    )


def wound_inputs(
    c: Combatant,
    key: str,
    dtype: DamageType,
    side: BodySide | None,
    *,
    swung: bool,
    from_back: bool,
    chink: bool,
) -> WoundInputs:
    """What the located wound of a blow at ``key`` reads of the one struck: his
    armor's uniform DR (the location's own DR is the system's), his traits, and
    his wounds so far with his weapon hand's side (for a system that keeps a
    wound track per body part)."""
    f = c.fighter
    return WoundInputs(
        key=key,
        damage_type=dtype,
        victim=victim_of(c),
        armor_dr=f.armor.dr if f.armor is not None else 0,
        side=side,
        swung=swung,
        from_back=from_back,
        chink=chink,
    )


def _lasting_wound_modifiers(
    system: LocationRules, c: Combatant, arms: frozenset[BodySide]
) -> tuple[Modifier, ...]:
    """The system's lasting modifiers of ``c``'s wounds on an action that uses
    ``arms`` (003 5.874 under locations-fudge). An unwounded fighter has none, and
    most are: they are asked for only once he has a wound."""
    if not wounds_of(c):
        return ()
    return system.fighting_modifiers(
        victim_of(c), arms=arms, standing=c.posture is Posture.STANDING
    )


def victim_of(c: Combatant) -> Victim:
    """The combatant's traits as the wound rules read them, with his wounds so far
    and his weapon hand's side (for a system that keeps a wound track per part)."""
    # Built at once, not replace()d, and once for each sheet and wounds: every
    # blow asks, and a fighter's sheet and wounds stay the same objects from state
    # to state until a wound is added.
    fighter, wounds = c.fighter, wounds_of(c)
    key = (id(fighter), id(wounds))
    known = _VICTIMS.get(key)
    if known is not None and known[0] is fighter and known[1] is wounds:
        return known[2]
    victim = Victim.of(fighter, wounds=wounds, weapon_side=weapon_side(c.handedness))
    if len(_VICTIMS) >= _VICTIMS_KEPT:
        _VICTIMS.clear()
    _VICTIMS[key] = (fighter, wounds, victim)
    return victim


# ``victim_of``'s victims by the identity of the sheet and the wounds (each entry
# holds both, so that their ids are not reused).
_VICTIMS: dict[tuple[int, int], tuple[Fighter, tuple[Wound, ...], Victim]] = {}
_VICTIMS_KEPT = 512


def arms_using(c: Combatant, weapon: Weapon) -> frozenset[BodySide]:
    """The sides whose arm and hand wield ``weapon``: the weapon hand's for the
    sheet's first weapon (and a bare hand), the other hand's for any other, both
    for a two-handed weapon (as ``wounded``'s crippled grip reads them)."""
    hand = weapon_side(c.handedness)
    if weapon.two_handed:
        return _BOTH_ARMS
    if weapon.kind is _UNARMED:
        return _ONE_ARM[hand]
    held = weapon_hand_weapon(c)
    if held is None or held.key == weapon.key:
        return _ONE_ARM[hand]
    return _ONE_ARM[hand.other]


# ``arms_using``'s answers, made once (each attack plan asks; a set of enum members
# hashes each member in Python).
_BOTH_ARMS = frozenset(BodySide)
_ONE_ARM = {side: frozenset({side}) for side in BodySide}
_UNARMED = WeaponKind.UNARMED


def _defending_arms(c: Combatant, choice: DefenseChoice) -> frozenset[BodySide]:
    """The arms an active defense uses: a parry the parrying weapon's, a block the
    shield arm, a dodge none (the legs only)."""
    if choice.kind is DefenseKind.BLOCK:
        return frozenset({weapon_side(c.handedness).other})
    if choice.kind is DefenseKind.PARRY and choice.weapon_key is not None:
        weapon = next((w for w in c.fighter.weapons if w.key == choice.weapon_key), None)
        if weapon is not None:
            return arms_using(c, weapon)
    return frozenset()


def _drop_from_hand(
    flow: _Flow, side: BodySide | None, citation: Citation, combatant_id: str | None = None
) -> None:
    """A crippled hand drops what it holds, at the feet: the weapon hand its first
    weapon, the other hand a buckler or small shield."""
    c = flow.defender if combatant_id is None else flow.get(combatant_id)
    f = c.fighter
    weapon_hand = side is None or side is weapon_side(c.handedness)
    if weapon_hand:
        held = weapon_hand_weapon(c)
        if held is None:
            return
        flow.put(_swap_weapon(c, held.key, None))
        piece = Piece(held.name, held, replace(AT_FEET, citation=citation))
    elif f.shield is not None and f.shield.dropped_on_critical_miss:
        flow.put(keep_carried(c, c.evolve(fighter=replace(f, shield=None))))
        piece = Piece(f.shield.name, None, replace(AT_FEET, citation=citation), note="a shield")
    else:
        return
    flow.lose(c, (piece,), "the crippled hand lets go", citation)


def _hit_weapon(plan: AttackPlan, flow: _Flow, rng: DiceSource, ruleset: Tables) -> None:
    """A blow that landed on the defender's weapon: 001 knock-away, or damage to it
    (000 CUTTING THROUGH A WEAPON, 000 BREAKING A BLADE, 001 Breaking a Weapon)."""
    target = plan.target_weapon
    assert target is not None
    if plan.options.weapon_attack is WeaponAttack.DISARM:
        _disarm(plan, flow, rng, ruleset.weapon_strikes)
        return
    d = flow.defender
    state = d.weapon_state(target.key) or INTACT
    what = f"{flow.attacker.name}'s damage to {d.name}'s {target.name}"
    basic = damage_step(plan.damage_dice, plan.damage_spec.factor, rng, what)[1]
    dtype = plan.damage_spec.type
    struck = ruleset.weapon_strikes.damage_struck_weapon(
        target, plan.weapon, state, basic, dtype, ruleset
    )
    after, broke, citation, text = struck.after, struck.broke, struck.citation, struck.text
    flow.events.append(WeaponStruckTold(target.name, basic, text, broke, citation))
    states = tuple((k, s) for k, s in d.weapon_states if k != target.key)
    if after != INTACT:
        states += ((target.key, after),)
    flow.defender = d.evolve(weapon_states=states)
    if broke:
        try:
            result = break_weapon(target, rng, table=ruleset.broken_weapons, who=d.name)
        except IllegalAttackError:  # nothing on the table to roll: it is gone
            flow.defender = _swap_weapon(flow.defender, target.key, None)
            flow.broken.append(BrokenItem(d.id, target.key))
            return
        _broken(flow, flow.defender, result, "struck by a weapon")


def _disarm(
    plan: AttackPlan, flow: _Flow, rng: DiceSource, strikes: WeaponStrikeRules
) -> DisarmResult:
    """The disarm's contest rolled and applied; returns its result."""
    target = plan.target_weapon
    assert target is not None
    a, d = flow.attacker, flow.defender
    # 000: the plan's contest, as previewed; 001: the contest after the hit (the
    # situational modifiers already went into the attack roll).
    result = strikes.resolve_disarm(
        a.fighter,
        plan.weapon,
        d.fighter,
        target,
        rng,
        contest=plan.contest,
        knock_away=plan.options.knock_away,
    )
    flow.events.append(DisarmTold(result))
    if result.disarmed is Hand.DEFENDER and result.dropped is not None:
        flow.defender = _swap_weapon(d, target.key, None)
        flow.lose(d, (result.dropped,), "disarmed", result.citations[0])
    elif result.disarmed is Hand.ATTACKER and result.dropped is not None:
        flow.attacker = _swap_weapon(a, plan.weapon.key, None)
        flow.lose(a, (result.dropped,), "disarmed by a critical failure", result.citations[0])
    elif result.outcome is DisarmOutcome.DEFENDER_KEEPS_UNREADY:
        flow.defender = d.evolve(unready=d.unready | {target.key})
    return result


def _disarm_contest_000(
    plan: AttackPlan, flow: _Flow, rng: DiceSource, strikes: WeaponStrikeRules
) -> AttackResolution:
    """000 DISARMING AN OPPONENT: a Quick Contest instead of the attack and defense
    exchange. The outcome is HIT when the foe lost his weapon, CRITICAL_MISS when
    the attacker lost his, MISSED otherwise."""
    flow.attacker = flow.attacker.evolve(
        actions_this_turn=(
            *flow.attacker.actions_this_turn,
            TurnAction(ActionKind.ATTACK, plan.weapon.key),
        ),
    )
    contest = _disarm(plan, flow, rng, strikes)  # the result, not read back from the log
    a = flow.attacker  # 000 PARRY: a 1/2 or 1/3 weapon that attacked is unready
    still_held = any(w.key == plan.weapon.key for w in a.fighter.weapons)
    unreadied = None
    if plan.attacker_weapon_unready_after and still_held:
        flow.attacker = a.evolve(unready=a.unready | {plan.weapon.key})
        unreadied = plan.weapon.name
    outcome = {
        Hand.DEFENDER: AttackOutcome.HIT,
        Hand.ATTACKER: AttackOutcome.CRITICAL_MISS,
        None: AttackOutcome.MISSED,
    }[contest.disarmed]
    flow.events.append(ContestResolvedTold(outcome, contest.citations[0], unreadied))
    return AttackResolution(
        plan=plan,
        attack_roll=contest.attacker_roll,
        defense_rolls=(),
        outcome=outcome,
        damage=None,
        attacker_after=flow.attacker,
        defender_after=flow.defender,
        events=(),
        pieces=tuple(flow.pieces),
        piece_origins=tuple(flow.origins),
        broken=tuple(flow.broken),
        after_told=tuple(flow.events),
    )


def _defense_label(d: DefensePlan) -> str:
    item = f" ({d.item_name})" if d.item_name else ""
    return f"{d.kind.value}{item} at {d.value}"
