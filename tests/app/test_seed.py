"""The demo battle's dice seed: new at each launch of the window, fixed elsewhere."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

import main


def test_the_window_rolls_new_dice_at_each_launch(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter([31_415_926, 27_182_818])
    monkeypatch.setattr(main, "random_seed", lambda: next(drawn))
    assert main.battle_seed(None, window=True) == 31_415_926
    assert main.battle_seed(None, window=True) == 27_182_818


def test_a_seed_asked_for_is_kept() -> None:
    assert main.battle_seed(77, window=True) == 77
    assert main.battle_seed(77, window=False) == 77


def test_the_screenshot_and_benchmark_keep_seed_1() -> None:
    assert main.battle_seed(None, window=False) == main.DEFAULT_SEED == 1
    assert main.parse_args(["--benchmark"]).seed is None


def test_the_status_bar_names_the_demo_seed(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(main, "maybe_show_first_run_guide", lambda window: None)
    window = main.open_window(4242)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: "dice seed 4242" in window.statusBar().currentMessage())
    assert window.controller.battle.seed == 4242


def test_the_status_bar_says_how_to_play_the_seed_again_in_the_window(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A packaged program has no command line to show: the message names what in
    the window plays the same dice again, and that does."""
    monkeypatch.setattr(main, "maybe_show_first_run_guide", lambda window: None)
    window = main.open_window(4242)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: "dice seed 4242" in window.statusBar().currentMessage())
    message = window.statusBar().currentMessage()
    assert "python" not in message.lower() and ".py" not in message and "--" not in message
    assert "File ▸ New Demo Battle" in message
    file_menu = next(
        a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "File"
    )
    again = next(a for a in file_menu.actions() if a.text().replace("&", "") == "New Demo Battle")
    opened = window.controller.battle
    again.trigger()
    assert window.controller.battle is not opened
    assert window.controller.battle.seed == 4242
    assert window.controller.battle.state == opened.state  # the same turn order, rolled again
