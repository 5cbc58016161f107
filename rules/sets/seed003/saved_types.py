"""What seed 003 puts in a battle that a battle file holds: its attack choices and
its defender's answer (``Choices003`` and ``Seed003Answer`` inside ``Attack``), its
sheet (``Sheet003``) and its tracks (``Seed003Tracks``, with the component's wound
tracks)."""

from __future__ import annotations

import functools

from rules.sets.seed003.combat import Choices003, Seed003Answer
from rules.sets.seed003.sheet import Sheet003
from rules.sets.seed003.tracks import Seed003Tracks


@functools.cache
def seed003_saved_types() -> tuple[type, ...]:
    return (Choices003, Seed003Answer, Sheet003, Seed003Tracks)
