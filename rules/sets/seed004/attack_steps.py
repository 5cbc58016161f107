"""Seed 004's attack in four steps (``rules.battle.attack_steps``): the plan
(``rules.sets.seed004.attack.plan_attack``), the defender's answers, ``decide``
(the contest of attack and defense, the zone, the damage and the injury, every
die through the ``DiceSource``), ``apply`` and ``describe`` (the log's events).

``decide`` returns the shared ``AttackOutcome`` with a ``Seed004Rolls`` payload:
the rolls the log shows and the defender as the attack leaves it. The pane's odds
enumerate the contest, the first step ``decide`` takes (``contest_odds``); the
whole outcome's odds enumerate ``decide`` (``rules.battle.attack_odds``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from rules.battle.attack_odds import AttackOdds as SharedOdds
from rules.battle.attack_outcome import (
    ActiveDefense,
    AttackOutcome,
    ConditionChange,
    Landing,
    OutcomeKind,
)
from rules.battle.attack_steps import AttackSteps
from rules.battle.model import Combatant
from rules.battle.state import BattleState
from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll_dice
from rules.core.enumerate import exact_outcomes
from rules.core.events import Event
from rules.sets.components.zones_2d6 import Zone, ZoneRoll, roll_zone
from rules.sets.seed004.attack import (
    AIMING,
    ANSWERS,
    BLOCK,
    DAMAGE,
    EXTRA_DEFENSE,
    MELEE,
    NO_DEFENSE,
    SHOT,
    SURPRISE,
    AttackPlan,
    Defense,
    Seed004Answer,
    Seed004Attack,
    damage_label,
    plan_attack,
)
from rules.sets.seed004.checks import CheckRoll, check
from rules.sets.seed004.condition_view import down_004
from rules.sets.seed004.events import (
    AttackDeclared,
    CheckRolled,
    DamageRolled,
    DefenseNotRolled,
    ZoneFound,
)
from rules.sets.seed004.events import AttackOutcome as OutcomeTold
from rules.sets.seed004.injury import InjuryStep, injure, injury_events
from rules.sets.seed004.tracks import tracks_of

# --- the contest: attack and defense ---------------------------------------------------


class Outcome(Enum):
    MISS = "miss"
    DODGED = "dodged"
    BLOCKED = "blocked"
    HIT = "hit"


@dataclass(frozen=True, slots=True)
class Contest:
    attack: CheckRoll
    defense: CheckRoll | None
    outcome: Outcome


def contest(
    plan: AttackPlan, defense: Defense, dice: DiceSource, attacker: str = "", defender: str = ""
) -> Contest:
    """The attack check and, if it reaches the difficulty, the ``defense`` (the one
    made: ``AttackPlan.defense_made``); the names say whose each roll is, for dice
    entered at the table (the odds pass none)."""
    undefended = defense is Defense.NONE
    attack = check(
        dice,
        "attack",
        plan.attack_bonus,
        plan.difficulty,
        whose=attacker,
        success_read=undefended,  # no defense reads its total
    )
    if not attack.succeeded:
        return Contest(attack, None, Outcome.MISS)
    if undefended:
        return Contest(attack, None, Outcome.HIT)
    bonus = plan.defense_bonus(defense)
    rolled = check(
        dice, defense.value, bonus, attack.total, beat=True, whose=defender, success_read=True
    )
    if not rolled.succeeded:
        return Contest(attack, rolled, Outcome.HIT)
    return Contest(attack, rolled, Outcome.DODGED if defense is Defense.DODGE else Outcome.BLOCKED)


def contest_odds(plan: AttackPlan, answer: Seed004Answer) -> Mapping[Outcome, Fraction]:
    """The exact chance of each outcome of the contest (``contest`` run on every way
    the dice fall): the pane's odds lines."""
    defense = plan.defense_made(answer)
    return exact_outcomes(lambda d: contest(plan, defense, d).outcome, by_reads=True)


