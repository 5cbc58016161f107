"""Hexfray: a game master's hex map for tactical melee battles.

python main.py                      open the demo battle
python main.py --screenshot F.png   save the main window (offscreen, 1366x768)
python main.py --benchmark          print map repaint and attack resolution speed
python main.py --seed N             the battle's dice seed (default 1)
python main.py --self-test          check this build end to end offscreen
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Sequence
from pathlib import Path

APP_NAME = "Hexfray"
ORGANISATION = "Hexfray"
DEFAULT_SEED = 1


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="hexfray",
        description="A game master's hex map for tactical melee battles.",
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
        help="print the map's repaint time and the attack resolutions per second",
    )
    mode.add_argument(
        "--self-test",
        action="store_true",
        help="check this build end to end offscreen (demo battle, a scripted attack "
        "against assets/selftest/expected.json, a rendered map); exit 0 only if all pass",
    )
    mode.add_argument(
        "--measure-startup",
        action="store_true",
        help="print FIRST_PAINT <monotonic seconds> once the window is painted, then quit",
    )
    parser.add_argument(
        "--regenerate",
        action="store_true",
        help="with --self-test: rewrite assets/selftest/expected.json (source tree only)",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"battle seed (default {DEFAULT_SEED})"
    )
    return parser.parse_args(argv)


def _use_offscreen() -> None:
    """Headless modes draw without a display (must run before the QApplication)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _application(argv: Sequence[str]) -> object:
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName(ORGANISATION)
    QCoreApplication.setApplicationName(APP_NAME)
    app = QApplication.instance()
    return app if app is not None else QApplication([sys.argv[0], *argv])


def run_screenshot(path: Path, seed: int) -> int:
    _use_offscreen()
    _application([])
    from app.screenshot import save_screenshot

    if not save_screenshot(path, seed):
        print(f"could not write {path}", file=sys.stderr)
        return 1
    print(f"saved {path}")
    return 0


def run_benchmark(seed: int) -> int:
    _use_offscreen()
    _application([])
    from app.benchmark import run

    return run(seed)


def run_gui(seed: int, measure_startup: bool = False) -> int:
    # Start-up makes tens of thousands of objects that live as long as the program:
    # no cyclic collection, which would walk them over and over, until the window and
    # its panes are up (docs/packaging.md, "How Hexfray starts quickly"). A bundle
    # paused it already, before Qt was imported (packaging/rthook_pause_gc.py).
    gc.disable()
    app = _application(sys.argv[1:])
    from app.user_dirs import buffer_early_logging, finish_early_logging, setup_logging

    # The log file is set up right after the first frame; until then the records
    # wait in memory (and reach the file even if start-up fails).
    buffer_early_logging()
    try:
        from app.controller import BattleController
        from app.crash import install_crash_handler
        from app.help import maybe_show_first_run_guide
        from app.main_window import MainWindow, load_demo_battle

        controller = BattleController(load_demo_battle(seed))
        # The panes and the first-run guide come right after the map's first frame.
        window = MainWindow(controller, seed=seed, defer_panes=True)
        install_crash_handler(window)
        if measure_startup:
            from app.startup_probe import install_startup_probe

            install_startup_probe(window)
        window.show()
        window.call_after_first_paint(setup_logging)
        window.call_after_first_paint(lambda: maybe_show_first_run_guide(window))
        window.call_after_first_paint(gc.enable)  # after the panes (queued first)
        return int(app.exec())  # type: ignore[attr-defined]
    finally:
        gc.enable()
        finish_early_logging()


def main(argv: Sequence[str] | None = None) -> int:
    # A bundle takes its dataclasses' methods precompiled by the build (a no-op
    # from source; app/fast_start.py).
    from app.fast_start import install_bundled_dataclass_code

    install_bundled_dataclass_code()
    args = parse_args(argv)
    if args.self_test or args.screenshot is not None or args.benchmark:
        gc.enable()  # paused by the bundle's runtime hook for the window's start

    if args.self_test:
        # The self-test starts its own offscreen application.
        from app.self_test import run_self_test

        return run_self_test(regenerate=args.regenerate)
    if args.screenshot is not None:
        return run_screenshot(args.screenshot, args.seed)
    if args.benchmark:
        return run_benchmark(args.seed)
    return run_gui(args.seed, measure_startup=args.measure_startup)


if __name__ == "__main__":
    sys.exit(main())
