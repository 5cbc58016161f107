"""``hexfray --measure-startup``: print ``FIRST_PAINT <time.monotonic()>`` once the
main window's first frame is painted, then quit (for packaging/measure.py).

The same probe as packaging/minimal_app.py. A module of its own, so that measuring
start-up loads no more than the probe (not the self-test's code).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget


class _FirstPaintProbe(QObject):
    def __init__(self, window: QWidget, report: Callable[[], None]) -> None:
        super().__init__(window)
        self._window = window
        self._report = report
        self._seen = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            not self._seen
            and event.type() == QEvent.Type.Paint
            and isinstance(watched, QWidget)
            and watched.window() is self._window
        ):
            self._seen = True
            QTimer.singleShot(0, self._report)  # once the whole first frame is painted
        return False


def install_startup_probe(window: QWidget) -> None:
    """Print ``FIRST_PAINT <time.monotonic()>`` after the window's first painted
    frame, then quit."""

    def report() -> None:
        if sys.stdout is not None:  # a windowed Windows build has no console
            print(f"FIRST_PAINT {time.monotonic():.6f}", flush=True)
        QApplication.quit()

    app = QApplication.instance()
    assert app is not None
    app.installEventFilter(_FirstPaintProbe(window, report))
