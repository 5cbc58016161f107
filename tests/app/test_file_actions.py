"""The File menu end to end (app.file_actions, app.new_battle, app.fighter_placement):
New Battle with its seed and sides, a fighter in two clicks, the unsaved-changes
question, Save and Open through the menu, a bad file, Open Recent and the
recovery offer. Every question is answered by the test (the decisions are
attributes), so nothing waits for a click; one test drives the real dialog."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QColor
from PySide6.QtWidgets import QApplication, QMenu, QMessageBox

from app import theme
from app.controller import BattleController
from app.file_actions import FileActions, RecoveryChoice
from app.files import ControllerAutosave, find_recoverable
from app.main_window import MainWindow, load_demo_battle
from app.new_battle import (
    MAX_SIDES,
    NewBattleDialog,
    NewBattleSetup,
    fighter_templates,
)
from hexmap import Facing, Hex
from rules.battle.commands import TurnCombatant
from rules.battle.limits import MAX_MAP_SIDE
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.battle.savefile import PartlyReplayedFile
from rules.battle.sides import SideSetup
from rules.battle.turns import StartTurns
from tests.app.own_home import use_own_home

Button = QMessageBox.StandardButton
SETUP = NewBattleSetup(
    columns=30,
    rows=20,
    ruleset_key="000",
    ruleset_options=(),
    sides=(
        SideSetup(Side.RED, "The Duke's guard", "#aa2211"),
        SideSetup(Side.BLUE, "Raiders", "#2244aa"),
    ),
    seed=424242,
)


def never(what: str) -> Callable[..., object]:
    def refuse(*_args: object) -> object:
        raise AssertionError(f"{what} was not expected here")

    return refuse


class Answers:
    """What the GM answers, and what they were asked."""

    def __init__(self, actions: FileActions) -> None:
        self.asked: list[str] = []
        self.problems: list[str] = []
        self.save_answer = Button.Cancel
        actions.ask_to_save = self._ask
        actions.show_problem = lambda title, text: self.problems.append(text)
        actions.choose_open_path = never("the Open dialog")  # type: ignore[assignment]
        actions.choose_save_path = never("the Save dialog")  # type: ignore[assignment]
        actions.new_battle_setup = never("the New Battle dialog")  # type: ignore[assignment]
        actions.ask_recovery = never("the recovery offer")  # type: ignore[assignment]
        actions.ask_restore_partly = never("the damaged autosave's offer")  # type: ignore[assignment]
        actions.ask_changed_file = never("the changed file's question")  # type: ignore[assignment]

    def _ask(self, name: str) -> QMessageBox.StandardButton:
        self.asked.append(name)
        return self.save_answer


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own user folders (autosaves among them)."""
    return use_own_home(tmp_path, monkeypatch)


@pytest.fixture
def window(main_window: MainWindow, home: Path) -> MainWindow:
    return main_window


@pytest.fixture
def answers(window: MainWindow) -> Answers:
    return Answers(window.file_actions)


def dirty(window: MainWindow) -> None:
    c = window.controller.state.combatants[0]
    window.controller.execute(TurnCombatant(c.id, c.facing.turned(1)))


# --- New Battle ------------------------------------------------------------------------


def test_the_dialog_makes_the_setup_with_the_typed_seed_and_sides(qtbot: object) -> None:
    chosen = QColor("#123456")
    dialog = NewBattleDialog(choose_colour=lambda current, parent: chosen, seed=99)
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    assert dialog.seed_edit.text() == "99"
    dialog.columns_box.setValue(40)
    dialog.rows_box.setValue(MAX_MAP_SIDE + 100)  # past the limit: the box keeps the limit
    dialog.seed_edit.setText("777")
    assert [row.side for row in dialog.side_rows] == [Side.RED, Side.BLUE]
    dialog.side_rows[0].name_edit.setText("The Duke's guard")
    dialog.side_rows[1].colour_button.click()  # the colour dialog answers #123456
    dialog.add_side_button.click()
    assert len(dialog.side_rows) == 3
    dialog.side_rows[2].remove_button.click()
    for _ in range(MAX_SIDES):
        dialog.add_side_button.click()
    assert len(dialog.side_rows) == MAX_SIDES and not dialog.add_side_button.isEnabled()
    setup = dialog.setup()
    assert (setup.columns, setup.rows, setup.seed) == (40, MAX_MAP_SIDE, 777)
    assert setup.ruleset_key == "000"
    assert setup.sides[0] == SideSetup(
        Side.RED, "The Duke's guard", dialog.side_rows[0].colour.name()
    )
    assert setup.sides[1].colour == "#123456"
    assert [s.side for s in setup.sides] == list(Side)
    # two sides at least: the last two cannot be removed
    for row in list(dialog.side_rows)[2:]:
        row.remove_button.click()
    assert all(not row.remove_button.isEnabled() for row in dialog.side_rows)


