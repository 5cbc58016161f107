"""The generic inspector's sheet view: a ruleset UI whose ``inspector_section`` is
None has its ``Sheets.sections`` rows shown under the header, refreshed as the
battle changes. Tested over seed 000 with seed 000's UI wrapped so that it has no
section (its log lines and attack pane stay seed 000's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QDockWidget, QLabel, QWidget

from app.controller import BattleController
from app.event_text import LogFormatter
from app.files import open_battle
from app.panes import inspector as inspector_module
from app.panes.inspector import InspectorPane, SheetView
from app.rulesets import InspectorControls, InspectorSection, RulesetUI, ruleset_ui
from rules.battle.battle import Battle
from rules.battle.commands import EditCombatant
from rules.sets.protocol import SheetRow, SheetSection
from rules.sets.registry import get_ruleset, ruleset_of
from tests.app.demo_panes import SEED, demo_state

DEMO_004 = Path(__file__).parents[2] / "assets" / "battles" / "demo-004.hexfray"


# Each section's title and its (caption, value) rows.
Rows = list[tuple[str, list[tuple[str, str]]]]


class NoSectionUI:
    """Seed 000's UI without an inspector section of its own."""

    def __init__(self, inner: RulesetUI) -> None:
        self._inner = inner

    @property
    def log_formatter(self) -> LogFormatter:
        return self._inner.log_formatter

    def attack_pane(self, controller: BattleController, parent: QWidget | None) -> QDockWidget:
        return self._inner.attack_pane(controller, parent)

    def inspector_section(
        self, controller: BattleController, controls: InspectorControls
    ) -> InspectorSection | None:
        return None


@pytest.fixture
def shown(qtbot, monkeypatch) -> tuple[InspectorPane, BattleController]:
    ui = NoSectionUI(ruleset_ui("000"))
    monkeypatch.setattr(inspector_module, "ruleset_ui", lambda _key: ui)
    controller = BattleController(Battle(demo_state(), SEED, get_ruleset))
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    pane.resize(290, 700)
    pane.show()
    return pane, controller


def shown_rows(view: SheetView) -> Rows:
    """What the view shows: each section's title and its (caption, value) rows."""
    out = []
    for i, section in enumerate(view.sections):
        heading = view.findChild(QLabel, f"sheetSection_{i}")
        assert heading is not None and heading.isVisibleTo(view)
        rows = []
        for j, row in enumerate(section.rows):
            value = view.value_label(i, j)
            assert value.isVisibleTo(view)
            rows.append((row.label, value.text()))
        out.append((heading.text(), rows))
    return out


def expected_rows(controller: BattleController, cid: str) -> Rows:
    sections = ruleset_of(controller.state).sheets.sections(controller.state.combatant(cid))
    return [(s.title, [(r.label, r.value) for r in s.rows]) for s in sections]


def test_no_section_shows_the_rulesets_sheet(shown, qtbot):
    pane, controller = shown
    assert pane.section is None and pane.sheet_view is not None
    assert not pane.sheet_view.isVisibleTo(pane)  # nobody selected
    controller.select("c1")
    assert pane.sheet_view.isVisibleTo(pane)
    qtbot.waitExposed(pane)
    rows = shown_rows(pane.sheet_view)
    assert rows == expected_rows(controller, "c1")
    assert [title for title, _rows in rows][:2] == ["Attributes", "Skills"]
    # one grid: the values of every section line up
    view = pane.sheet_view
    xs = {view.value_label(i, 0).x() for i in range(len(view.sections))}
    assert len(xs) == 1
    # the captions are on screen beside their values
    captions = [label.text() for label in pane.sheet_view.findChildren(QLabel)]
    assert "Broadsword" in captions and "HP" in captions


def test_the_sheet_follows_the_battle_and_the_selection(shown):
    pane, controller = shown
    controller.select("c1")
    view = pane.sheet_view
    assert view is not None
    first = view.value_label(0, 1)
    controller.execute(EditCombatant("c1", hp=5))
    assert shown_rows(view) == expected_rows(controller, "c1")
    assert ("HP", "5 of 12") in shown_rows(view)[0][1]
    assert view.value_label(0, 1) is first  # same rows: the labels stay, only values change
    controller.select("c4")
    assert shown_rows(view) == expected_rows(controller, "c4")
    controller.select(None)
    assert not view.isVisibleTo(pane)


def test_tooltips_come_from_the_rows(qtbot):
    view = SheetView()
    qtbot.addWidget(view)
    view.show_sections((
        SheetSection("Wounds", (SheetRow("Left arm", "2/5 hurt", "Hurt: -1 (003 5.873)"),)),
    ))
    assert view.value_label(0, 0).toolTip() == "Hurt: -1 (003 5.873)"
    captions = [w for w in view.findChildren(QLabel) if w.text() == "Left arm"]
    assert captions and captions[0].toolTip() == "Hurt: -1 (003 5.873)"
    view.show_sections((SheetSection("Wounds", (SheetRow("Left arm", "useless", "gone"),)),))
    assert view.value_label(0, 0).text() == "useless"
    assert view.value_label(0, 0).toolTip() == "gone"


def test_seed_000_keeps_its_own_section(qtbot):
    controller = BattleController(Battle(demo_state(), SEED, get_ruleset))
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    assert pane.section is not None and pane.sheet_view is None


def test_a_battle_of_another_ruleset_brings_its_part(qtbot):
    """New or Open of a battle of another ruleset: the inspector shows that
    ruleset's part (seed 004 has no section: its sheet rows), and back."""
    controller = BattleController(Battle(demo_state(), SEED, get_ruleset))
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    pane.resize(290, 700)
    pane.show()
    assert pane.section is not None
    controller.replace_battle(open_battle(DEMO_004))
    assert pane.section is None and pane.sheet_view is not None
    first = controller.state.combatants[0]
    controller.select(first.id)
    assert shown_rows(pane.sheet_view) == expected_rows(controller, first.id)
    # the shared controls moved into the new part and work there
    assert pane.posture_combo.isVisibleTo(pane) and pane.posture_combo.isEnabled()
    assert pane.ready_button.isVisibleTo(pane) and pane.drop_button.isVisibleTo(pane)
    controller.replace_battle(Battle(demo_state(), SEED, get_ruleset))
    assert pane.section is not None and pane.sheet_view is None
    assert pane.posture_combo.isVisibleTo(pane)
    assert not any(view.isVisibleTo(pane) for view in pane.findChildren(SheetView))
