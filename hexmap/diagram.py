"""ASCII pictures of the arcs around a combatant, for docs/arcs.md and its test.

Print the diagrams that docs/arcs.md embeds with
``python -c "from hexmap.diagram import main; main()"``.
"""

from __future__ import annotations

from hexmap.arcs import Handedness, arc_of
from hexmap.coords import Facing, Hex, as_int
from hexmap.errors import HexmapError
from hexmap.shapes import disk

OWN_HEX = "@"


def arc_diagram(
    radius: int, facing: Facing = Facing.N, handedness: Handedness = Handedness.RIGHT
) -> str:
    """Flat-top honeycomb of all hexes within ``radius`` of a combatant, north up.

    Each hex shows its ``Arc.letter`` (F s w S W R) as seen by a combatant in the
    middle facing ``facing``; the combatant's own hex shows ``@``. Lines carry no
    trailing spaces; the text ends with a newline.
    """
    radius = as_int(radius, "radius")
    if radius < 0:
        raise HexmapError(f"radius must be >= 0, got {radius}")
    origin = Hex(0, 0)
    width, height = 8 * radius + 5, 4 * radius + 3
    canvas = [[" "] * width for _ in range(height)]

    def put(row: int, col: int, text: str) -> None:
        for i, ch in enumerate(text):
            canvas[row][col + i] = ch

    for h in disk(origin, radius):
        # Flat-top: a column is 4 characters wide and each step of q drops the hex by
        # half its height (one text row); each step of r drops it by a whole hex.
        col = 4 * (h.q + radius)
        row = h.q + 2 * h.r + 2 * radius
        label = OWN_HEX if h == origin else arc_of(h, origin, facing, handedness).letter
        put(row, col + 1, "___")
        put(row + 1, col, f"/ {label} \\")
        put(row + 2, col, "\\___/")
    return "".join("".join(line).rstrip() + "\n" for line in canvas)


def main() -> None:
    """Print the diagrams embedded in docs/arcs.md."""
    for handedness in Handedness:
        print(f"radius 3, facing N, {handedness.value}-handed:")
        print(arc_diagram(3, Facing.N, handedness))
