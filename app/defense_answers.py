"""The defender's answer in the window, asked of the defender's controller
(issue 25, rules.play.defense).

- A computer fighter attacks one of the GM's during auto-play: before the attack
  runs, the GM answers for its fighter in a dialog (``AnswerDialog``: each answer
  with its chance to be hit, the likeliest first, the ruleset's default focused;
  Esc gives the default), unless the Preferences say "Choose my fighters'
  defenses for me": then the computer answers for it, by the default policy.
  Auto-play calls ``DefenseAnswers.answer_for_gm`` with each decision
  (``AutoPlay.answer_for_gm``).
- The GM attacks a computer fighter from the attack pane: the computer answers
  (``computer_answer``), the pane shows its choice and its reason, and Roll runs
  the attack with it.

Either way the answer goes into the ``Attack`` command, so that the battle saves
and replays exactly, and a computer's reason is a line of the log before the
attack's events, kept with the command (``notes_for``, ``note_answer``:
rules.battle.notes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.controller import BattleController
from app.preferences import Preferences
from rules.battle.attack_choices import DefenderAnswer
from rules.battle.attack_steps import planned
from rules.battle.commands import Attack
from rules.battle.notes import CommandNote
from rules.battle.state import BattleState, Command
from rules.core.errors import RulesError
from rules.play.defense import (
    DEFAULT_DEFENDER,
    AnswerOdds,
    DefendedDecision,
    DefenseAnswer,
    answer_options,
    choose_answer,
    defended_decision,
)
from rules.play.policies import Decision, OddsCache
from rules.sets.protocol import Ruleset


def percent_text(odds: AnswerOdds) -> str:
    """An answer's chance to be hit as the dialog shows it."""
    p = odds.struck
    if 0 < p < 0.005:
        return "<1%"
    return f"{float(p) * 100:.0f}%"


def default_answer(ruleset: Ruleset, state: BattleState, attack: Attack) -> DefenderAnswer | None:
    """The ruleset's default answer to ``attack`` (what None stands for); None when
    it cannot be planned."""
    steps = getattr(ruleset.attacks, "steps", None)
    if steps is None:
        return None
    try:
        plan = planned(steps, state, attack.attacker_id, attack.defender_id, attack.choices)
        answer = steps.default_answer(plan)
    except RulesError:
        return None
    return answer if isinstance(answer, DefenderAnswer) else None


class AnswerDialog(QDialog):
    """The GM answers for its fighter: one row per answer with its chance to be
    hit, the likeliest first; the default answer is focused, Enter takes the
    focused one and Esc the default."""

    def __init__(
        self,
        title: str,
        options: tuple[AnswerOdds, ...],
        default_index: int,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("defenseAnswerDialog")
        self.setWindowTitle("Defense")
        self.options = options
        self.default_index = default_index
        heading = QLabel(title)
        heading.setWordWrap(True)
        self.list = QListWidget()
        self.list.setObjectName("defenseAnswerList")
        for i, odds in enumerate(options):
            text = f"{odds.words[:1].upper()}{odds.words[1:]}: {percent_text(odds)} to be hit"
            if i == default_index:
                text += " (default)"
            item = QListWidgetItem(text)
            item.setToolTip(
                f"{float(odds.expected_injury):.1f} injury expected, "
                f"{float(odds.takes_out) * 100:.0f}% to be taken out"
            )
            self.list.addItem(item)
        self.list.setCurrentRow(default_index)
        self.list.itemActivated.connect(lambda _item: self.accept())
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.list)
        layout.addWidget(buttons)
        self.list.setFocus()

    def choose(self, index: int) -> None:
        """Take the answer of row ``index`` (as clicking it and OK does)."""
        self.list.setCurrentRow(index)
        self.accept()

    @property
    def chosen(self) -> AnswerOdds:
        """The answer taken: the row chosen, the default when rejected (Esc)."""
        row = self.list.currentRow()
        if self.result() != QDialog.DialogCode.Accepted or row < 0:
            row = self.default_index
        return self.options[row]


