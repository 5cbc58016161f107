"""Auto-play: computer fighters play a battle turn by turn until it is decided
(``rules.battle.decision``: one side, or none, left able to act) or a round limit.

Each decision's commands go through ``Battle.execute``: ordinary commands, in the
log, undone one by one, saved and replayed exactly. The policies roll no dice and
the battle's dice come from its seed (``rules.battle.battle.command_rng``), so the
same battle with the same seed plays out the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from rules.battle.battle import Battle
from rules.battle.commands import EndTurn
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Side
from rules.battle.sides import side_name
from rules.battle.turns import StartTurns
from rules.core.errors import IllegalCommandError
from rules.play.policies import AGGRESSIVE, Decision, OddsCache, decide
from rules.sets.protocol import Ruleset

__all__ = ["DEFAULT_MAX_ROUNDS", "AutoPlayReport", "auto_play"]

DEFAULT_MAX_ROUNDS = 50
# Actions of one turn after which the turn is ended whatever the policy wants:
# every action a policy takes leaves it better placed, so this only guards a loop.
MAX_ACTIONS_PER_TURN = 12


@dataclass
class AutoPlayReport:
    """How an auto-play ended: decided (``winner``: None for a draw), or stopped
    at the round limit or at a GM's fighter's turn; the decisions taken, in order,
    and the commands the battle refused (none, when the policies are right)."""

    decided: bool = False
    winner: Side | None = None
    winner_name: str = ""
    rounds: int = 0
    stopped_for: str = ""
    decisions: list[Decision] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    # How long each decision took, in milliseconds (the benchmark's figures).
    decision_ms: list[float] = field(default_factory=list)


def auto_play(
    battle: Battle,
    controllers: Mapping[str, PolicyChoice | None] | None = None,
    *,
    default: PolicyChoice | None = AGGRESSIVE,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    on_decision: Callable[[Decision], None] | None = None,
) -> AutoPlayReport:
    """Play ``battle`` on until it is decided or its round passes ``max_rounds``.
    ``controllers``: each fighter's policy, None for the GM's; a fighter it does
    not name, or names as the GM's, plays ``default`` (None: auto-play stops at
    that fighter's turn, for the GM to take)."""
    controllers = {} if controllers is None else controllers
    report = AutoPlayReport()
    cache = OddsCache()
    if battle.state.outcome is None and not battle.state.turns_running:
        battle.execute(StartTurns())
    actions_this_turn = 0
    turn_of: str | None = None
    while True:
        state = battle.state
        if state.outcome is not None:
            report.decided = True
            report.winner = state.outcome.winner
            if state.outcome.winner is not None:
                report.winner_name = side_name(state.sides, state.outcome.winner)
            break
        if state.round > max_rounds:
            report.stopped_for = f"the round limit ({max_rounds})"
            break
        active = state.active_id
        assert active is not None  # the turns run
        if active != turn_of:
            turn_of, actions_this_turn = active, 0
        choice = controllers.get(active) or default
        if choice is None:
            report.stopped_for = f"{state.combatant(active).name}'s turn, the GM's to play"
            break
        ruleset = battle.ruleset_of(state)
        decision = None
        if actions_this_turn < MAX_ACTIONS_PER_TURN:
            started = time.perf_counter()
            decision = decide(_as_ruleset(ruleset), state, active, choice, cache)
            report.decision_ms.append((time.perf_counter() - started) * 1000.0)
        if decision is None:
            battle.execute(EndTurn())
            continue
        report.decisions.append(decision)
        if on_decision is not None:
            on_decision(decision)
        actions_this_turn += 1
        try:
            for command in decision.commands:
                battle.execute(command)
        except IllegalCommandError as refusal:
            report.refused.append(f"{decision.label}: {refusal}")
            if battle.state.active_id == active and battle.state.outcome is None:
                battle.execute(EndTurn())
    # The rounds played: the one it was decided in, else the last one played whole.
    outcome = battle.state.outcome
    report.rounds = outcome.round if outcome is not None else min(battle.state.round, max_rounds)
    return report


def _as_ruleset(ruleset: object) -> Ruleset:
    """The battle's ruleset as the protocol the policies read (the registry's are)."""
    return ruleset  # type: ignore[return-value]
