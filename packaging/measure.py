"""Measure Hexfray's start-up and size against minimal PySide6 windows, in one run.

    python packaging/measure.py               # build both, measure, print, check budgets
    python packaging/measure.py --skip-build  # measure the builds already there
    python packaging/measure.py --source-only # only the from-source start (no builds)
    python packaging/measure.py --onefile     # also build and time the one-file variant
    python packaging/measure.py --instructions  # also count instructions (valgrind)

The yardstick is packaging/minimal_app.py, a QMainWindow with a label (a hello-world
window), both as a plain PyInstaller one-folder build with default options and run
from source. Budgets:

* size: Hexfray's dist/hexfray/ at most 1.25 x the minimal build's folder;
* packaged start: launch to first painted window at most 2.0 x the minimal build's;
* start from source: ``python main.py`` at most 2.0 x ``python minimal_app.py``,
  with this Python.

Start is timed from just before ``Popen`` to the ``FIRST_PAINT <time.monotonic()>``
line every program prints with ``--measure-startup`` once its window's first frame
is painted (the clock is the same across processes). Qt runs offscreen; Hexfray
gets a fresh HEXFRAY_HOME each run, so it starts as on a new machine (first-run
guide included). Before the launches the project's packages are compiled to
bytecode (``compileall``, as the first ``python main.py`` leaves them on a usual
machine), so that the figure does not hang on whether this environment lets
Python write ``__pycache__`` (``PYTHONDONTWRITEBYTECODE``): PySide6 and the
standard library start from their installed bytecode, so Hexfray's own modules do
too, as the bundle's do. After one warm-up launch each, the four are launched in
turn ``--runs`` times (at least 5; the order reversed every other round) and each
Hexfray median compared with its yardstick's, so a busy machine slows both alike.
Exits 1 if a budget is exceeded.

``--instructions`` also runs each program once under valgrind's callgrind and
counts the instructions it executes up to its first paint (the profile is cut
where the probe quits, ``QCoreApplication::quit``): a figure the load of a shared
machine does not change, for comparing two versions of the code when the timings
are too noisy. The budgets stay those of the timings; the ratios of the counts
are printed beside them (they run a little higher, as the counts leave out what
both programs wait for alike: loading the libraries from disk, the kernel).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import build  # noqa: E402  (packaging/build.py, beside this file)

WORK = ROOT / "build" / "measure"
SIZE_BUDGET = 1.25
START_BUDGET = 2.0  # packaged Hexfray against the packaged minimal window
SOURCE_START_BUDGET = 2.0  # Hexfray from source against the minimal window from source
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


def source_commands() -> dict[str, list[str]]:
    """The minimal window and Hexfray run from source by this Python."""
    return {
        "minimal (source)": [sys.executable, str(HERE / "minimal_app.py")],
        "hexfray (source)": [sys.executable, str(ROOT / "main.py")],
    }


def compile_sources() -> None:
    """Bytecode for every package of the project (what the first start from source
    writes when Python may), quietly; stale or missing ``.pyc`` files only."""
    for package in sorted(ROOT.glob("*/__init__.py")):
        if not compileall.compile_dir(package.parent, quiet=1):
            raise RuntimeError(f"{package.parent} does not compile")


def time_to_first_paint(command: Sequence[str], timeout: float = 60.0) -> float:
    """Seconds from launching ``command --measure-startup`` to its first paint."""
    with tempfile.TemporaryDirectory(prefix="hexfray-measure-") as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HEXFRAY_HOME=home)
        started = time.monotonic()
        process = subprocess.Popen(
            [*command, "--measure-startup"],
            cwd=ROOT,
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
            raise RuntimeError(
                f"{' '.join(command)} printed no FIRST_PAINT (exit {process.returncode})"
            )
        return painted - started


def instructions_to_first_paint(command: Sequence[str]) -> int:
    """Instructions ``command --measure-startup`` executes up to its first paint,
    counted by callgrind (needs ``valgrind`` on the PATH)."""
    with tempfile.TemporaryDirectory(prefix="hexfray-measure-") as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HEXFRAY_HOME=home)
        out = Path(home) / "callgrind.out"
        subprocess.run(
            [
                "valgrind", "--tool=callgrind", "--trace-children=yes",
                "--dump-before=QCoreApplication::quit*",
                f"--callgrind-out-file={out}", *command, "--measure-startup",
            ],
            cwd=ROOT, env=env, check=True, timeout=900,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        # The dump made on entering quit() holds the start up to the first paint.
        dump = out.with_name(out.name + ".1")
        if not dump.exists():
            raise RuntimeError(f"{' '.join(command)} never quit after its first paint")
        for line in dump.read_text(encoding="utf-8").splitlines():
            if line.startswith("totals:"):
                return int(line.split()[1])
        raise RuntimeError(f"no totals in {dump}")


def start_times(commands: dict[str, list[str]], runs: int) -> dict[str, list[float]]:
    """Seconds to first paint of each command, ``runs`` launches each in turn."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for command in commands.values():
        time_to_first_paint(command)  # warm-up: the page cache, not the measure
    for i in range(runs):
        order = list(commands.items())
        if i % 2:
            order.reverse()
        for name, command in order:
            times[name].append(time_to_first_paint(command))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--skip-build", action="store_true", help="measure existing builds")
    parser.add_argument("--source-only", action="store_true", help="only the start from source")
    parser.add_argument("--onefile", action="store_true", help="also time the one-file build")
    parser.add_argument("--runs", type=int, default=7, help="launches of each (>= 5)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument(
        "--instructions", action="store_true",
        help="also count each program's instructions to its first paint (valgrind)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    runs = max(5, args.runs)
    packaged = not args.source_only

    commands: dict[str, list[str]] = {}
    if packaged:
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
            commands[name] = [str(exe)]
    commands.update(source_commands())
    compile_sources()

    times = start_times(commands, runs)
    start = {name: statistics.median(values) for name, values in times.items()}
    mib = 1024 * 1024
    # (label, yardstick, hexfray, ratio, budget)
    rows: list[tuple[str, str, str, float, float]] = []
    sizes: dict[str, int] = {}
    if packaged:
        sizes = {
            "minimal": folder_size(Path(commands["minimal"][0]).parent),
            "hexfray": folder_size(Path(commands["hexfray"][0]).parent),
        }
        rows.append(("one-folder size (MiB)", f"{sizes['minimal'] / mib:.1f}",
                     f"{sizes['hexfray'] / mib:.1f}", sizes["hexfray"] / sizes["minimal"],
                     SIZE_BUDGET))  # fmt: skip
        rows.append((f"packaged start to first paint (ms, median of {runs})",
                     f"{start['minimal'] * 1000:.0f}", f"{start['hexfray'] * 1000:.0f}",
                     start["hexfray"] / start["minimal"], START_BUDGET))  # fmt: skip
    source_ratio = start["hexfray (source)"] / start["minimal (source)"]
    rows.append((f"start from source to first paint (ms, median of {runs})",
                 f"{start['minimal (source)'] * 1000:.0f}",
                 f"{start['hexfray (source)'] * 1000:.0f}", source_ratio,
                 SOURCE_START_BUDGET))  # fmt: skip

    print(f"\n{'':52} {'minimal':>9} {'hexfray':>9} {'ratio':>7} {'budget':>7}")
    verdicts: list[bool] = []
    for label, yardstick, ours, ratio, budget in rows:
        verdicts.append(ratio <= budget)
        verdict = "ok" if ratio <= budget else "OVER BUDGET"
        print(f"{label:52} {yardstick:>9} {ours:>9} {ratio:>7.2f} {budget:>7.2f}  {verdict}")
    if "hexfray one-file" in start:
        one = start["hexfray one-file"] * 1000
        print(f"{'one-file start (ms, median; no budget)':52} {'':>9} {one:>9.0f}")
    for name, values in times.items():
        print(f"  {name} runs (ms): " + " ".join(f"{v * 1000:.0f}" for v in values))
    counts: dict[str, int] = {}
    if args.instructions:
        counts = {name: instructions_to_first_paint(command) for name, command in commands.items()}
        print("instructions to first paint (millions, callgrind):")
        pairs = [("minimal (source)", "hexfray (source)")]
        if packaged:
            pairs.insert(0, ("minimal", "hexfray"))
        for yardstick, ours in pairs:
            print(f"  {ours}: {counts[ours] / 1e6:,.0f} against {counts[yardstick] / 1e6:,.0f}, "
                  f"ratio {counts[ours] / counts[yardstick]:.2f}")  # fmt: skip

    if args.json:
        ratios = {label: ratio for label, _a, _b, ratio, _budget in rows}
        args.json.write_text(json.dumps({
            "size_bytes": sizes, "start_seconds_median": start, "start_seconds": times,
            "instructions_to_first_paint": counts,
            "ratios": ratios,
            "budgets": {"size": SIZE_BUDGET, "start": START_BUDGET,
                        "start_from_source": SOURCE_START_BUDGET},
        }, indent=2) + "\n", encoding="utf-8")  # fmt: skip
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
