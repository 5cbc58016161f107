"""Display text shared by the panes and the main window's terrain brush."""

from __future__ import annotations

from rules.battle.condition import FighterCondition
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


def status_word(view: FighterCondition, status: Status) -> str:
    """A fighter's state in a word: how it is down, as its ruleset's condition
    view says ("paralysed", "incapacitated"), else its status ("active",
    "stunned")."""
    return view.down.value if view.down is not None else status.value


def penalty_lines(view: FighterCondition, combatant: Combatant) -> tuple[str, ...]:
    """The penalties in force on the fighter's rolls, one line each, as its
    ruleset's condition view gives them ("-3 to attacks (shock from injury)"); one
    bound to a weapon names it where its reason does not."""
    names = {w.key: w.name for w in combatant.fighter.weapons}
    lines = []
    for p in view.penalties:
        name = names.get(p.weapon_key or "", "")
        lines.append(p.describe("" if name in p.reason else name))
    return tuple(lines)
