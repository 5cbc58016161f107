"""Seed 000's character sheet: the statistics its rules read, carried by the battle
in ``Fighter.stats`` and read only by this ruleset (``sheet_of``).

A fighter from the template and battle files brings its statistics unread
(``rules.battle.catalog.RawSheet``): the battle is loaded and drawn before any
ruleset is imported. ``sheet_of`` reads them on first use, once, with the same
reading as the sheet codec (``read_sheet``), and refuses malformed ones there.

Encumbrance, when a template does not state it, follows the 3rd-edition levels
(``ENCUMBRANCE_LIMITS``): carried weight up to 2xST none (0), 4xST light (1),
6xST medium (2), 12xST heavy (3), 20xST extra-heavy (4); more cannot be carried.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from types import MappingProxyType
from typing import ClassVar

from rules.battle.catalog import RawSheet
from rules.battle.edits import SheetProblem, weapon_place
from rules.battle.model import Combatant, Fighter, RulesetSheet
from rules.battle.sheet_gear import sheet_stats
from rules.core.errors import DataError
from rules.core.jsondata import (
    as_enum,
    as_int,
    as_list,
    as_object,
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_str,
    parse_json_text,
)
from rules.sets.sheet_fields import (
    SheetDescription,
    SheetEntries,
    SheetField,
    SheetFieldKind,
    SheetValue,
    entry_int,
)

ENCUMBRANCE_LIMITS = (2, 4, 6, 12, 20)  # x ST: none, light, medium, heavy, extra-heavy
MAX_ENCUMBRANCE = len(ENCUMBRANCE_LIMITS) - 1

# The sheet's keys in a template and in the sheet codec.
SHEET_REQUIRED = ("attributes", "skills")
SHEET_OPTIONAL = (
    "shield_skill",
    "dodge_skill",
    "encumbrance",
    "combat_reflexes",
    "fencing",
    "pain_threshold",
    "injury_tolerance",
    "ambidextrous",
)
# What a battle file's combatant may add to its template's sheet.
AMENDMENT_KEYS = ("skills",)  # skill levels added to (or replacing) the template's


@dataclass(frozen=True, slots=True)
class Attributes:
    """ST, DX, IQ and HT."""

    st: int = 10
    dx: int = 10
    iq: int = 10
    ht: int = 10


class PainThreshold(Enum):
    """000 HIGH AND LOW PAIN THRESHOLD (re-exported by ``rules.sets.seed000.stances``)."""

    NORMAL = "normal"
    HIGH = "high"  # halves stun and pain penalties
    LOW = "low"  # doubles them


class InjuryTolerance(Enum):
    """Seed 001 "Injury Tolerance and Hit Location". Seed 000 has no such rule and
    ignores these."""

    DIFFUSE = "diffuse"
    HOMOGENOUS = "homogenous"
    NO_BRAIN = "no brain"
    NO_EYES = "no eyes"
    NO_HEAD = "no head"
    NO_NECK = "no neck"
    NO_VITALS = "no vitals"
    UNLIVING = "unliving"


_AVERAGE = Attributes()  # 10 in each


@dataclass(frozen=True, slots=True)
class Sheet000(RulesetSheet):
    """A fighter's seed 000 statistics."""

    ruleset_key: ClassVar[str | None] = "000"
    # The catalog's templates (assets/fighters.json) hold seed 000's statistics,
    # unread until first use (``sheet_of``).
    reads_raw_sheets: ClassVar[bool] = True

    attributes: Attributes = _AVERAGE
    skills: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    shield_skill: str = "Shield"
    dodge_skill: int | None = None  # 000 DODGE: half of the Dodge skill counts
    encumbrance: int = 0  # levels, 0 = none
    combat_reflexes: bool = False
    fencing: bool = False  # has the Fencing skill style (000 FENCING PARRIES)
    # Traits the attack wiring reads (Acrobatics is skills["Acrobatics"], Jitte/Sai
    # and Whip are the weapon's ``skill``).
    pain_threshold: PainThreshold = PainThreshold.NORMAL  # 000 HIGH AND LOW PAIN THRESHOLD
    injury_tolerance: frozenset[InjuryTolerance] = frozenset()  # 001 Injury Tolerance
    ambidextrous: bool = False  # no off-hand penalty (000 ADVERSE COMBAT CONDITIONS)

    def skill(self, name: str) -> int:
        """Skill level, defaulting to DX-5 when the sheet lacks the skill."""
        return self.skills.get(name, self.attributes.dx - 5)


