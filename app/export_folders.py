"""Where an export's save dialog starts: in the folder last used for that kind of
file (a map picture, a Markdown log, an HTML log), kept in the settings, so that
the evening's exports land together without the GM looking for the folder again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

_FOLDER_KEY = "export/folder{suffix}"  # per kind of file: "export/folder.png"


def export_folder(settings: QSettings, suffix: str) -> Path:
    """The folder last used for files ending in ``suffix`` (".png"); the home folder
    before the first such export, or when that folder is gone or its name is none
    the system takes."""
    value = settings.value(_FOLDER_KEY.format(suffix=suffix), "")
    folder = Path(str(value)) if value else None
    try:
        there = folder is not None and folder.is_dir()
    except (OSError, ValueError):  # a name the system refuses (too long, a NUL)
        there = False
    return folder if folder is not None and there else Path.home()


def remember_export_folder(settings: QSettings, suffix: str, path: Path) -> None:
    """``path`` was written: its folder is where the next export of its kind starts."""
    settings.setValue(_FOLDER_KEY.format(suffix=suffix), str(path.parent))


def ask_export_path(
    parent: QWidget, settings: QSettings, caption: str, file_name: str, file_filter: str
) -> Path | None:
    """The save dialog of an export of ``file_name``'s kind, started in the folder
    last used for that kind; the path chosen (its folder remembered), or None."""
    suffix = Path(file_name).suffix.lower()
    start = export_folder(settings, suffix) / file_name
    name, _filter = QFileDialog.getSaveFileName(parent, caption, str(start), file_filter)
    if not name:
        return None
    path = Path(name)
    remember_export_folder(settings, suffix, path)
    return path
