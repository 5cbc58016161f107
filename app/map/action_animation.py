"""Auto-play's moves and blows, shown on the map at a pace the GM can follow
(issue 25, "each move and blow animated").

A decision's commands have already run when their changes reach the map: the
battle is in its true, final state. What the animator adds is only a way of
looking at the last change: a moving token slides along the path it walked, hex
by hex, and a blow is a short line from attacker to defender, red with a burst
where it landed and grey and dashed where it did not. Several changes of one
decision (a step, then an attack) play one after the other.

One ``QVariantAnimation`` per step, driven by the Qt event loop: the GUI thread
never waits. ``skip`` drops whatever is under way or queued, so a pause, an undo
or another battle leaves the map showing the battle as it is.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEasingCurve, QObject, QPointF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF

from app.map.animation import point_along
from hexmap import Hex
from rules.battle.battle import BattleChange, ChangeKind
from rules.battle.command_events import Moved
from rules.battle.commands import Attack
from rules.core.errors import RulesError
from rules.sets.protocol import Ruleset


@dataclass(frozen=True)
class Pace:
    """How long the animations of one auto-play speed take, in milliseconds."""

    per_hex: int  # a token's slide, for each hex of its path
    blow: int  # an attack's line and flash


# By auto-play speed (app.autoplay_menu.SPEEDS); a speed not named has none.
PACES: dict[str, Pace] = {
    "watchable": Pace(per_hex=180, blow=550),
    "quick": Pace(per_hex=60, blow=220),
}
# The longest slide, whatever the path: a long run still leaves time to watch.
MAX_SLIDE_MS = 1500


@dataclass(frozen=True)
class Slide:
    """A token on its way along the hexes it walked (``path[0]`` where it set off)."""

    combatant_id: str
    path: tuple[Hex, ...]


@dataclass(frozen=True)
class Blow:
    """An attack from ``source`` to ``target``; ``landed``: it hurt the defender
    (more hurt, or down, after it than before)."""

    attacker_id: str
    defender_id: str
    source: Hex
    target: Hex
    landed: bool


Step = Slide | Blow


def steps_of(change: BattleChange, ruleset: Ruleset) -> tuple[Step, ...]:
    """What a change shows: a slide for each move, a blow for an attack. Only a
    command run for the first time shows anything (an undo or a redo does not)."""
    if change.kind is not ChangeKind.EXECUTED:
        return ()
    steps: list[Step] = [
        Slide(e.combatant_id, e.path)
        for e in change.events
        if isinstance(e, Moved) and len(e.path) > 1
    ]
    command = change.command
    if isinstance(command, Attack):
        try:
            attacker = change.before.combatant(command.attacker_id)
            before = change.before.combatant(command.defender_id)
            after = change.after.combatant(command.defender_id)
        except RulesError:
            return tuple(steps)
        condition = ruleset.conditions.fighter_condition
        # Ruleset-neutral: the blow landed if it left the defender more hurt.
        was, now = condition(before), condition(after)
        landed = now.hurt > was.hurt or (now.down is not None and was.down is None)
        steps.append(Blow(attacker.id, before.id, attacker.hex, before.hex, landed))
    return tuple(steps)


def step_ms(step: Step, pace: Pace) -> int:
    if isinstance(step, Slide):
        return min(MAX_SLIDE_MS, pace.per_hex * (len(step.path) - 1))
    return pace.blow


class ActionAnimator(QObject):
    """Plays the steps of auto-play's changes one after another; ``frame`` asks the
    map for a repaint, ``finished`` says all are done."""

    frame = Signal()
    finished = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._queue: deque[tuple[Step, int]] = deque()
        self._step: Step | None = None
        self._t = 1.0
        self._anim = QVariantAnimation(self)
        self._anim.setStartValue(0.0)
        self._anim.setEndValue(1.0)
        self._anim.valueChanged.connect(self._on_value)
        self._anim.finished.connect(self._next)

    @property
    def running(self) -> bool:
        return self._step is not None

    @property
    def step(self) -> Step | None:
        """The step under way (None: none)."""
        return self._step

    @property
    def progress(self) -> float:
        return self._t

    def remaining_ms(self) -> int:
        """About how long until every queued step is shown."""
        if self._step is None:
            return 0
        left = max(0, self._anim.duration() - self._anim.currentTime())
        return left + sum(ms for _, ms in self._queue)

    def play(self, steps: tuple[Step, ...], pace: Pace) -> None:
        """Queue ``steps`` after those under way."""
        for step in steps:
            ms = step_ms(step, pace)
            if ms > 0:
                self._queue.append((step, ms))
        if self._step is None:
            self._next()

    def skip(self) -> bool:
        """Drop every step, shown or queued; True if one was under way."""
        was = self._step is not None
        self._queue.clear()
        self._anim.stop()
        self._step = None
        self._t = 1.0
        if was:
            self.frame.emit()
            self.finished.emit()
        return was

    def hidden_hex(self, combatant_id: str) -> bool:
        """Whether ``combatant_id``'s token is drawn by the slide instead of in its hex."""
        step = self._step
        return isinstance(step, Slide) and step.combatant_id == combatant_id

    def queued_slide_of(self, combatant_id: str) -> Slide | None:
        """A slide of ``combatant_id`` waiting its turn: its token waits at the start."""
        for step, _ in self._queue:
            if isinstance(step, Slide) and step.combatant_id == combatant_id:
                return step
        return None

    def token_point(self, centre: Callable[[Hex], QPointF]) -> QPointF | None:
        """Where the sliding token is drawn now (``centre``: a hex's point on screen)."""
        step = self._step
        if not isinstance(step, Slide):
            return None
        at, _ = point_along([centre(h) for h in step.path], self._t)
        return at

    def _next(self) -> None:
        if not self._queue:
            was = self._step is not None
            self._step = None
            self._t = 1.0
            if was:
                self.frame.emit()
                self.finished.emit()
            return
        self._step, ms = self._queue.popleft()
        self._t = 0.0
        self._anim.setDuration(ms)
        curve = (
            QEasingCurve.Type.Linear
            if isinstance(self._step, Slide)
            else QEasingCurve.Type.OutCubic
        )
        self._anim.setEasingCurve(curve)
        self._anim.start()
        self.frame.emit()

    def _on_value(self, value: float) -> None:
        self._t = float(value)
        self.frame.emit()


