"""Seed 002's ``RulesetUI``: the generic attack form pane over the seed 002
ruleset's ``attack_form``, its log lines, and no inspector section (the generic
sheet view shows ``Ruleset.sheet``)."""

from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QWidget

from app.controller import BattleController
from app.event_text import LogFormatter
from app.panes.attack_form import AttackFormPane
from app.rulesets import InspectorControls, InspectorSection, RulesetUI
from app.rulesets.seed002.log_lines import Seed002LogLines
from rules.battle.state import BattleState
from rules.sets.attack_form import FormAttacks
from rules.sets.seed002.ruleset import seed002_ruleset


def _form_of(state: BattleState) -> FormAttacks:
    return seed002_ruleset(state.ruleset_options)


class Seed002UI:
    def __init__(self) -> None:
        self._log_formatter = Seed002LogLines()

    @property
    def log_formatter(self) -> LogFormatter:
        return self._log_formatter

    def attack_pane(self, controller: BattleController, parent: QWidget | None) -> QDockWidget:
        return AttackFormPane(controller, _form_of, parent)

    def inspector_section(
        self, controller: BattleController, controls: InspectorControls
    ) -> InspectorSection | None:
        return None


# Typed as the protocol, so mypy proves Seed002UI is a whole RulesetUI.
SEED002_UI: RulesetUI = Seed002UI()
