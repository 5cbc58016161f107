"""``hexfray --self-test``: prove that a build works, end to end, without a screen.

The self-test starts Qt offscreen, opens the demo battle in the real main window,
plays a short script through the controller (the path the GUI's clicks and panes
use): a move into contact, two attacks with announced defenses, the end of the
turn, all with a fixed seed. It then checks

* every command was accepted, and the log the panes were sent is the log the
  battle holds;
* the log lines and every combatant's HP, status, hex and facing equal the golden
  file ``assets/selftest/expected.json`` (written once by
  ``python main.py --self-test --regenerate`` from the source tree, reviewed, and
  committed: a frozen build is compared with what the source produced);
* the HP ledger: each combatant's HP is its starting HP less the injuries the log
  reports for it (independent of the golden file);
* the window renders: the map is grabbed to a picture, saved in the user cache
  folder, and the tokens are visible on it;
* every registered ruleset's demo battle (``assets/battles/demo-<key>.hexfray``)
  opens in the same window, which shows that ruleset's attack pane and draws its
  fighters (a ruleset whose package or tables a build left out fails here);
* a tiny simulation (``main.py simulate``'s runner) plays on a process pool of 2
  workers the same battles it plays in this process: the bundle starts its worker
  processes (``multiprocessing.freeze_support`` in main.py, the bundle policy
  keeping multiprocessing and concurrent);
* nothing raised an unhandled exception meanwhile.

It prints one line per check, writes the same report to ``self-test.txt`` in the
cache folder, and returns 0 only if every check passed.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import logging
import os
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QDockWidget

from app.controller import BattleController
from app.crash import CrashReporter
from app.files import BattleFileError, open_battle
from app.main_window import MainWindow, load_demo_battle
from app.user_dirs import cache_dir, current_log_file, setup_logging, stop_logging
from hexmap import direction_to
from rules.battle.commands import EndTurn, MoveCombatant, TurnCombatant
from rules.battle.model import Combatant
from rules.battle.state import BattleState, Command
from rules.core.assets import asset_path
from rules.core.events import Event
from rules.sets.protocol import Ruleset, plain_attack
from rules.sets.registry import ruleset_keys
from rules.sim.backends import BatchResult, InProcess, ProcessPool
from rules.sim.battle_record import BattleRecord, battle_setup
from rules.sim.duel import duel_of
from rules.sim.runner import run_battles

log = logging.getLogger(__name__)

SELF_TEST_SEED = 7
SIMULATION_RUNS = 4  # battles of the tiny simulation, in batches of one
SIMULATION_WORKERS = 2
EXPECTED_PARTS = ("selftest", "expected.json")
REGENERATE_COMMAND = "python main.py --self-test --regenerate"
PICTURE_NAME = "self-test.png"
REPORT_NAME = "self-test.txt"


# --- the report ---------------------------------------------------------------------
@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)

    def add(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    def lines(self) -> Iterator[str]:
        for c in self.checks:
            head = f"{'PASS' if c.ok else 'FAIL'}  {c.name}"
            yield f"{head}: {c.detail}" if c.detail and "\n" not in c.detail else head
            if "\n" in c.detail:
                yield from (f"      {line}" for line in c.detail.splitlines())
        yield "self-test passed" if self.passed else "self-test FAILED"


def _say(text: str) -> None:
    """Print if there is a console (a windowed Windows build has none)."""
    if sys.stdout is not None:
        print(text, flush=True)


# --- the script ---------------------------------------------------------------------
def expected_path() -> Path:
    return asset_path(*EXPECTED_PARTS)


def _nearest_enemy(state: BattleState, who: Combatant, exclude: set[str]) -> Combatant:
    enemies = [c for c in state.combatants if c.side != who.side and c.id not in exclude]
    if not enemies:
        enemies = [c for c in state.combatants if c.side != who.side]
    return min(enemies, key=lambda c: who.hex.distance(c.hex))  # ties: file order


def _attack(
    ruleset: Ruleset, state: BattleState, attacker: Combatant, defender: Combatant
) -> Command:
    """The ruleset's plain attack (``Attacks.default_attack``): its first weapon
    mode that reaches, the defender announcing its likeliest defense."""
    attack = plain_attack(ruleset, state, attacker.id, defender.id)
    if attack is None:
        raise RuntimeError(f"{attacker.name} cannot reach {defender.name}")
    return attack


def play_script(controller: BattleController) -> list[Command]:
    """Play the scripted turn through the controller, as the GUI would; returns the
    commands in order. Each step is derived from the state it is played on."""
    played: list[Command] = []

    def run(command: Command) -> None:
        played.append(command)
        controller.execute(command)

    state = controller.state
    first = state.combatants[0]
    target = _nearest_enemy(state, first, set())
    controller.select(first.id)
    controller.set_target(target.id)
    if first.hex.distance(target.hex) > 1:  # one step into contact
        step = first.hex.neighbor(direction_to(first.hex, target.hex))
        if step in state.grid and state.occupant(step) is None:
            run(MoveCombatant(first.id, step))
    first = controller.state.combatant(first.id)
    facing = direction_to(first.hex, target.hex)
    if first.facing != facing:
        run(TurnCombatant(first.id, facing))
    run(_attack(controller.ruleset, controller.state, controller.state.combatant(first.id), target))

    state = controller.state
    second = next(c for c in state.combatants if c.side == first.side and c.id != first.id)
    other = _nearest_enemy(state, second, {target.id})
    controller.select(second.id)
    controller.set_target(other.id)
    run(_attack(controller.ruleset, state, second, state.combatant(other.id)))
    run(EndTurn())
    return played


def describe_command(value: object) -> str:
    """A command as text, with only the fields that differ from their defaults, so
    a new optional field of a command does not change the golden file."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = []
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and item == f.default:
                continue
            factory = f.default_factory
            if factory is not dataclasses.MISSING and item == factory():
                continue
            parts.append(f"{f.name}={describe_command(item)}")
        return f"{type(value).__name__}({', '.join(parts)})"
    if isinstance(value, tuple):
        return "(" + ", ".join(describe_command(v) for v in value) + ")"
    if isinstance(value, Enum):
        return value.name
    return repr(value)