# --- decide ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """The blow's damage: the dice's faces, the total with Strength (at least 0)
    and what is left after a block halved it."""

    faces: tuple[int, ...]
    rolled: int
    total: int


@dataclass(frozen=True, slots=True)
class Seed004Rolls:
    """Seed 004's record of one attack (``AttackOutcome.payload``): the contest,
    the defense made (``NONE``: none), the zone rolled (None: aimed, or no blow
    landed), the damage, the injury's steps in the log's order, and the defender
    as the attack leaves it (None: untouched)."""

    contest: Contest
    defense: Defense
    zone_roll: ZoneRoll | None = None
    damage: DamageRoll | None = None
    injury: tuple[InjuryStep, ...] = ()
    defender: Combatant | None = None


_LANDING = {
    Outcome.MISS: (Landing.MISSED, None),
    Outcome.DODGED: (Landing.DEFENDED, ActiveDefense.DODGE),
    Outcome.BLOCKED: (Landing.HIT, ActiveDefense.BLOCK),
    Outcome.HIT: (Landing.HIT, None),
}


def decide(
    plan: AttackPlan, answer: Seed004Answer, dice: DiceSource
) -> AttackOutcome[Seed004Rolls]:
    """Roll the attack: the contest, then for a blow that lands the zone (unless
    aimed), the damage and the injury, on a copy of the planned defender."""
    defense = plan.defense_made(answer)
    rolled = contest(plan, defense, dice, plan.attacker_name, plan.defender_name)
    landing, stopped_by = _LANDING[rolled.outcome]
    if rolled.outcome is Outcome.MISS:
        return AttackOutcome(landing, Seed004Rolls(rolled, defense))
    defender = plan.defender
    if rolled.defense is not None:  # the reaction is spent
        tracks = tracks_of(defender)
        defender = defender.evolve(tracks=replace(tracks, defenses=tracks.defenses + 1))
    if rolled.outcome is Outcome.DODGED:
        return AttackOutcome(landing, Seed004Rolls(rolled, defense, defender=defender), stopped_by)
    zone_roll, zone, damage, defender, injury = _blow(
        plan, defender, rolled.outcome is Outcome.BLOCKED, dice
    )
    was = plan.defender
    changed = (
        (ConditionChange(defender.id, down_004(defender)),)
        if defender.status is not was.status
        else ()
    )
    payload = Seed004Rolls(rolled, defense, zone_roll, damage, injury, defender)
    return AttackOutcome(
        landing,
        payload,
        stopped_by,
        location=zone.value,
        injury=was.hp - defender.hp,
        conditions=changed,
    )


def _blow(
    plan: AttackPlan, defender: Combatant, blocked: bool, dice: DiceSource
) -> tuple[ZoneRoll | None, Zone, DamageRoll, Combatant, tuple[InjuryStep, ...]]:
    """A blow that lands on ``defender`` (its defense spent): the zone unless
    aimed, the damage (halved by a block) and the injury. It reads nothing of the
    contest's dice but whether a block halved it: the exact odds enumerate it
    apart (``exact_odds``)."""
    zone_roll = None
    zone = plan.zone
    if zone is None:
        zone_roll = roll_zone(dice, what=f"{plan.attacker_name}'s hit zone", zone_read=True)
        zone = zone_roll.zone
    damage = roll_dice(plan.damage_dice, dice, minimum=None, what=f"{plan.attacker_name}'s damage")
    rolled_total = max(0, damage.raw + plan.strength)
    total = rolled_total // 2 if blocked else rolled_total
    after, injury = injure(defender, zone, plan.blow, total, plan.exposed, dice)
    return zone_roll, zone, DamageRoll(damage.faces, rolled_total, total), after, injury


def exact_odds(plan: AttackPlan, answer: Seed004Answer) -> SharedOdds:
    """The shared odds of ``decide`` (``rules.battle.attack_odds``), exactly, with
    its two steps enumerated apart: the contest (its outcome, and whether a
    defense was rolled and spent), then the blow (``_blow``) once for each way it
    can land, where ``decide`` enumerated whole rolls the blow again under every
    total of the contest."""
    defense = plan.defense_made(answer)
    was = plan.defender

    def read(dice: DiceSource) -> tuple[Outcome, bool]:
        rolled = contest(plan, defense, dice)
        return rolled.outcome, rolled.defense is not None

    kinds: dict[OutcomeKind, Fraction] = {}
    injury = out = Fraction(0)
    for (outcome, spent), p in exact_outcomes(read, by_reads=True).items():
        landing, stopped_by = _LANDING[outcome]
        kind = OutcomeKind(landing, stopped_by)
        kinds[kind] = kinds.get(kind, Fraction(0)) + p
        if outcome is Outcome.MISS or outcome is Outcome.DODGED:
            continue
        defender = was
        if spent:
            tracks = tracks_of(defender)
            defender = defender.evolve(tracks=replace(tracks, defenses=tracks.defenses + 1))
        blocked = outcome is Outcome.BLOCKED

        def blow(
            dice: DiceSource, defender: Combatant = defender, blocked: bool = blocked
        ) -> tuple[int, bool]:
            after = _blow(plan, defender, blocked, dice)[3]
            taken = after.status is not was.status and not down_004(after).able_to_act
            return was.hp - after.hp, taken

        for (hurt, taken), q in exact_outcomes(blow, by_reads=True).items():
            injury += p * q * hurt
            if taken:
                out += p * q
    return SharedOdds(MappingProxyType(kinds), injury, out)


# --- apply and describe --------------------------------------------------------------------


def apply(
    state: BattleState, plan: AttackPlan, outcome: AttackOutcome[Seed004Rolls]
) -> BattleState:
    """The defender as the attack left it (its defense spent, its injury)."""
    defender = outcome.payload.defender
    return state if defender is None else state.with_combatants(defender)


def describe(
    plan: AttackPlan, answer: Seed004Answer, outcome: AttackOutcome[Seed004Rolls]
) -> tuple[Event, ...]:
    """The log of the attack: declared, the attack check, the defense or why none,
    the outcome, the zone, the damage and the injury."""
    rolls = outcome.payload
    result = rolls.contest
    events: list[Event] = [
        AttackDeclared(
            citation=_attack_citation(plan),
            combatant_id=plan.attacker_id,
            name=plan.attacker_name,
            defender_id=plan.defender_id,
            defender_name=plan.defender_name,
            weapon=plan.weapon.name,
            mode=plan.mode.name,
            blow=damage_label(plan.mode),
            aimed=plan.zone,
            difficulty=plan.difficulty,
            modifiers=plan.modifiers,
        ),
        CheckRolled(
            citation=_attack_citation(plan),
            combatant_id=plan.attacker_id,
            name=plan.attacker_name,
            roll=result.attack,
        ),
    ]
    if result.outcome is Outcome.MISS:
        events.append(_told(plan, Outcome.MISS, "misses"))
        return tuple(events)
    if result.defense is None:
        events.append(
            DefenseNotRolled(
                citation=_no_defense_citation(plan, rolls.defense),
                combatant_id=plan.defender_id,
                name=plan.defender_name,
                reason=plan.no_defense_note(rolls.defense),
            )
        )
    else:
        events.append(
            CheckRolled(
                citation=EXTRA_DEFENSE if plan.earlier_defenses else MELEE,
                combatant_id=plan.defender_id,
                name=plan.defender_name,
                roll=result.defense,
            )
        )
    if result.outcome is Outcome.DODGED:
        events.append(_told(plan, Outcome.DODGED, "is dodged"))
        return tuple(events)
    blocked = result.outcome is Outcome.BLOCKED
    events.append(_told(plan, result.outcome, "is blocked" if blocked else "hits"))
    events.append(_zone_found(plan, rolls.zone_roll))
    damage = rolls.damage
    assert damage is not None  # a blow that landed was rolled
    events.append(
        DamageRolled(
            citation=BLOCK if blocked else DAMAGE,
            combatant_id=plan.attacker_id,
            name=plan.attacker_name,
            dice=str(plan.damage_dice),
            faces=damage.faces,
            strength=plan.strength,
            rolled=damage.rolled,
            halved=blocked,
            total=damage.total,
            blow=damage_label(plan.mode),
        )
    )
    events.extend(injury_events(plan.defender, rolls.injury))
    return tuple(events)


def _zone_found(plan: AttackPlan, rolled: ZoneRoll | None) -> ZoneFound:
    if rolled is None:
        assert plan.zone is not None  # no zone rolled: the aimed one
        zone: Zone = plan.zone
        return ZoneFound(
            citation=AIMING, combatant_id=plan.defender_id, name=plan.defender_name, zone=zone
        )
    return ZoneFound(
        citation=rolled.citation,
        combatant_id=plan.defender_id,
        name=plan.defender_name,
        zone=rolled.zone,
        faces=rolled.faces,
    )


def _attack_citation(plan: AttackPlan) -> Citation:
    return SHOT if plan.mode.is_ranged else MELEE


def _no_defense_citation(plan: AttackPlan, defense: Defense) -> Citation:
    """Why no defense is rolled: a shot, a surprise attack, or the GM's choice
    or a defender who cannot act (the melee rule)."""
    if plan.mode.is_ranged:
        return SHOT
    return SURPRISE if "surprise" in plan.no_defense_note(defense) else MELEE


def _told(plan: AttackPlan, outcome: Outcome, verb: str) -> OutcomeTold:
    return OutcomeTold(
        citation=BLOCK if outcome is Outcome.BLOCKED else _attack_citation(plan),
        attacker_id=plan.attacker_id,
        defender_id=plan.defender_id,
        outcome=outcome.value,
        text=f"{plan.attacker_name}'s attack {verb}"
        + (" (half damage)" if outcome is Outcome.BLOCKED else ""),
    )


# --- the four steps as one object ----------------------------------------------------------


class Seed004Steps:
    """Seed 004's ``AttackSteps``: its choices, answer, plan and payload. The steps
    are this module's functions themselves (no call in between: an attack runs
    through here every time)."""

    choices_type = Seed004Attack
    answer_type = Seed004Answer
    plan = staticmethod(plan_attack)
    decide = staticmethod(decide)
    exact_odds = staticmethod(exact_odds)
    apply = staticmethod(apply)
    describe = staticmethod(describe)

    def answers(self, plan: AttackPlan) -> tuple[Seed004Answer, ...]:
        """A dodge, a block or none; only none when the defender can make neither."""
        return (NO_DEFENSE,) if plan.defense_block else ANSWERS

    def default_answer(self, plan: AttackPlan) -> Seed004Answer:
        """A dodge when the defender can make one, else none."""
        return NO_DEFENSE if plan.defense_block else ANSWERS[0]


STEPS: AttackSteps[Seed004Attack, Seed004Answer, AttackPlan, Seed004Rolls] = Seed004Steps()
