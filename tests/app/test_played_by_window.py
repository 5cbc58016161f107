"""Who plays a fighter, in the window (issue 25): the token's menu on the map and the
Combatants list's hand a fighter, or its whole side, to the computer and back;
each choice is one command, shown in the log, undone by Undo, and named in the
Edit menu."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QMenu, QWidget
from pytestqt.qtbot import QtBot

from app.character_editor import CharacterEditing, SidesEditor
from app.command_names import command_name
from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from app.map.painter import ROLE_PLAIN, render_token
from app.new_battle import (
    LAST_SETUP_KEY,
    NewBattleDialog,
    new_battle,
    read_last_setup,
    write_last_setup,
)
from app.played_by_menu import GM_KEY, MIXED_KEY
from rules.battle.control import SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.battle.side_control import SetSideControllers
from rules.battle.together import Together
from tests.app.demo_panes import demo_controller
from tests.app.turn_order_window import FENCER, SPEARMAN, SWORD, shown_window


def log_texts(window: MainWindow) -> list[str]:
    return [line.text for row in window.log_pane.rows for line in row.lines]


@pytest.fixture
def window(qtbot: QtBot, qapp: QApplication, settings: QSettings) -> Iterator[MainWindow]:
    yield shown_window(qtbot, BattleController(load_demo_battle(1)), settings)


def map_action(window: MainWindow, combatant_id: str, name: str) -> QAction:
    c = window.controller.state.combatant(combatant_id)
    menu = window.map_view.context_menu_for(c.hex)
    assert menu is not None
    return action_named(menu, name)


def action_named(menu: QMenu, name: str) -> QAction:
    found = [a for a in menu.findChildren(QAction) if a.objectName() == name]
    assert found, [a.objectName() for a in menu.findChildren(QAction)]
    return found[0]


def test_the_token_s_menu_hands_a_fighter_to_the_computer_and_the_gm_takes_it_back(
    window: MainWindow,
) -> None:
    controller = window.controller
    menu = window.map_view.context_menu_for(controller.state.combatant(SPEARMAN).hex)
    assert menu is not None
    played_by = menu.findChild(QMenu, "playedByMenu")
    assert played_by is not None
    assert played_by.title() == "Played &by: the GM"
    assert action_named(menu, "playedBy:gm").isChecked()
    action_named(menu, "playedBy:aggressive").trigger()
    assert controller.battle.commands[-1] == SetControllers(
        ((SPEARMAN, PolicyChoice("aggressive")),)
    )
    assert controller.state.controller(SPEARMAN) == PolicyChoice("aggressive")
    assert "Spearman is now played by the computer (aggressive)" in log_texts(window)
    assert window.undo_action.text().endswith("Played By: Spearman")

    # The menu now shows the computer's choice and its settings; a new target keeps
    # the policy.
    assert map_action(window, SPEARMAN, "playedBy:aggressive").isChecked()
    map_action(window, SPEARMAN, "target:weakest").trigger()
    assert controller.state.controller(SPEARMAN) == PolicyChoice("aggressive", "weakest")
    assert "Spearman is now played by the computer (aggressive, picks the weakest)" in (
        log_texts(window)
    )
    map_action(window, SPEARMAN, "playedBy:gm").trigger()
    assert controller.state.controller(SPEARMAN) is None
    assert "The GM takes over Spearman" in log_texts(window)

    window.undo_action.trigger()
    window.undo_action.trigger()
    assert controller.state.controller(SPEARMAN) == PolicyChoice("aggressive")
    assert "The GM takes over Spearman" not in log_texts(window)
    window.undo_action.trigger()
    assert controller.state.controllers == ()


def test_the_careful_policy_offers_its_retreat_threshold(window: MainWindow) -> None:
    controller = window.controller
    assert window.map_view.context_menu_for(controller.state.combatant(FENCER).hex) is not None
    map_action(window, FENCER, "playedBy:careful").trigger()
    map_action(window, FENCER, "retreat:0.25").trigger()
    assert controller.state.controller(FENCER) == PolicyChoice("careful", retreat_below=0.25)
    assert "Fencer is now played by the computer (careful, retreats past 25% hurt)" in (
        log_texts(window)
    )


def test_a_whole_side_is_handed_over_in_one_command(window: MainWindow) -> None:
    controller = window.controller
    map_action(window, SWORD, "sidePlayedBy:skirmisher").trigger()
    side = controller.state.combatant(SWORD).side
    red = [c.id for c in controller.state.combatants if c.side is side]
    assert set(red) == {SWORD, SPEARMAN}
    assert {i: controller.state.controller(i) for i in red} == {
        i: PolicyChoice("skirmisher") for i in red
    }
    assert len(controller.battle.commands) == 1
    window.undo_action.trigger()
    assert controller.state.controllers == ()


def test_the_combatants_list_sets_the_controller_and_its_tooltip_says_who_plays(
    window: MainWindow,
) -> None:
    controller = window.controller
    pane = window.combatants_pane
    row = pane.model.row_of(FENCER)
    menu = pane.menu_for_row(row)
    action_named(menu, "playedBy:skirmisher").trigger()
    assert controller.state.controller(FENCER) == PolicyChoice("skirmisher")
    tip = pane.model.index(pane.model.row_of(FENCER), 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "Played by the computer (skirmisher)" in tip
    assert command_name(controller.battle.commands[-1], controller.state) == "Played By: Fencer"


def test_the_sides_dialog_hands_a_whole_side_over_and_shows_a_mixed_one(qtbot: QtBot) -> None:
    controller = demo_controller()
    sides = SidesEditor(controller)
    qtbot.addWidget(sides)
    red, blue = sides.rows[Side.RED].played_by_box, sides.rows[Side.BLUE].played_by_box
    assert red.currentText() == "The GM" and red.findData(MIXED_KEY) < 0
    red.setCurrentIndex(red.findData("careful"))
    red.activated.emit(red.currentIndex())  # as the GM's pick sends it
    # the side itself too, for the fighters who join it later: one command
    assert controller.battle.commands[-1] == Together(
        (
            SetSideControllers(((Side.RED, PolicyChoice("careful")),)),
            SetControllers(((SWORD, PolicyChoice("careful")), (SPEARMAN, PolicyChoice("careful")))),
        )
    )
    assert red.currentData() == "careful"
    assert blue.currentData() == GM_KEY
    # One fighter of the side taken over by the GM: the side is mixed.
    controller.execute(SetControllers(((SPEARMAN, None),)))
    assert red.currentText() == "Mixed"
    controller.undo()
    assert red.currentData() == "careful" and red.findData(MIXED_KEY) < 0
    controller.undo()
    assert red.currentData() == GM_KEY
    assert controller.state.controllers == ()


def test_a_computer_fighter_s_token_wears_the_computer_badge(window: MainWindow) -> None:
    controller = window.controller
    before = window.map_view.grab().toImage()
    plain = render_token(controller.state.combatant(FENCER), 40, 1.0, ROLE_PLAIN)
    badged = render_token(controller.state.combatant(FENCER), 40, 1.0, ROLE_PLAIN, computer=True)
    assert plain.toImage() != badged.toImage()
    controller.execute(SetControllers(((FENCER, PolicyChoice("aggressive")),)))
    assert window.map_view.grab().toImage() != before
    controller.undo()
    assert window.map_view.grab().toImage() == before


# --- New Battle: a side played by the computer from the start ---------------------------


def test_new_battle_hands_a_computer_side_s_starting_fighters_over_in_one_command(
    qtbot: QtBot, settings: QSettings
) -> None:
    dialog = NewBattleDialog(seed=5)
    qtbot.addWidget(dialog)
    dialog.fighters_box.setValue(2)
    blue = next(row for row in dialog.side_rows if row.side is Side.BLUE)
    assert blue.played_by_box.currentText() == "The GM"
    blue.played_by_box.setCurrentIndex(blue.played_by_box.findData("skirmisher"))
    setup = dialog.setup()
    assert setup.computer_sides == ((Side.BLUE, "skirmisher"),)
    battle = new_battle(setup)
    assert [type(c) for c in battle.commands] == [AddCombatant] * 4 + [Together]
    handing = battle.commands[-1]
    assert isinstance(handing, Together)
    assert [type(c) for c in handing.commands] == [SetSideControllers, SetControllers]
    state = battle.state
    assert {c.id: state.controller(c.id) for c in state.combatants} == {
        c.id: PolicyChoice("skirmisher") if c.side is Side.BLUE else None for c in state.combatants
    }
    battle.undo()
    assert battle.state.controllers == ()
    # The next New Battle offers the same again; a set-up without computer sides is
    # kept as before.
    write_last_setup(settings, setup)
    assert read_last_setup(settings) == setup
    again = NewBattleDialog(seed=6, last=setup)
    qtbot.addWidget(again)
    assert [row.policy_key for row in again.side_rows] == ["", "skirmisher"]
    write_last_setup(settings, replace(setup, computer_sides=()))
    kept = str(settings.value(LAST_SETUP_KEY))
    assert "computer_sides" not in kept
    assert read_last_setup(settings) == replace(setup, computer_sides=())
    for policy, offered in (("careful", True), ("berserk", False)):
        extra = f', "computer_sides": {{"blue": "{policy}"}}}}'
        settings.setValue(LAST_SETUP_KEY, kept[:-1] + extra)
        assert (read_last_setup(settings) is not None) is offered, policy


def test_the_character_editor_hands_the_fighter_over_on_save(qtbot: QtBot) -> None:
    controller = demo_controller()
    parent = QWidget()
    qtbot.addWidget(parent)
    editing = CharacterEditing(controller, parent, lambda: None)
    editor = editing.edit(SPEARMAN)
    box = editor.played_by_box
    assert box.currentData() == GM_KEY
    assert editor.controller_command() is None
    box.setCurrentIndex(box.findData("careful"))
    editor.accept()  # Save: no sheet change, only who plays it
    assert controller.battle.commands == (SetControllers(((SPEARMAN, PolicyChoice("careful")),)),)
    editor = editing.edit(SPEARMAN)
    assert editor.played_by_box.currentData() == "careful"
    editor.played_by_box.setCurrentIndex(editor.played_by_box.findData(GM_KEY))
    editor.accept()
    assert controller.state.controller(SPEARMAN) is None
    assert len(controller.battle.commands) == 2


def test_picking_the_choice_already_checked_adds_no_step_to_undo(window: MainWindow) -> None:
    map_action(window, FENCER, "playedBy:gm").trigger()
    map_action(window, FENCER, "sidePlayedBy:gm").trigger()
    assert window.controller.battle.commands == ()
    map_action(window, FENCER, "playedBy:careful").trigger()
    map_action(window, FENCER, "playedBy:careful").trigger()
    map_action(window, FENCER, "target:nearest").trigger()
    assert len(window.controller.battle.commands) == 1
