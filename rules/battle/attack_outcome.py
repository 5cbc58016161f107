"""What an attack came to, in one vocabulary that every ruleset speaks.

A ruleset's ``decide`` (``rules.battle.attack_steps.AttackSteps``) returns an
``AttackOutcome``: whether the blow struck and how it did or did not (``Landing``,
with the ``ActiveDefense`` that stopped or lessened it), where it struck, the
injury it did, the fighters' conditions it changed, and what left a hand or broke.
Statistics, computer-controlled sides and the exact odds
(``rules.battle.attack_odds``) read these fields and never a ruleset's events.
What only one ruleset knows (its rolls, its wound levels, the faces the log shows)
rides along as the outcome's typed ``payload``, which the same ruleset's
``apply`` and ``describe`` read.

The outcome is data: frozen, no events, no new state. ``apply`` turns it into the
state after the attack and ``describe`` into the log's events.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from rules.battle.condition import FighterCondition
from rules.battle.state import LaunchedPiece
from rules.core.errors import RulesError
from rules.core.quick_init import quick_init

__all__ = [
    "ActiveDefense",
    "AttackOutcome",
    "BrokenItem",
    "ConditionChange",
    "Landing",
    "OutcomeKind",
]

PayloadT = TypeVar("PayloadT")


class Landing(Enum):
    """Whether the attack struck the defender, and if not, why not.

    The five words cover the four rulesets: a critical success that strikes
    (000 critical hit, 002 critical), a blow that strikes, one that the
    defender's active defense stopped (which defense: ``AttackOutcome.defense``),
    an attack that failed on its own (the roll missed, or an opposed roll the
    defender won without a defense) and one that failed badly (000 critical miss,
    002 the attacker fumbles)."""

    CRITICAL_HIT = "critical hit"
    HIT = "hit"
    DEFENDED = "defended"
    MISSED = "missed"
    CRITICAL_MISS = "critical miss"

    @property
    def struck(self) -> bool:
        """The blow reached the defender (a defense may still have lessened it)."""
        # by identity: an enum member in a set hashes its name in Python
        return self is Landing.HIT or self is Landing.CRITICAL_HIT


class ActiveDefense(Enum):
    """An active defense, in the words every ruleset shares."""

    DODGE = "dodge"
    PARRY = "parry"
    BLOCK = "block"


@dataclass(frozen=True, slots=True)
class OutcomeKind:
    """The kind of an outcome, as the odds count it: how it landed and the
    defense that stopped or lessened it (None: none did)."""

    landing: Landing
    defense: ActiveDefense | None = None

    @property
    def label(self) -> str:
        """ "dodged", "parried", "blocked"; "hit, blocked" for a blow a block
        lessened; else the landing's own word ("hit", "missed" ...)."""
        if self.defense is None:
            return self.landing.value
        done = _DONE[self.defense]
        return done if self.landing is Landing.DEFENDED else f"{self.landing.value}, {done}"


_DONE = {
    ActiveDefense.DODGE: "dodged",
    ActiveDefense.PARRY: "parried",
    ActiveDefense.BLOCK: "blocked",
}


@dataclass(frozen=True, slots=True)
class ConditionChange:
    """A fighter whose standing in the fight the attack changed (put down, or up
    again), with its condition after it as the battle's own rules read it
    (``rules.battle.condition``, ``fighter_condition(..., details=False)``: able to
    act, down and how). How hurt it is and its penalties are the state's to tell."""

    combatant_id: str
    condition: FighterCondition


@dataclass(frozen=True, slots=True)
class BrokenItem:
    """A weapon or shield the attack broke, by the key it has in its holder's gear."""

    combatant_id: str
    item_key: str


@quick_init
@dataclass(frozen=True, slots=True)
class AttackOutcome(Generic[PayloadT]):
    """One attack's outcome.

    ``landing`` and ``defense``: whether and how it struck (see ``Landing``);
    ``defense`` is the active defense that stopped the blow (``DEFENDED``) or
    lessened one that struck (seed 004's block halves the damage), None when no
    defense did. ``location``: the key of the hit location or zone struck, None
    when nothing was. ``injury``: the hit points the defender lost, on the scale of
    ``Combatant.hp`` (a FUDGE ruleset's overall wound track). ``conditions``: each
    fighter the attack put down (or up again), as ``ConditionChange``. ``pieces``:
    what left a hand
    (dropped, knocked away, thrown or flying), each with how it goes; the battle
    traces where it lands, with the same dice, after the attack's own rolls.
    ``broken``: what the attack broke. ``payload``: the ruleset's own record of
    the attack (its rolls, the faces the log shows, the fighters as it leaves
    them), read by the same ruleset's ``apply`` and ``describe``."""

    landing: Landing
    payload: PayloadT
    defense: ActiveDefense | None = None
    location: str | None = None
    injury: int = 0
    conditions: tuple[ConditionChange, ...] = ()
    pieces: tuple[LaunchedPiece, ...] = ()
    broken: tuple[BrokenItem, ...] = ()

    def __post_init__(self) -> None:
        if self.landing is Landing.DEFENDED and self.defense is None:
            raise RulesError("an attack defended against needs the defense that stopped it")
        if self.location is not None and not self.landing.struck:
            raise RulesError(f"an attack that {self.landing.value} struck no location")
        if self.injury < 0:
            raise RulesError(f"an attack does no negative injury ({self.injury})")

    @property
    def kind(self) -> OutcomeKind:
        return OutcomeKind(self.landing, self.defense)

    def condition_of(self, combatant_id: str) -> FighterCondition | None:
        """The condition the attack left ``combatant_id`` in; None if it did not
        change it."""
        for change in self.conditions:
            if change.combatant_id == combatant_id:
                return change.condition
        return None

    def takes_out(self, combatant_id: str) -> bool:
        """The attack left ``combatant_id`` unable to act (it could before)."""
        condition = self.condition_of(combatant_id)
        return condition is not None and not condition.able_to_act
