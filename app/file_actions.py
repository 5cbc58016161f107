"""The File menu's logic: new, open, recent files, save, save as, close, quit, the
unsaved-changes question, the autosave and the recovery offer at start.

``FileActions`` belongs to the main window, which only adds its actions to its
menus and asks it before the window closes (``may_close``). It keeps:

* the battle's file (``path``) and whether the battle changed since it was saved or
  opened (``is_modified``: the applied log differs from the one saved; an undo
  back to the saved point is clean again). The window title shows the file's name
  and ``[*]`` (``setWindowModified``).
* what the file held when this window last read or wrote it (a ``DiskStamp``): Save
  never silently replaces a file that has changed on disk since (another window's
  save, or newer work than a restored autosave); it asks, offering Save As.
* the question before a battle is replaced or the window closes: Save / Discard /
  Cancel, asked only when there are unsaved changes and the GM's preferences ask
  it (``Confirmation.CLOSE_BATTLE``); Cancel leaves everything as it was.
* the recent files (``QSettings``), missing ones greyed out and named so.
* the autosave journal (``app.files``): installed with ``start``, restarted when
  the battle is replaced or saved, removed on a clean close; ``start`` then offers
  the journals a crash left behind (Restore / Discard / Later). A journal is thrown
  away only once the restored battle's own is written; while the autosave cannot
  write, the status bar says so with a Retry button (``AutosaveWarning``).

Every question and file dialog is an attribute the tests replace (``ask_to_save``,
``choose_open_path``, ``choose_save_path``, ``new_battle_setup``,
``ask_recovery``, ``ask_restore_partly``, ``ask_changed_file``, ``show_problem``),
so nothing here blocks offscreen. Close
returns to an empty, untitled map with the same rules (not the demo: the GM closed
a battle and should not find someone else's fighters on the map).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from enum import Enum
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QObject, QSettings, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox, QWidget

from app import theme
from app.autosave_warning import AutosaveWarning
from app.controller import BattleController
from app.demo_sides import DemoSidesChoice, computer_sides_text, demo_sides_command
from app.files import (
    FILE_SUFFIX,
    BattleFileError,
    ControllerAutosave,
    DiskStamp,
    PartlyRecovered,
    Recoverable,
    battle_file_changed,
    battle_file_stamp,
    discard,
    find_recoverable,
    install_autosave,
    open_battle,
    recover,
    save_battle_file,
    write_problem,
)
from app.help import key_sequences
from app.map.view import MapView
from app.new_battle import (
    NewBattleDialog,
    NewBattleSetup,
    new_battle,
    read_last_setup,
    write_last_setup,
)
from app.panes.widgets import clear_swatches
from app.preferences import Confirmation, Preferences
from hexmap import HexGrid
from rules.battle.battle import Battle
from rules.battle.savefile import PartlyReplayedFile
from rules.battle.state import BattleState, Command
from rules.battle.turns import StartTurns
from rules.core.assets import asset_path
from rules.core.errors import RulesError
from rules.sets.registry import get_ruleset, ruleset_keys

log = logging.getLogger(__name__)

RECENT_KEY = "files/recent"
MAX_RECENT = 8
FILE_FILTER = f"Hexfray battles (*{FILE_SUFFIX});;All files (*)"
DEMO_NAME = "Demo battle"
UNTITLED_NAME = "Untitled battle"
RESTORED_NAME = "Restored battle"  # an autosave of a battle never saved
EMPTY_MAP = (24, 16)  # columns, rows of the map Close leaves


def read_recent_files(settings: QSettings) -> tuple[Path, ...]:
    """The files of Open Recent as the settings keep them, the last opened first."""
    value = settings.value(RECENT_KEY, [])
    names = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    return tuple(Path(str(n)) for n in names if n)[:MAX_RECENT]


def recent_file_there(path: Path) -> bool:
    """Whether a file of Open Recent is there (its menu marks it "missing"
    otherwise); a name the system refuses (too long, a NUL) is no file."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


class RecoveryChoice(Enum):
    RESTORE = "restore"
    DISCARD = "discard"
    LATER = "later"  # keep the journal: the offer comes again at the next start


class ChangedFileChoice(Enum):
    """Save found the file changed on disk since this window read or wrote it."""

    SAVE_AS = "save as"  # keep the file, save this battle to another
    REPLACE = "replace"
    CANCEL = "cancel"


