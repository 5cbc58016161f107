"""Importing a fighter from another program's character file (GURPS Character
Sheet's ``.gcs`` for seed 000, docs/gcs-import.md): File ▸ Import Character…, a
file dropped on the map, and ``python main.py --import-gcs FILE --to-template NAME``.

The window does not know which ruleset reads which file: it asks the battle's
ruleset for the kinds of character file it imports (``Sheets.character_file_kinds``)
and lets the kind that matches the file's suffix read it. The GM then sees what
was imported and what was left out, picks the side, and the fighter joins the
battle through ``AddCombatant`` (undone, saved and replayed like any command):
from the menu in the free hex nearest the middle of the map, dropped in the hex
under the mouse or the free one nearest it, with the file's current hit points.

A character already on the map (the same ``Fighter.origin``, the file's own id)
is updated instead, through ``EditFighter``: it keeps its place, facing and side
and the hit points the battle took from it, and the report says it is an update.

The file dialog, the report and the problem message are attributes the tests
replace (``choose_path``, ``confirm``, ``show_problem``), so nothing blocks offscreen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.controller import BattleController
from app.map.view import MapView
from app.new_battle import battle_sides
from app.templates import Template, nearest_free_hex, save_custom_template
from hexmap import Facing, Hex
from rules.battle.edits import EditFighter, fighter_problems, sheet_changes
from rules.battle.model import Combatant, Fighter, Side
from rules.battle.roster import AddCombatant, next_combatant_id
from rules.battle.sides import side_name
from rules.battle.state import BattleState
from rules.battle.values import hex_name
from rules.core.errors import DataError, RulesError
from rules.core.file_reading import read_regular_file
from rules.sets.protocol import CharacterFileKind, ImportedCharacter
from rules.sets.registry import get_ruleset, ruleset_keys

REPORT_SIZE = (560, 420)
NO_KINDS = "The rules of this battle import no character files."
TITLE = "Import Character"


def file_filter(kinds: Sequence[CharacterFileKind]) -> str:
    """The file dialog's filter: each kind by its suffixes, then every file."""
    parts = [f"{k.label} ({' '.join(f'*{s}' for s in k.suffixes)})" for k in kinds]
    return ";;".join([*parts, "All files (*)"])


def kind_for(path: Path, kinds: Sequence[CharacterFileKind]) -> CharacterFileKind:
    """The kind whose suffix the file has; the first kind for any other name."""
    suffix = path.suffix.lower()
    return next((k for k in kinds if suffix in k.suffixes), kinds[0])


def imports_file(path: Path, kinds: Sequence[CharacterFileKind]) -> bool:
    """Whether one of ``kinds`` reads files of ``path``'s suffix (a dropped file)."""
    return any(path.suffix.lower() in k.suffixes for k in kinds)


def read_character_file(path: Path, kind: CharacterFileKind) -> bytes:
    """The file's bytes for ``kind``'s reader: only a regular file, of at most the
    kind's ``max_bytes`` (``rules.core.file_reading``: a named pipe, a device or
    an endless file is refused unread, ``DataError``); ``OSError`` when it cannot
    be read."""
    return read_regular_file(
        path, kind.max_bytes, DataError, name="the file", kind="a character file"
    )


