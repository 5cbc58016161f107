"""The steps of one attack that the dice decide, each written once.

Each step is a function of small frozen inputs and a ``DiceSource``; every die it
rolls goes through that source, and it returns a frozen record of what it
rolled and decided. ``rules.sets.seed000.attack.roll_attack`` (``decide``'s rolls)
calls the steps on the command's dice, in this order, and builds the new state
from their records; the exact odds (``rules.sets.seed000.odds``) run that same
``roll_attack`` on every way the dice can fall. Nothing here is a second copy
for the odds.

1. ``attack_roll_step``: the attack roll against the effective skill, a critical
   failure's verifying / avoiding rolls (000 VERIFYING / AVOIDING CRITICAL
   MISSES), and what a plain failure still does: a miss that lands elsewhere
   (000 NEAR MISSES, 000 MISSING A SPECIFIC HIT LOCATION, as the hit location
   system decides) or a stray blow on the one in the way.
2. ``defense_step``: one announced defense, the Acrobatics roll of an
   acrobatic dodge first (000 ACROBATIC DODGE).
3. ``damage_step``: the damage dice (floored at 0), scaled by a factor.
4. ``WoundInputs.assess``: the located wound of a basic damage (no dice); its
   required rolls are ``rules.sets.seed000.wound_effects.resolve_rolls`` (one
   ``roll_required`` each) and the HT rolls ``rules.sets.seed000.damage.injury_status``;
   ``wound_status`` is the state the wound's conditions force over them.

The dice a step's decision leads to (the critical miss table, a defense fumble's
mishap, parries breaking, the stray blow's damage) are rolled by the resolver
after the step.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

from rules.battle.model import DamageType, Status
from rules.core.citation import Citation
from rules.core.dice import Dice, DiceRoll, DiceSource, roll_dice
from rules.core.modifiers import Modifier
from rules.core.quick_init import quick_init
from rules.sets.seed000.attack_events import AttackOutcome
from rules.sets.seed000.checks import Outcome, RollKind, SuccessRoll, success_roll
from rules.sets.seed000.critical_misses import (
    HIGH_SKILL,
    CriticalMissCheck,
    confirm_critical_miss,
)
from rules.sets.seed000.location_rules import LocationRules
from rules.sets.seed000.stances import AcrobaticResult, BodySide, acrobatic_dodge
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from rules.sets.seed000.wound_effects import Victim, WoundAssessment

__all__ = [
    "AttackRollDecision",
    "AttackRollInputs",
    "AttackRollStep",
    "DefenseInputs",
    "DefenseStep",
    "WoundInputs",
    "attack_roll_step",
    "damage_step",
    "defense_step",
    "wound_status",
]


STRAY_BLOW_MAX_ROLL = 9  # 000 MISSING A SPECIFIC HIT LOCATION: a miss of 9 or less


# --- 1. the attack roll ----------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class AttackRollInputs:
    """What the attack roll and its consequences read of the plan."""

    effective_skill: int
    base_skill: int
    reliable: bool  # the weapon: a critical failure is verified
    aimed_key: str | None  # the hit location system's key aimed at, if any
    aim_penalty: int  # the aim's penalty (a negative modifier's value)
    damage_type: DamageType
    swung: bool
    obscured: bool  # a combatant is in the way (000 MISSING A SPECIFIC HIT LOCATION)
    # a hand weapon, not a thrown or missile attack: only its aimed miss shifts to
    # the general area (000 MISSING A SPECIFIC HIT LOCATION)
    hand_weapon: bool = True


@dataclass(frozen=True, slots=True)
class AttackRollDecision:
    """What the odds read of an attack roll: the outcome before any defense,
    whether the defenses are rolled, where a failed roll still lands, and the
    misses that are stray blows or critical failures made plain."""

    outcome: AttackOutcome
    defended: bool
    shifted_to: str | None
    stray: bool
    critical_miss_avoided: bool


@quick_init
@dataclass(frozen=True, slots=True)
class AttackRollStep:
    """The attack roll, a critical failure's confirming rolls, and the key, reason
    and rule of a failed roll that lands elsewhere."""

    roll: SuccessRoll
    confirming: CriticalMissCheck | None
    shifted: tuple[str, str, Citation] | None
    stray: bool

    @property
    def outcome(self) -> AttackOutcome:
        """Before the defenses: a critical hit, a hit (plain, or a miss that
        lands), a miss or a critical miss."""
        rolled = self.roll.outcome
        if rolled is Outcome.CRITICAL_SUCCESS:
            return AttackOutcome.CRITICAL_HIT
        if rolled is Outcome.SUCCESS or self.shifted is not None:
            return AttackOutcome.HIT
        if rolled is Outcome.CRITICAL_FAILURE and (
            self.confirming is None or self.confirming.happens
        ):
            return AttackOutcome.CRITICAL_MISS
        return AttackOutcome.MISSED

    @property
    def defended(self) -> bool:
        """The announced defenses are rolled: a plain success or a miss that lands."""
        return self.roll.outcome is Outcome.SUCCESS or self.shifted is not None

    @property
    def decision(self) -> AttackRollDecision:
        return AttackRollDecision(
            self.outcome,
            self.defended,
            None if self.shifted is None else self.shifted[0],
            self.stray,
            self.confirming is not None and not self.confirming.happens,
        )


def attack_roll_step(
    inputs: AttackRollInputs,
    system: LocationRules,
    dice: DiceSource,
    what: str | None = None,
) -> AttackRollStep:
    """Roll the attack (3d6 against the effective skill); a critical failure of a
    reliable weapon or at base skill over 15 is confirmed by its own rolls; a
    plain failure may land elsewhere (``system.missed_aim``) or, with someone in
    the way, strike him (a miss of 9 or less, at most the unaimed skill).
    ``what`` names the roll for dice entered at the table ("Spearman's attack")."""
    # The total is read beyond the outcome only by a miss that may land elsewhere.
    total_read = inputs.aimed_key is not None or inputs.obscured
    rolled = success_roll(
        inputs.effective_skill, dice, RollKind.STANDARD, total_read=total_read, what=what
    )
    confirming = None
    shifted = None
    stray = False
    if rolled.outcome is Outcome.CRITICAL_FAILURE:
        if inputs.reliable or inputs.base_skill > HIGH_SKILL:
            confirming = confirm_critical_miss(
                inputs.base_skill, dice, reliable=inputs.reliable, what=what
            )
    elif rolled.outcome is Outcome.FAILURE:
        if inputs.aimed_key is not None:
            shifted = system.missed_aim(
                inputs.aimed_key,
                rolled.total,
                inputs.effective_skill,
                inputs.aim_penalty,
                inputs.damage_type,
                inputs.swung,
                inputs.hand_weapon,
            )
        stray = (
            shifted is None
            and inputs.obscured
            and rolled.total <= stray_blow_limit(inputs.effective_skill, inputs.aim_penalty)
        )
    return AttackRollStep(rolled, confirming, shifted, stray)


def stray_blow_limit(effective_skill: int, aim_penalty: int) -> int:
    """The highest missed roll that strikes the one in the way: 9, and no more
    than the skill without the aim's penalty."""
    return min(STRAY_BLOW_MAX_ROLL, effective_skill - aim_penalty)


