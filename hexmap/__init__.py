"""Pure hex-map geometry for Hexfray: coordinates, facings, arcs, reach, lines, layout,
and the one reader of digit text (``digits``) that every layer uses.

No Qt and nothing else of ours; this is the only package that imports ``hexy``.
Everything public is importable from ``hexmap`` directly.
"""

from hexmap.arcs import (
    Arc,
    Handedness,
    arc_direction,
    arc_for_turn,
    arc_of,
    direction_to,
    front_arc_hexes,
    in_front_arc,
    wedges_of,
)
from hexmap.coords import Facing, Hex, hex_at_offset
from hexmap.diagram import arc_diagram
from hexmap.digits import MAX_DIGITS, is_digits, parse_digits, parse_signed_digits
from hexmap.errors import HexmapError
from hexmap.grid import HexGrid
from hexmap.layout import Layout, Orientation
from hexmap.reach import MAX_REACH, Reach, in_reach, reach_hexes, reaches_any, weapon_hexes
from hexmap.shapes import disk, hex_line, ray, ring

__all__ = [
    "MAX_DIGITS",
    "MAX_REACH",
    "Arc",
    "Facing",
    "Handedness",
    "Hex",
    "HexGrid",
    "HexmapError",
    "Layout",
    "Orientation",
    "Reach",
    "arc_diagram",
    "arc_direction",
    "arc_for_turn",
    "arc_of",
    "direction_to",
    "disk",
    "front_arc_hexes",
    "hex_at_offset",
    "hex_line",
    "in_front_arc",
    "in_reach",
    "is_digits",
    "parse_digits",
    "parse_signed_digits",
    "ray",
    "reach_hexes",
    "reaches_any",
    "ring",
    "weapon_hexes",
    "wedges_of",
]
