"""What a run of simulated battles reports, counted from their ``BattleRecord``s
alone: each side's win rate with its Wilson 95% interval, draws and battles
stopped at the round limit, the rounds to a decision, how each fighter ended,
injury by hit location, weapons dropped, broken and knocked away, and how far
pieces scattered.

A ``Tally`` holds counts only (no records), so a run of millions of battles takes
no more memory than one of ten; tallies of parts of a run add up (``merge``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rules.sim.battle_record import BattleRecord
from rules.sim.intervals import Interval, wilson

ENDS = ("standing", "unconscious", "dead")
HISTOGRAM_WIDTH = 40  # characters of the longest bar in the text report


def quantile(counts: Counter[int], q: float) -> float:
    """The ``q`` quantile of the values counted, interpolated between neighbours
    as numpy's default ("linear") and ``statistics.quantiles(method="inclusive")``
    do; nan when nothing is counted."""
    total = sum(counts.values())
    if total == 0:
        return math.nan
    position = q * (total - 1)
    below = math.floor(position)
    fraction = position - below
    seen = 0
    lower: int | None = None
    for value in sorted(counts):
        seen += counts[value]
        if lower is None and seen > below:
            lower = value
            if fraction == 0 or seen > below + 1:
                return float(value)
        elif lower is not None:
            return lower + fraction * (value - lower)
    assert lower is not None
    return float(lower)


@dataclass
class FighterTally:
    name: str
    side: str
    ends: Counter[str] = field(default_factory=Counter)
    injury: int = 0  # hit points lost, summed over the battles


@dataclass
class Tally:
    """The counts of a run (or of part of one)."""

    battles: int = 0
    sides: list[str] = field(default_factory=list)  # in the order first seen
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    stopped: int = 0
    decided_rounds: Counter[int] = field(default_factory=Counter)
    fighters: dict[str, FighterTally] = field(default_factory=dict)
    location_injury: Counter[str] = field(default_factory=Counter)
    # battles in which each location took injury (a record sums a battle's injury
    # by location)
    location_battles: Counter[str] = field(default_factory=Counter)
    dropped: int = 0
    broken: int = 0
    knocked_away: int = 0
    scatter: Counter[int] = field(default_factory=Counter)

    # --- counting -------------------------------------------------------------------
    def add(self, record: BattleRecord) -> None:
        self.battles += 1
        for end in record.fighters:
            if end.side not in self.sides:
                self.sides.append(end.side)
            fighter = self.fighters.get(end.combatant_id)
            if fighter is None:
                fighter = self.fighters[end.combatant_id] = FighterTally(end.name, end.side)
            fighter.ends[end.end] += 1
            fighter.injury += end.injury
        if record.winner is not None:
            if record.winner not in self.sides:
                self.sides.append(record.winner)
            self.wins[record.winner] += 1
        elif record.stopped:
            self.stopped += 1
        else:
            self.draws += 1
        if not record.stopped:
            self.decided_rounds[record.rounds] += 1
        for location, injury in record.injury_by_location:
            self.location_injury[location] += injury
            self.location_battles[location] += 1
        self.dropped += record.dropped
        self.broken += record.broken
        self.knocked_away += record.knocked_away
        self.scatter.update(record.scatter)

    def add_all(self, records: Iterable[BattleRecord]) -> None:
        for record in records:
            self.add(record)

    def merge(self, other: Tally) -> None:
        """Add the counts of ``other`` (another part of the same run)."""
        self.battles += other.battles
        for side in other.sides:
            if side not in self.sides:
                self.sides.append(side)
        self.wins.update(other.wins)
        self.draws += other.draws
        self.stopped += other.stopped
        self.decided_rounds.update(other.decided_rounds)
        for cid, theirs in other.fighters.items():
            mine = self.fighters.setdefault(cid, FighterTally(theirs.name, theirs.side))
            mine.ends.update(theirs.ends)
            mine.injury += theirs.injury
        self.location_injury.update(other.location_injury)
        self.location_battles.update(other.location_battles)
        self.dropped += other.dropped
        self.broken += other.broken
        self.knocked_away += other.knocked_away
        self.scatter.update(other.scatter)

    # --- rates ----------------------------------------------------------------------
    def win_interval(self, side: str) -> Interval:
        return wilson(self.wins[side], self.battles)

    def draw_interval(self) -> Interval:
        return wilson(self.draws, self.battles)

    def stopped_interval(self) -> Interval:
        return wilson(self.stopped, self.battles)

    def widest_win_interval(self) -> float:
        """The width of the widest side's win-rate interval (1 before any battle)."""
        if not self.battles or not self.sides:
            return 1.0
        return max(self.win_interval(side).width for side in self.sides)

    def narrow_enough(self, width: float) -> bool:
        """Whether every side's win-rate interval is at most ``width`` wide."""
        return self.battles > 0 and self.widest_win_interval() <= width

    # --- the report -------------------------------------------------------------------
    def summary(self) -> dict[str, object]:
        """The report as one JSON-ready object."""

        def rate(interval: Interval) -> dict[str, object]:
            return {
                "count": interval.successes,
                "rate": interval.rate,
                "ci95": [interval.low, interval.high],
            }

        decided = sum(self.decided_rounds.values())
        return {
            "battles": self.battles,
            "wins": {side: rate(self.win_interval(side)) for side in self.sides},
            "draws": rate(self.draw_interval()),
            "stopped": rate(self.stopped_interval()),
            "rounds_to_decision": {
                "battles": decided,
                "median": _number(quantile(self.decided_rounds, 0.5)),
                "quartiles": [
                    _number(quantile(self.decided_rounds, 0.25)),
                    _number(quantile(self.decided_rounds, 0.75)),
                ],
                "histogram": {str(r): n for r, n in sorted(self.decided_rounds.items())},
            },
            "fighters": {
                cid: {
                    "name": f.name,
                    "side": f.side,
                    **{end: f.ends[end] for end in ENDS},
                    "mean_injury": f.injury / self.battles if self.battles else 0.0,
                }
                for cid, f in self.fighters.items()
            },
            "injury_by_location": {
                location: {"battles": self.location_battles[location], "injury": injury}
                for location, injury in self.location_injury.most_common()
            },
            "weapons": {
                "dropped": self.dropped,
                "broken": self.broken,
                "knocked_away": self.knocked_away,
            },
            "scatter_hexes": {str(d): n for d, n in sorted(self.scatter.items())},
        }

    def lines(self, side_names: Mapping[str, str] | None = None) -> list[str]:
        """The report as text, one fact a line; sides by ``side_names`` (key: name)."""
        names = side_names or {}
        n = self.battles
        out = [f"Battles: {n:,}"]
        for side in self.sides:
            out.append(_rate_line(f"{names.get(side, side)} wins", self.win_interval(side)))
        out.append(_rate_line("draws", self.draw_interval()))
        out.append(_rate_line("stopped at the round limit", self.stopped_interval()))
        decided = sum(self.decided_rounds.values())
        if decided:
            q1, median, q3 = (quantile(self.decided_rounds, q) for q in (0.25, 0.5, 0.75))
            out.append(
                f"Rounds to a decision ({decided:,} battles): median {median:g}, "
                f"quartiles {q1:g} and {q3:g}"
            )
            out.extend(histogram_lines(self.decided_rounds))
        out.append("Fighters (standing / unconscious / dead, mean HP lost):")
        for f in self.fighters.values():
            shares = " / ".join(f"{_percent(f.ends[end], n)}" for end in ENDS)
            side = names.get(f.side, f.side)
            out.append(f"  {f.name} ({side}): {shares}, {f.injury / max(n, 1):.1f}")
        if self.location_injury:
            out.append("Injury by hit location (battles it was struck in, injury in all):")
            for location, injury in self.location_injury.most_common():
                out.append(f"  {location}: {self.location_battles[location]:,}, {injury:,}")
        out.append(
            f"Weapons: {self.dropped:,} dropped, {self.broken:,} broken, "
            f"{self.knocked_away:,} knocked away"
        )
        if self.scatter:
            spread = ", ".join(f"{d} hex: {k:,}" for d, k in sorted(self.scatter.items()))
            out.append(f"Scatter distances: {spread}")
        return out


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _percent(count: int, total: int) -> str:
    return f"{100 * count / total:5.1f}%" if total else "  -  "


def _rate_line(label: str, interval: Interval) -> str:
    return (
        f"{label}: {interval.successes:,} = {100 * interval.rate:.1f}% "
        f"(95% CI {100 * interval.low:.1f}% to {100 * interval.high:.1f}%)"
    )


def histogram_lines(counts: Counter[int]) -> list[str]:
    """One bar per value, the longest ``HISTOGRAM_WIDTH`` characters."""
    if not counts:
        return []
    most = max(counts.values())
    width = len(str(max(counts)))
    return [
        f"  {value:>{width}} | {'#' * max(1, round(HISTOGRAM_WIDTH * k / most))} {k:,}"
        for value, k in sorted(counts.items())
    ]
