"""The app's ruleset UI registry (app.rulesets) and the generic panes that ask it:
every ruleset has a UI, an unknown key is refused, and the inspector and the
combat log work for a ruleset with no widgets or lines of its own."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDockWidget, QWidget
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.event_text import RowKind, Tone, line_for, rows_for_events
from app.panes import inspector as inspector_module
from app.panes.inspector import InspectorPane
from app.rulesets import (
    InspectorControls,
    InspectorSection,
    RulesetUI,
    ruleset_ui,
    ruleset_ui_keys,
)
from app.rulesets.seed000.inspector_section import Seed000InspectorSection
from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.command_events import Edited, Moved, RulesetOptionsSet, Turned, TurnEnded
from rules.battle.commands import SetPosture
from rules.battle.model import Posture
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.sets.registry import get_ruleset, ruleset_keys
from tests.app.test_attack_pane import demo_state


class NoLines:
    """A ruleset's log formatter that has no short line of its own for anything."""

    def line(self, event: Event) -> tuple[str, Tone] | None:
        return None

    def opens_row(self, event: Event) -> bool:
        return False


class BareUI:
    """A ruleset UI with no inspector section and no log lines of its own."""

    @property
    def log_formatter(self) -> NoLines:
        return NoLines()

    def attack_pane(self, controller: BattleController, parent: QWidget | None) -> QDockWidget:
        pane = QDockWidget(parent)
        pane.setObjectName("attackPane")
        return pane

    def inspector_section(
        self, controller: BattleController, controls: InspectorControls
    ) -> InspectorSection | None:
        return None


BARE: RulesetUI = BareUI()


def test_every_ruleset_has_a_ui() -> None:
    assert ruleset_ui_keys() == ruleset_keys()
    for key in ruleset_keys():
        assert ruleset_ui(key) is ruleset_ui(key)  # imported once, then shared


def test_an_unknown_ruleset_has_no_ui() -> None:
    with pytest.raises(RulesError, match="no UI for ruleset '999'"):
        ruleset_ui("999")


def test_seed000s_panes_keep_their_object_names(qtbot: QtBot) -> None:
    controller = BattleController(Battle(demo_state(), 1, get_ruleset))
    ui = ruleset_ui(controller.state.ruleset_key)
    pane = ui.attack_pane(controller, None)
    qtbot.addWidget(pane)
    assert (pane.objectName(), pane.windowTitle()) == ("attackPane", "Attack")
    inspector = InspectorPane(controller)
    qtbot.addWidget(inspector)
    assert isinstance(inspector.section, Seed000InspectorSection)


def test_the_inspector_without_a_ruleset_section_shows_the_shared_parts(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(inspector_module, "ruleset_ui", lambda _key: BARE)
    controller = BattleController(Battle(demo_state(), 1, get_ruleset))
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    pane.show()
    assert pane.section is None
    assert not pane.posture_combo.isEnabled()
    controller.select("c1")
    c1 = controller.state.combatant("c1")
    assert pane.name_label.text() == c1.name
    assert pane.posture_combo.isEnabled() and pane.posture_combo.isVisibleTo(pane)
    assert pane.drop_button.isEnabled() and pane.drop_button.isVisibleTo(pane)
    index = pane.posture_combo.findData(Posture.KNEELING)
    pane.posture_combo.setCurrentIndex(index)
    pane.posture_combo.activated.emit(index)
    assert controller.state.combatant("c1").posture is Posture.KNEELING
    assert isinstance(controller.battle.commands[-1], SetPosture)


def test_the_log_reads_the_neutral_events_without_the_rulesets_lines() -> None:
    moved = Moved(
        citation=None, combatant_id="c1", name="A", path=(Hex(0, 0), Hex(1, 0)), cost=1
    )
    turned = Turned(
        citation=None, combatant_id="c1", name="A", before=Facing.N, after=Facing.NE
    )
    options = RulesetOptionsSet(citation=None, before=(), after=("locations-001",))
    rows = rows_for_events((moved, turned, options, TurnEnded(turn=2)), NoLines())
    assert [r.kind for r in rows] == [RowKind.EVENT] * 3 + [RowKind.TURN]
    assert [r.lines[0].tone for r in rows] == [Tone.PLAIN, Tone.PLAIN, Tone.NOTE, Tone.TITLE]
    assert rows[0].title == moved.describe()
    assert rows[3].title == "Round 2"
    edited = Edited(citation=None, combatant_id="c1", name="A", changes=(("hp", "12", "3"),))
    assert line_for(edited, NoLines()).text == edited.describe()
