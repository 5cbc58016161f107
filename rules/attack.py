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
record of every roll with the updated combatants and the log's events.

Seed 000 / 001 rules wired in (docs/rules-core.md, "The attack, wired"): hit
locations from the battle's hit location system (``Ruleset.hit_locations``: 000's
table, or 001's with the ``locations-001`` option) with aimed penalties, random
locations, near misses and misses only because of the aim, located wounds
(``rules.wound_effects``); adverse combat conditions; acrobatic dodges, defended
body areas, fencing parries, off-balance; critical misses (verifying, avoiding, the
table) on attacks and on defenses; parries breaking against heavy weapons;
striking at weapons (cutting shafts, breaking blades, 001 damage), disarming
(000 contest, 001 knock-away); subduing (001) and chinks in armor (001). Pieces
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

import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum

from hexmap import Arc, Handedness, Hex, arc_of, reach_hexes
from rules.attack_events import (
    ATTACK_ROLL_CITATION,
    DAMAGE_CITATION,
    DEFENSE_CRITICAL_MISS_CITATION,
    DEFENSES_CITATION,
    INJURY_CITATION,
    READINESS_CITATION,
    AcrobaticDodgeRolled,
    AttackAdjusted,
    AttackDeclared,
    AttackOutcome,
    AttackResolved,
    AttackRolled,
    Between,
    CriticalMissChecked,
    CriticalMissTableRolled,
    DamageDealt,
    DefenseCriticalMiss,
    DefenseMishapResolved,
    DefenseNotRolled,
    DefenseRolled,
    DisarmContested,
    HitLocationRolled,
    InjuryRolled,
    LocationShifted,
    ParryBreakRolled,
    PiecesLeftHand,
    StatusChanged,
    WeaponBroke,
    WeaponStruck,
    WeaponUnreadied,
    WoundInflicted,
)
from rules.breakage import BreakResult, break_weapon, parry_break_chance, roll_parry_break
from rules.checks import Outcome, RollKind, SuccessRoll, success_roll
from rules.citation import BASE_CRITICALS, BASE_SUCCESS_ROLL, BASE_WEAPONS, Citation, cite
from rules.conditions import (
    SelectedCondition,
    condition_modifiers,
    large_shield_modifier,
    minimum_st_modifier,
    removes_active_defenses,
)
from rules.critical_misses import (
    HIGH_SKILL,
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
    confirm_critical_miss,
    defense_critical_miss,
    roll_critical_miss,
)
from rules.damage import DamageResult, injury_status, roll_damage
from rules.defense import (
    DefenseChoice,
    DefenseKind,
    DefensePlan,
    DefenseSituation,
    PassiveDefense,
    attack_cumulative_modifiers,
    plan_defense,
    unready_after_use,
)
from rules.dice import roll_dice
from rules.disarm import DisarmOutcome, Hand, resolve_disarm
from rules.errors import IllegalAttackError
from rules.events import Event
from rules.hit_location import (
    MISSING_000,
    NEAR_MISSES_000,
    RANDOM_000,
    RANDOM_001,
    HitLocationSystem,
    HitLocationTable,
    LocationRoll,
    TableSide,
    resolve_table_side,
)
from rules.locations import HitLocation
from rules.locations_001 import CHINKS_001, Locations001
from rules.model import (
    ActionKind,
    Combatant,
    DamageSpec,
    DamageType,
    Dice,
    Status,
    TurnAction,
    Weapon,
    WeaponKind,
    WeaponMode,
)
from rules.modifiers import Modifier
from rules.ruleset import Ruleset
from rules.stances import (
    ACROBATIC_CITATION,
    FENCING_CITATION,
    BodySide,
    acrobatic_dodge,
    acrobatics_skill_of,
    defended_area_modifier,
    fencing_parry_allowed,
    free_parries_per_turn,
    weapon_side,
)
from rules.conditions import ConditionError
from rules.weapon_strikes import (
    AT_FEET,
    INTACT,
    SUBDUING_001,
    Piece,
    RulesSource,
    StrikePurpose,
    WeaponDamageState,
    blade_table,
    blunt_end,
    check_weapon_defense,
    cut_shaft,
    damage_weapon,
    flat_of_blade,
    is_blade,
    pulled_punch,
    shaft_stats,
    strike_at_weapon_modifiers,
    strike_blade,
    weapon_defense_options,
    weapon_targetable,
)
from rules.wound_effects import Condition as WoundCondition
from rules.wound_effects import Victim, resolve_rolls, wound_from

