"""The attack pane: options from the widgets, the live preview against
``plan_attack``, refusals, the Roll button and keys, and the end-to-end attack
whose log and HP change must match a replay of the same battle."""

from __future__ import annotations

import itertools
from dataclasses import replace
from html import escape

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication, QComboBox, QMainWindow, QWidget

from app.controller import BattleController
from app.event_text import RowKind, rows_for_events
from app.panes.combat_log import CombatLogPane
from app.rulesets import ruleset_ui
from app.rulesets.seed000.attack_pane import SITUATIONAL_CITATION, SITUATIONAL_REASON, AttackPane
from app.rulesets.seed000.tables import seed000_tables
from hexmap import Hex
from rules.battle.battle import Battle, command_rng
from rules.battle.commands import (
    Attack,
    DropItem,
    MoveCombatant,
    ReadyWeapon,
    TurnCombatant,
)
from rules.battle.state import BattleState
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import AttackOptions, plan_attack
from rules.sets.seed000.attack_events import DamageDealt, DefenseRolled
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from tests.app.demo_panes import demo_state


def setup_commands(state: BattleState) -> list[MoveCombatant]:
    """The sword-and-shield fighter c1 steps next to the flail fighter c3."""
    return [MoveCombatant("c1", state.combatant("c3").hex + Hex(0, -1))]


def make_pane(
    qtbot, seed: int = 5, own: bool = True
) -> tuple[AttackPane, BattleController]:
    state = demo_state()
    controller = BattleController(Battle(state, seed, get_ruleset))
    for command in setup_commands(state):
        controller.execute(command)
    pane = AttackPane(controller)
    if own:  # else a window owns it and qtbot closes that
        qtbot.addWidget(pane)
        pane.resize(300, 640)
        pane.show()
    return pane, controller


@pytest.fixture
def pane_and_controller(qtbot) -> tuple[AttackPane, BattleController]:
    return make_pane(qtbot)


def choose(combo: QComboBox, data: object) -> None:
    """Pick an entry as the user would (emits the user signals)."""
    index = combo.findData(data)
    assert index >= 0, f"{data!r} not in {combo.objectName()}"
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def untick_defenses(qtbot, pane: AttackPane) -> None:
    """Take back the defender's default defense, as the GM would to announce
    others in an order of his own."""
    for check in (pane.dodge_check, pane.block_check, pane.parry_check):
        if check.isChecked():
            qtbot.mouseClick(check, Qt.MouseButton.LeftButton)
    assert pane.options() is None or pane.options().defenses == ()


def expected_plan(controller: BattleController, attacker: str, defender: str, options):
    state = controller.state
    return plan_attack(
        state.combatant(attacker), state.combatant(defender), options, ruleset_of(state)
    )


# --- who attacks whom ----------------------------------------------------------------------


def test_attacker_and_target_follow_the_controller(pane_and_controller):
    pane, controller = pane_and_controller
    assert pane.attacker_combo.currentData() is None
    assert not pane.roll_button.isEnabled()
    controller.select("c1")
    assert pane.attacker_combo.currentData() == "c1"
    # the foe in the broadsword's reach is the default target (rules.sets.targeting)
    assert pane.target_combo.currentData() == "c3"
    controller.set_target(None)
    assert not pane.roll_button.isEnabled()  # no target
    controller.set_target("c3")
    assert pane.target_combo.currentData() == "c3"
    targets = [pane.target_combo.itemData(i) for i in range(pane.target_combo.count())]
    assert targets == [None, "c2", "c3", "c4"]  # everyone but the attacker
    weapons = [pane.weapon_combo.itemData(i) for i in range(pane.weapon_combo.count())]
    assert weapons == [w.key for w in controller.state.combatant("c1").fighter.weapons]
    assert pane.plan is not None
    assert pane.roll_button.isEnabled()


