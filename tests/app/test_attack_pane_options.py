"""The attack pane's further options (issue 3): each widget sets its
``AttackOptions`` field, the odds shown are ``rules.sets.seed000.odds`` to the digit, a whole
exchange runs from the keyboard, mnemonics don't clash, and the pane renders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QMainWindow, QWidget

from app.controller import BattleController
from app.event_text import RowKind
from app.panes.combat_log import CombatLogPane
from app.rulesets.seed000.attack_pane import AttackPane, odds_rows, p_down
from app.rulesets.seed000.attack_parts import injury_text, percent
from rules.battle.commands import Attack, SetPosture, SetRulesetOptions
from rules.battle.model import Posture
from rules.sets.registry import ruleset_of
from rules.sets.seed000.attack import (
    AttackOptions,
    Seed000Answer,
    SubdueMode,
    WeaponAttack,
    plan_attack,
)
from rules.sets.seed000.attack_steps import whole_options
from rules.sets.seed000.conditions import SelectedCondition
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.odds import attack_odds
from rules.sets.seed000.sheet import sheet_of
from tests.app.test_attack_pane import choose, make_pane, untick_defenses


@pytest.fixture
def ready(qtbot) -> tuple[AttackPane, BattleController]:
    """c1 (broadsword and shield) next to c3 (morningstar), c3 targeted, its
    default defense taken back."""
    pane, controller = make_pane(qtbot)
    controller.select("c1")
    controller.set_target("c3")
    untick_defenses(qtbot, pane)
    pane.more.set_expanded(True)
    return pane, controller


def base_options(pane: AttackPane, **changes: object) -> AttackOptions:
    options = AttackOptions(
        weapon_key=pane.weapon_combo.currentData(), mode=pane.mode_combo.currentData()
    )
    return AttackOptions(**{**options.__dict__, **changes})


def test_untouched_widgets_make_the_default_options(qtbot):
    """A new pair starts from the ruleset's default attack: its weapon and mode,
    and the defender's likeliest defense (the flail fighter blocks)."""
    pane, controller = make_pane(qtbot)
    controller.select("c1")
    assert controller.target_id == "c3"
    default = ruleset_of(controller.state).attacks.default_attack(controller.state, "c1", "c3")
    assert default == AttackOptions(weapon_key="broadsword", mode="swing")
    block = (DefenseChoice(DefenseKind.BLOCK),)
    assert pane.current_options() == whole_options(default, Seed000Answer(block))


def test_each_check_box_sets_its_field(qtbot, ready):
    pane, _controller = ready
    for check, field in (
        (pane.above_check, "from_above"),
        (pane.acrobatic_check, "acrobatic_dodge"),
        (pane.all_out_check, "all_out_defense"),
        (pane.off_hand_check, "off_hand"),
    ):
        assert check.isEnabled(), field
        check.setChecked(True)
        assert getattr(pane.current_options(), field) is True, field
        check.setChecked(False)
        assert getattr(pane.current_options(), field) is False, field


def test_random_location_rolls_instead_of_aiming(ready):
    pane, _controller = ready
    choose(pane.location_combo, pane.location_combo.itemData(2))
    aimed = pane.location_combo.currentData()
    assert pane.current_options().location == aimed
    pane.random_check.setChecked(True)
    assert not pane.location_combo.isEnabled()
    assert pane.current_options() == base_options(pane, random_location=True, location=None)
    pane.random_check.setChecked(False)
    assert pane.location_combo.isEnabled()
    assert pane.current_options().location == aimed


def test_conditions_of_both_sides_with_values_and_groups(ready):
    pane, _controller = ready
    picker = pane.conditions
    picker.pick("bad_light", -3)
    picker.pick("stationary")
    assert pane.current_options().conditions == (
        SelectedCondition("bad_light", -3),
        SelectedCondition("stationary"),
    )
    # One light condition at a time: total darkness replaces bad light.
    picker.pick("total_darkness")
    assert [c.key for c in pane.current_options().conditions] == [
        "total_darkness",
        "stationary",
    ]
    # A fixed condition has no value to set.
    picker.tree.setCurrentItem(picker.item("total_darkness"))
    assert not picker.value_spin.isEnabled()
    picker.tree.setCurrentItem(picker.item("bad_footing"))
    assert picker.value_spin.isEnabled()
    # The filter hides what does not match.
    picker.search_edit.setText("foot")
    assert not picker.item("bad_footing").isHidden()
    assert picker.item("bad_light").isHidden()
    picker.clear()
    assert pane.current_options().conditions == ()


