"""The turns in the window (issue 10, "Turns and maneuvers"): the turn tracker shows
the round, whose turn it is and who comes next, each fighter's maneuver and
conditions; "Next" and Ctrl+Return end the turn; the maneuver box sends
``ChooseManeuver`` and the attack pane follows the maneuvers; a refused action
shows its reason and the GM's override forces it, marked in the log; the tokens
and the inspector show the conditions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QComboBox

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from app.map import painter as mp
from app.override import overridden
from app.panes.turn_tracker import TurnTrackerPane, tracker_order
from rules.battle.commands import Attack, EditCombatant, EndTurn, MoveCombatant
from rules.battle.model import Status
from rules.battle.turns import ChooseManeuver, RuleOverridden, StartTurns, upcoming
from tests.app.turn_order_window import FENCER, FLAIL, SPEARMAN, SWORD, rows, shown_window


@pytest.fixture
def window(qtbot, qapp, settings: QSettings) -> Iterator[MainWindow]:
    """The window on the demo battle with its turn order, as the GM opens it."""
    yield shown_window(qtbot, BattleController(load_demo_battle(1, turn_order=True)), settings)


def choose(combo: QComboBox, data: str) -> None:
    """Pick the entry with ``data`` as the GM would (``activated``)."""
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def test_the_tracker_shows_the_round_whose_turn_and_who_comes_next(window: MainWindow) -> None:
    tracker = window.tracker_pane
    state = window.controller.state
    assert state.initiative == (FENCER, SPEARMAN, FLAIL, SWORD)
    assert tracker.round_label.text() == "Round 1 · Fencer's turn"
    assert rows(tracker)[0].startswith("1. Fencer  ◀ now")
    assert rows(tracker)[1].startswith("2. Spearman  · next")
    assert tracker.order_list.item(0).font().bold() and not tracker.order_list.item(1).font().bold()
    assert not tracker.start_button.isVisible() and tracker.next_button.isVisible()
    assert "Spearman is next" in tracker.next_button.toolTip()


def test_next_and_ctrl_return_pass_the_turn_and_undo_takes_it_back(qtbot, window) -> None:
    tracker = window.tracker_pane
    controller = window.controller
    qtbot.mouseClick(tracker.next_button, Qt.MouseButton.LeftButton)
    assert controller.battle.commands[-1] == EndTurn()
    assert controller.state.active_id == SPEARMAN
    assert tracker.round_label.text() == "Round 1 · Spearman's turn"
    # the list goes on from the fighter whose turn it is; the first one comes round again
    assert [r.split("\n")[0] for r in rows(tracker)] == [
        "2. Spearman  ◀ now", "3. Flail fighter  · next", "4. Sword-and-shield fighter",
        "1. Fencer",
    ]  # fmt: skip
    window.map_view.setFocus()
    qtbot.keyClick(window.map_view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert controller.state.active_id == FLAIL
    for _ in range(2):
        tracker.next_button.click()
    assert tracker.round_label.text() == "Round 2 · Fencer's turn"
    controller.undo()
    assert tracker.round_label.text() == "Round 1 · Sword-and-shield fighter's turn"
    assert rows(tracker)[0].startswith("4. Sword-and-shield fighter  ◀ now")


def test_a_click_in_the_tracker_selects_the_fighter(qtbot, window: MainWindow) -> None:
    tracker = window.tracker_pane
    item = tracker.order_list.item(2)
    rect = tracker.order_list.visualItemRect(item)
    qtbot.mouseClick(tracker.order_list.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.controller.selected_id == FLAIL


def test_the_dead_are_greyed_and_skipped(window: MainWindow) -> None:
    controller = window.controller
    controller.execute(EditCombatant(SPEARMAN, status=Status.DEAD))
    tracker = window.tracker_pane
    spearman = next(i for i in range(4) if rows(tracker)[i].startswith("2. Spearman"))
    assert "skipped" in rows(tracker)[spearman]
    assert tracker.order_list.item(spearman).font().strikeOut()
    assert upcoming(controller.state)[0] == FLAIL
    assert rows(tracker)[spearman + 1].startswith("3. Flail fighter  · next")
    tracker.next_button.click()
    assert controller.state.active_id == FLAIL


def test_roll_initiative_when_the_order_is_not_rolled(qtbot, qapp, settings) -> None:
    controller = BattleController(load_demo_battle(1))
    tracker = TurnTrackerPane(controller)
    qtbot.addWidget(tracker)
    tracker.show()
    assert tracker.start_button.isVisible()
    assert tracker.round_label.text() == "Round 1 · no order"
    names = [c.name for c in controller.state.combatants]
    assert [r.split("  ")[0] for r in rows(tracker)] == names
    qtbot.mouseClick(tracker.start_button, Qt.MouseButton.LeftButton)
    assert controller.battle.commands == (StartTurns(),)
    assert controller.state.turns_running and not tracker.start_button.isVisible()
    first = controller.state.combatant(controller.state.initiative[0]).name
    assert tracker.round_label.text() == f"Round 1 · {first}'s turn"
    assert tracker_order(controller.state) == controller.state.initiative


# --- maneuvers -----------------------------------------------------------------------------
def test_the_maneuver_box_lists_the_ruleset_s_maneuvers_and_sends_the_choice(window) -> None:
    tracker = window.tracker_pane
    controller = window.controller
    ruleset = controller.ruleset
    offered = ruleset.turns.maneuvers(controller.state, FENCER)
    combo = tracker.maneuver_combo
    assert [combo.itemData(i) for i in range(1, combo.count())] == [m.key for m in offered]
    all_out = ruleset.turns.maneuver("all-out-attack")
    index = combo.findData("all-out-attack")
    assert combo.itemText(index) == all_out.label
    assert combo.itemData(index, Qt.ItemDataRole.ToolTipRole) == all_out.description
    assert tracker.option_combo.isHidden()
    choose(combo, "all-out-attack")
    assert controller.battle.commands[-1] == ChooseManeuver(FENCER, "all-out-attack", "determined")
    assert not tracker.option_combo.isHidden()
    options = [tracker.option_combo.itemText(i) for i in range(tracker.option_combo.count())]
    assert options == [o.label for o in all_out.options]
    choose(tracker.option_combo, "double")
    assert controller.battle.commands[-1] == ChooseManeuver(FENCER, "all-out-attack", "double")
    assert controller.state.combatant(FENCER).maneuver.option == "double"
    assert "All-out attack (two attacks)" in rows(tracker)[0]
    assert "2 attacks left" in tracker.allowance_label.text()
    assert "no active defense" in tracker.allowance_label.text()
    # the inspector names it too
    controller.select(FENCER)
    assert "All-out attack (two attacks)" in window.inspector_pane.conditions_label.text()
    controller.undo()
    assert combo.currentData() == "all-out-attack" and tracker.option_combo.currentData() == (
        "determined"
    )


def test_an_all_out_attack_leaves_the_fighter_without_active_defenses(window) -> None:
    controller = window.controller
    choose(window.tracker_pane.maneuver_combo, "all-out-attack")
    window.tracker_pane.next_button.click()  # the spearman's turn: he attacks the fencer
    controller.select(SPEARMAN)
    controller.set_target(FENCER)
    pane = window.attack_pane
    assert pane.plan is not None
    for check in (pane.dodge_check, pane.parry_check):
        assert not check.isEnabled()
    assert pane.plan.defenses == ()
    assert "all-out attack" in pane.dodge_check.toolTip()
    assert "Spearman: no maneuver chosen · 1 attack left" in pane.turn_label.text()


def test_an_all_out_defense_shows_its_bonus_and_an_all_out_attack_its_own(window) -> None:
    controller = window.controller
    tracker = window.tracker_pane
    choose(tracker.maneuver_combo, "all-out-defense")
    choose(tracker.option_combo, "parry")
    tracker.next_button.click()
    pane = window.attack_pane
    controller.select(SPEARMAN)
    controller.set_target(FENCER)
    pane.parry_check.setChecked(True)
    assert pane.all_out_check.isChecked() and not pane.all_out_check.isEnabled()
    parry = next(d for d in pane.plan.defenses)
    assert any(m.reason == "All-out defense (+2 parry)" and m.value == 2 for m in parry.modifiers)
    # the spearman's all-out attack: +4 to hit in the preview, once in the roll
    before = pane.plan.effective_skill
    choose(tracker.maneuver_combo, "all-out-attack")
    assert pane.plan.effective_skill == before + 4
    assert any(m.reason == "All-out attack (+4 to hit)" for m in pane.plan.modifiers)
    command = pane.command()
    assert command is not None and not any(
        "All-out" in m.reason for m in command.choices.extra_modifiers
    )  # the ruleset adds the bonus when it rolls


# --- refusals and the override -------------------------------------------------------------
def test_a_refused_out_of_turn_attack_shows_why_and_the_override_forces_it(window) -> None:
    controller = window.controller
    pane = window.attack_pane
    controller.select(SPEARMAN)  # the fencer's turn, not his
    controller.set_target(FENCER)
    assert "Needs the GM's override: it is Fencer's turn" in pane.turn_label.text()
    done = len(controller.battle.commands)
    pane.roll()
    assert len(controller.battle.commands) == done  # refused
    message = window.statusBar().currentMessage()
    assert message.startswith("Not allowed: it is Fencer's turn: Spearman cannot attack")
    assert "Ctrl+Shift+Return overrides" in message
    assert window.override_action.isEnabled() and window.override_button.isVisible()
    window.override_action.trigger()
    forced = controller.battle.commands[-1]
    assert isinstance(forced, Attack) and forced.gm_override and forced.attacker_id == SPEARMAN
    overrides = [e for e in controller.battle.event_batches[-1] if isinstance(e, RuleOverridden)]
    assert overrides and overrides[0].reason == "it is Fencer's turn: Spearman cannot attack"
    texts = [line.text for row in window.log_pane.rows for line in row.lines]
    assert any(t.startswith("GM override (attack): it is Fencer's turn") for t in texts)
    assert not window.override_action.isEnabled() and not window.override_button.isVisible()
    assert window.statusBar().currentMessage() == ""


def test_the_override_by_keyboard_and_only_for_commands_it_can_force(qtbot, window) -> None:
    controller = window.controller
    spearman = controller.state.combatant(SPEARMAN)
    controller.execute(MoveCombatant(SPEARMAN, spearman.hex.neighbor(spearman.facing)))
    assert window.override_button.isVisible()
    window.map_view.setFocus()
    qtbot.keyClick(
        window.map_view, Qt.Key.Key_Return,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )  # fmt: skip
    assert controller.battle.commands[-1].gm_override
    assert overridden(EndTurn()) is None  # nothing to force
    assert overridden(controller.battle.commands[-1]) is None  # forced already
    controller.undo()
    controller.undo()  # nothing more to undo: refused, but no override on offer
    assert not window.override_action.isEnabled()


def test_no_override_is_offered_for_what_no_override_lifts(window: MainWindow) -> None:
    controller = window.controller
    pane = window.attack_pane
    controller.select(FENCER)  # his turn, but the spearman is two hexes off
    controller.set_target(SPEARMAN)
    command = pane.command()
    assert command is not None
    assert controller.execute(command) is None
    assert "reach" in window.statusBar().currentMessage()
    assert not window.override_action.isEnabled() and not window.override_button.isVisible()
    assert "overrides" not in window.statusBar().currentMessage()


# --- conditions -------------------------------------------------------------------------------
def test_conditions_show_in_the_tracker_on_the_token_and_in_the_inspector(window) -> None:
    controller = window.controller
    controller.execute(EditCombatant(FLAIL, status=Status.STUNNED))
    flail = controller.state.combatant(FLAIL)
    labels = controller.ruleset.conditions.labels(flail)
    assert "stunned" in labels
    row = next(r for r in rows(window.tracker_pane) if r.startswith("3. Flail fighter"))
    assert "stunned" in row
    assert window.map_view.conditions_of(flail) == labels
    badges = mp.condition_badges(flail, labels)
    assert badges[0][0] == "S"
    plain = mp.render_token(flail, 40, 1.0, mp.ROLE_PLAIN).toImage()
    marked = mp.render_token(flail, 40, 1.0, mp.ROLE_PLAIN, labels).toImage()
    assert marked != plain
    corner = QImage.copy(marked, 60, 0, 20, 30)  # the badges' corner
    assert corner != QImage.copy(plain, 60, 0, 20, 30)
    controller.select(FLAIL)
    assert "stunned" in window.inspector_pane.conditions_label.text()
    # they follow the turns: at its turn a stunned fighter can only do nothing
    window.tracker_pane.next_button.click()
    window.tracker_pane.next_button.click()
    assert controller.state.active_id == FLAIL
    flail = controller.state.combatant(FLAIL)
    combo = window.tracker_pane.maneuver_combo
    offered = [combo.itemData(i) for i in range(1, combo.count())]
    assert offered == [m.key for m in controller.ruleset.turns.maneuvers(controller.state, FLAIL)]
    row = next(r for r in rows(window.tracker_pane) if r.startswith("3. Flail fighter"))
    for label in controller.ruleset.conditions.labels(flail):
        assert label in row
    assert window.map_view.conditions_of(flail) == controller.ruleset.conditions.labels(flail)


def test_the_badges_leave_out_what_the_token_shows_already() -> None:
    battle = load_demo_battle(1)
    c = battle.state.combatant(FLAIL)
    assert mp.condition_badges(c, ("dead", "standing")) == ()
    letters = [b[0] for b in mp.condition_badges(c, ("severe bleeding", "crippled leg", "x"))]
    assert letters == ["B", "C", "X"]
