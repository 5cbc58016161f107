"""What a wound does to the body where it lands: location DR, wounding multiplier,
crippling, the rolls it forces and the lasting conditions it leaves.

Two layers live here:

* the records every hit location system shares: ``Victim`` (the traits that matter:
  HP, HT, DX, pain threshold, sex, injury tolerance), ``WoundAssessment`` (what a
  blow does before any roll), ``RequiredRoll``/``RollOutcome`` (the follow-up rolls
  and how they fell), ``Wound`` and ``Condition`` (what stays on the combatant), and
  ``resolve_rolls``/``wound_from`` to go from an assessment to a stored wound;
* the seed 000 engine, ``assess_wound_000``, which reads the per-location wound
  specification parsed from ``assets/rulesets/000/hit_locations.json`` (the
  ``WoundSpec`` records below) and applies the 26 notes of "000 RANDOM BODY HIT".

Seed 001's engine lives in ``rules.sets.seed000.locations_001``; both return the same
``WoundAssessment`` so the battle code does not care which system is in use.
Sides are the target's own left and right and pain thresholds the fighter's, both
as ``rules.sets.seed000.stances`` defines them (``BodySide``, ``PainThreshold``).

Words used throughout (see docs/hit-locations.md):

* **basic damage**: the damage roll; **armor DR**: the DR of the armor over the
  location (pass 0 if you already subtracted it);
* **penetrating**: basic damage past the armor *and* the location's own DR (skull,
  rib cage ...);
* **injury**: penetrating damage times the wounding multiplier, rounded down, at
  least 1 when anything penetrates (the family's rule, as ``rules.sets.seed000.damage``). Every
  threshold of the seed ("damage over HP/2", "HT+5 - Damage") is read on injury;
* **HP loss**: injury after "excess damage lost" caps; what the victim's HP drop by.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from hexmap import parse_digits
from rules.battle.model import DamageType, Fighter
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, roll
from rules.core.errors import DataError, IllegalAttackError, RulesError
from rules.core.jsondata import (
    JSONObject,
    as_enum,
    as_fraction,
    as_int,
    as_list,
    as_object,
    check_keys,
    get_bool,
    get_int,
    get_str,
)
from rules.core.quick_init import quick_init
from rules.sets.seed000.checks import Outcome, judge
from rules.sets.seed000.sheet import InjuryTolerance, sheet_of
from rules.sets.seed000.stances import BodySide, PainThreshold, scale_stun_penalty

SEED_000 = "000"
TABLE_000 = cite("000", "RANDOM BODY HIT")
PAIN_000 = cite("000", "HIGH AND LOW PAIN THRESHOLD")
MAJOR_DAMAGE_000 = cite("000", "MAJOR DAMAGE")
BASE_SHOCK = Citation("base", "shock: -1 per point of injury, at most -4, next turn only")
SHOCK_CAP = 4
BASE_MAJOR_WOUND = Citation("base", "major wound: an HT roll or stunned and knocked down")
# The knockdown roll's pain threshold modifiers (base rules, as seed 001's roll has them).
MAJOR_WOUND_PAIN = {PainThreshold.HIGH: 3, PainThreshold.LOW: -4}

PIERCING_TYPES = frozenset(
    {
        DamageType.SMALL_PIERCING,
        DamageType.PIERCING,
        DamageType.LARGE_PIERCING,
        DamageType.HUGE_PIERCING,
    }
)


def note_000(number: int) -> Citation:
    """Citation of a numbered note under seed 000's random body hit table."""
    return cite("000", f"RANDOM BODY HIT note {number}")


def _cited(number: int | None) -> Citation:
    return TABLE_000 if number is None else note_000(number)


# --------------------------------------------------------------------------- enums


class Limb(Enum):
    """What a crippling wound disables."""

    ARM = "arm"
    HAND = "hand"
    LEG = "leg"
    FOOT = "foot"
    EYE = "eye"


class Condition(Enum):
    """Lasting results of a wound, stored with it on the combatant (the lead wires
    them into ``Combatant``)."""

    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"
    KNOCKED_DOWN = "knocked down"
    DEAD = "dead"
    CRIPPLED = "crippled"
    SEVERE_BLEEDING = "severe bleeding"
    BLINDED_EYE = "blinded in one eye"
    BLINDED_BOTH = "blinded in both eyes"
    DEAFENED = "deafened"
    SUFFOCATING = "suffocating"
    DECAPITATED = "decapitated"
    PARALYZED = "paralyzed"
    DROPPED_ITEM = "dropped what the hand held"
    NERVE_DAMAGE = "nerve damage to the arm"
    LUNG_COLLAPSE = "collapsed lung"
    HEART_HIT = "heart hit"
    LIVER_SHATTERED = "shattered liver"
    SPLEEN_DAMAGE = "damaged spleen"
    PERFORATION = "perforated stomach, gall bladder, intestines or bladder"
    INFECTION = "infection"
    LIMB_LOST = "limb lost for good (past crippled)"


class RollKind(Enum):
    """Why a follow-up roll is made."""

    KNOCKOUT = "avoid knockout"
    KNOCKDOWN = "avoid knockdown and stun"
    SEVERE_BLEEDING = "avoid severe bleeding"
    CRIPPLING = "avoid crippling"
    KEEP_HOLD = "keep hold of what the crippled hand holds"
    DEAFNESS = "avoid deafness"
    SUFFOCATION = "avoid suffocation"
    DECAPITATION = "avoid decapitation"
    NERVE_DAMAGE = "avoid nerve damage to the arm"
    LUNG = "avoid lung collapse"
    HEART = "avoid a heart hit"
    LIVER = "avoid a shattered liver"
    SPLEEN = "avoid spleen damage"
    PERFORATION = "avoid perforation"
    INFECTION = "avoid infection"
    PARALYSIS = "avoid paralysis (spine)"


# --------------------------------------------------------------------------- records


@quick_init
@dataclass(frozen=True, slots=True)
class Victim:
    """The traits of the wounded that hit location rules read."""

    hp: int
    ht: int
    dx: int = 10
    pain: PainThreshold = PainThreshold.NORMAL
    male: bool = True
    chin_padded_helm: bool = False  # 000 note 4: negates the jaw's knockout effects
    tolerances: frozenset[InjuryTolerance] = frozenset()
    # The wounds the victim already has and its weapon hand's side: a system with a
    # wound track per body part (the FUDGE option) reads them; the others do not.
    wounds: tuple[Wound, ...] = ()
    weapon_side: BodySide = BodySide.RIGHT

    def __post_init__(self) -> None:
        if self.hp < 1:
            raise RulesError(f"a victim needs at least 1 HP, got {self.hp}")

    @classmethod
    def of(
        cls,
        fighter: Fighter,
        *,
        pain: PainThreshold | None = None,
        male: bool = True,
        chin_padded_helm: bool = False,
        tolerances: frozenset[InjuryTolerance] | None = None,
        wounds: tuple[Wound, ...] = (),
        weapon_side: BodySide = BodySide.RIGHT,
    ) -> Victim:
        """The victim traits of a character sheet (HP, HT, DX, pain threshold and
        injury tolerance, the last two unless given) plus the rest."""
        sheet = sheet_of(fighter)
        a = sheet.attributes
        pain = sheet.pain_threshold if pain is None else pain
        tolerances = sheet.injury_tolerance if tolerances is None else tolerances
        return cls(
            fighter.hit_points,
            a.ht,
            a.dx,
            pain,
            male,
            chin_padded_helm,
            tolerances,
            wounds,
            weapon_side,
        )


