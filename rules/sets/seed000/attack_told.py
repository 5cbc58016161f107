"""What an attack's sub-steps did, as typed records that ``tell_attack`` turns
into the log's events (``describe``'s job, not the roll's).

``roll_attack`` keeps, in order, what each sub-step did (``Told``): a record of
this module, or ``rules.sets.seed000.wounded.WoundedNow`` (a blow's knockdown
roll, shock and fall). Only a fall rides as an event built while rolling: the
battle's ``apply_fall`` makes it with the fall itself (after a fumbled dodge or a
critical miss's FALL; inside ``WoundedNow``). ``tell`` turns them into the log's
events, each record with the attack's shared fields (``Between``: the attacker
and defender as they were before it) unless it names its own pair (``BlowPair``).
"""

from __future__ import annotations

from dataclasses import dataclass

from hexmap import Hex
from rules.battle.model import Combatant
from rules.battle.pieces import Piece
from rules.core.citation import Citation
from rules.core.events import Event
from rules.core.quick_init import quick_init
from rules.sets.seed000.attack_events import (
    CUTTING_THROUGH_CITATION,
    DAMAGE_CITATION,
    MISSING_LOCATION_CITATION,
    PARRIES_VS_UNARMED_CITATION,
    READINESS_CITATION,
    AttackOutcome,
    AttackResolved,
    Between,
    BystanderStruck,
    CriticalMissTableRolled,
    DamageDealt,
    DefenseMishapResolved,
    DisarmContested,
    HitLocationRolled,
    ImprovisedParryRolled,
    ParryBreakRolled,
    PiecesLeftHand,
    SideBlowDamaged,
    UnarmedCounterRolled,
    WeakenedWeaponSnapped,
    WeaponBroke,
    WeaponStruck,
    WeaponUnreadied,
    WoundInflicted,
    injury_events,
)
from rules.sets.seed000.breakage import BreakResult, ParryBreakRoll
from rules.sets.seed000.checks import SuccessRoll
from rules.sets.seed000.critical_misses import CriticalMissResult
from rules.sets.seed000.damage import DamageResult
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.disarm import DisarmResult
from rules.sets.seed000.hit_location import LocationRoll
from rules.sets.seed000.improvised import IMPROVISED_000, ImprovisedParryRoll
from rules.sets.seed000.weapon_strikes import WeaponUse
from rules.sets.seed000.wound_effects import RollOutcome, Wound, WoundAssessment
from rules.sets.seed000.wounded import WoundedNow

__all__ = [
    "BlowPair",
    "ContestResolvedTold",
    "CriticalMissTold",
    "DefenseMishapTold",
    "DisarmTold",
    "ImprovisedParryTold",
    "LocatedBlowTold",
    "ParryBreakTold",
    "PiecesLostTold",
    "StrayBlowTold",
    "Told",
    "UnarmedCounterTold",
    "WeaponBrokeTold",
    "WeaponSnappedTold",
    "WeaponStruckTold",
    "tell",
]


@dataclass(frozen=True, slots=True)
class ParryBreakTold:
    """000 BREAKING A BLADE / BREAKING WEAPONS: the defender's weapon that parried
    one 3x heavier, and the roll whether it broke."""

    weapon_name: str
    roll: ParryBreakRoll

    def event(self, between: Between) -> Event:
        return ParryBreakRolled(
            citation=self.roll.chance.citation,
            weapon_name=self.weapon_name,
            roll=self.roll,
            **between,
        )


@dataclass(frozen=True, slots=True)
class WeaponSnappedTold:
    """000 CUTTING THROUGH A WEAPON: a weakened weapon snapped on its wielder's
    solid hit or parry (``use``)."""

    combatant_id: str
    name: str
    weapon_name: str
    use: WeaponUse

    def event(self, between: Between) -> Event:
        return WeakenedWeaponSnapped(
            citation=CUTTING_THROUGH_CITATION,
            combatant_id=self.combatant_id,
            name=self.name,
            weapon_name=self.weapon_name,
            use=self.use.value,
        )


@dataclass(frozen=True, slots=True)
class WeaponBrokeTold:
    """A weapon broke (000 BREAKING WEAPONS): its wielder where it stood, the break
    rolled on the table and why it broke."""

    combatant_id: str
    name: str
    hex: Hex
    result: BreakResult
    cause: str

    def event(self, between: Between) -> Event:
        result = self.result
        return WeaponBroke(
            citation=result.citations[0] if result.citations else None,
            combatant_id=self.combatant_id,
            name=self.name,
            hex=self.hex,
            result=result,
            cause=self.cause,
        )


