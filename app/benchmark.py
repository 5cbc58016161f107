"""``main.py --benchmark [--json] [--quick]``: how fast the map repaints, attacks
resolve, the exact odds come and a battle replays.

Repaint (``repaint_*_ms``, medians of whole-view repaints into a QImage through the
widget's own paint path, ``app.map.measure``): a 100x100 map with 40 combatants,
one selected (arcs and reach shown), a target set and a few highlighted hexes, in
a 1600x1000 view. At normal zoom (1.0): the view still, while panning (a few pixels
each frame, as during a drag) and while zooming (a new zoom every frame: token
pixmaps are redrawn). At the densest zoom where the grid is still drawn (hexes of
``GRID_MIN_PIXELS``). And "fit to window" on a 200x200 map.

Attacks (``attack_commands_per_s``): full ``Attack`` commands through
``Battle.execute``, every event included, over the demo's matchups (every fighter
against every other, at each weapon mode's shortest reach, the defender facing
three ways) with each set of choices the ruleset's attack form offers
(``Attacks.attack_variants``), under the ruleset and with each of its options.
Each command runs on a fresh battle of its set-up, timed after one untimed pass
over them, with what the benchmark made so far settled out of the collector's walks
(``app.collector.settle_collector``, as after start-up);
``attack_commands_per_s_at_10000`` runs a sample of the same commands, one on each
battle of its set-up whose log already holds 10,000 commands (the readable output
adds that sample's rate with an empty log).

Odds (``odds_ms_median``, ``odds_ms_max_cold``): ``Attacks.preview_attack`` (the
plan and its exact odds) for those set-ups (the defender facing the attacker): the
median with warm caches, and the slowest with every cache of the rules cleared first.

Plan (``plan_ms_median``): one attack planned as the battle plans it, without
dice, odds or events (seed 000: ``Seed000.planned``, found by the ruleset's key in
``PLANNERS``), for each of those set-ups, warm (its second call): the median.

Resolution (``resolve_per_s``): seed 000's ``decide`` plus ``apply`` alone, without
``describe`` (no events), for each of those set-ups (found by the ruleset's key in
``RESOLVERS``), planned first and untimed as the battle plans the roll after the
attack pane's preview, on the battle's own seeded dice (``command_rng``): the
attacks resolved a second, over and over for as long as the attacks above.

Simulation path (``sim_resolutions_per_s``, ``sim_floor_resolutions_per_s``,
``sim_resolutions_floor_ratio``, ``sim_battles_per_s``; ``app.benchmark_sim``): the
same set-ups resolved on the simulation path (rules.sim), against the floor of a
hand-written 3d6 exchange measured in the same run, and whole demo duels simulated.

Legal actions (``legal_actions_ms_median``): ``Turns.legal_actions`` of every
standing fighter (its maneuvers, every distinct attack on each foe in reach, its
moves as destinations and facings ...) on the states the scripted battle below
goes through, warm (the second call on each): the median.

Computer fighters (``ai_decision_ms_median``, ``ai_decision_ms_max``,
``autobattle_000_s``; rules.play): the seed 000 demo battle, turn order rolled,
auto-played to its end (or ``autobattle_rounds`` rounds) with every fighter on the
aggressive policy, and each ruleset's demo battle (File > Open Demo Battle) the
same way: how long each decision takes (the median and the slowest over all of
them), and the whole auto-battle of the seed 000 demo.

Replay (``replay_1000_s``): ``Battle.replay`` of a scripted battle of 1,000
commands on the demo map (moves, turns, attacks with announced defenses, ends of
turn, the fallen raised again by the GM), rolled again from the seed.

Undo (``undo_ms_at_10000``, ``memory_10000_mib``; ``app.benchmark_undo``): on a
demo battle of 10,000 commands played by a seeded script that mixes moves, turns,
attacks and ends of turn, the median time of an undo and the redo of the same
command, from the end of the log, and the memory the battle holds with its undo
checkpoints (tracemalloc).

Simulations (``sim_scaling_2_workers``, ``sim_memory_growth_pct``;
``app.benchmark_runs``): the process pool of ``main.py simulate`` on the seed 000
demo duel, 2 workers against 1, and the resident memory of a run in this process
after its warm-up and at its end.

Combat log (``log_append_ms_at_5000``): the median time the log pane takes to
append the rows of one more command, once it holds 5,000 rows, and to repaint its
viewport (offscreen, a 300x500 pane). The commands are the first 600 of that
scripted battle over and over, numbered on as one long evening.

The long evening (``long_evening_max_repaint_ms``, ``long_evening_max_gui_action_ms``;
``app.benchmark_evening``): a 200-round auto-battle of the seed 000 demo whose
fighters cannot finish each other, in the offscreen window: the slowest frame the
window painted, and the longest one decision held the GUI thread (its decision
worked out on the worker thread, its commands run and every pane updated).

``--quick`` makes every part small, only to show that the benchmark runs.
"""

