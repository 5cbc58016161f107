"""Which ruleset a fighter's sheet belongs to (``BattleRuleset.sheet_type``).

A fighter whose statistics are another ruleset's cannot join a battle
(``rules.battle.roster.AddCombatant``), nor can an edit give one such a sheet
(``rules.battle.edits.EditFighter``): both refuse it with ``sheet_refusal``'s
reason, naming the fighter and both rulesets. A battle file that holds one is
refused on load with the same words (``rules.battle.savefile``).
"""

from __future__ import annotations

import re

from rules.battle.catalog import RawSheet
from rules.battle.model import Fighter, RulesetSheet
from rules.battle.state import BattleRuleset
from rules.core.citation import DEFAULT_RULESET_KEY
from rules.core.errors import IllegalCommandError

# A sheet as the catalog's templates hold it, not yet read (``RawSheet``), is seed
# 000's: its gear is the 3d6 catalog of assets/weapons.json and its keys are 000's.
RAW_SHEET_RULESET = DEFAULT_RULESET_KEY
# Each ruleset's package is rules.sets.seed<key> (rules.sets.registry): a sheet class
# defined in one names its ruleset.
_RULESET_PACKAGE = re.compile(r"rules\.sets\.seed(?P<key>[0-9A-Za-z_]+)(?:\.|$)")


def sheet_ruleset_key(stats: RulesetSheet) -> str | None:
    """The key of the ruleset whose sheet ``stats`` is: 000 for a sheet not yet
    read (``RawSheet``), else the key of the ruleset package that defines its
    class; None for the empty base (no ruleset's statistics) or a class of no
    ruleset package."""
    if isinstance(stats, RawSheet):
        return RAW_SHEET_RULESET
    if type(stats) is RulesetSheet:
        return None
    found = _RULESET_PACKAGE.match(type(stats).__module__)
    return found.group("key") if found is not None else None


def sheet_refusal(fighter: Fighter, ruleset: BattleRuleset) -> str | None:
    """Why ``fighter`` cannot fight in a battle of ``ruleset``: its sheet is
    another ruleset's (naming both); None when it may (its sheet is the ruleset's
    ``sheet_type``, a not yet read sheet of that ruleset, or none at all)."""
    stats = fighter.stats
    if isinstance(stats, ruleset.sheet_type) or type(stats) is RulesetSheet:
        return None
    owner = sheet_ruleset_key(stats)
    if owner == ruleset.key and isinstance(stats, RawSheet):
        return None  # the ruleset reads it on first use
    of_owner = f"ruleset {owner}" if owner is not None else "another ruleset"
    return (
        f"{fighter.name or 'the fighter'}'s sheet is of {of_owner} "
        f"({type(stats).__name__}), and this battle plays ruleset {ruleset.key}: "
        "a battle takes fighters of its own ruleset only"
    )


def check_sheet(fighter: Fighter, ruleset: BattleRuleset) -> None:
    """``IllegalCommandError`` with ``sheet_refusal``'s reason, if there is one."""
    refusal = sheet_refusal(fighter, ruleset)
    if refusal is not None:
        raise IllegalCommandError(refusal)
