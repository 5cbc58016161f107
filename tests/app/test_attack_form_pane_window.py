"""The generic attack pane in the main window, on seed 004's demo battle (the
first ruleset whose RulesetUI gives an AttackFormPane): it is the window's
"attackPane" at 1366x768, its boxes, preview, odds and Roll fit the dock beside
the map, the window's Enter rolls it, physical dice are asked at the table, and
Open of a seed 000 battle brings seed 000's pane in its place."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QComboBox, QDockWidget, QLabel

from app.controller import BattleController
from app.files import open_battle
from app.main_window import MainWindow
from app.panes.attack_form import AttackFormPane, _mnemonic_of
from app.screenshot import SCREEN_HEIGHT, SCREEN_WIDTH
from rules.battle.commands import Attack, EndTurn, MoveCombatant, TurnCombatant
from rules.core.dice import DiceRequest

ASSETS = Path(__file__).parents[2] / "assets" / "battles"
DEMO_004 = ASSETS / "demo-004.hexfray"


def settle() -> None:
    for _ in range(5):
        QCoreApplication.processEvents()


def face_to_face(controller: BattleController) -> tuple[str, str]:
    """The fighter whose turn it is steps in front of the first foe and faces it."""
    state = controller.state
    attacker = state.combatant(state.active_id or state.combatants[0].id)
    defender = next(c for c in state.combatants if c.side is not attacker.side)
    hex_in_front = defender.hex + defender.facing.vector
    assert controller.execute(MoveCombatant(attacker.id, hex_in_front, gm_override=True))
    facing = defender.facing.opposite()
    if controller.state.combatant(attacker.id).facing is not facing:
        assert controller.execute(TurnCombatant(attacker.id, facing, gm_override=True))
    # round the order to the attacker's next turn: its attack is then no override's
    for _ in range(2 * len(state.combatants)):
        assert controller.execute(EndTurn())
        if controller.state.active_id == attacker.id:
            break
    assert controller.state.active_id == attacker.id
    controller.select(attacker.id)
    controller.set_target(defender.id)
    return attacker.id, defender.id


@pytest.fixture
def laptop(qtbot, settings: QSettings) -> Iterator[tuple[MainWindow, AttackFormPane]]:
    controller = BattleController(open_battle(DEMO_004))
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)
    window.resize(SCREEN_WIDTH, SCREEN_HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    face_to_face(controller)
    settle()
    pane = window.attack_pane
    assert isinstance(pane, AttackFormPane)
    yield window, pane


def test_the_form_pane_fits_beside_the_map(laptop) -> None:
    window, pane = laptop
    assert window.findChild(QDockWidget, "attackPane") is pane
    assert window.dockWidgetArea(pane) == Qt.DockWidgetArea.RightDockWidgetArea
    assert pane.width() <= 340 and window.map_view.width() >= 700
    assert pane.preview is not None and pane.roll_button.isEnabled()
    assert pane.form is not None and len(pane.form.fields) >= 2
    shown = [pane.field_widget(f.key) for f in pane.form.fields]
    for widget in (*shown, pane.summary_label, pane.odds_box, pane.roll_button):
        assert widget.isVisible() and not widget.visibleRegion().isEmpty(), widget.objectName()
        # never cut at the right edge: the whole box inside the pane
        right = widget.mapTo(pane, widget.rect().topRight()).x()
        assert right <= pane.width(), widget.objectName()
    for widget in shown:
        if isinstance(widget, QComboBox):
            assert widget.width() >= 100, widget.objectName()
    assert pane.roll_button.mapTo(window, pane.roll_button.rect().bottomLeft()).y() <= (
        SCREEN_HEIGHT
    )


def test_the_windows_enter_rolls_the_form(laptop, qtbot) -> None:
    window, pane = laptop
    command = pane.command()
    assert command is not None
    before = len(window.controller.battle.commands)
    window.map_view.setFocus()
    window.roll_action.trigger()
    commands = window.controller.battle.commands
    assert len(commands) == before + 1 and commands[-1] == command
    assert isinstance(commands[-1], Attack)


def test_physical_dice_are_asked_for_the_forms_attack(laptop) -> None:
    window, pane = laptop
    asked: list[str] = []

    def table(what: str, request: DiceRequest) -> Sequence[int]:
        asked.append(what)
        return [request.high] * request.count

    window.controller.set_dice_entry(table)
    command = pane.command()
    pane.roll_button.click()
    battle = window.controller.battle
    assert battle.commands[-1] == command
    assert asked and battle.entered_log[-1]



def test_no_field_takes_a_letter_of_the_menu_bar(qtbot, settings: QSettings) -> None:
    """Seed 002's form (its "Target helpless" flag once took Help's Alt+H): every
    field's mnemonic is its own, none a menu's or another field's."""
    controller = BattleController(open_battle(ASSETS / "demo-002.hexfray"))
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)
    face_to_face(controller)
    settle()
    pane = window.attack_pane
    assert isinstance(pane, AttackFormPane) and pane.form is not None
    menus = {_mnemonic_of(a.text()) for a in window.menuBar().actions()} - {""}
    assert {"f", "v", "b", "h"} <= menus
    fields = [
        _mnemonic_of(pane.findChild(QLabel, f"fieldCaption_{f.key}").text())
        for f in pane.form.fields
    ]
    assert "helpless" in {f.key for f in pane.form.fields}
    assert all(fields) and len(set(fields)) == len(fields)
    assert not menus & set(fields)
