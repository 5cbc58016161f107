"""What the Hexfray bundle leaves out: one policy for the spec and for the checks.

hexfray.spec filters PyInstaller's collected files with ``keep``; check_bundle.py
verifies afterwards that nothing kept needs something this policy dropped.

The app uses Qt Core, Gui and Widgets only and paints with the raster engine, so:

* every other PySide6 module is excluded, with the Qt libraries only they use;
* Qt's translations are dropped (the app loads no QTranslator);
* of the plugins, only those a desktop session loads are kept (``KEEP_PLUGINS``);
* Python's test, build and network modules are excluded (``EXCLUDES``); numpy stays
  (hexy needs its linear algebra, the simulations its seed sequences) without f2py
  and numpy.testing; multiprocessing and concurrent stay (``KEPT_MODULES``).
"""

from __future__ import annotations

import re
import sys
from pathlib import PurePosixPath

QT_MODULES_KEPT = frozenset({"QtCore", "QtGui", "QtWidgets"})

PYTHON_EXCLUDES = frozenset({
    # GUI toolkits and tools that are not ours
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "pydoc_data", "lib2to3",
    # test and build tooling (installed in the dev environment only)
    "unittest", "doctest", "pytest", "_pytest", "pytestqt", "pluggy", "mypy", "mypyc",
    "ruff", "importlinter", "grimp", "PyInstaller", "setuptools", "pkg_resources",
    "distutils", "pip", "ensurepip", "venv",
    # numpy parts that hexy's linear algebra never touches
    "numpy.f2py", "numpy.testing", "numpy.distutils", "numpy._pyinstaller",
    # no network, no database, no terminal UI; hashlib falls back to its built-ins
    "ssl", "_ssl", "_hashlib", "sqlite3", "_sqlite3", "curses", "_curses", "xmlrpc",
    "ftplib", "smtplib", "imaplib", "poplib", "nntplib", "telnetlib", "http.server",
    "socketserver", "wsgiref", "dbm", "readline",
    # no asyncio; numpy imports pydoc only in numpy.info(). multiprocessing and
    # concurrent stay (KEPT_MODULES): simulations run on every core.
    "asyncio", "pydoc",
    # the optional extra hexfray[cluster] (a Dask cluster runs Hexfray from source,
    # docs/simulation.md), and the YAML reader it brings, which numpy.show_config
    # alone would import (3 MB)
    "dask", "distributed", "yaml",
})  # fmt: skip


# Modules the bundle must keep, whatever else is excluded: ``main.py simulate`` plays
# its battles in worker processes (rules.sim.backends: concurrent.futures'
# ProcessPoolExecutor on multiprocessing, started by main.py's freeze_support), and
# the panes' worker thread hands its results back as concurrent.futures.Future
# (app/background_work.py). Keeping multiprocessing brings PyInstaller's runtime
# hook for it, which imports multiprocessing before main.py starts.
KEPT_MODULES = frozenset({"multiprocessing", "concurrent"})
assert not KEPT_MODULES & PYTHON_EXCLUDES


def excludes(all_qt_modules: list[str]) -> list[str]:
    """Module names for Analysis(excludes=...): the Python excludes and every
    PySide6 module but Core, Gui and Widgets."""
    qt = {f"PySide6.{m}" for m in all_qt_modules if m not in QT_MODULES_KEPT}
    return sorted(qt | PYTHON_EXCLUDES)


# {plugin type: plugin names kept (None = all of that type)}; other types are dropped.
KEEP_PLUGINS: dict[str, frozenset[str] | None] = {
    # xcb and Wayland for Linux desktops, offscreen and minimal for headless runs
    # (the self-test), windows and cocoa on their systems
    "platforms": frozenset({"qxcb", "qwayland", "qoffscreen", "qminimal", "qwindows", "qcocoa"}),
    # the desktop portal, but not GTK3: it would bring its own cairo/pango/gdk to sit
    # beside the system's GTK, a known source of crashes in frozen apps
    "platformthemes": frozenset({"qxdgdesktopportal"}),
    "platforminputcontexts": None,  # dead keys (compose) and input methods (ibus)
    "styles": None,  # the native Windows and macOS styles
    "iconengines": frozenset({"qsvgicon"}),  # desktop icon themes are SVG
    "imageformats": frozenset({"qsvg"}),  # PNG is built into QtGui; icon themes need SVG
    "xcbglintegrations": None,  # small; xcb asks them about OpenGL at start
    "wayland-shell-integration": frozenset({"xdg-shell"}),
    "wayland-decoration-client": None,  # title bars under Wayland
}

