"""The hex map: a custom QPainter widget (no QGraphicsView, for speed).

It shows the battle the ``BattleController`` holds and changes it only through the
controller: a click selects, a click on an empty hex (or a drag) moves, a right-click
sets the attack target, Q/E and [/] turn. Redraws follow the controller's ``Redraw``
plan: a moved or hurt token repaints only its rects; the selection overlay (arcs,
reach) is rebuilt only when the plan or the selection asks for it.

The widget wires the roles together: ``camera`` (zoom, pan, fit), ``tools`` (what
the pointer does), ``menus`` (the context menu), ``labels`` (words on the map and
the tooltip), ``layers`` and ``painter`` (what is drawn).
"""

from __future__ import annotations

from collections.abc import Callable

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
from PySide6.QtWidgets import QMenu, QSizePolicy, QToolTip, QWidget

from app import theme
from app.controller import BattleController, Redraw
from app.help import key_sequences
from app.help import shortcut as help_shortcut
from app.map import labels as ml
from app.map import layers
from app.map import painter as mp
from app.map.action_animation import ActionAnimator, Blow, Pace, paint_blow, steps_of
from app.map.animation import FlightAnimator, animations_wanted
from app.map.camera import FRAME_MAX_ZOOM, MAX_ZOOM, PAN_STEP, ZOOM_STEP, Camera
from app.map.drops import DropPick
from app.map.menus import context_menu_for
from app.map.tools import (
    MapTools,
    combatant_at,
    flights_of,
    pick_up_command,
    posture_command,
    weapon_positions_of,
)
from hexmap import Arc, Hex
from rules.battle.battle import BattleChange
from rules.battle.items import GroundItem
from rules.battle.model import Combatant, Posture, Status
from rules.battle.terrain import TerrainChange

