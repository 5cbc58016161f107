"""The 1366x768 default layout (attack pane the whole right column, the log under
the combatants), the controller's redraw plan for items and terrain, and the
battlefield tools of issue 4: a deliberate drop into a chosen hex, the GM's "Place
item", and the attack pane offering only the weapons the rules let one strike at."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QMenu, QTabBar

from app.controller import BattleController, plan_redraw
from app.main_window import GEOMETRY_KEY, STATE_KEY, STATE_VERSION, MainWindow
from app.map.drops import catalog_item_choices
from app.rulesets.seed000.tables import seed000_tables
from app.screenshot import SCREEN_HEIGHT, SCREEN_WIDTH, stage
from hexmap import Hex
from rules.battle.battle import BattleChange
from rules.battle.commands import AddItem, DropItem, PaintTerrain, SetRulesetOptions
from rules.battle.items import ItemKind, drop_candidates
from rules.battle.terrain import TerrainChange
from rules.sets.seed000.tables import LOCATIONS_001
from rules.sets.seed000.weapon_targets import can_strike_at_weapon

LEFT = Qt.DockWidgetArea.LeftDockWidgetArea
RIGHT = Qt.DockWidgetArea.RightDockWidgetArea


def settle() -> None:
    for _ in range(5):
        QCoreApplication.processEvents()


@pytest.fixture
def laptop(qtbot, controller: BattleController, settings: QSettings) -> Iterator[MainWindow]:
    """The main window with no saved layout at 1366x768, as a GM first sees it."""
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)
    window.resize(SCREEN_WIDTH, SCREEN_HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    settle()
    yield window


# --- the default layout ------------------------------------------------------------------
def test_default_layout_at_1366x768(laptop: MainWindow) -> None:
    w = laptop
    assert w.dockWidgetArea(w.attack_pane) == RIGHT
    # the attack pane is alone on the right, the whole height of the dock area
    assert [p for p in w.panes if w.dockWidgetArea(p) == RIGHT] == [w.attack_pane]
    assert w.attack_pane.height() >= 560
    assert w.attack_pane.height() >= w.map_view.height() - 10
    # the log in the left column, below the combatants, and not tabbed away
    for pane in (w.combatants_pane, w.inspector_pane, w.hex_pane, w.templates_pane, w.log_pane):
        assert w.dockWidgetArea(pane) == LEFT, pane.objectName()
    assert w.log_pane not in w.tabifiedDockWidgets(w.combatants_pane)
    assert set(w.tabifiedDockWidgets(w.combatants_pane)) == {w.inspector_pane, w.hex_pane}
    assert w.tabifiedDockWidgets(w.tracker_pane) == [w.templates_pane]
    assert w.log_pane.isVisible() and not w.log_pane.visibleRegion().isEmpty()
    assert w.log_pane.geometry().top() > w.combatants_pane.geometry().bottom()
    assert w.log_pane.height() >= 250  # several entries
    assert w.combatants_pane.height() >= 150  # about five rows
    # the map stays large
    assert w.map_view.width() >= 700
    assert w.map_view.height() >= 500
    # every dock tab shows its whole name
    for bar in w.findChildren(QTabBar):
        for i in range(bar.count()):
            text = bar.tabText(i)
            assert bar.tabRect(i).width() >= bar.fontMetrics().horizontalAdvance(text), text


def test_attack_pane_needs_no_scrolling_with_more_options_collapsed(laptop: MainWindow) -> None:
    stage(laptop.controller)
    settle()
    pane = laptop.attack_pane
    assert not pane.more.button.isChecked()
    assert pane.scroll_area.verticalScrollBar().maximum() == 0
    for widget in (pane.weapon_combo, pane.mode_combo, pane.location_combo, pane.dodge_check,
                   pane.preview_label, pane.odds_panel, pane.roll_button):
        assert widget.isVisible() and not widget.visibleRegion().isEmpty(), widget.objectName()


def test_an_old_saved_layout_does_not_override_the_new_default(
    qtbot, controller: BattleController, settings: QSettings
) -> None:
    old = MainWindow(controller, settings, restore_layout=False)
    qtbot.addWidget(old)
    old.log_pane.hide()
    settings.setValue(STATE_KEY, old.saveState(STATE_VERSION - 1))
    settings.setValue(GEOMETRY_KEY, old.saveGeometry())
    window = MainWindow(controller, settings)
    qtbot.addWidget(window)
    window.resize(SCREEN_WIDTH, SCREEN_HEIGHT)
    window.show()
    qtbot.waitExposed(window)
    assert not window.log_pane.isHidden()
    assert window.dockWidgetArea(window.log_pane) == LEFT


def test_reset_layout_brings_back_the_default(laptop: MainWindow, qtbot) -> None:
    w = laptop
    w.addDockWidget(RIGHT, w.log_pane)
    w.hex_pane.setFloating(True)
    w.reset_layout()
    settle()
    assert w.dockWidgetArea(w.log_pane) == LEFT
    assert not w.hex_pane.isFloating()
    assert [p for p in w.panes if w.dockWidgetArea(p) == RIGHT] == [w.attack_pane]


# --- the redraw plan ----------------------------------------------------------------------
def _changes(controller: BattleController) -> list[BattleChange]:
    seen: list[BattleChange] = []
    controller.battle.subscribe(seen.append)
    return seen


def test_plan_redraw_items_and_terrain(controller: BattleController) -> None:
    seen = _changes(controller)
    c = controller.state.combatants[0]
    sword = catalog_item_choices(controller.ruleset)[0]
    controller.execute(sword.command(c.hex))
    controller.execute(PaintTerrain((c.hex,), TerrainChange.open_ground()))  # already open
    controller.execute(PaintTerrain((c.hex,), TerrainChange(height=2)))
    add, unchanged, paint = seen
    plan = plan_redraw(add, None)
    assert plan.items and not plan.terrain
    plan = plan_redraw(unchanged, None)
    assert not plan.items and not plan.terrain
    plan = plan_redraw(paint, None)
    assert plan.terrain and not plan.items
    assert not plan.tokens


def test_plan_redraw_of_new_ruleset_options_redraws_every_fighter(
    controller: BattleController,
) -> None:
    """Other hit locations change every fighter's wounds and the aim list: each
    token, the selected one's overlays and the panes are redrawn."""
    seen = _changes(controller)
    first = controller.state.combatants[0].id
    controller.execute(SetRulesetOptions((LOCATIONS_001,)))
    (switched,) = seen
    plan = plan_redraw(switched, first)
    assert not switched.changed_ids  # no combatant record changed ...
    assert plan.tokens == {c.id for c in controller.state.combatants}  # ... all redrawn
    assert plan.overlays and plan.panes


