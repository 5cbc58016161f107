"""Adverse combat conditions and postures (000 ADVERSE COMBAT CONDITIONS).

The seed lists situations of the attacker and of the defender, each with a hit
modifier. Hexfray keeps them as data (``assets/rulesets/<key>/adverse_conditions.json``)
and the GM picks the ones in play for an attack as ``SelectedCondition`` values;
a ranged entry (bad light -1..-9) needs the value the GM chose.

* ``ConditionCatalog`` holds every condition; ``condition_modifiers`` turns a
  selection into itemised ``Modifier``s for one attack, and
  ``removes_active_defenses`` tells whether the target may defend at all.
* Three conditions follow from the fighter and are computed, not picked:
  ``minimum_st_modifier``, ``off_hand_modifier`` and ``large_shield_modifier``.
* ``Posture`` with ``posture_modifiers`` fills the posture entries from where each
  combatant stands, kneels or lies (``postures.json``).

Loaders are pure (parsed JSON in, frozen objects out: ``parse_condition_catalog``,
``parse_posture_table``); the ruleset reads the assets (``Tables.adverse_conditions``,
``Tables.postures``), and every caller takes its catalog from there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from rules.battle.model import Posture as Posture  # re-exported: the map needs it at start-up
from rules.battle.model import ProneCover as ProneCover
from rules.battle.model import Shield, ShieldSize
from rules.core.citation import Citation, cite
from rules.core.errors import DataError, RulesError
from rules.core.jsondata import (
    JSONObject,
    as_int,
    as_list,
    as_object,
    check_keys,
    get_bool,
    get_citation,
    get_str,
)
from rules.core.modifiers import Modifier

CONDITIONS_CITATION = cite("000", "ADVERSE COMBAT CONDITIONS")
CONDITIONS_FILE = "adverse_conditions.json"
POSTURES_FILE = "postures.json"

# The automatic attacker's conditions, in the seed's numbers. The catalog carries
# the same entries (as "automatic") for display; a test keeps the two in step.
OFF_HAND_PENALTY = -4
LARGE_SHIELD_SWING_PENALTY = -2
MINIMUM_ST_PENALTY_PER_POINT = -1


class ConditionError(RulesError):
    """A condition selection the rules do not allow (unknown key, value out of range,
    two conditions that exclude each other, an impossible attack description)."""


class ConditionSide(Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


# --------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class ModifierRange:
    """The values a condition may take: ``low``..``high`` inclusive.

    ``low`` None means open-ended ("-1 or worse"); ``default`` is the value used when
    the GM picks none (None: the GM must pick). A fixed modifier has
    ``low == high == default``.
    """

    low: int | None
    high: int
    default: int | None

    def __post_init__(self) -> None:
        if self.low is not None and self.low > self.high:
            raise DataError(f"modifier range {self.low}..{self.high} is empty")
        if self.default is not None and not self.contains(self.default):
            raise DataError(f"default {self.default} lies outside {self.describe()}")

    @classmethod
    def fixed(cls, value: int) -> ModifierRange:
        return cls(value, value, value)

    @property
    def is_fixed(self) -> bool:
        return self.low == self.high

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and value <= self.high

    def describe(self) -> str:
        if self.is_fixed:
            return f"{self.high:+d}"
        if self.low is None:
            return f"{self.high:+d} or worse"
        return f"{self.high:+d} to {self.low:+d}"


@dataclass(frozen=True, slots=True)
class Condition:
    """One attacker's or defender's situation from the seed's list.

    ``melee``/``ranged`` give its modifier for that kind of attack, None when it
    does not apply to it (a kneeling target is harder to hit only from range).
    """

    key: str
    label: str
    side: ConditionSide
    melee: ModifierRange | None
    ranged: ModifierRange | None
    note: str = ""
    swinging_only: bool = False  # applies to swinging melee attacks only
    removes_active_defenses: bool = False
    aim_cancels_for_missiles: bool = False  # aiming a missile weapon removes it
    group: str | None = None  # at most one condition per group per side
    automatic: bool = False  # normally computed from the fighter, not picked
    citation: Citation = CONDITIONS_CITATION

    def range_for(self, *, melee: bool) -> ModifierRange | None:
        return self.melee if melee else self.ranged

    def applies_to(self, *, melee: bool, swinging: bool) -> bool:
        if self.range_for(melee=melee) is None:
            return False
        return swinging or not self.swinging_only

    @property
    def needs_value(self) -> bool:
        """True when the GM must pick a value (a range without a default)."""
        return any(r.default is None for r in self._ranges)

    @property
    def _ranges(self) -> tuple[ModifierRange, ...]:
        return tuple(r for r in (self.melee, self.ranged) if r is not None)

    def describe(self) -> str:
        """The modifier as text, e.g. "-1 to -9", "-1 melee, -3 ranged"."""
        if self.melee == self.ranged and self.melee is not None:
            return self.melee.describe()
        parts = []
        if self.melee is not None:
            kind = "swinging" if self.swinging_only else "melee"
            parts.append(f"{self.melee.describe()} {kind}")
        if self.ranged is not None:
            parts.append(f"{self.ranged.describe()} ranged")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class SelectedCondition:
    """A condition the GM picked for one attack, with the value chosen from its
    range (None: its default, or its only value)."""

    key: str
    value: int | None = None


@dataclass(frozen=True, slots=True)
class ConditionCatalog:
    conditions: tuple[Condition, ...]

    def __post_init__(self) -> None:
        keys = [c.key for c in self.conditions]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        if duplicates:
            raise DataError(f"duplicate condition key(s): {', '.join(duplicates)}")

    @property
    def attacker_conditions(self) -> tuple[Condition, ...]:
        return tuple(c for c in self.conditions if c.side is ConditionSide.ATTACKER)

    @property
    def defender_conditions(self) -> tuple[Condition, ...]:
        return tuple(c for c in self.conditions if c.side is ConditionSide.DEFENDER)

    def get(self, key: str) -> Condition:
        for c in self.conditions:
            if c.key == key:
                return c
        raise ConditionError(f"no adverse condition {key!r}")

    def validate(
        self, selected: Iterable[SelectedCondition]
    ) -> tuple[tuple[Condition, int | None], ...]:
        """Check a selection; return each condition with its chosen value.

        Raises ``ConditionError`` for an unknown key, a condition picked twice, two
        picks from one exclusive group, a value outside the condition's range (or
        any value for a condition whose melee and ranged values differ), and a
        missing value where the GM must pick one.
        """
        resolved: list[tuple[Condition, int | None]] = []
        seen: set[str] = set()
        groups: dict[tuple[ConditionSide, str], str] = {}
        for pick in selected:
            condition = self.get(pick.key)
            if condition.key in seen:
                raise ConditionError(f"{condition.label} is selected twice")
            seen.add(condition.key)
            if condition.group is not None:
                slot = (condition.side, condition.group)
                if slot in groups:
                    other = self.get(groups[slot]).label
                    raise ConditionError(f"{condition.label} and {other} exclude each other")
                groups[slot] = condition.key
            _check_value(condition, pick.value)
            resolved.append((condition, pick.value))
        return tuple(resolved)

    def condition_modifiers(
        self,
        selected: Sequence[SelectedCondition],
        *,
        melee: bool,
        swinging: bool,
        ranged_aimed: bool = False,
    ) -> tuple[Modifier, ...]:
        """Itemised hit modifiers of the selected conditions for one attack.

        ``melee`` False means a ranged attack; ``swinging`` marks a swung melee
        attack; ``ranged_aimed`` a missile attack whose shooter took time to aim.
        Conditions that do not apply to this kind of attack are left out; a
        selected condition that applies with no effect (a -0 posture, an aimed
        shot on bad footing) is listed at 0 so the GM sees it was weighed.
        """
        if swinging and not melee:
            raise ConditionError("only a melee attack can be a swinging attack")
        if ranged_aimed and melee:
            raise ConditionError("only a ranged attack can be an aimed missile attack")
        result: list[Modifier] = []
        for condition, value in self.validate(selected):
            if not condition.applies_to(melee=melee, swinging=swinging):
                continue
            if condition.aim_cancels_for_missiles and ranged_aimed:
                reason = f"{condition.label} (no effect: the missile was aimed)"
                result.append(Modifier(0, reason, condition.citation))
                continue
            span = condition.range_for(melee=melee)
            assert span is not None  # applies_to checked it
            chosen = value if value is not None else span.default
            assert chosen is not None  # validate() demanded a value otherwise
            result.append(Modifier(chosen, condition.label, condition.citation))
        return tuple(result)

    def removes_active_defenses(self, selected: Iterable[SelectedCondition]) -> bool:
        """True if a selected condition leaves the target no active defense."""
        return any(c.removes_active_defenses for c, _ in self.validate(selected))


def _check_value(condition: Condition, value: int | None) -> None:
    ranges = condition._ranges
    if value is None:
        if condition.needs_value:
            raise ConditionError(f"{condition.label} needs a value ({condition.describe()})")
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConditionError(f"{condition.label}: value must be an integer, got {value!r}")
    if not all(r.contains(value) for r in ranges):
        raise ConditionError(f"{condition.label}: {value:+d} is outside {condition.describe()}")


# ---------------------------------------------------------------- pure loader


def parse_condition_catalog(data: object) -> ConditionCatalog:
    """Build the catalog from parsed ``adverse_conditions.json``. Raises DataError."""
    root = as_object(data, "adverse_conditions")
    check_keys(root, "adverse_conditions", ("attacker", "defender"), ("about", "citation"))
    citation = get_citation(root, "citation", "adverse_conditions", CONDITIONS_CITATION)
    conditions: list[Condition] = []
    for side in ConditionSide:
        entries = as_list(root[side.value], f"adverse_conditions.{side.value}")
        for i, entry in enumerate(entries):
            where = f"adverse_conditions.{side.value}[{i}]"
            conditions.append(_parse_condition(entry, side, citation, where))
    return ConditionCatalog(tuple(conditions))


_CONDITION_KEYS_OPTIONAL = (
    "any",
    "melee",
    "ranged",
    "note",
    "group",
    "swinging_only",
    "removes_active_defenses",
    "aim_cancels_for_missiles",
    "automatic",
    "citation",
)


def _parse_condition(
    entry: object, side: ConditionSide, citation: Citation, where: str
) -> Condition:
    obj = as_object(entry, where)
    check_keys(obj, where, ("key", "label"), _CONDITION_KEYS_OPTIONAL)
    if "any" in obj and ("melee" in obj or "ranged" in obj):
        raise DataError(f"{where}: give either 'any' or 'melee'/'ranged', not both")
    melee: ModifierRange | None
    ranged: ModifierRange | None
    if "any" in obj:
        melee = ranged = _parse_range(obj["any"], f"{where}.any")
    else:
        melee = _parse_range(obj["melee"], f"{where}.melee") if "melee" in obj else None
        ranged = _parse_range(obj["ranged"], f"{where}.ranged") if "ranged" in obj else None
    if melee is None and ranged is None:
        raise DataError(f"{where}: needs a modifier ('any', 'melee' or 'ranged')")
    swinging_only = get_bool(obj, "swinging_only", where, False)
    if swinging_only and melee is None:
        raise DataError(f"{where}: a swinging-only condition needs a melee modifier")
    group = get_str(obj, "group", where) if obj.get("group") is not None else None
    return Condition(
        key=get_str(obj, "key", where),
        label=get_str(obj, "label", where),
        side=side,
        melee=melee,
        ranged=ranged,
        note=get_str(obj, "note", where) if "note" in obj else "",
        swinging_only=swinging_only,
        removes_active_defenses=get_bool(obj, "removes_active_defenses", where, False),
        aim_cancels_for_missiles=get_bool(obj, "aim_cancels_for_missiles", where, False),
        group=group,
        automatic=get_bool(obj, "automatic", where, False),
        citation=get_citation(obj, "citation", where, citation),
    )


def _parse_range(value: object, where: str) -> ModifierRange:
    """An integer (fixed) or {"min": int|null, "max": int, "default": int|null}."""
    if not isinstance(value, dict):
        return ModifierRange.fixed(as_int(value, where))
    obj = as_object(value, where)
    check_keys(obj, where, ("min", "max", "default"))
    low = None if obj["min"] is None else as_int(obj["min"], f"{where}.min")
    default = None if obj["default"] is None else as_int(obj["default"], f"{where}.default")
    try:
        return ModifierRange(low, as_int(obj["max"], f"{where}.max"), default)
    except DataError as exc:
        raise DataError(f"{where}: {exc}") from exc


# ------------------------------------------------------- automatic conditions


def minimum_st_modifier(fighter_st: int, weapon_min_st: int) -> Modifier | None:
    """-1 per point of ST below the weapon's minimum; None when strong enough."""
    shortfall = weapon_min_st - fighter_st
    if shortfall <= 0:
        return None
    return Modifier(
        MINIMUM_ST_PENALTY_PER_POINT * shortfall,
        f"ST {fighter_st} under the weapon's minimum ST {weapon_min_st}",
        CONDITIONS_CITATION,
    )


