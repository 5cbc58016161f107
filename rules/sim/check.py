"""``python -m rules.sim.check``: the simulation path against the GM's path over
many seeds (issue 26, "What must hold").

For each seed, the battle is simulated (``rules.sim.simulate.simulate``, the
computer's decisions kept), then those decisions are executed through ``Battle``
on the same one stream of dice (``replay_decisions``); the two must end in equal
states (winner, rounds, every fighter's hit points, wounds, conditions and gear,
the items on the ground where they lie: the whole ``BattleState``). It prints one
line per ruleset and set-up, and the seeds that differ; exit status 1 if any does.

    python -m rules.sim.check --seeds 10000                # every ruleset's demo duel
    python -m rules.sim.check --seeds 1000 --whole         # the whole demo battles
    python -m rules.sim.check --seeds 200 --ruleset seed000 --first 5000
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from rules.sets.registry import ruleset_keys
from rules.sim.duel import demo_duel, demo_state
from rules.sim.simulate import replay_decisions, simulate

DEFAULT_MAX_ROUNDS = 50


def differing_seeds(
    key: str, whole: bool, seeds: range, max_rounds: int = DEFAULT_MAX_ROUNDS
) -> list[int]:
    """The seeds of ``seeds`` whose simulated battle and replay end apart."""
    start = demo_state(key) if whole else demo_duel(key)
    differ = []
    for seed in seeds:
        simulated = simulate(start, seed, max_rounds, keep_decisions=True)
        replayed = replay_decisions(start, seed, simulated.report.decisions)
        if replayed.state != simulated.state:
            differ.append(seed)
    return differ


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules.sim.check", description=__doc__)
    parser.add_argument("--seeds", type=int, default=100, help="how many seeds (default 100)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--ruleset", action="append", help="a ruleset key (default: every one)")
    parser.add_argument("--whole", action="store_true", help="the whole demo, not its duel")
    parser.add_argument("--max-rounds", type=int, default=DEFAULT_MAX_ROUNDS)
    args = parser.parse_args(argv)
    failed = False
    for key in args.ruleset or ruleset_keys():
        started = time.perf_counter()
        seeds = range(args.first, args.first + args.seeds)
        differ = differing_seeds(key, args.whole, seeds, args.max_rounds)
        what = "demo battle" if args.whole else "demo duel"
        print(
            f"{key} {what}: {len(seeds) - len(differ)} of {len(seeds)} seeds equal "
            f"({time.perf_counter() - started:.0f} s)"
            + (f"; differ: {differ[:20]}" if differ else "")
        )
        failed = failed or bool(differ)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
