"""The templates pane: the fighter template library, and a fighter from it in two
clicks.

The list holds the battle ruleset's templates (``app.templates``): the bundled
ones, then the GM's own, marked "(yours)". The selected template's description
shows under the list. A click on a template and one on "Add to Map" (or a
double-click, or Enter in the list) puts the fighter for the chosen side on the
hex last clicked on the map, or on the free hex nearest it (the middle of the
map until a hex is clicked): an ``AddCombatant`` command, undone and saved like
any other. After that, each click on a free hex of the map places one more of the
template (``app.fighter_placement``, armed to repeat) until Esc: the newcomer's
selection never turns that click into a move.

"Save Selected Fighter…" keeps the selected combatant's sheet as the GM's own
template in the user data folder; "Rename…" and "Delete" change only the GM's
own. Template files that cannot be read are named at the bottom of the pane
(and in the log file) and skipped.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.fighter_placement import FighterPlacement
from app.map.view import MapView
from app.new_battle import battle_sides, colour_icon, new_combatant, preferred_handedness
from app.panes.widgets import (
    BAD_TEXT,
    ID_ROLE,
    VerticalScrollArea,
    buddy_label,
    configure_dock,
    muted_label,
    pane_body,
)
from app.templates import (
    Template,
    TemplateLibrary,
    delete_custom_template,
    load_library,
    nearest_free_hex,
    rename_custom_template,
    save_custom_template,
)
from app.theme import SIDE_COLOURS
from hexmap import Hex
from rules.battle.battle import BattleChange
from rules.battle.model import Combatant, Side
from rules.battle.roster import AddCombatant
from rules.battle.sides import side_name
from rules.battle.values import hex_name
from rules.core.errors import DataError

# Three rows: the pane shares a short column with the combatants (1366x768).
LIST_MIN_HEIGHT = 48
# The GM's answer to "Name of the template" (None: cancelled); replaced in tests.
NameAsker = Callable[[QWidget, str, str], str | None]
DeleteConfirmer = Callable[[QWidget, str], bool]


def ask_name_with_dialog(parent: QWidget, title: str, current: str) -> str | None:
    text, ok = QInputDialog.getText(parent, title, "Name of the template:", text=current)
    return text if ok else None


def confirm_delete_with_dialog(parent: QWidget, name: str) -> bool:
    answer = QMessageBox.question(
        parent,
        "Delete Template",
        f"Delete your template “{name}”? Fighters already on the map stay.",
    )
    return answer == QMessageBox.StandardButton.Yes


def template_tooltip(template: Template) -> str:
    f = template.fighter
    where = "your template" if template.custom else "bundled template"
    who = "" if f.name == template.name else f"; places {f.name}"
    return f"{template.description}\n({where}{who}; HP {f.hit_points}, Move {f.move})"


class ShortList(QListWidget):
    """A list that asks for a few rows only: in a short column (1366x768) the
    pane's buttons stay in view, and the list grows with the room it gets."""

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(hint.width(), LIST_MIN_HEIGHT)


