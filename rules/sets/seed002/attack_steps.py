"""Seed 002's attack in four steps (``rules.battle.attack_steps``): the plan
(``rules.sets.seed002.attack.plan_attack``), the defender's answers, ``decide``
(the attack's and the defense's d100s, the matrix's cell, the damage, the hit
location and the major wound, every die through the ``DiceSource``), ``apply``
and ``describe`` (the log's events).

``decide`` returns the shared ``AttackOutcome`` with a ``Seed002Rolls`` payload:
the rolls the log shows and the fighters as the attack leaves them. The pane's
odds lines enumerate the contest, the first step ``decide`` takes
(``contest_odds``); its chances of a kill and of a major wound enumerate the
contest and the blow, its first two (``harm_odds``); the whole outcome's odds
enumerate ``decide`` (``rules.battle.attack_odds``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
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
from rules.battle.model import Combatant, Delivery, Posture, Status, Weapon
from rules.battle.pieces import AT_FEET, Piece
from rules.battle.state import BattleState, LaunchedPiece
from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.core.enumerate import exact_outcomes
from rules.core.events import Event
from rules.sets.seed002.attack import (
    BASE_DEATH,
    BASE_DEFENSES,
    BASE_FUMBLES,
    DODGE_ANSWER,
    NO_DEFENSE,
    THROWN,
    THROWN_PLACEMENT,
    Attack002,
    DefenseKind,
    MadeDefense,
    Plan,
    Seed002Answer,
    cell_damage_kind,
    defense_made,
    maximum_damage,
    outcome_keys,
    parry_problem,
    plan_attack,
    result_text,
    taken_damage,
)
from rules.sets.seed002.condition_view import down_002
from rules.sets.seed002.events import (
    AttackDeclared,
    DamageDealt,
    DefenseNotMade,
    Fumbled,
    LocationRolled,
    ResultApplied,
    SkillRolled,
    StatusChanged,
)
from rules.sets.seed002.success import (
    BASE_CRITICAL,
    BASE_FUMBLE,
    BASE_SKILL_ROLL,
    PercentileRoll,
    roll_skill,
)
from rules.sets.seed002.tables import (
    LOCATION_DIE,
    HitLocation,
    Level,
    MatrixCell,
    dice_text,
    location_for,
    matrix_cell,
)
from rules.sets.seed002.wounds import WoundRolled, is_major, major_wound, wound_event

ODDS_ORDER = (
    "critical hit",
    "critical hit, defender fumbles",
    "hit",
    "hit, defender fumbles",
    "half damage",
    "avoided",
    "miss",
    "attacker fumbles",
)

# --- the contest: the attack's and the defense's d100 ------------------------------------


@dataclass(frozen=True, slots=True)
class Contest:
    """The attack's roll, the defense's (None: not rolled) and the matrix's cell."""

    attack: PercentileRoll
    defense: PercentileRoll | None
    cell: MatrixCell


def contest(plan: Plan, defense: MadeDefense, dice: DiceSource) -> Contest:
    """The attack's d100 and, when it succeeds and a defense is made, the
    defense's; the matrix's cell of the two levels."""
    attack = roll_skill(
        plan.attack_skill, dice, f"{plan.attacker.name}'s attack", plan.automatic, read=True
    )
    rolled = None
    defense_level = Level.FAILURE
    if attack.level.succeeded and defense.kind is not DefenseKind.NONE:
        what = f"{plan.defender.name}'s {defense.kind.value}"
        rolled = roll_skill(defense.skill, dice, what, read=True)
        defense_level = rolled.level
    return Contest(attack, rolled, matrix_cell(attack.level, defense_level))


def contest_odds(plan: Plan, answer: Seed002Answer) -> dict[str, Fraction]:
    """Each odds line of ``ODDS_ORDER`` with its exact chance (``contest`` run on
    every way the dice fall; 0 ones left out)."""
    defense = defense_made(plan, answer)

    def line(dice: DiceSource) -> str:
        rolled = contest(plan, defense, dice)
        defended = rolled.defense.level if rolled.defense is not None else Level.FAILURE
        return outcome_keys(defense, rolled.attack.level, defended)

    odds = exact_outcomes(line, by_reads=True)
    return {k: odds[k] for k in ODDS_ORDER if odds.get(k)}


