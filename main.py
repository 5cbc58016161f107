"""Hexfray: a game master's hex map for tactical melee battles.

python main.py                      open the demo battle
python main.py FILE.hexfray         open a saved battle (--screenshot works with it too)
python main.py --screenshot F.png   save the main window (offscreen, 1366x768)
python main.py --benchmark [--json] print map repaint, attack, odds and replay speed
python main.py --seed N             the demo battle's dice seed (default: a new one each
                                    launch of the window, 1 for the other modes)
python main.py --self-test          check this build end to end offscreen
python main.py --list-rulesets      print each ruleset's key, name and options, one a line
python main.py autobattle FILE.hexfray [--seed S] [--max-rounds N] [--save OUT.hexfray] [--json]
                                    play a battle to its end with computer fighters, no window
python main.py simulate FILE.hexfray --runs N --seed S [--workers K] [--scheduler ADDR]
                        [--until-ci W] [--max-rounds R] [--json] [--csv OUT] [--sweep SPEC]
                                    many battles on every core (or a Dask cluster), counted
"""

from __future__ import annotations

import multiprocessing

if __name__ == "__main__":
    # First thing: a packaged program's simulation workers are this executable
    # started again; here they run their work and exit, before Qt is even imported.
    multiprocessing.freeze_support()

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QMessageBox

from app.autobattle import run as run_autobattle
from app.benchmark import run as run_benchmark_figures
from app.collector import pause_collector, settle_collector
from app.controller import BattleController
from app.crash import install_crash_handler
from app.files import BattleFileError, open_battle, show_damaged_bundle
from app.gcs_import import batch_summary, import_to_template
from app.help import maybe_show_first_run_guide
from app.main_window import MainWindow, load_demo_battle
from app.new_battle import random_seed
from app.screenshot import save_screenshot
from app.self_test import run_self_test as self_test
from app.simulate_cli import run as run_simulate
from app.startup_probe import install_startup_probe
from app.user_dirs import (
    UserFolder,
    buffer_early_logging,
    cache_dir,
    config_dir,
    data_dir,
    finish_early_logging,
    log_dir,
    setup_logging,
    templates_dir,
    user_folder_problem,
)
from rules.battle.battle import Battle
from rules.core.errors import DataError, RulesError
from rules.sets.registry import get_ruleset, ruleset_keys