def map_middle(state: BattleState) -> Hex:
    return Hex.from_offset(state.grid.width // 2, state.grid.height // 2)


def free_hex_near_middle(state: BattleState) -> Hex | None:
    """The free hex nearest the middle of the map (the first of equals in the
    grid's order); None when every hex is taken."""
    centre = map_middle(state)
    taken = {c.hex for c in state.combatants}
    free = [h for h in state.grid.hexes() if h not in taken]
    return min(free, key=lambda h: h.distance(centre)) if free else None


def free_name(state: BattleState, name: str, but: str | None = None) -> str:
    """``name``, or "Ser Aldo 2" if another fighter (any but ``but``) has it."""
    taken = {c.name for c in state.combatants if c.id != but}
    candidate, number = name, 1
    while candidate in taken:
        number += 1
        candidate = f"{name} {number}"
    return candidate


def same_character(state: BattleState, fighter: Fighter) -> Combatant | None:
    """The fighter on the map imported from the same character (the same
    ``origin``; the first in the roster if copies share it); None for a new one."""
    if not fighter.origin:
        return None
    return next((c for c in state.combatants if c.fighter.origin == fighter.origin), None)


def imported_combatant(
    state: BattleState, result: ImportedCharacter, side: Side, at: Hex
) -> Combatant:
    """The imported fighter at ``at`` for ``side``, facing the middle of the map,
    with the file's current hit points; named "Ser Aldo 2" if a Ser Aldo is on the
    map already."""
    fighter = result.fighter
    name = free_name(state, fighter.name)
    centre = map_middle(state)
    facing = min(Facing, key=lambda f: (at + f.vector).distance(centre))
    return Combatant(
        id=next_combatant_id(state),
        fighter=fighter if name == fighter.name else replace(fighter, name=name),
        side=side,
        hex=at,
        facing=facing,
        hp=result.hit_points_now,
    )


def update_of(state: BattleState, who: Combatant, result: ImportedCharacter) -> EditFighter:
    """The edit that gives ``who`` the sheet read again from its file, under the
    file's name (numbered if another fighter has it); ``EditFighter`` keeps its
    place, facing, side and the hit points it has lost in the battle."""
    fighter = result.fighter
    name = free_name(state, fighter.name, but=who.id)
    return EditFighter(who.id, fighter if name == fighter.name else replace(fighter, name=name))


@dataclass(frozen=True, slots=True)
class ImportPlan:
    """What the GM is asked to accept: the file's character, the sides it may
    join, and, for a character already on the map, the fighter it updates."""

    result: ImportedCharacter
    sides: tuple[tuple[Side, str], ...]
    updates: Combatant | None = None
    changes: tuple[str, ...] = ()  # what the update changes (``sheet_changes``)


def plan_for(state: BattleState, result: ImportedCharacter) -> ImportPlan:
    sides = tuple((side, side_name(state.sides, side)) for side in battle_sides(state))
    who = same_character(state, result.fighter)
    if who is None:
        return ImportPlan(result, sides)
    changes = sheet_changes(who.fighter, update_of(state, who, result).fighter)
    return ImportPlan(result, sides, who, changes)


def update_text(state: BattleState, plan: ImportPlan) -> str:
    """The report's first line for an update: whom it updates, and what changes."""
    who = plan.updates
    if who is None:
        return ""
    line = (
        f"Updates {who.name} ({side_name(state.sides, who.side)}, {hex_name(who.hex)}), "
        "who keeps place, facing, side and the hit points lost in the battle. "
    )
    if not plan.changes:
        return line + "The sheet on the map is already the same: nothing changes."
    return line + "Changes: " + "; ".join(plan.changes) + "."


def report_text(result: ImportedCharacter, update: str = "") -> str:
    """What the GM reads before accepting: an update's line, what came over, then
    what was left out."""
    lines = [update, ""] if update else []
    lines += ["Imported:", *(f"  • {line}" for line in result.imported)]
    if result.skipped:
        lines += ["", "Left out (Hexfray cannot represent these):"]
        lines += [f"  • {line}" for line in result.skipped]
    else:
        lines += ["", "Nothing was left out."]
    return "\n".join(lines)


class ImportReportDialog(QDialog):
    """The import report and the side the fighter joins (an update keeps its side)."""

    def __init__(
        self,
        result: ImportedCharacter,
        sides: Sequence[tuple[Side, str]],
        parent: QWidget | None,
        update: str = "",
    ) -> None:
        super().__init__(parent)
        self.setObjectName("importReport")
        self.setWindowTitle(f"{'Update' if update else 'Import'} {result.fighter.name}")
        self.resize(*REPORT_SIZE)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                f"<b>{result.fighter.name}</b>: HP {result.hit_points_now} of "
                f"{result.fighter.hit_points}, Move {result.fighter.move}",
                self,
            )
        )
        self.report = QPlainTextEdit(report_text(result, update), self)
        self.report.setObjectName("importReportText")
        self.report.setReadOnly(True)
        layout.addWidget(self.report)
        form = QFormLayout()
        self.side_box = QComboBox(self)
        self.side_box.setObjectName("importSide")
        for side, name in sides:
            self.side_box.addItem(name, side)
        self.side_box.setEnabled(not update)
        form.addRow("Keeps the side" if update else "Joins the side", self.side_box)
        layout.addLayout(form)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Update the Fighter" if update else "Add to the Battle")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def side(self) -> Side:
        side = self.side_box.currentData()
        assert isinstance(side, Side)
        return side


