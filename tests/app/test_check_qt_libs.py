"""packaging/check_qt_libs.py: `make run` names the system libraries Qt's window
needs that are missing, checked here against made-up library lists."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load() -> ModuleType:
    # packaging/ is not a package (it would shadow PyPI's `packaging`): load by path
    spec = importlib.util.spec_from_file_location(
        "hexfray_packaging_check_qt_libs", ROOT / "packaging" / "check_qt_libs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


check = _load()
LISTING = """3 libs found in cache `/etc/ld.so.cache'
\tlibxcb.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libxcb.so.1
\tlibxcb-cursor.so.0 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libxcb-cursor.so.0
\tlibEGL.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libEGL.so.1
"""


def never_loads(_name: str) -> bool:
    return False


def test_the_loader_cache_listing_is_read() -> None:
    assert check.ldconfig_names(LISTING) == {"libxcb.so.1", "libxcb-cursor.so.0", "libEGL.so.1"}


def test_missing_libraries_are_named_with_their_packages() -> None:
    required = check.required_libraries({"DISPLAY": ":0"})
    missing = check.missing_libraries(required, check.ldconfig_names(LISTING), never_loads)
    libraries = {library for library, _package in missing}
    assert "libxcb.so.1" not in libraries and "libEGL.so.1" not in libraries
    assert {"libxcb-icccm.so.4", "libxkbcommon-x11.so.0", "libdbus-1.so.3"} <= libraries
    assert len(missing) == len(required) - 3
    text = check.report(missing)
    assert "libxcb-icccm4" in text and "libxcb-keysyms1" in text
    assert "sudo apt-get install " in text and "libxcb-cursor0" not in text


def test_a_library_outside_the_cache_counts_if_it_loads() -> None:
    required = (("libxcb-cursor.so.0", "libxcb-cursor0"), ("libGL.so.1", "libgl1"))
    assert check.missing_libraries(required, set(), lambda name: name == "libGL.so.1") == [
        ("libxcb-cursor.so.0", "libxcb-cursor0")
    ]
    # no cache at all (ldconfig would not run): every library is tried
    assert check.missing_libraries(required, None, lambda _name: True) == []
    everything = {library for library, _package in required}
    assert check.missing_libraries(required, everything, never_loads) == []


@pytest.mark.parametrize(
    ("platform", "environ", "checked"),
    [
        ("linux", {"DISPLAY": ":0"}, True),
        ("linux", {"WAYLAND_DISPLAY": "wayland-0"}, True),
        ("linux", {}, False),  # no display: Qt's window is not opened here
        ("linux", {"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, False),
        ("darwin", {"DISPLAY": ":0"}, False),
        ("win32", {}, False),
    ],
)
def test_only_a_linux_desktop_is_checked(platform: str, environ: dict[str, str],
                                         checked: bool) -> None:  # fmt: skip
    assert check.needs_check(platform, environ) is checked


def test_wayland_alone_needs_no_xcb_library() -> None:
    wayland = check.required_libraries({"WAYLAND_DISPLAY": "wayland-0"})
    assert wayland and not any("xcb" in library for library, _package in wayland)


def test_the_script_passes_here_and_make_run_calls_it_first() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "check_qt_libs.py")],
        capture_output=True, text=True, env={"QT_QPA_PLATFORM": "offscreen"}, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run = makefile[makefile.index("\nrun:") :].split("\n\n")[0]
    assert run.index("packaging/check_qt_libs.py") < run.index("main.py")
