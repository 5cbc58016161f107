"""Who plays each fighter, set as a command: the GM hands fighters to the computer
and takes them back, and an undo, a saved battle, the autosave and a replay all
see it like a move.

``SetControllers`` sets several fighters at once (a whole side is one command,
one undo). The battle keeps the choices in ``BattleState.controllers``
(``rules.battle.controllers``); the policies that play them are ``rules.play``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.controllers import PolicyChoice
from rules.battle.model import Combatant
from rules.battle.policy_settings import policy_problem, policy_text
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.citation import Citation
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import CombatantEvent

GM_CONTROL = Citation("hexfray", "the GM hands fighters to the computer and takes them back")


@dataclass(frozen=True, kw_only=True)
class ControllerSet(CombatantEvent):
    """``name`` is now played by ``policy`` (None: by the GM)."""

    policy: PolicyChoice | None

    def describe(self) -> str:
        if self.policy is None:
            return f"The GM takes over {self.name}"
        return f"{self.name} is now played by the computer ({policy_text(self.policy)})"


@dataclass(frozen=True)
class SetControllers(Command):
    """Give each fighter named its controller: a ``PolicyChoice`` (the computer
    plays it so) or None (the GM plays it). A fighter already so played is left
    as it is; if none changes, the command does nothing."""

    controllers: tuple[tuple[str, PolicyChoice | None], ...]

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        if not self.controllers:
            raise IllegalCommandError("no fighter is given a controller")
        wanted: dict[str, PolicyChoice | None] = {}
        for combatant_id, choice in self.controllers:
            if combatant_id in wanted:
                raise IllegalCommandError(f"{combatant_id!r} is given two controllers")
            who = state.combatant(combatant_id)
            problem = None if choice is None else policy_problem(choice)
            if problem is not None:
                raise IllegalCommandError(f"{who.name}: {problem}")
            wanted[combatant_id] = choice
        events: list[ControllerSet] = []
        for combatant_id, choice in wanted.items():
            if state.controller(combatant_id) != choice:
                who = state.combatant(combatant_id)
                events.append(
                    ControllerSet(
                        citation=GM_CONTROL, combatant_id=who.id, name=who.name, policy=choice
                    )
                )
        if not events:
            return CommandResult(state, ())
        return CommandResult(with_controllers(state, wanted), tuple(events))


def controller_set(who: Combatant, policy: PolicyChoice | None) -> ControllerSet:
    """The event of ``who`` now played by ``policy`` (None: by the GM)."""
    return ControllerSet(citation=GM_CONTROL, combatant_id=who.id, name=who.name, policy=policy)


def with_controllers(state: BattleState, changes: dict[str, PolicyChoice | None]) -> BattleState:
    """``state`` with the controllers of ``changes`` (None: the GM), kept in the
    order of the combatants so that one set of choices is one state."""
    current: dict[str, PolicyChoice | None] = dict(state.controllers)
    current.update(changes)
    controllers = tuple(
        (c.id, choice) for c in state.combatants if (choice := current.get(c.id)) is not None
    )
    return replace(state, controllers=controllers)
