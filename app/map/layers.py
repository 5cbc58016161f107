"""The map view's layers in screen coordinates, each drawn from what it needs: the
camera, the battle state and the caches (the static map and the overlay are in
app.map.painter). ``MapView.paint`` stacks them."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF

from app import icons, theme
from app.map import painter as mp
from app.map.animation import FlightAnimator, point_along
from app.map.camera import Camera
from app.map.drops import DropPick
from hexmap import Hex
from rules.battle.hands import wielded_weapons
from rules.battle.items import GroundItem
from rules.battle.model import Combatant

WEAPON_MARKS_MIN_PIXELS = 10.0  # smaller hexes get no weapon-position diamonds


def paint_drop_hexes(p: QPainter, pick: DropPick, hover: Hex | None) -> None:
    """The legal hexes of a pending drop (map coordinates): green, the own hex
    (the default) with a strong rim, the hovered one filled stronger."""
    fill = QColor(theme.DROP_OK)
    fill.setAlpha(95)
    pen = QPen(QColor(theme.DROP_OK.darker(160).rgb()), 2.5)
    pen.setCosmetic(True)
    p.setPen(pen)
    p.setBrush(fill)
    for h in pick.candidates:
        p.drawPolygon(mp.hex_polygon(h, 0.9))
    strong = QPen(QColor(theme.DROP_OK.darker(220).rgb()), 4.0)
    strong.setCosmetic(True)
    p.setPen(strong)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPolygon(mp.hex_polygon(pick.candidates[0], 0.9))
    if hover in pick.candidates:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(theme.DROP_OK)
        p.drawPolygon(mp.hex_polygon(hover, 0.9))


def paint_terrain_layer(
    p: QPainter,
    camera: Camera,
    terrain: mp.TerrainCache,
    pixmaps: mp.TerrainPixmaps,
    layer: int,
    visible: QRectF,
    *,
    zooming: bool,
    dpr: float,
) -> None:
    """Terrain under (layer 0) or over (1) the arc tints: cached chunk pixmaps once
    the zoom is still, the chunks' paths while it changes."""
    zoom = camera.zoom
    if zooming:
        if layer == 0:
            mp.paint_terrain_base(p, terrain, visible)
        else:
            mp.paint_terrain(p, terrain, zoom, visible)
        return
    p.save()
    p.resetTransform()
    for index, chunk in enumerate(terrain.chunks):
        if not chunk.bounds.intersects(visible):
            continue
        if layer == 0 and not (chunk.heights or chunk.water):
            continue
        top_left = camera.to_screen(chunk.bounds.topLeft())
        x, y = math.floor(top_left.x()), math.floor(top_left.y())
        frac = (round(top_left.x() - x, 2), round(top_left.y() - y, 2))
        pixmap = pixmaps.get(terrain, index, layer, zoom, frac, dpr)
        p.drawPixmap(QPointF(x, y), pixmap)
    p.restore()


def paint_heights(
    p: QPainter, camera: Camera, terrain: mp.TerrainCache, texts: mp.TextCache,
    exposed: QRectF, dpr: float,
) -> None:  # fmt: skip
    """A small level number in the upper left of each raised or sunken hex."""
    visible = camera.visible_map_rect(exposed)
    for chunk in terrain.visible_chunks(visible):
        for at, text in chunk.height_labels:
            pixmap = mp.height_pill(texts, text, dpr)
            w, h = pixmap.width() / dpr, pixmap.height() / dpr
            s = camera.to_screen(at)
            p.drawPixmap(QPointF(s.x() - w / 2, s.y() - h / 2), pixmap)


def paint_path(p: QPainter, camera: Camera, path: tuple[Hex, ...]) -> None:
    """A combatant's path this turn: a dotted line with a dot per step."""
    if not path:
        return
    points = [camera.hex_center(h) for h in path]
    pen = QPen(theme.PATH_LINE, 2.2, Qt.PenStyle.DotLine)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPolyline(QPolygonF(points))
    r = max(2.5, 0.09 * camera.hex_pixels)
    p.setPen(QPen(theme.PATH_LINE, 1.2))
    p.setBrush(theme.PATH_DOT)
    for pt in points[:-1]:
        p.drawEllipse(pt, r, r)