@quick_init
@dataclass(frozen=True, slots=True)
class Step:
    """One line of the explanation of an assessment, with the rule behind it."""

    text: str
    citation: Citation

    def __str__(self) -> str:
        return f"{self.text} ({self.citation})"


@dataclass(frozen=True, slots=True)
class Effect:
    """A narrative effect the GM applies by judgement (appearance, teeth ...)."""

    text: str
    citation: Citation

    def __str__(self) -> str:
        return f"{self.text} ({self.citation})"


@dataclass(frozen=True, slots=True)
class Crippling:
    """A crippling wound: ``threshold`` is the injury it had to exceed;
    ``excess_lost`` the injury that did not count because of it."""

    limb: Limb
    side: BodySide | None
    threshold: Fraction
    excess_lost: int
    citation: Citation


@dataclass(frozen=True, slots=True)
class RequiredRoll:
    """A roll the wound forces. ``target`` is the number to roll 3d6 against.

    * ``on_failure`` happens on a failed roll (only on a critical failure when
      ``critical_only``); ``on_critical_failure`` adds to it on a critical failure;
      ``on_failure_by``/``failure_margin`` add to it on a failure by that much.
    * ``requires_failed``: the roll is made only if the roll of that kind (made
      earlier for the same wound) failed, e.g. infection after perforation.
    * ``limb``: the limb a CRIPPLING roll is about.
    """

    kind: RollKind
    target: int
    citation: Citation
    reason: str
    on_failure: frozenset[Condition] = frozenset()
    on_critical_failure: frozenset[Condition] = frozenset()
    critical_only: bool = False
    failure_margin: int | None = None
    on_failure_by: frozenset[Condition] = frozenset()
    requires_failed: RollKind | None = None
    limb: Limb | None = None

    def __str__(self) -> str:
        when = f" (only if {self.requires_failed.value} failed)" if self.requires_failed else ""
        return f"roll vs {self.target} to {self.kind.value}{when}: {self.reason} ({self.citation})"


@quick_init
@dataclass(frozen=True, slots=True)
class WoundAssessment:
    """What one blow does at one location, before the follow-up rolls.

    ``also_location`` names a second location the same blow reaches (the vitals for
    000's chest overflow and the eye-to-brain hit); ``knockdown_modifier`` is seed
    001's knockdown modifier for the location (0 in seed 000)."""

    system: str
    location: str
    label: str
    side: BodySide | None
    damage_type: DamageType
    basic_damage: int
    armor_dr: int
    effective_armor_dr: int
    location_dr: int
    penetrating: int
    multiplier: Fraction
    injury: int
    hp_loss: int
    crippling: Crippling | None
    automatic: frozenset[Condition]
    rolls: tuple[RequiredRoll, ...]
    shock_penalty: int
    effects: tuple[Effect, ...]
    steps: tuple[Step, ...]
    also_location: str | None = None
    knockdown_modifier: int = 0
    shock_factor: Fraction = Fraction(1)  # the location's stun multiplier, before pain
    shock_steps: tuple[Step, ...] = ()
    shock_citation: Citation | None = None  # the rule behind shock_factor

    @property
    def explanation(self) -> tuple[Step, ...]:
        """Every step, the shock (stun penalty) last."""
        return (*self.steps, *self.shock_steps)

    @property
    def citations(self) -> tuple[Citation, ...]:
        # Made once for each assessment (a blow asks twice, and assessments are
        # made once for their inputs: ``dice_steps.WoundInputs.assess``).
        known = _CITATIONS.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        seen: dict[Citation, None] = {}
        for s in self.explanation:
            seen.setdefault(s.citation, None)
        for r in self.rolls:
            seen.setdefault(r.citation, None)
        cited = tuple(seen)
        if len(_CITATIONS) >= _CITATIONS_KEPT:
            _CITATIONS.clear()
        _CITATIONS[id(self)] = (self, cited)
        return cited

    def roll_of(self, kind: RollKind) -> RequiredRoll | None:
        for r in self.rolls:
            if r.kind is kind:
                return r
        return None


# ``WoundAssessment.citations`` by the assessment's identity (each entry holds its
# assessment, so that its id is not reused).
_CITATIONS: dict[int, tuple[WoundAssessment, tuple[Citation, ...]]] = {}
_CITATIONS_KEPT = 4096


@dataclass(frozen=True, slots=True)
class RollOutcome:
    roll: RequiredRoll
    dice: tuple[int, ...]
    total: int
    outcome: Outcome
    conditions: frozenset[Condition]

    @property
    def failed(self) -> bool:
        return not self.outcome.is_success

    @property
    def margin(self) -> int:
        return self.roll.target - self.total

    def __str__(self) -> str:
        faces = "+".join(str(d) for d in self.dice)
        got = ", ".join(sorted(c.value for c in self.conditions)) or "no effect"
        return (
            f"{self.roll.kind.value}: {faces} = {self.total} vs {self.roll.target}, "
            f"{self.outcome.value} -> {got}"
        )


@quick_init
@dataclass(frozen=True, slots=True)
class Wound:
    """A wound as it stays on the combatant."""

    system: str
    location: str
    label: str
    side: BodySide | None
    injury: int  # HP actually lost
    crippled: Limb | None
    conditions: frozenset[Condition]
    citations: tuple[Citation, ...] = field(default=())

    @property
    def bleeding(self) -> bool:
        return Condition.SEVERE_BLEEDING in self.conditions

    @property
    def knocked_out(self) -> bool:
        return Condition.UNCONSCIOUS in self.conditions

    @property
    def stunned(self) -> bool:
        return Condition.STUNNED in self.conditions

    @property
    def dead(self) -> bool:
        return Condition.DEAD in self.conditions


# --------------------------------------------------------------------------- resolution


def resolve_rolls(
    assessment: WoundAssessment, rng: DiceSource, *, who: str | None = None
) -> tuple[RollOutcome, ...]:
    """Roll every required roll of ``assessment`` in order (3d6 each, with the
    family's success and critical rules, ``rules.sets.seed000.checks``). A roll that depends on
    an earlier failure is skipped (and not listed) when that roll succeeded.
    ``who``: the wounded one's name, for rolls entered at the table."""
    return _resolve(assessment.rolls, rng, who)


def _resolve(
    rolls: tuple[RequiredRoll, ...], rng: DiceSource, who: str | None
) -> tuple[RollOutcome, ...]:
    failed: set[RollKind] = set()
    outcomes: list[RollOutcome] = []
    for req in rolls:
        if req.requires_failed is not None and req.requires_failed not in failed:
            continue
        what = None if who is None else f"{who}'s roll to {req.kind.value}"
        rolled = roll_required(req, rng, what)
        outcomes.append(rolled)
        if rolled.failed:
            failed.add(req.kind)
    return tuple(outcomes)


