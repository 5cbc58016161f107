"""The templates pane and duplicating in the window (app.panes.templates,
app.fighter_placement, app.new_battle): the list with its descriptions, a fighter
in two clicks onto the clicked hex or the nearest free one, Enter in the list,
Duplicate from the map's menu and the Battle menu, the GM's own templates saved,
renamed and deleted in their own HEXFRAY_HOME, and a broken file named in the pane."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDockWidget, QMenu, QWidget

from app.controller import BattleController
from app.gcs_import import import_to_template
from app.main_window import MainWindow
from app.panes.templates import LIST_MIN_HEIGHT, TemplatesPane
from app.panes.widgets import ID_ROLE
from app.user_dirs import templates_dir
from hexmap import Hex
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.sets.registry import get_ruleset
from tests.app.own_home import use_own_home

GCS_FIXTURES = Path(__file__).resolve().parents[1] / "data" / "gcs"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own user folders, so that its templates are its own."""
    return use_own_home(tmp_path, monkeypatch)


@pytest.fixture
def window(home: Path, main_window: MainWindow) -> MainWindow:
    main_window.templates_pane.raise_()
    return main_window


def pane_of(window: MainWindow) -> TemplatesPane:
    pane = window.findChild(QDockWidget, "templatesPane")
    assert isinstance(pane, TemplatesPane)
    return pane


def click_item(window: MainWindow, qtbot: object, key: str, double: bool = False) -> None:
    pane = pane_of(window)
    items = [pane.list.item(i) for i in range(pane.list.count())]
    item = next(i for i in items if i.data(ID_ROLE) == key)
    pane.list.scrollToItem(item)
    rect = pane.list.visualItemRect(item)
    viewport = pane.list.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())  # type: ignore[attr-defined]
    if double:  # a real double-click: the first click, then the second's double-click event
        qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())  # type: ignore[attr-defined]


def click_hex(window: MainWindow, qtbot: object, h: Hex) -> None:
    view = window.map_view
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.hex_center(h).toPoint())  # type: ignore[attr-defined]


def test_the_pane_lists_the_library_with_descriptions(window: MainWindow) -> None:
    pane = pane_of(window)
    assert pane.objectName() == "templatesPane"
    names = [pane.list.item(i).text() for i in range(pane.list.count())]
    for name in ("Archer", "Brawler", "Knight", "Halberdier", "Berserker", "Duelist",
                 "Town guard", "Goblin", "Fencer", "Spearman"):
        assert name in names
    assert pane.select_template("knight-in-plate")
    assert "plate" in pane.description.text()
    assert "plate" in pane.list.currentItem().toolTip()
    assert pane.problems.isHidden()
    # a bundled template may not be renamed or deleted
    assert not pane.rename_button.isEnabled() and not pane.delete_button.isEnabled()