# Qt libraries that only the excluded modules and dropped plugins link to.
DROP_QT_LIBS = re.compile(
    r"Qt6?(Network|Qml|Quick|Pdf|EglFS|EglFs|WlShellIntegration|OpenGL|Multimedia|"
    r"WebEngine|WebChannel|WebSockets|Sql|Test|Designer|Help|UiTools|3D|Charts|"
    r"DataVisualization|Graphs|Location|Positioning|Sensors|SerialPort|SerialBus|"
    r"Bluetooth|Nfc|RemoteObjects|Scxml|StateMachine|TextToSpeech|SpatialAudio|"
    r"VirtualKeyboard|ShaderTools|LabsStyleKit|Lottie|Concurrent|PrintSupport|Xml)"
)
# Linux system libraries that came only with GTK3 theme, QtNetwork or Python's ssl.
DROP_SYSTEM_LIBS = re.compile(
    r"^lib(atk-1\.0|atk-bridge-2\.0|atspi|cairo|cairo-gobject|gdk-3|gdk_pixbuf-2\.0|"
    r"gtk-3|pango-1\.0|pangocairo-1\.0|pangoft2-1\.0|thai|datrie|pixman-1|epoxy|"
    r"gssapi_krb5|krb5|krb5support|k5crypto|com_err|keyutils|ssl|crypto)\.so"
)


def _plugin_kept(parts: tuple[str, ...]) -> bool:
    i = parts.index("plugins")
    if len(parts) < i + 3:
        return True  # a file directly in plugins/ (none today): keep, be safe
    names = KEEP_PLUGINS.get(parts[i + 1], frozenset())
    if names is None:
        return True
    stem = parts[-1].split(".")[0]
    stem = stem[3:] if stem.startswith("lib") else stem
    return stem in names


def is_dropped_library(name: str, *, linux: bool | None = None) -> bool:
    """Whether a shared library's file name is one the policy leaves out."""
    linux = sys.platform.startswith("linux") if linux is None else linux
    lowered = name.lower()
    if lowered.startswith(("libqt6", "qt6", "qt")) and DROP_QT_LIBS.search(name):
        return True
    return bool(linux and DROP_SYSTEM_LIBS.match(name))


def keep(dest_name: str) -> bool:
    """Whether a collected file (its path inside the bundle) stays in."""
    parts = PurePosixPath(dest_name.replace("\\", "/")).parts
    if "PySide6" in parts and "translations" in parts:
        return False
    if "PySide6" in parts and "plugins" in parts:
        return _plugin_kept(parts)
    return not is_dropped_library(parts[-1])


# --- shared libraries nobody needs any more (Linux) --------------------------------------
_LIBRARY_NAME = re.compile(r"^lib.+\.so(\.\d+)*$")


