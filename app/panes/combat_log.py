"""The combat log pane: renders the battle's events, never computes rules.

Rows come from ``app.event_text``, with the battle's ruleset's log formatter
(``app.rulesets``) for its own events; this module only draws them (rich text),
keeps them grouped by the command they came from (an undo drops a command's rows,
a redo brings them back), filters them by combatant and text, highlights a hovered
row's hexes on the map through ``BattleController.highlight``, follows the newest
entry, copies rows and exports what it shows (``app.log_export``).

Long evenings stay fast. The view is a one-column table whose row heights the
pane sets itself (``RowHeights``), so Qt never asks every row for its size: a
command's new rows are laid out once when they arrive, and appending costs the
same at row 10 and at row 10,000. A whole log (a load, a new filter, a new width)
gets estimated heights at once, exact ones for the rows on screen, and the rest
measured while the program is idle. The view's model is the list of rows the
filter lets through, made in one pass. Only the rows on screen are painted, from a
bounded cache of laid-out texts.
"""

from __future__ import annotations

import bisect
import math
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QRectF,
    QSettings,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.event_text import (
    LogFormatter,
    LogLine,
    LogRow,
    RowKind,
    Tone,
    rows_for_events,
    turn_separator,
    with_entered_dice,
)
from app.export_folders import ask_export_path
from app.help import key_sequences
from app.log_export import ExportFormat, export_log
from app.panes.widgets import MUTED, configure_dock, pane_body
from app.rulesets import ruleset_ui
from app.user_dirs import settings as user_settings
from rules.battle.battle import BattleChange, ChangeKind
from rules.core.events import Event

_INDEX = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True, kw_only=True)
class DecisionNote(Event):
    """A computer fighter's reason for its next command, as the log shows it: the
    window's own note, never the battle's (the battle keeps the command alone)."""

    text: str

    def describe(self) -> str:
        return self.text


ROW_ROLE = int(Qt.ItemDataRole.UserRole) + 10
# The command a row came from; the first turn's separator belongs to none.
NO_COMMAND = -1

TONE_STYLE: dict[Tone, str] = {
    Tone.PLAIN: "",
    Tone.TITLE: "font-weight:600",
    Tone.SUCCESS: "color:#2e7d32",
    Tone.FAILURE: "color:#b23a30",
    Tone.CRITICAL: "color:#7b1fa2;font-weight:600",
    Tone.OUTCOME: "font-weight:600",
    Tone.HARM: "color:#b71c1c;font-weight:600",
    Tone.NOTE: f"color:{MUTED.name()};font-style:italic",
}

BOLD_TONES = frozenset(tone for tone, style in TONE_STYLE.items() if "font-weight" in style)
SMALL_FONT_SCALE = 0.83  # a citation's "font-size:small" against the view's font


def row_html(row: LogRow) -> str:
    """The rich text of one row."""
    if row.kind is RowKind.TURN:
        return (
            '<table width="100%" cellspacing=0 cellpadding=1><tr>'
            f'<td align="center" style="color:{MUTED.name()};font-weight:600">'
            f"— {escape(row.title)} —</td></tr></table>"
        )
    parts = []
    for i, line in enumerate(row.lines):
        style = TONE_STYLE[line.tone]
        text = f'<span style="{style}">{escape(line.text)}</span>' if style else escape(line.text)
        if line.citation:
            text += (
                f' <span style="color:{MUTED.name()};font-size:small">'
                f"· {escape(line.citation)}</span>"
            )
        indent = "" if i == 0 else "margin-left:12px;"
        parts.append(f'<div style="{indent}">{text}</div>')
    return "".join(parts)


def search_text(row: LogRow) -> str:
    """What the search box looks in: the row's lines as shown, with citations."""
    return "\n".join(line.plain for line in row.lines).casefold()


def row_role_data(row: LogRow, role: int) -> Any:
    """What both log models answer to ``data()`` for ``row``: the row itself
    (ROW_ROLE), its title, and its plain text as a tooltip (not on turn headings)."""
    if role == ROW_ROLE:
        return row
    if role == Qt.ItemDataRole.DisplayRole:
        return row.title
    if role == Qt.ItemDataRole.ToolTipRole:
        return row.plain_text() if row.kind is not RowKind.TURN else None
    return None


