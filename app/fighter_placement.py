"""Battle ▸ Add Fighter: a template from the library, then a click on the map.

The menu lists the battle's sides, each with the templates (``app.new_battle``);
choosing one arms it, and the next left click on a free hex puts the fighter there
(``AddCombatant``). Esc, a right-click or a click off the map puts the template
away. A right-click on an empty hex does the same in one menu
(``app.new_battle.add_fighter_menu``).

The templates pane arms its template to repeat after "Add to Map": every click on a
free hex places one more fighter, until Esc, a right-click, or a click on a
fighter (which then selects it as usual).

Battle ▸ Duplicate Fighter (Ctrl+D) puts a fresh copy of the selected fighter in
the free hex nearest it (``app.new_battle.duplicate_fighter``).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QMenu, QWidget

from app.controller import BattleController
from app.help import key_sequences
from app.map.view import MapView
from app.new_battle import (
    battle_sides,
    colour_icon,
    duplicate_fighter,
    fighter_templates,
    new_combatant,
    preferred_handedness,
)
from app.templates import Template
from app.theme import SIDE_COLOURS
from hexmap import Hex
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.battle.sides import side_name
from rules.battle.values import hex_name


class FighterPlacement(QObject):
    """The Add Fighter menu and the click that places its template."""

    # The status bar's prompt while a template waits for its hex ("" once placed or put away).
    prompt_changed = Signal(str)

    def __init__(self, controller: BattleController, map_view: MapView, parent: QWidget) -> None:
        super().__init__(parent)
        self._controller = controller
        self._map_view = map_view
        self.armed: tuple[Template, Side] | None = None
        # the template stays armed after each placement (the templates pane's)
        self.repeating = False
        self._swallow_release = False
        self.menu = QMenu("Add &Fighter", parent)
        self.menu.setObjectName("placeFighterMenu")
        self.menu.setStatusTip("Put a fighter from the template library on the map")
        self.menu.aboutToShow.connect(self._on_menu_about_to_show)
        controller.battle_reset.connect(self.disarm)
        self.duplicate_action = QAction("&Duplicate Fighter", parent)
        self.duplicate_action.setObjectName("duplicateSelectedFighter")
        self.duplicate_action.setShortcuts(key_sequences("duplicate_fighter"))
        self.duplicate_action.setStatusTip(
            "A fresh copy of the selected fighter in the nearest free hex (Undo removes it)"
        )
        self.duplicate_action.triggered.connect(self._on_duplicate_action_triggered)
        controller.selection_changed.connect(self._update_duplicate_enabled)
        self._update_duplicate_enabled()

    def _update_duplicate_enabled(self, *_args: object) -> None:
        self.duplicate_action.setEnabled(self._controller.selected_id is not None)

    def _on_duplicate_action_triggered(self) -> None:
        selected = self._controller.selected_id
        if selected is None:
            return
        if duplicate_fighter(self._controller, selected) is None:
            self.prompt_changed.emit("No free hex is left on the map for a copy")

    def _on_menu_about_to_show(self) -> None:
        self.fill_menu()

    def fill_menu(self) -> None:
        self.menu.clear()
        state = self._controller.state
        templates = fighter_templates(state.ruleset_key)
        if not templates:
            self.menu.addAction("No fighter templates").setEnabled(False)
            return
        for side in battle_sides(state):
            sub = self.menu.addMenu(colour_icon(SIDE_COLOURS[side]), side_name(state.sides, side))
            sub.setObjectName(f"placeFighter:{side.value}")
            sub.setToolTipsVisible(True)  # each template's description
            for template in templates:
                action = sub.addAction(f"{template.name}…")
                action.setObjectName(f"placeFighter:{side.value}:{template.key}")
                action.setToolTip(template.description)
                action.setStatusTip(template.description)
                action.triggered.connect(
                    lambda _=False, t=template, s=side: self.arm(t, s)
                )  # fmt: skip

    def arm(
        self, template: Template, side: Side, *, repeat: bool = False, take_focus: bool = True
    ) -> None:
        """The next click on a free hex puts ``template`` there for ``side``; with
        ``repeat`` every click on a free hex does, until Esc. ``take_focus``: the
        map takes the keyboard, so that Esc there puts the template away (the
        templates pane keeps it, and its Esc does the same)."""
        if self.armed is None and not self._swallow_release:
            self._map_view.installEventFilter(self)
        self.armed = (template, side)
        self.repeating = repeat
        self._map_view.setCursor(Qt.CursorShape.CrossCursor)
        if take_focus:
            self._map_view.setFocus()
        self.prompt_changed.emit(self._prompt())

    def _prompt(self, placed_at: Hex | None = None) -> str:
        """The status bar's invitation while a template waits for its hex."""
        if self.armed is None:
            return ""
        template, side = self.armed
        who = f"{template.fighter.name} ({side_name(self._controller.state.sides, side)})"
        if not self.repeating:
            return f"Click a free hex for the {who}; Esc to stop"
        done = f"Placed at {hex_name(placed_at)}. " if placed_at is not None else ""
        return f"{done}Click a free hex for the next {who}; Esc when done"

    def disarm(self) -> None:
        if self.armed is None:
            return
        self.armed = None
        self.repeating = False
        if not self._swallow_release:  # else once the click's release is swallowed
            self._map_view.removeEventFilter(self)
        self._map_view.unsetCursor()
        self.prompt_changed.emit("")

    def place_at(self, where: Hex | None) -> bool:
        """Put the armed template on hex ``where``; False (and still armed) if the
        hex is taken or off the map, or the rules refuse it."""
        if self.armed is None:
            return False
        state = self._controller.state
        if where is None or where not in state.grid or state.occupant(where) is not None:
            return False
        template, side = self.armed
        handedness = preferred_handedness(self._map_view)
        combatant = new_combatant(state, template, side, where, handedness)
        if self._controller.execute(AddCombatant(combatant)) is None:
            return False
        if self.repeating:
            self.prompt_changed.emit(self._prompt(where))
        else:
            self.disarm()
        self._controller.select(combatant.id)
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is not self._map_view:
            return super().eventFilter(watched, event)
        kind = event.type()
        if self._swallow_release:  # the rest of the click that placed or put away
            if kind == QEvent.Type.ContextMenu:
                return True
            if kind == QEvent.Type.MouseButtonRelease:
                self._swallow_release = False
                if self.armed is None:
                    self._map_view.removeEventFilter(self)
                return True
        if self.armed is None:
            return super().eventFilter(watched, event)
        if kind == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            where = self._map_view.hex_at(event.position())
            left = event.button() == Qt.MouseButton.LeftButton
            if left and self.repeating and self._map_view.combatant_at(where) is not None:
                self.disarm()  # done placing: the click selects the fighter as usual
                return super().eventFilter(watched, event)
            self._swallow_release = True
            if left and self.place_at(where):
                self._map_view.hex_clicked.emit(where)  # the hex the GM chose, for the panes
            elif not left:
                self.disarm()
            return True
        escape = isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape
        if kind == QEvent.Type.ShortcutOverride and escape:
            event.accept()  # Esc comes here as a key press, not as Clear Selection
            return True
        if kind == QEvent.Type.KeyPress and escape:
            self.disarm()
            return True
        return super().eventFilter(watched, event)