def sheet_of(who: Fighter | Combatant) -> Sheet000:
    """The seed 000 statistics of a fighter (or of a combatant's fighter)."""
    # The sheet read once from the files' raw sheet, found by its identity at
    # once: the attack path asks several times an attack (``sheet_stats`` reads
    # it, or says why not, for anything else).
    stats = who.fighter.stats if isinstance(who, Combatant) else who.stats
    known = _read_by_identity().get(id(stats))
    if known is not None and known[0] is stats:
        return known[1]
    return sheet_stats(who, Sheet000, _read_once, "000")


def with_sheet(fighter: Fighter, sheet: Sheet000) -> Fighter:
    """The fighter with its seed 000 statistics replaced:
    ``with_sheet(f, replace(sheet_of(f), fencing=True))``."""
    return replace(fighter, stats=sheet)


def read_stats(fighter: Fighter) -> Fighter:
    """The fighter with its statistics read (a ``Sheet000``, not a ``RawSheet``)."""
    return with_sheet(fighter, sheet_of(fighter))


def encumbrance_level(weight: float, st: int) -> int:
    """Encumbrance level 0-4 for ``weight`` lb carried at ``st`` (base rules)."""
    if st < 1:
        raise DataError(f"ST must be at least 1, got {st}")
    for level, factor in enumerate(ENCUMBRANCE_LIMITS):
        if weight <= factor * st:
            return level
    raise DataError(f"{weight:g} lb is more than ST {st} can carry ({20 * st} lb)")


def parse_attributes(data: object, where: str) -> Attributes:
    """ST, DX, IQ and HT, each at least 1."""
    attrs = as_object(data, where)
    check_keys(attrs, where, ("st", "dx", "iq", "ht"))
    values = {k: get_int(attrs, k, where) for k in ("st", "dx", "iq", "ht")}
    if any(v < 1 for v in values.values()):
        raise DataError(f"{where}: every attribute must be at least 1")
    return Attributes(**values)


def parse_skills(data: object, where: str) -> Mapping[str, int]:
    """Skill name -> level."""
    skills = as_object(data, where)
    return MappingProxyType({name: as_int(v, f"{where}.{name}") for name, v in skills.items()})


def read_sheet(
    obj: Mapping[str, object], where: str, *, carried_weight: float | None = None
) -> Sheet000:
    """The sheet's keys of ``obj`` (a template or a saved sheet, whose other keys
    the caller checks). Without an ``encumbrance`` the level comes from
    ``carried_weight`` and ST, or is none when no weight is given."""
    attributes = parse_attributes(obj["attributes"], f"{where}.attributes")
    if "encumbrance" in obj:
        encumbrance = get_int(obj, "encumbrance", where)
        if not 0 <= encumbrance <= MAX_ENCUMBRANCE:
            raise DataError(f"{where}.encumbrance: a level 0-4, got {encumbrance}")
    elif carried_weight is not None:
        try:
            encumbrance = encumbrance_level(carried_weight, attributes.st)
        except DataError as exc:
            raise DataError(f"{where}: {exc}") from exc
    else:
        encumbrance = 0
    dodge = as_int(obj["dodge_skill"], f"{where}.dodge_skill") if "dodge_skill" in obj else None
    tolerances = frozenset(
        as_enum(t, InjuryTolerance, f"{where}.injury_tolerance[{i}]")
        for i, t in enumerate(as_list(obj.get("injury_tolerance", []), f"{where}.injury_tolerance"))
    )
    return Sheet000(
        attributes=attributes,
        skills=parse_skills(obj["skills"], f"{where}.skills"),
        shield_skill=get_str(obj, "shield_skill", where, "Shield"),
        dodge_skill=dodge,
        encumbrance=encumbrance,
        combat_reflexes=get_bool(obj, "combat_reflexes", where, False),
        fencing=get_bool(obj, "fencing", where, False),
        pain_threshold=get_enum(obj, "pain_threshold", PainThreshold, where, PainThreshold.NORMAL),
        injury_tolerance=tolerances,
        ambidextrous=get_bool(obj, "ambidextrous", where, False),
    )


