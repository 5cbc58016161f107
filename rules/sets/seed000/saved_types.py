"""What seed 000 puts in a battle that a battle file holds (``rules.battle.savefile``):
its commands, its attack choices and its defender's answer (``AttackOptions``
and ``Seed000Answer``, inside ``Attack`` commands),
its statistics (``Sheet000`` in ``Fighter.stats``) and its per-combatant state
(``Seed000Tracks`` in ``Combatant.tracks``). The file's codec finds every type
these name (defenses, modifiers, wounds, body areas ...) from their fields."""

from __future__ import annotations

import functools

import rules.sets.seed000 as seed000_package
import rules.sets.seed000.commands  # noqa: F401  (defines seed 000's own commands)
from rules.battle.savefile import commands_defined_in
from rules.sets.seed000.attack import AttackOptions, Seed000Answer
from rules.sets.seed000.sheet import Sheet000
from rules.sets.seed000.tracks import Seed000Tracks


@functools.cache
def seed000_saved_types() -> tuple[type, ...]:
    """The choices, sheet and tracks, and every command a seed 000 module defines
    (``commands_defined_in``: a new command needs no more work)."""
    return (
        AttackOptions,
        Seed000Answer,
        Sheet000,
        Seed000Tracks,
        *commands_defined_in(seed000_package),
    )
