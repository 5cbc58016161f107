"""The long evening (issue 25): after a long auto-play in the window the combat log
holds a row for every command and shows its last one (not timed: the figures are
``main.py --benchmark``'s ``long_evening_*``)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from app.benchmark_evening import EVENING_HIT_POINTS, evening_battle, run_evening


def test_the_evening_s_fighters_cannot_finish_each_other() -> None:
    battle = evening_battle(1)
    state = battle.state
    assert all(c.hp == EVENING_HIT_POINTS for c in state.combatants)
    assert all(state.controller(c.id) is not None for c in state.combatants)


def test_after_a_long_auto_play_the_log_holds_every_command_and_shows_the_last(
    qapp: QApplication,
) -> None:
    evening = run_evening(1, rounds=6)
    assert evening.rounds == 6
    assert evening.decisions > 40 and evening.commands > 40
    assert evening.log_rows > evening.commands  # an attack tells several rows
    assert evening.log_follows