# --- the default dialogs (tests replace them) ---------------------------------------------


def choose_path_with_dialog(parent: QWidget, folder: str, filter_text: str) -> Path | None:
    name, _filter = QFileDialog.getOpenFileName(parent, TITLE, folder, filter_text)
    return Path(name) if name else None


def confirm_with_dialog(parent: QWidget, plan: ImportPlan, update: str) -> Side | None:
    """The report for the GM to accept: the side chosen (an update's own side), or
    None when the GM cancels."""
    sides = (
        plan.sides
        if plan.updates is None
        else [(side, name) for side, name in plan.sides if side is plan.updates.side]
    )
    dialog = ImportReportDialog(plan.result, sides, parent, update)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    side = dialog.side() if accepted else None
    dialog.deleteLater()
    return side


class CharacterImport(QObject):
    """The Import Character action, the map's file drops, and what they do."""

    def __init__(self, controller: BattleController, parent: QWidget) -> None:
        super().__init__(parent)
        self._controller = controller
        self._parent = parent
        self._map_view: MapView | None = None
        self.folder = ""  # where the last file came from
        self.action = QAction("&Import Character…", parent)
        self.action.setObjectName("importCharacterAction")
        self.action.setStatusTip("Add a fighter from a character file (GURPS Character Sheet)")
        self.action.triggered.connect(self._on_action_triggered)
        self.choose_path: Callable[[QWidget, str, str], Path | None] = choose_path_with_dialog
        self.confirm: Callable[[QWidget, ImportPlan, str], Side | None] = confirm_with_dialog
        self.show_problem: Callable[[str, str], None] = self._show_problem_with_dialog

    def _on_action_triggered(self) -> None:
        self.run()

    def run(self) -> str | None:
        """Ask for a file, read it, show the report, add the fighter: the new
        combatant's id, or None if nothing was added."""
        kinds = self._controller.ruleset.sheets.character_file_kinds()
        if not kinds:
            self.show_problem(TITLE, NO_KINDS)
            return None
        path = self.choose_path(self._parent, self.folder, file_filter(kinds))
        if path is None:
            return None
        self.folder = str(path.parent)
        return self.import_file(path)

    def import_file(self, path: Path, near: Hex | None = None) -> str | None:
        """Read ``path``, show the report and add the fighter in the free hex
        nearest ``near`` (the map's middle without), or update the one on the map:
        the combatant's id, or None if nothing changed."""
        kinds = self._controller.ruleset.sheets.character_file_kinds()
        if not kinds:
            self.show_problem(TITLE, NO_KINDS)
            return None
        try:
            kind = kind_for(path, kinds)
            result = kind.read(read_character_file(path, kind))
        except OSError as exc:
            self.show_problem(TITLE, f"{path.name} cannot be opened: {exc.strerror or exc}")
            return None
        except RulesError as exc:  # DataError: the reader names the part of the file
            self.show_problem(TITLE, f"{path.name} cannot be imported: {exc}")
            return None
        return self.add(result, near)

    def add(self, result: ImportedCharacter, near: Hex | None = None) -> str | None:
        """Show the report; on acceptance add the fighter for the chosen side
        near ``near``, or update the fighter already imported from the character.
        A sheet this battle refuses (a reach its map cannot show) is named at once,
        before the report: ``AddCombatant`` and ``EditFighter`` would refuse it."""
        state = self._controller.state
        problems = fighter_problems(result.fighter, state.grid)
        if problems:
            name = result.fighter.name
            self.show_problem(TITLE, f"{name} cannot join this battle: {problems[0].message}")
            return None
        plan = plan_for(state, result)
        side = self.confirm(self._parent, plan, update_text(state, plan))
        if side is None:
            return None
        state = self._controller.state
        who = same_character(state, result.fighter)
        if who is not None:
            update = update_of(state, who, result)
            changed = bool(sheet_changes(who.fighter, update.fighter))
            if changed and self._controller.execute(update) is None:
                return None
            self._controller.select(who.id)
            return who.id
        where = free_hex_near_middle(state) if near is None else nearest_free_hex(state, near)
        if where is None:
            self.show_problem(TITLE, "Every hex of the map is taken.")
            return None
        combatant = imported_combatant(state, result, side, where)
        if self._controller.execute(AddCombatant(combatant)) is None:
            return None
        self._controller.select(combatant.id)
        return combatant.id

    # --- files dropped on the map ---------------------------------------------------------
    def watch_map(self, view: MapView) -> None:
        """A character file dropped on the map is imported into the hex it fell on."""
        self._map_view = view
        view.setAcceptDrops(True)
        view.installEventFilter(self)

    def dropped_files(self, event: QDropEvent | QDragEnterEvent | QDragMoveEvent) -> list[Path]:
        """The local files of a drag that the battle's ruleset imports."""
        kinds = self._controller.ruleset.sheets.character_file_kinds()
        mime = event.mimeData()
        if not kinds or not mime.hasUrls():
            return []
        paths = [Path(url.toLocalFile()) for url in mime.urls() if url.isLocalFile()]
        return [p for p in paths if imports_file(p, kinds)]

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        view = self._map_view
        if watched is not view or view is None:
            return False
        if isinstance(event, (QDragEnterEvent, QDragMoveEvent)):
            if self.dropped_files(event):
                event.acceptProposedAction()
                return True
            return False
        if isinstance(event, QDropEvent):
            paths = self.dropped_files(event)
            if not paths:
                return False
            event.acceptProposedAction()
            near = view.hex_at(event.position())
            # After the drop returns: the report is modal, and the program the
            # file came from waits for the drop to end.
            QTimer.singleShot(0, self, lambda: self._import_dropped(paths, near))
            return True
        return False

    def _import_dropped(self, paths: Sequence[Path], near: Hex | None) -> None:
        for path in paths:
            self.folder = str(path.parent)
            self.import_file(path, near)

    def _show_problem_with_dialog(self, title: str, text: str) -> None:
        QMessageBox.warning(self._parent, title, text)


