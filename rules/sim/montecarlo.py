"""Monte Carlo against the exact odds (issue 26, "What must hold"): one exchange
rolled many times on the simulation path's dice, each outcome's frequency against
its exact chance (``rules.battle.attack_odds``, which enumerates the same
``decide``).

``python -m rules.sim.montecarlo --exchanges 200000`` checks the first demo
matchup of every ruleset; the suite checks fewer exchanges.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.battle.attack_odds import attack_odds
from rules.battle.attack_outcome import OutcomeKind
from rules.battle.attack_steps import AttackSteps, own_answer, planned
from rules.battle.commands import Attack
from rules.battle.state import BattleRuleset, BattleState
from rules.sets.registry import ruleset_keys
from rules.sim.duel import demo_matchups
from rules.sim.simulate import StreamDice, battle_dice, steps_of

# The two-sided 99.9% normal quantile.
Z_999 = 3.2905


@dataclass(frozen=True)
class KindCheck:
    """One kind of outcome: its exact chance, how often it came in ``exchanges``,
    and whether that lies within the 99.9% interval of the exact chance."""

    kind: OutcomeKind
    exact: Fraction
    count: int
    exchanges: int

    @property
    def within(self) -> bool:
        p = float(self.exact)
        if p in (0.0, 1.0):
            return self.count == round(p * self.exchanges)
        spread = Z_999 * math.sqrt(self.exchanges * p * (1 - p))
        return abs(self.count - self.exchanges * p) <= spread


def exchange_checks(
    state: BattleState, ruleset: BattleRuleset, command: Attack, exchanges: int, seed: int
) -> tuple[KindCheck, ...]:
    """``command`` on ``state`` decided ``exchanges`` times on one stream of dice,
    each kind of outcome counted, against the exact odds of the same plan and answer."""
    steps: AttackSteps[Any, Any, Any, Any] | None = steps_of(ruleset)
    if steps is None:
        raise ValueError(f"ruleset {ruleset.key}'s attack is not in four steps")
    plan = planned(steps, state, command.attacker_id, command.defender_id, command.choices)
    answer = own_answer(steps, plan, command.answer)
    dice = StreamDice(battle_dice(seed))
    trace = dice.trace
    counts: Counter[OutcomeKind] = Counter()
    decide = steps.decide
    for _ in range(exchanges):
        counts[decide(plan, answer, dice).kind] += 1
        trace.clear()
    exact = attack_odds(steps, plan, answer).kinds
    return tuple(
        KindCheck(kind, exact.get(kind, Fraction(0)), counts[kind], exchanges)
        for kind in sorted(set(exact) | set(counts), key=lambda k: k.label)
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.sim.montecarlo", description=__doc__)
    parser.add_argument("--exchanges", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    failed = False
    for key in ruleset_keys():
        state, ruleset, command = demo_matchups(key)[0]
        for check in exchange_checks(state, ruleset, command, args.exchanges, args.seed):
            failed = failed or not check.within
            print(
                f"{key} {check.kind.label:<16} exact {float(check.exact):.5f}  "
                f"seen {check.count / check.exchanges:.5f}  "
                f"{'within' if check.within else 'OUTSIDE'} the 99.9% interval"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