def write_sheet(sheet: Sheet000) -> dict[str, object]:
    """The sheet's keys as ``read_sheet`` reads them."""
    a = sheet.attributes
    out: dict[str, object] = {
        "attributes": {"st": a.st, "dx": a.dx, "iq": a.iq, "ht": a.ht},
        "skills": dict(sorted(sheet.skills.items())),
        "shield_skill": sheet.shield_skill,
        "encumbrance": sheet.encumbrance,
        "combat_reflexes": sheet.combat_reflexes,
        "fencing": sheet.fencing,
        "pain_threshold": sheet.pain_threshold.value,
        "injury_tolerance": sorted(t.value for t in sheet.injury_tolerance),
        "ambidextrous": sheet.ambidextrous,
    }
    if sheet.dodge_skill is not None:
        out["dodge_skill"] = sheet.dodge_skill
    return out


@functools.cache  # a cache, so that clearing the rules' caches empties it as well
def _read_by_identity() -> dict[int, tuple[RawSheet, Sheet000]]:
    """The sheets read, by the identity of their raw sheet (which each entry holds,
    so that its id is not reused): the battle copies the same raw sheet into every
    state, and the attack path asks for a sheet several times an attack, where
    ``_read_raw``'s look-up would hash the whole raw sheet each time."""
    return {}


def _read_once(raw: RawSheet) -> Sheet000:
    by_identity = _read_by_identity()
    known = by_identity.get(id(raw))
    if known is not None and known[0] is raw:
        return known[1]
    sheet = _read_raw(raw)
    by_identity[id(raw)] = (raw, sheet)
    return sheet


@functools.cache
def _read_raw(raw: RawSheet) -> Sheet000:
    """A template's sheet, with a battle file's amendments; read once per raw sheet
    (the battle copies the same object into every state)."""
    obj = as_object(parse_json_text(raw.fields, raw.where), raw.where)
    check_keys(obj, raw.where, SHEET_REQUIRED, SHEET_OPTIONAL)
    sheet = read_sheet(obj, raw.where, carried_weight=raw.carried_weight)
    for text, where in raw.amendments:
        amendment = as_object(parse_json_text(text, where), where)
        check_keys(amendment, where, (), AMENDMENT_KEYS)
        if "skills" in amendment:
            levels = parse_skills(amendment["skills"], f"{where}.skills")
            sheet = replace(sheet, skills=MappingProxyType({**sheet.skills, **levels}))
    return sheet


# --- the sheet as the character editor shows it --------------------------------------
# The ranges are the editor's bounds, ours, not the seed's: 3rd-edition attributes
# run about 1-20 for people and higher for beasts and giants, skills about 1-25.
def _number(key: str, label: str, section: str, low: int, high: int, tip: str) -> SheetField:
    return SheetField(key, label, SheetFieldKind.NUMBER, section, low, high, tooltip=tip)


def _flag(key: str, label: str, tip: str) -> SheetField:
    return SheetField(key, label, SheetFieldKind.FLAG, "Traits", tooltip=tip)


