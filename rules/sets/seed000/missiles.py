"""Thrown and missile attacks: range, the defenses allowed against them, random
locations beyond 1/2D and where a thrown weapon lands.

Seed 000: MISSILE AND THROWN WEAPONS (parry -1 against thrown weapons, -2 against
small ones; no parry against fast missiles except by Missile Parrying; never
against bullets), BLOCK (hand weapons, thrown weapons and low-tech missiles can be
blocked, bullets and beams not), DODGE (always), RANDOM HIT LOCATION (missile
weapons fired from beyond 1/2D range always hit a random location).

Readings (docs/rules-core.md, "Thrown and missile attacks"):

* A thrown or missile mode strikes a defender within its ``range_hexes`` in the
  attacker's front arc (``hexmap.arc_of(...).is_front``), at least one hex away.
* Missile Parrying is a permission: a defender whose sheet lists the skill (any
  level) may parry arrows, bolts and sling stones with a hand weapon (not bare
  hands) at the weapon's usual parry score. The seed gives the skill no number, so
  we do not replace the score with it.
* The 1/2D rule is the seed's random location only; the family's halved damage
  beyond 1/2D is not applied.
* A thrown weapon leaves the hand. On a hit or a defended blow it lands in the
  defender's hex; on a miss it lands at the defender's hex scattered like a
  knocked-away weapon (000 DROPPED WEAPONS: 1d3-1 hexes for a small weapon, the
  hex or an adjacent one for a large one). Arrows, bolts and sling stones are
  spent: no item.
"""

from __future__ import annotations

from dataclasses import replace

from hexmap import Hex, arc_of
from rules.battle.model import Combatant, Delivery, Projectile, Weapon, WeaponKind, WeaponMode
from rules.battle.pieces import Placement, PlacementKind
from rules.core.citation import cite
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.weapon_strikes import DROPPED_IN_HEX, knock_away_placement

MISSILE_AND_THROWN_000 = cite("000", "MISSILE AND THROWN WEAPONS")
BLOCK_000 = cite("000", "BLOCK")
DODGE_000 = cite("000", "DODGE")
RANDOM_LOCATION_000 = cite("000", "RANDOM HIT LOCATION")

MISSILE_PARRYING = "Missile Parrying"  # the skill name on a fighter's sheet

# 000 MISSILE AND THROWN WEAPONS: parry penalties by what was thrown.
PARRY_PENALTIES = {Projectile.THROWN: -1, Projectile.SMALL_THROWN: -2}
# 000 BLOCK: what a shield cannot stop.
UNBLOCKABLE = frozenset({Projectile.BULLET, Projectile.BEAM})


def range_problem(attacker: Combatant, target: Hex, mode: WeaponMode) -> str | None:
    """Why ``target`` cannot be struck with the thrown or missile ``mode`` (None: it can)."""
    distance = attacker.hex.distance(target)
    limit = mode.range_hexes or 0
    if distance < 1:
        return f"a {mode.delivery.value} attack needs a target at least one hex away"
    if distance > limit:
        return f"the target is {distance} hexes away, beyond the range {limit}"
    if not arc_of(target, attacker.hex, attacker.facing, attacker.handedness).is_front:
        return f"the target is not in {attacker.name}'s front arc"
    return None


def forced_random_location(mode: WeaponMode, distance: int) -> bool:
    """000 RANDOM HIT LOCATION: a missile weapon fired from beyond 1/2D range hits a
    random location."""
    return (
        mode.delivery is Delivery.MISSILE
        and mode.half_damage_hexes is not None
        and distance > mode.half_damage_hexes
    )


def ranged_defense_modifiers(
    defender: Combatant, choice: DefenseChoice, mode: WeaponMode
) -> tuple[Modifier, ...]:
    """The modifiers a defense takes against ``mode``'s projectile; raises
    ``IllegalAttackError`` when the defense is not allowed against it."""
    projectile = mode.projectile
    if projectile is Projectile.NONE or choice.kind is DefenseKind.DODGE:
        return ()  # 000 DODGE: a dodge is always allowed
    if choice.kind is DefenseKind.BLOCK:
        if projectile in UNBLOCKABLE:
            raise IllegalAttackError(
                f"a shield cannot block {projectile.value}s ({BLOCK_000}); dodge instead"
            )
        return ()
    # parry
    if projectile in PARRY_PENALTIES:
        return (
            Modifier(
                PARRY_PENALTIES[projectile],
                f"parry against a {projectile.value} weapon",
                MISSILE_AND_THROWN_000,
            ),
        )
    if projectile is Projectile.LOW_TECH_MISSILE:
        if MISSILE_PARRYING not in sheet_of(defender).skills:
            raise IllegalAttackError(
                "fast missiles such as arrows cannot be parried without the Missile "
                f"Parrying skill ({MISSILE_AND_THROWN_000})"
            )
        weapon = _parrying_weapon(defender, choice)
        if weapon is not None and weapon.kind is WeaponKind.UNARMED:
            raise IllegalAttackError(
                f"Missile Parrying deflects missiles with a hand weapon, not bare-handed "
                f"({MISSILE_AND_THROWN_000})"
            )
        return ()
    raise IllegalAttackError(f"{projectile.value}s cannot be parried ({MISSILE_AND_THROWN_000})")


def _parrying_weapon(defender: Combatant, choice: DefenseChoice) -> Weapon | None:
    if choice.weapon_key is None:
        return None
    try:
        return defender.fighter.weapon(choice.weapon_key)
    except KeyError:
        return None  # plan_defense reports the missing weapon


def thrown_placement(weapon: Weapon, on_target: bool) -> Placement:
    """Where a thrown weapon lands, from the defender's hex: in it when the throw hit
    or was defended, else scattered like a knocked-away weapon (000 DROPPED WEAPONS)."""
    if on_target:
        return replace(
            DROPPED_IN_HEX, kind=PlacementKind.ON_TARGET, citation=MISSILE_AND_THROWN_000
        )
    return replace(
        knock_away_placement(weapon),
        kind=PlacementKind.WIDE_OF_TARGET,
        citation=MISSILE_AND_THROWN_000,
    )


THROWN_NOTE = "thrown"  # Piece.note of a thrown weapon: the battle places it from the target
