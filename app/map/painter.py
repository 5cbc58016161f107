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
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

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
    QPainterPathStroker,
    QPen,
    QPixmap,
    QPolygonF,
    QRadialGradient,
    QStaticText,
    QTransform,
)

from app import theme
from hexmap import (
    Arc,
    Facing,
    Handedness,
    Hex,
    HexGrid,
    Layout,
    arc_of,
    disk,
    front_arc_hexes,
    is_digits,
    reach_hexes,
)
from rules.battle.hands import wielded_weapons
from rules.battle.model import Combatant, Fighter, Status
from rules.battle.state import BattleState
from rules.battle.terrain import Light, Terrain, TerrainMap
from rules.core.assets import asset_path

HEX_SIZE = 32.0  # hex radius in map coordinates (= screen pixels at zoom 1)
LAYOUT = Layout(size=HEX_SIZE)
SQRT3 = math.sqrt(3.0)
CHUNK = 8  # grid chunks are CHUNK x CHUNK offset columns/rows
GRID_MIN_PIXELS = 5.0  # grid lines are drawn for hexes of at least this radius on screen
GRID_FADE_PIXELS = 14.0  # ... and fade out below this one

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
    edges: list[tuple[float, float, float, float]] = []
    for h in members:
        x, y = LAYOUT.hex_to_pixel(h)
        for facing in Facing:
            if h.neighbor(facing) in members:
                continue
            a, b = edge_corners(facing)
            edges.append(
                (x + _CORNERS[a][0], y + _CORNERS[a][1], x + _CORNERS[b][0], y + _CORNERS[b][1])
            )
    return chain_edges(edges)


def chain_edges(edges: Iterable[tuple[float, float, float, float]]) -> QPainterPath:
    """Join clockwise edges ``(x0, y0, x1, y1)`` end to start into closed loops."""
    nxt: dict[tuple[int, int], tuple[tuple[int, int], QPointF]] = {}
    for x0, y0, x1, y1 in edges:
        nxt[_key(x0, y0)] = (_key(x1, y1), QPointF(x1, y1))
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
    lines: list[QLineF]