def test_a_new_dialog_offers_a_random_seed_and_the_ruleset_options(qtbot: object) -> None:
    seeds = set()
    for _ in range(3):
        dialog = NewBattleDialog()
        qtbot.addWidget(dialog)  # type: ignore[attr-defined]
        seeds.add(dialog.seed_edit.text())
        assert dialog.seed_edit.text().isdigit()
    assert len(seeds) > 1  # not the same seed every time
    locations = dialog.option_choice_boxes["Hit locations"]
    locations.setCurrentIndex(locations.findData("locations-001"))
    assert dialog.setup().ruleset_options == ("locations-001",)
    dialog.new_seed_button.click()
    assert dialog.seed_edit.text().isdigit()


def test_new_battle_replaces_the_battle_with_the_setup(
    window: MainWindow, answers: Answers
) -> None:
    window.file_actions.new_battle_setup = lambda: SETUP
    window.file_actions.new_action.trigger()
    battle = window.controller.battle
    state = battle.state
    assert battle.seed == 424242
    assert (state.grid.width, state.grid.height) == (30, 20)
    assert state.combatants == () and state.sides == SETUP.sides
    assert window.windowTitle() == "Hexfray – Untitled battle[*]" and not window.isWindowModified()
    assert answers.asked == []  # the demo had no changes: no question
    # the tokens take the sides' colours; another battle brings the GM's back
    assert theme.SIDE_COLOURS[Side.RED].name() == "#aa2211"
    window.controller.replace_battle(load_demo_battle())
    assert theme.SIDE_COLOURS[Side.RED].name() == theme.DEFAULT_SIDE_COLOURS[Side.RED]


def test_the_real_dialog_is_driven_without_blocking(window: MainWindow, qtbot: object) -> None:
    """The default New Battle dialog: typed in and accepted from the event loop."""

    def fill_and_accept() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, NewBattleDialog)
        dialog.seed_edit.setText("31337")
        dialog.side_rows[1].name_edit.setText("Raiders")
        dialog.buttons.button(dialog.buttons.StandardButton.Ok).click()

    QTimer.singleShot(0, fill_and_accept)
    window.file_actions.new_action.trigger()
    assert window.controller.battle.seed == 31337
    assert [s.name for s in window.controller.state.sides] == ["Red", "Raiders"]


# --- fighters in two clicks -------------------------------------------------------------


def test_a_right_click_on_an_empty_hex_adds_a_fighter_with_one_more_click(
    window: MainWindow, answers: Answers
) -> None:
    window.file_actions.new_battle_setup = lambda: SETUP
    window.file_actions.new_action.trigger()
    at = Hex.from_offset(3, 4)
    menu = window.map_view.context_menu_for(at)  # the right-click
    assert isinstance(menu, QMenu)
    sides = menu.findChild(QMenu, "addFighterMenu")
    assert isinstance(sides, QMenu)
    assert [a.text() for a in sides.actions()] == ["The Duke's guard", "Raiders"]
    fencer = next(t for t in fighter_templates() if t.key == "fencer")
    blue = menu.findChild(QMenu, "addFighter:blue")
    assert isinstance(blue, QMenu)
    [chosen] = [a for a in blue.actions() if a.objectName() == "addFighter:blue:fencer"]
    chosen.trigger()  # the second click
    (added,) = window.controller.state.combatants
    assert (added.hex, added.side, added.name) == (at, Side.BLUE, fencer.fighter.name)
    assert window.isWindowModified()
    # a taken hex offers no new fighter there; its menu offers to remove the fighter
    taken = window.map_view.context_menu_for(at)
    assert taken is not None and taken.findChild(QMenu, "addFighterMenu") is None
    [remove] = [a for a in taken.actions() if a.objectName() == "removeFighter"]
    remove.trigger()
    assert not window.controller.state.combatants
    window.undo_action.trigger()
    assert window.controller.state.combatants == (added,)
    window.undo_action.trigger()  # the addition itself is undone
    assert not window.controller.state.combatants and not window.isWindowModified()


