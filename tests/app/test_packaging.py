"""Packaging: the spec and scripts are in place, the policy keeps what the app needs,
the icon files are sound, and the self-test passes in-process and fails on a
tampered golden file. The full build runs in packaging/ci_build_and_selftest.sh;
the last test here checks a bundle already built (skipped when there is none)."""

from __future__ import annotations

import importlib.util
import json
import struct
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


def _load(name: str) -> ModuleType:
    """Import a script of packaging/ by path (packaging/ is not a package)."""
    if str(PACKAGING) not in sys.path:
        sys.path.insert(0, str(PACKAGING))
    spec = importlib.util.spec_from_file_location(f"hexfray_packaging_{name}",
                                                  PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- files and layout ---------------------------------------------------------------
def test_packaging_is_not_a_python_package() -> None:
    # packaging/__init__.py would shadow PyPI's `packaging`, which pip and PyInstaller use
    assert not (PACKAGING / "__init__.py").exists()
    done = subprocess.run(
        [sys.executable, "-c", "import packaging.version, sys; print(packaging.__file__)"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "site-packages" in done.stdout


@pytest.mark.parametrize(
    "name",
    ["hexfray.spec", "build.py", "bundle_policy.py", "check_bundle.py", "measure.py",
     "minimal_app.py", "make_icon.py", "ci_build_and_selftest.sh", "rthook_pause_gc.py"],
)  # fmt: skip
def test_packaging_files_exist(name: str) -> None:
    assert (PACKAGING / name).is_file()


def test_ci_script_builds_and_runs_the_frozen_self_test() -> None:
    script = PACKAGING / "ci_build_and_selftest.sh"
    text = script.read_text()
    assert script.stat().st_mode & 0o111, "not executable"
    assert "set -euo pipefail" in text
    assert "packaging/build.py" in text
    assert "dist/hexfray/hexfray --self-test" in text
    assert "QT_QPA_PLATFORM=offscreen" in text


def test_spec_is_valid_python_and_reads_the_version_from_pyproject() -> None:
    source = (PACKAGING / "hexfray.spec").read_text()
    compile(source, "hexfray.spec", "exec")
    assert 'tomllib.load(f)["project"]["version"]' in source
    assert '"assets"' in source and '(ROOT / "docs").glob("*.md")' in source
    assert "hexfray.ico" in source and "hexfray.icns" in source
    # the registry imports ruleset packages by name: every module is bundled explicitly
    assert "hiddenimports=OWN_MODULES" in source and "collect_submodules(package)" in source


def test_measure_starts_both_from_source_with_this_python() -> None:
    measure = _load("measure")
    commands = measure.source_commands()
    assert commands == {
        "minimal (source)": [sys.executable, str(PACKAGING / "minimal_app.py")],
        "hexfray (source)": [sys.executable, str(ROOT / "main.py")],
    }
    assert measure.START_BUDGET == measure.SOURCE_START_BUDGET == 2.0


def test_measure_counts_the_instructions_up_to_the_first_paint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # callgrind writes the profile up to quit() (the first paint) as <out>.1
    measure = _load("measure")
    seen: list[list[str]] = []

    def fake_run(command: list[str], **kwargs: object) -> None:
        seen.append(command)
        out = next(a.split("=", 1)[1] for a in command if a.startswith("--callgrind-out-file="))
        Path(out + ".1").write_text("events: Ir\nsummary: 1234\ntotals: 1234\n")
        Path(out).write_text("events: Ir\ntotals: 99\n")

    monkeypatch.setattr(measure.subprocess, "run", fake_run)
    assert measure.instructions_to_first_paint(["prog"]) == 1234
    assert seen[0][:2] == ["valgrind", "--tool=callgrind"]
    assert "--dump-before=QCoreApplication::quit*" in seen[0]
    assert seen[0][-2:] == ["prog", "--measure-startup"]


def test_build_paths() -> None:
    build = _load("build")
    exe = "hexfray.exe" if sys.platform == "win32" else "hexfray"
    assert build.executable() == ROOT / "dist" / "hexfray" / exe
    assert build.executable(onefile=True) == ROOT / "dist" / "hexfray-onefile" / exe


# --- the exclusion policy -----------------------------------------------------------
def test_policy_keeps_what_the_app_needs_and_drops_the_rest() -> None:
    policy = _load("bundle_policy")
    keep = policy.keep
    assert keep("PySide6/Qt/lib/libQt6Core.so.6")
    assert keep("PySide6/Qt/lib/libQt6Widgets.so.6")
    assert keep("PySide6/Qt/plugins/platforms/libqxcb.so")
    assert keep("PySide6/Qt/plugins/platforms/libqoffscreen.so")
    assert keep("PySide6/Qt/plugins/platforms/qwindows.dll")
    assert keep("PySide6/Qt/plugins/imageformats/libqsvg.so")
    assert keep("numpy.libs/libscipy_openblas64_-32a4b2a6.so")
    assert keep("assets/battles/demo.json")
    assert not keep("PySide6/Qt/translations/qtbase_de.qm")
    assert not keep("PySide6/Qt/plugins/imageformats/libqjpeg.so")
    assert not keep("PySide6/Qt/plugins/platforms/libqeglfs.so")
    assert not keep("PySide6/Qt/plugins/tls/libqopensslbackend.so")
    assert not keep("PySide6/Qt/plugins/platformthemes/libqgtk3.so")
    assert not keep("PySide6/Qt/lib/libQt6Network.so.6")
    assert not keep("PySide6/Qt/lib/libQt6Quick.so.6")
    assert not keep("PySide6/QtNetwork.abi3.so")


def test_policy_excludes_unused_modules_but_not_numpy() -> None:
    policy = _load("bundle_policy")
    excluded = policy.excludes(["QtCore", "QtGui", "QtWidgets", "QtNetwork", "QtQml", "QtPdf"])
    assert {"PySide6.QtNetwork", "PySide6.QtQml", "PySide6.QtPdf"} <= set(excluded)
    assert not {"PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets"} & set(excluded)
    assert {"tkinter", "unittest", "pytest", "mypy", "numpy.f2py"} <= set(excluded)
    assert "numpy" not in excluded and "numpy.linalg" not in excluded
    # simulations run on worker processes (main.py simulate, the frozen self-test)
    assert {"multiprocessing", "concurrent"} <= policy.KEPT_MODULES
    assert not {m for m in excluded if m.split(".")[0] in policy.KEPT_MODULES}
    assert {"dask", "distributed", "yaml"} <= set(excluded)  # the cluster extra stays out


def test_main_calls_freeze_support_first_thing() -> None:
    # A packaged program's worker processes are the executable started again: main.py
    # hands them to multiprocessing before it imports anything else (Qt above all).
    source = (ROOT / "main.py").read_text(encoding="utf-8")
    body = source[source.index("from __future__ import annotations") :]
    first_code = [line for line in body.splitlines()[1:] if line.strip()][:3]
    assert first_code[0] == "import multiprocessing"
    assert first_code[1] == 'if __name__ == "__main__":'
    assert "multiprocessing.freeze_support()" in body.split("import argparse")[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF")
def test_needed_libraries_reads_elf() -> None:
    policy = _load("bundle_policy")
    assert "libc.so.6" in policy.needed_libraries("/bin/sh")
    assert policy.needed_libraries(str(ROOT / "pyproject.toml")) == []


def test_snapshot_sees_a_written_file(tmp_path: Path) -> None:
    check = _load("check_bundle")
    (tmp_path / "a.txt").write_text("one")
    before = check.snapshot(tmp_path)
    (tmp_path / "a.txt").write_text("two")
    (tmp_path / "new.pyc").write_bytes(b"")
    assert check.compare(before, check.snapshot(tmp_path)) == ["added new.pyc", "changed a.txt"]


# --- the icon -----------------------------------------------------------------------
def test_icon_files() -> None:
    from PySide6.QtGui import QImage

    icons = ROOT / "assets" / "icons"
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        image = QImage(str(icons / f"hexfray-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel()
    ico = (icons / "hexfray.ico").read_bytes()
    reserved, kind, count = struct.unpack_from("<HHH", ico)
    assert (reserved, kind, count) == (0, 1, 7)
    icns = (icons / "hexfray.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack_from(">I", icns, 4)[0] == len(icns)


def test_make_icon_writes_every_file(tmp_path: Path, qapp) -> None:
    make_icon = _load("make_icon")
    written = {p.name for p in make_icon.write_icons(tmp_path)}
    assert written == {p.name for p in (ROOT / "assets" / "icons").iterdir()}


# --- the self-test --------------------------------------------------------------------
def test_self_test_passes_in_process(qapp) -> None:
    from app.self_test import run_self_test

    assert run_self_test() == 0


def _tampered(tmp_path: Path, change) -> Path:
    from app.self_test import expected_path

    golden = json.loads(expected_path().read_text(encoding="utf-8"))
    change(golden)
    path = tmp_path / "expected.json"
    path.write_text(json.dumps(golden), encoding="utf-8")
    return path


def _hp_minus_one(golden: dict) -> None:
    first = next(iter(golden["combatants"]))
    golden["combatants"][first]["hp"] -= 1


def _log_line_changed(golden: dict) -> None:
    golden["log"][-2] = golden["log"][-2].replace("1", "2", 1) + " "


@pytest.mark.parametrize("change", [_hp_minus_one, _log_line_changed])
def test_self_test_fails_on_a_tampered_golden_file(tmp_path: Path, qapp, change, capsys) -> None:
    from app.self_test import run_self_test

    assert run_self_test(expected=_tampered(tmp_path, change)) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "self-test FAILED" in out


def test_self_test_fails_without_a_golden_file(tmp_path: Path, qapp, capsys) -> None:
    from app.self_test import run_self_test

    assert run_self_test(expected=tmp_path / "missing.json") == 1
    assert "--regenerate" in capsys.readouterr().out


def test_golden_file_records_the_seed_and_a_real_fight() -> None:
    from app.self_test import SELF_TEST_SEED, expected_path

    golden = json.loads(expected_path().read_text(encoding="utf-8"))
    assert golden["seed"] == SELF_TEST_SEED
    assert any("Attack(" in step for step in golden["script"])
    assert golden["log"]
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert tomllib.load(f)["project"]["version"]


# --- a bundle built by the CI script ------------------------------------------------
FROZEN = ROOT / "dist" / "hexfray" / ("hexfray.exe" if sys.platform == "win32" else "hexfray")


@pytest.mark.skipif(not FROZEN.exists(), reason="no dist/hexfray: run packaging/build.py")
def test_frozen_self_test_passes_and_leaves_the_bundle_untouched() -> None:
    check = _load("check_bundle")
    assert check.check_contents(FROZEN.parent) == []
    assert check.run_self_test(FROZEN.parent) == []


def test_a_bundle_missing_a_module_is_refused(tmp_path: Path) -> None:
    check = _load("check_bundle")
    inside = tmp_path / "_internal"
    for package in ("app", "rules", "hexmap"):
        for source in (ROOT / package).rglob("*.py"):
            compiled = inside / source.relative_to(ROOT).with_suffix(".pyc")
            compiled.parent.mkdir(parents=True, exist_ok=True)
            compiled.write_bytes(b"")
    problems = check.check_contents(tmp_path)
    assert not any(p.startswith("module not bundled") for p in problems)
    assert "missing assets/battles/demo.json" in problems
    (inside / "app" / "rulesets" / "seed000" / "attack_pane.pyc").unlink()
    assert "module not bundled: app/rulesets/seed000/attack_pane.py" in check.check_contents(
        tmp_path
    )
