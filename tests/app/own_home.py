"""A test's own user folders: ``HEXFRAY_HOME`` pointed into its ``tmp_path``, so that
the templates, characters and autosaves it writes or reads are its own. Shared by
the tests of the templates pane, the File menu and the GCS import."""

from __future__ import annotations

from pathlib import Path

import pytest


def use_own_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point ``HEXFRAY_HOME`` at a folder in ``tmp_path`` (undone after the test) and
    return that folder."""
    home = tmp_path / "home"
    monkeypatch.setenv("HEXFRAY_HOME", str(home))
    return home

