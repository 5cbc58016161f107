"""Whose a fighter's sheet is, and why a battle of another ruleset refuses it.

A fighter whose statistics are another ruleset's cannot join a battle
(``rules.battle.roster.AddCombatant``), nor can an edit give one such a sheet
(``rules.battle.edits.EditFighter``): both ask the battle's ruleset
(``BattleRuleset.sheet_refusal``), and every ruleset answers with
``sheet_refusal_in``, naming the fighter and both rulesets. A battle file that holds
one is refused on load with the same words (``rules.battle.savefile``).

A sheet names its ruleset by its class (``RulesetSheet.ruleset_key``); a sheet not
yet read (``RawSheet``) is the ruleset's that reads such sheets, which the
registry knows (``rules.sets.registry.raw_sheet_owner``).
"""

from __future__ import annotations

from rules.battle.catalog import RawSheet
from rules.battle.model import Fighter, RulesetSheet
from rules.battle.state import BattleRuleset
from rules.sets.registry import raw_sheet_owner


def sheet_ruleset_key(stats: RulesetSheet) -> str | None:
    """The key of the ruleset whose sheet ``stats`` is: for a sheet not yet read
    (``RawSheet``), the registry's ``raw_sheet_owner``; else its class's
    ``ruleset_key``, None for the empty base (no ruleset's statistics) or a class
    that declares none."""
    if isinstance(stats, RawSheet):
        return raw_sheet_owner()
    return type(stats).ruleset_key


def sheet_refusal_in(fighter: Fighter, ruleset: BattleRuleset) -> str | None:
    """Why ``fighter`` cannot fight in a battle of ``ruleset``: its sheet is
    another ruleset's (naming both); None when it may (its sheet is the ruleset's
    ``sheet_type``, a not yet read sheet that the ruleset reads, or none at all)."""
    stats = fighter.stats
    own = ruleset.sheet_type
    if isinstance(stats, own) or type(stats) is RulesetSheet:
        return None
    if isinstance(stats, RawSheet) and own.reads_raw_sheets:
        return None  # the ruleset reads it on first use
    owner = sheet_ruleset_key(stats)
    of_owner = f"ruleset {owner}" if owner is not None else "another ruleset"
    return (
        f"{fighter.name or 'the fighter'}'s sheet is of {of_owner} "
        f"({type(stats).__name__}), and this battle plays ruleset {ruleset.key}: "
        "a battle takes fighters of its own ruleset only"
    )
