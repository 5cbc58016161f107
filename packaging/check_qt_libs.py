"""Before ``make run`` opens the window on Linux: are the system libraries there that
Qt's X11 platform plugin (xcb) needs?

Qt's own message for a missing one ("could not load the Qt platform plugin xcb ...
no Qt platform plugin could be initialized") names none of them. This script names
the missing libraries and the Debian/Ubuntu packages that bring them, and exits 1
so that ``make run`` stops there. It looks the libraries up in the loader's cache
(``ldconfig -p``); where that cannot run, it tries to load each one (``ctypes``).

It checks nothing off Linux, without a display (``DISPLAY``, ``WAYLAND_DISPLAY``) or
under the offscreen platform. The list is what the xcb plugin of the pinned Qt
(6.11) and the Qt libraries it loads link to, less what PySide6 ships itself
(ICU): ``readelf -d .../PySide6/Qt/plugins/platforms/libqxcb.so`` and friends. Qt 6
no longer uses Xinerama, so libxcb-xinerama0 is not among them.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping

# (shared library, the Debian/Ubuntu package that installs it)
X11_LIBRARIES: tuple[tuple[str, str], ...] = (
    ("libxcb.so.1", "libxcb1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"),
    ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-image.so.0", "libxcb-image0"),
    ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-randr.so.0", "libxcb-randr0"),
    ("libxcb-render.so.0", "libxcb-render0"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"),
    ("libxcb-shape.so.0", "libxcb-shape0"),
    ("libxcb-shm.so.0", "libxcb-shm0"),
    ("libxcb-sync.so.1", "libxcb-sync1"),
    ("libxcb-util.so.1", "libxcb-util1"),
    ("libxcb-xfixes.so.0", "libxcb-xfixes0"),
    ("libxcb-xkb.so.1", "libxcb-xkb1"),
    ("libX11.so.6", "libx11-6"),
    ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
)
# Needed under X11 and Wayland alike.
COMMON_LIBRARIES: tuple[tuple[str, str], ...] = (
    ("libxkbcommon.so.0", "libxkbcommon0"),
    ("libEGL.so.1", "libegl1"),
    ("libGL.so.1", "libgl1"),
    ("libfontconfig.so.1", "libfontconfig1"),
    ("libfreetype.so.6", "libfreetype6"),
    ("libdbus-1.so.3", "libdbus-1-3"),
    ("libglib-2.0.so.0", "libglib2.0-0"),
)


def needs_check(platform: str, environ: Mapping[str, str]) -> bool:
    """Only a Linux desktop session opens Qt's X11 or Wayland plugin."""
    if not platform.startswith("linux"):
        return False
    if environ.get("QT_QPA_PLATFORM", "").split(":")[0] in ("offscreen", "minimal", "vnc"):
        return False
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def required_libraries(environ: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """X11's list with a ``DISPLAY`` (XWayland too: Qt picks xcb there unless told
    otherwise), else only what Wayland needs as well."""
    return (X11_LIBRARIES if environ.get("DISPLAY") else ()) + COMMON_LIBRARIES


def ldconfig_names(text: str) -> set[str]:
    """The library names in ``ldconfig -p``'s listing
    ("\\tlibxcb.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libxcb.so.1")."""
    names: set[str] = set()
    for line in text.splitlines()[1:]:
        name = line.strip().split(" ", 1)[0]
        if name:
            names.add(name)
    return names


def cached_libraries() -> set[str] | None:
    """The loader cache's library names; None if ``ldconfig`` cannot be run."""
    for ldconfig in ("ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"):
        try:
            listing = subprocess.run(
                [ldconfig, "-p"], capture_output=True, text=True, check=True, timeout=10
            )
        except (OSError, subprocess.SubprocessError):
            continue
        return ldconfig_names(listing.stdout)
    return None


def loads(name: str) -> bool:
    try:
        ctypes.CDLL(name)
    except OSError:
        return False
    return True


def missing_libraries(
    required: Iterable[tuple[str, str]],
    available: set[str] | None,
    load: Callable[[str], bool] = loads,
) -> list[tuple[str, str]]:
    """The required (library, package) pairs not ``available``; a library the cache
    does not list, or all of them without a cache, is tried with ``load`` (a
    library on ``LD_LIBRARY_PATH`` is in no cache)."""
    return [
        (library, package)
        for library, package in required
        if (available is None or library not in available) and not load(library)
    ]


def report(missing: list[tuple[str, str]]) -> str:
    packages = " ".join(sorted({package for _library, package in missing}))
    lines = [
        "Hexfray cannot open its window: Qt needs system libraries that are not installed:",
        *(f"  {library}  (package {package})" for library, package in missing),
        "On Debian or Ubuntu install them with:",
        f"  sudo apt-get install {packages}",
        "(other systems name the packages differently; see README.md, System packages)",
    ]
    return "\n".join(lines)


def main() -> int:
    if not needs_check(sys.platform, os.environ):
        return 0
    missing = missing_libraries(required_libraries(os.environ), cached_libraries())
    if missing:
        print(report(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
