"""Critical misses: confirming them (000 VERIFYING CRITICAL MISSES, 000 AVOIDING
CRITICAL MISSES WITH HIGH SKILL), the critical miss table a fumbled parry goes to,
and the consequences of a fumbled defense (000 CRITICAL MISSES ON DEFENSE ROLLS).

* ``confirm_critical_miss``: a reliable weapon first rolls against basic skill (a
  success makes it a normal miss); then a fighter with basic skill over 15 rolls
  against basic skill - 13 (a success makes it a normal miss). "Roll under" is read
  as the family's usual roll-under success (at most the target; 3-4 always
  succeed, 17-18 always fail).
* ``roll_critical_miss``: the 3rd-edition Critical Miss Table (data in
  ``critical_miss_table.json``, cited "base: critical miss table"); returns a typed
  consequence. ``critical_miss_distribution`` gives the exact chances.
* ``defense_critical_miss``: dodge -> DX roll (fail: fall prone; success: the GM's
  choice of sitting or off-balance, default off-balance), block -> shield grip lost
  or a small shield dropped, parry -> the critical miss table (or, when the parried
  weapon weighed 3x yours, the weapon simply breaks: see ``rules.sets.seed000.breakage``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Protocol

from rules.battle.model import DamageType, Quality, Shield, Weapon, WeaponKind
from rules.battle.pieces import (
    AT_FEET,
    DirectionRule,
    DistanceDice,
    Piece,
    Placement,
    PlacementKind,
    landing_read,
    piece_read,
)
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, distribution, roll, run_merged
from rules.core.errors import DataError, IllegalAttackError
from rules.core.jsondata import (
    as_enum,
    as_fraction,
    as_int,
    as_list,
    as_object,
    check_keys,
    get_str,
)
from rules.core.memo_keys import ByIdentity
from rules.sets.seed000.breakage import (
    BreakResult,
    BrokenWeaponTable,
    ParryBreakRule,
    ParryResult,
    WeaponBreaks,
    break_weapon,
    parry_break_chance,
)
from rules.sets.seed000.checks import SuccessRoll, success_probability, success_roll
from rules.sets.seed000.conditions import Posture
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.weapon_strikes import BladeTable

VERIFYING_000 = cite("000", "VERIFYING CRITICAL MISSES")
AVOIDING_000 = cite("000", "AVOIDING CRITICAL MISSES WITH HIGH SKILL")
DEFENSE_MISSES_000 = cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
DODGE_000 = cite("000", "DODGE")
BLOCK_000 = cite("000", "BLOCK")
PARRY_000 = cite("000", "PARRY")
HIGH_SKILL = 15  # "skill over 15"
HIGH_SKILL_OFFSET = 13  # roll against basic skill - 13


# ---------------------------------------------------------------------------
# Confirming a critical miss
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CriticalMissCheck:
    basic_skill: int
    verification: SuccessRoll | None  # reliable weapons only
    avoidance: SuccessRoll | None  # basic skill over 15 only
    happens: bool
    citations: tuple[Citation, ...]


def confirm_critical_miss(
    basic_skill: int, rng: DiceSource, *, reliable: bool = False, what: str | None = None
) -> CriticalMissCheck:
    """Does a rolled critical miss really happen? Rolls as described above; a roll
    is made only when its rule applies and the miss still stands. ``what``: the
    attack roll's name, for dice entered at the table."""
    citations: list[Citation] = []
    verification: SuccessRoll | None = None
    avoidance: SuccessRoll | None = None
    happens = True
    if reliable:
        verification = success_roll(
            basic_skill, rng, what=None if what is None else f"{what}: verifying the critical miss"
        )
        citations.append(VERIFYING_000)
        happens = not verification.succeeded
    if happens and basic_skill > HIGH_SKILL:
        avoidance = success_roll(
            basic_skill - HIGH_SKILL_OFFSET,
            rng,
            what=None if what is None else f"{what}: avoiding the critical miss",
        )
        citations.append(AVOIDING_000)
        happens = not avoidance.succeeded
    return CriticalMissCheck(basic_skill, verification, avoidance, happens, tuple(citations))


