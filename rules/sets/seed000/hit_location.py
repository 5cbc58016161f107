"""Seed 000's hit locations: the random body hit table with its sub-rolls, the
aimed-location penalties and the location-specific wound rules.

The numbers are data, ``assets/rulesets/000/hit_locations.json``;
``parse_hit_location_table`` turns the parsed JSON into a frozen
``HitLocationTable``; the ruleset reads the asset once
(``rules.sets.seed000.tables.Tables.hit_location_table``). docs/hit-locations.md restates the table
and lists every reading of the seed's typos.

The table is one of the hit location systems a ruleset can offer: it extends
``rules.sets.seed000.location_rules.LocationRules`` (whose records and required
core ``HitLocationSystem`` this module re-exports). Besides the core - the
locations with their penalties, the random roll with every die recorded, its exact
chances by enumerating every way the dice can fall (3d6 x sub-roll x second
sub-roll, no sampling) and what a blow does there
(``rules.sets.seed000.wound_effects``) - it has seed 000's own rules: what may aim
where (notes 5 and 10) and where a missed aim lands (000 NEAR MISSES, 000 MISSING A
SPECIFIC HIT LOCATION).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import ClassVar

from hexmap import parse_digits
from rules.battle.model import DamageType
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource, distribution, roll, roll_until
from rules.core.errors import DataError, RulesError
from rules.core.jsondata import (
    JSONObject,
    as_enum,
    as_int,
    as_int_range,
    as_list,
    as_object,
    check_keys,
    get_bool,
    get_int,
    get_str,
)
from rules.core.memo_keys import ByIdentity
from rules.core.modifiers import Modifier
from rules.sets.seed000.location_rules import (
    AREAS,
    HitLocationSystem,
    Location,
    LocationAttempt,
    LocationRoll,
    LocationRules,
    TableSide,
    condition_on_cover,
)
from rules.sets.seed000.sheet import InjuryTolerance
from rules.sets.seed000.wound_effects import (
    BodySide,
    LocationInfo,
    Step,
    Victim,
    WoundAssessment,
    assess_wound_000,
    kind_000,
    note_000,
    parse_wound_spec,
)

__all__ = [
    "HIT_LOCATIONS_FILE",
    "BodySide",
    "HitLocationSystem",
    "HitLocationTable",
    "Location",
    "LocationAttempt",
    "LocationRoll",
    "TableRow",
    "TableSide",
    "parse_hit_location_table",
]

HIT_LOCATIONS_FILE = "hit_locations.json"
RANDOM_000 = cite("000", "RANDOM HIT LOCATION")
# The keys of the limbs an aim at "the arm" or "the leg" means (the near ones).
_LIMB_KEYS_000 = {"arm": "near_arm", "hand": "near_hand", "leg": "near_thigh", "foot": "near_foot"}
PENALTY_000 = cite("000", "HIT PENALTY")
TABLE_000 = cite("000", "RANDOM BODY HIT")
MISSING_000 = cite("000", "MISSING A SPECIFIC HIT LOCATION")
HANDS_000 = cite("000", "HITTING HANDS IN MELEE")
NEAR_MISSES_000 = cite("000", "NEAR MISSES")


@dataclass(frozen=True, slots=True)
class TableRow:
    """One row of a 3d6 table: first roll ``low..high``, optional sub-roll and
    second sub-roll ranges, and ``direction`` ("front" or "side_or_back") when the
    row only applies to attacks from there."""

    low: int
    high: int
    location: str
    sub: tuple[int, int] | None = None
    sub2: tuple[int, int] | None = None
    direction: str | None = None

    def matches_first(self, total: int, direction: str) -> bool:
        return self.low <= total <= self.high and self.direction in (None, direction)


# --------------------------------------------------------------------------- helpers


def weapon_side_of(left_handed: bool) -> BodySide:
    return BodySide.LEFT if left_handed else BodySide.RIGHT


def side_from_die(die: int) -> BodySide:
    """A random left or right (note 9): 1-3 right, 4-6 left."""
    return BodySide.RIGHT if die <= 3 else BodySide.LEFT


def resolve_table_side(
    side: TableSide,
    *,
    shield_side_near: bool,
    shielded: bool,
    side_die: int | None,
    left_handed: bool = False,
) -> BodySide:
    """Which side of the target's body (left or right) a near/far limb is.

    With the sides told apart (a shield, or a refused stance: note 9's
    assumption) the near limbs are on the weapon hand's side, unless the attacker
    stands on the other side (``shield_side_near``). Otherwise note 9 rolls left
    or right: ``side_die`` 1-3 right, 4-6 left."""
    if not shielded:
        if side_die is None:
            raise RulesError("an unshielded target's limb side needs a side die")
        return side_from_die(side_die)
    weapon = weapon_side_of(left_handed)
    near = weapon.other if shield_side_near else weapon
    return near if side is TableSide.NEAR else near.other


def direction_of(from_back: bool, from_side: bool) -> str:
    return "side_or_back" if (from_back or from_side) else "front"


def first_roll_shift(from_above: bool, from_below: bool, above: int, below: int) -> int:
    if from_above and from_below:
        raise RulesError("an attack cannot come both from above and from below")
    return above if from_above else below if from_below else 0


# --------------------------------------------------------------------------- the table

# The number of the 216 ways 3d6 fall that give each total.
_WAYS_3D6 = {total: int(p * 216) for total, p in distribution(3).items()}



@dataclass(frozen=True, slots=True)
class NearMiss:
    to: str
    swung_only: bool
    types: frozenset[DamageType] | None


@dataclass(frozen=True, slots=True)
class ShieldPD:
    """Note 13: factor on a shield's PD against blows at the location."""

    swung: int = 1
    always: int = 1


