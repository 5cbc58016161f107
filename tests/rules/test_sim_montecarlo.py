"""Monte Carlo agrees with the exact odds (issue 26): one exchange of each
ruleset's first demo matchup decided many times on a simulated battle's dice, each
kind of outcome within the 99.9% interval of its exact chance. The suite rolls
10,000 exchanges; ``python -m rules.sim.montecarlo`` rolls 200,000."""

from __future__ import annotations

import pytest

from rules.sets.registry import ruleset_keys
from rules.sim.duel import demo_matchups
from rules.sim.montecarlo import exchange_checks

EXCHANGES = 10_000


@pytest.mark.parametrize("key", ruleset_keys())
def test_each_outcome_comes_as_often_as_its_exact_odds_say(key: str) -> None:
    state, ruleset, command = demo_matchups(key)[0]
    checks = exchange_checks(state, ruleset, command, EXCHANGES, seed=26)
    assert sum(c.count for c in checks) == EXCHANGES
    assert sum(c.exact for c in checks) == 1
    outside = [(c.kind.label, float(c.exact), c.count) for c in checks if not c.within]
    assert outside == []
