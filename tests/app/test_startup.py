"""Start-up (issue 9, docs/packaging.md): the first frame loads no ruleset package
(rulesets come through the registry), the panes come right after it, cyclic garbage
collection waits for the window and its panes, and the shipped parchment tile is
the one the code draws."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDockWidget

import app.map.painter as mp
from rules.core.assets import asset_path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str, home: Path) -> str:
    """The last line ``code`` prints, run in a fresh interpreter in the project."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True,
        text=True, check=True, timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "HEXFRAY_HOME": str(home)},
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def test_the_first_frame_loads_no_ruleset_package(tmp_path: Path) -> None:
    # main.py's own start-up path up to the map's first frame; grab() paints it
    # without running the event loop, so the deferred panes stay unbuilt.
    loaded = _run(
        """
        import sys
        from PySide6.QtWidgets import QApplication
        import main

        app = QApplication([])
        window = main.open_window(1)
        window.map_view.grab()
        assert not window.panes, "the panes were built before the first frame"
        # A ruleset is a package under rules.sets (the registry finds it); the
        # protocol's own modules beside them are ruleset-neutral.
        import pkgutil
        import rules.sets
        packages = [f"rules.sets.{p.name}" for p in pkgutil.iter_modules(rules.sets.__path__)
                    if p.ispkg]
        assert packages, "no ruleset package found to check"
        print(sorted(m for m in sys.modules
                     if any(m == p or m.startswith(p + ".") for p in packages)))
        """,
        tmp_path,
    )
    assert loaded == "[]"


def test_garbage_collection_waits_for_the_window_and_its_panes(tmp_path: Path) -> None:
    seen = _run(
        """
        import gc
        import app.collector as collector
        import app.startup_probe as probe
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        seen = {}

        def watch(window):
            seen["while starting"] = gc.isenabled()

            def after_first_paint():
                seen["panes built"] = bool(window.panes)

                def later():
                    seen["once the panes are up"] = gc.isenabled()
                    # app.collector: start-up's objects are out of the collector's walks
                    seen["start-up frozen"] = gc.get_freeze_count() > 10_000
                    # ... and the young generation is collected in large batches
                    seen["young batches"] = gc.get_threshold()[0] == collector.YOUNG_GENERATION
                    QApplication.quit()

                QTimer.singleShot(0, later)

            window.call_after_first_paint(after_first_paint)

        probe.install_startup_probe = watch
        import main

        main.main(["--measure-startup"])
        seen["after the event loop"] = gc.isenabled()
        print(sorted(seen.items()))
        """,
        tmp_path,
    )
    assert seen == str(sorted({
        "while starting": False,
        "panes built": True,
        "once the panes are up": True,
        "start-up frozen": True,
        "young batches": True,
        "after the event loop": True,
    }.items()))  # fmt: skip


def test_the_young_generation_is_collected_in_batches_and_cycles_still_freed(
    tmp_path: Path,
) -> None:
    # app.collector: once settled, the first young collection waits for about
    # YOUNG_GENERATION new objects (Python's own threshold is 700), and cycles
    # dropped meanwhile are freed with no explicit collect.
    first, freed = _run(
        """
        import gc
        import weakref
        from app.collector import YOUNG_GENERATION, pause_collector, settle_collector

        class Node:
            def __init__(self):
                self.me = self  # a cycle: reference counting alone never frees it

        made = [0]
        first = []

        def on_collect(phase, info):
            if phase == "start" and info["generation"] == 0 and not first:
                first.append(made[0])

        pause_collector()
        settle_collector()
        gc.callbacks.append(on_collect)
        refs = []
        for _ in range(3 * YOUNG_GENERATION):
            refs.append(weakref.ref(Node()))  # two new objects kept: the ref and its node
            made[0] += 2
        gc.callbacks.remove(on_collect)
        freed = sum(r() is None for r in refs) / len(refs)
        print(first[0] if first else -1, freed)
        """,
        tmp_path,
    ).split()
    assert int(first) >= 40_000
    assert float(freed) > 0.5


def test_the_command_line_modes_collect_garbage_as_usual(tmp_path: Path) -> None:
    # A bundle's runtime hook pauses the collector before Qt loads
    # (packaging/rthook_pause_gc.py); only the window's start keeps it paused.
    hook = (ROOT / "packaging" / "rthook_pause_gc.py").read_text(encoding="utf-8")
    code = (
        hook
        + "\nimport main\n"
        + f"main.main(['--screenshot', {str(tmp_path / 'shot.png')!r}])\n"
        + "print('collecting:', gc.isenabled(), gc.get_freeze_count() > 10_000)\n"
    )
    assert _run(code, tmp_path) == "collecting: True True"
    assert (tmp_path / "shot.png").is_file()


def test_deferred_panes_come_after_the_first_paint_in_the_default_layout(
    qtbot, controller, settings: QSettings, tmp_path: Path
) -> None:
    from app.main_window import MainWindow

    eager = MainWindow(controller, settings)
    qtbot.addWidget(eager)
    window = MainWindow(
        controller, QSettings(str(tmp_path / "other.ini"), QSettings.Format.IniFormat),
        defer_panes=True,
    )  # fmt: skip
    qtbot.addWidget(window)
    assert window.findChildren(QDockWidget) == []
    done: list[bool] = []
    window.call_after_first_paint(lambda: done.append(True))
    window.show()
    qtbot.waitUntil(lambda: bool(done))
    names = sorted(d.objectName() for d in window.findChildren(QDockWidget))
    assert names == sorted(d.objectName() for d in eager.findChildren(QDockWidget))
    assert len(window.panes) == 7
    shows = [a.text() for a in window.menuBar().actions()[2].menu().actions() if a.text()]
    assert [f"Show {p.windowTitle()}" for p in window.panes] == [
        t for t in shows if t.startswith("Show ")
    ]
    window.ensure_panes()  # once only
    assert len(window.findChildren(QDockWidget)) == 7


def test_the_shipped_parchment_tile_is_the_drawn_one(qapp) -> None:
    shipped = QImage(str(asset_path(*mp.TEXTURE_PARTS))).convertToFormat(
        QImage.Format.Format_RGBA8888
    )
    drawn = mp.render_parchment_texture()
    assert not shipped.isNull(), "run python packaging/make_texture.py"
    assert shipped == drawn, "parchment colours changed: run python packaging/make_texture.py"
