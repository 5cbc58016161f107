"""Short animations on the map: weapons and pieces flying or falling along the path
the rules traced for them (``rules.battle.scatter.MapLanding.path``).

One ``QVariantAnimation`` (about 400 ms) drives every flight of a command at once;
the map view paints the icons where ``FlightAnimator.positions`` says and repaints
on ``frame``. A click or Esc skips to the end. Animations are off where nobody looks
(the offscreen platform: tests, screenshots, the benchmark) and when the GM turns
them off (View menu; remembered in the settings).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from PySide6.QtCore import QEasingCurve, QObject, QPointF, QVariantAnimation, Signal

from hexmap import Hex

DURATION_MS = 400
SETTINGS_KEY = "view/animations"


def animations_wanted() -> bool:
    """The default: on, except offscreen (tests) or with HEXFRAY_NO_ANIMATIONS set."""
    if os.environ.get("HEXFRAY_NO_ANIMATIONS"):
        return False
    return os.environ.get("QT_QPA_PLATFORM", "") != "offscreen"


@dataclass(frozen=True)
class Flight:
    """One piece on its way: an icon key, its name and the hexes it crosses
    (``path[0]`` where it left the hand, ``path[-1]`` where it lands)."""

    icon: str
    name: str
    path: tuple[Hex, ...]
    item_id: str | None = None


def flight_points(flight: Flight, centre: Callable[[Hex], QPointF]) -> list[QPointF]:
    """Map points of a flight's path (``centre`` maps a hex to its map point)."""
    return [centre(h) for h in flight.path]


def point_along(points: Sequence[QPointF], t: float) -> tuple[QPointF, float]:
    """The point a fraction ``t`` of the way along a polyline, and a little hop
    height (0 at both ends) so a flying piece arcs and a dropped one falls."""
    t = max(0.0, min(1.0, t))
    if len(points) < 2:
        # a drop in place: a short fall
        return points[0] if points else QPointF(), (1.0 - t) * 0.6
    segments = list(pairwise(points))
    lengths = [math.hypot(b.x() - a.x(), b.y() - a.y()) for a, b in segments]
    total = sum(lengths) or 1.0
    goal = t * total
    hop = math.sin(math.pi * t) * min(1.2, 0.25 + 0.12 * len(points))
    for (a, b), seg in zip(segments, lengths, strict=True):
        if goal <= seg:
            f = 0.0 if seg == 0 else goal / seg
            return QPointF(a.x() + (b.x() - a.x()) * f, a.y() + (b.y() - a.y()) * f), hop
        goal -= seg
    return points[-1], 0.0


class FlightAnimator(QObject):
    """Runs the flights of one command; ``frame`` asks for a repaint."""

    frame = Signal()
    finished = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._flights: tuple[Flight, ...] = ()
        self._t = 1.0
        self._anim = QVariantAnimation(self)
        self._anim.setStartValue(0.0)
        self._anim.setEndValue(1.0)
        self._anim.setDuration(DURATION_MS)
        self._anim.setEasingCurve(QEasingCurve.Type.OutCubic)
        self._anim.valueChanged.connect(self._on_value)
        self._anim.finished.connect(self._on_finished)

    @property
    def flights(self) -> tuple[Flight, ...]:
        return self._flights

    @property
    def running(self) -> bool:
        return bool(self._flights)

    @property
    def progress(self) -> float:
        return self._t

    def start(self, flights: Iterable[Flight], duration_ms: int = DURATION_MS) -> None:
        self._anim.stop()
        self._flights = tuple(flights)
        if not self._flights:
            return
        self._t = 0.0
        self._anim.setDuration(duration_ms)
        self._anim.start()
        self.frame.emit()

    def skip(self) -> bool:
        """Jump to the end; True if something was running."""
        if not self._flights:
            return False
        self._anim.stop()
        self._on_finished()
        return True

    def in_flight(self, item_id: str) -> bool:
        return any(f.item_id == item_id for f in self._flights)

    def _on_value(self, value: float) -> None:
        self._t = float(value)
        self.frame.emit()

    def _on_finished(self) -> None:
        self._t = 1.0
        self._flights = ()
        self.frame.emit()
        self.finished.emit()