@dataclass(frozen=True, slots=True)
class PiecesLostTold:
    """Pieces that left a combatant's hands, where it stood, and why (``citation``:
    the rule that made them, unless a piece's placement cites its own)."""

    combatant_id: str
    name: str
    hex: Hex
    pieces: tuple[Piece, ...]
    reason: str
    citation: Citation

    def event(self, between: Between) -> Event:
        return PiecesLeftHand(
            citation=self.pieces[0].placement.citation or self.citation,
            combatant_id=self.combatant_id,
            name=self.name,
            hex=self.hex,
            pieces=self.pieces,
            reason=self.reason,
        )


@dataclass(frozen=True, slots=True)
class ImprovisedParryTold:
    """000 IMPROVISED WEAPONS: the improvised weapon that parried, and the roll
    whether it was ruined, damaged or unharmed."""

    weapon_name: str
    roll: ImprovisedParryRoll

    def event(self, between: Between) -> Event:
        return ImprovisedParryRolled(
            citation=IMPROVISED_000, weapon_name=self.weapon_name, roll=self.roll, **between
        )


@dataclass(frozen=True, slots=True)
class UnarmedCounterTold:
    """000 PARRIES VS. UNARMED ATTACKERS: the parrying weapon, the defender's skill
    with it (the roll is made at +2), the roll and the attacking limb's label."""

    weapon_name: str
    skill: int
    roll: SuccessRoll
    limb_label: str

    def event(self, between: Between) -> Event:
        return UnarmedCounterRolled(
            citation=PARRIES_VS_UNARMED_CITATION,
            weapon_name=self.weapon_name,
            skill=self.skill,
            value=self.skill + 2,
            roll=self.roll,
            limb_label=self.limb_label,
            **between,
        )


@dataclass(frozen=True, slots=True)
class DefenseMishapTold:
    """000 CRITICAL MISSES ON DEFENSE ROLLS: what a fumbled defense did to its
    maker (where it stood), with a dodger's DX roll."""

    combatant_id: str
    name: str
    hex: Hex
    kind: DefenseKind
    applied: str
    citation: Citation
    dx_roll: SuccessRoll | None = None

    def event(self, between: Between) -> Event:
        return DefenseMishapResolved(
            citation=self.citation,
            combatant_id=self.combatant_id,
            name=self.name,
            hex=self.hex,
            kind=self.kind,
            applied=self.applied,
            dx_roll=self.dx_roll,
        )


@dataclass(frozen=True, slots=True)
class CriticalMissTold:
    """The critical miss table (base) rolled for a fumbled attack or parry, for
    whom (where it stood), and what was done to it."""

    combatant_id: str
    name: str
    hex: Hex
    result: CriticalMissResult
    applied: str

    def event(self, between: Between) -> Event:
        return CriticalMissTableRolled(
            citation=self.result.citations[0],
            combatant_id=self.combatant_id,
            name=self.name,
            hex=self.hex,
            result=self.result,
            applied=self.applied,
        )


@quick_init
@dataclass(frozen=True, slots=True)
class BlowPair:
    """The striker and the struck of a blow other than the attack's own (a stray
    blow, a counter, a fumbler's own weapon), as they stood: its events' shared
    fields (``between``)."""

    attacker_id: str
    attacker_name: str
    defender_id: str
    defender_name: str
    attacker_hex: Hex
    defender_hex: Hex

    @classmethod
    def of(cls, between: Between) -> BlowPair:
        return cls(**between)

    def between(self) -> Between:
        return {
            "attacker_id": self.attacker_id,
            "attacker_name": self.attacker_name,
            "defender_id": self.defender_id,
            "defender_name": self.defender_name,
            "attacker_hex": self.attacker_hex,
            "defender_hex": self.defender_hex,
        }


@dataclass(frozen=True, slots=True)
class StrayBlowTold:
    """000 MISSING A SPECIFIC HIT LOCATION: the miss struck the combatant in the way
    (``pair``: the attacker and that bystander), aimed at ``target_name``; the roll
    and the number it needed to be at most."""

    pair: BlowPair
    target_name: str
    rolled: int
    needed: int

    def event(self, between: Between) -> Event:
        return BystanderStruck(
            citation=MISSING_LOCATION_CITATION,
            target_name=self.target_name,
            rolled=self.rolled,
            needed=self.needed,
            **self.pair.between(),
        )


