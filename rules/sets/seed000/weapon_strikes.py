"""Weapons against weapons: striking at a weapon, defending it, chopping or breaking
it, and the abstract pieces that fly off when weapons break or are knocked away.

The rules that differ between the seeds are a component of the ruleset, chosen
once by its options (``Tables.weapon_strikes``): a ``WeaponStrikeRules``, either
``WeaponStrikes000`` or ``WeaponStrikes001``. Each answers:

* the penalty to hit a weapon, by seed 000 (by kind: very small, polearm, other) or
  seed 001 (by reach) - ``strike_penalty``; with the -2 to disarm unless fencing
  (``disarm_penalty``, the same in both under each seed's citation) it makes
  ``strike_modifiers``;
* whether a weapon may be targeted at all - ``targetable``;
* the disarm (000 DISARMING AN OPPONENT: a Quick Contest instead of the attack;
  001 Knocking a Weapon Away: the contest after a hit) - ``contest_before_attack``,
  ``disarm_modifiers``, ``contest_level`` (the two sides' levels make
  ``disarm_contest``), ``foe_keeps_weapon``, ``disarmed_placement``,
  ``resolve_disarm`` (the contest itself is ``rules.sets.seed000.disarm``'s);
* what a blow does to the weapon it lands on - ``damage_struck_weapon``: 000 CUTTING
  THROUGH A WEAPON and 000 BREAKING A BLADE, or 001 Breaking a Weapon.

Shared by both (each described in our own words in ``docs/weapons-on-weapons.md``):

* what defenses protect a weapon - ``weapon_defense_options``;
* 000 CUTTING THROUGH A WEAPON (wooden shafts) - ``shaft_stats``, ``cut_shaft``,
  ``use_weakened_weapon`` on a frozen ``WeaponDamageState``;
* 000 BREAKING A BLADE (damage thresholds by blade, quality halves or doubles) -
  ``blade_break_threshold``, ``strike_blade`` (table in ``blade_breaking.json``);
* 001 Breaking a Weapon (damage against a DR/HP by weight and material) -
  ``weapon_integrity``, ``damage_weapon`` (table in ``weapon_integrity.json``);
* 001 Subduing a Foe - ``pulled_punch``, ``flat_of_blade``, ``blunt_end``.

The map placement of dropped, knocked-away and broken-off pieces is the map layer's
job. Here a piece only says *how* it leaves the hand (``Placement``) and, once
resolved, the dice rolled for it (``Landing``): the distance in hexes and a
direction die 1-6. Direction die ``n`` means ``hexmap.Facing(n - 1)`` (1 = N, then
clockwise) for a random direction; for a forward-or-back placement 1-3 is the
wielder's facing and 4-6 the opposite one (``Landing.facing``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Protocol

from hexmap import Reach
from rules.battle.model import (
    DamageBase,
    DamageType,
    Fighter,
    ParryClass,
    Quality,
    Weapon,
    WeaponDamageState,
    WeaponKind,
    WeaponMode,
    WeaponSize,
)
from rules.battle.pieces import (
    DirectionRule,
    DistanceDice,
    Placement,
    PlacementKind,
)
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource
from rules.core.errors import DataError, IllegalAttackError, RulesError
from rules.core.jsondata import (
    as_enum,
    as_fraction,
    as_list,
    as_object,
    check_keys,
    get_int,
    get_number,
    get_str,
)
from rules.core.modifiers import Modifier
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.disarm import (
    ContestWinner,
    DisarmContest,
    DisarmModifiers,
    DisarmOutcome,
    DisarmResult,
    DisarmRules,
    resolve_disarm,
    skill_or_dx,
)
from rules.sets.seed000.sheet import sheet_of

STRIKING_000 = cite("000", "STRIKING AT WEAPONS")
DISARMING_000 = cite("000", "DISARMING AN OPPONENT")
DEFENSE_000 = cite("000", "DEFENSE AGAINST WEAPON ATTACKS")
CUTTING_000 = cite("000", "CUTTING THROUGH A WEAPON")
BLADE_000 = cite("000", "BREAKING A BLADE")
DROPPED_000 = cite("000", "DROPPED WEAPONS")
STRIKING_001 = cite("001", "Striking at Weapons")
TACTICAL_001 = cite("001", "Striking at Weapons in Tactical Combat")
DEFENDING_001 = cite("001", "Defending Your Weapon")
KNOCKING_001 = cite("001", "Knocking a Weapon Away")
BREAKING_001 = cite("001", "Breaking a Weapon")
SUBDUING_001 = cite("001", "Subduing a Foe")


# ---------------------------------------------------------------------------
# Pieces and where they go
# ---------------------------------------------------------------------------


DROPPED_IN_HEX = Placement(PlacementKind.DROPPED_IN_HEX, citation=DISARMING_000)
DROPPED_NEARBY = Placement(PlacementKind.DROPPED_NEARBY, citation=DROPPED_000)
# "at the feet or in an adjacent hex": 1d2-1 hexes (0 = at the feet), random side.
ADJACENT_OR_FEET = Placement(
    PlacementKind.ADJACENT_OR_FEET, DistanceDice(1, 2, -1), 0, DirectionRule.RANDOM, DROPPED_000
)
KNOCKED_AWAY = Placement(
    PlacementKind.KNOCKED_AWAY, DistanceDice(1, 3, -1), 0, DirectionRule.RANDOM, DROPPED_000
)
ONE_HEX_RANDOM = Placement(
    PlacementKind.ONE_HEX_RANDOM, None, 1, DirectionRule.RANDOM, KNOCKING_001
)


@functools.cache  # a handful of weights, read on every parry
def exact_weight(weight: float) -> Fraction:
    """A weight in lb as an exact fraction of its decimal text (0.1 -> 1/10)."""
    return Fraction(str(weight))


def knock_away_placement(weapon: Weapon) -> Placement:
    """000 DROPPED WEAPONS: a knocked-away small weapon goes 1d3-1 hexes in a random
    direction; a large one falls at its user's feet or in an adjacent hex."""
    return KNOCKED_AWAY if weapon.size is WeaponSize.SMALL else ADJACENT_OR_FEET