class CombatLogModel(QAbstractListModel):
    """Every row of the log in order, each with the index of the command it came
    from (``NO_COMMAND`` for the first turn's separator), so that the rows of the
    command an undo takes back can be dropped and a redo's put in their place."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[LogRow] = []
        self._commands: list[int] = []  # ascending: commands are logged in order
        self._search_texts: list[str] = []
        self._entry_count = 0  # rows that are not turn separators

    @property
    def rows(self) -> tuple[LogRow, ...]:
        return tuple(self._rows)

    def row(self, source_row: int) -> LogRow:
        return self._rows[source_row]

    def command_of(self, source_row: int) -> int:
        return self._commands[source_row]

    def search_text_of(self, source_row: int) -> str:
        return self._search_texts[source_row]

    @property
    def entry_count(self) -> int:
        return self._entry_count

    def set_rows(self, groups: Iterable[tuple[int, Sequence[LogRow]]]) -> None:
        """Replace every row: ``groups`` gives each command's index and rows."""
        self.beginResetModel()
        self._rows, self._commands, self._search_texts = [], [], []
        self._entry_count = 0
        for command, rows in groups:
            self._add(command, rows)
        self.endResetModel()

    def put_command(self, command: int, rows: Sequence[LogRow]) -> tuple[LogRow, ...]:
        """Log the rows of command ``command`` (executed or redone) after dropping
        any rows of it or of later commands still shown; returns the dropped rows."""
        dropped = self.drop_commands_from(command)
        if rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            self._add(command, rows)
            self.endInsertRows()
        return dropped

    def drop_commands_from(self, command: int) -> tuple[LogRow, ...]:
        """Remove the rows of command ``command`` and of every later one (an undo
        takes back the last command); returns the removed rows."""
        first = bisect.bisect_left(self._commands, command)
        if first == len(self._rows):
            return ()
        self.beginRemoveRows(QModelIndex(), first, len(self._rows) - 1)
        dropped = tuple(self._rows[first:])
        del self._rows[first:], self._commands[first:], self._search_texts[first:]
        self._entry_count -= sum(1 for row in dropped if row.kind is not RowKind.TURN)
        self.endRemoveRows()
        return dropped

    def _add(self, command: int, rows: Sequence[LogRow]) -> None:
        self._rows.extend(rows)
        self._commands.extend([command] * len(rows))
        self._search_texts.extend(search_text(row) for row in rows)
        self._entry_count += sum(1 for row in rows if row.kind is not RowKind.TURN)

    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        return row_role_data(self._rows[index.row()], role)


@dataclass(frozen=True)
class LogFilter:
    """Which entries the log shows: those naming ``combatant`` (an id; None:
    everyone) as actor or target whose text contains ``text`` (any case)."""

    combatant: str | None = None
    text: str = ""

    @property
    def active(self) -> bool:
        return self.combatant is not None or bool(self.text)


class CombatLogFilterModel(QAbstractListModel):
    """The rows the log shows under a ``LogFilter``: the view's model, a list of
    the ``CombatLogModel`` rows that pass (what a ``QSortFilterProxyModel`` would
    do, without asking Python about each row from C++ on every change). The
    combatant test reads the ids the events name (``LogRow.combatants``), never
    the text. With a filter on, a turn separator shows only above entries that
    pass, so a search does not list every turn of the evening.

    Rows come and go only at the end of the log, and so they do here; a new filter
    resets the list."""

    def __init__(self, entries: CombatLogModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._entries = entries
        self._filter = LogFilter()
        self._needle = ""
        self._shown: list[LogRow] = []
        self._sources: list[int] = []  # each shown row's place in ``entries``, ascending
        # The separator of the turn at the end of the log while no entry under it
        # passes: it shows with the first one that does.
        self._waiting_turn: int | None = None
        entries.modelReset.connect(self._on_entries_model_reset)
        entries.rowsInserted.connect(self._on_entries_rows_inserted)
        entries.rowsRemoved.connect(self._on_entries_rows_removed)
        self._on_entries_model_reset()

    @property
    def log_filter(self) -> LogFilter:
        return self._filter

    def set_filter(self, log_filter: LogFilter) -> None:
        if log_filter == self._filter:
            return
        self._filter = log_filter
        self._needle = log_filter.text.casefold()
        self._on_entries_model_reset()

    def passes(self, source_row: int) -> bool:
        """Whether the entry in ``source_row`` passes the filter (turns aside)."""
        combatant = self._filter.combatant
        if combatant is not None and combatant not in self._entries.row(source_row).combatants:
            return False
        return self._needle in self._entries.search_text_of(source_row)

    def shown_rows(self) -> list[LogRow]:
        """The rows shown, top to bottom."""
        return list(self._shown)

    def shown_entry_count(self) -> int:
        """How many entries (not turn separators) the filter lets through."""
        if not self._filter.active:
            return self._entries.entry_count
        return sum(1 for row in self._shown if row.kind is not RowKind.TURN)

    def _accepted_from(self, first: int) -> list[int]:
        """The source rows from ``first`` on that show, given the separator still
        waiting above them; updates that wait."""
        if not self._filter.active:
            self._waiting_turn = None
            return list(range(first, self._entries.rowCount()))
        accepted: list[int] = []
        waiting = self._waiting_turn
        for source_row in range(first, self._entries.rowCount()):
            if self._entries.row(source_row).kind is RowKind.TURN:
                waiting = source_row
            elif self.passes(source_row):
                if waiting is not None:
                    accepted.append(waiting)
                    waiting = None
                accepted.append(source_row)
        self._waiting_turn = waiting
        return accepted

    def _on_entries_model_reset(self) -> None:
        self.beginResetModel()
        self._waiting_turn = None
        self._sources = self._accepted_from(0)
        self._shown = [self._entries.row(source_row) for source_row in self._sources]
        self.endResetModel()

    def _on_entries_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        added = self._accepted_from(first)
        if not added:
            return
        start = len(self._shown)
        self.beginInsertRows(QModelIndex(), start, start + len(added) - 1)
        self._sources.extend(added)
        self._shown.extend(self._entries.row(source_row) for source_row in added)
        self.endInsertRows()

    def _on_entries_rows_removed(self, parent: QModelIndex, first: int, last: int) -> None:
        cut = bisect.bisect_left(self._sources, first)
        # A separator left with no entry under it waits again.
        if self._filter.active and cut > 0 and self._shown[cut - 1].kind is RowKind.TURN:
            cut -= 1
        if cut < len(self._shown):
            self.beginRemoveRows(QModelIndex(), cut, len(self._shown) - 1)
            del self._shown[cut:], self._sources[cut:]
            self.endRemoveRows()
        self._waiting_turn = self._last_turn_not_shown()

    def _last_turn_not_shown(self) -> int | None:
        if not self._filter.active:
            return None
        last_shown = self._sources[-1] if self._sources else -1
        for source_row in range(self._entries.rowCount() - 1, last_shown, -1):
            if self._entries.row(source_row).kind is RowKind.TURN:
                return source_row
        return None

    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._shown)

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        return row_role_data(self._shown[index.row()], role)