def critical_miss_happens_probability(basic_skill: int, *, reliable: bool = False) -> Fraction:
    """Exact chance that ``confirm_critical_miss`` lets the critical miss stand."""
    p = Fraction(1)
    if reliable:
        p *= 1 - success_probability(basic_skill)
    if basic_skill > HIGH_SKILL:
        p *= 1 - success_probability(basic_skill - HIGH_SKILL_OFFSET)
    return p


# ---------------------------------------------------------------------------
# The critical miss table: data
# ---------------------------------------------------------------------------


class MissEffect(Enum):
    NOTHING = "NOTHING"
    DROP_WEAPON = "DROP_WEAPON"
    WEAPON_BREAKS = "WEAPON_BREAKS"
    WEAPON_FLIES = "WEAPON_FLIES"
    UNREADY = "UNREADY"
    LOSE_BALANCE = "LOSE_BALANCE"
    FALL = "FALL"
    HIT_SELF = "HIT_SELF"
    STRAIN = "STRAIN"


class Condition(Enum):
    SOLID_CRUSHING_OR_FINE = "solid_crushing_or_fine"
    IMPALING_OR_MISSILE = "impaling_or_missile"
    CHEAP = "cheap"
    NOT_SWINGING = "not_swinging"
    MISSILE = "missile"


class ExceptionAction(Enum):
    CONFIRM_BREAK = "confirm_break"
    REROLL = "reroll"
    REPLACE = "replace"


@dataclass(frozen=True, slots=True)
class Params:
    damage_factor: Fraction | None = None
    defense_modifier: int = 0
    turns: int = 0
    minutes: int = 0
    dice: DistanceDice | None = None
    stray_hit_factor: Fraction | None = None


@dataclass(frozen=True, slots=True)
class MissException:
    condition: Condition
    action: ExceptionAction
    effect: MissEffect | None  # CONFIRM_BREAK: the effect when not confirmed
    key: str | None
    text: str
    params: Params


@dataclass(frozen=True, slots=True)
class MissRow:
    rolls: frozenset[int]
    key: str
    effect: MissEffect
    text: str
    params: Params
    exceptions: tuple[MissException, ...]


@dataclass(frozen=True, slots=True)
class CriticalMissTable:
    rows: tuple[MissRow, ...]
    solid_crushing_kinds: frozenset[WeaponKind]
    citation: Citation

    def row(self, total: int) -> MissRow:
        for row in self.rows:
            if total in row.rolls:
                return row
        raise DataError(f"critical miss table has no row for {total}")


def _params(obj: Mapping[str, object], where: str) -> Params:
    return Params(
        damage_factor=as_fraction(obj["damage_factor"], f"{where}.damage_factor")
        if "damage_factor" in obj
        else None,
        defense_modifier=as_int(obj.get("defense_modifier", 0), f"{where}.defense_modifier"),
        turns=as_int(obj.get("turns", 0), f"{where}.turns"),
        minutes=as_int(obj.get("minutes", 0), f"{where}.minutes"),
        dice=DistanceDice.parse(get_str(obj, "dice", where)) if "dice" in obj else None,
        stray_hit_factor=as_fraction(obj["stray_hit_factor"], f"{where}.stray_hit_factor")
        if "stray_hit_factor" in obj
        else None,
    )


_PARAM_KEYS = ("damage_factor", "defense_modifier", "turns", "minutes", "dice", "stray_hit_factor")