# ---------------------------------------------------------------------------
# Striking at weapons: penalties and targets
# ---------------------------------------------------------------------------

MISSILE_KINDS = frozenset({WeaponKind.BOW, WeaponKind.CROSSBOW, WeaponKind.SLING, WeaponKind.GUN})
FENCING_KINDS = frozenset(
    {WeaponKind.RAPIER, WeaponKind.FOIL, WeaponKind.SABER, WeaponKind.MAIN_GAUCHE}
)
FENCING_SKILLS = frozenset({"rapier", "saber", "smallsword", "main-gauche", "fencing"})
JITTE_WHIP_SKILLS = frozenset({"jitte/sai", "whip"})  # 001 Knocking a Weapon Away: +2


class StrikePurpose(Enum):
    BREAK = "break"  # chop, shatter or knock down the weapon
    DISARM = "disarm"  # knock it out of the hand


def is_fencing_weapon(weapon: Weapon) -> bool:
    """Rapier, foil, saber, main-gauche (by kind) or a weapon used with a fencing skill
    (Rapier, Saber, Smallsword, Main-Gauche, Fencing). 000 FENCING PARRIES names
    rapier, saber and the main-gauche; 001 names main-gauche, rapier, saber and
    smallsword; the foil is the smallsword's practice form."""
    return weapon.kind in FENCING_KINDS or weapon.skill.casefold() in FENCING_SKILLS


def _melee_reach_max(weapon: Weapon) -> int | None:
    if not weapon.modes:
        return None
    return max(max(m.reach.distances) for m in weapon.modes)


def _check_target(weapon: Weapon) -> None:
    if weapon.kind is WeaponKind.UNARMED:
        raise IllegalAttackError(
            f"{weapon.name} is a bare hand, not a weapon: aim at the hand as a hit location"
        )


@dataclass(frozen=True, slots=True)
class Targetability:
    allowed: bool
    reason: str
    citation: Citation


# ---------------------------------------------------------------------------
# Defending a weapon
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WeaponDefenseOptions:
    """What may protect a weapon struck at (000 DEFENSE AGAINST WEAPON ATTACKS,
    001 Defending Your Weapon): a dodge; a parry only with the weapon attacked and
    only if it is ready (and can parry); never a block; no PD and no shield DB; a
    retreat adds its usual bonus."""

    dodge: bool
    parry_with: str | None  # key of the only weapon that may parry, if any
    block: bool
    passive_defense: bool
    shield_defense_bonus: bool
    retreat: bool
    citations: tuple[Citation, ...]

    def allows(self, defense: DefenseKind, weapon_key: str | None = None) -> bool:
        if defense is DefenseKind.DODGE:
            return self.dodge
        if defense is DefenseKind.BLOCK:
            return self.block
        return self.parry_with is not None and weapon_key == self.parry_with


def weapon_defense_options(target: Weapon, *, target_ready: bool) -> WeaponDefenseOptions:
    can_parry = target_ready and target.parry is not ParryClass.NONE
    return WeaponDefenseOptions(
        dodge=True,
        parry_with=target.key if can_parry else None,
        block=False,
        passive_defense=False,
        shield_defense_bonus=False,
        retreat=True,
        citations=(DEFENSE_000, DEFENDING_001),
    )


def check_weapon_defense(
    options: WeaponDefenseOptions, defense: DefenseKind, weapon_key: str | None = None
) -> None:
    """Raise ``IllegalAttackError`` for a defense the options do not allow."""
    if not options.allows(defense, weapon_key):
        if defense is DefenseKind.PARRY:
            raise IllegalAttackError("only the weapon struck at may parry, and only when ready")
        raise IllegalAttackError(f"a {defense.value} cannot protect a weapon")


# ---------------------------------------------------------------------------
# Damage to weapons: shafts (000) and weapons in general (001)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShaftStats:
    dr: int
    hp: int
    metal_faced: bool


WOODEN_SHAFT = ShaftStats(dr=3, hp=8, metal_faced=False)
METAL_FACED_SHAFT = ShaftStats(dr=4, hp=12, metal_faced=True)
WEAKENED_MULTIPLE = 3  # 000: "triple the amount of damage required to break it"


def shaft_stats(weapon: Weapon) -> ShaftStats | None:
    """000 CUTTING THROUGH A WEAPON: a typical 2" wooden haft is DR 3, HP 8; a
    metal-faced one DR 4, HP 12. None when the weapon has no wooden shaft."""
    if not weapon.wooden_shaft:
        return None
    return METAL_FACED_SHAFT if weapon.metal_faced else WOODEN_SHAFT


@dataclass(frozen=True, slots=True)
class WeaponHit:
    """One blow against a weapon: the damage, what got through, and the new state."""

    before: WeaponDamageState
    after: WeaponDamageState
    basic_damage: int
    dr: int
    hp: int
    penetrating: int
    citation: Citation

    @property
    def broke(self) -> bool:
        return self.after.broken and not self.before.broken

    @property
    def became_weakened(self) -> bool:
        return self.after.weakened and not self.before.weakened


