"""Colours, pens and text of the map, in one place.

The arc colours carry meaning: green is where a fighter looks, blues are the shield
hand's side (protected), oranges the weapon hand's side, red the unguarded rear.
"""

from __future__ import annotations

from dataclasses import dataclass

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
SIDE_COLOURS: dict[Side, QColor] = {
    Side.RED: QColor("#b3362f"),
    Side.BLUE: QColor("#2f5fa8"),
    Side.GREEN: QColor("#3c8a3f"),
    Side.GOLD: QColor("#c49a1c"),
}
SIDE_TEXT: dict[Side, QColor] = {
    Side.RED: QColor("#ffffff"),
    Side.BLUE: QColor("#ffffff"),
    Side.GREEN: QColor("#ffffff"),
    Side.GOLD: QColor("#2c2418"),
}

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
ARC_COLOURS: dict[Arc, QColor] = {
    Arc.FRONT: QColor("#3fa044"),  # green: where the fighter looks
    Arc.SHIELD_FRONT: QColor("#3d9be9"),  # light blue: the shield covers it
    Arc.SHIELD_SIDE: QColor("#1d4fb8"),  # deep blue: the shield side
    Arc.WEAPON_FRONT: QColor("#ffa22e"),  # light orange: the weapon arm's front
    Arc.WEAPON_SIDE: QColor("#e0600f"),  # deep orange: the weapon-arm side
    Arc.REAR: QColor("#d62828"),  # red: unguarded
}
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