def test_the_combos_drive_the_controller(pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    choose(pane.target_combo, "c4")
    assert controller.target_id == "c4"
    choose(pane.attacker_combo, "c2")
    assert controller.selected_id == "c2"
    assert pane.weapon_combo.currentData() == "long-spear"


def test_modes_follow_the_weapon(pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    weapon = controller.state.combatant("c1").fighter.weapon(pane.weapon_combo.currentData())
    modes = [pane.mode_combo.itemData(i) for i in range(pane.mode_combo.count())]
    assert modes == [m.name for m in weapon.modes]


def test_a_thrown_mode_shows_its_range(pane_and_controller):
    """000 MISSILE AND THROWN WEAPONS: the demo spearman's knife can be thrown, once
    he has dropped the two-handed spear and drawn it (rules.battle.hands)."""
    pane, controller = pane_and_controller
    controller.select("c2")
    assert pane.weapon_combo.findData("knife") < 0  # at his belt
    controller.execute(DropItem("c2", "long-spear"))
    controller.execute(ReadyWeapon("c2", "knife"))
    choose(pane.weapon_combo, "knife")
    combo = pane.mode_combo
    texts = {combo.itemData(i): combo.itemText(i) for i in range(combo.count())}
    assert "range 5" in texts["throw"] and "reach" not in texts["throw"]
    assert "reach C" in texts["thrust"]


def test_locations_come_from_the_ruleset(pane_and_controller):
    pane, controller = pane_and_controller
    system = seed000_tables(controller.state).hit_locations
    keys = [pane.location_combo.itemData(i) for i in range(pane.location_combo.count())]
    assert keys[0] is None  # the unaimed default
    assert keys[1:] == list(system.aim_keys(shielded=False))


# --- the preview ------------------------------------------------------------------------------


def test_preview_matches_plan_attack_for_the_same_inputs(qtbot, pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    controller.set_target("c3")
    choose(pane.mode_combo, "swing")
    choose(pane.location_combo, "head")
    untick_defenses(qtbot, pane)
    qtbot.mouseClick(pane.block_check, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pane.parry_check, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pane.dodge_check, Qt.MouseButton.LeftButton)
    pane.below_check.setChecked(True)
    pane.extra_spin.setValue(-2)
    qtbot.keyClicks(pane.reason_edit, "bad footing")

    parry_key = pane.parry_weapon_combo.currentData()
    options = AttackOptions(
        weapon_key="broadsword",
        mode="swing",
        location="head",
        defenses=(
            DefenseChoice(DefenseKind.BLOCK),
            DefenseChoice(DefenseKind.PARRY, parry_key),
            DefenseChoice(DefenseKind.DODGE),
        ),
        from_below=True,
        extra_modifiers=(Modifier(-2, "bad footing", SITUATIONAL_CITATION),),
    )
    assert pane.options() == options
    plan = expected_plan(controller, "c1", "c3", options)
    assert pane.plan == plan
    assert pane.error is None
    assert pane.roll_button.isEnabled()

    arc_text = pane.arc_label.text()
    assert plan.arc.value in arc_text
    assert controller.state.combatant("c3").name in arc_text
    preview = pane.preview_label.text()
    assert f"<b>{plan.effective_skill}</b>" in preview
    for m in plan.modifiers:
        assert _html(m.reason) in preview
        assert _html(str(m.citation)) in preview
    for number, d in enumerate(plan.defenses, start=1):
        assert f"<b>{d.value}</b></td><td><b>{number}. {d.kind.label}" in preview
        assert _html(d.base_reason) in preview
        for m in d.modifiers:
            assert _html(m.reason) in preview
        assert pane._value_labels[d.kind].text() == f"<b>{d.value}</b>"
    assert [pane._order_labels[k].text() for k in DefenseKind] == ["3rd", "1st", "2nd"]


def _html(text: str) -> str:
    return escape(text)


def test_preview_follows_the_defender_turning(pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    controller.set_target("c3")
    front = pane.plan
    assert front is not None
    c3 = controller.state.combatant("c3")
    controller.execute(TurnCombatant("c3", c3.facing.turned(1)))
    turned = pane.plan
    assert turned is not None
    assert turned == expected_plan(controller, "c1", "c3", pane.options())
    assert turned.arc != front.arc
    assert turned.arc.value in pane.arc_label.text()


def test_defense_order_is_the_order_ticked(qtbot, pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    controller.set_target("c3")
    untick_defenses(qtbot, pane)
    qtbot.mouseClick(pane.parry_check, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pane.dodge_check, Qt.MouseButton.LeftButton)
    kinds = [d.kind for d in pane.options().defenses]
    assert kinds == [DefenseKind.PARRY, DefenseKind.DODGE]
    qtbot.mouseClick(pane.parry_check, Qt.MouseButton.LeftButton)  # untick ...
    qtbot.mouseClick(pane.parry_check, Qt.MouseButton.LeftButton)  # ... and tick again
    kinds = [d.kind for d in pane.options().defenses]
    assert kinds == [DefenseKind.DODGE, DefenseKind.PARRY]
    assert [d.kind for d in pane.plan.defenses] == kinds
    # A new defender announces afresh: its own default defense (the fencer parries
    # with his rapier).
    controller.set_target("c4")
    assert pane.options().defenses == (DefenseChoice(DefenseKind.PARRY, "rapier"),)


def test_empty_reason_gets_a_default(pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    controller.set_target("c3")
    pane.extra_spin.setValue(3)
    assert pane.options().extra_modifiers == (
        Modifier(3, SITUATIONAL_REASON, SITUATIONAL_CITATION),
    )
    assert pane.plan.effective_skill == expected_plan(
        controller, "c1", "c3", pane.options()
    ).effective_skill


def test_a_refused_attack_shows_why_and_cannot_roll(qtbot, pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    controller.set_target("c4")  # the fencer is out of the broadsword's reach
    with pytest.raises(RulesError) as refusal:
        expected_plan(controller, "c1", "c4", pane.options())
    assert pane.plan is None
    assert pane.error == str(refusal.value)
    assert not pane.error_label.isHidden()
    assert str(refusal.value) in pane.error_label.text()
    assert not pane.roll_button.isEnabled()
    count = len(controller.battle.commands)
    pane.roll()
    qtbot.keyClick(pane.mode_combo, Qt.Key.Key_Return)
    assert len(controller.battle.commands) == count


def test_defenses_the_defender_lacks_are_disabled(pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c3")
    controller.set_target("c4")  # the fencer has no shield
    assert not controller.state.combatant("c4").fighter.shield
    assert not pane.block_check.isEnabled()
    assert pane.dodge_check.isEnabled()
    assert pane.parry_check.isEnabled()
    parry_weapons = [
        pane.parry_weapon_combo.itemData(i) for i in range(pane.parry_weapon_combo.count())
    ]
    assert parry_weapons == [w.key for w in controller.state.combatant("c4").fighter.weapons]


# --- rolling -----------------------------------------------------------------------------------


def first_seed_that_draws_blood(options: AttackOptions) -> int:
    """A fixed seed (the first that fits) for which this attack wounds c3."""
    for seed in range(1, 500):
        battle = Battle.replay(
            demo_state(), seed, setup_commands(demo_state()), rulesets=get_ruleset
        )
        result = battle.preview(attack_command("c1", "c3", options))
        if any(isinstance(e, DamageDealt) and e.damage.injury > 0 for e in result.events):
            return seed
    raise AssertionError("no seed below 500 wounds the flail fighter")


@pytest.mark.parametrize("defenses", [(), (DefenseKind.BLOCK, DefenseKind.DODGE)])
def test_end_to_end_attack_through_the_pane(qtbot, defenses):
    """Set the widgets, click Roll: the log rows are the resolution's events and the
    defender's HP is what a replay of the same battle and seed gives."""
    announced = tuple(DefenseChoice(k) for k in defenses)
    wanted = AttackOptions("broadsword", "swing", defenses=announced)
    seed = first_seed_that_draws_blood(wanted)
    pane, controller = make_pane(qtbot, seed)
    log = CombatLogPane(controller)
    qtbot.addWidget(log)
    controller.select("c1")
    controller.set_target("c3")
    choose(pane.weapon_combo, "broadsword")
    choose(pane.mode_combo, "swing")
    untick_defenses(qtbot, pane)
    checks = {DefenseKind.BLOCK: pane.block_check, DefenseKind.DODGE: pane.dodge_check}
    for kind in defenses:
        qtbot.mouseClick(checks[kind], Qt.MouseButton.LeftButton)
    assert pane.options() == wanted
    hp_before = controller.state.combatant("c3").hp
    index = len(controller.battle.commands)

    qtbot.mouseClick(pane.roll_button, Qt.MouseButton.LeftButton)

    command = attack_command("c1", "c3", wanted)
    assert controller.battle.commands[-1] == command
    replay = Battle.replay(demo_state(), seed, controller.battle.commands, rulesets=get_ruleset)
    before = Battle.replay(
        demo_state(), seed, controller.battle.commands[:-1], rulesets=get_ruleset
    ).state
    resolution = ruleset_of(before).resolution(before, "c1", "c3", wanted, command_rng(seed, index))

    # The defender's HP changed exactly as the resolution record says.
    after = controller.state.combatant("c3")
    assert after == replay.state.combatant("c3")
    # The battle also records whom each defense was against (TurnAction.target_id),
    # which the bare resolution leaves to it.
    def bare(c):
        return replace(
            c, actions_this_turn=tuple(replace(a, target_id=None) for a in c.actions_this_turn)
        )

    assert bare(after) == bare(resolution.defender_after)
    assert resolution.damage is not None
    assert after.hp == resolution.damage.hp_after == hp_before - resolution.damage.injury
    assert after.hp < hp_before

    # The log's newest row is this attack, event for event.
    row = log.rows[-1]
    assert row.kind is RowKind.ATTACK
    assert row.events == resolution.events == replay.events[-len(resolution.events):]
    assert rows_for_events(resolution.events, ruleset_ui("000").log_formatter) == (row,)
    rolled = [e for e in row.events if isinstance(e, DefenseRolled)]
    assert [e.kind for e in rolled] == [k for k in defenses][: len(rolled)]
    assert pane.last_label.text().startswith("Last roll: ")


def test_the_pane_refreshes_after_an_attack(qtbot, pane_and_controller):
    pane, controller = pane_and_controller
    controller.select("c1")
    controller.set_target("c3")
    qtbot.mouseClick(pane.dodge_check, Qt.MouseButton.LeftButton)
    dodge_before = pane.plan.defenses[0].value
    qtbot.mouseClick(pane.roll_button, Qt.MouseButton.LeftButton)
    assert isinstance(controller.battle.commands[-1], Attack)
    # The announced dodge now counts as made this turn: the next one is lower.
    assert pane.plan == expected_plan(controller, "c1", "c3", pane.options())
    assert pane.plan.defenses[0].value < dodge_before


def test_enter_rolls_inside_the_pane_and_ctrl_return_always_ends_the_turn(qtbot):
    """Enter in the pane rolls; Ctrl+Return is End Turn everywhere, the pane
    included, and never rolls (it used to, so after clicking Roll it made a second
    attack instead of ending the turn)."""
    pane, controller = make_pane(qtbot, own=False)
    window = QMainWindow()
    qtbot.addWidget(window)
    elsewhere = QWidget()
    elsewhere.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    window.setCentralWidget(elsewhere)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, pane)
    end_turn = QAction("End turn", window)
    end_turn.setShortcut(QKeySequence("Ctrl+Return"))
    window.addAction(end_turn)
    ended: list[bool] = []
    end_turn.triggered.connect(lambda: ended.append(True))
    window.resize(900, 700)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    controller.select("c1")
    controller.set_target("c3")
    count = len(controller.battle.commands)

    pane.mode_combo.setFocus()
    qtbot.keyClick(pane.mode_combo, Qt.Key.Key_Return)
    assert len(controller.battle.commands) == count + 1
    assert isinstance(controller.battle.commands[-1], Attack)
    assert ended == []

    pane.reason_edit.setFocus()
    qtbot.keyClick(pane.reason_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert len(controller.battle.commands) == count + 1  # no second attack
    assert ended == [True]

    elsewhere.setFocus()
    qtbot.keyClick(elsewhere, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert len(controller.battle.commands) == count + 1
    assert ended == [True, True]


def test_tab_order_runs_through_the_form(pane_and_controller):
    pane, _controller = pane_and_controller
    # The original form, in order, inside the pane's full order (which adds the
    # new options between them).
    core = [
        pane.attacker_combo,
        pane.target_combo,
        pane.weapon_combo,
        pane.mode_combo,
        pane.location_combo,
        pane.dodge_check,
        pane.block_check,
        pane.parry_check,
        pane.parry_weapon_combo,
        pane.below_check,
        pane.extra_spin,
        pane.reason_edit,
        pane.roll_button,
    ]
    order = list(pane.tab_order)
    assert [w for w in order if w in core] == core
    for a, b in itertools.pairwise(order):
        nxt = a.nextInFocusChain()
        # Skip what cannot take focus and the insides of a (a spin box's line edit).
        while nxt.focusPolicy() == Qt.FocusPolicy.NoFocus or a.isAncestorOf(nxt):
            nxt = nxt.nextInFocusChain()
        assert nxt is b or b.isAncestorOf(nxt), (a, b, nxt)


def test_a_defense_that_becomes_impossible_is_no_longer_announced(qtbot, pane_and_controller):
    """The flail fighter's morningstar (a 1/3 weapon) is unready after it was announced
    for a parry (000 PARRY): the next attack cannot keep that parry."""
    pane, controller = pane_and_controller
    controller.select("c1")
    controller.set_target("c3")
    untick_defenses(qtbot, pane)
    qtbot.mouseClick(pane.dodge_check, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(pane.parry_check, Qt.MouseButton.LeftButton)
    assert [d.kind for d in pane.options().defenses] == [DefenseKind.DODGE, DefenseKind.PARRY]
    qtbot.mouseClick(pane.roll_button, Qt.MouseButton.LeftButton)
    assert "morningstar" in controller.state.combatant("c3").unready
    assert not pane.parry_check.isEnabled()
    assert not pane.parry_check.isChecked()
    assert [d.kind for d in pane.options().defenses] == [DefenseKind.DODGE]
    assert pane.plan == expected_plan(controller, "c1", "c3", pane.options())
    assert pane.roll_button.isEnabled()
    assert pane.last_label.text().startswith("Last roll: ")


def test_enter_in_an_open_combo_list_picks_an_entry_and_does_not_roll(qtbot):
    pane, controller = make_pane(qtbot)
    controller.select("c1")
    controller.set_target("c3")
    count = len(controller.battle.commands)
    combo = pane.location_combo
    combo.showPopup()
    popup = QApplication.activePopupWidget()
    assert popup is not None
    view = combo.view()
    view.setCurrentIndex(combo.model().index(1, 0))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert len(controller.battle.commands) == count
    assert combo.currentIndex() == 1
    assert QApplication.activePopupWidget() is None


def test_the_roll_uses_the_plan_the_preview_made(qtbot, monkeypatch) -> None:
    """The pane previews the roll's own plan (``planned`` through the battle's
    steps): Roll plans nothing anew on the state the preview planned on (the
    pane then previews the next attack on the state after it)."""
    pane, controller = make_pane(qtbot)
    steps = seed000_tables(controller.state).steps  # type: ignore[attr-defined]
    planned_on: list[BattleState] = []
    plan = steps.plan

    def counting(*args: object) -> object:
        planned_on.append(args[0])  # type: ignore[arg-type]
        return plan(*args)

    monkeypatch.setattr(steps, "plan", counting)
    controller.select("c1")
    controller.set_target("c3")
    choose(pane.weapon_combo, "broadsword")
    choose(pane.mode_combo, "swing")
    before = controller.state
    previewed = sum(state is before for state in planned_on)
    assert pane.odds is not None and previewed
    qtbot.mouseClick(pane.roll_button, Qt.MouseButton.LeftButton)
    assert isinstance(controller.battle.commands[-1], Attack)
    assert controller.state is not before
    assert sum(state is before for state in planned_on) == previewed