__all__ = [
    "AttackOptions",
    "SubdueMode",
    "WeaponAttack",
    "WeaponInReach",
    "AttackOutcome",
    "AttackPlan",
    "AttackResolution",
    "DefenseChoice",
    "DefenseKind",
    "DefenseRoll",
    "Modifier",
    "plan_attack",
    "resolve_attack",
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


@dataclass(frozen=True)
class AttackOptions:
    weapon_key: str
    mode: str
    location: str | None = None  # aimed hit location key; None is the torso
    defenses: tuple[DefenseChoice, ...] = ()  # announced before any roll, rolled in order
    from_below: bool = False
    extra_modifiers: tuple[Modifier, ...] = ()  # the GM's situational modifiers
    # rules.conditions: adverse combat conditions, the attacker's and the defender's
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
    # 000 MISSING A SPECIFIC HIT LOCATION: the combatant partly in the way (id)
    obscured_by: str | None = None


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
    # The key in ``Ruleset.hit_locations`` the blow is aimed at (None: the legacy
    # uniform torso/location table, a random location or a weapon).
    hit_location: str | None = None
    location_system: str = ""  # "000" or "001": the system placing the blow
    target_weapon: Weapon | None = None  # struck at or disarmed
    no_active_defense: bool = False  # a selected condition removes active defenses
    effective_st: int = 0  # the ST behind the damage (pulled blows: the chosen ST)
    adjustments: tuple[tuple[str, Citation], ...] = ()  # subduing, chinks ...

    @property
    def below(self) -> bool:
        return self.options.from_below


@dataclass(frozen=True)
class DefenseRoll:
    plan: DefensePlan
    roll: SuccessRoll

    @property
    def succeeded(self) -> bool:
        return self.roll.succeeded

    @property
    def outcome(self) -> Outcome:
        return self.roll.outcome


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


def _weapon_and_mode(attacker: Combatant, options: AttackOptions) -> tuple[Weapon, WeaponMode]:
    try:
        weapon = attacker.fighter.weapon(options.weapon_key)
    except KeyError:
        raise IllegalAttackError(f"{attacker.name} has no weapon {options.weapon_key!r}") from None
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
    ruleset: Ruleset,
    *,
    weapon_in_reach: WeaponInReach | None = None,
) -> AttackPlan:
    """Check and compute an attack without rolling. Raises ``IllegalAttackError``.

    ``weapon_in_reach`` answers, for a strike at a weapon, whether a hex of it is
    within reach (000 STRIKING AT WEAPONS); without it the weapon is taken to be
    in reach (its wielder is)."""
    if attacker.id == defender.id:
        raise IllegalAttackError("a combatant cannot attack itself")
    if attacker.status is not Status.ACTIVE:
        raise IllegalAttackError(f"{attacker.name} is {attacker.status.value} and cannot attack")
    weapon, base_mode = _weapon_and_mode(attacker, options)
    if weapon.key in attacker.unready:
        raise IllegalAttackError(f"{attacker.name}'s {weapon.name} is not ready")
    if defender.hex not in reach_hexes(attacker.hex, attacker.facing, base_mode.reach):
        raise IllegalAttackError(
            f"{defender.name} is not within the {weapon.name}'s reach {base_mode.reach} "
            f"in front of {attacker.name}"
        )
    _check_options(options)
    fighter = attacker.fighter
    mode, st, adjustments = _subdued(weapon, base_mode, fighter.attributes.st, options)
    arc = attack_arc(attacker, defender)
    system = ruleset.hit_locations
    target = _target_weapon(attacker, defender, weapon, options, ruleset, weapon_in_reach)
    location, hit_key, location_mods = _aim(options, system, defender, arc, ruleset, target)
    if options.chink:
        adjustments += (("aimed at a chink in the armor: the armor's DR is halved", CHINKS_001),)

    mods: list[Modifier] = []
    if mode.skill_modifier:
        mods.append(Modifier(mode.skill_modifier, f"{weapon.name} {mode.name}", BASE_WEAPONS))
    mods.extend(location_mods)
    if target is not None and options.weapon_attack is not None:
        purpose = (
            StrikePurpose.DISARM
            if options.weapon_attack is WeaponAttack.DISARM
            else StrikePurpose.BREAK
        )
        mods.extend(
            strike_at_weapon_modifiers(target, weapon, purpose=purpose, rules=ruleset.weapon_rules)
        )
    # 000 ADVERSE COMBAT CONDITIONS that follow from the gear (rules.conditions).
    for automatic in (
        minimum_st_modifier(st, weapon.min_st),
        large_shield_modifier(fighter.shield, mode.is_swing),
    ):
        if automatic is not None:
            mods.append(automatic)
    # ... and those the GM selected for this attack.
    mods.extend(condition_modifiers(options.conditions, melee=True, swinging=mode.is_swing))
    mods.extend(attack_cumulative_modifiers(attacker.actions_this_turn, weapon.key, weapon.name))
    if target is None:
        pd = ruleset.passive_defense(defender.fighter, arc)
    else:  # 000 DEFENSE AGAINST WEAPON ATTACKS: no PD protects a weapon
        pd = PassiveDefense(0, 0, False, 0, ())
    mods.extend(pd.modifiers)
    mods.extend(options.extra_modifiers)
    base_skill = fighter.skill(weapon.skill)
    effective = base_skill + sum(m.value for m in mods)

    no_defense = removes_active_defenses(options.conditions)
    if no_defense and options.defenses:
        raise IllegalAttackError(
            "a selected condition leaves the defender no active defense "
            "(000 ADVERSE COMBAT CONDITIONS)"
        )
    kinds = [d.kind for d in options.defenses]
    for kind in DefenseKind:
        if kinds.count(kind) > 1:
            raise IllegalAttackError(
                f"only one {kind.value} against one attack ({DEFENSES_CITATION})"
            )
    if target is not None:
        allowed = weapon_defense_options(target, target_ready=target.key not in defender.unready)
        for choice in options.defenses:
            check_weapon_defense(allowed, choice.kind, choice.weapon_key)
    if options.acrobatic_dodge:
        if DefenseKind.DODGE not in kinds:
            raise IllegalAttackError(f"an acrobatic dodge is a dodge ({ACROBATIC_CITATION})")
        if acrobatics_skill_of(defender.fighter) is None:
            raise IllegalAttackError(
                f"{defender.name} has no Acrobatics skill ({ACROBATIC_CITATION})"
            )
    situation = DefenseSituation(
        arc=arc,
        below=options.from_below,
        attack_is_swing=mode.is_swing,
        attack_is_unarmed=weapon.kind is WeaponKind.UNARMED,
        pd_total=pd.total,
    )
    area_key = None if target is not None or options.random_location else location.key
    history: list[TurnAction] = list(defender.actions_this_turn)
    plans: list[DefensePlan] = []
    for choice in options.defenses:
        plan = plan_defense(
            defender,
            choice,
            situation,
            history,
            ruleset.directional,
            ruleset.defense_cap,
            ruleset.defense_plus_pd_cap,
            extra_modifiers=_area_modifiers(defender, area_key, choice.kind),
            free_parries=_free_parries(defender, choice, options),
            free_parry_citation=FENCING_CITATION,
        )
        plans.append(plan)
        history.append(plan.action)

    return AttackPlan(
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
        defenses=tuple(plans),
        damage_spec=mode.damage,
        damage_dice=ruleset.weapon_damage(mode.damage, st),
        attacker_weapon_unready_after=unready_after_use(weapon),
        hit_location=hit_key,
        location_system=system.system if (hit_key or options.random_location) else "",
        target_weapon=target,
        no_active_defense=no_defense,
        effective_st=st,
        adjustments=adjustments,
    )