@dataclass(frozen=True)
class HitLocationTable(LocationRules):
    """Seed 000's hit locations (see the module docstring)."""

    limb_keys: ClassVar[Mapping[str, str]] = MappingProxyType(_LIMB_KEYS_000)
    no_chinks: ClassVar[str] = "seed 000 has no chinks in armor"
    system: str
    locations: Mapping[str, Location]
    rows: tuple[TableRow, ...]
    back_rows: frozenset[int]
    back_results: tuple[TableRow, ...]  # sub-roll ranges only (low/high unused)
    from_above: int
    from_below: int
    lowest_row: int
    highest_row: int
    wounds: Mapping[str, LocationInfo]
    shield_pd: Mapping[str, ShieldPD]
    near_misses: Mapping[str, NearMiss]
    miss_to: Mapping[str, str]
    notes: Mapping[int, str]
    weapon_penalty_range: tuple[int, int]
    armor_penalty_delta: int
    # The damage types' ordinary wounding multipliers: the ruleset's wounding table,
    # which ``Tables.hit_location_table`` hands over.
    base_multipliers: Mapping[DamageType, Fraction]
    # ``exact_distribution`` by its arguments: a random location under cover checks
    # its odds on every roll, so each direction and cover is counted once. Not an
    # init field, so ``dataclasses.replace`` starts a new table with an empty one.
    _distributions: dict[
        tuple[bool, bool, bool, frozenset[str], bool], Mapping[str, Fraction]
    ] = field(default_factory=dict, init=False, repr=False, compare=False)
    # ``_candidates`` by (row, direction).
    _rows_at: dict[tuple[int, str], list[TableRow]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    # --- the dice ---------------------------------------------------------------
    def _row(self, total: int) -> int:
        return min(max(total, self.lowest_row), self.highest_row)

    def _candidates(self, row: int, direction: str) -> list[TableRow]:
        known = self._rows_at.get((row, direction))
        if known is None:  # each roll asks three times: read the rows once
            known = [r for r in self.rows if r.matches_first(row, direction)]
            self._rows_at[(row, direction)] = known
        return known

    def _back_substituted(self, row: int, from_back: bool) -> bool:
        return from_back and row in self.back_rows

    def needs_sub(self, row: int, *, from_back: bool, direction: str) -> bool:
        if self._back_substituted(row, from_back):
            return True
        return any(r.sub is not None for r in self._candidates(row, direction))

    def needs_sub2(self, row: int, sub: int, *, from_back: bool, direction: str) -> bool:
        if self._back_substituted(row, from_back):
            return False
        return any(
            r.sub2 is not None
            for r in self._candidates(row, direction)
            if r.sub is not None and r.sub[0] <= sub <= r.sub[1]
        )

    def lookup(
        self,
        row: int,
        sub: int | None = None,
        sub2: int | None = None,
        *,
        from_back: bool = False,
        from_side: bool = False,
    ) -> str:
        """The location for a table row (first roll already shifted and brought
        onto the table) and the sub-rolls, when the row needs them."""
        direction = direction_of(from_back, from_side)
        if self._back_substituted(row, from_back):
            if sub is None:
                raise RulesError(f"row {row} from the back needs a sub-roll")
            for r in self.back_results:
                if r.sub is not None and r.sub[0] <= sub <= r.sub[1]:
                    return r.location
            raise RulesError(f"no back-hit result for sub-roll {sub}")
        found = self._candidates(row, direction)
        if any(r.sub is not None for r in found):
            if sub is None:
                raise RulesError(f"row {row} needs a sub-roll")
            found = [r for r in found if r.sub is not None and r.sub[0] <= sub <= r.sub[1]]
        if any(r.sub2 is not None for r in found):
            if sub2 is None:
                raise RulesError(f"row {row} sub-roll {sub} needs a second sub-roll")
            found = [r for r in found if r.sub2 is not None and r.sub2[0] <= sub2 <= r.sub2[1]]
        if len(found) != 1:
            raise RulesError(f"the table has {len(found)} results for row {row}/{sub}/{sub2}")
        return found[0].location

    def roll_random(
        self,
        rng: DiceSource,
        *,
        from_above: bool = False,
        from_below: bool = False,
        from_back: bool = False,
        from_side: bool = False,
        covered: frozenset[str] = frozenset(),
        shield_side_near: bool = False,
        shielded: bool = True,
        left_handed: bool = False,
        what: str | None = None,
    ) -> LocationRoll:
        """Roll a random hit location (000 RANDOM HIT LOCATION).

        3d6, shifted -3 for attacks from above and +3 from below (totals beyond the
        table count as its first or last row); a sub-roll and a second sub-roll
        where the row asks. From the back the head rows (3 and 5) use the back
        breakdown; from the side or back the kidneys replace the groin. A covered
        result is rolled again from scratch.

        The near limbs are on the weapon hand's side (right, or left when
        ``left_handed``), the far ones on the other, unless ``shield_side_near``
        (the attacker is on the target's shield side). With ``shielded`` False
        (no shield and an open stance: note 9) a side die picks left or right, as
        it does for a side-less location that can cripple a limb (the shoulder, the
        pelvis). ``what`` names the roll for dice entered at the table."""
        shift = first_roll_shift(from_above, from_below, self.from_above, self.from_below)
        if covered:  # fail early (and never loop) when nothing open can be hit
            self.exact_distribution(from_above, from_below, from_back, covered, from_side=from_side)
        tried = roll_until(
            rng,
            _TableTry(ByIdentity(self), shift, from_back, from_side, covered, what),
        )
        attempts = [attempt for attempt, _ in tried]
        steps = [step for _, step in tried]
        where = attempts[-1].location
        loc = self.locations[where]
        side, side_die = self._side(
            loc,
            rng,
            shield_side_near=shield_side_near,
            shielded=shielded,
            left_handed=left_handed,
            what=None if what is None else f"{what}: side die (1-3 right, 4-6 left)",
        )
        if side is not None:
            how = f"side die {side_die}: " if side_die is not None else ""
            steps.append(Step(f"{how}{side.value}", note_000(9)))
        return LocationRoll(
            self.system, tuple(attempts), where, loc.label, side, side_die, tuple(steps)
        )

    def _side(
        self,
        loc: Location,
        rng: DiceSource,
        *,
        shield_side_near: bool,
        shielded: bool,
        left_handed: bool,
        what: str | None,
    ) -> tuple[BodySide | None, int | None]:
        if loc.side is not None:
            die = None if shielded else roll(1, rng, what=what)[0]
            side = resolve_table_side(
                loc.side,
                shield_side_near=shield_side_near,
                shielded=shielded,
                side_die=die,
                left_handed=left_handed,
            )
            return side, die
        if self.wounds[loc.key].wound.cripple is not None:
            die = roll(1, rng, what=what)[0]
            return side_from_die(die), die
        return None, None

    def exact_distribution(
        self,
        from_above: bool = False,
        from_below: bool = False,
        from_back: bool = False,
        covered: frozenset[str] = frozenset(),
        *,
        from_side: bool = False,
    ) -> Mapping[str, Fraction]:
        """The exact chance of each location, by enumerating 3d6 x sub-roll x
        second sub-roll (7776 equally likely cases; sub-rolls a row does not use
        simply repeat its case). Covered locations are conditioned away.

        Counted over the 16 totals of 3d6 weighted by their ways (the table reads
        only the total) x sub-roll x second sub-roll: 576 look-ups; once per
        direction and cover for each table."""
        args = (from_above, from_below, from_back, covered, from_side)
        known = self._distributions.get(args)
        if known is not None:
            return known
        shift = first_roll_shift(from_above, from_below, self.from_above, self.from_below)
        counts: dict[str, int] = {}
        for total, ways in _WAYS_3D6.items():
            row = self._row(total + shift)
            for sub, sub2 in itertools.product(range(1, 7), repeat=2):
                where = self.lookup(row, sub, sub2, from_back=from_back, from_side=from_side)
                counts[where] = counts.get(where, 0) + ways
        total_ways = 6**5
        dist = {k: Fraction(n, total_ways) for k, n in sorted(counts.items())}
        result = (
            condition_on_cover(dist, covered, self.locations)
            if covered
            else MappingProxyType(dist)
        )
        self._distributions[args] = result
        return result

    # --- aiming -------------------------------------------------------------------
    @property
    def random_citation(self) -> Citation:
        return RANDOM_000

    def aim_problem(
        self,
        location_key: str,
        damage_type: DamageType,
        *,
        swung: bool,
        tight_beam: bool = False,
        tolerances: frozenset[InjuryTolerance] = frozenset(),
    ) -> str | None:
        """Note 5: only thrusts and missiles reach the eyes through a helm's
        eye-slits; note 10: only an impaling thrust goes through the armpit into
        the vitals. Every other row takes any blow."""
        info = self.wounds[self.location(location_key).key]
        spec = info.wound
        note = TABLE_000 if spec.restriction_note is None else note_000(spec.restriction_note)
        allowed = spec.allowed_types
        if allowed is not None and not (kind_000(damage_type) in allowed or damage_type in allowed):
            names = ", ".join(sorted(t.value for t in allowed))
            return f"only {names} attacks can hit the {info.label.lower()} ({note})"
        if spec.no_swing and swung:
            return f"a swing cannot hit the {info.label.lower()} ({note})"
        return None

    def missed_aim(
        self,
        location_key: str,
        total: int,
        effective_skill: int,
        aim_penalty: int,
        damage_type: DamageType,
        swung: bool,
        hand_weapon: bool = True,
    ) -> tuple[str, str, Citation] | None:
        """000 NEAR MISSES (missed by 1 at the head or brain swung, the vitals
        impaling or by a bullet: the shoulder) or 000 MISSING A SPECIFIC HIT
        LOCATION (a hand weapon that missed only because of the aim: roughly the
        same place; the seed gives a missile weapon no such shift)."""
        if location_key not in self.locations:
            return None
        near = self.near_miss(location_key, effective_skill - total, damage_type, swung)
        if near is not None:
            return near, "a near miss by 1", NEAR_MISSES_000
        if (
            hand_weapon
            and aim_penalty < 0
            and self.missed_only_by_location(total, effective_skill, aim_penalty)
        ):
            to = self.missed_specific_location(location_key)
            if to != location_key:
                return to, "missed only because of the aim", MISSING_000
        return None

    def penalty(
        self,
        location_key: str,
        *,
        shield_side: bool,
        melee: bool,
        from_front: bool = True,
        fleeting: bool = False,
    ) -> tuple[Modifier, ...]:
        """Itemised modifiers to hit a location of an unarmored foe.

        * the table's penalty (000 HIT PENALTY). For a far location the seed gives
          two figures: the plain one applies with ``shield_side`` - the target's
          sides differ, it carries a shield there or stands refused (note 9, and
          ``rules.sets.seed000.stances.stance_geometry``) - the bracketed one otherwise;
        * aiming at the groin from the side or rear doubles its penalty (note 20);
          the kidneys' bracketed -10 is read as aiming at them from the front;
        * -2 more for a hand in melee (000 HITTING HANDS IN MELEE);
        * ``fleeting``: a briefly visible target the GM lets be aimed at doubles the
          location penalty (000 RANDOM HIT LOCATION)."""
        loc = self.location(location_key)
        name = loc.label.lower()
        mods: list[Modifier] = []
        if loc.penalty:
            mods.append(Modifier(loc.penalty, f"aimed at the {name}", PENALTY_000))
        if shield_side and loc.shield_penalty is not None and loc.shield_penalty != loc.penalty:
            mods.append(
                Modifier(
                    loc.shield_penalty - loc.penalty, f"{name} on the shield side", note_000(9)
                )
            )
        if from_front and loc.front_penalty is not None:
            mods.append(
                Modifier(
                    loc.front_penalty - loc.penalty, f"{name} aimed at from the front", TABLE_000
                )
            )
        if not from_front and loc.rear_penalty is not None:
            mods.append(
                Modifier(
                    loc.rear_penalty - loc.penalty,
                    f"{name} aimed at from the side or rear: penalty doubled",
                    note_000(20),
                )
            )
        if melee and loc.hand:
            mods.append(Modifier(-2, "hands move in melee", HANDS_000))
        if fleeting:
            so_far = sum(m.value for m in mods)
            if so_far:
                mods.append(Modifier(so_far, "briefly visible target: penalty doubled", RANDOM_000))
        return tuple(mods)

    def armor_penalty(
        self, location_key: str, *, shield_side: bool, melee: bool, from_front: bool = True
    ) -> tuple[Modifier, ...]:
        """Note 26: the armor on a location is targeted at the location's
        penalty -3."""
        base = self.penalty(
            location_key, shield_side=shield_side, melee=melee, from_front=from_front
        )
        return (
            *base,
            Modifier(self.armor_penalty_delta, "aimed at the armor on it", note_000(26)),
        )

    @staticmethod
    def cuts_armor_straps(damage_type: DamageType, basic_damage: int) -> bool:
        """Note 26: a cutting hit on a location's armor with 2+ basic damage cuts
        the straps of medieval armor (the GM lowers its PD/DR, maybe Move)."""
        return damage_type is DamageType.CUTTING and basic_damage >= 2

    def shield_pd_factor(self, location_key: str, *, swung: bool) -> int:
        """Note 13: how many times a shield's PD counts against a blow here - 2 for
        swung blows at the chest area, always 2 for the shield arm, elbow and hand
        (call it only when the target's shield covers the location)."""
        pd = self.shield_pd.get(self.location(location_key).key, ShieldPD())
        return max(pd.always, pd.swung if swung else 1)

    # --- misses -------------------------------------------------------------------
    def near_miss(
        self, location_key: str, attack_margin: int, damage_type: DamageType, swung: bool
    ) -> str | None:
        """000 NEAR MISSES (and note 2): an attack that missed by exactly 1
        (``attack_margin`` -1) at the head or brain with a swung hand weapon, or at
        the vitals with a bullet or impaling attack, hits the shoulder instead -
        if the defender also failed to defend (the caller checks that)."""
        nm = self.near_misses.get(self.location(location_key).key)
        if nm is None or attack_margin != -1:
            return None
        if nm.swung_only and not swung:
            return None
        if nm.types is not None and kind_000(damage_type) not in nm.types:
            return None
        return nm.to

    def missed_specific_location(self, location_key: str) -> str:
        """000 MISSING A SPECIFIC HIT LOCATION: the location hit when an aimed hand
        weapon attack failed only because of the location penalty (and the foe
        failed to defend): roughly the same place - the head, the arm on that side,
        the thigh of that leg, or the shoulder for the torso."""
        return self.miss_to[self.location(location_key).key]

    @staticmethod
    def missed_only_by_location(
        attack_roll: int, effective_skill: int, location_penalty: int
    ) -> bool:
        """True when the roll failed against the aimed skill but would have hit the
        same target unaimed (``location_penalty`` is the total, e.g. -5)."""
        return effective_skill < attack_roll <= effective_skill - location_penalty

    @staticmethod
    def hits_mount_or_neighbour(attack_roll: int, effective_skill: int) -> bool:
        """000 MISSING A SPECIFIC HIT LOCATION: a miss at a mounted or partly
        obscured foe who failed to parry or block hits the mount or the character
        in the way on a roll of 9 or less, or of the modified skill if lower."""
        return attack_roll <= min(9, effective_skill)

    # --- wounds -------------------------------------------------------------------
    def assess_wound(
        self,
        location_key: str,
        damage_type: DamageType,
        basic_damage: int,
        victim: Victim,
        *,
        armor_dr: int = 0,
        side: BodySide | None = None,
        swung: bool = False,
        from_back: bool = False,
        tight_beam: bool = False,
        chink: bool = False,
        base_multiplier: Fraction | None = None,
    ) -> WoundAssessment:
        """What the blow does there (``rules.sets.seed000.wound_effects.assess_wound_000``).
        ``base_multiplier`` overrides the damage type's ordinary multiplier (default:
        the ruleset's wounding table, ``base_multipliers``). ``tight_beam`` and
        ``chink`` are seed 001 options; seed 000 refuses a chink."""
        self.refuse_chink(chink)
        self.location(location_key)
        if base_multiplier is None:
            try:
                base_multiplier = self.base_multipliers[damage_type]
            except KeyError:
                raise RulesError(f"no wounding multiplier for {damage_type.value}") from None
        return assess_wound_000(
            self.wounds,
            location_key,
            damage_type,
            basic_damage,
            victim,
            armor_dr=armor_dr,
            side=side,
            swung=swung,
            from_back=from_back,
            base_multiplier=base_multiplier,
        )


# --------------------------------------------------------------------------- loading


def _int_list(obj: JSONObject, key: str, where: str) -> tuple[int, ...]:
    if key not in obj:
        return ()
    return tuple(
        as_int(v, f"{where}.{key}[{i}]") for i, v in enumerate(as_list(obj[key], f"{where}.{key}"))
    )


def _penalty(obj: JSONObject, key: str, where: str) -> int | None:
    if key not in obj:
        return None
    value = get_int(obj, key, where)
    if value > 0:
        raise DataError(f"{where}.{key}: a hit location penalty must be 0 or negative")
    return value


def parse_location(key: str, data: object, where: str, citation: Citation) -> Location:
    obj = as_object(data, where)
    check_keys(
        obj,
        where,
        ("label", "area", "penalty"),
        (
            "side",
            "random",
            "shield_penalty",
            "front_penalty",
            "rear_penalty",
            "hand",
            "printed_notes",
            "notes",
            "major_damage",
            "shield_pd",
            "near_miss",
            "miss_to",
            "wound",
        ),
    )
    area = get_str(obj, "area", where)
    if area not in AREAS:
        raise DataError(f"{where}.area: {area!r} is not one of {', '.join(AREAS)}")
    side_raw = obj.get("side")
    penalty = _penalty(obj, "penalty", where)
    assert penalty is not None
    return Location(
        key=key,
        label=get_str(obj, "label", where),
        area=area,
        penalty=penalty,
        citation=citation,
        random=get_bool(obj, "random", where, True),
        side=None if side_raw is None else as_enum(side_raw, TableSide, f"{where}.side"),
        shield_penalty=_penalty(obj, "shield_penalty", where),
        front_penalty=_penalty(obj, "front_penalty", where),
        rear_penalty=_penalty(obj, "rear_penalty", where),
        hand=get_bool(obj, "hand", where, False),
        notes=_int_list(obj, "notes", where),
        printed_notes=_int_list(obj, "printed_notes", where),
        major_damage=str(obj.get("major_damage", "")),
    )


def _parse_row(data: object, where: str) -> TableRow:
    obj = as_object(data, where)
    check_keys(obj, where, ("roll", "location"), ("sub", "sub2", "direction"))
    low, high = as_int_range(obj["roll"], f"{where}.roll")
    direction = obj.get("direction")
    if direction not in (None, "front", "side_or_back"):
        raise DataError(f"{where}.direction: expected 'front' or 'side_or_back'")
    return TableRow(
        low,
        high,
        get_str(obj, "location", where),
        as_int_range(obj["sub"], f"{where}.sub") if "sub" in obj else None,
        as_int_range(obj["sub2"], f"{where}.sub2") if "sub2" in obj else None,
        direction if isinstance(direction, str) else None,
    )


def parse_hit_location_table(
    data: object, base_multipliers: Mapping[DamageType, Fraction]
) -> HitLocationTable:
    """Parsed ``hit_locations.json`` of seed 000 -> ``HitLocationTable``, its wounds
    multiplied by ``base_multipliers`` (the ruleset's wounding table).
    Malformed data raises ``DataError`` naming the place."""
    w = "hit_locations"
    obj = as_object(data, w)
    check_keys(
        obj,
        w,
        ("seed", "first_roll", "back_substitution", "random_table", "locations"),
        ("about", "other_targets", "notes"),
    )
    seed = get_str(obj, "seed", w)
    fr = as_object(obj["first_roll"], f"{w}.first_roll")
    check_keys(
        fr, f"{w}.first_roll", ("dice", "from_above", "from_below", "lowest_row", "highest_row")
    )
    if get_int(fr, "dice", f"{w}.first_roll") != 3:
        raise DataError(f"{w}.first_roll.dice: the table is read on 3d6")

    locations: dict[str, Location] = {}
    wounds: dict[str, LocationInfo] = {}
    shield_pd: dict[str, ShieldPD] = {}
    near: dict[str, NearMiss] = {}
    miss_to: dict[str, str] = {}
    for key, raw in as_object(obj["locations"], f"{w}.locations").items():
        where = f"{w}.locations.{key}"
        loc = parse_location(key, raw, where, PENALTY_000)
        lo = as_object(raw, where)
        locations[key] = loc
        wounds[key] = LocationInfo(
            key, loc.label, parse_wound_spec(lo.get("wound", {}), f"{where}.wound")
        )
        if "shield_pd" in lo:
            sp = as_object(lo["shield_pd"], f"{where}.shield_pd")
            check_keys(sp, f"{where}.shield_pd", ("note",), ("swung", "always"))
            shield_pd[key] = ShieldPD(
                get_int(sp, "swung", f"{where}.shield_pd", 1),
                get_int(sp, "always", f"{where}.shield_pd", 1),
            )
        if "near_miss" in lo:
            nm = as_object(lo["near_miss"], f"{where}.near_miss")
            check_keys(nm, f"{where}.near_miss", ("to",), ("swung", "types"))
            types = None
            if "types" in nm:
                types = frozenset(
                    as_enum(t, DamageType, f"{where}.near_miss.types")
                    for t in as_list(nm["types"], f"{where}.near_miss.types")
                )
            near[key] = NearMiss(
                get_str(nm, "to", f"{where}.near_miss"),
                get_bool(nm, "swung", f"{where}.near_miss", False),
                types,
            )
        miss_to[key] = get_str(lo, "miss_to", where)

    rows = tuple(
        _parse_row(r, f"{w}.random_table[{i}]")
        for i, r in enumerate(as_list(obj["random_table"], f"{w}.random_table"))
    )
    bs = as_object(obj["back_substitution"], f"{w}.back_substitution")
    check_keys(bs, f"{w}.back_substitution", ("rows", "results"))
    back_rows = frozenset(_int_list(bs, "rows", f"{w}.back_substitution"))
    back_results = []
    for i, r in enumerate(as_list(bs["results"], f"{w}.back_substitution.results")):
        rw = f"{w}.back_substitution.results[{i}]"
        ro = as_object(r, rw)
        check_keys(ro, rw, ("sub", "location"))
        back_results.append(
            TableRow(0, 0, get_str(ro, "location", rw), as_int_range(ro["sub"], f"{rw}.sub"))
        )

    notes: dict[int, str] = {}
    for k, v in as_object(obj.get("notes", {}), f"{w}.notes").items():
        number = parse_digits(k)
        if number is None or not isinstance(v, str):
            raise DataError(f"{w}.notes.{k:.20}: expected a numbered text")
        notes[number] = v
    weapon_range = (-5, -3)
    armor_delta = -3
    if "other_targets" in obj:
        ot = as_object(obj["other_targets"], f"{w}.other_targets")
        check_keys(ot, f"{w}.other_targets", ("weapon", "armor"))
        wo = as_object(ot["weapon"], f"{w}.other_targets.weapon")
        check_keys(wo, f"{w}.other_targets.weapon", ("label", "penalty_range", "text"))
        weapon_range = as_int_range(wo["penalty_range"], f"{w}.other_targets.weapon.penalty_range")
        ao = as_object(ot["armor"], f"{w}.other_targets.armor")
        check_keys(ao, f"{w}.other_targets.armor", ("label", "penalty_delta", "note", "text"))
        armor_delta = get_int(ao, "penalty_delta", f"{w}.other_targets.armor")

    table = HitLocationTable(
        system=seed,
        locations=MappingProxyType(locations),
        rows=rows,
        back_rows=back_rows,
        back_results=tuple(back_results),
        from_above=get_int(fr, "from_above", f"{w}.first_roll"),
        from_below=get_int(fr, "from_below", f"{w}.first_roll"),
        lowest_row=get_int(fr, "lowest_row", f"{w}.first_roll"),
        highest_row=get_int(fr, "highest_row", f"{w}.first_roll"),
        wounds=MappingProxyType(wounds),
        shield_pd=MappingProxyType(shield_pd),
        near_misses=MappingProxyType(near),
        miss_to=MappingProxyType(miss_to),
        notes=MappingProxyType(notes),
        weapon_penalty_range=weapon_range,
        armor_penalty_delta=armor_delta,
        base_multipliers=base_multipliers,
    )
    _validate(table)
    return table


def _validate(t: HitLocationTable) -> None:
    """Every reference names a location and every way the dice can fall gives
    exactly one location (checked by walking the whole table)."""
    names = set(t.locations)
    refs = [r.location for r in t.rows] + [r.location for r in t.back_results]
    refs += [nm.to for nm in t.near_misses.values()] + list(t.miss_to.values())
    refs += [i.wound.becomes.location for i in t.wounds.values() if i.wound.becomes]
    refs += [i.wound.overflow.location for i in t.wounds.values() if i.wound.overflow]
    bad = sorted(set(refs) - names)
    if bad:
        raise DataError(f"hit_locations: unknown location(s) {', '.join(bad)}")
    if t.lowest_row > t.highest_row:
        raise DataError("hit_locations.first_roll: lowest_row is above highest_row")
    for back, side in itertools.product((False, True), repeat=2):
        for row in range(t.lowest_row, t.highest_row + 1):
            for sub, sub2 in itertools.product(range(1, 7), repeat=2):
                try:
                    t.lookup(row, sub, sub2, from_back=back, from_side=side)
                except RulesError as exc:
                    raise DataError(f"hit_locations.random_table: {exc}") from exc
    on_table = {r.location for r in t.rows} | {r.location for r in t.back_results}
    for key, loc in t.locations.items():
        if loc.random != (key in on_table):
            raise DataError(
                f"hit_locations.locations.{key}: 'random' is {loc.random} but the location is"
                f"{'' if key in on_table else ' not'} on the table"
            )


@dataclass(frozen=True, slots=True)
class _TableTry:
    """One pass at the 000 table (``HitLocationTable.roll_random``): the 3d6, the
    sub-rolls its row asks for, the location and whether it is under cover (then
    rolled again). What follows reads only where the accepted pass landed."""

    table: ByIdentity[HitLocationTable]
    shift: int
    from_back: bool
    from_side: bool
    covered: frozenset[str]
    what: str | None

    def __call__(self, rng: DiceSource) -> tuple[LocationAttempt, Step]:
        table, shift, what = self.table.value, self.shift, self.what
        from_back, from_side = self.from_back, self.from_side
        direction = direction_of(from_back, from_side)
        dice = roll(3, rng, what=what)
        total = sum(dice) + shift
        row = table._row(total)
        text = f"3d6 {'+'.join(map(str, dice))} = {sum(dice)}"
        if shift:
            text += f" {shift:+d} ({'from above' if shift < 0 else 'from below'}) = {total}"
        if row != total:
            text += f", read as {row}"
        sub = sub2 = None
        if table.needs_sub(row, from_back=from_back, direction=direction):
            sub = roll(1, rng, what=None if what is None else f"{what}: sub-roll")[0]
            text += f"; sub-roll {sub}"
            if table.needs_sub2(row, sub, from_back=from_back, direction=direction):
                second = None if what is None else f"{what}: second sub-roll"
                sub2 = roll(1, rng, what=second)[0]
                text += f"; second sub-roll {sub2}"
        where = table.lookup(row, sub, sub2, from_back=from_back, from_side=from_side)
        hidden = where in self.covered
        text += f": {table.locations[where].label}" + (
            " (under cover: roll again)" if hidden else ""
        )
        if table._back_substituted(row, from_back):
            text += " (back-hit breakdown)"
        step = Step(text, TABLE_000 if not hidden else RANDOM_000)
        return LocationAttempt(dice, shift, total, row, sub, sub2, where, hidden), step

    def reads(self, result: tuple[LocationAttempt, Step]) -> Hashable:
        return result[0].location

    def accepted(self, result: tuple[LocationAttempt, Step]) -> bool:
        return not result[0].covered
