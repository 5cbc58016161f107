"""How sure a rate from simulated battles is: the Wilson score interval.

A run of n battles of which k ended one way estimates that outcome's probability
as k/n. The Wilson interval (Wilson 1927; Newcombe 1998, "method 3") is the set
of probabilities p for which k/n lies within z standard errors of p, the errors
taken at p itself:

    (k/n - p)^2 = z^2 p (1 - p) / n

Its two roots are the bounds. Unlike the textbook k/n ± z·sqrt(k/n(1-k/n)/n), it
stays inside 0..1 and does not shrink to nothing when k is 0 or n.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

CONFIDENCE = 0.95
# The two-sided 95% quantile of the standard normal, 1.959963984540054.
Z_95 = NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / 2)


@dataclass(frozen=True, slots=True)
class Interval:
    """A rate and its interval: ``low <= rate <= high``, all within 0..1."""

    successes: int
    trials: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @property
    def width(self) -> float:
        return self.high - self.low


def wilson(successes: int, trials: int, z: float = Z_95) -> Interval:
    """The Wilson score interval of ``successes`` out of ``trials`` (0..1 both
    ends when there are no trials: nothing is known yet)."""
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return Interval(0, 0, 0.0, 1.0)
    n = trials
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # The bounds are exactly 0 and 1 at k = 0 and k = n; rounding must not move them.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Interval(successes, n, low, high)