def cut_shaft(
    weapon: Weapon,
    state: WeaponDamageState,
    basic_damage: int,
    damage_type: DamageType,
) -> WeaponHit:
    """A cutting blow on a wooden shaft (000 CUTTING THROUGH A WEAPON).

    Only cutting blows chop wood, and only basic damage counts (no cutting bonus).
    Our reading of the seed (see the docs): damage past the DR accumulates; a single
    blow whose penetrating damage reaches the HP chops the shaft through; once the
    accumulated damage reaches three times the HP the shaft is weakened and breaks at
    the next penetrating blow, or at the next solid hit or parry made with it
    (``use_weakened_weapon``).
    """
    stats = shaft_stats(weapon)
    if stats is None:
        raise IllegalAttackError(f"{weapon.name} has no wooden shaft to cut through")
    if damage_type is not DamageType.CUTTING:
        raise IllegalAttackError("only a cutting blow can chop through a shaft")
    if basic_damage < 0:
        raise RulesError(f"damage cannot be negative: {basic_damage}")
    penetrating = max(0, basic_damage - stats.dr)
    if state.broken:
        after = state
    else:
        total = state.damage_taken + penetrating
        broken = penetrating >= stats.hp or (state.weakened and penetrating > 0)
        weakened = state.weakened or total >= WEAKENED_MULTIPLE * stats.hp
        after = WeaponDamageState(total, weakened and not broken, broken)
    return WeaponHit(state, after, basic_damage, stats.dr, stats.hp, penetrating, CUTTING_000)


class WeaponUse(Enum):
    SOLID_HIT = "solid hit"
    PARRY = "parry"


def use_weakened_weapon(state: WeaponDamageState, use: WeaponUse) -> WeaponDamageState:
    """000: a weakened weapon breaks on the next solid hit or parry made with it."""
    if state.weakened and not state.broken:
        return WeaponDamageState(state.damage_taken, False, True)
    return state


# --- 000 BREAKING A BLADE ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class BladeClass:
    key: str
    label: str
    damage: int


@dataclass(frozen=True, slots=True)
class BladeRule:
    """One assignment rule of blade_breaking.json: the first rule that matches a
    weapon gives its blade class."""

    kind: WeaponKind
    blade_class: str
    skill: str | None = None
    name_contains: tuple[str, ...] = ()
    max_weight: float | None = None

    def matches(self, weapon: Weapon) -> bool:
        if weapon.kind is not self.kind:
            return False
        if self.skill is not None and weapon.skill.casefold() != self.skill.casefold():
            return False
        if self.name_contains:
            text = f"{weapon.name} {weapon.key}".casefold()
            if not any(word.casefold() in text for word in self.name_contains):
                return False
        return self.max_weight is None or weapon.weight <= self.max_weight


@dataclass(frozen=True, slots=True)
class BladeTable:
    classes: Mapping[str, BladeClass]
    rules: tuple[BladeRule, ...]
    damage_types: frozenset[DamageType]
    attacker_better_factor: Fraction
    defender_better_factor: Fraction
    parry_weight_ratio: Fraction
    parry_break_chances: Mapping[Quality, Fraction]
    citation: Citation

    def blade_class(self, weapon: Weapon) -> BladeClass | None:
        for rule in self.rules:
            if rule.matches(weapon):
                return self.classes[rule.blade_class]
        return None


def _citation(value: object, where: str) -> Citation:
    obj = as_object(value, where)
    check_keys(obj, where, ("seed", "heading"))
    return Citation(get_str(obj, "seed", where), get_str(obj, "heading", where))


def load_blade_table(data: object) -> BladeTable:
    """Pure loader for ``blade_breaking.json``."""
    where = "blade_breaking"
    obj = as_object(data, where)
    check_keys(
        obj,
        where,
        (
            "citation",
            "damage_types",
            "classes",
            "assign",
            "attacker_better_factor",
            "defender_better_factor",
            "parry_weight_ratio",
            "parry_break_chances",
        ),
        ("about",),
    )
    classes: dict[str, BladeClass] = {}
    for i, raw in enumerate(as_list(obj["classes"], f"{where}.classes")):
        w = f"{where}.classes[{i}]"
        entry = as_object(raw, w)
        check_keys(entry, w, ("key", "label", "damage"))
        cls = BladeClass(
            get_str(entry, "key", w), get_str(entry, "label", w), get_int(entry, "damage", w)
        )
        if cls.key in classes:
            raise DataError(f"{w}: duplicate class {cls.key!r}")
        if cls.damage < 1:
            raise DataError(f"{w}.damage: must be at least 1")
        classes[cls.key] = cls
    rules: list[BladeRule] = []
    for i, raw in enumerate(as_list(obj["assign"], f"{where}.assign")):
        w = f"{where}.assign[{i}]"
        entry = as_object(raw, w)
        check_keys(entry, w, ("kind", "class"), ("skill", "name_contains", "max_weight"))
        key = get_str(entry, "class", w)
        if key not in classes:
            raise DataError(f"{w}.class: unknown blade class {key!r}")
        words = tuple(
            _str(v, f"{w}.name_contains")
            for v in as_list(entry.get("name_contains", []), f"{w}.name_contains")
        )
        rules.append(
            BladeRule(
                kind=as_enum(entry["kind"], WeaponKind, f"{w}.kind"),
                blade_class=key,
                skill=get_str(entry, "skill", w) if "skill" in entry else None,
                name_contains=words,
                max_weight=get_number(entry, "max_weight", w) if "max_weight" in entry else None,
            )
        )
    types = frozenset(
        as_enum(v, DamageType, f"{where}.damage_types")
        for v in as_list(obj["damage_types"], f"{where}.damage_types")
    )
    chances_obj = as_object(obj["parry_break_chances"], f"{where}.parry_break_chances")
    chances: dict[Quality, Fraction] = {}
    for quality in Quality:
        w = f"{where}.parry_break_chances"
        if quality.value not in chances_obj:
            raise DataError(f"{w}: missing {quality.value!r}")
        chance = as_fraction(chances_obj[quality.value], f"{w}.{quality.value}")
        if not 0 <= chance <= 1:
            raise DataError(f"{w}.{quality.value}: a chance must be within 0..1")
        chances[quality] = chance
    if set(chances_obj) - {q.value for q in Quality}:
        raise DataError(f"{where}.parry_break_chances: unknown quality")
    return BladeTable(
        classes=MappingProxyType(classes),
        rules=tuple(rules),
        damage_types=types,
        attacker_better_factor=as_fraction(
            obj["attacker_better_factor"], f"{where}.attacker_better_factor"
        ),
        defender_better_factor=as_fraction(
            obj["defender_better_factor"], f"{where}.defender_better_factor"
        ),
        parry_weight_ratio=as_fraction(obj["parry_weight_ratio"], f"{where}.parry_weight_ratio"),
        parry_break_chances=MappingProxyType(chances),
        citation=_citation(obj["citation"], f"{where}.citation"),
    )


