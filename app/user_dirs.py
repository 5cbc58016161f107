"""Where Hexfray keeps the user's files: settings, logs, cache, autosaves, templates.

Everything the program writes goes to the platform's user folders (platformdirs),
never next to the program: the installed or frozen bundle is read-only to us.

* ``HEXFRAY_HOME`` (an environment variable) moves every folder under one directory,
  for tests and portable use: ``$HEXFRAY_HOME/config``, ``/data``, ``/logs``, ...
* Each function creates its folder on demand and returns it as a ``Path``.
* ``setup_logging()`` sends the ``logging`` records to a rotating file in
  ``log_dir()`` (and warnings to stderr). ``buffer_early_logging()`` keeps the
  records of start-up in memory until then, so the GUI can set up the file after
  its first frame (issue 5) and still log what happened before it.
* ``settings()`` is the one ``QSettings`` of the program, an INI file in
  ``config_dir()`` (so ``HEXFRAY_HOME`` moves it too); one that is not a regular
  file, is over ``MAX_SETTINGS_BYTES`` or holds Qt's variant syntax is never
  handed to Qt (``settings_at``).
* ``user_folder_problem(folders)`` makes the folders a mode needs at start, and
  says in one line which cannot be made and why (main.py: status 2).
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import platformdirs
from PySide6.QtCore import QSettings

from app.settings_file import qt_variant_problem
from rules.core.file_reading import read_regular_file

if TYPE_CHECKING:
    from tempfile import TemporaryDirectory

APP_NAME = "Hexfray"
APP_AUTHOR = "Hexfray"
HOME_ENV = "HEXFRAY_HOME"
LOG_FILE_NAME = "hexfray.log"
LOG_MAX_BYTES = 1_000_000
LOG_BACKUPS = 3
SETTINGS_FILE_NAME = "settings.ini"
MAX_SETTINGS_BYTES = 1024 * 1024  # the settings are a few kilobytes

_LOG_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

log = logging.getLogger(__name__)


def _home() -> Path | None:
    value = os.environ.get(HOME_ENV, "").strip()
    return Path(value).expanduser() if value else None


def _ensure(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _platform_dirs() -> platformdirs.PlatformDirs:
    # appauthor only matters on Windows (…\AppData\Local\Hexfray\Hexfray).
    return platformdirs.PlatformDirs(APP_NAME, APP_AUTHOR, ensure_exists=False)


def config_dir() -> Path:
    """Settings (``settings.ini``)."""
    home = _home()
    return _ensure(home / "config" if home else _platform_dirs().user_config_path)


def data_dir() -> Path:
    """The user's own data; autosaves and templates live below it."""
    home = _home()
    return _ensure(home / "data" if home else _platform_dirs().user_data_path)


def log_dir() -> Path:
    home = _home()
    return _ensure(home / "logs" if home else _platform_dirs().user_log_path)


def cache_dir() -> Path:
    """Disposable files (the self-test's picture, for one)."""
    home = _home()
    return _ensure(home / "cache" if home else _platform_dirs().user_cache_path)


def autosave_dir() -> Path:
    return _ensure(data_dir() / "autosave")


def templates_dir() -> Path:
    """The GM's own combatant templates."""
    return _ensure(data_dir() / "templates")


UserFolder = Callable[[], Path]  # one of the functions above: makes its folder


def user_folder_problem(folders: Iterable[UserFolder]) -> str | None:
    """Make ``folders`` (``config_dir``, ``data_dir`` ...) now: None when all of
    them can be made, else one line that names the first folder that cannot and
    why ("cannot make the user folder /x/file/home/config: /x/file is a file, not a
    folder"), for the command line and a dialog."""
    for folder in folders:
        try:
            folder()
        except OSError as exc:
            return _folder_problem(exc)
    return None


def _folder_problem(exc: OSError) -> str:
    where = Path(os.fsdecode(exc.filename)) if exc.filename else None
    reason = exc.strerror or str(exc)
    if where is not None and isinstance(exc, NotADirectoryError | FileExistsError):
        in_the_way = next((p for p in (where, *where.parents) if _is_a_file(p)), None)
        if in_the_way is not None:
            reason = f"{in_the_way} is a file, not a folder"
    home = os.environ.get(HOME_ENV, "").strip()
    set_by = f" ({HOME_ENV} is {home})" if home else ""
    return f"cannot make the user folder {where or 'of Hexfray'}: {reason}{set_by}"


def _is_a_file(path: Path) -> bool:
    try:
        return not stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def log_file() -> Path:
    """The current log file (older ones are ``hexfray.log.1`` ... beside it)."""
    return log_dir() / LOG_FILE_NAME


class _UnusableSettings(Exception):
    """A settings file Qt must not read: not a regular file, too large, or in Qt's
    variant syntax."""


def settings_path() -> Path:
    """Where the settings live: ``settings.ini`` in ``config_dir()``."""
    return config_dir() / SETTINGS_FILE_NAME


