"""The hex map: a custom QPainter widget (no QGraphicsView, for speed).

It shows the battle the ``BattleController`` holds and changes it only through the
controller: a click selects, a click on an empty hex (or a drag) moves, a right-click
sets the attack target, Q/E and [/] turn. Redraws follow the controller's ``Redraw``
plan: a moved or hurt token repaints only its rects; the selection overlay (arcs,
reach) is rebuilt only when the plan or the selection asks for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QContextMenuEvent,
    QHelpEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QNativeGestureEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QPolygonF,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication, QMenu, QSizePolicy, QToolTip, QWidget

from app import icons, theme
from app.controller import BattleController, Redraw
from app.help import key_sequences
from app.help import shortcut as help_shortcut
from app.map import painter as mp
from app.map.animation import Flight, FlightAnimator, animations_wanted, point_along
from hexmap import Arc, Hex, arc_of, weapon_hexes
from rules.battle.battle import BattleChange, Command, MoveCombatant
from rules.battle.model import Combatant, Status

if TYPE_CHECKING:
    from app.map.drops import CatalogItem as CatalogItem
    from app.map.drops import DropPick as DropPick
    from app.map.drops import catalog_item_choices as catalog_item_choices
    from app.map.drops import droppable_items as droppable_items
    from app.map.drops import make_drop_pick as make_drop_pick
    from rules.battle.items import ItemKind

MIN_ZOOM = 0.12
MAX_ZOOM = 5.0
ZOOM_STEP = 1.25
PAN_STEP = 80.0  # screen pixels per arrow key press
MARGIN = 24.0  # around the map when fitting
FRAME_MAX_ZOOM = 1.6  # framing the battle zooms no closer than this
FIT_NONE, FIT_MAP, FIT_BATTLE = 0, 1, 2


class MapView(QWidget):
    """The battle map. Inspect it with ``hex_at``, ``hex_center``,
    ``overlay_arc_at`` and ``reach_hexes_shown``."""

    hovered_hex_changed = Signal(object)  # Hex | None
    view_changed = Signal()  # zoom or pan
    hex_clicked = Signal(object)  # Hex: a left click on the map (the hex pane follows it)
    terrain_mode_changed = Signal(bool)
    # The "where does it fall?" pick of a deliberate drop: a prompt for the status
    # bar while it lasts, "" when it ends.
    drop_prompt_changed = Signal(str)

    def __init__(self, controller: BattleController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mapView")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setAttribute(Qt.WidgetAttribute.WA_AcceptTouchEvents, False)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(200, 150)

        self._controller = controller
        self._zoom = 1.0
        self._offset = QPointF(MARGIN, MARGIN)
        # Refit on resize until the user zooms or pans: the battle at first, the
        # whole map after "Fit".
        self._auto_fit = FIT_BATTLE
        # While the zoom changes, tokens are scaled pixmaps; crisp ones follow shortly.
        self._zooming = False
        self._settle_timer = QTimer(self)
        self._settle_timer.setSingleShot(True)
        self._settle_timer.setInterval(140)
        self._settle_timer.timeout.connect(self._zoom_settled)

        self._grid_cache = mp.GridCache(controller.state.grid)
        self._tokens = mp.TokenCache()
        self._texts = mp.TextCache()
        self._overlay: mp.Overlay | None = None
        self._legend: QPixmap | None = None
        self._highlight: tuple[Hex, ...] = ()
        self._highlight_path = QPainterPath()
        self._highlight_line = QPolygonF()
        self._hover: Hex | None = None
        self._terrain = mp.TerrainCache()
        self._terrain.update(controller.state)
        self._terrain_pixmaps = mp.TerrainPixmaps()
        # terrain painting: the brush (a TerrainChange) and the hexes of this stroke
        self._brush: object | None = None
        self._stroke: list[Hex] = []
        # flying and falling pieces
        self.animations_enabled = animations_wanted()
        self._animator = FlightAnimator(self)
        self._animator.frame.connect(self.update)
        # a deliberate drop waiting for its hex (DropItem)
        self._drop: DropPick | None = None

        # mouse state
        self._press_pos: QPointF | None = None
        self._press_button = Qt.MouseButton.NoButton
        self._press_token: str | None = None
        self._dragging_token = False
        self._panning = False
        self._last_pos = QPointF()
        self._drag_pos = QPointF()

        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self._on_battle_reset)
        controller.selection_changed.connect(self._on_selection_changed)
        controller.target_changed.connect(self._on_target_changed)
        controller.highlight_requested.connect(self._on_highlight)
        controller.drop_requested.connect(self.begin_drop)

        self._make_actions()
        self._rebuild_overlay()

    # --- actions (the main window puts them in menus and the toolbar) ------------------
    def _action(
        self,
        name: str,
        text: str,
        slot: Callable[[], object],
        context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut,
    ) -> QAction:
        """An action bound to the keys ``app.help.SHORTCUTS`` lists under ``name``."""
        entry = help_shortcut(name)
        action = QAction(text, self)
        action.setObjectName(name)
        keys = key_sequences(name)
        action.setShortcuts(keys)
        action.setShortcutContext(context)
        first = keys[0].toString(QKeySequence.SequenceFormat.NativeText) if keys else ""
        action.setToolTip(f"{entry.description} ({first})" if first else entry.description)
        action.setStatusTip(entry.description)
        action.triggered.connect(slot)
        self.addAction(action)
        return action

    def _make_actions(self) -> None:
        # Keys that other widgets need (Tab, Esc, arrows) act only while the map has
        # the focus; the map's own letters and zoom keys work anywhere in the window.
        widget = Qt.ShortcutContext.WidgetShortcut
        self.zoom_in_action = self._action("zoom_in", "Zoom &In", self.zoom_in)
        self.zoom_out_action = self._action("zoom_out", "Zoom &Out", self.zoom_out)
        self.fit_action = self._action("fit_map", "&Fit Map to Window", self.fit_to_window)
        self.turn_left_action = self._action("turn_left", "Turn &Left", lambda: self._turn(-1))
        self.turn_right_action = self._action("turn_right", "Turn &Right", lambda: self._turn(1))
        self.next_action = self._action(
            "next_combatant", "Select &Next Combatant", lambda: self.cycle_selection(1), widget
        )
        self.previous_action = self._action(
            "previous_combatant", "Select &Previous Combatant",
            lambda: self.cycle_selection(-1), widget,
        )
        self.clear_selection_action = self._action(
            "clear_selection", "&Clear Selection", self._clear_selection, widget
        )
        self.paint_terrain_action = self._action(
            "paint_terrain", "Paint &Terrain", self._terrain_mode_toggled
        )
        self.paint_terrain_action.setCheckable(True)
        self.pan_actions = [
            self._action("pan_left", "Pan &Left", lambda: self.pan_by(PAN_STEP, 0), widget),
            self._action("pan_right", "Pan &Right", lambda: self.pan_by(-PAN_STEP, 0), widget),
            self._action("pan_up", "Pan &Up", lambda: self.pan_by(0, PAN_STEP), widget),
            self._action("pan_down", "Pan &Down", lambda: self.pan_by(0, -PAN_STEP), widget),
        ]

    # --- public view API ------------------------------------------------------------------
    @property
    def controller(self) -> BattleController:
        return self._controller

    @property
    def zoom(self) -> float:
        return self._zoom

    def transform(self) -> QTransform:
        """Map coordinates -> widget pixels."""
        return QTransform(self._zoom, 0, 0, self._zoom, self._offset.x(), self._offset.y())

    def to_map(self, pos: QPointF) -> QPointF:
        return QPointF(
            (pos.x() - self._offset.x()) / self._zoom, (pos.y() - self._offset.y()) / self._zoom
        )

    def to_screen(self, point: QPointF) -> QPointF:
        return QPointF(
            point.x() * self._zoom + self._offset.x(), point.y() * self._zoom + self._offset.y()
        )

    def hex_at(self, pos: QPointF | QPoint) -> Hex | None:
        """The map hex under a widget position, None off the map."""
        m = self.to_map(QPointF(pos))
        h = mp.LAYOUT.pixel_to_hex(m.x(), m.y())
        return h if h in self._controller.state.grid else None

    def hex_center(self, h: Hex) -> QPointF:
        """Widget position of a hex centre."""
        return self.to_screen(mp.center(h))

    def map_rect_on_screen(self) -> QRectF:
        """The whole map's bounding box in widget pixels."""
        return self.transform().mapRect(self._grid_cache.bounds)

    def overlay_arc_at(self, h: Hex) -> Arc | None:
        """The arc the overlay paints on ``h`` (None outside it or with no selection)."""
        return self._overlay.arc_at(h) if self._overlay is not None else None

    def reach_hexes_shown(self) -> frozenset[Hex]:
        """Every hex outlined as some weapon's reach."""
        return self._overlay.reach_hexes() if self._overlay is not None else frozenset()

    def reach_shown_by_weapon(self) -> dict[str, frozenset[Hex]]:
        if self._overlay is None:
            return {}
        return {area.key: area.hexes for area in self._overlay.reach}

    def highlighted_hexes(self) -> tuple[Hex, ...]:
        return self._highlight

    # --- the battlefield: items, terrain, paths, weapons -----------------------------
    def items_by_hex(self) -> dict[Hex, list[object]]:
        """Ground items lying still in each hex (pieces still in flight are left out)."""
        out: dict[Hex, list[object]] = {}
        for item in getattr(self._controller.state, "items", ()):
            if self._animator.running and self._animator.in_flight(item.id):
                continue
            out.setdefault(item.hex, []).append(item)
        return out

    def items_drawn(self) -> dict[Hex, list[str]]:
        """Names of the items the map draws in each hex (tests and tooltips)."""
        return {h: [item.name for item in items] for h, items in self.items_by_hex().items()}

    def terrain_drawn_at(self, h: Hex) -> mp.TerrainLook | None:
        """What the map shows of ``h``'s terrain (None: open ground)."""
        self._terrain.update(self._controller.state)
        return self._terrain.looks.get(h)

    def path_shown(self) -> tuple[Hex, ...]:
        """The selected combatant's path this turn as drawn (empty if none)."""
        sid = self._controller.selected_id
        if sid is None:
            return ()
        path = tuple(getattr(self._controller.state.combatant(sid), "path_this_turn", ()))
        return path if len(path) > 1 else ()

    def weapon_positions_shown(self) -> dict[str, tuple[Hex, ...]]:
        """Where each of the selected combatant's weapons is (000/001 striking at
        weapons), by weapon key."""
        sid = self._controller.selected_id
        if sid is None:
            return {}
        return weapon_positions_of(self._controller.state.combatant(sid))

    @property
    def animator(self) -> FlightAnimator:
        return self._animator

    def skip_animation(self) -> bool:
        return self._animator.skip()

    # --- deliberate drops: the GM picks the hex ----------------------------------------
    @property
    def drop_pick(self) -> DropPick | None:
        """The drop waiting for its hex (None when no drop is being placed)."""
        return self._drop

    def drop_hexes_shown(self) -> tuple[Hex, ...]:
        """The hexes highlighted as legal for the pending drop (own hex first)."""
        return self._drop.candidates if self._drop is not None else ()

    def begin_drop(self, combatant_id: str, key: str) -> bool:
        """Highlight where ``combatant_id`` may drop ``key`` (``rules.battle.items.
        drop_candidates``: the hexes passed through this turn and those next to
        them) and wait for a click on one; Enter drops into the own hex, Esc cancels."""
        if self.terrain_mode:
            self.set_terrain_mode(False)
        from app.map.drops import make_drop_pick

        pick = make_drop_pick(self._controller.state, combatant_id, key)
        if pick is None:
            return False
        self._drop = pick
        self.setFocus()
        self.drop_prompt_changed.emit(
            f"Drop {pick.item_name}: click a highlighted hex (Enter: {pick.who}'s own hex, "
            "Esc: cancel)"
        )
        self.update()
        return True

    def cancel_drop(self) -> None:
        if self._drop is not None:
            self._drop = None
            self.drop_prompt_changed.emit("")
            self.update()

    def drop_at(self, h: Hex | None) -> bool:
        """Execute the pending ``DropItem`` into ``h`` (a highlighted hex; None: the
        own hex). False, and the pick goes on, for any other hex."""
        pick = self._drop
        if pick is None:
            return False
        where = pick.candidates[0] if h is None else h
        if where not in pick.candidates:
            return False
        self.cancel_drop()
        from rules.battle.battle import DropItem  # loaded on first use (start-up)

        self._controller.execute(DropItem(pick.combatant_id, pick.key, to_hex=where))
        return True

    def _refresh_drop(self) -> None:
        """After a change: the pending drop follows its combatant, or ends when the
        item is no longer in hand."""
        pick = self._drop
        if pick is None:
            return
        from app.map.drops import make_drop_pick

        fresh = make_drop_pick(self._controller.state, pick.combatant_id, pick.key)
        if fresh is None:
            self.cancel_drop()
        else:
            self._drop = fresh

    # --- terrain painting ---------------------------------------------------------------
    @property
    def terrain_mode(self) -> bool:
        return self.paint_terrain_action.isChecked()

    def set_terrain_mode(self, on: bool) -> None:
        if on != self.paint_terrain_action.isChecked():
            self.paint_terrain_action.setChecked(on)
            self._terrain_mode_toggled()

    def _terrain_mode_toggled(self) -> None:
        on = self.paint_terrain_action.isChecked()
        self._stroke = []
        if on:
            self.setCursor(Qt.CursorShape.CrossCursor)
        else:
            self.unsetCursor()
        self.terrain_mode_changed.emit(on)
        self.update()

    @property
    def terrain_brush(self) -> object | None:
        return self._brush

    def set_terrain_brush(self, change: object | None) -> None:
        """What a stroke paints: a ``rules.battle.terrain.TerrainChange``."""
        self._brush = change

    def stroke_hexes(self) -> tuple[Hex, ...]:
        return tuple(self._stroke)

    def _stroke_add(self, h: Hex | None) -> None:
        if h is not None and h not in self._stroke:
            self._stroke.append(h)
            self._update_hex(h)

    def _finish_stroke(self) -> None:
        hexes, self._stroke = tuple(self._stroke), []
        if not hexes:
            return
        command = paint_command(hexes, self._brush)
        if command is not None:
            self._controller.execute(command)
        self.update()

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom keeping the map point under ``anchor`` (default: view centre) still."""
        zoom = max(self.min_zoom(), min(MAX_ZOOM, zoom))
        if anchor is None:
            anchor = QPointF(self.width() / 2, self.height() / 2)
        fixed = self.to_map(anchor)
        self._zoom = zoom
        self._offset = QPointF(anchor.x() - fixed.x() * zoom, anchor.y() - fixed.y() * zoom)
        self._zooming = True
        self._settle_timer.start()
        self._keep_map_visible()
        self._auto_fit = FIT_NONE
        self.view_changed.emit()
        self.update()

    def _zoom_settled(self) -> None:
        self._zooming = False
        self.update()

    def settle_zoom(self) -> None:
        """End the zoom gesture now, as the settle timer does a moment after the last
        step: tokens and terrain are drawn crisp at the new zoom."""
        self._settle_timer.stop()
        self._zoom_settled()

    def zoom_in(self) -> None:
        self.set_zoom(self._zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self._zoom / ZOOM_STEP)

    def pan_by(self, dx: float, dy: float) -> None:
        self._offset += QPointF(dx, dy)
        self._keep_map_visible()
        self._auto_fit = FIT_NONE
        self.view_changed.emit()
        self.update()

    def fit_to_window(self) -> None:
        """Show the whole map (and keep it fitted while the window is resized)."""
        self._frame(self._grid_cache.bounds, MAX_ZOOM)
        self._auto_fit = FIT_MAP

    def frame_battle(self) -> None:
        """Zoom to the combatants with room for their arcs around them, never less
        than the whole map and never closer than a comfortable table zoom."""
        state = self._controller.state
        if not state.combatants:
            self.fit_to_window()
            return
        area = QRectF()
        for c in state.combatants:
            area = area.united(mp.hex_polygon(c.hex).boundingRect())
        margin = (theme.ARC_RADIUS - 0.5) * mp.SQRT3 * mp.HEX_SIZE
        area = area.adjusted(-margin, -margin, margin, margin).intersected(
            self._grid_cache.bounds
        )
        self._frame(area, FRAME_MAX_ZOOM)
        self._auto_fit = FIT_BATTLE

    def _fit_whole_zoom(self) -> float:
        """The zoom at which the whole map fits the view inside its margins."""
        w = max(1.0, self.width() - 2 * MARGIN)
        h = max(1.0, self.height() - 2 * MARGIN)
        whole = self._grid_cache.bounds
        return min(w / whole.width(), h / whole.height())

    def min_zoom(self) -> float:
        """How far out one may zoom: ``MIN_ZOOM``, or further if that is what it
        takes to see the whole map (big maps)."""
        return min(MIN_ZOOM, self._fit_whole_zoom())

    def _frame(self, b: QRectF, max_zoom: float) -> None:
        w = max(1.0, self.width() - 2 * MARGIN)
        h = max(1.0, self.height() - 2 * MARGIN)
        fit_whole = self._fit_whole_zoom()
        zoom = min(w / max(1.0, b.width()), h / max(1.0, b.height()), max_zoom)
        self._zoom = max(self.min_zoom(), min(MAX_ZOOM, max(zoom, min(fit_whole, max_zoom))))
        self._offset = QPointF(
            self.width() / 2 - b.center().x() * self._zoom,
            self.height() / 2 - b.center().y() * self._zoom,
        )
        self._keep_map_visible()
        self.view_changed.emit()
        self.update()

    def center_on(self, h: Hex) -> None:
        c = mp.center(h)
        self._offset = QPointF(
            self.width() / 2 - c.x() * self._zoom, self.height() / 2 - c.y() * self._zoom
        )
        self._keep_map_visible()
        self._auto_fit = FIT_NONE
        self.view_changed.emit()
        self.update()

    def ensure_visible(self, h: Hex, margin: float = 60.0) -> None:
        p = self.hex_center(h)
        if not QRectF(self.rect()).adjusted(margin, margin, -margin, -margin).contains(p):
            self.center_on(h)

    def cycle_selection(self, step: int) -> None:
        """Select the next (step 1) or previous (-1) combatant that is still up."""
        combatants = [c for c in self._controller.state.combatants if c.status is not Status.DEAD]
        if not combatants:
            return
        ids = [c.id for c in combatants]
        current = self._controller.selected_id
        if current in ids:
            index = (ids.index(current) + step) % len(ids)
        else:
            index = 0 if step > 0 else len(ids) - 1
        self._controller.select(ids[index])
        self.ensure_visible(combatants[index].hex)

    def _keep_map_visible(self) -> None:
        """Never let the map leave the view entirely: keep some of it on screen."""
        b = self.map_rect_on_screen()
        keep = 80.0
        dx = dy = 0.0
        if b.right() < keep:
            dx = keep - b.right()
        elif b.left() > self.width() - keep:
            dx = self.width() - keep - b.left()
        if b.bottom() < keep:
            dy = keep - b.bottom()
        elif b.top() > self.height() - keep:
            dy = self.height() - keep - b.top()
        self._offset += QPointF(dx, dy)

    # --- controller signals ------------------------------------------------------------------
    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        # The controller's plan decides: terrain and ground items are redrawn only
        # when it says they changed.
        if redraw.terrain:
            self._terrain.update(change.after)
        if redraw.items and self.animations_enabled:
            flights = flights_of(change.events, getattr(change.after, "items", ()))
            if flights:
                self._animator.start(flights)
        if self._drop is not None:
            self._refresh_drop()
        if redraw.terrain or redraw.items or self._animator.running:
            self.update()
        relevant = {self._controller.selected_id, self._controller.target_id}
        if redraw.overlays or (self._overlay is not None and self._controller.selected_id is None):
            self._rebuild_overlay()
        if redraw.overlays or relevant & redraw.tokens:
            # The selection's arcs or the target line moved: the overlay and the
            # target label can be anywhere near them.
            self.update()
            return
        before = {c.id: c for c in change.before.combatants}
        after = {c.id: c for c in change.after.combatants}
        for cid in redraw.tokens:
            for c in (before.get(cid), after.get(cid)):
                if c is not None:
                    self.update(self._token_rect(c.hex))

    def _on_battle_reset(self) -> None:
        self._animator.skip()
        self.cancel_drop()
        self._terrain.update(self._controller.state)
        self._grid_cache = mp.GridCache(self._controller.state.grid)
        self._tokens.clear()
        self._highlight = ()
        self._highlight_path = QPainterPath()
        self._rebuild_overlay()
        self.frame_battle()

    def _on_selection_changed(self, _selected: object) -> None:
        self._rebuild_overlay()
        self.update()

    def _on_target_changed(self, _target: object) -> None:
        self.update()

    def _on_highlight(self, hexes: object) -> None:
        old = self._highlight_path.boundingRect()
        self._highlight = tuple(h for h in hexes if isinstance(h, Hex)) if isinstance(
            hexes, tuple | list
        ) else ()
        grid = self._controller.state.grid
        self._highlight_path = mp.outline_path(h for h in self._highlight if h in grid)
        # a piece's flight or a move: the way it went, not only the hexes
        self._highlight_line = (
            mp.path_polyline([h for h in self._highlight if h in grid])
            if len(self._highlight) > 1 else QPolygonF()
        )
        new = self._highlight_path.boundingRect()
        for r in (old, new):
            if not r.isEmpty():
                self.update(self._screen_rect(r, 8))

    def _rebuild_overlay(self) -> None:
        sid = self._controller.selected_id
        self._legend = None
        if sid is None:
            self._overlay = None
            return
        c = self._controller.state.combatant(sid)
        self._overlay = mp.build_overlay(c, self._controller.state.grid)

    # --- geometry helpers -------------------------------------------------------------------
    def _screen_rect(self, map_rect: QRectF, pad: float = 2.0) -> QRect:
        return self.transform().mapRect(map_rect).adjusted(-pad, -pad, pad, pad).toAlignedRect()

    def _token_rect(self, h: Hex) -> QRect:
        c = self.hex_center(h)
        half = mp.token_extent(mp.HEX_SIZE * self._zoom) + 2
        return QRectF(c.x() - half, c.y() - half, 2 * half, 2 * half).toAlignedRect()

    def _combatant_at(self, h: Hex | None) -> Combatant | None:
        if h is None:
            return None
        state = self._controller.state
        standing = state.occupant(h)
        if standing is not None:
            return standing
        fallen = [c for c in state.combatants if c.hex == h]
        return fallen[-1] if fallen else None

    # --- painting -----------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            self.paint(p, QRectF(event.rect()))
        finally:
            p.end()

    def paint(self, p: QPainter, exposed: QRectF) -> None:
        """Draw the exposed part of the view (also used by the benchmark)."""
        zoom = self._zoom
        size_px = mp.HEX_SIZE * zoom
        state = self._controller.state
        p.fillRect(exposed, theme.TABLE)
        visible = self.transform().inverted()[0].mapRect(exposed)

        # the map: parchment, arc tints, grid lines
        p.save()
        p.setTransform(self.transform())
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        texture = mp.parchment_brush(zoom)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(texture)
        p.drawPath(self._grid_cache.outline)
        terrain = self._terrain
        terrain_shown = bool(terrain.looks) and terrain.bounds.intersects(visible)
        overview = terrain_shown and zoom < terrain.OVERVIEW_BELOW_ZOOM
        if overview:
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            p.drawImage(terrain.bounds, terrain.overview())
        elif terrain_shown:
            self._paint_terrain_layer(p, 0, visible)
        overlay = self._overlay
        if overlay is not None and overlay.bounds.intersects(visible):
            mp.paint_overlay_fills(p, overlay)
        if terrain_shown and not overview:
            self._paint_terrain_layer(p, 1, visible)
        if size_px >= mp.GRID_MIN_PIXELS:
            grid_pen = QPen(theme.GRID_LINE, 1.0)
            grid_pen.setCosmetic(True)
            if size_px < mp.GRID_FADE_PIXELS:
                faded = QColor(theme.GRID_LINE)
                fade = (size_px - mp.GRID_MIN_PIXELS) / (mp.GRID_FADE_PIXELS - mp.GRID_MIN_PIXELS)
                faded.setAlpha(round(theme.GRID_LINE.alpha() * fade))
                grid_pen.setColor(faded)
            p.setPen(grid_pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            for chunk in self._grid_cache.visible_chunks(visible):
                p.drawLines(chunk.lines)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        edge = QPen(theme.MAP_EDGE, 2.0)
        edge.setCosmetic(True)
        p.setPen(edge)
        p.drawPath(self._grid_cache.outline)
        if overlay is not None and overlay.bounds.intersects(visible):
            mp.paint_overlay_lines(p, overlay, zoom)
        if self._highlight:
            hl = QColor(theme.HIGHLIGHT)
            hl.setAlpha(70)
            p.setBrush(hl)
            pen = QPen(theme.HIGHLIGHT, 3.0)
            pen.setCosmetic(True)
            p.setPen(pen)
            p.drawPath(self._highlight_path)
            if not self._highlight_line.isEmpty():
                pen = QPen(theme.HIGHLIGHT.darker(130), 2.5, Qt.PenStyle.DashLine)
                pen.setCosmetic(True)
                p.setPen(pen)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolyline(self._highlight_line)
        if self._drop is not None:
            self._paint_drop_hexes(p, self._drop)
        if self.terrain_mode:
            pen = QPen(theme.TERRAIN_BRUSH, 2.0)
            pen.setCosmetic(True)
            p.setPen(pen)
            brush_fill = QColor(theme.TERRAIN_BRUSH)
            brush_fill.setAlpha(60)
            p.setBrush(brush_fill)
            for h in self._stroke:
                p.drawPolygon(mp.hex_polygon(h, 0.9))
            if self._hover is not None:
                p.drawPolygon(mp.hex_polygon(self._hover, 0.9))
        elif self._hover is not None and not self._dragging_token:
            pen = QPen(theme.HOVER, 2.0)
            pen.setCosmetic(True)
            p.setPen(pen)
            p.setBrush(theme.HOVER if self._controller.selected_id else Qt.BrushStyle.NoBrush)
            p.drawPolygon(mp.hex_polygon(self._hover, 0.92))
        if self._dragging_token:
            drop = self.hex_at(self._drag_pos)
            if drop is not None:
                blocker = state.occupant(drop)
                ok = blocker is None or blocker.id == self._press_token
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(theme.DROP_OK if ok else theme.DROP_BAD)
                p.drawPolygon(mp.hex_polygon(drop, 0.95))
        p.restore()

        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        selected, target = self._controller.selected_id, self._controller.target_id
        if terrain.looks and size_px >= 18:
            self._paint_heights(p, exposed)
        if selected is not None:
            self._paint_path(p, selected)
        labels = self._layout_labels(overlay)
        self._paint_labels(p, labels, on_top=False)
        if selected is not None and target is not None:
            self._paint_target_line(p, selected, target)

        dpr = self.devicePixelRatioF()
        # tokens
        half = mp.token_extent(size_px)
        ordered = sorted(
            state.combatants,
            key=lambda c: (c.status is not Status.DEAD, c.id == target, c.id == selected),
        )
        for c in ordered:
            cx, cy = self._to_screen_xy(c.hex)
            if not exposed.intersects(QRectF(cx - half, cy - half, 2 * half, 2 * half)):
                continue
            role = (
                mp.ROLE_SELECTED if c.id == selected
                else mp.ROLE_TARGET if c.id == target
                else mp.ROLE_PLAIN
            )
            pixmap = self._tokens.get(c, size_px, dpr, role, exact=not self._zooming)
            if self._dragging_token and c.id == self._press_token:
                p.setOpacity(0.35)
            target_rect = QRectF(round(cx - half), round(cy - half), 2 * half, 2 * half)
            if abs(pixmap.width() / dpr - 2 * half) > 0.5:
                # a pixmap of another zoom, scaled until the zoom settles
                p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
                p.drawPixmap(target_rect, pixmap, QRectF(pixmap.rect()))
            else:
                p.drawPixmap(target_rect.topLeft(), pixmap)
            p.setOpacity(1.0)

        if size_px >= 9:
            # on the hexes' rims, over the tokens' edges but clear of their faces
            self._paint_items(p, exposed, size_px, dpr)
        if selected is not None:
            self._paint_weapon_positions(p, selected, exposed)
        self._paint_labels(p, labels, on_top=True)
        if self._dragging_token and self._press_token is not None:
            ghost = self._tokens.get(
                state.combatant(self._press_token), size_px, dpr, mp.ROLE_PLAIN
            )
            p.setOpacity(0.75)
            p.drawPixmap(
                QPointF(self._drag_pos.x() - half, self._drag_pos.y() - half), ghost
            )
            p.setOpacity(1.0)
        if self._animator.running:
            self._paint_flights(p, size_px, dpr)
        if overlay is not None:
            self._paint_legend(p, overlay, exposed)

    def _paint_drop_hexes(self, p: QPainter, pick: DropPick) -> None:
        """The legal hexes of a pending drop (map coordinates): green, the own hex
        (the default) with a strong rim, the hovered one filled stronger."""
        fill = QColor(theme.DROP_OK)
        fill.setAlpha(95)
        pen = QPen(QColor(theme.DROP_OK.darker(160).rgb()), 2.5)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(fill)
        for h in pick.candidates:
            p.drawPolygon(mp.hex_polygon(h, 0.9))
        strong = QPen(QColor(theme.DROP_OK.darker(220).rgb()), 4.0)
        strong.setCosmetic(True)
        p.setPen(strong)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPolygon(mp.hex_polygon(pick.candidates[0], 0.9))
        if self._hover in pick.candidates:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(theme.DROP_OK)
            p.drawPolygon(mp.hex_polygon(self._hover, 0.9))

    # --- the battlefield layers (screen coordinates) ----------------------------------
    def _paint_terrain_layer(self, p: QPainter, layer: int, visible: QRectF) -> None:
        """Terrain under (layer 0) or over (1) the arc tints: cached chunk pixmaps once
        the zoom is still, the chunks' paths while it changes."""
        terrain, zoom = self._terrain, self._zoom
        if self._zooming:
            if layer == 0:
                mp.paint_terrain_base(p, terrain, visible)
            else:
                mp.paint_terrain(p, terrain, zoom, visible)
            return
        dpr = self.devicePixelRatioF()
        p.save()
        p.resetTransform()
        for index, chunk in enumerate(terrain.chunks):
            if not chunk.bounds.intersects(visible):
                continue
            if layer == 0 and not (chunk.heights or chunk.water):
                continue
            top_left = self.to_screen(chunk.bounds.topLeft())
            x, y = math.floor(top_left.x()), math.floor(top_left.y())
            frac = (round(top_left.x() - x, 2), round(top_left.y() - y, 2))
            pixmap = self._terrain_pixmaps.get(terrain, index, layer, zoom, frac, dpr)
            p.drawPixmap(QPointF(x, y), pixmap)
        p.restore()

    def _paint_heights(self, p: QPainter, exposed: QRectF) -> None:
        """A small level number in the upper left of each raised or sunken hex."""
        dpr = self.devicePixelRatioF()
        visible = self.transform().inverted()[0].mapRect(exposed)
        for chunk in self._terrain.visible_chunks(visible):
            for at, text in chunk.height_labels:
                pixmap = mp.height_pill(self._texts, text, dpr)
                w, h = pixmap.width() / dpr, pixmap.height() / dpr
                s = self.to_screen(at)
                p.drawPixmap(QPointF(s.x() - w / 2, s.y() - h / 2), pixmap)

    def _paint_path(self, p: QPainter, selected: str) -> None:
        """The selected combatant's path this turn: a dotted line with a dot per step."""
        path = self.path_shown()
        if not path:
            return
        points = [self.hex_center(h) for h in path]
        pen = QPen(theme.PATH_LINE, 2.2, Qt.PenStyle.DotLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPolyline(QPolygonF(points))
        r = max(2.5, 0.09 * mp.HEX_SIZE * self._zoom)
        p.setPen(QPen(theme.PATH_LINE, 1.2))
        p.setBrush(theme.PATH_DOT)
        for pt in points[:-1]:
            p.drawEllipse(pt, r, r)

    def _paint_weapon_positions(self, p: QPainter, selected: str, exposed: QRectF) -> None:
        """Small diamonds where each weapon of the selection is (the hexes a foe can
        strike at it), one colour per weapon as its reach, offset so they don't stack."""
        size_px = mp.HEX_SIZE * self._zoom
        if size_px < 10:
            return
        c = self._controller.state.combatant(selected)
        keys = [w.key for w in c.fighter.weapons]
        d = max(3.5, 0.11 * size_px)
        for key, hexes in self.weapon_positions_shown().items():
            index = keys.index(key) if key in keys else 0
            colour = theme.reach_style(index).colour
            for h in hexes:
                cx, cy = self._to_screen_xy(h)
                # along the hex's upper left edge, clear of tokens' faces; one per weapon
                x = cx - 0.5 * size_px + index * 2.4 * d
                y = cy - 0.62 * size_px
                if not exposed.contains(QPointF(x, y)):
                    continue
                p.setPen(QPen(QColor("#ffffff"), 1.2))
                p.setBrush(colour)
                p.drawPolygon(QPolygonF([
                    QPointF(x, y - d), QPointF(x + d, y), QPointF(x, y + d), QPointF(x - d, y)
                ]))

    def item_rects(self) -> list[tuple[QRectF, object]]:
        """Screen rects of the item icons and their items (hover tooltips, tests)."""
        size_px = mp.HEX_SIZE * self._zoom
        icon = mp.item_icon_size(size_px)
        out: list[tuple[QRectF, object]] = []
        for h, items in self.items_by_hex().items():
            cx, cy = self._to_screen_xy(h)
            for (dx, dy), item in zip(mp.item_slots(len(items), size_px), items, strict=False):
                out.append((QRectF(cx + dx - icon / 2, cy + dy - icon / 2, icon, icon), item))
        return out

    def _paint_items(self, p: QPainter, exposed: QRectF, size_px: float, dpr: float) -> None:
        icon = mp.item_icon_size(size_px)
        for rect, item in self.item_rects():
            if rect.intersects(exposed):
                key = icons.icon_key_for(getattr(item, "icon", None), item.name)
                p.drawPixmap(rect.topLeft(), icons.icon_pixmap(key, icon, dpr, backdrop=True))

    def _paint_flights(self, p: QPainter, size_px: float, dpr: float) -> None:
        icon = mp.item_icon_size(size_px) + 4
        t = self._animator.progress
        for flight in self._animator.flights:
            points = [self.hex_center(h) for h in flight.path]
            at, hop = point_along(points, t)
            y = at.y() - hop * size_px
            p.setOpacity(0.35)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(0, 0, 0))
            p.drawEllipse(at, icon * 0.35, icon * 0.15)  # the shadow on the ground
            p.setOpacity(1.0)
            p.save()
            p.translate(at.x(), y)
            p.rotate(360.0 * t * (1 if len(points) > 1 else 0.25))
            p.drawPixmap(QPointF(-icon / 2, -icon / 2),
                         icons.icon_pixmap(flight.icon, icon, dpr, backdrop=True))
            p.restore()

    def _to_screen_xy(self, h: Hex) -> tuple[float, float]:
        x, y = mp.LAYOUT.hex_to_pixel(h)
        return (x * self._zoom + self._offset.x(), y * self._zoom + self._offset.y())

    # --- labels: laid out first (no label hides a token or another label) ----------
    def _layout_labels(self, overlay: mp.Overlay | None) -> list[_Label]:
        """Target callout, weapon names and arc names, in drawing order. A label
        goes where it covers no token and no label placed before it; arc names that
        find no such place are left out (the legend still names every colour)."""
        labels: list[_Label] = []
        if overlay is None or mp.HEX_SIZE * self._zoom < 16:
            return labels
        state = self._controller.state
        half = 0.62 * mp.HEX_SIZE * self._zoom
        obstacles: list[QRectF] = []
        taken: set[Hex] = set()
        for c in state.combatants:
            centre = self.hex_center(c.hex)
            obstacles.append(QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half))
            taken.add(c.hex)
        target = self._target_labels(overlay)
        labels += target
        obstacles += [label.rect for label in target]

        def free(rect: QRectF) -> bool:
            return not any(rect.intersects(o) for o in obstacles)

        bg = QColor(theme.HALO)
        bg.setAlpha(215)
        for area in overlay.reach:
            style = theme.reach_style(area.index)
            text = area.name + (" – unready" if area.unready else "")
            placed: _Label | None = None
            for h in _label_hexes(area, overlay, taken):
                rect = mp.pill_rect(self._texts, text, self.hex_center(h), pixel_size=10,
                                    bold=True)
                placed = _Label(text, rect, 10, True, style.colour, bg, style.colour)
                if free(rect):
                    break
            if placed is not None:
                labels.append(placed)
                obstacles.append(placed.rect)
        grid = state.grid
        for arc, direction in overlay.label_directions:
            text = theme.ARC_MAP_TEXT[arc]
            r = theme.ARC_RADIUS
            for distance in (r - 1, r, r - 2):
                h = overlay.origin + direction.vector.scale(distance)
                if h not in grid:
                    continue
                rect = mp.pill_rect(self._texts, text, self.hex_center(h), pixel_size=10,
                                    bold=True)
                if free(rect):
                    labels.append(_Label(text, rect, 10, True,
                                         theme.ARC_COLOURS[arc].darker(175), bg, None))
                    obstacles.append(rect)
                    break
        return labels

    def _target_labels(self, overlay: mp.Overlay) -> list[_Label]:
        """Beyond the target, away from the attacker: who it is, where it stands in
        the attacker's arcs and from which of its own arcs it is attacked."""
        state = self._controller.state
        target = self._controller.target_id
        if target is None:
            return []
        a = state.combatant(overlay.combatant_id)
        t = state.combatant(target)
        start, end = self.hex_center(a.hex), self.hex_center(t.hex)
        dist = math.hypot(end.x() - start.x(), end.y() - start.y())
        ux, uy = ((end.x() - start.x()) / dist, (end.y() - start.y()) / dist) if dist else (0, 1)
        in_arc = arc_of(t.hex, a.hex, a.facing, a.handedness)
        from_arc = arc_of(a.hex, t.hex, t.facing, t.handedness)
        lines = [
            (f"Target: {t.name}", 11, True, QColor("#ffffff"), QColor(168, 24, 32, 230), None),
            (f"in {a.name}'s {in_arc.label.lower()}", 10, False, theme.INK, theme.HALO,
             theme.ARC_COLOURS[in_arc].darker(130)),
            (f"attacked from its {from_arc.label.lower()}", 10, False, theme.INK, theme.HALO,
             theme.ARC_COLOURS[from_arc].darker(130)),
        ]
        sizes = [mp.pill_rect(self._texts, text, QPointF(), pixel_size=px, bold=b)
                 for text, px, b, *_ in lines]
        step = 17.0
        width = max(r.width() for r in sizes)
        height = step * (len(lines) - 1) + sizes[0].height()
        gap = 0.72 * mp.HEX_SIZE * self._zoom + 4
        # the box's centre: out from the target until the box clears the token
        cx = end.x() + ux * (gap + width / 2 * abs(ux))
        cy = end.y() + uy * (gap + height / 2 * abs(uy))
        top = cy - height / 2 + sizes[0].height() / 2
        labels = []
        for i, (text, px, b, fg, bgc, edge) in enumerate(lines):
            rect = mp.pill_rect(self._texts, text, QPointF(cx, top + i * step), pixel_size=px,
                                bold=b)
            labels.append(_Label(text, rect, px, b, fg, bgc, edge, on_top=True))
        return labels

    def _paint_labels(self, p: QPainter, labels: list[_Label], on_top: bool) -> None:
        for label in labels:
            if label.on_top is on_top:
                mp.draw_pill(
                    p, self._texts, label.text, label.rect.center(), pixel_size=label.pixel_size,
                    bold=label.bold, fg=label.fg, bg=label.bg, edge=label.edge,
                )

    def _paint_target_line(self, p: QPainter, selected: str, target: str) -> None:
        """A dashed line from the selection to its target."""
        state = self._controller.state
        a, t = state.combatant(selected), state.combatant(target)
        start, end = self.hex_center(a.hex), self.hex_center(t.hex)
        dist = math.hypot(end.x() - start.x(), end.y() - start.y())
        trim = 0.8 * mp.HEX_SIZE * self._zoom
        if dist <= 2 * trim:
            return
        ux, uy = (end.x() - start.x()) / dist, (end.y() - start.y()) / dist
        pen = QPen(theme.TARGET_RING, 2.0, Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        p.setPen(pen)
        p.drawLine(
            QPointF(start.x() + ux * trim, start.y() + uy * trim),
            QPointF(end.x() - ux * trim, end.y() - uy * trim),
        )

    def _legend_pixmap(self, overlay: mp.Overlay) -> QPixmap:
        """The legend of the current overlay, drawn once per selection."""
        if self._legend is None:
            c = self._controller.state.combatant(overlay.combatant_id)
            weapons = [(a.index, f"{a.name} ({a.reach_text})", a.unready) for a in overlay.reach]
            ranges = [(a.index, a.text, a.unready) for a in overlay.ranges]
            self._legend = mp.render_legend(
                f"Arcs of {c.name}", weapons, self.devicePixelRatioF(), c.facing, c.handedness,
                note=mp.legend_note(c), ranges=ranges,
            )
        return self._legend

    def legend_rect(self) -> QRectF:
        """Where the legend sits, bottom left (empty with no selection)."""
        if self._overlay is None:
            return QRectF()
        pixmap = self._legend_pixmap(self._overlay)
        dpr = pixmap.devicePixelRatio()
        w, h = pixmap.width() / dpr, pixmap.height() / dpr
        return QRectF(12, self.height() - h - 12, w, h)

    def _paint_legend(self, p: QPainter, overlay: mp.Overlay, exposed: QRectF) -> None:
        rect = self.legend_rect()
        if rect.intersects(exposed):
            p.drawPixmap(rect.topLeft(), self._legend_pixmap(overlay))

    # --- mouse ---------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        if self._animator.skip():
            event.accept()
            return  # a click skips the flight
        self._press_pos = pos
        self._last_pos = pos
        self._press_button = event.button()
        self._press_token = None
        if event.button() == Qt.MouseButton.LeftButton and self.terrain_mode:
            self._stroke = []
            self._stroke_add(self.hex_at(pos))
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            c = self._combatant_at(self.hex_at(pos))
            # while a drop waits for its hex, a click on a token picks that hex
            self._press_token = c.id if c is not None and self._drop is None else None
        elif event.button() == Qt.MouseButton.MiddleButton:
            self._panning = True
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        self._set_hover(self.hex_at(pos))
        if self._press_pos is None:
            return
        if self.terrain_mode and self._press_button == Qt.MouseButton.LeftButton:
            self._stroke_add(self.hex_at(pos))
            return
        moved = (pos - self._press_pos).manhattanLength() >= QApplication.startDragDistance()
        if self._press_button == Qt.MouseButton.LeftButton and not (
            self._panning or self._dragging_token
        ) and moved:
            if self._press_token is not None:
                self._dragging_token = True
                self.setCursor(Qt.CursorShape.ClosedHandCursor)
            else:
                self._panning = True
                self.setCursor(Qt.CursorShape.ClosedHandCursor)
        if self._panning:
            delta = pos - self._last_pos
            self._last_pos = pos
            self.pan_by(delta.x(), delta.y())
        elif self._dragging_token:
            old = self._drag_pos
            self._drag_pos = pos
            half = mp.token_extent(mp.HEX_SIZE * self._zoom) + 4
            for at in (old, pos):
                self.update(QRectF(at.x() - half, at.y() - half, 2 * half, 2 * half)
                            .toAlignedRect())
            self._update_hex(self.hex_at(old))
            self._update_hex(self.hex_at(pos))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pos = event.position()
        button = event.button()
        if button != self._press_button:
            return
        if self.terrain_mode and button == Qt.MouseButton.LeftButton:
            self._press_pos = None
            self._press_button = Qt.MouseButton.NoButton
            self._stroke_add(self.hex_at(pos))
            self._finish_stroke()  # one command per stroke
            return
        was_panning, was_dragging = self._panning, self._dragging_token
        token = self._press_token
        self._press_pos = None
        self._press_button = Qt.MouseButton.NoButton
        self._panning = False
        self._dragging_token = False
        self.unsetCursor()
        if was_dragging and token is not None:
            self.update()
            destination = self.hex_at(pos)
            if destination is not None:
                self._controller.select(token)
                c = self._controller.state.combatant(token)
                if destination != c.hex:
                    self._controller.execute(MoveCombatant(token, destination))
            return
        if was_panning:
            return
        if button == Qt.MouseButton.LeftButton:
            self._click(pos)
        elif button == Qt.MouseButton.RightButton:
            self._right_click(pos)

    def _click(self, pos: QPointF) -> None:
        if self.legend_rect().contains(pos):
            return  # a click on the legend is not a click on the hex under it
        h = self.hex_at(pos)
        if h is None:
            return
        if self._drop is not None:
            self.drop_at(h)  # a hex that is not highlighted leaves the pick open
            return
        self.hex_clicked.emit(h)
        c = self._combatant_at(h)
        if c is not None:
            self._controller.select(c.id)
        elif self._controller.selected_id is not None:
            self._controller.move_selected(h)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """A right-click on a token: it becomes the target (as a plain right-click
        does) and a menu offers its postures and the items in reach. Elsewhere a
        right-click clears the target (on release, below)."""
        event.accept()
        if self.terrain_mode:
            return
        if self._drop is not None:  # a right-click ends a drop pick
            self._press_pos = None
            self._press_button = Qt.MouseButton.NoButton
            self.cancel_drop()
            return
        h = self.hex_at(QPointF(event.pos()))
        menu = self.context_menu_for(h)
        if menu is None:
            return
        # the press that opened the menu gets no release here
        self._press_pos = None
        self._press_button = Qt.MouseButton.NoButton
        self._right_click(QPointF(event.pos()))
        menu.exec(event.globalPos())
        menu.deleteLater()

    def context_menu_for(self, h: Hex | None) -> QMenu | None:
        """The map's menu for a hex: for a combatant "Set as target", "Select" and
        its postures (``SetPosture``); for items in reach of the selection "Pick up"
        (``PickUpItem``). None where there is nothing to offer."""
        if h is None:
            return None
        state = self._controller.state
        c = self._combatant_at(h)
        menu = QMenu(self)
        menu.setObjectName("mapContextMenu")
        if c is not None:
            target = menu.addAction("Set as &Target")
            target.setObjectName("setTarget")
            target.setEnabled(c.id != self._controller.selected_id)
            target.triggered.connect(lambda _=False, cid=c.id: self._controller.set_target(cid))
            select = menu.addAction(f"&Select {c.name}")
            select.setObjectName("selectCombatant")
            select.triggered.connect(lambda _=False, cid=c.id: self._controller.select(cid))
            postures = posture_choices()
            if postures:
                sub = menu.addMenu("&Posture")
                sub.setObjectName("postureMenu")
                current = getattr(c, "posture", None)
                for posture in postures:
                    action = sub.addAction(posture_label(posture))
                    action.setObjectName(f"posture:{posture.value}")
                    action.setCheckable(True)
                    action.setChecked(posture == current)
                    action.triggered.connect(
                        lambda _=False, cid=c.id, po=posture: self.set_posture(cid, po)
                    )
            from app.map.drops import droppable_items

            droppable = droppable_items(c)
            if droppable:
                sub = menu.addMenu("&Drop")
                sub.setObjectName("dropMenu")
                for key, name in droppable:
                    action = sub.addAction(f"{name}…")
                    action.setObjectName(f"drop:{key}")
                    action.setStatusTip(
                        f"{c.name} drops the {name}: pick the hex (000 DROPPED WEAPONS)"
                    )
                    action.triggered.connect(
                        lambda _=False, cid=c.id, k=key: self.begin_drop(cid, k)
                    )
        else:
            self._add_place_item_menu(menu, h)
        sid = self._controller.selected_id
        items = [i for i in getattr(state, "items", ()) if i.hex == h]
        if items and sid is not None:
            menu.addSeparator()
            picker = state.combatant(sid)
            for item in items:
                action = menu.addAction(
                    icons.item_icon(icons.icon_key_for(item.icon, item.name)),
                    f"{picker.name}: pick up {item.name}",
                )
                action.setObjectName(f"pickUp:{item.id}")
                action.setEnabled(picker.hex.distance(item.hex) <= 1)
                action.triggered.connect(
                    lambda _=False, cid=sid, iid=item.id: self.pick_up(cid, iid)
                )
        if menu.isEmpty():
            menu.deleteLater()
            return None
        return menu

    def _add_place_item_menu(self, menu: QMenu, h: Hex) -> None:
        """The GM's "Place item" submenu on an empty hex: every catalog weapon and
        shield, each put on the hex by ``AddItem``."""
        from app.map.drops import catalog_item_choices

        choices = catalog_item_choices()
        if not choices:
            return
        sub = menu.addMenu("&Place item…")
        sub.setObjectName("placeItemMenu")
        last_kind: ItemKind | None = None
        for choice in choices:
            if last_kind is not None and choice.kind is not last_kind:
                sub.addSeparator()
            last_kind = choice.kind
            action = sub.addAction(
                icons.item_icon(icons.icon_key_for(choice.icon, choice.name)), choice.name
            )
            action.setObjectName(f"place:{choice.kind.value}:{choice.key}")
            action.triggered.connect(
                lambda _=False, ch=choice, at=h: self._controller.execute(ch.command(at))
            )

    def set_posture(self, combatant_id: str, posture: object) -> None:
        command = posture_command(combatant_id, posture)
        if command is not None:
            self._controller.execute(command)

    def pick_up(self, combatant_id: str, item_id: str) -> None:
        command = pick_up_command(combatant_id, item_id)
        if command is not None:
            self._controller.execute(command)

    def _right_click(self, pos: QPointF) -> None:
        """Right-click: a token becomes the attack target; empty map clears it."""
        c = self._combatant_at(self.hex_at(pos))
        if c is None:
            self._controller.set_target(None)
        elif c.id != self._controller.selected_id:
            self._controller.set_target(c.id)

    def leaveEvent(self, event: QEvent) -> None:
        self._set_hover(None)
        super().leaveEvent(event)

    def _set_hover(self, h: Hex | None) -> None:
        if h == self._hover:
            return
        old, self._hover = self._hover, h
        self._update_hex(old)
        self._update_hex(h)
        self.hovered_hex_changed.emit(h)

    def _update_hex(self, h: Hex | None) -> None:
        if h is not None:
            self.update(self._screen_rect(mp.hex_polygon(h).boundingRect(), 3))

    @property
    def hovered_hex(self) -> Hex | None:
        return self._hover

    # --- wheel, pinch, keys -----------------------------------------------------------------------
    def wheelEvent(self, event: QWheelEvent) -> None:
        pixel = event.pixelDelta()
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        trackpad = not pixel.isNull() or event.phase() != Qt.ScrollPhase.NoScrollPhase
        if trackpad and not ctrl:
            # two-finger scroll on a trackpad pans
            delta = pixel if not pixel.isNull() else event.angleDelta() / 8
            self.pan_by(delta.x(), delta.y())
        else:
            steps = event.angleDelta().y() / 120.0
            if steps == 0 and not pixel.isNull():
                steps = pixel.y() / 60.0
            if steps:
                self.set_zoom(self._zoom * (ZOOM_STEP ** steps), event.position())
        event.accept()

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.NativeGesture:
            assert isinstance(event, QNativeGestureEvent)
            if event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture:
                self.set_zoom(self._zoom * (1.0 + event.value()), event.position())
                return True
            if event.gestureType() == Qt.NativeGestureType.SmartZoomNativeGesture:
                self.fit_to_window()
                return True
        if kind == QEvent.Type.ToolTip:
            assert isinstance(event, QHelpEvent)
            self._show_tooltip(event)
            return True
        return super().event(event)

    def focusNextPrevChild(self, next: bool) -> bool:
        # Tab cycles the selection on the map (the actions above), not the focus.
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Tab reaches here only if no action took it.
        if self._drop is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.drop_at(None)  # Enter: into the own hex, the default
        elif event.key() == Qt.Key.Key_Tab:
            self.cycle_selection(1)
        elif event.key() == Qt.Key.Key_Backtab:
            self.cycle_selection(-1)
        else:
            super().keyPressEvent(event)

    def _turn(self, steps: int) -> None:
        self._controller.turn_selected(steps)

    def _clear_selection(self) -> None:
        if self._animator.skip():
            return  # Esc first skips a flight
        if self._drop is not None:
            self.cancel_drop()  # then ends a drop pick
            return
        if self.terrain_mode:
            self.set_terrain_mode(False)
            return
        # target first: the controller ignores set_target(None) once nothing is selected
        self._controller.set_target(None)
        self._controller.select(None)

    # --- tooltip -------------------------------------------------------------------------------
    def describe_hex(self, h: Hex) -> str:
        """Tooltip text: coordinates, occupant, arc relative to the selection."""
        state = self._controller.state
        col, row = h.to_offset()
        lines = [f"Hex {h.q},{h.r}  (column {col}, row {row})"]
        for c in state.combatants:
            if c.hex == h:
                hand = c.fighter.handedness.value
                lines.append(
                    f"{c.name} — {c.side.value}, HP {c.hp}/{c.fighter.hit_points}, "
                    f"{c.status.value}, facing {c.facing.label}, {hand}-handed"
                )
        look = self.terrain_drawn_at(h)
        if look is not None:
            lines.append("Terrain: " + mp.terrain_map(state)[h].describe())  # type: ignore[attr-defined]
        items = [i for i in getattr(state, "items", ()) if i.hex == h]
        if items:
            lines.append("On the ground: " + ", ".join(i.name for i in items))
        sid = self._controller.selected_id
        if sid is not None:
            sel = state.combatant(sid)
            if h != sel.hex:
                arc = arc_of(h, sel.hex, sel.facing, sel.handedness)
                d = h.distance(sel.hex)
                lines.append(f"{arc.label} of {sel.name}, {d} hex{'' if d == 1 else 'es'} away")
                names = [a.name for a in (self._overlay.reach if self._overlay else ())
                         if h in a.hexes]
                if names:
                    lines.append("In reach of: " + ", ".join(names))
                ranged = [f"{a.name} ({a.mode})" for a in (self._overlay.ranges if self._overlay
                          else ()) if h in a.hexes]
                if ranged:
                    lines.append("In range of: " + ", ".join(ranged))
        return "\n".join(lines)

    def _show_tooltip(self, event: QHelpEvent) -> None:
        pos = QPointF(event.pos())
        for rect, item in self.item_rects():
            if rect.contains(pos):  # an item's icon: its name (and what it is)
                text = item.name + (f" — {item.note}" if getattr(item, "note", "") else "")
                QToolTip.showText(event.globalPos(), text, self, rect.toAlignedRect())
                return
        h = self.hex_at(pos)
        if h is None:
            QToolTip.hideText()
            return
        rect = self._screen_rect(mp.hex_polygon(h).boundingRect(), 0)
        QToolTip.showText(event.globalPos(), self.describe_hex(h), self, rect)

    # --- resize --------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._auto_fit == FIT_MAP:
            self.fit_to_window()
        elif self._auto_fit == FIT_BATTLE:
            self.frame_battle()
        else:
            self._keep_map_visible()



@dataclass(frozen=True)
class _Label:
    text: str
    rect: QRectF
    pixel_size: int
    bold: bool
    fg: QColor
    bg: QColor
    edge: QColor | None
    on_top: bool = False  # drawn over the tokens (the target callout)


def _label_hexes(area: mp.ReachArea, overlay: mp.Overlay, taken: set[Hex]) -> list[Hex]:
    """Free hexes of a reach area for its label: far out and straight ahead first."""
    fx, fy = mp.facing_unit(overlay.facing)
    o = mp.center(overlay.origin)
    scored: list[tuple[float, Hex]] = []
    for h in area.hexes:
        if h in taken:
            continue
        c = mp.center(h)
        ahead = ((c.x() - o.x()) * fx + (c.y() - o.y()) * fy) / mp.HEX_SIZE
        across = abs((c.x() - o.x()) * fy - (c.y() - o.y()) * fx) / mp.HEX_SIZE
        scored.append((-(ahead - 0.3 * across), h))
    return [h for _score, h in sorted(scored)]


# --- the rules commands and records the map uses ----------------------------------------
def posture_choices() -> tuple[object, ...]:
    try:
        from rules.sets.seed000.conditions import Posture
    except ImportError:  # pragma: no cover - older rules
        return ()
    return tuple(Posture)


def posture_label(posture: object) -> str:
    text = str(getattr(posture, "value", posture)).replace("_", " ")
    return text[:1].upper() + text[1:]


def posture_command(combatant_id: str, posture: object) -> Command | None:
    try:
        from rules.battle.battle import SetPosture  # type: ignore[attr-defined]
    except ImportError:
        return None
    return SetPosture(combatant_id, posture)  # type: ignore[no-any-return]


def pick_up_command(combatant_id: str, item_id: str) -> Command | None:
    try:
        from rules.battle.battle import PickUpItem  # type: ignore[attr-defined]
    except ImportError:
        return None
    return PickUpItem(combatant_id, item_id)  # type: ignore[no-any-return]


def paint_command(hexes: tuple[Hex, ...], brush: object | None) -> Command | None:
    """One ``PaintTerrain`` command for a stroke (None without a brush or rules)."""
    if brush is None:
        return None
    try:
        from rules.battle.battle import PaintTerrain  # type: ignore[attr-defined]
    except ImportError:
        return None
    return PaintTerrain(hexes, brush)  # type: ignore[no-any-return]


def weapon_positions_of(c: Combatant) -> dict[str, tuple[Hex, ...]]:
    """Where each weapon of ``c`` is: the rules' ``weapon_positions`` if there is
    one, else ``hexmap.weapon_hexes`` of each weapon's reach."""
    try:
        from rules.battle.battle import weapon_positions  # type: ignore[attr-defined]
    except ImportError:
        weapon_positions = None
    if weapon_positions is not None:
        return {k: tuple(v) for k, v in weapon_positions(c).items()}
    return {
        w.key: weapon_hexes(c.hex, c.facing, w.reach)
        for w in c.fighter.weapons
        if w.kind.value != "unarmed"
    }


def flights_of(events: Iterable[object], items: Iterable[object]) -> list[Flight]:
    """Animations for the pieces a command sent flying or falling: every event that
    carries a ``landing`` with a traced path (``rules.battle.scatter.PieceLanded``)."""
    by_id = {getattr(i, "id", None): i for i in items}
    flights: list[Flight] = []
    for event in events:
        landing = getattr(event, "landing", None)
        path = tuple(getattr(landing, "path", ()) or ())
        if not path:
            continue
        iid = getattr(event, "item_id", None)
        item = by_id.get(iid)
        name = getattr(item, "name", None) or getattr(landing, "piece_name", "piece")
        key = icons.icon_key_for(getattr(item, "icon", None), name)
        flights.append(Flight(key, name, path, iid))
    return flights


# The drop and catalog records live in app.map.drops, created on first use (issue 5).
_DROPS = frozenset({"DropPick", "CatalogItem", "droppable_items", "make_drop_pick",
                    "catalog_item_choices"})  # fmt: skip


def __getattr__(name: str) -> object:
    if name in _DROPS:
        from app.map import drops as map_drops

        value = getattr(map_drops, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