class TemplatesPane(QDockWidget):
    """The template library: pick a template, add it to the map; the GM's own
    templates saved, renamed and deleted."""

    def __init__(
        self,
        controller: BattleController,
        map_view: MapView,
        parent: QWidget | None = None,
        placement: FighterPlacement | None = None,
    ) -> None:
        """``placement``: the map's click that places a fighter, armed with the
        pane's template after each "Add to Map" (none: only Add to Map adds)."""
        super().__init__(parent)
        configure_dock(self, "templatesPane", "Templates")
        self._controller = controller
        self._map = map_view
        self._placement = placement
        self._clicked: Hex | None = None
        self.library = TemplateLibrary(())
        self.ask_name: NameAsker = ask_name_with_dialog
        self.confirm_delete: DeleteConfirmer = confirm_delete_with_dialog

        body, layout = pane_body("templatesBody", 6)
        self.side_box = QComboBox()
        self.side_box.setObjectName("templateSide")
        self.side_box.setToolTip("The side a fighter added from the list joins")
        self.side_box.activated.connect(self._follow_with_placement)
        self.add_button = QPushButton("Add to Map")
        self.add_button.setObjectName("addTemplate")
        self.add_button.setToolTip("Put the template's fighter on the map (Undo takes it away)")
        self.add_button.clicked.connect(self.add_selected)
        side_row = QHBoxLayout()
        side_row.addWidget(buddy_label("Side:", self.side_box))
        side_row.addWidget(self.side_box, 1)
        side_row.addWidget(self.add_button)
        layout.addLayout(side_row)

        self.list = ShortList()
        self.list.setObjectName("templateList")
        self.list.setMinimumHeight(LIST_MIN_HEIGHT)
        self.list.setToolTip("Double-click or press Enter to add the fighter to the map")
        self.list.currentItemChanged.connect(self._on_list_current_item_changed)
        self.list.itemDoubleClicked.connect(self._on_list_item_double_clicked)
        self.list.installEventFilter(self)
        layout.addWidget(self.list, 1)

        self.description = QLabel()
        self.description.setObjectName("templateDescription")
        self.description.setWordWrap(True)
        layout.addWidget(self.description)
        self.target = muted_label("templateTarget", word_wrap=True)
        layout.addWidget(self.target)

        custom_row = QHBoxLayout()
        self.save_button = QPushButton("Save Fighter…")
        self.save_button.setObjectName("saveTemplate")
        self.save_button.setToolTip(
            "Keep the selected fighter's sheet as your own template (in your data folder)"
        )
        self.save_button.clicked.connect(self._on_save_button_clicked)
        self.rename_button = QPushButton("Rename…")
        self.rename_button.setObjectName("renameTemplate")
        self.rename_button.setToolTip("Rename your own template")
        self.rename_button.clicked.connect(self._on_rename_button_clicked)
        self.delete_button = QPushButton("Delete")
        self.delete_button.setObjectName("deleteTemplate")
        self.delete_button.setToolTip("Delete your own template")
        self.delete_button.clicked.connect(self._on_delete_button_clicked)
        for button in (self.save_button, self.rename_button, self.delete_button):
            custom_row.addWidget(button)
        layout.addLayout(custom_row)

        self.problems = QLabel()
        self.problems.setObjectName("templateProblems")
        self.problems.setWordWrap(True)
        self.problems.setStyleSheet(f"color:{BAD_TEXT.name()}")
        layout.addWidget(self.problems)
        # scrollable, so that the pane fits a short column (1366x768); no mnemonics:
        # the attack pane beside it holds nearly every letter, and Enter in the list adds
        self.setWidget(VerticalScrollArea(body))

        map_view.hex_clicked.connect(self._on_map_view_hex_clicked)
        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self._on_battle_reset)
        controller.selection_changed.connect(self._on_selection_changed)
        if placement is not None:
            placement.prompt_changed.connect(self._on_placement_prompt_changed)
        self._fill_sides()
        self.reload()

    # --- the list ------------------------------------------------------------------------
    def reload(self, current_key: str | None = None) -> None:
        """Read the library again (bundled and the GM's own), keeping the current
        template or choosing ``current_key``."""
        keep = current_key if current_key is not None else self.current_key()
        self.library = load_library()
        self.list.clear()
        for template in self.library.for_ruleset(self._controller.state.ruleset_key):
            text = template.name + (" (yours)" if template.custom else "")
            item = QListWidgetItem(text)
            item.setData(ID_ROLE, template.key)
            item.setToolTip(template_tooltip(template))
            self.list.addItem(item)
            if template.key == keep:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        problems = self.library.problems
        self.problems.setVisible(bool(problems))
        self.problems.setText(
            f"Skipped {len(problems)} template file(s):\n" + "\n".join(problems) if problems else ""
        )
        self._update()

    def current_key(self) -> str | None:
        item = self.list.currentItem()
        key = item.data(ID_ROLE) if item is not None else None
        return key if isinstance(key, str) else None

    def current_template(self) -> Template | None:
        key = self.current_key()
        return None if key is None else self.library.template(key)

    def select_template(self, key: str) -> bool:
        for row in range(self.list.count()):
            if self.list.item(row).data(ID_ROLE) == key:
                self.list.setCurrentRow(row)
                return True
        return False

    def _fill_sides(self) -> None:
        state = self._controller.state
        keep = self.side_box.currentData()
        self.side_box.clear()
        for side in battle_sides(state):
            name = side_name(state.sides, side)
            self.side_box.addItem(colour_icon(SIDE_COLOURS[side]), name, side)
        index = self.side_box.findData(keep)
        self.side_box.setCurrentIndex(max(index, 0))

    def side(self) -> Side | None:
        side = self.side_box.currentData()
        return side if isinstance(side, Side) else None

    # --- where a fighter goes ---------------------------------------------------------------
    def aimed_hex(self) -> Hex:
        """The hex last clicked on the map, else the middle of the map."""
        grid = self._controller.state.grid
        if self._clicked is not None and self._clicked in grid:
            return self._clicked
        return Hex.from_offset(grid.width // 2, grid.height // 2)

    def destination(self) -> Hex | None:
        return nearest_free_hex(self._controller.state, self.aimed_hex())

    def add_selected(self) -> Combatant | None:
        """The second click: the current template's fighter onto the destination hex."""
        template, side, at = self.current_template(), self.side(), self.destination()
        if template is None or side is None or at is None:
            return None
        state = self._controller.state
        combatant = new_combatant(state, template, side, at, preferred_handedness(self))
        if self._controller.execute(AddCombatant(combatant)) is None:
            return None
        self._controller.select(combatant.id)
        if self._placement is not None:  # the next click on a free hex places the next one
            self._placement.arm(template, side, repeat=True, take_focus=False)
        return combatant

    def placing(self) -> bool:
        """Whether a click on a free hex of the map places the pane's template."""
        return self._placement is not None and self._placement.repeating

    def _follow_with_placement(self, *_args: object) -> None:
        """Another template or side while the clicks place: they place that one."""
        placement, template, side = self._placement, self.current_template(), self.side()
        if placement is None or not placement.repeating:
            return
        if template is not None and side is not None:
            placement.arm(template, side, repeat=True, take_focus=False)

    # --- the GM's own templates --------------------------------------------------------------
    def save_fighter(self, combatant_id: str, name: str) -> Template | None:
        """The combatant's fighter as the GM's template ``name``; None (and the reason
        under the list) if it cannot be saved."""
        state = self._controller.state
        fighter = state.combatant(combatant_id).fighter
        try:
            saved = save_custom_template(fighter, name, state.ruleset_key)
        except (DataError, OSError) as exc:
            self._show_problem(f"The template cannot be saved: {exc}")
            return None
        self.reload(saved.key)
        return saved

    def rename(self, template: Template, name: str) -> Template | None:
        try:
            renamed = rename_custom_template(template, name)
        except (DataError, OSError) as exc:
            self._show_problem(f"The template cannot be renamed: {exc}")
            return None
        self.reload(renamed.key)
        return renamed

    def delete(self, template: Template) -> bool:
        try:
            delete_custom_template(template)
        except (DataError, OSError) as exc:
            self._show_problem(f"The template cannot be deleted: {exc}")
            return False
        self.reload()
        return True

    def _show_problem(self, text: str) -> None:
        self.problems.setText(text)
        self.problems.setVisible(True)

    def _on_save_button_clicked(self) -> None:
        who = self._controller.combatant_or_none(self._controller.selected_id)
        if who is None:
            return
        name = self.ask_name(self, "Save Fighter as Template", who.fighter.name)
        if name is not None:
            self.save_fighter(who.id, name)

    def _on_rename_button_clicked(self) -> None:
        template = self.current_template()
        if template is None or not template.custom:
            return
        name = self.ask_name(self, "Rename Template", template.name)
        if name is not None:
            self.rename(template, name)

    def _on_delete_button_clicked(self) -> None:
        template = self.current_template()
        if template is not None and template.custom and self.confirm_delete(self, template.name):
            self.delete(template)

    # --- following the battle -------------------------------------------------------------
    def _update(self) -> None:
        template = self.current_template()
        at = self.destination()
        self.description.setText(template.description if template is not None else "")
        if at is None:
            self.target.setText("The map is full: no free hex for a new fighter")
        else:
            goes = f"Goes to {hex_name(at)}"
            if at != self.aimed_hex():
                goes += f", the free hex nearest {hex_name(self.aimed_hex())}"
            if self.placing() and template is not None:
                # the click on the map places the next one; Add to Map still works
                goes = (
                    f"Click a free hex on the map for the next {template.fighter.name} "
                    f"(Esc when done). Add to Map: {goes[:1].lower()}{goes[1:]}"
                )
            self.target.setText(goes)
        self.add_button.setEnabled(template is not None and at is not None)
        self.save_button.setEnabled(self._controller.selected_id is not None)
        custom = template is not None and template.custom
        self.rename_button.setEnabled(custom)
        self.delete_button.setEnabled(custom)

    def _on_list_current_item_changed(self, *_args: object) -> None:
        self._follow_with_placement()
        self._update()

    def _on_placement_prompt_changed(self, _prompt: str) -> None:
        self._update()

    def _on_list_item_double_clicked(self, _item: QListWidgetItem) -> None:
        self.add_selected()

    def _on_map_view_hex_clicked(self, h: object) -> None:
        if isinstance(h, Hex):
            self._clicked = h
            self._update()

    def _on_battle_changed(self, _change: BattleChange, _redraw: Redraw) -> None:
        self._fill_sides()
        self._update()

    def _on_battle_reset(self) -> None:
        self._clicked = None
        self._fill_sides()
        self.reload()  # another battle may have another ruleset

    def _on_selection_changed(self, _combatant_id: object) -> None:
        self._update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Enter in the list adds the fighter (and does not roll the attack); Esc
        there ends the placing clicks."""
        if watched is self.list and isinstance(event, QKeyEvent):
            enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            escape = event.key() == Qt.Key.Key_Escape and self.placing()
            if (enter or escape) and event.type() == QEvent.Type.ShortcutOverride:
                event.accept()
                return True
            if enter and event.type() == QEvent.Type.KeyPress:
                self.add_selected()
                return True
            if escape and event.type() == QEvent.Type.KeyPress and self._placement:
                self._placement.disarm()
                return True
        return super().eventFilter(watched, event)