class DefenseAnswers:
    """Whoever controls the defender answers: the window's side of it."""

    def __init__(
        self,
        controller: BattleController,
        window: QWidget,
        preferences: Callable[[], Preferences],
    ) -> None:
        self._controller = controller
        self._window = window
        self._preferences = preferences
        self.cache = OddsCache()
        # The computer's reasons for the answers of the decisions answered last,
        # by the decision's first command: the log notes them (``notes_for``).
        self._notes: list[tuple[Command, DefenseAnswer]] = []
        # Shows the dialog and returns the answer taken (the tests answer here).
        self.ask: Callable[[AnswerDialog], AnswerOdds] = _ask

    # --- auto-play: the GM's fighter attacked ---------------------------------------------
    def answer_for_gm(self, decision: Decision) -> Decision:
        """``decision`` with the answer of each attack on a GM's fighter: the GM's
        from the dialog, or the computer's (default policy) when the Preferences
        say so. The computer's answers (its own fighters', or for the GM) are kept
        for the log."""
        state = self._controller.state
        ruleset = self._controller.ruleset
        commands = list(decision.commands)
        answers: list[DefenseAnswer] = []
        for i, command in enumerate(commands):
            if not isinstance(command, Attack) or command.answer is not None:
                continue
            if state.controller(command.defender_id) is not None:
                continue  # a computer fighter answers for itself (rules.play.autoplay)
            if self._preferences().computer_defends:
                chosen = choose_answer(ruleset, state, command, DEFAULT_DEFENDER, self.cache)
                if chosen is not None:
                    commands[i] = replace(command, answer=chosen.answer)
                    answers.append(chosen)
                continue
            answer = self._ask_gm(ruleset, state, command)
            if answer is not None:
                commands[i] = replace(command, answer=answer)
        if commands != list(decision.commands) or answers:
            decision = defended_decision(decision, commands, answers)
        noted = decision.answers if isinstance(decision, DefendedDecision) else ()
        self._notes = [(decision.commands[0], a) for a in noted] if decision.commands else []
        return decision

    def _ask_gm(
        self, ruleset: Ruleset, state: BattleState, attack: Attack
    ) -> DefenderAnswer | None:
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            options = answer_options(ruleset, state, attack, self.cache)
        finally:
            QGuiApplication.restoreOverrideCursor()
        if not options:
            return None
        default = default_answer(ruleset, state, attack)
        index = next((i for i, o in enumerate(options) if o.answer == default), 0)
        attacker = state.combatant(attack.attacker_id)
        defender = state.combatant(attack.defender_id)
        title = f"{attacker.name} attacks {defender.name}. How does {defender.name} defend?"
        dialog = AnswerDialog(title, options, index, self._window)
        try:
            return self.ask(dialog).answer
        finally:
            dialog.deleteLater()

    def notes_for(self, command: Command) -> tuple[DefenseAnswer, ...]:
        """The computer's answers in the decision whose first command is ``command``."""
        return tuple(a for first, a in self._notes if first == command)

    # --- the attack pane: the computer's fighter attacked ---------------------------------
    def computer_answer(self, attack: Attack) -> DefenseAnswer | None:
        """The answer the defender's computer policy gives to ``attack`` on the
        battle as it stands; None when the GM plays the defender."""
        return computer_answer(self._controller, attack, self.cache)


def _ask(dialog: AnswerDialog) -> AnswerOdds:
    dialog.exec()
    return dialog.chosen


# One cache for the panes' questions: the same attack is weighed on every refresh.
_PANE_CACHE = OddsCache()


def computer_answer(
    controller: BattleController, attack: Attack, cache: OddsCache | None = None
) -> DefenseAnswer | None:
    """The answer the defender's computer policy gives to ``attack`` on the
    controller's battle; None when the GM plays the defender (or the attack
    cannot be planned)."""
    state = controller.state
    try:
        choice = state.controller(attack.defender_id)
    except (KeyError, RulesError):
        return None
    if choice is None:
        return None
    cache = _PANE_CACHE if cache is None else cache
    return choose_answer(controller.ruleset, state, replace(attack, answer=None), choice, cache)


def note_answer(controller: BattleController, attack: Attack, chosen: DefenseAnswer) -> None:
    """The computer defender's reason kept with ``attack``, about to run as the
    battle's next command: saved with it and shown in the log before its events
    (rules.battle.notes)."""
    note = CommandNote(chosen.defender_id, chosen.reason, chosen_detail(chosen))
    controller.note_next(attack, note)


def chosen_detail(chosen: DefenseAnswer) -> str:
    """The log line's tooltip: every answer weighed, with its chance to be hit."""
    lines = [f"{o.words}: {percent_text(o)} to be hit" for o in chosen.options]
    return f"{chosen.reason}\nAnswers weighed:\n" + "\n".join(lines)
