"""The hex pane: one hex of the map up close.

It shows the hex last clicked on the map (or, until a click, the one under the
cursor): its coordinates, its terrain with an editor per property, who stands
there and the items lying there. The editors paint that one hex with
``PaintTerrain``; "Pick up" runs ``PickUpItem`` for the selected combatant (or
whoever stands in the hex) and "Ready" readies its unready weapon or shield with
``ReadyWeapon``. Nothing here changes the battle any other way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app import icons
from app.controller import BattleController, Redraw
from app.map.view import MapView
from app.panes.labels import TerrainChoice, enum_label
from app.panes.widgets import VerticalScrollArea, configure_dock, hline, section_label
from hexmap import Hex
from rules.battle.battle import BattleChange
from rules.battle.commands import PaintTerrain, PickUpItem, ReadyWeapon
from rules.battle.items import GroundItem
from rules.battle.model import Combatant
from rules.battle.terrain import Cover, Footing, Light, Terrain, TerrainChange, WaterDepth
from rules.battle.values import hex_name

# A value one terrain property takes: an enum member, or the height as a number.
TerrainValue = TerrainChoice | int


@dataclass(frozen=True)
class TerrainField:
    """One property of ``Terrain`` that the pane edits and the brush paints."""

    name: str  # the editor's object name is "terrain_<name>"
    label: str
    choices: tuple[TerrainChoice, ...]  # the combo's entries; () for the height's number
    read: Callable[[Terrain], TerrainValue]


TERRAIN_FIELDS: tuple[TerrainField, ...] = (
    TerrainField("light", "Light", tuple(Light), lambda t: t.light),
    TerrainField("footing", "Footing", tuple(Footing), lambda t: t.footing),
    TerrainField("water", "Water", tuple(WaterDepth), lambda t: t.water),
    TerrainField("cover", "Cover", tuple(Cover), lambda t: t.cover),
    TerrainField("height", "Height", (), lambda t: t.height),
)


def terrain_change(value: TerrainValue) -> TerrainChange:
    """The ``TerrainChange`` that sets one property to ``value`` (its type says which)."""
    if isinstance(value, Light):
        return TerrainChange(light=value)
    if isinstance(value, Footing):
        return TerrainChange(footing=value)
    if isinstance(value, WaterDepth):
        return TerrainChange(water=value)
    if isinstance(value, Cover):
        return TerrainChange(cover=value)
    return TerrainChange(height=value)


def unready_keys(c: Combatant) -> list[tuple[str, str]]:
    """(key, name) of what ``c`` holds but has to ready: unready weapons, a shield
    whose grip a fumbled block lost."""
    out = [(w.key, w.name) for w in c.fighter.weapons if w.key in c.unready]
    shield = c.fighter.shield
    if shield is not None and (shield.key in c.unready or not c.shield_ready):
        out.append((shield.key, shield.name))
    return out


class HexPane(QDockWidget):
    """The hex under the cursor or clicked: terrain, occupant and items."""

    def __init__(
        self, controller: BattleController, map_view: MapView, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        configure_dock(self, "hexPane", "Hex")
        self._controller = controller
        self._map = map_view
        self._hex: Hex | None = None
        self._pinned = False

        body = QWidget(self)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(8, 6, 8, 6)
        self.title = QLabel("Point at a hex on the map")
        self.title.setObjectName("hexTitle")
        self.title.setWordWrap(True)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.follow_button = QPushButton("Follow cursor")
        self.follow_button.setObjectName("followCursor")
        self.follow_button.setToolTip("Show the hex under the mouse again (a click pins one)")
        self.follow_button.clicked.connect(self.unpin)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.follow_button)
        layout.addLayout(head)
        self.occupant = QLabel()
        self.occupant.setObjectName("hexOccupant")
        self.occupant.setWordWrap(True)
        layout.addWidget(self.occupant)
        layout.addWidget(hline())

        layout.addWidget(section_label("Terrain"))
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.editors: dict[str, QComboBox | QSpinBox] = {}
        label = controller.ruleset.battlefield.terrain_label
        for field in TERRAIN_FIELDS:
            editor: QComboBox | QSpinBox
            if not field.choices:
                spin = QSpinBox()
                spin.setRange(-9, 9)
                spin.valueChanged.connect(lambda v: self._edit(int(v)))
                editor = spin
            else:
                combo = QComboBox()
                for member in field.choices:
                    combo.addItem(enum_label(member, label), member)
                combo.activated.connect(lambda i, c=combo: self._edit(c.itemData(i)))
                editor = combo
            editor.setObjectName(f"terrain_{field.name}")
            editor.setEnabled(False)
            self.editors[field.name] = editor
            form.addRow(field.label, editor)
        layout.addLayout(form)
        layout.addWidget(hline())

        layout.addWidget(section_label("On the ground"))
        self.items = QListWidget()
        self.items.setObjectName("hexItems")
        self.items.setIconSize(self.items.iconSize().expandedTo(self.items.iconSize()))
        self.items.setMinimumHeight(60)
        self.items.currentRowChanged.connect(lambda _row: self._update_buttons())
        layout.addWidget(self.items, 1)
        buttons = QHBoxLayout()
        self.pick_up_button = QPushButton("Pick up")
        self.pick_up_button.setObjectName("pickUp")
        self.pick_up_button.clicked.connect(self.pick_up)
        self.ready_button = QPushButton("Ready")
        self.ready_button.setObjectName("readyItem")
        self.ready_button.clicked.connect(self.ready)
        buttons.addWidget(self.pick_up_button)
        buttons.addWidget(self.ready_button)
        layout.addLayout(buttons)
        self.who = QLabel()
        self.who.setObjectName("hexWho")
        self.who.setWordWrap(True)
        layout.addWidget(self.who)
        # scrollable, so the hex pane does not make its tab group tall (1366x768)
        self.setWidget(VerticalScrollArea(body))

        map_view.hovered_hex_changed.connect(self._on_hover)
        map_view.hex_clicked.connect(self.show_hex)
        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self._label_choices)
        controller.battle_reset.connect(self._on_battle_reset)
        controller.selection_changed.connect(lambda _sid: self.refresh())
        self.refresh()

    def _label_choices(self) -> None:
        """Name each terrain value as the battle's ruleset does (seed 000: with its
        penalty); a new battle may play another ruleset."""
        label = self._controller.ruleset.battlefield.terrain_label
        for editor in self.editors.values():
            if isinstance(editor, QComboBox):
                for i in range(editor.count()):
                    editor.setItemText(i, enum_label(editor.itemData(i), label))

    # --- which hex ---------------------------------------------------------------------
    @property
    def hex(self) -> Hex | None:
        return self._hex

    def show_hex(self, h: object) -> None:
        """Pin ``h`` (a click on the map): the pane stays on it until the next click."""
        if isinstance(h, Hex):
            self._hex = h
            self._pinned = True
            self.refresh()

    def unpin(self) -> None:
        self._pinned = False
        self.refresh()

    def _on_battle_reset(self) -> None:
        """Another battle: no hex of the last one stays pinned."""
        self._hex, self._pinned = None, False
        self.refresh()

    def _on_hover(self, h: object) -> None:
        if not self._pinned and isinstance(h, Hex) and h != self._hex:
            self._hex = h
            self.refresh()

    def _on_battle_changed(self, change: BattleChange, _redraw: Redraw) -> None:
        h = self._hex
        if h is None:
            return
        before, after = change.before, change.after
        if (
            change.terrain_changed
            or change.items_changed
            or any(c.hex == h for c in (*before.combatants, *after.combatants))
            or change.changed_ids
        ):
            self.refresh()

    # --- the actor ---------------------------------------------------------------------
    def actor(self) -> Combatant | None:
        """Who picks up: the selected combatant, else whoever stands in the hex."""
        state = self._controller.state
        sid = self._controller.selected_id
        if sid is not None:
            return state.combatant(sid)
        return state.occupant(self._hex) if self._hex is not None else None

    def selected_item(self) -> GroundItem | None:
        row = self.items.currentItem()
        return None if row is None else _ground_item(row)

    def item_ids(self) -> list[str]:
        return [_ground_item(self.items.item(i)).id for i in range(self.items.count())]

    # --- refresh -----------------------------------------------------------------------
    def refresh(self) -> None:
        state = self._controller.state
        h = self._hex
        self.follow_button.setVisible(self._pinned)
        if h is None or h not in state.grid:
            self.title.setText("Point at a hex on the map")
            self.occupant.setText("")
            for editor in self.editors.values():
                editor.setEnabled(False)
            self.items.clear()
            self._update_buttons()
            return
        self.title.setText(hex_name(h).capitalize())
        here = [c for c in state.combatants if c.hex == h]
        if here:
            self.occupant.setText(
                "; ".join(f"{c.name} ({c.status.value}, {_posture_text(c)})" for c in here)
            )
        else:
            self.occupant.setText("Nobody stands here")
        terrain = state.terrain.at(h)
        for field in TERRAIN_FIELDS:
            editor = self.editors[field.name]
            editor.setEnabled(True)
            value = field.read(terrain)
            blocker = QSignalBlocker(editor)
            if isinstance(editor, QSpinBox):
                editor.setValue(value if isinstance(value, int) else 0)
            else:
                editor.setCurrentIndex(max(0, editor.findData(value)))
            del blocker
        current = self.selected_item()
        keep = current.id if current is not None else None
        self.items.clear()
        for item in state.items:
            if item.hex != h:
                continue
            key = icons.icon_key_for(item.icon, item.name)
            text = item.name + (f" — {item.note}" if item.note else "")
            if not item.usable:
                text += " (useless)"
            row_item = QListWidgetItem(icons.item_icon(key), text)
            row_item.setData(Qt.ItemDataRole.UserRole, item)
            row_item.setToolTip(text)
            self.items.addItem(row_item)
            if item.id == keep:
                self.items.setCurrentItem(row_item)
        if self.items.currentRow() < 0 and self.items.count():
            self.items.setCurrentRow(0)
        self._update_buttons()

    def _update_buttons(self) -> None:
        item = self.selected_item()
        who = self.actor()
        ok = item is not None and who is not None and who.hex.distance(item.hex) <= 1
        self.pick_up_button.setEnabled(ok and item is not None and item.usable)
        unready = unready_keys(who) if who is not None else []
        self.ready_button.setEnabled(bool(unready))
        self.ready_button.setText(f"Ready {unready[0][1]}" if unready else "Ready")
        self.ready_button.setToolTip(
            f"{who.name} readies the {unready[0][1]} (a Ready maneuver)"
            if who is not None and unready
            else "Nothing to ready"
        )
        if item is None:
            self.who.setText("")
        elif who is None:
            self.who.setText("Select a combatant to pick it up")
        elif not ok:
            self.who.setText(f"{who.name} is too far away to reach it")
        else:
            self.who.setText(f"{who.name} can pick it up (a Ready maneuver)")

    # --- commands ----------------------------------------------------------------------
    def _edit(self, value: TerrainValue) -> None:
        if self._hex is None:
            return
        self._controller.execute(PaintTerrain((self._hex,), terrain_change(value)))

    def pick_up(self) -> None:
        item, who = self.selected_item(), self.actor()
        if item is None or who is None:
            return
        self._controller.execute(PickUpItem(who.id, item.id))

    def ready(self) -> None:
        """Ready the actor's first unready weapon (or re-grip the shield)."""
        who = self.actor()
        unready = unready_keys(who) if who is not None else []
        if who is not None and unready:
            self._controller.execute(ReadyWeapon(who.id, unready[0][0]))


def _ground_item(row: QListWidgetItem) -> GroundItem:
    item = row.data(Qt.ItemDataRole.UserRole)
    assert isinstance(item, GroundItem), "every row of the list holds its GroundItem"
    return item


def _posture_text(c: Combatant) -> str:
    return c.posture.value.replace("_", " ")
