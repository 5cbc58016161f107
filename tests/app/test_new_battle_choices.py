"""The New Battle dialog keeps what the GM typed and starts the turn order: a new
battle rolls initiative at once unless the GM chose free play; options that exclude
each other (seed 000's hit location systems, declared by the ruleset) are one
choice; a problem with the options shows inside the dialog, in the GM's words, and
closes nothing; and the dialog opens with the settings of the last battle made."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

import app.new_battle
from app.main_window import MainWindow
from app.new_battle import (
    LAST_SETUP_KEY,
    NewBattleDialog,
    NewBattleSetup,
    read_last_setup,
    write_last_setup,
)
from rules.battle.model import Side
from rules.battle.sides import SideSetup
from rules.battle.turns import StartTurns
from rules.core.dice import DiceRequest
from rules.core.errors import RulesError
from rules.sets.protocol import Ruleset
from rules.sets.registry import get_ruleset
from rules.sets.seed000.tables import LOCATIONS_001, LOCATIONS_2D6, LOCATIONS_FUDGE
from tests.app.own_home import use_own_home


@pytest.fixture
def window(main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    use_own_home(tmp_path, monkeypatch)
    return main_window


def through_the_dialog(window: MainWindow, fill: Callable[[NewBattleDialog], None]) -> None:
    """File ▸ New Battle with the real dialog: ``fill`` types in it, then Create. A
    dialog that does not close on Create is cancelled and fails the test (it would
    otherwise wait for a GM)."""
    problems: list[Exception] = []

    def fill_and_create() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QDialog)
        try:
            assert isinstance(dialog, NewBattleDialog)
            fill(dialog)
            dialog.buttons.accepted.emit()
            assert not dialog.isVisible(), "Create did not make the battle"
        except Exception as problem:  # reported after the dialog is gone
            problems.append(problem)
            dialog.reject()

    QTimer.singleShot(0, fill_and_create)
    window.file_actions.new_action.trigger()
    if problems:
        raise problems[0]


def choose_ruleset(dialog: NewBattleDialog, key: str) -> None:
    dialog.ruleset_box.setCurrentIndex(dialog.ruleset_box.findData(key))


# --- the turn order ---------------------------------------------------------------------


def test_a_new_battle_starts_with_its_turn_order_rolled(window: MainWindow) -> None:
    through_the_dialog(window, lambda dialog: choose_ruleset(dialog, "004"))
    battle = window.controller.battle
    assert battle.state.turns_running and battle.state.active_id is not None
    assert isinstance(battle.commands[-1], StartTurns)
    assert len(battle.state.initiative) == len(battle.state.combatants) == 4
    assert not window.isWindowModified()  # the order is part of the new battle
    assert "the turn order is rolled" in window.statusBar().currentMessage()


def test_free_play_stays_a_choice(window: MainWindow) -> None:
    def free_play(dialog: NewBattleDialog) -> None:
        assert dialog.initiative_check.isChecked()  # on by default
        dialog.initiative_check.setChecked(False)

    through_the_dialog(window, free_play)
    state = window.controller.state
    assert state.combatants and not state.turns_running
    assert not any(isinstance(c, StartTurns) for c in window.controller.battle.commands)


def test_an_empty_map_has_nobody_to_roll_initiative_for(qtbot: QtBot) -> None:
    dialog = NewBattleDialog(seed=1)
    qtbot.addWidget(dialog)
    dialog.fighters_box.setValue(0)
    assert not dialog.initiative_check.isEnabled()
    assert "Nobody to roll initiative for" in dialog.initiative_check.toolTip()
    assert not dialog.setup().roll_initiative
    dialog.fighters_box.setValue(1)
    assert dialog.initiative_check.isEnabled() and dialog.setup().roll_initiative


def test_with_physical_dice_the_new_battle_s_initiative_is_asked_of_the_table(
    window: MainWindow,
) -> None:
    asked: list[DiceRequest] = []

    def table(_context: str, request: DiceRequest) -> Sequence[int]:
        asked.append(request)
        return [request.low + len(asked) % request.high] * request.count

    window.controller.set_dice_entry(table)
    through_the_dialog(window, lambda dialog: choose_ruleset(dialog, "004"))
    state = window.controller.state
    names = {c.name for c in state.combatants}
    assert state.turns_running and asked
    assert all(r.what.endswith("'s initiative") and r.what[: -len("'s initiative")] in names
               for r in asked if "tie" not in r.what)  # fmt: skip
    assert window.controller.battle.entered_log[-1]


# --- options that exclude each other --------------------------------------------------


def test_seed_000_s_hit_location_systems_are_one_choice(qtbot: QtBot) -> None:
    dialog = NewBattleDialog(seed=1)
    qtbot.addWidget(dialog)
    choose_ruleset(dialog, "000")
    assert dialog.option_checks == {}  # no box to tick two of them
    box = dialog.option_choice_boxes["Hit locations"]
    assert [box.itemData(i) for i in range(box.count())] == [
        "",
        LOCATIONS_001,
        LOCATIONS_FUDGE,
        LOCATIONS_2D6,
    ]
    assert box.currentText() == "Seed 000 table" and dialog.setup().ruleset_options == ()
    box.setCurrentIndex(box.findData(LOCATIONS_FUDGE))
    assert dialog.setup().ruleset_options == (LOCATIONS_FUDGE,)
    box.setCurrentIndex(box.findData(LOCATIONS_2D6))
    assert dialog.setup().ruleset_options == (LOCATIONS_2D6,)
    assert not dialog.problem_label.isVisible() and dialog.create_button.isEnabled()


def test_the_ruleset_declares_which_options_exclude_each_other() -> None:
    (choice,) = get_ruleset("000").option_choices
    assert choice.options == (LOCATIONS_001, LOCATIONS_FUDGE, LOCATIONS_2D6)
    for key in ("002", "003", "004"):
        assert get_ruleset(key).option_choices == ()
    with pytest.raises(RulesError) as refusal:
        get_ruleset("000", (LOCATIONS_001, LOCATIONS_FUDGE))
    assert str(refusal.value).startswith("Seed 001 locations and Seed 003 FUDGE parts each ")
    assert "locations-" not in str(refusal.value)


# --- a problem shows in the dialog ---------------------------------------------------------


def refusing_d20_locations(
    key: str = "000", options: Iterable[str] = ()
) -> Ruleset:
    """The registry, but refusing seed 002's option as rules might refuse a pair."""
    chosen = tuple(options)
    if "locations-d20" in chosen:
        raise RulesError("The d20 locations need a sheet with armour by location")
    return get_ruleset(key, chosen)


