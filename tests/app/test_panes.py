"""The combatants, inspector and combat-log panes, and app.event_text.

Every expected number comes from the rules package or the model, never from a
hard-coded copy. The battle is the shipped demo battle.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QDockWidget

from app.controller import BattleController
from app.event_text import RowKind, Tone, line_for, rows_for_events, turn_separator
from app.main_window import load_demo_battle
from app.panes.combat_log import CombatLogPane
from app.panes.combatants import CombatantsModel, CombatantsPane
from app.panes.inspector import InspectorPane
from app.panes.widgets import HP_ROLE, ID_ROLE
from app.rulesets import ruleset_ui
from app.rulesets.seed000.attack_pane import AttackPane
from app.rulesets.seed000.inspector_section import Seed000InspectorSection, defense_at_rest
from hexmap import Arc, Hex
from rules.battle.battle import Battle
from rules.battle.command_events import Edited, Moved, TurnEnded
from rules.battle.commands import (
    Attack,
    DropItem,
    EditCombatant,
    EndTurn,
    MoveCombatant,
    ReadyWeapon,
    TurnCombatant,
)
from rules.battle.model import Status
from rules.battle.scatter import PieceLanded
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import AttackDeclared, AttackResolved, PiecesLeftHand
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice, block_base
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import sheet_of
from tests.app.demo_panes import SEED, demo_controller, demo_state, show_pane

LOG = ruleset_ui("000").log_formatter


@pytest.fixture
def controller(qtbot) -> BattleController:  # qtbot: the QApplication exists
    return demo_controller()


@pytest.fixture
def combatants_pane(qtbot, controller) -> CombatantsPane:
    pane = CombatantsPane(controller)
    show_pane(qtbot, pane, 290, 300)
    return pane


@pytest.fixture
def inspector(qtbot, controller) -> InspectorPane:
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    pane.resize(290, 560)
    pane.show()
    return pane


def sheet(pane: InspectorPane) -> Seed000InspectorSection:
    """The inspector's seed 000 section (the demo battle is seed 000's)."""
    assert isinstance(pane.section, Seed000InspectorSection)
    return pane.section


@pytest.fixture
def log_pane(qtbot, controller) -> CombatLogPane:
    pane = CombatLogPane(controller)
    qtbot.addWidget(pane)
    pane.resize(300, 260)
    pane.show()
    qtbot.waitExposed(pane)
    return pane


def melee(controller: BattleController) -> None:
    """Bring the sword-and-shield fighter (c1) next to the flail fighter (c3)."""
    c3 = controller.state.combatant("c3")
    controller.execute(MoveCombatant("c1", c3.hex + Hex(0, -1)))


# --- every pane ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cls", "name", "title"),
    [
        (CombatantsPane, "combatantsPane", "Combatants"),
        (InspectorPane, "inspectorPane", "Inspector"),
        (AttackPane, "attackPane", "Attack"),
        (CombatLogPane, "combatLogPane", "Combat log"),
    ],
)
def test_panes_are_docks_with_stable_names_that_fit_a_laptop(qtbot, controller, cls, name, title):
    pane = cls(controller)
    qtbot.addWidget(pane)
    assert isinstance(pane, QDockWidget)
    assert pane.objectName() == name
    assert pane.windowTitle() == title
    assert pane.minimumWidth() <= 300
    assert pane.minimumSizeHint().width() <= 300
    controller.select("c1")
    controller.set_target("c3")
    assert pane.minimumSizeHint().width() <= 300


def test_panes_follow_a_replaced_battle(qtbot, controller):
    panes = [cls(controller) for cls in (CombatantsPane, InspectorPane, AttackPane, CombatLogPane)]
    for pane in panes:
        qtbot.addWidget(pane)
    controller.select("c1")
    controller.execute(EditCombatant("c1", hp=3))
    controller.replace_battle(Battle(demo_state(), SEED, get_ruleset))
    combatants, inspector, _attack, log = panes
    assert combatants.model.index(0, CombatantsModel.HP).data() == "12/12"
    assert [r.kind for r in log.rows] == [RowKind.TURN]
    assert inspector.combatant == controller.state.combatant("c1")


# --- combatants -----------------------------------------------------------------------------


def _row_rect_centre(pane: CombatantsPane, row: int) -> QPoint:
    return pane.table.visualRect(pane.model.index(row, 0)).center()


def test_combatants_list_shows_every_fighter(combatants_pane, controller):
    model = combatants_pane.model
    assert model.rowCount() == len(controller.state.combatants)
    for row, c in enumerate(controller.state.combatants):
        assert model.index(row, 0).data(ID_ROLE) == c.id
        assert model.index(row, CombatantsModel.NAME).data() == c.name
        assert model.index(row, CombatantsModel.HP).data() == f"{c.hp}/{c.fighter.hit_points}"
        health, status = model.index(row, CombatantsModel.HP).data(HP_ROLE)
        assert health.fraction == Fraction(max(0, c.hp), c.fighter.hit_points)
        assert status is c.status
        assert model.index(row, CombatantsModel.STATUS).data() == c.status.value
        assert model.index(row, CombatantsModel.FACING).data() == c.facing.label
        assert model.index(row, CombatantsModel.NAME).data(Qt.ItemDataRole.DecorationRole)


def test_clicking_a_row_selects_in_the_controller(qtbot, combatants_pane, controller):
    with qtbot.waitSignal(controller.selection_changed) as signal:
        qtbot.mouseClick(
            combatants_pane.table.viewport(),
            Qt.MouseButton.LeftButton,
            pos=_row_rect_centre(combatants_pane, 2),
        )
    expected = controller.state.combatants[2].id
    assert signal.args == [expected]
    assert controller.selected_id == expected


def test_the_list_follows_the_selection_made_elsewhere(combatants_pane, controller):
    controller.select("c4")
    table = combatants_pane.table
    assert table.currentIndex().row() == 3
    assert [i.row() for i in table.selectionModel().selectedRows()] == [3]
    controller.select(None)
    assert table.selectionModel().selectedRows() == []
    assert controller.selected_id is None  # following did not select anything back


def test_ctrl_click_and_menu_set_the_target_without_changing_the_selection(
    qtbot, combatants_pane, controller
):
    controller.select("c1")
    qtbot.mouseClick(
        combatants_pane.table.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ControlModifier,
        _row_rect_centre(combatants_pane, 2),
    )
    assert controller.target_id == "c3"
    assert controller.selected_id == "c1"
    assert combatants_pane.model.index(2, 0).data().startswith("◎ ")
    combatants_pane.set_target_row(3)  # what the context menu's action does
    assert controller.target_id == "c4"
    combatants_pane.set_target_row(0)  # the selected fighter cannot be its own target
    assert controller.target_id == "c4"
    assert combatants_pane.clear_target_button.isEnabled()
    qtbot.mouseClick(combatants_pane.clear_target_button, Qt.MouseButton.LeftButton)
    assert controller.target_id is None


def test_the_list_shows_changes_from_commands(combatants_pane, controller):
    controller.execute(EditCombatant("c3", hp=-2, status=Status.UNCONSCIOUS))
    controller.execute(TurnCombatant("c3", controller.state.combatant("c3").facing.turned(2)))
    c3 = controller.state.combatant("c3")
    model = combatants_pane.model
    assert model.index(2, CombatantsModel.HP).data() == f"-2/{c3.fighter.hit_points}"
    assert model.index(2, CombatantsModel.STATUS).data() == "unconscious"
    assert model.index(2, CombatantsModel.FACING).data() == c3.facing.label


# --- inspector ------------------------------------------------------------------------------


def test_inspector_without_selection(inspector):
    assert inspector.combatant is None
    assert not inspector.apply_button.isEnabled()
    assert not inspector.turn_left.isEnabled()
    assert inspector.name_label.text() == "No fighter selected"


def test_inspector_shows_the_selected_fighters_numbers(inspector, controller):
    controller.select("c1")
    c = controller.state.combatant("c1")
    f = c.fighter
    seed000 = sheet_of(f)
    ruleset = ruleset_of(controller.state)
    stats = sheet(inspector).stats
    assert inspector.name_label.text() == c.name
    assert stats.value("st") == str(seed000.attributes.st)
    assert stats.value("dx") == str(seed000.attributes.dx)
    assert stats.value("iq") == str(seed000.attributes.iq)
    assert stats.value("ht") == str(seed000.attributes.ht)
    assert stats.value("hp") == f"{c.hp}/{f.hit_points}"
    assert stats.value("move") == str(f.move)
    dodge = defense_at_rest(c, DefenseChoice(DefenseKind.DODGE), ruleset)
    assert stats.value("dodge") == str(dodge.value)
    assert stats.value("pd") == str(ruleset.passive_defense(f, Arc.FRONT).total)

    # Block: 2/3 of the shield skill, as rules.sets.seed000.defense computes it.
    assert f.shield is not None
    assert not seed000.combat_reflexes
    block = defense_at_rest(c, DefenseChoice(DefenseKind.BLOCK), ruleset)
    shield_skill = seed000.skill(seed000.shield_skill)
    assert block.value == block_base(f).value == math.floor(2 * shield_skill / 3)
    shield_text = sheet(inspector).shield_label.text()
    assert f.shield.name in shield_text
    assert f"PD {f.shield.pd}" in shield_text
    assert f"block <b>{block.value}</b>" in shield_text

    assert f.armor is not None
    assert f"PD {f.armor.pd} · DR {f.armor.dr}" in sheet(inspector).armor_label.text()

    weapons = sheet(inspector).weapons_label.text()
    for w in f.weapons:
        assert w.name in weapons
        assert f"{w.skill} {seed000.skill(w.skill)}" in weapons
        parry = defense_at_rest(c, DefenseChoice(DefenseKind.PARRY, w.key), ruleset)
        assert f"parry ({w.parry.value}) <b>{parry.value}</b>" in weapons
        for mode in w.modes:
            dice = ruleset.weapon_damage(mode.damage, seed000.attributes.st)
            assert f"{mode.name}: {mode.damage} ({dice}) · reach {mode.reach}" in weapons
    hands = sheet(inspector).hands_label.text()
    assert "Right-handed" in hands
    assert "shield on the left" in hands


def test_inspector_shows_handedness_of_a_left_handed_fighter(inspector, controller):
    controller.select("c3")
    f = controller.state.combatant("c3").fighter
    assert f.handedness.value == "left"
    assert "Left-handed: weapon in the left hand, shield on the right" in (
        sheet(inspector).hands_label.text()
    )


def test_editing_hp_executes_edit_combatant(qtbot, inspector, controller):
    controller.select("c2")
    before = controller.state.combatant("c2")
    assert not inspector.apply_button.isEnabled()
    inspector.hp_spin.setValue(before.hp - 4)
    assert inspector.apply_button.isEnabled()
    qtbot.mouseClick(inspector.apply_button, Qt.MouseButton.LeftButton)
    assert controller.battle.commands[-1] == EditCombatant("c2", hp=before.hp - 4)
    assert controller.state.combatant("c2").hp == before.hp - 4
    assert sheet(inspector).stats.value("hp") == f"{before.hp - 4}/{before.fighter.hit_points}"
    assert not inspector.apply_button.isEnabled()


def test_editing_status_and_hp_with_enter(qtbot, inspector, controller):
    controller.select("c2")
    inspector.status_combo.setCurrentIndex(inspector.status_combo.findData(Status.STUNNED))
    inspector.hp_spin.lineEdit().selectAll()
    qtbot.keyClicks(inspector.hp_spin.lineEdit(), "5")
    qtbot.keyClick(inspector.hp_spin.lineEdit(), Qt.Key.Key_Return)
    assert controller.battle.commands[-1] == EditCombatant("c2", hp=5, status=Status.STUNNED)
    assert controller.state.combatant("c2").status is Status.STUNNED


def test_turn_buttons_execute_turn_combatant(qtbot, inspector, controller):
    controller.select("c1")
    facing = controller.state.combatant("c1").facing
    qtbot.mouseClick(inspector.turn_right, Qt.MouseButton.LeftButton)
    assert controller.battle.commands[-1] == TurnCombatant("c1", facing.turned(1))
    qtbot.mouseClick(inspector.turn_left, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(inspector.turn_left, Qt.MouseButton.LeftButton)
    assert controller.state.combatant("c1").facing == facing.turned(-1)
    assert f"facing {facing.turned(-1).label}" in inspector.place_label.text()


# --- event_text -------------------------------------------------------------------------------


def _attack_events(controller: BattleController):
    melee(controller)
    command = attack_command(
        "c1",
        "c3",
        AttackOptions(
            "broadsword",
            "swing",
            defenses=(DefenseChoice(DefenseKind.BLOCK), DefenseChoice(DefenseKind.DODGE)),
        ),
    )
    return controller.execute(command)


def test_event_text_groups_an_attack_into_one_row(controller):
    events = _attack_events(controller)
    assert events
    rows = rows_for_events(events, LOG)
    assert len(rows) == 1
    row = rows[0]
    assert row.kind is RowKind.ATTACK
    assert row.events == events
    assert isinstance(row.events[0], AttackDeclared)
    assert any(isinstance(e, AttackResolved) for e in row.events)
    assert row.lines[0].tone is Tone.TITLE
    for line, event in zip(row.lines, events, strict=True):
        assert line.detail == event.describe()
        assert line.citation == (str(event.citation) if event.citation else "")
    c1, c3 = controller.state.combatant("c1"), controller.state.combatant("c3")
    assert set(row.hexes) == {c1.hex, c3.hex}
    assert row.combatants == ("c1", "c3")
    text = row.plain_text()
    for event in events:
        assert event.describe() in text


def test_event_text_single_events_and_turn_separators(controller):
    start = controller.state.combatant("c2").hex
    moved = controller.execute(MoveCombatant("c2", start + Hex(0, 1)))
    ended = controller.execute(EndTurn())
    edited = controller.execute(EditCombatant("c2", hp=1))
    rows = rows_for_events((*moved, *ended, *edited), LOG)
    assert [r.kind for r in rows] == [RowKind.EVENT, RowKind.TURN, RowKind.EVENT]
    assert isinstance(rows[0].events[0], Moved)
    assert rows[0].hexes == moved[0].involved_hexes()
    assert isinstance(rows[1].events[0], TurnEnded)
    assert rows[1].title == "Round 2"
    assert isinstance(rows[2].events[0], Edited)
    assert rows[2].title == edited[0].describe()
    assert turn_separator(1).title == "Round 1"


def test_a_stand_alone_event_ends_an_attack_group(controller):
    attack = _attack_events(controller)
    ended = controller.execute(EndTurn())
    rows = rows_for_events((*attack, *ended), LOG)
    assert [r.kind for r in rows] == [RowKind.ATTACK, RowKind.TURN]


# --- combat log -------------------------------------------------------------------------------


def test_log_renders_each_command_as_it_happens(log_pane, controller):
    assert [r.kind for r in log_pane.rows] == [RowKind.TURN]
    events = _attack_events(controller)
    controller.execute(EndTurn())
    kinds = [r.kind for r in log_pane.rows]
    assert kinds == [RowKind.TURN, RowKind.EVENT, RowKind.ATTACK, RowKind.TURN]
    assert log_pane.rows[2].events == events
    assert log_pane.rows == (turn_separator(1), *rows_for_events(controller.battle.events, LOG))


def test_log_rebuilds_on_reset(qtbot, controller):
    _attack_events(controller)
    pane = CombatLogPane(controller)
    qtbot.addWidget(pane)
    assert pane.rows == (turn_separator(1), *rows_for_events(controller.battle.events, LOG))
    assert any(r.kind is RowKind.ATTACK for r in pane.rows)


def test_hovering_an_entry_highlights_its_hexes(qtbot, log_pane, controller):
    _attack_events(controller)
    row = len(log_pane.rows) - 1
    assert log_pane.rows[row].kind is RowKind.ATTACK
    highlighted: list[object] = []
    controller.highlight_requested.connect(highlighted.append)
    rect = log_pane.view.visualRect(log_pane.model.index(row, 0))
    qtbot.mouseMove(log_pane.view.viewport(), rect.center())
    assert highlighted, "moving the mouse over the entry highlighted nothing"
    assert highlighted[-1] == log_pane.rows[row].hexes
    log_pane.hover_row(-1)
    assert highlighted[-1] == ()


def test_log_scrolls_to_the_newest_entry(qtbot, log_pane, controller):
    c2 = controller.state.combatant("c2").hex
    for i in range(30):
        controller.execute(MoveCombatant("c2", c2 + Hex(0, i % 2)))
    qtbot.wait(10)
    bar = log_pane.view.verticalScrollBar()
    assert bar.maximum() > 0
    assert bar.value() == bar.maximum()


def test_copy_puts_the_entries_on_the_clipboard(qtbot, log_pane, controller):
    events = _attack_events(controller)
    log_pane.copy()  # nothing selected: everything
    text = QApplication.clipboard().text()
    for event in events:
        assert event.describe() in text
    assert "Round 1" in text
    log_pane.view.selectionModel().select(
        log_pane.model.index(1, 0),
        log_pane.view.selectionModel().SelectionFlag.ClearAndSelect,
    )
    log_pane.copy_action.trigger()
    assert QApplication.clipboard().text() == log_pane.rows[1].plain_text()


def test_ctrl_c_in_the_log_copies_the_selected_entry(qtbot, log_pane, controller):
    _attack_events(controller)
    view = log_pane.view
    view.setFocus()
    view.selectionModel().select(
        log_pane.model.index(2, 0), view.selectionModel().SelectionFlag.ClearAndSelect
    )
    QApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == log_pane.rows[2].plain_text()
    assert "\n" in QApplication.clipboard().text()  # the whole attack, not its title


def test_a_thrown_weapon_is_logged_as_a_throw_not_a_loss() -> None:
    """000 MISSILE AND THROWN WEAPONS: the knife leaves the hand on purpose; the log
    says where it lands, plainly, not as a mishap."""
    lines: dict[str, list[tuple[str, Tone]]] = {"on target": [], "wide": []}
    for seed in range(60):
        battle = load_demo_battle(seed)
        battle.execute(DropItem("c2", "long-spear"))  # the knife at his belt: drawn
        battle.execute(ReadyWeapon("c2", "knife"))
        battle.execute(Attack("c2", "c4", AttackOptions("knife", "throw")))
        events = list(battle.events)
        (left,) = [e for e in events if isinstance(e, PiecesLeftHand)]
        landing = [e for e in events if isinstance(e, PieceLanded)]
        line = line_for(left, LOG)
        kind = "on target" if "lands in the target's hex" in line.text else "wide"
        lines[kind].append((line.text, line.tone))
        if kind == "on target":
            assert landing and "lands in the target's hex" in line_for(landing[0], LOG).text
    assert lines["on target"] and lines["wide"]
    text, tone = lines["on target"][0]
    assert text == "Spearman's Knife, thrown at Fencer, lands in the target's hex"
    assert tone is Tone.PLAIN
    text, tone = lines["wide"][0]
    assert text == "Spearman's Knife, thrown at Fencer, lands wide of the target (1d3-1 hexes)"
    assert tone is Tone.PLAIN
