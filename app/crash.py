"""Crash reporting: an unhandled exception is logged and shown, and Hexfray goes on.

``install_crash_handler(window)`` replaces ``sys.excepthook`` (which PySide6 calls
for an exception escaping a slot, a pane's event handler or a command run from a
button) and ``threading.excepthook``, and installs a Qt message handler that sends
Qt's own debug/warning/critical/fatal messages to the log.

An exception is written to the log with its traceback, then a dialog says what
went wrong and where the log file is. The dialog is shown from the event loop
(queued), never inside the failing handler, so a failing ``paintEvent`` cannot
stack dialogs: errors while it is open are only logged (the next dialog counts
them), and the same error again within ``REPEAT_QUIET_SECONDS`` of closing it is
only logged, so a handler that fails on every repaint cannot trap the GM in a
loop of dialogs. The window and
the battle stay open: a command that raised never changed the battle, because
``Battle.execute`` only stores a state once its command returned.

The dialog is injectable (``show_dialog``) for tests.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import (
    QMessageLogContext,
    QObject,
    Qt,
    QtMsgType,
    QUrl,
    Signal,
    qInstallMessageHandler,
)
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from app.user_dirs import current_log_file, finish_early_logging, log_dir

log = logging.getLogger("hexfray.crash")
qt_log = logging.getLogger("qt")

REPEAT_QUIET_SECONDS = 10.0


@dataclass(frozen=True)
class CrashReport:
    """One unhandled exception, as the dialog shows it."""

    summary: str  # "ZeroDivisionError: division by zero"
    details: str  # the formatted traceback
    log_file: Path | None
    thread: str = "MainThread"


ShowDialog = Callable[[CrashReport, int, "QWidget | None"], None]
"""Shows a report; the int is how many errors happened since the dialog opened."""


_QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


# Harmless warnings of Qt's offscreen platform (the self-test, the tests): debug only.
_QT_NOISE = ("This plugin does not support propagateSizeHints()",)


def qt_message_handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Send a Qt message to the log. A fatal one is flushed at once: Qt aborts next."""
    level = _QT_LEVELS.get(mode, logging.WARNING)
    if message in _QT_NOISE:
        level = logging.DEBUG
    where = ""
    if context is not None and context.file:
        where = f" ({context.file}:{context.line})"
    category = context.category if context is not None and context.category else "qt"
    qt_log.log(level, "[%s] %s%s", category, message, where)
    if mode == QtMsgType.QtFatalMsg:
        for handler in logging.getLogger().handlers:
            with contextlib.suppress(Exception):  # about to abort: flush what we can
                handler.flush()


class CrashReporter(QObject):
    """Installs the hooks and presents reports. Keep one per application."""

    _report = Signal(object)

    def __init__(
        self,
        parent: QWidget | None = None,
        show_dialog: ShowDialog | None = None,
    ) -> None:
        super().__init__(None)
        self._parent_widget = parent
        self._show_dialog: ShowDialog = show_dialog or show_crash_dialog
        self._previous_excepthook: Callable[..., object] | None = None
        self._previous_thread_hook: Callable[..., object] | None = None
        self._previous_qt_handler: Callable[..., object] | None = None
        self._installed = False
        self._presenting = False
        self._pending = 0
        self._last_shown: tuple[str, float] | None = None
        self.reports: list[CrashReport] = []
        # Queued: the dialog opens from the event loop, whichever thread failed.
        self._report.connect(self._present, Qt.ConnectionType.QueuedConnection)

    # --- hooks -------------------------------------------------------------------
    def install(self) -> CrashReporter:
        if self._installed:
            return self
        self._previous_excepthook = sys.excepthook
        self._previous_thread_hook = threading.excepthook
        sys.excepthook = self.excepthook
        threading.excepthook = self._thread_excepthook
        self._previous_qt_handler = qInstallMessageHandler(qt_message_handler)
        self._installed = True
        return self

    def uninstall(self) -> None:
        if not self._installed:
            return
        sys.excepthook = self._previous_excepthook or sys.__excepthook__
        threading.excepthook = self._previous_thread_hook or threading.__excepthook__
        qInstallMessageHandler(self._previous_qt_handler)
        self._installed = False

    def excepthook(
        self,
        exc_type: type[BaseException],
        exc: BaseException,
        tb: TracebackType | None,
        thread: str = "MainThread",
    ) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            (self._previous_excepthook or sys.__excepthook__)(exc_type, exc, tb)
            return
        finish_early_logging()  # an error before the first frame still reaches the file
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        log.critical("Unhandled exception in %s:\n%s", thread, details.rstrip())
        summary = "".join(traceback.format_exception_only(exc_type, exc)).strip()
        report = CrashReport(summary, details, current_log_file(), thread)
        self.reports.append(report)
        if QApplication.instance() is None:
            # No event loop to show a dialog in: say it on stderr as Python would.
            (self._previous_excepthook or sys.__excepthook__)(exc_type, exc, tb)
            return
        self._report.emit(report)

    def _thread_excepthook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None:
            return
        name = args.thread.name if args.thread is not None else "a thread"
        self.excepthook(args.exc_type, args.exc_value, args.exc_traceback, name)

    # --- the dialog --------------------------------------------------------------
    def _present(self, report: CrashReport) -> None:
        self._pending += 1
        if self._presenting:
            return  # logged already; the next dialog counts it
        if self._last_shown is not None:
            summary, closed_at = self._last_shown
            if summary == report.summary and time.monotonic() - closed_at < REPEAT_QUIET_SECONDS:
                self._pending = 0
                return
        self._presenting = True
        try:
            self._show_dialog(report, self._pending, self._parent_widget)
        except Exception:  # the reporter itself must never raise
            log.exception("the crash dialog failed")
        finally:
            self._presenting = False
            self._pending = 0
            self._last_shown = (report.summary, time.monotonic())


def show_crash_dialog(report: CrashReport, count: int, parent: QWidget | None) -> None:
    """The real dialog: what failed, that Hexfray goes on, where the log is."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle("Hexfray – unexpected error")
    box.setText(
        "<b>Something went wrong, but Hexfray is still running.</b><br>"
        "The battle is as it was before the action that failed."
    )
    where = report.log_file if report.log_file is not None else log_dir()
    more = f"\n\n({count} errors since the last report; this is the first.)" if count > 1 else ""
    box.setInformativeText(
        f"{report.summary}\n\nThe details are in the log file:\n{where}{more}"
    )
    box.setDetailedText(report.details)
    box.setStandardButtons(QMessageBox.StandardButton.Ok)
    open_logs = box.addButton("Open log folder", QMessageBox.ButtonRole.ActionRole)
    box.setDefaultButton(QMessageBox.StandardButton.Ok)
    box.exec()
    if box.clickedButton() is open_logs:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(log_dir())))


_reporter: CrashReporter | None = None


def install_crash_handler(
    parent: QWidget | None = None, show_dialog: ShowDialog | None = None
) -> CrashReporter:
    """Install (or re-target) the application's crash reporter and return it."""
    global _reporter
    if _reporter is not None:
        _reporter.uninstall()
    _reporter = CrashReporter(parent, show_dialog).install()
    return _reporter


def uninstall_crash_handler() -> None:
    global _reporter
    if _reporter is not None:
        _reporter.uninstall()
        _reporter = None