# --- the default dialogs (tests replace them) ---------------------------------------------


def demo_path(key: str) -> Path:
    """Ruleset ``key``'s demo battle (packaging/make_demo_battles.py writes it)."""
    return asset_path("battles", f"demo-{key}.hexfray")


def ask_to_save_with_dialog(parent: QWidget, name: str) -> QMessageBox.StandardButton:
    buttons = QMessageBox.StandardButton
    box = QMessageBox(QMessageBox.Icon.Warning, "Unsaved changes", "", parent=parent)
    box.setText(f"Save the changes to {name}?")
    box.setInformativeText("Your changes are lost if you don't save them.")
    box.setStandardButtons(buttons.Save | buttons.Discard | buttons.Cancel)
    box.setDefaultButton(buttons.Save)
    box.setEscapeButton(buttons.Cancel)
    answer = buttons(box.exec())
    box.deleteLater()
    return answer


def choose_open_path_with_dialog(parent: QWidget, folder: str) -> Path | None:
    name, _filter = QFileDialog.getOpenFileName(parent, "Open Battle", folder, FILE_FILTER)
    return Path(name) if name else None


def choose_save_path_with_dialog(parent: QWidget, suggested: str) -> Path | None:
    name, _filter = QFileDialog.getSaveFileName(parent, "Save Battle As", suggested, FILE_FILTER)
    return Path(name) if name else None


def new_battle_setup_with_dialog(
    parent: QWidget, preferences: Preferences, last: NewBattleSetup | None
) -> NewBattleSetup | None:
    dialog = NewBattleDialog(parent, side_colours=preferences.side_colours, last=last)
    accepted = dialog.exec() == NewBattleDialog.DialogCode.Accepted
    setup = dialog.setup() if accepted else None
    dialog.deleteLater()
    return setup


