"""Help: the first-run guide, the rules reference, the shortcut list and About.

``SHORTCUTS`` is the one list of keyboard shortcuts: the main window binds its
actions from it (``key_sequences(action)``) and the shortcut dialog shows it, so
the two cannot disagree. ``MOUSE_CONTROLS`` is the same for the mouse.

``build_help_menu(window)`` adds the Help menu; ``maybe_show_first_run_guide``
opens the controls guide over the demo battle until the GM ticks "Don't show
again" (kept in the settings, see ``app.user_dirs.settings``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from app.user_dirs import settings as user_settings
from rules.core.assets import asset_path, bundle_root

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

    from app.help_dialogs import (
        FirstRunGuide,
    )

# The dialogs (and their Qt classes) live in app.help_dialogs, loaded when one opens
# or when one of these names is first asked of this module (docs/packaging.md).
_DIALOG_NAMES = frozenset(
    {"AboutDialog", "Component", "FirstRunGuide", "RulesReferenceDialog", "ShortcutsDialog",
     "components"}
)  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _DIALOG_NAMES:
        import app.help_dialogs

        return getattr(app.help_dialogs, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


APP_TITLE = "Hexfray"
GUIDE_DISMISSED_KEY = "help/first_run_guide_dismissed"
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
    # the battle
    Shortcut("end_turn", ("Ctrl+Return", "Ctrl+Enter"), "End the turn", "Battle"),
    Shortcut("roll_attack", ("Return", "Enter"),
             "Roll the attack shown", "Battle", scope="Attack pane",
             via_action=False),
    Shortcut("copy_log", ("Ctrl+C",), "Copy the selected combat log entries", "Battle",
             scope="Combat log"),
    Shortcut("new_demo", (_Std.New,), "Start the demo battle afresh", "Battle"),
    Shortcut("quit", (_Std.Quit, "Ctrl+Q"), "Quit Hexfray", "Battle"),
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
    ("Wheel, Ctrl+wheel, pinch", "Zoom around the pointer"),
    ("Drag the empty map, two-finger scroll", "Pan"),
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
    """The version in pyproject.toml's [project] table (bundled beside assets/)."""
    import tomllib

    try:
        with (bundle_root() / "pyproject.toml").open("rb") as f:
            return str(tomllib.load(f)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        import importlib.metadata  # slow to import: only here and in the About dialog

        try:
            return importlib.metadata.version("hexfray")
        except importlib.metadata.PackageNotFoundError:
            return "unknown"


def app_icon() -> QIcon:
    """The window icon, every drawn size (from packaging/make_icon.py)."""
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        path = asset_path("icons", f"hexfray-{size}.png")
        if path.exists():
            icon.addFile(str(path))
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


def guide_dismissed(store: QSettings | None = None) -> bool:
    value = (store if store is not None else user_settings()).value(GUIDE_DISMISSED_KEY, False)
    return value in (True, "true", "1", 1)


def maybe_show_first_run_guide(
    parent: QWidget | None = None, store: QSettings | None = None
) -> FirstRunGuide | None:
    """Open the guide (non-modal) unless the GM chose "Don't show again"."""
    store = store if store is not None else user_settings()
    if guide_dismissed(store):
        return None
    from app.help_dialogs import FirstRunGuide

    guide = FirstRunGuide(parent, store)
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

    def dialogs() -> Any:  # loaded when the first dialog opens
        import app.help_dialogs

        return app.help_dialogs

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
                opener("guide", lambda: dialogs().FirstRunGuide(window)))
    rules = add("help_rules", "&Rules reference",
                opener("rules", lambda: dialogs().RulesReferenceDialog(window)))
    keys = add("help_shortcuts", "&Keyboard shortcuts",
               opener("keys", lambda: dialogs().ShortcutsDialog(window)))
    menu.addSeparator()
    about = add(None, f"&About {APP_TITLE}", opener("about", lambda: dialogs().AboutDialog(window)))
    about.setMenuRole(QAction.MenuRole.AboutRole)
    return HelpActions(guide, rules, keys, about)


def build_help_menu(window: QMainWindow) -> HelpActions:
    """Add a Help menu to a main window's menu bar and fill it."""
    return populate_help_menu(window.menuBar().addMenu("&Help"), window)
