"""Display text shared by the panes and the main window's terrain brush."""

from __future__ import annotations

from rules.battle.model import Combatant, Status
from rules.battle.sides import SideSetup, side_name
from rules.battle.terrain import TerrainFact, TerrainLabel

# A terrain property's value that a combo offers (the height is a plain number).
TerrainChoice = TerrainFact


def enum_label(value: TerrainChoice, label: TerrainLabel) -> str:
    """The terrain value as ``label`` names it (the battle's ruleset's
    ``terrain_label``), capitalised for a combo entry."""
    text = label(value)
    return text[:1].upper() + text[1:]


def fighter_choice(combatant: Combatant, sides: tuple[SideSetup, ...]) -> str:
    """A fighter as the attack panes' combos offer it: its name, the name its side
    has in this battle, and its status when it is not simply fighting ("Sir
    Aldric – Knights (stunned)")."""
    note = "" if combatant.status is Status.ACTIVE else f" ({combatant.status.value})"
    return f"{combatant.name} – {side_name(sides, combatant.side)}{note}"
