"""Wilson 95% intervals (rules.sim.intervals) against published values and their
defining equation."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.sim.intervals import Z_95, wilson


def test_z_is_the_two_sided_95_quantile() -> None:
    assert pytest.approx(1.959963984540054, abs=1e-12) == Z_95


# Newcombe (1998), "Two-sided confidence intervals for the single proportion",
# Statistics in Medicine 17, table I, method 3 (the score interval without
# continuity correction), to four places.
@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_published_values(successes: int, trials: int, low: float, high: float) -> None:
    interval = wilson(successes, trials)
    assert round(interval.low, 4) == low
    assert round(interval.high, 4) == high


def test_all_and_nothing_reach_the_ends() -> None:
    assert wilson(0, 10).low == 0.0
    assert wilson(10, 10).high == 1.0
    # k = n: the lower bound is n / (n + z²)
    assert wilson(10, 10).low == pytest.approx(10 / (10 + Z_95**2), rel=1e-12)
    assert wilson(0, 0).low == 0.0 and wilson(0, 0).high == 1.0


@given(st.integers(1, 10**7), st.data())
def test_bounds_solve_the_score_equation(trials: int, data: st.DataObject) -> None:
    # (k/n - p)² = z² p (1 - p) / n at each bound that is not 0 or 1, checked in
    # exact arithmetic on the float bound (the residue is rounding only).
    successes = data.draw(st.integers(0, trials))
    interval = wilson(successes, trials)
    assert 0.0 <= interval.low <= successes / trials <= interval.high <= 1.0
    z2 = Fraction(Z_95) ** 2
    rate = Fraction(successes, trials)
    for bound in (interval.low, interval.high):
        if bound in (0.0, 1.0):
            continue
        p = Fraction(bound)
        residue = (rate - p) ** 2 - z2 * p * (1 - p) / trials
        assert abs(float(residue)) < 1e-12 * max(1.0, float(z2 * p * (1 - p) / trials)) + 1e-15


def test_width_shrinks_as_one_over_root_n() -> None:
    # at p = 1/2 the width is about 2 z sqrt(1/4n) = z / sqrt(n)
    interval = wilson(5000, 10000)
    assert interval.width == pytest.approx(Z_95 / math.sqrt(10000), rel=1e-3)


@pytest.mark.parametrize(("successes", "trials"), [(-1, 5), (6, 5), (0, -1)])
def test_refuses_impossible_counts(successes: int, trials: int) -> None:
    with pytest.raises(ValueError):
        wilson(successes, trials)
