"""Display text shared by the panes and the main window's terrain brush."""

from __future__ import annotations

from rules.battle.terrain import TerrainFact, TerrainLabel

# A terrain property's value that a combo offers (the height is a plain number).
TerrainChoice = TerrainFact


def enum_label(value: TerrainChoice, label: TerrainLabel) -> str:
    """The terrain value as ``label`` names it (the battle's ruleset's
    ``terrain_label``), capitalised for a combo entry."""
    text = label(value)
    return text[:1].upper() + text[1:]
