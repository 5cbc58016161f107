"""``main.py --benchmark``: how fast the map repaints and the rules resolve attacks.

Repaint: a 100x100 map with 40 combatants, one selected (arcs and reach shown), a
target set and a few highlighted hexes, in a 1600x1000 view at normal zoom (1.0),
rendered into a QImage through the widget's own paint path. Reported as the median
and 95th percentile of the steady state (view still), while panning (the view moves
a few pixels each frame, as during a drag) and while zooming (every frame a new
zoom: token pixmaps are redrawn).

Attacks: ``Attack.resolve`` (plan + resolve, dice from one seeded RNG) in a loop for
at least two seconds, between pairs of the demo's fighters.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from app.controller import BattleController
from app.map.view import MapView
from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Attack, Battle, BattleState
from rules.battle.model import Combatant, Side, Status
from rules.core.assets import read_json
from rules.core.errors import RulesError
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.catalog import load_battle_setup
from rules.sets.seed000.defense import DefenseChoice, DefenseKind

VIEW_WIDTH, VIEW_HEIGHT = 1600, 1000
MAP_SIZE = 100
COMBATANTS = 40
BUDGET_MS = 16.0


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
    resolutions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.resolutions / self.seconds


def demo_combatants() -> tuple[HexGrid, tuple[Combatant, ...]]:
    return load_battle_setup(read_json("battles", "demo.json"))


def big_battle(seed: int, size: int = MAP_SIZE, count: int = COMBATANTS) -> Battle:
    """A ``size`` x ``size`` map with ``count`` combatants made from the demo's fighters,
    crowded around the middle so that all of them are in a 1600x1000 view."""
    _grid, templates = demo_combatants()
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
    return Battle(BattleState(grid, tuple(combatants)), seed)


def time_repaints(
    view: MapView, frames: int, step: Callable[[int], None] | None = None
) -> tuple[float, ...]:
    """Milliseconds per repaint of the whole view into a QImage."""
    image = QImage(view.width(), view.height(), QImage.Format.Format_ARGB32_Premultiplied)
    rect = QRectF(0, 0, view.width(), view.height())
    samples: list[float] = []
    for i in range(frames + 3):
        if step is not None:
            step(i)
        t0 = time.perf_counter()
        painter = QPainter(image)
        view.paint(painter, rect)
        painter.end()
        elapsed = (time.perf_counter() - t0) * 1000.0
        if i >= 3:  # the first frames fill the caches
            samples.append(elapsed)
    return tuple(samples)


def prepare_view(seed: int) -> tuple[BattleController, MapView]:
    controller = BattleController(big_battle(seed))
    view = MapView(controller)
    view.resize(VIEW_WIDTH, VIEW_HEIGHT)
    selected = controller.state.combatants[14]
    controller.select(selected.id)
    controller.set_target(controller.state.combatants[15].id)
    controller.highlight(tuple(selected.hex + Hex(k, 0) for k in range(-3, 4)))
    view.set_zoom(1.0)
    view.center_on(selected.hex)
    return controller, view


def measure_map(seed: int, frames: int = 120) -> list[Timing]:
    _controller, view = prepare_view(seed)
    still = Timing("still view", time_repaints(view, frames))
    direction = [1.0]

    def pan(i: int) -> None:
        if i % 40 == 0:
            direction[0] = -direction[0]
        view.pan_by(3.0 * direction[0], 2.0 * direction[0])

    panning = Timing("panning", time_repaints(view, frames, pan))
    view.set_zoom(1.0)
    zooms = [1.0 + 0.01 * k for k in range(1, frames + 4)]

    def zoom(i: int) -> None:
        view.set_zoom(zooms[i])

    zooming = Timing("zooming (new zoom every frame)", time_repaints(view, frames, zoom))
    view.set_zoom(1.0)
    return [still, panning, zooming]


def attack_cases() -> list[tuple[Attack, BattleState]]:
    """Every demo fighter attacking every other with each weapon mode, the defender
    placed at the mode's shortest reach straight ahead, facing three ways in turn,
    and dodging: the whole plan + resolve path, the defense roll included."""
    _grid, templates = demo_combatants()
    grid = HexGrid(12, 12)
    origin = Hex.from_offset(6, 6)
    probe = random.Random(0)
    cases: list[tuple[Attack, BattleState]] = []
    for a_template in templates:
        for d_template in templates:
            if a_template.id == d_template.id:
                continue
            for weapon in a_template.fighter.weapons:
                for mode in weapon.modes:
                    distance = min((d for d in mode.reach.distances if d > 0), default=None)
                    if distance is None:
                        continue
                    for facing in (Facing.S, Facing.SE, Facing.N):
                        attacker = replace(
                            a_template, id="attacker", hex=origin, facing=Facing.N,
                            hp=a_template.fighter.hit_points, status=Status.ACTIVE,
                        )
                        defender = replace(
                            d_template, id="defender",
                            hex=origin + Facing.N.vector.scale(distance), facing=facing,
                            hp=d_template.fighter.hit_points, status=Status.ACTIVE,
                        )
                        options = AttackOptions(
                            weapon_key=weapon.key, mode=mode.name,
                            defenses=(DefenseChoice(DefenseKind.DODGE),),
                        )
                        command = Attack(attacker.id, defender.id, options)
                        state = BattleState(grid, (attacker, defender))
                        try:
                            command.resolve(state, probe)
                        except RulesError:
                            continue
                        cases.append((command, state))
    return cases


def measure_attacks(seed: int, seconds: float = 2.0) -> AttackRate:
    cases = attack_cases()
    if not cases:
        raise RuntimeError("the demo fighters offer no attack to resolve")
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for command, state in cases:
            command.resolve(state, rng)
        done += len(cases)
        now = time.perf_counter()
        if now >= deadline:
            return AttackRate(done, now - start)


def run(
    seed: int,
    out: Callable[[str], None] = print,
    *,
    frames: int = 120,
    attack_seconds: float = 2.0,
) -> int:
    """Print the figures (exit status 0)."""
    out(f"Hexfray benchmark (seed {seed})")
    out(
        f"Map repaint: {MAP_SIZE}x{MAP_SIZE} hexes, {COMBATANTS} combatants, arcs + reach + "
        f"target + highlight, {VIEW_WIDTH}x{VIEW_HEIGHT} view, zoom 1.0"
    )
    timings = measure_map(seed, frames)
    for t in timings:
        out(
            f"  {t.label:<30} median {t.median:6.2f} ms   p95 {t.p95:6.2f} ms   "
            f"({len(t.samples_ms)} repaints)"
        )
    rate = measure_attacks(seed, attack_seconds)
    out(
        f"Attack resolutions: {rate.per_second:,.0f} per second "
        f"({rate.resolutions:,} in {rate.seconds:.2f} s, plan + resolve, seeded dice)"
    )
    still = timings[0]
    verdict = "within" if still.median <= BUDGET_MS else "OVER"
    out(f"Repaint budget {BUDGET_MS:.0f} ms: {verdict} (median {still.median:.2f} ms)")
    return 0
