"""What the pointer does on the map: select, move (click or drag a token), pan
(drag empty map), target (right-click: nothing opens), paint terrain strokes and
pick the hex of a deliberate drop; and the rules commands these tools send through
the controller."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QApplication

from app import icons
from app.map import painter as mp
from app.map.animation import Flight
from app.map.drops import DropPick, make_drop_pick
from hexmap import Hex
from rules.battle.battle import weapon_positions
from rules.battle.commands import (
    DropItem,
    MoveCombatant,
    PaintTerrain,
    PickUpItem,
    PutAwayItem,
    ReadyWeapon,
    SetPosture,
)
from rules.battle.items import GroundItem
from rules.battle.model import Combatant, Posture
from rules.battle.scatter import PieceLanded
from rules.battle.state import BattleState, Command
from rules.battle.terrain import TerrainChange
from rules.core.events import Event

if TYPE_CHECKING:
    from app.map.view import MapView


def combatant_at(state: BattleState, h: Hex | None) -> Combatant | None:
    """Who a click on ``h`` means: the one standing there, else the last fallen."""
    if h is None:
        return None
    standing = state.occupant(h)
    if standing is not None:
        return standing
    fallen = [c for c in state.combatants if c.hex == h]
    return fallen[-1] if fallen else None


class MapTools:
    """The pointer's state between press and release, the terrain brush and its
    stroke, and the drop waiting for its hex, for one ``MapView``."""

    def __init__(self, view: MapView) -> None:
        self._view = view
        # terrain painting: the brush and the hexes of this stroke
        self.brush: TerrainChange | None = None
        self.stroke: list[Hex] = []
        # a deliberate drop waiting for its hex (DropItem)
        self.drop: DropPick | None = None
        # mouse state
        self.press_pos: QPointF | None = None
        self.press_button = Qt.MouseButton.NoButton
        self.press_token: str | None = None
        self.dragging_token = False
        self.panning = False
        self.last_pos = QPointF()
        self.drag_pos = QPointF()

    def forget_press(self) -> None:
        """The press that opened a menu or ended a pick gets no release."""
        self.press_pos = None
        self.press_button = Qt.MouseButton.NoButton

    # --- the pointer ------------------------------------------------------------------
    def press(self, pos: QPointF, button: Qt.MouseButton) -> None:
        view = self._view
        self.press_pos = pos
        self.last_pos = pos
        self.press_button = button
        self.press_token = None
        if button == Qt.MouseButton.LeftButton and view.terrain_mode:
            self.stroke = []
            self.stroke_add(view.hex_at(pos))
            return
        if button == Qt.MouseButton.LeftButton:
            c = combatant_at(view.controller.state, view.hex_at(pos))
            # while a drop waits for its hex, a click on a token picks that hex
            self.press_token = c.id if c is not None and self.drop is None else None
        elif button == Qt.MouseButton.MiddleButton:
            self.panning = True
            view.setCursor(Qt.CursorShape.ClosedHandCursor)

    def move(self, pos: QPointF) -> None:
        view = self._view
        view.set_hover(view.hex_at(pos))
        if self.press_pos is None:
            return
        if view.terrain_mode and self.press_button == Qt.MouseButton.LeftButton:
            self.stroke_add(view.hex_at(pos))
            return
        moved = (pos - self.press_pos).manhattanLength() >= QApplication.startDragDistance()
        if self.press_button == Qt.MouseButton.LeftButton and not (
            self.panning or self.dragging_token
        ) and moved:
            if self.press_token is not None:
                self.dragging_token = True
            else:
                self.panning = True
            view.setCursor(Qt.CursorShape.ClosedHandCursor)
        if self.panning:
            delta = pos - self.last_pos
            self.last_pos = pos
            view.pan_by(delta.x(), delta.y())
        elif self.dragging_token:
            old = self.drag_pos
            self.drag_pos = pos
            half = mp.token_extent(view.camera.hex_pixels) + 4
            for at in (old, pos):
                view.update(
                    QRectF(at.x() - half, at.y() - half, 2 * half, 2 * half).toAlignedRect()
                )
            view.update_hex(view.hex_at(old))
            view.update_hex(view.hex_at(pos))

    def release(self, pos: QPointF, button: Qt.MouseButton) -> None:
        view = self._view
        if button != self.press_button:
            return
        if view.terrain_mode and button == Qt.MouseButton.LeftButton:
            self.forget_press()
            self.stroke_add(view.hex_at(pos))
            self.finish_stroke()  # one command per stroke
            return
        was_panning, was_dragging = self.panning, self.dragging_token
        token = self.press_token
        self.forget_press()
        self.panning = False
        self.dragging_token = False
        view.unsetCursor()
        if was_dragging and token is not None:
            view.update()
            destination = view.hex_at(pos)
            if destination is not None:
                view.controller.select(token)
                c = view.controller.state.combatant(token)
                if destination != c.hex:
                    view.controller.execute(MoveCombatant(token, destination))
            return
        if was_panning:
            return
        if button == Qt.MouseButton.LeftButton:
            self.click(pos)
        elif button == Qt.MouseButton.RightButton and not (
            QApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier
        ):  # Shift+right-click opens the hex's menu and targets nobody
            self.right_click(pos)

    def click(self, pos: QPointF) -> None:
        view = self._view
        if view.legend_rect().contains(pos):
            # a click on the legend folds or opens it, and is not a click on the hex under it
            view.set_legend_folded(not view.legend_folded)
            return
        h = view.hex_at(pos)
        if h is None:
            return
        if self.drop is not None:
            self.drop_at(h)  # a hex that is not highlighted leaves the pick open
            return
        view.hex_clicked.emit(h)
        controller = view.controller
        c = combatant_at(controller.state, h)
        if c is not None:
            controller.select(c.id)
        elif controller.selected_id is not None:
            controller.move_selected(h)

    def right_click(self, pos: QPointF) -> None:
        """Right-click: a token becomes the attack target; empty map clears it."""
        view = self._view
        c = combatant_at(view.controller.state, view.hex_at(pos))
        if c is None:
            view.controller.set_target(None)
        elif c.id != view.controller.selected_id:
            view.controller.set_target(c.id)

    # --- terrain strokes --------------------------------------------------------------
    def stroke_add(self, h: Hex | None) -> None:
        if h is not None and h not in self.stroke:
            self.stroke.append(h)
            self._view.update_hex(h)

    def finish_stroke(self) -> None:
        hexes, self.stroke = tuple(self.stroke), []
        if not hexes:
            return
        command = paint_command(hexes, self.brush)
        if command is not None:
            self._view.controller.execute(command)
        self._view.update()

    # --- deliberate drops: the GM picks the hex -----------------------------------------
    def begin_drop(self, combatant_id: str, key: str) -> bool:
        view = self._view
        if view.terrain_mode:
            view.set_terrain_mode(False)
        pick = make_drop_pick(view.controller.state, combatant_id, key)
        if pick is None:
            return False
        self.drop = pick
        view.setFocus()
        view.drop_prompt_changed.emit(
            f"Drop {pick.item_name}: click a highlighted hex (Enter: {pick.who}'s own hex, "
            "Esc: cancel)"
        )
        view.update()
        return True

    def cancel_drop(self) -> None:
        if self.drop is not None:
            self.drop = None
            self._view.drop_prompt_changed.emit("")
            self._view.update()

    def drop_at(self, h: Hex | None) -> bool:
        pick = self.drop
        if pick is None:
            return False
        where = pick.candidates[0] if h is None else h
        if where not in pick.candidates:
            return False
        self.cancel_drop()
        self._view.controller.execute(DropItem(pick.combatant_id, pick.key, to_hex=where))
        return True

    def refresh_drop(self) -> None:
        """After a change: the pending drop follows its combatant, or ends when the
        item is no longer in hand."""
        pick = self.drop
        if pick is None:
            return
        fresh = make_drop_pick(self._view.controller.state, pick.combatant_id, pick.key)
        if fresh is None:
            self.cancel_drop()
        else:
            self.drop = fresh


# --- the rules commands and records the map uses ----------------------------------------
def posture_choices() -> tuple[Posture, ...]:
    return tuple(Posture)


def posture_label(posture: Posture) -> str:
    text = posture.value.replace("_", " ")
    return text[:1].upper() + text[1:]


def posture_command(combatant_id: str, posture: Posture) -> Command:
    return SetPosture(combatant_id, posture)


def pick_up_command(combatant_id: str, item_id: str) -> Command:
    return PickUpItem(combatant_id, item_id)


def ready_choices(c: Combatant) -> list[tuple[str, str]]:
    """(key, name) of what ``c`` holds but must ready before using it (a ``ReadyWeapon``
    each): weapons unready after a swing or a parry, a shield whose grip a fumbled
    block lost or a heavy shield unready after blocking."""
    out = [(w.key, w.name) for w in c.fighter.weapons if w.key in c.unready]
    shield = c.fighter.shield
    if shield is not None and (
        shield.key in c.unready or not c.shield_ready or c.heavy_shield_unready
    ):
        out.append((shield.key, shield.name))
    return out


def ready_command(combatant_id: str, key: str) -> Command:
    """Ready an unready weapon or the shield, or draw a carried weapon."""
    return ReadyWeapon(combatant_id, key)


def put_away_command(combatant_id: str, key: str) -> Command:
    return PutAwayItem(combatant_id, key)


def paint_command(hexes: tuple[Hex, ...], brush: TerrainChange | None) -> Command | None:
    """One ``PaintTerrain`` command for a stroke (None without a brush)."""
    if brush is None:
        return None
    return PaintTerrain(hexes, brush)


def weapon_positions_of(c: Combatant) -> dict[str, tuple[Hex, ...]]:
    """Where each weapon of ``c`` is (``rules.battle.battle.weapon_positions``)."""
    return weapon_positions(c)


def flights_of(events: Iterable[Event], items: Iterable[GroundItem]) -> list[Flight]:
    """Animations for the pieces a command sent flying or falling: every
    ``PieceLanded`` whose landing has a traced path."""
    by_id = {i.id: i for i in items}
    flights: list[Flight] = []
    for event in events:
        if not isinstance(event, PieceLanded):
            continue
        landing = event.landing
        path = tuple(landing.path)
        if not path:
            continue
        iid = event.item_id
        item = by_id.get(iid)
        name = item.name if item is not None else landing.piece_name
        key = icons.icon_key_for(item.icon if item is not None else None, name)
        flights.append(Flight(key, name, path, iid))
    return flights