def off_hand_modifier(
    *, off_hand: bool, ambidextrous: bool = False, training: int = 0
) -> Modifier | None:
    """-4 for an attack with the off hand.

    ``training`` is how many points Off-Hand Weapons Training takes off (the seed
    says it lowers the penalty without saying by how much, so the GM enters it);
    it cannot turn the penalty into a bonus. An ambidextrous fighter has no off
    hand. The caller says which hand attacks: ``Fighter.handedness`` is the hand
    that holds the weapon on the map, not necessarily the better hand.
    """
    if isinstance(training, bool) or not isinstance(training, int) or training < 0:
        raise ConditionError(f"off-hand training must be a whole number >= 0, got {training!r}")
    if not off_hand or ambidextrous:
        return None
    value = min(0, OFF_HAND_PENALTY + training)
    if value == 0:
        return None
    reason = "off-hand attack" + (" (lowered by training)" if training else "")
    return Modifier(value, reason, CONDITIONS_CITATION)


def large_shield_modifier(shield: Shield | None, swinging: bool) -> Modifier | None:
    """-2 to a swinging attack made while carrying a large shield."""
    if shield is None or shield.size is not ShieldSize.LARGE or not swinging:
        return None
    return Modifier(
        LARGE_SHIELD_SWING_PENALTY,
        f"swinging past a large shield ({shield.name})",
        CONDITIONS_CITATION,
    )