class GridCache:
    """The map's outline (parchment fill) and its grid lines cut into chunks.

    Grid lines are kept as lists of ``QLineF`` for ``QPainter.drawLines``: stroking
    the same segments as a ``QPainterPath`` is up to ten times slower at some zooms.
    Built in plain Python from offset columns and rows (no ``Hex`` per cell, no
    numpy: the map's first frame must not wait for numpy to load). The bounds and
    the outline come from the border alone; a chunk's lines are made the first time
    the chunk is asked for, so a 400x400 map costs nothing until it is drawn.
    """

    def __init__(self, grid: HexGrid) -> None:
        self.grid = grid
        width, height = grid.width, grid.height
        size = LAYOUT.size
        self._chunk_rows = (height + CHUNK - 1) // CHUNK
        self._chunk_cols = (width + CHUNK - 1) // CHUNK
        self._chunks: dict[tuple[int, int], GridChunk] = {}
        corner_x = [dx for dx, _ in _CORNERS]
        corner_y = [dy for _, dy in _CORNERS]
        # As grid.pixel_bounds(LAYOUT), without making a Hex per cell: the extreme
        # centres plus the extreme corner offsets (float addition is monotonic).
        xs = [size * 1.5 * q for q in range(width)]
        ys = [
            size * (SQRT3 / 2 * q + SQRT3 * (row - (q - (q & 1)) // 2))
            for q in range(width)
            for row in (0, height - 1)
        ]
        min_x, max_x = min(xs) + min(corner_x), max(xs) + max(corner_x)
        min_y, max_y = min(ys) + min(corner_y), max(ys) + max(corner_y)
        self.bounds = QRectF(QPointF(min_x, min_y), QPointF(max_x, max_y))
        outline_edges: dict[Facing, list[tuple[float, float, float, float]]] = {
            f: [] for f in Facing
        }
        for col, row in _border_cells(width, height):
            px, py = _cell_corners(col, row)
            for f in _outside_facings(width, height, col, row):
                a, b = edge_corners(f)
                outline_edges[f].append((px[a], py[a], px[b], py[b]))
        self.outline = chain_edges(e for f in Facing for e in outline_edges[f])

    @property
    def chunks(self) -> list[GridChunk]:
        """Every chunk, column-major (builds the ones not made yet)."""
        return [
            self._chunk(cc, cr)
            for cc in range(self._chunk_cols)
            for cr in range(self._chunk_rows)
        ]

    def visible_chunks(self, rect: QRectF) -> list[GridChunk]:
        """The chunks whose lines may cross ``rect`` (map coordinates)."""
        size = LAYOUT.size
        # A column's hexes span x in [1.5 s col - s, 1.5 s col + s]; a row's span
        # y in [sqrt3 s row - sqrt3/2 s, sqrt3 s (row + 1/2) + sqrt3/2 s].
        col0 = max(0, math.floor((rect.left() - size - 1) / (1.5 * size)))
        col1 = min(self.grid.width - 1, math.ceil((rect.right() + size + 1) / (1.5 * size)))
        row0 = max(0, math.floor((rect.top() - SQRT3 * size - 1) / (SQRT3 * size)))
        row1 = min(self.grid.height - 1, math.ceil((rect.bottom() + 1) / (SQRT3 * size)))
        out: list[GridChunk] = []
        for cc in range(col0 // CHUNK, col1 // CHUNK + 1):
            for cr in range(row0 // CHUNK, row1 // CHUNK + 1):
                chunk = self._chunk(cc, cr)
                if chunk.bounds.intersects(rect):
                    out.append(chunk)
        return out

    def _chunk(self, chunk_col: int, chunk_row: int) -> GridChunk:
        chunk = self._chunks.get((chunk_col, chunk_row))
        if chunk is None:
            chunk = self._chunks[(chunk_col, chunk_row)] = self._build_chunk(chunk_col, chunk_row)
        return chunk

    def _build_chunk(self, chunk_col: int, chunk_row: int) -> GridChunk:
        width, height = self.grid.width, self.grid.height
        # Each hex strokes its NW, N and NE edges (corners 3-4, 4-5, 5-0); the S, SE
        # and SW edges along the bottom of the map are added where no neighbour is.
        # One list per kind of edge, so the lines come in this order.
        kinds: list[tuple[Facing | None, int, int]] = [(None, 3, 4), (None, 4, 5), (None, 5, 0)]
        kinds += [(f, *edge_corners(f)) for f in (Facing.SE, Facing.S, Facing.SW)]
        inner_kinds = [(a, b) for facing, a, b in kinds if facing is None]
        lists: list[list[tuple[float, float, float, float]]] = [[] for _ in kinds]
        cols = range(chunk_col * CHUNK, min(width, (chunk_col + 1) * CHUNK))
        rows = range(chunk_row * CHUNK, min(height, (chunk_row + 1) * CHUNK))
        for col in cols:  # column-major, as grid.hexes()
            edge_col = col == 0 or col == width - 1
            for row in rows:
                px, py = _cell_corners(col, row)
                if not (edge_col or row == 0 or row == height - 1):
                    # Inside the map's border every neighbour is on the map.
                    for lines, (a, b) in zip(lists, inner_kinds, strict=False):
                        lines.append((px[a], py[a], px[b], py[b]))
                    continue
                outside = _outside_facings(width, height, col, row)
                for lines, (facing, a, b) in zip(lists, kinds, strict=True):
                    if facing is None or facing in outside:
                        lines.append((px[a], py[a], px[b], py[b]))
        return _grid_chunk(lists)


class EdgePixmap:
    """The map's edge, stroked into a pixmap once per zoom while the whole map is
    small on screen (fit on a big map: antialiasing the thousands of zigzag
    segments of a 400x400 map's edge costs about 8 ms a frame); a blit after that.
    While the zoom changes the last pixmap is scaled, as the tokens are."""

    MAX_PIXELS = 4_000_000  # bigger maps on screen are stroked directly (clipped)
    PAD = 3  # pixels around the map for the pen's width and antialiasing

    def __init__(self) -> None:
        self._key: tuple[object, ...] | None = None
        self._pixmap: QPixmap | None = None

    def paint(
        self,
        p: QPainter,
        grid: GridCache,
        transform: QTransform,
        pen: QPen,
        dpr: float,
        *,
        exact: bool,
    ) -> bool:
        """Draw the edge (``p`` in screen coordinates); False when the map is too
        big on screen for a pixmap and the caller should stroke the path itself."""
        on_screen = transform.mapRect(grid.bounds)
        pad = self.PAD
        width, height = on_screen.width() + 2 * pad, on_screen.height() + 2 * pad
        if width * height * dpr * dpr > self.MAX_PIXELS:
            return False
        x, y = math.floor(on_screen.left()) - pad, math.floor(on_screen.top()) - pad
        frac = (round(on_screen.left() - pad - x, 2), round(on_screen.top() - pad - y, 2))
        zoom = transform.m11()
        key = (id(grid), round(zoom, 6), frac, round(dpr, 2))
        if self._pixmap is not None and key != self._key and not exact:
            # Another zoom's pixmap, scaled until the zoom settles, into whole pixels
            # (as the tokens: a fractional rect under antialiasing is a textured polygon).
            old = self._pixmap
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            p.drawPixmap(on_screen.adjusted(-pad, -pad, pad, pad).toRect(), old)
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            return True
        if key != self._key or self._pixmap is None:
            pixmap = QPixmap(math.ceil((width + 1) * dpr), math.ceil((height + 1) * dpr))
            pixmap.setDevicePixelRatio(dpr)
            pixmap.fill(Qt.GlobalColor.transparent)
            q = QPainter(pixmap)
            q.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            q.translate(pad + frac[0], pad + frac[1])
            q.scale(zoom, zoom)
            q.translate(-grid.bounds.left(), -grid.bounds.top())
            q.setPen(pen)
            q.setBrush(Qt.BrushStyle.NoBrush)
            q.drawPath(grid.outline)
            q.end()
            self._pixmap, self._key = pixmap, key
        p.drawPixmap(QPointF(x, y), self._pixmap)
        return True


def _cell_corners(col: int, row: int) -> tuple[list[float], list[float]]:
    """The six corners' x and y of the hex at offset ``(col, row)``, map coordinates."""
    size = LAYOUT.size
    q = col
    r = row - (col - (col & 1)) // 2  # odd-q offset -> axial, as Hex.from_offset
    cx = size * 1.5 * q
    cy = size * (SQRT3 / 2 * q + SQRT3 * r)
    return [cx + dx for dx, _ in _CORNERS], [cy + dy for _, dy in _CORNERS]


def _border_cells(width: int, height: int) -> list[tuple[int, int]]:
    """Offset ``(col, row)`` of every cell on the map's edge, column-major."""
    cells: list[tuple[int, int]] = []
    for col in range(width):
        if col == 0 or col == width - 1:
            cells.extend((col, row) for row in range(height))
        else:
            cells.extend((col, row) for row in sorted({0, height - 1}))
    return cells


def _outside_facings(width: int, height: int, col: int, row: int) -> set[Facing]:
    """The facings whose neighbour of the cell at ``(col, row)`` is off the map."""
    q = col
    r = row - (col - (col & 1)) // 2
    return {
        f for f in Facing if not _inside(width, height, q + f.vector.q, r + f.vector.r)
    }


def _inside(width: int, height: int, q: int, r: int) -> bool:
    row = r + (q - (q & 1)) // 2
    return 0 <= q < width and 0 <= row < height


def _grid_chunk(lists: list[list[tuple[float, float, float, float]]]) -> GridChunk:
    lines = [line for kind in lists for line in kind]
    xs = [x for x0, _, x1, _ in lines for x in (x0, x1)]
    ys = [y for _, y0, _, y1 in lines for y in (y0, y1)]
    bounds = QRectF(QPointF(min(xs), min(ys)), QPointF(max(xs), max(ys)))
    return GridChunk(
        bounds.adjusted(-1, -1, 1, 1), [QLineF(x0, y0, x1, y1) for x0, y0, x1, y1 in lines]
    )


# The parchment tile ships as a picture (drawn once by packaging/make_texture.py with
# render_parchment_texture): the FFT would need numpy at start-up.
TEXTURE_PARTS = ("textures", "parchment.png")
_TEXTURE: QPixmap | None = None


def render_parchment_texture() -> QImage:
    """A seamless, subtly mottled parchment tile (periodic noise made with an FFT)."""
    import numpy as np  # only to draw the tile afresh (packaging/make_texture.py)

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
    return QImage(rgba.tobytes(), n, n, 4 * n, QImage.Format.Format_RGBA8888).copy()


def parchment_texture() -> QPixmap:
    """The parchment tile: the shipped picture, or drawn afresh if it is missing."""
    global _TEXTURE
    if _TEXTURE is None:
        image = QImage(str(asset_path(*TEXTURE_PARTS)))
        if image.isNull():
            image = render_parchment_texture()
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
    "Sir Gawain" -> "SG", "Sword-and-shield fighter" -> "SF", "Orc" -> "Or"."""
    words = name.split()
    if not words:
        return "?"
    if len(words) >= 2 and is_digits(words[-1]):
        return (words[0][0] + words[-1][:2]).upper()
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return words[0][:2].capitalize()


def _token_look(c: Combatant, dpr: float, role: int) -> tuple[object, ...]:
    f = c.fighter
    return (
        c.id,
        f.name,
        c.side,
        c.facing,
        c.hp,
        f.hit_points,
        c.status,
        f.handedness,
        f.shield is not None,
        bool(f.weapons),
        dpr,
        role,
        posture_key(c),
    )


def posture_key(c: Combatant) -> str:
    """The posture's value ("standing", "prone" ...)."""
    return c.posture.value


def draw_posture_glyph(p: QPainter, key: str, cx: float, cy: float, r: float) -> None:
    """A stick figure of ``key`` in a disc of radius ``r`` (screen pixels): crouch,
    kneel, sit, on hands and knees, crawl, prone."""
    u = r / 5.0
    pen = QPen(
        theme.POSTURE_INK, max(1.0, 0.75 * u), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap
    )
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(QPen(QColor(30, 26, 20, 200), max(1.0, 0.3 * u)))
    p.setBrush(theme.POSTURE_BADGE)
    p.drawEllipse(QPointF(cx, cy), r, r)
    figures: dict[str, tuple[tuple[float, float], list[list[tuple[float, float]]]]] = {
        # (head, polylines) in units of u around the centre, y down
        "defensive_crouch": (
            (0.4, -2.6),
            [
                [(0.2, -1.7), (-0.2, 0.6)],
                [(-0.2, 0.6), (1.2, 1.3), (0.4, 3.0)],
                [(-0.2, 0.6), (-1.3, 1.6), (-1.5, 3.0)],
                [(0.1, -1.0), (1.6, -0.2)],
            ],
        ),
        "deep_crouch": (
            (0.6, -1.6),
            [
                [(0.4, -0.8), (-0.6, 1.0)],
                [(-0.6, 1.0), (1.4, 1.2), (0.8, 2.8)],
                [(-0.6, 1.0), (-1.8, 2.8)],
                [(0.2, -0.3), (1.8, 0.4)],
            ],
        ),
        "kneeling": (
            (0.0, -2.8),
            [
                [(0.0, -1.9), (0.0, 0.6)],
                [(0.0, 0.6), (1.6, 0.6), (1.6, 2.8)],
                [(0.0, 0.6), (-1.4, 2.8), (-2.8, 2.8)],
            ],
        ),
        "sitting": (
            (-1.2, -2.4),
            [
                [(-1.2, -1.5), (-1.2, 1.4)],
                [(-1.2, 1.4), (2.8, 1.4)],
                [(-1.2, -0.6), (0.8, 0.4)],
                [(-3.0, 2.6), (3.2, 2.6)],
            ],
        ),
        "sitting_in_chair": (
            (-0.8, -2.8),
            [
                [(-0.8, -1.9), (-0.8, 0.6)],
                [(-0.8, 0.6), (1.4, 0.6), (1.4, 2.8)],
                [(-2.0, -1.4), (-2.0, 2.8)],
                [(-2.0, 0.9), (0.4, 0.9)],
            ],
        ),
        "hands_and_knees": (
            (2.6, -1.2),
            [
                [(1.7, -0.8), (-1.8, -0.8)],
                [(1.4, -0.8), (1.4, 2.2)],
                [(-1.8, -0.8), (-1.6, 2.2), (-3.0, 2.2)],
            ],
        ),
        "crawling": (
            (2.8, 0.3),
            [
                [(1.9, 0.9), (-3.0, 1.3)],
                [(1.3, 1.0), (2.0, 2.4), (3.2, 2.4)],
                [(-3.0, 1.3), (-3.4, 2.4)],
            ],
        ),
        "prone": ((2.9, 1.2), [[(2.0, 1.6), (-3.4, 1.6)], [(-3.4, 2.6), (3.4, 2.6)]]),
    }
    figure = figures.get(key)
    if figure is None:
        return
    (hx, hy), lines = figure
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    for line in lines:
        p.drawPolyline(QPolygonF([QPointF(cx + x * u, cy + y * u) for x, y in line]))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(theme.POSTURE_INK)
    p.drawEllipse(QPointF(cx + hx * u, cy + hy * u), 0.95 * u, 0.95 * u)


class TokenCache:
    """Pixmaps of tokens, one per (look, size); drawing one is a single blit.

    While the zoom changes continuously, ``get(..., exact=False)`` hands back a
    pixmap of another size (the caller scales it) rather than drawing a new one for
    every frame; the view asks for exact pixmaps again once the zoom settles.
    """

    def __init__(self) -> None:
        self._cache: dict[tuple[object, ...], dict[float, QPixmap]] = {}
        self._count = 0

    def clear(self) -> None:
        self._cache.clear()
        self._count = 0

    def get(
        self,
        c: Combatant,
        size: float,
        dpr: float,
        role: int,
        exact: bool = True,
        conditions: tuple[str, ...] = (),
        computer: bool = False,
    ) -> QPixmap:
        look = (_token_look(c, dpr, role), conditions, computer)
        sizes = self._cache.get(look)
        key = round(size, 2)
        if sizes is not None:
            pixmap = sizes.get(key)
            if pixmap is not None:
                return pixmap
            if not exact and sizes:
                nearest = min(sizes, key=lambda s: abs(math.log(s / key)))
                return sizes[nearest]
        if self._count > 800:
            self.clear()
            sizes = None
        if sizes is None:
            sizes = self._cache.setdefault(look, {})
        pixmap = render_token(c, key, dpr, role, conditions, computer)
        sizes[key] = pixmap
        self._count += 1
        return pixmap


def token_extent(size: float) -> float:
    """Half the side of a token pixmap, in screen pixels, for a hex radius ``size``."""
    return size


def token_pixmap_side(size: float, dpr: float) -> int:
    """The side in device pixels of the pixmap ``render_token`` draws for a hex
    radius ``size``: whole pixels, so it may be up to one pixel more than the token."""
    return max(4, math.ceil(2 * token_extent(size) * dpr))


def token_shape(s: float) -> QPainterPath:
    """A teardrop: a disc of radius 0.56 s whose point touches the facing edge
    (pointing up, i.e. before the painter is rotated to the facing)."""
    r = 0.56 * s
    tip = 0.83 * s
    half_angle = math.degrees(math.acos(r / tip))
    path = QPainterPath()
    path.moveTo(0.0, -tip)
    right = math.radians(90.0 - half_angle)
    path.lineTo(r * math.cos(right), -r * math.sin(right))
    path.arcTo(QRectF(-r, -r, 2 * r, 2 * r), 90.0 - half_angle, -(360.0 - 2 * half_angle))
    path.closeSubpath()
    return path


def render_token(
    c: Combatant,
    size: float,
    dpr: float,
    role: int,
    conditions: tuple[str, ...] = (),
    computer: bool = False,
) -> QPixmap:
    """Draw a token for a hex of radius ``size`` screen pixels, centred in its pixmap.

    A teardrop in the side's colour pointing at the facing edge, with the initials;
    a shield badge on the shield hand's side and a blade on the weapon hand's side
    (handedness at a glance); a hit-point bar below. Unconscious is grey, dead grey
    with a cross; the selection glows gold, the target has red cross-hairs.
    ``conditions`` (the ruleset's ``condition_labels``) are lettered badges at the
    upper right (``condition_badges``). A fighter the computer plays
    (``computer``) has a small screen at the lower right (``draw_computer_badge``).
    """
    half = token_extent(size)
    side_px = token_pixmap_side(size, dpr)
    pixmap = QPixmap(side_px, side_px)
    pixmap.setDevicePixelRatio(dpr)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    p.translate(half, half)
    s = size
    r = 0.56 * s
    dead = c.status is Status.DEAD
    out = c.status is Status.UNCONSCIOUS
    fill = theme.SIDE_COLOURS[c.side]
    if dead:
        fill = theme.DEAD
    elif out:
        fill = theme.UNCONSCIOUS
    facing_angle = LAYOUT.facing_angle(c.facing)
    shape = token_shape(s)

    # role marks below everything
    if role == ROLE_SELECTED:
        p.setPen(Qt.PenStyle.NoPen)
        glow = QRadialGradient(QPointF(0, 0), 0.98 * s)
        glow.setColorAt(0.55, QColor(255, 214, 64, 255))
        glow.setColorAt(0.7, QColor(255, 214, 64, 150))
        glow.setColorAt(1.0, QColor(255, 214, 64, 0))
        p.setBrush(glow)
        p.drawEllipse(QPointF(0, 0), 0.98 * s, 0.98 * s)
    elif role == ROLE_TARGET:
        p.setBrush(Qt.BrushStyle.NoBrush)
        pen = QPen(theme.TARGET_RING, max(1.5, 0.075 * s))
        p.setPen(pen)
        p.drawEllipse(QPointF(0, 0), 0.74 * s, 0.74 * s)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        for k in range(4):
            a = math.radians(45 + 90 * k)
            p.drawLine(
                QPointF(math.cos(a) * 0.62 * s, math.sin(a) * 0.62 * s),
                QPointF(math.cos(a) * 0.9 * s, math.sin(a) * 0.9 * s),
            )

    shield_sign = -1.0 if c.fighter.handedness is Handedness.RIGHT else 1.0
    weapon_sign = -shield_sign

    # shadow, then the teardrop, rotated so that "up" is the facing
    p.save()
    p.rotate(facing_angle)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(0, 0, 0, 60))
    p.save()
    p.rotate(-facing_angle)
    p.translate(0.035 * s, 0.06 * s)
    p.rotate(facing_angle)
    p.drawPath(shape)
    p.restore()

    if c.fighter.weapons and not dead:
        # a sword held forward on the weapon side, under the body
        p.save()
        p.rotate(weapon_sign * 48.0)
        outline = QPen(
            theme.TOKEN_RIM, max(1.6, 0.12 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap
        )
        p.setPen(outline)
        p.drawLine(QPointF(0, -0.42 * s), QPointF(0, -0.9 * s))
        p.drawLine(QPointF(-0.1 * s, -0.56 * s), QPointF(0.1 * s, -0.56 * s))
        steel = QPen(
            QColor("#eef1f4"), max(0.8, 0.055 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap
        )
        p.setPen(steel)
        p.drawLine(QPointF(0, -0.6 * s), QPointF(0, -0.88 * s))
        p.restore()

    grad = QRadialGradient(QPointF(-0.25 * r, -0.3 * r), r * 1.6)
    grad.setColorAt(0.0, fill.lighter(140))
    grad.setColorAt(0.55, fill)
    grad.setColorAt(1.0, fill.darker(125))
    rim = QPen(theme.TOKEN_RIM, max(1.0, 0.05 * s))
    rim.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(rim)
    p.setBrush(grad)
    p.drawPath(shape)
    # a light chevron in the point says "this way" even on dark colours
    chevron = QPen(
        QColor(255, 255, 255, 200),
        max(1.0, 0.055 * s),
        Qt.PenStyle.SolidLine,
        Qt.PenCapStyle.RoundCap,
    )
    chevron.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(chevron)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPolyline(
        QPolygonF(
            [QPointF(-0.13 * s, -0.53 * s), QPointF(0, -0.66 * s), QPointF(0.13 * s, -0.53 * s)]
        )
    )

    # the shield on the shield hand's side, over the rim
    if c.fighter.shield is not None and not dead:
        p.save()
        p.rotate(shield_sign * 62.0)
        p.translate(0, -0.92 * r)
        w, h = 0.42 * s, 0.48 * s
        badge = QPainterPath()
        badge.moveTo(-w / 2, -h / 2)
        badge.lineTo(w / 2, -h / 2)
        badge.cubicTo(w / 2, h * 0.05, w * 0.3, h * 0.35, 0, h / 2)
        badge.cubicTo(-w * 0.3, h * 0.35, -w / 2, h * 0.05, -w / 2, -h / 2)
        badge.closeSubpath()
        p.setPen(QPen(theme.SHIELD_EDGE, max(1.0, 0.05 * s)))
        sg = QLinearGradient(QPointF(-w / 2, 0), QPointF(w / 2, 0))
        sg.setColorAt(0.0, theme.SHIELD_FILL.lighter(118))
        sg.setColorAt(1.0, theme.SHIELD_FILL.darker(125))
        p.setBrush(sg)
        p.drawPath(badge)
        p.setPen(QPen(theme.SHIELD_EDGE, max(0.8, 0.035 * s)))
        p.drawLine(QPointF(0, -h / 2 + 0.05 * s), QPointF(0, h / 2 - 0.07 * s))
        p.drawLine(QPointF(-w / 2 + 0.05 * s, -0.04 * s), QPointF(w / 2 - 0.05 * s, -0.04 * s))
        p.restore()
    p.restore()

    if c.status is Status.STUNNED:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor("#ffd23f"), max(1.0, 0.06 * s), Qt.PenStyle.DashLine))
        p.drawEllipse(QPointF(0, 0), r * 0.82, r * 0.82)

    # initials, upright, above the hit-point bar inside the disc (visible whichever
    # way the token points)
    label = initials(c.name)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(6, round((0.36 if len(label) <= 2 else 0.28) * s)))
    p.setFont(font)
    text_colour = theme.SIDE_TEXT[c.side] if not (dead or out) else QColor("#f4f2ee")
    text_rect = QRectF(-r, -r - 0.07 * s, 2 * r, 2 * r)
    p.setPen(QColor(0, 0, 0, 110))
    p.drawText(text_rect.translated(0.025 * s, 0.03 * s), Qt.AlignmentFlag.AlignCenter, label)
    p.setPen(text_colour)
    p.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, label)

    total = max(1, c.fighter.hit_points)
    frac = max(0.0, min(1.0, c.hp / total))
    bar_h = max(3.0, 0.11 * s)
    bar = QRectF(-0.34 * s, 0.2 * s, 0.68 * s, bar_h)
    p.setPen(QPen(QColor(20, 16, 12, 200), 1.0))
    p.setBrush(theme.HP_BACK)
    p.drawRoundedRect(bar, bar_h / 2.5, bar_h / 2.5)
    colour = theme.HP_GREY if (dead or out) else theme.hp_colour(frac)
    if frac > 0:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        inner = bar.adjusted(0.75, 0.75, -0.75, -0.75)
        inner.setWidth(inner.width() * frac)
        p.drawRoundedRect(inner, bar_h / 3, bar_h / 3)

    if dead:
        p.setPen(
            QPen(
                theme.DEAD_CROSS, max(2.0, 0.12 * s), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap
            )
        )
        d = 0.42 * s
        p.drawLine(QPointF(-d, -d), QPointF(d, d))
        p.drawLine(QPointF(-d, d), QPointF(d, -d))

    posture = posture_key(c)
    if posture != "standing" and not dead and s >= 12:
        # a badge at the lower left, upright whichever way the token points
        br = max(5.0, 0.24 * s)
        draw_posture_glyph(p, posture, -0.62 * s, 0.5 * s, br)
    badges = condition_badges(c, conditions)
    if badges and s >= BADGE_MIN_SIZE:
        draw_condition_badges(p, badges, s)
    if computer and s >= BADGE_MIN_SIZE:
        draw_computer_badge(p, s)
    p.end()
    return pixmap


def draw_computer_badge(p: QPainter, s: float) -> None:
    """A small screen on a dark disc at the token's lower right, upright whichever
    way it points: the computer plays this fighter (issue 25)."""
    r = max(4.5, 0.19 * s)
    centre = QPointF(0.62 * s, 0.5 * s)
    p.setPen(QPen(QColor(30, 26, 20, 220), max(1.0, 0.03 * s)))
    p.setBrush(theme.COMPUTER_BADGE)
    p.drawEllipse(centre, r, r)
    screen = QRectF(centre.x() - 0.58 * r, centre.y() - 0.5 * r, 1.16 * r, 0.78 * r)
    p.setPen(QPen(QColor("#f4f2ee"), max(0.8, 0.16 * r)))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(screen)
    p.drawLine(
        QPointF(centre.x() - 0.32 * r, centre.y() + 0.55 * r),
        QPointF(centre.x() + 0.32 * r, centre.y() + 0.55 * r),
    )


# A token's conditions as badges: a letter on a colour, by the first word of the
# condition's name that matches; any other condition shows its first letter.
BADGE_MIN_SIZE = 14  # hex radius (px) below which the badges would be unreadable
MAX_BADGES = 3
_BADGE_LOOKS: tuple[tuple[str, str, QColor], ...] = (
    ("stun", "S", QColor("#f2c230")),
    ("unconscious", "U", QColor("#8a8f98")),
    ("bleed", "B", QColor("#c62828")),
    ("cripple", "C", QColor("#7b4fa8")),
    ("knock", "K", QColor("#d9822b")),
    ("off balance", "!", QColor("#d9822b")),
    ("shock", "−", QColor("#c2185b")),  # a penalty on this turn or the next
)
_OTHER_BADGE = QColor("#6d5a45")


def condition_badges(c: Combatant, labels: Sequence[str]) -> tuple[tuple[str, QColor], ...]:
    """The badges of a token's condition labels: (letter, colour) each, leaving out
    what the token already shows (dead: the cross; the posture: its glyph)."""
    shown = {Status.DEAD.value, posture_key(c).replace("_", " ")}
    badges: list[tuple[str, QColor]] = []
    for label in labels:
        if label in shown:
            continue
        look = next((b for b in _BADGE_LOOKS if b[0] in label), None)
        badge = (look[1], look[2]) if look is not None else (label[:1].upper(), _OTHER_BADGE)
        if badge not in badges:
            badges.append(badge)
    return tuple(badges)


def draw_condition_badges(p: QPainter, badges: Sequence[tuple[str, QColor]], s: float) -> None:
    """Up to ``MAX_BADGES`` discs down the token's upper right, upright whichever way
    it points; a "+" in the last when there are more."""
    r = max(4.5, 0.17 * s)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(6, round(1.25 * r)))
    p.setFont(font)
    shown = list(badges[:MAX_BADGES])
    if len(badges) > MAX_BADGES:
        shown[-1] = ("+", _OTHER_BADGE)
    for i, (letter, colour) in enumerate(shown):
        centre = QPointF(0.8 * s, (-0.72 + 0.36 * i) * s)
        p.setPen(QPen(QColor(30, 26, 20, 220), max(1.0, 0.03 * s)))
        p.setBrush(colour)
        p.drawEllipse(centre, r, r)
        p.setPen(QColor("#1e1a14") if colour.lightness() > 150 else QColor("#ffffff"))
        p.drawText(
            QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r), Qt.AlignmentFlag.AlignCenter,
            letter,
        )  # fmt: skip


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
class RangeArea:
    """Where a weapon's thrown or missile mode can strike (000 MISSILE AND THROWN
    WEAPONS): the front-arc hexes from 1 to ``range_hexes`` away, outlined only."""

    key: str
    name: str
    mode: str
    range_hexes: int
    half_damage_hexes: int | None
    hexes: frozenset[Hex]
    outline: QPainterPath
    index: int  # the weapon's, for its colour
    unready: bool

    @property
    def text(self) -> str:
        """The legend's words: "Knife, throw 5" or "Bow, shoot 1/2D 10, max 20"."""
        if self.half_damage_hexes is not None:
            span = f"1/2D {self.half_damage_hexes}, max {self.range_hexes}"
        else:
            span = str(self.range_hexes)
        return f"{self.name}, {self.mode} {span}"


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
    label_directions: list[tuple[Arc, Facing]]  # each wedge's centre line
    reach: list[ReachArea]
    bounds: QRectF
    disk_outline: QPainterPath = field(default_factory=QPainterPath)
    # "Unconscious"/"Dead" when the selected fighter is down: no arcs, no reach.
    down: str | None = None
    ranges: list[RangeArea] = field(default_factory=list)

    def arc_at(self, h: Hex) -> Arc | None:
        return self.arcs.get(h)

    _insets: dict[tuple[int, float], QPainterPath] = field(default_factory=dict)

    def inset_outline(self, area: ReachArea, inset: float) -> QPainterPath:
        """``area``'s outline shrunk by ``inset`` map units (cached per zoom)."""
        if inset <= 0:
            return area.outline
        key = (area.index, round(inset, 3))
        path = self._insets.get(key)
        if path is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(2 * inset)
            stroker.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
            path = area.outline.subtracted(stroker.createStroke(area.outline))
            if len(self._insets) > 64:
                self._insets.clear()
            self._insets[key] = path
        return path

    def reach_hexes(self) -> frozenset[Hex]:
        out: frozenset[Hex] = frozenset()
        for area in self.reach:
            out |= area.hexes
        return out


