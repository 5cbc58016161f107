"""The battlefield on the map: items on the ground, terrain painting, postures on
tokens, the path this turn, weapon positions, flying pieces and the hex pane."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QAction, QMouseEvent
from PySide6.QtWidgets import QApplication, QComboBox

from app.controller import BattleController
from app.main_window import MainWindow, load_demo_battle
from app.map.view import MapView
from app.panes.hex_pane import HexPane
from hexmap import Hex
from rules.battle.battle import weapon_positions
from rules.battle.commands import Attack, DropItem, PaintTerrain, SetPosture
from rules.battle.scatter import PieceLanded
from rules.battle.terrain import Cover, Footing, Light, TerrainChange, WaterDepth
from rules.sets.seed000.attack import AttackOptions, WeaponAttack
from rules.sets.seed000.conditions import Posture

# The spearman (c2) strikes at the fencer's (c4) rapier to disarm it; with seed 1
# the fencer loses the rapier (checked below from the rules' own events).
DISARM = Attack(
    "c2",
    "c4",
    AttackOptions(
        weapon_key="long-spear",
        mode="thrust",
        target_weapon_key="rapier",
        weapon_attack=WeaponAttack.DISARM,
    ),
)


@pytest.fixture
def view(qtbot, controller: BattleController) -> MapView:
    widget = MapView(controller)
    qtbot.addWidget(widget)
    widget.resize(1000, 720)
    widget.show()
    qtbot.waitExposed(widget)
    widget.setFocus()
    return widget


@pytest.fixture
def pane(qtbot, view: MapView) -> HexPane:
    dock = HexPane(view.controller, view)  # not shown: it would cover the map's window
    qtbot.addWidget(dock)
    return dock


def point(view: MapView, h: Hex) -> QPoint:
    return view.hex_center(h).toPoint()


def hover(view: MapView, h: Hex) -> None:
    """A plain mouse move over ``h`` (QTest's moves without a button are unreliable
    offscreen), delivered straight to the view."""
    pos = view.hex_center(h)
    event = QMouseEvent(
        QEvent.Type.MouseMove, pos, view.mapToGlobal(pos), Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(view, event)


def disarm(controller: BattleController) -> PieceLanded:
    events = controller.execute(DISARM)
    assert events is not None
    landed = [e for e in events if isinstance(e, PieceLanded)]
    assert landed, "seed 1 disarms the fencer"
    return landed[0]


def test_animations_are_off_in_tests(view: MapView) -> None:
    assert view.animations_enabled is False
    disarm(view.controller)
    assert not view.animator.running


def test_a_disarmed_weapon_lies_where_the_rules_landed_it(view: MapView) -> None:
    controller = view.controller
    landed = disarm(controller)
    item = controller.state.item(landed.item_id)
    assert item.hex == landed.landing.final
    assert view.items_drawn() == {landed.landing.final: ["Rapier"]}
    # drawn at the hex's edge, clear of the token's face
    (rect, shown), = view.item_rects()
    assert shown.id == item.id
    centre = view.hex_center(item.hex)
    assert not rect.contains(centre)
    assert (rect.center() - centre).manhattanLength() < 1.5 * 32 * view.zoom
    assert "On the ground: Rapier" in view.describe_hex(item.hex)


def test_a_dropped_weapon_lies_in_the_carriers_hex(view: MapView) -> None:
    controller = view.controller
    c1 = controller.state.combatant("c1")
    controller.execute(DropItem("c1", "broadsword"))
    assert view.items_drawn() == {c1.hex: ["Broadsword"]}
    assert not controller.state.combatant("c1").fighter.weapons


def test_several_items_in_a_hex_fan_out(view: MapView) -> None:
    controller = view.controller
    controller.execute(DropItem("c1", "broadsword"))
    controller.execute(DropItem("c1", "medium-shield"))
    rects = [r for r, _item in view.item_rects()]
    assert len(rects) == 2
    assert not rects[0].intersects(rects[1])


def test_pick_up_through_the_hex_pane(qtbot, view: MapView, pane: HexPane) -> None:
    controller = view.controller
    landed = disarm(controller)
    where = landed.landing.final
    controller.select("c4")
    pane.show_hex(where)
    assert pane.item_ids() == [landed.item_id]
    assert pane.pick_up_button.isEnabled()
    pane.pick_up_button.click()
    assert controller.state.items == ()
    assert view.items_drawn() == {}
    assert pane.item_ids() == []
    assert any(w.name == "Rapier" for w in controller.state.combatant("c4").fighter.weapons)


def test_the_hex_pane_follows_hover_until_a_click_pins_it(qtbot, view: MapView,
                                                          pane: HexPane) -> None:
    a, b = Hex(3, 3), Hex(5, 4)
    hover(view, a)
    assert pane.hex == a
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, b))
    assert pane.hex == b
    hover(view, a)
    assert pane.hex == b  # pinned
    pane.unpin()
    hover(view, Hex(4, 4))
    assert pane.hex == Hex(4, 4)


def test_the_hex_pane_edits_terrain(view: MapView, pane: HexPane) -> None:
    controller = view.controller
    h = Hex(4, 4)
    pane.show_hex(h)
    combo = pane.editors["footing"]
    combo.activated.emit(combo.findData(Footing.BAD))
    command = controller.battle.commands[-1]
    assert command == PaintTerrain((h,), TerrainChange(footing=Footing.BAD))
    assert controller.state.terrain.at(h).footing is Footing.BAD
    look = view.terrain_drawn_at(h)
    assert look is not None and look.footing == 1


def test_painting_terrain_by_dragging_is_one_command(qtbot, view: MapView) -> None:
    controller = view.controller
    view.set_terrain_mode(True)
    view.set_terrain_brush(TerrainChange(water=WaterDepth.KNEE))
    stroke = [Hex(3, 4), Hex(4, 4), Hex(5, 3), Hex(6, 3)]
    before = len(controller.battle.commands)
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=point(view, stroke[0]))
    for h in stroke[1:]:
        # several pixel moves per hex: still one command for the stroke
        for dx in (-3, 0, 3):
            qtbot.mouseMove(view, point(view, h) + QPoint(dx, 0))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=point(view, stroke[-1]))
    commands = controller.battle.commands[before:]
    assert commands == (PaintTerrain(tuple(stroke), TerrainChange(water=WaterDepth.KNEE)),)
    for h in stroke:
        look = view.terrain_drawn_at(h)
        assert look is not None and look.water > 0
    assert view.terrain_drawn_at(Hex(8, 8)) is None
    # painting does not select or move anybody
    assert controller.selected_id is None


def test_terrain_mode_toggles_with_t_and_leaves_with_esc(qtbot, main_window: MainWindow) -> None:
    view = main_window.map_view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_T)
    assert view.terrain_mode
    assert main_window.brush_kind_action.isVisible()
    assert view.terrain_brush is not None
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not view.terrain_mode
    assert not main_window.brush_kind_action.isVisible()


def test_the_map_shows_every_kind_of_terrain(view: MapView) -> None:
    controller = view.controller
    controller.execute(PaintTerrain((Hex(2, 2),), TerrainChange(cover=Cover.FULL)))
    controller.execute(PaintTerrain((Hex(3, 2),), TerrainChange(height=2)))
    controller.execute(PaintTerrain((Hex(4, 2),), TerrainChange.open_ground()))
    controller.execute(PaintTerrain((Hex(5, 2),), TerrainChange(light=Light.NEARLY_DARK)))
    assert view.terrain_drawn_at(Hex(2, 2)).cover == 2
    assert view.terrain_drawn_at(Hex(3, 2)).height == 2
    assert view.terrain_drawn_at(Hex(4, 2)) is None
    assert view.terrain_drawn_at(Hex(5, 2)).dark == 3


def test_posture_from_the_context_menu(view: MapView) -> None:
    controller = view.controller
    c3 = controller.state.combatant("c3")
    menu = view.context_menu_for(c3.hex)
    assert menu is not None
    prone = menu.findChild(QAction, "posture:prone")
    assert prone is not None
    prone.trigger()
    assert controller.state.combatant("c3").posture is Posture.PRONE
    assert controller.battle.commands[-1] == SetPosture("c3", Posture.PRONE)
    # the menu still sets the target
    controller.select("c1")
    menu = view.context_menu_for(c3.hex)
    menu.findChild(QAction, "setTarget").trigger()
    assert controller.target_id == "c3"
    # the new posture is checked in the next menu
    assert menu.findChild(QAction, "posture:prone").isChecked()


def test_the_posture_badge_changes_the_token(view: MapView) -> None:
    from app.map import painter as mp

    c3 = view.controller.state.combatant("c3")
    standing = mp.render_token(c3, 40, 1.0, mp.ROLE_PLAIN).toImage()
    view.controller.execute(SetPosture("c3", Posture.KNEELING))
    kneeling = mp.render_token(view.controller.state.combatant("c3"), 40, 1.0,
                               mp.ROLE_PLAIN).toImage()
    assert standing != kneeling


def test_the_path_this_turn_is_drawn_after_a_move(main_window: MainWindow) -> None:
    controller = main_window.controller
    view = main_window.map_view
    c1 = controller.state.combatant("c1")
    controller.select("c1")
    assert view.path_shown() == ()
    destination = next(
        h for h in c1.hex.neighbors()
        if h in controller.state.grid and controller.state.occupant(h) is None
    )
    controller.move_selected(destination)
    moved = controller.state.combatant("c1")
    assert view.path_shown() == moved.path_this_turn
    assert view.path_shown()[0] == c1.hex and view.path_shown()[-1] == destination
    assert f"Move {moved.move_used}/{moved.fighter.move}" in main_window.move_label.text()


def test_weapon_positions_of_the_selection(view: MapView) -> None:
    controller = view.controller
    assert view.weapon_positions_shown() == {}
    controller.select("c4")
    shown = view.weapon_positions_shown()
    assert shown == weapon_positions(controller.state.combatant("c4"))
    assert set(shown) == {"rapier", "main-gauche"}


def test_a_flying_piece_animates_and_a_key_skips_it(qtbot, view: MapView) -> None:
    view.animations_enabled = True
    landed = disarm(view.controller)
    assert view.animator.running
    assert view.items_drawn() == {}  # still on its way
    view.grab()  # paints the flight
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not view.animator.running
    assert view.items_drawn() == {landed.landing.final: ["Rapier"]}


def test_a_click_skips_the_animation_and_is_not_a_move(qtbot, view: MapView) -> None:
    view.animations_enabled = True
    view.controller.select("c1")
    disarm(view.controller)
    commands = len(view.controller.battle.commands)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, Hex(4, 4)))
    assert not view.animator.running
    assert len(view.controller.battle.commands) == commands


def test_log_hover_highlights_a_whole_flight_path(view: MapView) -> None:
    path = (Hex(4, 4), Hex(4, 5), Hex(4, 6))
    view.controller.highlight(path)
    assert view.highlighted_hexes() == path
    view.grab()
    view.controller.highlight(())
    assert view.highlighted_hexes() == ()


def test_the_hex_pane_tabs_with_the_inspector(main_window: MainWindow) -> None:
    assert main_window.hex_pane.objectName() == "hexPane"
    assert main_window.hex_pane in main_window.tabifiedDockWidgets(main_window.inspector_pane)
    view_menu = main_window.menuBar().actions()[2].menu()
    toggle = next(a for a in view_menu.actions() if a.objectName() == "animations")
    assert not toggle.isChecked()


def test_replayed_battle_shows_the_same_items(qtbot) -> None:
    battle = load_demo_battle(1)
    battle.execute(DISARM)
    controller = BattleController(battle)
    view = MapView(controller)
    qtbot.addWidget(view)
    assert list(view.items_drawn().values()) == [["Rapier"]]


def test_repainted_terrain_is_not_stale(view: MapView) -> None:
    """The cached terrain pixmaps follow a repaint of the terrain."""
    controller = view.controller
    h = Hex(4, 4)
    view._zooming = False  # the cached chunk pixmaps, not the zooming fallback
    before = view.grab().toImage()
    controller.execute(PaintTerrain((h,), TerrainChange(water=WaterDepth.DEEP)))
    wet = view.grab().toImage()
    at = point(view, h)
    assert wet.pixelColor(at) != before.pixelColor(at)
    controller.execute(PaintTerrain((h,), TerrainChange.open_ground()))
    dry = view.grab().toImage()
    assert dry.pixelColor(at) == before.pixelColor(at)
    assert view.terrain_drawn_at(h) is None


def test_seed_000_names_the_terrain_with_its_penalties(
    qtbot, main_window: MainWindow, view: MapView, pane: HexPane
) -> None:
    """The hex pane, the brush and the map's tooltip show what the terrain does
    under the battle's ruleset (000 ADVERSE COMBAT CONDITIONS), through its
    ``terrain_label``: the facts themselves carry no penalty."""
    light = pane.editors["light"]
    assert isinstance(light, QComboBox)
    assert light.itemText(light.findData(Light.DIM_4)) == "Bad light (-4)"
    water = pane.editors["water"]
    assert water.itemText(water.findData(WaterDepth.DEEP)) == "Deep water, swimming (-6)"
    h = Hex(4, 4)
    view.controller.execute(PaintTerrain((h,), TerrainChange(light=Light.TWILIGHT)))
    assert "Terrain: twilight (-1)" in view.describe_hex(h)
    assert view.controller.state.terrain.at(h).describe() == "twilight"
    main_window.map_view.set_terrain_mode(True)
    brush = main_window.brush_value
    assert brush.currentData() is Light.TWILIGHT and brush.currentText() == "Twilight (-1)"