def _str(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where}: expected a non-empty string, got {value!r}")
    return value


def is_blade(weapon: Weapon, table: BladeTable) -> bool:
    return table.blade_class(weapon) is not None


@dataclass(frozen=True, slots=True)
class BladeThreshold:
    """Damage needed in one blow to break a blade: the class's figure, halved when
    the attacker's weapon is of better quality, doubled when the blade is."""

    blade: BladeClass
    base: int
    factor: Fraction
    threshold: Fraction
    reason: str
    citation: Citation


def blade_break_threshold(
    target: Weapon, attacker_weapon: Weapon, table: BladeTable
) -> BladeThreshold:
    blade = table.blade_class(target)
    if blade is None:
        raise IllegalAttackError(f"{target.name} is not a blade (000 BREAKING A BLADE)")
    mine, theirs = attacker_weapon.quality.rank, target.quality.rank
    if mine > theirs:
        factor, reason = table.attacker_better_factor, "attacker's weapon of better quality"
    elif theirs > mine:
        factor, reason = table.defender_better_factor, "target blade of better quality"
    else:
        factor, reason = Fraction(1), "equal quality"
    return BladeThreshold(
        blade, blade.damage, factor, blade.damage * factor, reason, table.citation
    )


@dataclass(frozen=True, slots=True)
class BladeStrike:
    threshold: BladeThreshold
    basic_damage: int
    broke: bool
    citation: Citation


def strike_blade(
    target: Weapon,
    attacker_weapon: Weapon,
    basic_damage: int,
    damage_type: DamageType,
    table: BladeTable,
) -> BladeStrike:
    """A cutting or crushing blow on a blade: it breaks when the blow's basic damage
    reaches the threshold (damage does not accumulate between blows)."""
    if damage_type not in table.damage_types:
        raise IllegalAttackError("only a cutting or crushing blow can break a blade")
    threshold = blade_break_threshold(target, attacker_weapon, table)
    return BladeStrike(threshold, basic_damage, basic_damage >= threshold.threshold, table.citation)


# --- 001 Breaking a Weapon ---------------------------------------------------


class Material(Enum):
    METAL = "metal"
    WOOD = "wood"
    METAL_FACED_WOOD = "metal-faced wood"
    SOFT = "soft"  # cord, leather: slings


@dataclass(frozen=True, slots=True)
class WeaponIntegrity:
    material: Material
    dr: int
    hp: int
    citation: Citation


@dataclass(frozen=True, slots=True)
class IntegrityTable:
    dr: Mapping[Material, int]
    wood_kinds: frozenset[WeaponKind]
    soft_kinds: frozenset[WeaponKind]
    hp_bands: tuple[tuple[float | None, int], ...]  # (max weight or None = any, HP)
    citation: Citation

    def material(self, weapon: Weapon) -> Material:
        if weapon.metal_faced:
            return Material.METAL_FACED_WOOD
        if weapon.wooden_shaft or weapon.kind in self.wood_kinds:
            return Material.WOOD
        if weapon.kind in self.soft_kinds:
            return Material.SOFT
        return Material.METAL

    def hp(self, weight: float) -> int:
        for limit, hp in self.hp_bands:
            if limit is None or weight <= limit:
                return hp
        raise DataError("weapon_integrity: the last HP band must have no max_weight")