from __future__ import annotations

import functools
import gc
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from PySide6.QtWidgets import QApplication

from app.benchmark_evening import evening_lines, run_evening
from app.benchmark_runs import (
    SCALING_ROUNDS,
    demo_duel_setup,
    loop_scaling,
    memory_growth,
    pool_throughput,
)
from app.benchmark_sim import measure_sim
from app.benchmark_undo import measure_undo
from app.collector import settle_collector
from app.controller import BattleController, plan_redraw
from app.file_actions import demo_path
from app.files import open_battle
from app.main_window import load_demo_battle
from app.map.measure import DENSE_ZOOM, repaint_dense_ms, repaint_fit_ms, repaint_samples_ms
from app.map.view import MapView
from app.panes.combat_log import CombatLogPane
from hexmap import Facing, Hex, HexGrid, direction_to
from rules.battle.battle import Battle, BattleChange, command_rng
from rules.battle.commands import (
    Attack,
    EditCombatant,
    EndTurn,
    MoveCombatant,
    PickUpItem,
    ReadyWeapon,
    TurnCombatant,
)
from rules.battle.hands import pick_up_problem
from rules.battle.model import Combatant, Side, Status
from rules.battle.state import BattleState, Command
from rules.core.dice import DiceSource, ScriptedDice
from rules.core.errors import RulesError
from rules.play.autoplay import auto_play
from rules.play.policies import AGGRESSIVE
from rules.sets.protocol import Ruleset, plain_attack
from rules.sets.registry import get_ruleset, ruleset_keys, ruleset_of

VIEW_WIDTH, VIEW_HEIGHT = 1600, 1000
MAP_SIZE = 100
FIT_MAP_SIZE = 200
COMBATANTS = 40
BUDGET_MS = 16.0
LONG_LOG = 10_000
REPLAY_COMMANDS = 1_000
LOG_ROWS = 5_000
LEGAL_ACTION_STATES = 200  # states of the scripted battle whose legal actions are timed

# key -> "module:function" planning one attack of that ruleset (``plan_ms_median``),
# found as the window finds a ruleset's UI (``app.rulesets``): only
# ``app.rulesets.<key>`` imports a ruleset's package.
PLANNERS = MappingProxyType({"000": "app.rulesets.seed000.planning:plan_attack_once"})
# key -> "module:function" giving one attack's decide-and-apply (``resolve_per_s``).
RESOLVERS = MappingProxyType({"000": "app.rulesets.seed000.planning:attack_resolver"})


@dataclass(frozen=True)
class Sizes:
    """How much the benchmark does: the full run, or ``QUICK`` to show it works."""

    map_size: int = MAP_SIZE
    fit_map_size: int = FIT_MAP_SIZE
    frames: int = 120
    attack_seconds: float = 2.0
    odds_every: int = 1  # the odds of every n-th set-up
    long_log: int = LONG_LOG
    legal_action_states: int = LEGAL_ACTION_STATES
    long_log_battles: int = 120  # battles measured with one attack each (log long or empty)
    replay_commands: int = REPLAY_COMMANDS
    log_rows: int = LOG_ROWS  # rows in the combat log before the timed appends
    log_appends: int = 60
    autobattle_rounds: int = 50
    evening_rounds: int = 200
    sim_seconds: float = 3.0  # the simulation path's resolutions, and its floor
    sim_battle_seconds: float = 20.0  # whole demo duels on the simulation path
    sim_batch: int = 25  # battles of a batch in the pool's scaling (app.benchmark_runs)
    sim_batches_per_worker: int = 6
    sim_loop: int = 20_000_000  # iterations of the bare loop the scaling is read beside
    sim_memory_warm_up: int = 50
    sim_memory_battles: int = 2000


QUICK = Sizes(
    map_size=40, fit_map_size=40, frames=4, attack_seconds=0.1, odds_every=40,
    long_log=200, long_log_battles=4, legal_action_states=10, replay_commands=60,
    log_rows=200, log_appends=5, autobattle_rounds=1, evening_rounds=1, sim_seconds=0.1,
    sim_battle_seconds=0.0, sim_batch=1, sim_batches_per_worker=2, sim_loop=1000,
    sim_memory_warm_up=2, sim_memory_battles=4,
)  # fmt: skip


@dataclass(frozen=True)
class Timing:
    label: str
    samples_ms: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p95(self) -> float:
        ordered = sorted(self.samples_ms)
        return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


@dataclass(frozen=True)
class AttackRate:
    commands: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.commands / self.seconds


@dataclass(frozen=True)
class AttackCase:
    """One attack set-up: two combatants on a small map and the command."""

    state: BattleState
    ruleset: Ruleset  # the state's
    command: Attack
    facing_attacker: bool  # the defender faces the attacker (the odds use these)