FIT_NONE, FIT_MAP, FIT_BATTLE = 0, 1, 2
ZOOM_SETTLE_MS = 140  # after the last zoom step, crisp tokens and terrain follow
HEIGHTS_MIN_PIXELS = 18.0  # smaller hexes get no height numbers
ITEMS_MIN_PIXELS = 9.0  # ... and no item icons
LEGEND_MARGIN = 12  # px between the legend and the map view's edges
LEGEND_FOLD_MARK = "\u25be"  # before the open legend's title: a click folds it
LEGEND_OPEN_MARK = "\u25b8"  # before the folded one's: a click opens it


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
    legend_folded_changed = Signal(bool)  # the legend folded away (True) or open

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
        self._grid_cache = mp.GridCache(controller.state.grid)
        self._edge = mp.EdgePixmap()
        self.camera = Camera(lambda: (self.width(), self.height()), self._grid_cache.bounds)
        # Refit on resize until the user zooms or pans: the battle at first, the
        # whole map after "Fit".
        self._auto_fit = FIT_BATTLE
        # While the zoom changes, tokens are scaled pixmaps; crisp ones follow shortly.
        self._zooming = False
        self._settle_timer = QTimer(self)
        self._settle_timer.setSingleShot(True)
        self._settle_timer.setInterval(ZOOM_SETTLE_MS)
        self._settle_timer.timeout.connect(self._zoom_settled)

        self._tokens = mp.TokenCache()
        # The tokens' condition badges come from the ruleset (condition_labels), so
        # only once the window turns them on: the first frame loads no ruleset.
        self.show_conditions = False
        self._conditions: dict[str, tuple[Combatant, tuple[str, ...]]] = {}
        self._texts = mp.TextCache()
        self._overlay: mp.Overlay | None = None
        self._legend: QPixmap | None = None
        # The overlays of the fighters last selected: the turns (and auto-play)
        # select each in turn, often where it stood the last time.
        self._overlays = mp.OverlayCache()
        self._legend_folded = False
        self._legend_at = QRectF()  # where the legend was last painted
        self._callout: list[QRectF] = []  # the target callout's labels, as last painted
        self._highlight: tuple[Hex, ...] = ()
        self._highlight_path = QPainterPath()
        self._highlight_line = QPolygonF()
        self._hover: Hex | None = None
        self._terrain = mp.TerrainCache()
        self._terrain.update(controller.state)
        self._terrain_pixmaps = mp.TerrainPixmaps()
        self.tools = MapTools(self)
        # flying and falling pieces
        self.animations_enabled = animations_wanted()
        self._animator = FlightAnimator(self)
        self._animator.frame.connect(self.update)
        # auto-play's moves and blows (app.map.action_animation): the pace of the
        # speed auto-play runs at, None while it does not run (the window sets it)
        self.action_pace: Callable[[], Pace | None] = lambda: None
        self._actions = ActionAnimator(self)
        self._actions.frame.connect(self.update)

        controller.battle_changed.connect(self._on_battle_changed)
        controller.battle_reset.connect(self._on_battle_reset)
        controller.selection_changed.connect(self._on_selection_changed)
        controller.target_changed.connect(self._on_target_changed)
        controller.turn_passed.connect(self._on_turn_passed)
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
        )  # fmt: skip
        self.clear_selection_action = self._action(
            "clear_selection", "&Clear Selection", self._clear_selection, widget
        )
        self.paint_terrain_action = self._action(
            "paint_terrain", "Paint &Terrain", self._terrain_mode_toggled
        )
        self.context_menu_action = self._action(
            "context_menu", "Hex &Menu", self.open_context_menu, widget
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
        return self.camera.zoom

    def transform(self) -> QTransform:
        """Map coordinates -> widget pixels."""
        return self.camera.transform()

    def to_map(self, pos: QPointF) -> QPointF:
        return self.camera.to_map(pos)

    def to_screen(self, point: QPointF) -> QPointF:
        return self.camera.to_screen(point)

    def hex_at(self, pos: QPointF | QPoint) -> Hex | None:
        """The map hex under a widget position, None off the map."""
        m = self.camera.to_map(QPointF(pos))
        h = mp.LAYOUT.pixel_to_hex(m.x(), m.y())
        return h if h in self._controller.state.grid else None

    def hex_center(self, h: Hex) -> QPointF:
        """Widget position of a hex centre."""
        return self.camera.hex_center(h)

    def map_rect_on_screen(self) -> QRectF:
        """The whole map's bounding box in widget pixels."""
        return self.camera.map_rect_on_screen()

    def min_zoom(self) -> float:
        """How far out one may zoom (``Camera.min_zoom``)."""
        return self.camera.min_zoom()

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
    def items_by_hex(self) -> dict[Hex, list[GroundItem]]:
        """Ground items lying still in each hex (pieces still in flight are left out)."""
        out: dict[Hex, list[GroundItem]] = {}
        for item in self._controller.state.items:
            if self._animator.running and self._animator.in_flight(item.id):
                continue
            out.setdefault(item.hex, []).append(item)
        return out

    def items_drawn(self) -> dict[Hex, list[str]]:
        """Names of the items the map draws in each hex (tests and tooltips)."""
        return {h: [item.name for item in items] for h, items in self.items_by_hex().items()}

    def item_rects(self) -> list[tuple[QRectF, GroundItem]]:
        """Screen rects of the item icons and their items (hover tooltips, tests)."""
        return layers.item_rects(self.camera, self.items_by_hex())

    def terrain_drawn_at(self, h: Hex) -> mp.TerrainLook | None:
        """What the map shows of ``h``'s terrain (None: open ground)."""
        self._terrain.update(self._controller.state)
        return self._terrain.looks.get(h)

    def path_shown(self) -> tuple[Hex, ...]:
        """The selected combatant's path this turn as drawn (empty if none)."""
        sid = self._controller.selected_id
        if sid is None:
            return ()
        path = self._controller.state.combatant(sid).path_this_turn
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

    @property
    def action_animator(self) -> ActionAnimator:
        return self._actions

    def skip_action_animation(self) -> bool:
        """Show the battle as it is now: auto-play's slides and blows stop."""
        return self._actions.skip()

    # --- deliberate drops: the GM picks the hex (app.map.tools) ---------------------
    @property
    def drop_pick(self) -> DropPick | None:
        """The drop waiting for its hex (None when no drop is being placed)."""
        return self.tools.drop

    def drop_hexes_shown(self) -> tuple[Hex, ...]:
        """The hexes highlighted as legal for the pending drop (own hex first)."""
        return self.tools.drop.candidates if self.tools.drop is not None else ()

    def begin_drop(self, combatant_id: str, key: str) -> bool:
        """Highlight where ``combatant_id`` may drop ``key`` (``rules.battle.items.
        drop_candidates``: the hexes passed through this turn and those next to
        them) and wait for a click on one; Enter drops into the own hex, Esc cancels."""
        return self.tools.begin_drop(combatant_id, key)

    def cancel_drop(self) -> None:
        self.tools.cancel_drop()

    def drop_at(self, h: Hex | None) -> bool:
        """Execute the pending ``DropItem`` into ``h`` (a highlighted hex; None: the
        own hex). False, and the pick goes on, for any other hex."""
        return self.tools.drop_at(h)

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
        self.tools.stroke = []
        if on:
            self.setCursor(Qt.CursorShape.CrossCursor)
        else:
            self.unsetCursor()
        self.terrain_mode_changed.emit(on)
        self.update()

    @property
    def terrain_brush(self) -> TerrainChange | None:
        return self.tools.brush

    def set_terrain_brush(self, change: TerrainChange | None) -> None:
        """What a stroke paints: a ``rules.battle.terrain.TerrainChange``."""
        self.tools.brush = change

    def stroke_hexes(self) -> tuple[Hex, ...]:
        return tuple(self.tools.stroke)

    # --- camera (app.map.camera) ----------------------------------------------------
    def _camera_moved(self) -> None:
        self._auto_fit = FIT_NONE
        self.view_changed.emit()
        self.update()

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom keeping the map point under ``anchor`` (default: view centre) still."""
        self.camera.zoom_about(zoom, anchor)
        self._zooming = True
        self._settle_timer.start()
        self._camera_moved()

    def _zoom_settled(self) -> None:
        self._zooming = False
        self.update()

    def settle_zoom(self) -> None:
        """End the zoom gesture now, as the settle timer does a moment after the last
        step: tokens and terrain are drawn crisp at the new zoom."""
        self._settle_timer.stop()
        self._zoom_settled()

    def zoom_in(self) -> None:
        self.set_zoom(self.camera.zoom * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.camera.zoom / ZOOM_STEP)

    def pan_by(self, dx: float, dy: float) -> None:
        self.camera.pan_by(dx, dy)
        self._camera_moved()

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

    def _frame(self, b: QRectF, max_zoom: float) -> None:
        self.camera.frame(b, max_zoom)
        self.view_changed.emit()
        self.update()

    def center_on(self, h: Hex) -> None:
        self.camera.center_on(h)
        self._camera_moved()

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

    # --- controller signals ------------------------------------------------------------------
    def _on_battle_changed(self, change: BattleChange, redraw: Redraw) -> None:
        # The controller's plan decides: terrain and ground items are redrawn only
        # when it says they changed.
        if redraw.terrain:
            self._terrain.update(change.after)
        self._animate_action(change, redraw)
        if redraw.items and redraw.animate and self.animations_enabled:
            flights = flights_of(change.events, change.after.items)
            if flights:
                self._animator.start(flights)
        if self.tools.drop is not None:
            self.tools.refresh_drop()
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

    def _animate_action(self, change: BattleChange, redraw: Redraw) -> None:
        """Auto-play's moves slide and its blows flash (a command run now, at a
        speed with a pace); anything else shows the battle as it is at once."""
        pace = self.action_pace() if redraw.animate and self.animations_enabled else None
        if pace is None:
            self._actions.skip()
            return
        self._actions.play(steps_of(change, self._controller.ruleset), pace)

    def conditions_of(self, c: Combatant) -> tuple[str, ...]:
        """The ruleset's condition labels of ``c`` for its token's badges (none until
        ``show_conditions``), worked out once for each state of the combatant."""
        if not self.show_conditions:
            return ()
        known = self._conditions.get(c.id)
        if known is not None and known[0] is c:
            return known[1]
        labels = tuple(self._controller.ruleset.conditions.labels(c))
        self._conditions[c.id] = (c, labels)
        return labels

    def _on_battle_reset(self) -> None:
        self._conditions.clear()
        self._animator.skip()
        self._actions.skip()
        self.cancel_drop()
        self._terrain.update(self._controller.state)
        self._grid_cache = mp.GridCache(self._controller.state.grid)
        self.camera.map_bounds = self._grid_cache.bounds
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

    def _on_turn_passed(self, combatant_id: str) -> None:
        """The fighter whose turn it is now comes into view (the map scrolls to it
        only if it is off screen)."""
        c = self._controller.combatant_or_none(combatant_id)
        if c is not None:
            self.ensure_visible(c.hex)

    def _on_highlight(self, hexes: object) -> None:
        old = self._highlight_path.boundingRect()
        self._highlight = tuple(h for h in hexes if isinstance(h, Hex)) if isinstance(
            hexes, tuple | list
        ) else ()  # fmt: skip
        grid = self._controller.state.grid
        self._highlight_path = mp.outline_path(h for h in self._highlight if h in grid)
        # a piece's flight or a move: the way it went, not only the hexes
        self._highlight_line = (
            mp.path_polyline([h for h in self._highlight if h in grid])
            if len(self._highlight) > 1 else QPolygonF()
        )  # fmt: skip
        new = self._highlight_path.boundingRect()
        for r in (old, new):
            if not r.isEmpty():
                self.update(self.camera.screen_rect(r, 8))

    def _rebuild_overlay(self) -> None:
        sid = self._controller.selected_id
        self._legend = None
        if sid is None:
            self._overlay = None
            return
        c = self._controller.state.combatant(sid)
        self._overlay = self._overlays.get(c, self._controller.state.grid)

    # --- geometry helpers -------------------------------------------------------------------
    def _token_rect(self, h: Hex) -> QRect:
        c = self.hex_center(h)
        half = mp.token_extent(self.camera.hex_pixels) + 2
        return QRectF(c.x() - half, c.y() - half, 2 * half, 2 * half).toAlignedRect()

    def update_hex(self, h: Hex | None) -> None:
        """Repaint the part of the view that ``h`` covers (nothing for None)."""
        if h is not None:
            self.update(self.camera.screen_rect(mp.hex_polygon(h).boundingRect(), 3))

    # --- painting -----------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            self.paint(p, QRectF(event.rect()))
        finally:
            p.end()

    def paint(self, p: QPainter, exposed: QRectF) -> None:
        """Draw the exposed part of the view (also used by the benchmark)."""
        camera = self.camera
        size_px = camera.hex_pixels
        p.fillRect(exposed, theme.TABLE)
        visible = camera.visible_map_rect(exposed)
        self._paint_map(p, visible)

        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        state = self._controller.state
        selected, target = self._controller.selected_id, self._controller.target_id
        dpr = self.devicePixelRatioF()
        if self._terrain.looks and size_px >= HEIGHTS_MIN_PIXELS:
            layers.paint_heights(p, camera, self._terrain, self._texts, exposed, dpr)
        if selected is not None:
            layers.paint_path(p, camera, self.path_shown())
        overlay = self._overlay_shown()
        labels = ml.layout_labels(camera, state, overlay, target, self._texts)
        self._callout = [label.rect for label in labels if label.on_top]
        ml.paint_labels(p, self._texts, labels, on_top=False)
        if selected is not None and target is not None:
            layers.paint_target_line(p, camera, state.combatant(selected), state.combatant(target))
        self._paint_tokens(p, exposed, dpr)
        if size_px >= ITEMS_MIN_PIXELS:
            # on the hexes' rims, over the tokens' edges but clear of their faces
            layers.paint_items(p, self.item_rects(), exposed, size_px, dpr)
        if selected is not None and not self._actions.hidden_hex(selected):
            layers.paint_weapon_positions(
                p, camera, state.combatant(selected), self.weapon_positions_shown(), exposed
            )
        ml.paint_labels(p, self._texts, labels, on_top=True)
        tools = self.tools
        if tools.dragging_token and tools.press_token is not None:
            half = mp.token_extent(size_px)
            ghost = self._tokens.get(
                state.combatant(tools.press_token), size_px, dpr, mp.ROLE_PLAIN
            )
            p.setOpacity(0.75)
            p.drawPixmap(QPointF(tools.drag_pos.x() - half, tools.drag_pos.y() - half), ghost)
            p.setOpacity(1.0)
        if self._animator.running:
            layers.paint_flights(p, camera, self._animator, dpr)
        blow = self._actions.step
        if isinstance(blow, Blow):
            paint_blow(p, blow, self._actions.progress, camera.hex_center, size_px)
        if overlay is not None:
            self._paint_legend(p, overlay, exposed)

    def _paint_map(self, p: QPainter, visible: QRectF) -> None:
        """In map coordinates: parchment, terrain, arc tints, grid lines, the map's
        edge, the overlay's lines, highlights and what the tools show."""
        camera = self.camera
        zoom = camera.zoom
        size_px = camera.hex_pixels
        dpr = self.devicePixelRatioF()
        p.save()
        p.setTransform(camera.transform())
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(mp.parchment_brush(zoom))
        p.drawPath(self._grid_cache.outline)
        terrain = self._terrain
        terrain_shown = bool(terrain.looks) and terrain.bounds.intersects(visible)
        overview = terrain_shown and zoom < terrain.OVERVIEW_BELOW_ZOOM
        if overview:
            p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
            p.drawImage(terrain.bounds, terrain.overview())
        elif terrain_shown:
            layers.paint_terrain_layer(
                p, camera, terrain, self._terrain_pixmaps, 0, visible,
                zooming=self._zooming, dpr=dpr,
            )  # fmt: skip
        overlay = self._overlay_shown()
        if overlay is not None and overlay.bounds.intersects(visible):
            mp.paint_overlay_fills(p, overlay)
        if terrain_shown and not overview:
            layers.paint_terrain_layer(
                p, camera, terrain, self._terrain_pixmaps, 1, visible,
                zooming=self._zooming, dpr=dpr,
            )  # fmt: skip
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
        p.save()
        p.resetTransform()
        blitted = self._edge.paint(
            p, self._grid_cache, camera.transform(), edge, dpr, exact=not self._zooming
        )
        p.restore()
        if not blitted:
            p.setPen(edge)
            p.drawPath(self._grid_cache.outline)
        if overlay is not None and overlay.bounds.intersects(visible):
            mp.paint_overlay_lines(p, overlay, zoom)
        if self._highlight:
            self._paint_highlight(p)
        tools = self.tools
        if tools.drop is not None:
            layers.paint_drop_hexes(p, tools.drop, self._hover)
        if self.terrain_mode:
            pen = QPen(theme.TERRAIN_BRUSH, 2.0)
            pen.setCosmetic(True)
            p.setPen(pen)
            brush_fill = QColor(theme.TERRAIN_BRUSH)
            brush_fill.setAlpha(60)
            p.setBrush(brush_fill)
            for h in tools.stroke:
                p.drawPolygon(mp.hex_polygon(h, 0.9))
            if self._hover is not None:
                p.drawPolygon(mp.hex_polygon(self._hover, 0.9))
        elif self._hover is not None and not tools.dragging_token:
            pen = QPen(theme.HOVER, 2.0)
            pen.setCosmetic(True)
            p.setPen(pen)
            p.setBrush(theme.HOVER if self._controller.selected_id else Qt.BrushStyle.NoBrush)
            p.drawPolygon(mp.hex_polygon(self._hover, 0.92))
        if tools.dragging_token:
            drop = self.hex_at(tools.drag_pos)
            if drop is not None:
                blocker = self._controller.state.occupant(drop)
                ok = blocker is None or blocker.id == tools.press_token
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(theme.DROP_OK if ok else theme.DROP_BAD)
                p.drawPolygon(mp.hex_polygon(drop, 0.95))
        p.restore()

    def _overlay_shown(self) -> mp.Overlay | None:
        """The selection's arcs, but none while its token slides to where they are."""
        sid = self._controller.selected_id
        if sid is not None and self._actions.hidden_hex(sid):
            return None
        return self._overlay

    def _paint_highlight(self, p: QPainter) -> None:
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

    def _paint_tokens(self, p: QPainter, exposed: QRectF, dpr: float) -> None:
        camera = self.camera
        size_px = camera.hex_pixels
        selected, target = self._controller.selected_id, self._controller.target_id
        tools = self.tools
        half = mp.token_extent(size_px)
        exact_side = mp.token_pixmap_side(size_px, dpr)  # a pixmap drawn for this zoom
        ordered = sorted(
            self._controller.state.combatants,
            key=lambda c: (c.status is not Status.DEAD, c.id == target, c.id == selected),
        )
        computer = {i for i, _ in self._controller.state.controllers}
        actions = self._actions
        for c in ordered:
            cx, cy = camera.to_screen_xy(c.hex)
            if actions.running:
                # a token on its way is drawn where its slide has got to, or at
                # the start of a slide still to come
                sliding = (
                    actions.token_point(camera.hex_center) if actions.hidden_hex(c.id) else None
                )
                waiting = actions.queued_slide_of(c.id)
                if sliding is None and waiting is not None:
                    sliding = camera.hex_center(waiting.path[0])
                if sliding is not None:
                    cx, cy = sliding.x(), sliding.y()
            if not exposed.intersects(QRectF(cx - half, cy - half, 2 * half, 2 * half)):
                continue
            role = (
                mp.ROLE_SELECTED if c.id == selected
                else mp.ROLE_TARGET if c.id == target
                else mp.ROLE_PLAIN
            )  # fmt: skip
            pixmap = self._tokens.get(
                c,
                size_px,
                dpr,
                role,
                exact=not self._zooming,
                conditions=self.conditions_of(c),
                computer=c.id in computer,
            )
            if tools.dragging_token and c.id == tools.press_token:
                p.setOpacity(0.35)
            left, top = round(cx - half), round(cy - half)
            if pixmap.width() == exact_side:
                p.drawPixmap(QPointF(left, top), pixmap)
            else:
                # A pixmap of another zoom, scaled until the zoom settles, into whole
                # pixels: under antialiasing a fractional rect is drawn as a textured
                # polygon, three times slower than a plain scaled blit.
                p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
                p.drawPixmap(QRect(left, top, round(2 * half), round(2 * half)), pixmap)
                p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)
            p.setOpacity(1.0)

    def _legend_pixmap(self, overlay: mp.Overlay) -> QPixmap:
        """The legend of the current overlay, drawn once per selection (folded: its
        title only)."""
        if self._legend is None:
            c = self._controller.state.combatant(overlay.combatant_id)
            dpr = self.devicePixelRatioF()
            if self._legend_folded:
                self._legend = mp.render_folded_legend(f"{LEGEND_OPEN_MARK} Arcs of {c.name}", dpr)
                return self._legend
            weapons = [(a.index, f"{a.name} ({a.reach_text})", a.unready) for a in overlay.reach]
            ranges = [(a.index, a.text, a.unready) for a in overlay.ranges]
            self._legend = mp.render_legend(
                f"{LEGEND_FOLD_MARK} Arcs of {c.name}", weapons, dpr, c.facing, c.handedness,
                note=mp.legend_note(c), ranges=ranges,
            )  # fmt: skip
        return self._legend

    @property
    def legend_folded(self) -> bool:
        return self._legend_folded

    def set_legend_folded(self, folded: bool) -> None:
        """Fold the legend away to its title (a click on it does the same) or open it."""
        if folded == self._legend_folded:
            return
        self.update(self.legend_rect().toAlignedRect())
        self._legend_folded = folded
        self._legend = None
        self.update(self.legend_rect().toAlignedRect())
        self.legend_folded_changed.emit(folded)

    def refresh_look(self) -> None:
        """Redraw everything drawn in the theme's colours (after the GM changed them)."""
        self._tokens.clear()
        self._overlays.clear()
        self._rebuild_overlay()
        self.update()

    def legend_rect(self) -> QRectF:
        """Where the legend sits (empty with no selection): bottom left, else the
        first other corner (bottom right, top left, top right) where it hides
        neither the selected fighter, nor its target, nor the target's callout."""
        if self._overlay is None:
            return QRectF()
        pixmap = self._legend_pixmap(self._overlay)
        dpr = pixmap.devicePixelRatio()
        w, h = pixmap.width() / dpr, pixmap.height() / dpr
        left, right = LEGEND_MARGIN, self.width() - w - LEGEND_MARGIN
        top, bottom = LEGEND_MARGIN, self.height() - h - LEGEND_MARGIN
        corners = [QRectF(x, y, w, h) for x, y in ((left, bottom), (right, bottom),
                                                   (left, top), (right, top))]  # fmt: skip
        chosen = (self._controller.selected_id, self._controller.target_id)
        kept_clear = [
            self._token_rect(c.hex).toRectF()
            for c in map(self._controller.combatant_or_none, chosen)
            if c is not None
        ]
        kept_clear += self._callout
        for corner in corners:
            if not any(corner.intersects(token) for token in kept_clear):
                return corner
        return corners[0]

    def _paint_legend(self, p: QPainter, overlay: mp.Overlay, exposed: QRectF) -> None:
        rect = self.legend_rect()
        if rect != self._legend_at:  # it moved off a token: its old place is drawn again
            self.update(self._legend_at.toAlignedRect())
            self.update(rect.toAlignedRect())
            self._legend_at = rect
        if rect.intersects(exposed):
            p.drawPixmap(rect.topLeft(), self._legend_pixmap(overlay))

    # --- mouse (app.map.tools) and the context menu (app.map.menus) -----------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if not self._animator.skip():  # a click skips the flight
            self.tools.press(event.position(), event.button())
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self.tools.move(event.position())

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self.tools.release(event.position(), event.button())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """A right-click on another token makes it the target and opens nothing.
        The hex's menu (postures, ready, drop, pick up, add a fighter, place an
        item) opens with a right-click on an empty hex or on the selected fighter,
        a Shift+right-click anywhere, or the keyboard (``open_context_menu``). A
        right-click on an empty hex also clears the target."""
        event.accept()
        if self.terrain_mode:
            return
        if self.tools.drop is not None:  # a right-click ends a drop pick
            self.tools.forget_press()
            self.cancel_drop()
            return
        if event.reason() is not QContextMenuEvent.Reason.Mouse:
            self.open_context_menu()
            return
        pos = QPointF(event.pos())
        # the press that opened the menu or set the target gets no release here
        self.tools.forget_press()
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        token = self.combatant_at(self.hex_at(pos))
        if not shift and (token is None or token.id != self._controller.selected_id):
            self.tools.right_click(pos)  # targeting is one action: no menu to dismiss
            if token is not None:
                return
        self._exec_menu(self.hex_at(pos), event.globalPos())

    def open_context_menu(self) -> None:
        """The menu from the keyboard (Menu key, Shift+F10): of the hex under the
        pointer, else of the selected fighter's hex, shown at that hex."""
        h = self._hover
        if h is None:
            selected = self._controller.combatant_or_none(self._controller.selected_id)
            h = selected.hex if selected is not None else None
        if h is None or self.terrain_mode or self.tools.drop is not None:
            return
        self._exec_menu(h, self.mapToGlobal(self.hex_center(h).toPoint()))

    def _exec_menu(self, h: Hex | None, at: QPoint) -> None:
        menu = self.context_menu_for(h)
        if menu is None:
            return
        menu.exec(at)
        menu.deleteLater()

    def context_menu_for(self, h: Hex | None) -> QMenu | None:
        """The map's menu for a hex (``app.map.menus.context_menu_for``): for a
        combatant "Set as target", "Select" and its postures (``SetPosture``); for
        items in reach of the selection "Pick up" (``PickUpItem``). None where there
        is nothing to offer."""
        return context_menu_for(self, self._controller, h, self.begin_drop)

    def set_posture(self, combatant_id: str, posture: Posture) -> None:
        self._controller.execute(posture_command(combatant_id, posture))

    def pick_up(self, combatant_id: str, item_id: str) -> None:
        self._controller.execute(pick_up_command(combatant_id, item_id))

    def combatant_at(self, h: Hex | None) -> Combatant | None:
        """Who a click on ``h`` means (``app.map.tools.combatant_at``)."""
        return combatant_at(self._controller.state, h)

    def leaveEvent(self, event: QEvent) -> None:
        self.set_hover(None)
        super().leaveEvent(event)

    def set_hover(self, h: Hex | None) -> None:
        if h == self._hover:
            return
        old, self._hover = self._hover, h
        self.update_hex(old)
        self.update_hex(h)
        self.hovered_hex_changed.emit(h)

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
                self.set_zoom(self.camera.zoom * (ZOOM_STEP**steps), event.position())
        event.accept()

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.NativeGesture:
            assert isinstance(event, QNativeGestureEvent)
            if event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture:
                self.set_zoom(self.camera.zoom * (1.0 + event.value()), event.position())
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
        if self.tools.drop is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
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
        if self.tools.drop is not None:
            self.cancel_drop()  # then ends a drop pick
            return
        if self.terrain_mode:
            self.set_terrain_mode(False)
            return
        # target first: the controller ignores set_target(None) once nothing is selected
        self._controller.set_target(None)
        self._controller.select(None)

    # --- tooltip (app.map.labels) ------------------------------------------------------------
    def describe_hex(self, h: Hex) -> str:
        """Tooltip text: coordinates, occupant, arc relative to the selection."""
        self._terrain.update(self._controller.state)
        return ml.describe_hex(
            self._controller.state,
            h,
            self._controller.selected_id,
            self._overlay,
            self._controller.ruleset,
        )

    def _show_tooltip(self, event: QHelpEvent) -> None:
        pos = QPointF(event.pos())
        for rect, item in self.item_rects():
            if rect.contains(pos):  # an item's icon: its name (and what it is)
                QToolTip.showText(event.globalPos(), ml.item_tooltip(item), self,
                                  rect.toAlignedRect())  # fmt: skip
                return
        h = self.hex_at(pos)
        if h is None:
            QToolTip.hideText()
            return
        hex_rect = self.camera.screen_rect(mp.hex_polygon(h).boundingRect(), 0)
        QToolTip.showText(event.globalPos(), self.describe_hex(h), self, hex_rect)

    # --- resize --------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._auto_fit == FIT_MAP:
            self.fit_to_window()
        elif self._auto_fit == FIT_BATTLE:
            self.frame_battle()
        else:
            self.camera.keep_map_visible()
