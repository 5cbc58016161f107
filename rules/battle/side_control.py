"""Who plays a side as a side: the computer (a policy) or the GM, so that a fighter
who joins the side later is played as its side is (issue 25).

New Battle's "computer plays this side", Battle ▸ Sides… and the token's "Whole
side" menu set it with ``SetSideControllers``, together with the hand-over of the
side's fighters already on the map (``SetControllers``): one command
(``hand_side_over``), one undo. ``AddCombatant`` gives a newcomer its side's
controller (``side_choice_for``). The battle keeps the choices in
``BattleState.side_controllers``; saved, undone and replayed like any command.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.control import GM_CONTROL, SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Side
from rules.battle.policy_settings import policy_problem, policy_text
from rules.battle.sides import side_name
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.battle.together import together
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import Event


@dataclass(frozen=True, kw_only=True)
class SideControllerSet(Event):
    """Side ``name`` is now played by ``policy`` (None: by the GM)."""

    side: Side
    name: str
    policy: PolicyChoice | None

    def describe(self) -> str:
        if self.policy is None:
            return f"The GM plays {self.name}, and every fighter who joins it"
        return (
            f"{self.name} is played by the computer ({policy_text(self.policy)}), "
            "and every fighter who joins it"
        )


@dataclass(frozen=True)
class SetSideControllers(Command):
    """Give each side named its controller: a ``PolicyChoice`` or None (the GM).
    It changes only who plays the fighters who join the side from now on; a side
    already so played is left as it is."""

    sides: tuple[tuple[Side, PolicyChoice | None], ...]

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        if not self.sides:
            raise IllegalCommandError("no side is given a controller")
        wanted: dict[Side, PolicyChoice | None] = {}
        for side, choice in self.sides:
            if side in wanted:
                raise IllegalCommandError(f"side {side.value} is given two controllers")
            problem = None if choice is None else policy_problem(choice)
            if problem is not None:
                raise IllegalCommandError(f"{side_name(state.sides, side)}: {problem}")
            wanted[side] = choice
        events = tuple(
            SideControllerSet(
                citation=GM_CONTROL, side=side, name=side_name(state.sides, side), policy=choice
            )
            for side, choice in wanted.items()
            if state.side_controller(side) != choice
        )
        if not events:
            return CommandResult(state, ())
        current = {**dict(state.side_controllers), **wanted}
        kept = tuple((s, c) for s in Side if (c := current.get(s)) is not None)
        return CommandResult(replace(state, side_controllers=kept), events)


def keeping_settings(current: PolicyChoice | None, key: str) -> PolicyChoice:
    """The policy ``key`` with the settings ``current`` had (whom it picks, when it
    retreats)."""
    return PolicyChoice(key) if current is None else replace(current, key=key)


def hand_side_over(state: BattleState, side: Side, key: str | None) -> Command | None:
    """``side`` to the policy ``key`` (None: to the GM), its fighters on the map and
    those who join it later, as one command; None when nothing would change. Each
    fighter keeps the settings it had."""
    side_choice = None if key is None else keeping_settings(state.side_controller(side), key)
    members = tuple(c.id for c in state.combatants if c.side is side)
    handed = tuple(
        (i, None if key is None else keeping_settings(state.controller(i), key)) for i in members
    )
    changed = tuple((i, choice) for i, choice in handed if state.controller(i) != choice)
    return together(
        SetSideControllers(((side, side_choice),))
        if state.side_controller(side) != side_choice
        else None,
        SetControllers(handed) if changed else None,
    )
