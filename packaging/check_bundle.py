"""Check a built one-folder bundle, then run its self-test and prove it wrote nothing.

    python packaging/check_bundle.py                 # dist/hexfray
    python packaging/check_bundle.py dist/hexfray --no-self-test

1. Contents: the policy of bundle_policy.py held (no Qt translations, no excluded
   Qt module, only the kept plugins), the data the app reads is there (assets,
   the self-test's golden file, pyproject.toml), and on Linux every library that a
   bundled binary links to is either in the bundle or one the policy never ships
   (the system's libc, libGL, X11...), i.e. nothing kept lost a dependency.
2. Self-test: runs ``hexfray --self-test`` offscreen with a fresh HEXFRAY_HOME,
   requires exit code 0, "self-test passed", the picture and the log file in the
   user folders, and that not one file of the bundle was added, removed or changed
   (the bundle is never written to: all user data goes to the user folders).

Exit code 0 only if every check passed.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import bundle_policy  # noqa: E402  (packaging/bundle_policy.py, beside this file)
import registered_rulesets  # noqa: E402  (packaging/registered_rulesets.py)

EXE_NAME = "hexfray.exe" if sys.platform == "win32" else "hexfray"
SELF_TEST_TIMEOUT = 180


def snapshot(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` -> a digest of its content (symlinks: their target)."""
    found: dict[str, str] = {}
    for directory, _dirs, files in os.walk(folder):
        for name in files:
            path = Path(directory) / name
            key = path.relative_to(folder).as_posix()
            if path.is_symlink():
                found[key] = "-> " + os.readlink(path)
                continue
            digest = hashlib.sha256()
            with path.open("rb") as f:
                for block in iter(functools.partial(f.read, 1 << 20), b""):
                    digest.update(block)
            found[key] = digest.hexdigest()
    return found


def compare(before: dict[str, str], after: dict[str, str]) -> list[str]:
    changes = [f"added {k}" for k in sorted(after.keys() - before.keys())]
    changes += [f"removed {k}" for k in sorted(before.keys() - after.keys())]
    changes += [f"changed {k}" for k in sorted(before) if k in after and before[k] != after[k]]
    return changes


def internal_dir(bundle: Path) -> Path:
    return bundle / "_internal" if (bundle / "_internal").is_dir() else bundle


def check_contents(bundle: Path) -> list[str]:
    """Problems with what the bundle holds (empty if none)."""
    problems: list[str] = []
    inside = internal_dir(bundle)
    if not (bundle / EXE_NAME).is_file():
        problems.append(f"no executable {bundle / EXE_NAME}")
    for needed in ("assets/battles/demo.json", "assets/selftest/expected.json",
                   "assets/icons/hexfray-64.png", "pyproject.toml"):
        if not (inside / needed).is_file():
            problems.append(f"missing {needed}")
    # Every module of the app, the rules and the map (as .pyc files: the one-folder
    # build keeps no archive), even those only imported by name (app.panes loads its
    # panes that way), so no menu or pane fails later for want of one.
    for package in ("app", "rules", "hexmap"):
        for source in sorted((ROOT / package).rglob("*.py")):
            compiled = source.relative_to(ROOT).with_suffix(".pyc")
            if not (inside / compiled).is_file():
                problems.append(f"module not bundled: {source.relative_to(ROOT).as_posix()}")
    # Each registered ruleset (rules.sets.registry, app.rulesets): the modules its
    # registry lines name, and its tables, demo battle and templates.
    for module in registered_rulesets.registered_modules():
        compiled = Path(*module.split(".")).with_suffix(".pyc")
        if not (inside / compiled).is_file():
            problems.append(f"registered module not bundled: {module}")
    for asset in registered_rulesets.ruleset_asset_paths(ROOT):
        if not (inside / asset).is_file():
            problems.append(f"ruleset file not bundled: {asset}")
    # Help > Rules reference: docs/gm-rules.md and the traceability table it links to
    # are bundled when the source tree has them (else Help says the page is missing)
    for page in ("gm-rules.md", "rules.md"):
        if (ROOT / "docs" / page).is_file() and not (inside / "docs" / page).is_file():
            problems.append(f"docs/{page} exists but is not bundled")
    qt = inside / "PySide6" / "Qt"
    if (qt / "translations").exists() and any((qt / "translations").iterdir()):
        problems.append("Qt translations were bundled")
    for path in (inside / "PySide6").glob("Qt*.*"):
        module = path.name.split(".")[0]
        if path.suffix in (".so", ".pyd") and module not in bundle_policy.QT_MODULES_KEPT:
            problems.append(f"excluded Qt module bundled: {path.name}")
    plugins = qt / "plugins"
    if plugins.is_dir():
        for path in plugins.rglob("*"):
            rel = path.relative_to(inside).as_posix()
            if path.is_file() and not bundle_policy.keep(rel):
                problems.append(f"plugin outside the policy: {rel}")
    if sys.platform.startswith("linux"):
        problems += _missing_libraries(inside)
    return problems


def _missing_libraries(inside: Path) -> list[str]:
    names = {p.name for p in inside.rglob("*") if p.is_file() or p.is_symlink()}
    problems = []
    for path in inside.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        for needed in bundle_policy.needed_libraries(str(path)):
            if needed not in names and bundle_policy.is_dropped_library(needed, linux=True):
                rel = PurePosixPath(path.relative_to(inside).as_posix())
                problems.append(f"{rel} needs {needed}, which the policy dropped")
    return problems


def run_self_test(bundle: Path) -> list[str]:
    """Run the frozen self-test; problems (empty if none)."""
    exe = bundle / EXE_NAME
    before = snapshot(bundle)
    with tempfile.TemporaryDirectory(prefix="hexfray-selftest-") as home:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HEXFRAY_HOME=home)
        try:
            done = subprocess.run(
                [str(exe), "--self-test"], env=env, cwd=home, capture_output=True,
                text=True, timeout=SELF_TEST_TIMEOUT,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            return [f"the self-test did not finish in {SELF_TEST_TIMEOUT} s"]
        print(done.stdout, end="")
        if done.stderr.strip():
            print(done.stderr, end="", file=sys.stderr)
        problems = []
        if done.returncode != 0:
            problems.append(f"the self-test exited with {done.returncode}")
        if "self-test passed" not in done.stdout:
            problems.append("the self-test did not report 'self-test passed'")
        home_path = Path(home)
        for expected in ("cache/self-test.png", "cache/self-test.txt", "logs/hexfray.log"):
            if not (home_path / expected).is_file():
                problems.append(f"no {expected} in HEXFRAY_HOME")
    changes = compare(before, snapshot(bundle))
    problems += [f"the run wrote to the bundle: {c}" for c in changes[:20]]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bundle", nargs="?", type=Path, default=ROOT / "dist" / "hexfray")
    parser.add_argument("--no-self-test", action="store_true", help="contents only")
    args = parser.parse_args(argv)
    bundle = args.bundle.resolve()
    problems = check_contents(bundle)
    for p in problems:
        print(f"FAIL  contents: {p}")
    if not problems:
        print(f"PASS  contents of {bundle}")
    if not args.no_self_test:
        ran = run_self_test(bundle)
        for p in ran:
            print(f"FAIL  frozen self-test: {p}")
        if not ran:
            print("PASS  frozen self-test, and the bundle is unchanged")
        problems += ran
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