def _outcome(state: BattleState) -> dict[str, dict[str, Any]]:
    return {
        c.id: {
            "name": c.name,
            "hp": c.hp,
            "status": c.status.value,
            "hex": [c.hex.q, c.hex.r],
            "facing": c.facing.name,
        }
        for c in state.combatants
    }


# --- checks ---------------------------------------------------------------------------
def _compare(report: Report, name: str, expected: object, actual: object) -> bool:
    if expected == actual:
        return report.add(name, True)
    def dump(value: object) -> list[str]:
        return json.dumps(value, indent=1, ensure_ascii=False, sort_keys=True).splitlines()

    diff = "\n".join(
        difflib.unified_diff(dump(expected), dump(actual), "expected", "this run", lineterm="")
    )
    return report.add(name, False, f"differs from the golden file:\n{diff}")


def _hp_ledger(
    report: Report, before: BattleState, after: BattleState, events: list[Event]
) -> None:
    """Every combatant whose HP changed is named by an event of the log, and no
    event names somebody that is not on the map."""
    involved = {cid for event in events for cid in event.involved_combatants()}
    known = {c.id for c in after.combatants}
    hurt = [c.id for c in after.combatants if before.combatant(c.id).hp != c.hp]
    problems = [f"{cid}: HP changed with no event about it" for cid in hurt if cid not in involved]
    problems += [f"{cid}: named by the log but not on the map" for cid in involved - known]
    report.add(
        "HP ledger",
        not problems,
        "; ".join(problems) or f"{len(hurt)} combatant(s) hurt, every change is in the log",
    )


def _mean_colour(image: QImage, x: float, y: float, radius: int = 3) -> tuple[float, ...]:
    total = [0.0, 0.0, 0.0]
    n = 0
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            px, py = int(x) + dx, int(y) + dy
            if 0 <= px < image.width() and 0 <= py < image.height():
                c = image.pixelColor(px, py)
                total[0] += c.red()
                total[1] += c.green()
                total[2] += c.blue()
                n += 1
    return tuple(v / max(n, 1) for v in total)