def load_critical_miss_table(data: object) -> CriticalMissTable:
    """Pure loader for ``critical_miss_table.json``: every 3d6 total 3..18 must be in
    exactly one row."""
    where = "critical_miss_table"
    obj = as_object(data, where)
    check_keys(obj, where, ("citation", "solid_crushing_kinds", "results"), ("about",))
    cit = as_object(obj["citation"], f"{where}.citation")
    check_keys(cit, f"{where}.citation", ("seed", "heading"))
    rows: list[MissRow] = []
    seen: dict[int, str] = {}
    for i, raw in enumerate(as_list(obj["results"], f"{where}.results")):
        w = f"{where}.results[{i}]"
        entry = as_object(raw, w)
        check_keys(entry, w, ("rolls", "key", "effect", "text"), ("exceptions", *_PARAM_KEYS))
        key = get_str(entry, "key", w)
        rolls = frozenset(as_int(r, f"{w}.rolls") for r in as_list(entry["rolls"], f"{w}.rolls"))
        for r in rolls:
            if not 3 <= r <= 18:
                raise DataError(f"{w}.rolls: {r} is no 3d6 total")
            if r in seen:
                raise DataError(f"{w}.rolls: {r} already in {seen[r]!r}")
            seen[r] = key
        exceptions: list[MissException] = []
        for j, eraw in enumerate(as_list(entry.get("exceptions", []), f"{w}.exceptions")):
            ew = f"{w}.exceptions[{j}]"
            exc = as_object(eraw, ew)
            check_keys(exc, ew, ("if", "then"), ("effect", "key", "text", *_PARAM_KEYS))
            action = as_enum(exc["then"], ExceptionAction, f"{ew}.then")
            if action is not ExceptionAction.REROLL and not ("effect" in exc and "key" in exc):
                raise DataError(f"{ew}: {action.value} needs an effect and a key")
            exceptions.append(
                MissException(
                    condition=as_enum(exc["if"], Condition, f"{ew}.if"),
                    action=action,
                    effect=as_enum(exc["effect"], MissEffect, f"{ew}.effect")
                    if "effect" in exc
                    else None,
                    key=get_str(exc, "key", ew) if "key" in exc else None,
                    text=get_str(exc, "text", ew) if "text" in exc else "",
                    params=_params(exc, ew),
                )
            )
        rows.append(
            MissRow(
                rolls=rolls,
                key=key,
                effect=as_enum(entry["effect"], MissEffect, f"{w}.effect"),
                text=get_str(entry, "text", w),
                params=_params(entry, w),
                exceptions=tuple(exceptions),
            )
        )
    missing = sorted(set(range(3, 19)) - set(seen))
    if missing:
        raise DataError(f"{where}.results: no row for {missing}")
    return CriticalMissTable(
        rows=tuple(rows),
        solid_crushing_kinds=frozenset(
            as_enum(k, WeaponKind, f"{where}.solid_crushing_kinds")
            for k in as_list(obj["solid_crushing_kinds"], f"{where}.solid_crushing_kinds")
        ),
        citation=Citation(get_str(cit, "seed", where), get_str(cit, "heading", where)),
    )


class FumbleTables(Protocol):
    """The ruleset's tables a fumble reads (``Tables`` is one): the critical miss
    table, the broken-weapon table its "weapon breaks" rows roll, and the blade
    table that decides whether a fumbled parry simply breaks the weapon."""

    @property
    def critical_misses(self) -> CriticalMissTable: ...

    @property
    def broken_weapons(self) -> BrokenWeaponTable: ...

    @property
    def blade_breaking(self) -> BladeTable: ...


# ---------------------------------------------------------------------------
# Resolving the table
# ---------------------------------------------------------------------------


class MissAction(Enum):
    """What the fumbling fighter was doing."""

    SWING = "swing"
    THRUST = "thrust"
    MISSILE = "missile"
    PARRY = "parry"


@dataclass(frozen=True, slots=True)
class MissContext:
    action: MissAction
    damage_type: DamageType | None = None  # of the attack, for the impaling exception


def _holds(
    condition: Condition, weapon: Weapon, context: MissContext, table: CriticalMissTable
) -> bool:
    if condition is Condition.SOLID_CRUSHING_OR_FINE:
        return weapon.kind in table.solid_crushing_kinds or weapon.quality in (
            Quality.FINE,
            Quality.VERY_FINE,
        )
    if condition is Condition.IMPALING_OR_MISSILE:
        return context.action is MissAction.MISSILE or (
            context.action in (MissAction.SWING, MissAction.THRUST)
            and context.damage_type is DamageType.IMPALING
        )
    if condition is Condition.CHEAP:
        return weapon.quality is Quality.CHEAP
    if condition is Condition.NOT_SWINGING:
        return context.action is not MissAction.SWING
    return context.action is MissAction.MISSILE


