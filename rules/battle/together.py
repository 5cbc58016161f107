"""Several commands that the GM made with one gesture, as one command: one line of
the log, one undo, one entry of the battle file (the character editor's Save that
edits the sheet and hands the fighter to the computer is one).

The commands run in order, each on the state the one before left, with the
battle's dice in turn; the events are theirs, one after the other. If one is
refused, nothing of the group happens.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import Event


@dataclass(frozen=True)
class Together(Command):
    """``commands`` as one: run in order, undone as one."""

    commands: tuple[Command, ...]

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        if not self.commands:
            raise IllegalCommandError("a group of commands needs at least one command")
        events: list[Event] = []
        for command in self.commands:
            if isinstance(command, Together):
                raise IllegalCommandError("a group of commands holds no other group")
            result = command.apply(state, rng, ruleset)
            state = result.state
            events.extend(result.events)
        return CommandResult(state, tuple(events))


def together(*commands: Command | None) -> Command | None:
    """The commands given (None: none) as one command: a single one as it is, two
    or more as ``Together``, none as None."""
    present = tuple(c for c in commands if c is not None)
    if not present:
        return None
    return present[0] if len(present) == 1 else Together(present)
