"""Small widgets and helpers shared by the panes: side swatches, HP bars, section
headings, muted citation text and compact number grids.

Nothing here knows the rules; the panes pass in numbers the rules computed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QIcon,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDockWidget,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from app.theme import HP_BACK, HP_GREY, SIDE_COLOURS, TOKEN_RIM, hp_colour
from rules.battle.model import Side, Status

# Pane geometry: every dock must fit a 1366x768 laptop next to the map (<= 300).
PANE_MIN_WIDTH = 240
HEALTH_MIN_WIDTH = 56  # the health bar's column: "12/12" and its bar

MUTED = QColor("#7a7166")  # citations and secondary text
BAD_TEXT = QColor("#c62828")
WARN_BACK = QColor("#fdecea")

# Item-data role carrying a combatant id in the panes' models.
ID_ROLE = int(Qt.ItemDataRole.UserRole) + 1
# Item-data role carrying (Health, status) for the health bar delegate: the
# ruleset's words for how the fighter is (rules.sets.protocol.Health).
HP_ROLE = int(Qt.ItemDataRole.UserRole) + 2

_swatch_cache: dict[tuple[Side, int, bool], QIcon] = {}


def clear_swatches() -> None:
    """Forget the side swatches drawn so far (the side colours changed)."""
    _swatch_cache.clear()


def side_swatch(side: Side, size: int = 12, hollow: bool = False) -> QIcon:
    """A filled circle in the side's colour (hollow for the fallen)."""
    key = (side, size, hollow)
    icon = _swatch_cache.get(key)
    if icon is None:
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(TOKEN_RIM, 1))
        colour = SIDE_COLOURS[side]
        painter.setBrush(Qt.BrushStyle.NoBrush if hollow else colour)
        if hollow:
            painter.setPen(QPen(colour, 2))
        painter.drawEllipse(QRectF(1.5, 1.5, size - 3, size - 3))
        painter.end()
        icon = QIcon(pixmap)
        _swatch_cache[key] = icon
    return icon


def status_colour(status: Status) -> QColor | None:
    """Text colour for a status (None: the palette's normal text)."""
    if status is Status.ACTIVE:
        return None
    if status is Status.STUNNED:
        return QColor("#b26a00")
    return MUTED


def muted_html(text: str) -> str:
    """Escaped text in the muted citation style, for rich-text labels."""
    return f'<span style="color:{MUTED.name()}">{escape(text)}</span>'


