"""A fighter's condition as every ruleset can tell it, in one small typed view.

The battle, the panes and, later, computer-controlled sides and statistics ask
the ruleset (``BattleRuleset.fighter_condition``) rather than read its statuses,
wound tracks or labels: whether the fighter can still take part in the fight,
and whether it is down and how. The battle core reads it for two rules of its
own: a fighter who goes down falls and lets go of what it holds
(``rules.battle.falls``), and a battle in which only one side (or none) still has
a fighter able to act is decided (``rules.battle.decision``).

The view grows by fields with defaults (how hurt, useless limbs, the penalties
in force), so a ruleset that answers today keeps answering.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules.core.citation import Citation
from rules.core.errors import RulesError


@dataclass(frozen=True, slots=True)
class FighterCondition:
    """What a ruleset says of one fighter's condition now.

    ``able_to_act``: it still takes part in the fight (a stunned fighter does: its
    stun passes). ``down``: it is out of the fight and lies where it is, and how;
    None while it is not. ``citation``: the rule that put it down (required then)."""

    able_to_act: bool
    down: Down | None = None
    citation: Citation | None = None

    def __post_init__(self) -> None:
        if self.down is not None and self.able_to_act:
            raise RulesError(f"a fighter who is {self.down.value} cannot be able to act")
        if self.down is not None and self.citation is None:
            raise RulesError(f"a fighter {self.down.value} needs the rule that says so")


class Down(Enum):
    """How a fighter is out of the fight and lying on the ground."""

    UNCONSCIOUS = "unconscious"
    DEAD = "dead"
    # Awake but capable of no action (FUDGE's Incapacitated wound level).
    INCAPACITATED = "incapacitated"
    # Awake, but the body below the neck no longer obeys (a broken spine).
    PARALYSED = "paralysed"


# The condition of a fighter who can still fight.
ABLE = FighterCondition(able_to_act=True)


def down_as(down: Down, citation: Citation) -> FighterCondition:
    """The condition of a fighter out of the fight, ``down`` by the rule ``citation``."""
    return FighterCondition(able_to_act=False, down=down, citation=citation)
