"""File ▸ Import Character… (app.gcs_import) end to end: the file dialog and the
report are answered by the test, the fighter joins the demo battle through
AddCombatant in the free hex nearest the middle, with the file's current HP, and
Undo takes it away; a refused file is named to the GM and changes nothing; the
report dialog lists what was left out and offers the battle's sides."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtWidgets import QMenu

from app.gcs_import import (
    CharacterImport,
    ImportPlan,
    ImportReportDialog,
    file_filter,
    free_hex_near_middle,
    report_text,
)
from app.main_window import MainWindow
from hexmap import HexGrid
from rules.battle.battle import Battle
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.battle.state import BattleState
from rules.sets.protocol import ImportedCharacter
from rules.sets.registry import get_ruleset
from rules.sets.seed000.gcs_import import read_gcs
from tests.app.own_home import main_window_in_own_home

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "gcs"


class Answers:
    """The GM's answers: the file picked, the side chosen; what they were shown."""

    def __init__(self, importer: CharacterImport, path: Path, side: Side | None) -> None:
        self.filters: list[str] = []
        self.reports: list[ImportedCharacter] = []
        self.offered: list[list[Side]] = []
        self.problems: list[str] = []
        self.updates: list[str] = []  # the report's update line ("" for a new fighter)
        self._path, self._side = path, side
        importer.choose_path = self._choose
        importer.confirm = self._confirm
        importer.show_problem = lambda title, text: self.problems.append(text)

    def _choose(self, _parent: object, _folder: str, filter_text: str) -> Path:
        self.filters.append(filter_text)
        return self._path

    def _confirm(self, _parent: object, plan: ImportPlan, update: str) -> Side | None:
        self.reports.append(plan.result)
        self.offered.append([side for side, _name in plan.sides])
        self.updates.append(update)
        return self._side


# The tests' main window, in this test's own user folders.
window = main_window_in_own_home


def file_menu(window: MainWindow) -> QMenu:
    menu = window.menuBar().actions()[0].menu()
    assert isinstance(menu, QMenu)
    return menu


def test_the_file_menu_imports_a_gcs_character_into_the_battle(window: MainWindow) -> None:
    importer = window.character_import
    assert importer.action in file_menu(window).actions()
    answers = Answers(importer, FIXTURES / "sword_and_shield_v5.gcs", Side.BLUE)
    before = window.controller.state
    expected_hex = free_hex_near_middle(before)
    importer.action.trigger()
    assert answers.filters == ["GURPS Character Sheet (*.gcs);;All files (*)"]
    (report,) = answers.reports
    assert report.fighter.name == "Ser Aldo"
    assert answers.offered == [[Side.RED, Side.BLUE]]
    battle = window.controller.battle
    assert isinstance(battle.commands[-1], AddCombatant)
    joined = battle.state.combatants[-1]
    assert (joined.id, joined.name, joined.side, joined.hex, joined.hp) == (
        "c5",
        "Ser Aldo",
        Side.BLUE,
        expected_hex,
        10,
    )
    assert [w.key for w in joined.fighter.weapons] == ["gcs-broadsword", "gcs-natural-attacks"]
    assert window.controller.selected_id == "c5"
    assert answers.problems == []
    window.controller.undo()
    assert window.controller.state == before


def test_another_character_of_the_same_name_gets_a_numbered_name(window: MainWindow) -> None:
    importer = window.character_import
    Answers(importer, FIXTURES / "no_weapons_v3.gcs", Side.RED)
    assert importer.run() == "c5"
    twin = read_gcs((FIXTURES / "no_weapons_v3.gcs").read_bytes())
    other = replace(twin, fighter=replace(twin.fighter, origin="gcs:another-character"))
    assert importer.add(other) == "c6"
    names = [c.name for c in window.controller.state.combatants[-2:]]
    assert names == ["Quill the Scribe", "Quill the Scribe 2"]


def test_a_refused_file_is_named_and_nothing_changes(window: MainWindow) -> None:
    importer = window.character_import
    before = window.controller.state
    answers = Answers(importer, FIXTURES / "version1.gcs", Side.RED)
    assert importer.run() is None
    assert answers.reports == []
    (problem,) = answers.problems
    assert problem.startswith("version1.gcs cannot be imported: this is a version 1 GCS file")
    assert "save it once" in problem
    missing = Answers(importer, FIXTURES / "no_such_file.gcs", Side.RED)
    assert importer.run() is None
    assert missing.problems[0].startswith("no_such_file.gcs cannot be opened")
    assert window.controller.state == before


def test_cancelling_the_report_adds_nobody(window: MainWindow) -> None:
    importer = window.character_import
    before = window.controller.state
    answers = Answers(importer, FIXTURES / "two_handed_v4.gcs", None)
    assert importer.run() is None
    assert len(answers.reports) == 1
    assert window.controller.state == before


def test_the_report_dialog_lists_what_was_left_out_and_the_sides(qtbot: object) -> None:
    result = read_gcs((FIXTURES / "sword_and_shield_v5.gcs").read_bytes())
    dialog = ImportReportDialog(result, [(Side.RED, "Red"), (Side.BLUE, "Raiders")], None)
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    text = dialog.report.toPlainText()
    assert text == report_text(result)
    assert "  • spells (seed 000 has no magic): Light" in text
    assert text.index("Imported:") < text.index("Left out") < text.index("Fearlessness")
    assert [dialog.side_box.itemText(i) for i in range(dialog.side_box.count())] == [
        "Red",
        "Raiders",
    ]
    dialog.side_box.setCurrentIndex(1)
    assert dialog.side() is Side.BLUE


def test_the_filter_comes_from_the_rulesets_file_kinds() -> None:
    kinds = get_ruleset("000").sheets.character_file_kinds()
    assert file_filter(kinds) == "GURPS Character Sheet (*.gcs);;All files (*)"


def test_a_character_the_battles_map_cannot_hold_is_named_before_the_report(
    window: MainWindow,
) -> None:
    # Two hexes: a reach of 1 at most; Brunhild's great axe reaches 1-2 hexes.
    window.controller.replace_battle(Battle(BattleState(HexGrid(2, 1), ()), 1, get_ruleset))
    answers = Answers(window.character_import, FIXTURES / "two_handed_v4.gcs", Side.RED)
    window.character_import.action.trigger()
    assert answers.reports == []
    assert answers.problems == [
        "Brunhild cannot join this battle: Reach 1-2 is longer than this map can show "
        "(at most 1 hexes from one edge to the other)."
    ]
    assert window.controller.state.combatants == () and window.controller.battle.commands == ()
