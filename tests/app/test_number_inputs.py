"""Numbers and digit text from the app's readers and boxes (issue 23, "Inputs that
hang or crash", 1, 2 and the byte-order mark and hit points of 5): a template or
an autosave holding "1e999999999" is refused at once naming the field; a battle
file with it, a reach of 5,000 digits or dice written "²d" ends
``main.py FILE --screenshot`` with status 2 and one line, as the docs promise; a
face "²" typed into the dice entry is no face; a template after a byte-order
mark loads, and one beyond its ruleset's sheet is refused naming the field; the
inspector's number box holds any fighter's hit points."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.character_editor import dice_of
from app.controller import BattleController
from app.dice_entry import DiceEntryDialog
from app.files import JOURNAL_FORMAT, JOURNAL_SUFFIX, JOURNAL_VERSION, PartlyRecovered, recover
from app.panes.inspector import QT_INT_MAX, InspectorPane
from app.templates import TemplateFileError, base_name, parse_template
from hexmap import Facing
from rules.battle.battle import Battle
from rules.battle.catalog import load_fighters
from rules.battle.commands import TurnCombatant
from rules.battle.edits import EditFighter
from rules.battle.savefile import write_battle
from rules.core.dice import Dice, DiceRequest
from rules.sets.registry import get_ruleset
from tests.app.test_files_command_line import run_main
from tests.rules.test_history import demo_battle

HUGE = "1e999999999"  # Fraction() of it ran for more than an hour
THOUSANDS = "1" * 5000


def battle_document(battle: Battle) -> dict[str, Any]:
    data = json.loads(write_battle(battle, get_ruleset("000").sheets.saved_types))
    assert isinstance(data, dict)
    return data


def first_mode(data: dict[str, Any]) -> dict[str, Any]:
    mode = data["initial_state"]["combatants"][0]["fighter"]["weapons"][0]["modes"][0]
    assert isinstance(mode, dict)
    return mode


# --- from the command line -----------------------------------------------------------------


def with_factor(data: dict[str, Any]) -> None:
    first_mode(data)["damage"]["factor"] = HUGE


def with_reach(data: dict[str, Any]) -> None:
    first_mode(data)["reach"] = THOUSANDS


def with_dice(data: dict[str, Any]) -> None:
    first_mode(data)["damage"] = {"base": "FIXED", "adds": 0, "type": "CUTTING", "fixed": "²d"}


def with_dice_count(data: dict[str, Any]) -> None:
    first_mode(data)["damage"] = {
        "base": "FIXED",
        "adds": 0,
        "type": "CUTTING",
        "fixed": f"{THOUSANDS}d",
    }


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (with_factor, f"the number {HUGE} is too large to read"),
        (with_reach, "a distance of 5,000 digits is beyond 99"),
        (with_dice, 'expected dice like "2d+1"'),
        (with_dice_count, 'expected dice like "2d+1"'),
    ],
    ids=["huge-factor", "reach-of-5000-digits", "superscript-dice", "dice-of-5000-digits"],
)
def test_a_screenshot_of_a_file_with_a_hostile_number_exits_2_with_one_line(
    tmp_path: Path, damage: Any, reason: str
) -> None:
    data = battle_document(demo_battle(1))
    damage(data)
    path = tmp_path / "battle.hexfray"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = run_main("--screenshot", str(tmp_path / "out.png"), str(path), home=tmp_path / "h")
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"hexfray: cannot open {path}: ")
    assert "initial_state.combatants[0].fighter.weapons[0].modes[0]" in lines[0]
    assert reason in lines[0]
    assert not (tmp_path / "out.png").exists()


def test_a_screenshot_of_a_file_after_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "battle.hexfray"
    path.write_bytes(b"\xef\xbb\xbf" + write_battle(demo_battle(1), ()).encode("utf-8"))
    picture = tmp_path / "out.png"
    result = run_main("--screenshot", str(picture), str(path), home=tmp_path / "h")
    assert result.returncode == 0, result.stderr
    assert picture.read_bytes().startswith(b"\x89PNG")


# --- the autosave journal --------------------------------------------------------------------


def test_an_autosave_change_with_a_huge_number_is_refused_at_once_naming_the_field(
    tmp_path: Path,
) -> None:
    battle = demo_battle(1)
    start = battle_document(battle)
    first = battle.state.combatants[0]
    battle.execute(TurnCombatant(first.id, Facing.N if first.facing is not Facing.N else Facing.S))
    battle.execute(EditFighter(first.id, first.fighter))
    entries = battle_document(battle)["log"]
    entries[1]["command"]["fighter"]["weapons"][0]["modes"][0]["damage"]["factor"] = HUGE
    header = {"journal": JOURNAL_FORMAT, "version": JOURNAL_VERSION, "battle": start}
    lines = [header, *({"executed": entry} for entry in entries)]
    journal = tmp_path / f"battle{JOURNAL_SUFFIX}"
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="ascii")
    with pytest.raises(PartlyRecovered) as caught:
        recover(journal)
    message = str(caught.value)
    assert message.startswith("autosave change 2")
    assert "fighter.weapons[0].modes[0].damage.factor" in message
    assert f"the number {HUGE} is too large to read" in message
    assert caught.value.recovered == 1


# --- templates ------------------------------------------------------------------------------


def sheet_template(**sheet_changes: Any) -> dict[str, Any]:
    sheet = get_ruleset("000").sheets.encode(load_fighters()["fencer"])
    sheet.update(sheet_changes)
    return {
        "format": "hexfray-template",
        "version": 1,
        "ruleset": "000",
        "key": "pikeman",
        "description": "A pikeman.",
        "sheet": sheet,
    }


def test_a_template_with_a_huge_fraction_is_refused_at_once_naming_the_field() -> None:
    document = sheet_template()
    document["sheet"]["weapons"][0]["modes"][0]["damage"]["factor"] = HUGE
    with pytest.raises(TemplateFileError) as caught:
        parse_template(json.dumps(document), "pikeman")
    message = str(caught.value)
    assert "weapons[0].modes[0].damage.factor: the number 1e999999999 is too large" in message
    assert "\n" not in message


def test_a_template_with_a_number_of_thousands_of_digits_is_refused_naming_the_field() -> None:
    text = json.dumps(sheet_template(hit_points="@")).replace('"@"', "9" * 5000)
    with pytest.raises(TemplateFileError, match=r"^sheet\.hit_points: the number 9999"):
        parse_template(text, "pikeman")


def test_a_template_after_a_byte_order_mark_loads() -> None:
    text = json.dumps(sheet_template())
    for marked in ("\ufeff" + text, b"\xef\xbb\xbf" + text.encode("utf-8")):
        template = parse_template(marked, "pikeman")
        assert template.fighter.name == "Fencer"


def test_a_template_beyond_its_rulesets_sheet_is_refused_naming_the_field() -> None:
    with pytest.raises(TemplateFileError, match="Hit points must be 1 to 200, not 500"):
        parse_template(json.dumps(sheet_template(hit_points=500)), "pikeman")
    skills = {"Fencing": 99, "Main-Gauche": 14}
    with pytest.raises(TemplateFileError, match="Fencing must be 1 to 30, not 99"):
        parse_template(json.dumps(sheet_template(skills=skills)), "pikeman")


# --- digit text in boxes --------------------------------------------------------------------


def test_a_face_in_other_digits_is_no_face(qtbot: Any) -> None:
    dialog = DiceEntryDialog(DiceRequest("Fencer's parry", 2, 6))
    qtbot.addWidget(dialog)
    first, second = dialog.fields
    second.setText("4")
    for text in ("²", "٣", "0" * 5000 + "3"):
        first.setText(text)  # past the validator, as a paste of odd text could be
        assert not dialog.complete
    first.setText("3")
    assert dialog.complete and dialog.faces() == (3, 4)


def test_names_and_dice_typed_in_other_digits_are_not_numbers() -> None:
    assert base_name("Fencer 2") == "Fencer"
    assert base_name("Fencer ²") == "Fencer ²"
    assert dice_of("1d8+1") == Dice(1, 1, 8)
    assert dice_of("3d") == Dice(3, 0, 6) and dice_of("2d6-1") == Dice(2, -1, 6)
    assert dice_of("٣d6") is None and dice_of("1d٨") is None


# --- the inspector ---------------------------------------------------------------------------


def test_the_inspector_holds_hit_points_past_a_qt_int(qtbot: Any) -> None:
    """A battle built in memory is not checked as a file is: the number box still
    shows its fighter, within what a Qt int holds."""
    state = demo_battle(1).state
    first = state.combatants[0]
    giant = replace(first, fighter=replace(first.fighter, hit_points=10**9), hp=10**9)
    battle = Battle(replace(state, combatants=(giant, *state.combatants[1:])), 1, get_ruleset)
    controller = BattleController(battle)
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    controller.select(first.id)
    assert pane.hp_spin.minimum() == -QT_INT_MAX
    assert pane.hp_spin.value() == 10**9