# --- the blow: its damage and where it lands -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Blow:
    """A blow that does damage: the dice's faces (none for a critical's maximum),
    the damage rolled, whether it is the maximum or halved, the hit location's
    d20 and row (None: not rolled), the armour it meets and the damage taken."""

    faces: tuple[int, ...]
    rolled: int
    maximum: bool
    halved: bool
    location_face: int | None
    location: HitLocation | None
    armour: int
    taken: int


def _location_key(face: int) -> str:
    return location_for(face).key


def roll_damage(plan: Plan, dice: DiceSource) -> tuple[tuple[int, ...], int]:
    d = plan.damage
    faces = roll(d.count, dice, d.sides, what=f"{plan.attacker.name}'s damage", adds=d.adds)
    value = sum(faces) + d.adds
    dm = plan.damage_modifier
    if dm.dice is not None:
        extra = roll(
            dm.dice.count,
            dice,
            dm.dice.sides,
            what=f"{plan.attacker.name}'s damage modifier ({dm})",
        )
        faces = (*faces, *extra)
        value += dm.sign * (sum(extra) + dm.dice.adds)
    return faces, max(0, value)


def blow(plan: Plan, cell: MatrixCell, defense: MadeDefense, dice: DiceSource) -> Blow | None:
    """The damage the cell does (None: none), its hit location and what is taken."""
    done, maximum, halved = cell_damage_kind(cell, defense)
    if not done:
        return None
    if maximum:
        faces: tuple[int, ...] = ()
        rolled = maximum_damage(plan)
    else:
        faces, rolled = roll_damage(plan, dice)
    armour = plan.armour if cell.armour else 0
    face = where = None
    if plan.locations and cell.armour:
        (face,) = roll(
            1,
            dice,
            LOCATION_DIE,
            what=f"{plan.defender.name}'s hit location",
            reads=_location_key,
        )
        where = location_for(face)
        armour = plan.armour_at(where.key)
    taken = taken_damage(rolled, armour, halved)
    return Blow(faces, rolled, maximum, halved, face, where, armour, taken)


def harm_odds(plan: Plan, answer: Seed002Answer) -> tuple[Fraction, Fraction]:
    """The exact chances that the attack kills the defender and that it deals a
    major wound (a blow of at least the Major Wound Level that does not kill):
    the contest and the blow, ``decide``'s first two steps, run on every way the
    dice fall."""
    defense = defense_made(plan, answer)
    hp, max_hp = plan.defender.hp, plan.defender.fighter.hit_points

    def harm(dice: DiceSource) -> tuple[bool, bool]:
        struck = blow(plan, contest(plan, defense, dice).cell, defense, dice)
        return harm_of(struck, hp, max_hp)

    odds = exact_outcomes(harm, by_reads=True)
    return odds.get((True, False), Fraction(0)), odds.get((False, True), Fraction(0))


def harm_of(struck: Blow | None, hp: int, max_hp: int) -> tuple[bool, bool]:
    """(it kills, it deals a major wound) of a blow on a defender of ``hp``."""
    if struck is None:
        return False, False
    kills = struck.taken >= hp
    return kills, not kills and is_major(struck.taken, max_hp)


# --- decide ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seed002Rolls:
    """Seed 002's record of one attack (``AttackOutcome.payload``): the defense
    made, the contest, the blow (None: no damage), whether it killed, the major
    wound, what each fumble did (None: no fumble), and the fighters as the attack
    leaves them."""

    defense: MadeDefense
    contest: Contest
    blow: Blow | None
    died: bool
    wound: WoundRolled | None
    attacker_fumble: str | None
    defender_fumble: str | None
    attacker: Combatant
    defender: Combatant


def _fumble(
    who: Combatant, weapon: Weapon | None, what: str
) -> tuple[Combatant, str, tuple[LaunchedPiece, ...]]:
    """An attack or parry fumble drops its weapon; a dodge or unarmed fumble falls."""
    if weapon is not None and weapon.kind.value != "unarmed":
        piece = LaunchedPiece(Piece(weapon.name, weapon, AT_FEET), who.id)
        return who, f"the {what} drops the {weapon.name}", (piece,)
    fallen = who if who.posture is Posture.PRONE else who.evolve(posture=Posture.PRONE)
    return fallen, f"the {what} ends prone", ()