def load_integrity_table(data: object) -> IntegrityTable:
    """Pure loader for ``weapon_integrity.json``."""
    where = "weapon_integrity"
    obj = as_object(data, where)
    check_keys(
        obj, where, ("citation", "dr", "wood_kinds", "soft_kinds", "hp_by_weight"), ("about",)
    )
    dr_obj = as_object(obj["dr"], f"{where}.dr")
    dr: dict[Material, int] = {}
    for material in Material:
        if material.value not in dr_obj:
            raise DataError(f"{where}.dr: missing {material.value!r}")
        dr[material] = get_int(dr_obj, material.value, f"{where}.dr")
    bands: list[tuple[float | None, int]] = []
    for i, raw in enumerate(as_list(obj["hp_by_weight"], f"{where}.hp_by_weight")):
        w = f"{where}.hp_by_weight[{i}]"
        entry = as_object(raw, w)
        check_keys(entry, w, ("hp",), ("max_weight",))
        limit = get_number(entry, "max_weight", w) if "max_weight" in entry else None
        bands.append((limit, get_int(entry, "hp", w)))
    if not bands or bands[-1][0] is not None:
        raise DataError(f"{where}.hp_by_weight: the last band must have no max_weight")
    return IntegrityTable(
        dr=MappingProxyType(dr),
        wood_kinds=frozenset(
            as_enum(v, WeaponKind, f"{where}.wood_kinds")
            for v in as_list(obj["wood_kinds"], f"{where}.wood_kinds")
        ),
        soft_kinds=frozenset(
            as_enum(v, WeaponKind, f"{where}.soft_kinds")
            for v in as_list(obj["soft_kinds"], f"{where}.soft_kinds")
        ),
        hp_bands=tuple(bands),
        citation=_citation(obj["citation"], f"{where}.citation"),
    )


def weapon_integrity(weapon: Weapon, table: IntegrityTable) -> WeaponIntegrity:
    """001 Breaking a Weapon: DR by material and HP by weight (Hexfray's table)."""
    _check_target(weapon)
    material = table.material(weapon)
    return WeaponIntegrity(material, table.dr[material], table.hp(weapon.weight), table.citation)


def damage_weapon(
    weapon: Weapon,
    state: WeaponDamageState,
    basic_damage: int,
    table: IntegrityTable,
) -> WeaponHit:
    """001: a blow that hit a weapon (and was not defended) rolls normal damage
    against it; damage past its DR accumulates and it breaks at its HP."""
    if basic_damage < 0:
        raise RulesError(f"damage cannot be negative: {basic_damage}")
    integrity = weapon_integrity(weapon, table)
    penetrating = max(0, basic_damage - integrity.dr)
    if state.broken:
        after = state
    else:
        total = state.damage_taken + penetrating
        after = WeaponDamageState(total, state.weakened, total >= integrity.hp)
    return WeaponHit(
        state, after, basic_damage, integrity.dr, integrity.hp, penetrating, BREAKING_001
    )


# ---------------------------------------------------------------------------
# 001 Subduing a Foe
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PulledPunch:
    st: int
    full_st: int
    citation: Citation = SUBDUING_001


def pulled_punch(weapon: Weapon | None, full_st: int, chosen_st: int) -> PulledPunch:
    """Strike at any ST from 1 up to your own (bare hands, melee, thrown weapons, bows,
    slings — not crossbows or guns). ``weapon`` None is a bare-handed blow."""
    if weapon is not None and weapon.kind in (WeaponKind.CROSSBOW, WeaponKind.GUN):
        raise IllegalAttackError(f"a {weapon.kind.value} cannot pull its punch")
    if not 1 <= chosen_st <= full_st:
        raise IllegalAttackError(f"a pulled blow uses ST 1..{full_st}, not {chosen_st}")
    return PulledPunch(chosen_st, full_st)


def flat_of_blade(mode: WeaponMode) -> WeaponMode:
    """Strike with the flat: a swung cutting mode does crushing damage instead."""
    if not (mode.damage.base is DamageBase.SWING and mode.damage.type is DamageType.CUTTING):
        raise IllegalAttackError(f"{mode.name} is not a swung cutting attack")
    return replace(
        mode, name=f"{mode.name} (flat)", damage=replace(mode.damage, type=DamageType.CRUSHING)
    )


@dataclass(frozen=True, slots=True)
class BluntEnd:
    mode: WeaponMode
    needs_ready: bool  # reversing a reach 2+ weapon takes a Ready maneuver
    citation: Citation = SUBDUING_001


def blunt_end(mode: WeaponMode) -> BluntEnd:
    """Poke with the butt of a thrust-impaling weapon: -1 damage, crushing. Reversing
    a reach 2+ weapon first takes a Ready."""
    if not (mode.damage.base is DamageBase.THRUST and mode.damage.type is DamageType.IMPALING):
        raise IllegalAttackError(f"{mode.name} is not a thrust impaling attack")
    blunt = replace(
        mode,
        name=f"{mode.name} (blunt end)",
        damage=replace(mode.damage, adds=mode.damage.adds - 1, type=DamageType.CRUSHING),
    )
    return BluntEnd(blunt, needs_ready=max(mode.reach.distances) >= 2)


def turns_end_for_end(weapon: Weapon) -> bool:
    """A weapon whose blunt end strikes only after a Ready turns it around: a
    thrust-impaling weapon of reach 2 or more (``blunt_end(...).needs_ready``)."""
    return any(
        m.damage.base is DamageBase.THRUST
        and m.damage.type is DamageType.IMPALING
        and max(m.reach.distances) >= 2
        for m in weapon.modes
    )


# ---------------------------------------------------------------------------
# The two seeds' rules of striking at weapons, as components of the ruleset
# ---------------------------------------------------------------------------


def is_hand_held_missile(weapon: Weapon) -> bool:
    """A hand-held missile weapon, by kind or by a missile mode: its holder resists a
    disarm with DX (000 DISARMING AN OPPONENT, 001 Knocking a Weapon Away)."""
    return weapon.kind in MISSILE_KINDS or weapon.is_missile_weapon


def weight_bonus(defender_weight: float, attacker_weight: float) -> int:
    """000: +1 if the defender's weapon is heavier, +2 at twice the weight, +3 at
    three times and so on (linear reading of "and so on")."""
    ratio = exact_weight(defender_weight) / exact_weight(attacker_weight)
    if ratio <= 1:
        return 0
    return max(1, int(ratio))  # floor


