"""Help: the first-run guide, the rules reference, the shortcut list and About.

``SHORTCUTS`` is the one list of keyboard shortcuts: the main window binds its
actions from it (``key_sequences(action)``) and the shortcut dialog shows it, so
the two cannot disagree. ``MOUSE_CONTROLS`` is the same for the mouse.

``build_help_menu(window)`` adds the Help menu; ``maybe_show_first_run_guide``
opens the controls guide over the demo battle at the first start only (kept in the
settings, see ``app.user_dirs.settings``); Help ▸ Controls guide opens it again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt, QUrl, qVersion
from PySide6.QtGui import (
    QAction,
    QDesktopServices,
    QIcon,
    QKeySequence,
    QPixmap,
    QShowEvent,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app.user_dirs import settings as user_settings
from rules.core.assets import asset_path, bundle_root
from rules.core.version import ENGINE_VERSION

APP_TITLE = "Hexfray"
# Set once the guide has opened at a start (earlier versions set it with their
# "Don't show this again", which the one opening replaces).
GUIDE_SEEN_KEY = "help/first_run_guide_dismissed"
GUIDE_TEXT_WIDTH = 500


# --- the shortcut list: one place ---------------------------------------------------
Key = str | QKeySequence.StandardKey


@dataclass(frozen=True)
class Shortcut:
    action: str  # stable name the window's action is bound by
    keys: tuple[Key, ...]  # portable key text or a platform's standard key
    description: str
    group: str
    scope: str = ""  # "" for the whole window, else the pane that must have the focus
    via_action: bool = True  # False: the pane's own key handling, not a QAction


_Std = QKeySequence.StandardKey

SHORTCUTS: tuple[Shortcut, ...] = (
    # the map and the selected combatant
    Shortcut("turn_left", ("Q", "["), "Turn the selected combatant one hex side left", "Map"),
    Shortcut("turn_right", ("E", "]"), "Turn the selected combatant one hex side right", "Map"),
    Shortcut("next_combatant", ("Tab",), "Select the next combatant", "Map"),
    Shortcut("previous_combatant", ("Shift+Tab", "Backtab"), "Select the previous combatant",
             "Map"),
    Shortcut("clear_selection", ("Esc",), "Clear the selection and the target", "Map"),
    Shortcut("zoom_in", ("+", "=", "Ctrl+=", "Ctrl++"), "Zoom in", "Map"),
    Shortcut("zoom_out", ("-", "Ctrl+-"), "Zoom out", "Map"),
    Shortcut("fit_map", ("F", "Ctrl+0"), "Fit the whole map into the window", "Map"),
    Shortcut("pan_left", ("Left",), "Pan left", "Map"),
    Shortcut("pan_right", ("Right",), "Pan right", "Map"),
    Shortcut("pan_up", ("Up",), "Pan up", "Map"),
    Shortcut("pan_down", ("Down",), "Pan down", "Map"),
    Shortcut("paint_terrain", ("T",), "Paint terrain: click or drag over hexes", "Map"),
    Shortcut("context_menu", ("Menu", "Shift+F10"),
             "Open the menu of the hex under the pointer, else of the selected fighter "
             "(postures, ready, drop, pick up)", "Map"),
    # the battle's file (app.file_actions)
    Shortcut("new_battle", (_Std.New,), "New battle: map, rules, sides and seed", "File"),
    Shortcut("open_battle", (_Std.Open,), "Open a saved battle", "File"),
    Shortcut("save_battle", (_Std.Save,), "Save the battle", "File"),
    Shortcut("save_battle_as", (_Std.SaveAs, "Ctrl+Shift+S"), "Save the battle to another file",
             "File"),
    Shortcut("close_battle", (_Std.Close, "Ctrl+W"), "Close the battle", "File"),
    # the battle
    Shortcut("undo", (_Std.Undo,), "Undo the last command", "Battle"),
    Shortcut("redo", (_Std.Redo, "Ctrl+Shift+Z"), "Redo the last command undone", "Battle"),
    Shortcut("end_turn", ("Ctrl+Return", "Ctrl+Enter"), "End the turn", "Battle"),
    Shortcut("override", ("Ctrl+Shift+Return", "Ctrl+Shift+Enter"),
             "Do the refused action anyway (the GM's override, marked in the log)", "Battle"),
    Shortcut("roll_attack", ("Return", "Enter"),
             "Roll the attack the attack pane shows (not while typing in a box)", "Battle"),
    Shortcut("copy_log", ("Ctrl+C",), "Copy the selected combat log entries", "Battle",
             scope="Combat log"),
    Shortcut("new_demo", ("Ctrl+Shift+N",), "Start the demo battle afresh", "Battle"),
    Shortcut("duplicate_fighter", ("Ctrl+D",), "Duplicate the selected fighter", "Battle"),
    Shortcut("quit", (_Std.Quit, "Ctrl+Q"), "Quit Hexfray", "Battle"),
    Shortcut("preferences", (_Std.Preferences, "Ctrl+,"), "Open the preferences", "Battle"),
    # help
    Shortcut("help_guide", (_Std.HelpContents,), "Show the controls guide", "Help"),
    Shortcut("help_rules", ("Shift+F1",), "Open the rules reference", "Help"),
    Shortcut("help_shortcuts", ("Ctrl+/",), "List the keyboard shortcuts", "Help"),
)

MOUSE_CONTROLS: tuple[tuple[str, str], ...] = (
    ("Click a token", "Select it: its arcs and reach appear on the map"),
    ("Click an empty hex", "Move the selected combatant there"),
    ("Drag a token", "Move it to the hex where you drop it"),
    ("Right-click a token", "Make it the target of the selected combatant's attack"),
    ("Right-click an empty hex", "Add a fighter from the template library, or place an item"),
    ("Shift+right-click a token (or right-click the selected one)",
     "Its menu: postures, ready, drop, pick up, remove, duplicate"),
    ("Wheel, Ctrl+wheel, pinch", "Zoom around the pointer"),
    ("Drag the empty map, two-finger scroll", "Pan"),
    ("Double-click a token", "Edit its sheet: stats, skills, gear and side (an undoable command)"),
    ("Hover a log entry", "Highlight the hexes it involved"),
)


def shortcut(action: str) -> Shortcut:
    for entry in SHORTCUTS:
        if entry.action == action:
            return entry
    raise KeyError(f"no shortcut for action {action!r}")


def key_sequences(action: str) -> list[QKeySequence]:
    """The key sequences of an action, for ``QAction.setShortcuts``: standard keys
    expand to this platform's bindings, duplicates are dropped."""
    found: list[QKeySequence] = []
    for key in shortcut(action).keys:
        bindings = (
            QKeySequence.keyBindings(key)
            if isinstance(key, QKeySequence.StandardKey)
            else [QKeySequence(key)]
        )
        for sequence in bindings:
            if not sequence.isEmpty() and sequence not in found:
                found.append(sequence)
    return found


