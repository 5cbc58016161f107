"""File ▸ Open Demo Battle with the computer playing a side or both (issue 25):
each ruleset's demo opens with its sides handed over by one SetControllers, which
undoes and saves, and a demo played by the computer on both sides auto-plays."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.demo_sides import COMPUTER_BOTH, COMPUTER_SECOND, DEMO_POLICY, GM_BOTH, sides_in_play
from app.files import open_battle, save_battle
from app.main_window import MainWindow
from rules.battle.control import SetControllers
from rules.battle.side_control import SetSideControllers
from rules.battle.sides import side_name
from rules.battle.together import Together
from rules.sets.registry import ruleset_keys


def open_demo(window: MainWindow, key: str, sides: str) -> None:
    actions = window.file_actions
    actions.demo_menu.aboutToShow.emit()
    names = {a.objectName(): a for a in actions.demo_menu.actions()}
    names[f"demoSides:{sides}"].trigger()
    names[f"openDemo:{key}"].trigger()


def test_the_demo_menu_offers_who_plays_the_sides(main_window: MainWindow) -> None:
    actions = main_window.file_actions
    actions.demo_menu.aboutToShow.emit()
    names = [a.objectName() for a in actions.demo_menu.actions()]
    assert [n for n in names if n.startswith("demoSides:")] == [
        f"demoSides:{k}" for k in (GM_BOTH, COMPUTER_SECOND, COMPUTER_BOTH)
    ]
    assert actions.demo_sides.key == GM_BOTH
    actions.demo_menu.aboutToShow.emit()  # filled again: still once each
    names = [a.objectName() for a in actions.demo_menu.actions()]
    assert names.count(f"demoSides:{GM_BOTH}") == 1


@pytest.mark.parametrize("key", ruleset_keys())
def test_every_demo_opens_with_the_computer_on_the_second_side(
    main_window: MainWindow, key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    open_demo(main_window, key, COMPUTER_SECOND)
    controller = main_window.controller
    state = controller.state
    assert state.ruleset_key == key and state.turns_running
    first, second = sides_in_play(state)[:2]
    command = controller.battle.commands[-1]  # after the demo's own
    assert isinstance(command, Together)
    assert [type(c) for c in command.commands] == [SetSideControllers, SetControllers]
    assert state.side_controllers == ((second, DEMO_POLICY),)
    for c in state.combatants:
        assert state.controller(c.id) == (DEMO_POLICY if c.side is second else None), c.name
    assert any(c.side is first for c in state.combatants)
    assert f"the computer plays {side_name(state.sides, second)}" in (
        main_window.statusBar().currentMessage()
    )
    path = tmp_path / "demo.hexfray"
    save_battle(controller.battle, path)
    loaded = open_battle(path)  # saved with the battle
    assert loaded.state.controllers == state.controllers
    assert loaded.state.side_controllers == state.side_controllers
    main_window.undo_action.trigger()
    assert controller.state.controllers == () and controller.state.side_controllers == ()


def test_a_demo_played_by_the_computer_on_both_sides_auto_plays(
    main_window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    open_demo(main_window, "000", COMPUTER_BOTH)
    state = main_window.controller.state
    assert all(state.controller(c.id) == DEMO_POLICY for c in state.combatants)
    auto = main_window.auto_play
    auto.set_speed("instant")
    auto.run_action.trigger()
    # Longer than a minute on a busy machine: every blow's defense is weighed too.
    qtbot.waitUntil(lambda: not auto.running, timeout=300_000)
    assert main_window.controller.state.outcome is not None


def test_the_gm_choice_opens_the_demo_as_before(
    main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    open_demo(main_window, "000", GM_BOTH)
    commands = main_window.controller.battle.commands
    assert not any(isinstance(c, SetControllers) for c in commands)
    assert not main_window.isWindowModified()
