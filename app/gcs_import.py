"""File ▸ Import Character…: a fighter from another program's character file
(GURPS Character Sheet's ``.gcs`` for seed 000, docs/gcs-import.md).

The window does not know which ruleset reads which file: it asks the battle's
ruleset for the kinds of character file it imports (``Ruleset.character_file_kinds``)
and lets the kind that matches the file's suffix read it. The GM then sees what
was imported and what was left out, picks the side, and the fighter joins the
battle through ``AddCombatant`` (undone, saved and replayed like any command) in
the free hex nearest the middle of the map, with the file's current hit points.

The file dialog, the report and the problem message are attributes the tests
replace (``choose_path``, ``confirm``, ``show_problem``), so nothing blocks offscreen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtGui import QAction
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
from app.new_battle import battle_sides
from hexmap import Facing, Hex
from rules.battle.model import Combatant, Side
from rules.battle.roster import AddCombatant, next_combatant_id
from rules.battle.sides import side_name
from rules.battle.state import BattleState
from rules.core.errors import RulesError
from rules.sets.protocol import CharacterFileKind, ImportedCharacter

REPORT_SIZE = (560, 420)
NO_KINDS = "The rules of this battle import no character files."


def file_filter(kinds: Sequence[CharacterFileKind]) -> str:
    """The file dialog's filter: each kind by its suffixes, then every file."""
    parts = [f"{k.label} ({' '.join(f'*{s}' for s in k.suffixes)})" for k in kinds]
    return ";;".join([*parts, "All files (*)"])


def kind_for(path: Path, kinds: Sequence[CharacterFileKind]) -> CharacterFileKind:
    """The kind whose suffix the file has; the first kind for any other name."""
    suffix = path.suffix.lower()
    return next((k for k in kinds if suffix in k.suffixes), kinds[0])


def map_middle(state: BattleState) -> Hex:
    return Hex.from_offset(state.grid.width // 2, state.grid.height // 2)


def free_hex_near_middle(state: BattleState) -> Hex | None:
    """The free hex nearest the middle of the map (the first of equals in the
    grid's order); None when every hex is taken."""
    centre = map_middle(state)
    taken = {c.hex for c in state.combatants}
    free = [h for h in state.grid.hexes() if h not in taken]
    return min(free, key=lambda h: h.distance(centre)) if free else None


def imported_combatant(
    state: BattleState, result: ImportedCharacter, side: Side, at: Hex
) -> Combatant:
    """The imported fighter at ``at`` for ``side``, facing the middle of the map,
    with the file's current hit points; named "Ser Aldo 2" if a Ser Aldo is on the
    map already."""
    fighter = result.fighter
    taken = {c.name for c in state.combatants}
    name, number = fighter.name, 1
    while name in taken:
        number += 1
        name = f"{fighter.name} {number}"
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


def report_text(result: ImportedCharacter) -> str:
    """What the GM reads before accepting: what came over, then what was left out."""
    lines = ["Imported:", *(f"  • {line}" for line in result.imported)]
    if result.skipped:
        lines += ["", "Left out (Hexfray cannot represent these):"]
        lines += [f"  • {line}" for line in result.skipped]
    else:
        lines += ["", "Nothing was left out."]
    return "\n".join(lines)


class ImportReportDialog(QDialog):
    """The import report and the side the fighter joins."""

    def __init__(
        self, result: ImportedCharacter, sides: Sequence[tuple[Side, str]], parent: QWidget | None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("importReport")
        self.setWindowTitle(f"Import {result.fighter.name}")
        self.resize(*REPORT_SIZE)
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                f"<b>{result.fighter.name}</b>: HP {result.hit_points_now} of "
                f"{result.fighter.hit_points}, Move {result.fighter.move}",
                self,
            )
        )
        self.report = QPlainTextEdit(report_text(result), self)
        self.report.setObjectName("importReportText")
        self.report.setReadOnly(True)
        layout.addWidget(self.report)
        form = QFormLayout()
        self.side_box = QComboBox(self)
        self.side_box.setObjectName("importSide")
        for side, name in sides:
            self.side_box.addItem(name, side)
        form.addRow("Joins the side", self.side_box)
        layout.addLayout(form)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText("Add to the Battle")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def side(self) -> Side:
        side = self.side_box.currentData()
        assert isinstance(side, Side)
        return side


# --- the default dialogs (tests replace them) ---------------------------------------------


def choose_path_with_dialog(parent: QWidget, folder: str, filter_text: str) -> Path | None:
    name, _filter = QFileDialog.getOpenFileName(parent, "Import Character", folder, filter_text)
    return Path(name) if name else None


def confirm_with_dialog(
    parent: QWidget, result: ImportedCharacter, sides: Sequence[tuple[Side, str]]
) -> Side | None:
    dialog = ImportReportDialog(result, sides, parent)
    accepted = dialog.exec() == QDialog.DialogCode.Accepted
    side = dialog.side() if accepted else None
    dialog.deleteLater()
    return side


class CharacterImport:
    """The Import Character action and what it does."""

    def __init__(self, controller: BattleController, parent: QWidget) -> None:
        self._controller = controller
        self._parent = parent
        self.folder = ""  # where the last file came from
        self.action = QAction("&Import Character…", parent)
        self.action.setObjectName("importCharacterAction")
        self.action.setStatusTip("Add a fighter from a character file (GURPS Character Sheet)")
        self.action.triggered.connect(self._on_action_triggered)
        self.choose_path: Callable[[QWidget, str, str], Path | None] = choose_path_with_dialog
        self.confirm: Callable[
            [QWidget, ImportedCharacter, Sequence[tuple[Side, str]]], Side | None
        ] = confirm_with_dialog
        self.show_problem: Callable[[str, str], None] = self._show_problem_with_dialog

    def _on_action_triggered(self) -> None:
        self.run()

    def run(self) -> str | None:
        """Ask for a file, read it, show the report, add the fighter: the new
        combatant's id, or None if nothing was added."""
        kinds = self._controller.ruleset.character_file_kinds()
        if not kinds:
            self.show_problem("Import Character", NO_KINDS)
            return None
        path = self.choose_path(self._parent, self.folder, file_filter(kinds))
        if path is None:
            return None
        self.folder = str(path.parent)
        try:
            result = kind_for(path, kinds).read(path.read_bytes())
        except OSError as exc:
            self.show_problem("Import Character", f"{path.name} cannot be opened: {exc.strerror}")
            return None
        except RulesError as exc:  # DataError: the reader names the part of the file
            self.show_problem("Import Character", f"{path.name} cannot be imported: {exc}")
            return None
        return self.add(result)

    def add(self, result: ImportedCharacter) -> str | None:
        """Show the report; on acceptance add the fighter for the chosen side."""
        state = self._controller.state
        sides = [(side, side_name(state.sides, side)) for side in battle_sides(state)]
        side = self.confirm(self._parent, result, sides)
        if side is None:
            return None
        state = self._controller.state
        where = free_hex_near_middle(state)
        if where is None:
            self.show_problem("Import Character", "Every hex of the map is taken.")
            return None
        combatant = imported_combatant(state, result, side, where)
        if self._controller.execute(AddCombatant(combatant)) is None:
            return None
        self._controller.select(combatant.id)
        return combatant.id

    def _show_problem_with_dialog(self, title: str, text: str) -> None:
        QMessageBox.warning(self._parent, title, text)
