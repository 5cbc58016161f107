"""What the map view draws, kept apart from its event handling.

Everything geometric lives in *map coordinates*: the pixels of a ``Layout`` whose hex
radius is ``HEX_SIZE`` (zoom 1). The view paints them through one scaling transform,
so the cached paths here never depend on the zoom. Only things that must stay crisp
at any zoom (token pixmaps, text) are made in screen pixels.

Speed matters (a 100x100 map must repaint in well under a frame): the grid is cut into
chunks of cached ``QPainterPath`` so a repaint strokes only the visible ones; overlay
hexes are batched into one path per colour; tokens are cached pixmaps.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QLineF, QPointF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPixmap,
    QPolygonF,
    QRadialGradient,
    QStaticText,
    QTransform,
)

from app import theme
from hexmap import Arc, Facing, Handedness, Hex, HexGrid, Layout, arc_of, disk, reach_hexes
from rules.model import Combatant, Status

HEX_SIZE = 32.0  # hex radius in map coordinates (= screen pixels at zoom 1)
LAYOUT = Layout(size=HEX_SIZE)
SQRT3 = math.sqrt(3.0)
CHUNK = 8  # grid chunks are CHUNK x CHUNK offset columns/rows

_CORNERS = LAYOUT.corner_offsets()  # flat-top, clockwise from the east corner


def edge_corners(facing: Facing) -> tuple[int, int]:
    """Corner indices (clockwise) of the edge a flat-top hex shares with its
    neighbour towards ``facing``: N is the edge between corners 4 and 5."""
    f = int(facing)
    return ((f + 4) % 6, (f + 5) % 6)


def center(h: Hex) -> QPointF:
    x, y = LAYOUT.hex_to_pixel(h)
    return QPointF(x, y)


def hex_polygon(h: Hex, scale: float = 1.0) -> QPolygonF:
    x, y = LAYOUT.hex_to_pixel(h)
    return QPolygonF([QPointF(x + dx * scale, y + dy * scale) for dx, dy in _CORNERS])


def facing_unit(facing: Facing) -> tuple[float, float]:
    """Screen unit vector (y down) pointing towards ``facing``'s edge."""
    a = math.radians(LAYOUT.facing_angle(facing))
    return (math.sin(a), -math.cos(a))


def _key(x: float, y: float) -> tuple[int, int]:
    return (round(x * 64.0), round(y * 64.0))


def outline_path(hexes: Iterable[Hex]) -> QPainterPath:
    """Closed outline(s) of the union of ``hexes``: only the edges between a member
    and a non-member, chained into loops (holes come out as their own loops)."""
    members = set(hexes)
    nxt: dict[tuple[int, int], tuple[tuple[int, int], QPointF]] = {}
    for h in members:
        x, y = LAYOUT.hex_to_pixel(h)
        for facing in Facing:
            if h.neighbor(facing) in members:
                continue
            a, b = edge_corners(facing)
            pa = (x + _CORNERS[a][0], y + _CORNERS[a][1])
            pb = (x + _CORNERS[b][0], y + _CORNERS[b][1])
            nxt[_key(*pa)] = (_key(*pb), QPointF(*pb))
    path = QPainterPath()
    while nxt:
        start, (key, point) = nxt.popitem()
        loop = [point]
        while key != start and key in nxt:
            key, point = nxt.pop(key)
            loop.append(point)
        path.addPolygon(QPolygonF(loop))
        path.closeSubpath()
    return path


def hexes_path(hexes: Iterable[Hex]) -> QPainterPath:
    """One path holding each hex polygon (for filling a batch of hexes at once)."""
    path = QPainterPath()
    for h in hexes:
        path.addPolygon(hex_polygon(h))
        path.closeSubpath()
    return path


# --- the static map -------------------------------------------------------------------
@dataclass
class GridChunk:
    bounds: QRectF
    lines: QPainterPath