def needed_libraries(path: str) -> list[str]:
    """The DT_NEEDED names of an ELF file ([] for anything that is not ELF)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return []
    if data[:4] != b"\x7fELF" or len(data) < 64:
        return []
    wide = data[4] == 2
    order = "<" if data[5] == 1 else ">"
    import struct

    def unpack(fmt: str, offset: int) -> tuple[int, ...]:
        return struct.unpack_from(order + fmt, data, offset)

    if wide:
        (phoff,) = unpack("Q", 0x20)
        phentsize, phnum = unpack("HH", 0x36)
    else:
        (phoff,) = unpack("I", 0x1C)
        phentsize, phnum = unpack("HH", 0x2A)
    loads: list[tuple[int, int, int]] = []  # (vaddr, offset, filesz)
    dynamic: tuple[int, int] | None = None  # (offset, size)
    for i in range(phnum):
        at = phoff + i * phentsize
        if wide:
            p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = unpack("IIQQQQ", at)
        else:
            p_type, p_offset, p_vaddr, _paddr, p_filesz = unpack("IIIII", at)
        if p_type == 1:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == 2:
            dynamic = (p_offset, p_filesz)
    if dynamic is None:
        return []
    entry, fmt = (16, "qQ") if wide else (8, "iI")
    needed: list[int] = []
    strtab_addr = None
    for at in range(dynamic[0], dynamic[0] + dynamic[1], entry):
        tag, value = unpack(fmt, at)
        if tag == 0:
            break
        if tag == 1:
            needed.append(value)
        elif tag == 5:
            strtab_addr = value
    if strtab_addr is None:
        return []
    strtab = next(
        (off + strtab_addr - va for va, off, size in loads if va <= strtab_addr < va + size), None
    )
    if strtab is None:
        return []
    names = []
    for index in needed:
        start = strtab + index
        end = data.index(b"\0", start)
        names.append(data[start:end].decode("utf-8", "replace"))
    return names


def _closure(sources: list[str], by_name: dict[str, str]) -> set[str]:
    """Library names reachable through DT_NEEDED from the given files."""
    seen: set[str] = set()
    queue = list(sources)
    while queue:
        for name in needed_libraries(queue.pop()):
            if name not in seen:
                seen.add(name)
                if name in by_name:
                    queue.append(by_name[name])
    return seen


def _is_plain_library(dest: str) -> bool:
    path = PurePosixPath(dest.replace("\\", "/"))
    in_lib_dir = len(path.parts) == 1 or str(path.parent) == "PySide6/Qt/lib"
    is_python = path.name.startswith("libpython")  # the bootloader loads it
    return in_lib_dir and not is_python and bool(_LIBRARY_NAME.match(path.name))


def prune_unreferenced(
    original: list[tuple[str, str, str]], kept: list[tuple[str, str, str]]
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """Drop the shared libraries that only dropped files needed (Linux ELF).

    A library collected because a dropped plugin or module linked to it (GTK3's
    cairo, QtNetwork's Kerberos...) goes too; one that nothing links to (loaded with
    dlopen) stays. Returns the kept entries and the names removed.
    """
    by_name = {
        PurePosixPath(d).name: s for d, s, kind in original if kind in ("BINARY", "EXTENSION")
    }

    def roots(entries: list[tuple[str, str, str]]) -> list[str]:
        return [s for d, s, kind in entries
                if kind in ("BINARY", "EXTENSION") and not _is_plain_library(d)]

    needed_before = _closure(roots(original), by_name)
    needed_now = _closure(roots(kept), by_name)
    removed = {
        d for d, _s, kind in kept
        if kind == "BINARY" and _is_plain_library(d)
        and PurePosixPath(d).name in needed_before - needed_now
    }  # fmt: skip
    result = [
        e for e in kept
        if e[0] not in removed and not (e[2] == "SYMLINK" and e[1] in removed)
    ]  # fmt: skip
    return result, sorted(PurePosixPath(d).name for d in removed)


def strip_python_debug_info(
    entries: list[tuple[str, str, str]], workdir: str, python_prefix: str
) -> tuple[list[tuple[str, str, str]], int]:
    """Use debug-stripped copies of the Python interpreter's own binaries (libpython
    and lib-dynload, which a self-built Python ships with debug info: 23 MB here).

    Only these: wheels' libraries are left alone, since ``strip`` breaks the ones
    auditwheel patched (numpy's OpenBLAS). Linux with binutils' ``strip`` only;
    returns the entries and the bytes saved.
    """
    import shutil
    import subprocess
    from pathlib import Path

    strip = shutil.which("strip")
    if strip is None or not sys.platform.startswith("linux"):
        return entries, 0
    prefix = Path(python_prefix).resolve()
    out = Path(workdir)
    saved = 0
    result = []
    for dest, src, kind in entries:
        source = Path(src).resolve() if kind in ("BINARY", "EXTENSION") else None
        if (
            source is not None
            and prefix in source.parents
            and "site-packages" not in source.parts
            and source.read_bytes()[:4] == b"\x7fELF"
        ):
            copy = out / dest
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy)
            subprocess.run([strip, "--strip-debug", str(copy)], check=True)
            saved += source.stat().st_size - copy.stat().st_size
            src = str(copy)
        result.append((dest, src, kind))
    return result, saved