def legend_note(c: Combatant) -> str | None:
    """The legend's line for a fighter who cannot fight: "Unconscious: no arcs"."""
    if c.status in (Status.UNCONSCIOUS, Status.DEAD):
        return f"{c.status.value.capitalize()}: no arcs"
    return None


class OverlayCache:
    """The overlays last built, by what ``build_overlay`` reads of the fighter (its
    hex, facing, state, gear and sheet, not its hit points) and the map: a fighter
    selected again where it stood is drawn from the overlay it had (a rebuild is
    some 20 ms, once per turn of each fighter in an auto-battle)."""

    KEPT = 16

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[object, ...], tuple[Fighter, HexGrid, Overlay]] = (
            OrderedDict()
        )

    def get(self, c: Combatant, grid: HexGrid) -> Overlay:
        key = (c.id, c.hex, c.facing, c.status, c.unready, c.carried, id(c.fighter), id(grid))
        known = self._kept.get(key)
        if known is not None and known[0] is c.fighter and known[1] is grid:
            self._kept.move_to_end(key)
            return known[2]
        overlay = build_overlay(c, grid)
        self._kept[key] = (c.fighter, grid, overlay)
        if len(self._kept) > self.KEPT:
            self._kept.popitem(last=False)
        return overlay

    def clear(self) -> None:
        self._kept.clear()