@dataclass(frozen=True, slots=True)
class _Final:
    key: str
    effect: MissEffect
    text: str
    params: Params


def _merge(base: Params, over: Params) -> Params:
    return Params(
        damage_factor=over.damage_factor if over.damage_factor is not None else base.damage_factor,
        defense_modifier=over.defense_modifier or base.defense_modifier,
        turns=over.turns or base.turns,
        minutes=over.minutes or base.minutes,
        dice=over.dice or base.dice,
        stray_hit_factor=over.stray_hit_factor
        if over.stray_hit_factor is not None
        else base.stray_hit_factor,
    )


def _step(
    row: MissRow, weapon: Weapon, context: MissContext, table: CriticalMissTable, allow_reroll: bool
) -> MissException | None:
    """The exception that applies to ``row``, if any (first matching)."""
    for exc in row.exceptions:
        if exc.action is ExceptionAction.REROLL and not allow_reroll:
            continue
        if _holds(exc.condition, weapon, context, table):
            return exc
    return None


def _resolve_exact(
    total: int, weapon: Weapon, context: MissContext, table: CriticalMissTable, allow_reroll: bool
) -> dict[str, Fraction]:
    row = table.row(total)
    exc = _step(row, weapon, context, table, allow_reroll)
    if exc is None:
        return {row.key: Fraction(1)}
    if exc.action is ExceptionAction.REPLACE:
        assert exc.key is not None
        return {exc.key: Fraction(1)}
    result: dict[str, Fraction] = {}
    for t2, p in distribution(3).items():
        if exc.action is ExceptionAction.CONFIRM_BREAK:
            assert exc.key is not None
            key = row.key if table.row(t2) is row else exc.key
            result[key] = result.get(key, Fraction(0)) + p
        else:
            for key, q in _resolve_exact(t2, weapon, context, table, False).items():
                result[key] = result.get(key, Fraction(0)) + p * q
    return result


def _resolve_roll(
    total: int,
    weapon: Weapon,
    context: MissContext,
    table: CriticalMissTable,
    allow_reroll: bool,
    rng: DiceSource,
    rolls: list[tuple[int, ...]],
    what: str | None,
) -> _Final:
    row = table.row(total)
    exc = _step(row, weapon, context, table, allow_reroll)
    if exc is None:
        return _Final(row.key, row.effect, row.text, row.params)
    if exc.action is ExceptionAction.REPLACE:
        assert exc.key is not None and exc.effect is not None
        return _Final(exc.key, exc.effect, exc.text or row.text, _merge(row.params, exc.params))
    confirming = exc.action is ExceptionAction.CONFIRM_BREAK
    again = "the table again" + (" (the same result breaks it)" if confirming else "")
    faces = roll(3, rng, what=None if what is None else f"{what}: {again}")
    rolls.append(faces)
    if confirming:
        assert exc.key is not None and exc.effect is not None
        if table.row(sum(faces)) is row:
            return _Final(row.key, row.effect, row.text, row.params)
        return _Final(exc.key, exc.effect, exc.text or row.text, _merge(row.params, exc.params))
    return _resolve_roll(sum(faces), weapon, context, table, False, rng, rolls, what)


# --- typed consequences -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WeaponDropped:
    piece: Piece  # at the wielder's feet


@dataclass(frozen=True, slots=True)
class WeaponBroken:
    result: BreakResult


@dataclass(frozen=True, slots=True)
class WeaponFlew:
    piece: Piece  # FLIES 1d6, forward or back; landing rolled
    dx_roll_to_avoid: bool = True  # whoever is where it lands rolls DX or is hit


@dataclass(frozen=True, slots=True)
class WeaponUnready:
    turns: int