def keys_text(entry: Shortcut) -> str:
    """The keys as this platform writes them (Ctrl on Linux/Windows, ⌘ on macOS)."""
    texts: list[str] = []
    for sequence in key_sequences(entry.action):
        text = sequence.toString(QKeySequence.SequenceFormat.NativeText)
        if text not in texts and text != "Backtab":  # Backtab is how Shift+Tab arrives
            texts.append(text)
    return ", ".join(texts)


# --- files and versions -------------------------------------------------------------
def rules_reference_path() -> Path:
    """The GM's rules summary (docs/gm-rules.md); it links to the developer table."""
    return bundle_root() / "docs" / "gm-rules.md"


def app_version() -> str:
    """The version in pyproject.toml's [project] table (``rules.core.version``)."""
    return ENGINE_VERSION


def app_icon() -> QIcon:
    """The window icon, every drawn size (from packaging/make_icon.py); each file is
    given with its size, so that Qt reads a file only when it draws that size."""
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        path = asset_path("icons", f"hexfray-{size}.png")
        if path.exists():
            icon.addFile(str(path), QSize(size, size))
    return icon


def guide_html() -> str:
    def key(action: str) -> str:
        first = key_sequences(action)[0]
        return f"<b>{first.toString(QKeySequence.SequenceFormat.NativeText)}</b>"

    mouse = "".join(f"<li><b>{what}</b>: {does}</li>" for what, does in MOUSE_CONTROLS[:5])
    return (
        "<p>This is the demo battle. A few controls to start with:</p>"
        f"<ul>{mouse}"
        f"<li>{key('turn_left')} / {key('turn_right')}: turn the selected combatant</li>"
        "<li>The attack pane resolves the selected combatant's attack on the target; "
        f"{key('end_turn')} ends the turn</li>"
        "</ul>"
        f"<p>Every shortcut is listed under Help ▸ Keyboard shortcuts ({key('help_shortcuts')}); "
        f"this guide is under Help ▸ Controls guide ({key('help_guide')}).</p>"
    )


