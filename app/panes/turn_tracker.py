"""The turn tracker: the round, whose turn it is and who comes next, each fighter's
maneuver and conditions, "Next" and the active fighter's choice of maneuver.

It reads the turn order from the state (``initiative``, ``active_id``, ``round``,
``rules.battle.turns.upcoming``) and the maneuvers and conditions from the battle's
ruleset (``maneuvers``, ``maneuver``, ``condition_labels``); it changes the battle
only through commands sent to the controller: ``StartTurns`` ("Roll initiative"),
the window's end of the turn ("Next", Ctrl+Return: ``EndTurn``) and
``ChooseManeuver``. A click on a fighter selects it. Once the battle is decided
(``rules.battle.decision``) it names the winner and the round, offers no "Next"
and offers "Continue anyway" (``ContinueBattle``) instead.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.panes.labels import penalty_lines, status_word
from app.panes.widgets import (
    BAD_TEXT,
    ID_ROLE,
    MUTED,
    configure_dock,
    muted_label,
    pane_body,
    side_swatch,
)
from rules.battle.battle import BattleChange
from rules.battle.commands import EndTurn
from rules.battle.decision import ContinueBattle, awaiting_continue, decided_event
from rules.battle.maneuvers import Maneuver, MoveAllowance
from rules.battle.model import Combatant, Status
from rules.battle.state import BattleRuleset, BattleState
from rules.battle.turns import (
    ChooseManeuver,
    StartTurns,
    attacks_left,
    can_act,
    movement_left,
    terms_of,
    upcoming,
)
from rules.core.errors import RulesError
from rules.sets.protocol import Ruleset

ACTIVE_BACK = QColor("#fff1c4")  # the active fighter's row, as the map's selection glow
NO_MANEUVER = "(none yet)"
# The list keeps two rows when the column is short (the dock sizes give it more).
LIST_MIN_HEIGHT = 44


def maneuver_text(ruleset: BattleRuleset, c: Combatant) -> str:
    """The combatant's maneuver as the ruleset names it ("All-out attack (+4 to
    hit)"); "" while it has chosen none."""
    if c.maneuver is None:
        return ""
    try:
        label = ruleset.turns.maneuver(c.maneuver.key).describe_choice(c.maneuver.option)
    except RulesError:
        return c.maneuver.key
    if not c.maneuver.implied:
        return label
    return f"{label} ({implied_by(ruleset.turns.maneuver(c.maneuver.key))})"


def implied_by(maneuver: Maneuver) -> str:
    """How a maneuver taken without choosing it came: "by attacking", "by readying"."""
    if maneuver.implied_by_attack or not maneuver.permits:
        return "by attacking"
    return " or ".join(f"by {a.gerund}" for a in sorted(maneuver.permits, key=lambda a: a.value))


def allowance_text(state: BattleState, ruleset: BattleRuleset, c: Combatant) -> str:
    """What the combatant's maneuver still allows this turn: attacks, movement,
    whether it keeps its active defenses, and readying or a posture change where
    it permits them."""
    parts: list[str] = []
    left = attacks_left(ruleset, c)
    parts.append(f"{left} attack{'' if left == 1 else 's'} left" if left > 0 else "no attack")
    parts.append(movement_text(state, ruleset, c))
    terms = terms_of(ruleset, c)
    if terms is not None and not terms.active_defenses:
        parts.append("no active defense")
    if terms is not None and terms.defense_bonus and terms.defense_kind:
        parts.append(f"{terms.defense_bonus:+d} {terms.defense_kind}")
    if c.maneuver is not None:  # what else it allows: readying, a posture change
        permits = ruleset.turns.maneuver(c.maneuver.key).permits
        parts += [f"may {a.infinitive}" for a in sorted(permits, key=lambda a: a.value)]
    return " · ".join(parts)


def movement_text(state: BattleState, ruleset: BattleRuleset, c: Combatant) -> str:
    """How far the combatant's maneuver (or, without one, the widest still open to
    it) lets it move this turn in its posture ("move 3 left (half Move)", "a step
    left", "crawls 1 hex left (prone)", "no movement")."""
    allowance, movement = movement_left(state, ruleset, c)
    if allowance is MoveAllowance.STEP:
        return "a step left" if movement > 0 else "no step left"
    posture = c.posture.value.replace("_", " ")
    limit = ruleset.turns.posture_move(c.posture)
    if allowance is MoveAllowance.NONE or limit.hexes == 0:
        return "no movement" if limit.hexes != 0 else f"no movement ({posture})"
    if limit.hexes is not None:
        left = max(0, movement)
        return f"{limit.verb} {left} hex{'' if left == 1 else 'es'} left ({posture})"
    return f"move {max(0, movement)} left ({allowance.label})"