@dataclass(frozen=True)
class _Height:
    row: LogRow  # kept so that an id is never mistaken for a later row's
    width: int
    pixels: int
    exact: bool  # measured on the laid-out text, not estimated from font metrics


class LogRowDelegate(QStyledItemDelegate):
    """Draws a row's rich text, wrapped to the view's width. Heights: a row's
    ``exact_height`` lays its text out (once per width); ``layout_height`` gives
    that when known and otherwise a quick estimate from font metrics, for a whole
    log at once. The laid-out texts of the rows being painted sit in a
    least-recently-used cache far larger than a screenful."""

    PAD = 3
    DOCUMENTS = 400
    INDENT = 12  # an attack's further lines (``row_html``)

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self._view = view
        self._documents: OrderedDict[int, tuple[LogRow, int, QTextDocument]] = OrderedDict()
        self._heights: dict[int, _Height] = {}  # by id(row)
        self._measuring = self._new_document()  # lays out rows measured, not painted
        self._turn_heights: dict[int, int] = {}  # every separator is one line: by width
        self._line_heights: dict[int, int] = {}
        self._average_chars: tuple[float, float] | None = None
        self._line_advances: dict[int, tuple[LogRow, tuple[float, ...]]] = {}

    def clear_cache(self) -> None:
        self._documents.clear()
        self._heights.clear()
        self._turn_heights.clear()
        self._line_heights.clear()
        self._average_chars = None
        self._line_advances.clear()

    def forget(self, rows: Iterable[LogRow]) -> None:
        """Drop what is cached for rows the log no longer holds."""
        for row in rows:
            self._documents.pop(id(row), None)
            self._heights.pop(id(row), None)
            self._line_advances.pop(id(row), None)

    def text_width(self) -> int:
        return max(40, self._view.viewport().width() - 2 * self.PAD)

    def _new_document(self) -> QTextDocument:
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self._view.font())
        return doc

    def _document(self, row: LogRow, width: int) -> QTextDocument:
        key = id(row)
        cached = self._documents.get(key)
        if cached is not None and cached[0] is row and cached[1] == width:
            self._documents.move_to_end(key)
            return cached[2]
        doc = self._new_document()
        doc.setHtml(row_html(row))
        doc.setTextWidth(width)
        self._documents[key] = (row, width, doc)
        if len(self._documents) > self.DOCUMENTS:
            self._documents.popitem(last=False)
        return doc

    def _measure(self, html: str, width: int) -> int:
        self._measuring.setDefaultFont(self._view.font())
        self._measuring.setHtml(html)
        self._measuring.setTextWidth(width)
        return int(self._measuring.size().height()) + 2 * self.PAD

    def _cached(self, row: LogRow, width: int) -> _Height | None:
        cached = self._heights.get(id(row))
        if cached is not None and cached.row is row and cached.width == width:
            return cached
        return None

    def exact_height(self, row: LogRow) -> int:
        """The row's height at the view's current width, its text laid out."""
        width = self.text_width()
        cached = self._cached(row, width)
        if cached is not None and cached.exact:
            return cached.pixels
        if row.kind is RowKind.TURN:
            pixels = self._turn_height(row, width)
        else:
            pixels = self._measure(row_html(row), width)
        self._heights[id(row)] = _Height(row, width, pixels, exact=True)
        return pixels

    def layout_height(self, row: LogRow, width: int) -> tuple[int, bool]:
        """The row's height at ``width`` (``text_width()``, asked once for many
        rows) and whether it is exact: the measured height when known, else an
        estimate that costs no layout."""
        cached = self._cached(row, width)
        if cached is not None:
            return cached.pixels, cached.exact
        if row.kind is RowKind.TURN:
            return self.exact_height(row), True
        pixels = self._estimate(row, width)
        self._heights[id(row)] = _Height(row, width, pixels, exact=False)
        return pixels, False

    def _turn_height(self, row: LogRow, width: int) -> int:
        pixels = self._turn_heights.get(width)
        if pixels is None:
            pixels = self._turn_heights[width] = self._measure(row_html(row), width)
        return pixels

    def _char_widths(self) -> tuple[float, float]:
        """The view font's average character width, plain and bold."""
        if self._average_chars is None:
            font = self._view.font()
            bold = QFont(font)
            bold.setBold(True)
            self._average_chars = (
                QFontMetricsF(font).averageCharWidth(),
                QFontMetricsF(bold).averageCharWidth(),
            )
        return self._average_chars

    def _advances(self, row: LogRow) -> tuple[float, ...]:
        """How wide each line of the row runs unwrapped, in pixels, by its length
        in average characters (the same at every width: kept)."""
        cached = self._line_advances.get(id(row))
        if cached is not None and cached[0] is row:
            return cached[1]
        plain, bold = self._char_widths()
        small = plain * SMALL_FONT_SCALE
        advances = tuple(
            len(line.text) * (bold if line.tone in BOLD_TONES else plain)
            + ((len(line.citation) + 3) * small if line.citation else 0.0)
            for line in row.lines
        )
        self._line_advances[id(row)] = (row, advances)
        return advances

    def _estimate(self, row: LogRow, width: int) -> int:
        """The lines each line's text needs at ``width`` (``_advances``), times the
        height of a laid-out line: right for most lines (those that do not wrap),
        a line off at times for the others; shaping the text to know better costs
        as much as laying it out."""
        line_height = self._line_heights.get(width)
        if line_height is None:
            one_line = self._measure("<div>Mg</div>", width) - 2 * self.PAD
            line_height = self._line_heights[width] = one_line
        first_room = max(1, width)
        room = max(1, width - self.INDENT)
        advances = self._advances(row)
        lines = sum(max(1, math.ceil(advance / room)) for advance in advances[1:])
        if advances:
            lines += max(1, math.ceil(advances[0] / first_room))
        return lines * line_height + 2 * self.PAD

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _INDEX) -> None:
        row: LogRow | None = index.data(ROW_ROLE)
        if row is None:
            super().paint(painter, option, index)
            return
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        hovered = bool(option.state & QStyle.StateFlag.State_MouseOver)
        palette = option.palette
        if selected:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.Highlight).lighter(170))
        elif hovered:
            painter.fillRect(option.rect, QColor(255, 179, 0, 40))
        elif row.kind is RowKind.TURN:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.AlternateBase))
        if row.kind is RowKind.ATTACK:
            painter.setPen(QColor(120, 96, 62, 90))
            painter.drawLine(option.rect.bottomLeft(), option.rect.bottomRight())
        doc = self._document(row, self.text_width())
        # Right after a resize a row may keep its old height for a moment: never
        # draw into the next one.
        painter.setClipRect(option.rect)
        painter.translate(option.rect.left() + self.PAD, option.rect.top() + self.PAD)
        doc.drawContents(painter, QRectF(0, 0, doc.textWidth(), doc.size().height()))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: _INDEX) -> QSize:
        row: LogRow | None = index.data(ROW_ROLE)
        if row is None:
            return super().sizeHint(option, index)
        width = self.text_width()
        return QSize(width, self.layout_height(row, width)[0])