def test_automatic_and_ranged_only_conditions_are_not_offered(ready):
    keys = {c.key for c in ready[0].conditions.conditions()}
    assert "off_hand" not in keys  # computed by the rules
    assert "target_kneeling" not in keys  # ranged attacks only
    assert {"bad_light", "target_deep_crouch"} <= keys


def test_strike_at_a_weapon(ready):
    pane, _controller = ready
    assert not pane.weapon_attack_combo.isEnabled()
    choose(pane.target_weapon_combo, "morningstar")
    assert pane.weapon_attack_combo.isEnabled()
    choose(pane.weapon_attack_combo, WeaponAttack.DISARM)
    assert pane.current_options() == base_options(
        pane, target_weapon_key="morningstar", weapon_attack=WeaponAttack.DISARM
    )
    choose(pane.weapon_attack_combo, WeaponAttack.BREAK)
    assert pane.current_options().weapon_attack is WeaponAttack.BREAK
    choose(pane.target_weapon_combo, None)
    assert pane.current_options() == base_options(pane)


def test_subdue_modes_and_pulled_st(ready):
    pane, controller = ready
    st = sheet_of(controller.state.combatant("c1")).attributes.st
    assert not pane.pulled_st_spin.isEnabled()
    choose(pane.subdue_combo, SubdueMode.PULLED)
    assert pane.pulled_st_spin.isEnabled()
    assert pane.pulled_st_spin.maximum() == st
    pane.pulled_st_spin.setValue(st - 3)
    assert pane.current_options() == base_options(
        pane, subdue=SubdueMode.PULLED, pulled_st=st - 3
    )
    choose(pane.subdue_combo, SubdueMode.FLAT)
    assert not pane.pulled_st_spin.isEnabled()
    assert pane.current_options() == base_options(pane, subdue=SubdueMode.FLAT)


def test_the_pane_plans_what_it_shows(ready):
    """Every option together still gives the plan ``plan_attack`` gives."""
    pane, controller = ready
    pane.dodge_check.setChecked(True)
    pane.all_out_check.setChecked(True)
    pane.conditions.pick("bad_footing", -2)
    state = controller.state
    options = pane.current_options()
    if pane.plan is not None:
        assert pane.plan == plan_attack(
            state.combatant("c1"), state.combatant("c3"), options, ruleset_of(state)
        )
    else:
        assert pane.error


# --- odds -----------------------------------------------------------------------------------


def shown_odds(pane: AttackPane) -> dict[str, str]:
    """The odds the panel shows, once they are worked out."""
    pane.odds  # noqa: B018 (waits for the odds under way and shows them)
    return {row.key: pane.odds_panel.value(row.key) for row in pane.odds_panel.rows}


def expected_odds(controller: BattleController, options: AttackOptions) -> dict[str, str]:
    state = controller.state
    attacker, defender = state.combatant("c1"), state.combatant("c3")
    plan = plan_attack(attacker, defender, options, ruleset_of(state))
    odds = attack_odds(plan, attacker, defender, ruleset_of(state))
    expected = {
        "critical_hit": percent(odds.p_critical_hit),
        "hit": percent(odds.p_hit),
        "miss": percent(odds.p_miss),
        "critical_miss": percent(odds.p_critical_miss),
        "injury": injury_text(odds.expected_injury),
        "down": percent(p_down(odds)),
    }
    for i, p in enumerate(odds.p_stopped_by):
        expected[f"stopped_{i}"] = percent(p)
    return expected