APP_NAME = "Hexfray"
ORGANISATION = "Hexfray"
DEFAULT_SEED = 1
SEED_MESSAGE_MS = 10_000
EXIT_BAD_FILE = 2  # a battle file that cannot be opened (as argparse's usage errors)
EXIT_NO_USER_FOLDER = 2  # a user folder that cannot be made: the GM's setting, not the build
# The user folders each mode needs, made before it starts (the autosave's folder is
# not among them: the window warns while it cannot be made, and tries again).
WINDOW_FOLDERS: tuple[UserFolder, ...] = (config_dir, log_dir, data_dir, templates_dir)
SCREENSHOT_FOLDERS: tuple[UserFolder, ...] = (config_dir, data_dir, templates_dir)
SELF_TEST_FOLDERS: tuple[UserFolder, ...] = (*WINDOW_FOLDERS, cache_dir)
BENCHMARK_FOLDERS: tuple[UserFolder, ...] = (config_dir,)  # the combat log pane's settings
IMPORT_FOLDERS: tuple[UserFolder, ...] = (data_dir, templates_dir)
EXIT_DAMAGED_BUNDLE = 1  # a table that came with Hexfray cannot be read


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="hexfray",
        description="A game master's hex map for tactical melee battles.",
    )
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE.hexfray",
        type=Path,
        help="a saved battle to open instead of the demo battle",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--screenshot",
        metavar="FILE.png",
        type=Path,
        help="render the main window offscreen at 1366x768 with a selection and a "
        "target, save it as PNG and exit",
    )
    mode.add_argument(
        "--benchmark",
        action="store_true",
        help="print the map's repaint times, the attack commands per second, the "
        "exact odds' times and the replay time",
    )
    mode.add_argument(
        "--self-test",
        action="store_true",
        help="check this build end to end offscreen (demo battle, a scripted attack "
        "against assets/selftest/expected.json, a rendered map); exit 0 only if all pass",
    )
    mode.add_argument(
        "--list-rulesets",
        action="store_true",
        help="print each ruleset a New Battle offers, one a line: its key, its name and "
        "its options with what each does, and exit",
    )
    mode.add_argument(
        "--import-gcs",
        metavar="FILE.gcs",
        type=Path,
        help="with --to-template NAME: import a GURPS Character Sheet file as your "
        "template NAME (in the user data folder; the fighter keeps the character's "
        "name), print what was written and exit, without a window",
    )
    mode.add_argument(
        "--measure-startup",
        action="store_true",
        help="print FIRST_PAINT <monotonic seconds> once the window is painted, then quit",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="with --benchmark: print the figures as one JSON object",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="with --benchmark: a small run (smaller maps, fewer frames and commands) "
        "that only shows the benchmark works; its figures mean nothing",
    )
    parser.add_argument(
        "--regenerate",
        action="store_true",
        help="with --self-test: rewrite assets/selftest/expected.json (source tree only)",
    )
    parser.add_argument(
        "--to-template",
        metavar="NAME",
        help="with --import-gcs: the name of the template to write",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the demo battle's dice seed (default: a new random one each time the window "
        f"opens, shown in the status bar; {DEFAULT_SEED} for --screenshot, --self-test and "
        "--benchmark, whose figures and pictures must repeat)",
    )
    args = parser.parse_args(argv)
    if (args.json or args.quick) and not args.benchmark:
        parser.error("--json and --quick go with --benchmark")
    if (args.import_gcs is None) != (args.to_template is None):
        parser.error("--import-gcs and --to-template go together")
    if args.file is not None and (
        args.benchmark
        or args.self_test
        or args.measure_startup
        or args.import_gcs
        or args.list_rulesets
    ):
        parser.error("a battle file goes with the window or --screenshot")
    return args


def _use_offscreen() -> None:
    """Headless modes draw without a display (must run before the QApplication)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _application(argv: Sequence[str]) -> QCoreApplication:
    QCoreApplication.setOrganizationName(ORGANISATION)
    QCoreApplication.setApplicationName(APP_NAME)
    app = QApplication.instance()
    return app if app is not None else QApplication([sys.argv[0], *argv])


def run_screenshot(path: Path, seed: int, battle: Battle | None = None) -> int:
    _use_offscreen()
    _application([])
    if not save_screenshot(path, seed, battle):
        print(f"could not write {path}", file=sys.stderr)
        return 1
    print(f"saved {path}")
    return 0


def run_benchmark(seed: int, *, as_json: bool, quick: bool) -> int:
    _use_offscreen()
    _application([])
    return run_benchmark_figures(seed, as_json=as_json, quick=quick)


def run_self_test(regenerate: bool) -> int:
    # The self-test starts its own offscreen application.
    return self_test(regenerate=regenerate)


def seed_message(seed: int) -> str:
    """What the status bar says of the demo's dice once the window opens: the seed,
    and how to play the same dice again from the window (a packaged program has
    no command line to show)."""
    return (
        f"Demo battle, dice seed {seed}: File ▸ New Demo Battle plays it again "
        "with the same dice"
    )


def open_window(
    seed: int,
    *,
    measure_startup: bool = False,
    battle: Battle | None = None,
    battle_file: Path | None = None,
    open_in_window: Path | None = None,
) -> MainWindow:
    """The main window on ``battle`` (opened from ``battle_file``) or the demo
    battle, shown as the GUI starts it: the map and its first frame come first; the
    panes, the log file, the autosave and the first-run guide right after that
    frame (``MainWindow.call_after_first_paint``). ``open_in_window``: a file that
    could not be opened, opened again by File ▸ Open's logic, which tells why."""
    controller = BattleController(battle if battle is not None else load_demo_battle(seed))
    window = MainWindow(controller, seed=controller.battle.seed, defer_panes=True)
    install_crash_handler(window)
    if measure_startup:
        install_startup_probe(window)
    window.show()
    if battle is None:  # the demo starts with its turn order, which loads the ruleset
        window.call_after_first_paint(
            lambda: controller.replace_battle(load_demo_battle(seed, turn_order=True))
        )
        window.call_after_first_paint(
            lambda: window.statusBar().showMessage(seed_message(seed), SEED_MESSAGE_MS)
        )
    window.call_after_first_paint(setup_logging)
    # The autosave, then the offer to restore what a crash left (app.file_actions),
    # then the first-run guide: after the offer is answered, not over it, and only
    # over the demo battle (not over a restored one, a file opened or its refusal).
    demo_shown = battle is None and open_in_window is None

    def welcome(restored: bool) -> None:
        if demo_shown and not restored:
            maybe_show_first_run_guide(window)

    window.call_after_first_paint(lambda: window.file_actions.start(battle_file, then=welcome))
    if open_in_window is not None:
        window.call_after_first_paint(
            lambda: window.file_actions.open_path(open_in_window, asked=True)
        )
    return window