def _check_options(options: AttackOptions) -> None:
    if options.from_above and options.from_below:
        raise IllegalAttackError("an attack cannot come both from above and from below")
    if options.random_location and options.location is not None:
        raise IllegalAttackError("a random swing aims at no location")
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


def _subdued(
    weapon: Weapon, mode: WeaponMode, st: int, options: AttackOptions
) -> tuple[WeaponMode, int, tuple[tuple[str, Citation], ...]]:
    """001 Subduing a Foe: the mode and ST the blow uses."""
    if options.subdue is SubdueMode.PULLED:
        assert options.pulled_st is not None
        pulled = pulled_punch(None if weapon.kind is WeaponKind.UNARMED else weapon, st,
                              options.pulled_st)
        return mode, pulled.st, ((f"pulled blow at ST {pulled.st} of {st}", pulled.citation),)
    if options.subdue is SubdueMode.FLAT:
        flat = flat_of_blade(mode)
        return flat, st, (("the flat of the blade: crushing damage", SUBDUING_001),)
    if options.subdue is SubdueMode.BLUNT_END:
        blunt = blunt_end(mode)
        return blunt.mode, st, (("the blunt end: -1 damage, crushing", blunt.citation),)
    return mode, st, ()


def _target_weapon(
    attacker: Combatant,
    defender: Combatant,
    weapon: Weapon,
    options: AttackOptions,
    ruleset: Ruleset,
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
    verdict = weapon_targetable(target, weapon_in_reach=in_reach, rules=ruleset.weapon_rules)
    if not verdict.allowed:
        raise IllegalAttackError(
            f"{attacker.name} cannot strike at the {target.name}: {verdict.reason} "
            f"({verdict.citation})"
        )
    return target


def _aim(
    options: AttackOptions,
    system: HitLocationSystem,
    defender: Combatant,
    arc: Arc,
    ruleset: Ruleset,
    target: Weapon | None,
) -> tuple[HitLocation, str | None, tuple[Modifier, ...]]:
    """The aimed location, its key in the hit location system (if it has one) and
    the penalties to hit it."""
    if target is not None:
        return HitLocation("weapon", target.name, 0, STRIKING_000), None, ()
    if options.random_location:
        cited = RANDOM_001 if isinstance(system, Locations001) else RANDOM_000
        return HitLocation("random", "random location", 0, cited), None, ()
    key = options.location
    if key is None and "torso" in system.locations:
        key = "torso"
    if key is not None and key in system.locations:
        loc = system.locations[key]
        shield_side = defender.fighter.shield is not None and loc.side is TableSide.FAR
        if isinstance(system, Locations001):
            mods = system.penalty(key, shield_side=shield_side, melee=True, chink=options.chink)
        elif options.chink:
            raise IllegalAttackError(f"chinks in armor need the 001 hit locations ({CHINKS_001})")
        else:
            mods = system.penalty(key, shield_side=shield_side, melee=True, from_front=arc.is_front)
        penalty = sum(m.value for m in mods)
        cited = mods[0].citation if mods else ruleset.location(None).citation
        return HitLocation(key, loc.label, penalty, cited), key, mods
    if options.chink:
        raise IllegalAttackError(f"chinks in armor need the 001 hit locations ({CHINKS_001})")
    legacy = ruleset.location(options.location)
    return legacy, None, legacy.modifiers(melee=True)


def _area_modifiers(
    defender: Combatant, location_key: str | None, kind: DefenseKind
) -> tuple[Modifier, ...]:
    """000 DEFENDING A SPECIFIC BODY AREA (block and parry only)."""
    if defender.defended_area is None or location_key == "random":
        return ()
    try:
        mod = defended_area_modifier(
            defender.defended_area, location_key, kind, handedness=defender.handedness
        )
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


def resolve_attack(
    plan: AttackPlan,
    attacker: Combatant,
    defender: Combatant,
    rng: random.Random,
    ruleset: Ruleset,
) -> AttackResolution:
    """Roll the attack of ``plan``. The plan must match the combatants as they
    are now (it is recomputed and compared; a stale plan is refused)."""
    if plan_attack(attacker, defender, plan.options, ruleset) != plan:
        raise IllegalAttackError("the attack plan no longer matches the combatants")
    between: Between = {
        "attacker_id": attacker.id,
        "attacker_name": attacker.name,
        "defender_id": defender.id,
        "defender_name": defender.name,
        "attacker_hex": attacker.hex,
        "defender_hex": defender.hex,
    }
    events: list[Event] = [
        AttackDeclared(
            citation=DEFENSES_CITATION,
            weapon_name=plan.weapon.name,
            mode=plan.mode.name,
            location_label=plan.location.label,
            arc=plan.arc,
            below=plan.below,
            announced=tuple(_defense_label(d) for d in plan.defenses),
            **between,
        )
    ]
    attack_roll = success_roll(plan.effective_skill, rng, RollKind.STANDARD)
    events.append(
        AttackRolled(
            citation=ATTACK_ROLL_CITATION,
            skill_name=plan.skill_name,
            base_skill=plan.base_skill,
            modifiers=plan.modifiers,
            effective_skill=plan.effective_skill,
            roll=attack_roll,
            **between,
        )
    )

    rolls: list[DefenseRoll] = []
    if attack_roll.outcome is Outcome.CRITICAL_FAILURE:
        outcome, skipped = AttackOutcome.CRITICAL_MISS, "the attack critically missed"
    elif attack_roll.outcome is Outcome.FAILURE:
        outcome, skipped = AttackOutcome.MISSED, "the attack missed"
    elif attack_roll.outcome is Outcome.CRITICAL_SUCCESS:
        outcome, skipped = AttackOutcome.CRITICAL_HIT, "no defense against a critical hit"
    else:
        outcome, skipped = AttackOutcome.HIT, "an earlier defense succeeded"
        for d in plan.defenses:
            r = DefenseRoll(d, success_roll(d.value, rng, RollKind.DEFENSE))
            rolls.append(r)
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
            if r.succeeded:
                outcome = AttackOutcome.DEFENDED
                break
    for d in plan.defenses[len(rolls) :]:
        events.append(
            DefenseNotRolled(
                citation=DEFENSES_CITATION,
                kind=d.kind,
                item_name=d.item_name,
                reason=skipped,
                **between,
            )
        )
    events.append(AttackResolved(citation=_OUTCOME_CITATIONS[outcome], outcome=outcome, **between))

    # The attacker's turn record and readiness.
    attacker_after = replace(
        attacker,
        actions_this_turn=(
            *attacker.actions_this_turn,
            TurnAction(ActionKind.ATTACK, plan.weapon.key),
        ),
    )
    if plan.attacker_weapon_unready_after:
        attacker_after = replace(attacker_after, unready=attacker.unready | {plan.weapon.key})
        events.append(
            WeaponUnreadied(
                citation=READINESS_CITATION,
                combatant_id=attacker.id,
                name=attacker.name,
                weapon_name=plan.weapon.name,
            )
        )

    # The defender's: every announced defense counts, except critical successes.
    critical_wins = {i for i, r in enumerate(rolls) if r.outcome is Outcome.CRITICAL_SUCCESS}
    actions = tuple(
        replace(d.action, counts=i not in critical_wins) for i, d in enumerate(plan.defenses)
    )
    unready = {d.action.weapon_key for d in plan.defenses if d.becomes_unready}
    defender_after = replace(
        defender,
        actions_this_turn=defender.actions_this_turn + actions,
        unready=defender.unready | {k for k in unready if k is not None},
    )
    for d in plan.defenses:
        if d.becomes_unready and d.item_name is not None:
            events.append(
                WeaponUnreadied(
                    citation=READINESS_CITATION,
                    combatant_id=defender.id,
                    name=defender.name,
                    weapon_name=d.item_name,
                )
            )

    damage: DamageResult | None = None
    if outcome.is_hit:
        damage = roll_damage(
            plan.damage_dice, plan.damage_spec.type, defender_after, rng, ruleset.wounding
        )
        defender_after = damage.apply_to(defender_after)
        events.append(DamageDealt(citation=DAMAGE_CITATION, damage=damage, **between))
        for sr in damage.status_rolls:
            events.append(
                InjuryRolled(
                    citation=INJURY_CITATION,
                    combatant_id=defender.id,
                    name=defender.name,
                    status_roll=sr,
                )
            )
        if damage.status_after is not damage.status_before:
            events.append(
                StatusChanged(
                    citation=INJURY_CITATION,
                    combatant_id=defender.id,
                    name=defender.name,
                    before=damage.status_before,
                    after=damage.status_after,
                )
            )

    return AttackResolution(
        plan=plan,
        attack_roll=attack_roll,
        defense_rolls=tuple(rolls),
        outcome=outcome,
        damage=damage,
        attacker_after=attacker_after,
        defender_after=defender_after,
        events=tuple(events),
    )


def _defense_label(d: DefensePlan) -> str:
    item = f" ({d.item_name})" if d.item_name else ""
    return f"{d.kind.value}{item} at {d.value}"
