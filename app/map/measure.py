"""Repaint timings of the map view for ``main.py --benchmark`` (app/benchmark.py).

Each function takes a view the benchmark has set up (its battle, selection and size),
moves the camera where the figure asks, lets the zoom settle as it does a moment
after the last wheel step, and returns the milliseconds of each repaint of the
whole view into an image, after a few repaints that fill the caches.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from app.map.view import MapView

# About the densest zoom at which the grid is still drawn: hexes of 5.12 screen
# pixels (at 5 the faded grid's alpha rounds to nothing and Qt skips it).
DENSE_ZOOM = 0.16
WARM_UP_FRAMES = 3


def repaint_samples_ms(
    view: MapView, frames: int, step: Callable[[int], None] | None = None
) -> tuple[float, ...]:
    """Milliseconds per repaint of the whole ``view``, ``step(i)`` before frame i."""
    image = QImage(view.width(), view.height(), QImage.Format.Format_ARGB32_Premultiplied)
    rect = QRectF(0, 0, view.width(), view.height())
    samples: list[float] = []
    for i in range(frames + WARM_UP_FRAMES):
        if step is not None:
            step(i)
        t0 = time.perf_counter()
        painter = QPainter(image)
        view.paint(painter, rect)
        painter.end()
        if i >= WARM_UP_FRAMES:
            samples.append((time.perf_counter() - t0) * 1000.0)
    return tuple(samples)


def repaint_dense_ms(view: MapView, frames: int = 60) -> tuple[float, ...]:
    """Repaints at ``DENSE_ZOOM`` around the view's centre, the zoom settled."""
    view.set_zoom(DENSE_ZOOM)
    view.settle_zoom()
    return repaint_samples_ms(view, frames)


def repaint_fit_ms(view: MapView, frames: int = 60) -> tuple[float, ...]:
    """Repaints after "Fit" (the whole map in the view; the benchmark passes a view
    of its 200x200 battle), the zoom settled."""
    view.fit_to_window()
    view.settle_zoom()
    return repaint_samples_ms(view, frames)


def view_creation_s(make_view: Callable[[], MapView]) -> float:
    """Seconds that ``make_view()`` takes (creating a ``MapView`` for a battle)."""
    t0 = time.perf_counter()
    make_view()
    return time.perf_counter() - t0