_DEFENDED_BY = {DefenseKind.DODGE: ActiveDefense.DODGE, DefenseKind.PARRY: ActiveDefense.PARRY}


def decide(plan: Plan, answer: Seed002Answer, dice: DiceSource) -> AttackOutcome[Seed002Rolls]:
    """Roll the attack: the contest, then for a cell that does damage the damage,
    the hit location and a death or a major wound, then the fumbles."""
    defense = defense_made(plan, answer)
    return _after_contest(plan, defense, contest(plan, defense, dice), dice)


def _after_contest(
    plan: Plan, defense: MadeDefense, rolled: Contest, dice: DiceSource
) -> AttackOutcome[Seed002Rolls]:
    """``decide`` once the contest is rolled: all it reads of the contest but the
    payload is the matrix's cell (``exact_odds``)."""
    return _after_blow(plan, defense, rolled, blow(plan, rolled.cell, defense, dice), dice)


def _after_blow(
    plan: Plan, defense: MadeDefense, rolled: Contest, struck: Blow | None, dice: DiceSource
) -> AttackOutcome[Seed002Rolls]:
    """``decide`` once the blow is rolled: a death or a major wound, the fumbles."""
    cell = rolled.cell
    attacker, defender = plan.attacker, plan.defender
    pieces: list[LaunchedPiece] = []
    died = False
    wound = None
    if struck is not None:
        hp_after = defender.hp - struck.taken
        defender = defender.evolve(hp=hp_after)
        if hp_after <= 0 and plan.defender.status is not Status.DEAD:
            defender = defender.evolve(status=Status.DEAD, posture=Posture.PRONE)
            died = True
        elif is_major(struck.taken, plan.defender.fighter.hit_points):
            defender, wound, dropped = major_wound(defender, dice)
            pieces.extend(dropped)
    attacker_fumble = defender_fumble = None
    if cell.attacker_fumbles:
        attacker, attacker_fumble, dropped = _fumble(attacker, plan.weapon, "attack")
        pieces.extend(dropped)
    elif plan.mode.delivery is Delivery.THROWN:
        thrown = Piece(plan.weapon.name, plan.weapon, THROWN_PLACEMENT, note=THROWN)
        pieces.append(LaunchedPiece(thrown, attacker.id, defender.hex))
    if cell.defender_fumbles and defender.status is not Status.DEAD:
        weapon = defense.parry_weapon if defense.kind is DefenseKind.PARRY else None
        defender, defender_fumble, dropped = _fumble(defender, weapon, defense.kind.value)
        pieces.extend(dropped)
    payload = Seed002Rolls(
        defense,
        rolled,
        struck,
        died,
        wound,
        attacker_fumble,
        defender_fumble,
        attacker,
        defender,
    )
    stopped_by = _stopped_by(defense, struck, cell)
    return AttackOutcome(
        _landing(cell, struck, stopped_by),
        payload,
        stopped_by,
        location=None if struck is None or struck.location is None else struck.location.key,
        injury=0 if struck is None else struck.taken,
        conditions=tuple(
            ConditionChange(now.id, down_002(now))
            for now, was in ((attacker, plan.attacker), (defender, plan.defender))
            if now.status is not was.status
        ),
        pieces=tuple(pieces),
    )


