"""When a battle is decided, and the GM's choice to play on.

A battle of two sides or more is decided once every side but one has no fighter
able to act (the ruleset's ``fighter_condition``): that side wins. With no side
left able to act it is a draw. A battle whose fighters all fight for one side (a
GM still setting up) is never decided.

The battle checks this after every command that changed a fighter
(``reconcile``, run by ``rules.battle.aftermath``) and keeps the result in the
state (``BattleState.outcome``), with its event in the command's log: so an undo
takes the decision back, and a redo, a replay and a saved battle make it again.
The window then stops offering the next turn. ``ContinueBattle`` ("Continue
anyway") lets the GM play on; a later command that changes the decision (the
last standing fighter falls too: a draw) decides it anew, and one that leaves
two sides able to act again (a fighter comes to, one joins) lifts it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.model import Side
from rules.battle.outcome import BattleOutcome
from rules.battle.sides import side_name
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.citation import cite
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import Event

END_OF_BATTLE = cite("hexfray", "the end of a battle: one side, or none, left able to act")


def decision(state: BattleState, ruleset: BattleRuleset) -> BattleOutcome | None:
    """The battle's outcome as its fighters stand now (in the state's round), or
    None while two sides still have a fighter able to act, or one side alone is on
    the map."""
    # Sides by identity in a list, not hashed: this runs after every command.
    combatants = state.combatants
    if not combatants or all(c.side is combatants[0].side for c in combatants):
        return None
    able: list[Side] = []
    condition = ruleset.conditions.fighter_condition
    for c in combatants:
        if c.side not in able and condition(c, details=False).able_to_act:
            able.append(c.side)
            if len(able) > 1:
                return None
    return BattleOutcome(winner=able[0] if able else None, round=state.round)


def awaiting_continue(state: BattleState) -> bool:
    """Whether the battle is decided and the GM has not chosen to play on: the
    window offers "Continue anyway" instead of the next turn."""
    return state.outcome is not None and not state.outcome.continued


def _names(state: BattleState, sides: tuple[Side, ...]) -> tuple[str, ...]:
    return tuple(side_name(state.sides, s) for s in sides)


def _sides_on_map(state: BattleState) -> tuple[Side, ...]:
    return tuple(dict.fromkeys(c.side for c in state.combatants))


# --- events ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BattleDecided(Event):
    """The battle is decided: ``winner`` (None: a draw) in ``round``."""

    winner: Side | None
    winner_name: str  # "" for a draw
    loser_names: tuple[str, ...]  # the sides left with nobody able to act
    round: int

    @property
    def headline(self) -> str:
        """What the map's banner says in large type."""
        return "A draw" if self.winner is None else f"Victory to {self.winner_name}"

    @property
    def reason(self) -> str:
        if self.winner is None:
            return "no fighter on any side can still act"
        return f"no fighter of {' or '.join(self.loser_names)} can still act"

    def describe(self) -> str:
        if self.winner is None:
            return f"The battle ends in a draw in round {self.round}: {self.reason}"
        return (
            f"The battle is won in round {self.round}: victory to {self.winner_name}; "
            f"{self.reason}"
        )


@dataclass(frozen=True, kw_only=True)
class BattleUndecided(Event):
    """A decided battle goes on by itself: two sides or more have a fighter able
    to act again (a fighter came to, or joined)."""

    able_names: tuple[str, ...]
    round: int

    def describe(self) -> str:
        able = " and ".join(self.able_names)
        return f"The battle goes on in round {self.round}: {able} each have a fighter able to act"


@dataclass(frozen=True, kw_only=True)
class BattleContinued(Event):
    """The GM plays on after the battle was decided."""

    winner_name: str  # "" for a draw
    round: int  # the round the battle was decided in

    def describe(self) -> str:
        decided = (
            f"victory to {self.winner_name}" if self.winner_name else "a draw"
        ) + f" in round {self.round}"
        return f"The GM plays on after the battle's end ({decided})"


def decided_event(state: BattleState, outcome: BattleOutcome) -> BattleDecided:
    """The log's event for ``outcome`` of ``state``'s battle."""
    losers = tuple(s for s in _sides_on_map(state) if s is not outcome.winner)
    return BattleDecided(
        citation=END_OF_BATTLE,
        winner=outcome.winner,
        winner_name="" if outcome.winner is None else side_name(state.sides, outcome.winner),
        loser_names=_names(state, losers),
        round=outcome.round,
    )


# --- after a command -------------------------------------------------------------------------


def _fighters_changed(before: BattleState, after: BattleState) -> bool:
    """Whether a command changed, brought or took away a fighter (a command passes
    the ones it left alone on as they are)."""
    old, new = before.combatants, after.combatants
    return old is not new and (
        len(old) != len(new) or any(a is not b for a, b in zip(old, new, strict=True))
    )


def reconcile(
    before: BattleState, after: BattleState, ruleset: BattleRuleset
) -> tuple[BattleState, tuple[Event, ...]]:
    """``after`` (the state a command left, from ``before``) with the battle's
    outcome brought up to date, and the event that says so: decided (again, if the
    winner changed), or no longer decided. Nothing when no fighter changed."""
    if not _fighters_changed(before, after):
        return after, ()
    found = decision(after, ruleset)
    held = after.outcome
    if found is None:
        if held is None:
            return after, ()
        able = tuple(
            s
            for s in _sides_on_map(after)
            if any(
                c.side is s and ruleset.conditions.fighter_condition(c, details=False).able_to_act
                for c in after.combatants
            )
        )
        undecided = BattleUndecided(
            citation=END_OF_BATTLE, able_names=_names(after, able), round=after.round
        )
        return replace(after, outcome=None), (undecided,)
    if held is not None and held.winner is found.winner:
        return after, ()
    return replace(after, outcome=found), (decided_event(after, found),)


@dataclass(frozen=True)
class ContinueBattle(Command):
    """"Continue anyway": the GM plays on after the battle was decided. The
    outcome stays in the state, marked as played on, until a fighter's fall or
    return changes it."""

    def apply(self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset) -> CommandResult:
        outcome = state.outcome
        if outcome is None:
            raise IllegalCommandError("the battle is not decided: there is nothing to continue")
        if outcome.continued:
            raise IllegalCommandError("the GM already plays on after the battle's end")
        winner = "" if outcome.winner is None else side_name(state.sides, outcome.winner)
        event = BattleContinued(citation=END_OF_BATTLE, winner_name=winner, round=outcome.round)
        return CommandResult(replace(state, outcome=replace(outcome, continued=True)), (event,))
