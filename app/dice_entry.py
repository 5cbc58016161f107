"""Physical dice: the GM rolls at the table and types each die into a small dialog.

``DiceEntryDialog`` asks for one roll (``rules.core.dice.DiceRequest``): it names
what is rolled ("Fencer's parry: 3d6") under the command it belongs to ("Attack:
Spearman → Fencer"), has one field per die, and keeps OK disabled until every die
shows a legal face. It is quick from the keyboard: a digit that completes a face
moves on to the next die, Backspace in an empty field goes back, Enter accepts and
Esc cancels. ``DiceEntryPrompt`` is what the controller calls for each roll
(``BattleController.set_dice_entry``); a cancelled dialog raises
``DiceEntryCancelled``, which abandons the command with nothing changed.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QRegularExpression, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QIcon,
    QKeyEvent,
    QPainter,
    QPen,
    QPixmap,
    QRegularExpressionValidator,
)
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.panes.widgets import BAD_TEXT, MUTED, muted_label
from hexmap import parse_digits
from rules.core.dice import DiceEntryCancelled, DiceRequest

FIELD_WIDTH = 44  # px: one die's field, wide enough for "20" in a large font
FIELD_POINT_SIZE = 16


class DiceEntryDialog(QDialog):
    """The faces of one roll, typed in die by die; ``faces()`` once accepted."""

    def __init__(
        self, request: DiceRequest, context: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("diceEntryDialog")
        self.setWindowTitle("Physical dice")
        self._request = request
        self._digits = len(str(request.high))

        self.context_label = muted_label("diceContext", context)
        self.context_label.setVisible(bool(context))
        self.what_label = QLabel(str(request) if request.what else f"A roll: {request.dice}")
        self.what_label.setObjectName("diceWhat")
        heading = self.what_label.font()
        heading.setBold(True)
        heading.setPointSizeF(heading.pointSizeF() * 1.25)
        self.what_label.setFont(heading)

        self.fields: list[QLineEdit] = []
        row = QHBoxLayout()
        digits_only = QRegularExpression(rf"[0-9]{{0,{self._digits}}}")
        validator = QRegularExpressionValidator(digits_only, self)
        for i in range(request.count):
            field = QLineEdit()
            field.setObjectName(f"die{i + 1}")
            field.setValidator(validator)
            field.setMaxLength(self._digits)
            field.setAlignment(Qt.AlignmentFlag.AlignCenter)
            field.setFixedWidth(FIELD_WIDTH)
            font = QFont(field.font())
            font.setPointSize(FIELD_POINT_SIZE)
            field.setFont(font)
            field.setPlaceholderText(f"{request.low}-{request.high}")
            field.setToolTip(f"Die {i + 1} of {request.count}: {request.low} to {request.high}")
            field.setAccessibleName(f"die {i + 1} of {request.dice}")
            field.textEdited.connect(self._on_field_text_edited)
            field.installEventFilter(self)
            row.addWidget(field)
            self.fields.append(field)
        row.addStretch(1)
        self.total_label = QLabel()
        self.total_label.setObjectName("diceTotal")
        row.addWidget(self.total_label)

        self.hint_label = QLabel()
        self.hint_label.setObjectName("diceHint")
        self.hint_label.setWordWrap(True)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.ok_button: QPushButton = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setDefault(True)
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setToolTip(
            "Abandon the command: nothing changes"
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.context_label)
        layout.addWidget(self.what_label)
        layout.addLayout(row)
        layout.addWidget(self.hint_label)
        layout.addWidget(self.buttons)
        self._check()
        if self.fields:
            self.fields[0].setFocus()

    @property
    def request(self) -> DiceRequest:
        return self._request

    def faces(self) -> tuple[int, ...]:
        """The faces typed in, in die order (every field legal: see ``complete``)."""
        return tuple(parse_digits(field.text()) or 0 for field in self.fields)

    @property
    def complete(self) -> bool:
        """Every die shows a legal face."""
        return all(self._legal(field.text()) for field in self.fields)

    def accept(self) -> None:
        if self.complete:  # Enter with a face missing or wrong does nothing
            super().accept()

    def _legal(self, text: str) -> bool:
        face = parse_digits(text)
        return face is not None and self._request.low <= face <= self._request.high

    def _on_field_text_edited(self, text: str) -> None:
        self._check()
        field = self.sender()
        # A face no further digit could extend is complete: on to the next die.
        if (
            isinstance(field, QLineEdit)
            and self._legal(text)
            and (parse_digits(text) or 0) * 10 > self._request.high
        ):
            self._focus_after(field)

    def _focus_after(self, field: QLineEdit) -> None:
        i = self.fields.index(field)
        if i + 1 < len(self.fields):
            self.fields[i + 1].setFocus()
            self.fields[i + 1].selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        # Backspace in an empty field goes back to the die before it.
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Backspace
            and isinstance(watched, QLineEdit)
            and watched in self.fields
            and not watched.text()
        ):
            i = self.fields.index(watched)
            if i > 0:
                self.fields[i - 1].setFocus()
                self.fields[i - 1].selectAll()
                return True
        return super().eventFilter(watched, event)

    def _check(self) -> None:
        """Mark a face no die shows, say what is missing, and allow OK only when
        every die is legal."""
        request = self._request
        wrong = []
        for field in self.fields:
            text = field.text()
            bad = bool(text) and not self._legal(text)
            field.setStyleSheet(f"color:{BAD_TEXT.name()}" if bad else "")
            if bad:
                wrong.append(text)
        self.ok_button.setEnabled(self.complete)
        if wrong:
            shown = ", ".join(wrong)
            self.hint_label.setText(
                f"{shown} is no face of a d{request.high}: each die shows "
                f"{request.low} to {request.high}."
            )
            self.hint_label.setStyleSheet(f"color:{BAD_TEXT.name()}")
        else:
            self.hint_label.setText("Type each die's face, then Enter. Esc cancels the command.")
            self.hint_label.setStyleSheet(f"color:{MUTED.name()}")
        self.total_label.setText(self._total_text())

    def _total_text(self) -> str:
        if not self.complete or len(self.fields) + abs(self._request.adds) <= 1:
            return ""
        total = sum(self.faces()) + self._request.adds
        return f"= {total}"


class DiceEntryPrompt:
    """Asks the GM for each roll of a command in a ``DiceEntryDialog`` over
    ``parent``: ``prompt(context, request)`` gives the faces, or raises
    ``DiceEntryCancelled`` when the GM cancels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self._parent = parent

    def __call__(self, context: str, request: DiceRequest) -> tuple[int, ...]:
        dialog = DiceEntryDialog(request, context, self._parent)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                raise DiceEntryCancelled(f"{context}: {request}" if context else str(request))
            return dialog.faces()
        finally:
            dialog.deleteLater()


def dice_icon() -> QIcon:
    """Two dice, for the toolbar's Physical dice switch."""
    size = 48
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.scale(size / 24.0, size / 24.0)
    ink = QColor("#3a3128")
    two = ((-1, -1), (1, 1))
    three = ((-1, -1), (0, 0), (1, 1))
    for x, y, angle, pips in ((2.0, 8.0, -12.0, two), (11.0, 3.0, 10.0, three)):
        p.save()
        p.translate(x + 5.5, y + 5.5)
        p.rotate(angle)
        p.setPen(QPen(ink, 1.3))
        p.setBrush(QColor("#fbf7ec"))
        p.drawRoundedRect(QRectF(-5.5, -5.5, 11, 11), 2.2, 2.2)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(ink)
        for column, row in pips:
            p.drawEllipse(QPointF(column * 2.9, row * 2.9), 1.15, 1.15)
        p.restore()
    p.end()
    return QIcon(pixmap)