def test_odds_shown_are_the_exact_odds_of_the_plan(ready):
    pane, controller = ready
    assert shown_odds(pane) == expected_odds(controller, pane.current_options())
    pane.dodge_check.setChecked(True)
    pane.parry_check.setChecked(True)
    options = pane.current_options()
    assert [d.kind for d in options.defenses] == [DefenseKind.DODGE, DefenseKind.PARRY]
    shown = shown_odds(pane)
    assert set(shown) >= {"stopped_0", "stopped_1"}
    assert shown == expected_odds(controller, options)
    odds = pane.odds
    assert tuple(pane.odds_panel.rows) == odds_rows(odds)


def test_odds_follow_every_change(ready):
    pane, controller = ready
    before = shown_odds(pane)
    pane.extra_spin.setValue(-6)
    after = shown_odds(pane)
    assert after != before
    assert after == expected_odds(controller, pane.current_options())
    pane.conditions.pick("bad_light", -2)
    assert shown_odds(pane) == expected_odds(controller, pane.current_options())


def test_odds_are_cleared_when_the_attack_is_refused(ready):
    pane, controller = ready
    controller.set_target("c4")  # out of reach
    assert pane.plan is None
    assert pane.odds is None
    assert pane.odds_panel.rows == ()


def test_odds_follow_typing_without_holding_up_the_window(ready, qtbot):
    """Each change asks for new odds off the GUI thread: the panel says they are
    being worked out, and only the last change's odds arrive."""
    pane, controller = ready
    pane.dodge_check.setChecked(True)
    for value in range(-5, 6):
        pane.extra_spin.setValue(value)
    assert pane.odds_panel.note.text().startswith("Working out") or pane.odds_panel.rows
    qtbot.waitUntil(lambda: bool(pane.odds_panel.rows), timeout=30000)
    assert shown_odds(pane) == expected_odds(controller, pane.current_options())


# --- keyboard -------------------------------------------------------------------------------