def tracker_order(state: BattleState) -> tuple[str, ...]:
    """The fighters as the tracker lists them: the turn order from the fighter whose
    turn it is (the round goes on from there), then anybody without a place in it;
    the battle's order before the order is rolled."""
    if state.active_id is None:
        return tuple(c.id for c in state.combatants)
    order = state.initiative
    start = order.index(state.active_id)
    rotated = order[start:] + order[:start]
    return rotated + tuple(c.id for c in state.combatants if c.id not in order)


def _narrow_combo(object_name: str, characters: int) -> QComboBox:
    """A combo box as wide as ``characters`` letters, not as its longest item, so
    that a long maneuver name does not widen the pane."""
    combo = QComboBox()
    combo.setObjectName(object_name)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(characters)
    return combo


class TurnTrackerPane(QDockWidget):
    def __init__(
        self,
        controller: BattleController,
        parent: QWidget | None = None,
        *,
        end_turn: Callable[[], object] | None = None,
    ) -> None:
        """``end_turn``: what "Next" does (the window's End Turn, which may ask
        first); without it, ``EndTurn`` at once."""
        super().__init__(parent)
        configure_dock(self, "turnTrackerPane", "Turns")
        self._controller = controller
        self._end_turn = end_turn if end_turn is not None else self._execute_end_turn
        self._maneuvers: tuple[Maneuver, ...] = ()
        self._updating = False

        self.round_label = QLabel()
        self.round_label.setObjectName("roundLabel")
        bold = QFont(self.round_label.font())
        bold.setBold(True)
        self.round_label.setFont(bold)
        self.round_label.setWordWrap(True)
        self.start_button = QPushButton("Roll initiative")
        self.start_button.setObjectName("startTurnsButton")
        self.start_button.setToolTip(
            "Roll the turn order by the ruleset's initiative and begin the first turn"
        )
        self.start_button.clicked.connect(self._on_start_button_clicked)
        self.next_button = QPushButton("Ne&xt ▸")
        self.next_button.setObjectName("nextTurnButton")
        self.next_button.clicked.connect(self._on_next_button_clicked)
        self.continue_button = QPushButton("Continue anyway")
        self.continue_button.setObjectName("continueBattleButton")
        self.continue_button.setToolTip(
            "The battle is decided: play on anyway (Undo takes the battle back instead)"
        )
        self.continue_button.clicked.connect(self._on_continue_button_clicked)

        self.maneuver_combo = _narrow_combo("maneuverCombo", 10)
        self.maneuver_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.maneuver_combo.activated.connect(self._on_maneuver_combo_activated)
        self.option_combo = _narrow_combo("maneuverOptionCombo", 6)
        self.option_combo.activated.connect(self._on_option_combo_activated)
        self.allowance_label = muted_label("allowanceLabel", word_wrap=True)

        self.order_list = QListWidget()
        self.order_list.setObjectName("turnOrderList")
        self.order_list.setToolTip(
            "The turn order from the fighter whose turn it is; a click selects a fighter"
        )
        self.order_list.setMinimumHeight(LIST_MIN_HEIGHT)
        self.order_list.setUniformItemSizes(False)
        self.order_list.setWordWrap(True)
        self.order_list.itemClicked.connect(self._on_order_list_item_clicked)

        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.round_label, 1)
        head.addWidget(self.start_button)
        head.addWidget(self.next_button)
        self.continue_button.hide()
        head.addWidget(self.continue_button)
        choice = QGridLayout()
        choice.setContentsMargins(0, 0, 0, 0)
        choice.setHorizontalSpacing(4)
        caption = QLabel("Maneuver")  # no mnemonic: the attack pane's take every letter
        choice.addWidget(caption, 0, 0)
        choice.addWidget(self.maneuver_combo, 0, 1)
        choice.addWidget(self.option_combo, 0, 2)
        choice.addWidget(self.allowance_label, 1, 0, 1, 3)
        choice.setColumnStretch(1, 3)
        choice.setColumnStretch(2, 2)
        body, layout = pane_body("turnTrackerBody", 4)
        layout.addLayout(head)
        layout.addLayout(choice)
        layout.addWidget(self.order_list, 1)
        self.setWidget(body)

        controller.battle_changed.connect(self._on_controller_battle_changed)
        controller.battle_reset.connect(self.refresh)
        controller.selection_changed.connect(self._on_controller_selection_changed)
        self.refresh()

    # --- what the pane shows ---------------------------------------------------------------
    @property
    def chooser_id(self) -> str | None:
        """Whose maneuver the maneuver box chooses: the fighter whose turn it is, or
        the selected fighter before the turn order is rolled."""
        state = self._controller.state
        if state.active_id is not None:
            return state.active_id
        return self._controller.selected_id

    def refresh(self) -> None:
        state = self._controller.state
        ruleset = self._controller.ruleset
        self._show_round(state, ruleset)
        self._fill_order(state, ruleset)
        self._fill_maneuvers(state, ruleset)

    def _show_round(self, state: BattleState, ruleset: Ruleset) -> None:
        running = state.turns_running
        decided = awaiting_continue(state)
        self.start_button.setVisible(not running and not decided)
        self.next_button.setVisible(not decided)
        self.continue_button.setVisible(decided)
        if decided and state.outcome is not None:
            event = decided_event(state, state.outcome)
            self.round_label.setText(f"{event.headline} · round {event.round}")
            self.round_label.setToolTip(f"The battle is decided: {event.reason}")
            return
        if not running:
            self.round_label.setText(f"Round {state.turn} · no order")
            self.round_label.setToolTip("Roll initiative to take turns in order")
            self.next_button.setToolTip("End the turn for everybody (Ctrl+Return)")
            return
        active = state.combatant(state.active_id) if state.active_id is not None else None
        name = active.name if active is not None else "nobody"
        self.round_label.setText(f"Round {state.round} · {name}'s turn")
        following = [state.combatant(i).name for i in upcoming(state, ruleset)]
        self.round_label.setToolTip(
            f"Then: {', '.join(following)}" if following else "Nobody else can take a turn"
        )
        then = f"; {following[0]} is next" if following else ""
        self.next_button.setToolTip(f"End {name}'s turn{then} (Ctrl+Return)")

    def _fill_order(self, state: BattleState, ruleset: Ruleset) -> None:
        order = tracker_order(state)
        number = {cid: i for i, cid in enumerate(state.initiative, start=1)}
        following = upcoming(state, ruleset)
        selected = self._controller.selected_id
        self.order_list.blockSignals(True)
        self.order_list.clear()
        for cid in order:
            c = state.combatant(cid)
            item = QListWidgetItem(self._row_text(state, ruleset, c, number.get(cid), following))
            item.setData(ID_ROLE, c.id)
            dead = c.status is Status.DEAD
            item.setIcon(side_swatch(c.side, 12, dead))
            font = QFont(self.order_list.font())
            if c.id == state.active_id:
                font.setBold(True)
                item.setBackground(QBrush(ACTIVE_BACK))
            if dead:
                font.setStrikeOut(True)
                item.setForeground(QBrush(MUTED))
            elif c.status is not Status.ACTIVE:
                item.setForeground(QBrush(BAD_TEXT))
            item.setFont(font)
            item.setToolTip(self._row_tip(ruleset, c))
            self.order_list.addItem(item)
            if c.id == selected:
                item.setSelected(True)
        self.order_list.blockSignals(False)

    def _row_text(
        self,
        state: BattleState,
        ruleset: Ruleset,
        c: Combatant,
        number: int | None,
        following: tuple[str, ...],
    ) -> str:
        place = f"{number}. " if number is not None else ""
        if c.id == state.active_id:
            mark = "  ◀ now"
        elif following and c.id == following[0]:
            mark = "  · next"
        elif c.status is Status.DEAD and state.turns_running:
            mark = "  · skipped"
        elif state.turns_running and not can_act(state, ruleset, c.id):
            mark = "  · passed over"  # its turn ends as it begins (unconscious)
        else:
            mark = ""
        details = [maneuver_text(ruleset, c)] if c.maneuver is not None else []
        details += ruleset.conditions.labels(c)
        second = "\n    " + " · ".join(details) if details else ""
        return f"{place}{c.name}{mark}{second}"

    def _row_tip(self, ruleset: Ruleset, c: Combatant) -> str:
        """The fighter's health in its ruleset's terms, its state, maneuver and
        conditions, and the penalties in force (the ruleset's condition view)."""
        view = ruleset.conditions.fighter_condition(c)
        health = f"{ruleset.conditions.health_heading} {ruleset.conditions.health(c).text}"
        lines = [f"{c.name}: {health}, {status_word(view, c.status)}"]
        maneuver = maneuver_text(ruleset, c)
        lines.append(f"Maneuver: {maneuver or 'none chosen yet'}")
        conditions = ruleset.conditions.labels(c)
        if conditions:
            lines.append(f"Conditions: {', '.join(conditions)}")
        penalties = penalty_lines(view, c)
        if penalties:
            lines.append(f"Penalties: {'; '.join(penalties)}")
        return "\n".join(lines)

    def _fill_maneuvers(self, state: BattleState, ruleset: Ruleset) -> None:
        """The maneuver box for the chooser: the maneuvers the ruleset offers it now,
        each with its description as tooltip; the option box for one with options."""
        chooser = self._controller.combatant_or_none(self.chooser_id)
        self._maneuvers = ruleset.turns.maneuvers(state, chooser.id) if chooser is not None else ()
        self._updating = True
        try:
            combo = self.maneuver_combo
            combo.clear()
            combo.addItem(NO_MANEUVER, "")
            chosen = chooser.maneuver if chooser is not None else None
            for m in self._maneuvers:
                combo.addItem(m.label, m.key)
                combo.setItemData(combo.count() - 1, m.description, Qt.ItemDataRole.ToolTipRole)
            if chosen is not None and combo.findData(chosen.key) < 0:
                # chosen earlier, no longer on offer (a stunned fighter): still shown
                combo.addItem(maneuver_text(ruleset, chooser) if chooser else chosen.key,
                              chosen.key)  # fmt: skip
            combo.setCurrentIndex(max(0, combo.findData(chosen.key)) if chosen else 0)
            combo.setEnabled(chooser is not None and bool(self._maneuvers))
            self._fill_options(ruleset)
        finally:
            self._updating = False
        if chooser is None:
            self.maneuver_combo.setToolTip("Select a fighter to choose its maneuver")
            self.allowance_label.setText("")
            return
        who = f"{chooser.name}'s maneuver for this turn"
        current = self._current_maneuver()
        tip = f"{who}: {current.description}" if current is not None else who
        self.maneuver_combo.setToolTip(tip)
        if not self._maneuvers:
            self.allowance_label.setText(f"{chooser.name} is {chooser.status.value}: no maneuver")
        else:
            who = "" if chooser.id == state.active_id else f"{chooser.name}: "
            self.allowance_label.setText(f"{who}{allowance_text(state, ruleset, chooser)}")

    def _fill_options(self, ruleset: Ruleset) -> None:
        chooser = self._controller.combatant_or_none(self.chooser_id)
        current = self._current_maneuver()
        combo = self.option_combo
        combo.clear()
        options = current.options if current is not None else ()
        for o in options:
            combo.addItem(o.label, o.key)
            combo.setItemData(combo.count() - 1, o.description, Qt.ItemDataRole.ToolTipRole)
        chosen = chooser.maneuver if chooser is not None else None
        if chosen is not None and current is not None and chosen.key == current.key:
            combo.setCurrentIndex(max(0, combo.findData(chosen.option)))
        combo.setVisible(bool(options))
        combo.setEnabled(bool(options) and self.maneuver_combo.isEnabled())
        combo.setToolTip(
            f"How to take the {current.label.lower()}" if current is not None and options else ""
        )

    def _current_maneuver(self) -> Maneuver | None:
        key = self.maneuver_combo.currentData()
        try:
            return self._controller.ruleset.turns.maneuver(key) if key else None
        except RulesError:
            return None

    # --- reactions -----------------------------------------------------------------------------
    def _on_controller_battle_changed(self, _change: BattleChange, _redraw: Redraw) -> None:
        self.refresh()  # a turn, a maneuver, a wound or an undo: any of them shows here

    def _on_controller_selection_changed(self, _selected: object) -> None:
        if self._controller.state.active_id is None:
            self.refresh()  # the maneuver box follows the selection until turns run
            return
        self.order_list.blockSignals(True)
        for i in range(self.order_list.count()):
            item = self.order_list.item(i)
            item.setSelected(item.data(ID_ROLE) == self._controller.selected_id)
        self.order_list.blockSignals(False)

    def _on_order_list_item_clicked(self, item: QListWidgetItem) -> None:
        self._controller.select(item.data(ID_ROLE))

    def _on_start_button_clicked(self) -> None:
        self._controller.execute(StartTurns())

    def _on_next_button_clicked(self) -> None:
        self._end_turn()

    def _execute_end_turn(self) -> None:
        self._controller.execute(EndTurn())

    def _on_continue_button_clicked(self) -> None:
        self._controller.execute(ContinueBattle())

    def _on_maneuver_combo_activated(self, _index: int) -> None:
        if self._updating:
            return
        self._fill_options(self._controller.ruleset)
        self._choose()

    def _on_option_combo_activated(self, _index: int) -> None:
        if not self._updating:
            self._choose()

    def _choose(self) -> None:
        """Send ``ChooseManeuver`` for what the boxes show; nothing for the
        placeholder. A refusal comes back through the controller (status bar)."""
        chooser = self.chooser_id
        key = self.maneuver_combo.currentData()
        if chooser is None or not key:
            return
        option = self.option_combo.currentData() if self.option_combo.count() else ""
        if self._controller.execute(ChooseManeuver(chooser, key, option or "")) is None:
            self.refresh()  # refused: the battle is as it was, so is its choice
