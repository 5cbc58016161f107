"""The generic attack pane: a ruleset's attack form (``rules.sets.attack_form``)
drawn as boxes, its preview and exact odds, and the Roll that executes ``Attack``.

The attacker is the controller's selection and the defender its target (the two
boxes at the top change them in the controller, so the map agrees). Below them
the pane draws the fields of the ruleset's ``AttackForm`` in order, knowing none
by name: a combo box per field (a choice the rules refuse is greyed out, its
tooltip the reason) and a check box per flag field. After every change it asks
the form again with the GM's entries, since a field may depend on an earlier one
(the aim on the weapon); the entries stay while the same attacker and defender
stay selected. The form's choices and the defender's answer go to
``Attacks.preview_attack``: the summary, each modifier with its citation, and the
exact odds as percentages (the exact fraction in the tooltip). Roll (Enter
anywhere in the pane, or in the window) executes ``Attack(attacker, defender,
form.choices, form.answer)`` through the controller, so
physical dice, undo and the GM's override work as for every command; a form
without choices, or a refused preview, shows why and disables Roll. Ctrl+Return
stays End Turn, here too. Over Roll it says when the target is the attacker's
ally, and each notice of a choice taken ("No defense: ...").
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from html import escape

from PySide6.QtCore import QEvent, QKeyCombination, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence, QMouseEvent, QStandardItemModel
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.controller import BattleController, Redraw
from app.defense_answers import computer_answer, note_answer
from app.event_text import Tone
from app.help import key_sequences
from app.panes.attack_notes import (
    ally_mark,
    ally_notice,
    last_roll_follows_history,
    no_target_hint,
    notice_label,
    show_notices,
)
from app.panes.labels import fighter_choice
from app.panes.widgets import (
    BAD_TEXT,
    MUTED,
    WARN_BACK,
    VerticalScrollArea,
    buddy_label,
    configure_dock,
    hline,
    muted_label,
    pane_body,
    section_label,
)
from app.rulesets import ruleset_ui
from app.theme import ARC_COLOURS
from hexmap.arcs import arc_of
from rules.battle.attack_choices import AttackChoices
from rules.battle.battle import BattleChange
from rules.battle.commands import Attack
from rules.battle.model import Combatant
from rules.battle.state import BattleState
from rules.battle.turns import attack_problems, attacks_left
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.core.modifiers import Modifier
from rules.play.defense import DefenseAnswer
from rules.sets.attack_form import FLAG_OFF, FLAG_ON, AttackForm, FormAttacks, FormField
from rules.sets.protocol import AttackPreview, OddsLine
from rules.sets.registry import ruleset_of

# Never used: the form's choices are checked before a computer's answer is asked.
_NO_CHOICES = AttackChoices()

# Letters a field's caption leaves to others: the pane's own ("&Attacker",
# "&Target", "&Roll"), the menu bar's (&File, &View, &Battle, &Help) and the other
# panes' ("Clear tar&get", "Appl&y", "Stat&us", "Ne&xt"). A field's caption takes
# the first other letter of its label (seed 002's "Target &helpless" took Help's).
_RESERVED_MNEMONICS = frozenset("atrfvbhgyux")
# The longest odds caption that still shares its row with another ("stopped by dodge").
SHORT_ODDS_CAPTION = 16
# The tones of the log's lines that say what an attack came to (the "Last roll" line).
_OUTCOME_TONES = (Tone.OUTCOME, Tone.HARM, Tone.CRITICAL)


def percent(p: Fraction) -> str:
    """An exact probability as a GM reads it: one decimal, the ends marked ("<0.1%",
    ">99.9%") so that a tiny chance never reads as 0 or 100."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def exact_text(p: Fraction) -> str:
    """The exact probability for a tooltip: "exactly 37/216 (17.13%)"."""
    return f"exactly {p.numerator}/{p.denominator} ({float(p) * 100:.4g}%)"