@dataclass(frozen=True)
class OddsTimes:
    warm_ms: tuple[float, ...]
    cold_ms: tuple[float, ...]


# --- the map --------------------------------------------------------------------------
def demo_state() -> BattleState:
    return load_demo_battle().initial


def demo_combatants() -> tuple[Combatant, ...]:
    return demo_state().combatants


def big_battle(seed: int, size: int = MAP_SIZE, count: int = COMBATANTS) -> Battle:
    """A ``size`` x ``size`` map with ``count`` combatants made from the demo's fighters,
    crowded around the middle so that all of them are in a 1600x1000 view."""
    templates = demo_combatants()
    grid = HexGrid(size, size)
    sides = (Side.RED, Side.BLUE, Side.GREEN, Side.GOLD)
    combatants: list[Combatant] = []
    col0, row0 = size // 2 - 12, size // 2 - 7
    for i in range(count):
        template = templates[i % len(templates)]
        col, row = col0 + (i % 10) * 3 - (i // 10) % 2, row0 + (i // 10) * 4 + (i % 3)
        hp = template.fighter.hit_points - (i * 3) % (template.fighter.hit_points + 4)
        status = Status.ACTIVE
        if i % 13 == 7:
            status = Status.UNCONSCIOUS
        elif i % 17 == 11:
            status = Status.DEAD
        combatants.append(
            replace(
                template,
                id=f"c{i:02d}",
                side=sides[i % 4],
                hex=Hex.from_offset(col, row),
                facing=Facing(i % 6),
                hp=hp,
                status=status,
            )
        )
    return Battle(replace(demo_state(), grid=grid, combatants=tuple(combatants)), seed, get_ruleset)


def prepare_view(seed: int, size: int = MAP_SIZE) -> tuple[BattleController, MapView]:
    controller = BattleController(big_battle(seed, size))
    view = MapView(controller)
    view.resize(VIEW_WIDTH, VIEW_HEIGHT)
    selected = controller.state.combatants[14]
    controller.select(selected.id)
    controller.set_target(controller.state.combatants[15].id)
    controller.highlight(tuple(selected.hex + Hex(k, 0) for k in range(-3, 4)))
    view.set_zoom(1.0)
    view.center_on(selected.hex)
    return controller, view


def measure_map(seed: int, sizes: Sizes = Sizes()) -> dict[str, Timing]:
    """Repaint timings by figure key (``still``, ``pan``, ``zoom``, ``dense``, ``fit``)."""
    frames = sizes.frames
    _controller, view = prepare_view(seed, sizes.map_size)
    timings = {"still": Timing("still view", repaint_samples_ms(view, frames))}
    direction = [1.0]

    def pan(i: int) -> None:
        if i % 40 == 0:
            direction[0] = -direction[0]
        view.pan_by(3.0 * direction[0], 2.0 * direction[0])

    timings["pan"] = Timing("panning", repaint_samples_ms(view, frames, pan))
    view.set_zoom(1.0)
    zooms = [1.0 + 0.01 * k for k in range(1, frames + 4)]

    def zoom(i: int) -> None:
        view.set_zoom(zooms[i])

    zooming = repaint_samples_ms(view, frames, zoom)
    timings["zoom"] = Timing("zooming (new zoom every frame)", zooming)
    timings["dense"] = Timing(
        f"densest zoom with the grid ({DENSE_ZOOM:.3f})", repaint_dense_ms(view, frames)
    )
    _fit_controller, fit_view = prepare_view(seed, sizes.fit_map_size)
    fit = repaint_fit_ms(fit_view, frames)
    size = sizes.fit_map_size
    timings["fit"] = Timing(f"fit to window, {size}x{size} (zoom {fit_view.zoom:.3f})", fit)
    return timings


# --- the attacks ------------------------------------------------------------------------
def rulesets() -> tuple[Ruleset, ...]:
    """The demo's ruleset as it is and with each of its options (seed 000: the seed
    001 hit locations)."""
    key = demo_state().ruleset_key
    base = get_ruleset(key)
    return (base, *(get_ruleset(key, (option,)) for option in base.available_options))


def attack_cases() -> list[AttackCase]:
    """Every demo fighter against every other, the defender at each distance one
    of the attacker's weapon modes reaches first, straight ahead, facing three ways
    in turn, with each set of choices the ruleset's attack form offers there
    (``Attacks.attack_variants``), under the ruleset and each of its options: the
    set-ups the rules accept."""
    demo = demo_state()
    templates = demo.combatants
    grid = HexGrid(12, 12)
    origin = Hex.from_offset(6, 6)
    cases: list[AttackCase] = []
    for ruleset in rulesets():
        ruled = replace(demo, ruleset_options=tuple(sorted(ruleset.options)))
        for a_template in templates:
            distances = sorted(
                {
                    min(d for d in mode.reach.distances if d > 0)
                    for weapon in a_template.fighter.weapons
                    for mode in weapon.modes
                    if any(d > 0 for d in mode.reach.distances)
                }
            )
            for d_template in templates:
                if a_template.id == d_template.id:
                    continue
                for distance in distances:
                    for facing in (Facing.S, Facing.SE, Facing.N):
                        attacker = replace(
                            a_template, id="attacker", hex=origin, facing=Facing.N,
                            hp=a_template.fighter.hit_points, status=Status.ACTIVE,
                        )  # fmt: skip
                        defender = replace(
                            d_template, id="defender",
                            hex=origin + Facing.N.vector.scale(distance), facing=facing,
                            hp=d_template.fighter.hit_points, status=Status.ACTIVE,
                        )  # fmt: skip
                        state = replace(ruled, grid=grid, combatants=(attacker, defender))
                        variants = ruleset.attacks.attack_variants(state, attacker.id, defender.id)
                        for choices in variants:
                            command = Attack(attacker.id, defender.id, choices)
                            try:
                                Battle(state, 0, get_ruleset).execute(command)
                            except RulesError:
                                continue
                            cases.append(AttackCase(state, ruleset, command, facing is Facing.S))
    return cases


def measure_attacks(cases: Sequence[AttackCase], seed: int, seconds: float) -> AttackRate:
    """``Battle.execute`` of each case's command on a fresh battle of its set-up, over
    and over for at least ``seconds``."""
    done = 0
    spent = 0.0
    while spent < seconds:
        battles = [Battle(case.state, seed + done, get_ruleset) for case in cases]
        start = time.perf_counter()
        for battle, case in zip(battles, cases, strict=True):
            battle.execute(case.command)
        spent += time.perf_counter() - start
        done += len(cases)
    return AttackRate(done, spent)


def warm_attacks(cases: Sequence[AttackCase], seed: int) -> None:
    """Each case's command once, untimed, on a fresh battle of its set-up."""
    for case in cases:
        Battle(case.state, seed, get_ruleset).execute(case.command)


def measure_attacks_one_each(
    cases: Sequence[AttackCase], seed: int, log_length: int, sizes: Sizes = Sizes()
) -> AttackRate:
    """A sample of the cases' commands, each once, on a battle of its set-up whose
    log already holds ``log_length`` commands (ends of turn, which change nothing
    else there). Each command is previewed first, untimed, so that its code and
    data are as warm as in ``measure_attacks``' loop."""
    filler = [EndTurn()] * log_length
    step = max(1, len(cases) // sizes.long_log_battles)
    chosen = list(cases[::step])[: sizes.long_log_battles]
    spent = 0.0
    for i, case in enumerate(chosen):
        battle = Battle.replay(case.state, seed + i, filler, rulesets=get_ruleset)
        battle.preview(case.command)
        start = time.perf_counter()
        battle.execute(case.command)
        spent += time.perf_counter() - start
    return AttackRate(len(chosen), spent)


# --- the odds ---------------------------------------------------------------------------
_CACHED_FUNCTION = type(functools.cache(len))


def clear_rules_caches() -> int:
    """Empty every ``functools`` cache of the rules' modules (tables, distributions,
    the odds' own); returns how many there were."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if name == "rules" or name.startswith("rules."):
            for value in list(vars(module).values()):
                if isinstance(value, _CACHED_FUNCTION):
                    value.cache_clear()
                    cleared += 1
    return cleared


def measure_odds(cases: Sequence[AttackCase], every: int = 1) -> OddsTimes:
    """``Attacks.preview_attack`` (the plan and its exact odds, as a pane asks for
    them) for the set-ups where the defender faces the attacker: warm (a second
    call), and cold (every cache of the rules cleared and collected, and a new
    ruleset object first)."""
    warm: list[float] = []
    cold: list[float] = []
    facing = [case for case in cases if case.facing_attacker][::every]
    for case in facing:
        command = case.command
        clear_rules_caches()
        gc.collect()  # the cleared caches' garbage is not this call's to collect
        ruleset = get_ruleset(case.ruleset.key, case.ruleset.options)  # a new one: tables cold
        try:
            start = time.perf_counter()
            ruleset.attacks.preview_attack(
                case.state,
                command.attacker_id,
                command.defender_id,
                command.choices,
                command.answer,
            )
        except RulesError:
            continue  # the pane refuses this one before it shows odds
        cold.append((time.perf_counter() - start) * 1000.0)
        start = time.perf_counter()
        ruleset.attacks.preview_attack(
            case.state, command.attacker_id, command.defender_id, command.choices, command.answer
        )
        warm.append((time.perf_counter() - start) * 1000.0)
    return OddsTimes(tuple(warm), tuple(cold))


# --- the plan and the legal actions ------------------------------------------------------
def _planner(key: str) -> Callable[[BattleState, Attack], None]:
    module, _, name = PLANNERS[key].partition(":")
    planner: Callable[[BattleState, Attack], None] = getattr(importlib.import_module(module), name)
    return planner


def _resolver(key: str) -> Callable[[BattleState, Attack], Callable[[DiceSource], BattleState]]:
    module, _, name = RESOLVERS[key].partition(":")
    resolver: Callable[[BattleState, Attack], Callable[[DiceSource], BattleState]] = getattr(
        importlib.import_module(module), name
    )
    return resolver


def measure_resolves(cases: Sequence[AttackCase], seed: int, seconds: float) -> AttackRate:
    """Each case's attack (of a ruleset in ``RESOLVERS``) planned untimed, then its
    ``decide`` and ``apply`` (no events) on the battle's seeded dice of a new
    command each time, over and over for at least ``seconds``."""
    resolves = [
        _resolver(case.ruleset.key)(case.state, case.command)
        for case in cases
        if case.ruleset.key in RESOLVERS
    ]
    if not resolves:
        return AttackRate(0, 1.0)
    done = 0
    spent = 0.0
    while spent < seconds:
        dice = [command_rng(seed, done + i) for i in range(len(resolves))]
        start = time.perf_counter()
        for resolve, source in zip(resolves, dice, strict=True):
            resolve(source)
        spent += time.perf_counter() - start
        done += len(resolves)
    return AttackRate(done, spent)


def measure_plans(cases: Sequence[AttackCase], every: int = 1) -> tuple[float, ...]:
    """Milliseconds of one plan of each case's attack (every ``every``-th) whose
    ruleset has a planner, warm: the second call."""
    times: list[float] = []
    for case in cases[::every]:
        if case.ruleset.key not in PLANNERS:
            continue
        plan = _planner(case.ruleset.key)
        plan(case.state, case.command)
        start = time.perf_counter()
        plan(case.state, case.command)
        times.append((time.perf_counter() - start) * 1000.0)
    return tuple(times)


def measure_legal_actions(seed: int, states: int) -> tuple[float, ...]:
    """Milliseconds of ``Turns.legal_actions`` for each standing fighter on the
    last ``states`` states the scripted battle goes through (undone one by one
    from its end), warm: the second call on each."""
    battle = scripted_battle(seed, states)
    times: list[float] = []
    for _ in range(states):
        state = battle.state
        ruleset = ruleset_of(state)
        for c in state.combatants:
            if c.status is not Status.ACTIVE:
                continue
            ruleset.turns.legal_actions(state, c.id)
            start = time.perf_counter()
            ruleset.turns.legal_actions(state, c.id)
            times.append((time.perf_counter() - start) * 1000.0)
        if not battle.can_undo:
            break
        battle.undo()
    return tuple(times)


def measure_autobattle(seed: int, rounds: int) -> tuple[tuple[float, ...], float]:
    """The milliseconds of each decision of an auto-battle of the seed 000 demo,
    and the seconds of the whole auto-battle (rules.play.autoplay)."""
    battle = load_demo_battle(seed, turn_order=True)
    start = time.perf_counter()
    report = auto_play(battle, default=AGGRESSIVE, max_rounds=rounds)
    return tuple(report.decision_ms), time.perf_counter() - start


def measure_demo_autobattles(rounds: int) -> dict[str, tuple[float, ...]]:
    """The milliseconds of each decision of an auto-battle of each ruleset's demo
    battle (``assets/battles/demo-<key>.hexfray``), by ruleset key."""
    decisions: dict[str, tuple[float, ...]] = {}
    for key in ruleset_keys():
        path = demo_path(key)
        if not path.is_file():
            continue
        report = auto_play(open_battle(path), default=AGGRESSIVE, max_rounds=rounds)
        decisions[key] = tuple(report.decision_ms)
    return decisions


# --- the replay -------------------------------------------------------------------------
def _next_commands(state: BattleState, who: Combatant) -> list[Command]:
    """What ``who`` does now: without a weapon, pick one up from the ground within
    reach; else face the nearest standing enemy and attack it with the ruleset's
    plain attack (``Attacks.default_attack``), readying an unready weapon first if
    nothing ready reaches, else step towards it."""
    if not who.fighter.weapons:  # disarmed or dropped: pick a weapon up within reach
        near = [
            i
            for i in state.items
            if i.weapon is not None
            and who.hex.distance(i.hex) <= 1
            and pick_up_problem(who, i.weapon) is None  # a hand free for it
        ]
        return [PickUpItem(who.id, near[0].id)] if near else []
    enemies = [c for c in state.combatants if c.side != who.side and c.status is Status.ACTIVE]
    if not enemies:
        return []
    target = min(enemies, key=lambda c: (who.hex.distance(c.hex), c.id))
    facing = direction_to(who.hex, target.hex)
    commands: list[Command] = []
    if who.facing is not facing:
        commands.append(TurnCombatant(who.id, facing))
    faced = state.with_combatants(replace(who, facing=facing))
    attack = plain_attack(ruleset_of(state), faced, who.id, target.id)
    if attack is not None:
        return [*commands, attack]
    if who.unready:  # a weapon used last: ready it again first
        return [*commands, ReadyWeapon(who.id, sorted(who.unready)[0])]
    step = who.hex.neighbor(facing)
    if step in state.grid and state.occupant(step) is None:
        commands.append(MoveCombatant(who.id, step))
    return commands


def scripted_battle(seed: int, length: int) -> Battle:
    """The demo battle played for ``length`` accepted commands: each standing
    combatant in turn closes with the nearest enemy and attacks it, each round ends
    the turn, and once a side has nobody standing the GM raises everyone again."""
    battle = load_demo_battle(seed)
    while len(battle.commands) < length:
        before = len(battle.commands)
        for who_id in [c.id for c in battle.state.combatants]:
            who = battle.state.combatant(who_id)
            if who.status is not Status.ACTIVE:
                continue
            for command in _next_commands(battle.state, who):
                if len(battle.commands) >= length:
                    return battle
                try:
                    battle.execute(command)
                except RulesError:
                    break  # refused: this combatant waits for the next round
        sides_standing = {c.side for c in battle.state.combatants if c.status is Status.ACTIVE}
        raise_all = len(sides_standing) < 2 or len(battle.commands) == before
        for c in battle.state.combatants if raise_all else ():
            if len(battle.commands) < length and (c.status is not Status.ACTIVE or c.hp < 1):
                battle.execute(EditCombatant(c.id, hp=c.fighter.hit_points, status=Status.ACTIVE))
        if len(battle.commands) < length:
            battle.execute(EndTurn())
    return battle


def measure_replay(seed: int, length: int) -> float:
    """Seconds that ``Battle.replay`` takes for the scripted battle of ``length``
    commands (rolled again from the seed; it must end as the battle did)."""
    played = scripted_battle(seed, length)
    start = time.perf_counter()
    replayed = Battle.replay(played.initial, played.seed, played.commands, rulesets=get_ruleset)
    seconds = time.perf_counter() - start
    if replayed.state != played.state:
        raise RuntimeError("the replay did not end as the scripted battle did")
    return seconds


# --- the combat log ---------------------------------------------------------------------
LOG_SOURCE_COMMANDS = 600  # the scripted battle still fights here (later, all are disarmed)


def scripted_log_changes(seed: int, count: int) -> list[BattleChange]:
    """The changes of the scripted battle's first ``count`` commands, as the log's
    observers receive them."""
    battle = load_demo_battle(seed)
    changes: list[BattleChange] = []
    battle.subscribe(changes.append)
    played = scripted_battle(seed, count)
    for command, faces in zip(played.commands, played.dice_log, strict=True):
        battle.execute(command, ScriptedDice(faces))
    return changes


def measure_log_append(seed: int, rows: int, appends: int) -> Timing:
    """Milliseconds that the combat log pane takes to append the rows of one
    command and repaint its viewport (offscreen), for each of ``appends`` commands
    once it holds ``rows`` rows. The log is filled, and then grown, with the
    scripted battle's changes over and over (numbered on as one long evening), so
    that it holds attacks, moves and turns in the proportions of a fight; only the
    pane's work is timed, not the rules'."""
    changes = scripted_log_changes(seed, LOG_SOURCE_COMMANDS)
    controller = BattleController(load_demo_battle(seed))
    pane = CombatLogPane(controller)
    pane.resize(300, 500)
    index = 0

    def append_next() -> None:
        nonlocal index
        change = replace(changes[index % len(changes)], index=index)
        controller.battle_changed.emit(change, plan_redraw(change, None))
        index += 1

    while pane.model.rowCount() < rows:  # hidden: the rows are measured when it shows
        append_next()
    pane.show()
    QApplication.processEvents()
    pane.row_heights.measure_all_now()  # what it measures while idle after a load
    viewport = pane.view.viewport()
    samples: list[float] = []
    for _ in range(appends):
        start = time.perf_counter()
        append_next()
        viewport.repaint()
        QApplication.processEvents()  # whatever the view deferred (it paints nothing twice)
        samples.append((time.perf_counter() - start) * 1000.0)
    held = pane.model.rowCount()
    pane.close()
    pane.deleteLater()
    QApplication.processEvents()
    return Timing(f"{rows:,} rows growing to {held:,}", tuple(samples))


# --- the report -------------------------------------------------------------------------
def measure(seed: int, sizes: Sizes = Sizes()) -> tuple[dict[str, float], list[str]]:
    """Every figure by its JSON key, and the same as readable lines."""
    lines = [
        f"Hexfray benchmark (seed {seed})",
        f"Map repaint: {sizes.map_size}x{sizes.map_size} hexes, {COMBATANTS} combatants, "
        f"arcs + reach + target + highlight, {VIEW_WIDTH}x{VIEW_HEIGHT} view, zoom 1.0",
    ]
    figures: dict[str, float] = {}
    for key, timing in measure_map(seed, sizes).items():
        figures[f"repaint_{key}_ms"] = timing.median
        lines.append(
            f"  {timing.label:<38} median {timing.median:6.2f} ms   p95 {timing.p95:6.2f} ms"
            f"   ({len(timing.samples_ms)} repaints)"
        )
    cases = attack_cases()
    if not cases:
        raise RuntimeError("the demo fighters offer no attack to resolve")
    # One untimed pass first, as a session's first attacks warm the rules' caches;
    # then the set-ups and the maps measured above, which no session holds, are
    # settled out of the collector's walks as start-up's objects are (app.collector).
    warm_attacks(cases, seed)
    settle_collector()
    rate = measure_attacks(cases, seed, sizes.attack_seconds)
    figures["attack_commands_per_s"] = rate.per_second
    lines.append(
        f"Attack commands through Battle.execute: {rate.per_second:,.0f} per second "
        f"({rate.commands:,} in {rate.seconds:.2f} s; {len(cases)} set-ups: demo matchups "
        "x the attack form's choices x the ruleset and its options)"
    )
    late = measure_attacks_one_each(cases, seed, sizes.long_log, sizes)
    early = measure_attacks_one_each(cases, seed, 0, sizes)
    figures[f"attack_commands_per_s_at_{LONG_LOG}"] = late.per_second
    lines.append(
        f"  with {sizes.long_log:,} commands in the log: {late.per_second:,.0f} per second "
        f"({late.commands} commands, one on each battle; {early.per_second:,.0f} per second "
        "measured the same way with an empty log)"
    )
    odds = measure_odds(cases, sizes.odds_every)
    figures["odds_ms_median"] = statistics.median(odds.warm_ms)
    figures["odds_ms_max_cold"] = max(odds.cold_ms)
    lines.append(
        f"Exact odds ({len(odds.warm_ms)} set-ups): median {figures['odds_ms_median']:.2f} ms"
        f" warm, max {max(odds.warm_ms):.2f} ms warm; cold median "
        f"{statistics.median(odds.cold_ms):.2f} ms, max {figures['odds_ms_max_cold']:.2f} ms"
    )
    plans = measure_plans(cases, sizes.odds_every)
    figures["plan_ms_median"] = statistics.median(plans)
    lines.append(
        f"One attack's plan ({len(plans)} set-ups, warm): median "
        f"{figures['plan_ms_median']:.3f} ms, max {max(plans):.3f} ms"
    )
    resolves = measure_resolves(cases, seed, sizes.attack_seconds)
    figures["resolve_per_s"] = resolves.per_second
    lines.append(
        f"Seed 000 attacks decided and applied, without their events: "
        f"{resolves.per_second:,.0f} per second ({resolves.commands:,} in "
        f"{resolves.seconds:.2f} s)"
    )
    sim = measure_sim(
        [(case.state, case.ruleset, case.command) for case in cases],
        seed,
        sizes.sim_seconds,
        sizes.sim_battle_seconds,
    )
    figures["sim_resolutions_per_s"] = sim.resolutions_per_s
    figures["sim_floor_resolutions_per_s"] = sim.floor_per_s
    figures["sim_resolutions_floor_ratio"] = sim.floor_per_s / sim.resolutions_per_s
    figures["sim_battles_per_s"] = sim.battles_per_s
    others = dict(sim.others_per_s)  # each other ruleset's demo matchups, by its key
    figures["sim_resolutions_per_s_002"] = others["002"]
    figures["sim_resolutions_per_s_003"] = others["003"]
    figures["sim_resolutions_per_s_004"] = others["004"]
    lines.append(
        f"Simulation path (rules.sim), the same set-ups resolved without events, each "
        f"planned once: {sim.resolutions_per_s:,.0f} per second ({sim.resolutions:,}); the "
        f"floor, a hand-written 3d6 exchange on mutable state: {sim.floor_per_s:,.0f} per "
        f"second ({figures['sim_resolutions_floor_ratio']:.0f} x the path's time)"
    )
    lines.extend(
        f"  ruleset {key}'s demo matchups on the same path: {per_s:,.0f} per second"
        for key, per_s in sim.others_per_s
    )
    lines.append(
        f"Demo duels simulated whole (seed 000 demo, first fighter of each side, both "
        f"computer-controlled): {sim.battles_per_s:,.2f} per second ({sim.battles} in "
        f"{sim.battle_seconds:.1f} s)"
    )
    legal = measure_legal_actions(seed, sizes.legal_action_states)
    figures["legal_actions_ms_median"] = statistics.median(legal)
    lines.append(
        f"A fighter's legal actions ({len(legal)} fighters on {sizes.legal_action_states} "
        f"states of the scripted demo battle, warm): median "
        f"{figures['legal_actions_ms_median']:.2f} ms, max {max(legal):.2f} ms"
    )
    decisions, whole = measure_autobattle(seed, sizes.autobattle_rounds)
    by_demo = measure_demo_autobattles(sizes.autobattle_rounds)
    every = [*decisions, *(ms for demo in by_demo.values() for ms in demo)]
    figures["ai_decision_ms_median"] = statistics.median(every)
    figures["ai_decision_ms_max"] = max(every)
    figures["autobattle_000_s"] = whole
    demos = ", ".join(f"{key} {max(ms):.0f} ms" for key, ms in by_demo.items() if ms)
    lines.append(
        f"Computer fighters on the seed 000 demo and each ruleset's ({len(every)} decisions, "
        f"aggressive): median {figures['ai_decision_ms_median']:.1f} ms, max "
        f"{figures['ai_decision_ms_max']:.1f} ms a decision (the seed 000 demo "
        f"{max(decisions):.0f} ms; {demos}); the whole auto-battle of the seed 000 demo "
        f"{whole:.2f} s"
    )
    figures[f"replay_{REPLAY_COMMANDS}_s"] = measure_replay(seed, sizes.replay_commands)
    lines.append(
        f"Replay of a scripted battle of {sizes.replay_commands:,} commands: "
        f"{figures[f'replay_{REPLAY_COMMANDS}_s']:.3f} s"
    )
    undo = measure_undo(seed, sizes.long_log)
    figures[f"undo_ms_at_{LONG_LOG}"] = undo.median_ms
    figures[f"memory_{LONG_LOG}_mib"] = undo.memory_mib
    kinds = ", ".join(f"{count:,} {kind}" for kind, count in undo.kinds)
    lines.append(
        f"Undo and redo with {undo.commands:,} commands in the log ({kinds}): median "
        f"{undo.median_ms:.3f} ms, max {undo.max_ms:.3f} ms ({len(undo.undo_redo_ms)} "
        f"commands); the battle holds {undo.memory_mib:.1f} MiB with its checkpoints"
    )
    log_append = measure_log_append(seed, sizes.log_rows, sizes.log_appends)
    figures[f"log_append_ms_at_{LOG_ROWS}"] = log_append.median
    lines.append(
        f"Combat log, one command's rows appended and repainted ({log_append.label}): "
        f"median {log_append.median:.2f} ms, p95 {log_append.p95:.2f} ms "
        f"({len(log_append.samples_ms)} commands)"
    )
    evening = run_evening(seed, sizes.evening_rounds)
    figures["long_evening_max_repaint_ms"] = evening.max_repaint_ms
    figures["long_evening_max_gui_action_ms"] = evening.max_gui_action_ms
    lines.extend(evening_lines(evening))
    setup = demo_duel_setup()
    one = pool_throughput(setup, 1, sizes.sim_batches_per_worker, sizes.sim_batch, seed)
    two = pool_throughput(setup, 2, sizes.sim_batches_per_worker, sizes.sim_batch, seed)
    figures["sim_scaling_2_workers"] = two.per_second / one.per_second if one.per_second else 0.0
    lines.append(
        f"Simulation pool, the seed 000 demo duel ({SCALING_ROUNDS} rounds a battle, batches "
        f"of {sizes.sim_batch}): {one.per_second:.2f} battles a second on 1 worker, "
        f"{two.per_second:.2f} on 2: x{figures['sim_scaling_2_workers']:.2f} "
        f"({one.battles} and {two.battles} battles after each worker's first batch; a bare "
        f"Python loop on the same pool: x{loop_scaling(sizes.sim_loop):.2f})"
    )
    growth = memory_growth(setup, sizes.sim_memory_warm_up, sizes.sim_memory_battles, seed)
    figures["sim_memory_growth_pct"] = growth.percent
    lines.append(
        f"Simulation memory in this process: {growth.before_bytes / 2**20:.1f} MiB after "
        f"{growth.warm_up} battles of warm-up, {growth.after_bytes / 2**20:.1f} MiB after "
        f"{growth.battles} more: {growth.percent:+.2f}%"
    )
    still = figures["repaint_still_ms"]
    verdict = "within" if still <= BUDGET_MS else "OVER"
    lines.append(f"Repaint budget {BUDGET_MS:.0f} ms: {verdict} (median {still:.2f} ms)")
    return figures, lines


def run(
    seed: int,
    out: Callable[[str], None] = print,
    *,
    as_json: bool = False,
    quick: bool = False,
) -> int:
    """Print the figures, readable or as one JSON object (exit status 0)."""
    figures, lines = measure(seed, QUICK if quick else Sizes())
    if as_json:
        out(json.dumps(figures, indent=2))
    else:
        for line in lines:
            out(line)
    return 0
