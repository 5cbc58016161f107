"""Damage by ST, weapon damage, DR, wounding and injury, and the injury states.

Seed 000 takes damage for granted, so these are the published 3rd-edition basics
of the family (cited ``BASE_DAMAGE`` and ``BASE_INJURY``):

* **Basic damage** comes from the wielder's ST (thrust or swing, the table in
  ``assets/rulesets/000/damage_by_st.json``) plus the weapon's adds. A roll whose
  minus would make it negative is 0: basic damage is never below 0.
* **Penetrating damage** is basic damage minus the armor's DR, never below 0. (DR
  is uniform over the body for now; hit-location armor comes later.)
* **Injury** is penetrating damage times the damage type's wounding multiplier,
  rounded down (cut x1.5, imp x2, cr x1; the piercing types, which 3rd edition
  lacks, take the 4th-edition values as a documented option in
  ``wounding.json``). Whatever penetrates does at least 1 injury: this keeps a
  1-point cut or impaling hit from rounding away, and only matters for pi- (x0.5).
* **States**: at 0 HP or less the victim rolls HT to stay conscious; at -1xHP and
  again at each further multiple (-2x, -3x, -4x) the victim rolls HT or dies, one
  roll for every threshold a single blow crosses; at -5xHP the victim is dead
  outright. The death rolls come first; a survivor still at 0 HP or less then
  rolls to stay conscious. The every-turn consciousness roll while at 0 HP or less
  is ``turn_start_consciousness`` for the battle's turn sequence.
* **Major wound**: a single blow of more than half the HP calls for an HT roll
  against knockdown and stun (``rules.sets.seed000.wound_effects.major_wound_roll``),
  after the HT rolls above, by a victim they left conscious. (A located wound
  rolls it among its own rolls, before them.)
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from rules.battle.model import Combatant, DamageBase, DamageSpec, DamageType, Status
from rules.core.citation import BASE_DAMAGE, BASE_INJURY, Citation
from rules.core.dice import Dice, DiceRoll, DiceSource, parse_dice, roll_dice, run_merged
from rules.core.errors import DataError, RulesError
from rules.core.jsondata import (
    JSONObject,
    as_enum,
    as_fraction,
    as_list,
    as_object,
    check_keys,
    get_citation,
    get_int,
    get_str,
)
from rules.core.quick_init import quick_init
from rules.sets.seed000.checks import SuccessRoll, success_roll
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.wound_effects import (
    RequiredRoll,
    RollOutcome,
    Victim,
    major_wound_roll,
    roll_required,
)

DEATH_THRESHOLD_MULTIPLES = (1, 2, 3, 4)  # HT roll or die at -1x .. -4x HP
DEAD_OUTRIGHT_MULTIPLE = 5  # dead at -5x HP


# --- damage by ST -------------------------------------------------------------


@dataclass(frozen=True)
class DamageRow:
    st: int
    thrust: Dice
    swing: Dice


@dataclass(frozen=True)
class DamageTable:
    """Thrust and swing by ST. Between listed rows the lower row applies; above
    the last row every further ``per_st`` ST adds ``add_dice`` dice."""

    rows: tuple[DamageRow, ...]  # ascending ST
    per_st: int
    add_dice: int
    citation: Citation = BASE_DAMAGE

    def row(self, st: int) -> DamageRow:
        if isinstance(st, bool) or not isinstance(st, int) or st < self.rows[0].st:
            raise RulesError(f"no damage for ST {st!r}: the table starts at ST {self.rows[0].st}")
        # The last row at or below ``st`` (every attack plan asks).
        found = self.rows[bisect.bisect_right(self._row_sts, st) - 1]
        steps = (st - found.st) // self.per_st if found is self.rows[-1] else 0
        if not steps:
            return found
        more = steps * self.add_dice
        return DamageRow(
            st,
            Dice(found.thrust.count + more, found.thrust.adds),
            Dice(found.swing.count + more, found.swing.adds),
        )

    @functools.cached_property
    def _row_sts(self) -> tuple[int, ...]:
        return tuple(r.st for r in self.rows)

    def thrust(self, st: int) -> Dice:
        return self.row(st).thrust

    def swing(self, st: int) -> Dice:
        return self.row(st).swing


def parse_damage_table(data: object) -> DamageTable:
    obj = as_object(data, "damage table")
    check_keys(obj, "damage table", ("rows", "beyond_last_row"), ("about", "citation"))
    rows: list[DamageRow] = []
    for i, raw in enumerate(as_list(obj["rows"], "damage table.rows")):
        where = f"damage table.rows[{i}]"
        row = as_object(raw, where)
        check_keys(row, where, ("st", "thrust", "swing"))
        st = get_int(row, "st", where)
        if st < 1 or (rows and st <= rows[-1].st):
            raise DataError(f"{where}.st: ST must be >= 1 and strictly ascending, got {st}")
        rows.append(DamageRow(st, _dice(row, "thrust", where), _dice(row, "swing", where)))
    if not rows:
        raise DataError("damage table.rows: the table is empty")
    beyond = as_object(obj["beyond_last_row"], "damage table.beyond_last_row")
    check_keys(beyond, "damage table.beyond_last_row", ("per_st", "add_dice"))
    per_st = get_int(beyond, "per_st", "damage table.beyond_last_row")
    add_dice = get_int(beyond, "add_dice", "damage table.beyond_last_row")
    if per_st < 1 or add_dice < 0:
        raise DataError("damage table.beyond_last_row: per_st >= 1 and add_dice >= 0 needed")
    return DamageTable(
        tuple(rows), per_st, add_dice, get_citation(obj, "citation", "damage table", BASE_DAMAGE)
    )


def _dice(obj: JSONObject, key: str, where: str) -> Dice:
    try:
        return parse_dice(get_str(obj, key, where))
    except DataError as exc:
        raise DataError(f"{where}.{key}: {exc}") from exc


def weapon_damage(spec: DamageSpec, st: int, table: DamageTable) -> Dice:
    """The dice of a weapon mode for a wielder of ``st``: thr/sw by ST plus adds,
    or the fixed dice (plus adds) of a FIXED mode."""
    if spec.base is DamageBase.THRUST:
        return table.thrust(st).plus(spec.adds)
    if spec.base is DamageBase.SWING:
        return table.swing(st).plus(spec.adds)
    if spec.fixed is None:
        raise RulesError("a fixed-damage mode needs its dice")
    return spec.fixed.plus(spec.adds)


# --- wounding -------------------------------------------------------------------


@dataclass(frozen=True)
class WoundingTable:
    multipliers: Mapping[DamageType, Fraction]
    minimum_injury: int = 1  # injury when anything penetrates
    citation: Citation = BASE_DAMAGE

    def multiplier(self, damage_type: DamageType) -> Fraction:
        try:
            return self.multipliers[damage_type]
        except KeyError:
            raise RulesError(f"no wounding multiplier for {damage_type.value}") from None


def parse_wounding_table(data: object) -> WoundingTable:
    obj = as_object(data, "wounding table")
    check_keys(
        obj,
        "wounding table",
        ("multipliers",),
        ("about", "citation", "minimum_injury_if_penetrating", "sources"),
    )
    raw = as_object(obj["multipliers"], "wounding table.multipliers")
    multipliers: dict[DamageType, Fraction] = {}
    for key, value in raw.items():
        where = f"wounding table.multipliers.{key}"
        kind = as_enum(key, DamageType, where)
        m = as_fraction(value, where)
        if m < 0:
            raise DataError(f"{where}: a multiplier must not be negative")
        multipliers[kind] = m
    minimum = get_int(obj, "minimum_injury_if_penetrating", "wounding table", 1)
    if minimum < 0:
        raise DataError("wounding table.minimum_injury_if_penetrating must be >= 0")
    return WoundingTable(
        MappingProxyType(multipliers),
        minimum,
        get_citation(obj, "citation", "wounding table", BASE_DAMAGE),
    )


def penetrating_damage(basic: int, dr: int) -> int:
    """Basic damage minus DR, never below 0."""
    if dr < 0:
        raise RulesError(f"DR cannot be negative, got {dr}")
    return max(0, basic - dr)


def injury_from(penetrating: int, multiplier: Fraction, minimum: int = 1) -> int:
    """Penetrating damage times the wounding multiplier, rounded down; at least
    ``minimum`` when anything penetrated."""
    if penetrating <= 0:
        return 0
    return max(minimum, math.floor(penetrating * multiplier))


# --- injury states --------------------------------------------------------------


class StatusCheck(Enum):
    CONSCIOUSNESS = "stay conscious"
    DEATH = "avoid death"


@dataclass(frozen=True)
class StatusRoll:
    """An HT roll forced by injury, at the HP threshold that caused it."""

    check: StatusCheck
    threshold: int  # 0 for consciousness, -k x HP for death rolls
    roll: SuccessRoll
    citation: Citation = BASE_INJURY

    def __str__(self) -> str:
        verdict = "passed" if self.roll.succeeded else "failed"
        return f"HT roll to {self.check.value} at {self.threshold} HP: {self.roll} ({verdict})"


def injury_status(
    hp_before: int,
    hp_after: int,
    max_hp: int,
    ht: int,
    status: Status,
    rng: DiceSource,
    *,
    who: str | None = None,
) -> tuple[Status, tuple[StatusRoll, ...], bool]:
    """The state after a wound took HP from ``hp_before`` to ``hp_after``
    (``who``: the victim's name, for HT rolls entered at the table).

    Returns ``(status, rolls, killed_outright)``. No rolls when nothing was lost
    or the victim is already dead.
    """
    if max_hp < 1:
        raise RulesError(f"maximum HP must be at least 1, got {max_hp}")
    if status is Status.DEAD or hp_after >= hp_before:
        return status, (), False
    if hp_after <= -DEAD_OUTRIGHT_MULTIPLE * max_hp:
        return Status.DEAD, (), True
    rolls: list[StatusRoll] = []
    for k in DEATH_THRESHOLD_MULTIPLES:
        threshold = -k * max_hp
        if hp_before > threshold >= hp_after:
            r = StatusRoll(StatusCheck.DEATH, threshold, success_roll(ht, rng, what=_ht(who, k)))
            rolls.append(r)
            if not r.roll.succeeded:
                return Status.DEAD, tuple(rolls), False
    if hp_after <= 0 and status in (Status.ACTIVE, Status.STUNNED):
        r = StatusRoll(StatusCheck.CONSCIOUSNESS, 0, success_roll(ht, rng, what=_ht(who)))
        rolls.append(r)
        if not r.roll.succeeded:
            status = Status.UNCONSCIOUS
    return status, tuple(rolls), False


@dataclass(frozen=True, slots=True)
class StatusRolled:
    """The HT rolls after an injury and the state they leave (``injury_status``),
    and the knockdown roll of a major wound, if one was made."""

    status: Status
    rolls: tuple[StatusRoll, ...]
    killed_outright: bool
    knockdown: RollOutcome | None = None


@dataclass(frozen=True, slots=True)
class StatusRolls:
    """``injury_status`` (and, with ``major``, the major wound's knockdown roll
    while the victim still stands) as a merged step (``rules.core.dice.run_merged``):
    what follows reads the state, whether the wound killed outright and whether
    the knockdown roll failed (he falls), not the rolls (the log's)."""

    hp_before: int
    hp_after: int
    max_hp: int
    ht: int
    status: Status
    who: str | None = None
    major: RequiredRoll | None = None

    def __call__(self, rng: DiceSource) -> StatusRolled:
        status, rolls, outright = injury_status(
            self.hp_before, self.hp_after, self.max_hp, self.ht, self.status, rng, who=self.who
        )
        knockdown = None
        major = self.major
        if major is not None and status in (Status.ACTIVE, Status.STUNNED):
            who = self.who
            roll_name = None if who is None else f"{who}'s roll to {major.kind.value}"
            knockdown = roll_required(major, rng, roll_name)
            if knockdown.failed:
                status = Status.STUNNED
        return StatusRolled(status, rolls, outright, knockdown)

    def reads(self, result: StatusRolled) -> Hashable:
        knocked_down = result.knockdown is not None and result.knockdown.failed  # he falls
        return result.status, result.killed_outright, knocked_down


def _ht(who: str | None, death_multiple: int | None = None) -> str | None:
    """An HT roll's name for dice entered at the table (None: nobody asks)."""
    if who is None:
        return None
    if death_multiple is None:
        return f"{who}'s HT roll to stay conscious"
    return f"{who}'s HT roll to avoid death (at -{death_multiple} x HP)"


def turn_start_consciousness(c: Combatant, rng: DiceSource) -> tuple[Combatant, StatusRoll | None]:
    """The every-turn HT roll of a conscious combatant at 0 HP or less."""
    if c.hp > 0 or c.status not in (Status.ACTIVE, Status.STUNNED):
        return c, None
    ht = sheet_of(c).attributes.ht
    r = StatusRoll(StatusCheck.CONSCIOUSNESS, 0, success_roll(ht, rng, what=_ht(c.name)))
    if r.roll.succeeded:
        return c, r
    return c.evolve(status=Status.UNCONSCIOUS), r


# --- a whole damage roll -------------------------------------------------------


@quick_init
@dataclass(frozen=True)
class DamageResult:
    """Every step from the damage dice to the victim's new state."""

    dice: Dice
    roll: DiceRoll
    damage_type: DamageType
    basic: int
    dr: int
    penetrating: int
    multiplier: Fraction
    injury: int
    hp_before: int
    hp_after: int
    max_hp: int
    status_before: Status
    status_after: Status
    status_rolls: tuple[StatusRoll, ...] = ()
    killed_outright: bool = False
    citation: Citation = BASE_DAMAGE
    # A major wound's HT roll against knockdown and stun (None: no major wound, or
    # a located wound, whose rolls are its own).
    knockdown: RollOutcome | None = None

    def apply_to(self, c: Combatant) -> Combatant:
        return c.evolve(hp=self.hp_after, status=self.status_after)

    def __str__(self) -> str:
        mult = "" if self.multiplier == 1 else f" x{_fraction_text(self.multiplier)}"
        # a reduced blow (a broken weapon's half damage, a flying piece's)
        scaled = "" if self.basic == self.roll.total else f", reduced to {self.basic}"
        return (
            f"{self.roll} {self.damage_type.value}{scaled}; DR {self.dr} -> {self.penetrating} "
            f"penetrating{mult} = {self.injury} injury; HP {self.hp_before} -> {self.hp_after}"
        )


def _fraction_text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}"


def roll_damage(
    dice: Dice,
    damage_type: DamageType,
    target: Combatant,
    rng: DiceSource,
    wounding: WoundingTable,
    *,
    factor: Fraction = Fraction(1),
    what: str | None = None,
) -> DamageResult:
    """Roll ``dice`` of ``damage_type`` against ``target``'s armor DR and apply
    the injury and its state rolls (the combatant itself is not changed; use
    ``DamageResult.apply_to``). ``factor`` scales the basic damage, rounded down,
    before DR: "1/2 damage" from a flying piece (``rules.battle.scatter``).
    ``what`` names the damage roll for dice entered at the table; the HT rolls
    then name ``target``."""
    rolled = roll_dice(dice, rng, minimum=0, what=what)
    basic = rolled.total if factor == 1 else math.floor(rolled.total * factor)
    armor = target.fighter.armor
    dr = armor.dr if armor is not None else 0
    pen = penetrating_damage(basic, dr)
    mult = wounding.multiplier(damage_type)
    inj = injury_from(pen, mult, wounding.minimum_injury)
    hp_after = target.hp - inj
    who = None if what is None else target.name
    rolled_state = run_merged(
        rng,
        StatusRolls(
            target.hp,
            hp_after,
            target.fighter.hit_points,
            sheet_of(target).attributes.ht,
            target.status,
            who,
            major_wound_roll(inj, Victim.of(target.fighter)),
        ),
    )
    return DamageResult(
        dice=dice,
        roll=rolled,
        damage_type=damage_type,
        basic=basic,
        dr=dr,
        penetrating=pen,
        multiplier=mult,
        injury=inj,
        hp_before=target.hp,
        hp_after=hp_after,
        max_hp=target.fighter.hit_points,
        status_before=target.status,
        status_after=rolled_state.status,
        status_rolls=rolled_state.rolls,
        killed_outright=rolled_state.killed_outright,
        knockdown=rolled_state.knockdown,
    )