class GridCache:
    """The map's outline (parchment fill) and its grid lines cut into chunks."""

    def __init__(self, grid: HexGrid) -> None:
        self.grid = grid
        x0, y0, x1, y1 = grid.pixel_bounds(LAYOUT)
        self.bounds = QRectF(QPointF(x0, y0), QPointF(x1, y1))
        self.outline = outline_path(grid.hexes())
        self.chunks = self._build_chunks(grid)

    @staticmethod
    def _build_chunks(grid: HexGrid) -> list[GridChunk]:
        c = _CORNERS
        # Each hex strokes its NW, N and NE edges (corners 3-4-5-0); the S, SE and SW
        # edges along the bottom of the map are added where no neighbour exists.
        lower = (
            (Facing.SE, edge_corners(Facing.SE)),
            (Facing.S, edge_corners(Facing.S)),
            (Facing.SW, edge_corners(Facing.SW)),
        )
        chunks: list[GridChunk] = []
        for col0 in range(0, grid.width, CHUNK):
            for row0 in range(0, grid.height, CHUNK):
                path = QPainterPath()
                for col in range(col0, min(col0 + CHUNK, grid.width)):
                    for row in range(row0, min(row0 + CHUNK, grid.height)):
                        h = Hex.from_offset(col, row)
                        x, y = LAYOUT.hex_to_pixel(h)
                        path.moveTo(x + c[3][0], y + c[3][1])
                        path.lineTo(x + c[4][0], y + c[4][1])
                        path.lineTo(x + c[5][0], y + c[5][1])
                        path.lineTo(x + c[0][0], y + c[0][1])
                        for facing, (a, b) in lower:
                            if h.neighbor(facing) not in grid:
                                path.moveTo(x + c[a][0], y + c[a][1])
                                path.lineTo(x + c[b][0], y + c[b][1])
                r = path.boundingRect()
                chunks.append(GridChunk(r.adjusted(-1, -1, 1, 1), path))
        return chunks

    def visible_chunks(self, rect: QRectF) -> list[GridChunk]:
        return [ch for ch in self.chunks if ch.bounds.intersects(rect)]


_TEXTURE: QPixmap | None = None


def parchment_texture() -> QPixmap:
    """A seamless, subtly mottled parchment tile (periodic noise made with an FFT)."""
    global _TEXTURE
    if _TEXTURE is None:
        n = 256
        rng = np.random.default_rng(7)
        noise = rng.standard_normal((n, n))
        fy = np.fft.fftfreq(n)[:, None]
        fx = np.fft.fftfreq(n)[None, :]
        f = np.sqrt(fx * fx + fy * fy)
        f[0, 0] = 1.0
        spectrum = np.fft.fft2(noise) / f**1.6
        spectrum[0, 0] = 0.0
        smooth = np.real(np.fft.ifft2(spectrum))
        smooth /= np.abs(smooth).max()
        grain = rng.standard_normal((n, n)) * 0.05
        shade = smooth * 0.55 + grain  # about -0.6 .. 0.6
        base = np.array(
            [theme.PARCHMENT.red(), theme.PARCHMENT.green(), theme.PARCHMENT.blue()],
            dtype=np.float64,
        )
        dark = np.array(
            [theme.PARCHMENT_DARK.red(), theme.PARCHMENT_DARK.green(), theme.PARCHMENT_DARK.blue()],
            dtype=np.float64,
        )
        t = np.clip(0.35 + shade * 0.5, 0.0, 1.0)[..., None]
        rgb = base * (1.0 - t) + dark * t
        rgba = np.empty((n, n, 4), dtype=np.uint8)
        rgba[..., :3] = np.clip(rgb, 0, 255).astype(np.uint8)
        rgba[..., 3] = 255
        image = QImage(rgba.tobytes(), n, n, 4 * n, QImage.Format.Format_RGBA8888).copy()
        _TEXTURE = QPixmap.fromImage(image)
    return _TEXTURE


_BRUSH: tuple[float, QBrush] | None = None


