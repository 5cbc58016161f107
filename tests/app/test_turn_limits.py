"""The maneuvers' limits in the window: a ready or a posture change asked from the
inspector during the turn order takes or needs its maneuver (the status bar says
why it is refused, and the GM's override forces it), and an unconscious fighter's
turn is passed over, as the Turns pane shows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from app.panes.inspector import InspectorPane
from app.rulesets.seed000.attack_pane import AttackPane
from rules.battle.battle import Battle
from rules.battle.commands import EditCombatant, ReadyWeapon, SetPosture
from rules.battle.maneuvers import ManeuverChoice
from rules.battle.model import Posture, Status
from rules.battle.turns import ChooseManeuver, RuleOverridden, StartTurns, upcoming
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack_steps import attack_command
from tests.app.turn_order_window import FENCER, FLAIL, SPEARMAN, SWORD, rows, shown_window


@pytest.fixture
def window(qtbot: QtBot, qapp: QApplication, settings: QSettings) -> Iterator[MainWindow]:
    """The demo battle in its turn order, the fencer (whose turn it is) with an
    unready rapier."""
    demo = load_demo_battle(1, turn_order=True)
    fencer = demo.state.combatant(FENCER)
    state = demo.state.with_combatants(replace(fencer, unready=frozenset({"rapier"})))
    yield shown_window(qtbot, BattleController(Battle(state, 1, get_ruleset)), settings)


def log_texts(window: MainWindow) -> list[str]:
    return [line.text for row in window.log_pane.rows for line in row.lines]


def ready_entry(inspector: InspectorPane) -> QAction:
    """The inspector's one entry that readies the fencer's unready rapier (the
    others put a weapon away)."""
    (ready,) = [a for a in inspector.ready_menu.actions() if a.objectName() == "ready:rapier"]
    return ready


def test_ready_from_the_inspector_under_another_maneuver_shows_why_and_can_be_forced(
    window: MainWindow,
) -> None:
    controller = window.controller
    tracker = window.tracker_pane
    index = tracker.maneuver_combo.findData("all-out-defense")
    tracker.maneuver_combo.setCurrentIndex(index)
    tracker.maneuver_combo.activated.emit(index)
    controller.select(FENCER)
    inspector = window.inspector_pane
    ready = ready_entry(inspector)
    done = len(controller.battle.commands)
    ready.trigger()
    assert len(controller.battle.commands) == done  # refused
    message = window.statusBar().currentMessage()
    assert message.startswith(
        "Not allowed: Fencer's maneuver, All-out defense (+2 dodge), allows no readying "
        "(choose Ready)"
    )
    assert window.override_action.isEnabled()
    window.override_action.trigger()
    assert controller.battle.commands[-1] == ReadyWeapon(FENCER, "rapier", gm_override=True)
    assert not controller.state.combatant(FENCER).unready
    assert any(t.startswith("GM override (ready): Fencer's maneuver") for t in log_texts(window))


def test_ready_without_a_maneuver_takes_ready_as_the_tracker_shows(window: MainWindow) -> None:
    controller = window.controller
    controller.select(FENCER)
    ready_entry(window.inspector_pane).trigger()
    assert controller.state.combatant(FENCER).maneuver == ManeuverChoice(
        "ready", "", implied=True
    )
    assert "Ready (by readying)" in rows(window.tracker_pane)[0]
    assert "Fencer readies without choosing a maneuver: Ready" in log_texts(window)


def test_a_posture_change_from_the_inspector_needs_its_turn_and_change_posture(
    window: MainWindow,
) -> None:
    controller = window.controller
    inspector = window.inspector_pane
    controller.select(SPEARMAN)  # not his turn
    combo = inspector.posture_combo
    kneel = combo.findData(Posture.KNEELING)
    combo.setCurrentIndex(kneel)
    combo.activated.emit(kneel)
    assert controller.state.combatant(SPEARMAN).posture is Posture.STANDING
    assert combo.currentData() is Posture.STANDING  # the box shows the posture kept
    assert window.statusBar().currentMessage().startswith(
        "Not allowed: it is Fencer's turn: Spearman cannot change posture"
    )
    controller.select(FENCER)  # his turn, no maneuver yet: kneeling is his Change posture
    combo.setCurrentIndex(kneel)
    combo.activated.emit(kneel)
    assert controller.battle.commands[-1] == SetPosture(FENCER, Posture.KNEELING)
    assert "Change posture (by changing posture)" in rows(window.tracker_pane)[0]
    allowed = window.tracker_pane.allowance_label.text()
    assert "no movement" in allowed and "may change posture" in allowed
    texts = log_texts(window)
    assert "Fencer changes posture without choosing a maneuver: Change posture" in texts
    assert not any(isinstance(e, RuleOverridden) for e in controller.battle.events)


def test_an_unconscious_fighter_is_passed_over_as_the_tracker_shows(window: MainWindow) -> None:
    controller = window.controller
    tracker = window.tracker_pane
    controller.execute(EditCombatant(SPEARMAN, status=Status.UNCONSCIOUS))
    spearman = next(i for i, r in enumerate(rows(tracker)) if r.startswith("2. Spearman"))
    assert "passed over" in rows(tracker)[spearman]
    assert rows(tracker)[spearman + 1].startswith("3. Flail fighter  · next")
    assert upcoming(controller.state, controller.ruleset)[0] == FLAIL
    assert "Flail fighter is next" in tracker.next_button.toolTip()
    tracker.next_button.click()
    assert controller.state.active_id == FLAIL
    assert "Spearman is unconscious: the turn passes" in log_texts(window)
    assert tracker.round_label.text() == "Round 1 · Flail fighter's turn"


def test_the_attack_pane_says_an_all_out_double_attack_keeps_to_its_foe(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    """The fencer, whose turn it is, with the sword-and-shield fighter and the
    spearman in front of him: after his first attack of two on one, the pane says
    before the roll that the other needs the GM's override."""
    demo = load_demo_battle(1)
    fencer = demo.state.combatant(FENCER)
    front = fencer.hex.neighbor(fencer.facing)
    beside = fencer.hex.neighbor(fencer.facing.turned(1))
    moved = [
        replace(demo.state.combatant(SWORD), hex=front, facing=fencer.facing.turned(3)),
        replace(demo.state.combatant(SPEARMAN), hex=beside, facing=fencer.facing.turned(4)),
    ]
    battle = Battle(demo.state.with_combatants(*moved), 1, get_ruleset)
    battle.execute(StartTurns())
    w = MainWindow(BattleController(battle), settings)
    qtbot.addWidget(w)
    w.show()
    controller = w.controller
    assert controller.state.active_id == FENCER
    controller.execute(ChooseManeuver(FENCER, "all-out-attack", "double"))
    controller.select(FENCER)
    controller.set_target(SWORD)
    pane = w.attack_pane
    assert isinstance(pane, AttackPane)
    options = pane.options()
    assert options is not None
    assert controller.execute(attack_command(FENCER, SWORD, options)) is not None
    controller.set_target(SPEARMAN)
    assert "Needs the GM's override: All-out attack (two attacks) puts every attack on one foe" in (
        pane.turn_label.text()
    )
    controller.set_target(SWORD)
    assert "1 attack left" in pane.turn_label.text()