def guide_seen(store: QSettings | None = None) -> bool:
    """Whether the guide has opened at a start before."""
    value = (store if store is not None else user_settings()).value(GUIDE_SEEN_KEY, False)
    return value in (True, "true", "1", 1)


# --- About: the bundled components ---------------------------------------------
@dataclass(frozen=True)
class Component:
    name: str
    version: str
    licence: str
    url: str
    licence_text: str | None  # the full text when it is bundled


# (shown name, distribution, licence we use it under, where its licence is)
_COMPONENTS: tuple[tuple[str, str, str, str], ...] = (
    ("Qt for Python (PySide6-Essentials)", "PySide6_Essentials", "LGPL-3.0",
     "https://www.gnu.org/licenses/lgpl-3.0.html"),
    ("shiboken6", "shiboken6", "LGPL-3.0", "https://www.gnu.org/licenses/lgpl-3.0.html"),
    ("Hexy", "Hexy", "MIT", "https://github.com/RedFT/Hexy"),
    ("NumPy", "numpy", "BSD-3-Clause (and bundled parts: see its text)",
     "https://numpy.org/doc/stable/license.html"),
    ("platformdirs", "platformdirs", "MIT", "https://github.com/tox-dev/platformdirs"),
    ("tqdm", "tqdm", "MPL-2.0 and MIT", "https://github.com/tqdm/tqdm/blob/master/LICENCE"),
)


def _dist_info(dist_name: str) -> Path | None:
    """The metadata folder of an installed distribution, ``<name>-<version>.dist-info``
    in a folder of the import path (where pip puts it, and where the bundle carries
    its components', packaging/hexfray.spec)."""
    wanted = dist_name.lower()
    for entry in sys.path:
        folder = Path(entry or os.curdir)
        if folder.is_dir():
            for info in folder.glob("*.dist-info"):
                if info.name.partition("-")[0].lower() == wanted:
                    return info
    return None


def _dist_version(info: Path) -> str:
    """The ``Version:`` field of the distribution's METADATA headers."""
    with (info / "METADATA").open(encoding="utf-8") as headers:
        for line in headers:
            if not line.strip():  # the headers end at the first blank line
                break
            field, _, value = line.partition(":")
            if field == "Version":
                return value.strip()
    return "not found"


def _licence_text(info: Path) -> str | None:
    """The distribution's top-level licence file (numpy also ships its vendored
    parts' licences, further down)."""
    files = [
        f for f in info.rglob("*")
        if f.name.upper().startswith(("LICEN", "COPYING")) and f.is_file()
    ]
    files.sort(key=lambda f: len(f.parts))
    for f in files[:1]:
        try:
            return f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    return None


def _python_licence_text() -> str | None:
    candidates = [
        bundle_root() / "licences" / "Python-LICENSE.txt",  # bundled by the spec
        Path(os.__file__).parent / "LICENSE.txt",  # beside the standard library
    ]
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8", errors="replace")
    return None


def components() -> list[Component]:
    """The bundled components with their versions, read at run time."""
    found = [
        Component("Qt", qVersion(), "LGPL-3.0", "https://www.qt.io/licensing/open-source-lgpl-obligations",
                  None),
    ]
    for name, dist_name, licence, url in _COMPONENTS:
        info = _dist_info(dist_name)
        if info is None:
            found.append(Component(name, "not found", licence, url, None))
        else:
            found.append(Component(name, _dist_version(info), licence, url, _licence_text(info)))
    python_version = ".".join(str(part) for part in sys.version_info[:3])
    found.append(
        Component("Python", python_version, "PSF-2.0",
                  "https://docs.python.org/3/license.html", _python_licence_text())
    )
    return found


# --- dialogs ------------------------------------------------------------------------
def _close_buttons(dialog: QDialog) -> QDialogButtonBox:
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    return buttons


