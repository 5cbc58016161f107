"""What the ruleset-neutral battle cites for the mechanics every ruleset shares:
the turn sequence, movement and facing on the hex map, readying, dropping and
postures. Each ruleset names its own (``BattleRuleset.core_citations``): seed 000
cites its seed and its 3d6 family's basics, where these rules come from; a
ruleset whose system says nothing of them cites Hexfray's own rule
(``HEXFRAY_CORE``), so that an OpenQuest battle's log never cites a 3d6 book.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.citation import Citation, cite


@dataclass(frozen=True, slots=True)
class CoreCitations:
    turn_sequence: Citation  # turn order set, a turn begins, the round ends
    movement: Citation  # a step, a turn of facing
    ready: Citation  # readying a weapon or the shield, picking an item up
    dropped_weapon: Citation  # a weapon falls from the hand (deliberate or not)
    dropped_shield: Citation  # the shield falls from the arm
    posture: Citation  # standing, kneeling, lying ...


HEXFRAY_CORE = CoreCitations(
    turn_sequence=cite("hexfray", "the turn sequence: one turn each, in order, then a new round"),
    movement=cite("hexfray", "movement on the hex map: movement points per hex, turning"),
    ready=cite("hexfray", "readying: draw, pick up or ready an item"),
    dropped_weapon=cite("hexfray", "dropping: a held weapon falls on the map"),
    dropped_shield=cite("hexfray", "dropping: the shield falls on the map"),
    posture=cite("hexfray", "postures: standing, crouching, kneeling, sitting, lying"),
)
