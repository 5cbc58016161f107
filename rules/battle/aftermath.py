"""What the battle itself does after every command: the fighters the command put
down fall and let go (``rules.battle.falls``), then the battle's outcome is
brought up to date (``rules.battle.decision``).

Both follow from the states before and after the command, roll no die and add
their events to the command's own, so the log, an undo, a redo, a replay and a
saved battle all see them as part of the command (``run_command``: the one way
``rules.battle.battle.Battle`` runs a command). A command that would leave more
fighters, items or weapons than a battle holds (``rules.battle.limits``) is refused,
so that every battle saved can be opened again.
"""

from __future__ import annotations

from rules.battle.decision import reconcile
from rules.battle.falls import falls_since
from rules.battle.limits import state_count_problem
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError


def run_command(
    command: Command, state: BattleState, dice: DiceSource, ruleset: BattleRuleset
) -> CommandResult:
    """``command`` applied to ``state``, with what follows it (``settle``);
    ``IllegalCommandError`` when it would hold more than a battle may."""
    result = command.apply(state, dice, ruleset)
    problem = state_count_problem(result.state)
    if problem is not None:
        raise IllegalCommandError(problem)
    return settle(state, result, ruleset)


def settle(before: BattleState, result: CommandResult, ruleset: BattleRuleset) -> CommandResult:
    """``result`` of a command run on ``before``, with the falls of the fighters it
    put down and the battle's outcome, and their events after the command's."""
    state, fell = falls_since(before, result.state, ruleset)
    state, decided = reconcile(before, state, ruleset)
    if not (fell or decided):
        return result
    return CommandResult(state, (*result.events, *fell, *decided))