def test_two_clicks_put_a_fighter_on_the_clicked_hex_or_the_nearest_free_one(
    window: MainWindow, qtbot: object
) -> None:
    pane = pane_of(window)
    controller = window.controller
    free = Hex.from_offset(5, 5)
    click_hex(window, qtbot, free)  # the hex the GM chose beforehand
    assert controller.state.occupant(free) is None
    pane.side_box.setCurrentIndex(pane.side_box.findData(Side.BLUE))
    click_item(window, qtbot, "goblin")  # first click
    assert "Goes to" in pane.target.text()
    qtbot.mouseClick(pane.add_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    goblin = controller.state.combatants[-1]
    assert (goblin.name, goblin.hex, goblin.side) == ("Goblin", free, Side.BLUE)
    assert controller.selected_id == goblin.id
    assert controller.battle.commands[-1] == AddCombatant(goblin)
    # the hex is taken now: a double-click on the archer puts it beside the goblin
    click_item(window, qtbot, "archer", double=True)
    archer = controller.state.combatants[-1]
    assert archer.name == "Archer" and archer.hex.distance(free) == 1
    assert "nearest" in pane.target.text()
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert "Goblin" not in {c.name for c in controller.state.combatants}


def test_enter_in_the_list_adds_and_does_not_roll(window: MainWindow, qtbot: object) -> None:
    pane = pane_of(window)
    before = len(window.controller.state.combatants)
    pane.select_template("brawler")
    pane.list.setFocus()
    qtbot.keyClick(pane.list, Qt.Key.Key_Return)  # type: ignore[attr-defined]
    state = window.controller.state
    assert len(state.combatants) == before + 1 and state.combatants[-1].name == "Brawler"
    assert all(isinstance(c, AddCombatant) for c in window.controller.battle.commands)


def test_duplicate_from_the_map_menu_and_the_battle_menu(window: MainWindow) -> None:
    controller = window.controller
    fencer = next(c for c in controller.state.combatants if c.name == "Fencer")
    menu = window.map_view.context_menu_for(fencer.hex)
    assert menu is not None
    [duplicate] = [a for a in menu.actions() if a.objectName() == "duplicateFighter"]
    duplicate.trigger()
    copy = controller.state.combatants[-1]
    assert copy.name == "Fencer 2" and copy.hex.distance(fencer.hex) == 1
    assert (copy.side, copy.facing) == (fencer.side, fencer.facing)
    assert copy.hp == fencer.fighter.hit_points
    ruleset = get_ruleset(controller.state.ruleset_key)
    assert ruleset.sheets.encode(copy.fighter) == {**ruleset.sheets.encode(fencer.fighter),
                                                  "name": "Fencer 2"}
    assert controller.selected_id == copy.id
    # the Battle menu's entry (Ctrl+D) copies the selected fighter: the copy
    action = window.fighter_placement.duplicate_action
    assert action.isEnabled() and "Ctrl+D" in [s.toString() for s in action.shortcuts()]
    action.trigger()
    assert controller.state.combatants[-1].name == "Fencer 3"
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert [c.name for c in controller.state.combatants].count("Fencer") == 1
    assert not any(c.name.startswith("Fencer ") for c in controller.state.combatants)
    controller.select(None)
    assert not action.isEnabled()


def test_save_rename_and_delete_the_gms_own_template(
    window: MainWindow, home: Path, qtbot: object
) -> None:
    pane = pane_of(window)
    controller = window.controller
    spearman = next(c for c in controller.state.combatants if c.name == "Spearman")
    controller.select(spearman.id)
    asked: list[tuple[str, str]] = []

    def answer(name: str) -> None:
        def ask(_parent: QWidget, title: str, current: str) -> str | None:
            asked.append((title, current))
            return name

        pane.ask_name = ask

    answer("Gate watch")
    qtbot.mouseClick(pane.save_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert asked == [("Save Fighter as Template", "Spearman")]
    saved = home / "data" / "templates" / "gate-watch.json"
    assert saved.parent == templates_dir() and saved.is_file()
    assert json.loads(saved.read_text(encoding="utf-8"))["sheet"]["name"] == "Gate watch"
    assert pane.current_key() == "custom:gate-watch"
    assert pane.list.currentItem().text() == "Gate watch (yours)"
    assert pane.rename_button.isEnabled() and pane.delete_button.isEnabled()

    answer("North gate")
    qtbot.mouseClick(pane.rename_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert not saved.exists() and (saved.parent / "north-gate.json").is_file()
    assert pane.list.currentItem().text() == "North gate (yours)"

    # placed from the list, the saved template is the spearman's sheet
    qtbot.mouseClick(pane.add_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    placed = controller.state.combatants[-1]
    ruleset = get_ruleset(controller.state.ruleset_key)
    assert placed.name == "North gate"
    assert ruleset.sheets.encode(placed.fighter) == {**ruleset.sheets.encode(spearman.fighter),
                                                    "name": "North gate"}

    pane.confirm_delete = lambda _parent, _name: False
    qtbot.mouseClick(pane.delete_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert (saved.parent / "north-gate.json").is_file()
    pane.confirm_delete = lambda _parent, _name: True
    qtbot.mouseClick(pane.delete_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert list(saved.parent.iterdir()) == []
    names = [pane.list.item(i).text() for i in range(pane.list.count())]
    assert not any("(yours)" in n for n in names)
    # the fighter placed from it stays on the map
    assert controller.state.combatants[-1] == placed


def test_a_broken_template_file_is_named_in_the_pane(window: MainWindow, home: Path) -> None:
    folder = templates_dir()
    (folder / "ogre.json").write_text('{"format": "hexfray-template", "version": 7}')
    pane = pane_of(window)
    pane.reload()
    assert not pane.problems.isHidden()
    assert "ogre.json" in pane.problems.text() and "newer Hexfray" in pane.problems.text()
    assert pane.list.count() >= 12  # the rest still listed


def test_the_list_and_add_show_in_the_laptop_layout(
    qtbot: object, home: Path, controller: BattleController, settings: QSettings
) -> None:
    # the default layout at 1366x768, the pane raised in its tab: the list and Add
    # to Map are in view without scrolling (the rest scrolls)
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    window.templates_pane.raise_()
    QApplication.processEvents()
    pane = pane_of(window)
    assert pane.add_button.visibleRegion().boundingRect().height() == pane.add_button.height()
    assert pane.list.visibleRegion().boundingRect().height() >= LIST_MIN_HEIGHT


def test_the_add_fighter_menus_show_the_descriptions(window: MainWindow) -> None:
    empty = Hex.from_offset(1, 1)
    menu = window.map_view.context_menu_for(empty)
    assert menu is not None
    archer = next(a for a in menu.findChildren(QAction) if a.objectName().endswith(":archer"))
    assert "short bow" in archer.toolTip()
    battle_menu = next(
        a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Battle"
    )
    assert isinstance(battle_menu, QMenu)
    assert window.fighter_placement.duplicate_action in battle_menu.actions()


def test_an_imported_character_keeps_its_name_under_the_templates_own(
    window: MainWindow, home: Path, qtbot: object
) -> None:
    # python main.py --import-gcs sword_and_shield_v5.gcs --to-template "Shield wall"
    import_to_template(GCS_FIXTURES / "sword_and_shield_v5.gcs", "Shield wall")
    pane = pane_of(window)
    pane.reload()
    assert pane.select_template("custom:shield-wall")
    item = pane.list.currentItem()
    assert item.text() == "Shield wall (yours)"
    assert "places Ser Aldo" in item.toolTip()
    # The Add Fighter menus name the template, as the list does.
    menu = window.map_view.context_menu_for(Hex.from_offset(1, 1))
    assert menu is not None
    wanted = "addFighter:red:custom:shield-wall"
    [entry] = [a for a in menu.findChildren(QAction) if a.objectName() == wanted]
    assert entry.text() == "Shield wall"
    qtbot.mouseClick(pane.add_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    placed = window.controller.state.combatants[-1]
    assert placed.name == "Ser Aldo"
    assert placed.fighter.origin == "gcs:Ahexfray0000test1"
    # Renamed, the template still places Ser Aldo.
    pane.ask_name = lambda _parent, _title, _current: "Old guard"
    qtbot.mouseClick(pane.rename_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert pane.list.currentItem().text() == "Old guard (yours)"
    template = pane.current_template()
    assert template is not None and template.fighter.name == "Ser Aldo"
