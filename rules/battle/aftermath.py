"""What the battle itself does after every command: the fighters the command put
down fall and let go (``rules.battle.falls``), then the battle's outcome is
brought up to date (``rules.battle.decision``).

Both follow from the states before and after the command, roll no die and add
their events to the command's own, so the log, an undo, a redo, a replay and a
saved battle all see them as part of the command (``run_command``: the one way
``rules.battle.battle.Battle`` runs a command).
"""

from __future__ import annotations

from rules.battle.decision import reconcile
from rules.battle.falls import falls_since
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.dice import DiceSource


def run_command(
    command: Command, state: BattleState, dice: DiceSource, ruleset: BattleRuleset
) -> CommandResult:
    """``command`` applied to ``state``, with what follows it (``settle``)."""
    return settle(state, command.apply(state, dice, ruleset), ruleset)


def settle(before: BattleState, result: CommandResult, ruleset: BattleRuleset) -> CommandResult:
    """``result`` of a command run on ``before``, with the falls of the fighters it
    put down and the battle's outcome, and their events after the command's."""
    state, fell = falls_since(before, result.state, ruleset)
    state, decided = reconcile(before, state, ruleset)
    if not (fell or decided):
        return result
    return CommandResult(state, (*result.events, *fell, *decided))
