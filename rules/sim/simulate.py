"""The simulation path: one battle played by the computer on the same rules as the
GM's path, without what only the GM's path needs.

What it keeps: every command runs the rules it runs in a ``Battle`` (a command's
own ``apply`` and ``settle``, the falls and the decision); an attack runs the
ruleset's own ``plan``, ``decide`` and ``apply`` steps (``rules.battle.attack_steps``)
and the battle's placing of what left a hand. So a simulated battle ends as the
same battle played through ``Battle`` on the same dice, by construction.

What it leaves out: the log, its checkpoints and each command's recorded faces;
an attack's ``describe`` (its events); a new generator seeded from text for every
command. The dice of a simulated battle are one stream (``battle_dice``) seeded
once; the replay (``replay_battle``) draws each command's dice from the same
stream through ``Battle.execute``, so the replayed battle has its full log and
saves and reopens like any other.

The computer's decisions are ``rules.play.autoplay.AutoPlayer``'s, and their exact
odds come from one cache per process (``SIM_ODDS``): the same attack in the same
situation is weighed once, whichever battle meets it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, cast

from rules.battle.aftermath import run_command, settle
from rules.battle.attack_outcome import AttackOutcome
from rules.battle.attack_steps import AttackSteps, own_answer, planned
from rules.battle.battle import Battle, place_launched_pieces
from rules.battle.commands import Attack, EndTurn
from rules.battle.limits import state_count_problem
from rules.battle.pieces import PlacementKind
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.battle.turns import attack_problems, overrule
from rules.core.dice import RecordingDice, SeededDice
from rules.core.errors import IllegalCommandError
from rules.play.autoplay import AutoPlayer, AutoPlayReport, auto_play
from rules.play.policies import AGGRESSIVE, Decision, OddsCache
from rules.sets.registry import get_ruleset

__all__ = [
    "NO_LOCATION",
    "SIM_ODDS",
    "PlanMemo",
    "Player",
    "SimResult",
    "SimTally",
    "StreamDice",
    "battle_dice",
    "replay_battle",
    "replay_decisions",
    "resolve_attack",
    "simulate",
    "steps_of",
]

# The exact odds the computer's decisions weigh, kept across the battles a process
# plays: a run meets the same attacks in the same situations again and again.
SIM_ODDS = OddsCache(size=8192)

# The injury of a blow that struck no location (a ruleset, or an option of it,
# without hit locations), as ``BattleRecord.injury_by_location`` labels it.
NO_LOCATION = "no location"

# How a piece that left a hand went, as the statistics count it.
_DROPPED = frozenset(
    {
        PlacementKind.AT_FEET,
        PlacementKind.DROPPED_IN_HEX,
        PlacementKind.DROPPED_NEARBY,
        PlacementKind.ADJACENT_OR_FEET,
    }
)
_KNOCKED_AWAY = frozenset(
    {PlacementKind.KNOCKED_AWAY, PlacementKind.ONE_HEX_RANDOM, PlacementKind.FLIES}
)


class StreamDice(SeededDice):
    """One command's dice drawn from a battle's one generator (``battle_dice``):
    its own record of faces, the generator's draws shared with every command
    before and after it."""

    def __init__(self, generator: random.Random) -> None:
        RecordingDice.__init__(self)
        self._random = generator


def battle_dice(seed: int) -> random.Random:
    """The one generator of a simulated battle of ``seed``."""
    return random.Random(seed)


@dataclass
class SimTally:
    """What a simulated battle's attacks did, counted as they happen: injury at each
    hit location (by its key, in the order first struck; ``NO_LOCATION`` for a
    blow that struck none), the weapons and shields
    dropped, broken and knocked away, and how far each knocked-away or flying piece
    landed from where it started, in hexes."""

    injury_by_location: dict[str, int] = field(default_factory=dict)
    dropped: int = 0
    broken: int = 0
    knocked_away: int = 0
    scatter: list[int] = field(default_factory=list)

    def count(self, outcome: AttackOutcome[Any], before: BattleState, after: BattleState) -> None:
        if outcome.injury:
            spot = NO_LOCATION if outcome.location is None else outcome.location
            self.injury_by_location[spot] = self.injury_by_location.get(spot, 0) + outcome.injury
        self.broken += len(outcome.broken)
        if not outcome.pieces:
            return
        # The items the placing put down, in order; one per piece that left a hand
        # for the ground (a piece in a hand stays there).
        new_items = after.items[len(before.items) :] if len(after.items) > len(before.items) else ()
        landed = iter(new_items)
        for launch in outcome.pieces:
            kind = launch.piece.placement.kind
            if kind is PlacementKind.IN_HAND:
                continue
            item = next(landed, None)
            if kind in _DROPPED:
                self.dropped += 1
            elif kind in _KNOCKED_AWAY:
                self.knocked_away += 1
                if item is not None:
                    start = launch.start or before.combatant(launch.origin_id).hex
                    self.scatter.append(start.distance(item.hex))


@dataclass
class SimResult:
    """How a simulated battle ended: its last state, the auto-play's report (the
    decisions only when kept: every one, the start of the turns included), and its
    tally."""

    state: BattleState
    report: AutoPlayReport
    tally: SimTally


def steps_of(ruleset: BattleRuleset) -> AttackSteps[Any, Any, Any, Any] | None:
    """The ruleset's attack in four steps, when its attack role runs on them."""
    steps = getattr(ruleset.attacks, "steps", None)
    if steps is None or not hasattr(steps, "decide"):
        return None
    return cast("AttackSteps[Any, Any, Any, Any]", steps)


