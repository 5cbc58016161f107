"""The inspector pane: the selected combatant's sheet and current state.

The pane shows what every ruleset shares: name, side, hex, facing, status and
posture, the deliberate drop and the GM's HP and status edit. The ruleset's own
part (its stats, defenses, wounds, gear) is its ``InspectorSection``, found
through ``app.rulesets`` by the battle's ruleset key; a ruleset without one
(``inspector_section`` None) is shown by its ``Sheets.sections`` rows instead, in
titled groups (``SheetView``), so it needs no inspector widget of its own. The GM
edits HP and status
through ``EditCombatant``, turns the fighter with ``TurnCombatant``, sets the
posture with ``SetPosture`` and readies a weapon with ``ReadyWeapon``; nothing here
changes the battle any other way.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.map.drops import draw_choices, droppable_items, put_away_choices
from app.map.tools import put_away_command, ready_choices, ready_command
from app.panes.widgets import (
    BAD_TEXT,
    MUTED,
    VerticalScrollArea,
    caption_grid,
    configure_dock,
    hline,
    muted_label,
    pane_body,
    section_label,
    side_swatch,
)
from app.rulesets import InspectorControls, InspectorSection, ruleset_ui
from rules.battle.battle import BattleChange
from rules.battle.commands import EditCombatant, SetPosture, TurnCombatant
from rules.battle.hands import carried_text, hands_text
from rules.battle.model import Combatant, Posture, Status
from rules.battle.sides import side_name
from rules.battle.values import hex_name
from rules.core.errors import RulesError
from rules.sets.protocol import SheetSection

QT_INT_MAX = 2**31 - 1  # a QSpinBox holds a C int


class InspectorPane(QDockWidget):
    # The GM asks to edit the shown fighter's sheet (the window opens the character editor).
    edit_requested = Signal(str)  # combatant id

    def __init__(self, controller: BattleController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        configure_dock(self, "inspectorPane", "Inspector")
        self._controller = controller
        self._shown: Combatant | None = None

        # --- header: name, place, turn buttons -----------------------------------
        self.swatch = QLabel()
        self.name_label = QLabel("No fighter selected")
        self.name_label.setObjectName("inspectorName")
        big = QFont(self.name_label.font())
        big.setBold(True)
        big.setPointSizeF(big.pointSizeF() * 1.15)
        self.name_label.setFont(big)
        self.name_label.setWordWrap(True)
        self.place_label = muted_label(
            "inspectorPlace", "Select a fighter on the map or in the list.", word_wrap=True
        )
        # The ruleset's conditions (stunned, bleeding, a crippled leg) and maneuver.
        self.conditions_label = QLabel()
        self.conditions_label.setObjectName("inspectorConditions")
        self.conditions_label.setWordWrap(True)
        self.conditions_label.hide()
        # What the hands hold and what is carried (rules.battle.hands).
        self.hands_label = muted_label("inspectorHands", "", word_wrap=True)
        self.turn_left = QToolButton()
        self.turn_left.setObjectName("turnLeftButton")
        self.turn_left.setText("↺")
        self.turn_left.setToolTip("Turn one hex side counter-clockwise")
        self.turn_left.clicked.connect(lambda: self._turn(-1))
        self.turn_right = QToolButton()
        self.turn_right.setObjectName("turnRightButton")
        self.turn_right.setText("↻")
        self.turn_right.setToolTip("Turn one hex side clockwise")
        self.turn_right.clicked.connect(lambda: self._turn(1))
        for button in (self.turn_left, self.turn_right):
            button.setAutoRaise(False)
            button.setMinimumSize(30, 26)
            f = QFont(button.font())
            f.setPointSizeF(f.pointSizeF() * 1.2)
            button.setFont(f)

        header = QGridLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.setHorizontalSpacing(6)
        header.addWidget(self.swatch, 0, 0)
        header.addWidget(self.name_label, 0, 1)
        header.addWidget(self.turn_left, 0, 2)
        header.addWidget(self.turn_right, 0, 3)
        header.addWidget(self.place_label, 1, 1, 1, 3)
        header.addWidget(self.conditions_label, 2, 1, 1, 3)
        header.addWidget(self.hands_label, 3, 1, 1, 3)
        header.setColumnStretch(1, 1)

        # --- the choices every ruleset shares: posture, a deliberate drop ------------------
        self.posture_combo = QComboBox()
        self.posture_combo.setObjectName("postureCombo")
        self.posture_combo.setToolTip(
            "The fighter's posture: standing, crouching, kneeling, sitting or lying "
            "(what it changes is the ruleset's, shown in the attack's modifiers)"
        )
        for posture in Posture:
            self.posture_combo.addItem(posture.value.replace("_", " "), posture)
        self.posture_combo.activated.connect(self._posture_chosen)
        # A deliberate drop: pick the item here, the hex on the map.
        self.drop_menu, self.drop_button = self._menu_button(
            "inspectorDropMenu",
            "dropButton",
            "Drop…",
            "Drop a weapon or the shield deliberately: pick the hex on the map (a hex "
            "passed through this turn or next to one)",
        )
        # Ready an unready weapon or the shield, draw a carried weapon or put one away
        # (ReadyWeapon, PutAwayItem: each the turn's Ready maneuver).
        self.ready_menu, self.ready_button = self._menu_button(
            "inspectorReadyMenu",
            "readyButton",
            "Ready…",
            "Ready what the rules left unready, draw a carried weapon, or put one away "
            "to free a hand (each a Ready maneuver)",
        )
        # The ruleset's part, which places the posture combo, the ready and drop
        # buttons; made again when a battle of another ruleset comes (``refresh``).
        self.section: InspectorSection | None = None
        self.sheet_view: SheetView | None = None  # the sheet rows, without a section
        self.ruleset_part = QWidget()
        self.ruleset_part.setObjectName("inspectorRulesetPart")
        self._part_layout = QVBoxLayout(self.ruleset_part)
        self._part_layout.setContentsMargins(0, 0, 0, 0)
        self._part_key: str | None = None
        self._part_widget: QWidget | None = None

        # --- the GM's edits ----------------------------------------------------------
        self.hp_spin = QSpinBox()
        self.hp_spin.setObjectName("hpSpin")
        self.hp_spin.setToolTip("Current hit points (Enter applies)")
        self.hp_spin.setAccelerated(True)
        self.hp_spin.setKeyboardTracking(False)
        self.status_combo = QComboBox()
        self.status_combo.setObjectName("statusCombo")
        for status in Status:
            self.status_combo.addItem(status.value, status)
        self.apply_button = QPushButton("Appl&y")
        self.apply_button.setObjectName("applyEditButton")
        self.apply_button.setToolTip("Record the GM's edit of HP and status in the battle log")
        self.apply_button.clicked.connect(self.apply_edit)
        self.hp_spin.lineEdit().returnPressed.connect(self.apply_edit)
        self.hp_spin.valueChanged.connect(self._edits_changed)
        self.status_combo.currentIndexChanged.connect(self._edits_changed)
        edit_row = caption_grid((("HP", self.hp_spin), ("Stat&us", self.status_combo)))
        edit_row.addWidget(self.apply_button, 0, 2, 2, 1)  # beside both rows
        self.edit_sheet_button = QPushButton("Edit…")
        self.edit_sheet_button.setObjectName("editSheetButton")
        self.edit_sheet_button.setToolTip(
            "Edit this fighter's sheet: stats, skills, gear, side (an undoable command)"
        )
        self.edit_sheet_button.clicked.connect(self._on_edit_sheet_button_clicked)
        edit_row.addWidget(self.edit_sheet_button, 2, 0, 1, 3)

        # --- assembly ----------------------------------------------------------------
        self.body, layout = pane_body("inspectorBody", 6)
        layout.addLayout(header)
        layout.addWidget(hline())
        layout.addWidget(self.ruleset_part)
        layout.addWidget(section_label("GM edit"))
        layout.addLayout(edit_row)
        layout.addStretch(1)
        self._detail_widgets: tuple[QWidget, ...] = (
            self.posture_combo,
            self.hp_spin,
            self.status_combo,
            self.apply_button,
            self.edit_sheet_button,
            self.turn_left,
            self.turn_right,
            self.drop_button,
            self.ready_button,
        )

        scroll = VerticalScrollArea(self.body)
        self.setWidget(scroll)

        controller.selection_changed.connect(self._on_selection_changed)
        controller.battle_reset.connect(self.refresh)
        controller.battle_changed.connect(self._on_battle_changed)
        self.refresh()

    # --- the ruleset's part ------------------------------------------------------------
    def _install_ruleset_part(self) -> None:
        """The ruleset's section (its ``RulesetUI.inspector_section``), or its sheet
        rows (``SheetView``) over the posture box and the ready and drop buttons when
        it has none; the old part goes, the shared controls stay."""
        key = self._controller.state.ruleset_key
        controls: tuple[QWidget, ...] = (self.posture_combo, self.drop_button, self.ready_button)
        old = self._part_widget
        if old is not None:
            for w in controls:
                w.setParent(self.ruleset_part)  # out of the old part before it goes
            self._part_layout.removeWidget(old)
            old.hide()
            old.deleteLater()
        ui = ruleset_ui(key)
        self.section = ui.inspector_section(
            self._controller,
            InspectorControls(
                posture=self.posture_combo, drop=self.drop_button, ready=self.ready_button
            ),
        )
        self.sheet_view = None
        if self.section is not None:
            part = self.section.widget
        else:
            part = QWidget()
            part_layout = QVBoxLayout(part)
            part_layout.setContentsMargins(0, 0, 0, 0)
            part_layout.setSpacing(3)
            self.sheet_view = SheetView()
            part_layout.addWidget(self.sheet_view)
            part_layout.addSpacing(4)
            part_layout.addLayout(caption_grid((("Posture", self.posture_combo),)))
            buttons = QHBoxLayout()
            buttons.addStretch(1)
            buttons.addWidget(self.ready_button)
            buttons.addWidget(self.drop_button)
            part_layout.addLayout(buttons)
        self._part_layout.addWidget(part)
        if old is not None:
            for w in (part, *controls):
                w.show()
        self._part_widget = part
        self._part_key = key

    # --- reactions -------------------------------------------------------------------
    def _on_selection_changed(self, _combatant_id: object) -> None:
        self.refresh()

    def _menu_button(
        self, menu_name: str, button_name: str, text: str, tip: str
    ) -> tuple[QMenu, QToolButton]:
        """A tool button that opens its own (empty, filled per fighter) menu at a click."""
        menu = QMenu(self)
        menu.setObjectName(menu_name)
        button = QToolButton()
        button.setObjectName(button_name)
        button.setText(text)
        button.setToolTip(tip)
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        return menu, button

    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        selected = self._controller.selected_id
        if selected is not None and (selected in change.changed_ids or redraw.panes):
            self.refresh()

    @property
    def combatant(self) -> Combatant | None:
        """The combatant currently shown (None when nothing is selected)."""
        return self._shown

    def refresh(self) -> None:
        if self._controller.state.ruleset_key != self._part_key:
            self._install_ruleset_part()
        selected = self._controller.selected_id
        combatant = self._controller.combatant_or_none(selected)
        self._shown = combatant
        for w in self._detail_widgets:
            w.setEnabled(combatant is not None)
        if combatant is None:
            self._show_nothing()
        else:
            self._show(combatant)

    def _show_nothing(self) -> None:
        self.swatch.clear()
        self.conditions_label.hide()
        self.hands_label.clear()
        self.name_label.setText("No fighter selected")
        self.place_label.setText("Select a fighter on the map or in the list.")
        if self.section is not None:
            self.section.show_combatant(None)
        if self.sheet_view is not None:
            self.sheet_view.show_sections(())
        self.apply_button.setEnabled(False)
        self.drop_menu.clear()
        self.ready_menu.clear()

    def _load_drop_menu(self, c: Combatant) -> None:
        """One entry per weapon (not bare hands) and the shield; each asks the map
        for the hex (``BattleController.request_drop``)."""
        self.drop_menu.clear()
        for key, name in droppable_items(c):
            action = self.drop_menu.addAction(f"Drop {name}…")
            action.setObjectName(f"drop:{key}")
            action.triggered.connect(
                lambda _=False, cid=c.id, k=key: self._controller.request_drop(cid, k)
            )
        self.drop_button.setEnabled(not self.drop_menu.isEmpty())

    def _load_ready_menu(self, c: Combatant) -> None:
        """One entry per unready weapon (and the shield) and per weapon carried,
        each a ``ReadyWeapon`` (a carried one is drawn); then one per weapon in
        hand, each a ``PutAwayItem`` that frees its hand. All are Ready maneuvers."""
        self.ready_menu.clear()
        readiable = [(key, f"Ready {name}") for key, name in ready_choices(c)]
        readiable += [(key, f"Draw {name}") for key, name in draw_choices(c)]
        for key, text in readiable:
            action = self.ready_menu.addAction(text)
            action.setObjectName(f"ready:{key}")
            action.triggered.connect(
                lambda _=False, cid=c.id, k=key: self._controller.execute(ready_command(cid, k))
            )
        held = put_away_choices(c)
        if readiable and held:
            self.ready_menu.addSeparator()
        for key, name in held:
            action = self.ready_menu.addAction(f"Put away {name}")
            action.setObjectName(f"putAway:{key}")
            action.triggered.connect(
                lambda _=False, cid=c.id, k=key: self._controller.execute(
                    put_away_command(cid, k)
                )
            )
        self.ready_button.setEnabled(not self.ready_menu.isEmpty())

    def _show(self, c: Combatant) -> None:
        self.swatch.setPixmap(side_swatch(c.side, 14, c.status is Status.DEAD).pixmap(14, 14))
        self.name_label.setText(c.name)
        self.place_label.setText(
            f"{side_name(self._controller.state.sides, c.side)} · {hex_name(c.hex)} · "
            f"facing {c.facing.label} · {c.status.value}"
        )
        self._show_conditions(c)
        self.hands_label.setText(hands_line(c))
        if self.section is not None:
            self.section.show_combatant(c)
        if self.sheet_view is not None:
            self.sheet_view.show_sections(self._controller.ruleset.sheets.sections(c))
        self.posture_combo.setCurrentIndex(max(0, self.posture_combo.findData(c.posture)))
        self._load_drop_menu(c)
        self._load_ready_menu(c)
        self._load_edits(c)

    def _show_conditions(self, c: Combatant) -> None:
        ruleset = self._controller.ruleset
        parts = []
        conditions = ", ".join(ruleset.conditions.labels(c))
        if conditions:
            parts.append(f'<span style="color:{BAD_TEXT.name()}">{escape(conditions)}</span>')
        if c.maneuver is not None:
            try:
                maneuver = ruleset.turns.maneuver(c.maneuver.key).describe_choice(c.maneuver.option)
            except RulesError:
                maneuver = c.maneuver.key
            parts.append(f"maneuver: {escape(maneuver)}")
        self.conditions_label.setText(" · ".join(parts))
        self.conditions_label.setVisible(bool(parts))

    # --- edits -------------------------------------------------------------------------
    def _load_edits(self, c: Combatant) -> None:
        maximum = c.fighter.hit_points
        self.hp_spin.blockSignals(True)
        self.status_combo.blockSignals(True)
        try:
            # Room below any ruleset's death threshold (seed 000: -5xHP) and above full
            # HP, within what a Qt number box holds (a file's sheet is bounded anyway).
            low, high = -6 * max(maximum, 1), max(maximum * 2, maximum + 10)
            self.hp_spin.setRange(max(low, -QT_INT_MAX), min(high, QT_INT_MAX))
            self.hp_spin.setValue(c.hp)
            self.hp_spin.setSuffix(f" / {maximum}")
            self.status_combo.setCurrentIndex(self.status_combo.findData(c.status))
        finally:
            self.hp_spin.blockSignals(False)
            self.status_combo.blockSignals(False)
        self._edits_changed()

    def _edits_changed(self) -> None:
        c = self._shown
        changed = c is not None and (
            self.hp_spin.value() != c.hp or self.status_combo.currentData() is not c.status
        )
        self.apply_button.setEnabled(changed)

    def _on_edit_sheet_button_clicked(self) -> None:
        if self._shown is not None:
            self.edit_requested.emit(self._shown.id)

    def apply_edit(self) -> None:
        """Execute ``EditCombatant`` with the spin box and combo values."""
        c = self._shown
        if c is None:
            return
        self.hp_spin.interpretText()
        hp = self.hp_spin.value()
        status = self.status_combo.currentData()
        if hp == c.hp and status is c.status:
            return
        self._controller.execute(
            EditCombatant(
                c.id,
                hp=hp if hp != c.hp else None,
                status=status if status is not c.status else None,
            )
        )

    # --- posture and facing --------------------------------------------------------------
    def _posture_chosen(self, _index: int) -> None:
        c = self._shown
        posture = self.posture_combo.currentData()
        if c is None or posture is c.posture:
            return
        if self._controller.execute(SetPosture(c.id, posture)) is None:
            self.refresh()  # refused (a turn rule): the box shows the posture kept

    def _turn(self, steps: int) -> None:
        c = self._shown
        if c is not None:
            self._controller.execute(TurnCombatant(c.id, c.facing.turned(steps)))



class SheetView(QWidget):
    """A ruleset's sheet (``Sheets.sections``) as titled groups of caption and value
    rows, each with its tooltip, in one grid (the values of every group line up).
    The labels are kept while the sections and their captions stay the same (a
    wound changes only values), so a refresh does not flicker; each value label
    is named ``sheet_<section>_<row>``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspectorSheet")
        self._layout = QGridLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setHorizontalSpacing(8)
        self._layout.setVerticalSpacing(1)
        self._layout.setColumnStretch(1, 1)
        self._shape: tuple[tuple[str, tuple[str, ...]], ...] = ()
        self._parts: list[QWidget] = []
        self._values: list[list[QLabel]] = []
        self._captions: list[list[QLabel]] = []
        self._sections: tuple[SheetSection, ...] = ()
        self.hide()

    @property
    def sections(self) -> tuple[SheetSection, ...]:
        """The sections now shown."""
        return self._sections

    def value_label(self, section: int, row: int) -> QLabel:
        return self._values[section][row]

    def show_sections(self, sections: tuple[SheetSection, ...]) -> None:
        self._sections = sections
        shape = tuple((s.title, tuple(r.label for r in s.rows)) for s in sections)
        if shape != self._shape:
            self._rebuild(sections)
            self._shape = shape
        for i, section in enumerate(sections):
            for j, row in enumerate(section.rows):
                value = self._values[i][j]
                value.setText(row.value)
                value.setToolTip(row.tooltip)
                self._captions[i][j].setToolTip(row.tooltip)
        self.setVisible(bool(sections))

    def _rebuild(self, sections: tuple[SheetSection, ...]) -> None:
        for w in self._parts:
            self._layout.removeWidget(w)
            w.setObjectName("")  # findChild finds only the new rows till it is deleted
            w.hide()
            w.deleteLater()
        self._parts, self._values, self._captions = [], [], []
        line = 0
        for i, section in enumerate(sections):
            heading = section_label(section.title)
            heading.setObjectName(f"sheetSection_{i}")
            self._place(heading, line, 0, 2)
            line += 1
            values, captions = [], []
            for j, row in enumerate(section.rows):
                caption = QLabel(row.label)
                caption.setStyleSheet(f"color:{MUTED.name()}")
                caption.setWordWrap(True)
                value = QLabel()
                value.setObjectName(f"sheet_{i}_{j}")
                value.setWordWrap(True)
                value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                bold = QFont(value.font())
                bold.setBold(True)
                value.setFont(bold)
                self._place(caption, line, 0)
                self._place(value, line, 1)
                line += 1
                values.append(value)
                captions.append(caption)
            self._values.append(values)
            self._captions.append(captions)

    def _place(self, label: QLabel, line: int, column: int, span: int = 1) -> None:
        self._layout.addWidget(label, line, column, 1, span, Qt.AlignmentFlag.AlignTop)
        label.show()  # at once, not at the layout's next pass
        self._parts.append(label)


def hands_line(c: Combatant) -> str:
    """ "In hand: Broadsword (right hand), Medium shield (left arm) · carried: Dagger"."""
    carried = carried_text(c)
    line = f"In hand: {hands_text(c)}"
    return f"{line} · carried: {carried}" if carried else line