# --- batches: python main.py --import-gcs FILE --to-template NAME -------------------------


def ruleset_for_file(path: Path) -> tuple[str, CharacterFileKind]:
    """The first ruleset (by key) that imports files of ``path``'s suffix, and its
    kind; ``DataError`` when none does."""
    for key in ruleset_keys():
        kinds = get_ruleset(key).sheets.character_file_kinds()
        if imports_file(path, kinds):
            return key, kind_for(path, kinds)
    raise DataError(f"no ruleset of Hexfray imports {path.suffix or 'suffix-less'} files")


def import_to_template(
    path: Path, name: str, user_folder: Path | None = None
) -> tuple[Template, ImportedCharacter]:
    """Read the character file ``path`` and save its fighter as the GM's template
    ``name`` (in ``user_folder``, by default the user data folder); the fighter
    keeps the character's name. ``OSError`` when the file cannot be read,
    ``DataError`` when it cannot be imported."""
    ruleset_key, kind = ruleset_for_file(path)
    result = kind.read(read_character_file(path, kind))
    template = save_custom_template(
        result.fighter, name, ruleset_key, user_folder, keep_fighter_name=True
    )
    return template, result


def batch_summary(source: Path, template: Template, result: ImportedCharacter) -> str:
    """The one line the batch import prints: what was written, what was left out."""
    fighter = template.fighter.name
    placing = "" if fighter == template.name else f" (its fighter: {fighter!r})"
    written = f"wrote template {template.name!r}{placing} to {template.path} from {source.name}"
    if not result.skipped:
        return written + "; nothing was left out"
    return written + f"; left out {len(result.skipped)}: " + "; ".join(result.skipped)