def _skill_or_dx(fighter: Fighter, weapon: Weapon, *, defending: bool) -> tuple[int, str]:
    """The weapon's skill, or DX for the holder of a hand-held missile weapon who
    resists the disarm (both seeds)."""
    return skill_or_dx(fighter, weapon, use_dx=defending and is_hand_held_missile(weapon))


def _st_based(fighter: Fighter, level: int, basis: str) -> tuple[int, str]:
    """001: a ST-based level (level - DX + ST) when it is better."""
    attributes = sheet_of(fighter).attributes
    st_level = level - attributes.dx + attributes.st
    return (st_level, f"ST-based {basis}") if st_level > level else (level, basis)


class WeaponTables(Protocol):
    """The tables a blow on a weapon is judged by, read through the ruleset
    (``rules.sets.seed000.tables.Tables``)."""

    @property
    def blade_breaking(self) -> BladeTable: ...

    @property
    def weapon_integrity(self) -> IntegrityTable: ...


@dataclass(frozen=True, slots=True)
class StruckWeapon:
    """What one blow did to the weapon it landed on: the weapon's new state, whether
    it broke just now, by which rule, and the log's account of it."""

    after: WeaponDamageState
    broke: bool
    citation: Citation
    text: str


class WeaponStrikeRules(DisarmRules, Protocol):
    """One seed's rules of striking at weapons, chosen once by the ruleset's options
    (``Tables.weapon_strikes``): whether a weapon may be struck at, the penalties, the
    disarm (when its Quick Contest is rolled, its levels and what it ends in) and what
    a blow does to the weapon it lands on. ``WeaponStrikes000`` and
    ``WeaponStrikes001`` are the two."""

    @property
    def citation(self) -> Citation:
        """The seed's rule for striking at weapons."""
        ...

    def strike_penalty(self, target: Weapon) -> Modifier:
        """The to-hit penalty for striking at ``target`` (bare hands are refused)."""
        ...

    def disarm_penalty(self, attacker_weapon: Weapon) -> Modifier | None:
        """The further -2 to disarm with anything but a fencing weapon (both seeds),
        under the seed's disarming rule."""
        if is_fencing_weapon(attacker_weapon):
            return None
        words = f"disarming with a non-fencing weapon ({attacker_weapon.name})"
        return Modifier(-2, words, self.disarm_citation)

    def targetable(
        self,
        target: Weapon,
        *,
        weapon_in_reach: bool,
        used_against_attacker_this_turn: bool = False,
        attacked_or_feinted_last_turn: bool = False,
    ) -> Targetability:
        """May the attacker strike at ``target``? ``weapon_in_reach`` is the map
        layer's answer to "does a hex the weapon occupies lie within the attacker's
        reach?"."""
        ...

    def contest_before_attack(
        self,
        attacker: Fighter,
        attacker_weapon: Weapon,
        defender: Fighter,
        defender_weapon: Weapon,
        *,
        attacker_extra: tuple[Modifier, ...] = (),
    ) -> DisarmContest | None:
        """The Quick Contest that replaces the attack roll and the defenses of a
        disarm (000), with the attack's other modifiers as ``attacker_extra``; None
        when the contest follows a hit instead (001)."""
        ...

    def damage_struck_weapon(
        self,
        target: Weapon,
        attacker_weapon: Weapon,
        state: WeaponDamageState,
        basic_damage: int,
        damage_type: DamageType,
        tables: WeaponTables,
    ) -> StruckWeapon:
        """A blow that landed on ``target`` (in ``state``) and was not defended."""
        ...

    # --- the same in both seeds ---------------------------------------------------
    def strike_modifiers(
        self,
        target: Weapon,
        attacker_weapon: Weapon,
        purpose: StrikePurpose = StrikePurpose.BREAK,
    ) -> tuple[Modifier, ...]:
        """Every to-hit modifier for an attack on a weapon (size or reach, and the
        non-fencing penalty to disarm)."""
        mods = [self.strike_penalty(target)]
        if purpose is StrikePurpose.DISARM:
            extra = self.disarm_penalty(attacker_weapon)
            if extra is not None:
                mods.append(extra)
        return tuple(mods)

    def resolve_disarm(
        self,
        attacker: Fighter,
        attacker_weapon: Weapon,
        defender: Fighter,
        defender_weapon: Weapon,
        rng: DiceSource,
        *,
        contest: DisarmContest | None = None,
        knock_away: bool = False,
    ) -> DisarmResult:
        """Roll the disarm's Quick Contest (``contest``: the levels planned with the
        attack, else this seed's own) and the landing of a weapon that leaves a hand."""
        return resolve_disarm(
            attacker,
            attacker_weapon,
            defender,
            defender_weapon,
            rng,
            rules=self,
            contest=contest,
            knock_away=knock_away,
        )