def parchment_brush(zoom: float) -> QBrush:
    """The parchment texture as a brush whose grain stays one texel per screen pixel
    at any zoom (the painter's scaling is undone) while it moves with the map."""
    global _BRUSH
    if _BRUSH is None or _BRUSH[0] != zoom:
        brush = QBrush(parchment_texture())
        brush.setTransform(QTransform.fromScale(1.0 / zoom, 1.0 / zoom))
        _BRUSH = (zoom, brush)
    return _BRUSH[1]


# --- tokens ---------------------------------------------------------------------------
ROLE_PLAIN = 0
ROLE_SELECTED = 1
ROLE_TARGET = 2


def initials(name: str) -> str:
    """Two or three characters that tell tokens apart: "Bandit 2" -> "B2",
    "Sir Gawain" -> "SG", "Orc" -> "Or"."""
    words = name.replace("-", " ").split()
    if not words:
        return "?"
    if len(words) >= 2 and words[-1].isdigit():
        return (words[0][0] + words[-1][:2]).upper()
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return words[0][:2].capitalize()


def _token_key(c: Combatant, size: float, dpr: float, role: int) -> tuple[object, ...]:
    f = c.fighter
    return (
        c.id, f.name, c.side, c.facing, c.hp, f.hit_points, c.status, f.handedness,
        f.shield is not None, bool(f.weapons), round(size, 2), dpr, role,
    )


class TokenCache:
    """Pixmaps of tokens, one per (look, zoom); drawing one is a single blit."""

    def __init__(self) -> None:
        self._cache: dict[tuple[object, ...], QPixmap] = {}

    def clear(self) -> None:
        self._cache.clear()

    def get(self, c: Combatant, size: float, dpr: float, role: int) -> QPixmap:
        key = _token_key(c, size, dpr, role)
        pixmap = self._cache.get(key)
        if pixmap is None:
            if len(self._cache) > 600:
                self._cache.clear()
            pixmap = render_token(c, size, dpr, role)
            self._cache[key] = pixmap
        return pixmap


def token_extent(size: float) -> float:
    """Half the side of a token pixmap, in screen pixels, for a hex radius ``size``."""
    return size


