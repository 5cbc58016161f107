"""A test's own user folders: ``HEXFRAY_HOME`` pointed into its ``tmp_path``, so that
the templates, characters and autosaves it writes or reads are its own. Shared by
the tests of the templates pane, the File menu and the GCS import."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.main_window import MainWindow


def use_own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``HEXFRAY_HOME`` at a folder in ``tmp_path`` (undone after the test) and
    return that folder."""
    home = tmp_path / "home"
    monkeypatch.setenv("HEXFRAY_HOME", str(home))
    return home


@pytest.fixture
def main_window_in_own_home(
    main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> MainWindow:
    """tests/conftest.py's main window, this test's user folders its own; a test
    module takes it as its ``window`` fixture with ``window = main_window_in_own_home``."""
    use_own_home(tmp_path, monkeypatch)
    return main_window
