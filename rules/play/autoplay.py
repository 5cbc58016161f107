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
from rules.battle.state import BattleState
from rules.battle.turns import StartTurns
from rules.core.dice import RecordingDice
from rules.core.errors import IllegalCommandError
from rules.play.decision_notes import decision_note
from rules.play.policies import Decision, OddsCache, decide
from rules.sets.protocol import Ruleset

__all__ = [
    "DEFAULT_MAX_ROUNDS",
    "AutoPlayReport",
    "AutoPlayer",
    "auto_play",
    "stored_controller",
]

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


def stored_controller(state: BattleState, combatant_id: str) -> PolicyChoice | None:
    """Who plays ``combatant_id`` as the battle stores it: its policy, None for the GM."""
    return state.controller(combatant_id)


class AutoPlayer:
    """The next action of the fighter whose turn it is, when the computer plays it,
    as a ``Decision`` not yet executed: the window runs its commands through its own
    command path, the driver (``auto_play``) through ``Battle.execute``.

    It keeps the odds already weighed and counts the actions of the current turn,
    so that a fighter whose policy keeps finding something to do ends its turn."""

    def __init__(
        self,
        controllers: Mapping[str, PolicyChoice | None] | None = None,
        *,
        default: PolicyChoice | None = None,
    ) -> None:
        """``controllers``: each fighter's policy, None for the GM's; None: the
        battle's own (``state.controller``). A fighter with no policy plays
        ``default`` (None: its turn waits for the GM)."""
        self._controllers = controllers
        self._default = default
        self.cache = OddsCache()
        self._turn_of: tuple[int, str] | None = None
        self._actions_this_turn = 0
        # How long each decision took, in milliseconds.
        self.decision_ms: list[float] = []

    def choice_of(self, state: BattleState, combatant_id: str) -> PolicyChoice | None:
        """The policy that plays ``combatant_id``; None: the GM plays it."""
        if self._controllers is None:
            choice = state.controller(combatant_id)
        else:
            choice = self._controllers.get(combatant_id)
        return choice or self._default

    def waits_for(self, state: BattleState) -> str:
        """Why no computer acts now ("" when one does): the battle is decided, or
        it is a GM's fighter's turn."""
        if state.outcome is not None:
            return "the battle is decided"
        active = state.active_id
        if active is None:
            return ""  # the turns are to be started
        if self.choice_of(state, active) is None:
            return f"{state.combatant(active).name}'s turn, the GM's to play"
        return ""

    def next_decision(self, ruleset: object, state: BattleState) -> Decision | None:
        """The next action, not yet executed: the policy's choice for the fighter
        whose turn it is, ending its turn when it has nothing better to do, or
        starting the turns when they do not run yet. None when the battle is
        decided or the fighter whose turn it is is the GM's (``waits_for`` says which)."""
        if self.waits_for(state):
            return None
        active = state.active_id
        if active is None:
            return Decision(
                "", "Start the turns", (StartTurns(),), False, "Auto-play starts the turns", 0.0
            )
        choice = self.choice_of(state, active)
        assert choice is not None  # waits_for said a computer plays it
        turn = (state.round, active)
        if turn != self._turn_of:
            self._turn_of, self._actions_this_turn = turn, 0
        decision = None
        if self._actions_this_turn < MAX_ACTIONS_PER_TURN:
            started = time.perf_counter()
            decision = decide(_as_ruleset(ruleset), state, active, choice, self.cache)
            self.decision_ms.append((time.perf_counter() - started) * 1000.0)
        self._actions_this_turn += 1
        if decision is None:
            name = state.combatant(active).name
            return Decision(
                active, "End turn", (EndTurn(),), True, f"{name} ({choice.key}) ends the turn", 0.0
            )
        return decision


def auto_play(
    battle: Battle,
    controllers: Mapping[str, PolicyChoice | None] | None = None,
    *,
    default: PolicyChoice | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    on_decision: Callable[[Decision], None] | None = None,
    dice_for: Callable[[], RecordingDice] | None = None,
    cache: OddsCache | None = None,
) -> AutoPlayReport:
    """Play ``battle`` on until it is decided, its round passes ``max_rounds`` or
    a GM's fighter's turn comes. ``controllers``: each fighter's policy, None for
    the GM's; None: the battle's own (``state.controller``). A fighter with no
    policy plays ``default`` (None: auto-play stops at its turn, for the GM).
    ``dice_for``: the dice of each command executed (None: the battle's own, one
    seed per command); a simulated battle's replay draws them from the one stream
    of its seed (``rules.sim``). ``cache``: exact odds to share between battles."""
    report = AutoPlayReport()
    player = AutoPlayer(controllers, default=default)
    if cache is not None:
        player.cache = cache
    report.decision_ms = player.decision_ms
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
        decision = player.next_decision(battle.ruleset_of(state), state)
        if decision is None:
            report.stopped_for = player.waits_for(state)
            break
        active = state.active_id
        if decision.combatant_id:  # not the start of the turns
            report.decisions.append(decision)
            if on_decision is not None:
                on_decision(decision)
        # the reason goes with the first command: a saved battle shows it again
        note = decision_note(decision) if decision.combatant_id else None
        try:
            for index, command in enumerate(decision.commands):
                dice = None if dice_for is None else dice_for()
                battle.execute(command, dice, note=note if index == 0 else None)
        except IllegalCommandError as refusal:
            report.refused.append(f"{decision.label}: {refusal}")
            if battle.state.active_id == active and battle.state.outcome is None:
                battle.execute(EndTurn(), None if dice_for is None else dice_for())
    # The rounds played: the one it was decided in, else the last one played whole.
    outcome = battle.state.outcome
    report.rounds = outcome.round if outcome is not None else min(battle.state.round, max_rounds)
    return report


def _as_ruleset(ruleset: object) -> Ruleset:
    """The battle's ruleset as the protocol the policies read (the registry's are)."""
    return ruleset  # type: ignore[return-value]
