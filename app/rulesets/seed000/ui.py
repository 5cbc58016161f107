"""Seed 000's ``RulesetUI``: what the registry in ``app.rulesets`` hands the window
for a battle of seed 000 (with or without the seed 001 option)."""

from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QWidget

from app.controller import BattleController
from app.event_text import LogFormatter
from app.rulesets import InspectorControls, InspectorSection, RulesetUI
from app.rulesets.seed000.attack_pane import AttackPane
from app.rulesets.seed000.inspector_section import Seed000InspectorSection
from app.rulesets.seed000.log_lines import Seed000LogLines


class Seed000UI:
    def __init__(self) -> None:
        self._log_formatter = Seed000LogLines()

    @property
    def log_formatter(self) -> LogFormatter:
        return self._log_formatter

    def attack_pane(self, controller: BattleController, parent: QWidget | None) -> QDockWidget:
        return AttackPane(controller, parent)

    def inspector_section(
        self, controller: BattleController, controls: InspectorControls
    ) -> InspectorSection | None:
        return Seed000InspectorSection(controller, controls)


# Typed as the protocol, so mypy proves Seed000UI is a whole RulesetUI.
SEED000_UI: RulesetUI = Seed000UI()
