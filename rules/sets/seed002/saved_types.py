"""What seed 002 puts in a battle that a battle file holds: its attack choices
(with the GM's situation), its defender's answer, its sheet and its tracks."""

from __future__ import annotations

from rules.sets.seed002.attack import Attack002, DefenseKind, Seed002Answer
from rules.sets.seed002.sheet import Characteristics, Sheet002
from rules.sets.seed002.situation import GMSituation
from rules.sets.seed002.tracks import Tracks002


def seed002_saved_types() -> tuple[type, ...]:
    return (
        Attack002,
        Seed002Answer,
        DefenseKind,
        GMSituation,
        Sheet002,
        Characteristics,
        Tracks002,
    )