SHEET_DESCRIPTION = SheetDescription(
    fields=(
        _number("st", "ST", "Attributes", 1, 50, "Strength: damage, weapon ST, encumbrance"),
        _number("dx", "DX", "Attributes", 1, 30, "Dexterity: skill defaults are DX-5"),
        _number("iq", "IQ", "Attributes", 1, 30, "Intelligence"),
        _number("ht", "HT", "Attributes", 1, 30, "Health: stun, knockdown and death rolls"),
        _number("hit_points", "Hit points", "Attributes", 1, 200, "The health bar's scale"),
        _number("move", "Move", "Attributes", 0, 20, "Hexes a turn"),
        SheetField(
            "dodge_skill",
            "Dodge skill",
            SheetFieldKind.NUMBER,
            "Defenses",
            1,
            30,
            optional=True,
            tooltip="000 DODGE: half of the Dodge skill counts; empty: no Dodge skill",
        ),
        SheetField(
            "shield_skill",
            "Shield skill",
            SheetFieldKind.TEXT,
            "Defenses",
            tooltip="The skill a block rolls against (000 BLOCK); its level is under Skills",
        ),
        _number(
            "encumbrance", "Encumbrance", "Defenses", 0, MAX_ENCUMBRANCE, "0 none to 4 extra-heavy"
        ),
        _flag("combat_reflexes", "Combat Reflexes", "+1 to active defenses"),
        _flag("fencing", "Fencing style", "000 FENCING PARRIES"),
        SheetField(
            "pain_threshold",
            "Pain threshold",
            SheetFieldKind.CHOICE,
            "Traits",
            choices=tuple(p.value for p in PainThreshold),
            tooltip="000 HIGH AND LOW PAIN THRESHOLD",
        ),
        _flag(
            "ambidextrous", "Ambidextrous", "No off-hand penalty (000 ADVERSE COMBAT CONDITIONS)"
        ),
    ),
    skill_minimum=1,
    skill_maximum=30,
    skills_tooltip="Skill levels; a skill the sheet lacks defaults to DX-5",
)


def sheet_entries(fighter: Fighter) -> SheetEntries:
    """The fighter's values in ``SHEET_DESCRIPTION``'s fields."""
    sheet = sheet_of(fighter)
    a = sheet.attributes
    values: dict[str, SheetValue] = {
        "st": a.st,
        "dx": a.dx,
        "iq": a.iq,
        "ht": a.ht,
        "hit_points": fighter.hit_points,
        "move": fighter.move,
        "dodge_skill": sheet.dodge_skill,
        "shield_skill": sheet.shield_skill,
        "encumbrance": sheet.encumbrance,
        "combat_reflexes": sheet.combat_reflexes,
        "fencing": sheet.fencing,
        "pain_threshold": sheet.pain_threshold.value,
        "ambidextrous": sheet.ambidextrous,
    }
    return SheetEntries(values=MappingProxyType(values), skills=sheet.skills)


def with_sheet_entries(fighter: Fighter, entries: SheetEntries) -> Fighter:
    """The fighter with ``entries`` (valid by ``SHEET_DESCRIPTION``: ``DataError``
    names the first that is not); what the editor does not show (001's injury
    tolerance) stays as it was."""
    problems = SHEET_DESCRIPTION.problems(entries)
    if problems:
        raise DataError(f"{problems[0].place}: {problems[0].message}")
    values = entries.values
    dodge = values.get("dodge_skill")
    sheet = replace(
        sheet_of(fighter),
        attributes=Attributes(
            st=entry_int(values, "st"),
            dx=entry_int(values, "dx"),
            iq=entry_int(values, "iq"),
            ht=entry_int(values, "ht"),
        ),
        skills=MappingProxyType(dict(entries.skills)),
        shield_skill=str(values["shield_skill"]).strip(),
        dodge_skill=dodge if isinstance(dodge, int) and not isinstance(dodge, bool) else None,
        encumbrance=entry_int(values, "encumbrance"),
        combat_reflexes=values["combat_reflexes"] is True,
        fencing=values["fencing"] is True,
        pain_threshold=PainThreshold(values["pain_threshold"]),
        ambidextrous=values["ambidextrous"] is True,
    )
    hit_points, move = entry_int(values, "hit_points"), entry_int(values, "move")
    return replace(fighter, stats=sheet, hit_points=hit_points, move=move)


def sheet_problems(fighter: Fighter) -> tuple[SheetProblem, ...]:
    """What seed 000 refuses beyond the fields' ranges: a weapon whose skill the
    sheet lacks (its attacks and parries would quietly fall to the DX-5 default)."""
    skills = sheet_of(fighter).skills
    return tuple(
        SheetProblem(
            weapon_place(index, "skill"),
            f"{weapon.name} is used with {weapon.skill}, which is not among the skills: "
            "add it under Skills.",
        )
        for index, weapon in enumerate(fighter.weapons)
        if weapon.skill.strip() and weapon.skill not in skills
    )