def settings() -> QSettings:
    """The program's settings, an INI file in ``config_dir()`` (``settings_at``).

    Use this rather than ``QSettings()`` so that ``HEXFRAY_HOME`` keeps tests away
    from the user's real settings.
    """
    return settings_at(settings_path())


def settings_at(path: Path) -> QSettings:
    """The settings in the INI file ``path``, checked before Qt reads it. A file
    that is not a regular file (a named pipe would hang Qt's reading,
    ``/dev/zero`` fill the memory), is over ``MAX_SETTINGS_BYTES``, or holds values
    in Qt's variant syntax (``app.settings_file``: one line of them makes Qt abort)
    is left alone and logged: the program runs on its defaults, in settings of this
    session only."""
    try:
        data = read_regular_file(
            path, MAX_SETTINGS_BYTES, _UnusableSettings, name=str(path), kind="the settings"
        )
        problem = qt_variant_problem(data)
        if problem is not None:
            raise _UnusableSettings(f"{path}: {problem}")
    except _UnusableSettings as unusable:
        path = _session_settings_path(str(unusable))
    except OSError:
        pass  # missing: Qt makes it; unreadable: Qt reads nothing from it, and says so
    return QSettings(str(path), QSettings.Format.IniFormat)


_session_folder: TemporaryDirectory[str] | None = None


def _session_settings_path(problem: str) -> Path:
    """Settings for this session only (removed when the program ends), instead of
    a settings file that cannot be used because of ``problem`` (logged once)."""
    global _session_folder
    if _session_folder is None:
        import tempfile  # only for this rare case: the window starts without it

        log.warning("%s: Hexfray uses its default settings until it closes", problem)
        _session_folder = tempfile.TemporaryDirectory(prefix="hexfray-settings-")
    return Path(_session_folder.name) / SETTINGS_FILE_NAME


class _FileHandler(logging.handlers.RotatingFileHandler):
    """The rotating log file ``setup_logging`` installs (its own class, so it is
    found again among the root logger's handlers)."""


class _ConsoleHandler(logging.StreamHandler[TextIO]):
    """The warnings to stderr that ``setup_logging`` installs."""


class _EarlyBuffer(logging.Handler):
    """Holds the records logged before ``setup_logging`` (``buffer_early_logging``)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def buffer_early_logging(level: int = logging.INFO) -> None:
    """Keep log records in memory until ``setup_logging`` writes them to the file.

    For start-up: the GUI sets up the log file right after its first frame, without
    losing what was logged before it. Does nothing once logging is set up.
    """
    root = logging.getLogger()
    if any(isinstance(h, _FileHandler | _EarlyBuffer) for h in root.handlers):
        return
    root.addHandler(_EarlyBuffer())
    root.setLevel(level)


def finish_early_logging() -> None:
    """If ``buffer_early_logging`` is holding records, set up the log file now."""
    if any(isinstance(h, _EarlyBuffer) for h in logging.getLogger().handlers):
        setup_logging()


def setup_logging(level: int = logging.INFO, *, console: bool = True) -> Path:
    """Log to a rotating file in ``log_dir()``; returns the file's path.

    Safe to call more than once (e.g. after ``HEXFRAY_HOME`` changed in a test):
    the previous Hexfray file handler is closed and replaced.
    """
    path = log_file()
    root = logging.getLogger()
    early: list[logging.LogRecord] = []
    for handler in list(root.handlers):
        if isinstance(handler, _EarlyBuffer):
            early += handler.records
            root.removeHandler(handler)
        elif isinstance(handler, _FileHandler):
            root.removeHandler(handler)
            handler.close()
    file_handler = _FileHandler(
        path, maxBytes=LOG_MAX_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8", delay=True
    )
    file_handler.setFormatter(logging.Formatter(_LOG_FORMAT))
    root.addHandler(file_handler)
    has_console = any(isinstance(h, _ConsoleHandler) for h in root.handlers)
    if console and not has_console and sys.stderr is not None:
        stream = _ConsoleHandler()
        stream.setLevel(logging.WARNING)
        stream.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(stream)
    root.setLevel(level)
    # What was logged before (buffer_early_logging) goes where it would have gone.
    targets = [
        h for h in root.handlers if h is file_handler or isinstance(h, _ConsoleHandler)
    ]
    for record in early:
        if record.levelno >= level:
            for handler in targets:
                if record.levelno >= handler.level:
                    handler.handle(record)
    return path


def stop_logging() -> None:
    """Remove and close the handlers ``setup_logging`` installed (tests, shutdown)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, _FileHandler | _EarlyBuffer | _ConsoleHandler):
            root.removeHandler(handler)
            handler.close()


def current_log_file() -> Path | None:
    """The file the installed Hexfray handler writes to, if logging is set up."""
    for handler in logging.getLogger().handlers:
        if isinstance(handler, _FileHandler):
            return Path(handler.baseFilename)
    return None
