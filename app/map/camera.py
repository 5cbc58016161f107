"""The map view's camera: zoom and pan, the map <-> widget transform, fitting.

Pure geometry on the widget's size (asked afresh each time: a hidden widget's size
changes without a resize event) and the map's bounds in map coordinates; the view
decides when to redraw and which signals to send.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRect, QRectF
from PySide6.QtGui import QTransform

from app.map import painter as mp
from hexmap import Hex

MIN_ZOOM = 0.12  # the floor unless a big map needs less to be seen whole
MAX_ZOOM = 5.0
ZOOM_STEP = 1.25
PAN_STEP = 80.0  # screen pixels per arrow key press
MARGIN = 24.0  # around the map when fitting
FRAME_MAX_ZOOM = 1.6  # framing the battle zooms no closer than this
KEEP_ON_SCREEN = 80.0  # pixels of the map that panning always leaves in view


class Camera:
    """Zoom and offset of the map in a widget of ``viewport()`` pixels."""

    def __init__(self, viewport: Callable[[], tuple[int, int]], map_bounds: QRectF) -> None:
        self._viewport = viewport
        self.map_bounds = map_bounds
        self.zoom = 1.0
        self.offset = QPointF(MARGIN, MARGIN)

    @property
    def width(self) -> int:
        return self._viewport()[0]

    @property
    def height(self) -> int:
        return self._viewport()[1]

    # --- transforms ---------------------------------------------------------------
    def transform(self) -> QTransform:
        """Map coordinates -> widget pixels."""
        return QTransform(self.zoom, 0, 0, self.zoom, self.offset.x(), self.offset.y())

    def to_map(self, pos: QPointF) -> QPointF:
        return QPointF(
            (pos.x() - self.offset.x()) / self.zoom, (pos.y() - self.offset.y()) / self.zoom
        )

    def to_screen(self, point: QPointF) -> QPointF:
        return QPointF(
            point.x() * self.zoom + self.offset.x(), point.y() * self.zoom + self.offset.y()
        )

    def to_screen_xy(self, h: Hex) -> tuple[float, float]:
        """Widget position of a hex centre as plain floats (the painters' hot loops)."""
        x, y = mp.LAYOUT.hex_to_pixel(h)
        return (x * self.zoom + self.offset.x(), y * self.zoom + self.offset.y())

    def hex_center(self, h: Hex) -> QPointF:
        return self.to_screen(mp.center(h))

    def visible_map_rect(self, exposed: QRectF) -> QRectF:
        """The map coordinates shown in the widget rect ``exposed``."""
        return self.transform().inverted()[0].mapRect(exposed)

    def map_rect_on_screen(self) -> QRectF:
        """The whole map's bounding box in widget pixels."""
        return self.transform().mapRect(self.map_bounds)

    def screen_rect(self, map_rect: QRectF, pad: float = 2.0) -> QRect:
        return self.transform().mapRect(map_rect).adjusted(-pad, -pad, pad, pad).toAlignedRect()

    @property
    def hex_pixels(self) -> float:
        """A hex's radius on screen."""
        return mp.HEX_SIZE * self.zoom

    # --- zoom limits ----------------------------------------------------------------
    def fit_whole_zoom(self) -> float:
        """The zoom at which the whole map fits the view inside its margins."""
        w = max(1.0, self.width - 2 * MARGIN)
        h = max(1.0, self.height - 2 * MARGIN)
        whole = self.map_bounds
        return min(w / whole.width(), h / whole.height())

    def min_zoom(self) -> float:
        """How far out one may zoom: ``MIN_ZOOM``, or further if that is what it
        takes to see the whole map (big maps)."""
        return min(MIN_ZOOM, self.fit_whole_zoom())

    # --- moves ------------------------------------------------------------------------
    def zoom_about(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom keeping the map point under ``anchor`` (default: view centre) still."""
        zoom = max(self.min_zoom(), min(MAX_ZOOM, zoom))
        if anchor is None:
            anchor = QPointF(self.width / 2, self.height / 2)
        fixed = self.to_map(anchor)
        self.zoom = zoom
        self.offset = QPointF(anchor.x() - fixed.x() * zoom, anchor.y() - fixed.y() * zoom)
        self.keep_map_visible()

    def pan_by(self, dx: float, dy: float) -> None:
        self.offset += QPointF(dx, dy)
        self.keep_map_visible()

    def frame(self, b: QRectF, max_zoom: float) -> None:
        """Centre ``b`` (map coordinates) as large as fits, no closer than
        ``max_zoom`` and never so close that the map would fit but does not."""
        w = max(1.0, self.width - 2 * MARGIN)
        h = max(1.0, self.height - 2 * MARGIN)
        fit_whole = self.fit_whole_zoom()
        zoom = min(w / max(1.0, b.width()), h / max(1.0, b.height()), max_zoom)
        self.zoom = max(self.min_zoom(), min(MAX_ZOOM, max(zoom, min(fit_whole, max_zoom))))
        self.offset = QPointF(
            self.width / 2 - b.center().x() * self.zoom,
            self.height / 2 - b.center().y() * self.zoom,
        )
        self.keep_map_visible()

    def center_on(self, h: Hex) -> None:
        c = mp.center(h)
        self.offset = QPointF(
            self.width / 2 - c.x() * self.zoom, self.height / 2 - c.y() * self.zoom
        )
        self.keep_map_visible()

    def keep_map_visible(self) -> None:
        """Never let the map leave the view entirely: keep some of it on screen."""
        b = self.map_rect_on_screen()
        keep = KEEP_ON_SCREEN
        dx = dy = 0.0
        if b.right() < keep:
            dx = keep - b.right()
        elif b.left() > self.width - keep:
            dx = self.width - keep - b.left()
        if b.bottom() < keep:
            dy = keep - b.bottom()
        elif b.top() > self.height - keep:
            dy = self.height - keep - b.top()
        self.offset += QPointF(dx, dy)
