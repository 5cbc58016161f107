"""Measure Hexfray's one-folder build against a minimal PySide6 window's, in one run.

    python packaging/measure.py               # build both, measure, print, check budgets
    python packaging/measure.py --skip-build  # measure the builds already there
    python packaging/measure.py --onefile     # also build and time the one-file variant

The yardstick is packaging/minimal_app.py (a QMainWindow with a label) built as a
plain PyInstaller one-folder build with default options. Budgets:

* size: Hexfray's dist/hexfray/ at most 1.25 x the minimal build's folder;
* start: launch to first painted window at most 1.5 x the minimal build's.

Start is timed from just before ``Popen`` to the ``FIRST_PAINT <time.monotonic()>``
line both programs print with ``--measure-startup`` once their window's first frame
is painted (the clock is the same across processes). Qt runs offscreen; Hexfray
gets a fresh HEXFRAY_HOME each run, so it starts as on a new machine (first-run
guide included). After one warm-up launch each, the two are launched alternately
``--runs`` times (at least 5) and the medians compared, so a busy machine slows
both alike. Exits 1 if a budget is exceeded.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import build  # noqa: E402  (packaging/build.py, beside this file)

WORK = ROOT / "build" / "measure"
SIZE_BUDGET = 1.25
START_BUDGET = 1.5
EXE_SUFFIX = ".exe" if sys.platform == "win32" else ""


def build_minimal() -> Path:
    """A plain one-folder build of minimal_app.py: PyInstaller's defaults."""
    command = [
        sys.executable, "-m", "PyInstaller", str(HERE / "minimal_app.py"),
        "--noconfirm", "--clean", "--name", "minimal",
        "--distpath", str(WORK / "dist"), "--workpath", str(WORK / "work"),
        "--specpath", str(WORK), "--log-level", "WARN",
    ]  # fmt: skip
    subprocess.run(command, cwd=ROOT, check=True)
    return minimal_executable()


def minimal_executable() -> Path:
    return WORK / "dist" / "minimal" / f"minimal{EXE_SUFFIX}"


def folder_size(path: Path) -> int:
    """Bytes of every regular file below ``path`` (symlinks count nothing)."""
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            file = Path(folder) / name
            if not file.is_symlink():
                total += file.stat().st_size
    return total


def time_to_first_paint(executable: Path, timeout: float = 60.0) -> float:
    """Seconds from launching ``executable --measure-startup`` to its first paint."""
    with tempfile.TemporaryDirectory(prefix="hexfray-measure-") as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HEXFRAY_HOME=home)
        started = time.monotonic()
        process = subprocess.Popen(
            [str(executable), "--measure-startup"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            text=True,
        )
        painted = None
        assert process.stdout is not None
        for line in process.stdout:
            if line.startswith("FIRST_PAINT "):
                painted = float(line.split()[1])
                break
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if painted is None:
            raise RuntimeError(f"{executable} printed no FIRST_PAINT (exit {process.returncode})")
        return painted - started


def median_starts(executables: dict[str, Path], runs: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in executables}
    for exe in executables.values():
        time_to_first_paint(exe)  # warm-up: the page cache, not the measure
    for i in range(runs):
        order = list(executables.items())
        if i % 2:
            order.reverse()
        for name, exe in order:
            times[name].append(time_to_first_paint(exe))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-build", action="store_true", help="measure existing builds")
    parser.add_argument("--onefile", action="store_true", help="also time the one-file build")
    parser.add_argument("--runs", type=int, default=7, help="launches of each (>= 5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    runs = max(5, args.runs)

    if not args.skip_build:
        build_minimal()
        build.build(quiet=True)
        if args.onefile:
            build.build(onefile=True, quiet=True)
    executables = {"minimal": minimal_executable(), "hexfray": build.executable()}
    if args.onefile:
        executables["hexfray one-file"] = build.executable(onefile=True)
    for name, exe in executables.items():
        if not exe.exists():
            print(f"{name}: {exe} is missing (run without --skip-build)", file=sys.stderr)
            return 2

    sizes = {
        "minimal": folder_size(executables["minimal"].parent),
        "hexfray": folder_size(executables["hexfray"].parent),
    }
    times = median_starts(executables, runs)
    start = {name: statistics.median(values) for name, values in times.items()}
    size_ratio = sizes["hexfray"] / sizes["minimal"]
    start_ratio = start["hexfray"] / start["minimal"]
    size_ok, start_ok = size_ratio <= SIZE_BUDGET, start_ratio <= START_BUDGET

    mib = 1024 * 1024
    rows = [
        ("one-folder size (MiB)", f"{sizes['minimal'] / mib:.1f}",
         f"{sizes['hexfray'] / mib:.1f}", size_ratio, SIZE_BUDGET, size_ok),
        (f"start to first paint (ms, median of {runs})", f"{start['minimal'] * 1000:.0f}",
         f"{start['hexfray'] * 1000:.0f}", start_ratio, START_BUDGET, start_ok),
    ]  # fmt: skip
    print(f"\n{'':42} {'minimal':>9} {'hexfray':>9} {'ratio':>7} {'budget':>7}")
    for label, a, b, ratio, budget, ok in rows:
        verdict = "ok" if ok else "OVER BUDGET"
        print(f"{label:42} {a:>9} {b:>9} {ratio:>7.2f} {budget:>7.2f}  {verdict}")
    if "hexfray one-file" in start:
        one = start["hexfray one-file"] * 1000
        print(f"{'one-file start (ms, median; no budget)':42} {'':>9} {one:>9.0f}")
    for name, values in times.items():
        print(f"  {name} runs (ms): " + " ".join(f"{v * 1000:.0f}" for v in values))

    if args.json:
        args.json.write_text(json.dumps({
            "size_bytes": sizes, "start_seconds_median": start, "start_seconds": times,
            "size_ratio": size_ratio, "start_ratio": start_ratio,
            "budgets": {"size": SIZE_BUDGET, "start": START_BUDGET},
        }, indent=2) + "\n", encoding="utf-8")  # fmt: skip
    return 0 if size_ok and start_ok else 1


if __name__ == "__main__":
    sys.exit(main())
