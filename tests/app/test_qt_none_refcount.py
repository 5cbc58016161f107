"""Regression for PySide6 6.12.0 on CPython 3.11: every call of a Qt method that
returns None dropped a reference to ``None`` too many, and after enough calls the
interpreter aborted in ``none_dealloc`` ("deallocating None"). A repaint makes tens
of thousands of such calls, so Hexfray crashed within minutes.

The calls run in a subprocess so that an abort shows up as this test failing, not as
the whole test run dying. The pin in requirements.txt (6.11.x) is what keeps it green.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

MARKER = "HEXFRAY-NONE-REFCOUNT-OK"
CALLS = 100_000

SCRIPT = textwrap.dedent(
    f"""
    import sys
    from PySide6.QtCore import QLineF
    from PySide6.QtGui import QGuiApplication, QImage, QPainter

    app = QGuiApplication([])
    image = QImage(64, 64, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    line = QLineF(0, 0, 63, 63)
    before = sys.getrefcount(None)
    for _ in range({CALLS}):
        result = painter.drawLine(line)  # returns None
    painter.end()
    after = sys.getrefcount(None)
    assert result is None
    # a leak the other way round would not abort, but would still be a bug to know of
    assert abs(after - before) < 1000, ("refcount of None drifted", before, after)
    print("{MARKER}", before, after)
    """
)


def test_many_qt_calls_returning_none_do_not_abort() -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 0, (
        f"exit status {done.returncode} (an abort is -6)\n"
        f"stdout: {done.stdout}\nstderr: {done.stderr}"
    )
    assert MARKER in done.stdout
