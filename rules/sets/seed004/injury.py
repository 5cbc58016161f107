"""What a blow does to seed 004's defender once it lands (base rules, Injury and
Death; 004 Zones): the zone's armor and effect, the hit points, death at minus the
maximum, the wound check, wounds and their wounding effects, and the
consciousness check below 0 HP.

Every step rolls through the ``DiceSource`` and works on a copy of the defender;
what happened is kept as small typed records, in the order the log tells them,
each of which makes its event (``event(combatant_id, name)``) only when the log
asks. So the attack's ``decide`` rolls an injury without building a line of the
log, and its ``describe`` tells it afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.model import Combatant, Status
from rules.core.citation import Citation
from rules.core.dice import DiceSource
from rules.core.events import Event
from rules.sets.components.zones_2d6 import Blow, Zone, ZoneDamage, zone_damage
from rules.sets.seed004.checks import CheckRoll, check
from rules.sets.seed004.events import CheckRolled, StatusChanged, ZoneDamaged
from rules.sets.seed004.sheet import sheet_of
from rules.sets.seed004.tracks import maximum_hit_points
from rules.sets.seed004.wound_effects import EffectRolled, WoundAdded, add_wounds

HIT_POINTS = Citation("base-004", "injury and death: hit points")
WOUNDS = Citation("base-004", "injury and death: wounds")


@dataclass(frozen=True, slots=True)
class ZoneHarm:
    """The blow on its zone (``ZoneDamaged`` in the log): the zone's armor, what
    it left, the zone's effect (``rules.sets.components.zones_2d6.ZoneDamage``)
    and the hit points left."""

    aimed_zone: Zone
    reduction: int
    left: int
    done: ZoneDamage
    hp_after: int

    def event(self, combatant_id: str, name: str) -> Event:
        return ZoneDamaged(
            citation=self.done.citation,
            combatant_id=combatant_id,
            name=name,
            aimed_zone=self.aimed_zone,
            zone=self.done.zone,
            reduction=self.reduction,
            left=self.left,
            rule=self.done.rule,
            multiplier=self.done.multiplier,
            damage=self.done.damage,
            hp_after=self.hp_after,
        )


@dataclass(frozen=True, slots=True)
class CheckMade:
    """A wound or consciousness check (``CheckRolled`` in the log)."""

    citation: Citation
    roll: CheckRoll

    def event(self, combatant_id: str, name: str) -> Event:
        return CheckRolled(
            citation=self.citation, combatant_id=combatant_id, name=name, roll=self.roll
        )


@dataclass(frozen=True, slots=True)
class StatusReached:
    """Dead or unconscious, and why (``StatusChanged`` in the log)."""

    status: Status
    reason: str

    def event(self, combatant_id: str, name: str) -> Event:
        return StatusChanged(
            citation=HIT_POINTS,
            combatant_id=combatant_id,
            name=name,
            status=self.status,
            reason=self.reason,
        )


InjuryStep = ZoneHarm | CheckMade | StatusReached | WoundAdded | EffectRolled


def injury_events(who: Combatant, steps: tuple[InjuryStep, ...]) -> tuple[Event, ...]:
    """The log's events of an injury's steps, about ``who``."""
    return tuple(step.event(who.id, who.name) for step in steps)


def injure(
    defender: Combatant, zone: Zone, blow: Blow, damage: int, exposed: bool, dice: DiceSource
) -> tuple[Combatant, tuple[InjuryStep, ...]]:
    """A blow of ``damage`` (before armor) on ``zone``: armor, the zone's effect,
    the hit points, and the base rules' injury checks."""
    reduction = sheet_of(defender).armor.reduction(zone)
    left = max(0, damage - reduction)
    done = zone_damage(zone, blow, left, exposed=exposed)
    defender = defender.evolve(hp=defender.hp - done.damage)
    harm = ZoneHarm(zone, reduction, left, done, defender.hp)
    if done.damage == 0:
        return defender, (harm,)
    defender, after = injury_checks(defender, done.base, dice)
    return defender, (harm, *after)


def _dead(defender: Combatant, why: str) -> tuple[Combatant, StatusReached]:
    return defender.evolve(status=Status.DEAD), StatusReached(Status.DEAD, why)


def injury_checks(
    defender: Combatant, wound_damage: int, dice: DiceSource
) -> tuple[Combatant, tuple[InjuryStep, ...]]:
    """After hit points were lost: death at minus the maximum, else the wound
    check against ``wound_damage`` (after armor, before the multiplier), then a
    consciousness check below 0 HP."""
    steps: list[InjuryStep] = []
    maximum = maximum_hit_points(defender)
    if defender.status is Status.DEAD:
        return defender, ()
    if defender.hp <= -maximum:
        defender, dead = _dead(defender, f"{defender.hp} HP, at or below -{maximum}")
        return defender, (dead,)
    con = sheet_of(defender).abilities.modifier("constitution")
    wound = check(dice, "wound check", con, wound_damage, whose=defender.name, success_read=True)
    steps.append(CheckMade(WOUNDS, wound))
    if not wound.succeeded:
        defender, wounded = add_wounds(defender, 1, dice, WOUNDS)
        steps.extend(wounded)
        maximum = maximum_hit_points(defender)
        if maximum <= 0 or defender.hp <= -maximum:
            defender, dead = _dead(
                defender, f"{defender.hp} HP with wounds leaving maximum HP {maximum}"
            )
            steps.append(dead)
            return defender, tuple(steps)
    if defender.hp < 0 and defender.status is Status.ACTIVE:
        defender, more = consciousness_check(defender, dice)
        steps.extend(more)
    return defender, tuple(steps)


def consciousness_check(
    defender: Combatant, dice: DiceSource
) -> tuple[Combatant, tuple[CheckMade | StatusReached, ...]]:
    """Below 0 HP: 2d6 + Constitution and Strength modifiers against the hit
    points below zero, or unconscious."""
    a = sheet_of(defender).abilities
    stay = check(
        dice,
        "consciousness check",
        a.modifier("constitution") + a.modifier("strength"),
        -defender.hp,
        whose=defender.name,
        success_read=True,
    )
    checked = CheckMade(HIT_POINTS, stay)
    if stay.succeeded:
        return defender, (checked,)
    fell = StatusReached(Status.UNCONSCIOUS, f"failed to stay conscious at {defender.hp} HP")
    return defender.evolve(status=Status.UNCONSCIOUS), (checked, fell)
