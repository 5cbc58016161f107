"""The banner across the top of the map once the battle is decided.

It names the winner (or the draw) and the round, says why, and offers what the
GM may do next: Undo takes the battle back, "Continue anyway" plays on
(``rules.battle.decision.ContinueBattle``, a command like any other). It reads the
decision from the state (``BattleState.outcome``), so it comes and goes with the
command, the undo, the redo or the file that brings or takes the decision.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app import theme
from app.controller import BattleController, Redraw
from app.help import keys_text, shortcut
from rules.battle.battle import BattleChange
from rules.battle.decision import ContinueBattle, awaiting_continue, decided_event

MARGIN = 12  # from the map's top edge, and the least from its sides
WIDTH = 560  # the banner's width where the map is wide enough
HEADLINE_SCALE = 1.6  # the headline's type, against the window's


class BattleBanner(QFrame):
    """Shown over ``map_view`` while the battle is decided and the GM has not
    chosen to play on; hidden otherwise."""

    def __init__(self, controller: BattleController, map_view: QWidget) -> None:
        super().__init__(map_view)
        self.setObjectName("battleBanner")
        self._controller = controller
        self.headline = QLabel()
        self.headline.setObjectName("battleBannerHeadline")
        font = QFont(self.headline.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * HEADLINE_SCALE)
        self.headline.setFont(font)
        self.detail = QLabel()
        self.detail.setObjectName("battleBannerDetail")
        self.detail.setWordWrap(True)
        self.continue_button = QPushButton("Continue anyway")
        self.continue_button.setObjectName("battleBannerContinue")
        self.continue_button.setToolTip("Play on past the battle's end (undone like any command)")
        self.continue_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.continue_button.clicked.connect(self._on_continue_button_clicked)

        words = QVBoxLayout()
        words.setContentsMargins(0, 0, 0, 0)
        words.setSpacing(2)
        words.addWidget(self.headline)
        words.addWidget(self.detail)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(14, 8, 14, 8)
        layout.setSpacing(14)
        layout.addLayout(words, 1)
        layout.addWidget(self.continue_button, 0, Qt.AlignmentFlag.AlignVCenter)

        map_view.installEventFilter(self)
        controller.battle_changed.connect(self._on_controller_battle_changed)
        controller.battle_reset.connect(self.refresh)
        self.hide()
        self.refresh()

    def refresh(self) -> None:
        """Show the decision the battle holds, or hide."""
        state = self._controller.state
        outcome = state.outcome
        if outcome is None or not awaiting_continue(state):
            self.hide()
            return
        decided = decided_event(state, outcome)
        self.headline.setText(decided.headline)
        undo_keys = keys_text(shortcut("undo")).split(", ")[0]
        self.detail.setText(
            f"Round {decided.round}: {decided.reason}. "
            f"Undo ({undo_keys}) takes the battle back; Continue anyway plays on."
        )
        accent = (
            theme.INK if outcome.winner is None else theme.SIDE_COLOURS[outcome.winner]
        ).name()
        self.setStyleSheet(
            f"#battleBanner {{ background: {theme.PARCHMENT.name()};"
            f" border: 3px solid {accent}; border-radius: 8px; }}"
            f" #battleBanner QLabel {{ color: {theme.INK.name()}; background: transparent; }}"
            f" #battleBanner QLabel#battleBannerHeadline {{ color: {accent}; }}"
        )
        self.show()
        self.raise_()
        self._place()

    def _place(self) -> None:
        """Across the top of the map, centred, no wider than the map allows."""
        parent = self.parentWidget()
        layout = self.layout()
        if parent is None or layout is None:
            return
        width = max(1, min(WIDTH, parent.width() - 2 * MARGIN))
        # The detail wraps: the height follows the width (margins and frame included).
        height = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else -1
        self.resize(width, max(height, layout.totalMinimumSize().height()))
        self.move((parent.width() - width) // 2, MARGIN)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        resized = watched is self.parentWidget() and event.type() == QEvent.Type.Resize
        if resized and not self.isHidden():
            self._place()
        return super().eventFilter(watched, event)

    def _on_controller_battle_changed(self, _change: BattleChange, _redraw: Redraw) -> None:
        self.refresh()

    def _on_continue_button_clicked(self) -> None:
        self._controller.execute(ContinueBattle())
