"""Find a ruleset by its key, as python-chess's ``find_variant`` finds a variant.

Each ruleset lives in its own package under ``rules.sets``; the registry names
the function that builds it and imports that package only when a battle asks
for the ruleset, so nothing outside the registry names a ruleset package. The
battle layer names no ruleset either: it asks the registry (through the finder
a ``Battle`` and a battle file are given, and through the ruleset itself) which
ruleset a missing key means and whose a sheet is.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import cast

from rules.battle.catalog import RawSheet
from rules.battle.state import BattleState
from rules.core.errors import RulesError
from rules.core.formats import DEFAULT_RULESET_KEY
from rules.sets.protocol import Ruleset, RulesetFactory

# key -> "module:function" building the ruleset with its options.
RULESETS: Mapping[str, str] = MappingProxyType(
    {
        "000": "rules.sets.seed000.ruleset:seed000_ruleset",
        "002": "rules.sets.seed002.ruleset:seed002_ruleset",
        "003": "rules.sets.seed003.ruleset:seed003_ruleset",
        "004": "rules.sets.seed004.ruleset:seed004_ruleset",
    }
)


def ruleset_keys() -> tuple[str, ...]:
    return tuple(RULESETS)


def get_ruleset(key: str | None = None, options: Iterable[str] = ()) -> Ruleset:
    """The (shared, cached) ruleset for ``key`` with ``options``; ``RulesError``
    for an unknown key or option. No key means ``DEFAULT_RULESET_KEY``: the
    ruleset of a battle file whose state names none (rules.core.formats)."""
    return _factory(DEFAULT_RULESET_KEY if key is None else key)(options)


@functools.cache
def _factory(key: str) -> RulesetFactory:
    """The function that builds ruleset ``key``, its package imported on the first
    ask (a battle asks on every command)."""
    try:
        target = RULESETS[key]
    except KeyError:
        raise RulesError(
            f"unknown ruleset {key!r} (known: {', '.join(sorted(RULESETS))})"
        ) from None
    module_name, _, factory_name = target.partition(":")
    return cast(RulesetFactory, getattr(importlib.import_module(module_name), factory_name))


@functools.cache
def raw_sheet_owner() -> str | None:
    """The key of the registered ruleset whose sheet reads the catalog's not yet
    read sheets (``RulesetSheet.reads_raw_sheets``): the ruleset a ``RawSheet``
    belongs to; None when no ruleset reads them."""
    for key in RULESETS:
        try:
            ruleset = get_ruleset(key)
        except (RulesError, ImportError):  # a ruleset that cannot load reads nothing here
            continue
        if ruleset.sheets.sheet_type.reads_raw_sheets:
            return key
    return None


def sheet_owner(type_name: str) -> str | None:
    """The key of the registered ruleset whose sheet class (its ``sheet_type`` or a
    subclass it saves; for ``RawSheet``, ``raw_sheet_owner``) is named
    ``type_name``, for the message that refuses a battle file holding another
    ruleset's fighter (``rules.battle.savefile.foreign_sheet``); None when no
    ruleset's is. Imports every ruleset package: asked only when a file names a
    sheet its own lacks."""
    if type_name == RawSheet.__name__:
        return raw_sheet_owner()
    for key in RULESETS:
        try:
            ruleset = get_ruleset(key)
        except (RulesError, ImportError):  # a ruleset that cannot load owns nothing here
            continue
        sheets = (ruleset.sheets.sheet_type, *ruleset.sheets.saved_types)
        if any(
            isinstance(cls, type)
            and issubclass(cls, ruleset.sheets.sheet_type)
            and cls.__name__ == type_name
            for cls in sheets
        ):
            return key
    return None


def ruleset_of(state: BattleState) -> Ruleset:
    """The ruleset a battle state names, with its options."""
    return get_ruleset(state.ruleset_key, state.ruleset_options)