def press(qtbot, key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    widget = QApplication.focusWidget()
    assert widget is not None
    qtbot.keyClick(widget, key, modifier)


def test_a_whole_exchange_from_the_keyboard(qtbot):
    pane, controller = make_pane(qtbot, own=False)
    log = CombatLogPane(controller)
    window = QMainWindow()
    qtbot.addWidget(window)
    window.setCentralWidget(QWidget())
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, pane)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, log)
    window.resize(1000, 760)
    with qtbot.waitActive(window):
        window.show()
        window.activateWindow()
    count = len(controller.battle.commands)

    pane.attacker_combo.setFocus()
    press(qtbot, Qt.Key.Key_Down)  # the first fighter, c1
    assert controller.selected_id == "c1"
    press(qtbot, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is pane.target_combo
    while controller.target_id != "c3":
        press(qtbot, Qt.Key.Key_Down)
    # Tab to the dodge and tick it with Space.
    while QApplication.focusWidget() is not pane.dodge_check:
        press(qtbot, Qt.Key.Key_Tab)
    press(qtbot, Qt.Key.Key_Space)
    assert pane.dodge_check.isChecked()
    # Open More options from the keyboard and tick a condition in the tree.
    while QApplication.focusWidget() is not pane.more.button:
        press(qtbot, Qt.Key.Key_Tab)
    press(qtbot, Qt.Key.Key_Space)
    assert pane.more.is_expanded()
    press(qtbot, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is pane.conditions.search_edit
    qtbot.keyClicks(pane.conditions.search_edit, "footing")
    press(qtbot, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is pane.conditions.tree
    pane.conditions.tree.setCurrentItem(pane.conditions.item("bad_footing"))
    press(qtbot, Qt.Key.Key_Space)
    assert pane.current_options().conditions == (SelectedCondition("bad_footing", -1),)
    # the flail fighter's default block, then the dodge ticked
    assert pane.current_options().defenses == (
        DefenseChoice(DefenseKind.BLOCK),
        DefenseChoice(DefenseKind.DODGE),
    )
    odds_before = pane.odds
    assert odds_before is not None

    press(qtbot, Qt.Key.Key_Return)
    assert len(controller.battle.commands) == count + 1
    command = controller.battle.commands[-1]
    assert isinstance(command, Attack)
    assert command.choices.conditions == (SelectedCondition("bad_footing", -1),)
    attack_rows = [r for r in log.rows if r.kind is RowKind.ATTACK]
    assert attack_rows and all(line.citation for line in attack_rows[-1].lines[1:])


# --- mnemonics, hit locations, looks ----------------------------------------------------------

_MNEMONIC = re.compile(r"&([^&\s])")


def mnemonics(widgets: list[QWidget]) -> list[str]:
    found = []
    for w in widgets:
        text = w.text() if isinstance(w, QLabel | QAbstractButton) else ""
        if isinstance(w, QLabel) and w.buddy() is None:
            continue
        m = _MNEMONIC.search(text.replace("&&", ""))
        if m:
            found.append(m.group(1).lower())
    return found


def test_mnemonics_do_not_clash_in_the_main_window(qtbot, main_window):
    main_window.attack_pane.more.set_expanded(True)
    main_window.inspector_pane.raise_()
    letters = [_MNEMONIC.search(a.text()).group(1).lower()
               for a in main_window.menuBar().actions() if _MNEMONIC.search(a.text())]
    for pane in main_window.panes:
        visible = [w for w in pane.findChildren(QWidget) if w.isVisibleTo(main_window)]
        letters += mnemonics(visible)
    duplicates = sorted({x for x in letters if letters.count(x) > 1})
    assert duplicates == [], letters


def test_hit_location_table_selector(ready):
    pane, controller = ready
    combo = pane.hit_locations_combo
    assert combo.count() >= 2  # seed 000's table and seed 001's locations
    assert combo.isEnabled()
    choose(combo, combo.itemData(1))
    assert tuple(controller.state.ruleset_options) == tuple(combo.itemData(1))
    assert isinstance(controller.battle.commands[-1], SetRulesetOptions)


def test_the_pane_renders(qtbot, ready, tmp_path: Path):
    pane, _controller = ready
    pane.dodge_check.setChecked(True)
    pane.resize(300, 900)
    path = tmp_path / "attack.png"
    assert pane.grab().save(str(path))
    assert path.stat().st_size > 1000


def test_battlefield_modifiers_are_filled_in_and_can_be_unticked(ready):
    pane, controller = ready
    assert not pane.battlefield_list.isVisibleTo(pane)
    controller.execute(SetPosture("c1", Posture.KNEELING))
    assert pane.battlefield_list.count() == 1
    modifier = pane.battlefield_list.item(0).data(Qt.ItemDataRole.UserRole)
    assert modifier.value < 0 and "kneeling" in modifier.reason
    assert pane.current_options().extra_modifiers == (modifier,)
    assert modifier in pane.plan.modifiers
    pane.battlefield_list.item(0).setCheckState(Qt.CheckState.Unchecked)
    assert pane.current_options().extra_modifiers == ()
    assert modifier not in pane.plan.modifiers


def test_a_000_disarm_previews_the_contest(ready):
    """The preview shows the Quick Contest the roll will make, with the GM's
    modifier in the attacker's level, not an effective skill and damage."""
    pane, controller = ready
    choose(pane.target_weapon_combo, "morningstar")
    choose(pane.weapon_attack_combo, WeaponAttack.DISARM)
    pane.extra_spin.setValue(-3)
    pane.update_preview()
    state = controller.state
    plan = plan_attack(
        state.combatant("c1"), state.combatant("c3"), pane.current_options(), ruleset_of(state)
    )
    contest = plan.contest
    assert contest is not None
    assert any(m.value == -3 for m in contest.attacker.modifiers)
    text = pane.preview_label.text()
    assert f"Disarm contest: {contest.attacker.level} vs {contest.defender.level}" in text
    assert "effective skill" not in text and "damage" not in text
    for m in (*contest.attacker.modifiers, *contest.defender.modifiers):
        assert f"{m.value:+d}" in text
    odds = pane.odds
    assert odds is not None and odds.target == "contest"
    attacker, defender = state.combatant("c1"), state.combatant("c3")
    assert odds == attack_odds(plan, attacker, defender, ruleset_of(state))