class WeaponStrikes000(WeaponStrikeRules):
    """Seed 000: 000 STRIKING AT WEAPONS (a penalty by size), 000 DISARMING AN
    OPPONENT (a Quick Contest instead of the attack), 000 CUTTING THROUGH A WEAPON
    and 000 BREAKING A BLADE."""

    @property
    def citation(self) -> Citation:
        return STRIKING_000

    @property
    def disarm_citation(self) -> Citation:
        return DISARMING_000

    def strike_penalty(self, target: Weapon) -> Modifier:
        """-5 for a very small weapon (knives, the main-gauche, one-handed guns, any
        melee weapon of reach C only), -3 for a polearm, -4 for anything else."""
        _check_target(target)
        longest = _melee_reach_max(target)
        very_small = (
            target.kind in (WeaponKind.KNIFE, WeaponKind.MAIN_GAUCHE)
            or (target.kind is WeaponKind.GUN and not target.two_handed)
            or (target.kind not in MISSILE_KINDS and longest == 0)
        )
        if very_small:
            return Modifier(-5, f"striking at a very small weapon ({target.name})", STRIKING_000)
        if target.kind is WeaponKind.POLEARM:
            return Modifier(-3, f"striking at a polearm ({target.name})", STRIKING_000)
        return Modifier(-4, f"striking at a weapon ({target.name})", STRIKING_000)

    def targetable(
        self,
        target: Weapon,
        *,
        weapon_in_reach: bool,
        used_against_attacker_this_turn: bool = False,
        attacked_or_feinted_last_turn: bool = False,
    ) -> Targetability:
        """Always, if the weapon attacked, defended or feinted against the attacker
        this turn; otherwise only when in reach."""
        _check_target(target)
        if used_against_attacker_this_turn:
            return Targetability(True, "it was just used against the attacker", STRIKING_000)
        if weapon_in_reach:
            return Targetability(True, "it is within the attacker's reach", STRIKING_000)
        return Targetability(False, "not used against the attacker and out of reach", STRIKING_000)

    def disarm_modifiers(
        self, attacker: Fighter, attacker_weapon: Weapon, defender: Fighter, defender_weapon: Weapon
    ) -> DisarmModifiers:
        """The size and non-fencing penalties go to the attacker's contest roll; the
        defender rolls at +1 for a heavier weapon (+N at N times the weight), +1 if
        stronger, +2 with a two-handed weapon."""
        if exact_weight(attacker_weapon.weight) <= 0:
            raise IllegalAttackError("000 disarming is done with a weapon that has weight")
        # the size or reach penalty (bare hands are refused), -2 unless fencing
        contest_mods = self.strike_modifiers(defender_weapon, attacker_weapon, StrikePurpose.DISARM)
        defender_mods: list[Modifier] = []
        bonus = weight_bonus(defender_weapon.weight, attacker_weapon.weight)
        if bonus:
            defender_mods.append(
                Modifier(
                    bonus,
                    f"{defender_weapon.name} heavier than {attacker_weapon.name}",
                    DISARMING_000,
                )
            )
        if sheet_of(defender).attributes.st > sheet_of(attacker).attributes.st:
            defender_mods.append(Modifier(1, "stronger than the attacker", DISARMING_000))
        if defender_weapon.two_handed:
            defender_mods.append(Modifier(2, "two-handed weapon", DISARMING_000))
        return DisarmModifiers((), contest_mods, tuple(defender_mods))

    def contest_level(
        self, fighter: Fighter, weapon: Weapon, *, defending: bool
    ) -> tuple[int, str]:
        """Weapon skill against weapon skill, or DX against a hand-held missile weapon."""
        return _skill_or_dx(fighter, weapon, defending=defending)

    def contest_before_attack(
        self,
        attacker: Fighter,
        attacker_weapon: Weapon,
        defender: Fighter,
        defender_weapon: Weapon,
        *,
        attacker_extra: tuple[Modifier, ...] = (),
    ) -> DisarmContest | None:
        """The contest is rolled "instead of the normal contest of skills"."""
        return self.disarm_contest(
            attacker, attacker_weapon, defender, defender_weapon, attacker_extra=attacker_extra
        )

    def foe_keeps_weapon(self, winner: ContestWinner, won_by: int) -> DisarmOutcome:
        return DisarmOutcome.NO_EFFECT

    def disarmed_placement(self, weapon: Weapon, *, knock_away: bool) -> Placement:
        """In the wielder's hex, or (the GM's option ``knock_away``) scattered per 000
        DROPPED WEAPONS."""
        return knock_away_placement(weapon) if knock_away else DROPPED_IN_HEX

    def damage_struck_weapon(
        self,
        target: Weapon,
        attacker_weapon: Weapon,
        state: WeaponDamageState,
        basic_damage: int,
        damage_type: DamageType,
        tables: WeaponTables,
    ) -> StruckWeapon:
        """A cutting blow chops a wooden shaft (000 CUTTING THROUGH A WEAPON); a cutting
        or crushing blow may break a blade (000 BREAKING A BLADE); nothing else harms
        a weapon."""
        blades = tables.blade_breaking
        if shaft_stats(target) is not None and damage_type is DamageType.CUTTING:
            hit = cut_shaft(target, state, basic_damage, damage_type)
            text = (
                f"shaft DR {hit.dr}, HP {hit.hp}: {hit.penetrating} through "
                f"({hit.after.condition.value})"
            )
            return StruckWeapon(hit.after, hit.broke, hit.citation, text)
        if is_blade(target, blades) and damage_type in blades.damage_types:
            strike = strike_blade(target, attacker_weapon, basic_damage, damage_type, blades)
            after = WeaponDamageState(
                state.damage_taken, state.weakened, strike.broke or state.broken
            )
            text = f"the blade breaks at {strike.threshold.threshold} basic damage"
            return StruckWeapon(after, strike.broke, strike.citation, text)
        text = f"a {damage_type.value} blow cannot harm the {target.name} (no rule breaks it so)"
        return StruckWeapon(state, False, STRIKING_000, text)