# --- 2. a defense ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DefenseInputs:
    """An announced defense's score; for an acrobatic dodge, the defender's
    Acrobatics skill (None: he has none, and the dodge is refused)."""

    value: int
    acrobatic: bool = False
    acrobatics: int | None = None


@dataclass(frozen=True, slots=True)
class DefenseStep:
    """The Acrobatics roll and the modifier it gave the dodge (an acrobatic
    dodge), and the defense roll at the score that results."""

    acrobatic: AcrobaticResult | None
    applied: Modifier | None
    roll: SuccessRoll

    @property
    def decision(self) -> tuple[Outcome, bool | None]:
        """The defense roll's outcome and whether an Acrobatics roll succeeded."""
        return self.roll.outcome, None if self.acrobatic is None else self.acrobatic.succeeded


def defense_step(inputs: DefenseInputs, dice: DiceSource, what: str | None = None) -> DefenseStep:
    """Roll one announced defense (000's defense criticals); an acrobatic dodge
    rolls Acrobatics first: +2, not above 16, or -4 to the dodge. ``what`` names
    the defense for dice entered at the table ("Fencer's parry")."""
    value = inputs.value
    acrobatic = applied = None
    if inputs.acrobatic:
        acrobatic = acrobatic_dodge(
            inputs.acrobatics, dice, what=None if what is None else f"{what}: Acrobatics first"
        )
        applied = acrobatic.dodge_modifier(value)
        value += applied.value
    return DefenseStep(acrobatic, applied, success_roll(value, dice, RollKind.DEFENSE, what=what))