def build_overlay(c: Combatant, grid: HexGrid, radius: int = theme.ARC_RADIUS) -> Overlay:
    origin, facing, hand = c.hex, c.facing, c.fighter.handedness
    if c.status in (Status.UNCONSCIOUS, Status.DEAD):
        # A fighter who is down threatens nothing: no arcs, no reach hatching.
        outline = outline_path([origin])
        return Overlay(
            combatant_id=c.id, origin=origin, facing=facing, handedness=hand, arcs={},
            fills=[], rays=[], label_directions=[], reach=[],
            bounds=outline.boundingRect(), disk_outline=outline,
            down=c.status.value.capitalize(),
        )
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
        # the ring's outline rather than a polygon per hex: the same pixels (filled
        # without antialiasing), a fifth less work on every repaint
        fills.append((colour, outline_path(hexes)))

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
    label_directions: list[tuple[Arc, Facing]] = []
    for k in range(6):
        f = facing.turned(k)
        label_directions.append((arc_of(origin + f.vector, origin, facing, hand), f))

    reach: list[ReachArea] = []
    for i, weapon in enumerate(wielded_weapons(c)):  # what is carried strikes nowhere
        if all(m.is_ranged for m in weapon.modes):
            continue  # a bow only shoots: its range area says where (range_areas)
        shown = frozenset(h for h in reach_hexes(origin, facing, weapon.reach) if h in grid)
        anchor = origin + facing.vector.scale(weapon.reach.max)
        reach.append(
            ReachArea(
                key=weapon.key,
                name=weapon.name,
                reach_text=str(weapon.reach),
                hexes=shown,
                outline=outline_path(shown),
                index=i,
                anchor=anchor,
                unready=weapon.key in c.unready,
            )
        )
    ranges = range_areas(c, grid)
    disk_outline = outline_path([*arcs, origin])
    bounds = disk_outline.boundingRect()
    for outline in [*(a.outline for a in reach), *(a.outline for a in ranges)]:
        bounds = bounds.united(outline.boundingRect())
    return Overlay(
        combatant_id=c.id,
        origin=origin,
        facing=facing,
        handedness=hand,
        arcs=arcs,
        fills=fills,
        rays=rays,
        label_directions=label_directions,
        reach=reach,
        bounds=bounds,
        disk_outline=disk_outline,
        ranges=ranges,
    )