@dataclass(frozen=True, slots=True)
class WoundRolls:
    """``resolve_rolls`` of a wound's required rolls, as a merged step
    (``rules.core.dice.run_merged``): the wound reads of its outcomes only the
    conditions they grant and the limb a failed crippling roll cripples
    (``wound_from``); the log reads the rolls themselves."""

    rolls: tuple[RequiredRoll, ...]
    who: str | None = None

    def __call__(self, rng: DiceSource) -> tuple[RollOutcome, ...]:
        return _resolve(self.rolls, rng, self.who)

    def reads(self, outcomes: tuple[RollOutcome, ...]) -> Hashable:
        granted: frozenset[Condition] = frozenset().union(*(o.conditions for o in outcomes))
        return granted, _crippled_by_roll(outcomes)


def _crippled_by_roll(outcomes: Iterable[RollOutcome]) -> Limb | None:
    """The limb of the first failed crippling roll that names one."""
    for o in outcomes:
        if o.roll.kind is RollKind.CRIPPLING and o.failed and o.roll.limb is not None:
            return o.roll.limb
    return None


def roll_required(req: RequiredRoll, rng: DiceSource, what: str | None = None) -> RollOutcome:
    """One required roll of a wound: 3d6 against its target and what it grants
    (the step the exact odds enumerate, ``rules.sets.seed000.odds``). The roll is
    read through its failure and the conditions it grants only."""
    dice = roll(3, rng, reads=_Granted(req), what=what)
    total = sum(dice)
    return _outcome(req, dice, total, judge(total, req.target))


@dataclass(frozen=True, slots=True)
class _Granted:
    """What a required roll is read as: whether it failed (a later roll may wait
    on that) and the conditions it grants; a critical success or failure counts
    only through those."""

    req: RequiredRoll

    def __call__(self, total: int) -> tuple[bool, frozenset[Condition]]:
        outcome = judge(total, self.req.target)
        return not outcome.is_success, _outcome(self.req, (), total, outcome).conditions


def _outcome(req: RequiredRoll, dice: tuple[int, ...], total: int, outcome: Outcome) -> RollOutcome:
    got: set[Condition] = set()
    if not outcome.is_success:
        if not req.critical_only or outcome is Outcome.CRITICAL_FAILURE:
            got |= req.on_failure
        if outcome is Outcome.CRITICAL_FAILURE:
            got |= req.on_critical_failure
        if req.failure_margin is not None and (
            total - req.target >= req.failure_margin or outcome is Outcome.CRITICAL_FAILURE
        ):
            got |= req.on_failure_by
    return RollOutcome(req, dice, total, outcome, frozenset(got))


def wound_from(assessment: WoundAssessment, outcomes: Iterable[RollOutcome] = ()) -> Wound:
    """The lasting wound: the automatic conditions plus those of failed rolls."""
    outcomes = tuple(outcomes)
    conditions = set(assessment.automatic)
    crippled = assessment.crippling.limb if assessment.crippling else None
    for o in outcomes:
        conditions |= o.conditions
    crippled = crippled or _crippled_by_roll(outcomes)
    if crippled is not None:
        conditions.add(Condition.CRIPPLED)
    return Wound(
        system=assessment.system,
        location=assessment.location,
        label=assessment.label,
        side=assessment.side,
        injury=assessment.hp_loss,
        crippled=crippled,
        conditions=frozenset(conditions),
        citations=assessment.citations,
    )


def major_wound_roll(injury: int, victim: Victim) -> RequiredRoll | None:
    """Base rules (seed 000 is silent): a single wound of more than half the HP is a
    major wound; the victim rolls HT (+3 with a high pain threshold, -4 with a low
    one) or is stunned and knocked down. None for a lesser wound."""
    if injury <= Fraction(victim.hp, 2):
        return None
    pain = MAJOR_WOUND_PAIN.get(victim.pain, 0)
    extra = f", {pain:+d} for the {victim.pain.value} pain threshold" if pain else ""
    return RequiredRoll(
        RollKind.KNOCKDOWN,
        victim.ht + pain,
        BASE_MAJOR_WOUND,
        f"a major wound ({injury} injury, over HP/2): HT{extra} or stunned and knocked down",
        on_failure=frozenset({Condition.STUNNED, Condition.KNOCKED_DOWN}),
    )


def standing_roll_target(dx: int, *, acting: bool) -> int:
    """000 note 22: with a crippled leg or foot, roll DX every turn to stay
    standing, at DX-2 when attacking, moving or hit while moving."""
    return dx - 2 if acting else dx


# --------------------------------------------------------------------------- helpers


def injury_of(penetrating: int, multiplier: Fraction) -> int:
    """Penetrating damage times the multiplier, rounded down, at least 1 when
    anything penetrates (the family's rule, as ``rules.sets.seed000.damage.injury_from``)."""
    if penetrating <= 0:
        return 0
    return max(1, math.floor(penetrating * multiplier))


def crippling_minimum(hp: int, divisor: int) -> int:
    """The least whole injury that is "over HP/divisor"."""
    return hp // divisor + 1


def scale_penalty(value: int, factor: Fraction) -> int:
    """Multiply a (negative) penalty, rounding its size down."""
    return -math.floor(abs(value) * factor)


def shock_000(
    hp_loss: int, factor: Fraction, pain: PainThreshold, factor_citation: Citation = TABLE_000
) -> tuple[int, list[Step]]:
    """Seed 000's "stun penalty": the family's shock (-1 per point of injury, at
    most -4), times the location's factor, then halved (high pain threshold) or
    doubled (low) by "000 HIGH AND LOW PAIN THRESHOLD"."""
    if hp_loss <= 0:
        return 0, []
    steps = [Step(f"shock {-min(hp_loss, SHOCK_CAP)}", BASE_SHOCK)]
    value = -min(hp_loss, SHOCK_CAP)
    if factor != 1:
        value = scale_penalty(value, factor)
        text = f"stun penalties x{fraction_text(factor)} here: {value}"
        steps.append(Step(text, factor_citation))
    if pain is not PainThreshold.NORMAL:
        value = scale_stun_penalty(value, pain)
        how = "halves" if pain is PainThreshold.HIGH else "doubles"
        steps.append(Step(f"{pain.value} pain threshold {how} it: {value}", PAIN_000))
    return value, steps


def fraction_text(value: Fraction) -> str:
    """A multiplier or threshold as the steps print it: "2", "3/2" (never a decimal)."""
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def kind_000(damage_type: DamageType) -> DamageType:
    """Seed 000 names crushing, cutting ("slashing"), impaling and bullets; the
    piercing types of the model are the later family's names for bullets and
    small missiles, so its notes treat them as bullets."""
    return DamageType.BULLET if damage_type in PIERCING_TYPES else damage_type


# --------------------------------------------------------------------------- 000 specs


@dataclass(frozen=True, slots=True)
class Threshold:
    """A comparison on injury: ``over`` (strictly more than) or ``at_least``, of a
    number of points or of HP divided by ``hp_divisor`` (1 = HP)."""

    strict: bool
    points: int = 0
    hp_divisor: int | None = None

    def value(self, hp: int) -> Fraction:
        if self.hp_divisor is None:
            return Fraction(self.points)
        return Fraction(hp, self.hp_divisor)

    def reached(self, injury: int, hp: int) -> bool:
        limit = self.value(hp)
        return injury > limit if self.strict else injury >= limit

    def __str__(self) -> str:
        what = (
            str(self.points)
            if self.hp_divisor is None
            else ("HP" if self.hp_divisor == 1 else f"HP/{self.hp_divisor}")
        )
        return f"{'over' if self.strict else 'at least'} {what}"