HIT = QColor(205, 25, 25)
MISS = QColor(90, 90, 90)
REACH_PART = 0.35  # the first part of a blow: the stroke reaching the defender
FADE_PART = 0.3  # the last part: everything fades


def star(centre: QPointF, outer: float, inner: float, points: int = 8) -> QPolygonF:
    """A burst: ``points`` spikes of radius ``outer`` between notches at ``inner``."""
    corners = []
    for k in range(2 * points):
        r = outer if k % 2 == 0 else inner
        a = k * math.pi / points - math.pi / 2
        corners.append(QPointF(centre.x() + math.cos(a) * r, centre.y() + math.sin(a) * r))
    return QPolygonF(corners)


def paint_blow(
    p: QPainter, blow: Blow, t: float, centre: Callable[[Hex], QPointF], hex_pixels: float
) -> None:
    """The blow ``t`` of the way through: a stroke that reaches from attacker to
    defender, then at the defender a red burst marked "hit" (it landed) or a grey
    ring marked "miss" (it did not), fading out at the end."""
    start, end = centre(blow.source), centre(blow.target)
    reach = min(1.0, t / REACH_PART)
    tip = QPointF(
        start.x() + (end.x() - start.x()) * reach, start.y() + (end.y() - start.y()) * reach
    )
    fade = min(1.0, (1.0 - t) / FADE_PART)
    colour = QColor(HIT if blow.landed else MISS)
    p.save()
    p.setOpacity(fade)
    pen = QPen(colour, max(3.0, hex_pixels * 0.12))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    if not blow.landed:
        pen.setStyle(Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawLine(start, tip)
    if t >= REACH_PART:
        grow = min(1.0, (t - REACH_PART) / 0.25)
        radius = hex_pixels * (0.45 + 0.25 * grow)
        if blow.landed:
            fill = QColor(colour)
            fill.setAlpha(150)
            p.setPen(QPen(QColor(255, 235, 120), max(2.0, hex_pixels * 0.05)))
            p.setBrush(fill)
            p.drawPolygon(star(end, radius, radius * 0.55))
        else:
            ring = QPen(colour, max(2.0, hex_pixels * 0.07), Qt.PenStyle.DashLine)
            p.setPen(ring)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(end, radius, radius)
        label = "hit" if blow.landed else "miss"
        font = QFont(p.font())
        font.setBold(True)
        font.setPixelSize(max(11, round(hex_pixels * 0.3)))
        p.setFont(font)
        box = QFontMetricsF(font).boundingRect(label).adjusted(-5, -2, 5, 2)
        box.moveCenter(QPointF(end.x(), end.y() - radius - box.height() / 2 - 2))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        p.drawRoundedRect(box, 4, 4)
        p.setPen(QColor(255, 255, 255))
        p.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
    p.restore()