def render_token(c: Combatant, size: float, dpr: float, role: int) -> QPixmap:
    """Draw a token for a hex of radius ``size`` screen pixels, centred in its pixmap.

    A disc in the side's colour with the initials; a dark pointer on the rim towards
    the facing edge; a shield badge on the shield hand's side and a blade on the
    weapon hand's side (handedness at a glance); a hit-point bar below.
    """
    half = token_extent(size)
    side_px = max(4, math.ceil(2 * half * dpr))
    pixmap = QPixmap(side_px, side_px)
    pixmap.setDevicePixelRatio(dpr)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    p.translate(half, half)
    s = size
    r = 0.58 * s
    dead = c.status is Status.DEAD
    out = c.status is Status.UNCONSCIOUS
    fill = theme.SIDE_COLOURS[c.side]
    if dead:
        fill = theme.DEAD
    elif out:
        fill = theme.UNCONSCIOUS

    # role rings below everything
    if role == ROLE_SELECTED:
        p.setPen(Qt.PenStyle.NoPen)
        glow = QRadialGradient(QPointF(0, 0), r * 1.45)
        glow.setColorAt(0.6, QColor(255, 210, 63, 230))
        glow.setColorAt(1.0, QColor(255, 210, 63, 0))
        p.setBrush(glow)
        p.drawEllipse(QPointF(0, 0), r * 1.45, r * 1.45)
    elif role == ROLE_TARGET:
        p.setBrush(Qt.BrushStyle.NoBrush)
        pen = QPen(theme.TARGET_RING, max(1.5, 0.07 * s))
        p.setPen(pen)
        p.drawEllipse(QPointF(0, 0), r * 1.22, r * 1.22)
        for k in range(4):
            a = math.radians(45 + 90 * k)
            p.drawLine(
                QPointF(math.cos(a) * r * 1.05, math.sin(a) * r * 1.05),
                QPointF(math.cos(a) * r * 1.42, math.sin(a) * r * 1.42),
            )

    # shadow
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 70))
    p.drawEllipse(QPointF(0.04 * s, 0.07 * s), r, r)

    # facing pointer, hands: drawn in a frame rotated so that "up" is the facing
    p.save()
    p.rotate(LAYOUT.facing_angle(c.facing))
    rim = QPen(theme.TOKEN_RIM, max(1.0, 0.045 * s))
    rim.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    pointer = QPolygonF(
        [
            QPointF(-0.42 * s, -0.38 * s),
            QPointF(0.0, -0.84 * s),
            QPointF(0.42 * s, -0.38 * s),
        ]
    )
    p.setPen(rim)
    p.setBrush(theme.FACING_MARK if not (dead or out) else theme.DEAD)
    p.drawPolygon(pointer)

    shield_sign = -1.0 if c.fighter.handedness is Handedness.RIGHT else 1.0
    weapon_sign = -shield_sign
    if c.fighter.weapons and not dead:
        # a blade held forward on the weapon side
        p.save()
        p.rotate(weapon_sign * 52.0)
        blade = QPen(QColor("#1e1a14"), max(1.5, 0.11 * s), Qt.PenStyle.SolidLine,
                     Qt.PenCapStyle.RoundCap)
        p.setPen(blade)
        p.drawLine(QPointF(0, -0.45 * s), QPointF(0, -0.84 * s))
        blade.setColor(QColor("#e8ecef"))
        blade.setWidthF(max(0.8, 0.055 * s))
        p.setPen(blade)
        p.drawLine(QPointF(0, -0.5 * s), QPointF(0, -0.82 * s))
        p.restore()
    p.restore()

    # the disc
    grad = QRadialGradient(QPointF(-0.3 * r, -0.35 * r), r * 1.5)
    grad.setColorAt(0.0, fill.lighter(135))
    grad.setColorAt(1.0, fill.darker(115))
    p.setPen(rim)
    p.setBrush(grad)
    p.drawEllipse(QPointF(0, 0), r, r)
    if c.status is Status.STUNNED:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor("#ffd23f"), max(1.0, 0.06 * s), Qt.PenStyle.DashLine))
        p.drawEllipse(QPointF(0, 0), r * 0.86, r * 0.86)

    # the shield on the shield hand's side, over the rim
    if c.fighter.shield is not None and not dead:
        p.save()
        p.rotate(LAYOUT.facing_angle(c.facing) + shield_sign * 62.0)
        p.translate(0, -0.78 * r)
        w, h = 0.36 * s, 0.42 * s
        shield = QPainterPath()
        shield.moveTo(-w / 2, -h / 2)
        shield.lineTo(w / 2, -h / 2)
        shield.cubicTo(w / 2, h * 0.05, w * 0.3, h * 0.35, 0, h / 2)
        shield.cubicTo(-w * 0.3, h * 0.35, -w / 2, h * 0.05, -w / 2, -h / 2)
        shield.closeSubpath()
        p.setPen(QPen(theme.SHIELD_EDGE, max(1.0, 0.05 * s)))
        sg = QLinearGradient(QPointF(-w / 2, 0), QPointF(w / 2, 0))
        sg.setColorAt(0.0, theme.SHIELD_FILL.lighter(115))
        sg.setColorAt(1.0, theme.SHIELD_FILL.darker(120))
        p.setBrush(sg)
        p.drawPath(shield)
        p.setPen(QPen(theme.SHIELD_EDGE, max(0.8, 0.035 * s)))
        p.drawLine(QPointF(0, -h / 2 + 0.04 * s), QPointF(0, h / 2 - 0.06 * s))
        p.restore()

    # initials, upright
    font = QFont()
    font.setBold(True)
    label = initials(c.name)
    font.setPixelSize(max(6, round((0.40 if len(label) <= 2 else 0.32) * s)))
    p.setFont(font)
    text_colour = theme.SIDE_TEXT[c.side] if not (dead or out) else QColor("#f0eee9")
    p.setPen(QColor(0, 0, 0, 90))
    text_rect = QRectF(-r, -r, 2 * r, 2 * r)
    p.drawText(text_rect.translated(0.03 * s, 0.03 * s), Qt.AlignmentFlag.AlignCenter, label)
    p.setPen(text_colour)
    p.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, label)

    # hit-point bar
    total = max(1, c.fighter.hit_points)
    frac = max(0.0, min(1.0, c.hp / total))
    bar = QRectF(-0.48 * s, 0.6 * s, 0.96 * s, max(3.0, 0.13 * s))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(theme.HP_BACK)
    p.drawRoundedRect(bar.adjusted(-1, -1, 1, 1), 2, 2)
    colour = theme.HP_GREY if (dead or out) else theme.hp_colour(frac)
    if frac > 0:
        p.setBrush(colour)
        p.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * frac, bar.height()), 1.5, 1.5)

    if dead:
        p.setPen(QPen(theme.DEAD_CROSS, max(2.0, 0.13 * s), Qt.PenStyle.SolidLine,
                      Qt.PenCapStyle.RoundCap))
        d = 0.5 * s
        p.drawLine(QPointF(-d, -d), QPointF(d, d))
        p.drawLine(QPointF(-d, d), QPointF(d, -d))
    p.end()
    return pixmap