def parse_threshold(value: object, strict: bool, where: str) -> Threshold:
    """ "HP/3", "HP" or a whole number of points."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise DataError(f"{where}: a threshold cannot be negative")
        return Threshold(strict, points=value)
    if isinstance(value, str):
        text = value.replace(" ", "").upper()
        if text == "HP":
            return Threshold(strict, hp_divisor=1)
        divisor = parse_digits(text[3:]) if text.startswith("HP/") else None
        if divisor is not None and divisor > 0:
            return Threshold(strict, hp_divisor=divisor)
    raise DataError(f"{where}: expected 'HP', 'HP/n' or a whole number, got {value!r:.40}")


def _threshold_from(obj: JSONObject, where: str) -> Threshold | None:
    if "over" in obj and "at_least" in obj:
        raise DataError(f"{where}: give either 'over' or 'at_least', not both")
    if "over" in obj:
        return parse_threshold(obj["over"], True, f"{where}.over")
    if "at_least" in obj:
        return parse_threshold(obj["at_least"], False, f"{where}.at_least")
    return None


def _types(obj: JSONObject, key: str, where: str) -> frozenset[DamageType] | None:
    if key not in obj:
        return None
    items = as_list(obj[key], f"{where}.{key}")
    return frozenset(as_enum(v, DamageType, f"{where}.{key}[{i}]") for i, v in enumerate(items))


def _conditions(obj: JSONObject, key: str, where: str) -> frozenset[Condition]:
    if key not in obj:
        return frozenset()
    items = as_list(obj[key], f"{where}.{key}")
    return frozenset(as_enum(v, Condition, f"{where}.{key}[{i}]") for i, v in enumerate(items))


@dataclass(frozen=True, slots=True)
class RollSpec:
    """A follow-up roll of a location: ``attribute + bonus`` (minus the injury
    when ``minus_injury``), made when the damage type, threshold and victim fit."""

    kind: RollKind
    note: int
    reason: str
    attribute: str = "HT"
    bonus: int = 5
    minus_injury: bool = True
    types: frozenset[DamageType] | None = None
    threshold: Threshold | None = None
    male_only: bool = False
    unless_chin_helm: bool = False
    on_failure: frozenset[Condition] = frozenset()
    on_critical_failure: frozenset[Condition] = frozenset()
    critical_only: bool = False
    exclude_types: frozenset[DamageType] = frozenset()


@dataclass(frozen=True, slots=True)
class AutoSpec:
    """A condition that follows without a roll once the threshold is reached."""

    condition: Condition
    threshold: Threshold
    note: int
    types: frozenset[DamageType] | None = None
    male_only: bool = False
    unless_chin_helm: bool = False


@dataclass(frozen=True, slots=True)
class CrippleSpec:
    """Major damage: injury over HP/divisor cripples ``limb``; with
    ``excess_lost`` the injury beyond the least crippling amount is lost."""

    limb: Limb
    divisor: int
    excess_lost: bool
    types: frozenset[DamageType] | None = None
    note: int | None = None  # None: the table's MAJOR DAMAGE column
    roll_note: int | None = None  # note 11: HT+5-injury or crippled anyway
    keep_hold: bool = False  # note 12: DX roll or drop what the hand holds


@dataclass(frozen=True, slots=True)
class DescribeSpec:
    """A narrative effect; ``threshold`` is read on injury, or on the damage past
    the armor when ``past_armor`` (note 3: the skull's DR does not stop it)."""

    note: int
    text: str
    types: frozenset[DamageType] | None = None
    threshold: Threshold | None = None
    past_armor: bool = False


@dataclass(frozen=True, slots=True)
class CavitySpec:
    """Notes 18/19: injury over the threshold enters the body cavity."""

    threshold: Threshold
    bleeding_bonus: int
    note: int


@dataclass(frozen=True, slots=True)
class BecomesSpec:
    """Note 5: an eye wound of these types over the threshold is a brain hit that
    the skull's DR does not stop."""

    location: str
    types: frozenset[DamageType]
    threshold: Threshold
    note: int


@dataclass(frozen=True, slots=True)
class OverflowSpec:
    """Note 14: basic damage past the armor beyond the threshold goes on into
    ``location`` (where that location's DR and multiplier apply)."""

    location: str
    threshold: Threshold
    note: int


@dataclass(frozen=True, slots=True)
class WoundSpec:
    """The wound rules of one seed 000 location (parsed from the JSON ``wound``
    object; see docs/hit-locations.md for the vocabulary)."""

    natural_dr: int = 0
    natural_dr_name: str = ""
    natural_dr_note: int | None = None
    wounding: Mapping[str, Fraction] = field(default_factory=lambda: MappingProxyType({}))
    wounding_note: int | None = None
    shock_factor: Fraction = Fraction(1)
    shock_factor_female: Fraction | None = None
    shock_note: int | None = None
    shock_only_in_cavity: bool = False
    hp_cap: Threshold | None = None
    cripple: CrippleSpec | None = None
    auto: tuple[AutoSpec, ...] = ()
    rolls: tuple[RollSpec, ...] = ()
    describe: tuple[DescribeSpec, ...] = ()
    armor_dr_delta: int = 0
    armor_delta_types: frozenset[DamageType] | None = None
    armor_delta_thrust_only: bool = False
    armor_note: int | None = None
    ignore_armor: bool = False
    allowed_types: frozenset[DamageType] | None = None
    no_swing: bool = False
    restriction_note: int | None = None
    cavity: CavitySpec | None = None
    organs: bool = False
    spine: Threshold | None = None
    becomes: BecomesSpec | None = None
    overflow: OverflowSpec | None = None


_ROLL_KEYS = (
    "kind",
    "note",
    "reason",
    "attribute",
    "bonus",
    "minus_injury",
    "types",
    "over",
    "at_least",
    "male_only",
    "unless_chin_helm",
    "on_failure",
    "on_critical_failure",
    "critical_only",
    "exclude_types",
)


def parse_wound_spec(data: object, where: str) -> WoundSpec:
    """Parse one location's ``wound`` object."""
    obj = as_object(data, where)
    check_keys(
        obj,
        where,
        (),
        (
            "natural_dr",
            "wounding",
            "shock",
            "hp_cap",
            "cripple",
            "auto",
            "rolls",
            "describe",
            "armor",
            "restrict",
            "cavity",
            "organs",
            "spine",
            "becomes",
            "overflow",
        ),
    )
    kw: dict[str, object] = {}
    if "natural_dr" in obj:
        nd = as_object(obj["natural_dr"], f"{where}.natural_dr")
        check_keys(nd, f"{where}.natural_dr", ("dr", "name", "note"))
        kw["natural_dr"] = _non_negative(get_int(nd, "dr", f"{where}.natural_dr"), where)
        kw["natural_dr_name"] = get_str(nd, "name", f"{where}.natural_dr")
        kw["natural_dr_note"] = get_int(nd, "note", f"{where}.natural_dr")
    if "wounding" in obj:
        w = as_object(obj["wounding"], f"{where}.wounding")
        check_keys(w, f"{where}.wounding", ("note", "multipliers"))
        mults = as_object(w["multipliers"], f"{where}.wounding.multipliers")
        parsed: dict[str, Fraction] = {}
        for k, v in mults.items():
            if k != "*":
                as_enum(k, DamageType, f"{where}.wounding.multipliers")
            parsed[k] = as_fraction(v, f"{where}.wounding.multipliers.{k}")
        kw["wounding"] = MappingProxyType(parsed)
        kw["wounding_note"] = get_int(w, "note", f"{where}.wounding")
    if "shock" in obj:
        s = as_object(obj["shock"], f"{where}.shock")
        check_keys(s, f"{where}.shock", ("factor", "note"), ("female", "only_in_cavity"))
        kw["shock_factor"] = as_fraction(s["factor"], f"{where}.shock.factor")
        kw["shock_note"] = get_int(s, "note", f"{where}.shock")
        if "female" in s:
            kw["shock_factor_female"] = as_fraction(s["female"], f"{where}.shock.female")
        kw["shock_only_in_cavity"] = get_bool(s, "only_in_cavity", f"{where}.shock", False)
    if "hp_cap" in obj:
        kw["hp_cap"] = parse_threshold(obj["hp_cap"], False, f"{where}.hp_cap")
    if "cripple" in obj:
        kw["cripple"] = _parse_cripple(obj["cripple"], f"{where}.cripple")
    if "auto" in obj:
        kw["auto"] = tuple(
            _parse_auto(a, f"{where}.auto[{i}]")
            for i, a in enumerate(as_list(obj["auto"], f"{where}.auto"))
        )
    if "rolls" in obj:
        kw["rolls"] = tuple(
            _parse_roll(r, f"{where}.rolls[{i}]")
            for i, r in enumerate(as_list(obj["rolls"], f"{where}.rolls"))
        )
    if "describe" in obj:
        kw["describe"] = tuple(
            _parse_describe(d, f"{where}.describe[{i}]")
            for i, d in enumerate(as_list(obj["describe"], f"{where}.describe"))
        )
    if "armor" in obj:
        a = as_object(obj["armor"], f"{where}.armor")
        check_keys(a, f"{where}.armor", ("note",), ("dr_delta", "types", "thrust_only", "ignore"))
        kw["armor_note"] = get_int(a, "note", f"{where}.armor")
        kw["armor_dr_delta"] = get_int(a, "dr_delta", f"{where}.armor", 0)
        kw["armor_delta_types"] = _types(a, "types", f"{where}.armor")
        kw["armor_delta_thrust_only"] = get_bool(a, "thrust_only", f"{where}.armor", False)
        kw["ignore_armor"] = get_bool(a, "ignore", f"{where}.armor", False)
    if "restrict" in obj:
        r = as_object(obj["restrict"], f"{where}.restrict")
        check_keys(r, f"{where}.restrict", ("note",), ("types", "no_swing"))
        kw["restriction_note"] = get_int(r, "note", f"{where}.restrict")
        kw["allowed_types"] = _types(r, "types", f"{where}.restrict")
        kw["no_swing"] = get_bool(r, "no_swing", f"{where}.restrict", False)
    if "cavity" in obj:
        c = as_object(obj["cavity"], f"{where}.cavity")
        check_keys(c, f"{where}.cavity", ("over", "bleeding_bonus", "note"))
        kw["cavity"] = CavitySpec(
            parse_threshold(c["over"], True, f"{where}.cavity.over"),
            get_int(c, "bleeding_bonus", f"{where}.cavity"),
            get_int(c, "note", f"{where}.cavity"),
        )
    if "organs" in obj:
        kw["organs"] = get_bool(obj, "organs", where)
    if "spine" in obj:
        sp = as_object(obj["spine"], f"{where}.spine")
        check_keys(sp, f"{where}.spine", ("blow_through",))
        kw["spine"] = parse_threshold(sp["blow_through"], False, f"{where}.spine.blow_through")
    if "becomes" in obj:
        b = as_object(obj["becomes"], f"{where}.becomes")
        check_keys(b, f"{where}.becomes", ("location", "types", "over", "note"))
        types = _types(b, "types", f"{where}.becomes")
        kw["becomes"] = BecomesSpec(
            get_str(b, "location", f"{where}.becomes"),
            types if types is not None else frozenset(),
            parse_threshold(b["over"], True, f"{where}.becomes.over"),
            get_int(b, "note", f"{where}.becomes"),
        )
    if "overflow" in obj:
        o = as_object(obj["overflow"], f"{where}.overflow")
        check_keys(o, f"{where}.overflow", ("location", "over", "note"))
        kw["overflow"] = OverflowSpec(
            get_str(o, "location", f"{where}.overflow"),
            parse_threshold(o["over"], True, f"{where}.overflow.over"),
            get_int(o, "note", f"{where}.overflow"),
        )
    return WoundSpec(**kw)  # type: ignore[arg-type]


def _non_negative(value: int, where: str) -> int:
    if value < 0:
        raise DataError(f"{where}: must not be negative, got {value}")
    return value


def _parse_cripple(data: object, where: str) -> CrippleSpec:
    c = as_object(data, where)
    check_keys(
        c, where, ("limb", "divisor", "excess_lost"), ("types", "note", "roll_note", "keep_hold")
    )
    divisor = get_int(c, "divisor", where)
    if divisor < 1:
        raise DataError(f"{where}.divisor: must be at least 1")
    return CrippleSpec(
        limb=as_enum(c["limb"], Limb, f"{where}.limb"),
        divisor=divisor,
        excess_lost=get_bool(c, "excess_lost", where),
        types=_types(c, "types", where),
        note=get_int(c, "note", where) if "note" in c else None,
        roll_note=get_int(c, "roll_note", where) if "roll_note" in c else None,
        keep_hold=get_bool(c, "keep_hold", where, False),
    )


def _parse_auto(data: object, where: str) -> AutoSpec:
    a = as_object(data, where)
    check_keys(
        a,
        where,
        ("condition", "note"),
        ("over", "at_least", "types", "male_only", "unless_chin_helm"),
    )
    threshold = _threshold_from(a, where)
    if threshold is None:
        raise DataError(f"{where}: an automatic effect needs 'over' or 'at_least'")
    return AutoSpec(
        condition=as_enum(a["condition"], Condition, f"{where}.condition"),
        threshold=threshold,
        note=get_int(a, "note", where),
        types=_types(a, "types", where),
        male_only=get_bool(a, "male_only", where, False),
        unless_chin_helm=get_bool(a, "unless_chin_helm", where, False),
    )


def _parse_roll(data: object, where: str) -> RollSpec:
    r = as_object(data, where)
    check_keys(r, where, ("kind", "note", "reason"), _ROLL_KEYS)
    attribute = get_str(r, "attribute", where, "HT")
    if attribute not in ("HT", "DX"):
        raise DataError(f"{where}.attribute: expected 'HT' or 'DX', got {attribute!r}")
    exclude = _types(r, "exclude_types", where)
    return RollSpec(
        kind=as_enum(r["kind"], RollKind, f"{where}.kind"),
        note=get_int(r, "note", where),
        reason=get_str(r, "reason", where),
        attribute=attribute,
        bonus=as_int(r.get("bonus", 5), f"{where}.bonus"),
        minus_injury=get_bool(r, "minus_injury", where, True),
        types=_types(r, "types", where),
        threshold=_threshold_from(r, where),
        male_only=get_bool(r, "male_only", where, False),
        unless_chin_helm=get_bool(r, "unless_chin_helm", where, False),
        on_failure=_conditions(r, "on_failure", where),
        on_critical_failure=_conditions(r, "on_critical_failure", where),
        critical_only=get_bool(r, "critical_only", where, False),
        exclude_types=exclude if exclude is not None else frozenset(),
    )


def _parse_describe(data: object, where: str) -> DescribeSpec:
    d = as_object(data, where)
    check_keys(d, where, ("note", "text"), ("types", "over", "at_least", "past_armor"))
    return DescribeSpec(
        note=get_int(d, "note", where),
        text=get_str(d, "text", where),
        types=_types(d, "types", where),
        threshold=_threshold_from(d, where),
        past_armor=get_bool(d, "past_armor", where, False),
    )


# --------------------------------------------------------------------------- 000 engine


@dataclass(frozen=True, slots=True)
class LocationInfo:
    """What the 000 engine needs to know about a location besides its wound spec."""

    key: str
    label: str
    wound: WoundSpec


def _type_fits(types: frozenset[DamageType] | None, kind: DamageType, actual: DamageType) -> bool:
    return types is None or kind in types or actual in types


class _Build:
    """Mutable scratchpad while assembling an assessment."""

    def __init__(self) -> None:
        self.auto: set[Condition] = set()
        self.rolls: list[RequiredRoll] = []
        self.effects: list[Effect] = []
        self.steps: list[Step] = []

    def step(self, text: str, citation: Citation) -> None:
        self.steps.append(Step(text, citation))

    def add_roll(self, req: RequiredRoll) -> None:
        if any(r.kind is req.kind for r in self.rolls):
            return  # one roll per kind and wound, whichever note asked for it first
        self.rolls.append(req)


def assess_wound_000(
    locations: Mapping[str, LocationInfo],
    location_key: str,
    damage_type: DamageType,
    basic_damage: int,
    victim: Victim,
    *,
    armor_dr: int = 0,
    side: BodySide | None = None,
    swung: bool = False,
    from_back: bool = False,
    base_multiplier: Fraction,
    whole_blow: bool = True,
) -> WoundAssessment:
    """Assess a blow at a seed 000 location.

    ``swung`` tells a swing from a thrust or missile (the eye-slits take no swings;
    the armpit's armor weakness is for thrusts); ``from_back`` matters for the
    spine (note 17). ``base_multiplier`` is the damage type's ordinary wounding
    multiplier (the ruleset's wounding table, or the caller's override). A major
    wound (the whole blow's injury, wherever it went on) adds the knockdown roll
    last (``major_wound_roll``); ``whole_blow`` is False for a part of the blow
    (its overflow, the skull's brain), since the knockdown goes by the whole injury."""
    if location_key not in locations:
        raise IllegalAttackError(f"unknown seed 000 hit location {location_key!r}")
    if basic_damage < 0 or armor_dr < 0:
        raise RulesError("basic damage and armor DR cannot be negative")
    info = locations[location_key]
    spec = info.wound
    kind = kind_000(damage_type)
    b = _Build()
    _check_restrictions(info, damage_type, kind, swung)

    # Armor over the location.
    eff_armor = armor_dr
    if spec.ignore_armor:
        eff_armor = 0
        if armor_dr:
            b.step(f"armor DR {armor_dr} does not protect here", _cited(spec.armor_note))
    elif (
        armor_dr
        and spec.armor_dr_delta
        and _type_fits(spec.armor_delta_types, kind, damage_type)
        and not (spec.armor_delta_thrust_only and swung)
    ):
        eff_armor = max(0, armor_dr + spec.armor_dr_delta)
        b.step(
            f"armor DR {armor_dr} {spec.armor_dr_delta:+d} here: {eff_armor}",
            _cited(spec.armor_note),
        )
    after_armor = max(0, basic_damage - eff_armor)

    mult = _multiplier_000(spec, kind, damage_type, base_multiplier, b)
    overflow_basic = 0
    if spec.overflow is not None:
        limit = math.floor(spec.overflow.threshold.value(victim.hp))
        if after_armor > limit:
            overflow_basic = after_armor - limit
            b.step(
                f"{after_armor} past the armor: {limit} stay in the {info.label.lower()}, "
                f"{overflow_basic} go on to the {spec.overflow.location}",
                note_000(spec.overflow.note),
            )
            after_armor = limit

    location_dr = spec.natural_dr
    penetrating = max(0, after_armor - location_dr)
    if location_dr:
        b.step(f"{spec.natural_dr_name} DR {location_dr}", _cited(spec.natural_dr_note))
    injury = injury_of(penetrating, mult)
    if penetrating:
        b.step(f"{penetrating} penetrating x{fraction_text(mult)} = {injury} injury", TABLE_000)

    assessment = _finish_000(
        locations,
        info,
        spec,
        damage_type,
        kind,
        basic_damage,
        armor_dr,
        eff_armor,
        location_dr,
        penetrating,
        mult,
        injury,
        victim,
        side,
        from_back,
        after_armor,
        b,
    )
    if overflow_basic:
        assessment = _merge_overflow(
            locations,
            assessment,
            spec,
            damage_type,
            overflow_basic,
            victim,
            side,
            from_back,
            base_multiplier,
        )
    if (
        spec.becomes is not None
        and _type_fits(spec.becomes.types, kind, damage_type)
        and spec.becomes.threshold.reached(assessment.injury, victim.hp)
    ):
        assessment = _merge_becomes(
            locations,
            assessment,
            spec.becomes,
            damage_type,
            after_armor,
            victim,
            side,
            from_back,
            base_multiplier,
        )
    return _with_knockdown_roll(assessment, victim) if whole_blow else assessment


def _with_knockdown_roll(a: WoundAssessment, victim: Victim) -> WoundAssessment:
    """The whole blow's assessment with the major wound's knockdown roll added last."""
    if a.automatic & {Condition.UNCONSCIOUS, Condition.DEAD, Condition.DECAPITATED}:
        return a  # already down: nothing left to knock down
    knockdown = major_wound_roll(a.injury, victim)
    if knockdown is None or a.roll_of(RollKind.KNOCKDOWN) is not None:
        return a
    return replace(a, rolls=(*a.rolls, knockdown))


def _check_restrictions(
    info: LocationInfo, damage_type: DamageType, kind: DamageType, swung: bool
) -> None:
    spec = info.wound
    note = _cited(spec.restriction_note)
    if spec.allowed_types is not None and not _type_fits(spec.allowed_types, kind, damage_type):
        allowed = ", ".join(sorted(t.value for t in spec.allowed_types))
        raise IllegalAttackError(f"{info.label} can only be hit by {allowed} attacks ({note})")
    if spec.no_swing and swung:
        raise IllegalAttackError(f"{info.label} cannot be hit by a swing ({note})")


def _multiplier_000(
    spec: WoundSpec,
    kind: DamageType,
    damage_type: DamageType,
    base_multiplier: Fraction,
    b: _Build,
) -> Fraction:
    base = base_multiplier
    if damage_type in (DamageType.TOXIC, DamageType.FATIGUE) or not spec.wounding:
        return base
    for key in (damage_type.value, kind.value, "*"):
        if key in spec.wounding:
            mult = spec.wounding[key]
            if mult != base:
                b.step(
                    f"wounding multiplier x{fraction_text(mult)} here"
                    f" instead of x{fraction_text(base)}",
                    _cited(spec.wounding_note),
                )
            return mult
    return base


def _finish_000(
    locations: Mapping[str, LocationInfo],
    info: LocationInfo,
    spec: WoundSpec,
    damage_type: DamageType,
    kind: DamageType,
    basic_damage: int,
    armor_dr: int,
    eff_armor: int,
    location_dr: int,
    penetrating: int,
    mult: Fraction,
    injury: int,
    victim: Victim,
    side: BodySide | None,
    from_back: bool,
    after_armor: int,
    b: _Build,
) -> WoundAssessment:
    hp = victim.hp
    hp_loss = injury
    crippling: Crippling | None = None
    cavity = False
    shock_factor = Fraction(1)
    if injury > 0:
        # Major damage: crippling and excess lost.
        cs = spec.cripple
        if cs is not None and _type_fits(cs.types, kind, damage_type):
            limit = Fraction(hp, cs.divisor)
            cite_c = note_000(cs.note) if cs.note else MAJOR_DAMAGE_000
            if injury > limit:
                lost = 0
                if cs.excess_lost:
                    keep = crippling_minimum(hp, cs.divisor)
                    lost = max(0, injury - keep)
                    hp_loss = min(hp_loss, keep)
                crippling = Crippling(cs.limb, side, limit, lost, cite_c)
                b.auto.add(Condition.CRIPPLED)
                b.step(
                    f"injury {injury} over HP/{cs.divisor} ({fraction_text(limit)}) cripples the "
                    f"{cs.limb.value}" + (f"; {lost} excess lost" if lost else ""),
                    cite_c,
                )
            elif cs.roll_note is not None:
                b.add_roll(
                    RequiredRoll(
                        RollKind.CRIPPLING,
                        victim.ht + 5 - injury,
                        note_000(cs.roll_note),
                        f"HT+5-{injury} or the {cs.limb.value} is crippled",
                        on_failure=frozenset({Condition.CRIPPLED}),
                        limb=cs.limb,
                    )
                )
            if cs.keep_hold and (crippling is not None or cs.roll_note is not None):
                b.add_roll(
                    RequiredRoll(
                        RollKind.KEEP_HOLD,
                        victim.dx,
                        note_000(12),
                        "DX or drop whatever the crippled hand holds",
                        on_failure=frozenset({Condition.DROPPED_ITEM}),
                        requires_failed=None if crippling is not None else RollKind.CRIPPLING,
                    )
                )
        if spec.hp_cap is not None:
            cap = math.floor(spec.hp_cap.value(hp))
            if hp_loss > cap:
                b.step(
                    f"injury over {fraction_text(spec.hp_cap.value(hp))} is lost: {cap} counts",
                    MAJOR_DAMAGE_000,
                )
                hp_loss = cap
        # Automatic conditions.
        for a in spec.auto:
            if not _type_fits(a.types, kind, damage_type):
                continue
            if (a.male_only and not victim.male) or (
                a.unless_chin_helm and victim.chin_padded_helm
            ):
                continue
            if a.threshold.reached(injury, hp):
                b.auto.add(a.condition)
                b.step(f"injury {a.threshold}: {a.condition.value}", note_000(a.note))
        # Rolls from the data.
        for r in spec.rolls:
            req = _roll_from_spec(r, kind, damage_type, injury, victim)
            if req is not None:
                if req.kind is RollKind.KNOCKOUT and Condition.UNCONSCIOUS in b.auto:
                    continue
                b.add_roll(req)
        # Body cavity (notes 18 and 19).
        if spec.cavity is not None and spec.cavity.threshold.reached(injury, hp):
            cavity = True
            c_note = note_000(spec.cavity.note)
            b.step(f"injury {spec.cavity.threshold}: the body cavity is entered", c_note)
            b.add_roll(
                RequiredRoll(
                    RollKind.SEVERE_BLEEDING,
                    victim.ht + spec.cavity.bleeding_bonus - injury,
                    c_note,
                    f"HT+{spec.cavity.bleeding_bonus}-{injury} or severe bleeding",
                    on_failure=frozenset({Condition.SEVERE_BLEEDING}),
                )
            )
            b.add_roll(
                RequiredRoll(
                    RollKind.PERFORATION,
                    victim.ht + 5 - injury,
                    note_000(18),
                    f"HT+5-{injury} or perforation of stomach, gall bladder, bowel or bladder",
                    on_failure=frozenset({Condition.PERFORATION}),
                )
            )
            b.add_roll(
                RequiredRoll(
                    RollKind.INFECTION,
                    victim.ht - 5,
                    note_000(18),
                    "HT-5 or the perforation is infected",
                    on_failure=frozenset({Condition.INFECTION}),
                    requires_failed=RollKind.PERFORATION,
                )
            )
        if spec.organs:
            _organ_rolls(damage_type, kind, injury, victim, b)
        if spec.spine is not None:
            _spine(spec.spine, from_back, kind, after_armor - location_dr, victim, b)
        # Stun (shock) penalty.
        if spec.shock_factor != 1 and (not spec.shock_only_in_cavity or cavity):
            shock_factor = spec.shock_factor
            if spec.shock_factor_female is not None and not victim.male:
                shock_factor = spec.shock_factor_female
    for d in spec.describe:
        amount = after_armor if d.past_armor else injury
        if amount <= 0 or not _type_fits(d.types, kind, damage_type):
            continue
        if d.threshold is None or d.threshold.reached(amount, hp):
            b.effects.append(Effect(d.text, note_000(d.note)))
    shock_citation = note_000(spec.shock_note) if spec.shock_note is not None else None
    shock, shock_steps = shock_000(hp_loss, shock_factor, victim.pain, shock_citation or TABLE_000)
    return WoundAssessment(
        system=SEED_000,
        location=info.key,
        label=info.label,
        side=side,
        damage_type=damage_type,
        basic_damage=basic_damage,
        armor_dr=armor_dr,
        effective_armor_dr=eff_armor,
        location_dr=location_dr,
        penetrating=penetrating,
        multiplier=mult,
        injury=injury,
        hp_loss=hp_loss,
        crippling=crippling,
        automatic=frozenset(b.auto),
        rolls=tuple(b.rolls),
        shock_penalty=shock,
        effects=tuple(b.effects),
        steps=tuple(b.steps),
        shock_factor=shock_factor,
        shock_steps=tuple(shock_steps),
        shock_citation=shock_citation if shock_factor != 1 else None,
    )


def _roll_from_spec(
    r: RollSpec, kind: DamageType, damage_type: DamageType, injury: int, victim: Victim
) -> RequiredRoll | None:
    if not _type_fits(r.types, kind, damage_type):
        return None
    if kind in r.exclude_types or damage_type in r.exclude_types:
        return None
    if r.threshold is not None and not r.threshold.reached(injury, victim.hp):
        return None
    if (r.male_only and not victim.male) or (r.unless_chin_helm and victim.chin_padded_helm):
        return None
    base = victim.ht if r.attribute == "HT" else victim.dx
    target = base + r.bonus - (injury if r.minus_injury else 0)
    formula = f"{r.attribute}{r.bonus:+d}" if r.bonus else r.attribute
    if r.minus_injury:
        formula += f"-{injury}"
    return RequiredRoll(
        r.kind,
        target,
        note_000(r.note),
        f"{formula} {r.reason}",
        on_failure=r.on_failure,
        on_critical_failure=r.on_critical_failure,
        critical_only=r.critical_only,
    )


def _organ_rolls(
    damage_type: DamageType, kind: DamageType, injury: int, victim: Victim, b: _Build
) -> None:
    """Note 16: a vitals wound risks each organ; one HT+5-injury roll per organ."""
    target = victim.ht + 5 - injury
    c = note_000(16)
    b.add_roll(
        RequiredRoll(
            RollKind.LUNG,
            target,
            c,
            "lung collapse: HT each minute or lose 1 fatigue",
            on_failure=frozenset({Condition.LUNG_COLLAPSE}),
        )
    )
    b.add_roll(
        RequiredRoll(
            RollKind.HEART,
            target,
            c,
            "heart: death in HT x 2d6 seconds",
            on_failure=frozenset({Condition.HEART_HIT}),
        )
    )
    if kind is not DamageType.IMPALING:
        b.add_roll(
            RequiredRoll(
                RollKind.LIVER,
                target,
                c,
                "liver shattered on a critical failure (not for impaling blows)",
                on_failure=frozenset({Condition.LIVER_SHATTERED}),
                critical_only=True,
            )
        )
    b.add_roll(
        RequiredRoll(
            RollKind.SPLEEN,
            target,
            c,
            "spleen damaged: internal bleeding",
            on_failure=frozenset({Condition.SPLEEN_DAMAGE}),
        )
    )


VERTEBRAE_DR = 2


def _spine(
    blow_through: Threshold,
    from_back: bool,
    kind: DamageType,
    past_location_dr: int,
    victim: Victim,
    b: _Build,
) -> None:
    """Note 17: a spine hit from the back (2+ damage past the location's DR), or
    from the front by an impaling or bullet wound whose penetrating damage comes
    within 3 of blowing through (HP in the torso, HP/2 in the neck or head); the
    vertebrae give DR 2."""
    c = note_000(17)
    if from_back:
        if past_location_dr < 2:
            return
    elif kind not in (DamageType.IMPALING, DamageType.BULLET) or (
        past_location_dr < blow_through.value(victim.hp) - 3
    ):
        return
    spine_damage = past_location_dr - VERTEBRAE_DR
    if spine_damage <= 0:
        b.effects.append(
            Effect("the spine is struck but the vertebrae stop it: a missile lodges there", c)
        )
        return
    b.add_roll(
        RequiredRoll(
            RollKind.PARALYSIS,
            victim.ht + 5 - spine_damage,
            c,
            f"HT+5-{spine_damage} (past the vertebrae's DR 2) or paralysis below the wound",
            on_failure=frozenset({Condition.PARALYZED}),
            on_critical_failure=frozenset({Condition.DEAD}),
        )
    )


def _merge_overflow(
    locations: Mapping[str, LocationInfo],
    first: WoundAssessment,
    spec: WoundSpec,
    damage_type: DamageType,
    overflow_basic: int,
    victim: Victim,
    side: BodySide | None,
    from_back: bool,
    base_multiplier: Fraction,
) -> WoundAssessment:
    assert spec.overflow is not None
    second = assess_wound_000(
        locations,
        spec.overflow.location,
        damage_type,
        overflow_basic,
        victim,
        side=side,
        from_back=from_back,
        base_multiplier=base_multiplier,
        whole_blow=False,
    )
    return _combine(
        first,
        second,
        victim,
        injury=first.injury + second.injury,
        hp_loss=first.hp_loss + second.hp_loss,
        penetrating=first.penetrating + second.penetrating,
        multiplier=first.multiplier,
    )


def _merge_becomes(
    locations: Mapping[str, LocationInfo],
    first: WoundAssessment,
    becomes: BecomesSpec,
    damage_type: DamageType,
    after_armor: int,
    victim: Victim,
    side: BodySide | None,
    from_back: bool,
    base_multiplier: Fraction,
) -> WoundAssessment:
    target = locations[becomes.location]
    # The skull's DR does not protect: assess the brain with its DR removed.
    bare = LocationInfo(target.key, target.label, _without_natural_dr(target.wound))
    second = assess_wound_000(
        {**locations, target.key: bare},
        target.key,
        damage_type,
        after_armor,
        victim,
        side=side,
        from_back=from_back,
        base_multiplier=base_multiplier,
        whole_blow=False,
    )
    note = note_000(becomes.note)
    merged = _combine(
        first,
        second,
        victim,
        injury=second.injury,
        hp_loss=second.hp_loss,
        penetrating=second.penetrating,
        multiplier=second.multiplier,
    )
    return _with_step(
        merged,
        Step(
            f"over {becomes.threshold.points} injury through the eye: a brain hit, "
            "the skull's DR does not protect",
            note,
        ),
    )


def _without_natural_dr(spec: WoundSpec) -> WoundSpec:
    return replace(spec, natural_dr=0, natural_dr_name="", natural_dr_note=None)


def _with_step(a: WoundAssessment, step: Step) -> WoundAssessment:
    return replace(a, steps=(*a.steps, step))


def _combine(
    first: WoundAssessment,
    second: WoundAssessment,
    victim: Victim,
    *,
    injury: int,
    hp_loss: int,
    penetrating: int,
    multiplier: Fraction,
) -> WoundAssessment:
    """One wound reaching two locations: union of effects, one roll per kind (the
    second location's roll wins where both ask: it is the deeper wound)."""
    rolls: dict[RollKind, RequiredRoll] = {r.kind: r for r in first.rolls}
    for r in second.rolls:
        rolls[r.kind] = r
    auto = first.automatic | second.automatic
    if Condition.UNCONSCIOUS in auto:
        rolls.pop(RollKind.KNOCKOUT, None)
    deeper = second if second.shock_factor >= first.shock_factor else first
    factor = deeper.shock_factor
    shock, shock_steps = shock_000(hp_loss, factor, victim.pain, deeper.shock_citation or TABLE_000)
    effects = tuple(dict.fromkeys((*first.effects, *second.effects)))
    return WoundAssessment(
        system=first.system,
        location=first.location,
        label=first.label,
        side=first.side,
        damage_type=first.damage_type,
        basic_damage=first.basic_damage,
        armor_dr=first.armor_dr,
        effective_armor_dr=first.effective_armor_dr,
        location_dr=first.location_dr + second.location_dr,
        penetrating=penetrating,
        multiplier=multiplier,
        injury=injury,
        hp_loss=hp_loss,
        crippling=first.crippling or second.crippling,
        automatic=auto,
        rolls=tuple(rolls.values()),
        shock_penalty=shock,
        effects=effects,
        steps=(
            *first.steps,
            *(Step(f"[{second.label}] {s.text}", s.citation) for s in second.steps),
        ),
        also_location=second.location,
        shock_factor=factor,
        shock_steps=tuple(shock_steps),
        shock_citation=deeper.shock_citation,
    )


__all__ = [
    "BodySide",
    "Condition",
    "Crippling",
    "Effect",
    "Limb",
    "PainThreshold",
    "RequiredRoll",
    "RollKind",
    "RollOutcome",
    "Step",
    "Victim",
    "Wound",
    "WoundAssessment",
    "WoundRolls",
    "WoundSpec",
    "assess_wound_000",
    "resolve_rolls",
    "wound_from",
]
