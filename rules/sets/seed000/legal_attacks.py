"""Seed 000's attacks as legal actions (``rules.sets.components.legal_actions``):
every distinct attack a fighter may choose on one foe, in the attacker's terms.

For each ready weapon and mode in hand that reaches (``reaching_modes``): the
unaimed blow, a random location (000 RANDOM HIT LOCATION), a blow aimed at each
location of the battle's hit location system that the attack may aim at
(``aim_choices``), and where the system and the damage type allow it, at a
chink in the armor there (001 Targeting Chinks in Armor); then the attack
form's options that are the attacker's own: a strike at each of the defender's
weapons, to break or to disarm it (000 STRIKING AT WEAPONS, DISARMING AN
OPPONENT), each way of subduing (001 Subduing a Foe) and a blow at the limb the
defender parried with bare-handed (000 UNARMED PARRIES). The GM's situation
(from above or below, adverse conditions, a modifier, an off hand, cover) and
the defender's own choices are not offered. Beyond a missile's 1/2D range only
the random location is (000 RANDOM HIT LOCATION); a weapon held butt first only
strikes with its blunt end.

The defender's defenses are its own answer (``Seed000Answer``), never the
attacker's: each attack is offered without one. The options that the map or the
defender's gear may refuse (the strikes at weapons, the parrying limb, a shot
that pulls its blow) are offered only when the battle's own planning
(``check``) accepts them; the aims and the ways of subduing are read from the
same rules the planning applies, so that the
hundreds of attacks a fighter may have take no plan each."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from hexmap import Hex, in_front_arc, in_reach
from rules.battle.battle import weapon_positions
from rules.battle.hands import wielded_weapons
from rules.battle.model import Combatant, Weapon, WeaponKind, WeaponMode
from rules.core.errors import IllegalAttackError
from rules.sets.components.legal_actions import OfferedAttack
from rules.sets.seed000.attack import (
    AttackOptions,
    SubdueMode,
    WeaponAttack,
    parried_bare_handed,
)
from rules.sets.seed000.location_rules import LocationRules
from rules.sets.seed000.locations import AimChoice, aim_choices
from rules.sets.seed000.missiles import forced_random_location
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import tracks_of
from rules.sets.seed000.weapon_strikes import (
    blunt_end,
    flat_of_blade,
    pulled_punch,
    turns_end_for_end,
)
from rules.sets.seed000.wounded import wielding_problem

# Whether the battle's planning accepts these options for this attacker and foe.
AttackCheck = Callable[[AttackOptions], bool]

# How much a pulled blow holds back (001 Subduing a Foe lets the attacker pick any
# ST below its own; one is offered, as the attack pane starts at it).
PULLED_ST_LESS = 3


def reaching_modes(attacker: Combatant, target: Hex) -> Iterator[tuple[Weapon, WeaponMode]]:
    """The attacker's ready weapon modes in hand that strike ``target``, in sheet
    order."""
    for weapon in wielded_weapons(attacker):
        if weapon.key in attacker.unready or weapon.key in tracks_of(attacker).strained_weapons:
            continue
        if wielding_problem(attacker, weapon) is not None:  # a crippled arm, paralysis
            continue
        for mode in weapon.modes:
            if _reaches(attacker, mode, target):
                yield weapon, mode


def _reaches(attacker: Combatant, mode: WeaponMode, target: Hex) -> bool:
    """Can ``mode`` strike ``target`` from where the attacker stands: melee by
    reach, a thrown or missile mode within its range in the front arc."""
    if mode.is_ranged:
        distance = attacker.hex.distance(target)
        in_range = mode.range_hexes is not None and 0 < distance <= mode.range_hexes
        return in_range and in_front_arc(attacker.hex, attacker.facing, target)
    return in_reach(attacker.hex, attacker.facing, mode.reach, target)


def offered_attacks(
    tables: Tables, attacker: Combatant, defender: Combatant, check: AttackCheck
) -> Iterator[OfferedAttack[AttackOptions]]:
    """The attacks ``attacker`` may choose on ``defender`` (see the module), the
    plain blow of the first weapon and mode first."""
    reversed_weapons = tracks_of(attacker).reversed_weapons
    distance = attacker.hex.distance(defender.hex)
    for weapon, mode in reaching_modes(attacker, defender.hex):
        named = f"{weapon.name}, {mode.name}"
        if weapon.key in reversed_weapons:  # butt first: the blunt end only
            blunt = AttackOptions(
                weapon.key, mode.name, subdue=SubdueMode.BLUNT_END
            )
            if check(blunt):
                yield OfferedAttack(blunt, f"{named}, with the blunt end")
            continue
        if forced_random_location(mode, distance):  # the planning makes it random
            plain = AttackOptions(weapon.key, mode.name)
            yield OfferedAttack(plain, f"{named}, a random location")
            continue
        yield from _aimed(tables, defender, weapon, mode, named)
        yield from _options(attacker, defender, weapon, mode, named, check)


# The aims of each hit location system for one kind of blow and target, by
# (id(system), shielded, tolerances, damage type, swung), with the system kept so
# that its id stays its own: whether a location may be aimed at, and its name,
# depend on nothing else (``aim_choices``); only the penalties do.
_AIMS: dict[tuple[object, ...], tuple[LocationRules, tuple[AimChoice, ...]]] = {}


def _aims(system: LocationRules, defender: Combatant, mode: WeaponMode) -> tuple[AimChoice, ...]:
    """The aims of ``aim_choices`` that ``mode`` may take at ``defender``, the
    unaimed blow first."""
    tolerances = sheet_of(defender).injury_tolerance
    shielded = defender.fighter.shield is not None
    key = (id(system), shielded, tolerances, mode.damage.type, mode.is_swing, mode.is_ranged)
    known = _AIMS.get(key)
    if known is not None and known[0] is system:
        return known[1]
    aims = tuple(
        aim
        for aim in aim_choices(
            system,
            defender,
            from_front=True,  # the side changes a penalty, never whether it may aim
            melee=not mode.is_ranged,
            damage_type=mode.damage.type,
            swung=mode.is_swing,
        )
        if aim.refusal is None
    )
    _AIMS[key] = (system, aims)
    return aims


def _aimed(
    tables: Tables,
    defender: Combatant,
    weapon: Weapon,
    mode: WeaponMode,
    named: str,
) -> Iterator[OfferedAttack[AttackOptions]]:
    """The unaimed blow, each location it may aim at, a random location, and a
    chink in the armor at each location where chinks may be aimed at."""
    system = tables.hit_locations
    aims = _aims(system, defender, mode)
    for aim in aims:
        where = "not aimed" if aim.key is None else f"at the {aim.label.lower()}"
        yield OfferedAttack(
            AttackOptions(weapon.key, mode.name, location=aim.key),
            f"{named}, {where}",
        )
    yield OfferedAttack(
        AttackOptions(weapon.key, mode.name, random_location=True),
        f"{named}, a random location",
    )
    if system.chink_problem(mode.damage.type) is not None:
        return
    for aim in aims:
        if aim.key is not None and system.shield_limb(aim.key) is not None:
            continue  # a chink is at the arm or the hand, not at the shield's limb
        where = "" if aim.key is None else f" at the {aim.label.lower()}"
        yield OfferedAttack(
            AttackOptions(weapon.key, mode.name, location=aim.key, chink=True),
            f"{named}, a chink in the armor{where}",
        )


def _options(
    attacker: Combatant,
    defender: Combatant,
    weapon: Weapon,
    mode: WeaponMode,
    named: str,
    check: AttackCheck,
) -> Iterator[OfferedAttack[AttackOptions]]:
    """The attack form's options that are the attacker's own, each alone on the
    plain blow: the strikes at weapons and the parrying limb where the planning
    accepts them, the ways of subduing that the blow allows (001 Subduing a
    Foe: the flat of a swung cutting blade, the blunt end of an impaling thrust
    once turned round, a pulled blow with any weapon but a crossbow or gun)."""
    for target in weapon_positions(defender):  # the weapons in hand, not bare hands
        struck = defender.fighter.weapon(target)
        for purpose in WeaponAttack:
            options = AttackOptions(
                weapon.key,
                mode.name,
                target_weapon_key=target,
                weapon_attack=purpose,
            )
            if check(options):
                yield OfferedAttack(
                    options, f"{named}, {purpose.value} {defender.name}'s {struck.name}"
                )
    st = sheet_of(attacker).attributes.st
    for subdue in SubdueMode:
        pulled = max(1, st - PULLED_ST_LESS) if subdue is SubdueMode.PULLED else None
        if not _may_subdue(weapon, mode, subdue, st, pulled):
            continue
        subdued = AttackOptions(
            weapon.key, mode.name, subdue=subdue, pulled_st=pulled
        )
        if mode.is_ranged and not check(subdued):
            continue  # a shot or a throw may only pull its blow, and not every one
        how = f"pulled to ST {pulled}" if pulled is not None else f"with the {subdue.value}"
        yield OfferedAttack(subdued, f"{named}, {how}")
    if parried_bare_handed(defender):
        at_limb = AttackOptions(weapon.key, mode.name, at_parrying_limb=True)
        if check(at_limb):
            yield OfferedAttack(at_limb, f"{named}, at the parrying limb")


def _may_subdue(
    weapon: Weapon, mode: WeaponMode, subdue: SubdueMode, st: int, pulled: int | None
) -> bool:
    """Whether the blow may subdue so (the planning's own rules: ``flat_of_blade``,
    ``blunt_end`` and ``turns_end_for_end``, ``pulled_punch``)."""
    try:
        if subdue is SubdueMode.FLAT:
            flat_of_blade(mode)
        elif subdue is SubdueMode.BLUNT_END:
            blunt_end(mode)
            if turns_end_for_end(weapon):
                return False  # its blunt end first needs a Ready to turn it round
        elif pulled is not None:
            pulled_punch(None if weapon.kind is WeaponKind.UNARMED else weapon, st, pulled)
    except IllegalAttackError:
        return False
    return True
