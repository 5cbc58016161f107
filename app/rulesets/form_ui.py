"""The ``RulesetUI`` of a ruleset whose attack pane is the generic
``AttackFormPane`` over its ``attack_form`` and whose inspector part is the
generic sheet view alone (it shows ``Sheets.sections``, so no inspector section).

Each such ruleset's ``app.rulesets.<key>.ui`` is one instance of ``FormRulesetUI``
with its ``form_of`` and its log lines; this module names no ruleset package."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QDockWidget, QWidget

from app.controller import BattleController
from app.event_text import LogFormatter
from app.panes.attack_form import AttackFormPane
from app.rulesets import InspectorControls, InspectorSection, RulesetUI
from rules.battle.state import BattleState
from rules.sets.attack_form import FormAttacks


class FormRulesetUI:
    """The generic attack form pane over ``form_of(state)``, the ruleset's log
    lines ``log_formatter``, and no inspector section."""

    def __init__(
        self, form_of: Callable[[BattleState], FormAttacks], log_formatter: LogFormatter
    ) -> None:
        self._form_of = form_of
        self._log_formatter = log_formatter

    @property
    def log_formatter(self) -> LogFormatter:
        return self._log_formatter

    def attack_pane(self, controller: BattleController, parent: QWidget | None) -> QDockWidget:
        return AttackFormPane(controller, self._form_of, parent)

    def inspector_section(
        self, controller: BattleController, controls: InspectorControls
    ) -> InspectorSection | None:
        return None


# Typed as the protocol, so mypy proves FormRulesetUI is a whole RulesetUI.
_CHECK: Callable[[Callable[[BattleState], FormAttacks], LogFormatter], RulesetUI] = FormRulesetUI