def run_gui(
    seed: int,
    measure_startup: bool = False,
    battle: Battle | None = None,
    battle_file: Path | None = None,
    open_in_window: Path | None = None,
) -> int:
    # Start-up makes tens of thousands of objects that live as long as the program:
    # no cyclic collection, which would walk them over and over, until the window and
    # its panes are up (docs/packaging.md, "How Hexfray starts quickly"). A bundle
    # paused it already, before Qt was imported (packaging/rthook_pause_gc.py).
    pause_collector()
    app = _application(sys.argv[1:])
    # The log file is set up right after the first frame; until then the records
    # wait in memory (and reach the file even if start-up fails).
    buffer_early_logging()
    try:
        try:
            window = open_window(
                seed,
                measure_startup=measure_startup,
                battle=battle,
                battle_file=battle_file,
                open_in_window=open_in_window,
            )
        except DataError as damaged:  # a bundled table: a dialog, as no terminal may show
            show_damaged_bundle(damaged)
            return EXIT_DAMAGED_BUNDLE
        # After the panes (queued first): from then on the collector walks only
        # what the battle makes (app.collector).
        window.call_after_first_paint(settle_collector)
        return app.exec()
    finally:
        gc.enable()  # also when the event loop ended before the first paint
        finish_early_logging()


def run_import_to_template(source: Path, name: str) -> int:
    """Import a character file as the GM's template: one line on stdout, or one on
    stderr and status 2 for a file that cannot be read or imported."""
    try:
        template, result = import_to_template(source, name)
    except OSError as exc:
        print(
            f"hexfray: cannot use {exc.filename or source}: {exc.strerror or exc}", file=sys.stderr
        )
        return EXIT_BAD_FILE
    except DataError as exc:
        message = " ".join(str(exc).split())
        print(f"hexfray: cannot import {source}: {message}", file=sys.stderr)
        return EXIT_BAD_FILE
    print(batch_summary(source, template, result))
    return 0


def ruleset_lines() -> tuple[list[str], list[str]]:
    """One line per registered ruleset: "<key>  <name>  options: <option> (<what it
    does>); ..." (or "options: none"); and one line per ruleset that cannot load."""
    lines: list[str] = []
    problems: list[str] = []
    for key in ruleset_keys():
        try:
            ruleset = get_ruleset(key)
            options = "; ".join(
                f"{option} ({' '.join(explanation.split())})"
                for option, explanation in ruleset.available_options.items()
            )
            lines.append(f"{key}  {ruleset.name}  options: {options or 'none'}")
        except (RulesError, ImportError) as exc:  # a damaged bundle or package
            problems.append(f"hexfray: ruleset {key} cannot be loaded: {exc}")
    return lines, problems


