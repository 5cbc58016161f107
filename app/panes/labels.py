"""Display text shared by the panes and the main window's terrain brush."""

from __future__ import annotations

from rules.battle.terrain import Cover, Footing, Light, WaterDepth

# A terrain property's value that a combo offers (the height is a plain number).
TerrainChoice = Light | Footing | WaterDepth | Cover


def enum_label(value: TerrainChoice) -> str:
    """The terrain value's own label, capitalised for a combo entry."""
    return value.label[:1].upper() + value.label[1:]