def test_the_battle_menu_arms_a_template_and_a_click_on_the_map_places_it(
    window: MainWindow, qtbot: object
) -> None:
    placement = window.fighter_placement
    placement.fill_menu()
    [action] = [
        a
        for sub in placement.menu.findChildren(QMenu)
        for a in sub.actions()
        if a.objectName() == "placeFighter:red:spearman"
    ]
    action.trigger()  # first click: the template from the list
    assert "Click a free hex for the Spearman" in window.statusBar().currentMessage()
    view = window.map_view
    taken = window.controller.state.combatants[0].hex
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.hex_center(taken).toPoint())  # type: ignore[attr-defined]
    assert len(window.controller.state.combatants) == 4 and placement.armed is not None
    free = Hex.from_offset(2, 2)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.hex_center(free).toPoint())  # type: ignore[attr-defined]
    added = window.controller.state.combatants[-1]
    assert (added.hex, added.side, added.id) == (free, Side.RED, "c5")
    assert added.name == "Spearman 2"  # the demo has a Spearman already
    assert placement.armed is None and window.controller.selected_id == "c5"
    # the click placed it and did nothing else (no move of the selection)
    assert window.controller.battle.commands == (AddCombatant(added),)


def test_a_fighter_added_while_the_turns_run_is_in_the_turn_order(window: MainWindow) -> None:
    controller = window.controller
    controller.execute(StartTurns())
    placement = window.fighter_placement
    fencer = next(t for t in fighter_templates() if t.key == "fencer")
    placement.arm(fencer, Side.GOLD)
    assert placement.place_at(Hex.from_offset(1, 1))
    assert "c5" in controller.state.initiative


# --- the unsaved-changes question -------------------------------------------------------


def test_cancel_keeps_everything_as_it_was(window: MainWindow, answers: Answers) -> None:
    dirty(window)
    battle = window.controller.battle
    actions = window.file_actions
    answers.save_answer = Button.Cancel
    for action in (
        actions.new_action,
        actions.open_action,
        actions.close_action,
        window.new_demo_action,
    ):
        action.trigger()
    assert len(answers.asked) == 4 and answers.asked[0] == "Demo battle"
    assert window.controller.battle is battle and window.isWindowModified()
    close = SpontaneousClose()
    window.closeEvent(close)
    assert not close.isAccepted() and window.isVisible()
    assert len(answers.asked) == 5


def test_discard_goes_on_without_saving(window: MainWindow, answers: Answers) -> None:
    dirty(window)
    answers.save_answer = Button.Discard
    window.file_actions.close_action.trigger()
    state = window.controller.state
    assert state.combatants == () and not window.isWindowModified()
    assert window.windowTitle() == "Hexfray – Untitled battle[*]"
    window.file_actions.new_battle_setup = lambda: SETUP
    window.file_actions.new_action.trigger()  # nothing changed since the close: no question
    assert answers.asked == ["Demo battle"]
    close = SpontaneousClose()
    window.closeEvent(close)
    assert close.isAccepted()