@dataclass(frozen=True, slots=True)
class LocatedBlowTold:
    """A blow on a body with the hit location system (``pair``: striker and
    struck; ``victim``: the struck as the blow found it): the random location
    rolled (with its system's citation), the wound there and the rolls it forced,
    the damage and the injury's rolls. A blow other than the attack's own on its
    defender (``side_reason``: a counter, a fumbler's own weapon, a stray blow) is
    told as one side blow, its status rolls not shown."""

    pair: BlowPair
    victim: Combatant
    location_roll: LocationRoll | None
    location_citation: Citation | None
    assessment: WoundAssessment
    outcomes: tuple[RollOutcome, ...]
    wound: Wound
    damage: DamageResult
    side_reason: str | None

    def events(self) -> list[Event]:
        pair = self.pair.between()
        events: list[Event] = []
        if self.location_roll is not None:
            events.append(
                HitLocationRolled(citation=self.location_citation, roll=self.location_roll, **pair)
            )
        damage = self.damage
        events.append(
            WoundInflicted(
                citation=damage.citation,
                assessment=self.assessment,
                outcomes=self.outcomes,
                wound=self.wound,
                **pair,
            )
        )
        if self.side_reason is not None:
            events.append(
                SideBlowDamaged(
                    citation=DAMAGE_CITATION, damage=damage, reason=self.side_reason, **pair
                )
            )
        else:
            events.append(DamageDealt(citation=DAMAGE_CITATION, damage=damage, **pair))
        # A side blow's log shows no status rolls, only the change of status.
        status_rolls = () if self.side_reason is not None else damage.status_rolls
        events.extend(
            injury_events(self.victim, status_rolls, damage.status_before, damage.status_after)
        )
        return events


@dataclass(frozen=True, slots=True)
class WeaponStruckTold:
    """A blow that landed on the defender's weapon (000 CUTTING THROUGH A WEAPON,
    000 BREAKING A BLADE, 001 Breaking a Weapon): its basic damage, what it did
    (``text``, cited) and whether the weapon broke."""

    weapon_name: str
    basic_damage: int
    text: str
    broke: bool
    citation: Citation

    def event(self, between: Between) -> Event:
        return WeaponStruck(
            citation=self.citation,
            weapon_name=self.weapon_name,
            basic_damage=self.basic_damage,
            text=self.text,
            broke=self.broke,
            **between,
        )


@dataclass(frozen=True, slots=True)
class DisarmTold:
    """A disarm's contest (000 DISARMING AN OPPONENT, 001 Knocking a Weapon Away) and
    its result."""

    result: DisarmResult

    def event(self, between: Between) -> Event:
        return DisarmContested(citation=self.result.citations[0], result=self.result, **between)


@dataclass(frozen=True, slots=True)
class ContestResolvedTold:
    """000 DISARMING AN OPPONENT: the Quick Contest's outcome for the attack (cited
    by the contest), after the attacker's weapon made unready by the attack, if it
    was (000 PARRY: a 1/2 or 1/3 weapon; ``unreadied_weapon``: its name, None if
    it stayed ready)."""

    outcome: AttackOutcome
    citation: Citation
    unreadied_weapon: str | None = None

    def events(self, between: Between) -> list[Event]:
        events: list[Event] = []
        if self.unreadied_weapon is not None:
            events.append(
                WeaponUnreadied(
                    citation=READINESS_CITATION,
                    combatant_id=between["attacker_id"],
                    name=between["attacker_name"],
                    weapon_name=self.unreadied_weapon,
                )
            )
        events.append(AttackResolved(citation=self.citation, outcome=self.outcome, **between))
        return events


# What a sub-step did: a record told here, or an event it still builds as it rolls.
Told = (
    Event
    | ParryBreakTold
    | WeaponSnappedTold
    | WeaponBrokeTold
    | PiecesLostTold
    | ImprovisedParryTold
    | UnarmedCounterTold
    | DefenseMishapTold
    | CriticalMissTold
    | StrayBlowTold
    | LocatedBlowTold
    | WeaponStruckTold
    | DisarmTold
    | ContestResolvedTold
    | WoundedNow
)


def tell(told: tuple[Told, ...], between: Between) -> list[Event]:
    """The log's events of ``told``, in order."""
    events: list[Event] = []
    for t in told:
        if isinstance(t, Event):
            events.append(t)
        elif isinstance(t, LocatedBlowTold | WoundedNow):
            events.extend(t.events())
        elif isinstance(t, ContestResolvedTold):
            events.extend(t.events(between))
        else:
            events.append(t.event(between))
    return events