def _check_picture(report: Report, window: MainWindow, controller: BattleController) -> None:
    view = window.map_view
    picture = window.grab().toImage()
    path = cache_dir() / PICTURE_NAME
    saved = not picture.isNull() and picture.save(str(path))  # PNG, by the suffix
    if not report.add("window picture", saved and QImage(str(path)).width() == picture.width(),
                      f"{picture.width()}x{picture.height()} saved to {path}"):
        return
    image = view.grab().toImage()
    state = controller.state
    occupied = {c.hex for c in state.combatants}
    empty = [h for h in state.grid.hexes() if all(h.distance(o) > 2 for o in occupied)]
    if not empty:
        report.add("tokens on the map", False, "no empty hex to compare with")
        return
    ground = _mean_colour(image, *_xy(view.hex_center(empty[0])))
    unseen = []
    for c in state.combatants:
        colour = _mean_colour(image, *_xy(view.hex_center(c.hex)))
        if sum(abs(a - b) for a, b in zip(colour, ground, strict=True)) < 60:
            unseen.append(c.id)
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7)
               for y in range(0, image.height(), 7)}
    report.add(
        "tokens on the map",
        not unseen and len(colours) >= 16,
        f"{len(state.combatants)} tokens drawn, {len(colours)} colours sampled"
        + (f"; not visible: {', '.join(unseen)}" if unseen else ""),
    )


def _check_ruleset_demos(report: Report, app: QApplication, window: MainWindow) -> None:
    """Each registered ruleset's demo battle, opened in the window and drawn."""
    for key in ruleset_keys():
        started = time.monotonic()
        name = f"ruleset {key} demo"
        path = asset_path("battles", f"demo-{key}.hexfray")
        try:
            battle = open_battle(path)
        except BattleFileError as exc:
            report.add(name, False, f"{path.name}: {exc}")
            continue
        window.replace_battle(battle)
        _settle(app)
        state = window.controller.state
        panes = window.findChildren(QDockWidget, "attackPane")
        picture = window.map_view.grab().toImage()
        ok = (
            state.ruleset_key == key
            and bool(state.combatants)
            and panes == [window.attack_pane]
            and not picture.isNull()
        )
        report.add(
            name,
            ok,
            f"{path.name}: {len(state.combatants)} fighters, round {state.turn}, "
            f"{len(panes)} attack pane(s), drawn in {time.monotonic() - started:.2f} s",
        )


def _check_simulation(report: Report) -> None:
    """The seed 000 demo duel, one round a battle, in this process and on a pool of
    ``SIMULATION_WORKERS`` worker processes: the same records."""
    started = time.monotonic()
    setup = battle_setup(duel_of(open_battle(asset_path("battles", "demo-000.hexfray")).state))

    def records(backend: InProcess | ProcessPool) -> list[BattleRecord]:
        played: list[BattleRecord] = []

        def keep(batch: BatchResult, _tally: object) -> None:
            played.extend(batch.records)

        run_battles(setup, runs=SIMULATION_RUNS, master_seed=SELF_TEST_SEED, max_rounds=1,
                    backend=backend, size=1, on_batch=keep)
        return played

    here = records(InProcess())
    pooled = records(ProcessPool(SIMULATION_WORKERS))
    report.add(
        "simulation on worker processes",
        len(here) == SIMULATION_RUNS and pooled == here,
        f"{len(pooled)} battles on {SIMULATION_WORKERS} workers, "
        + ("the same as in this process" if pooled == here else "NOT the same as in this process")
        + f", {time.monotonic() - started:.1f} s",
    )


def _xy(point: QPointF) -> tuple[float, float]:
    return point.x(), point.y()


# --- the run ------------------------------------------------------------------------
def _ensure_app() -> QApplication:
    app = QApplication.instance()
    if app is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a self-test needs no screen
        app = QApplication([sys.argv[0] if sys.argv else "hexfray"])
    assert isinstance(app, QApplication)
    return app


def _settle(app: QApplication, rounds: int = 3) -> None:
    for _ in range(rounds):
        app.processEvents()


