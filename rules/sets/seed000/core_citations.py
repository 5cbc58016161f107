"""What seed 000's battles cite for the battle core's shared mechanics
(``rules.battle.citations``): the 3d6 family's basics for the turn sequence,
movement and readying, and seed 000's own headings for drops and postures."""

from __future__ import annotations

from rules.battle.citations import CoreCitations
from rules.core.citation import Citation, cite

BASE_TURN_SEQUENCE = Citation(
    "base", "the turn sequence: one turn each, in order, then a new round"
)
BASE_MOVEMENT = Citation("base", "movement and facing: MP per hex, turning")
READY_BASE = Citation("base", "maneuvers: Ready (draw, pick up or ready an item)")
DROPPED_000 = cite("000", "DROPPED WEAPONS")
BLOCK_MISS_000 = cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
POSTURES_000 = cite("000", "ADVERSE COMBAT CONDITIONS")

SEED000_CORE = CoreCitations(
    turn_sequence=BASE_TURN_SEQUENCE,
    movement=BASE_MOVEMENT,
    ready=READY_BASE,
    dropped_weapon=DROPPED_000,
    # A buckler or small shield dropped on a fumbled block is what drops a shield.
    dropped_shield=BLOCK_MISS_000,
    posture=POSTURES_000,
)
