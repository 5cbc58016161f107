"""Breaking weapons: the chance a parry breaks the parrying weapon, and what a
broken weapon leaves behind (000 BROKEN WEAPONS and its sections).

* ``parry_break_chance`` / ``roll_parry_break``: 000 BREAKING WEAPONS and the parry
  paragraph of 000 BREAKING A BLADE overlap; by default one roll uses the
  quality-aware chances of BREAKING A BLADE (``ParryBreakRule.BY_QUALITY``), and the
  flat 1/3 of BREAKING WEAPONS is a GM option (``ParryBreakRule.FLAT_THIRD``).
  Chances are rolled on one d6 (1/6, 1/3, 1/2, 2/3 are 1, 2, 3, 4 faces).
* ``break_weapon``: rolls the broken-weapon table (``broken_weapons.json``) for a
  weapon's section, builds the remnant kept in hand and the pieces that leave the
  hand, and rolls where those pieces land.
* ``break_outcome_distribution``: the table's exact chances for a weapon.

The tables are the ruleset's (``Tables.broken_weapons``, ``Tables.blade_breaking``),
passed as ``table`` / ``broken`` / ``blades``.

A remnant is a new ``Weapon`` value (key ``<original key>:broken``, so the number
of ``:broken`` marks counts earlier breaks). Its "half damage" is the factor of its
modes' damage (``DamageSpec.factor``), so it stays with the weapon in hand, on the
ground and picked up again.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from hexmap import Reach, parse_digits
from rules.battle.model import (
    DamageBase,
    DamageSpec,
    DamageType,
    ParryClass,
    Weapon,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.battle.pieces import (
    AT_FEET,
    BROKEN_MARK,
    IN_HAND,
    DistanceDice,
    Piece,
    Placement,
    flies,
    landing_read,
    piece_read,
)
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, roll, run_merged
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
    get_number,
    get_str,
)
from rules.core.memo_keys import ByIdentity
from rules.sets.seed000.weapon_strikes import BladeTable, exact_weight

BREAKING_WEAPONS_000 = cite("000", "BREAKING WEAPONS")
BREAKING_A_BLADE_000 = cite("000", "BREAKING A BLADE")
BROKEN_WEAPONS_000 = cite("000", "BROKEN WEAPONS")


# ---------------------------------------------------------------------------
# Breaking on a parry
# ---------------------------------------------------------------------------


class ParryBreakRule(Enum):
    """How a parry against a much heavier weapon may break the parrying weapon."""

    # 000 BREAKING A BLADE: at least 3x the weight; chance by quality after a
    # successful parry (very fine: none); any quality breaks on a critical failure.
    BY_QUALITY = "by quality"
    # 000 BREAKING WEAPONS: more than 3x the weight; 1/3 after a successful parry.
    FLAT_THIRD = "flat 1/3"


class ParryResult(Enum):
    SUCCESS = "success"  # includes a critical success
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical failure"


@dataclass(frozen=True, slots=True)
class ParryBreakChance:
    probability: Fraction
    weight_ratio: Fraction | None  # attacking weight / parrying weight (None: weightless)
    reason: str
    citation: Citation


def parry_break_chance(
    parrying: Weapon,
    attacking_weight: float,
    result: ParryResult = ParryResult.SUCCESS,
    *,
    rule: ParryBreakRule = ParryBreakRule.BY_QUALITY,
    table: BladeTable,
) -> ParryBreakChance:
    """The chance that ``parrying`` breaks after parrying a weapon of
    ``attacking_weight`` lb with the given ``result``.

    A failed parry never touched the blow: no chance. A critical failure under
    ``BY_QUALITY`` breaks the weapon outright when the weight rule applies (the seed
    lets even a very fine weapon break then, so every lesser one does too); that
    break then stands in for the critical miss table roll of 000 CRITICAL MISSES ON
    DEFENSE ROLLS (see ``rules.sets.seed000.critical_misses.defense_critical_miss``). Under
    ``FLAT_THIRD`` a critical failure is left to the table alone.
    """
    citation = BREAKING_A_BLADE_000 if rule is ParryBreakRule.BY_QUALITY else BREAKING_WEAPONS_000
    if parrying.kind is WeaponKind.UNARMED:
        return ParryBreakChance(Fraction(0), None, "bare hands do not break", citation)
    mine = exact_weight(parrying.weight)
    theirs = exact_weight(attacking_weight)
    ratio = theirs / mine if mine > 0 else None
    threshold = table.parry_weight_ratio
    if rule is ParryBreakRule.BY_QUALITY:
        heavy = ratio is None or ratio >= threshold
        words = f"at least {threshold}x"
    else:
        heavy = ratio is None or ratio > threshold
        words = f"more than {threshold}x"
    if not heavy:
        return ParryBreakChance(Fraction(0), ratio, f"the blow was not {words} heavier", citation)
    if result is ParryResult.FAILURE:
        return ParryBreakChance(Fraction(0), ratio, "a failed parry never met the blow", citation)
    if result is ParryResult.CRITICAL_FAILURE:
        if rule is ParryBreakRule.BY_QUALITY:
            return ParryBreakChance(
                Fraction(1),
                ratio,
                f"critical failure parrying a weapon {words} heavier",
                citation,
            )
        return ParryBreakChance(Fraction(0), ratio, "left to the critical miss table", citation)
    if rule is ParryBreakRule.FLAT_THIRD:
        return ParryBreakChance(
            Fraction(1, 3), ratio, f"parried a weapon {words} heavier", citation
        )
    chance = table.parry_break_chances[parrying.quality]
    return ParryBreakChance(
        chance,
        ratio,
        f"{parrying.quality.value} weapon parried a weapon {words} heavier",
        citation,
    )


@dataclass(frozen=True, slots=True)
class ParryBreakRoll:
    chance: ParryBreakChance
    die: int | None  # the d6 rolled (None when the chance was 0 or 1)
    broke: bool
    result: BreakResult | None


def roll_parry_break(
    parrying: Weapon,
    attacking_weight: float,
    rng: DiceSource,
    result: ParryResult = ParryResult.SUCCESS,
    *,
    rule: ParryBreakRule = ParryBreakRule.BY_QUALITY,
    blades: BladeTable,
    broken: BrokenWeaponTable,
    who: str | None = None,
) -> ParryBreakRoll:
    """Roll the parry-break chance on one die (d6 for these chances: the weapon
    breaks on a roll of at most chance x 6), then the broken-weapon table.
    ``blades`` and ``broken``: the ruleset's tables (``Tables.blade_breaking``,
    ``Tables.broken_weapons``). ``who``: the parrying fighter, for dice entered
    at the table."""
    chance = parry_break_chance(parrying, attacking_weight, result, rule=rule, table=blades)
    p = chance.probability
    if p in (0, 1):
        broke, die = p == 1, None
    else:
        sides = 6 if (6 * p).denominator == 1 else p.denominator
        breaks_on = faces_text(1, int(p * sides))
        what = (
            None
            if who is None
            else f"whether {who}'s {parrying.name} breaks on the parry (breaks on {breaks_on})"
        )
        die = roll(1, rng, sides, what=what)[0]
        broke = die <= p * sides
    outcome = break_weapon(parrying, rng, table=broken, who=who) if broke else None
    return ParryBreakRoll(chance, die, broke, outcome)


# ---------------------------------------------------------------------------
# The broken-weapon table: data
# ---------------------------------------------------------------------------

_DAMAGE = re.compile(r"^\s*(thr|sw)\s*(?:([+-])\s*([0-9]+))?\s+(\S+)\s*$")


def parse_damage(text: str, where: str = "damage") -> DamageSpec:
    """Parse "sw+2 cr", "thr-1 imp", "thr cr"."""
    match = _DAMAGE.match(text)
    if match is None:
        raise DataError(f"{where}: bad damage {text!r} (expected e.g. 'sw+2 cr')")
    base = DamageBase.THRUST if match.group(1) == "thr" else DamageBase.SWING
    adds = parse_digits(match.group(3) or "0")
    if adds is None:
        raise DataError(f"{where}: the adds of {text!r:.40} are too large")
    if match.group(2) == "-":
        adds = -adds
    return DamageSpec(base, adds, as_enum(match.group(4), DamageType, f"{where}.type"))


@dataclass(frozen=True, slots=True)
class ModeTemplate:
    name: str
    damage: DamageSpec
    reach: Reach | None  # None: the original weapon's reach


@dataclass(frozen=True, slots=True)
class WeaponTemplate:
    """A new weapon type a broken weapon turns into. None fields keep the original's."""

    name: str
    kind: WeaponKind
    skill: str | None
    parry: ParryClass | None
    two_handed: bool | None
    size: WeaponSize | None
    wooden_shaft: bool
    modes: tuple[ModeTemplate, ...]