def paint_weapon_positions(
    p: QPainter,
    camera: Camera,
    c: Combatant,
    positions: dict[str, tuple[Hex, ...]],
    exposed: QRectF,
) -> None:
    """Small diamonds where each weapon of ``c`` is (the hexes a foe can strike at
    it), one colour per weapon as its reach, offset so they don't stack."""
    size_px = camera.hex_pixels
    if size_px < WEAPON_MARKS_MIN_PIXELS:
        return
    keys = [w.key for w in wielded_weapons(c)]  # as the reach overlay numbers them
    d = max(3.5, 0.11 * size_px)
    for key, hexes in positions.items():
        index = keys.index(key) if key in keys else 0
        colour = theme.reach_style(index).colour
        for h in hexes:
            cx, cy = camera.to_screen_xy(h)
            # along the hex's upper left edge, clear of tokens' faces; one per weapon
            x = cx - 0.5 * size_px + index * 2.4 * d
            y = cy - 0.62 * size_px
            if not exposed.contains(QPointF(x, y)):
                continue
            p.setPen(QPen(QColor("#ffffff"), 1.2))
            p.setBrush(colour)
            p.drawPolygon(QPolygonF([
                QPointF(x, y - d), QPointF(x + d, y), QPointF(x, y + d), QPointF(x - d, y)
            ]))  # fmt: skip


def item_rects(
    camera: Camera, items_by_hex: dict[Hex, list[GroundItem]]
) -> list[tuple[QRectF, GroundItem]]:
    """Screen rects of the item icons and their items."""
    size_px = camera.hex_pixels
    icon = mp.item_icon_size(size_px)
    out: list[tuple[QRectF, GroundItem]] = []
    for h, items in items_by_hex.items():
        cx, cy = camera.to_screen_xy(h)
        for (dx, dy), item in zip(mp.item_slots(len(items), size_px), items, strict=False):
            out.append((QRectF(cx + dx - icon / 2, cy + dy - icon / 2, icon, icon), item))
    return out


def paint_items(
    p: QPainter, rects: list[tuple[QRectF, GroundItem]], exposed: QRectF, size_px: float,
    dpr: float,
) -> None:  # fmt: skip
    icon = mp.item_icon_size(size_px)
    for rect, item in rects:
        if rect.intersects(exposed):
            key = icons.icon_key_for(item.icon, item.name)
            p.drawPixmap(rect.topLeft(), icons.icon_pixmap(key, icon, dpr, backdrop=True))


def paint_flights(p: QPainter, camera: Camera, animator: FlightAnimator, dpr: float) -> None:
    size_px = camera.hex_pixels
    icon = mp.item_icon_size(size_px) + 4
    t = animator.progress
    for flight in animator.flights:
        points = [camera.hex_center(h) for h in flight.path]
        at, hop = point_along(points, t)
        y = at.y() - hop * size_px
        p.setOpacity(0.35)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0))
        p.drawEllipse(at, icon * 0.35, icon * 0.15)  # the shadow on the ground
        p.setOpacity(1.0)
        p.save()
        p.translate(at.x(), y)
        p.rotate(360.0 * t * (1 if len(points) > 1 else 0.25))
        p.drawPixmap(
            QPointF(-icon / 2, -icon / 2), icons.icon_pixmap(flight.icon, icon, dpr, backdrop=True)
        )
        p.restore()


def paint_target_line(p: QPainter, camera: Camera, a: Combatant, t: Combatant) -> None:
    """A dashed line from the selection ``a`` to its target ``t``."""
    start, end = camera.hex_center(a.hex), camera.hex_center(t.hex)
    dist = math.hypot(end.x() - start.x(), end.y() - start.y())
    trim = 0.8 * camera.hex_pixels
    if dist <= 2 * trim:
        return
    ux, uy = (end.x() - start.x()) / dist, (end.y() - start.y()) / dist
    pen = QPen(theme.TARGET_RING, 2.0, Qt.PenStyle.DashLine)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    p.setPen(pen)
    p.drawLine(
        QPointF(start.x() + ux * trim, start.y() + uy * trim),
        QPointF(end.x() - ux * trim, end.y() - uy * trim),
    )