def range_areas(c: Combatant, grid: HexGrid) -> list[RangeArea]:
    """One area per weapon with a thrown or missile mode, for its longest-ranged one:
    the hexes 1 to range away in the front arc (as ``rules.sets.seed000.missiles.range_problem``
    allows), on the map."""
    areas: list[RangeArea] = []
    for i, weapon in enumerate(wielded_weapons(c)):
        ranged = [m for m in weapon.modes if m.is_ranged and m.range_hexes]
        if not ranged:
            continue
        mode = max(ranged, key=lambda m: m.range_hexes or 0)
        limit = mode.range_hexes or 0
        hexes: set[Hex] = set()
        for d in range(1, limit + 1):
            hexes |= front_arc_hexes(c.hex, c.facing, d)
        shown = frozenset(h for h in hexes if h in grid)
        areas.append(
            RangeArea(
                key=weapon.key,
                name=weapon.name,
                mode=mode.name,
                range_hexes=limit,
                half_damage_hexes=mode.half_damage_hexes,
                hexes=shown,
                outline=outline_path(shown),
                index=i,
                unready=weapon.key in c.unready,
            )
        )
    return areas


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
        pen = QPen(colour, 2.4)
        pen.setCosmetic(True)
        pen.setStyle(style.pen_style)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(pen)
        # Later weapons' outlines sit a few pixels inside, so areas that coincide
        # still show every outline.
        p.drawPath(overlay.inset_outline(area, 3.5 * area.index / zoom))

    p.setBrush(Qt.BrushStyle.NoBrush)
    for ranged in overlay.ranges:
        p.setPen(range_pen(ranged.index, ranged.unready))
        p.drawPath(ranged.outline)


