"""The map view: picking, selecting, moving, turning, targeting, the arc and reach
overlay, zooming and panning, redraws, and the repaint budget."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QWheelEvent
from PySide6.QtWidgets import QApplication

from app.controller import BattleController
from app.map.view import MapView
from hexmap import Arc, Facing, Handedness, Hex, reach_hexes
from rules.battle.commands import MoveCombatant, TurnCombatant
from rules.battle.model import Combatant
from rules.battle.values import hex_name

# Arc of the neighbour k hex sides clockwise of the facing, for a right-handed
# fighter (shield on the left); written out here, not taken from the code under test.
RIGHT_HANDED_RING = {
    0: Arc.FRONT,
    1: Arc.WEAPON_FRONT,
    2: Arc.WEAPON_SIDE,
    3: Arc.REAR,
    4: Arc.SHIELD_SIDE,
    5: Arc.SHIELD_FRONT,
}
MIRROR = {
    Arc.FRONT: Arc.FRONT,
    Arc.WEAPON_FRONT: Arc.SHIELD_FRONT,
    Arc.SHIELD_FRONT: Arc.WEAPON_FRONT,
    Arc.WEAPON_SIDE: Arc.SHIELD_SIDE,
    Arc.SHIELD_SIDE: Arc.WEAPON_SIDE,
    Arc.REAR: Arc.REAR,
}


@pytest.fixture
def view(qtbot, controller: BattleController) -> MapView:
    widget = MapView(controller)
    qtbot.addWidget(widget)
    widget.resize(1000, 720)
    widget.show()
    qtbot.waitExposed(widget)
    widget.activateWindow()
    widget.setFocus()
    return widget


def point(view: MapView, h: Hex) -> QPoint:
    return view.hex_center(h).toPoint()


def free_neighbour(controller: BattleController, c: Combatant) -> Hex:
    state = controller.state
    for h in c.hex.neighbors():
        if h in state.grid and state.occupant(h) is None:
            return h
    raise AssertionError("no free hex next to the combatant")


def by_side_and_hand(controller: BattleController, hand: Handedness) -> Combatant:
    return next(c for c in controller.state.combatants if c.fighter.handedness is hand)


# --- opening and picking ------------------------------------------------------------
def test_view_opens_and_paints(view: MapView) -> None:
    image = view.grab().toImage()
    assert image.width() == 1000 and image.height() == 720
    # the map is drawn: the pixel under a hex centre is parchment, not the table
    c = view.controller.state.combatants[0]
    empty = next(h for h in c.hex.neighbors() if view.controller.state.occupant(h) is None)
    colour = image.pixelColor(point(view, empty))
    assert colour.red() > 180 and colour.green() > 160


def test_every_combatant_is_in_view_at_start(view: MapView) -> None:
    rect = QRectF(view.rect())
    for c in view.controller.state.combatants:
        assert rect.contains(view.hex_center(c.hex))


@pytest.mark.parametrize("zoom", [0.4, 1.0, 2.3])
def test_pixel_picking_round_trips(view: MapView, zoom: float) -> None:
    view.set_zoom(zoom)
    grid = view.controller.state.grid
    rect = QRectF(view.rect())
    checked = 0
    for h in grid.hexes():
        centre = view.hex_center(h)
        if not rect.contains(centre):
            continue
        assert view.hex_at(centre) == h
        # well inside the hex, towards each corner, is still the same hex
        size = 32.0 * zoom
        for dx, dy in ((0.7, 0.0), (-0.7, 0.0), (0.3, 0.6), (-0.3, -0.6)):
            assert view.hex_at(QPointF(centre.x() + dx * size, centre.y() + dy * size)) == h
        checked += 1
    assert checked > 20


def test_off_the_map_picks_nothing(view: MapView) -> None:
    view.fit_to_window()
    bounds = view.map_rect_on_screen()
    assert view.hex_at(QPointF(bounds.left() - 5, bounds.top() - 5)) is None


# --- selecting, targeting, moving, turning -----------------------------------------
def test_click_selects_and_overlay_shows_the_arcs(qtbot, view: MapView) -> None:
    controller = view.controller
    c = by_side_and_hand(controller, Handedness.RIGHT)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, c.hex))
    assert controller.selected_id == c.id
    grid = controller.state.grid
    checked = 0
    for k, arc in RIGHT_HANDED_RING.items():
        for distance in (1, 2, 3):
            h = c.hex + c.facing.turned(k).vector.scale(distance)
            if h in grid:
                assert view.overlay_arc_at(h) is arc, (k, distance)
                checked += 1
    assert checked >= 9
    assert view.overlay_arc_at(c.hex) is None  # its own hex is not tinted
    far = c.hex + c.facing.vector.scale(9)
    assert view.overlay_arc_at(far) is None  # beyond the tinted radius


def test_left_handed_overlay_is_mirrored(qtbot, view: MapView) -> None:
    controller = view.controller
    c = by_side_and_hand(controller, Handedness.LEFT)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, c.hex))
    assert controller.selected_id == c.id
    for k, arc in RIGHT_HANDED_RING.items():
        h = c.hex + c.facing.turned(k).vector
        if h in controller.state.grid:
            assert view.overlay_arc_at(h) is MIRROR[arc]


def test_reach_shown_is_each_weapons_front_reach(qtbot, view: MapView) -> None:
    controller = view.controller
    c = controller.state.combatants[0]
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, c.hex))
    expected = frozenset().union(
        *(reach_hexes(c.hex, c.facing, w.reach) for w in c.fighter.weapons)
    )
    expected = frozenset(h for h in expected if h in controller.state.grid)
    assert view.reach_hexes_shown() == expected
    assert c.hex + c.facing.vector in view.reach_hexes_shown()
    assert set(view.reach_shown_by_weapon()) == {w.key for w in c.fighter.weapons}


def test_no_overlay_without_selection(view: MapView) -> None:
    c = view.controller.state.combatants[0]
    assert view.overlay_arc_at(c.hex + c.facing.vector) is None
    assert view.reach_hexes_shown() == frozenset()
    assert view.legend_rect().isEmpty()


def test_clicking_an_empty_hex_moves_the_selection(qtbot, view: MapView) -> None:
    controller = view.controller
    c = controller.state.combatants[0]
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, c.hex))
    destination = free_neighbour(controller, c)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, destination))
    assert controller.state.combatant(c.id).hex == destination
    assert controller.battle.commands[-1] == MoveCombatant(c.id, destination)
    # the overlay followed the move
    moved = controller.state.combatant(c.id)
    assert view.overlay_arc_at(moved.hex + moved.facing.vector) is Arc.FRONT


def test_clicking_an_empty_hex_without_selection_does_nothing(qtbot, view: MapView) -> None:
    controller = view.controller
    c = controller.state.combatants[0]
    destination = free_neighbour(controller, c)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, destination))
    assert controller.battle.commands == ()
    assert controller.selected_id is None


def test_dragging_a_token_moves_it(qtbot, view: MapView) -> None:
    controller = view.controller
    c = controller.state.combatants[1]
    destination = free_neighbour(controller, c)
    start, end = point(view, c.hex), point(view, destination)
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=start)
    middle = QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2)
    for p in (middle, end):
        qtbot.mouseMove(view, p)
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=end)
    assert controller.state.combatant(c.id).hex == destination
    assert controller.selected_id == c.id


def test_dragging_empty_map_pans_instead_of_moving(qtbot, view: MapView) -> None:
    controller = view.controller
    c = controller.state.combatants[0]
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, c.hex))
    empty = free_neighbour(controller, c)
    before = view.hex_center(c.hex)
    start = point(view, empty)
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(view, start + QPoint(12 * step, 7 * step))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=start + QPoint(60, 35))
    after = view.hex_center(c.hex)
    assert (after - before).manhattanLength() > 50
    assert controller.battle.commands == ()  # nothing moved on the map


def test_right_click_sets_the_target(qtbot, view: MapView) -> None:
    controller = view.controller
    a, b = controller.state.combatants[0], controller.state.combatants[2]
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, a.hex))
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=point(view, b.hex))
    assert controller.target_id == b.id
    assert controller.selected_id == a.id
    empty = free_neighbour(controller, b)
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=point(view, empty))
    assert controller.target_id is None


@pytest.mark.parametrize(
    ("key", "steps"),
    [(Qt.Key.Key_E, 1), (Qt.Key.Key_Q, -1), (Qt.Key.Key_BracketRight, 1),
     (Qt.Key.Key_BracketLeft, -1)],
)
def test_keys_turn_the_selection(qtbot, view: MapView, key: Qt.Key, steps: int) -> None:
    controller = view.controller
    c = controller.state.combatants[0]
    controller.select(c.id)
    qtbot.keyClick(view, key)
    expected = c.facing.turned(steps)
    assert controller.battle.commands[-1] == TurnCombatant(c.id, expected)
    assert controller.state.combatant(c.id).facing is expected
    # the arcs turned with it
    assert view.overlay_arc_at(c.hex + expected.vector) is Arc.FRONT


def test_turning_without_selection_does_nothing(qtbot, view: MapView) -> None:
    qtbot.keyClick(view, Qt.Key.Key_E)
    assert view.controller.battle.commands == ()


def test_tab_cycles_the_selection(qtbot, view: MapView) -> None:
    controller = view.controller
    ids = [c.id for c in controller.state.combatants]
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert controller.selected_id == ids[0]
    qtbot.keyClick(view, Qt.Key.Key_Tab)
    assert controller.selected_id == ids[1]
    qtbot.keyClick(view, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert controller.selected_id == ids[0]
    assert view.hasFocus()  # Tab did not move the focus away
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert controller.selected_id is None


def test_escape_clears_selection_and_target(qtbot, view: MapView) -> None:
    controller = view.controller
    controller.select(controller.state.combatants[0].id)
    controller.set_target(controller.state.combatants[2].id)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert controller.selected_id is None and controller.target_id is None


# --- zoom, pan, fit -------------------------------------------------------------------
def visible_fraction(view: MapView) -> float:
    shown = view.map_rect_on_screen().intersected(QRectF(view.rect()))
    return 0.0 if shown.isEmpty() else shown.width() * shown.height()


def test_zoom_and_fit_keep_the_map_visible(qtbot, view: MapView) -> None:
    for _ in range(12):
        view.zoom_in()
    assert view.zoom <= 5.0
    assert visible_fraction(view) > 0
    for _ in range(30):
        view.zoom_out()
    assert view.zoom >= 0.12
    assert visible_fraction(view) > 0
    view.pan_by(-100_000, -100_000)
    assert visible_fraction(view) > 0
    view.pan_by(200_000, 200_000)
    assert visible_fraction(view) > 0
    view.fit_to_window()
    assert QRectF(view.rect()).adjusted(-1, -1, 1, 1).contains(view.map_rect_on_screen())


def test_keys_zoom_fit_and_pan(qtbot, view: MapView) -> None:
    zoom = view.zoom
    qtbot.keyClick(view, Qt.Key.Key_Plus)
    assert view.zoom > zoom
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    assert view.zoom == pytest.approx(zoom)
    qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom > zoom
    qtbot.keyClick(view, Qt.Key.Key_F)
    assert QRectF(view.rect()).adjusted(-1, -1, 1, 1).contains(view.map_rect_on_screen())
    before = view.map_rect_on_screen()
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.map_rect_on_screen().left() > before.left()
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert view.map_rect_on_screen().top() > before.top()


def wheel(view: MapView, pos: QPointF, angle: QPoint, pixel: QPoint | None = None,
          modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    pixel = QPoint() if pixel is None else pixel
    event = QWheelEvent(
        pos, view.mapToGlobal(pos), pixel, angle, Qt.MouseButton.NoButton, modifiers,
        Qt.ScrollPhase.NoScrollPhase, False,
    )
    QApplication.sendEvent(view, event)


def test_wheel_zooms_around_the_pointer(view: MapView) -> None:
    c = view.controller.state.combatants[0]
    anchor = view.hex_center(c.hex)
    zoom = view.zoom
    wheel(view, anchor, QPoint(0, 120))
    assert view.zoom > zoom
    assert view.hex_at(anchor) == c.hex
    after = view.hex_center(c.hex)
    assert abs(after.x() - anchor.x()) < 1 and abs(after.y() - anchor.y()) < 1
    wheel(view, anchor, QPoint(0, -240))
    assert view.zoom < zoom


def test_trackpad_scroll_pans_and_ctrl_scroll_zooms(view: MapView) -> None:
    zoom = view.zoom
    before = view.map_rect_on_screen()
    wheel(view, QPointF(300, 300), QPoint(0, 40), pixel=QPoint(15, 25))
    after = view.map_rect_on_screen()
    assert view.zoom == zoom
    assert after.left() - before.left() == pytest.approx(15)
    assert after.top() - before.top() == pytest.approx(25)
    wheel(view, QPointF(300, 300), QPoint(0, 120), pixel=QPoint(0, 30),
          modifiers=Qt.KeyboardModifier.ControlModifier)
    assert view.zoom > zoom


# --- hover, highlight, tooltip --------------------------------------------------------
def test_highlight_requests_are_shown(view: MapView) -> None:
    c = view.controller.state.combatants[0]
    hexes = (c.hex, c.hex + Facing.N.vector)
    view.controller.highlight(hexes)
    assert view.highlighted_hexes() == hexes
    view.controller.highlight(())
    assert view.highlighted_hexes() == ()


def test_hover_reports_the_hex(qtbot, view: MapView) -> None:
    c = view.controller.state.combatants[0]
    with qtbot.waitSignal(view.hovered_hex_changed) as blocker:
        qtbot.mouseMove(view, point(view, c.hex))
    assert blocker.args == [c.hex]
    assert view.hovered_hex == c.hex


def test_tooltip_names_coords_occupant_and_arc(view: MapView) -> None:
    controller = view.controller
    a = controller.state.combatants[0]
    b = controller.state.combatants[2]
    text = view.describe_hex(b.hex)
    assert hex_name(b.hex).capitalize() in text
    assert b.name in text
    controller.select(a.id)
    text = view.describe_hex(a.hex + a.facing.vector)
    assert f"Front of {a.name}" in text
    behind = a.hex + a.facing.opposite().vector
    assert f"Rear of {a.name}" in view.describe_hex(behind)


# --- redraws ----------------------------------------------------------------------------
def test_a_move_repaints_only_the_tokens_rects(qtbot, view: MapView, monkeypatch) -> None:
    controller = view.controller
    c = controller.state.combatants[3]
    destination = free_neighbour(controller, c)
    rects: list[object] = []
    full: list[bool] = []
    original = view.update

    def spy(*args: object) -> None:
        if args:
            rects.append(args[0])
        else:
            full.append(True)
        original(*args)

    monkeypatch.setattr(view, "update", spy)
    controller.execute(MoveCombatant(c.id, destination))
    assert not full  # nothing selected: no need to redraw the whole view
    assert len(rects) == 2  # the old and the new place
    for rect, h in zip(rects, (c.hex, destination), strict=True):
        assert rect.contains(view.hex_center(h).toPoint())  # type: ignore[attr-defined]


# --- big maps: fit, lazy grid, zoom floor ----------------------------------------------
def _big_view(qtbot, size: int) -> MapView:
    from app.benchmark import big_battle

    widget = MapView(BattleController(big_battle(seed=1, size=size)))
    qtbot.addWidget(widget)
    widget.resize(1600, 1000)
    return widget


@pytest.mark.parametrize("size", [100, 200, 400])
def test_fit_shows_the_whole_map_at_every_size(qtbot, size: int) -> None:
    big = _big_view(qtbot, size)
    big.fit_to_window()
    shown = big.map_rect_on_screen()
    assert QRectF(big.rect()).contains(shown), (size, big.zoom, shown)
    # it fills the view in one direction (inside the margins), so it is not just tiny
    assert max(shown.width() / big.width(), shown.height() / big.height()) > 0.9
    for corner in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)):
        h = Hex.from_offset(*corner)
        assert big.hex_at(big.hex_center(h)) == h
    # zooming out further stops at the whole map, never below it
    big.set_zoom(big.zoom / 4)
    assert QRectF(big.rect()).contains(big.map_rect_on_screen())
    assert big.zoom == pytest.approx(big.min_zoom())


def test_a_big_map_builds_its_grid_only_where_it_is_drawn(qtbot) -> None:
    import app.map.painter as mp

    big = _big_view(qtbot, 400)
    grid_cache = big._grid_cache
    assert not grid_cache._chunks  # nothing built when the view is made
    big.set_zoom(1.0)
    big.center_on(Hex.from_offset(200, 200))
    visible = big.transform().inverted()[0].mapRect(QRectF(big.rect()))
    drawn = grid_cache.visible_chunks(visible)
    assert drawn and len(grid_cache._chunks) < (400 // mp.CHUNK) ** 2 // 20
    # every chunk whose lines cross the view is among them (against a full build)
    full = mp.GridCache(big.controller.state.grid)
    crossing = [c.bounds for c in full.chunks if c.bounds.intersects(visible)]
    assert sorted((b.x(), b.y()) for b in crossing) == sorted(
        (c.bounds.x(), c.bounds.y()) for c in drawn
    )


# --- the cached grid ----------------------------------------------------------------------
@pytest.mark.parametrize(("width", "height"), [(1, 1), (2, 3), (5, 4), (24, 16)])
def test_grid_lines_are_every_hex_edge_once(width: int, height: int) -> None:
    from app.map import painter as mp
    from hexmap import HexGrid

    grid = HexGrid(width, height)

    def key(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[int, int], ...]:
        a, b = (round(x0 * 8), round(y0 * 8)), (round(x1 * 8), round(y1 * 8))
        return (min(a, b), max(a, b))

    expected = set()
    for h in grid.hexes():
        corners = mp.LAYOUT.corners(h)
        for i in range(6):
            (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 6]
            expected.add(key(x0, y0, x1, y1))
    cache = mp.GridCache(grid)
    drawn = [key(ln.x1(), ln.y1(), ln.x2(), ln.y2()) for ch in cache.chunks for ln in ch.lines]
    assert len(drawn) == len(set(drawn))  # no edge stroked twice
    assert set(drawn) == expected
    x0, y0, x1, y1 = grid.pixel_bounds(mp.LAYOUT)
    assert cache.bounds == QRectF(QPointF(x0, y0), QPointF(x1, y1))
    assert cache.outline.boundingRect() == mp.outline_path(grid.hexes()).boundingRect()


def test_a_click_on_the_legend_moves_nobody(qtbot, view: MapView) -> None:
    controller = view.controller
    c = controller.state.combatants[0]
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point(view, c.hex))
    view.set_zoom(2.0)
    view.center_on(c.hex)
    view.grab()  # paints the legend
    legend = view.legend_rect()
    assert not legend.isEmpty()
    assert view.hex_at(legend.center()) is not None  # there is map under it
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=legend.center().toPoint())
    assert controller.battle.commands == ()


# --- throwing and shooting ranges (000 MISSILE AND THROWN WEAPONS) ----------------------
def _with_weapon(c: Combatant, key: str) -> Combatant:
    """``c`` with the catalog weapon ``key`` alone in its hands (sword and shield
    put down: rules.battle.hands)."""
    from dataclasses import replace

    from rules.battle.catalog import load_catalog

    weapon = load_catalog().weapon(key)
    return replace(c, fighter=replace(c.fighter, weapons=(weapon,), shield=None))


def _knife_drawn(controller: BattleController) -> Combatant:
    """The demo's spearman, his long spear dropped and the knife at his belt drawn
    (rules.battle.hands: the spear took both hands)."""
    from rules.battle.commands import DropItem, ReadyWeapon

    controller.execute(DropItem("c2", "long-spear"))
    controller.execute(ReadyWeapon("c2", "knife"))
    return controller.state.combatant("c2")


def test_a_throwing_range_is_where_the_rules_allow_the_throw(controller: BattleController) -> None:
    import app.map.painter as mp
    from rules.sets.seed000.missiles import range_problem

    state = controller.state
    spearman = state.combatant("c2")
    assert mp.range_areas(spearman, state.grid) == []  # the knife is at his belt
    spearman = _knife_drawn(controller)
    state = controller.state
    areas = mp.range_areas(spearman, state.grid)
    assert areas, "the demo's spearman carries a knife to throw"
    for area in areas:
        weapon = next(w for w in spearman.fighter.weapons if w.key == area.key)
        mode = next(m for m in weapon.modes if m.name == area.mode)
        assert mode.is_ranged and area.range_hexes == mode.range_hexes
        near = [h for h in state.grid.hexes() if h.distance(spearman.hex) <= mode.range_hexes + 2]
        allowed = {h for h in near if range_problem(spearman, h, mode) is None}
        assert area.hexes == allowed
        assert spearman.hex not in area.hexes


def test_only_ranged_weapons_get_a_range_and_a_bow_shows_its_half_damage_range(
    controller: BattleController,
) -> None:
    import app.map.painter as mp

    state = controller.state
    swordsman = state.combatants[0]
    assert not any(m.is_ranged for w in swordsman.fighter.weapons for m in w.modes)
    assert mp.range_areas(swordsman, state.grid) == []
    archer = _with_weapon(swordsman, "shortbow")
    (area,) = mp.range_areas(archer, state.grid)
    assert (area.name, area.mode, area.range_hexes, area.half_damage_hexes) == (
        "Short bow", "shoot", 20, 10)  # fmt: skip
    assert area.text == "Short bow, shoot 1/2D 10, max 20"
    assert area.index == 0
    # cut at the map's edge
    assert area.hexes and all(h in state.grid for h in area.hexes)


def test_the_legend_and_the_tooltip_name_the_range(qtbot, view: MapView) -> None:
    controller = view.controller
    spearman = _knife_drawn(controller)
    state = controller.state
    controller.select(spearman.id)
    overlay = view._overlay
    assert overlay is not None and overlay.ranges
    area = overlay.ranges[0]
    beyond_reach = next(h for h in area.hexes if h not in view.reach_hexes_shown())
    text = view.describe_hex(beyond_reach)
    assert f"In range of: {area.name} ({area.mode})" in text
    assert "In reach of" not in text
    outside = next(
        h for h in state.grid.hexes() if h.distance(spearman.hex) == 2 and h not in area.hexes
    )
    assert "In range of" not in view.describe_hex(outside)

    import app.map.painter as mp

    rows = [(0, "Knife (C-1)", False)]
    without = mp.render_legend("Arcs", rows, 1.0)
    with_range = mp.render_legend("Arcs", rows, 1.0, ranges=[(1, area.text, False)])
    assert with_range.height() > without.height()
    assert view.legend_rect().height() == view._legend_pixmap(overlay).height()


# --- the cached map edge and the benchmark's measurements ------------------------------
def _render(widget: MapView) -> QImage:
    image = QImage(widget.width(), widget.height(), QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(image)
    widget.paint(painter, QRectF(widget.rect()))
    painter.end()
    return image


def test_the_cached_map_edge_looks_like_the_stroked_one(qtbot, monkeypatch) -> None:
    import app.map.painter as mp
    from app.benchmark import big_battle

    small = MapView(BattleController(big_battle(seed=1, size=30)))
    qtbot.addWidget(small)
    small.resize(400, 300)
    small.fit_to_window()
    small.settle_zoom()
    small.pan_by(0.37, 0.61)  # a sub-pixel offset
    cached = _render(small)
    monkeypatch.setattr(mp.EdgePixmap, "MAX_PIXELS", 0)  # always stroke the path
    stroked = _render(small)
    worst = 0
    for y in range(0, small.height()):
        for x in range(0, small.width()):
            a, b = cached.pixelColor(x, y), stroked.pixelColor(x, y)
            worst = max(worst, abs(a.red() - b.red()), abs(a.green() - b.green()),
                        abs(a.blue() - b.blue()))  # fmt: skip
    assert worst <= 8


def test_the_benchmark_measures_dense_and_fitted_repaints(qtbot) -> None:
    from app.map import measure

    big = _big_view(qtbot, 60)
    dense = measure.repaint_dense_ms(big, frames=4)
    assert len(dense) == 4 and all(ms > 0 for ms in dense)
    assert big.zoom == pytest.approx(measure.DENSE_ZOOM)
    assert big.zoom * 32 > 5.0  # the grid is still drawn there
    fitted = measure.repaint_fit_ms(big, frames=3)
    assert len(fitted) == 3
    assert QRectF(big.rect()).contains(big.map_rect_on_screen())
