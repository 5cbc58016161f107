"""The report of a run (rules.sim.tally), counted from BattleRecords alone."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.sim.battle_record import BattleRecord, FighterEnd
from rules.sim.tally import Tally, quantile


def record(
    seed: int,
    winner: str | None,
    rounds: int,
    *,
    stopped: bool = False,
    ends: tuple[str, str] = ("standing", "unconscious"),
    locations: tuple[tuple[str, int], ...] = (),
    scatter: tuple[int, ...] = (),
    dropped: int = 0,
) -> BattleRecord:
    return BattleRecord(
        seed=seed,
        winner=winner,
        stopped=stopped,
        rounds=rounds,
        fighters=(
            FighterEnd("c1", "Knight", "red", ends[0], 3),
            FighterEnd("c3", "Axeman", "blue", ends[1], 9),
        ),
        injury_by_location=locations,
        dropped=dropped,
        broken=1,
        knocked_away=0,
        scatter=scatter,
    )


def test_counts_wins_draws_stopped_and_rounds_to_a_decision() -> None:
    tally = Tally()
    tally.add_all(
        [
            record(1, "red", 4, locations=(("torso", 5), ("right arm", 2))),
            record(2, "red", 6, locations=(("torso", 4),), scatter=(1, 2), dropped=1),
            record(3, "blue", 8, ends=("dead", "standing")),
            record(4, None, 5, ends=("unconscious", "unconscious")),
            record(5, None, 50, stopped=True, ends=("standing", "standing")),
        ]
    )
    summary = tally.summary()
    assert tally.battles == 5 and tally.sides == ["red", "blue"]
    assert summary["wins"] == {
        "red": {"count": 2, "rate": 0.4, "ci95": [tally.win_interval("red").low,
                                                 tally.win_interval("red").high]},
        "blue": {"count": 1, "rate": 0.2, "ci95": [tally.win_interval("blue").low,
                                                  tally.win_interval("blue").high]},
    }  # fmt: skip
    assert tally.draws == 1 and tally.stopped == 1
    rounds = summary["rounds_to_decision"]
    assert isinstance(rounds, dict)
    assert rounds["battles"] == 4  # the stopped battle is not a decision
    assert rounds["median"] == statistics.median([4, 6, 8, 5])
    assert rounds["quartiles"] == statistics.quantiles([4, 5, 6, 8], n=4, method="inclusive")[::2]
    assert rounds["histogram"] == {"4": 1, "5": 1, "6": 1, "8": 1}
    fighters = summary["fighters"]
    assert isinstance(fighters, dict)
    assert fighters["c1"] == {
        "name": "Knight", "side": "red", "standing": 3, "unconscious": 1, "dead": 1,
        "mean_injury": 3.0,
    }  # fmt: skip
    assert summary["injury_by_location"] == {
        "torso": {"battles": 2, "injury": 9},
        "right arm": {"battles": 1, "injury": 2},
    }
    assert summary["weapons"] == {"dropped": 1, "broken": 5, "knocked_away": 0}
    assert summary["scatter_hexes"] == {"1": 1, "2": 1}
    text = "\n".join(tally.lines({"red": "Guard", "blue": "Outlaws"}))
    assert "Guard wins: 2 = 40.0%" in text and "Outlaws wins: 1 = 20.0%" in text
    assert "stopped at the round limit: 1" in text and "draws: 1" in text
    assert "Knight (Guard):  60.0% /  20.0% /  20.0%, 3.0" in text


def test_parts_of_a_run_add_up() -> None:
    records = [
        record(i, "red" if i % 3 else "blue", 3 + i % 5, scatter=(i % 4,)) for i in range(30)
    ]
    whole = Tally()
    whole.add_all(records)
    first, second = Tally(), Tally()
    first.add_all(records[:11])
    second.add_all(records[11:])
    first.merge(second)
    assert first.summary() == whole.summary()


def test_narrow_enough_when_every_side_is() -> None:
    tally = Tally()
    assert not tally.narrow_enough(0.5)
    tally.add_all(record(i, "red" if i % 2 else "blue", 3) for i in range(100))
    widest = tally.widest_win_interval()
    assert widest == max(tally.win_interval(s).width for s in ("red", "blue"))
    assert tally.narrow_enough(widest) and not tally.narrow_enough(widest - 1e-9)


@given(st.lists(st.integers(0, 60), min_size=1, max_size=80), st.sampled_from([0.25, 0.5, 0.75]))
def test_quantiles_as_the_standard_library_computes_them(values: list[int], q: float) -> None:
    expected = (
        statistics.quantiles(values, n=4, method="inclusive")[int(q * 4) - 1]
        if len(values) > 1
        else values[0]
    )
    assert quantile(Counter(values), q) == pytest.approx(expected)
