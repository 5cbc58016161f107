"""Item icons drawn with QPainter: weapons, shields and broken pieces lying on the map.

Every icon is drawn on a 24x24 design box (like the toolbar icons) and cached as a
pixmap per (key, size, device pixel ratio), so the map blits them. Shapes are bold
silhouettes with a dark rim so they read at 16-32 px on parchment.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from enum import Enum

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from app.theme import SHIELD_FILL, TOKEN_RIM

STEEL = QColor("#dfe4ea")
STEEL_DARK = QColor("#8e99a6")
WOOD = QColor("#8a5a2b")
# Items lying on the map are inked and shield-faced like the tokens beside them.
RIM = TOKEN_RIM
SHIELD_FACE = SHIELD_FILL
SHIELD_BOSS = QColor("#6f7d8f")
BACKDROP = QColor(250, 245, 232, 215)

ICON_KEYS: tuple[str, ...] = (
    "sword", "dagger", "spear", "axe", "mace", "flail", "chain", "shield", "piece",
)


def _rim(width: float = 1.6) -> QPen:
    pen = QPen(RIM, width)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return pen


def _handle(p: QPainter, x0: float, y0: float, x1: float, y1: float, w: float = 3.0) -> None:
    p.setPen(QPen(RIM, w + 1.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(x0, y0), QPointF(x1, y1))
    p.setPen(QPen(WOOD, w, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(x0, y0), QPointF(x1, y1))


def _blade(p: QPainter, length: float, width: float) -> None:
    """A blade along -y from the origin (the hilt) to the point."""
    path = QPainterPath(QPointF(-width / 2, 0))
    path.lineTo(-width / 2, -length + width)
    path.lineTo(0, -length)
    path.lineTo(width / 2, -length + width)
    path.lineTo(width / 2, 0)
    path.closeSubpath()
    p.setPen(_rim(1.3))
    p.setBrush(STEEL)
    p.drawPath(path)
    p.setPen(QPen(STEEL_DARK, 0.8))
    p.drawLine(QPointF(0, -1), QPointF(0, -length + width + 0.5))


def _sword(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(45)
    p.translate(0, 4)
    _blade(p, 15, 3.6)
    p.setPen(_rim(1.2))
    p.setBrush(QColor("#c9a227"))
    p.drawRoundedRect(QRectF(-5, -0.4, 10, 2.6), 1, 1)  # cross-guard
    _handle(p, 0, 3, 0, 7, 2.6)
    p.setPen(_rim(1.0))
    p.setBrush(QColor("#c9a227"))
    p.drawEllipse(QPointF(0, 8.6), 1.7, 1.7)  # pommel


def _dagger(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(45)
    p.translate(0, 3)
    _blade(p, 10, 4.2)
    p.setPen(_rim(1.2))
    p.setBrush(QColor("#c9a227"))
    p.drawRoundedRect(QRectF(-3.6, -0.2, 7.2, 2.2), 1, 1)
    _handle(p, 0, 2.6, 0, 5.6, 2.8)


def _spear(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(45)
    _handle(p, 0, 11, 0, -4, 2.2)
    head = QPainterPath(QPointF(0, -12))
    head.lineTo(3.2, -5.5)
    head.lineTo(0, -3.5)
    head.lineTo(-3.2, -5.5)
    head.closeSubpath()
    p.setPen(_rim(1.2))
    p.setBrush(STEEL)
    p.drawPath(head)


def _axe(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(35)
    _handle(p, 0, 10, 0, -9, 2.4)
    head = QPainterPath(QPointF(0.5, -8))
    head.lineTo(5, -10.5)
    head.quadTo(9.5, -5, 5, 0.5)
    head.lineTo(0.5, -2.5)
    head.closeSubpath()
    p.setPen(_rim(1.3))
    p.setBrush(STEEL)
    p.drawPath(head)


def _mace(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(40)
    _handle(p, 0, 10, 0, -3, 2.4)
    p.setPen(_rim(1.2))
    p.setBrush(STEEL_DARK)
    for k in range(8):  # flanges
        a = math.radians(45 * k)
        p.drawEllipse(QPointF(4.3 * math.sin(a), -6.5 - 4.3 * math.cos(a)), 1.5, 1.5)
    p.setBrush(STEEL)
    p.drawEllipse(QPointF(0, -6.5), 4.2, 4.2)


def _flail(p: QPainter) -> None:
    _handle(p, 4, 21, 9, 12, 2.4)
    p.setPen(QPen(RIM, 1.3))
    p.setBrush(Qt.BrushStyle.NoBrush)
    for i in range(3):  # chain links
        p.drawEllipse(QPointF(10.5 + 1.6 * i, 9.5 - 1.8 * i), 1.3, 1.0)
    p.setPen(_rim(1.2))
    p.setBrush(STEEL_DARK)
    cx, cy = 16.5, 6.5
    for k in range(6):  # spikes
        a = math.radians(60 * k + 15)
        tip = QPointF(cx + 6.2 * math.cos(a), cy + 6.2 * math.sin(a))
        p.drawPolygon(QPolygonF([
            QPointF(cx + 3.5 * math.cos(a - 0.45), cy + 3.5 * math.sin(a - 0.45)), tip,
            QPointF(cx + 3.5 * math.cos(a + 0.45), cy + 3.5 * math.sin(a + 0.45)),
        ]))
    p.setBrush(STEEL)
    p.drawEllipse(QPointF(cx, cy), 4.0, 4.0)


def _chain(p: QPainter) -> None:
    p.translate(12, 12)
    p.rotate(-35)
    for i in range(4):
        x = -9 + 6 * i
        horizontal = i % 2 == 0
        rect = QRectF(x - 4, -2.5, 8, 5) if horizontal else QRectF(x - 3.6, -1.3, 7.2, 2.6)
        p.setPen(QPen(RIM, 3.2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(rect, 2.4, 2.4)
        p.setPen(QPen(STEEL, 1.6))
        p.drawRoundedRect(rect, 2.4, 2.4)


def _shield(p: QPainter) -> None:
    w, h = 17.0, 20.0
    path = QPainterPath(QPointF(12 - w / 2, 2))
    path.lineTo(12 + w / 2, 2)
    path.cubicTo(12 + w / 2, 2 + h * 0.55, 12 + w * 0.3, 2 + h * 0.85, 12, 2 + h)
    path.cubicTo(12 - w * 0.3, 2 + h * 0.85, 12 - w / 2, 2 + h * 0.55, 12 - w / 2, 2)
    path.closeSubpath()
    p.setPen(_rim(1.7))
    p.setBrush(SHIELD_FACE)
    p.drawPath(path)
    p.setPen(QPen(QColor("#22344f"), 1.4))
    p.drawLine(QPointF(12, 3.5), QPointF(12, 20))
    p.drawLine(QPointF(5, 9), QPointF(19, 9))
    p.setPen(_rim(1.0))
    p.setBrush(SHIELD_BOSS)
    p.drawEllipse(QPointF(12, 9), 2.3, 2.3)


def _piece(p: QPainter) -> None:
    """A snapped blade: two jagged halves apart."""
    p.translate(12, 12)
    p.rotate(45)
    upper = QPainterPath(QPointF(-1.8, -2.5))
    upper.lineTo(-1.8, -8.5)
    upper.lineTo(0, -11)
    upper.lineTo(1.8, -8.5)
    upper.lineTo(1.8, -1.5)
    upper.lineTo(0.3, -3.2)
    upper.closeSubpath()
    p.save()
    p.translate(1.5, -1.5)
    p.rotate(14)
    p.setPen(_rim(1.2))
    p.setBrush(STEEL)
    p.drawPath(upper)
    p.restore()
    lower = QPainterPath(QPointF(-1.8, 3))
    lower.lineTo(-1.8, 0.5)
    lower.lineTo(-0.2, 1.6)
    lower.lineTo(1.8, -0.2)
    lower.lineTo(1.8, 3)
    lower.closeSubpath()
    p.setPen(_rim(1.2))
    p.setBrush(STEEL)
    p.drawPath(lower)
    p.setBrush(QColor("#c9a227"))
    p.drawRoundedRect(QRectF(-4.2, 3, 8.4, 2.2), 1, 1)
    _handle(p, 0, 5.6, 0, 9.5, 2.6)


_DRAW: dict[str, Callable[[QPainter], None]] = {
    "sword": _sword,
    "dagger": _dagger,
    "spear": _spear,
    "axe": _axe,
    "mace": _mace,
    "flail": _flail,
    "chain": _chain,
    "shield": _shield,
    "piece": _piece,
}

# Weapon kinds / names -> icon keys (words looked for in the key, kind or name).
_WORDS: tuple[tuple[str, str], ...] = (
    ("broken", "piece"), ("piece", "piece"), ("shard", "piece"), ("blade-half", "piece"),
    ("shield", "shield"), ("buckler", "shield"),
    ("flail", "flail"), ("morningstar", "flail"), ("chain", "chain"), ("whip", "chain"),
    ("mace", "mace"), ("club", "mace"), ("hammer", "mace"), ("maul", "mace"),
    ("axe", "axe"), ("halberd", "axe"), ("poleaxe", "axe"),
    ("spear", "spear"), ("pike", "spear"), ("lance", "spear"), ("glaive", "spear"),
    ("staff", "spear"), ("polearm", "spear"), ("trident", "spear"),
    ("knife", "dagger"), ("dagger", "dagger"), ("main-gauche", "dagger"), ("dirk", "dagger"),
    ("sword", "sword"), ("saber", "sword"), ("sabre", "sword"), ("rapier", "sword"),
    ("foil", "sword"), ("blade", "sword"), ("katana", "sword"), ("scimitar", "sword"),
)


def icon_key_for(*hints: object) -> str:
    """The icon key for an item from any hints (an icon key, a kind, a name):
    the first hint that is a known key wins, then words in the hints."""
    return _icon_key(tuple(_hint_text(h) for h in hints if h is not None))


def _hint_text(hint: object) -> str:
    """An enum hint (an item kind) by its value, anything else as text."""
    return str(hint.value if isinstance(hint, Enum) else hint).lower()


@functools.lru_cache(maxsize=1024)
def _icon_key(texts: tuple[str, ...]) -> str:
    for t in texts:
        if t in _DRAW:
            return t
    for t in texts:
        for word, key in _WORDS:
            if word in t:
                return key
    return "sword"


def draw_icon(p: QPainter, key: str, rect: QRectF) -> None:
    """Draw icon ``key`` scaled into ``rect`` (the painter state is kept)."""
    draw = _DRAW.get(key, _sword)
    p.save()
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.translate(rect.topLeft())
    p.scale(rect.width() / 24.0, rect.height() / 24.0)
    draw(p)
    p.restore()


_CACHE: dict[tuple[str, int, float, bool], QPixmap] = {}


def icon_pixmap(key: str, size: int, dpr: float = 1.0, backdrop: bool = False) -> QPixmap:
    """A cached pixmap of icon ``key``, ``size`` logical pixels square. With
    ``backdrop`` a pale disc sits under the icon so it stands out on any terrain."""
    cache_key = (key, size, round(dpr, 2), backdrop)
    pixmap = _CACHE.get(cache_key)
    if pixmap is None:
        side = max(1, math.ceil(size * dpr))
        pixmap = QPixmap(side, side)
        pixmap.setDevicePixelRatio(dpr)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(0, 0, size, size)
        if backdrop:
            p.setPen(QPen(QColor(30, 26, 20, 150), 1.0))
            p.setBrush(BACKDROP)
            p.drawEllipse(rect.adjusted(0.5, 0.5, -0.5, -0.5))
            rect = rect.adjusted(size * 0.1, size * 0.1, -size * 0.1, -size * 0.1)
        draw_icon(p, key, rect)
        p.end()
        if len(_CACHE) > 400:
            _CACHE.clear()
        _CACHE[cache_key] = pixmap
    return pixmap


def item_icon(key: str) -> QIcon:
    """A QIcon (several sizes) for lists and buttons."""
    icon = QIcon()
    for size in (16, 20, 24, 32):
        icon.addPixmap(icon_pixmap(key, size))
    return icon