def test_map_follows_the_plan_for_terrain_and_items(laptop: MainWindow) -> None:
    """The map redraws terrain and items when the plan says so, not on its own."""
    controller, view = laptop.controller, laptop.map_view
    h = _free_neighbour(controller, controller.state.combatants[0].hex)
    seen = _changes(controller)
    controller.blockSignals(True)  # the map hears of the change only from the emits below
    try:
        controller.execute(PaintTerrain((h,), TerrainChange(height=2)))
    finally:
        controller.blockSignals(False)
    change = seen[-1]
    plan = plan_redraw(change, controller.selected_id)
    assert plan.terrain
    controller.battle_changed.emit(change, replace(plan, terrain=False))
    assert h not in view._terrain.looks  # not redrawn: the plan said no
    controller.battle_changed.emit(change, plan)
    assert h in view._terrain.looks
    controller.execute(catalog_item_choices(controller.ruleset)[0].command(h))
    assert h in view.items_drawn()


# --- a deliberate drop ---------------------------------------------------------------------
def _free_neighbour(controller: BattleController, h: Hex) -> Hex:
    state = controller.state
    return next(n for n in h.neighbors() if n in state.grid and state.occupant(n) is None)


def test_drop_from_the_inspector_into_a_clicked_hex(laptop: MainWindow, qtbot) -> None:
    controller, view = laptop.controller, laptop.map_view
    c = controller.state.combatants[0]
    controller.select(c.id)
    weapon = c.fighter.weapons[0]
    actions = {a.objectName(): a for a in laptop.inspector_pane.drop_menu.actions()}
    assert f"drop:{weapon.key}" in actions
    assert laptop.inspector_pane.drop_button.isEnabled()
    actions[f"drop:{weapon.key}"].trigger()
    candidates = drop_candidates(c, controller.state.grid)
    assert view.drop_hexes_shown() == candidates
    assert view.drop_hexes_shown()[0] == c.hex  # the own hex is the default
    assert "Drop" in laptop.statusBar().currentMessage()
    # a hex that is not highlighted does nothing
    far = max(controller.state.grid.hexes(), key=lambda h: h.distance(c.hex))
    assert far not in candidates
    assert not view.drop_at(far)
    assert view.drop_pick is not None
    where = _free_neighbour(controller, c.hex)
    assert where in candidates
    view.ensure_visible(where)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.hex_center(where).toPoint())
    command = controller.battle.commands[-1]
    assert isinstance(command, DropItem)
    assert (command.combatant_id, command.key, command.to_hex) == (c.id, weapon.key, where)
    assert view.drop_pick is None
    assert weapon.name in view.items_drawn()[where]
    assert all(w.key != weapon.key for w in controller.state.combatant(c.id).fighter.weapons)


def test_drop_enter_means_own_hex_and_esc_cancels(laptop: MainWindow, qtbot) -> None:
    controller, view = laptop.controller, laptop.map_view
    c = controller.state.combatants[0]
    controller.select(c.id)
    shield = c.fighter.shield
    assert shield is not None
    controller.request_drop(c.id, shield.key)
    assert view.drop_pick is not None and view.hasFocus()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.drop_pick is None
    assert controller.battle.commands == ()
    assert controller.selected_id == c.id  # Esc ended the pick, not the selection
    controller.request_drop(c.id, shield.key)
    qtbot.keyClick(view, Qt.Key.Key_Return)
    command = controller.battle.commands[-1]
    assert isinstance(command, DropItem) and command.to_hex == c.hex
    assert shield.name in view.items_drawn()[c.hex]