def test_a_problem_with_the_options_shows_in_the_dialog_and_keeps_what_was_typed(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app.new_battle, "get_ruleset", refusing_d20_locations)
    dialog = NewBattleDialog(seed=1234)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.columns_box.setValue(33)
    dialog.side_rows[0].name_edit.setText("Knights")
    choose_ruleset(dialog, "002")
    assert not dialog.problem_label.isVisible()
    dialog.option_checks["locations-d20"].setChecked(True)
    assert dialog.problem_label.isVisible() and not dialog.create_button.isEnabled()
    assert dialog.problem_label.text() == (
        "These options cannot go together: the d20 locations need a sheet with armour "
        "by location."
    )
    dialog.buttons.accepted.emit()  # Enter: the dialog stays, nothing is lost
    assert dialog.isVisible() and dialog.result() != NewBattleDialog.DialogCode.Accepted
    assert dialog.columns_box.value() == 33 and dialog.seed_edit.text() == "1234"
    assert dialog.side_rows[0].name_edit.text() == "Knights"
    dialog.option_checks["locations-d20"].setChecked(False)
    assert not dialog.problem_label.isVisible() and dialog.create_button.isEnabled()


# --- the last battle's settings ----------------------------------------------------------


def test_the_dialog_opens_with_the_settings_of_the_last_battle_made(
    window: MainWindow, settings: QSettings
) -> None:
    def fill(dialog: NewBattleDialog) -> None:
        dialog.columns_box.setValue(30)
        dialog.rows_box.setValue(18)
        choose_ruleset(dialog, "000")
        box = dialog.option_choice_boxes["Hit locations"]
        box.setCurrentIndex(box.findData(LOCATIONS_001))
        dialog.fighters_box.setValue(1)
        dialog.initiative_check.setChecked(False)
        dialog.add_side_button.click()
        dialog.side_rows[0].name_edit.setText("Knights")
        dialog.side_rows[2].name_edit.setText("Brigands")
        dialog.side_rows[2].set_colour(dialog.side_rows[0].colour)
        dialog.seed_edit.setText("555")

    through_the_dialog(window, fill)
    made = window.controller.battle
    assert (made.seed, made.state.ruleset_options) == (555, (LOCATIONS_001,))
    seen: list[NewBattleSetup] = []

    def look(dialog: NewBattleDialog) -> None:
        seen.append(dialog.setup())
        dialog.initiative_check.setChecked(True)

    through_the_dialog(window, look)
    (shown,) = seen
    assert (shown.columns, shown.rows, shown.ruleset_key) == (30, 18, "000")
    assert shown.ruleset_options == (LOCATIONS_001,)
    assert shown.starting_fighters == 1 and not shown.roll_initiative
    assert [s.name for s in shown.sides] == ["Knights", "Blue", "Brigands"]
    assert shown.sides == made.state.sides
    assert shown.seed != 555  # new dice, unless the GM types the seed again
    kept = read_last_setup(settings)  # the settings file keeps it for the next start
    assert kept is not None and kept.roll_initiative and kept.sides == made.state.sides


SETUP = NewBattleSetup(
    columns=20,
    rows=12,
    ruleset_key="000",
    ruleset_options=(LOCATIONS_2D6,),
    sides=(SideSetup(Side.RED, "Knights", "#aa2211"), SideSetup(Side.BLUE, "Raiders", "#2244aa")),
    seed=77,
    starting_fighters=3,
    roll_initiative=True,
)
# What write_last_setup keeps of SETUP.
SETTINGS_TEXT = (
    '{"columns": 20, "rows": 12, "ruleset": "000", "options": ["locations-2d6"], '
    '"sides": [{"side": "red", "name": "Knights", "colour": "#aa2211"}, '
    '{"side": "blue", "name": "Raiders", "colour": "#2244aa"}], "seed": 77, '
    '"starting_fighters": 3, "roll_initiative": true}'
)


def test_the_last_set_up_is_read_back_and_a_broken_one_is_not_offered(
    settings: QSettings,
) -> None:
    assert read_last_setup(settings) is None
    write_last_setup(settings, SETUP)
    assert settings.value(LAST_SETUP_KEY) == SETTINGS_TEXT
    assert read_last_setup(settings) == SETUP
    for broken in (
        "not json",
        '{"columns": 1' + "0" * 5000 + "}",
        SETTINGS_TEXT.replace('"columns": 20', '"columns": 100000000000000000000'),
        SETTINGS_TEXT.replace('"000"', '"999"'),
        SETTINGS_TEXT.replace('"locations-2d6"', '"locations-001", "locations-2d6"'),
        SETTINGS_TEXT.replace('"blue"', '"red"'),
        SETTINGS_TEXT.replace("true", "1"),
    ):
        settings.setValue(LAST_SETUP_KEY, broken)
        assert read_last_setup(settings) is None, broken
