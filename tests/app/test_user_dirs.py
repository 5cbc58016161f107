"""User folders: platformdirs by default, everything under HEXFRAY_HOME when set."""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

import pytest

from app import user_dirs

DIR_FUNCTIONS = {
    "config": user_dirs.config_dir,
    "data": user_dirs.data_dir,
    "logs": user_dirs.log_dir,
    "cache": user_dirs.cache_dir,
    "data/autosave": user_dirs.autosave_dir,
    "data/templates": user_dirs.templates_dir,
}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "hexfray-home"
    monkeypatch.setenv(user_dirs.HOME_ENV, str(root))
    return root


@pytest.mark.parametrize("relative", list(DIR_FUNCTIONS))
def test_hexfray_home_moves_every_folder_and_creates_it_on_demand(
    home: Path, relative: str
) -> None:
    expected = home / relative
    assert not expected.exists()
    path = DIR_FUNCTIONS[relative]()
    assert path == expected
    assert path.is_dir()


def test_folders_are_distinct(home: Path) -> None:
    paths = [f() for f in DIR_FUNCTIONS.values()]
    assert len(set(paths)) == len(paths)


def _xdg_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var, sub in (
        ("XDG_CONFIG_HOME", "xdg-config"),
        ("XDG_DATA_HOME", "xdg-data"),
        ("XDG_STATE_HOME", "xdg-state"),
        ("XDG_CACHE_HOME", "xdg-cache"),
    ):
        monkeypatch.setenv(var, str(tmp_path / sub))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
@pytest.mark.parametrize("unset", [None, "", "  "])
def test_without_hexfray_home_the_platform_folders_are_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unset: str | None
) -> None:
    if unset is None:
        monkeypatch.delenv(user_dirs.HOME_ENV, raising=False)
    else:
        monkeypatch.setenv(user_dirs.HOME_ENV, unset)  # blank counts as unset
    _xdg_in(tmp_path, monkeypatch)
    assert user_dirs.config_dir() == tmp_path / "xdg-config" / "Hexfray"
    assert user_dirs.data_dir() == tmp_path / "xdg-data" / "Hexfray"
    assert user_dirs.cache_dir() == tmp_path / "xdg-cache" / "Hexfray"
    assert user_dirs.log_dir() == tmp_path / "xdg-state" / "Hexfray" / "log"
    assert user_dirs.autosave_dir() == tmp_path / "xdg-data" / "Hexfray" / "autosave"
    assert user_dirs.templates_dir().is_dir()


def test_settings_live_in_the_config_folder(home: Path) -> None:
    settings = user_dirs.settings()
    settings.setValue("test/answer", 42)
    settings.sync()
    assert Path(settings.fileName()) == home / "config" / "settings.ini"
    assert "answer=42" in (home / "config" / "settings.ini").read_text()
    assert user_dirs.settings().value("test/answer") in (42, "42")


def test_logging_writes_a_rotating_file_in_the_log_folder(home: Path) -> None:
    try:
        path = user_dirs.setup_logging(console=False)
        assert path == home / "logs" / user_dirs.LOG_FILE_NAME
        assert user_dirs.current_log_file() == path
        logging.getLogger("hexfray.test").info("a line for the log")
        big = "x" * 1000
        for _ in range(user_dirs.LOG_MAX_BYTES // 1000 + 50):  # past one file's size
            logging.getLogger("hexfray.test").info(big)
        for handler in logging.getLogger().handlers:
            handler.flush()
        assert path.exists()
        assert (home / "logs" / f"{user_dirs.LOG_FILE_NAME}.1").exists()
        files = list((home / "logs").iterdir())
        assert len(files) <= user_dirs.LOG_BACKUPS + 1
    finally:
        user_dirs.stop_logging()
    assert user_dirs.current_log_file() is None


def test_setup_logging_twice_keeps_one_file_handler(home: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        user_dirs.setup_logging(console=False)
        other = tmp_path / "elsewhere"
        monkeypatch.setenv(user_dirs.HOME_ENV, str(other))
        path = user_dirs.setup_logging(console=False)
        files = [h for h in logging.getLogger().handlers
                 if isinstance(h, logging.handlers.RotatingFileHandler)]
        assert len(files) == 1
        assert path == other / "logs" / user_dirs.LOG_FILE_NAME
    finally:
        user_dirs.stop_logging()
