"""The combat log pane: renders the battle's events, never computes rules.

Rows come from ``app.event_text``, with the battle's ruleset's log formatter
(``app.rulesets``) for its own events; this module only draws them (rich text, one
``QTextDocument`` per visible row), highlights a hovered row's hexes on the map
through ``BattleController.highlight``, follows the newest entry and copies rows
as plain text.
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import QAction, QColor, QMouseEvent, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDockWidget,
    QLabel,
    QListView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.event_text import (
    LogFormatter,
    LogRow,
    RowKind,
    Tone,
    rows_for_batches,
    rows_for_events,
    turn_separator,
)
from app.help import key_sequences
from app.panes.widgets import MUTED, configure_dock, set_view_with_footer
from app.rulesets import ruleset_ui
from rules.battle.battle import BattleChange

_INDEX = QModelIndex | QPersistentModelIndex
ROW_ROLE = int(Qt.ItemDataRole.UserRole) + 10

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


class CombatLogModel(QAbstractListModel):
    def __init__(self) -> None:
        super().__init__()
        self._rows: list[LogRow] = []

    @property
    def rows(self) -> tuple[LogRow, ...]:
        return tuple(self._rows)

    def set_rows(self, rows: list[LogRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def append_rows(self, rows: tuple[LogRow, ...]) -> None:
        if not rows:
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        self.endInsertRows()

    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self._rows[index.row()]
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            return row.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.plain_text() if row.kind is not RowKind.TURN else None
        return None


class LogRowDelegate(QStyledItemDelegate):
    """Draws a row's rich text, wrapped to the view's width."""

    PAD = 3

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self._view = view
        self._cache: dict[tuple[int, int], QTextDocument] = {}

    def clear_cache(self) -> None:
        self._cache.clear()

    def _document(self, row: LogRow, width: int) -> QTextDocument:
        key = (id(row), width)
        doc = self._cache.get(key)
        if doc is None:
            doc = QTextDocument()
            doc.setDocumentMargin(0)
            doc.setDefaultFont(self._view.font())
            doc.setHtml(row_html(row))
            doc.setTextWidth(max(40, width))
            if len(self._cache) > 2000:
                self._cache.clear()
            self._cache[key] = doc
        return doc

    def _width(self) -> int:
        return self._view.viewport().width() - 2 * self.PAD

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
        doc = self._document(row, self._width())
        painter.translate(option.rect.left() + self.PAD, option.rect.top() + self.PAD)
        doc.drawContents(painter, QRectF(0, 0, doc.textWidth(), doc.size().height()))
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: _INDEX) -> QSize:
        row: LogRow | None = index.data(ROW_ROLE)
        if row is None:
            return super().sizeHint(option, index)
        doc = self._document(row, self._width())
        return QSize(self._width(), int(doc.size().height()) + 2 * self.PAD)


class CombatLogPane(QDockWidget):
    def __init__(self, controller: BattleController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        configure_dock(self, "combatLogPane", "Combat log")
        self._controller = controller
        self._hovered: int = -1

        self.model = CombatLogModel()
        self.view = QListView()
        self.view.setObjectName("combatLogView")
        self.view.setModel(self.model)
        self.delegate = LogRowDelegate(self.view)
        self.view.setItemDelegate(self.delegate)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setUniformItemSizes(False)
        self.view.setWordWrap(True)
        self.view.setMouseTracking(True)
        self.view.viewport().installEventFilter(self)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._show_menu)

        self.copy_action = QAction("&Copy", self)
        self.copy_action.setObjectName("copyLogAction")
        self.copy_action.setShortcuts(key_sequences("copy_log"))
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.copy_action.setToolTip("Copy the selected entries (all entries if none is selected)")
        self.copy_action.triggered.connect(self.copy)
        self.view.addAction(self.copy_action)
        self.copy_all_action = QAction("Copy &all", self)
        self.copy_all_action.triggered.connect(self.copy_all)

        self.copy_button = QToolButton()
        self.copy_button.setObjectName("copyLogButton")
        self.copy_button.setDefaultAction(self.copy_action)
        self.copy_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.count_label = QLabel()
        self.count_label.setStyleSheet(f"color:{MUTED.name()}")
        set_view_with_footer(self, self.view, self.count_label, self.copy_button, spacing=3)

        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self.rebuild)
        self.rebuild()

    # --- content ---------------------------------------------------------------------
    @property
    def rows(self) -> tuple[LogRow, ...]:
        return self.model.rows

    def rebuild(self) -> None:
        """Render the whole battle's events afresh (new battle, load, replay)."""
        battle = self._controller.battle
        rows = [
            turn_separator(battle.initial.turn),
            *rows_for_batches(battle.event_batches, self._formatter()),
        ]
        self.delegate.clear_cache()
        self.model.set_rows(rows)
        self._after_change()

    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        self.model.append_rows(rows_for_events(redraw.log_events, self._formatter()))
        self._after_change()

    def _formatter(self) -> LogFormatter:
        """The formatter of the battle shown now (a new battle may be another ruleset's)."""
        return ruleset_ui(self._controller.state.ruleset_key).log_formatter

    def _after_change(self) -> None:
        n = sum(1 for r in self.model.rows if r.kind is not RowKind.TURN)
        self.count_label.setText(f"{n} entr{'y' if n == 1 else 'ies'}")
        self.view.scrollToBottom()

    # --- copying -----------------------------------------------------------------------
    def selected_text(self) -> str:
        indexes = sorted(self.view.selectionModel().selectedRows(), key=lambda i: i.row())
        rows = [self.model.rows[i.row()] for i in indexes] or list(self.model.rows)
        return "\n".join(r.plain_text() for r in rows)

    def copy(self) -> None:
        QApplication.clipboard().setText(self.selected_text())

    def copy_all(self) -> None:
        QApplication.clipboard().setText("\n".join(r.plain_text() for r in self.model.rows))

    def _show_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        menu.addAction(self.copy_action)
        menu.addAction(self.copy_all_action)
        menu.exec(self.view.viewport().mapToGlobal(pos))

    # --- hover highlights the map -------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.view.viewport():
            kind = event.type()
            if kind is QEvent.Type.MouseMove and isinstance(event, QMouseEvent):
                self.hover_row(self.view.indexAt(event.position().toPoint()).row())
            elif kind is QEvent.Type.Leave:
                self.hover_row(-1)
            elif kind is QEvent.Type.Resize:
                self.delegate.clear_cache()
        return super().eventFilter(watched, event)

    def hover_row(self, row: int) -> None:
        """Highlight the hexes of ``row`` (-1: none) on the map."""
        if row == self._hovered:
            return
        self._hovered = row
        hexes = self.model.rows[row].hexes if 0 <= row < self.model.rowCount() else ()
        self._controller.highlight(hexes)