class AttackFormPane(QDockWidget):
    """The attack pane of every ruleset that describes its attack as an
    ``AttackForm`` (``form_of(state)`` answers it for the battle now shown)."""

    def __init__(
        self,
        controller: BattleController,
        form_of: Callable[[BattleState], FormAttacks],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        configure_dock(self, "attackPane", "Attack")
        self._controller = controller
        self._form_of = form_of
        self._updating = 0
        self._form: AttackForm | None = None
        # A computer defender's answer to the attack shown (app.defense_answers), and
        # the fields that hold it, greyed: its own, not the GM's.
        self._computer: DefenseAnswer | None = None
        self._computer_fields: frozenset[str] = frozenset()
        self._preview: AttackPreview | None = None
        self._error: str | None = None
        # The GM's entries (field key -> choice key) and the pair they were made for.
        self._entries: dict[str, str] = {}
        self._entries_for: tuple[str | None, str | None] | None = None
        self._last_roll_by: str | None = None
        self.preview_seconds = 0.0  # how long the last preview took

        # --- who -------------------------------------------------------------------------
        self.attacker_combo = _combo("attackerCombo", "The attacker (the selected combatant)")
        self.target_combo = _combo("targetCombo", "The defender (the target)")
        who = QGridLayout()
        who.setContentsMargins(0, 0, 0, 0)
        who.setHorizontalSpacing(6)
        who.setVerticalSpacing(3)
        who.addWidget(buddy_label("&Attacker", self.attacker_combo), 0, 0)
        who.addWidget(self.attacker_combo, 0, 1)
        who.addWidget(buddy_label("&Target", self.target_combo), 1, 0)
        who.addWidget(self.target_combo, 1, 1)
        who.setColumnStretch(1, 1)

        # --- the form's fields, drawn from the ruleset's AttackForm -----------------------
        self.fields_box = QWidget()
        self.fields_box.setObjectName("attackFormFields")
        self._grid = QGridLayout(self.fields_box)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(6)
        self._grid.setVerticalSpacing(3)
        self._grid.setColumnStretch(1, 1)
        self._widgets: dict[str, QComboBox | QCheckBox] = {}
        self._captions: dict[str, QLabel] = {}
        self._flag_rows: dict[str, FlagRow] = {}
        self._order: tuple[str, ...] = ()

        # --- the preview -----------------------------------------------------------------
        self.turn_label = QLabel()
        self.turn_label.setObjectName("attackTurnLabel")
        self.turn_label.setWordWrap(True)
        self.turn_label.setTextFormat(Qt.TextFormat.RichText)
        self.turn_label.hide()
        self.arc_label = QLabel()
        self.arc_label.setObjectName("arcLabel")
        self.arc_label.setWordWrap(True)
        self.arc_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label = QLabel()
        self.summary_label.setObjectName("previewSummary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bold = self.summary_label.font()
        bold.setBold(True)
        self.summary_label.setFont(bold)
        self.modifiers_box = QWidget()
        self.modifiers_box.setObjectName("previewModifiers")
        self._modifiers_grid = QGridLayout(self.modifiers_box)
        self._modifiers_grid.setContentsMargins(0, 0, 0, 0)
        self._modifiers_grid.setHorizontalSpacing(6)
        self._modifiers_grid.setVerticalSpacing(1)
        self._modifiers_grid.setColumnStretch(1, 1)
        self._modifier_labels: list[QLabel] = []
        self._modifiers_shown: tuple[Modifier, ...] = ()

        # --- refusal, odds, roll ---------------------------------------------------------
        self.error_label = QLabel()
        self.error_label.setObjectName("attackError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(
            f"color:{BAD_TEXT.name()}; background:{WARN_BACK.name()};"
            "border:1px solid #e6a8a2; border-radius:3px; padding:3px"
        )
        self.error_label.hide()
        self.notice_label = notice_label("attackNotice")
        self.odds_box = QWidget()
        self.odds_box.setObjectName("oddsPanel")
        self.odds_box.setToolTip("Exact odds of this attack, before the roll")
        self._odds_grid = QGridLayout(self.odds_box)
        self._odds_grid.setContentsMargins(0, 0, 0, 0)
        self._odds_grid.setHorizontalSpacing(6)
        self._odds_grid.setVerticalSpacing(0)
        self._odds_labels: list[QLabel] = []
        self._odds_values: dict[str, QLabel] = {}
        self._odds_lines: tuple[OddsLine, ...] = ()
        self.odds_box.hide()
        self.last_label = muted_label("lastRollLabel", word_wrap=True)
        self.roll_button = QPushButton("&Roll")
        self.roll_button.setObjectName("rollButton")
        self.roll_button.setToolTip("Roll the attack (Enter)")
        self.roll_button.setDefault(True)
        self.roll_button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.roll_button.clicked.connect(self.roll)

        # --- layout ----------------------------------------------------------------------
        body, layout = pane_body("attackBody", 6)
        layout.addLayout(who)
        self.form_heading = section_label("Attack")
        layout.addWidget(self.form_heading)
        layout.addWidget(self.fields_box)
        layout.addWidget(hline())
        layout.addWidget(self.turn_label)
        layout.addWidget(self.arc_label)
        layout.addWidget(self.summary_label)
        layout.addWidget(self.modifiers_box)
        layout.addStretch(1)
        self.scroll_area = VerticalScrollArea(body)

        footer = QVBoxLayout()
        footer.setContentsMargins(6, 2, 6, 6)
        footer.setSpacing(3)
        # Roll last, at the pane's bottom edge: a refusal, the odds and the last
        # roll take their room from the scrolling part, so the button never moves
        # under the GM's pointer.
        footer.addWidget(self.error_label)
        footer.addWidget(self.notice_label)
        footer.addWidget(self.odds_box)
        footer.addWidget(self.last_label)
        roll_row = QHBoxLayout()
        roll_row.addWidget(self.roll_button)
        footer.addLayout(roll_row)

        self._outer = QWidget()
        outer_layout = QVBoxLayout(self._outer)
        outer_layout.setContentsMargins(0, 0, 0, 0)
        outer_layout.setSpacing(0)
        outer_layout.addWidget(self.scroll_area, 1)
        outer_layout.addLayout(footer)
        self.setWidget(self._outer)
        # Enter anywhere in the pane rolls (see eventFilter); the fields' boxes get
        # the filter as they are made.
        for w in self._outer.findChildren(QWidget):
            w.installEventFilter(self)

        self.attacker_combo.activated.connect(self._attacker_chosen)
        self.target_combo.activated.connect(self._target_chosen)
        # Bound methods, not lambdas: a pane deleted (a battle of another ruleset
        # came) is disconnected with it.
        controller.selection_changed.connect(self._on_pair_changed)
        controller.target_changed.connect(self._on_pair_changed)
        controller.battle_reset.connect(self.refresh)
        controller.battle_changed.connect(self._on_battle_changed)
        self.refresh()

    # --- public ------------------------------------------------------------------------
    @property
    def attacker_id(self) -> str | None:
        return self._controller.selected_id

    @property
    def defender_id(self) -> str | None:
        target = self._controller.target_id
        return target if target != self._controller.selected_id else None

    @property
    def form(self) -> AttackForm | None:
        """The form now drawn (None without an attacker and a defender)."""
        return self._form

    @property
    def preview(self) -> AttackPreview | None:
        """The preview now shown (None when no attack can be made)."""
        return self._preview

    @property
    def error(self) -> str | None:
        """Why no attack can be made now (the form's problem or the refusal)."""
        return self._error

    @property
    def entries(self) -> dict[str, str]:
        """The GM's entries for the pair now selected."""
        return dict(self._entries)

    def field_widget(self, key: str) -> QComboBox | QCheckBox:
        """The box drawn for the form's field ``key``."""
        return self._widgets[key]

    def odds_text(self, label: str) -> str:
        """The percentage shown for the odds line ``label`` ("" when not shown)."""
        value = self._odds_values.get(label)
        return value.text() if value is not None else ""

    def odds_tooltip(self, label: str) -> str:
        value = self._odds_values.get(label)
        return value.toolTip() if value is not None else ""

    def command(self) -> Attack | None:
        """The attack Roll would execute now (None when Roll is disabled)."""
        form = self._form
        attacker, defender = self.attacker_id, self.defender_id
        if form is None or form.choices is None or self._preview is None:
            return None
        if attacker is None or defender is None:
            return None
        answer = self._computer.answer if self._computer is not None else form.answer
        return Attack(attacker, defender, form.choices, answer)

    def roll(self) -> None:
        """Execute the attack shown (nothing when Roll is disabled)."""
        self.refresh()
        command = self.command()
        if command is None:
            return
        if self._computer is not None:
            note_answer(self._controller, command, self._computer)
        events = self._controller.execute(command)
        if events:
            self._show_last(events)

    def set_entry(self, key: str, value: str) -> None:
        """Take the GM's entry ``value`` for the field ``key`` and ask the form again."""
        self._entries[key] = value
        self.refresh()

    # --- refresh -----------------------------------------------------------------------
    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        self.refresh()
        last_roll_follows_history(change, self.attacker_id, self.last_label, self._show_last)

    def _on_pair_changed(self, _combatant_id: object) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Redraw everything from the controller's state and the GM's entries."""
        if self._updating:
            return
        self._updating += 1
        try:
            self._refresh()
        finally:
            self._updating -= 1

    def _refresh(self) -> None:
        state = self._controller.state
        attacker = self._controller.combatant_or_none(self.attacker_id)
        defender = self._controller.combatant_or_none(self.defender_id)
        _fill_combatants(
            self.attacker_combo, state.combatants, attacker, "(select a fighter)", state
        )
        others = [c for c in state.combatants if attacker is None or c.id != attacker.id]
        _fill_combatants(self.target_combo, others, defender, "(choose a target)", state, attacker)
        pair = (
            attacker.id if attacker is not None else None,
            defender.id if defender is not None else None,
        )
        if pair != self._entries_for:
            self._entries_for = pair
            self._entries = {}
        if pair[0] != self._last_roll_by:
            self._last_roll_by = pair[0]
            self.last_label.clear()
        self._form, self._preview, self._error = None, None, None
        self._computer, self._computer_fields = None, frozenset()
        show_notices(self.notice_label, ())
        if attacker is None:
            self._show_fields(())
            self._show_hint("Select the attacker on the map or in the combatants list.")
            return
        if defender is None:
            self._show_fields(())
            self._show_hint(no_target_hint(attacker, self._controller.target_cleared))
            return
        try:
            form = self._form_of(state).attack_form(state, attacker.id, defender.id, self._entries)
            if form.choices is not None:
                form = self._with_computer_answer(state, attacker.id, defender.id, form)
        except RulesError as refusal:
            self._show_fields(())
            self._show_refusal(str(refusal), attacker, defender)
            return
        self._form = form
        computer_reason = (self._computer.reason,) if self._computer is not None else ()
        show_notices(
            self.notice_label, (ally_notice(attacker, defender), *form.notices, *computer_reason)
        )
        self._show_fields(form.fields)
        computer = self._computer
        if computer is not None:
            for key in self._computer_fields:
                widget = self._widgets[key]
                widget.setEnabled(False)
                widget.setToolTip(f"The computer's choice: {computer.reason}")
        self._show_turn(attacker, defender)
        self.arc_label.setText(arc_html(attacker, defender))
        if form.choices is None:
            self._show_refusal(form.problem or "no attack can be made", attacker, defender)
            return
        started = time.perf_counter()
        try:
            answer = self._computer.answer if self._computer is not None else form.answer
            preview = ruleset_of(state).attacks.preview_attack(
                state, attacker.id, defender.id, form.choices, answer
            )
        except RulesError as refusal:
            self._show_refusal(str(refusal), attacker, defender)
            return
        self.preview_seconds = time.perf_counter() - started
        self._preview = preview
        self.error_label.hide()
        self.summary_label.setText(preview.summary)
        self.summary_label.show()
        self._show_modifiers(preview.modifiers)
        self._show_odds(preview.odds)
        self.roll_button.setEnabled(True)

    def _with_computer_answer(
        self, state: BattleState, attacker_id: str, defender_id: str, form: AttackForm
    ) -> AttackForm:
        """The form showing a computer defender's own answer (``_computer``), its
        fields greyed (``_computer_fields``); ``form`` itself when the GM plays
        the defender. The fields that hold the answer are those whose other
        choices change the answer and not the attacker's choices."""
        chosen = computer_answer(
            self._controller, Attack(attacker_id, defender_id, form.choices or _NO_CHOICES)
        )
        if chosen is None:
            return form
        self._computer = chosen
        forms = self._form_of(state)
        shown, holding = form, set()
        for f in form.fields:
            if f.flag:
                continue
            for c in f.choices:
                if c.key == f.value or c.problem:
                    continue
                entries = {**form.entries, f.key: c.key}
                other = forms.attack_form(state, attacker_id, defender_id, entries)
                if other.choices != form.choices:
                    break  # the attacker's field
                holding.add(f.key)
                if other.answer == chosen.answer and shown.answer != chosen.answer:
                    shown = other
        self._computer_fields = frozenset(holding)
        return shown

    # --- the fields --------------------------------------------------------------------
    def _show_fields(self, fields: Sequence[FormField]) -> None:
        """One box per field, in the form's order: a box keeps its widget (and the
        focus) while its field stays, so a change that adds a field (a ranged
        weapon's range) never takes the box the GM is in away."""
        keys = tuple(f.key for f in fields)
        for f in fields:
            widget = self._widgets.get(f.key)
            if widget is not None and isinstance(widget, QCheckBox) != f.flag:
                self._drop_field(f.key)
                widget = None
            if widget is None:
                self._make_field(f)
        for key in [k for k in self._widgets if k not in keys]:
            self._drop_field(key)
        if keys != self._order:
            self._lay_out(keys)
        for f in fields:
            self._fill_field(f)
        self.form_heading.setVisible(bool(fields))
        self.fields_box.setVisible(bool(fields))

    def _make_field(self, f: FormField) -> None:
        widget: QComboBox | QCheckBox
        text = _mnemonic_text(f.label, self._used_mnemonics())
        if f.flag:
            row = FlagRow(text)
            widget, caption = row.check, row.label
            widget.toggled.connect(
                lambda on, key=f.key: self._field_changed(key, FLAG_ON if on else FLAG_OFF)
            )
            self._flag_rows[f.key] = row
        else:
            widget = _combo("", f.tooltip or f.label)
            widget.currentIndexChanged.connect(
                lambda _i, key=f.key, box=widget: self._field_changed(key, box.currentData())
            )
            caption = buddy_label(text, widget)
            caption.setWordWrap(True)  # a long caption wraps, never widens the dock
        caption.setObjectName(f"fieldCaption_{f.key}")
        caption.installEventFilter(self)
        self._captions[f.key] = caption
        widget.setObjectName(f"field_{f.key}")
        widget.installEventFilter(self)
        view = widget.view() if isinstance(widget, QComboBox) else None
        if view is not None:
            view.installEventFilter(self)
        self._widgets[f.key] = widget

    def _used_mnemonics(self) -> set[str]:
        used = set(_RESERVED_MNEMONICS)
        for w in (*self._captions.values(), *self._widgets.values()):
            if isinstance(w, QLabel | QCheckBox):
                letter = _mnemonic_of(w.text())
                if letter:
                    used.add(letter)
        return used

    def _drop_field(self, key: str) -> None:
        gone = (
            self._widgets.pop(key, None),
            self._captions.pop(key, None),
            self._flag_rows.pop(key, None),
        )
        _discard(self._grid, [w for w in gone if w is not None])
        self._order = tuple(k for k in self._order if k != key)

    def _lay_out(self, keys: tuple[str, ...]) -> None:
        for key in keys:
            for w in (self._flag_rows.get(key), self._captions[key], self._widgets[key]):
                if w is not None:
                    self._grid.removeWidget(w)
        for row, key in enumerate(keys):
            flag = self._flag_rows.get(key)
            if flag is not None:
                self._grid.addWidget(flag, row, 0, 1, 2)
            else:
                self._grid.addWidget(self._captions[key], row, 0)
                self._grid.addWidget(self._widgets[key], row, 1)
        self._order = keys
        # Tab goes down the form in its order, from the Target box to Roll.
        chain: list[QWidget] = [self.attacker_combo, self.target_combo]
        chain += [self._widgets[k] for k in keys]
        chain.append(self.roll_button)
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def _fill_field(self, f: FormField) -> None:
        widget = self._widgets[f.key]
        widget.blockSignals(True)
        try:
            if isinstance(widget, QCheckBox):
                widget.setChecked(f.value == FLAG_ON)
                widget.setToolTip(f.tooltip)
                self._captions[f.key].setToolTip(f.tooltip)
                return
            caption = self._captions.get(f.key)
            if caption is not None:
                caption.setToolTip(f.tooltip)
            items = [(c.label, c.key) for c in f.choices]
            current = [(widget.itemText(i), widget.itemData(i)) for i in range(widget.count())]
            if current != items:
                widget.clear()
                for text, data in items:
                    widget.addItem(text, data)
            model = widget.model()
            for index, c in enumerate(f.choices):
                item = model.item(index) if isinstance(model, QStandardItemModel) else None
                if item is not None:
                    item.setEnabled(not c.problem or c.key == f.value)
                tip = f"Not allowed: {c.problem}" if c.problem else c.tooltip
                if c.problem and c.tooltip:
                    tip = f"{tip}\n{c.tooltip}"
                widget.setItemData(index, tip or None, Qt.ItemDataRole.ToolTipRole)
            index = next((i for i, c in enumerate(f.choices) if c.key == f.value), -1)
            # no value: every choice is refused (nothing reaches), each saying why
            nothing = bool(f.choices) and all(c.problem for c in f.choices)
            widget.setPlaceholderText("(none possible)" if nothing else "(choose)")
            widget.setCurrentIndex(index)
            widget.setEnabled(bool(f.choices))
            # the box's tooltip: what the field is, then what the choice taken means
            taken = f.choices[index] if index >= 0 else None
            tips = [f.tooltip or f.label]
            if taken is not None:
                # the whole label too: a long one ("Dagger (throw, 1d4, small,
                # range 10)") is cut off by the box's width beside the map
                tips.append(f"{taken.label}: {taken.tooltip}" if taken.tooltip else taken.label)
            widget.setToolTip("\n".join(tips))
            widget.setAccessibleName(f.label)
        finally:
            widget.blockSignals(False)

    def _field_changed(self, key: str, value: object) -> None:
        if self._updating or not isinstance(value, str):
            return
        self._entries[key] = value
        self.refresh()

    # --- the preview -------------------------------------------------------------------
    def _show_modifiers(self, modifiers: Sequence[Modifier]) -> None:
        """Each modifier's value and reason, its citation small beside it and in
        the tooltip; the rows stay as they are while the modifiers do."""
        if tuple(modifiers) == self._modifiers_shown:
            return
        self._modifiers_shown = tuple(modifiers)
        _discard(self._modifiers_grid, self._modifier_labels)
        self._modifier_labels = []
        for row, m in enumerate(modifiers):
            value = QLabel(f"{m.value:+d}" if m.value else "±0")
            value.setObjectName(f"modifierValue_{row}")
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            reason = QLabel(
                f"{escape(m.reason, quote=False)} "
                f'<span style="color:{MUTED.name()};font-size:small">'
                f"· {escape(str(m.citation))}</span>"
            )
            reason.setObjectName(f"modifierReason_{row}")
            reason.setTextFormat(Qt.TextFormat.RichText)
            reason.setWordWrap(True)
            for w in (value, reason):
                w.setToolTip(f"{m.reason}: {m.value:+d} ({m.citation})")
            self._modifiers_grid.addWidget(value, row, 0)
            self._modifiers_grid.addWidget(reason, row, 1)
            self._modifier_labels += [value, reason]
        self.modifiers_box.setVisible(bool(self._modifier_labels))

    def _show_odds(self, lines: Sequence[OddsLine]) -> None:
        """The odds lines, two to a row (caption, percentage), each exact fraction
        in its tooltip; the lines sum to 1."""
        if tuple(lines) == self._odds_lines and self.odds_box.isVisibleTo(self):
            return
        self._clear_odds()
        self._odds_lines = tuple(lines)
        # two lines to a row while the captions are short ("Hit", "Dodged"); one to
        # a row when one is long ("Critical hit, defender fumbles") or there is one,
        # a row, unwrapped; a single line ("Miss 100%") keeps its value at the right edge
        short = all(len(line.label) <= SHORT_ODDS_CAPTION for line in lines)
        per_row = 2 if short and len(lines) > 1 else 1
        for i, line in enumerate(lines):
            row, col = divmod(i, per_row)
            caption = QLabel(line.label[:1].upper() + line.label[1:])
            caption.setStyleSheet(f"color:{MUTED.name()}")
            caption.setWordWrap(True)
            value = QLabel(percent(line.probability))
            value.setObjectName(f"odds_{i}")
            font = value.font()
            font.setBold(True)
            value.setFont(font)
            value.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            for w in (caption, value):
                w.setToolTip(f"{line.label}: {exact_text(line.probability)}")
            self._odds_grid.addWidget(caption, row, col * 3)
            self._odds_grid.addWidget(value, row, col * 3 + 1)
            self._odds_labels += [caption, value]
            self._odds_values[line.label] = value
        total = sum((line.probability for line in lines), Fraction(0))
        if lines and total != 1:
            # the ruleset's odds miss an outcome or count one twice: say so, not hide it
            note = QLabel(f"These odds sum to {exact_text(total)}, not 1.")
            note.setObjectName("oddsSumNote")
            note.setWordWrap(True)
            note.setStyleSheet(f"color:{BAD_TEXT.name()}")
            self._odds_grid.addWidget(note, -(-len(lines) // per_row), 0, 1, 5)
            self._odds_labels.append(note)
        self._odds_grid.setColumnMinimumWidth(2, 10 if per_row == 2 else 0)
        self._odds_grid.setColumnStretch(0, 1)
        self._odds_grid.setColumnStretch(3, 1 if per_row == 2 else 0)
        self.odds_box.setVisible(bool(lines))

    def _clear_odds(self) -> None:
        _discard(self._odds_grid, self._odds_labels)
        self._odds_labels = []
        self._odds_values = {}
        self._odds_lines = ()
        self.odds_box.hide()

    def _clear_preview(self) -> None:
        self.summary_label.clear()
        self.summary_label.hide()
        self._show_modifiers(())
        self._clear_odds()
        self.roll_button.setEnabled(False)

    def _show_turn(self, attacker: Combatant, defender: Combatant) -> None:
        """The attacker's maneuver and attacks left once the turns run; what the
        turn rules refuse (out of turn, a second attack, a dead foe) before the roll."""
        state = self._controller.state
        if not state.turns_running:
            self.turn_label.hide()
            return
        ruleset = self._controller.ruleset
        problems, _implied = attack_problems(state, ruleset, attacker, defender)
        if problems:
            self.turn_label.setText(
                f'<span style="color:{BAD_TEXT.name()}">Needs the GM\'s override: '
                f"{escape(problems[0], quote=False)}</span>"
            )
        else:
            left = attacks_left(ruleset, attacker)
            self.turn_label.setText(
                f'<span style="color:{MUTED.name()}">{escape(attacker.name, quote=False)}: '
                f"{escape(_maneuver_phrase(self._controller, attacker), quote=False)} · "
                f"{left} attack{'' if left == 1 else 's'} left</span>"
            )
        self.turn_label.show()

    def _show_hint(self, text: str) -> None:
        self.turn_label.hide()
        self.error_label.hide()
        self.arc_label.setText(f'<span style="color:{MUTED.name()}">{escape(text)}</span>')
        self._clear_preview()

    def _show_refusal(self, message: str, attacker: Combatant, defender: Combatant) -> None:
        self._error = message
        self.error_label.setText(f"Cannot roll: {message}")
        self.error_label.show()
        self.arc_label.setText(arc_html(attacker, defender))
        self._clear_preview()

    def _show_last(self, events: Sequence[Event]) -> None:
        """One line over Roll: what the attack came to, in the log's short words."""
        formatter = ruleset_ui(self._controller.state.ruleset_key).log_formatter
        parts = []
        for e in events:
            line = formatter.line(e)
            if line is not None and line[1] in _OUTCOME_TONES:
                parts.append(line[0])
        if parts:
            self.last_label.setText("Last roll: " + "; ".join(parts))

    # --- reactions ---------------------------------------------------------------------
    def _attacker_chosen(self, _index: int) -> None:
        self._controller.select(self.attacker_combo.currentData())

    def _target_chosen(self, _index: int) -> None:
        self._controller.set_target(self.target_combo.currentData())

    # --- keyboard ----------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if (
            kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
            and isinstance(event, QKeyEvent)
            and _is_roll_key(event)
            # Enter in an open combo list picks an entry (the list is a popup window).
            and isinstance(watched, QWidget)
            and watched.window() is self.window()
            and QApplication.activePopupWidget() is None
        ):
            if kind is QEvent.Type.ShortcutOverride:
                event.accept()  # deliver it to us as a key press, not as a shortcut
            else:
                self.roll()
            return True
        return super().eventFilter(watched, event)


class FlagRow(QWidget):
    """A flag field's check box with its caption beside it as a label that wraps
    (a long caption, "Target moved more than 10 m", never widens the dock beside
    the map); a click on the caption ticks the box, its mnemonic focuses it."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.check = QCheckBox()
        self.label = buddy_label(text, self.check)
        self.label.setWordWrap(True)
        self.label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.label.installEventFilter(self)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        row.addWidget(self.check, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addWidget(self.label, 1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.label
            and event.type() == QEvent.Type.MouseButtonRelease
            and isinstance(event, QMouseEvent)
            and event.button() == Qt.MouseButton.LeftButton
            and self.check.isEnabled()
        ):
            self.check.toggle()
            self.check.setFocus(Qt.FocusReason.MouseFocusReason)
            return True
        return super().eventFilter(watched, event)


# --- text ----------------------------------------------------------------------------


def arc_html(attacker: Combatant, defender: Combatant) -> str:
    """Where the attack comes from: the defender's arc (in the map's arc colour)
    and the distance."""
    arc = arc_of(attacker.hex, defender.hex, defender.facing, defender.handedness)
    distance = attacker.hex.distance(defender.hex)
    hexes = "hex" if distance == 1 else "hexes"
    return (
        f'<span style="color:{ARC_COLOURS[arc].name()}">■</span> '
        f"<b>{escape(attacker.name)}</b> → <b>{escape(defender.name)}</b>'s "
        f"{escape(arc.value)} · {distance} {hexes}"
    )


def _maneuver_phrase(controller: BattleController, c: Combatant) -> str:
    if c.maneuver is None:
        return "no maneuver chosen"
    try:
        maneuver = controller.ruleset.turns.maneuver(c.maneuver.key)
        return maneuver.describe_choice(c.maneuver.option).lower()
    except RulesError:
        return c.maneuver.key


def _mnemonic_of(text: str) -> str:
    """The mnemonic letter of a caption ("Mod&e" -> "e"), "" when it has none."""
    i = 0
    while i < len(text) - 1:
        if text[i] == "&":
            if text[i + 1] != "&":
                return text[i + 1].lower()
            i += 1
        i += 1
    return ""


def _mnemonic_text(label: str, used: set[str]) -> str:
    """``label`` with a mnemonic on its first letter not yet ``used`` (an "&" of
    the label itself shown as one)."""
    escaped = label.replace("&", "&&")
    for i, ch in enumerate(label):
        if ch.isalnum() and ch.lower() not in used:
            before = label[:i].replace("&", "&&")
            return f"{before}&{label[i:].replace('&', '&&')}"
    return escaped


def _is_roll_key(event: QKeyEvent) -> bool:
    """Is this one of the Roll keys (``app.help.SHORTCUTS`` "roll_attack")? The
    keypad's Enter counts as Enter."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    pressed = QKeySequence(QKeyCombination(modifiers, Qt.Key(event.key())))
    return pressed in _roll_keys()


@functools.cache
def _roll_keys() -> tuple[QKeySequence, ...]:
    return tuple(key_sequences("roll_attack"))


def _discard(layout: QLayout, widgets: Iterable[QWidget]) -> None:
    """Take ``widgets`` out of ``layout`` now: hidden at once (no ghost rows till
    the next pass of the event loop) and nameless, so ``findChild`` finds only the
    new ones, then deleted."""
    for w in widgets:
        layout.removeWidget(w)
        w.setObjectName("")
        w.hide()
        w.deleteLater()


def _combo(name: str, tip: str) -> QComboBox:
    combo = QComboBox()
    combo.setObjectName(name)
    combo.setToolTip(tip)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(8)
    combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    return combo


def _fill_combatants(
    combo: QComboBox,
    combatants: Sequence[Combatant],
    current: Combatant | None,
    placeholder: str,
    state: BattleState,
    attacker: Combatant | None = None,
) -> None:
    """The combatants as a box's entries; with ``attacker`` (the Target box) its
    allies are marked."""
    items: list[tuple[str, object]] = [(placeholder, None)]
    for c in combatants:
        items.append((fighter_choice(c, state.sides) + ally_mark(c, attacker), c.id))
    combo.blockSignals(True)
    try:
        existing = [(combo.itemText(i), combo.itemData(i)) for i in range(combo.count())]
        if existing != items:
            combo.clear()
            for text, data in items:
                combo.addItem(text, data)
        keep = current.id if current is not None else None
        combo.setCurrentIndex(next((i for i, (_t, d) in enumerate(items) if d == keep), 0))
    finally:
        combo.blockSignals(False)
