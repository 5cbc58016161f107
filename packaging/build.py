"""Build Hexfray with PyInstaller. Run it inside the project's environment:

    python packaging/build.py            # one folder:  dist/hexfray/hexfray[.exe]
    python packaging/build.py --onefile  # one file:    dist/hexfray-onefile/hexfray[.exe]

The one-folder build is the one to ship and the one CI tests: it starts faster
(the one-file build unpacks itself into a temporary folder on every start; see
docs/packaging.md for measured times) and keeps Qt's LGPL libraries replaceable.
Intermediate files go to build/pyinstaller-<kind>/. The spec is packaging/hexfray.spec.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "hexfray.spec"
EXE_NAME = "hexfray.exe" if sys.platform == "win32" else "hexfray"


def output_dir(onefile: bool) -> Path:
    return ROOT / "dist" / ("hexfray-onefile" if onefile else "hexfray")


def executable(onefile: bool = False) -> Path:
    return output_dir(onefile) / EXE_NAME


def build(onefile: bool = False, *, quiet: bool = False) -> Path:
    """Run PyInstaller on the spec; returns the executable's path."""
    out = output_dir(onefile)
    kind = "onefile" if onefile else "onefolder"
    # One-folder: PyInstaller writes dist/<name>/, so distpath is dist/.
    distpath = out if onefile else out.parent
    if out.exists():
        shutil.rmtree(out)
    command = [
        sys.executable, "-m", "PyInstaller", str(SPEC),
        "--noconfirm", "--clean",
        "--distpath", str(distpath),
        "--workpath", str(ROOT / "build" / f"pyinstaller-{kind}"),
        "--log-level", "WARN" if quiet else "INFO",
    ]  # fmt: skip
    if onefile:
        command += ["--", "--onefile"]
    started = time.monotonic()
    subprocess.run(command, cwd=ROOT, check=True)
    exe = executable(onefile)
    if not exe.exists():
        raise SystemExit(f"PyInstaller finished but {exe} is missing")
    print(f"built {exe} in {time.monotonic() - started:.0f} s")
    return exe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--onefile", action="store_true", help="build the one-file variant")
    parser.add_argument("--quiet", action="store_true", help="only PyInstaller's warnings")
    args = parser.parse_args(argv)
    try:
        build(args.onefile, quiet=args.quiet)
    except subprocess.CalledProcessError as failed:
        print(f"PyInstaller failed with exit code {failed.returncode}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