@dataclass(frozen=True, slots=True)
class LostBalance:
    defense_modifier: int  # to active defenses until the next turn
    no_actions_until_next_turn: bool = True


@dataclass(frozen=True, slots=True)
class Fell:
    posture: Posture = Posture.PRONE


@dataclass(frozen=True, slots=True)
class HitSelf:
    location: str  # "arm" or "leg"
    location_die: int  # d6: 1-3 arm, 4-6 leg
    damage_factor: Fraction


@dataclass(frozen=True, slots=True)
class Strained:
    minutes: int  # weapon arm crippled; weapon kept but unusable


@dataclass(frozen=True, slots=True)
class NoMishap:
    pass


Consequence = (
    WeaponDropped
    | WeaponBroken
    | WeaponFlew
    | WeaponUnready
    | LostBalance
    | Fell
    | HitSelf
    | Strained
    | NoMishap
)


@dataclass(frozen=True, slots=True)
class CriticalMissResult:
    weapon: Weapon
    context: MissContext
    rolls: tuple[tuple[int, ...], ...]  # the 3d6 faces of each table roll, in order
    key: str  # the final result's key
    effect: MissEffect
    text: str
    consequence: Consequence
    citations: tuple[Citation, ...]

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(r) for r in self.rolls)


def _consequence(
    final: _Final,
    weapon: Weapon,
    rng: DiceSource,
    citation: Citation,
    broken: BrokenWeaponTable,
    who: str | None,
) -> Consequence:
    effect, params = final.effect, final.params
    if effect is MissEffect.DROP_WEAPON:
        return WeaponDropped(Piece(weapon.name, weapon, AT_FEET))
    if effect is MissEffect.WEAPON_BREAKS:
        return WeaponBroken(break_weapon(weapon, rng, table=broken, who=who))
    if effect is MissEffect.WEAPON_FLIES:
        placement = Placement(
            PlacementKind.FLIES,
            params.dice or DistanceDice(1),
            0,
            DirectionRule.FORWARD_OR_BACK,
            citation,
        )
        piece = Piece(
            weapon.name,
            weapon,
            placement,
            stray_hit_factor=params.stray_hit_factor,
            note="whoever is where it lands rolls DX or takes this share of its damage",
        )
        return WeaponFlew(piece.landed(rng, who or ""))
    if effect is MissEffect.UNREADY:
        return WeaponUnready(params.turns)
    if effect is MissEffect.LOSE_BALANCE:
        return LostBalance(params.defense_modifier)
    if effect is MissEffect.FALL:
        return Fell()
    if effect is MissEffect.HIT_SELF:
        what = (
            None
            if who is None
            else f"which of {who}'s own limbs the fumbled blow strikes (1-3 arm, 4-6 leg)"
        )
        die = roll(1, rng, what=what)[0]
        return HitSelf("arm" if die <= 3 else "leg", die, params.damage_factor or Fraction(1))
    if effect is MissEffect.STRAIN:
        return Strained(params.minutes)
    return NoMishap()


def _check_weapon(weapon: Weapon) -> None:
    if weapon.kind is WeaponKind.UNARMED:
        raise IllegalAttackError("bare-handed fumbles use another table")


def roll_critical_miss(
    weapon: Weapon,
    context: MissContext,
    rng: DiceSource,
    *,
    tables: FumbleTables,
    who: str | None = None,
) -> CriticalMissResult:
    """Roll 3d6 on the table, any re-rolls its exceptions call for, then the dice of
    the consequence (location die, landing, broken-weapon table). ``who``: the one
    who fumbled, for dice entered at the table."""
    _check_weapon(weapon)
    return run_merged(rng, CriticalMissRoll(weapon, context, ByIdentity(tables), who))


