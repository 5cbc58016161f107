"""The status bar's warning while the autosave cannot write its journal.

A full disk or an autosave folder that cannot be made must not leave the GM
playing on unprotected: the warning names the reason and stays, with a Retry
button, until the autosave works again (``app.files.ControllerAutosave``, which
also tries again at every change)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStyle, QToolButton, QWidget

SHOWN_LENGTH = 70  # of the reason in the status bar; the tooltip has it whole


class AutosaveWarning(QWidget):
    """Hidden while the autosave works; ``show_problem`` with a reason shows it,
    with an empty text hides it. ``retry_requested`` when the GM clicks Retry."""

    retry_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("autosaveWarning")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        icon = QLabel()
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        warning = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
        icon.setPixmap(warning.pixmap(size, size))
        self.label = QLabel()
        self.label.setObjectName("autosaveWarningText")
        self.retry_button = QToolButton()
        self.retry_button.setObjectName("autosaveRetry")
        self.retry_button.setText("Retry")
        self.retry_button.setToolTip("Write the autosave again now")
        self.retry_button.clicked.connect(lambda _=False: self.retry_requested.emit())
        layout.addWidget(icon)
        layout.addWidget(self.label)
        layout.addWidget(self.retry_button)
        self.setVisible(False)

    def show_problem(self, problem: str) -> None:
        if not problem:
            self.setVisible(False)
            return
        shown = problem if len(problem) <= SHOWN_LENGTH else problem[: SHOWN_LENGTH - 1] + "…"
        self.label.setText(f"Not autosaved: {shown}")
        self.setToolTip(
            f"Hexfray cannot write the autosave ({problem}), so the changes since the "
            "last save would be lost in a crash. Every change tries again, and so does "
            "Retry; saving the battle keeps it safe meanwhile."
        )
        self.setVisible(True)
