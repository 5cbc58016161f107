"""Colours, pens and text of the map, in one place.

The arc colours carry meaning: green is where a fighter looks, blues are the shield
hand's side (protected), oranges the weapon hand's side, red the unguarded rear.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from hexmap import Arc
from rules.battle.model import Side

# --- the table and the map ---------------------------------------------------------
TABLE = QColor("#3b3833")  # around the map: a dark table top
PARCHMENT = QColor("#efe4c8")
PARCHMENT_DARK = QColor("#dccaa0")
GRID_LINE = QColor(120, 96, 62, 110)
MAP_EDGE = QColor("#6b5536")
INK = QColor("#2c2418")
HALO = QColor(248, 242, 226, 230)

# --- sides ---------------------------------------------------------------------------
# The shipped colours; the GM's own (app.preferences) replace the live ones below.
DEFAULT_SIDE_COLOURS: Mapping[Side, str] = MappingProxyType(
    {
        Side.RED: "#b3362f",
        Side.BLUE: "#2f5fa8",
        Side.GREEN: "#3c8a3f",
        Side.GOLD: "#c49a1c",
    }
)
TOKEN_TEXT_LIGHT = QColor("#ffffff")
TOKEN_TEXT_DARK = QColor("#2c2418")
# A side colour brighter than this (luma, 0..1) gets dark initials on its tokens.
LIGHT_LUMA = 0.55


def token_text_colour(fill: QColor) -> QColor:
    """Initials that read on a token of colour ``fill``: dark on light, white on dark."""
    luma = (0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue()) / 255.0
    return QColor(TOKEN_TEXT_DARK if luma > LIGHT_LUMA else TOKEN_TEXT_LIGHT)


# The live colours: the painters look them up on every drawing, so changing them in
# place (apply_colours) is all a new colour needs, besides dropping cached pixmaps.
SIDE_COLOURS: dict[Side, QColor] = {side: QColor(n) for side, n in DEFAULT_SIDE_COLOURS.items()}
SIDE_TEXT: dict[Side, QColor] = {side: token_text_colour(c) for side, c in SIDE_COLOURS.items()}

# --- tokens --------------------------------------------------------------------------
TOKEN_RIM = QColor("#1e1a14")
FACING_MARK = QColor("#1e1a14")
SHIELD_FILL = QColor("#b8c7d9")
SHIELD_EDGE = QColor("#22344f")
OFF_HAND = QColor(30, 26, 20, 150)
SELECTION_RING = QColor("#ffd23f")
TARGET_RING = QColor("#e0202a")
UNCONSCIOUS = QColor("#8d8a84")
DEAD = QColor("#6e6a64")
DEAD_CROSS = QColor("#2a0a0a")
COMPUTER_BADGE = QColor("#2f4a6d")  # a fighter the computer plays (app.map.painter)

HP_GOOD = QColor("#3fae49")
HP_HURT = QColor("#e3a21a")
HP_BAD = QColor("#d23b2f")
HP_BACK = QColor(30, 26, 20, 170)
HP_GREY = QColor("#a9a59d")


def hp_colour(fraction: float) -> QColor:
    """Green at full health through amber at half to red near zero."""
    f = min(1.0, max(0.0, fraction))
    if f >= 0.5:
        return _mix(HP_HURT, HP_GOOD, (f - 0.5) * 2.0)
    return _mix(HP_BAD, HP_HURT, f * 2.0)


def _mix(a: QColor, b: QColor, t: float) -> QColor:
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


# --- arcs ----------------------------------------------------------------------------
DEFAULT_ARC_COLOURS: Mapping[Arc, str] = MappingProxyType(
    {
        Arc.FRONT: "#3fa044",  # green: where the fighter looks
        Arc.SHIELD_FRONT: "#3d9be9",  # light blue: the shield covers it
        Arc.SHIELD_SIDE: "#1d4fb8",  # deep blue: the shield side
        Arc.WEAPON_FRONT: "#ffa22e",  # light orange: the weapon arm's front
        Arc.WEAPON_SIDE: "#e0600f",  # deep orange: the weapon-arm side
        Arc.REAR: "#d62828",  # red: unguarded
    }
)
ARC_COLOURS: dict[Arc, QColor] = {arc: QColor(n) for arc, n in DEFAULT_ARC_COLOURS.items()}
ARC_ORDER: tuple[Arc, ...] = (
    Arc.FRONT,
    Arc.SHIELD_FRONT,
    Arc.WEAPON_FRONT,
    Arc.SHIELD_SIDE,
    Arc.WEAPON_SIDE,
    Arc.REAR,
)
ARC_LEGEND_TEXT: dict[Arc, str] = {
    Arc.FRONT: "Front",
    Arc.SHIELD_FRONT: "Shield-side front",
    Arc.WEAPON_FRONT: "Weapon-side front",
    Arc.SHIELD_SIDE: "Shield side",
    Arc.WEAPON_SIDE: "Weapon side",
    Arc.REAR: "Rear",
}
# Short words written inside each wedge on the map.
ARC_MAP_TEXT: dict[Arc, str] = {
    Arc.FRONT: "FRONT",
    Arc.SHIELD_FRONT: "SHIELD FRONT",
    Arc.WEAPON_FRONT: "WEAPON FRONT",
    Arc.SHIELD_SIDE: "SHIELD SIDE",
    Arc.WEAPON_SIDE: "WEAPON SIDE",
    Arc.REAR: "REAR",
}
ARC_RADIUS = 4  # hexes around the selection that are tinted
ARC_ALPHA_NEAR = 150  # tint of the adjacent ring ...
ARC_ALPHA_FAR = 55  # ... fading to this at ARC_RADIUS
ARC_BOUNDARY = QColor(44, 36, 24, 200)


_K = TypeVar("_K", Side, Arc)


def apply_colours(sides: Mapping[Side, str], arcs: Mapping[Arc, str]) -> bool:
    """Make the sides' and arcs' colours those named (``"#rrggbb"``; a side or arc
    left out, or named wrongly, keeps its shipped colour). True if any colour
    changed: the caller then drops the pixmaps drawn in the old ones."""
    changed = _replace_colours(SIDE_COLOURS, DEFAULT_SIDE_COLOURS, sides)
    changed = _replace_colours(ARC_COLOURS, DEFAULT_ARC_COLOURS, arcs) or changed
    for side, fill in SIDE_COLOURS.items():
        SIDE_TEXT[side] = token_text_colour(fill)
    return changed


def _replace_colours(
    live: dict[_K, QColor], defaults: Mapping[_K, str], wanted: Mapping[_K, str]
) -> bool:
    changed = False
    for key, default in defaults.items():
        colour = QColor(wanted.get(key, default))
        if not colour.isValid():
            colour = QColor(default)
        if colour != live[key]:
            live[key] = colour
            changed = True
    return changed


def arc_alpha(distance: int) -> int:
    if ARC_RADIUS <= 1:
        return ARC_ALPHA_NEAR
    t = (distance - 1) / (ARC_RADIUS - 1)
    return round(ARC_ALPHA_NEAR + (ARC_ALPHA_FAR - ARC_ALPHA_NEAR) * t)


# --- weapon reach ---------------------------------------------------------------------
@dataclass(frozen=True)
class ReachStyle:
    colour: QColor
    pen_style: Qt.PenStyle
    brush_style: Qt.BrushStyle


REACH_STYLES: tuple[ReachStyle, ...] = (
    ReachStyle(QColor("#6a1b9a"), Qt.PenStyle.SolidLine, Qt.BrushStyle.BDiagPattern),
    ReachStyle(QColor("#00695c"), Qt.PenStyle.DashLine, Qt.BrushStyle.FDiagPattern),
    ReachStyle(QColor("#4e342e"), Qt.PenStyle.DotLine, Qt.BrushStyle.HorPattern),
    ReachStyle(QColor("#ad1457"), Qt.PenStyle.DashDotLine, Qt.BrushStyle.VerPattern),
)


def reach_style(index: int) -> ReachStyle:
    return REACH_STYLES[index % len(REACH_STYLES)]


# --- highlights and drag --------------------------------------------------------------
HIGHLIGHT = QColor("#ffb300")
DROP_OK = QColor(76, 175, 80, 150)
DROP_BAD = QColor(211, 47, 47, 150)
HOVER = QColor(44, 36, 24, 60)

LEGEND_BACK = QColor(250, 245, 232, 235)
LEGEND_EDGE = QColor(107, 85, 54, 200)

# --- the battlefield: terrain, items, paths, postures -----------------------------------
FOOTING = QColor(92, 64, 30, 150)  # stipple of bad footing
COVER = QColor(70, 58, 40, 90)  # hatching of cover
COVER_WALL = QColor(70, 52, 30, 220)  # the little wall marks
CONTOUR = QColor(110, 78, 40, 200)  # height contours
HEIGHT_TEXT = QColor("#4a3620")
PATH_LINE = QColor(30, 26, 20, 200)
PATH_DOT = QColor("#ffd23f")
WEAPON_MARK = QColor("#0b6e79")  # where a weapon is (striking at weapons)
POSTURE_BADGE = QColor(250, 245, 232, 240)
POSTURE_INK = QColor("#1e1a14")
TERRAIN_BRUSH = QColor("#0b6e79")