class RowHeights(QObject):
    """Keeps the heights of the log view's rows (the sections of its vertical
    header), so that Qt never asks every row for its size. The rows a command adds
    are measured at once. A whole log (shown, filtered, given a new width) gets
    estimates first, then the rows on screen are measured at once and the others a
    few milliseconds at a time while the program is idle, nearest the screen
    first; a row measured above the screen keeps the screen where it was."""

    CHUNK_SECONDS = 0.005  # short enough not to be felt between two key presses

    def __init__(
        self, view: QTableView, model: CombatLogFilterModel, delegate: LogRowDelegate
    ) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._delegate = delegate
        self._measured_width = -1  # the text width the heights were set for
        self._stale = True  # rows arrived while the view was hidden
        self._queue: list[int] = []  # shown rows still estimated; the next is last
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._on_timer_timeout)
        model.rowsInserted.connect(self._on_model_rows_inserted)
        model.modelReset.connect(self._on_model_reset)

    @property
    def estimated(self) -> int:
        """How many shown rows still have an estimated height."""
        return len(self._queue)

    def measure_all_now(self) -> None:
        """Measure every estimated row now (the idle work, done at once)."""
        while self._queue:
            self._refine(float("inf"))

    def on_viewport_shown_or_resized(self) -> None:
        if self._stale or self._delegate.text_width() != self._measured_width:
            self.size_all(keep_top_row=not self._stale)

    def size_all(self, *, keep_top_row: bool = False) -> None:
        """Every shown row: its height if known, else an estimate; then the rows
        on screen measured, and the rest queued for idle time. The view stays at
        the bottom if it was there, else, with ``keep_top_row`` (the same rows at
        a new width), on the row at its top."""
        view = self._view
        if not view.isVisible():
            self._stale = True
            return
        self._stale = False
        self._measured_width = self._delegate.text_width()
        at_bottom = self._at_bottom()
        top_row = view.rowAt(0) if keep_top_row else -1
        top_offset = view.rowViewportPosition(top_row) if top_row >= 0 else 0
        estimated: list[int] = []
        header = view.verticalHeader()
        layout_height = self._delegate.layout_height
        width = self._measured_width
        # With updates off, a resize skips working out where its section sits
        # (which walks every section): setting every row stays linear.
        header.setUpdatesEnabled(False)
        try:
            for shown_row, row in enumerate(self._model.shown_rows()):
                pixels, exact = layout_height(row, width)
                header.resizeSection(shown_row, pixels)
                if not exact:
                    estimated.append(shown_row)
        finally:
            header.setUpdatesEnabled(True)
        if at_bottom:
            view.scrollToBottom()
        elif top_row >= 0:
            view.updateGeometries()  # the scroll range of the new heights
            view.verticalScrollBar().setValue(header.sectionPosition(top_row) - top_offset)
        self._queue_nearest_screen_first(estimated)
        for _ in range(3):  # the screen's rows; measuring them can bring others on
            if not self._measure_screen():
                break
        if self._queue:
            self._timer.start()
        view.viewport().update()

    def _row(self, shown_row: int) -> LogRow:
        row: LogRow = self._model.index(shown_row, 0).data(ROW_ROLE)
        return row

    def _screen_rows(self) -> tuple[int, int]:
        count = self._model.rowCount()
        top = self._view.rowAt(0)
        bottom = self._view.rowAt(self._view.viewport().height() - 1)
        return (max(top, 0), count - 1 if bottom < 0 else bottom)

    def _queue_nearest_screen_first(self, estimated: list[int]) -> None:
        top, bottom = self._screen_rows()
        on_screen = [r for r in estimated if top <= r <= bottom]
        above = [r for r in reversed(estimated) if r < top]
        below = [r for r in estimated if r > bottom]
        self._queue = [*on_screen, *above, *below][::-1]

    def _measure_screen(self) -> bool:
        """Measure the estimated rows on screen; whether any was."""
        top, bottom = self._screen_rows()
        visible = [r for r in self._queue if top <= r <= bottom]
        if not visible:
            return False
        chosen = set(visible)
        self._queue = [r for r in self._queue if r not in chosen]
        self._apply(visible)
        return True

    def _refine(self, seconds: float) -> None:
        """Measure queued rows for about ``seconds``, nearest the screen first."""
        deadline = time.perf_counter() + seconds
        count = self._model.rowCount()
        batch: list[int] = []
        while self._queue and time.perf_counter() < deadline:
            shown_row = self._queue.pop()
            if shown_row < count:  # else an undo took it away meanwhile
                self._delegate.exact_height(self._row(shown_row))  # kept for _apply
                batch.append(shown_row)
        self._apply(batch)

    def _apply(self, shown_rows: list[int]) -> None:
        """Set the exact heights of ``shown_rows``, keeping the screen in place."""
        view = self._view
        header = view.verticalHeader()
        count = self._model.rowCount()
        at_bottom = self._at_bottom()
        top = view.rowAt(0)
        shift = 0
        header.setUpdatesEnabled(False)
        try:
            for shown_row in shown_rows:
                if shown_row >= count:  # an undo took it away meanwhile
                    continue
                pixels = self._delegate.exact_height(self._row(shown_row))
                old = header.sectionSize(shown_row)
                if pixels != old:
                    header.resizeSection(shown_row, pixels)
                    if shown_row < top:
                        shift += pixels - old
        finally:
            header.setUpdatesEnabled(True)
        bar = view.verticalScrollBar()
        if at_bottom:
            view.scrollToBottom()
        elif shift:
            bar.setValue(bar.value() + shift)

    def _at_bottom(self) -> bool:
        bar = self._view.verticalScrollBar()
        return bar.value() >= bar.maximum()

    def _on_timer_timeout(self) -> None:
        self._refine(self.CHUNK_SECONDS)
        if not self._queue:
            self._timer.stop()

    def _on_model_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        # Rows arrive a command's at a time, at the end (a new filter resets the
        # list): measured at once.
        if not self._view.isVisible():
            self._stale = True
            return
        self._apply(list(range(first, last + 1)))

    def _on_model_reset(self) -> None:
        self.size_all()