def test_save_saves_first_then_goes_on(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    dirty(window)
    answers.save_answer = Button.Save
    turned = window.controller.state
    window.file_actions.choose_save_path = lambda suggested: tmp_path / "evening"
    window.file_actions.new_battle_setup = lambda: SETUP
    window.file_actions.new_action.trigger()
    saved = tmp_path / "evening.hexfray"
    assert saved.is_file() and window.controller.state.sides == SETUP.sides
    window.file_actions.choose_open_path = lambda: saved
    window.file_actions.open_action.trigger()
    assert window.controller.state == turned
    assert window.windowTitle() == "Hexfray – evening.hexfray[*]"


def test_a_cancelled_save_keeps_the_battle(window: MainWindow, answers: Answers) -> None:
    dirty(window)
    battle = window.controller.battle
    answers.save_answer = Button.Save
    window.file_actions.choose_save_path = lambda suggested: None  # Cancel in the file dialog
    window.file_actions.close_action.trigger()
    assert window.controller.battle is battle


def test_no_question_without_changes_or_after_an_undo_to_the_saved_point(
    window: MainWindow, answers: Answers
) -> None:
    dirty(window)
    assert window.isWindowModified()
    window.undo_action.trigger()
    assert not window.isWindowModified()
    window.file_actions.new_battle_setup = lambda: SETUP
    window.file_actions.new_action.trigger()
    assert answers.asked == []


class SpontaneousClose(QCloseEvent):
    """The window's close button: a close event from the window system."""

    def spontaneous(self) -> bool:
        return True


# --- save, open, bad files, recent --------------------------------------------------------


def test_save_as_and_open_through_the_menu_round_trip(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    actions = window.file_actions
    dirty(window)
    window.controller.undo()
    window.controller.execute(TurnCombatant("c2", Facing.S))  # one applied, one gone
    battle = window.controller.battle
    asked_with: list[str] = []

    def choose_save_path(suggested: str) -> Path:
        asked_with.append(suggested)
        return tmp_path / "a.hexfray"

    actions.choose_save_path = choose_save_path
    actions.save_as_action.trigger()
    assert asked_with[0].endswith(".hexfray")
    assert not window.isWindowModified() and window.windowTitle() == "Hexfray – a.hexfray[*]"
    window.controller.execute(TurnCombatant("c3", Facing.N))
    assert window.isWindowModified()
    actions.save_action.trigger()  # to the same file, no dialog
    assert not window.isWindowModified() and len(asked_with) == 1
    expected = window.controller.battle
    window.controller.replace_battle(load_demo_battle())
    actions.choose_open_path = lambda: tmp_path / "a.hexfray"
    actions.open_action.trigger()
    opened = window.controller.battle
    assert opened is not battle
    assert opened.state == expected.state and opened.commands == expected.commands
    assert opened.undone == expected.undone
    assert actions.path == tmp_path / "a.hexfray" and not window.isWindowModified()


def test_a_bad_file_gets_a_dialog_and_the_battle_stays(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    dirty(window)
    battle, state = window.controller.battle, window.controller.state
    bad = tmp_path / "cut.hexfray"
    bad.write_text('{"format": "hexfray-battle", "schema_version": 2, "seed": 1, "initial_st')
    newer = tmp_path / "newer.hexfray"
    newer.write_text('{"format": "hexfray-battle", "schema_version": 99}')
    answers.save_answer = Button.Discard
    for path in (bad, newer):
        assert not window.file_actions.open_path(path)
    assert window.controller.battle is battle and window.controller.state == state
    assert len(answers.problems) == 2
    assert answers.problems[0].startswith("cut.hexfray cannot be opened: ")
    assert "newer" in answers.problems[1] and "update Hexfray" in answers.problems[1]
    assert window.windowTitle() == "Hexfray – Demo battle[*]" and window.isWindowModified()


def test_a_file_that_replays_in_part_opens_what_replays_as_a_new_battle(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    controller = window.controller
    for facing in (Facing.S, Facing.N, Facing.SE):
        controller.execute(TurnCombatant("c1", facing))
    saved = tmp_path / "older.hexfray"
    window.file_actions.save_to(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["log"][-1]["command"]["combatant_id"] = "nobody"  # refused by these rules
    saved.write_text(json.dumps(data), encoding="utf-8")
    asked: list[tuple[str, int, int]] = []

    def answer(name: str, partly: PartlyReplayedFile) -> bool:
        asked.append((name, partly.replayed, partly.total))
        return len(asked) > 1  # Cancel first, then Open

    window.file_actions.ask_open_partly = answer
    battle = controller.battle
    assert not window.file_actions.open_path(saved)
    assert controller.battle is battle
    assert window.file_actions.open_path(saved)
    total = len(battle.commands)
    assert asked == [("older.hexfray", total - 1, total)] * 2
    assert controller.battle.commands == battle.commands[:-1]
    assert window.file_actions.path is None and window.isWindowModified()
    assert f"(first {total - 1} of {total} commands)" in window.windowTitle()
    assert json.loads(saved.read_text(encoding="utf-8")) == data  # the file is left as it was


def test_open_recent_lists_the_files_newest_first_and_greys_missing_ones(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    actions = window.file_actions
    for name in ("first", "second"):
        assert actions.save_to(tmp_path / f"{name}.hexfray")
    menu = actions.recent_menu
    menu.aboutToShow.emit()
    texts = [a.text() for a in menu.actions() if a.objectName().startswith("recent:")]
    assert texts == ["&1 second.hexfray", "&2 first.hexfray"]
    window.controller.replace_battle(load_demo_battle())
    [first] = [a for a in menu.actions() if a.objectName() == "recent:2"]
    first.trigger()
    assert actions.path == (tmp_path / "first.hexfray").resolve()
    (tmp_path / "second.hexfray").unlink()
    menu.aboutToShow.emit()
    [gone] = [a for a in menu.actions() if a.objectName() == "recent:2"]
    assert gone.text() == "&2 second.hexfray (missing)" and not gone.isEnabled()
    assert not actions.open_recent((tmp_path / "second.hexfray").resolve())
    assert "no longer there" in answers.problems[0]
    assert actions.recent_files() == ((tmp_path / "first.hexfray").resolve(),)
    # the list is kept in the settings: a new window shows it too
    again = MainWindow(BattleController(load_demo_battle()), window._settings)
    assert again.file_actions.recent_files() == actions.recent_files()
    again.deleteLater()


# --- the autosave and the recovery offer ----------------------------------------------------


def crashed_battle(home: Path) -> BattleController:
    """A battle whose program was killed: its journal stays in the autosave folder."""
    controller = BattleController(load_demo_battle(5))
    autosave = ControllerAutosave(controller, home / "data" / "autosave")
    controller.execute(TurnCombatant("c1", Facing.S))
    controller.execute(TurnCombatant("c4", Facing.N))
    controller.undo()
    controller.execute(TurnCombatant("c2", Facing.SE))
    autosave.set_aside()  # the kill: the journal stays, its lock goes
    return controller


def test_the_recovery_offer_restores_the_last_command(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    crashed = crashed_battle(home)
    offers: list[object] = []

    def restore(entry: object) -> RecoveryChoice:
        offers.append(entry)
        return RecoveryChoice.RESTORE

    window.file_actions.ask_recovery = restore
    window.file_actions.start(None)  # the autosave, then the offer
    qtbot.waitUntil(lambda: len(offers) == 1)  # type: ignore[attr-defined]
    restored = window.controller.battle
    assert len(offers) == 1
    assert restored.commands == crashed.battle.commands
    assert restored.state == crashed.battle.state
    assert restored.commands[-1] == TurnCombatant("c2", Facing.SE)
    assert window.isWindowModified()  # restored work is unsaved until saved
    assert find_recoverable() == ()  # the journal it came from is gone


def test_later_keeps_the_journal_and_discard_throws_it_away(
    window: MainWindow, answers: Answers, home: Path
) -> None:
    crashed_battle(home)
    battle = window.controller.battle
    window.file_actions.ask_recovery = lambda entry: RecoveryChoice.LATER
    assert not window.file_actions.offer_recovery()
    assert len(find_recoverable()) == 1 and window.controller.battle is battle
    window.file_actions.ask_recovery = lambda entry: RecoveryChoice.DISCARD
    assert not window.file_actions.offer_recovery()
    assert find_recoverable() == ()


def test_the_window_own_autosave_is_not_offered_and_a_clean_close_removes_it(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    actions = window.file_actions
    actions.start(None)  # as main.py does after the first paint
    qtbot.wait(10)  # type: ignore[attr-defined]
    assert actions.autosave is not None
    dirty(window)
    assert actions.autosave.journal.path.is_file()
    assert find_recoverable() == ()  # its own journal is locked: never offered
    assert not actions.offer_recovery() and actions.autosave.journal.path.is_file()
    answers.save_answer = Button.Discard
    close = SpontaneousClose()
    window.closeEvent(close)
    assert close.isAccepted() and find_recoverable() == ()


def test_what_comes_after_start_waits_for_the_restore_question(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    """The first-run guide (main.py's ``then``) opens once the GM has answered the
    offer to restore a crashed battle, not on top of it; ``then`` learns whether a
    battle was restored (the guide does not open over it)."""
    crashed_battle(home)
    order: list[object] = []

    def ask(entry: object) -> RecoveryChoice:
        order.append("restore?")
        return RecoveryChoice.LATER

    window.file_actions.ask_recovery = ask
    window.file_actions.start(None, then=lambda restored: order.append(("then", restored)))
    assert order == []  # both wait for the event loop, the window drawn first
    qtbot.waitUntil(lambda: len(order) == 2)  # type: ignore[attr-defined]
    assert order == ["restore?", ("then", False)]


def without_the_question(window: MainWindow) -> None:
    window.set_preferences(replace(window.preferences, confirmations=frozenset()))


def test_unsaved_work_left_without_the_question_stays_restorable(
    window: MainWindow, answers: Answers, home: Path, qtbot: object
) -> None:
    without_the_question(window)
    actions = window.file_actions
    actions.start(None)
    qtbot.wait(10)  # type: ignore[attr-defined]
    dirty(window)
    turned = window.controller.battle
    actions.new_battle_setup = lambda: SETUP
    actions.new_action.trigger()
    assert answers.asked == [] and window.controller.state.sides == SETUP.sides
    assert "Restore Autosave" in window.statusBar().currentMessage()
    (kept,) = find_recoverable()
    assert kept.changes == 1
    offers: list[object] = []

    def restore(entry: object) -> RecoveryChoice:
        offers.append(entry)
        return RecoveryChoice.RESTORE

    actions.ask_recovery = restore
    actions.restore_action.trigger()
    assert offers == [kept]
    assert window.controller.battle.commands == turned.commands
    assert window.controller.state == turned.state and window.isWindowModified()
    # closing the window unasked keeps the work for the next start, too
    close = SpontaneousClose()
    window.closeEvent(close)
    assert close.isAccepted() and answers.asked == []
    (left,) = find_recoverable()  # the restored battle, unsaved, though no command since
    assert left.changes == 0 and left.worth_offering and left.journal != kept.journal


def test_restore_autosave_says_when_there_is_nothing(window: MainWindow, answers: Answers) -> None:
    window.file_actions.restore_action.trigger()
    assert answers.problems == ["There is no autosaved battle to restore."]


@pytest.fixture(autouse=True)
def no_stray_dialogs() -> Iterator[None]:
    yield
    assert QApplication.activeModalWidget() is None


def test_esc_or_a_right_click_puts_the_armed_template_away(
    window: MainWindow, qtbot: object
) -> None:
    placement = window.fighter_placement
    fencer = next(t for t in fighter_templates() if t.key == "fencer")
    view = window.map_view
    free = view.hex_center(Hex.from_offset(2, 2)).toPoint()
    placement.arm(fencer, Side.BLUE)
    qtbot.keyClick(view, Qt.Key.Key_Escape)  # type: ignore[attr-defined]
    assert placement.armed is None and window.statusBar().currentMessage() == ""
    placement.arm(fencer, Side.BLUE)
    qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=free)  # type: ignore[attr-defined]
    assert placement.armed is None
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=free)  # type: ignore[attr-defined]
    assert len(window.controller.state.combatants) == 4  # nothing placed any more


def test_closing_the_window_with_save_writes_the_file_first(
    window: MainWindow, answers: Answers, tmp_path: Path
) -> None:
    dirty(window)
    answers.save_answer = Button.Save
    window.file_actions.choose_save_path = lambda suggested: tmp_path / "last.hexfray"
    close = SpontaneousClose()
    window.closeEvent(close)
    assert close.isAccepted() and (tmp_path / "last.hexfray").is_file()
    assert not window.isWindowModified()
