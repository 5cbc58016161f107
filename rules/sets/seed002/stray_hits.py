"""Seed 002's answer when a flying piece may hit somebody: nothing in seed 002
sends a piece flying (a useless arm or a fumble drops the weapon at the
fighter's feet), so no piece of its own hits anybody; a piece that some other
effect sends through a hex never hits (chance 0) and does no harm."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from hexmap import Hex
from rules.battle.pieces import Placement
from rules.battle.scatter import Occupant, StrayCheck, StrayRule
from rules.core.citation import Citation
from rules.core.dice import DiceSource
from rules.core.events import Event
from rules.sets.seed002.tables import BASE

NO_STRAY_HITS = Citation(BASE, "Fumbles in combat: a dropped weapon falls at the feet")


@dataclass(frozen=True, kw_only=True)
class PiecePassed(Event):
    piece_name: str
    name: str

    def describe(self) -> str:
        return f"The {self.piece_name} passes {self.name} by"


class Seed002StrayHits:
    def check(
        self,
        piece_name: str,
        placement: Placement,
        occupant: Occupant,
        where: Hex,
        rule: StrayRule,
        dice: DiceSource,
    ) -> StrayCheck:
        event = PiecePassed(citation=NO_STRAY_HITS, piece_name=piece_name, name=occupant.name)
        return StrayCheck(
            combatant_id=occupant.combatant_id,
            name=occupant.name,
            hex=where,
            rule=rule,
            hit=False,
            event=event,
        )

    def hit_chance(self, occupant: Occupant, rule: StrayRule) -> Fraction:
        return Fraction(0)