def range_pen(index: int, unready: bool = False) -> QPen:
    """A throwing or shooting range's outline: round dots in the weapon's colour,
    unlike any reach outline, with no hatching inside."""
    colour = QColor(theme.reach_style(index).colour)
    if unready:
        colour.setAlpha(110)
    pen = QPen(colour, 3.0)
    pen.setCosmetic(True)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setDashPattern([0.01, 2.2])
    return pen


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


PILL_PAD = (5.0, 2.0)


def pill_rect(
    texts: TextCache,
    text: str,
    anchor: QPointF,
    *,
    pixel_size: int = 11,
    bold: bool = False,
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter,
) -> QRectF:
    """Where ``draw_pill`` would draw (to lay labels out before drawing them)."""
    _st, size = texts.get(text, pixel_size, bold)
    pad_x, pad_y = PILL_PAD
    w, h = size.width() + 2 * pad_x, size.height() + 2 * pad_y
    x = anchor.x() - w / 2
    if align & Qt.AlignmentFlag.AlignLeft:
        x = anchor.x()
    elif align & Qt.AlignmentFlag.AlignRight:
        x = anchor.x() - w
    return QRectF(x, anchor.y() - h / 2, w, h)


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
    st, _size = texts.get(text, pixel_size, bold)
    rect = pill_rect(texts, text, anchor, pixel_size=pixel_size, bold=bold, align=align)
    h = rect.height()
    pad_x, pad_y = PILL_PAD
    p.setPen(QPen(edge, 1.2) if edge is not None else Qt.PenStyle.NoPen)
    p.setBrush(bg)
    p.drawRoundedRect(rect, h / 2, h / 2)
    p.setPen(fg)
    p.setFont(label_font(pixel_size, bold))
    p.drawStaticText(QPointF(rect.x() + pad_x, rect.y() + pad_y), st)
    return rect


# --- the legend ---------------------------------------------------------------------------
def render_legend(
    title: str,
    weapons: Sequence[tuple[int, str, bool]],
    dpr: float,
    facing: Facing = Facing.N,
    handedness: Handedness = Handedness.RIGHT,
    note: str | None = None,
    ranges: Sequence[tuple[int, str, bool]] = (),
) -> QPixmap:
    """The key to the overlay: a little hex split into the six arcs as the selected
    combatant has them (pointing its way), the arc names with their colours, one
    row per weapon's reach and one per throwing or shooting range (``ranges``: the
    weapon's index, the text, unready). With a ``note`` ("Unconscious: no arcs")
    the rosette is grey and the note is the only row."""
    font = label_font(11)
    bold = label_font(11, True)
    fm = QFontMetricsF(font)
    fmb = QFontMetricsF(bold)
    row_h = max(15.0, fm.height() + 2)
    sw_w, sw_h = 18.0, row_h - 5
    pad = 8.0
    rose = 64.0
    arc_rows = 0 if note else len(theme.ARC_ORDER)
    rows: list[str] = [theme.ARC_LEGEND_TEXT[a] for a in theme.ARC_ORDER[:arc_rows]]
    if note:
        rows.append(note)
    rows += [f"Reach: {name}" + (" (unready)" if unready else "") for _, name, unready in weapons]
    range_rows = len(rows)
    rows += [f"Range: {text}" + (" (unready)" if unready else "") for _, text, unready in ranges]
    list_w = max(fm.horizontalAdvance(t) for t in rows) + sw_w + 6
    width = math.ceil(max(fmb.horizontalAdvance(title), rose + pad + list_w) + 2 * pad)
    body_h = max(rose, row_h * len(rows))
    height = math.ceil(pad + fmb.height() + 4 + body_h + pad)
    pixmap, p = _legend_frame(width, height, dpr, title, bold, pad)
    top = pad + fmb.height() + 4

    # the rosette: a flat-top hex cut along the wedge boundaries (through the corners)
    cx, cy, rad = pad + rose / 2, top + rose / 2, rose / 2 - 1
    base = LAYOUT.facing_angle(facing)
    for k in range(6):
        arc = arc_of(Hex(0, 0) + facing.turned(k).vector, Hex(0, 0), facing, handedness)
        a0, a1 = math.radians(base + 60 * k - 30), math.radians(base + 60 * k + 30)
        wedge = QPolygonF(
            [
                QPointF(cx, cy),
                QPointF(cx + rad * math.sin(a0), cy - rad * math.cos(a0)),
                QPointF(cx + rad * math.sin(a1), cy - rad * math.cos(a1)),
            ]
        )
        colour = QColor(theme.ARC_COLOURS[arc]) if not note else QColor(150, 150, 150)
        colour.setAlpha(200 if not note else 90)
        p.setPen(QPen(theme.ARC_BOUNDARY, 1.0))
        p.setBrush(colour)
        p.drawPolygon(wedge)
    p.save()
    p.translate(cx, cy)
    p.rotate(base)
    p.setPen(QPen(theme.TOKEN_RIM, 1.0))
    p.setBrush(QColor("#f6efe0"))
    p.drawPath(token_shape(rose * 0.22))
    p.restore()

    p.setFont(font)
    x = pad + rose + pad
    y = top + max(0.0, (body_h - row_h * len(rows)) / 2)
    for i, text in enumerate(rows):
        swatch = QRectF(x, y + (row_h - sw_h) / 2, sw_w, sw_h)
        if note and i == 0:
            pass  # the note has no swatch
        elif i < arc_rows:
            colour = QColor(theme.ARC_COLOURS[theme.ARC_ORDER[i]])
            colour.setAlpha(200)
            p.setPen(QPen(theme.ARC_BOUNDARY, 1.0))
            p.setBrush(colour)
            p.drawRect(swatch)
        elif i >= range_rows:
            index, _text, unready = ranges[i - range_rows]
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(255, 255, 255, 160))
            p.drawRect(swatch)
            pen = range_pen(index, unready)
            pen.setCosmetic(False)
            pen.setWidthF(2.4)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(swatch.adjusted(1.5, 1.5, -1.5, -1.5))
        else:
            style = theme.reach_style(weapons[i - arc_rows - (1 if note else 0)][0])
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
            QRectF(swatch.right() + 6, y, width, row_h),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            text,
        )
        y += row_h
    p.end()
    return pixmap