class RulesReferenceDialog(QDialog):
    """docs/gm-rules.md (the GM's rules summary), rendered; a clear message when
    the file is missing. Its last link opens docs/rules.md, the traceability table.

    Links to the other docs open here (Back returns), web links and bundled files
    (the rule tables) open outside, and a link to a file this build does not hold
    (source code) says so below the text instead of showing a blank page.
    """

    def __init__(self, parent: QWidget | None = None, path: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{APP_TITLE} – Rules reference")
        self.resize(860, 680)
        self.path = path or rules_reference_path()
        self.browser = QTextBrowser(self)
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self.follow)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        self.found = self.path.is_file()
        if self.found:
            self.browser.setSource(
                QUrl.fromLocalFile(str(self.path)), QTextDocument.ResourceType.MarkdownResource
            )
        else:
            self.browser.setMarkdown(
                "# Rules reference not found\n\n"
                f"Hexfray looked for the rules reference at:\n\n`{self.path}`\n\n"
                f"and it is not there. This build was made without `docs/{self.path.name}`; "
                "the battle itself works as usual, and every entry in the combat log "
                "still names the rule it follows."
            )
        back = QPushButton("Back", self)
        back.setEnabled(False)
        back.clicked.connect(self.browser.backward)
        self.browser.backwardAvailable.connect(back.setEnabled)
        bottom = QHBoxLayout()
        bottom.addWidget(back)
        bottom.addWidget(self.note, 1)
        bottom.addWidget(_close_buttons(self))
        layout = QVBoxLayout(self)
        layout.addWidget(self.browser)
        layout.addLayout(bottom)

    def follow(self, url: QUrl) -> None:
        self.note.clear()
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)
            return
        if not url.path():  # an anchor in this page
            self.browser.scrollToAnchor(url.fragment())
            return
        here = self.browser.source().toLocalFile() or str(self.path)
        target = (Path(here).parent / url.path()).resolve()
        if target.suffix == ".md" and target.is_file():
            link = QUrl.fromLocalFile(str(target))
            link.setFragment(url.fragment())
            self.browser.setSource(link, QTextDocument.ResourceType.MarkdownResource)
        elif target.is_file():
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(target)))
        else:
            self.note.setText(f"{url.path()} is not part of this build.")


class ShortcutsDialog(QDialog):
    """Every keyboard shortcut (from ``SHORTCUTS``) and the mouse controls."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{APP_TITLE} – Keyboard shortcuts")
        self.resize(560, 520)
        rows = [
            (s.group, keys_text(s), f"{s.description} (in the {s.scope})" if s.scope
             else s.description)
            for s in SHORTCUTS
        ]
        rows += [("Mouse", what, does) for what, does in MOUSE_CONTROLS]
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setHorizontalHeaderLabels(["Group", "Keys", "Does"])
        for row, values in enumerate(rows):
            for col, value in enumerate(values):
                self.table.setItem(row, col, QTableWidgetItem(value))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(_close_buttons(self))


class AboutDialog(QDialog):
    """Name, version, and the bundled components with their licences."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"About {APP_TITLE}")
        self.resize(640, 600)
        self.version = app_version()
        self.components = components()

        icon = QLabel(self)
        icon.setPixmap(QPixmap(str(asset_path("icons", "hexfray-64.png"))))
        title = QLabel(
            f"<h2>{APP_TITLE} {self.version}</h2>"
            "<p>A game master's hex map for tactical melee battles.</p>",
            self,
        )
        title.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(title, 1)

        self.table = QTableWidget(len(self.components), 3, self)
        self.table.setHorizontalHeaderLabels(["Component", "Version", "Licence"])
        for row, c in enumerate(self.components):
            for col, value in enumerate((c.name, c.version, c.licence)):
                self.table.setItem(row, col, QTableWidgetItem(value))
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.licence = QTextBrowser(self)
        self.licence.setOpenExternalLinks(True)
        self.table.currentCellChanged.connect(lambda row, *_: self._show_licence(row))

        note = QLabel(
            "Qt and Qt for Python are used under the GNU LGPL v3: this build keeps "
            "them as separate shared libraries in its folder, which you may replace "
            "with your own builds. Their source is at qt.io.",
            self,
        )
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 3)
        layout.addWidget(self.licence, 2)
        layout.addWidget(note)
        layout.addWidget(_close_buttons(self))
        self.table.setCurrentCell(0, 0)

    def _show_licence(self, row: int) -> None:
        if not 0 <= row < len(self.components):
            return
        c = self.components[row]
        if c.licence_text:
            self.licence.setPlainText(c.licence_text)
        else:
            self.licence.setHtml(
                f"<p>{c.name} {c.version} is used under the <b>{c.licence}</b> licence.</p>"
                f'<p>Its terms: <a href="{c.url}">{c.url}</a></p>'
            )


