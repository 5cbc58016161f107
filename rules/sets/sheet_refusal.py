"""Whose a fighter's sheet is, and why a battle refuses it: another ruleset's sheet,
or a value beyond the ranges of the ruleset's own sheet.

A fighter whose statistics are another ruleset's cannot join a battle
(``rules.battle.roster.AddCombatant``), nor can an edit give one such a sheet
(``rules.battle.edits.EditFighter``): both ask the battle's ruleset
(``SheetRules.refusal``), and every ruleset answers with
``sheet_refusal_in``, naming the fighter and both rulesets. A battle file that holds
one is refused on load with the same words (``rules.battle.savefile``).

A sheet names its ruleset by its class (``RulesetSheet.ruleset_key``); a sheet not
yet read (``RawSheet``) is the ruleset's that reads such sheets, which the
registry knows (``rules.sets.registry.raw_sheet_owner``).

A sheet of the battle's own ruleset is held to the ranges its sheet description
gives the character editor (``sheet_range_refusal``): a battle file, an import or
a template cannot bring in hit points of a billion, which no number box shows.
"""

from __future__ import annotations

from rules.battle.catalog import RawSheet
from rules.battle.model import Fighter, RulesetSheet
from rules.core.errors import DataError
from rules.core.strict_json import short_reason
from rules.sets.protocol import Sheets
from rules.sets.registry import raw_sheet_owner


def sheet_ruleset_key(stats: RulesetSheet) -> str | None:
    """The key of the ruleset whose sheet ``stats`` is: for a sheet not yet read
    (``RawSheet``), the registry's ``raw_sheet_owner``; else its class's
    ``ruleset_key``, None for the empty base (no ruleset's statistics) or a class
    that declares none."""
    if isinstance(stats, RawSheet):
        return raw_sheet_owner()
    return type(stats).ruleset_key


def sheet_refusal_in(fighter: Fighter, sheets: Sheets, key: str) -> str | None:
    """Why ``fighter`` cannot fight in a battle of the ruleset ``key`` whose sheets
    are ``sheets``: its sheet is
    another ruleset's (naming both), or holds a value beyond the ruleset's sheet
    (``sheet_range_refusal``); None when it may (its sheet is the ruleset's
    ``sheet_type``, a not yet read sheet that the ruleset reads, or none at all,
    within the ranges)."""
    stats = fighter.stats
    own = sheets.sheet_type
    if type(stats) is RulesetSheet:
        return None  # no statistics: its hit points and Move are fighter_problems'
    if isinstance(stats, own) or (isinstance(stats, RawSheet) and own.reads_raw_sheets):
        return sheet_range_refusal(fighter, sheets)  # a raw sheet is read here
    owner = sheet_ruleset_key(stats)
    of_owner = f"ruleset {owner}" if owner is not None else "another ruleset"
    return (
        f"{fighter.name or 'the fighter'}'s sheet is of {of_owner} "
        f"({type(stats).__name__}), and this battle plays ruleset {key}: "
        "a battle takes fighters of its own ruleset only"
    )


def sheet_range_refusal(fighter: Fighter, sheets: Sheets) -> str | None:
    """Why ``fighter``'s sheet cannot stand in the character editor of ``sheets``: the
    first value beyond its field's range or choices (``SheetDescription.problems``,
    as the editor refuses them: "the sheet of 'Brann': Hit points must be 1 to 200,
    not 1000000000."), or a sheet not yet read that cannot be read; None when it
    can."""
    name = repr(fighter.name)
    try:
        problems = sheets.description().problems(sheets.entries(fighter))
    except DataError as exc:
        return f"the sheet of {name} cannot be read: {short_reason(exc)}"
    if problems:
        return f"the sheet of {name}: {problems[0].message}"
    return None
