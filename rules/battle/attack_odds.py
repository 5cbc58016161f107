"""The exact odds of an attack, from its ``decide`` itself.

``attack_odds`` runs a ruleset's ``decide`` (``rules.battle.attack_steps``) on every
way the dice can fall (``rules.core.enumerate.exact_outcomes``) and reads each
outcome in the shared vocabulary (``rules.battle.attack_outcome``): the chance of
each kind of outcome, the expected injury, and the chance that the attack takes
the defender out of the fight. There is no second description of any ruleset's
attack: the odds are the rolling code, run on every face.

A roll that names what ``decide`` reads of it (``roll(..., reads=...)``, a check
read as its success) branches once per such value rather than once per total
(``by_reads``), which keeps a whole attack's enumeration to a few thousand runs.
A merged step that says what these odds read of it (``odds_reads``: where a
broken or flung weapon lands is left out, since it changes the map but not how
the attack lands, the defender's injury or standing) branches by that, which
keeps a seed 000 blow with a weapon breaking to a few hundred runs.

A ruleset's steps may offer the same odds by an exact way of their own
(``exact_odds(plan, answer)``), each tested equal, Fraction for Fraction, to this
enumeration: seed 000 from its chained odds (``rules.sets.seed000.odds``), seeds
002 and 004 by enumerating ``decide``'s steps apart (the contest, then the blow
once for each way it lands), where the whole enumeration rolls each later step
again under every way the earlier ones fell.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import cast

from rules.battle.attack_outcome import OutcomeKind
from rules.battle.attack_steps import AnswerT, AttackSteps, ChoicesT, PayloadT, PlanT
from rules.core.dice import DiceSource
from rules.core.enumerate import exact_outcomes

__all__ = ["AttackOdds", "attack_odds"]


@dataclass(frozen=True, slots=True)
class AttackOdds:
    """What an attack may come to, exactly: the chance of each ``OutcomeKind``
    (they sum to 1), the expected injury (hit points on the scale of
    ``Combatant.hp``) and the chance that it leaves the defender unable to act."""

    kinds: Mapping[OutcomeKind, Fraction]
    expected_injury: Fraction
    takes_out: Fraction

    def chance(self, kind: OutcomeKind) -> Fraction:
        return self.kinds.get(kind, Fraction(0))


def attack_odds(
    steps: AttackSteps[ChoicesT, AnswerT, PlanT, PayloadT],
    plan: PlanT,
    answer: AnswerT,
    *,
    odds_reads: bool = True,
    ruleset_odds: bool = True,
) -> AttackOdds:
    """The exact odds of ``plan`` against ``answer``: ``steps.decide`` run on every
    way the dice can fall. ``odds_reads=False``: every merged step branches by
    all it reads, where pieces land too (the tests' reference).

    Steps with an ``exact_odds(plan, answer)`` method give the same odds by a
    faster, exact way of their own (seed 000: its chained odds, tested equal to
    this enumeration), or None where they have none; ``ruleset_odds=False`` (the
    tests' reference) or ``odds_reads=False`` always enumerates."""
    own = getattr(steps, "exact_odds", None) if ruleset_odds and odds_reads else None
    if own is not None:
        found = own(plan, answer)
        if found is not None:
            return cast("AttackOdds", found)
    defender = plan.defender_id

    def summary(dice: DiceSource) -> tuple[OutcomeKind, int, bool]:
        outcome = steps.decide(plan, answer, dice)
        return outcome.kind, outcome.injury, outcome.takes_out(defender)

    kinds: dict[OutcomeKind, Fraction] = {}
    injury = Fraction(0)
    out = Fraction(0)
    outcomes = exact_outcomes(summary, by_reads=True, odds_reads=odds_reads)
    for (kind, hurt, taken_out), p in outcomes.items():
        kinds[kind] = kinds.get(kind, Fraction(0)) + p
        injury += hurt * p
        if taken_out:
            out += p
    return AttackOdds(MappingProxyType(kinds), injury, out)
