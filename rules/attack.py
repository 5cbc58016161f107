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
from dataclasses import dataclass, replace

from hexmap import Arc, arc_of, reach_hexes
from rules.attack_events import (
    ATTACK_ROLL_CITATION,
    DAMAGE_CITATION,
    DEFENSE_CRITICAL_MISS_CITATION,
    DEFENSES_CITATION,
    INJURY_CITATION,
    READINESS_CITATION,
    AttackDeclared,
    AttackOutcome,
    AttackResolved,
    AttackRolled,
    Between,
    DamageDealt,
    DefenseCriticalMiss,
    DefenseNotRolled,
    DefenseRolled,
    InjuryRolled,
    StatusChanged,
    WeaponUnreadied,
)
from rules.checks import Outcome, RollKind, SuccessRoll, success_roll
from rules.citation import BASE_CRITICALS, BASE_SUCCESS_ROLL, BASE_WEAPONS
from rules.conditions import large_shield_modifier, minimum_st_modifier
from rules.damage import DamageResult, roll_damage
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
from rules.errors import IllegalAttackError
from rules.events import Event
from rules.locations import HitLocation
from rules.model import (
    ActionKind,
    Combatant,
    DamageSpec,
    Dice,
    Status,
    TurnAction,
    Weapon,
    WeaponKind,
    WeaponMode,
)
from rules.modifiers import Modifier
from rules.ruleset import Ruleset

__all__ = [
    "AttackOptions",
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


@dataclass(frozen=True)
class AttackOptions:
    weapon_key: str
    mode: str
    location: str | None = None  # aimed hit location key; None is the torso
    defenses: tuple[DefenseChoice, ...] = ()  # announced before any roll, rolled in order
    from_below: bool = False
    extra_modifiers: tuple[Modifier, ...] = ()  # the GM's situational modifiers


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
    attacker: Combatant, defender: Combatant, options: AttackOptions, ruleset: Ruleset
) -> AttackPlan:
    """Check and compute an attack without rolling. Raises ``IllegalAttackError``."""
    if attacker.id == defender.id:
        raise IllegalAttackError("a combatant cannot attack itself")
    if attacker.status is not Status.ACTIVE:
        raise IllegalAttackError(f"{attacker.name} is {attacker.status.value} and cannot attack")
    weapon, mode = _weapon_and_mode(attacker, options)
    if weapon.key in attacker.unready:
        raise IllegalAttackError(f"{attacker.name}'s {weapon.name} is not ready")
    if defender.hex not in reach_hexes(attacker.hex, attacker.facing, mode.reach):
        raise IllegalAttackError(
            f"{defender.name} is not within the {weapon.name}'s reach {mode.reach} "
            f"in front of {attacker.name}"
        )
    arc = attack_arc(attacker, defender)
    location = ruleset.location(options.location)
    fighter = attacker.fighter
    st = fighter.attributes.st

    mods: list[Modifier] = []
    if mode.skill_modifier:
        mods.append(Modifier(mode.skill_modifier, f"{weapon.name} {mode.name}", BASE_WEAPONS))
    mods.extend(location.modifiers(melee=True))
    # 000 ADVERSE COMBAT CONDITIONS that follow from the gear (rules.conditions).
    for automatic in (
        minimum_st_modifier(st, weapon.min_st),
        large_shield_modifier(fighter.shield, mode.is_swing),
    ):
        if automatic is not None:
            mods.append(automatic)
    mods.extend(attack_cumulative_modifiers(attacker.actions_this_turn, weapon.key, weapon.name))
    pd = ruleset.passive_defense(defender.fighter, arc)
    mods.extend(pd.modifiers)
    mods.extend(options.extra_modifiers)
    base_skill = fighter.skill(weapon.skill)
    effective = base_skill + sum(m.value for m in mods)

    kinds = [d.kind for d in options.defenses]
    for kind in DefenseKind:
        if kinds.count(kind) > 1:
            raise IllegalAttackError(
                f"only one {kind.value} against one attack ({DEFENSES_CITATION})"
            )
    situation = DefenseSituation(
        arc=arc,
        below=options.from_below,
        attack_is_swing=mode.is_swing,
        attack_is_unarmed=weapon.kind is WeaponKind.UNARMED,
        pd_total=pd.total,
    )
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
    )


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
