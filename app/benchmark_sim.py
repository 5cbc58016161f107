"""The simulation path's figures for ``main.py --benchmark`` (rules.sim, issue 26).

``sim_resolutions_per_s``: the benchmark's seed 000 demo matchups (every demo
fighter against every other, each of the attack form's choices, under the ruleset
and each of its options) resolved on the simulation path
(``rules.sim.simulate.resolve_attack``: the ruleset's own ``decide`` and ``apply``,
the pieces placed, the falls and the decision; no events), each on its set-up with
its plan made once, on one stream of dice, over and over for the time given.

``sim_floor_resolutions_per_s``: in the same run, the floor of pure Python: a
hand-written 3d6 exchange on mutable state (an attack roll against a skill, a
parry against a number, a damage roll less armour off the hit points).
``sim_resolutions_floor_ratio`` is how many times slower the path is than the floor.

``sim_resolutions_per_s_002`` (``_003``, ``_004``): each other ruleset's demo
matchups (``rules.sim.duel.demo_matchups``: every fighter of its demo against every other, facing
it at each weapon mode's shortest reach, each of the attack form's choices)
resolved likewise.

``sim_battles_per_s``: the demo duel (the seed 000 demo's first fighter of each
side, both computer-controlled, aggressive) played to its end on the simulation
path (``rules.sim.simulate.simulate``, with the computer's decisions), whole
battles a second, one battle after another on new seeds, for the time given; the
exact odds the decisions weigh are kept across battles, as in a run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rules.battle.commands import Attack
from rules.battle.state import BattleRuleset, BattleState
from rules.sets.registry import ruleset_keys
from rules.sim.duel import demo_duel, demo_matchups
from rules.sim.simulate import PlanMemo, StreamDice, battle_dice, resolve_attack, simulate

__all__ = ["SimFigures", "floor_resolutions_per_s", "measure_sim"]

DUEL_MAX_ROUNDS = 50
DEMO_DUEL_RULESET = "000"


@dataclass(frozen=True)
class SimFigures:
    resolutions_per_s: float
    resolutions: int
    floor_per_s: float
    battles_per_s: float
    battles: int
    battle_seconds: float
    # Each other ruleset's demo matchups resolved on the path: per second, by key.
    others_per_s: tuple[tuple[str, float], ...] = ()


def floor_resolutions_per_s(seconds: float, seed: int) -> float:
    """The hand-written 3d6 exchange, exchanges a second: skill 13 against a parry
    of 10, 2d6 damage less DR 3 off 12 hit points, the fight begun afresh when
    they are gone."""
    rng = random.Random(seed)
    draw = rng.random
    hp = 12
    done = 0
    spent = 0.0
    while spent < seconds:
        start = time.perf_counter()
        for _ in range(10_000):
            attack = int(draw() * 6) + int(draw() * 6) + int(draw() * 6) + 3
            if attack > 13:
                continue
            parry = int(draw() * 6) + int(draw() * 6) + int(draw() * 6) + 3
            if parry <= 10:
                continue
            injury = int(draw() * 6) + int(draw() * 6) + 2 - 3
            if injury > 0:
                hp -= injury
                if hp <= 0:
                    hp = 12
        spent += time.perf_counter() - start
        done += 10_000
    return done / spent


def measure_resolutions(
    cases: Sequence[tuple[BattleState, BattleRuleset, Attack]], seed: int, seconds: float
) -> tuple[int, float]:
    """Each case's attack resolved on the simulation path, over and over: how many
    and in how many seconds. Each case's plan is made by its first resolution (the
    set-up's state is the same object every time: ``PlanMemo`` finds it)."""
    dice = StreamDice(battle_dice(seed))
    trace = dice.trace
    plans = PlanMemo()
    for state, ruleset, command in cases:  # untimed: the plans made, the caches warm
        resolve_attack(command, state, dice, ruleset, plans=plans)
    done = 0
    spent = 0.0
    while spent < seconds:
        for state, ruleset, command in cases:
            start = time.perf_counter()
            resolve_attack(command, state, dice, ruleset, plans=plans)
            spent += time.perf_counter() - start
            trace.clear()
        done += len(cases)
    return done, spent


def measure_battles(seed: int, seconds: float) -> tuple[int, float]:
    """Whole demo duels on the simulation path, one after another on new seeds,
    for at least ``seconds`` (and at least one): how many and in how many seconds."""
    start_state = demo_duel(DEMO_DUEL_RULESET)
    simulate(start_state, seed - 1, DUEL_MAX_ROUNDS)  # untimed: the rules' caches warm
    done = 0
    spent = 0.0
    while spent < seconds or done == 0:
        start = time.perf_counter()
        simulate(start_state, seed + done, DUEL_MAX_ROUNDS)
        spent += time.perf_counter() - start
        done += 1
    return done, spent


def measure_sim(
    cases: Sequence[tuple[BattleState, BattleRuleset, Attack]],
    seed: int,
    resolution_seconds: float,
    battle_seconds: float,
) -> SimFigures:
    floor = floor_resolutions_per_s(resolution_seconds, seed)
    resolved, resolving = measure_resolutions(cases, seed, resolution_seconds)
    others = []
    for key in ruleset_keys():
        if key != DEMO_DUEL_RULESET:
            done, spent = measure_resolutions(demo_matchups(key), seed, resolution_seconds)
            others.append((key, done / spent))
    battles, fighting = measure_battles(seed, battle_seconds)
    return SimFigures(
        resolved / resolving, resolved, floor, battles / fighting, battles, fighting, tuple(others)
    )
