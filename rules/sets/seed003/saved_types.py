"""What seed 003 puts in a battle that a battle file holds: its attack choices
(``Choices003`` inside ``Attack``), its sheet (``Sheet003``) and its tracks
(``Seed003Tracks``, with the component's wound tracks)."""

from __future__ import annotations

import functools

from rules.sets.seed003.combat import Choices003
from rules.sets.seed003.sheet import Sheet003
from rules.sets.seed003.tracks import Seed003Tracks


@functools.cache
def seed003_saved_types() -> tuple[type, ...]:
    return (Choices003, Sheet003, Seed003Tracks)