def exact_odds(plan: Plan, answer: Seed002Answer) -> SharedOdds:
    """The shared odds of ``decide`` (``rules.battle.attack_odds``), exactly, with
    its steps enumerated apart: the contest; for each cell of the matrix the blow
    (``blow``: damage, hit location); for each damage taken the rest
    (``_after_blow``: a death or a major wound's rolls, the fumbles), which reads
    of the blow only the damage taken and whether it is the maximum or halved (the
    cell's), and of the contest only the cell. ``decide`` enumerated whole rolls
    each step again under every way the earlier ones fell."""
    defense = defense_made(plan, answer)
    # Cells alike in all the rest reads of them (``_cell_read``) are enumerated once.
    by_cell: dict[Hashable, tuple[Contest, Fraction]] = {}
    contests = exact_outcomes(lambda d: contest(plan, defense, d), by_reads=True)
    for rolled, p in contests.items():
        read = _cell_read(rolled.cell)
        first, q = by_cell.get(read, (rolled, Fraction(0)))
        by_cell[read] = (first, q + p)
    defender = plan.defender_id
    kinds: dict[OutcomeKind, Fraction] = {}
    injury = out = Fraction(0)
    for rolled, p in by_cell.values():
        by_taken: dict[int | None, tuple[Blow | None, Fraction]] = {}
        cell = rolled.cell

        def landed(dice: DiceSource, cell: MatrixCell = cell) -> Blow | None:
            return blow(plan, cell, defense, dice)

        for struck, q in exact_outcomes(landed, by_reads=True).items():
            taken_key = None if struck is None else struck.taken
            seen, r = by_taken.get(taken_key, (struck, Fraction(0)))
            by_taken[taken_key] = (seen, r + q)
        for struck, q in by_taken.values():

            def rest(
                dice: DiceSource, rolled: Contest = rolled, struck: Blow | None = struck
            ) -> tuple[OutcomeKind, int, bool]:
                outcome = _after_blow(plan, defense, rolled, struck, dice)
                return outcome.kind, outcome.injury, outcome.takes_out(defender)

            for (kind, hurt, taken), r in exact_outcomes(rest, by_reads=True).items():
                pqr = p * q * r
                kinds[kind] = kinds.get(kind, Fraction(0)) + pqr
                injury += pqr * hurt
                if taken:
                    out += pqr
    return SharedOdds(MappingProxyType(kinds), injury, out)


def _cell_read(cell: MatrixCell) -> Hashable:
    """All that ``blow`` and ``_after_blow`` read of a matrix cell (the rest is
    the payload's, the log's)."""
    return cell.damage, cell.armour, cell.attacker_fumbles, cell.defender_fumbles, (
        cell.attacker.succeeded
    )


def _landing(cell: MatrixCell, struck: Blow | None, stopped_by: ActiveDefense | None) -> Landing:
    if cell.attacker_fumbles:
        return Landing.CRITICAL_MISS
    if struck is None:
        return Landing.MISSED if stopped_by is None else Landing.DEFENDED
    return Landing.CRITICAL_HIT if struck.maximum else Landing.HIT


def _stopped_by(
    defense: MadeDefense, struck: Blow | None, cell: MatrixCell
) -> ActiveDefense | None:
    """The defense that stopped the blow, or halved one that struck."""
    if cell.attacker_fumbles or not cell.attacker.succeeded:
        return None
    if struck is None or struck.halved:
        return _DEFENDED_BY.get(defense.kind)
    return None


# --- apply and describe --------------------------------------------------------------------


def apply(state: BattleState, plan: Plan, outcome: AttackOutcome[Seed002Rolls]) -> BattleState:
    """The fighters as the attack left them."""
    rolls = outcome.payload
    changed = tuple(
        now
        for now, was in ((rolls.attacker, plan.attacker), (rolls.defender, plan.defender))
        if now is not was
    )
    return state.with_combatants(*changed) if changed else state


def describe(
    plan: Plan, answer: Seed002Answer, outcome: AttackOutcome[Seed002Rolls]
) -> tuple[Event, ...]:
    """The log of the attack: declared, the attack's roll, the defense's or why
    none, the result, the location, the damage, a death or major wound, the
    fumbles."""
    rolls = outcome.payload
    defense = rolls.defense
    attacker, defender = plan.attacker, plan.defender
    events: list[Event] = [
        AttackDeclared(
            citation=BASE_DEFENSES,
            attacker_id=attacker.id,
            attacker_name=attacker.name,
            defender_id=defender.id,
            defender_name=defender.name,
            weapon_name=plan.weapon.name,
            mode=plan.mode.name,
            defense=defense.label,
        ),
        _rolled(attacker, "attack", rolls.contest.attack),
    ]
    if rolls.contest.attack.level.succeeded:
        if rolls.contest.defense is None:
            events.append(
                DefenseNotMade(
                    citation=BASE_DEFENSES,
                    combatant_id=defender.id,
                    name=defender.name,
                    reason=defense.reason or "none chosen",
                )
            )
        else:
            events.append(_rolled(defender, defense.kind.value, rolls.contest.defense))
    cell = rolls.contest.cell
    events.append(ResultApplied(citation=cell.citation, text=result_text(cell, defense)))
    if rolls.blow is not None:
        events.extend(_damage_events(plan, cell, rolls))
    if rolls.attacker_fumble is not None:
        events.append(_fumbled(attacker, rolls.attacker_fumble))
    if rolls.defender_fumble is not None:
        events.append(_fumbled(defender, rolls.defender_fumble))
    return tuple(events)