def test_drop_from_the_map_context_menu(laptop: MainWindow) -> None:
    controller, view = laptop.controller, laptop.map_view
    c = controller.state.combatants[0]
    menu = view.context_menu_for(c.hex)
    assert menu is not None
    drop = menu.findChild(QMenu, "dropMenu")
    assert drop is not None
    keys = [a.objectName() for a in drop.actions()]
    expected = [w.key for w in c.fighter.weapons if w.kind.value != "unarmed"]
    expected += [c.fighter.shield.key] if c.fighter.shield else []
    assert keys == [f"drop:{k}" for k in expected]
    drop.actions()[0].trigger()
    assert view.drop_pick is not None and view.drop_pick.combatant_id == c.id
    menu.deleteLater()


# --- the GM places an item ------------------------------------------------------------------
def test_place_item_on_an_empty_hex(laptop: MainWindow) -> None:
    controller, view = laptop.controller, laptop.map_view
    state = controller.state
    h = _free_neighbour(controller, state.combatants[0].hex)
    menu = view.context_menu_for(h)
    assert menu is not None
    place = menu.findChild(QMenu, "placeItemMenu")
    assert place is not None
    entries = {a.objectName(): a for a in place.actions() if not a.isSeparator()}
    choices = catalog_item_choices(controller.ruleset)
    assert {f"place:{ch.kind.value}:{ch.key}" for ch in choices} == set(entries)
    assert any(ch.kind is ItemKind.SHIELD for ch in choices)
    shield = next(ch for ch in choices if ch.kind is ItemKind.SHIELD)
    entries[f"place:shield:{shield.key}"].trigger()
    command = controller.battle.commands[-1]
    assert isinstance(command, AddItem)
    assert (command.hex, command.name, command.kind) == (h, shield.name, ItemKind.SHIELD)
    assert command.shield == shield.shield
    assert shield.name in view.items_drawn()[h]
    # a combatant's hex offers no "Place item"
    menu2 = view.context_menu_for(state.combatants[0].hex)
    assert menu2 is not None and menu2.findChild(QMenu, "placeItemMenu") is None
    menu.deleteLater()
    menu2.deleteLater()


# --- striking at a weapon -------------------------------------------------------------------
def test_strike_at_weapon_entries_follow_the_rules(laptop: MainWindow) -> None:
    controller, pane = laptop.controller, laptop.attack_pane
    ids = [c.id for c in controller.state.combatants]
    strikes = seed000_tables(controller.state).weapon_strikes
    allowed_seen = refused_seen = 0
    for a in ids:
        for t in ids:
            if a == t:
                continue
            controller.select(a)
            controller.set_target(t)
            combo = pane.target_weapon_combo
            model = combo.model()
            assert isinstance(model, QStandardItemModel)
            assert combo.itemData(0) is None and model.item(0).isEnabled()  # the body
            defender = controller.state.combatant(t)
            assert combo.count() == 1 + len(defender.fighter.weapons)
            for i in range(1, combo.count()):
                key = combo.itemData(i)
                allowed, reason = can_strike_at_weapon(
                    controller.state,
                    a,
                    t,
                    key,
                    attacker_weapon_key=pane.weapon_combo.currentData(),
                    strikes=strikes,
                )
                assert model.item(i).isEnabled() is allowed, (a, t, key)
                tip = combo.itemData(i, Qt.ItemDataRole.ToolTipRole)
                assert reason in tip
                if allowed:
                    allowed_seen += 1
                else:
                    refused_seen += 1
                    assert tip.startswith("Not allowed")
    assert allowed_seen and refused_seen


def test_strike_at_weapon_entries_follow_the_battles_option(laptop: MainWindow) -> None:
    """With the locations-001 option the entries follow 001 Striking at Weapons in
    Tactical Combat, as the attack itself does, not 000 STRIKING AT WEAPONS."""
    controller, pane = laptop.controller, laptop.attack_pane
    controller.execute(SetRulesetOptions((LOCATIONS_001,)))
    controller.select("c1")
    controller.set_target("c3")  # the morningstar is within the broadsword's reach
    combo = pane.target_weapon_combo
    tip = combo.itemData(combo.findData("morningstar"), Qt.ItemDataRole.ToolTipRole)
    assert "001 Striking at Weapons in Tactical Combat" in tip
    assert "000 STRIKING AT WEAPONS" not in tip


def test_a_refused_weapon_cannot_stay_chosen(laptop: MainWindow) -> None:
    controller, pane = laptop.controller, laptop.attack_pane
    controller.select("c1")
    controller.set_target("c3")  # the morningstar is within the broadsword's reach
    combo = pane.target_weapon_combo
    combo.setCurrentIndex(combo.findData("morningstar"))
    assert pane.options().target_weapon_key == "morningstar"
    controller.set_target("c4")  # the fencer's weapons are out of reach
    assert combo.currentData() is None
    assert pane.options().target_weapon_key is None