def run_self_test(*, regenerate: bool = False, expected: Path | None = None) -> int:
    """Run every check; 0 if all passed. ``regenerate`` rewrites the golden file
    (from the source tree only) and then checks against it."""
    started = time.monotonic()
    report = Report()
    own_logging = current_log_file() is None
    if own_logging:
        setup_logging()
    app = _ensure_app()
    golden_path = expected if expected is not None else expected_path()
    errors: list[str] = []
    reporter = CrashReporter(None, lambda r, _n, _p: errors.append(r.summary)).install()
    window = None
    try:
        battle = load_demo_battle(SELF_TEST_SEED)
        initial = battle.state
        report.add("demo battle", bool(initial.combatants),
                   f"{len(initial.combatants)} combatants on a {initial.grid.width} x "
                   f"{initial.grid.height} map, seed {SELF_TEST_SEED}")
        controller = BattleController(battle)
        settings = QSettings(str(cache_dir() / "self-test-settings.ini"),
                             QSettings.Format.IniFormat)
        window = MainWindow(controller, settings, restore_layout=False, seed=SELF_TEST_SEED)
        window.show()
        _settle(app)

        sent: list[Event] = []
        refused: list[str] = []
        controller.battle_changed.connect(lambda change, _redraw: sent.extend(change.events))
        controller.command_refused.connect(refused.append)
        commands = play_script(controller)
        _settle(app)
        report.add("scripted turn", not refused and len(battle.commands) == len(commands),
                   f"{len(commands)} commands through the controller"
                   + (f"; refused: {'; '.join(refused)}" if refused else ""))
        report.add("log sent to the panes", list(battle.events) == sent,
                   f"{len(sent)} events")

        outcome = {
            "seed": SELF_TEST_SEED,
            "script": [describe_command(c) for c in commands],
            "log": [e.describe() for e in battle.events],
            "combatants": _outcome(battle.state),
        }
        if regenerate:
            _write_golden(report, golden_path, outcome)
        golden = _read_golden(report, golden_path)
        if golden is not None:
            same_setup = _compare(report, "seed and script", {
                "seed": golden.get("seed"), "script": golden.get("script")},
                {"seed": outcome["seed"], "script": outcome["script"]})
            if same_setup:
                _compare(report, "log lines", golden.get("log"), outcome["log"])
                _compare(report, "hit points and positions",
                         golden.get("combatants"), outcome["combatants"])
        _hp_ledger(report, initial, battle.state, list(battle.events))
        _check_picture(report, window, controller)
        _check_ruleset_demos(report, app, window)
        _check_simulation(report)
    except Exception:  # a failing step is a failed self-test, with the traceback
        report.add("no exceptions", False, traceback.format_exc().rstrip())
    finally:
        if window is not None:
            window.close()
            window.deleteLater()
        _settle(app)
        reporter.uninstall()
    report.add("no unhandled errors", not errors, "; ".join(errors))
    lines = list(report.lines())
    lines.insert(-1, f"({time.monotonic() - started:.1f} s; picture and report in {cache_dir()})")
    text = "\n".join(lines)
    for line in lines:
        _say(line)
    (cache_dir() / REPORT_NAME).write_text(text + "\n", encoding="utf-8")
    log.info("self-test:\n%s", text)  # printed above already: not on the console again
    if own_logging:
        stop_logging()
    return 0 if report.passed else 1


def _write_golden(report: Report, path: Path, outcome: dict[str, Any]) -> None:
    if getattr(sys, "frozen", False):
        report.add("regenerate", False, "only from the source tree: the bundle is read-only")
        return
    document = {
        "about": (
            "Golden results of Hexfray's self-test (app/self_test.py): the demo battle, "
            f"seed {SELF_TEST_SEED}, the scripted turn. Regenerate with "
            f"`{REGENERATE_COMMAND}` only after a deliberate change to the rules, the "
            "demo or the script, and review the diff."
        ),
        **outcome,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    report.add("regenerate", True, f"wrote {path}")


def _read_golden(report: Report, path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        report.add("golden file", False, f"{path}: {exc} (create it with `{REGENERATE_COMMAND}`)")
        return None
    if not isinstance(data, dict):
        report.add("golden file", False, f"{path}: not a JSON object")
        return None
    return data
