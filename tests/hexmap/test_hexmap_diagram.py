"""The arc diagram, and that docs/arcs.md shows exactly what the code computes."""

from collections import Counter
from pathlib import Path

import pytest

from hexmap import Arc, Facing, Handedness, Hex, HexmapError, arc_diagram, arc_of, disk

DOC = Path(__file__).resolve().parents[2] / "docs" / "arcs.md"


@pytest.mark.parametrize("handedness", list(Handedness))
def test_docs_contain_the_generated_diagram(handedness: Handedness) -> None:
    text = DOC.read_text(encoding="utf-8")
    assert arc_diagram(3, Facing.N, handedness) in text


def test_small_diagram_by_hand() -> None:
    assert arc_diagram(1, Facing.N, Handedness.RIGHT) == (
        "     ___\n"
        " ___/ F \\___\n"
        "/ s \\___/ w \\\n"
        "\\___/ @ \\___/\n"
        "/ S \\___/ W \\\n"
        "\\___/ R \\___/\n"
        "    \\___/\n"
    )
    assert arc_diagram(0, Facing.N, Handedness.RIGHT) == " ___\n/ @ \\\n\\___/\n"


@pytest.mark.parametrize("facing", list(Facing))
@pytest.mark.parametrize("handedness", list(Handedness))
def test_diagram_letters_agree_with_arc_of(facing: Facing, handedness: Handedness) -> None:
    text = arc_diagram(3, facing, handedness)
    letters = Counter(ch for ch in text if ch.isalpha() or ch == "@")
    origin = Hex(0, 0)
    expected = Counter(arc_of(h, origin, facing, handedness).letter for h in disk(origin, 3)[1:])
    expected["@"] = 1
    assert letters == expected
    assert all(line == line.rstrip() for line in text.splitlines())
    assert {a.letter for a in Arc} <= set(letters)


def test_diagram_rejects_negative_radius() -> None:
    with pytest.raises(HexmapError):
        arc_diagram(-1, Facing.N, Handedness.RIGHT)
