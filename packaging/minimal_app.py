"""The yardstick for packaging/measure.py: the smallest PySide6 QtWidgets window.

A QMainWindow with a label, built by measure.py as a *plain* PyInstaller one-folder
build with default options (no spec, no excludes), and run from source with the
same Python as ``main.py``. Hexfray's size and start-up budgets are ratios against
these two, measured in the same run.

``--measure-startup`` prints ``FIRST_PAINT <time.monotonic()>`` once the window's
first paint is done and quits: the same probe as ``hexfray --measure-startup``
(app/startup_probe.py), copied here so this stays minimal.
"""

from __future__ import annotations

import sys
import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QWidget


class _FirstPaint(QObject):
    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._seen = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            not self._seen
            and event.type() == QEvent.Type.Paint
            and isinstance(watched, QWidget)
            and watched.window() is self._window
        ):
            self._seen = True
            QTimer.singleShot(0, self._report)  # after the whole first frame is painted
        return False

    def _report(self) -> None:
        print(f"FIRST_PAINT {time.monotonic():.6f}", flush=True)
        QApplication.quit()


def main() -> int:
    app = QApplication(sys.argv)
    window = QMainWindow()
    window.setWindowTitle("Minimal")
    window.setCentralWidget(QLabel("Hello from a minimal PySide6 window"))
    window.resize(400, 200)
    if "--measure-startup" in sys.argv:
        app.installEventFilter(_FirstPaint(window))
    window.show()
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