class HpBarDelegate(QStyledItemDelegate):
    """Paints ``HP_ROLE`` = (health, status) as a thin bar under the health's text
    ("8/11", "Very Hurt")."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        data = index.data(HP_ROLE)
        if not data:
            super().paint(painter, option, index)
            return
        health, status = data
        painter.save()
        style = option.widget.style() if option.widget is not None else None
        if style is not None:
            # Background and selection highlight, without the text.
            opt = QStyleOptionViewItem(option)
            self.initStyleOption(opt, index)
            opt.text = ""
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, opt.widget)
        rect = QRect(option.rect).adjusted(3, 3, -3, -3)
        bar = QRect(rect.left(), rect.bottom() - 4, rect.width(), 4)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(HP_BACK)
        painter.drawRoundedRect(bar, 2, 2)
        fraction = float(health.fraction)
        if fraction > 0:
            filled = QRect(bar)
            filled.setWidth(max(2, round(bar.width() * fraction)))
            alive = status in (Status.ACTIVE, Status.STUNNED)
            painter.setBrush(hp_colour(fraction) if alive else HP_GREY)
            painter.drawRoundedRect(filled, 2, 2)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        text_colour = option.palette.color(role)
        if fraction <= 0 and not selected:
            text_colour = BAD_TEXT
        painter.setPen(text_colour)
        text_rect = QRect(rect.left(), rect.top(), rect.width(), rect.height() - 5)
        painter.drawText(
            text_rect, Qt.AlignmentFlag.AlignCenter | Qt.AlignmentFlag.AlignVCenter, health.text
        )
        painter.restore()

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        hint = super().sizeHint(option, index)
        data = index.data(HP_ROLE)
        text = option.fontMetrics.horizontalAdvance(data[0].text) + 10 if data else 0
        return QSize(max(hint.width(), text, HEALTH_MIN_WIDTH), hint.height() + 6)


def section_label(text: str) -> QLabel:
    """A small bold heading between groups of a pane."""
    label = QLabel(text)
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    label.setContentsMargins(0, 6, 0, 0)
    return label


def muted_label(object_name: str, text: str = "", *, word_wrap: bool = False) -> QLabel:
    """A label in the muted colour, for hints and notes beside the main content."""
    label = QLabel(text)
    label.setObjectName(object_name)
    label.setWordWrap(word_wrap)
    label.setStyleSheet(f"color:{MUTED.name()}")
    return label


def buddy_label(text: str, buddy: QWidget) -> QLabel:
    """A caption whose mnemonic ("&Dice") puts the focus on ``buddy``."""
    label = QLabel(text)
    label.setBuddy(buddy)
    return label


def hline() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line


class StatGrid(QWidget):
    """A compact grid of "NAME value" pairs, ``columns`` pairs per row.

    ``set_values`` replaces the values in place; the labels keep stable object
    names (``stat_<key>``) so tests and screen readers can find them.
    """

    def __init__(self, keys: Sequence[tuple[str, str]], columns: int = 4,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(2)
        self._values: dict[str, QLabel] = {}
        for i, (key, caption) in enumerate(keys):
            row, col = divmod(i, columns)
            name = QLabel(caption)
            name.setStyleSheet(f"color:{MUTED.name()}")
            value = QLabel("–")
            value.setObjectName(f"stat_{key}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            bold = QFont(value.font())
            bold.setBold(True)
            value.setFont(bold)
            grid.addWidget(name, row, col * 2, Qt.AlignmentFlag.AlignRight)
            grid.addWidget(value, row, col * 2 + 1, Qt.AlignmentFlag.AlignLeft)
            self._values[key] = value
        for col in range(columns):
            grid.setColumnStretch(col * 2 + 1, 1)

    def set_value(self, key: str, text: str, tooltip: str = "") -> None:
        label = self._values[key]
        label.setText(text)
        label.setToolTip(tooltip)

    def value(self, key: str) -> str:
        return self._values[key].text()

    def clear(self) -> None:
        for label in self._values.values():
            label.setText("–")
            label.setToolTip("")


def configure_dock(dock: QDockWidget, object_name: str, title: str) -> None:
    """The settings every pane shares: stable object name, title, movable/floatable."""
    dock.setObjectName(object_name)
    dock.setWindowTitle(title)
    dock.setFeatures(
        QDockWidget.DockWidgetFeature.DockWidgetMovable
        | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        | QDockWidget.DockWidgetFeature.DockWidgetClosable
    )
    dock.setMinimumWidth(PANE_MIN_WIDTH)


def pane_body(object_name: str, margin: int, spacing: int = 3) -> tuple[QWidget, QVBoxLayout]:
    """A pane's content widget and its vertical layout, which keeps ``margin`` pixels
    round the parts and ``spacing`` between them; the caller adds the parts."""
    body = QWidget()
    body.setObjectName(object_name)
    layout = QVBoxLayout(body)
    layout.setContentsMargins(margin, margin, margin, margin)
    layout.setSpacing(spacing)
    return body, layout


def set_view_with_footer(
    dock: QDockWidget, view: QWidget, note: QLabel, button: QWidget, *, spacing: int
) -> None:
    """The body the list panes share: ``view`` filling the dock above a footer of a
    stretching ``note`` and a ``button`` at its right end."""
    footer = QHBoxLayout()
    footer.setContentsMargins(0, 0, 0, 0)
    footer.addWidget(note, 1)
    footer.addWidget(button)
    body, layout = pane_body("", 4, spacing)
    layout.addWidget(view, 1)
    layout.addLayout(footer)
    dock.setWidget(body)


def caption_grid(rows: Sequence[tuple[str, QWidget]]) -> QGridLayout:
    """Input widgets under each other, each with its caption on the left (the
    caption's mnemonic, "Stat&us", focuses the widget); the widgets take the width."""
    grid = QGridLayout()
    grid.setContentsMargins(0, 0, 0, 0)
    grid.setHorizontalSpacing(6)
    grid.setVerticalSpacing(3)
    for row, (text, widget) in enumerate(rows):
        grid.addWidget(buddy_label(text, widget), row, 0)
        grid.addWidget(widget, row, 1)
    grid.setColumnStretch(1, 1)
    return grid


class VerticalScrollArea(QScrollArea):
    """A frameless scroll area that only scrolls vertically: its content is kept
    exactly as wide as the viewport, so wrapped labels wrap instead of being cut."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(content)
        content.setMinimumWidth(0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        content = self.widget()
        if content is not None:
            content.setMaximumWidth(max(self.viewport().width(), content.minimumSizeHint().width()))
        super().resizeEvent(event)


class FittedScrollArea(VerticalScrollArea):
    """A vertical scroll area that asks for its content's whole height at its
    width, and will not be squeezed below ``least()`` pixels of it (all of it
    when the content is shorter). Two of them in a column share it as the
    content needs: the one whose ``least`` is larger stays in view, the other
    scrolls. ``least`` is asked again at each layout (a section opened or closed)."""

    def __init__(
        self, content: QWidget, least: Callable[[], int], parent: QWidget | None = None
    ) -> None:
        super().__init__(content, parent)
        self._least = least
        content.installEventFilter(self)

    def content_height(self) -> int:
        """The content's height at the viewport's width."""
        content = self.widget()
        if content is None:
            return 0
        width = self.viewport().width()
        if content.hasHeightForWidth() and width > 0:
            return content.heightForWidth(width)
        return content.sizeHint().height()

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.content_height() + 2 * self.frameWidth())

    def minimumSizeHint(self) -> QSize:
        least = min(self.content_height(), max(0, self._least()))
        return QSize(super().minimumSizeHint().width(), least + 2 * self.frameWidth())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()  # the content grew or shrank: ask the column again
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()  # wrapped text is as tall as its width makes it


class WheelGuard(QObject):
    """Keeps the mouse wheel (and a trackpad's scroll) from changing a pane's combo
    box or spin box the pointer merely passes over: until the box has the focus (a
    click or Tab gives it, the wheel does not: ``StrongFocus``), the wheel scrolls
    the pane around it instead."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.Wheel
            and isinstance(watched, QComboBox | QAbstractSpinBox)
            and not watched.hasFocus()
            and isinstance(event, QWheelEvent)
        ):
            area = _scroll_area_around(watched)
            if area is not None:
                viewport = area.viewport()
                at = watched.mapTo(viewport, event.position().toPoint())
                scroll = QWheelEvent(
                    at.toPointF(), event.globalPosition(), event.pixelDelta(),
                    event.angleDelta(), event.buttons(), event.modifiers(), event.phase(),
                    event.inverted(), event.source(),
                )  # fmt: skip
                QApplication.sendEvent(viewport, scroll)
            return True  # the box never sees it
        return super().eventFilter(watched, event)


def _scroll_area_around(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea):
            return parent
        parent = parent.parentWidget()
    return None


def guard_wheel(pane: QWidget) -> None:
    """Put every combo box and spin box of ``pane`` behind one ``WheelGuard``: the
    wheel changes a box only once it has the focus, else it scrolls the pane."""
    guard = pane.findChild(WheelGuard, "wheelGuard")
    if guard is None:
        guard = WheelGuard(pane)
        guard.setObjectName("wheelGuard")
    for box in (*pane.findChildren(QComboBox), *pane.findChildren(QAbstractSpinBox)):
        box.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        box.removeEventFilter(guard)  # once each, however often the pane is guarded
        box.installEventFilter(guard)