# --- 3. the damage -----------------------------------------------------------------------


def damage_step(
    dice_rolled: Dice, factor: Fraction, dice: DiceSource, what: str | None = None
) -> tuple[DiceRoll, int]:
    """The damage roll (never below 0) and the basic damage: ``factor`` of it,
    rounded down. ``what`` names the roll for dice entered at the table."""
    rolled = roll_dice(dice_rolled, dice, minimum=0, what=what)
    if factor == 1:  # the usual full damage: no Fraction arithmetic
        return rolled, rolled.total
    return rolled, math.floor(rolled.total * factor)


# --- 4. the located wound ----------------------------------------------------------------


@quick_init
@dataclass(frozen=True, slots=True)
class WoundInputs:
    """What the hit location system's wound reads, but the basic damage."""

    key: str
    damage_type: DamageType
    victim: Victim
    armor_dr: int
    side: BodySide | None
    swung: bool
    from_back: bool
    chink: bool

    def assess(self, system: LocationRules, basic: int) -> WoundAssessment:
        """The wound ``basic`` damage makes here (no dice: its rolls are
        ``resolve_rolls``'). A pure function of the system and these inputs, so
        it is made once for each (``_assessed``)."""
        memo = _assessed()
        key = (id(system), self, basic)
        known = memo.get(key)
        if known is not None and known[0] is system:
            return known[1]
        assessment = system.assess_wound(
            self.key,
            self.damage_type,
            basic,
            self.victim,
            armor_dr=self.armor_dr,
            side=self.side,
            swung=self.swung,
            from_back=self.from_back,
            chink=self.chink,
        )
        if len(memo) >= _ASSESSED_KEPT:
            memo.clear()
        memo[key] = (system, assessment)
        return assessment


# The wounds assessed, by the identity of their system (which each entry holds, so
# that its id is not reused), the inputs and the basic damage: a battle's blows and
# the exact odds assess the same few wounds over and over, and the frozen tables
# make each one afresh, Fractions and all. A ``functools.cache`` holds the dict,
# so that clearing the rules' caches empties it as well.
_ASSESSED_KEPT = 4096


@functools.cache
def _assessed() -> dict[tuple[int, WoundInputs, int], tuple[LocationRules, WoundAssessment]]:
    return {}


_DEADLY = frozenset({WoundCondition.DEAD, WoundCondition.DECAPITATED})
# The wound conditions that change the defender's state (``wound_status``).
STATE_CONDITIONS = _DEADLY | {WoundCondition.UNCONSCIOUS, WoundCondition.STUNNED}


def wound_status(status: Status, conditions: frozenset[WoundCondition]) -> Status:
    """The defender's state after a located wound: ``injury_status``'s result,
    overridden by the wound's conditions (dead; unconscious unless dead;
    stunned only if active)."""
    if not conditions:  # most wounds: the state stays injury_status's
        return status
    if conditions & _DEADLY:
        return Status.DEAD
    if WoundCondition.UNCONSCIOUS in conditions and status is not Status.DEAD:
        return Status.UNCONSCIOUS
    if WoundCondition.STUNNED in conditions and status is Status.ACTIVE:
        return Status.STUNNED
    return status