def _legend_frame(
    width: int, height: int, dpr: float, title: str, bold: QFont, pad: float
) -> tuple[QPixmap, QPainter]:
    """A transparent pixmap with the legend's rounded frame and its title drawn; the
    painter is left open (font bold, pen ink) for the caller to draw the rest and end."""
    pixmap = QPixmap(max(1, math.ceil(width * dpr)), max(1, math.ceil(height * dpr)))
    pixmap.setDevicePixelRatio(dpr)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(theme.LEGEND_EDGE, 1.0))
    p.setBrush(theme.LEGEND_BACK)
    p.drawRoundedRect(QRectF(0.5, 0.5, width - 1, height - 1), 6, 6)
    p.setFont(bold)
    p.setPen(theme.INK)
    title_height = QFontMetricsF(bold).height()
    p.drawText(
        QRectF(pad, pad - 1, width - 2 * pad, title_height), Qt.AlignmentFlag.AlignLeft, title
    )
    return pixmap, p


def render_folded_legend(title: str, dpr: float) -> QPixmap:
    """The legend folded away: only its title, in the same frame."""
    bold = label_font(11, True)
    fmb = QFontMetricsF(bold)
    pad = 8.0
    width = math.ceil(fmb.horizontalAdvance(title) + 2 * pad)
    height = math.ceil(fmb.height() + 2 * pad - 2)
    pixmap, p = _legend_frame(width, height, dpr, title, bold, pad)
    p.end()
    return pixmap


# --- the battlefield: terrain, items on the ground, paths ------------------------------
def _step(member: Enum) -> int:
    """A terrain grade as a small number: its place in its enum (0 is "nothing
    special": good footing, no water, no cover)."""
    return list(type(member)).index(member)


@dataclass(frozen=True)
class TerrainLook:
    """What the map shows of one hex's terrain (0 = nothing special)."""

    dark: int  # 1 dim .. 3 dark
    footing: int  # 1 bad, 2 very bad
    water: int  # depth steps
    cover: int  # 1 partial .. 2 full
    height: int  # levels up (+) or down (-)

    @property
    def plain(self) -> bool:
        return not (self.dark or self.footing or self.water or self.cover or self.height)


def terrain_look(t: Terrain) -> TerrainLook:
    return TerrainLook(
        dark=max(0, min(3, _light_to_dark(t.light))),
        footing=max(0, min(2, _step(t.footing))),
        water=max(0, _step(t.water)),
        cover=max(0, min(2, _step(t.cover))),
        height=t.height,
    )


def _light_to_dark(light: Light) -> int:
    """Light (a darkness degree 0 .. 10) -> darkness steps 0..3."""
    darkness = light.darkness
    return 0 if darkness == 0 else 1 if darkness <= 3 else 2 if darkness <= 6 else 3


DARK_ALPHA = (0, 70, 130, 190)


def water_shade(depth: int) -> int:
    """Depth steps (ankle 1 .. deep 7) -> one of three blues."""
    return 1 if depth <= 2 else 2 if depth <= 5 else 3


WATER_SHADES = (QColor(96, 160, 214, 120), QColor(60, 126, 196, 160), QColor(34, 90, 168, 200))


@dataclass
class TerrainChunk:
    """The terrain layers of one block of CHUNK x CHUNK hexes, in map coordinates."""

    bounds: QRectF
    dark: list[tuple[QColor, QPainterPath]]
    water: list[tuple[QColor, QPainterPath]]
    heights: list[tuple[QColor, QPainterPath]]
    footing: QPainterPath
    cover: QPainterPath
    cover_walls: list[QLineF]
    height_edges: list[QLineF]
    height_labels: list[tuple[QPointF, str]]  # upper left of each raised/sunken hex