# --------------------------------------------------------------------- postures


@dataclass(frozen=True, slots=True)
class PostureEffect:
    """One side's hit modifiers for a posture. ``ranged_by_cover`` is set (and
    replaces ``ranged``) when the value depends on a lying target's exposure."""

    melee: int
    ranged: int
    citation: Citation
    ranged_by_cover: tuple[tuple[ProneCover, int], ...] = ()
    note: str = ""

    def value(self, *, melee: bool, cover: ProneCover = ProneCover.HEAD_UP_NO_COVER) -> int:
        if melee:
            return self.melee
        for which, value in self.ranged_by_cover:
            if which is cover:
                return value
        return self.ranged


@dataclass(frozen=True, slots=True)
class PostureEntry:
    posture: Posture
    label: str
    attacker: PostureEffect
    defender: PostureEffect


@dataclass(frozen=True, slots=True)
class PostureTable:
    entries: tuple[PostureEntry, ...]

    def __post_init__(self) -> None:
        have = [e.posture for e in self.entries]
        missing = [p.value for p in Posture if p not in have]
        if missing:
            raise DataError(f"postures: missing {', '.join(missing)}")
        if len(set(have)) != len(have):
            raise DataError("postures: a posture is listed twice")

    def entry(self, posture: Posture) -> PostureEntry:
        for e in self.entries:
            if e.posture is posture:
                return e
        raise DataError(f"postures: missing {posture.value}")  # unreachable after init

    def attacker_modifier(self, posture: Posture, *, melee: bool) -> Modifier | None:
        """The modifier an attacker in ``posture`` takes on a melee or a ranged
        attack; None when it takes none."""
        attacker = self.entry(posture)
        value = attacker.attacker.value(melee=melee)
        if not value:
            return None
        return Modifier(value, f"attacker {attacker.label.lower()}", attacker.attacker.citation)

    def posture_modifiers(
        self,
        attacker_posture: Posture,
        defender_posture: Posture,
        *,
        melee: bool,
        prone_cover: ProneCover = ProneCover.HEAD_UP_NO_COVER,
    ) -> tuple[Modifier, ...]:
        """The attacker's then the defender's posture modifier; zeros are left out.

        ``prone_cover`` matters only for a ranged attack on a target lying flat.
        """
        result: list[Modifier] = []
        attacker = self.attacker_modifier(attacker_posture, melee=melee)
        if attacker is not None:
            result.append(attacker)
        defender = self.entry(defender_posture)
        effect = defender.defender
        value = effect.value(melee=melee, cover=prone_cover)
        if value:
            reason = f"target {defender.label.lower()}"
            if not melee and effect.ranged_by_cover:
                reason += f", {prone_cover.label}"
            result.append(Modifier(value, reason, effect.citation))
        return tuple(result)