@dataclass(frozen=True, slots=True)
class CriticalMissRoll:
    """``roll_critical_miss`` as a merged step (``rules.core.dice.run_merged``):
    what follows reads the result and its consequence, not the table's faces or
    the faces of a landing (the log's)."""

    weapon: Weapon
    context: MissContext
    tables: ByIdentity[FumbleTables]
    who: str | None

    def __call__(self, rng: DiceSource) -> CriticalMissResult:
        return _roll_critical_miss(self.weapon, self.context, rng, self.tables.value, self.who)

    def reads(self, result: CriticalMissResult) -> Hashable:
        return result.key, result.effect, _consequence_read(result.consequence)

    def odds_reads(self, result: CriticalMissResult) -> Hashable:
        """What an attack's exact odds read of the fumble: ``reads`` without where
        a piece lands."""
        return result.key, result.effect, _consequence_read(result.consequence, landed=False)


def _consequence_read(consequence: Consequence, *, landed: bool = True) -> Hashable:
    if isinstance(consequence, (WeaponDropped, WeaponFlew)):
        piece = consequence.piece
        return type(consequence), landing_read(piece) if landed else piece_read(piece)
    if isinstance(consequence, WeaponBroken):
        result = consequence.result
        if not landed:
            return type(consequence), result.outcome, result.in_hand, tuple(
                piece_read(p) for p in result.pieces
            )
        return type(consequence), WeaponBreaks.reads_of(result)
    if isinstance(consequence, HitSelf):
        return type(consequence), consequence.location, consequence.damage_factor
    return consequence


def _roll_critical_miss(
    weapon: Weapon,
    context: MissContext,
    rng: DiceSource,
    tables: FumbleTables,
    who: str | None,
) -> CriticalMissResult:
    table = tables.critical_misses
    what = None if who is None else f"{who}'s critical miss with the {weapon.name} (the table)"
    rolls: list[tuple[int, ...]] = [roll(3, rng, what=what)]
    final = _resolve_roll(sum(rolls[0]), weapon, context, table, True, rng, rolls, what)
    consequence = _consequence(final, weapon, rng, table.citation, tables.broken_weapons, who)
    return CriticalMissResult(
        weapon=weapon,
        context=context,
        rolls=tuple(rolls),
        key=final.key,
        effect=final.effect,
        text=final.text,
        consequence=consequence,
        citations=(table.citation,),
    )


def critical_miss_distribution(
    weapon: Weapon, context: MissContext, *, table: CriticalMissTable
) -> Mapping[str, Fraction]:
    """Exact chance of each final result key, by enumerating 3d6 and every re-roll."""
    _check_weapon(weapon)
    result: dict[str, Fraction] = {}
    for total, p in distribution(3).items():
        for key, q in _resolve_exact(total, weapon, context, table, True).items():
            result[key] = result.get(key, Fraction(0)) + p * q
    return MappingProxyType(dict(sorted(result.items())))


# ---------------------------------------------------------------------------
# 000 CRITICAL MISSES ON DEFENSE ROLLS
# ---------------------------------------------------------------------------


class DodgeMishapChoice(Enum):
    """000 DODGE: after a successful DX roll the fighter ends up sitting or
    off-balance, "whichever is better for you". Which is better depends on the
    moment, so the GM may choose; off-balance (lasting only this turn, still
    standing) is the default."""

    OFF_BALANCE = "off-balance"
    SITTING = "sitting"


@dataclass(frozen=True, slots=True)
class DodgeMishap:
    dx_roll: SuccessRoll
    posture: Posture  # PRONE on a failed DX roll ("prone or supine, whichever is worse")
    off_balance: bool  # no attacks, active-defense penalties doubled, this turn
    citations: tuple[Citation, ...] = (DEFENSE_MISSES_000, DODGE_000)


@dataclass(frozen=True, slots=True)
class BlockMishap:
    shield: Shield
    dropped: Piece | None  # bucklers and small shields fall at the feet
    shield_unready: bool  # grip lost: a turn to re-ready before blocking again
    pd_still_counts: bool
    citations: tuple[Citation, ...] = (DEFENSE_MISSES_000, BLOCK_000)