# --- the selection overlay ---------------------------------------------------------------
@dataclass
class ReachArea:
    key: str
    name: str
    reach_text: str
    hexes: frozenset[Hex]
    outline: QPainterPath
    index: int
    anchor: Hex
    unready: bool


@dataclass
class Overlay:
    """Everything drawn around the selected combatant, in map coordinates."""

    combatant_id: str
    origin: Hex
    facing: Facing
    handedness: Handedness
    arcs: dict[Hex, Arc]
    fills: list[tuple[QColor, QPainterPath]]
    rays: list[tuple[QLineF, bool]]  # (line, is the front/side divide)
    labels: list[tuple[Arc, QPointF]]
    reach: list[ReachArea]
    bounds: QRectF
    disk_outline: QPainterPath = field(default_factory=QPainterPath)

    def arc_at(self, h: Hex) -> Arc | None:
        return self.arcs.get(h)

    def reach_hexes(self) -> frozenset[Hex]:
        out: frozenset[Hex] = frozenset()
        for area in self.reach:
            out |= area.hexes
        return out


def build_overlay(c: Combatant, grid: HexGrid, radius: int = theme.ARC_RADIUS) -> Overlay:
    origin, facing, hand = c.hex, c.facing, c.fighter.handedness
    arcs: dict[Hex, Arc] = {}
    by_colour: dict[tuple[Arc, int], list[Hex]] = {}
    for h in disk(origin, radius):
        if h == origin or h not in grid:
            continue
        arc = arc_of(h, origin, facing, hand)
        arcs[h] = arc
        by_colour.setdefault((arc, h.distance(origin)), []).append(h)
    fills: list[tuple[QColor, QPainterPath]] = []
    for (arc, dist), hexes in sorted(by_colour.items(), key=lambda kv: (kv[0][1], kv[0][0].value)):
        colour = QColor(theme.ARC_COLOURS[arc])
        colour.setAlpha(theme.arc_alpha(dist))
        fills.append((colour, hexes_path(hexes)))

    o = center(origin)
    # Wedge boundaries run from the centre through the hex corners, 30° either side
    # of each facing direction; rays at +-90° divide the front half from the sides.
    length = (1.5 * radius + (1.0 if radius % 2 == 0 else 0.5)) * HEX_SIZE
    base = LAYOUT.facing_angle(facing)
    rays: list[tuple[QLineF, bool]] = []
    for k in range(6):
        angle = math.radians(base + 30.0 + 60.0 * k)
        start = QPointF(o.x() + math.sin(angle) * HEX_SIZE, o.y() - math.cos(angle) * HEX_SIZE)
        end = QPointF(o.x() + math.sin(angle) * length, o.y() - math.cos(angle) * length)
        rays.append((QLineF(start, end), k in (1, 4)))
    labels: list[tuple[Arc, QPointF]] = []
    label_distance = (radius - 0.5) * SQRT3 * HEX_SIZE
    for k in range(6):
        f = facing.turned(k)
        arc = arc_of(origin + f.vector, origin, facing, hand)
        ux, uy = facing_unit(f)
        labels.append((arc, QPointF(o.x() + ux * label_distance, o.y() + uy * label_distance)))

    reach: list[ReachArea] = []
    for i, weapon in enumerate(c.fighter.weapons):
        hexes = frozenset(h for h in reach_hexes(origin, facing, weapon.reach) if h in grid)
        anchor = origin + facing.vector.scale(weapon.reach.max)
        reach.append(
            ReachArea(
                key=weapon.key,
                name=weapon.name,
                reach_text=str(weapon.reach),
                hexes=hexes,
                outline=outline_path(hexes),
                index=i,
                anchor=anchor,
                unready=weapon.key in c.unready,
            )
        )
    disk_outline = outline_path([*arcs, origin])
    bounds = disk_outline.boundingRect()
    for area in reach:
        bounds = bounds.united(area.outline.boundingRect())
    return Overlay(
        combatant_id=c.id,
        origin=origin,
        facing=facing,
        handedness=hand,
        arcs=arcs,
        fills=fills,
        rays=rays,
        labels=labels,
        reach=reach,
        bounds=bounds,
        disk_outline=disk_outline,
    )


