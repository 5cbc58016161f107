"""A battle ends in the window (issue 22, "The turn carries the GM" point 5): once
one side alone can act, a banner on the map and a log row name the winner and the
round, the Turns pane offers "Continue anyway" instead of "Next", Ctrl+Return
ends no turn, Undo takes the battle back, and "Continue anyway" plays on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings, Qt

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from rules.battle.commands import EditCombatant, EndTurn
from rules.battle.decision import BattleDecided, ContinueBattle
from rules.battle.model import Status
from tests.app.turn_order_window import FENCER, FLAIL, SPEARMAN, SWORD, shown_window


@pytest.fixture
def window(qtbot, qapp, settings: QSettings) -> Iterator[MainWindow]:
    """The demo battle with its turn order: red Sword-and-shield and Spearman
    against blue Flail fighter and Fencer."""
    yield shown_window(qtbot, BattleController(load_demo_battle(1, turn_order=True)), settings)


def blue_falls(window: MainWindow) -> None:
    """Both blue fighters go down at the GM's hand; red alone can act."""
    window.controller.execute(EditCombatant(FLAIL, status=Status.DEAD))
    window.controller.execute(EditCombatant(FENCER, status=Status.UNCONSCIOUS))


def log_texts(window: MainWindow) -> list[str]:
    return [line.text for row in window.log_pane.rows for line in row.lines]


def test_the_banner_and_the_log_name_the_winner_and_the_round(window: MainWindow) -> None:
    banner = window.battle_banner
    assert banner.isHidden()
    window.controller.execute(EditCombatant(FLAIL, status=Status.DEAD))
    assert banner.isHidden()  # the Fencer still fights for blue
    window.controller.execute(EditCombatant(FENCER, status=Status.UNCONSCIOUS))
    assert banner.isVisible()
    assert banner.headline.text() == "Victory to Red"
    assert banner.detail.text().startswith("Round 1: no fighter of Blue can still act.")
    assert "Undo (Ctrl+Z)" in banner.detail.text()
    # Across the top of the map, within it.
    view = window.map_view
    assert banner.parentWidget() is view
    assert banner.y() < view.height() // 4
    assert banner.x() >= 0 and banner.x() + banner.width() <= view.width()
    # Nothing cut off: the headline on one line, the wrapped detail at its full height.
    assert banner.headline.width() >= banner.headline.sizeHint().width()
    assert banner.detail.height() >= banner.detail.heightForWidth(banner.detail.width())
    assert banner.continue_button.width() >= banner.continue_button.sizeHint().width()
    expected = "The battle is won in round 1: victory to Red; no fighter of Blue can still act"
    assert log_texts(window)[-1] == expected
    assert isinstance(window.log_pane.rows[-1].lines[0].event, BattleDecided)


def test_the_turns_pane_stops_offering_next_and_ctrl_return_ends_no_turn(
    qtbot, window: MainWindow
) -> None:
    tracker = window.tracker_pane
    blue_falls(window)
    assert tracker.round_label.text() == "Victory to Red · round 1"
    assert not tracker.next_button.isVisible() and tracker.continue_button.isVisible()
    assert not window.end_turn_action.isEnabled()
    commands = window.controller.battle.commands
    window.map_view.setFocus()
    qtbot.keyClick(window.map_view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    window.end_turn()  # the window's End Turn, as the toolbar would call it
    assert window.controller.battle.commands == commands
    assert "The battle is decided" in window.statusBar().currentMessage()


def test_undo_takes_the_battle_back(window: MainWindow) -> None:
    blue_falls(window)
    window.undo_action.trigger()
    tracker = window.tracker_pane
    assert window.battle_banner.isHidden()
    assert tracker.next_button.isVisible() and not tracker.continue_button.isVisible()
    assert window.end_turn_action.isEnabled()
    assert tracker.round_label.text() == "Round 1 · Fencer's turn"
    window.redo_action.trigger()
    assert window.battle_banner.isVisible()


@pytest.mark.parametrize("where", ["tracker", "banner"])
def test_continue_anyway_plays_on(qtbot, window: MainWindow, where: str) -> None:
    blue_falls(window)
    tracker = window.tracker_pane
    button = tracker.continue_button if where == "tracker" else window.battle_banner.continue_button
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    controller = window.controller
    assert controller.battle.commands[-1] == ContinueBattle()
    assert window.battle_banner.isHidden()
    assert tracker.next_button.isVisible() and not tracker.continue_button.isVisible()
    played_on = "The GM plays on after the battle's end (victory to Red in round 1)"
    assert log_texts(window)[-1] == played_on
    assert window.undo_action.text() == "&Undo Continue Battle"
    qtbot.mouseClick(tracker.next_button, Qt.MouseButton.LeftButton)
    assert controller.battle.commands[-1] == EndTurn()
    # Undone twice, the battle waits again for the GM's choice.
    controller.undo()
    controller.undo()
    assert window.battle_banner.isVisible() and tracker.continue_button.isVisible()


def test_a_draw_is_said_as_a_draw(window: MainWindow) -> None:
    blue_falls(window)
    window.controller.execute(ContinueBattle())
    window.controller.execute(EditCombatant(SWORD, status=Status.DEAD))
    window.controller.execute(EditCombatant(SPEARMAN, status=Status.DEAD))
    assert window.battle_banner.isVisible()
    assert window.battle_banner.headline.text() == "A draw"
    assert window.tracker_pane.round_label.text() == "A draw · round 1"
    assert log_texts(window)[-1] == (
        "The battle ends in a draw in round 1: no fighter on any side can still act"
    )


def test_a_decided_battle_opened_shows_its_banner(qtbot, qapp, settings: QSettings) -> None:
    battle = load_demo_battle(1, turn_order=True)
    battle.execute(EditCombatant(FLAIL, status=Status.DEAD))
    battle.execute(EditCombatant(FENCER, status=Status.DEAD))
    window = shown_window(qtbot, BattleController(load_demo_battle(1)), settings)
    assert window.battle_banner.isHidden()
    window.replace_battle(battle)
    assert window.battle_banner.isVisible()
    assert window.tracker_pane.continue_button.isVisible()
