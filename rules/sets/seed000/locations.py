"""Aiming at a hit location: what an attack may aim at, and what the aim costs.

Every aim goes through the battle's hit location system (``Tables.hit_locations``:
seed 000's table, 000 HIT LOCATIONS, or seed 001's with the ``locations-001``
option), so the key chosen is the key the located-wound code reads. An attack
that names no location goes to the torso without penalty (base rules): seed
001's torso location, or under seed 000 (whose table has no torso row) a plain
blow with no location effects. The attack pane's list is ``aim_choices``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.model import Combatant, DamageType
from rules.core.citation import BASE_HIT_LOCATION, Citation
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier
from rules.core.quick_init import quick_init
from rules.sets.seed000.location_rules import LocationRules, TableSide
from rules.sets.seed000.locations_001 import DEFAULT_AIM_001, HIT_LOCATION_001
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.stances import combatant_stance

UNAIMED_KEY = "torso"


@quick_init
@dataclass(frozen=True)
class HitLocation:
    """Where an attack is aimed, as the plan shows it: the key (a location of the
    system, or "random", "weapon", the parrying limb), a label, the total penalty
    and the rule behind it."""

    key: str
    label: str
    penalty: int
    citation: Citation


# An unaimed blow under a system without a torso location (seed 000's table).
UNAIMED = HitLocation(UNAIMED_KEY, "Torso", 0, BASE_HIT_LOCATION)


def aim_at(
    system: LocationRules,
    defender: Combatant,
    location_key: str | None,
    *,
    from_front: bool,
    melee: bool,
    chink: bool,
    damage_type: DamageType,
) -> tuple[HitLocation, str | None, tuple[Modifier, ...]]:
    """The aimed location, its key in the system (None: the unaimed blow of a
    system without a torso) and the modifiers to hit it. ``IllegalAttackError``
    for a key the system does not know, a shield limb of a target without a
    shield, or a chink the system or the damage type does not allow."""
    if chink:
        problem = system.chink_problem(damage_type)
        if problem is not None:
            raise IllegalAttackError(problem)
    limb = system.shield_limb(location_key)
    if limb is not None and location_key is not None:
        if defender.fighter.shield is None:
            raise IllegalAttackError(f"{defender.name} carries no shield ({HIT_LOCATION_001})")
        if chink:
            raise IllegalAttackError(
                "a chink is aimed at the arm or the hand, not at the limb holding the shield"
            )
        mods = system.penalty(limb, shield_side=True, melee=melee)
        penalty = sum(m.value for m in mods)
        label = location_key.capitalize()
        return HitLocation(location_key, label, penalty, HIT_LOCATION_001), limb, mods
    key = location_key
    if key is None:
        if DEFAULT_AIM_001 not in system.locations:
            return UNAIMED, None, ()
        key = DEFAULT_AIM_001
    loc = system.locations.get(key)
    if loc is None:
        known = ", ".join(system.aim_keys(shielded=True))
        raise IllegalAttackError(f"unknown hit location {key!r} (known: {known})")
    # Note 9 and 000 REFUSED VS. OPEN STANCES: the far limb's plain penalty when the
    # defender's stance makes one side nearer, the bracketed one otherwise.
    shield_side = combatant_stance(defender).stance.sides_differ and loc.side is TableSide.FAR
    mods = system.aimed_penalty(
        key, shield_side=shield_side, from_front=from_front, chink=chink, melee=melee
    )
    penalty = sum(m.value for m in mods)
    cited = mods[0].citation if mods else loc.citation
    return HitLocation(key, loc.label, penalty, cited), key, mods


@dataclass(frozen=True)
class AimChoice:
    """One entry of the attack pane's "Aim at" list: the ``AttackOptions.location``
    key (None: not aimed), the seed's name, the penalty as planned, and why the
    attack may not aim there (None: it may)."""

    key: str | None
    label: str
    penalty: int
    refusal: str | None = None

    @property
    def text(self) -> str:
        if self.key is None:
            return f"{self.label} (not aimed)"
        return f"{self.label} ({self.penalty:+d})"


def aim_choices(
    system: LocationRules,
    defender: Combatant,
    *,
    from_front: bool,
    melee: bool,
    damage_type: DamageType,
    swung: bool = False,
) -> tuple[AimChoice, ...]:
    """Every aim of the active system, first the unaimed blow: the penalty each
    costs this attack and, where the attack may not aim (``aim_problem``: 001's
    eye and vitals, 000's armpit into the vitals, a location the target lacks),
    the reason."""
    tolerances = sheet_of(defender).injury_tolerance
    unaimed, _, _ = aim_at(
        system, defender, None, from_front=from_front, melee=melee, chink=False,
        damage_type=damage_type,
    )
    choices = [AimChoice(None, unaimed.label, unaimed.penalty)]
    for key in system.aim_keys(shielded=defender.fighter.shield is not None):
        aimed, hit_key, _ = aim_at(
            system, defender, key, from_front=from_front, melee=melee, chink=False,
            damage_type=damage_type,
        )
        refusal = None if hit_key is None else system.aim_problem(
            hit_key, damage_type, swung=swung, tolerances=tolerances
        )
        choices.append(AimChoice(key, aimed.label, aimed.penalty, refusal))
    return tuple(choices)
