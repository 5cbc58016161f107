"""The undo part of ``main.py --benchmark``: how long an undo and a redo take when the
log holds 10,000 commands (``undo_ms_at_10000``), and how much memory such a battle
holds with its checkpoints (``memory_10000_mib``).

The battle is the demo played by a script that mixes moves, turns, attacks and ends
of turn (``mixed_battle``), with the GM raising the fallen when a side has nobody
standing. Its choices come from a ``random.Random`` seeded with the battle's seed, so
every run plays the same battle.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
import tracemalloc
from dataclasses import dataclass

from app.main_window import load_demo_battle
from hexmap import Facing, direction_to
from rules.battle.battle import CHECKPOINT_STRIDE, RECENT_CHECKPOINTS, Battle
from rules.battle.commands import (
    EditCombatant,
    EndTurn,
    MoveCombatant,
    PickUpItem,
    ReadyShield,
    ReadyWeapon,
    TurnCombatant,
)
from rules.battle.hands import pick_up_problem
from rules.battle.model import Combatant, Status
from rules.battle.state import BattleState, Command
from rules.core.errors import RulesError
from rules.sets.protocol import plain_attack
from rules.sets.registry import ruleset_of

MIB = 1024 * 1024
# Commands undone one by one from the end, then redone: past the recent commands
# that keep their own checkpoints, into those that share one (rules.battle.battle).
UNDO_SAMPLES = RECENT_CHECKPOINTS + 4 * CHECKPOINT_STRIDE


@dataclass(frozen=True)
class UndoFigures:
    commands: int  # in the log
    undo_redo_ms: tuple[float, ...]  # an undo and the redo of the same command
    memory_mib: float  # what the battle holds, log and checkpoints
    kinds: tuple[tuple[str, int], ...]  # how many commands of each kind the log holds

    @property
    def median_ms(self) -> float:
        return statistics.median(self.undo_redo_ms)

    @property
    def max_ms(self) -> float:
        return max(self.undo_redo_ms)


def _standing(state: BattleState) -> list[Combatant]:
    return [c for c in state.combatants if c.status is Status.ACTIVE and c.hp > 0]


def mixed_command(state: BattleState, chooser: random.Random) -> Command:
    """The script's next command: the GM raising a fallen fighter (always once a side
    has nobody standing); the Ready of a weapon or shield that needs it; an attack on
    the nearest enemy (or any enemy) when it reaches, else a turn towards it; a step
    to a free neighbouring hex, mostly towards that enemy (the disarmed go for the
    nearest weapon on the ground and pick it up); a turn; or the end of the turn."""
    standing = _standing(state)
    fallen = [c for c in state.combatants if c not in standing]
    roll = chooser.random()
    if fallen and (len({c.side for c in standing}) < 2 or roll < 0.03):
        raised = chooser.choice(fallen)
        return EditCombatant(raised.id, hp=raised.fighter.hit_points, status=Status.ACTIVE)
    if roll < 0.1:
        return EndTurn()
    who = chooser.choice(standing)
    if who.fighter.shield is not None and not who.shield_ready:  # a fumbled block
        return ReadyShield(who.id)
    if who.unready:  # a weapon used last turn: ready it again
        return ReadyWeapon(who.id, sorted(who.unready)[0])
    enemies = [c for c in standing if c.side != who.side]
    target = (
        chooser.choice(enemies)
        if roll < 0.2
        else min(enemies, key=lambda c: (who.hex.distance(c.hex), c.id))
    )
    weapons_lying = [
        i
        for i in state.items
        if i.weapon is not None and pick_up_problem(who, i.weapon) is None  # a hand free
    ]
    if not who.fighter.weapons and weapons_lying:  # disarmed: go for a weapon on the ground
        nearest = min(weapons_lying, key=lambda i: (who.hex.distance(i.hex), i.id))
        if who.hex.distance(nearest.hex) <= 1:
            return PickUpItem(who.id, nearest.id)
        goal = nearest.hex
    else:
        goal = target.hex
    if roll < 0.5:
        attack = plain_attack(ruleset_of(state), state, who.id, target.id)
        if attack is not None:
            return attack
        if who.hex != target.hex:
            return TurnCombatant(who.id, direction_to(who.hex, target.hex))
    if roll < 0.8:
        free = [h for h in who.hex.neighbors() if h in state.grid and state.occupant(h) is None]
        if free:  # mostly closer to the enemy, sometimes aside
            closer = min(free, key=lambda h: (h.distance(goal), h.q, h.r))
            return MoveCombatant(who.id, closer if roll < 0.7 else chooser.choice(free))
    return TurnCombatant(who.id, chooser.choice(list(Facing)))


def mixed_battle(seed: int, length: int) -> Battle:
    """The demo battle after ``length`` accepted commands of the script; a command
    the rules refuse (no movement points left ...) is skipped."""
    battle = load_demo_battle(seed)
    chooser = random.Random(seed)
    while len(battle.commands) < length:
        try:
            battle.execute(mixed_command(battle.state, chooser))
        except RulesError:
            continue
    return battle


def measure_undo(seed: int, length: int, samples: int = UNDO_SAMPLES) -> UndoFigures:
    """Play the mixed battle of ``length`` commands while tracing memory (a short one
    first, so that the rules' caches are warm and not counted), take what it holds
    as what is freed when it goes, then time ``samples`` undos from the end of a
    battle of the same log and the redos that bring each command back. The undos
    reach past the recent commands, which keep a checkpoint each, into the older
    ones, where an undo may run the commands since the checkpoint before it again."""
    mixed_battle(seed, min(length, 200))
    gc.collect()
    tracemalloc.start()
    try:
        battle = mixed_battle(seed, length)
        gc.collect()
        with_battle = tracemalloc.get_traced_memory()[0]
        initial, commands, dice = battle.initial, battle.commands, battle.dice_log
        del battle
        gc.collect()
        held = with_battle - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    battle = Battle.replay(initial, seed, commands, dice, rulesets=load_demo_battle().rulesets)
    undo_ms: list[float] = []
    for _ in range(min(samples, length)):
        start = time.perf_counter()
        battle.undo()
        undo_ms.append((time.perf_counter() - start) * 1000.0)
    redo_ms: list[float] = []
    while battle.can_redo:
        start = time.perf_counter()
        battle.redo()
        redo_ms.append((time.perf_counter() - start) * 1000.0)
    if battle.commands != commands or battle.dice_log != dice:
        raise RuntimeError("undo and redo did not bring the log back as it was")
    # The redos run in the opposite order: the last redo brings back the first undo's.
    pairs = tuple(u + r for u, r in zip(undo_ms, reversed(redo_ms), strict=True))
    counts: dict[str, int] = {}
    for command in commands:
        counts[type(command).__name__] = counts.get(type(command).__name__, 0) + 1
    return UndoFigures(
        commands=len(commands),
        undo_redo_ms=pairs,
        memory_mib=held / MIB,
        kinds=tuple(sorted(counts.items(), key=lambda kind: -kind[1])),
    )