class CombatLogPane(QDockWidget):
    def __init__(
        self,
        controller: BattleController,
        parent: QWidget | None = None,
        settings: QSettings | None = None,
    ) -> None:
        """``settings``: where the export remembers its folders (the program's own
        settings by default)."""
        super().__init__(parent)
        configure_dock(self, "combatLogPane", "Combat log")
        self._controller = controller
        self._settings = settings if settings is not None else user_settings()
        self._hovered: int = -1
        self._combatant_choices: tuple[tuple[str, str], ...] = ()

        # Both models belong to the pane, so Qt deletes them after the view that
        # reads them (unowned, Python could free them first at exit: a crash).
        self.entries = CombatLogModel(self)  # every row
        self.model = CombatLogFilterModel(self.entries, self)  # the rows shown: the view's model
        self.view = QTableView()
        self.view.setObjectName("combatLogView")
        self.view.setModel(self.model)
        self.delegate = LogRowDelegate(self.view)
        self.view.setItemDelegate(self.delegate)
        self.row_heights = RowHeights(self.view, self.model, self.delegate)
        self._configure_view()

        self.combatant_box = QComboBox()
        self.combatant_box.setObjectName("combatLogCombatant")
        self.combatant_box.setToolTip("Show only the entries that name this combatant")
        # Narrow in the pane whatever the names; the list that drops down is wide.
        self.combatant_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.combatant_box.setMinimumContentsLength(9)
        self.search_box = QLineEdit()
        self.search_box.setObjectName("combatLogSearch")
        self.search_box.setPlaceholderText("Search")
        self.search_box.setClearButtonEnabled(True)
        self.search_box.setToolTip("Show only the entries whose text contains this (any case)")
        self.combatant_box.currentIndexChanged.connect(self._on_combatant_box_current_index_changed)
        self.search_box.textChanged.connect(self._on_search_box_text_changed)

        self._make_actions()
        self.count_label = QLabel()
        self.count_label.setStyleSheet(f"color:{MUTED.name()}")
        self._lay_out()

        controller.battle_changed.connect(self._on_controller_battle_changed)
        controller.battle_reset.connect(self._on_controller_battle_reset)
        self.rebuild()

    def _configure_view(self) -> None:
        view = self.view
        view.horizontalHeader().hide()
        view.horizontalHeader().setStretchLastSection(True)
        rows = view.verticalHeader()
        rows.hide()
        rows.setMinimumSectionSize(1)
        # Heights are set per row (``RowHeights``); Qt never asks all rows for theirs.
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.setShowGrid(False)
        view.setWordWrap(True)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setMouseTracking(True)
        view.viewport().installEventFilter(self)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._on_view_custom_context_menu_requested)

    def _make_actions(self) -> None:
        self.copy_action = QAction("&Copy", self)
        self.copy_action.setObjectName("copyLogAction")
        self.copy_action.setShortcuts(key_sequences("copy_log"))
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.copy_action.setToolTip(
            "Copy the selected entries (all entries shown if none is selected)"
        )
        self.copy_action.triggered.connect(self.copy)
        self.view.addAction(self.copy_action)
        self.copy_all_action = QAction("Copy &all", self)
        self.copy_all_action.triggered.connect(self.copy_all)
        self.export_markdown_action = QAction("Export as &Markdown…", self)
        self.export_markdown_action.setObjectName("exportLogMarkdownAction")
        self.export_markdown_action.triggered.connect(self._on_export_markdown_action_triggered)
        self.export_html_action = QAction("Export as &HTML…", self)
        self.export_html_action.setObjectName("exportLogHtmlAction")
        self.export_html_action.triggered.connect(self._on_export_html_action_triggered)

    def _lay_out(self) -> None:
        self.copy_button = QToolButton()
        self.copy_button.setObjectName("copyLogButton")
        self.copy_button.setDefaultAction(self.copy_action)
        self.copy_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        export_menu = QMenu(self)
        export_menu.addAction(self.export_markdown_action)
        export_menu.addAction(self.export_html_action)
        self.export_button = QToolButton()
        self.export_button.setObjectName("exportLogButton")
        self.export_button.setText("Export")
        self.export_button.setToolTip("Save the entries shown as Markdown or HTML")
        self.export_button.setMenu(export_menu)
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)

        filters = QHBoxLayout()
        filters.setContentsMargins(0, 0, 0, 0)
        filters.setSpacing(3)
        filters.addWidget(self.combatant_box)
        filters.addWidget(self.search_box, 1)
        footer = QHBoxLayout()
        footer.setContentsMargins(0, 0, 0, 0)
        footer.addWidget(self.count_label, 1)
        footer.addWidget(self.export_button)
        footer.addWidget(self.copy_button)
        body, layout = pane_body("", 4)
        layout.addLayout(filters)
        layout.addWidget(self.view, 1)
        layout.addLayout(footer)
        self.setWidget(body)

    # --- content ---------------------------------------------------------------------
    @property
    def rows(self) -> tuple[LogRow, ...]:
        """Every row of the log, shown or filtered out."""
        return self.entries.rows

    def shown_rows(self) -> list[LogRow]:
        """The rows the log shows now, top to bottom."""
        return self.model.shown_rows()

    def _with_note(self, index: int, rows: Sequence[LogRow]) -> Sequence[LogRow]:
        """``rows`` of command ``index``, after the row of its note if it has one (a
        computer fighter's reason, kept with the command: rules.battle.notes), with
        the best choices not taken in its tooltip."""
        note = self._controller.battle.note(index)
        if note is None:
            return rows
        # One line a reason: the decision's, then its defenders' answers' (a line each).
        lines = tuple(
            LogLine(text, "", Tone.NOTE, DecisionNote(text=text), note.detail)
            for text in note.reason.split("\n")
        )
        return (LogRow(RowKind.EVENT, lines, (), (note.combatant_id,)), *rows)

    def rebuild(self) -> None:
        """Render the whole battle's events afresh (new battle, load, replay)."""
        battle = self._controller.battle
        formatter = self._formatter()
        groups: list[tuple[int, Sequence[LogRow]]] = [
            (NO_COMMAND, (turn_separator(battle.initial.turn),))
        ]
        for index, (batch, rolls) in enumerate(
            zip(battle.event_batches, battle.table_roll_log, strict=True)
        ):
            rows = with_entered_dice(rows_for_events(batch, formatter), rolls)
            groups.append((index, self._with_note(index, rows)))
        self.delegate.clear_cache()
        self.entries.set_rows(groups)
        self._refresh_combatant_choices()
        self._after_change()

    def _on_controller_battle_reset(self) -> None:
        self.clear_filter()  # another battle: its whole log, not the last one's filter
        self.rebuild()

    def _on_controller_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        if change.kind is ChangeKind.UNDONE:
            dropped = self.entries.drop_commands_from(change.index)
        else:
            # The one place a command's rows are made from its change: the rolls
            # BattleChange says were entered at the table get their lines here.
            rows = rows_for_events(redraw.log_events, self._formatter())
            rows = with_entered_dice(rows, change.table_rolls)
            dropped = self.entries.put_command(change.index, self._with_note(change.index, rows))
        self.delegate.forget(dropped)
        if redraw.panes:
            self._refresh_combatant_choices()
        self._after_change()

    def _formatter(self) -> LogFormatter:
        """The formatter of the battle shown now (a new battle may be another ruleset's)."""
        return ruleset_ui(self._controller.state.ruleset_key).log_formatter

    def _after_change(self) -> None:
        self._show_count()
        self.view.scrollToBottom()

    def _show_count(self) -> None:
        total = self.entries.entry_count
        noun = "entry" if total == 1 else "entries"
        if self.model.log_filter.active:
            self.count_label.setText(f"{self.model.shown_entry_count()} of {total} {noun}")
        else:
            self.count_label.setText(f"{total} {noun}")

    # --- filter and search ---------------------------------------------------------------
    def _refresh_combatant_choices(self) -> None:
        """Everyone, then each combatant of the battle by name (its id as the data)."""
        choices = tuple((c.id, c.fighter.name or c.id) for c in self._controller.state.combatants)
        if choices == self._combatant_choices:
            return
        self._combatant_choices = choices
        chosen = self.model.log_filter.combatant
        box = self.combatant_box
        box.blockSignals(True)
        try:
            box.clear()
            box.addItem("Everyone", None)
            for combatant_id, name in choices:
                box.addItem(name, combatant_id)
            found = box.findData(chosen) if chosen is not None else 0
            box.setCurrentIndex(max(found, 0))
        finally:
            box.blockSignals(False)
        if chosen is not None and box.currentData() is None:  # the combatant is gone
            self._apply_filter()

    def set_filter(self, log_filter: LogFilter) -> None:
        """Show only the entries ``log_filter`` lets through (as the boxes do)."""
        self.model.set_filter(log_filter)
        self._show_count()
        self.view.scrollToBottom()

    def clear_filter(self) -> None:
        """Everyone and no search text: the whole log shows."""
        for box in (self.combatant_box, self.search_box):
            box.blockSignals(True)
        try:
            self.combatant_box.setCurrentIndex(0)
            self.search_box.clear()
        finally:
            for box in (self.combatant_box, self.search_box):
                box.blockSignals(False)
        self.set_filter(LogFilter())

    def _apply_filter(self) -> None:
        combatant = self.combatant_box.currentData()
        self.set_filter(
            LogFilter(combatant if isinstance(combatant, str) else None, self.search_box.text())
        )

    def _on_combatant_box_current_index_changed(self, index: int) -> None:
        self._apply_filter()

    def _on_search_box_text_changed(self, text: str) -> None:
        self._apply_filter()

    def filter_note(self) -> str:
        """The filter in words ("" when the log shows everything)."""
        log_filter = self.model.log_filter
        if not log_filter.active:
            return ""
        parts = []
        if log_filter.combatant is not None:
            name = dict(self._combatant_choices).get(log_filter.combatant, log_filter.combatant)
            parts.append(f"naming {name}")
        if log_filter.text:
            parts.append(f"containing “{log_filter.text}”")
        return "Only the entries " + " and ".join(parts)

    # --- copying -----------------------------------------------------------------------
    def selected_rows(self) -> list[LogRow]:
        """The selected rows, top to bottom."""
        indexes = sorted(self.view.selectionModel().selectedRows(), key=lambda i: i.row())
        return [index.data(ROW_ROLE) for index in indexes]

    def selected_text(self) -> str:
        rows = self.selected_rows() or self.shown_rows()
        return "\n".join(r.plain_text() for r in rows)

    def copy(self) -> None:
        """The selected entries (every entry shown if none is) to the clipboard, as
        plain text."""
        self._put_on_clipboard(self.selected_rows() or self.shown_rows())

    def copy_all(self) -> None:
        self._put_on_clipboard(self.shown_rows())

    def _put_on_clipboard(self, rows: Sequence[LogRow]) -> None:
        # Text only: a QMimeData made here (for HTML) would be a Python object that
        # the clipboard owns; where Qt keeps the clipboard in a global (offscreen),
        # deleting it at exit calls into a Python already gone, and the process crashes.
        QApplication.clipboard().setText("\n".join(r.plain_text() for r in rows))

    def context_menu(self) -> QMenu:
        """The entries' context menu: copy the entry (a right-click selects it
        first), copy all, export."""
        menu = QMenu(self)
        menu.addAction(self.copy_action)
        menu.addAction(self.copy_all_action)
        menu.addSeparator()
        menu.addAction(self.export_markdown_action)
        menu.addAction(self.export_html_action)
        return menu

    def _on_view_custom_context_menu_requested(self, pos: QPoint) -> None:
        menu = self.context_menu()
        menu.exec(self.view.viewport().mapToGlobal(pos))
        menu.deleteLater()

    # --- export ------------------------------------------------------------------------
    def export_caption(self) -> str:
        """The export dialog's title: what will be written."""
        shown = self.model.shown_entry_count()
        if self.model.log_filter.active:
            return f"Export the {shown} entries shown (the filter applies)"
        return f"Export the whole combat log ({shown} entr{'y' if shown == 1 else 'ies'})"

    def export_to(self, path: Path, fmt: ExportFormat) -> None:
        """Write the rows shown to ``path``, with the filter's note when one is on."""
        export_log(path, self.shown_rows(), fmt, self.filter_note())

    def _on_export_markdown_action_triggered(self) -> None:
        self._ask_and_export(ExportFormat.MARKDOWN)

    def _on_export_html_action_triggered(self) -> None:
        self._ask_and_export(ExportFormat.HTML)

    def _ask_and_export(self, fmt: ExportFormat) -> None:
        path = ask_export_path(
            self,
            self._settings,
            self.export_caption(),
            f"combat-log{fmt.suffix}",
            f"{fmt.label} (*{fmt.suffix})",
        )
        if path is None:
            return
        if not path.suffix:
            path = path.with_suffix(fmt.suffix)
        try:
            self.export_to(path, fmt)
        except OSError as error:
            QMessageBox.warning(self, "Export failed", f"Could not write {path}: {error.strerror}")

    # --- hover highlights the map; a new width re-measures the rows --------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view.viewport():
            kind = event.type()
            if kind is QEvent.Type.MouseMove and isinstance(event, QMouseEvent):
                self.hover_row(self.view.indexAt(event.position().toPoint()).row())
            elif kind is QEvent.Type.Leave:
                self.hover_row(-1)
            elif kind in (QEvent.Type.Resize, QEvent.Type.Show):
                self.row_heights.on_viewport_shown_or_resized()
            elif kind is QEvent.Type.FontChange:  # every height and text anew
                self.delegate.clear_cache()
                self.row_heights.size_all()
        return super().eventFilter(watched, event)

    def hover_row(self, row: int) -> None:
        """Highlight the hexes of shown row ``row`` (-1: none) on the map."""
        if row == self._hovered:
            return
        self._hovered = row
        shown: LogRow | None = (
            self.model.index(row, 0).data(ROW_ROLE) if 0 <= row < self.model.rowCount() else None
        )
        self._controller.highlight(shown.hexes if shown is not None else ())
