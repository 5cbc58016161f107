"""Start-up stays quick (issue 5, docs/packaging.md): the map's first frame needs
neither numpy nor the attack rules, the panes come right after it, and the shipped
parchment tile is the one the code draws."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QDockWidget

import app.map.painter as mp
from rules.core.assets import asset_path

ROOT = Path(__file__).resolve().parents[2]

# Loaded after the first frame (or on first use), never for it.
LATE_MODULES = (
    "numpy", "hexy", "rules.sets.seed000.attack", "rules.sets.seed000.attack_events", "rules.battle.items",
    "rules.sets.seed000.weapon_strikes", "rules.sets.seed000.ruleset", "app.panes.attack", "rules.sets.seed000.conditions",
    "rules.battle.commands", "fractions", "decimal", "rules.battle.command_events",
    "rules.battle.situation", "app.map.drops", "rules.battle.movement", "rules.core.modifiers",
)  # fmt: skip


def test_the_first_frame_imports_neither_numpy_nor_the_attack_rules() -> None:
    code = (
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from app.controller import BattleController\n"
        "from app.main_window import MainWindow, load_demo_battle\n"
        "window = MainWindow(BattleController(load_demo_battle(1)), defer_panes=True)\n"
        "window.show()\n"
        "window.map_view.grab()\n"
        f"print(sorted(m for m in {LATE_MODULES!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


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
    assert len(window.panes) == 5
    shows = [a.text() for a in window.menuBar().actions()[1].menu().actions() if a.text()]
    assert [f"Show {p.windowTitle()}" for p in window.panes] == [
        t for t in shows if t.startswith("Show ")
    ]
    window.ensure_panes()  # once only
    assert len(window.findChildren(QDockWidget)) == 5


def test_the_shipped_parchment_tile_is_the_drawn_one(qapp) -> None:
    shipped = QImage(str(asset_path(*mp.TEXTURE_PARTS))).convertToFormat(
        QImage.Format.Format_RGBA8888
    )
    drawn = mp.render_parchment_texture()
    assert not shipped.isNull(), "run python packaging/make_texture.py"
    assert shipped == drawn, "parchment colours changed: run python packaging/make_texture.py"