@dataclass(frozen=True, slots=True)
class ParryMishap:
    weapon: Weapon
    critical_miss: CriticalMissResult | None
    heavy_weapon_break: BreakResult | None  # parried a weapon 3x heavier: it breaks
    citations: tuple[Citation, ...] = (DEFENSE_MISSES_000, PARRY_000)


DefenseMishap = DodgeMishap | BlockMishap | ParryMishap


def dodge_mishap(
    dx: int,
    rng: DiceSource,
    *,
    choice: DodgeMishapChoice = DodgeMishapChoice.OFF_BALANCE,
    who: str | None = None,
) -> DodgeMishap:
    what = None if who is None else f"{who}'s DX roll after the fumbled dodge"
    dx_roll = success_roll(dx, rng, what=what)
    if not dx_roll.succeeded:
        return DodgeMishap(dx_roll, Posture.PRONE, False)
    if choice is DodgeMishapChoice.SITTING:
        return DodgeMishap(dx_roll, Posture.SITTING, False)
    return DodgeMishap(dx_roll, Posture.STANDING, True)


def dodge_mishap_distribution(
    dx: int, *, choice: DodgeMishapChoice = DodgeMishapChoice.OFF_BALANCE
) -> Mapping[str, Fraction]:
    p = success_probability(dx)
    kept = "off-balance" if choice is DodgeMishapChoice.OFF_BALANCE else "sitting"
    return MappingProxyType({"prone": 1 - p, kept: p})


def block_mishap(shield: Shield) -> BlockMishap:
    if shield.dropped_on_critical_miss:
        return BlockMishap(
            shield, Piece(shield.name, None, AT_FEET, note="a dropped shield"), False, False
        )
    return BlockMishap(shield, None, True, True)


def parry_mishap(
    weapon: Weapon,
    rng: DiceSource,
    *,
    tables: FumbleTables,
    attacking_weight: float | None = None,
    rule: ParryBreakRule = ParryBreakRule.BY_QUALITY,
    who: str | None = None,
) -> ParryMishap:
    """A fumbled parry goes to the critical miss table — unless the parried weapon
    weighed at least 3x the parrying one (``attacking_weight``), in which case
    (``BY_QUALITY``) the weapon breaks instead (000 BREAKING A BLADE)."""
    if attacking_weight is not None:
        chance = parry_break_chance(
            weapon,
            attacking_weight,
            ParryResult.CRITICAL_FAILURE,
            rule=rule,
            table=tables.blade_breaking,
        )
        if chance.probability == 1:
            broke = break_weapon(weapon, rng, table=tables.broken_weapons, who=who)
            return ParryMishap(weapon, None, broke)
    result = roll_critical_miss(weapon, MissContext(MissAction.PARRY), rng, tables=tables, who=who)
    return ParryMishap(weapon, result, None)


def defense_critical_miss(
    defense: DefenseKind,
    rng: DiceSource,
    *,
    tables: FumbleTables,
    dx: int | None = None,
    shield: Shield | None = None,
    weapon: Weapon | None = None,
    attacking_weight: float | None = None,
    dodge_choice: DodgeMishapChoice = DodgeMishapChoice.OFF_BALANCE,
    parry_break_rule: ParryBreakRule = ParryBreakRule.BY_QUALITY,
    who: str | None = None,
) -> DefenseMishap:
    """The disaster after a defense roll of 17 or 18 (a critical failure). ``who``:
    the defender's name, for dice entered at the table."""
    if defense is DefenseKind.DODGE:
        if dx is None:
            raise IllegalAttackError("a fumbled dodge needs the fighter's DX")
        return dodge_mishap(dx, rng, choice=dodge_choice, who=who)
    if defense is DefenseKind.BLOCK:
        if shield is None:
            raise IllegalAttackError("a fumbled block needs the shield")
        return block_mishap(shield)
    if weapon is None:
        raise IllegalAttackError("a fumbled parry needs the parrying weapon")
    return parry_mishap(
        weapon,
        rng,
        tables=tables,
        attacking_weight=attacking_weight,
        rule=parry_break_rule,
        who=who,
    )