def parse_posture_table(data: object) -> PostureTable:
    """Build the posture table from parsed ``postures.json``. Raises DataError."""
    root = as_object(data, "postures")
    check_keys(root, "postures", ("postures",), ("about", "citation"))
    citation = get_citation(root, "citation", "postures", CONDITIONS_CITATION)
    entries: list[PostureEntry] = []
    for i, item in enumerate(as_list(root["postures"], "postures.postures")):
        where = f"postures.postures[{i}]"
        obj = as_object(item, where)
        check_keys(obj, where, ("key", "label", "attacker", "defender"))
        key = get_str(obj, "key", where)
        try:
            posture = Posture(key)
        except ValueError:
            raise DataError(f"{where}.key: unknown posture {key!r}") from None
        entries.append(
            PostureEntry(
                posture=posture,
                label=get_str(obj, "label", where),
                attacker=_parse_effect(obj["attacker"], citation, f"{where}.attacker"),
                defender=_parse_effect(obj["defender"], citation, f"{where}.defender"),
            )
        )
    return PostureTable(tuple(entries))


def _parse_effect(value: object, citation: Citation, where: str) -> PostureEffect:
    obj = as_object(value, where)
    check_keys(obj, where, ("melee", "ranged"), ("citation", "note"))
    melee = as_int(obj["melee"], f"{where}.melee")
    raw_ranged = obj["ranged"]
    by_cover: list[tuple[ProneCover, int]] = []
    if isinstance(raw_ranged, dict):
        cover_obj: JSONObject = as_object(raw_ranged, f"{where}.ranged")
        check_keys(cover_obj, f"{where}.ranged", [c.value for c in ProneCover])
        for cover in ProneCover:
            by_cover.append((cover, as_int(cover_obj[cover.value], f"{where}.ranged")))
        ranged = by_cover[0][1]
    else:
        ranged = as_int(raw_ranged, f"{where}.ranged")
    return PostureEffect(
        melee=melee,
        ranged=ranged,
        citation=get_citation(obj, "citation", where, citation),
        ranged_by_cover=tuple(by_cover),
        note=get_str(obj, "note", where) if "note" in obj else "",
    )


def posture_modifiers(
    attacker_posture: Posture,
    defender_posture: Posture,
    *,
    melee: bool,
    prone_cover: ProneCover = ProneCover.HEAD_UP_NO_COVER,
    table: PostureTable,
) -> tuple[Modifier, ...]:
    """``PostureTable.posture_modifiers`` on the ruleset's ``table`` (``Tables.postures``)."""
    return table.posture_modifiers(
        attacker_posture, defender_posture, melee=melee, prone_cover=prone_cover
    )
