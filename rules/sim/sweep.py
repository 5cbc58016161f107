"""Sweeps: one thing of one fighter varied over a list of values, the rest of the
battle fixed ("Fencer.skill=10..18", "Knight.shield=none,small,medium",
"Axeman.weapon=great-axe,halberd").

The text is read by ``parse_sweep`` (numbers bounded before they are converted);
``sweep_states`` makes one battle state per value, changing the fighter's sheet
as the character editor does: its fields and skills through the ruleset's sheet
description (``Sheets.entries`` / ``Sheets.with_entries``), its weapon, shield and
armor from the ruleset's catalog, every sheet checked as an ``EditFighter`` checks
it. What a fighter can vary:

* ``skill``: the level of the skill of its first weapon; ``skill:<Name>``: of the
  skill ``Name``;
* ``weapon``: its first weapon, by catalog key (it keeps the old weapon's skill
  level when the sheet lacks the new weapon's skill);
* ``shield``, ``armor``: by catalog key, a key's first word ("small" for
  "small-shield"), or ``none``;
* any field of the ruleset's sheet by its key or label (``st``, ``hit_points``,
  ``strength``...): a number, a choice, yes or no.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from rules.battle.edits import check_fighter, edited_combatant
from rules.battle.model import Armor, Combatant, Fighter, Shield, Weapon
from rules.battle.state import BattleState
from rules.core.errors import DataError, IllegalCommandError
from rules.sets.protocol import Ruleset
from rules.sets.registry import get_ruleset
from rules.sets.sheet_fields import SheetEntries, SheetFieldKind, SheetValue

MAX_SPEC_CHARS = 1000
MAX_VALUES = 100  # values in one sweep
MAX_DIGITS = 6  # of a number in a sweep: no field goes past that
NONE = "none"
YES = frozenset({"yes", "true", "on", "1"})
NO = frozenset({"no", "false", "off", "0"})
_NUMBER = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_RANGE = re.compile(r"(?P<low>[+-]?[0-9]+)\s*\.\.\s*(?P<high>[+-]?[0-9]+)")


class SweepError(ValueError):
    """A sweep that cannot be read or applied, said in one line."""


@dataclass(frozen=True, slots=True)
class Sweep:
    fighter: str  # a fighter's name (or the start of it) or id
    thing: str  # "skill", "skill:Rapier", "weapon", "shield", "armor", a field
    values: tuple[str, ...]  # as written; a range written out


def read_number(text: str) -> int:
    """A whole number of at most ``MAX_DIGITS`` digits (checked before ``int``:
    a huge digit string is refused, not converted)."""
    text = text.strip()
    if not _NUMBER.fullmatch(text):
        raise SweepError(f"not a whole number of at most {MAX_DIGITS} digits: {text[:20]!r}")
    return int(text)


def parse_sweep(text: str) -> Sweep:
    """``FIGHTER.THING=VALUES``: VALUES a comma list or a range ``LOW..HIGH``."""
    if len(text) > MAX_SPEC_CHARS:
        raise SweepError(f"a sweep is at most {MAX_SPEC_CHARS} characters")
    target, equals, listed = text.partition("=")
    fighter, dot, thing = target.strip().rpartition(".")
    if not equals or not dot or not fighter.strip() or not thing.strip():
        raise SweepError(f"a sweep is FIGHTER.THING=VALUES, not {text[:60]!r}")
    span = _RANGE.fullmatch(listed.strip())
    if span is not None:
        low, high = read_number(span["low"]), read_number(span["high"])
        if high < low:
            raise SweepError(f"an empty range: {low}..{high}")
        if high - low + 1 > MAX_VALUES:
            raise SweepError(f"at most {MAX_VALUES} values in a sweep")
        values = tuple(str(v) for v in range(low, high + 1))
    else:
        values = tuple(v.strip() for v in listed.split(","))
        if not all(values):
            raise SweepError(f"a value is missing in {listed[:60]!r}")
        if len(values) > MAX_VALUES:
            raise SweepError(f"at most {MAX_VALUES} values in a sweep")
        if len(set(values)) != len(values):
            raise SweepError("a value is given twice")
    return Sweep(fighter.strip(), thing.strip(), values)


# --- applying a sweep -------------------------------------------------------------------
def find_fighter(state: BattleState, name: str) -> Combatant:
    """The combatant called ``name`` (or with that id), else the one whose name
    starts with it or has it as a word ("Fencer" for "Fencer Alys")."""
    wanted = name.casefold()
    exact = [c for c in state.combatants if c.name.casefold() == wanted or c.id == name]
    if len(exact) == 1:
        return exact[0]
    close = [
        c
        for c in state.combatants
        if c.name.casefold().startswith(wanted) or wanted in c.name.casefold().split()
    ]
    if len(close) == 1:
        return close[0]
    names = ", ".join(c.name for c in (exact or close or state.combatants))
    found = "several fighters" if exact or close else "no fighter"
    raise SweepError(f"{found} called {name!r} (fighters: {names})")


def _catalog_key(keys: Mapping[str, object], value: str, what: str) -> str:
    wanted = value.casefold()
    if wanted in keys:
        return wanted
    close = [k for k in keys if k.split("-")[0] == wanted or k.startswith(wanted)]
    if len(close) == 1:
        return close[0]
    raise SweepError(f"no {what} {value!r} in the catalog (it has: {', '.join(keys)})")


def _with_weapon(ruleset: Ruleset, fighter: Fighter, key: str) -> Fighter:
    catalog = ruleset.sheets.catalog()
    new: Weapon = catalog.weapon(_catalog_key(catalog.weapons, key, "weapon"))
    if not fighter.weapons:
        raise SweepError(f"{fighter.name} has no weapon to change")
    old = fighter.weapons[0]
    rest = fighter.weapons[1:]
    if any(w.key == new.key for w in rest):
        rest = tuple(w for w in rest if w.key != new.key)
    changed = replace(fighter, weapons=(new, *rest))
    entries = ruleset.sheets.entries(changed)
    if new.skill not in entries.skills and old.skill in entries.skills:
        skills = {**entries.skills, new.skill: entries.skills[old.skill]}
        changed = ruleset.sheets.with_entries(changed, SheetEntries(entries.values, skills))
    return changed


def _with_shield(ruleset: Ruleset, fighter: Fighter, value: str) -> Fighter:
    if value.casefold() == NONE:
        return replace(fighter, shield=None)
    catalog = ruleset.sheets.catalog()
    shield: Shield = catalog.shield(_catalog_key(catalog.shields, value, "shield"))
    return replace(fighter, shield=shield)


def _with_armor(ruleset: Ruleset, fighter: Fighter, value: str) -> Fighter:
    if value.casefold() == NONE:
        return replace(fighter, armor=None)
    catalog = ruleset.sheets.catalog()
    armor: Armor = catalog.armor[_catalog_key(catalog.armor, value, "armor")]
    return replace(fighter, armor=armor)


def _with_skill(ruleset: Ruleset, fighter: Fighter, skill: str, value: str) -> Fighter:
    entries = ruleset.sheets.entries(fighter)
    name = next((s for s in entries.skills if s.casefold() == skill.casefold()), None)
    if name is None:
        raise SweepError(
            f"{fighter.name} has no skill {skill!r} (skills: {', '.join(entries.skills)})"
        )
    skills = {**entries.skills, name: read_number(value)}
    return _with_entries(ruleset, fighter, SheetEntries(entries.values, skills))


def _with_field(ruleset: Ruleset, fighter: Fighter, thing: str, value: str) -> Fighter:
    description = ruleset.sheets.description()
    wanted = thing.casefold()
    field = next(
        (f for f in description.fields if wanted in (f.key.casefold(), f.label.casefold())),
        None,
    )
    if field is None:
        things = ", ".join(
            ("skill", "weapon", "shield", "armor", *(f.key for f in description.fields))
        )
        raise SweepError(f"{thing!r} is not on this ruleset's sheet (try: {things})")
    parsed: SheetValue
    if field.kind is SheetFieldKind.NUMBER:
        parsed = None if value.casefold() == NONE and field.optional else read_number(value)
    elif field.kind is SheetFieldKind.FLAG:
        if value.casefold() not in YES | NO:
            raise SweepError(f"{field.label} is yes or no, not {value[:20]!r}")
        parsed = value.casefold() in YES
    elif field.kind is SheetFieldKind.CHOICE:
        parsed = next((c for c in field.choices if c.casefold() == value.casefold()), value)
    else:
        parsed = value
    entries = ruleset.sheets.entries(fighter)
    return _with_entries(
        ruleset, fighter, SheetEntries({**entries.values, field.key: parsed}, entries.skills)
    )


def _with_entries(ruleset: Ruleset, fighter: Fighter, entries: SheetEntries) -> Fighter:
    problems = ruleset.sheets.description().problems(entries)
    if problems:
        raise SweepError(problems[0].message)
    return ruleset.sheets.with_entries(fighter, entries)


def changed_fighter(ruleset: Ruleset, fighter: Fighter, thing: str, value: str) -> Fighter:
    """``fighter`` with ``thing`` set to ``value``."""
    kind, _, detail = thing.partition(":")
    kind = kind.casefold()
    if kind == "skill":
        if detail:
            return _with_skill(ruleset, fighter, detail.strip(), value)
        if not fighter.weapons:
            raise SweepError(f"{fighter.name} has no weapon, so no weapon skill")
        return _with_skill(ruleset, fighter, fighter.weapons[0].skill, value)
    if kind == "weapon":
        return _with_weapon(ruleset, fighter, value)
    if kind == "shield":
        return _with_shield(ruleset, fighter, value)
    if kind == "armor":
        return _with_armor(ruleset, fighter, value)
    return _with_field(ruleset, fighter, thing, value)


def sweep_states(state: BattleState, sweep: Sweep) -> list[tuple[str, BattleState]]:
    """One state per value of ``sweep``: its fighter changed, checked as the
    battle checks an edited sheet; ``SweepError`` for the first value it refuses."""
    ruleset = get_ruleset(state.ruleset_key, state.ruleset_options)
    who = find_fighter(state, sweep.fighter)
    out = []
    for value in sweep.values:
        try:
            fighter = changed_fighter(ruleset, who.fighter, sweep.thing, value)
            check_fighter(fighter, state.grid, ruleset)
            problems = ruleset.sheets.problems(fighter)
        except (DataError, IllegalCommandError, KeyError) as refusal:
            raise SweepError(f"{who.name}, {sweep.thing}={value}: {refusal}") from None
        if problems:
            raise SweepError(f"{who.name}, {sweep.thing}={value}: {problems[0].message}")
        out.append((value, state.with_combatants(edited_combatant(who, fighter))))
    return out
