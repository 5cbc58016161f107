"""Labels never hide tokens (issue 22): the target callout goes where it covers
no token, and the legend moves off the selected fighter, its target and the
target's callout."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import QRectF

from app.controller import BattleController
from app.main_window import load_demo_battle
from app.map import labels as ml
from app.map.view import MapView
from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.sets.registry import get_ruleset

ATTACKER = Hex.from_offset(6, 6)
TARGET = ATTACKER.neighbor(Facing.SE)


def crowded_battle() -> Battle:
    """The demo's fighters in a row: the target between its attacker and two
    fighters straight beyond it, where the callout used to go."""
    state = load_demo_battle(1).state
    a, t, b, c = state.combatants
    beyond = TARGET.neighbor(Facing.SE)
    placed = (
        replace(a, hex=ATTACKER),
        replace(t, hex=TARGET),
        replace(b, hex=beyond),
        replace(c, hex=beyond.neighbor(Facing.SE)),
    )
    return Battle(state.with_combatants(*placed), 1, get_ruleset)


@pytest.fixture
def view(qtbot) -> MapView:
    widget = MapView(BattleController(crowded_battle()))
    qtbot.addWidget(widget)
    widget.resize(1000, 720)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_zoom(1.5)
    widget.center_on(TARGET)
    return widget


def token_rect(view: MapView, h: Hex) -> QRectF:
    """The token's disc on screen (its hex's inner circle, about)."""
    half = 0.62 * view.camera.hex_pixels
    centre = view.hex_center(h)
    return QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half)


def test_the_target_callout_covers_no_token(view: MapView) -> None:
    controller = view.controller
    a, t = controller.state.combatants[:2]
    controller.select(a.id)
    controller.set_target(t.id)
    callout = ml.target_labels(
        view.camera, controller.state, view._overlay, t.id, view._texts
    )
    assert callout[0].text == f"Target: {t.name}"
    tokens = [token_rect(view, c.hex) for c in controller.state.combatants]
    for label in callout:
        assert not any(label.rect.intersects(token) for token in tokens), label.text
        assert QRectF(view.rect()).contains(label.rect), label.text
    # the callout still stands beside its target, not across the map
    centre = view.hex_center(t.hex)
    assert all(
        abs(label.rect.center().x() - centre.x()) < 4 * view.camera.hex_pixels
        and abs(label.rect.center().y() - centre.y()) < 4 * view.camera.hex_pixels
        for label in callout
    )


@pytest.mark.parametrize("who", ["selected", "target"])
def test_the_legend_moves_off_the_selected_fighter_and_its_target(view: MapView, who: str) -> None:
    controller = view.controller
    a, t = controller.state.combatants[:2]
    controller.select(a.id)
    controller.set_target(t.id)
    view.grab()
    corner = view.legend_rect()
    assert corner.left() == 12 and corner.bottom() == view.height() - 12  # bottom left first
    # pan the fighter under the legend's corner
    under = a if who == "selected" else t
    centre = view.hex_center(under.hex)
    view.camera.pan_by(corner.center().x() - centre.x(), corner.center().y() - centre.y())
    view.grab()
    moved = view.legend_rect()
    for c in (a, t):
        assert not moved.intersects(token_rect(view, c.hex)), c.name
        assert not moved.intersects(view._token_rect(c.hex).toRectF()), c.name
    assert moved != corner and QRectF(view.rect()).contains(moved)
    assert view._callout and not any(moved.intersects(label) for label in view._callout)
    # the fighter gone from the corner, the legend comes back to it
    view.center_on(TARGET)
    view.grab()
    assert view.legend_rect() == corner
