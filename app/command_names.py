"""A command in a GM's words, for the Edit menu's Undo and Redo ("Attack: Spearman →
Fencer", "Move: Fencer"): the kind of command, then the combatants it names, as the
state calls them.

The battle's own commands have a label here; any other command (a ruleset's own, or
one added later) is named from its class ("SetDefendedArea": "Set Defended Area"),
so that every command can be undone under some name.
"""

from __future__ import annotations

import re
from dataclasses import fields

from rules.battle.commands import (
    AddItem,
    ApplyMapEffects,
    Attack,
    DropItem,
    EditCombatant,
    EndTurn,
    MoveCombatant,
    PaintTerrain,
    PickUpItem,
    PlaceItem,
    PutAwayItem,
    ReadyShield,
    ReadyWeapon,
    SetPosture,
    SetRulesetOptions,
    TurnCombatant,
)
from rules.battle.control import SetControllers
from rules.battle.edits import AddSide, ChangeSide, EditFighter, RecolourSide, RenameSide
from rules.battle.side_control import SetSideControllers
from rules.battle.state import BattleState, Command
from rules.battle.together import Together

COMMAND_LABELS: dict[type[Command], str] = {
    MoveCombatant: "Move",
    TurnCombatant: "Turn",
    EndTurn: "End Turn",
    EditCombatant: "Edit",
    Attack: "Attack",
    DropItem: "Drop",
    PickUpItem: "Pick Up",
    PutAwayItem: "Put Away",
    ReadyWeapon: "Ready Weapon",
    ReadyShield: "Ready Shield",
    PlaceItem: "Place Item",
    AddItem: "Add Item",
    PaintTerrain: "Paint Terrain",
    SetPosture: "Set Posture",
    ApplyMapEffects: "Map Effects",
    SetRulesetOptions: "Ruleset Options",
    EditFighter: "Edit Sheet",
    ChangeSide: "Change Side",
    AddSide: "Add Side",
    RenameSide: "Rename Side",
    RecolourSide: "Recolour Side",
    SetControllers: "Played By",
    SetSideControllers: "Side Played By",
}

ACTOR_AND_TARGET = " → "
_WORD_START = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def command_label(command: Command) -> str:
    """The kind of command: its label, or its class name in words."""
    if isinstance(command, Together):  # one gesture: each of its kinds
        return " + ".join(dict.fromkeys(command_label(c) for c in command.commands))
    label = COMMAND_LABELS.get(type(command))
    if label is not None:
        return label
    return _WORD_START.sub(" ", type(command).__name__)


def command_name(command: Command, state: BattleState) -> str:
    """The command with the combatants it names, in the order its fields give them
    (the attacker before the defender): "Attack: Spearman → Fencer"."""
    if isinstance(command, Together):  # the fighters of each of its commands
        named = tuple(
            dict.fromkeys(n for c in command.commands for n in combatant_names(c, state))
        )
        label = command_label(command)
        return f"{label}: {', '.join(named)}" if named else label
    if isinstance(command, SetControllers):  # several fighters, none before another
        named = combatant_names_of(tuple(i for i, _ in command.controllers), state)
        return f"{command_label(command)}: {', '.join(named)}" if named else "Played By"
    names = combatant_names(command, state)
    if isinstance(command, AddItem) and command.name:
        names = (*names, command.name)
    label = command_label(command)
    return f"{label}: {ACTOR_AND_TARGET.join(names)}" if names else label


def combatant_names(command: Command, state: BattleState) -> tuple[str, ...]:
    """The names of the combatants a command's ``..._id`` fields name; an id the
    state does not hold (an item's) is left out."""
    by_id = {c.id: c.name for c in state.combatants}
    found: list[str] = []
    for field in fields(command):
        value = getattr(command, field.name)
        if field.name.endswith("_id") and isinstance(value, str) and value in by_id:
            found.append(by_id[value])
    return tuple(found)


def combatant_names_of(ids: tuple[str, ...], state: BattleState) -> tuple[str, ...]:
    """The names of the combatants ``ids`` names, those the state holds."""
    by_id = {c.id: c.name for c in state.combatants}
    return tuple(by_id[i] for i in ids if i in by_id)