def _fumbled(who: Combatant, text: str) -> Fumbled:
    return Fumbled(citation=BASE_FUMBLES, combatant_id=who.id, name=who.name, text=text)


def _damage_events(plan: Plan, cell: MatrixCell, rolls: Seed002Rolls) -> list[Event]:
    struck = rolls.blow
    assert struck is not None  # a blow that did damage
    defender = plan.defender
    events: list[Event] = []
    if struck.location is not None:
        assert struck.location_face is not None  # a location rolled
        events.append(
            LocationRolled(
                citation=struck.location.citation,
                combatant_id=defender.id,
                name=defender.name,
                face=struck.location_face,
                label=struck.location.label,
                armour=struck.armour,
            )
        )
    dm = "" if plan.damage_modifier.dice is None else str(plan.damage_modifier)
    events.append(
        DamageDealt(
            citation=cell.citation,
            combatant_id=defender.id,
            name=defender.name,
            dice=f"{dice_text(plan.damage)}{dm}",
            faces=struck.faces,
            rolled=struck.rolled,
            maximum=struck.maximum,
            armour=struck.armour,
            halved=struck.halved,
            taken=struck.taken,
            hp_before=defender.hp,
            hp_after=defender.hp - struck.taken,
            max_hp=defender.fighter.hit_points,
        )
    )
    if rolls.died:
        events.append(
            StatusChanged(
                citation=BASE_DEATH, combatant_id=defender.id, name=defender.name, text="dies"
            )
        )
    elif rolls.wound is not None:
        events.append(wound_event(defender, rolls.wound))
    return events


def _rolled(who: Combatant, what: str, r: PercentileRoll) -> SkillRolled:
    return SkillRolled(
        citation=matrix_citation_for(r), combatant_id=who.id, name=who.name, what=what, roll=r
    )


def matrix_citation_for(r: PercentileRoll) -> Citation:
    if r.level is Level.CRITICAL:
        return BASE_CRITICAL
    if r.level is Level.FUMBLE:
        return BASE_FUMBLE
    return BASE_SKILL_ROLL


# --- the four steps as one object ----------------------------------------------------------


class Seed002Steps:
    """Seed 002's ``AttackSteps``: its choices, answer, plan and payload; ``locations``
    is the ruleset's option "locations-d20" (the plan rolls hit locations)."""

    choices_type = Attack002
    answer_type = Seed002Answer
    decide = staticmethod(decide)
    exact_odds = staticmethod(exact_odds)
    apply = staticmethod(apply)
    describe = staticmethod(describe)

    def __init__(self, locations: bool = False) -> None:
        self.locations = locations

    def plan(
        self, state: BattleState, attacker_id: str, defender_id: str, choices: Attack002
    ) -> Plan:
        return plan_attack(state, attacker_id, defender_id, choices, locations=self.locations)

    def answers(self, plan: Plan) -> tuple[Seed002Answer, ...]:
        """A dodge, a parry with each weapon that can, or none; only none when the
        defender can make no defense."""
        if plan.no_defense:
            return (NO_DEFENSE,)
        parries = (
            ()
            if plan.mode.is_ranged
            else tuple(
                Seed002Answer(DefenseKind.PARRY, w.key)
                for w in plan.defender.fighter.weapons
                if parry_problem(plan.defender, w) is None
            )
        )
        return (DODGE_ANSWER, *parries, NO_DEFENSE)

    def default_answer(self, plan: Plan) -> Seed002Answer:
        """A dodge (none when the defender can make none: ``defense_made``)."""
        return DODGE_ANSWER


STEPS: AttackSteps[Attack002, Seed002Answer, Plan, Seed002Rolls] = Seed002Steps()
LOCATED_STEPS: AttackSteps[Attack002, Seed002Answer, Plan, Seed002Rolls] = Seed002Steps(True)


def steps_for(locations: bool) -> AttackSteps[Attack002, Seed002Answer, Plan, Seed002Rolls]:
    """The steps of the ruleset with or without the option "locations-d20"."""
    return LOCATED_STEPS if locations else STEPS
