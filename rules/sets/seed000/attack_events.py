"""Typed events of one attack, for the combat log. Each names its seed rule."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TypedDict

from hexmap import Arc, Hex
from rules.battle.model import Combatant, Status
from rules.battle.pieces import Piece
from rules.core.citation import BASE_DAMAGE, BASE_INJURY, BASE_SUCCESS_ROLL, Citation, cite
from rules.core.events import CombatantEvent, Event
from rules.core.modifiers import Modifier
from rules.core.quick_init import quick_init
from rules.sets.seed000.breakage import BreakResult, ParryBreakRoll
from rules.sets.seed000.checks import SuccessRoll
from rules.sets.seed000.critical_misses import CriticalMissCheck, CriticalMissResult
from rules.sets.seed000.damage import DamageResult, StatusRoll
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.disarm import DisarmResult
from rules.sets.seed000.hit_location import LocationRoll
from rules.sets.seed000.improvised import ImprovisedParryOutcome, ImprovisedParryRoll
from rules.sets.seed000.stances import AcrobaticResult, BodyArea
from rules.sets.seed000.wound_effects import RollOutcome, Wound, WoundAssessment


class AttackOutcome(Enum):
    CRITICAL_HIT = "critical hit"
    HIT = "hit"
    DEFENDED = "defended"
    MISSED = "missed"
    CRITICAL_MISS = "critical miss"

    def __init__(self, value: str) -> None:
        # Fixed for each outcome: a plain attribute, read once an attack.
        self.is_hit = value in ("critical hit", "hit")


def as_clause(text: str) -> str:
    """A table's sentence ("The sword is ruined.") as a clause that a semicolon
    follows in a log line: its closing full stop dropped."""
    return text.rstrip().removesuffix(".")


def _mods(modifiers: tuple[Modifier, ...]) -> str:
    return "".join(f" {m.value:+d} {m.reason}" for m in modifiers if m.value)


class Between(TypedDict):
    """The fields every attack event shares, to pass as ``**between``."""

    attacker_id: str
    attacker_name: str
    defender_id: str
    defender_name: str
    attacker_hex: Hex
    defender_hex: Hex


def event_pair(striker: Combatant, struck: Combatant) -> Between:
    """The shared event fields for an attack or blow of ``striker`` on ``struck``."""
    return {
        "attacker_id": striker.id,
        "attacker_name": striker.name,
        "defender_id": struck.id,
        "defender_name": struck.name,
        "attacker_hex": striker.hex,
        "defender_hex": struck.hex,
    }


@dataclass(frozen=True, kw_only=True)
class _Between(Event):
    attacker_id: str
    attacker_name: str
    defender_id: str
    defender_name: str
    attacker_hex: Hex
    defender_hex: Hex

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.attacker_hex, self.defender_hex)

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.attacker_id, self.defender_id)


@quick_init
@dataclass(frozen=True, kw_only=True)
class AttackDeclared(_Between):
    weapon_name: str
    mode: str
    location_label: str
    arc: Arc
    below: bool
    announced: tuple[str, ...]  # the defenses, in order

    def describe(self) -> str:
        below = ", from below" if self.below else ""
        defenses = ", ".join(self.announced) if self.announced else "no active defense"
        return (
            f"{self.attacker_name} attacks {self.defender_name} with the {self.weapon_name} "
            f"({self.mode}) at the {self.location_label.lower()}, from the {self.arc.value}"
            f"{below}; {self.defender_name} announces {defenses}"
        )


@quick_init
@dataclass(frozen=True, kw_only=True)
class AttackRolled(_Between):
    skill_name: str
    base_skill: int
    modifiers: tuple[Modifier, ...]
    effective_skill: int
    roll: SuccessRoll

    def describe(self) -> str:
        return (
            f"{self.attacker_name} attack roll: {self.skill_name} {self.base_skill}"
            f"{_mods(self.modifiers)} = {self.effective_skill}; rolled {self.roll}"
        )


@dataclass(frozen=True, kw_only=True)
class DefenseRolled(_Between):
    kind: DefenseKind
    item_name: str | None
    base: int
    base_reason: str
    modifiers: tuple[Modifier, ...]
    value: int
    roll: SuccessRoll

    def describe(self) -> str:
        item = f" ({self.item_name})" if self.item_name else ""
        return (
            f"{self.defender_name} {self.kind.value}{item}: {self.base} [{self.base_reason}]"
            f"{_mods(self.modifiers)} = {self.value}; rolled {self.roll}"
        )


@dataclass(frozen=True, kw_only=True)
class DefenseNotRolled(_Between):
    """An announced defense that was never rolled; it still counts as used."""

    kind: DefenseKind
    item_name: str | None
    reason: str

    def describe(self) -> str:
        item = f" ({self.item_name})" if self.item_name else ""
        return (
            f"{self.defender_name}'s announced {self.kind.value}{item} is not rolled "
            f"({self.reason}) but counts as made this turn"
        )


_DEFENSE_DISASTER = {
    DefenseKind.DODGE: "roll vs DX or fall; at best off-balance",
    DefenseKind.BLOCK: "the shield's grip is lost (bucklers and small shields are dropped)",
    DefenseKind.PARRY: "roll on the critical miss table",
}


@dataclass(frozen=True, kw_only=True)
class DefenseCriticalMiss(_Between):
    kind: DefenseKind
    item_name: str | None

    def describe(self) -> str:
        return (
            f"{self.defender_name}'s {self.kind.value} fails disastrously: "
            f"{_DEFENSE_DISASTER[self.kind]}"
        )


@quick_init
@dataclass(frozen=True, kw_only=True)
class AttackResolved(_Between):
    outcome: AttackOutcome

    def describe(self) -> str:
        text = {
            # The whole rule, as the pane's odds row tells it: seed 000 names no
            # critical hit effect, so the base rules' table is not rolled.
            AttackOutcome.CRITICAL_HIT: (
                f"Critical hit on {self.defender_name}: no defense allowed, normal damage "
                "(the critical hit table is not rolled)"
            ),
            AttackOutcome.HIT: f"{self.attacker_name} hits {self.defender_name}",
            AttackOutcome.DEFENDED: f"{self.defender_name} defends against {self.attacker_name}",
            AttackOutcome.MISSED: f"{self.attacker_name} misses {self.defender_name}",
            AttackOutcome.CRITICAL_MISS: (f"{self.attacker_name} critically misses"),
        }
        return text[self.outcome]


@quick_init
@dataclass(frozen=True, kw_only=True)
class DamageDealt(_Between):
    damage: DamageResult

    def describe(self) -> str:
        return f"{self.defender_name} takes damage: {self.damage}"


@dataclass(frozen=True, kw_only=True)
class InjuryRolled(CombatantEvent):
    status_roll: StatusRoll

    def describe(self) -> str:
        return f"{self.name}: {self.status_roll}"


@dataclass(frozen=True, kw_only=True)
class StatusChanged(CombatantEvent):
    before: Status
    after: Status

    def describe(self) -> str:
        return f"{self.name} is now {self.after.value} (was {self.before.value})"


@dataclass(frozen=True, kw_only=True)
class WeaponUnreadied(CombatantEvent):
    weapon_name: str

    def describe(self) -> str:
        return f"{self.name}'s {self.weapon_name} is unready and must be readied"


# --- events of the wired seed 000 / 001 rules ------------------------------------------


def _piece_text(p: Piece) -> str:
    where = f", {p.landing}" if p.landing is not None else ""
    return f"{p.name} ({p.placement}{where})"


@dataclass(frozen=True, kw_only=True)
class CriticalMissChecked(_Between):
    """000 VERIFYING CRITICAL MISSES / 000 AVOIDING CRITICAL MISSES WITH HIGH SKILL."""

    check: CriticalMissCheck

    def describe(self) -> str:
        parts = []
        if self.check.verification is not None:
            parts.append(
                f"reliable weapon, verified vs {self.check.basic_skill}: {self.check.verification}"
            )
        if self.check.avoidance is not None:
            parts.append(f"high skill, vs {self.check.basic_skill - 13}: {self.check.avoidance}")
        verdict = "the critical miss stands" if self.check.happens else "only an ordinary miss"
        return f"{self.attacker_name}'s critical miss checked ({'; '.join(parts)}): {verdict}"


@dataclass(frozen=True, kw_only=True)
class CriticalMissTableRolled(CombatantEvent):
    """The critical miss table (base) for a fumbled attack or parry, and what it did."""

    hex: Hex
    result: CriticalMissResult
    applied: str  # what was done to the combatant

    def describe(self) -> str:
        rolls = ", ".join(str(t) for t in self.result.totals)
        return (
            f"{self.name} rolls on the critical miss table ({rolls}) with the "
            f"{self.result.weapon.name}: {self.result.text} -> {self.applied}"
        )

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)


@dataclass(frozen=True, kw_only=True)
class DefenseMishapResolved(CombatantEvent):
    """000 CRITICAL MISSES ON DEFENSE ROLLS applied to the defender."""

    hex: Hex
    kind: DefenseKind
    applied: str
    dx_roll: SuccessRoll | None = None

    def describe(self) -> str:
        dx = f" (DX roll {self.dx_roll})" if self.dx_roll is not None else ""
        return f"{self.name}'s fumbled {self.kind.value}{dx}: {self.applied}"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)


@dataclass(frozen=True, kw_only=True)
class AcrobaticDodgeRolled(_Between):
    """000 ACROBATIC DODGE: the Acrobatics roll before the dodge."""

    result: AcrobaticResult
    applied: Modifier

    def describe(self) -> str:
        return (
            f"{self.defender_name} tries an acrobatic dodge: Acrobatics {self.result.roll} "
            f"-> dodge {self.applied.value:+d} ({self.applied.reason})"
        )


@dataclass(frozen=True, kw_only=True)
class HitLocationRolled(_Between):
    """000 RANDOM HIT LOCATION / 001 Random Hit Location."""

    roll: LocationRoll

    def describe(self) -> str:
        tries = "; ".join(
            f"{'+'.join(str(d) for d in a.dice)}"
            + (f" shifted {a.shift:+d}" if a.shift else "")
            + f" -> {a.location}"
            + (" (covered, rolled again)" if a.covered else "")
            for a in self.roll.attempts
        )
        side = f" ({self.roll.side.value})" if self.roll.side is not None else ""
        return f"random hit location on {self.defender_name}: {tries} = {self.roll.label}{side}"


@dataclass(frozen=True, kw_only=True)
class LocationShifted(_Between):
    """A miss that still lands elsewhere: 000 NEAR MISSES, 000 MISSING A SPECIFIC HIT
    LOCATION - if the defender then fails to defend."""

    from_label: str
    to_label: str
    reason: str

    def describe(self) -> str:
        return (
            f"{self.attacker_name} misses the {self.from_label.lower()} ({self.reason}): the "
            f"blow goes to the {self.to_label.lower()} unless {self.defender_name} defends"
        )


@quick_init
@dataclass(frozen=True, kw_only=True)
class WoundInflicted(_Between):
    """What a blow did at its location (``wound_effects``) and the rolls it forced."""

    assessment: WoundAssessment
    outcomes: tuple[RollOutcome, ...]
    wound: Wound

    def describe(self) -> str:
        a = self.assessment
        steps = "; ".join(s.text for s in a.steps)
        rolls = "; ".join(str(o) for o in self.outcomes)
        conds = ", ".join(sorted(c.value for c in self.wound.conditions)) or "none"
        crippled = f", {self.wound.crippled.value} crippled" if self.wound.crippled else ""
        return (
            f"{self.defender_name} wounded at the {a.label.lower()}: {a.injury} injury, "
            f"{a.hp_loss} HP lost{crippled} [{steps}]"
            + (f"; rolls: {rolls}" if rolls else "")
            + f"; conditions: {conds}"
        )


@dataclass(frozen=True, kw_only=True)
class PiecesLeftHand(CombatantEvent):
    """Weapons, shields or pieces that left a hand; the map places them."""

    hex: Hex
    pieces: tuple[Piece, ...]
    reason: str

    def describe(self) -> str:
        what = "; ".join(_piece_text(p) for p in self.pieces)
        return f"{self.name} loses {what} ({self.reason})"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)


@dataclass(frozen=True, kw_only=True)
class WeaponBroke(CombatantEvent):
    """000 BROKEN WEAPONS: the broken-weapon table rolled for a weapon."""

    hex: Hex
    result: BreakResult
    cause: str

    def describe(self) -> str:
        kept = self.result.in_hand.name if self.result.in_hand is not None else "nothing"
        return (
            f"{self.name}'s {self.result.weapon.name} breaks ({self.cause}): "
            f"{as_clause(self.result.text)}; in hand: {kept}"
        )

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)


@dataclass(frozen=True, kw_only=True)
class ParryBreakRolled(_Between):
    """000 BREAKING A BLADE / 000 BREAKING WEAPONS: a parry against a heavy weapon."""

    weapon_name: str
    roll: ParryBreakRoll

    def describe(self) -> str:
        die = f", d6 {self.roll.die}" if self.roll.die is not None else ""
        verdict = "it breaks" if self.roll.broke else "it holds"
        return (
            f"{self.defender_name}'s {self.weapon_name} parried a heavy blow "
            f"({self.roll.chance.reason}, chance {self.roll.chance.probability}{die}): {verdict}"
        )


@dataclass(frozen=True, kw_only=True)
class ImprovisedParryRolled(_Between):
    """000 IMPROVISED WEAPONS: an improvised item parried; 1d6 says whether it
    survived (rules.sets.seed000.improvised: 1 ruined, 2 damaged, 3-6 unharmed)."""

    weapon_name: str
    roll: ImprovisedParryRoll

    def describe(self) -> str:
        verdict = {
            ImprovisedParryOutcome.RUINED: "it is ruined and falls useless",
            ImprovisedParryOutcome.DAMAGED: "it is damaged (another -1 to skill with it)",
            ImprovisedParryOutcome.UNHARMED: "it is unharmed",
        }[self.roll.outcome]
        return (
            f"{self.defender_name}'s improvised {self.weapon_name} parried "
            f"(d6 {self.roll.die}: 1 ruined, 2 damaged): {verdict}"
        )


@dataclass(frozen=True, kw_only=True)
class WeaponStruck(_Between):
    """A blow that landed on a weapon: 000 CUTTING THROUGH A WEAPON, 000 BREAKING A
    BLADE, 001 Breaking a Weapon."""

    weapon_name: str
    basic_damage: int
    text: str
    broke: bool

    def describe(self) -> str:
        verdict = "it breaks" if self.broke else "it holds"
        return (
            f"{self.attacker_name} strikes {self.defender_name}'s {self.weapon_name} for "
            f"{self.basic_damage} basic damage: {as_clause(self.text)}; {verdict}"
        )


@dataclass(frozen=True, kw_only=True)
class DisarmContested(_Between):
    """000 DISARMING AN OPPONENT / 001 Knocking a Weapon Away: the Quick Contest."""

    result: DisarmResult

    def describe(self) -> str:
        r = self.result
        return (
            f"disarm contest: {self.attacker_name} {r.contest.attacker.level} rolled "
            f"{r.attacker_roll}, {self.defender_name} {r.contest.defender.level} rolled "
            f"{r.defender_roll}: {r.outcome.value}"
        )


@dataclass(frozen=True, kw_only=True)
class AttackAdjusted(_Between):
    """A rule that changes the blow itself (001 Subduing a Foe, 001 Targeting Chinks in
    Armor, conditions that remove active defenses)."""

    text: str

    def describe(self) -> str:
        return f"{self.attacker_name} vs {self.defender_name}: {self.text}"


@dataclass(frozen=True, kw_only=True)
class DefendedAreaSet(CombatantEvent):
    """000 DEFENDING A SPECIFIC BODY AREA: the area a combatant guards this turn."""

    before: BodyArea | None
    after: BodyArea | None

    def describe(self) -> str:
        if self.after is None:
            return f"{self.name} no longer guards a body area"
        return (
            f"{self.name} guards the {self.after.label}: +2 to block or parry blows there, "
            "-1 elsewhere"
        )


# Citations the events carry by default.
ATTACK_ROLL_CITATION = BASE_SUCCESS_ROLL
DAMAGE_CITATION = BASE_DAMAGE
INJURY_CITATION = BASE_INJURY
DEFENSE_CRITICAL_MISS_CITATION = cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
READINESS_CITATION = cite("000", "PARRY")
DEFENSES_CITATION = cite("000", "DEFENSES")


def injury_events(
    who: Combatant, status_rolls: Iterable[StatusRoll], before: Status, after: Status
) -> list[Event]:
    """What an injury shows in the log: each of ``who``'s status rolls, then its
    change of status (``before`` to ``after``) if it changed."""
    events: list[Event] = [
        InjuryRolled(citation=INJURY_CITATION, combatant_id=who.id, name=who.name, status_roll=r)
        for r in status_rolls
    ]
    if after is not before:
        events.append(
            StatusChanged(
                citation=INJURY_CITATION,
                combatant_id=who.id,
                name=who.name,
                before=before,
                after=after,
            )
        )
    return events


# --- 000 / base rules wired later: counter-blows, strays, per-turn effects --------------

PARRIES_VS_UNARMED_CITATION = cite("000", "PARRIES VS. UNARMED ATTACKERS")
UNARMED_PARRIES_CITATION = cite("000", "UNARMED PARRIES")
BLOCK_CITATION = cite("000", "BLOCK")
CUTTING_THROUGH_CITATION = cite("000", "CUTTING THROUGH A WEAPON")
MISSING_LOCATION_CITATION = cite("000", "MISSING A SPECIFIC HIT LOCATION")
# The family's published basics that the per-turn effects use (seed 000 names
# stunning and severe bleeding but not their turn-by-turn handling).
BASE_STUN_RECOVERY = Citation("base", "stunning: an HT roll each turn to recover")
BASE_BLEEDING = Citation("base", "bleeding: 1 HP a turn until an HT roll stops it")


@dataclass(frozen=True, kw_only=True)
class UnarmedCounterRolled(_Between):
    """000 PARRIES VS. UNARMED ATTACKERS: after a weapon parry of an unarmed attack
    the defender rolls weapon skill +2; success strikes the attacking limb."""

    weapon_name: str
    skill: int
    value: int
    roll: SuccessRoll
    limb_label: str

    def describe(self) -> str:
        result = f"strikes {self.attacker_name}'s {self.limb_label.lower()}"
        return (
            f"{self.defender_name}'s parry with the {self.weapon_name} may injure the "
            f"unarmed attacker: skill {self.skill} +2 = {self.value}; rolled {self.roll}"
            f" - {result if self.roll.succeeded else 'no harm done'}"
        )


@dataclass(frozen=True, kw_only=True)
class HeavyShieldUnreadied(CombatantEvent):
    """000 BLOCK: a heavy shield that blocked must be readied, or it blocks at -2."""

    shield_name: str
    penalty: int

    def describe(self) -> str:
        return (
            f"{self.name}'s heavy {self.shield_name} needs readying: until then it blocks "
            f"at {self.penalty:+d}"
        )


@dataclass(frozen=True, kw_only=True)
class WeakenedWeaponSnapped(CombatantEvent):
    """000 CUTTING THROUGH A WEAPON: a weakened weapon breaks on its wielder's next
    solid hit or parry."""

    weapon_name: str
    use: str  # "solid hit" or "parry"

    def describe(self) -> str:
        return f"{self.name}'s weakened {self.weapon_name} snaps on a {self.use}"


@dataclass(frozen=True, kw_only=True)
class BystanderStruck(_Between):
    """000 MISSING A SPECIFIC HIT LOCATION: a miss of 9 or less (or the unaimed roll
    to hit, if lower) against an obscured foe hits the combatant in the way.
    Here ``defender_*`` is the bystander."""

    target_name: str  # the foe the blow was aimed at
    rolled: int
    needed: int

    def describe(self) -> str:
        return (
            f"{self.attacker_name} missed {self.target_name} (rolled {self.rolled}, "
            f"{self.needed} or less hits whoever is in the way): the blow hits "
            f"{self.defender_name}"
        )


@dataclass(frozen=True, kw_only=True)
class StunRecoveryRolled(CombatantEvent):
    """Base rules: a stunned fighter rolls HT each turn; success ends the stun."""

    ht: int
    roll: SuccessRoll

    def describe(self) -> str:
        result = "recovers from the stun" if self.roll.succeeded else "stays stunned"
        return f"{self.name} rolls HT {self.ht} to recover: rolled {self.roll} - {result}"


@dataclass(frozen=True, kw_only=True)
class BleedingRolled(CombatantEvent):
    """Base rules: severe bleeding costs 1 HP a turn; an HT roll stops it."""

    hp_before: int
    hp_after: int
    ht: int
    roll: SuccessRoll

    def describe(self) -> str:
        result = "the bleeding stops" if self.roll.succeeded else "still bleeding"
        return (
            f"{self.name} bleeds: HP {self.hp_before} → {self.hp_after}; HT {self.ht} "
            f"rolled {self.roll} - {result}"
        )


@dataclass(frozen=True, kw_only=True)
class SideBlowDamaged(_Between):
    """Damage from a blow other than the attack's own on its defender: the parry's
    counter-blow on an unarmed attacker, a critical miss's HIT SELF, a stray blow on
    the combatant in the way. ``defender_*`` is whoever took it; its injury rolls
    are in ``damage.status_rolls``."""

    damage: DamageResult
    reason: str

    def describe(self) -> str:
        rolls = "".join(f"; {r}" for r in self.damage.status_rolls)
        return f"{self.defender_name} takes damage ({self.reason}): {self.damage}{rolls}"

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.defender_id,)
