"""Seed 002's answer when a flying piece may hit somebody: nothing in seed 002
sends a piece flying (a useless arm or a fumble drops the weapon at the
fighter's feet), so no piece of its own hits anybody; a piece that some other
effect sends through a hex never hits (chance 0) and does no harm."""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.scatter import NoStrayHits, Occupant, StrayHitRules
from rules.core.citation import Citation
from rules.core.events import Event
from rules.sets.seed002.tables import BASE

NO_STRAY_HITS = Citation(BASE, "Fumbles in combat: a dropped weapon falls at the feet")


@dataclass(frozen=True, kw_only=True)
class PiecePassed(Event):
    piece_name: str
    name: str

    def describe(self) -> str:
        return f"The {self.piece_name} passes {self.name} by"


def _passed(piece_name: str, occupant: Occupant) -> Event:
    return PiecePassed(citation=NO_STRAY_HITS, piece_name=piece_name, name=occupant.name)


def seed002_stray_hits() -> StrayHitRules:
    """Seed 002's stray hits: a piece passes everybody by."""
    return NoStrayHits(_passed)