class WeaponStrikes001(WeaponStrikeRules):
    """Seed 001: 001 Striking at Weapons in Tactical Combat (a penalty by reach),
    001 Knocking a Weapon Away (a Quick Contest after a hit) and 001 Breaking a
    Weapon (damage against the weapon's DR and HP)."""

    @property
    def citation(self) -> Citation:
        return TACTICAL_001

    @property
    def disarm_citation(self) -> Citation:
        return KNOCKING_001

    def strike_penalty(self, target: Weapon) -> Modifier:
        """Melee weapons by reach: -3 if it reaches 2 hexes or more, else -5 if it
        reaches C (a knife, reach C-1, is the seed's reach "C" example), else -4;
        missile weapons by size: one-handed (pistol) -5, two-handed small (carbine)
        -4, two-handed large (rifle, bow) -3."""
        _check_target(target)
        if target.kind in MISSILE_KINDS:
            if not target.two_handed:
                return Modifier(-5, f"striking at a pistol-sized {target.name}", STRIKING_001)
            if target.size is WeaponSize.SMALL:
                return Modifier(-4, f"striking at a carbine-sized {target.name}", STRIKING_001)
            return Modifier(-3, f"striking at a rifle-sized {target.name}", STRIKING_001)
        if not target.modes:
            raise IllegalAttackError(f"{target.name} has no modes, so no reach")
        reach: Reach = target.reach
        words = f"striking at a reach {reach} weapon ({target.name})"
        if reach.max >= 2:
            return Modifier(-3, words, STRIKING_001)
        if 0 in reach:
            return Modifier(-5, words, STRIKING_001)
        return Modifier(-4, words, STRIKING_001)

    def targetable(
        self,
        target: Weapon,
        *,
        weapon_in_reach: bool,
        used_against_attacker_this_turn: bool = False,
        attacked_or_feinted_last_turn: bool = False,
    ) -> Targetability:
        """When in reach; and a reach 2+ weapon always on the attacker's first turn
        after it attacked or feinted against him."""
        _check_target(target)
        if weapon_in_reach:
            return Targetability(True, "a hex of the weapon is within reach", TACTICAL_001)
        reach = _melee_reach_max(target)
        if attacked_or_feinted_last_turn and reach is not None and reach >= 2:
            return Targetability(
                True,
                "a reach 2+ weapon on the first turn after it attacked or feinted",
                TACTICAL_001,
            )
        return Targetability(False, "no hex of the weapon is within reach", TACTICAL_001)

    def disarm_modifiers(
        self, attacker: Fighter, attacker_weapon: Weapon, defender: Fighter, defender_weapon: Weapon
    ) -> DisarmModifiers:
        """The reach and non-fencing penalties go to the attack roll; +2 to the
        attacker's contest with Jitte/Sai or Whip skill, +2 to the foe's with a
        two-handed weapon. Only a weapon that can parry disarms."""
        if attacker_weapon.parry is ParryClass.NONE:
            raise IllegalAttackError(
                f"{attacker_weapon.name} cannot parry, so it cannot disarm (001)"
            )
        # the size or reach penalty (bare hands are refused), -2 unless fencing
        hit_mods = self.strike_modifiers(defender_weapon, attacker_weapon, StrikePurpose.DISARM)
        attacker_mods: list[Modifier] = []
        defender_mods: list[Modifier] = []
        if attacker_weapon.skill.casefold() in JITTE_WHIP_SKILLS:
            attacker_mods.append(Modifier(2, f"using {attacker_weapon.skill} skill", KNOCKING_001))
        if defender_weapon.two_handed:
            defender_mods.append(Modifier(2, "two-handed weapon", KNOCKING_001))
        return DisarmModifiers(hit_mods, tuple(attacker_mods), tuple(defender_mods))

    def contest_level(
        self, fighter: Fighter, weapon: Weapon, *, defending: bool
    ) -> tuple[int, str]:
        """Either side may use a ST-based level if better; DX (or ST) against a
        hand-held missile weapon."""
        return _st_based(fighter, *_skill_or_dx(fighter, weapon, defending=defending))

    def contest_before_attack(
        self,
        attacker: Fighter,
        attacker_weapon: Weapon,
        defender: Fighter,
        defender_weapon: Weapon,
        *,
        attacker_extra: tuple[Modifier, ...] = (),
    ) -> DisarmContest | None:
        """None: the attack is rolled as usual, and the contest only after a hit the
        foe failed to defend."""
        return None

    def foe_keeps_weapon(self, winner: ContestWinner, won_by: int) -> DisarmOutcome:
        """The foe keeps his weapon, unready unless he won by 3 or more."""
        if winner is ContestWinner.DEFENDER and won_by >= 3:
            return DisarmOutcome.DEFENDER_KEEPS_READY
        return DisarmOutcome.DEFENDER_KEEPS_UNREADY

    def disarmed_placement(self, weapon: Weapon, *, knock_away: bool) -> Placement:
        """One hex in a random direction."""
        return ONE_HEX_RANDOM

    def damage_struck_weapon(
        self,
        target: Weapon,
        attacker_weapon: Weapon,
        state: WeaponDamageState,
        basic_damage: int,
        damage_type: DamageType,
        tables: WeaponTables,
    ) -> StruckWeapon:
        """Normal damage against the weapon's DR; it breaks at its HP."""
        hit = damage_weapon(target, state, basic_damage, tables.weapon_integrity)
        after = hit.after
        text = f"DR {hit.dr}, {hit.penetrating} through, {after.damage_taken} of {hit.hp} HP"
        return StruckWeapon(after, hit.broke, hit.citation, text)


WEAPON_STRIKES_000 = WeaponStrikes000()
WEAPON_STRIKES_001 = WeaponStrikes001()