class PlanMemo:
    """Plans kept by the state they were made on (the very object), the pairing and
    the choices: a set-up resolved again and again is planned once. Bounded: the
    oldest half goes when it is full."""

    def __init__(self, size: int = 65536) -> None:
        self._size = size
        self._plans: dict[tuple[int, str, str, object], tuple[BattleState, object]] = {}

    def plan(
        self,
        steps: AttackSteps[Any, Any, Any, Any],
        state: BattleState,
        attacker_id: str,
        defender_id: str,
        choices: object,
    ) -> object:
        key = (id(state), attacker_id, defender_id, choices)
        found = self._plans.get(key)
        if found is not None and found[0] is state:
            return found[1]
        plan = planned(steps, state, attacker_id, defender_id, cast("Any", choices))
        if len(self._plans) >= self._size:
            for old in list(self._plans)[: self._size // 2]:
                del self._plans[old]
        self._plans[key] = (state, plan)  # the state held: no other takes its id
        return plan


def resolve_attack(
    command: Attack,
    state: BattleState,
    dice: SeededDice,
    ruleset: BattleRuleset,
    tally: SimTally | None = None,
    plans: PlanMemo | None = None,
) -> BattleState:
    """``command`` on ``state`` as ``Battle.execute`` runs it (``Attack.apply``, then
    ``settle``), without its events: the ruleset's plan (made once per state and
    choices, ``planned``), its answer, ``decide`` and ``apply``, the count of the
    attack against the maneuver, the pieces placed on the same dice, the falls
    and the decision. A ruleset whose attack is not in four steps runs the command."""
    steps = steps_of(ruleset)
    if steps is None:
        return run_command(command, state, dice, ruleset).state
    attacker_id, defender_id = command.attacker_id, command.defender_id
    if attacker_id == defender_id:
        raise IllegalCommandError("a combatant cannot attack itself")
    before = state
    if state.turns_running:
        attacker = state.combatant(attacker_id)
        problems, implied = attack_problems(state, ruleset, attacker, state.combatant(defender_id))
        overrule(problems, command.gm_override, attacker, "attack")
        if implied is not None:
            state = state.with_combatants(replace(attacker, maneuver=implied))
    if plans is None:
        plan: Any = planned(steps, state, attacker_id, defender_id, command.choices)
    else:
        plan = plans.plan(steps, state, attacker_id, defender_id, command.choices)
    outcome = steps.decide(plan, own_answer(steps, plan, command.answer), dice)
    after = steps.apply(state, plan, outcome)
    if state.turns_running:
        counted = after.combatant(attacker_id)
        after = after.with_combatants(counted.evolve(attacks_made=counted.attacks_made + 1))
    placed_on = after
    if outcome.pieces:
        after, _ = place_launched_pieces(state, after, outcome.pieces, dice, ruleset)
    problem = state_count_problem(after)
    if problem is not None:
        raise IllegalCommandError(problem)
    if tally is not None:
        tally.count(outcome, placed_on, after)
    return settle(before, CommandResult(after, ()), ruleset).state


class _Rulesets:
    """The ruleset a state names, looked up once per key and options."""

    def __init__(self) -> None:
        self._found: dict[tuple[str, tuple[str, ...]], BattleRuleset] = {}

    def of(self, state: BattleState) -> BattleRuleset:
        key = (state.ruleset_key, state.ruleset_options)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = get_ruleset(*key)
        return found


class Player(Protocol):
    """Who decides a simulated battle's actions (``AutoPlayer`` by default)."""

    def next_decision(self, ruleset: object, state: BattleState) -> Decision | None: ...

    def waits_for(self, state: BattleState) -> str: ...


def simulate(
    start: BattleState,
    seed: int,
    max_rounds: int,
    *,
    keep_decisions: bool = False,
    player: Player | None = None,
) -> SimResult:
    """The battle from ``start`` played by the computer (every fighter its own
    policy, a GM's fighter the aggressive one) until it is decided or its round
    passes ``max_rounds``, on the one stream of dice of ``seed``; the same as
    ``replay_battle`` plays through ``Battle``, decision for decision. ``player``:
    who decides instead of the computer's policies (a test's scripted fighters)."""
    generator = battle_dice(seed)
    dice = StreamDice(generator)
    trace = dice.trace
    rulesets = _Rulesets()
    if player is None:
        computer = AutoPlayer(default=AGGRESSIVE)
        computer.cache = SIM_ODDS
        player = computer
    report = AutoPlayReport()
    tally = SimTally()
    decisions: list[Decision] = []
    state = start
    while True:
        if state.outcome is not None:
            report.decided = True
            report.winner = state.outcome.winner
            break
        if state.round > max_rounds:
            report.stopped_for = f"the round limit ({max_rounds})"
            break
        ruleset = rulesets.of(state)
        decision = player.next_decision(ruleset, state)
        if decision is None:
            report.stopped_for = player.waits_for(state)
            break
        if keep_decisions:
            decisions.append(decision)
        active = state.active_id
        try:
            for command in decision.commands:
                state = _step(command, state, dice, rulesets.of(state), tally)
                trace.clear()  # no log keeps the faces
        except IllegalCommandError as refusal:
            report.refused.append(f"{decision.label}: {refusal}")
            trace.clear()
            if state.active_id == active and state.outcome is None:
                state = _step(EndTurn(), state, dice, rulesets.of(state), tally)
                trace.clear()
    report.decisions = decisions
    outcome = state.outcome
    report.rounds = outcome.round if outcome is not None else min(state.round, max_rounds)
    return SimResult(state, report, tally)


def _step(
    command: Command, state: BattleState, dice: SeededDice, ruleset: BattleRuleset, tally: SimTally
) -> BattleState:
    if type(command) is Attack:
        return resolve_attack(command, state, dice, ruleset, tally)
    return run_command(command, state, dice, ruleset).state


def replay_battle(start: BattleState, seed: int, max_rounds: int) -> tuple[Battle, AutoPlayReport]:
    """The battle ``simulate`` plays, played through ``Battle`` (``auto_play``), each
    command's dice drawn from the same one stream: its full log, every command
    with its faces, so it saves and reopens as it was played."""
    generator = battle_dice(seed)
    battle = Battle(start, seed, get_ruleset)
    report = auto_play(
        battle,
        default=AGGRESSIVE,
        max_rounds=max_rounds,
        dice_for=lambda: StreamDice(generator),
        cache=SIM_ODDS,
    )
    return battle, report


def replay_decisions(start: BattleState, seed: int, decisions: Sequence[Decision]) -> Battle:
    """A simulated battle's decisions (``simulate(..., keep_decisions=True)``)
    executed through ``Battle`` as ``auto_play`` executes them (a refused command
    ends the turn), each command's dice drawn from the battle's one stream: the
    battle with its full log, without the computer thinking again."""
    generator = battle_dice(seed)
    battle = Battle(start, seed, get_ruleset)
    for decision in decisions:
        active = battle.state.active_id
        try:
            for command in decision.commands:
                battle.execute(command, StreamDice(generator))
        except IllegalCommandError:
            if battle.state.active_id == active and battle.state.outcome is None:
                battle.execute(EndTurn(), StreamDice(generator))
    return battle
