"""Importing a character again (issue 13): the fighter imported from the same GCS
character (its ``Fighter.origin``, the file's id) is updated through EditFighter
and keeps its place, facing, side and the hit points the battle took; the update
is undone, saved and replayed; the report says it is an update. First at the
battle level (commands executed on a Battle), then from File ▸ Import Character…"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from app.gcs_import import (
    CharacterImport,
    ImportPlan,
    ImportReportDialog,
    imported_combatant,
    plan_for,
    same_character,
    update_of,
    update_text,
)
from app.main_window import MainWindow
from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.commands import MoveCombatant, TurnCombatant
from rules.battle.edits import EditFighter, FighterEdited
from rules.battle.model import Combatant, Side
from rules.battle.roster import AddCombatant
from rules.battle.savefile import read_battle, write_battle
from rules.sets.registry import get_ruleset
from rules.sets.seed000.gcs_import import import_gcs, read_gcs
from rules.sets.seed000.sheet import sheet_of
from tests.rules.test_history import demo_battle

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "gcs"
ALDO = FIXTURES / "sword_and_shield_v5.gcs"


def aldo_document() -> dict[str, object]:
    data = json.loads(ALDO.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def stronger_aldo() -> dict[str, object]:
    """Ser Aldo after an evening of play in GCS: ST 13 and 14 HP (from ST 12, 12 HP)."""
    doc = aldo_document()
    attributes = doc["attributes"]
    assert isinstance(attributes, list)
    for attribute in attributes:
        if attribute["attr_id"] == "st":
            attribute["calc"]["value"] = 13
        if attribute["attr_id"] == "hp":
            attribute["calc"]["value"] = 14
            attribute["calc"].pop("current", None)
            attribute["damage"] = 0
    return doc


def added_aldo(battle: Battle) -> Combatant:
    """Ser Aldo imported for Blue, moved two hexes and turned by the GM."""
    state = battle.state
    first = read_gcs(ALDO.read_bytes())
    at = Hex.from_offset(1, 1)
    battle.execute(AddCombatant(imported_combatant(state, first, Side.BLUE, at)))
    aldo = battle.state.combatants[-1]
    battle.execute(MoveCombatant(aldo.id, Hex.from_offset(2, 2), gm_override=True))
    battle.execute(TurnCombatant(aldo.id, Facing.SE, gm_override=True))
    return battle.state.combatant(aldo.id)


def test_the_same_character_is_recognised_by_its_files_id() -> None:
    battle = demo_battle(4)
    aldo = added_aldo(battle)
    again = import_gcs(stronger_aldo())
    assert same_character(battle.state, again.fighter) == aldo
    renamed = aldo_document()
    renamed["profile"] = {"name": "Ser Aldo the Bold"}
    assert same_character(battle.state, import_gcs(renamed).fighter) == aldo
    other = aldo_document()
    other["id"] = "Aanother0character"
    assert same_character(battle.state, import_gcs(other).fighter) is None


def test_an_update_keeps_place_facing_side_and_wounds_and_is_undone_saved_replayed() -> None:
    battle = demo_battle(4)
    aldo = added_aldo(battle)
    assert (aldo.hp, aldo.fighter.hit_points) == (10, 12)
    again = import_gcs(stronger_aldo())
    plan = plan_for(battle.state, again)
    assert plan.updates == aldo
    assert plan.changes == ("hit points 12 → 14", "statistics and skills")
    update = update_of(battle.state, aldo, again)
    assert isinstance(update, EditFighter)
    events = battle.execute(update)
    assert [type(e) for e in events] == [FighterEdited]
    updated = battle.state.combatant(aldo.id)
    assert len(battle.state.combatants) == 5
    assert (updated.hex, updated.facing, updated.side) == (aldo.hex, aldo.facing, aldo.side)
    assert (updated.hp, updated.fighter.hit_points) == (12, 14)  # the 2 HP lost stay lost
    assert sheet_of(updated).attributes.st == 13
    assert updated.fighter.origin == aldo.fighter.origin
    ruleset = get_ruleset("000")
    loaded = read_battle(write_battle(battle, ruleset.sheets.saved_types), rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert loaded.commands[-1] == update
    battle.undo()
    assert battle.state.combatant(aldo.id) == aldo


def test_the_update_keeps_the_maps_number_when_another_has_the_name() -> None:
    battle = demo_battle(4)
    first = read_gcs(ALDO.read_bytes())
    other = replace(first, fighter=replace(first.fighter, origin="gcs:someone-else"))
    battle.execute(AddCombatant(imported_combatant(battle.state, other, Side.RED, Hex(0, 0))))
    aldo = added_aldo(battle)
    assert aldo.name == "Ser Aldo 2"
    update = update_of(battle.state, aldo, import_gcs(stronger_aldo()))
    assert update.fighter.name == "Ser Aldo 2"


# --- from the File menu ------------------------------------------------------------------


class Answers:
    def __init__(self, importer: CharacterImport, path: Path) -> None:
        self.plans: list[ImportPlan] = []
        self.updates: list[str] = []
        self._path = path
        importer.choose_path = lambda _parent, _folder, _filter: self._path
        importer.confirm = self._confirm
        importer.show_problem = lambda _title, text: pytest.fail(text)

    def _confirm(self, _parent: object, plan: ImportPlan, update: str) -> Side | None:
        self.plans.append(plan)
        self.updates.append(update)
        return Side.BLUE if plan.updates is None else plan.updates.side


@pytest.fixture
def window(main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    monkeypatch.setenv("HEXFRAY_HOME", str(tmp_path / "home"))
    return main_window


def test_importing_the_file_again_updates_the_fighter_on_the_map(
    window: MainWindow, tmp_path: Path
) -> None:
    sheet_file = tmp_path / "aldo.gcs"
    sheet_file.write_bytes(ALDO.read_bytes())
    importer = window.character_import
    answers = Answers(importer, sheet_file)
    controller = window.controller
    assert importer.run() == "c5"
    controller.execute(TurnCombatant("c5", Facing.N, gm_override=True))
    before = controller.state
    placed = before.combatant("c5")
    sheet_file.write_text(json.dumps(stronger_aldo()), encoding="utf-8")
    assert importer.run() == "c5"
    assert answers.updates[0] == ""
    update = answers.updates[1]
    col, row = placed.hex.to_offset()
    assert update == (
        f"Updates Ser Aldo (Blue, column {col}, row {row}), who keeps place, facing, side "
        "and the hit points lost in the battle. Changes: hit points 12 → 14; statistics "
        "and skills."
    )
    assert update_text(before, answers.plans[1]) == update
    assert isinstance(controller.battle.commands[-1], EditFighter)
    after = controller.state.combatant("c5")
    assert len(controller.state.combatants) == len(before.combatants)
    assert (after.hex, after.facing, after.side, after.hp) == (
        placed.hex,
        Facing.N,
        Side.BLUE,
        12,
    )
    assert controller.selected_id == "c5"
    # The same file a third time changes nothing, and says so.
    commands = len(controller.battle.commands)
    assert importer.run() == "c5"
    assert answers.updates[2].endswith("The sheet on the map is already the same: nothing changes.")
    assert len(controller.battle.commands) == commands
    controller.undo()
    assert controller.state == before


def test_the_update_report_says_so_and_keeps_the_side(qtbot: object) -> None:
    result = import_gcs(stronger_aldo())
    line = "Updates Ser Aldo (Blue, column 2, row 2), who keeps place, facing, side ..."
    dialog = ImportReportDialog(result, [(Side.BLUE, "Blue")], None, line)
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    assert dialog.report.toPlainText().startswith(line + "\n\nImported:")
    assert dialog.windowTitle() == "Update Ser Aldo"
    assert not dialog.side_box.isEnabled()
    assert dialog.side() is Side.BLUE
    buttons = dialog.findChild(QDialogButtonBox)
    assert buttons is not None
    ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.text() == "Update the Fighter"
