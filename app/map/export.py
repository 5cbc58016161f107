"""The whole map as a picture (File ▸ Export Map as Picture…): terrain, ground
items and tokens, drawn by the map view's own painting on a view of its own, so
the picture looks as the map does, without the selection's arcs or the pointer.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import QByteArray, QPointF, QRectF
from PySide6.QtGui import QImage, QImageWriter, QPainter

from app import theme
from app.controller import BattleController
from app.map import painter as mp
from app.map.view import MapView
from rules.battle.battle import Battle
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset

EXPORT_ZOOM = 1.5  # hexes of 48 px radius: initials and item icons read well
EXPORT_MAX_SIDE = 8000  # px: a larger map is drawn smaller, to stay one sane file
EXPORT_MARGIN = 16  # px of table around the map's edge


def export_zoom(state: BattleState, max_side: int = EXPORT_MAX_SIDE) -> float:
    """The zoom of the picture: ``EXPORT_ZOOM``, less if the map would be larger
    than ``max_side`` pixels on a side."""
    bounds = mp.GridCache(state.grid).bounds
    longest = max(bounds.width(), bounds.height(), 1.0)
    return min(EXPORT_ZOOM, (max_side - 2 * EXPORT_MARGIN) / longest)


def render_map_image(state: BattleState, zoom: float | None = None) -> QImage:
    """The whole map of ``state`` at ``zoom`` (default ``export_zoom``), the table's
    colour in a thin margin around it."""
    zoom = export_zoom(state) if zoom is None else zoom
    bounds = mp.GridCache(state.grid).bounds
    width = math.ceil(bounds.width() * zoom) + 2 * EXPORT_MARGIN
    height = math.ceil(bounds.height() * zoom) + 2 * EXPORT_MARGIN
    # A view of its own over a battle of its own: nothing selected, nothing in flight,
    # and the window's view keeps its zoom.
    controller = BattleController(Battle(state, 0, get_ruleset))
    view = MapView(controller)
    try:
        view.animations_enabled = False
        view.resize(width, height)
        view.camera.zoom = zoom
        view.camera.offset = QPointF(
            EXPORT_MARGIN - bounds.left() * zoom, EXPORT_MARGIN - bounds.top() * zoom
        )
        image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(theme.TABLE)
        painter = QPainter(image)
        try:
            view.paint(painter, QRectF(0, 0, width, height))
        finally:
            painter.end()
    finally:
        view.deleteLater()
        controller.deleteLater()
    return image


def export_map_png(state: BattleState, path: Path) -> bool:
    """Write the whole map of ``state`` to ``path`` as a PNG; False if it could not
    be written."""
    writer = QImageWriter(str(path), QByteArray(b"png"))
    return writer.write(render_map_image(state))