def paint_overlay_fills(p: QPainter, overlay: Overlay) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    for colour, path in overlay.fills:
        p.fillPath(path, colour)


def paint_overlay_lines(p: QPainter, overlay: Overlay, zoom: float) -> None:
    """Wedge boundaries and reach areas (after the grid lines, so they sit on top)."""
    minor = QPen(theme.ARC_BOUNDARY, 1.6)
    minor.setCosmetic(True)
    minor.setStyle(Qt.PenStyle.DashLine)
    major = QPen(theme.ARC_BOUNDARY, 3.0)
    major.setCosmetic(True)
    major.setCapStyle(Qt.PenCapStyle.RoundCap)
    for line, is_major in overlay.rays:
        p.setPen(major if is_major else minor)
        p.drawLine(line)
    edge = QPen(QColor(44, 36, 24, 120), 1.2)
    edge.setCosmetic(True)
    p.setPen(edge)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(overlay.disk_outline)

    for area in overlay.reach:
        style = theme.reach_style(area.index)
        colour = QColor(style.colour)
        if area.unready:
            colour.setAlpha(110)
        brush = QBrush(colour, style.brush_style)
        # Hatching stays a few screen pixels apart at every zoom.
        brush.setTransform(QTransform.fromScale(1.0 / zoom, 1.0 / zoom))
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(brush)
        p.drawPath(area.outline)
        inset = 1.0 + 1.8 * area.index  # nested outlines stay apart when areas coincide
        pen = QPen(colour, 2.4)
        pen.setCosmetic(True)
        pen.setStyle(style.pen_style)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(pen)
        if area.index:
            p.save()
            o = center(area.anchor)
            k = max(0.8, 1.0 - inset / (HEX_SIZE * zoom))
            p.translate(o)
            p.scale(k, k)
            p.translate(-o)
            p.drawPath(area.outline)
            p.restore()
        else:
            p.drawPath(area.outline)


