"""What seed 004 puts in a battle that a battle file holds: its attack choices and
its defender's answer, its sheet and its per-combatant state (the codec finds the
types they name)."""

from __future__ import annotations

from rules.sets.seed004.attack import Seed004Answer, Seed004Attack
from rules.sets.seed004.sheet import Sheet004
from rules.sets.seed004.tracks import Seed004Tracks

SAVED_TYPES: tuple[type, ...] = (Seed004Attack, Seed004Answer, Sheet004, Seed004Tracks)
