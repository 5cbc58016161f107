"""The combatants pane: every fighter with side, health (in the ruleset's terms:
hit points, or the worst wound of a wound track), status and facing.

Clicking a row selects the fighter in the controller; the row follows the
selection made on the map. Right-click ("Set as target") or Ctrl+click makes a row
the attack pane's target without changing the selection.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    Qt,
)
from PySide6.QtGui import QFont, QMouseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHeaderView,
    QMenu,
    QPushButton,
    QTableView,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.new_battle import duplicate_fighter_action
from app.panes.labels import penalty_lines, status_word
from app.panes.widgets import (
    HP_ROLE,
    ID_ROLE,
    MUTED,
    HpBarDelegate,
    configure_dock,
    muted_label,
    set_view_with_footer,
    side_swatch,
    status_colour,
)
from app.played_by_menu import add_played_by_menu
from rules.battle.battle import BattleChange
from rules.battle.model import Combatant, Status
from rules.battle.policy_settings import controller_text
from rules.battle.sides import side_name
from rules.battle.values import hex_name

_INDEX = QModelIndex | QPersistentModelIndex


class CombatantsModel(QAbstractTableModel):
    """Rows are ``BattleState.combatants`` in battle order."""

    NAME, HP, STATUS, FACING = range(4)
    HEADERS = ("Name", "HP", "Status", "Face")

    def __init__(self, controller: BattleController) -> None:
        super().__init__()
        self._controller = controller
        self._rows: tuple[Combatant, ...] = controller.state.combatants
        self._target: str | None = controller.target_id

    # --- refresh ---------------------------------------------------------------------
    def reload(self) -> None:
        """Take the controller's current state; a reset only if the roster changed."""
        rows = self._controller.state.combatants
        self._target = self._controller.target_id
        if [c.id for c in rows] != [c.id for c in self._rows]:
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()
            return
        self._rows = rows
        # A battle of another ruleset with the same ids names the health otherwise;
        # asked only now that no row is the last battle's.
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, self.HP, self.HP)
        if rows:
            last = self.index(len(rows) - 1, self.columnCount() - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    def row_of(self, combatant_id: str | None) -> int:
        for i, c in enumerate(self._rows):
            if c.id == combatant_id:
                return i
        return -1

    def combatant_at(self, row: int) -> Combatant:
        return self._rows[row]

    # --- Qt model --------------------------------------------------------------------
    def rowCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _INDEX = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation is Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if section == self.HP:
                return self._controller.ruleset.conditions.health_heading
            return self.HEADERS[section]
        return None

    def data(self, index: _INDEX, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        c = self._rows[index.row()]
        col = index.column()
        if role == ID_ROLE:
            return c.id
        if role == Qt.ItemDataRole.ToolTipRole:
            side = side_name(self._controller.state.sides, c.side)
            view = self._controller.ruleset.conditions.fighter_condition(c)
            lines = [
                f"{c.name} ({side}) at {hex_name(c.hex)}, facing {c.facing.label}",
                f"{self._controller.ruleset.conditions.health(c).tooltip}, "
                f"{status_word(view, c.status)}",
                *penalty_lines(view, c),
            ]
            policy = self._controller.state.controller(c.id)
            if policy is not None:  # the GM's own fighters, as before computer control
                lines.insert(1, f"Played by {controller_text(policy)}")
            return "\n".join(lines)
        if col == self.NAME:
            if role == Qt.ItemDataRole.DisplayRole:
                return ("◎ " if c.id == self._target else "") + c.name
            if role == Qt.ItemDataRole.DecorationRole:
                return side_swatch(c.side, hollow=c.status is Status.DEAD)
            if role == Qt.ItemDataRole.FontRole and c.status is Status.DEAD:
                font = QFont()
                font.setStrikeOut(True)
                return font
            if role == Qt.ItemDataRole.ForegroundRole:
                return status_colour(c.status)
        elif col == self.HP:
            if role == HP_ROLE:
                return (self._controller.ruleset.conditions.health(c), c.status)
            if role == Qt.ItemDataRole.DisplayRole:
                return self._controller.ruleset.conditions.health(c).text
        elif col == self.STATUS:
            # How the ruleset's condition view says the fighter is down, if it is:
            # a fighter paralysed below the neck is out of the fight though active.
            if role == Qt.ItemDataRole.DisplayRole:
                view = self._controller.ruleset.conditions.fighter_condition(c, details=False)
                return status_word(view, c.status)
            if role == Qt.ItemDataRole.ForegroundRole:
                view = self._controller.ruleset.conditions.fighter_condition(c, details=False)
                return MUTED if view.down is not None else status_colour(c.status)
        elif col == self.FACING:
            if role == Qt.ItemDataRole.DisplayRole:
                return c.facing.label
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return int(Qt.AlignmentFlag.AlignCenter)
        return None


class CombatantsPane(QDockWidget):
    """Dock listing the combatants; selection is two-way with the controller."""

    def __init__(self, controller: BattleController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        configure_dock(self, "combatantsPane", "Combatants")
        self._controller = controller
        self._syncing = False

        self.model = CombatantsModel(controller)
        self.table = QTableView()
        self.table.setObjectName("combatantsTable")
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(CombatantsModel.HP, HpBarDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionResizeMode(CombatantsModel.NAME, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(CombatantsModel.HP, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(CombatantsModel.STATUS, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(CombatantsModel.FACING, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._show_menu)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.table.activated.connect(lambda index: self._select_row(index.row()))

        self.table.viewport().installEventFilter(self)

        self.hint = muted_label(
            "combatantsHint", "Right-click or Ctrl+click: set target", word_wrap=True
        )
        self.clear_target_button = QPushButton("Clear tar&get")
        self.clear_target_button.setObjectName("clearTargetButton")
        self.clear_target_button.setToolTip("The attack pane will have no target")
        self.clear_target_button.clicked.connect(lambda: controller.set_target(None))

        set_view_with_footer(self, self.table, self.hint, self.clear_target_button, spacing=4)

        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self._reload)
        controller.selection_changed.connect(self._follow_selection)
        controller.target_changed.connect(self._on_target_changed)
        self._reload()

    # --- from the controller ----------------------------------------------------------
    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        if redraw.panes:
            self._reload()

    def _reload(self) -> None:
        self.model.reload()
        self._follow_selection(self._controller.selected_id)
        self._update_buttons()

    def _on_target_changed(self, _target: object) -> None:
        self.model.reload()
        self._update_buttons()

    def _follow_selection(self, combatant_id: object) -> None:
        row = self.model.row_of(combatant_id if isinstance(combatant_id, str) else None)
        selection = self.table.selectionModel()
        self._syncing = True
        try:
            if row < 0:
                selection.clearSelection()
                selection.setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.Clear)
            else:
                index = self.model.index(row, 0)
                selection.setCurrentIndex(
                    index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.table.scrollTo(index)
        finally:
            self._syncing = False
        self._update_buttons()

    # --- from the user ----------------------------------------------------------------
    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        self._select_row(current.row())

    def _select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self._controller.select(self.model.combatant_at(row).id)

    def set_target_row(self, row: int) -> None:
        """Make the fighter in ``row`` the target (not the selected one)."""
        if not 0 <= row < self.model.rowCount():
            return
        combatant_id = self.model.combatant_at(row).id
        if combatant_id == self._controller.selected_id:
            return
        self._controller.set_target(combatant_id)

    def _show_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            return
        menu = self.menu_for_row(index.row())
        menu.exec(self.table.viewport().mapToGlobal(pos))

    def menu_for_row(self, row: int) -> QMenu:
        """The right-click menu of the fighter in ``row``."""
        combatant = self.model.combatant_at(row)
        menu = QMenu(self)
        select = menu.addAction(f"Select {combatant.name}")
        select.triggered.connect(lambda: self._controller.select(combatant.id))
        target = menu.addAction(f"Set {combatant.name} as target")
        target.setEnabled(combatant.id != self._controller.selected_id)
        target.triggered.connect(lambda: self._controller.set_target(combatant.id))
        add_played_by_menu(menu, self._controller, combatant)
        duplicate_fighter_action(menu, self._controller, combatant)
        return menu

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Ctrl+click on a row sets the target without changing the selection."""
        if (
            watched is self.table.viewport()
            and event.type() is QEvent.Type.MouseButtonPress
            and isinstance(event, QMouseEvent)
            and event.button() is Qt.MouseButton.LeftButton
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            index = self.table.indexAt(event.position().toPoint())
            if index.isValid():
                self.set_target_row(index.row())
            return True
        return super().eventFilter(watched, event)

    def _update_buttons(self) -> None:
        self.clear_target_button.setEnabled(self._controller.target_id is not None)
