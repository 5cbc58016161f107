"""Words on the map: the target callout, weapon and arc names laid out so that no
label hides a token or another label, and the hex tooltip's text."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QPainter

from app import theme
from app.map import painter as mp
from app.map.camera import Camera
from hexmap import Hex, arc_of
from rules.battle.items import GroundItem
from rules.battle.sides import side_name
from rules.battle.state import BattleState
from rules.battle.values import hex_name
from rules.sets.protocol import Ruleset

LABELS_MIN_PIXELS = 16.0  # hexes smaller than this on screen get no labels
TOKEN_DISC = 0.62  # a token's disc, half its side in hex radii: what labels keep clear of
# The target callout's ways out from the target, turned from straight away from the
# attacker: nearest first, each side in turn.
CALLOUT_TURNS = (
    0.0,
    *(math.radians(sign * degrees) for degrees in range(30, 180, 30) for sign in (1, -1)),
    math.pi,
)


@dataclass(frozen=True)
class Label:
    text: str
    rect: QRectF
    pixel_size: int
    bold: bool
    fg: QColor
    bg: QColor
    edge: QColor | None
    on_top: bool = False  # drawn over the tokens (the target callout)


def layout_labels(
    camera: Camera,
    state: BattleState,
    overlay: mp.Overlay | None,
    target_id: str | None,
    texts: mp.TextCache,
) -> list[Label]:
    """Target callout, weapon names and arc names, in drawing order. A label
    goes where it covers no token and no label placed before it; arc names that
    find no such place are left out (the legend still names every colour)."""
    labels: list[Label] = []
    if overlay is None or camera.hex_pixels < LABELS_MIN_PIXELS:
        return labels
    obstacles = token_rects(camera, state)
    taken = {c.hex for c in state.combatants}
    target = target_labels(camera, state, overlay, target_id, texts)
    labels += target
    obstacles += [label.rect for label in target]

    def free(rect: QRectF) -> bool:
        return not any(rect.intersects(o) for o in obstacles)

    bg = QColor(theme.HALO)
    bg.setAlpha(215)
    for area in overlay.reach:
        style = theme.reach_style(area.index)
        text = area.name + (" – unready" if area.unready else "")
        placed: Label | None = None
        for h in label_hexes(area, overlay, taken):
            rect = mp.pill_rect(texts, text, camera.hex_center(h), pixel_size=10, bold=True)
            placed = Label(text, rect, 10, True, style.colour, bg, style.colour)
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
            rect = mp.pill_rect(texts, text, camera.hex_center(h), pixel_size=10, bold=True)
            if free(rect):
                labels.append(
                    Label(text, rect, 10, True, theme.ARC_COLOURS[arc].darker(175), bg, None)
                )
                obstacles.append(rect)
                break
    return labels


def token_rects(camera: Camera, state: BattleState) -> list[QRectF]:
    """On screen, the disc of every token: what a label must not cover."""
    half = TOKEN_DISC * camera.hex_pixels
    rects = []
    for c in state.combatants:
        centre = camera.hex_center(c.hex)
        rects.append(QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half))
    return rects


def target_labels(
    camera: Camera,
    state: BattleState,
    overlay: mp.Overlay,
    target_id: str | None,
    texts: mp.TextCache,
) -> list[Label]:
    """Beside the target: who it is, where it stands in the attacker's arcs and
    from which of its own arcs it is attacked. The callout goes beyond the target,
    away from the attacker, unless it would cover a token there: then the nearest
    turn from that way (30 degrees at a time, close to the target, then further
    out) where it covers none and stays in view; failing that, where it covers no
    token; failing that too, straight beyond."""
    if target_id is None:
        return []
    a = state.combatant(overlay.combatant_id)
    t = state.combatant(target_id)
    start, end = camera.hex_center(a.hex), camera.hex_center(t.hex)
    dist = math.hypot(end.x() - start.x(), end.y() - start.y())
    ux, uy = ((end.x() - start.x()) / dist, (end.y() - start.y()) / dist) if dist else (0, 1)
    in_arc = arc_of(t.hex, a.hex, a.facing, a.handedness)
    from_arc = arc_of(a.hex, t.hex, t.facing, t.handedness)
    lines: list[tuple[str, int, bool, QColor, QColor, QColor | None]] = [
        (f"Target: {t.name}", 11, True, QColor("#ffffff"), QColor(168, 24, 32, 230), None),
        (f"in {a.name}'s {in_arc.label.lower()}", 10, False, theme.INK, theme.HALO,
         theme.ARC_COLOURS[in_arc].darker(130)),
        (f"attacked from its {from_arc.label.lower()}", 10, False, theme.INK, theme.HALO,
         theme.ARC_COLOURS[from_arc].darker(130)),
    ]  # fmt: skip
    sizes = [
        mp.pill_rect(texts, text, QPointF(), pixel_size=px, bold=b) for text, px, b, *_ in lines
    ]
    step = 17.0
    width = max(r.width() for r in sizes)
    height = step * (len(lines) - 1) + sizes[0].height()
    gap = 0.72 * camera.hex_pixels + 4

    def callout(dx: float, dy: float, distance: float) -> list[Label]:
        # the box's centre: out from the target until the box clears the token
        cx = end.x() + dx * (distance + width / 2 * abs(dx))
        cy = end.y() + dy * (distance + height / 2 * abs(dy))
        top = cy - height / 2 + sizes[0].height() / 2
        placed = []
        for i, (text, px, b, fg, bgc, edge) in enumerate(lines):
            rect = mp.pill_rect(texts, text, QPointF(cx, top + i * step), pixel_size=px, bold=b)
            placed.append(Label(text, rect, px, b, fg, bgc, edge, on_top=True))
        return placed

    tokens = token_rects(camera, state)
    view = QRectF(0, 0, camera.width, camera.height)
    away = math.atan2(uy, ux)
    candidates = [
        callout(math.cos(away + turn), math.sin(away + turn), gap * farther)
        for farther in (1.0, 2.0)
        for turn in CALLOUT_TURNS
    ]
    clear = [c for c in candidates if not any(_box(c).intersects(t) for t in tokens)]
    shown = [c for c in clear if view.contains(_box(c))]
    return (shown or clear or candidates)[0]


def _box(labels: list[Label]) -> QRectF:
    box = QRectF(labels[0].rect)
    for label in labels[1:]:
        box = box.united(label.rect)
    return box


def paint_labels(p: QPainter, texts: mp.TextCache, labels: list[Label], on_top: bool) -> None:
    for label in labels:
        if label.on_top is on_top:
            mp.draw_pill(
                p, texts, label.text, label.rect.center(), pixel_size=label.pixel_size,
                bold=label.bold, fg=label.fg, bg=label.bg, edge=label.edge,
            )  # fmt: skip


def label_hexes(area: mp.ReachArea, overlay: mp.Overlay, taken: set[Hex]) -> list[Hex]:
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


# --- tooltips ------------------------------------------------------------------------
def describe_hex(
    state: BattleState,
    h: Hex,
    selected_id: str | None,
    overlay: mp.Overlay | None,
    ruleset: Ruleset,
) -> str:
    """Tooltip text: coordinates, occupant (its health in the ruleset's terms),
    terrain (each fact named by the ruleset's ``terrain_label``), items, arc
    relative to the selection and the weapons that reach the hex."""
    lines = [hex_name(h).capitalize()]
    for c in state.combatants:
        if c.hex == h:
            hand = c.fighter.handedness.value
            health = f"{ruleset.conditions.health_heading}: {ruleset.conditions.health(c).text}"
            lines.append(
                f"{c.name} — {side_name(state.sides, c.side)}, {health}, "
                f"{c.status.value}, facing {c.facing.label}, {hand}-handed"
            )
    terrain = state.terrain.at(h)
    if not mp.terrain_look(terrain).plain:
        lines.append("Terrain: " + terrain.describe(ruleset.battlefield.terrain_label))
    items = state.items_at(h)
    if items:
        lines.append("On the ground: " + ", ".join(i.name for i in items))
    if selected_id is not None:
        sel = state.combatant(selected_id)
        if h != sel.hex:
            arc = arc_of(h, sel.hex, sel.facing, sel.handedness)
            d = h.distance(sel.hex)
            lines.append(f"{arc.label} of {sel.name}, {d} hex{'' if d == 1 else 'es'} away")
            reach = overlay.reach if overlay is not None else []
            names = [a.name for a in reach if h in a.hexes]
            if names:
                lines.append("In reach of: " + ", ".join(names))
            ranges = overlay.ranges if overlay is not None else []
            ranged = [f"{a.name} ({a.mode})" for a in ranges if h in a.hexes]
            if ranged:
                lines.append("In range of: " + ", ".join(ranged))
    return "\n".join(lines)


def item_tooltip(item: GroundItem) -> str:
    """An item icon's tooltip: its name, and what it is if the rules noted it."""
    return item.name + (f" — {item.note}" if item.note else "")