# --- text -------------------------------------------------------------------------------
class TextCache:
    """QStaticText per (text, font key): laid out once, blitted on every paint."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int, bool], tuple[QStaticText, QSizeF]] = {}

    def get(self, text: str, pixel_size: int, bold: bool = False) -> tuple[QStaticText, QSizeF]:
        key = (text, pixel_size, bold)
        hit = self._cache.get(key)
        if hit is None:
            st = QStaticText(text)
            st.setTextFormat(Qt.TextFormat.PlainText)
            font = label_font(pixel_size, bold)
            st.prepare(QTransform(), font)
            hit = (st, st.size())
            if len(self._cache) > 2000:
                self._cache.clear()
            self._cache[key] = hit
        return hit


def label_font(pixel_size: int, bold: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(pixel_size)
    font.setBold(bold)
    return font


def draw_pill(
    p: QPainter,
    texts: TextCache,
    text: str,
    anchor: QPointF,
    *,
    pixel_size: int = 11,
    bold: bool = False,
    fg: QColor = theme.INK,
    bg: QColor = theme.HALO,
    edge: QColor | None = None,
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter,
) -> QRectF:
    """A small rounded label (screen coordinates) centred on, or beside, ``anchor``."""
    st, size = texts.get(text, pixel_size, bold)
    pad_x, pad_y = 5.0, 2.0
    w, h = size.width() + 2 * pad_x, size.height() + 2 * pad_y
    x = anchor.x() - w / 2
    if align & Qt.AlignmentFlag.AlignLeft:
        x = anchor.x()
    elif align & Qt.AlignmentFlag.AlignRight:
        x = anchor.x() - w
    rect = QRectF(x, anchor.y() - h / 2, w, h)
    p.setPen(QPen(edge, 1.2) if edge is not None else Qt.PenStyle.NoPen)
    p.setBrush(bg)
    p.drawRoundedRect(rect, h / 2, h / 2)
    p.setPen(fg)
    p.setFont(label_font(pixel_size, bold))
    p.drawStaticText(QPointF(rect.x() + pad_x, rect.y() + pad_y), st)
    return rect


# --- the legend ---------------------------------------------------------------------------
def render_legend(
    title: str, weapons: Sequence[tuple[int, str, bool]], dpr: float
) -> QPixmap:
    """The key to the overlay: six arc swatches and one row per weapon's reach."""
    font = label_font(12)
    bold = label_font(12, True)
    fm = QFontMetricsF(font)
    fmb = QFontMetricsF(bold)
    row_h = max(18.0, fm.height() + 4)
    sw = 22.0
    rows: list[str] = [theme.ARC_LEGEND_TEXT[a] for a in theme.ARC_ORDER]
    rows += [f"Reach: {name}" + (" (unready)" if unready else "") for _, name, unready in weapons]
    width = max([fmb.horizontalAdvance(title)] + [fm.horizontalAdvance(t) + sw + 8 for t in rows])
    width = math.ceil(width + 20)
    height = math.ceil(10 + fmb.height() + 6 + row_h * len(rows) + 8)
    pixmap = QPixmap(max(1, math.ceil(width * dpr)), max(1, math.ceil(height * dpr)))
    pixmap.setDevicePixelRatio(dpr)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(theme.LEGEND_EDGE, 1.0))
    p.setBrush(theme.LEGEND_BACK)
    p.drawRoundedRect(QRectF(0.5, 0.5, width - 1, height - 1), 7, 7)
    p.setFont(bold)
    p.setPen(theme.INK)
    p.drawText(QRectF(10, 8, width - 20, fmb.height()), Qt.AlignmentFlag.AlignLeft, title)
    y = 8 + fmb.height() + 6
    p.setFont(font)
    for i, text in enumerate(rows):
        swatch = QRectF(10, y + 2, sw, row_h - 5)
        if i < len(theme.ARC_ORDER):
            arc = theme.ARC_ORDER[i]
            colour = QColor(theme.ARC_COLOURS[arc])
            colour.setAlpha(150)
            p.setPen(QPen(theme.ARC_BOUNDARY, 1.0))
            p.setBrush(colour)
            p.drawRect(swatch)
        else:
            index = weapons[i - len(theme.ARC_ORDER)][0]
            style = theme.reach_style(index)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(255, 255, 255, 160))
            p.drawRect(swatch)
            p.setBrush(QBrush(style.colour, style.brush_style))
            p.drawRect(swatch)
            pen = QPen(style.colour, 2.0)
            pen.setStyle(style.pen_style)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(swatch)
        p.setPen(theme.INK)
        p.drawText(
            QRectF(swatch.right() + 8, y, width, row_h),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            text,
        )
        y += row_h
    p.end()
    return pixmap
