"""Auto-play's moves and blows animated on the map (issue 25): at the watchable
speed a move slides the token hex by hex and a blow flashes from attacker to
defender, landed or not; quick is shorter, instant shows none; the next decision
waits for them; a pause or an undo mid-animation leaves the true state shown."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from app.map.action_animation import PACES, Blow, Slide, step_ms
from rules.battle.control import SetControllers
from rules.play.policies import AGGRESSIVE
from tests.app.turn_order_window import shown_window


@pytest.fixture
def window(qtbot: QtBot, qapp: QApplication, settings: QSettings) -> Iterator[MainWindow]:
    w = shown_window(qtbot, BattleController(load_demo_battle(1, turn_order=True)), settings)
    w.map_view.animations_enabled = True  # offscreen turns them off by default
    ids = tuple(c.id for c in w.controller.state.combatants)
    w.controller.execute(SetControllers(tuple((i, AGGRESSIVE) for i in ids)))
    yield w


def step_until(window: MainWindow, qtbot: QtBot, kind: type, tries: int = 40) -> object:
    """Step one action at a time until the map animates a step of ``kind``
    (``window.state_before_step``: the battle before that action)."""
    animator = window.map_view.action_animator
    for _ in range(tries):
        window.state_before_step = window.controller.state  # type: ignore[attr-defined]
        window.auto_play.step_action.trigger()
        # the decision is worked out on the worker thread: wait for its commands
        qtbot.waitUntil(lambda: not window.auto_play.running, timeout=30_000)
        if isinstance(animator.step, kind):
            return animator.step
        animator.skip()
        assert window.controller.state.outcome is None
    raise AssertionError(f"no {kind.__name__} in {tries} actions")


def test_a_move_slides_the_token_along_its_path(window: MainWindow, qtbot: QtBot) -> None:
    window.auto_play.set_speed("watchable")
    slide = step_until(window, qtbot, Slide)
    assert isinstance(slide, Slide)
    view, animator = window.map_view, window.map_view.action_animator
    # the battle is already in its true state: the token has arrived
    assert window.controller.state.combatant(slide.combatant_id).hex == slide.path[-1]
    assert animator.remaining_ms() == pytest.approx(step_ms(slide, PACES["watchable"]), abs=60)
    # the next decision waits for the slide, however short the speed's pause
    assert window.auto_play.animation_ms() >= animator.remaining_ms()
    points = []
    qtbot.waitUntil(lambda: animator.progress > 0.3, timeout=3000)
    points.append(animator.token_point(view.hex_center))
    qtbot.waitUntil(lambda: animator.progress > 0.8 or not animator.running, timeout=3000)
    points.append(animator.token_point(view.hex_center))
    start, end = view.hex_center(slide.path[0]), view.hex_center(slide.path[-1])
    assert points[0] is not None and points[0] not in (start, end)  # on its way
    qtbot.waitUntil(lambda: not animator.running, timeout=3000)
    assert animator.token_point(view.hex_center) is None  # drawn in its hex again
    view.grab()  # paints without fault once done


def test_a_blow_flashes_and_says_whether_it_landed(window: MainWindow, qtbot: QtBot) -> None:
    window.auto_play.set_speed("watchable")
    blow = step_until(window, qtbot, Blow, tries=60)
    assert isinstance(blow, Blow)
    state, before = window.controller.state, window.state_before_step  # type: ignore[attr-defined]
    condition = window.controller.ruleset.conditions.fighter_condition
    attacker, defender = state.combatant(blow.attacker_id), state.combatant(blow.defender_id)
    assert attacker.side != defender.side
    assert blow.target == defender.hex
    # landed exactly when the defender came out of it more hurt
    was = condition(before.combatant(defender.id)).hurt
    assert blow.landed == (condition(defender).hurt > was)
    qtbot.waitUntil(lambda: window.map_view.action_animator.progress > 0.6, timeout=3000)
    window.map_view.grab()  # the burst or the "miss" ring paints
    qtbot.waitUntil(lambda: not window.map_view.action_animator.running, timeout=3000)


def test_quick_is_shorter_and_instant_shows_nothing(window: MainWindow) -> None:
    assert PACES["quick"].per_hex < PACES["watchable"].per_hex
    assert PACES["quick"].blow < PACES["watchable"].blow
    window.auto_play.set_speed("instant")
    animator = window.map_view.action_animator
    for _ in range(6):
        window.auto_play.step_action.trigger()
        assert not animator.running
        assert window.auto_play.animation_ms() == 0


def test_a_gm_s_own_move_is_not_animated(window: MainWindow) -> None:
    from rules.battle.commands import MoveCombatant

    state = window.controller.state
    mover = state.combatant(state.active_id or "")
    free = next(h for h in mover.hex.neighbors() if h in state.grid and state.occupant(h) is None)
    window.controller.execute(MoveCombatant(mover.id, free, gm_override=True))
    assert not window.map_view.action_animator.running


def test_pause_mid_animation_shows_the_true_state(window: MainWindow, qtbot: QtBot) -> None:
    window.auto_play.set_speed("watchable")
    window.auto_play.run_action.trigger()
    animator = window.map_view.action_animator
    qtbot.waitUntil(lambda: animator.running, timeout=20_000)
    window.auto_play.pause_action.trigger()
    assert not window.auto_play.running
    assert not animator.running and animator.token_point(window.map_view.hex_center) is None


def test_undo_mid_animation_shows_the_true_state(window: MainWindow, qtbot: QtBot) -> None:
    window.auto_play.set_speed("watchable")
    slide = step_until(window, qtbot, Slide)
    assert isinstance(slide, Slide)
    animator = window.map_view.action_animator
    assert animator.running
    while window.controller.state.combatant(slide.combatant_id).hex != slide.path[0]:
        window.undo_action.trigger()
    assert not animator.running
    assert animator.token_point(window.map_view.hex_center) is None