def run_list_rulesets() -> int:
    lines, problems = ruleset_lines()
    for line in lines:
        print(line)
    for problem in problems:
        print(problem, file=sys.stderr)
    return EXIT_DAMAGED_BUNDLE if problems else 0


def user_folders_for(args: argparse.Namespace) -> tuple[UserFolder, ...]:
    """The user folders the mode of ``args`` writes to or reads from."""
    if args.list_rulesets:
        return ()
    if args.import_gcs is not None:
        return IMPORT_FOLDERS
    if args.self_test:
        return SELF_TEST_FOLDERS
    if args.screenshot is not None:
        return SCREENSHOT_FOLDERS
    if args.benchmark:
        return BENCHMARK_FOLDERS
    return WINDOW_FOLDERS


def refuse_to_start(problem: str, *, window: bool) -> int:
    """A user folder that cannot be made: one line on stderr and status 2, and for
    a bundle's window, which a double-click starts with no terminal, a dialog."""
    print(f"hexfray: {problem}", file=sys.stderr)
    if window and getattr(sys, "frozen", False):
        _application([])
        QMessageBox.critical(None, "Hexfray cannot start", f"Hexfray cannot start: it {problem}.")
    return EXIT_NO_USER_FOLDER


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["autobattle"]:  # a command of its own, with its own options
        return run_autobattle(arguments[1:])
    if arguments[:1] == ["simulate"]:  # many battles, counted (rules.sim)
        settle_collector()  # paused by the bundle's runtime hook for the window's start
        return run_simulate(arguments[1:])
    args = parse_args(argv)
    folder_problem = user_folder_problem(user_folders_for(args))
    if folder_problem is not None:
        return refuse_to_start(folder_problem, window=is_window_mode(args))
    if args.list_rulesets:
        return run_list_rulesets()
    if args.import_gcs is not None:
        return run_import_to_template(args.import_gcs, args.to_template)
    if not is_window_mode(args):
        settle_collector()  # paused by the bundle's runtime hook for the window's start

    battle = None
    battle_file = args.file
    open_in_window = None
    if args.file is not None:
        try:
            battle = open_battle(args.file)
        except BattleFileError as refusal:
            if not (is_window_mode(args) and getattr(sys, "frozen", False)):
                print(f"hexfray: cannot open {args.file}: {refusal}", file=sys.stderr)
                return EXIT_BAD_FILE
            # A bundle opened by a double-click has no terminal to print to: the
            # window opens and its Open says why, offering what replays, if any.
            battle_file, open_in_window = None, args.file

    if args.self_test:
        return run_self_test(args.regenerate)
    if args.screenshot is not None:
        return run_screenshot(args.screenshot, battle_seed(args.seed, window=False), battle)
    if args.benchmark:
        seed = battle_seed(args.seed, window=False)
        return run_benchmark(seed, as_json=args.json, quick=args.quick)
    return run_gui(
        battle_seed(args.seed, window=True),
        measure_startup=args.measure_startup,
        battle=battle,
        battle_file=battle_file,
        open_in_window=open_in_window,
    )


def is_window_mode(args: argparse.Namespace) -> bool:
    return not (
        args.self_test
        or args.screenshot is not None
        or args.benchmark
        or args.import_gcs is not None
        or args.list_rulesets
    )


def battle_seed(requested: int | None, *, window: bool) -> int:
    """The demo battle's seed: the one asked for; else, for the GM's window, a new
    random one each launch (the same dice every evening would be no dice at all);
    else 1, so that the screenshot and the benchmark repeat."""
    if requested is not None:
        return requested
    return random_seed() if window else DEFAULT_SEED


if __name__ == "__main__":
    sys.exit(main())