class TerrainCache:
    """Paths of the terrain layers, built once per terrain (immutable state: the
    terrain object's identity is the cache key) and cut into chunks like the grid,
    so a repaint fills only the visible ones, a handful of calls each."""

    def __init__(self) -> None:
        self._built = False
        self._terrain: TerrainMap | None = None
        self.looks: dict[Hex, TerrainLook] = {}
        self.chunks: list[TerrainChunk] = []
        self.bounds = QRectF()
        self._overview: QImage | None = None
        self.generation = 0  # counts rebuilds (the pixmap caches follow it)

    # Zoomed out, the whole terrain is one image of the map at this scale (drawn once
    # per terrain); closer in, the visible chunks' paths are filled.
    OVERVIEW_SCALE = 0.3
    OVERVIEW_BELOW_ZOOM = 0.6

    def overview(self) -> QImage:
        if self._overview is None:
            scale = self.OVERVIEW_SCALE
            b = self.bounds
            image = QImage(
                max(1, math.ceil(b.width() * scale)),
                max(1, math.ceil(b.height() * scale)),
                QImage.Format.Format_ARGB32_Premultiplied,
            )
            image.fill(Qt.GlobalColor.transparent)
            p = QPainter(image)
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            p.scale(scale, scale)
            p.translate(-b.left(), -b.top())
            paint_terrain_base(p, self, b)
            paint_terrain(p, self, scale, b)
            p.end()
            self._overview = image
        return self._overview

    def update(self, state: BattleState) -> bool:
        """Rebuild if the terrain changed; True if it did."""
        terrain = state.terrain
        if self._built and terrain is self._terrain:
            return False
        changed = self._built and terrain != self._terrain
        self._terrain = terrain
        self._built = True
        looks = {h: terrain_look(t) for h, t in terrain}
        self.looks = {h: lk for h, lk in looks.items() if not lk.plain}
        self.chunks = [self._chunk(hs) for hs in self._blocks().values()]
        self.bounds = QRectF()
        for chunk in self.chunks:
            self.bounds = self.bounds.united(chunk.bounds)
        self._overview = None
        self.generation += 1
        return changed

    def visible_chunks(self, rect: QRectF) -> list[TerrainChunk]:
        return [ch for ch in self.chunks if ch.bounds.intersects(rect)]

    def _blocks(self) -> dict[tuple[int, int], list[Hex]]:
        blocks: dict[tuple[int, int], list[Hex]] = {}
        for h in self.looks:
            col, row = h.to_offset()
            blocks.setdefault((col // CHUNK, row // CHUNK), []).append(h)
        return blocks

    def _chunk(self, hexes: list[Hex]) -> TerrainChunk:
        looks = self.looks
        by_dark: dict[int, list[Hex]] = {}
        by_water: dict[int, list[Hex]] = {}
        by_height: dict[int, list[Hex]] = {}
        footing: list[Hex] = []
        cover: list[Hex] = []
        for h in hexes:
            lk = looks[h]
            if lk.dark:
                by_dark.setdefault(lk.dark, []).append(h)
            if lk.water:
                by_water.setdefault(water_shade(lk.water), []).append(h)
            if lk.height:
                by_height.setdefault(lk.height, []).append(h)
            if lk.footing:
                footing.append(h)
            if lk.cover:
                cover.append(h)
        dark = [
            (QColor(12, 10, 30, DARK_ALPHA[d]), hexes_path(hs)) for d, hs in sorted(by_dark.items())
        ]
        water = [(WATER_SHADES[d - 1], hexes_path(hs)) for d, hs in sorted(by_water.items())]
        heights = []
        for level, hs in sorted(by_height.items()):
            colour = (
                QColor(255, 255, 255, min(150, 40 * level))
                if level > 0
                else QColor(70, 50, 20, min(150, 40 * -level))
            )
            heights.append((colour, hexes_path(hs)))
        # contour lines: edges between hexes of different height, once, on the higher side
        edges: list[QLineF] = []
        for level, hs in by_height.items():
            for h in hs:
                x, y = LAYOUT.hex_to_pixel(h)
                for facing in Facing:
                    other = looks.get(h.neighbor(facing))
                    if (other.height if other is not None else 0) < level:
                        a, b = edge_corners(facing)
                        edges.append(
                            QLineF(
                                x + _CORNERS[a][0],
                                y + _CORNERS[a][1],
                                x + _CORNERS[b][0],
                                y + _CORNERS[b][1],
                            )
                        )
        walls: list[QLineF] = []
        for h in cover:
            x, y = LAYOUT.hex_to_pixel(h)
            offsets = (-1, 0, 1) if looks[h].cover >= 2 else (0,)
            for k in offsets:
                dx = k * 0.42 * HEX_SIZE
                for dy in (0.42, 0.30):
                    walls.append(
                        QLineF(
                            x + dx - 0.22 * HEX_SIZE,
                            y + dy * HEX_SIZE,
                            x + dx + 0.22 * HEX_SIZE,
                            y + dy * HEX_SIZE,
                        )
                    )
        bounds = hexes_path(hexes).boundingRect().adjusted(-2, -2, 2, 2)
        labels = [
            (
                QPointF(
                    LAYOUT.hex_to_pixel(h)[0] - 0.5 * HEX_SIZE,
                    LAYOUT.hex_to_pixel(h)[1] - 0.5 * HEX_SIZE,
                ),
                f"{level:+d}",
            )
            for level, hs in by_height.items()
            for h in hs
        ]
        return TerrainChunk(
            bounds,
            dark,
            water,
            heights,
            hexes_path(footing),
            hexes_path(cover),
            walls,
            edges,
            labels,
        )


class TerrainPixmaps:
    """Each visible terrain chunk's layers as screen pixmaps at the current zoom
    (and sub-pixel offset), so a repaint while panning is a few blits."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, int, float, float, float, float], QPixmap] = {}
        self._generation: tuple[int, int] = (0, -1)

    def get(
        self,
        cache: TerrainCache,
        chunk_index: int,
        layer: int,
        zoom: float,
        frac: tuple[float, float],
        dpr: float,
    ) -> QPixmap:
        generation = (id(cache), cache.generation)
        if generation != self._generation or len(self._cache) > 240:
            self._cache.clear()
            self._generation = generation
        key = (chunk_index, layer, round(zoom, 5), frac[0], frac[1], round(dpr, 2))
        pixmap = self._cache.get(key)
        if pixmap is None:
            chunk = cache.chunks[chunk_index]
            b = chunk.bounds
            w = math.ceil(b.width() * zoom) + 2
            h = math.ceil(b.height() * zoom) + 2
            pixmap = QPixmap(max(1, math.ceil(w * dpr)), max(1, math.ceil(h * dpr)))
            pixmap.setDevicePixelRatio(dpr)
            pixmap.fill(Qt.GlobalColor.transparent)
            p = QPainter(pixmap)
            p.translate(frac[0], frac[1])
            p.scale(zoom, zoom)
            p.translate(-b.left(), -b.top())
            only = TerrainCache.__new__(TerrainCache)
            only.chunks = [chunk]
            if layer == 0:
                paint_terrain_base(p, only, b)
            else:
                p.setRenderHint(QPainter.RenderHint.Antialiasing)
                paint_terrain(p, only, zoom, b)
            p.end()
            self._cache[key] = pixmap
        return pixmap

    def clear(self) -> None:
        self._cache.clear()


def paint_terrain_base(p: QPainter, cache: TerrainCache, visible: QRectF) -> None:
    """Under the arc tints (map coordinates): height shades and water."""
    for chunk in cache.visible_chunks(visible):
        for colour, path in chunk.heights:
            p.fillPath(path, colour)
        for colour, path in chunk.water:
            p.fillPath(path, colour)


def paint_terrain(p: QPainter, cache: TerrainCache, zoom: float, visible: QRectF) -> None:
    """Over the arc tints (map coordinates): bad footing stipple, cover hatching
    with wall marks, height contours and darkness."""
    chunks = cache.visible_chunks(visible)
    if not chunks:
        return
    unscale = QTransform.fromScale(1.0 / zoom, 1.0 / zoom)
    footing = QBrush(theme.FOOTING, Qt.BrushStyle.Dense6Pattern)
    footing.setTransform(unscale)
    cover = QBrush(theme.COVER, Qt.BrushStyle.DiagCrossPattern)
    cover.setTransform(unscale)
    wall = QPen(theme.COVER_WALL, max(1.5, 3.2 * zoom))
    wall.setCapStyle(Qt.PenCapStyle.FlatCap)
    wall.setCosmetic(True)
    contour = QPen(theme.CONTOUR, 1.6)
    contour.setCosmetic(True)
    for chunk in chunks:
        if not chunk.footing.isEmpty():
            p.fillPath(chunk.footing, footing)
        if not chunk.cover.isEmpty():
            p.fillPath(chunk.cover, cover)
            p.setPen(wall)
            p.drawLines(chunk.cover_walls)
        if chunk.height_edges:
            p.setPen(contour)
            p.drawLines(chunk.height_edges)
        for colour, path in chunk.dark:
            p.fillPath(path, colour)
    p.setPen(Qt.PenStyle.NoPen)


def item_slots(count: int, size_px: float) -> list[tuple[float, float]]:
    """Screen offsets from a hex centre for ``count`` items: along the hex's lower
    edge (clear of the token's point and initials), fanning out round the rim with
    the icons side by side."""
    radius = 0.6 * size_px
    icon = item_icon_size(size_px)
    step = math.degrees(2 * math.asin(min(1.0, (icon + 1.5) / (2 * radius))))
    out: list[tuple[float, float]] = []
    for i in range(count):
        # 150 deg (lower right) first, then alternating either side round the rim
        k = (i + 1) // 2 * (1 if i % 2 else -1)
        a = math.radians(150 + step * k)
        out.append((radius * math.sin(a), -radius * math.cos(a)))
    return out


def item_icon_size(size_px: float) -> int:
    return int(max(12, min(32, 0.5 * size_px)))


def path_polyline(path: Sequence[Hex]) -> QPolygonF:
    return QPolygonF([center(h) for h in path])


_PILLS: dict[tuple[str, float], QPixmap] = {}


def height_pill(texts: TextCache, text: str, dpr: float) -> QPixmap:
    """A cached little label pixmap for a height number."""
    key = (text, round(dpr, 2))
    pixmap = _PILLS.get(key)
    if pixmap is None:
        rect = pill_rect(texts, text, QPointF(), pixel_size=9, bold=True)
        pixmap = QPixmap(math.ceil(rect.width() * dpr) + 2, math.ceil(rect.height() * dpr) + 2)
        pixmap.setDevicePixelRatio(dpr)
        pixmap.fill(Qt.GlobalColor.transparent)
        p = QPainter(pixmap)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        draw_pill(
            p,
            texts,
            text,
            QPointF(rect.width() / 2 + 1, rect.height() / 2 + 1),
            pixel_size=9,
            bold=True,
            fg=theme.HEIGHT_TEXT,
            bg=QColor(250, 245, 232, 190),
        )
        p.end()
        _PILLS[key] = pixmap
    return pixmap
