"""Shared fixtures. Qt runs offscreen, and every file the program would write (settings,
logs) goes to a throw-away ``HEXFRAY_HOME``, never to the user's real folders."""

from __future__ import annotations

import os
import tempfile

# Before anything imports Qt: no display needed, and no user files touched.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HEXFRAY_HOME"] = os.environ.get("HEXFRAY_HOME") or tempfile.mkdtemp(
    prefix="hexfray-tests-"
)

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from rules.battle.battle import Battle

DEMO_SEED = 1


def pytest_configure(config: pytest.Config) -> None:
    """Each pytest-xdist worker gets a home of its own inside the run's: the workers
    inherit the run's variable, and the self-tests write fixed file names there."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        home = os.path.join(os.environ["HEXFRAY_HOME"], worker)
        os.makedirs(home, exist_ok=True)
        os.environ["HEXFRAY_HOME"] = home


@pytest.fixture
def demo_battle() -> Battle:
    """The shipped demo battle (assets/battles/demo.json), seed 1."""
    from app.main_window import load_demo_battle

    return load_demo_battle(DEMO_SEED)


@pytest.fixture
def controller(qapp: object, demo_battle: Battle) -> Iterator[object]:
    from app.controller import BattleController

    yield BattleController(demo_battle)


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    """An empty settings file of this test only."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def main_window(qtbot: object, controller: object, settings: QSettings) -> Iterator[object]:
    """The main window on the demo battle at its default size, shown offscreen."""
    from app.main_window import MainWindow

    window = MainWindow(controller, settings)  # type: ignore[arg-type]
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.show()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    yield window