class FirstRunGuide(QDialog):
    """A short, non-modal guide to the controls, shown over the demo battle."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Welcome to {APP_TITLE}")
        self.setModal(False)
        self.setWindowModality(Qt.WindowModality.NonModal)
        text = QLabel(self)
        text.setWordWrap(True)
        text.setTextFormat(Qt.TextFormat.RichText)
        text.setText(guide_html())
        # A wrapped label reports its height for a width: fix the width so the
        # dialog opens tall enough for all of the text.
        text.setFixedWidth(GUIDE_TEXT_WIDTH)
        text.setMinimumHeight(text.heightForWidth(GUIDE_TEXT_WIDTH))
        buttons = QDialogButtonBox(self)
        buttons.addButton("Start", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(text)
        layout.addWidget(buttons)
        self.adjustSize()

    def showEvent(self, event: QShowEvent) -> None:
        """Open over the lower left of the map, clear of the tokens in the middle."""
        super().showEvent(event)
        parent = self.parentWidget()
        # The main window's map, found by its object name (app.map.view imports this module).
        anchor = parent.findChild(QWidget, "mapView") if parent is not None else None
        if anchor is not None and anchor.isVisible():
            corner = anchor.mapToGlobal(anchor.rect().bottomLeft())
            self.move(corner.x() + 16, corner.y() - self.frameGeometry().height() - 16)


def maybe_show_first_run_guide(
    parent: QWidget | None = None, store: QSettings | None = None
) -> FirstRunGuide | None:
    """Open the guide (non-modal) at the first start, once: never again after that,
    and not while a dialog waits for the GM (a file that could not be opened), over
    which it would open; that start does not count as its first."""
    store = store if store is not None else user_settings()
    if guide_seen(store) or QApplication.activeModalWidget() is not None:
        return None
    store.setValue(GUIDE_SEEN_KEY, True)
    store.sync()
    guide = FirstRunGuide(parent)
    guide.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    guide.show()
    return guide


# --- the Help menu ------------------------------------------------------------------
@dataclass
class HelpActions:
    guide: QAction
    rules: QAction
    shortcuts: QAction
    about: QAction


def populate_help_menu(menu: QMenu, window: QWidget) -> HelpActions:
    """Fill a Help menu: controls guide, rules reference, shortcuts, About.

    Each dialog is non-modal and opens once: asking again raises the open one.
    """
    open_dialogs: dict[str, QDialog] = {}

    def opener(name: str, factory: Callable[[], QDialog]) -> Callable[[], None]:
        def open_it() -> None:
            dialog = open_dialogs.get(name)
            if dialog is None:
                dialog = factory()
                dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
                dialog.finished.connect(lambda *_: open_dialogs.pop(name, None))
                open_dialogs[name] = dialog
            dialog.show()
            dialog.raise_()
            dialog.activateWindow()

        return open_it

    def add(action_name: str | None, text: str, slot: Callable[[], None]) -> QAction:
        action = QAction(text, window)
        if action_name is not None:
            action.setShortcuts(key_sequences(action_name))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    guide = add("help_guide", "Controls &guide",
                opener("guide", lambda: FirstRunGuide(window)))
    rules = add("help_rules", "&Rules reference",
                opener("rules", lambda: RulesReferenceDialog(window)))
    keys = add("help_shortcuts", "&Keyboard shortcuts",
               opener("keys", lambda: ShortcutsDialog(window)))
    menu.addSeparator()
    about = add(None, f"&About {APP_TITLE}", opener("about", lambda: AboutDialog(window)))
    about.setMenuRole(QAction.MenuRole.AboutRole)
    return HelpActions(guide, rules, keys, about)


def build_help_menu(window: QMainWindow) -> HelpActions:
    """Add a Help menu to a main window's menu bar and fill it."""
    return populate_help_menu(window.menuBar().addMenu("&Help"), window)