def ask_open_partly_with_dialog(parent: QWidget, name: str, partly: PartlyReplayedFile) -> bool:
    box = QMessageBox(QMessageBox.Icon.Warning, "Open Battle", "", parent=parent)
    box.setText(f"{name} replays only in part: {partly.replayed} of its {partly.total} commands.")
    box.setInformativeText(
        f"{str(partly)[:1].upper()}{str(partly)[1:]}. It was probably saved by a Hexfray "
        "whose rules differ. Open the battle as it stands after those commands? The file "
        "stays as it is; Save asks for a new name."
    )
    opening = box.addButton("Open", QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(opening)
    box.exec()
    return box.clickedButton() is opening


def _when(seconds: float) -> str:
    return time.strftime("%A %d %B, %H:%M", time.localtime(seconds))


def recovery_question(entry: Recoverable) -> tuple[str, str]:
    """The restore offer's question and its explanation. A battle whose file has
    been written since its autosave began says so: restoring brings back the older
    battle, and Save then asks before it replaces the newer file."""
    what = f"the battle saved as {entry.saved_to.name}" if entry.saved_to else "an unsaved battle"
    changes = f"{entry.changes} change{'' if entry.changes == 1 else 's'}"
    if entry.unsaved_start:
        changes += " since it was last restored, unsaved"
    elif entry.saved_to is not None:
        changes += " after its last save"
    explanation = (
        f"Its autosave was last written on {_when(entry.modified)}, with {changes}. Restore "
        "brings it back as it was at its last command; Discard throws the autosave away; "
        "Later keeps it for the next start."
    )
    if entry.file_changed and entry.saved_to is not None:
        try:
            written = f" (last written on {_when(entry.saved_to.stat().st_mtime)})"
        except OSError:
            written = ""
        explanation = (
            f"{entry.saved_to.name} has been saved again since this autosave began{written}: "
            "it holds newer work than this battle. Restore brings back the older battle; "
            "Save then asks before it replaces the file, and offers Save As.\n\n" + explanation
        )
    return f"Restore {what}? Its last changes were never saved.", explanation


Answer = TypeVar("Answer")
_Role = QMessageBox.ButtonRole
# The buttons of a question: caption, role and answer. The first is the default;
# the last is what Esc or closing the question answers.
RECOVERY_BUTTONS = (
    ("Restore", _Role.AcceptRole, RecoveryChoice.RESTORE),
    ("Discard", _Role.DestructiveRole, RecoveryChoice.DISCARD),
    ("Later", _Role.RejectRole, RecoveryChoice.LATER),
)
RESTORE_PARTLY_BUTTONS = (("Restore", _Role.AcceptRole, True), ("Cancel", _Role.RejectRole, False))
CHANGED_FILE_BUTTONS = (
    ("Save As…", _Role.AcceptRole, ChangedFileChoice.SAVE_AS),
    ("Replace", _Role.DestructiveRole, ChangedFileChoice.REPLACE),
    ("Cancel", _Role.RejectRole, ChangedFileChoice.CANCEL),
)


def choose_with_dialog(
    parent: QWidget,
    question: tuple[QMessageBox.Icon, str, str, str],
    buttons: Sequence[tuple[str, QMessageBox.ButtonRole, Answer]],
) -> Answer:
    """A question (icon, title, text, explanation) answered by one of ``buttons``."""
    icon, title, text, explanation = question
    box = QMessageBox(icon, title, text, parent=parent)
    box.setInformativeText(explanation)
    added = [(box.addButton(caption, role), answer) for caption, role, answer in buttons]
    box.setDefaultButton(added[0][0])
    box.setEscapeButton(added[-1][0])
    box.exec()
    clicked = box.clickedButton()
    box.deleteLater()
    return next((answer for button, answer in added if button is clicked), added[-1][1])


def ask_recovery_with_dialog(parent: QWidget, entry: Recoverable) -> RecoveryChoice:
    text, explanation = recovery_question(entry)
    question = (QMessageBox.Icon.Question, "Restore a battle?", text, explanation)
    return choose_with_dialog(parent, question, RECOVERY_BUTTONS)


def ask_restore_partly_with_dialog(parent: QWidget, partly: PartlyRecovered) -> bool:
    explanation = (
        "Restore the battle as it was before the damaged change? The autosave is then "
        "thrown away; Cancel keeps it."
    )
    question = (
        QMessageBox.Icon.Warning,
        "Restore a battle",
        partly_recovered_text(partly),
        explanation,
    )
    return choose_with_dialog(parent, question, RESTORE_PARTLY_BUTTONS)


def partly_recovered_text(partly: PartlyRecovered) -> str:
    """What a damaged autosave brings back and what it loses."""
    lost = "the last change" if partly.lost == 1 else f"the last {partly.lost} changes"
    return (
        f"The autosave is damaged: {partly}. It brings back {partly.recovered} of its "
        f"{partly.total} changes; {lost} cannot be read and {'is' if partly.lost == 1 else 'are'} "
        "lost."
    )


def ask_changed_file_with_dialog(parent: QWidget, name: str) -> ChangedFileChoice:
    text = f"{name} has changed on disk since this window opened or saved it."
    explanation = (
        "Another window or program has saved it since, or this battle is an older one "
        "restored from its autosave. Replacing it loses what the file holds now; Save As "
        "keeps both."
    )
    question = (QMessageBox.Icon.Warning, "Save Battle", text, explanation)
    return choose_with_dialog(parent, question, CHANGED_FILE_BUTTONS)


def show_problem_with_dialog(parent: QWidget, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)


def _same_log(commands: tuple[Command, ...], saved: tuple[Command, ...]) -> bool:
    """The log is the one saved: the same commands (the very objects: a command undone
    and done again anew is another one)."""
    return len(commands) == len(saved) and all(a is b for a, b in zip(commands, saved, strict=True))


class FileActions(QObject):
    """The File menu of ``window`` on ``controller``'s battle."""

    def __init__(
        self,
        window: QMainWindow,
        controller: BattleController,
        map_view: MapView,
        settings: QSettings,
        preferences: Callable[[], Preferences],
    ) -> None:
        super().__init__(window)
        self._window = window
        self._map_view = map_view
        self._controller = controller
        self._settings = settings
        self._preferences = preferences
        self.path: Path | None = None
        self.name = DEMO_NAME
        # What ``path`` held when this window last read or wrote it (None: unknown).
        self.on_disk: DiskStamp | None = None
        self._saved_commands: tuple[Command, ...] = controller.battle.commands
        # Set by this object just before it replaces the battle: the new one's file,
        # name and what the file held (a battle replaced by anyone else is the demo).
        self._pending: tuple[Path | None, str, DiskStamp | None] | None = None
        self.autosave: ControllerAutosave | None = None
        # How a new or opened battle is put in the window (the window's own, which
        # swaps the ruleset's panes: ``MainWindow.replace_battle``).
        self.replace_battle: Callable[[Battle], None] = controller.replace_battle

        self.ask_to_save: Callable[[str], QMessageBox.StandardButton] = lambda name: (
            ask_to_save_with_dialog(window, name)
        )
        self.choose_open_path: Callable[[], Path | None] = lambda: choose_open_path_with_dialog(
            window, str(self._folder())
        )
        self.choose_save_path: Callable[[str], Path | None] = lambda suggested: (
            choose_save_path_with_dialog(window, suggested)
        )
        self.new_battle_setup: Callable[[], NewBattleSetup | None] = lambda: (
            new_battle_setup_with_dialog(window, self._preferences(), read_last_setup(settings))
        )
        self.ask_recovery: Callable[[Recoverable], RecoveryChoice] = lambda entry: (
            ask_recovery_with_dialog(window, entry)
        )
        self.ask_open_partly: Callable[[str, PartlyReplayedFile], bool] = lambda name, partly: (
            ask_open_partly_with_dialog(window, name, partly)
        )
        self.ask_restore_partly: Callable[[PartlyRecovered], bool] = lambda partly: (
            ask_restore_partly_with_dialog(window, partly)
        )
        self.ask_changed_file: Callable[[str], ChangedFileChoice] = lambda name: (
            ask_changed_file_with_dialog(window, name)
        )
        self.show_problem: Callable[[str, str], None] = lambda title, text: (
            show_problem_with_dialog(window, title, text)
        )
        self.autosave_warning = AutosaveWarning(window)
        self.autosave_warning.retry_requested.connect(self.retry_autosave)
        window.statusBar().addPermanentWidget(self.autosave_warning)

        self._set_aside_note = ""
        self._unsaved_goes_unasked = False  # may_replace_battle let unsaved work go unasked
        self._make_actions()
        controller.battle_changed.connect(self._on_controller_battle_changed)
        controller.battle_reset.connect(self._on_controller_battle_reset)
        self._update_title()

    # --- the actions -----------------------------------------------------------------------
    def _action(
        self, text: str, name: str, tip: str, slot: Callable[[], object], *, keys: bool = True
    ) -> QAction:
        action = QAction(text, self._window)
        action.setObjectName(name)
        if keys:
            action.setShortcuts(key_sequences(name))
        action.setStatusTip(tip)
        action.triggered.connect(lambda _=False: slot())
        return action

    def _make_actions(self) -> None:
        self.new_action = self._action(
            "&New Battle…", "new_battle", "Start a battle from nothing: map, rules, sides, seed",
            self.new_battle,
        )  # fmt: skip
        self.open_action = self._action("&Open…", "open_battle", "Open a saved battle", self.open)
        self.save_action = self._action("&Save", "save_battle", "Save the battle", self.save)
        self.save_as_action = self._action(
            "Save &As…", "save_battle_as", "Save the battle to another file", self.save_as
        )
        self.close_action = self._action(
            "&Close", "close_battle", "Close the battle (an empty map stays)", self.close_battle
        )
        self.restore_action = self._action(
            "Restore &Autosave…", "restore_autosave",
            "Bring back a battle that was closed unsaved or lost in a crash",
            self.restore_autosave, keys=False,
        )  # fmt: skip
        self.recent_menu = QMenu("Open &Recent", self._window)
        self.recent_menu.setObjectName("recentMenu")
        self.recent_menu.aboutToShow.connect(self._on_recent_menu_about_to_show)
        self._fill_recent_menu()
        self.demo_menu = QMenu("Open &Demo Battle", self._window)
        self.demo_menu.setObjectName("demoMenu")
        self.demo_menu.setToolTipsVisible(True)
        self.demo_menu.aboutToShow.connect(self._on_demo_menu_about_to_show)
        self.demo_sides = DemoSidesChoice(self.demo_menu)  # who plays a demo's sides
        # Filled as it opens: the entries name each ruleset, and asking a ruleset its
        # name imports its package, which the first frame must not wait for.
        self.demo_menu.setEnabled(any(demo_path(key).is_file() for key in ruleset_keys()))

    def add_to_menu(self, menu: QMenu) -> None:
        """New Battle, Open, Open Recent, Open Demo Battle, Restore Autosave, Save,
        Save As and Close."""
        menu.addAction(self.new_action)
        menu.addAction(self.open_action)
        menu.addMenu(self.recent_menu)
        menu.addMenu(self.demo_menu)
        menu.addAction(self.restore_action)
        menu.addSeparator()
        for action in (self.save_action, self.save_as_action, self.close_action):
            menu.addAction(action)
        menu.addSeparator()

    # --- state ---------------------------------------------------------------------------
    @property
    def is_modified(self) -> bool:
        return not _same_log(self._controller.battle.commands, self._saved_commands)

    def _mark_saved(self) -> None:
        self._saved_commands = self._controller.battle.commands
        self._update_title()

    def _update_title(self) -> None:
        # "[*]" is where Qt shows the modified marker ("*" once setWindowModified).
        self._window.setWindowTitle(f"Hexfray – {self.name.replace('[*]', '')}[*]")
        self._window.setWindowModified(self.is_modified)
        self.save_action.setEnabled(True)

    def _on_controller_battle_changed(self, *_args: object) -> None:
        self._window.setWindowModified(self.is_modified)

    def _on_controller_battle_reset(self) -> None:
        pending = self._pending if self._pending is not None else (None, DEMO_NAME, None)
        self._pending = None
        self.path, self.name, self.on_disk = pending
        self._mark_saved()
        self.show_side_colours()

    def show_side_colours(self) -> None:
        """Tokens in the colours the battle gives its sides (New Battle), the GM's
        preferred ones for the others."""
        preferences = self._preferences()
        wanted = dict(preferences.side_colours)
        wanted.update({s.side: s.colour for s in self._controller.state.sides})
        if theme.apply_colours(wanted, preferences.arc_colours):
            clear_swatches()
            self._map_view.refresh_look()
            self._window.update()

    def _replace(
        self,
        battle: Battle,
        path: Path | None,
        name: str,
        stamp: DiskStamp | None = None,
        *,
        unsaved: bool = False,
    ) -> None:
        """Put ``battle`` in the window, from ``path`` which held ``stamp`` (None: a
        new battle); ``unsaved``: the battle is unsaved work (a restored autosave)."""
        self._set_aside_unsaved()
        self._pending = (path, name, stamp)
        self.replace_battle(battle)
        if unsaved:
            self._saved_commands = ()  # what it holds is in no file of its own yet
            self._update_title()
        if (path is not None or unsaved) and self.autosave is not None:
            # The journal names the file it belongs to, and says what the file held.
            self.autosave.restart(path, unsaved=unsaved, stamp=stamp)

    # --- the question ------------------------------------------------------------------------
    def may_replace_battle(self) -> bool:
        """Whether the battle may go now: nothing unsaved, the GM does not want the
        question, or they saved it or chose to discard it. False: Cancel (or a save
        that failed or was cancelled) - keep everything as it is."""
        self._unsaved_goes_unasked = False
        if not self.is_modified:
            return True
        if not self._preferences().asks(Confirmation.CLOSE_BATTLE):
            self._unsaved_goes_unasked = True  # set aside when it really goes (_replace)
            return True
        answer = self.ask_to_save(self.name)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    def _set_aside_unsaved(self) -> None:
        """The GM asked not to be asked: the unsaved battle goes without a question,
        but its journal stays for File ▸ Restore Autosave… and the next start."""
        going, self._unsaved_goes_unasked = self._unsaved_goes_unasked, False
        if not going or self.autosave is None:
            return
        self.autosave.set_aside()
        # Told with the next status message (the new or opened battle's), not lost under it.
        self._set_aside_note = f"{self.name} was not saved: File ▸ Restore Autosave… brings it back"

    def may_close(self) -> bool:
        """Before the window closes: the question, then the autosave goes (a clean
        close leaves nothing to recover)."""
        if not self.may_replace_battle():
            return False
        self._set_aside_unsaved()
        self.stop_autosave()
        return True

    # --- new, open, close ----------------------------------------------------------------
    def new_battle(self) -> bool:
        if not self.may_replace_battle():
            return False
        setup = self.new_battle_setup()
        if setup is None:
            return False
        try:
            battle = new_battle(setup, handedness=self._preferences().default_handedness)
        except RulesError as problem:  # an option the ruleset refuses
            self.show_problem("New Battle", f"The battle cannot be made: {problem}")
            return False
        write_last_setup(self._settings, setup)
        self._replace(battle, None, UNTITLED_NAME)
        rolled = (
            setup.roll_initiative
            and bool(battle.state.combatants)
            # Through the controller, so that physical dice ask the table for it.
            and self._controller.execute(StartTurns()) is not None
        )
        if rolled:
            self._mark_saved()  # the order is part of the new battle, as its fighters are
        then = "the turn order is rolled" if rolled else "right-click a hex to add a fighter"
        self._status(f"New battle, seed {setup.seed}: {then}", 8000)
        return True

    def open(self) -> bool:
        if not self.may_replace_battle():
            return False
        path = self.choose_open_path()
        return path is not None and self.open_path(path, asked=True)

    def open_path(self, path: Path, *, asked: bool = False) -> bool:
        """Open ``path`` (after the question unless ``asked``); a file that cannot be
        opened gets a dialog naming the problem and the battle stays as it was."""
        if not asked and not self.may_replace_battle():
            return False
        # What the file holds, taken before it is read: should another program write
        # it in between, the next save asks rather than replacing that unseen work.
        stamp = battle_file_stamp(path)
        try:
            battle = open_battle(path)
        except PartlyReplayedFile as partly:
            return self._open_partly(path, partly)
        except BattleFileError as problem:
            self.show_problem("Open Battle", f"{path.name} cannot be opened: {problem}.")
            return False
        self._replace(battle, path, path.name, stamp)
        self._remember(path)
        self._status(f"Opened {path}", 5000)
        return True

    # --- the rulesets' demo battles ---------------------------------------------------------
    def _on_demo_menu_about_to_show(self) -> None:
        self.fill_demo_menu()

    def fill_demo_menu(self) -> None:
        """One entry per registered ruleset that has a demo battle
        (``assets/battles/demo-<key>.hexfray``), by the ruleset's name."""
        self.demo_menu.clear()
        for key in ruleset_keys():
            if not demo_path(key).is_file():
                continue
            try:
                ruleset = get_ruleset(key)
            except RulesError as exc:  # a ruleset that cannot load is not offered
                log.warning("no demo of ruleset %s: %s", key, exc)
                continue
            action = self.demo_menu.addAction(ruleset.name)
            action.setObjectName(f"openDemo:{key}")
            action.setToolTip(ruleset.description)
            action.setStatusTip(f"Open the demo battle of {ruleset.name}, its turn order rolled")
            action.triggered.connect(lambda _=False, k=key: self.open_demo(k))
        if not self.demo_menu.isEmpty():
            self.demo_sides.add_to(self.demo_menu)
        self.demo_menu.setEnabled(not self.demo_menu.isEmpty())

    def open_demo(self, key: str) -> bool:
        """Ruleset ``key``'s demo battle as a new, untitled battle: a Save asks
        where, so the bundled file is never written."""
        if not self.may_replace_battle():
            return False
        path = demo_path(key)
        try:
            battle = open_battle(path)
        except BattleFileError as problem:
            self.show_problem("Open Demo Battle", f"{path.name} cannot be opened: {problem}.")
            return False
        name = f"Demo battle ({get_ruleset(key).name})"
        self._replace(battle, None, name)
        handed = demo_sides_command(battle.state, self.demo_sides.key)
        if handed is not None:  # one command: it undoes, saves and replays
            self._controller.execute(handed)
            self._status(f"Demo battle of ruleset {key}: {computer_sides_text(battle.state)}", 8000)
            return True
        self._status(f"Opened the demo battle of ruleset {key}", 5000)
        return True

    def _open_partly(self, path: Path, partly: PartlyReplayedFile) -> bool:
        """A file these rules replay only in part: the GM may open what replays, as
        an unsaved battle of its own (a Save must not cut the file's log short)."""
        if not self.ask_open_partly(path.name, partly):
            return False
        name = f"{path.stem} (first {partly.replayed} of {partly.total} commands)"
        self._replace(partly.battle, None, name)
        self._saved_commands = ()  # what it holds is in no file of its own yet
        self._update_title()
        self._status(f"Opened the first {partly.replayed} commands of {path}", 8000)
        return True

    def close_battle(self) -> bool:
        if not self.may_replace_battle():
            return False
        state = self._controller.state
        empty = BattleState(
            HexGrid(*EMPTY_MAP),
            (),
            ruleset_key=state.ruleset_key,
            ruleset_options=state.ruleset_options,
        )
        self._replace(Battle(empty, self._controller.battle.seed, get_ruleset), None, UNTITLED_NAME)
        self._status("Battle closed: File ▸ New Battle… or Open… to start another", 8000)
        return True

    def quit(self) -> None:
        self._window.close()

    # --- save ----------------------------------------------------------------------------------
    def save(self) -> bool:
        """Save to the battle's file; a file that changed on disk since this window
        read or wrote it is replaced only if the GM says so (or saved as another)."""
        if self.path is None:
            return self.save_as()
        if battle_file_changed(self.path, self.on_disk):
            choice = self.ask_changed_file(self.path.name)
            if choice is ChangedFileChoice.SAVE_AS:
                return self.save_as()
            if choice is ChangedFileChoice.CANCEL:
                return False
        return self.save_to(self.path)

    def save_as(self) -> bool:
        suggested = self.path if self.path is not None else self._folder() / self._file_name()
        path = self.choose_save_path(str(suggested))
        if path is None:
            return False
        if path.suffix.lower() != FILE_SUFFIX:
            path = path.with_name(path.name + FILE_SUFFIX)
        return self.save_to(path)

    def save_to(self, path: Path) -> bool:
        """Write the battle to ``path``; any error ends in a dialog, and the file
        there, if any, is kept as it was."""
        try:
            saved = save_battle_file(self._controller.battle, path)
        except (OSError, ValueError) as problem:
            self.show_problem(
                "Save Battle", f"The battle could not be saved to {path}: "
                f"{write_problem(problem)}. The file there, if any, is as it was.",
            )  # fmt: skip
            return False
        if self.autosave is not None:
            self.autosave.saved(path, saved.text, saved.stamp)
        self.path, self.name, self.on_disk = path, path.name, saved.stamp
        self._mark_saved()
        self._remember(path)
        self._status(f"Saved {path}", 5000)
        return True

    def _file_name(self) -> str:
        stamp = time.strftime("%Y-%m-%d")
        return f"battle-{stamp}{FILE_SUFFIX}"

    def _folder(self) -> Path:
        if self.path is not None:
            return self.path.parent
        recent = self.recent_files()
        return recent[0].parent if recent else Path.home()

    # --- recent files ------------------------------------------------------------------------
    def recent_files(self) -> tuple[Path, ...]:
        return read_recent_files(self._settings)

    def _set_recent(self, paths: tuple[Path, ...]) -> None:
        self._settings.setValue(RECENT_KEY, [str(p) for p in paths[:MAX_RECENT]])
        self._fill_recent_menu()

    def _remember(self, path: Path) -> None:
        path = path.resolve()
        self._set_recent((path, *(p for p in self.recent_files() if p != path)))

    def forget(self, path: Path) -> None:
        self._set_recent(tuple(p for p in self.recent_files() if p != path))

    def _on_recent_menu_about_to_show(self) -> None:
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        menu = self.recent_menu
        menu.clear()
        recent = self.recent_files()
        for number, path in enumerate(recent, start=1):
            there = recent_file_there(path)
            text = f"&{number} {path.name}" if number < 10 else path.name
            action = menu.addAction(text if there else f"{text} (missing)")
            action.setObjectName(f"recent:{number}")
            action.setToolTip(str(path))
            action.setStatusTip(str(path) if there else f"{path} is no longer there")
            action.setEnabled(there)
            action.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        if recent:
            menu.addSeparator()
            clear = menu.addAction("&Clear the List")
            clear.setObjectName("clearRecent")
            clear.triggered.connect(lambda _=False: self._set_recent(()))
        else:
            none = menu.addAction("No recent battles")
            none.setEnabled(False)

    def open_recent(self, path: Path) -> bool:
        if not path.is_file():
            self.forget(path)
            self.show_problem(
                "Open Recent", f"{path} is no longer there; it is taken off the list."
            )
            return False
        return self.open_path(path)

    # --- autosave and recovery ---------------------------------------------------------------
    def start(
        self, battle_file: Path | None = None, then: Callable[[bool], object] | None = None
    ) -> None:
        """At start-up, once the window shows: the battle's file, the autosave, then
        the offer to restore what a crash left behind (from the event loop, so the
        window is drawn behind the question), and ``then`` once the GM has answered
        it, told whether a battle was restored (the first-run guide, which must not
        open over the question nor over the restored battle)."""
        if battle_file is not None:
            # Taken now, not when main.py read the file a moment ago; a second
            # program that wrote it in that moment would be overwritten unasked.
            self.path, self.name = battle_file, battle_file.name
            self.on_disk = battle_file_stamp(battle_file)
            self._remember(battle_file)
            self._update_title()
        self.autosave = install_autosave(self._controller, battle_file, self.on_disk)
        self.autosave.unsaved_work = lambda: self.is_modified
        self.autosave.status_changed.connect(self._on_autosave_status_changed)
        self._on_autosave_status_changed(self.autosave.problem)

        def offer_then_go_on() -> None:
            restored = self.offer_recovery()
            if then is not None:
                then(restored)

        QTimer.singleShot(0, offer_then_go_on)

    def _on_autosave_status_changed(self, problem: str) -> None:
        was_shown = self.autosave_warning.isVisible()
        self.autosave_warning.show_problem(problem)
        if problem and not was_shown:  # the warning stays; the message comes once
            self._status(f"The autosave cannot be written: {problem}", 10000)
        elif was_shown and not problem:
            self._status("The autosave works again", 5000)

    def retry_autosave(self) -> bool:
        """The warning's Retry: write the autosave again from the battle as it is."""
        return self.autosave is not None and self.autosave.retry()

    def stop_autosave(self) -> None:
        if self.autosave is not None:
            try:
                self.autosave.close()
            except OSError:
                log.warning("the autosave journal could not be removed", exc_info=True)

    def offer_recovery(self) -> bool:
        """Offer each journal a crash left (newest first) until the GM restores one;
        True if a battle was restored."""
        own = None if self.autosave is None else self.autosave.journal.path
        for entry in find_recoverable():
            if entry.journal == own:
                continue
            if not entry.worth_offering:  # nothing happened after it began: nothing to lose
                discard(entry)
                continue
            choice = self.ask_recovery(entry)
            if choice is RecoveryChoice.LATER:
                continue
            if choice is RecoveryChoice.DISCARD:
                discard(entry)
                continue
            if self.restore(entry):
                return True
        return False

    def restore_autosave(self) -> bool:
        """File ▸ Restore Autosave…: the same offer as at start-up, on demand."""
        own = None if self.autosave is None else self.autosave.journal.path
        if not any(e.worth_offering and e.journal != own for e in find_recoverable()):
            self.show_problem("Restore Autosave", "There is no autosaved battle to restore.")
            return False
        return self.offer_recovery()

    def restore(self, entry: Recoverable) -> bool:
        """Bring back the battle of ``entry``: as it was at its last change, or, when a
        change is damaged, before it if the GM agrees. The journal is thrown away
        only once the window's own autosave holds the restored battle."""
        try:
            battle = recover(entry)
        except PartlyRecovered as partly:
            if not self.ask_restore_partly(partly):
                return False
            battle = partly.battle
        except BattleFileError as problem:
            self.show_problem(
                "Restore a battle", f"The autosave cannot be restored: {problem}. It is kept."
            )
            return False
        if not self.may_replace_battle():
            return False
        name = entry.saved_to.name if entry.saved_to is not None else RESTORED_NAME
        # Restored, not saved: what the crash kept is unsaved work until the GM saves,
        # and the new journal says so, or a second crash before the next command
        # would leave a journal that looks like nothing to lose. The file is known as
        # the journal knew it: a save asks if it has been written since.
        self._replace(battle, entry.saved_to, name, entry.saved_stamp, unsaved=True)
        if self.autosave is None or not self.autosave.working:
            self._status(
                "Battle restored; its autosave is kept, since the autosave cannot be "
                "written now", 10000,
            )  # fmt: skip
            return True
        discard(entry)
        self._status("Battle restored from its autosave", 6000)
        return True

    def _status(self, text: str, timeout: int) -> None:
        if self._set_aside_note:
            text, timeout = f"{text}. {self._set_aside_note}", max(timeout, 10000)
            self._set_aside_note = ""
        self._window.statusBar().showMessage(text, timeout)
