"""Seed 003's attack in four steps (``rules.battle.attack_steps``): the plan
(``rules.sets.seed003.combat.plan_attack``), the defender's answers, ``decide``
(the two 4dF rolls, the location, the wounds and what they do, every die through
the ``DiceSource``), ``apply`` and ``describe`` (the log's events).

``decide`` returns the shared ``AttackOutcome`` with a ``Seed003Rolls`` payload:
the rolls and wounds the log shows and the defender as the attack leaves it. The
pane's odds lines enumerate ``decide`` itself (``worst_wound_odds``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules.battle.attack_outcome import ActiveDefense, AttackOutcome, ConditionChange, Landing
from rules.battle.attack_steps import AttackSteps
from rules.battle.model import Combatant
from rules.battle.state import BattleState
from rules.core.dice import DiceSource
from rules.core.enumerate import exact_outcomes
from rules.core.events import Event
from rules.sets.components.fudge_locations import (
    BodyPart,
    RandomLocation,
    WoundMark,
    roll_random_location,
    wound_for_damage,
)
from rules.sets.seed003.combat import (
    BASE_COVER,
    BASE_OPPOSED,
    BASE_RANGED,
    BEST_DEFENSE,
    HELPLESS_LEVEL,
    HIT_LOCATION,
    PART_DAMAGE,
    WIDESPREAD,
    Choices003,
    Defense,
    Plan003,
    Seed003Answer,
    WoundEffects,
    defensive_factor,
    outcome_of,
    part_damage,
    plan_attack,
    roll_wound_effects,
    wound_effect_events,
)
from rules.sets.seed003.events import (
    AttackDeclared,
    CoverStruck,
    LocationRolled,
    OpposedRolled,
    WoundDealt,
)
from rules.sets.seed003.fudge_dice import FudgeRoll, roll_fudge
from rules.sets.seed003.tracks import body_of, fighter_condition, with_body

NO_HIT = -1  # the odds' key of an attack that did not hit


@dataclass(frozen=True, slots=True)
class PartWound:
    """The damage one part took (before the track) and the box it checked (None:
    no wound)."""

    part: BodyPart
    damage: int
    mark: WoundMark | None


@dataclass(frozen=True, slots=True)
class Seed003Rolls:
    """Seed 003's record of one attack (``AttackOutcome.payload``): the attack
    roll, the defense made and its roll (None: the defender could not defend),
    the relative degree, the random location rolled (None: aimed, widespread or
    no hit), the wounds part by part, the worst box they checked (``outcome_of``,
    0: none), what they did beyond the boxes, and the defender as the attack
    leaves it (None: untouched)."""

    attack: FudgeRoll
    defense: Defense | None
    defense_roll: FudgeRoll | None
    relative: int
    located: RandomLocation | None = None
    wounds: tuple[PartWound, ...] = ()
    worst: int = 0
    effects: WoundEffects | None = None
    defender: Combatant | None = None

    @property
    def hit(self) -> bool:
        return self.relative > 0


_DEFENDED = {Defense.PARRY: ActiveDefense.PARRY, Defense.DODGE: ActiveDefense.DODGE}


def decide(plan: Plan003, answer: Seed003Answer, dice: DiceSource) -> AttackOutcome[Seed003Rolls]:
    """Roll the attack: the two 4dF rolls (a helpless defender stands at a fixed
    Terrible), then for a hit the location (a distant shot's random one), the
    wounds and what they do, on a copy of the planned defender."""
    made = plan.defense_made(answer)
    attacker, defender = plan.attacker, plan.defender
    attack = roll_fudge(plan.attack_level, dice, f"{attacker.name}'s attack")
    defense_roll: FudgeRoll | None = None
    if made is None:
        against = HELPLESS_LEVEL
    else:
        defense_roll = roll_fudge(made.level, dice, f"{defender.name}'s {made.kind.value}")
        against = defense_roll.result
    relative = attack.result - against
    kind = None if made is None else made.kind
    if relative <= 0:
        rolls = Seed003Rolls(attack, kind, defense_roll, relative)
        if kind is None:
            return AttackOutcome(Landing.MISSED, rolls)
        return AttackOutcome(Landing.DEFENDED, rolls, _DEFENDED[kind])
    located: RandomLocation | None = None
    if plan.widespread:
        parts: tuple[BodyPart, ...] = plan.exposed
    elif plan.aim is None:
        located = roll_random_location(dice, whose=defender.name)
        parts = () if located.part in plan.hidden else (located.part,)
    else:
        parts = (plan.aim.part,)
    before = body_of(defender)
    body = before
    worst = 0
    wounds: list[PartWound] = []
    for part in parts:
        damage = part_damage(plan, defender, relative, part)
        level = wound_for_damage(damage)
        mark = None
        if level is not None:
            body, mark = body.with_wound(part, level)
            worst = max(worst, outcome_of(mark))
        wounds.append(PartWound(part, damage, mark))
    hurt = with_body(defender, body)
    hurt, effects, pieces = roll_wound_effects(hurt, before, body, dice)
    was, now = fighter_condition(defender), fighter_condition(hurt)
    changed = (ConditionChange(hurt.id, now),) if now != was else ()
    payload = Seed003Rolls(
        attack, kind, defense_roll, relative, located, tuple(wounds), worst, effects, hurt
    )
    return AttackOutcome(
        Landing.HIT,
        payload,
        location=parts[0].value if len(parts) == 1 and not plan.widespread else None,
        injury=max(0, defender.hp - hurt.hp),
        conditions=changed,
        pieces=pieces,
    )


def apply(state: BattleState, plan: Plan003, outcome: AttackOutcome[Seed003Rolls]) -> BattleState:
    """The defender as the attack left it (its wounds and what they did)."""
    defender = outcome.payload.defender
    return state if defender is None else state.with_combatants(defender)


def describe(
    plan: Plan003, answer: Seed003Answer, outcome: AttackOutcome[Seed003Rolls]
) -> tuple[Event, ...]:
    """The log of the attack: declared, the opposed rolls, the random location
    (and the cover it struck), each part's wound, and what the wounds did."""
    rolls = outcome.payload
    attacker, defender = plan.attacker, plan.defender
    aim = (
        "whole body"
        if plan.widespread
        else ("random location" if plan.aim is None else plan.aim.label.lower())
    )
    citation = BASE_RANGED if plan.mode.is_ranged else BASE_OPPOSED
    events: list[Event] = [
        AttackDeclared(
            citation=citation,
            combatant_id=attacker.id,
            name=attacker.name,
            defender_id=defender.id,
            defender_name=defender.name,
            weapon=f"{plan.weapon.name} ({plan.mode.name})",
            aim=aim,
            modifiers=plan.attack_modifiers,
        ),
        OpposedRolled(
            citation=citation,
            attacker=attacker.name,
            defender=defender.name,
            attack=rolls.attack,
            defense=rolls.defense_roll,
            defense_kind="defense" if rolls.defense is None else rolls.defense.value,
            relative=rolls.relative,
        ),
    ]
    if not rolls.hit:
        return tuple(events)
    if rolls.located is not None:
        events.append(
            LocationRolled(
                citation=HIT_LOCATION,
                combatant_id=defender.id,
                name=defender.name,
                location=rolls.located,
            )
        )
        if rolls.located.part in plan.hidden:
            events.append(
                CoverStruck(
                    citation=BASE_COVER,
                    combatant_id=defender.id,
                    name=defender.name,
                    part=rolls.located.part.value,
                )
            )
    for wound in rolls.wounds:
        events.append(
            WoundDealt(
                citation=WIDESPREAD if plan.widespread else PART_DAMAGE,
                combatant_id=defender.id,
                name=defender.name,
                part=wound.part.value,
                relative=rolls.relative,
                offensive=plan.offensive,
                defensive=defensive_factor(defender, wound.part),
                adjustment=plan.damage_adjustment,
                widespread=plan.widespread,
                damage=wound.damage,
                mark=wound.mark,
            )
        )
    if rolls.defender is not None and rolls.effects is not None:
        events.extend(wound_effect_events(rolls.defender, rolls.effects))
    return tuple(events)


def worst_wound_odds(plan: Plan003, answer: Seed003Answer) -> dict[int, Fraction]:
    """The exact chance of each worst wound (``NO_HIT`` -1 no hit, 0 a hit without
    a wound, 1..5 the worst box checked, ``PAST_THE_TRACK`` past a track's last
    box), ``decide`` run on every way the dice fall (the location's dice and the
    Agility roll to stay up by what is read of them)."""

    def worst(dice: DiceSource) -> int:
        rolls = decide(plan, answer, dice).payload
        return rolls.worst if rolls.hit else NO_HIT

    odds: Mapping[int, Fraction] = exact_outcomes(worst, by_reads=True)
    return dict(sorted(odds.items()))


# --- the four steps as one object ----------------------------------------------------------


class Seed003Steps:
    """Seed 003's ``AttackSteps``: its choices, answer, plan and payload."""

    choices_type = Choices003
    answer_type = Seed003Answer
    plan = staticmethod(plan_attack)
    decide = staticmethod(decide)
    apply = staticmethod(apply)
    describe = staticmethod(describe)

    def answers(self, plan: Plan003) -> tuple[Seed003Answer, ...]:
        """Each defense the defender can make, the better one first; only the
        default when it cannot defend."""
        if plan.helpless:
            return (BEST_DEFENSE,)
        allowed = [d.kind for d in plan.defenses if d.problem is None]
        allowed.sort(key=lambda kind: kind is not plan.best)
        return tuple(Seed003Answer(kind) for kind in allowed)

    def default_answer(self, plan: Plan003) -> Seed003Answer:
        """The better defense (``best_defense``)."""
        return BEST_DEFENSE


STEPS: AttackSteps[Choices003, Seed003Answer, Plan003, Seed003Rolls] = Seed003Steps()
