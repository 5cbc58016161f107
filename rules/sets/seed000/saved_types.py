"""What seed 000 puts in a battle that a battle file holds (``rules.battle.savefile``):
its commands, its attack choices (``AttackOptions``, inside ``Attack`` commands),
its statistics (``Sheet000`` in ``Fighter.stats``) and its per-combatant state
(``Seed000Tracks`` in ``Combatant.tracks``). The file's codec finds every type
these name (defenses, modifiers, wounds, body areas ...) from their fields."""

from __future__ import annotations

import functools

import rules.sets.seed000 as seed000_package
from rules.battle.savefile import commands_in_package
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.sheet import Sheet000
from rules.sets.seed000.tracks import Seed000Tracks


@functools.cache
def seed000_saved_types() -> tuple[type, ...]:
    """The choices, sheet and tracks, and every command a seed 000 module defines
    (found when a battle is first saved or read, so a new command needs no more work)."""
    return (AttackOptions, Sheet000, Seed000Tracks, *commands_in_package(seed000_package))
