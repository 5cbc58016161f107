"""The New Battle dialog over every registered ruleset (app.new_battle): each is
offered with its description and options; a new battle of a ruleset starts with
fighters from that ruleset's bundled templates (its demo's first), each added by a
command; the window then shows that ruleset's attack pane, and its Templates pane
and Add Fighter menus offer that ruleset's templates only; a fighter of another
ruleset is refused with a message naming both."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QDockWidget, QMenu

from app.main_window import MainWindow
from app.new_battle import (
    DEFAULT_STARTING_FIGHTERS,
    NewBattleDialog,
    NewBattleSetup,
    add_fighter_menu,
    demo_template_keys,
    fighter_templates,
    new_battle,
    new_combatant,
    starting_templates,
)
from app.panes.widgets import ID_ROLE
from app.rulesets import ruleset_ui
from app.templates import load_library, save_custom_template
from hexmap import Handedness, Hex
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.battle.sides import SideSetup
from rules.battle.turns import StartTurns
from rules.core.errors import RulesError
from rules.sets.registry import get_ruleset, ruleset_keys
from tests.app.own_home import use_own_home

KEYS = ruleset_keys()
SIDES = (SideSetup(Side.RED, "Red", "#aa2211"), SideSetup(Side.BLUE, "Blue", "#2244aa"))


def setup_of(key: str, per_side: int = DEFAULT_STARTING_FIGHTERS) -> NewBattleSetup:
    return NewBattleSetup(24, 16, key, (), SIDES, 4242, starting_fighters=per_side)


@pytest.fixture
def window(main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    use_own_home(tmp_path, monkeypatch)
    return main_window


# --- the dialog ----------------------------------------------------------------------------


def offered_choices(dialog: NewBattleDialog) -> dict[str, QComboBox]:
    """Each option offered in a box of options that exclude each other, with its box."""
    return {
        box.itemData(i): box
        for box in dialog.option_choice_boxes.values()
        for i in range(1, box.count())  # the first is none of them
    }


def test_the_dialog_offers_every_registered_ruleset_with_its_description_and_options(
    qtbot: object,
) -> None:
    dialog = NewBattleDialog(seed=1)
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    offered = [dialog.ruleset_box.itemData(i) for i in range(dialog.ruleset_box.count())]
    assert offered == list(KEYS) and len(KEYS) >= 4
    for index, key in enumerate(KEYS):
        dialog.ruleset_box.setCurrentIndex(index)
        ruleset = get_ruleset(key)
        assert dialog.ruleset_box.currentText() == ruleset.name
        assert dialog.ruleset_description.text() == ruleset.description
        offered_options = {**offered_choices(dialog), **dialog.option_checks}
        assert set(offered_options) == set(ruleset.available_options)
        labels = [check.text() for check in dialog.option_checks.values()]
        labels += [box.itemText(box.findData(o)) for o, box in offered_choices(dialog).items()]
        assert len(set(labels)) == len(labels), "each option has its own label"
        for option, check in dialog.option_checks.items():
            assert check.toolTip() == ruleset.available_options[option]
        for option, box in offered_choices(dialog).items():
            tip = box.itemData(box.findData(option), Qt.ItemDataRole.ToolTipRole)
            assert tip == ruleset.available_options[option]
        setup = dialog.setup()
        assert setup.ruleset_key == key
        assert setup.starting_fighters == DEFAULT_STARTING_FIGHTERS
        names = {t.fighter.name for t in starting_templates(key)[: 2 * DEFAULT_STARTING_FIGHTERS]}
        note = dialog.starting_fighters_note.text()
        assert names and all(name in note for name in names), note


def test_every_option_note_has_the_height_its_wrapped_lines_need(qtbot: object) -> None:
    """A note of two lines gets two lines' height for every ruleset, shown as the GM
    opens the dialog: none is squeezed into one line over the next box."""
    dialog = NewBattleDialog(seed=1)
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    dialog.show()
    qtbot.waitExposed(dialog)  # type: ignore[attr-defined]
    wrapped = 0
    for index in range(dialog.ruleset_box.count()):
        dialog.ruleset_box.setCurrentIndex(index)
        QApplication.processEvents()
        for note in dialog._option_notes:
            assert note.height() >= note.heightForWidth(note.width()), note.text()
            wrapped += note.heightForWidth(note.width()) > note.fontMetrics().height() * 1.5
    assert wrapped, "no option note wraps: the test shows nothing"


def test_no_starting_fighters_is_an_empty_map(qtbot: object) -> None:
    dialog = NewBattleDialog(seed=1)
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    dialog.fighters_box.setValue(0)
    assert dialog.starting_fighters_note.text() == "The map starts empty."
    battle = new_battle(dialog.setup())
    assert battle.state.combatants == () and battle.commands == ()


# --- the starting fighters -------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_a_new_battle_starts_with_fighters_of_its_rulesets_templates(key: str) -> None:
    templates = starting_templates(key)
    assert len(templates) >= 4, f"ruleset {key} has {len(templates)} bundled templates"
    assert all(t.ruleset_key == key and not t.custom for t in templates)
    demo = demo_template_keys(key)
    assert [t.key for t in templates[: len(demo)]] == [
        k for k in demo if any(t.key == k for t in templates)
    ], "the demo's fighters first"
    battle = new_battle(setup_of(key), handedness=Handedness.LEFT)
    state = battle.state
    assert state.ruleset_key == key and len(state.combatants) == 4
    assert [type(c) for c in battle.commands] == [AddCombatant] * 4
    assert [c.side for c in state.combatants] == [Side.RED, Side.RED, Side.BLUE, Side.BLUE]
    assert len({c.fighter.name for c in state.combatants}) == 4, "four different fighters"
    by_name = {t.fighter.name: t for t in templates}
    for combatant in state.combatants:
        template = by_name[combatant.fighter.name]
        if not template.names_its_hand:
            assert combatant.fighter.handedness is Handedness.LEFT
    red = [c for c in state.combatants if c.side is Side.RED]
    blue = [c for c in state.combatants if c.side is Side.BLUE]
    assert all(c.facing.name == "S" for c in red) and all(c.facing.name == "N" for c in blue)
    gap = min(r.hex.distance(b.hex) for r in red for b in blue)
    assert 2 <= gap <= 4, "a step or two apart, facing each other"
    # The rules take them: the turn order starts, the first fighter may act.
    battle.execute(StartTurns())
    active = battle.state.active_id
    assert active is not None and get_ruleset(key).turns.legal_actions(battle.state, active)
    while battle.can_undo:
        battle.undo()
    assert battle.state.combatants == ()


def test_a_small_map_takes_the_fighters_that_fit() -> None:
    battle = new_battle(NewBattleSetup(2, 1, "000", (), SIDES, 3, starting_fighters=3))
    assert len(battle.state.combatants) == 2
    assert len({c.hex for c in battle.state.combatants}) == 2


def test_a_map_too_small_for_a_reach_takes_the_fighters_whose_reach_it_shows() -> None:
    # Two hexes: a reach of 1 at most. The spearman's long spear reaches 2, which
    # AddCombatant refuses as the character editor does: the brawler comes instead.
    templates = {t.key: t for t in starting_templates("000")}
    setup = NewBattleSetup(2, 1, "000", (), SIDES, 3, starting_fighters=1)
    battle = new_battle(setup, templates=(templates["spearman"], templates["brawler"]))
    assert [c.name for c in battle.state.combatants] == ["Brawler", "Brawler 2"]


# --- the window on a new battle of each ruleset ------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_the_window_shows_the_new_battles_ruleset_pane_and_templates(
    window: MainWindow, key: str
) -> None:
    window.file_actions.new_battle_setup = lambda: setup_of(key)
    window.file_actions.new_action.trigger()
    state = window.controller.state
    assert state.ruleset_key == key and len(state.combatants) == 4
    panes = window.findChildren(QDockWidget, "attackPane")
    assert panes == [window.attack_pane] and window.attack_pane in window.panes
    expected = ruleset_ui(key).attack_pane(window.controller, None)
    assert type(window.attack_pane) is type(expected)
    expected.deleteLater()
    assert window.attack_pane.isVisible()
    toggles = [a for a in window.menuBar().findChildren(QMenu) if a.title() == "&View"]
    assert toggles and window.attack_pane.toggleViewAction() in toggles[0].actions()
    # The Templates pane and the Add Fighter menu: this ruleset's templates only.
    own = {t.key for t in fighter_templates(key)}
    pane = window.templates_pane
    listed = {pane.list.item(i).data(ID_ROLE) for i in range(pane.list.count())}
    assert listed == own
    menu = QMenu(window)
    free = next(h for h in state.grid.hexes() if state.occupant(h) is None)
    sub = add_fighter_menu(menu, window.controller, free)
    assert sub is not None
    offered = {
        action.objectName().rsplit(":", 1)[1]
        for side_menu in sub.findChildren(QMenu)
        for action in side_menu.actions()
    }
    assert offered == own
    placement = window.fighter_placement  # Battle > Add Fighter
    placement.fill_menu()
    armed = {
        action.objectName().rsplit(":", 1)[1]
        for side_menu in placement.menu.findChildren(QMenu)
        for action in side_menu.actions()
    }
    assert armed == own
    # A fighter of the battle is selected, targeted and drawn without a refusal.
    first, other = state.combatants[0], state.combatants[-1]
    window.controller.select(first.id)
    window.controller.set_target(other.id)
    window.repaint()


def test_back_to_the_demo_brings_seed_000s_pane_again(window: MainWindow) -> None:
    other = next(k for k in KEYS if k != "000")
    window.file_actions.new_battle_setup = lambda: setup_of(other)
    window.file_actions.new_action.trigger()
    window.replace_battle(new_battle(setup_of("000")))
    assert window.controller.state.ruleset_key == "000"
    expected = ruleset_ui("000").attack_pane(window.controller, None)
    assert type(window.attack_pane) is type(expected)
    expected.deleteLater()
    assert window.findChildren(QDockWidget, "attackPane") == [window.attack_pane]


# --- a template of another ruleset -------------------------------------------------------------

PAIRS = list(itertools.permutations(KEYS, 2))


@pytest.mark.parametrize(("battle_key", "template_key"), PAIRS)
def test_a_template_of_another_ruleset_is_refused_with_both_rulesets_named(
    window: MainWindow, battle_key: str, template_key: str
) -> None:
    window.replace_battle(new_battle(setup_of(battle_key, 0)))
    stranger = starting_templates(template_key)[0]
    refusals: list[str] = []
    window.controller.command_refused.connect(refusals.append)
    state = window.controller.state
    combatant = new_combatant(state, stranger, Side.RED, Hex.from_offset(3, 3), Handedness.RIGHT)
    assert window.controller.execute(AddCombatant(combatant)) is None
    assert window.controller.state.combatants == ()
    assert len(refusals) == 1
    assert f"ruleset {template_key}" in refusals[0] and f"ruleset {battle_key}" in refusals[0]
    assert stranger.fighter.name in refusals[0]


@pytest.mark.parametrize("key", [k for k in KEYS if k != "000"])
def test_import_character_in_a_battle_of_another_ruleset_says_it_imports_none(
    window: MainWindow, key: str, tmp_path: Path
) -> None:
    window.replace_battle(new_battle(setup_of(key, 0)))
    problems: list[str] = []
    importer = window.character_import
    importer.show_problem = lambda _title, text: problems.append(text)
    importer.choose_path = lambda *_args: pytest.fail("no file to choose")  # type: ignore[assignment]
    gcs = tmp_path / "hero.gcs"
    gcs.write_text("{}", encoding="utf-8")
    assert importer.run() is None
    assert importer.import_file(gcs) is None
    assert len(problems) == 2 and window.controller.state.combatants == ()


def test_options_the_ruleset_refuses_together_make_no_battle(window: MainWindow) -> None:
    options = tuple(get_ruleset("000").available_options)[:2]
    assert len(options) == 2
    with pytest.raises(RulesError):
        get_ruleset("000", options)
    setup = replace(setup_of("000"), ruleset_options=options)
    with pytest.raises(RulesError):
        new_battle(setup)
    problems: list[str] = []
    window.file_actions.show_problem = lambda _title, text: problems.append(text)
    window.file_actions.new_battle_setup = lambda: setup
    before = window.controller.battle
    window.file_actions.new_action.trigger()
    assert window.controller.battle is before
    assert len(problems) == 1 and problems[0].startswith("The battle cannot be made: ")


@pytest.mark.parametrize("key", KEYS)
def test_a_fighter_saved_as_the_gms_template_is_listed_for_its_ruleset_only(
    key: str, tmp_path: Path
) -> None:
    battle = new_battle(setup_of(key, 1))
    fighter = battle.state.combatants[0].fighter
    saved = save_custom_template(fighter, "My champion", key, tmp_path)
    assert saved.custom and saved.ruleset_key == key
    assert saved.fighter.name == "My champion"
    library = load_library(tmp_path)
    assert saved.key in {t.key for t in library.for_ruleset(key)}
    for other in KEYS:
        if other != key:
            assert saved.key not in {t.key for t in library.for_ruleset(other)}
    # It joins a battle of its ruleset, and only there.
    placed = new_combatant(battle.state, saved, Side.BLUE, Hex.from_offset(1, 1), Handedness.RIGHT)
    battle.execute(AddCombatant(placed))
    assert battle.state.combatant(placed.id).fighter.name == "My champion"