@dataclass(frozen=True, slots=True)
class ModeOp:
    when_type: DamageType | None = None
    when_base: DamageBase | None = None
    damage: DamageSpec | None = None  # replaces base, adds and type
    type: DamageType | None = None
    adds: int = 0
    damage_factor: Fraction = Fraction(1)


@dataclass(frozen=True, slots=True)
class ReachOp:
    cap: int | None = None
    set: Reach | None = None
    halve: bool = False
    shorten: int = 0
    by_original_max: tuple[tuple[int | None, Reach], ...] = ()

    def apply(self, reach: Reach, original_max: int) -> Reach:
        if self.by_original_max:
            for limit, value in self.by_original_max:
                if limit is None or original_max <= limit:
                    return value
        if self.set is not None:
            return self.set
        distances = set(reach.distances)
        if self.cap is not None:
            kept = {d for d in distances if d <= self.cap}
            distances = kept or {self.cap}
        if self.halve:
            distances = {max(1, d // 2) if d > 0 else 0 for d in distances}
        if self.shorten and max(distances) > 1:
            distances = {max(1, d - self.shorten) if d > 0 else 0 for d in distances}
        return Reach(frozenset(distances))


@dataclass(frozen=True, slots=True)
class WeaponSpec:
    """How to build a remnant or piece from the broken weapon (see the json's about)."""

    name: str
    useless: bool = False
    template: str | None = None  # None: derive from the original weapon
    template_by_weight: tuple[tuple[float | None, str], ...] = ()
    kind: WeaponKind | None = None
    weight_factor: Fraction = Fraction(1)
    adds: int = 0
    adds_for_breaks: int | None = None
    damage_factor: Fraction = Fraction(1)
    skill_modifier: int = 0
    mode_ops: tuple[ModeOp, ...] = ()
    reach: ReachOp | None = None


@dataclass(frozen=True, slots=True)
class PieceSpec:
    name: str
    weapon: WeaponSpec | None
    placement: Placement
    stray_hit_factor: Fraction | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class BreakOutcome:
    key: str
    chance: Fraction
    text: str
    in_hand: WeaponSpec | None
    pieces: tuple[PieceSpec, ...]
    gm_ruling: bool = False


@dataclass(frozen=True, slots=True)
class BreakSection:
    key: str
    heading: str
    kinds: frozenset[WeaponKind]
    name_suffix: str | None
    outcomes: tuple[BreakOutcome, ...]

    @property
    def citation(self) -> Citation:
        return cite("000", self.heading)

    def matches(self, weapon: Weapon) -> bool:
        if weapon.kind not in self.kinds:
            return False
        return self.name_suffix is None or weapon.name.casefold().strip().endswith(
            self.name_suffix.casefold()
        )

    @property
    def die_sides(self) -> int:
        """The smallest die that rolls every chance exactly (lcm of denominators)."""
        return math.lcm(*(o.chance.denominator for o in self.outcomes))


@dataclass(frozen=True, slots=True)
class BrokenWeaponTable:
    templates: Mapping[str, WeaponTemplate]
    sections: tuple[BreakSection, ...]
    citation: Citation

    def section(self, weapon: Weapon) -> BreakSection:
        for section in self.sections:
            if section.matches(weapon):
                return section
        raise IllegalAttackError(
            f"{weapon.name} ({weapon.kind.value}) cannot break: no broken-weapon section"
        )

    def section_by_key(self, key: str) -> BreakSection:
        for section in self.sections:
            if section.key == key:
                return section
        raise RulesError(f"no broken-weapon section {key!r}")


def _reach(value: object, where: str) -> Reach:
    if not isinstance(value, str):
        raise DataError(f"{where}: expected reach text like '1-2', got {value!r}")
    try:
        return Reach.parse(value)
    except ValueError as exc:
        raise DataError(f"{where}: {exc}") from exc


def _load_template(key: str, raw: object, where: str) -> WeaponTemplate:
    obj = as_object(raw, where)
    check_keys(
        obj,
        where,
        ("name", "kind", "skill", "parry", "two_handed", "size", "modes"),
        ("wooden_shaft",),
    )
    skill = get_str(obj, "skill", where)
    parry_raw = obj["parry"]
    two_raw = obj["two_handed"]
    modes: list[ModeTemplate] = []
    for i, mraw in enumerate(as_list(obj["modes"], f"{where}.modes")):
        w = f"{where}.modes[{i}]"
        mode = as_object(mraw, w)
        check_keys(mode, w, ("name", "damage", "reach"))
        reach_raw = mode["reach"]
        modes.append(
            ModeTemplate(
                get_str(mode, "name", w),
                parse_damage(get_str(mode, "damage", w), f"{w}.damage"),
                None if reach_raw == "original" else _reach(reach_raw, f"{w}.reach"),
            )
        )
    if not modes:
        raise DataError(f"{where}.modes: a template needs at least one mode")
    return WeaponTemplate(
        name=get_str(obj, "name", where),
        kind=as_enum(obj["kind"], WeaponKind, f"{where}.kind"),
        skill=None if skill == "original" else skill,
        parry=None if parry_raw == "original" else as_enum(parry_raw, ParryClass, f"{where}.parry"),
        two_handed=None if two_raw == "original" else get_bool(obj, "two_handed", where),
        size=None
        if obj["size"] == "original"
        else as_enum(obj["size"], WeaponSize, f"{where}.size"),
        wooden_shaft=get_bool(obj, "wooden_shaft", where, False),
        modes=tuple(modes),
    )


def _load_mode_op(raw: object, where: str) -> ModeOp:
    obj = as_object(raw, where)
    check_keys(
        obj, where, (), ("when_type", "when_base", "damage", "type", "adds", "damage_factor")
    )
    return ModeOp(
        when_type=as_enum(obj["when_type"], DamageType, f"{where}.when_type")
        if "when_type" in obj
        else None,
        when_base=as_enum(obj["when_base"], DamageBase, f"{where}.when_base")
        if "when_base" in obj
        else None,
        damage=parse_damage(get_str(obj, "damage", where), f"{where}.damage")
        if "damage" in obj
        else None,
        type=as_enum(obj["type"], DamageType, f"{where}.type") if "type" in obj else None,
        adds=as_int(obj.get("adds", 0), f"{where}.adds"),
        damage_factor=_factor(obj, "damage_factor", where),
    )


def _factor(obj: JSONObject, key: str, where: str) -> Fraction:
    if key not in obj:
        return Fraction(1)
    value = as_fraction(obj[key], f"{where}.{key}")
    if value < 0:
        raise DataError(f"{where}.{key}: must not be negative")
    return value


def _load_reach_op(raw: object, where: str) -> ReachOp:
    obj = as_object(raw, where)
    check_keys(obj, where, (), ("cap", "set", "halve", "shorten", "by_original_max"))
    if len(obj) != 1:
        raise DataError(f"{where}: exactly one reach op, got {sorted(obj)}")
    bands: list[tuple[int | None, Reach]] = []
    for i, braw in enumerate(as_list(obj.get("by_original_max", []), f"{where}.by_original_max")):
        w = f"{where}.by_original_max[{i}]"
        band = as_object(braw, w)
        check_keys(band, w, ("set",), ("max",))
        limit = as_int(band["max"], f"{w}.max") if "max" in band else None
        bands.append((limit, _reach(band["set"], f"{w}.set")))
    if bands and bands[-1][0] is not None:
        raise DataError(f"{where}.by_original_max: the last band must have no max")
    return ReachOp(
        cap=as_int(obj["cap"], f"{where}.cap") if "cap" in obj else None,
        set=_reach(obj["set"], f"{where}.set") if "set" in obj else None,
        halve=get_bool(obj, "halve", where, False),
        shorten=as_int(obj.get("shorten", 0), f"{where}.shorten"),
        by_original_max=tuple(bands),
    )


def _load_spec(raw: object, where: str, templates: Mapping[str, WeaponTemplate]) -> WeaponSpec:
    obj = as_object(raw, where)
    if obj.get("useless") is True:
        check_keys(obj, where, ("useless", "name"))
        return WeaponSpec(name=get_str(obj, "name", where), useless=True)
    check_keys(
        obj,
        where,
        ("from", "name"),
        (
            "template",
            "template_by_weight",
            "kind",
            "weight_factor",
            "adds",
            "adds_for_breaks",
            "damage_factor",
            "skill_modifier",
            "mode_ops",
            "reach",
        ),
    )
    source = get_str(obj, "from", where)
    template: str | None = None
    by_weight: list[tuple[float | None, str]] = []
    if source == "template":
        if "template" in obj:
            template = get_str(obj, "template", where)
            if template not in templates:
                raise DataError(f"{where}.template: unknown template {template!r}")
        elif "template_by_weight" in obj:
            for i, braw in enumerate(
                as_list(obj["template_by_weight"], f"{where}.template_by_weight")
            ):
                w = f"{where}.template_by_weight[{i}]"
                band = as_object(braw, w)
                check_keys(band, w, ("template",), ("max_weight",))
                name = get_str(band, "template", w)
                if name not in templates:
                    raise DataError(f"{w}.template: unknown template {name!r}")
                limit = get_number(band, "max_weight", w) if "max_weight" in band else None
                by_weight.append((limit, name))
            if not by_weight or by_weight[-1][0] is not None:
                raise DataError(f"{where}.template_by_weight: the last band needs no max_weight")
        else:
            raise DataError(f"{where}: 'from': 'template' needs template or template_by_weight")
    elif source != "original":
        raise DataError(f"{where}.from: expected 'original' or 'template', got {source!r}")
    return WeaponSpec(
        name=get_str(obj, "name", where),
        template=template,
        template_by_weight=tuple(by_weight),
        kind=as_enum(obj["kind"], WeaponKind, f"{where}.kind") if "kind" in obj else None,
        weight_factor=_factor(obj, "weight_factor", where),
        adds=as_int(obj.get("adds", 0), f"{where}.adds"),
        adds_for_breaks=as_int(obj["adds_for_breaks"], f"{where}.adds_for_breaks")
        if "adds_for_breaks" in obj
        else None,
        damage_factor=_factor(obj, "damage_factor", where),
        skill_modifier=as_int(obj.get("skill_modifier", 0), f"{where}.skill_modifier"),
        mode_ops=tuple(
            _load_mode_op(m, f"{where}.mode_ops[{i}]")
            for i, m in enumerate(as_list(obj.get("mode_ops", []), f"{where}.mode_ops"))
        ),
        reach=_load_reach_op(obj["reach"], f"{where}.reach") if "reach" in obj else None,
    )


PLACEMENT_KINDS = ("at_feet", "flies")


def _load_placement(raw: object, where: str) -> Placement:
    obj = as_object(raw, where)
    kind = get_str(obj, "kind", where)
    if kind == "at_feet":
        check_keys(obj, where, ("kind",))
        return AT_FEET
    if kind == "flies":
        check_keys(obj, where, ("kind", "dice"))
        return flies(DistanceDice.parse(get_str(obj, "dice", where)), BROKEN_WEAPONS_000)
    raise DataError(f"{where}.kind: expected one of {PLACEMENT_KINDS}, got {kind!r}")


def _load_outcome(raw: object, where: str, templates: Mapping[str, WeaponTemplate]) -> BreakOutcome:
    obj = as_object(raw, where)
    check_keys(obj, where, ("key", "chance", "text", "in_hand"), ("pieces", "gm_ruling"))
    chance = as_fraction(obj["chance"], f"{where}.chance")
    if not 0 < chance <= 1:
        raise DataError(f"{where}.chance: must be within (0, 1], got {chance}")
    pieces: list[PieceSpec] = []
    for i, praw in enumerate(as_list(obj.get("pieces", []), f"{where}.pieces")):
        w = f"{where}.pieces[{i}]"
        piece = as_object(praw, w)
        check_keys(piece, w, ("name", "weapon", "placement"), ("stray_hit_factor", "note"))
        pieces.append(
            PieceSpec(
                name=get_str(piece, "name", w),
                weapon=None
                if piece["weapon"] is None
                else _load_spec(piece["weapon"], f"{w}.weapon", templates),
                placement=_load_placement(piece["placement"], f"{w}.placement"),
                stray_hit_factor=as_fraction(piece["stray_hit_factor"], f"{w}.stray_hit_factor")
                if "stray_hit_factor" in piece
                else None,
                note=get_str(piece, "note", w) if "note" in piece else "",
            )
        )
    return BreakOutcome(
        key=get_str(obj, "key", where),
        chance=chance,
        text=get_str(obj, "text", where),
        in_hand=None
        if obj["in_hand"] is None
        else _load_spec(obj["in_hand"], f"{where}.in_hand", templates),
        pieces=tuple(pieces),
        gm_ruling=get_bool(obj, "gm_ruling", where, False),
    )


def load_broken_weapon_table(data: object) -> BrokenWeaponTable:
    """Pure loader for ``broken_weapons.json``; every section's chances must be exact
    fractions summing to 1 and its outcome keys unique."""
    where = "broken_weapons"
    obj = as_object(data, where)
    check_keys(obj, where, ("citation", "templates", "sections"), ("about",))
    cit = as_object(obj["citation"], f"{where}.citation")
    check_keys(cit, f"{where}.citation", ("seed", "heading"))
    templates: dict[str, WeaponTemplate] = {}
    for key, raw in as_object(obj["templates"], f"{where}.templates").items():
        templates[key] = _load_template(key, raw, f"{where}.templates.{key}")
    sections: list[BreakSection] = []
    seen: set[str] = set()
    for i, sraw in enumerate(as_list(obj["sections"], f"{where}.sections")):
        w = f"{where}.sections[{i}]"
        sec = as_object(sraw, w)
        check_keys(sec, w, ("key", "heading", "kinds", "outcomes"), ("name_suffix",))
        key = get_str(sec, "key", w)
        if key in seen:
            raise DataError(f"{w}.key: duplicate section {key!r}")
        seen.add(key)
        outcomes = tuple(
            _load_outcome(o, f"{w}.outcomes[{j}]", templates)
            for j, o in enumerate(as_list(sec["outcomes"], f"{w}.outcomes"))
        )
        if not outcomes:
            raise DataError(f"{w}.outcomes: at least one outcome")
        total = sum((o.chance for o in outcomes), Fraction(0))
        if total != 1:
            raise DataError(f"{w}.outcomes: chances sum to {total}, not 1")
        keys = [o.key for o in outcomes]
        if len(set(keys)) != len(keys):
            raise DataError(f"{w}.outcomes: duplicate outcome keys {keys}")
        sections.append(
            BreakSection(
                key=key,
                heading=get_str(sec, "heading", w),
                kinds=frozenset(
                    as_enum(k, WeaponKind, f"{w}.kinds")
                    for k in as_list(sec["kinds"], f"{w}.kinds")
                ),
                name_suffix=get_str(sec, "name_suffix", w) if "name_suffix" in sec else None,
                outcomes=outcomes,
            )
        )
    return BrokenWeaponTable(
        templates=MappingProxyType(templates),
        sections=tuple(sections),
        citation=Citation(get_str(cit, "seed", where), get_str(cit, "heading", where)),
    )


# ---------------------------------------------------------------------------
# Building remnants
# ---------------------------------------------------------------------------


def times_broken(weapon: Weapon) -> int:
    """How often this weapon value has already been broken (``:broken`` marks)."""
    return weapon.key.count(BROKEN_MARK)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")


def _apply_mode_ops(mode: WeaponMode, ops: tuple[ModeOp, ...]) -> tuple[WeaponMode, Fraction]:
    factor = Fraction(1)
    damage = mode.damage
    for op in ops:
        if op.when_type is not None and damage.type is not op.when_type:
            continue
        if op.when_base is not None and damage.base is not op.when_base:
            continue
        if op.damage is not None:
            damage = replace(op.damage, fixed=None, factor=damage.factor)
        if op.type is not None:
            damage = replace(damage, type=op.type)
        if op.adds:
            damage = replace(damage, adds=damage.adds + op.adds)
        factor *= op.damage_factor
    return replace(mode, damage=damage), factor


def _original_reach_max(weapon: Weapon) -> int:
    return max((max(m.reach.distances) for m in weapon.modes), default=1)


def build_remnant(
    original: Weapon, spec: WeaponSpec, table: BrokenWeaponTable, key: str
) -> Weapon | None:
    """The weapon value ``spec`` makes out of ``original`` (None if useless); its
    damage factors multiply the original's (a twice-broken chain loses twice)."""
    if spec.useless:
        return None
    name = spec.name.format(name=original.name)
    template_key = spec.template
    if spec.template_by_weight:
        for limit, candidate in spec.template_by_weight:
            if limit is None or original.weight <= limit:
                template_key = candidate
                break
    if template_key is not None:
        t = table.templates[template_key]
        modes = tuple(
            WeaponMode(m.name, m.damage, m.reach if m.reach is not None else original.reach)
            for m in t.modes
        )
        weapon = replace(
            original,
            key=key,
            name=name,
            kind=t.kind,
            skill=t.skill if t.skill is not None else original.skill,
            modes=modes,
            parry=t.parry if t.parry is not None else original.parry,
            two_handed=t.two_handed if t.two_handed is not None else original.two_handed,
            size=t.size if t.size is not None else original.size,
            wooden_shaft=t.wooden_shaft,
            metal_faced=False,
            reliable=False,
            min_st=0,
        )
    else:
        weapon = replace(original, key=key, name=name)
    if spec.kind is not None:
        weapon = replace(weapon, kind=spec.kind)
    adds = spec.adds
    if spec.adds_for_breaks is not None and times_broken(original) >= spec.adds_for_breaks:
        adds = 0
    original_max = _original_reach_max(original)
    new_modes: list[WeaponMode] = []
    for mode in weapon.modes:
        changed, factor = _apply_mode_ops(mode, spec.mode_ops)
        damage = replace(
            changed.damage,
            adds=changed.damage.adds + adds,
            factor=changed.damage.factor * factor * spec.damage_factor,
        )
        reach = changed.reach
        if spec.reach is not None:
            reach = spec.reach.apply(reach, original_max)
        new_modes.append(
            replace(
                changed,
                damage=damage,
                reach=reach,
                skill_modifier=changed.skill_modifier + spec.skill_modifier,
            )
        )
    weight = float(exact_weight(original.weight) * spec.weight_factor)
    weapon = replace(weapon, modes=tuple(new_modes), weight=weight)
    return weapon


# ---------------------------------------------------------------------------
# Rolling the table
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BreakResult:
    """A weapon broken: the die rolled on its section, the outcome, the remnant in
    hand (a ``Piece`` with placement IN_HAND; its ``weapon`` is None when useless)
    and the pieces that left the hand, each with its landing rolled."""

    weapon: Weapon
    section: str
    die_sides: int
    die: int
    outcome: str
    text: str
    in_hand: Piece | None
    pieces: tuple[Piece, ...]
    gm_ruling: bool
    citations: tuple[Citation, ...]

    @property
    def weapon_in_hand(self) -> Weapon | None:
        return None if self.in_hand is None else self.in_hand.weapon

    @property
    def useless(self) -> bool:
        return self.weapon_in_hand is None and not any(p.usable for p in self.pieces)


def _pick(section: BreakSection, face: int) -> BreakOutcome:
    sides = section.die_sides
    upto = Fraction(0)
    for outcome in section.outcomes:
        upto += outcome.chance
        if face <= upto * sides:
            return outcome
    raise RulesError(f"face {face} beyond d{sides}")  # pragma: no cover - chances sum to 1


def faces_text(low: int, high: int) -> str:
    """A run of faces as the GM reads it: "3", "1-4"."""
    return str(low) if low == high else f"{low}-{high}"


def faces_legend(section: BreakSection) -> str:
    """What each face of the section's die means: "1-4 at chain, 5 stump, 6 shorter
    flail"."""
    parts: list[str] = []
    upto = Fraction(0)
    for outcome in section.outcomes:
        low = int(upto * section.die_sides) + 1
        upto += outcome.chance
        high = int(upto * section.die_sides)
        parts.append(f"{faces_text(low, high)} {outcome.key.replace('_', ' ')}")
    return ", ".join(parts)


def break_weapon(
    weapon: Weapon,
    rng: DiceSource,
    *,
    table: BrokenWeaponTable,
    who: str | None = None,
) -> BreakResult:
    """Break ``weapon``: roll one die with as many sides as the section needs (the
    lcm of its chances' denominators, a d6 for the seed's 1/2, 1/3, 2/3 and 1/6; no
    roll for a single certain outcome), then each leaving piece's landing in order.
    Raises ``IllegalAttackError`` for a weapon with no section (bare hands).
    ``who``: the one whose weapon breaks, for dice entered at the table."""
    return run_merged(rng, WeaponBreaks(weapon, ByIdentity(table), who))


@dataclass(frozen=True, slots=True)
class WeaponBreaks:
    """``break_weapon`` as a merged step (``rules.core.dice.run_merged``): what
    follows reads of a break the outcome, the remnant in hand and each piece with
    where it lands, not the faces that put it there (the log's)."""

    weapon: Weapon
    table: ByIdentity[BrokenWeaponTable]
    who: str | None

    def __call__(self, rng: DiceSource) -> BreakResult:
        return _break(self.weapon, rng, self.table.value, self.who)

    def reads(self, result: BreakResult) -> Hashable:
        return self.reads_of(result)

    @staticmethod
    def reads_of(result: BreakResult) -> Hashable:
        """The outcome, the remnant in hand and each piece with where it lands."""
        return result.outcome, result.in_hand, tuple(landing_read(p) for p in result.pieces)

    def odds_reads(self, result: BreakResult) -> Hashable:
        """What an attack's exact odds read of the break: ``reads`` without where
        the pieces land."""
        return result.outcome, result.in_hand, tuple(piece_read(p) for p in result.pieces)


def _break(
    weapon: Weapon, rng: DiceSource, table: BrokenWeaponTable, who: str | None
) -> BreakResult:
    section = table.section(weapon)
    sides = section.die_sides
    what = None if who is None else f"how {who}'s {weapon.name} breaks ({faces_legend(section)})"
    face = roll(1, rng, sides, what=what)[0] if len(section.outcomes) > 1 else 1
    outcome = _pick(section, face)
    in_hand: Piece | None = None
    base_key = f"{weapon.key}{BROKEN_MARK}"
    if outcome.in_hand is not None:
        in_hand = Piece(
            name=outcome.in_hand.name.format(name=weapon.name),
            weapon=build_remnant(weapon, outcome.in_hand, table, base_key),
            placement=IN_HAND,
        )
    pieces: list[Piece] = []
    for spec in outcome.pieces:
        name = spec.name.format(name=weapon.name)
        remnant = (
            None
            if spec.weapon is None
            else build_remnant(weapon, spec.weapon, table, f"{base_key}:{_slug(name)}")
        )
        piece = Piece(
            name=name,
            weapon=remnant,
            placement=spec.placement,
            stray_hit_factor=spec.stray_hit_factor,
            note=spec.note,
        )
        pieces.append(piece.landed(rng, who or ""))
    citations: tuple[Citation, ...] = (table.citation,)
    if section.citation != table.citation:
        citations += (section.citation,)
    return BreakResult(
        weapon=weapon,
        section=section.key,
        die_sides=sides,
        die=face,
        outcome=outcome.key,
        text=outcome.text,
        in_hand=in_hand,
        pieces=tuple(pieces),
        gm_ruling=outcome.gm_ruling,
        citations=citations,
    )


def break_outcome_distribution(
    weapon: Weapon, *, table: BrokenWeaponTable
) -> Mapping[str, Fraction]:
    """Exact chance of each outcome key of the weapon's section."""
    section = table.section(weapon)
    return MappingProxyType({o.key: o.chance for o in section.outcomes})


def parry_break_distribution(
    parrying: Weapon,
    attacking_weight: float,
    result: ParryResult = ParryResult.SUCCESS,
    *,
    rule: ParryBreakRule = ParryBreakRule.BY_QUALITY,
    blades: BladeTable,
    broken: BrokenWeaponTable,
) -> Mapping[str, Fraction]:
    """Exact chance of "intact" and of each broken outcome after a parry."""
    chance = parry_break_chance(parrying, attacking_weight, result, rule=rule, table=blades)
    p = chance.probability
    dist: dict[str, Fraction] = {"intact": 1 - p}
    if p:
        for key, q in break_outcome_distribution(parrying, table=broken).items():
            dist[key] = dist.get(key, Fraction(0)) + p * q
    return MappingProxyType({k: v for k, v in dist.items() if v})
