"""Parts of the attack pane: a collapsible section, the adverse-conditions picker
and the odds panel.

Nothing here knows how an attack is resolved: the picker turns ticks into
``rules.sets.seed000.conditions.SelectedCondition`` values from the ruleset's catalog, and the
odds panel lays out the exact probabilities ``rules.sets.seed000.odds.attack_odds`` computed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.panes.widgets import BAD_TEXT, MUTED, muted_label
from app.rulesets.seed000.tables import seed000_tables
from rules.battle.model import Combatant, Status
from rules.battle.state import BattleState
from rules.core.errors import RulesError
from rules.sets.seed000.conditions import (
    Condition,
    ConditionCatalog,
    ConditionSide,
    ModifierRange,
    SelectedCondition,
)
from rules.sets.seed000.odds import percent as percent  # the pane formats odds as the rules do
from rules.sets.seed000.weapon_targets import can_strike_at_weapon

# --- a collapsible section ------------------------------------------------------------


class Collapsible(QWidget):
    """A heading button with an arrow that shows or hides its body. The button
    takes focus (Space toggles it), so the section works from the keyboard."""

    toggled = Signal(bool)

    def __init__(self, title: str, body: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.button = QToolButton()
        self.button.setText(title)
        self.button.setCheckable(True)
        self.button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.button.setArrowType(Qt.ArrowType.RightArrow)
        self.button.setAutoRaise(True)
        self.button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        font = self.button.font()
        font.setBold(True)
        self.button.setFont(font)
        self.body = body
        body.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.button)
        layout.addWidget(body)
        self.button.toggled.connect(self._toggled)

    def _toggled(self, on: bool) -> None:
        self.button.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.body.setVisible(on)
        self.toggled.emit(on)

    def is_expanded(self) -> bool:
        return self.button.isChecked()

    def set_expanded(self, on: bool) -> None:
        self.button.setChecked(on)


# --- the adverse-conditions picker ------------------------------------------------------

_KEY_ROLE = int(Qt.ItemDataRole.UserRole) + 10
_VALUE_ROLE = int(Qt.ItemDataRole.UserRole) + 11
_SIDE_LABELS = {
    ConditionSide.ATTACKER: "Attacker's situation",
    ConditionSide.DEFENDER: "Defender's situation",
}


def _melee_range(condition: Condition) -> ModifierRange | None:
    return condition.range_for(melee=True)


def pickable(catalog: ConditionCatalog) -> tuple[Condition, ...]:
    """The conditions a GM picks for a melee attack: those with a melee modifier,
    except the automatic ones (computed from the fighters by the rules)."""
    return tuple(c for c in catalog.conditions if not c.automatic and _melee_range(c) is not None)


def _initial_value(span: ModifierRange) -> int:
    if span.default is not None:
        return span.default
    return span.high  # the mildest value of "-1 to -9", "-1 or worse"


class ConditionsPicker(QWidget):
    """A search box over a two-branch checkable tree (the attacker's and the
    defender's situations), and a value box for the current ranged condition.

    Ticking a condition of an exclusive group (light, posture ...) unticks the
    others of that group on that side, as ``ConditionCatalog.validate`` demands.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._catalog: ConditionCatalog | None = None
        self._items: dict[str, QTreeWidgetItem] = {}
        self._updating = False

        self.search_edit = QLineEdit()
        self.search_edit.setObjectName("conditionSearch")
        self.search_edit.setPlaceholderText("filter, e.g. light, footing")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setToolTip("Show only the conditions whose name contains this text")
        self.tree = QTreeWidget()
        self.tree.setObjectName("conditionTree")
        self.tree.setColumnCount(2)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setMinimumHeight(110)
        self.tree.setMaximumHeight(170)
        self.tree.setToolTip(
            "Adverse combat conditions (000 ADVERSE COMBAT CONDITIONS): Space ticks "
            "the current one; set a ranged value in the box below"
        )
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.value_spin = QSpinBox()
        self.value_spin.setObjectName("conditionValueSpin")
        self.value_spin.setToolTip("The value of the current condition, within its range")
        self.value_spin.setEnabled(False)
        self.value_label = QLabel("Value")
        self.value_label.setBuddy(self.value_spin)
        self.value_hint = muted_label("conditionValueHint")
        self.value_hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.search_edit)
        layout.addWidget(self.tree)
        value_row = QHBoxLayout()
        value_row.setContentsMargins(0, 0, 0, 0)
        value_row.addWidget(self.value_label)
        value_row.addWidget(self.value_spin)
        value_row.addWidget(self.value_hint, 1)
        layout.addLayout(value_row)
        QWidget.setTabOrder(self.search_edit, self.tree)
        QWidget.setTabOrder(self.tree, self.value_spin)

        self.search_edit.textChanged.connect(self._filter)
        self.tree.itemChanged.connect(self._item_changed)
        self.tree.currentItemChanged.connect(lambda *_: self._show_current())
        self.value_spin.valueChanged.connect(self._value_changed)

    # --- content ------------------------------------------------------------------------
    def set_catalog(self, catalog: ConditionCatalog) -> None:
        # Each ruleset object (one per set of options) reads its own, equal catalog:
        # an equal one keeps the tree as it is.
        if catalog is self._catalog or catalog == self._catalog:
            return
        keep = self.selected()
        self._catalog = catalog
        self._updating = True
        try:
            self.tree.clear()
            self._items.clear()
            branches = {}
            for side in ConditionSide:
                branch = QTreeWidgetItem([_SIDE_LABELS[side], ""])
                branch.setFlags(Qt.ItemFlag.ItemIsEnabled)
                font = branch.font(0)
                font.setBold(True)
                branch.setFont(0, font)
                self.tree.addTopLevelItem(branch)
                branches[side] = branch
            for c in pickable(catalog):
                span = _melee_range(c)
                assert span is not None
                item = QTreeWidgetItem([c.label, ""])
                item.setFlags(
                    Qt.ItemFlag.ItemIsEnabled
                    | Qt.ItemFlag.ItemIsSelectable
                    | Qt.ItemFlag.ItemIsUserCheckable
                )
                item.setCheckState(0, Qt.CheckState.Unchecked)
                item.setData(0, _KEY_ROLE, c.key)
                item.setData(0, _VALUE_ROLE, None if span.is_fixed else _initial_value(span))
                swing = " (swinging attacks only)" if c.swinging_only else ""
                no_defense = " The target makes no active defense." if (
                    c.removes_active_defenses
                ) else ""
                item.setToolTip(0, f"{c.note}{swing}{no_defense}\n{c.citation}".strip())
                branches[c.side].addChild(item)
                self._items[c.key] = item
                self._label(item)
            self.tree.expandAll()
        finally:
            self._updating = False
        self.set_selected(keep)

    def conditions(self) -> tuple[Condition, ...]:
        if self._catalog is None:
            return ()
        return tuple(self._catalog.get(k) for k in self._items)

    def item(self, key: str) -> QTreeWidgetItem:
        return self._items[key]

    def selected(self) -> tuple[SelectedCondition, ...]:
        """The ticked conditions, attacker's first, in catalog order."""
        picks = []
        for key, item in self._items.items():
            if item.checkState(0) == Qt.CheckState.Checked:
                value = item.data(0, _VALUE_ROLE)
                picks.append(SelectedCondition(key, value if value is None else int(value)))
        return tuple(picks)

    def set_selected(self, picks: Iterable[SelectedCondition]) -> None:
        chosen = {p.key: p.value for p in picks}
        self._updating = True
        try:
            for key, item in self._items.items():
                on = key in chosen
                item.setCheckState(0, Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                if on and chosen[key] is not None:
                    item.setData(0, _VALUE_ROLE, chosen[key])
                self._label(item)
        finally:
            self._updating = False
        self._show_current()
        self.changed.emit()

    def pick(self, key: str, value: int | None = None) -> None:
        """Tick one condition (with a value for a ranged one), as the GM would."""
        item = self._items[key]
        self.tree.setCurrentItem(item)
        if value is not None:
            self.value_spin.setValue(value)
        item.setCheckState(0, Qt.CheckState.Checked)

    def clear(self) -> None:
        self.set_selected(())

    # --- reactions ----------------------------------------------------------------------
    def _label(self, item: QTreeWidgetItem) -> None:
        if self._catalog is None:
            return
        c = self._catalog.get(item.data(0, _KEY_ROLE))
        span = _melee_range(c)
        assert span is not None
        value = item.data(0, _VALUE_ROLE)
        if item.checkState(0) == Qt.CheckState.Checked and value is not None:
            text = f"{int(value):+d}"
        else:
            text = span.describe()
        item.setText(1, text)
        item.setForeground(1, MUTED if item.checkState(0) != Qt.CheckState.Checked else BAD_TEXT)

    def _item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._updating or column != 0 or self._catalog is None:
            return
        key = item.data(0, _KEY_ROLE)
        if key is None:
            return
        self._updating = True
        try:
            c = self._catalog.get(key)
            if item.checkState(0) == Qt.CheckState.Checked and c.group is not None:
                for other_key, other in self._items.items():
                    o = self._catalog.get(other_key)
                    if other_key != key and o.side is c.side and o.group == c.group:
                        other.setCheckState(0, Qt.CheckState.Unchecked)
                        self._label(other)
            self._label(item)
        finally:
            self._updating = False
        self.changed.emit()

    def _show_current(self) -> None:
        item = self.tree.currentItem()
        key = item.data(0, _KEY_ROLE) if item is not None else None
        if item is None or key is None or self._catalog is None:
            self.value_spin.setEnabled(False)
            self.value_hint.setText("")
            return
        c = self._catalog.get(key)
        span = _melee_range(c)
        assert span is not None
        self._updating = True
        try:
            self.value_spin.setRange(span.low if span.low is not None else -20, span.high)
            value = item.data(0, _VALUE_ROLE)
            self.value_spin.setValue(int(value) if value is not None else span.high)
        finally:
            self._updating = False
        self.value_spin.setEnabled(not span.is_fixed)
        self.value_hint.setText(f"{c.label}: {span.describe()}")

    def _value_changed(self, value: int) -> None:
        item = self.tree.currentItem()
        if self._updating or item is None or item.data(0, _KEY_ROLE) is None:
            return
        if item.data(0, _VALUE_ROLE) is None:
            return  # a fixed condition
        item.setData(0, _VALUE_ROLE, value)
        if item.checkState(0) != Qt.CheckState.Checked:
            item.setCheckState(0, Qt.CheckState.Checked)  # emits changed via _item_changed
        else:
            self._label(item)
            self.changed.emit()

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for branch in _children(self.tree.invisibleRootItem()):
            shown = 0
            for child in _children(branch):
                hide = bool(needle) and needle not in child.text(0).lower()
                child.setHidden(hide)
                shown += not hide
            branch.setHidden(shown == 0)


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    """The item's children (Qt's stubs type ``child(i)`` as possibly None)."""
    children = (item.child(i) for i in range(item.childCount()))
    return [child for child in children if child is not None]


# --- the odds panel -------------------------------------------------------------------------


def injury_text(expected: Fraction) -> str:
    return f"{float(expected):.1f}"


@dataclass(frozen=True)
class OddsRow:
    key: str  # "critical_hit", "hit", "stopped_0" ..., "miss", "critical_miss", "injury", "down"
    caption: str
    value: str
    tooltip: str = ""


DOWN_STATUSES = (Status.UNCONSCIOUS, Status.DEAD)


class OddsPanel(QWidget):
    """The exact odds as a compact two-column grid of captions and values."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("oddsPanel")
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(0)
        self._widgets: list[QWidget] = []
        self._values: dict[str, QLabel] = {}
        self._rows: tuple[OddsRow, ...] = ()
        self.note = muted_label("oddsNote", word_wrap=True)

    @property
    def rows(self) -> tuple[OddsRow, ...]:
        return self._rows

    def value(self, key: str) -> str:
        """The text shown for one row ("" when the row is not shown)."""
        label = self._values.get(key)
        return label.text() if label is not None else ""

    def show_rows(self, rows: Sequence[OddsRow], note: str = "") -> None:
        if tuple(rows) == self._rows and note == self.note.text():
            return
        self._rows = tuple(rows)
        for w in self._widgets:
            self._grid.removeWidget(w)
            w.hide()  # gone now, not at the next event loop pass (no ghost rows)
            w.deleteLater()
        self._grid.removeWidget(self.note)
        self._widgets.clear()
        self._values.clear()
        # Two pairs per line: caption value | caption value.
        for i, row in enumerate(rows):
            line, col = divmod(i, 2)
            caption = QLabel(row.caption)
            caption.setStyleSheet(f"color:{MUTED.name()}")
            # a long caption ("Strikes the one in the way") wraps instead of
            # widening the whole Attack dock and squeezing the map
            caption.setWordWrap(True)
            value = QLabel(row.value)
            value.setObjectName(f"odds_{row.key}")
            font = value.font()
            font.setBold(True)
            value.setFont(font)
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for w in (caption, value):
                w.setToolTip(row.tooltip)
            self._grid.addWidget(caption, line, col * 3)
            self._grid.addWidget(value, line, col * 3 + 1)
            self._widgets += [caption, value]
            self._values[row.key] = value
        self._grid.setColumnMinimumWidth(2, 10)
        self._grid.setColumnStretch(0, 1)
        self._grid.setColumnStretch(3, 1)
        last = (len(rows) + 1) // 2
        self.note.setText(note)
        self._grid.addWidget(self.note, last, 0, 1, 5)
        self.note.setVisible(bool(note))

    def clear(self) -> None:
        self.show_rows(())


# --- striking at the defender's weapon -----------------------------------------------


@dataclass(frozen=True)
class WeaponTarget:
    """One entry of the "Strike at" combo: a weapon of the defender, whether the
    attacker may strike at it now (``weapon_targets.can_strike_at_weapon``) and
    why."""

    label: str
    key: str
    allowed: bool
    reason: str


def weapon_targets(
    state: BattleState, attacker_id: str | None, defender: Combatant | None,
    attacker_weapon_key: str | None, attacker_mode: str | None = None,
) -> tuple[WeaponTarget, ...]:
    """The defender's weapons as strike-at targets: allowed only where the rules
    say so (a hex of the weapon in the attacker's reach or range with the chosen
    weapon and mode, or the weapon just used against the attacker), each with the
    rules' reason."""
    if defender is None:
        return ()
    out = []
    for w in defender.fighter.weapons:
        if attacker_id is None:
            allowed, reason = False, "no attacker selected"
        else:
            try:
                allowed, reason = can_strike_at_weapon(
                    state,
                    attacker_id,
                    defender.id,
                    w.key,
                    attacker_weapon_key=attacker_weapon_key,
                    attacker_mode=attacker_mode,
                    strikes=seed000_tables(state).weapon_strikes,
                )
            except RulesError as refusal:
                allowed, reason = False, str(refusal)
        out.append(WeaponTarget(w.name, w.key, allowed, reason))
    return tuple(out)
