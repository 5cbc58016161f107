"""The attack pane never offers yesterday's attack (issue 22, "The turn carries the
GM" 2): the target defaults to a foe in reach, the nearest first, never an ally
or the attacker; weapon and mode are the ruleset's default attack for the new
attacker; the defender starts with its default defense; a blow with no defense
says so over Roll; an ally may still be attacked on purpose and is marked. In
seed 000's pane and in the generic form pane of seeds 002, 003 and 004."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.files import open_battle
from app.main_window import MainWindow, load_demo_battle
from app.panes.attack_form import AttackFormPane
from app.rulesets.seed000.attack_pane import AttackPane
from hexmap import Hex
from rules.battle.commands import MoveCombatant
from rules.sets.registry import ruleset_of
from rules.sets.seed000.attack import AttackOptions, DefenseChoice, DefenseKind, Seed000Answer
from rules.sets.seed000.attack_steps import whole_options
from tests.app.test_attack_pane import choose
from tests.app.turn_order_window import FENCER, FLAIL, SPEARMAN, SWORD, shown_window

BATTLES = Path(__file__).parents[2] / "assets" / "battles"


def seed000_pane(window: MainWindow) -> AttackPane:
    pane = window.attack_pane
    assert isinstance(pane, AttackPane)
    return pane


def notices(label: QLabel) -> str:
    """What the notice over Roll says ("" while it is hidden)."""
    return label.text() if label.isVisibleTo(label.window()) else ""


@pytest.fixture
def free_play(qtbot: QtBot, settings: QSettings) -> tuple[BattleController, AttackPane]:
    """The demo battle without a turn order in the window at 1366x768."""
    controller = BattleController(load_demo_battle(1))
    return controller, seed000_pane(shown_window(qtbot, controller, settings))


# --- the default target --------------------------------------------------------------------


def test_the_target_is_a_foe_in_reach_never_the_last_attackers(
    qtbot: QtBot, settings: QSettings
) -> None:
    """The demo's order: the fencer, the spearman (red), the flail fighter (blue)."""
    controller = BattleController(load_demo_battle(1, turn_order=True))
    window = shown_window(qtbot, controller, settings)
    pane = seed000_pane(window)
    window.tracker_pane.next_button.click()
    # the spearman's long spear reaches the fencer (2 hexes); his thrown knife the
    # flail fighter (3 hexes): the nearer foe is the target, not his ally beside him
    assert controller.selected_id == SPEARMAN and controller.target_id == FENCER
    assert pane.target_combo.currentData() == FENCER
    window.tracker_pane.next_button.click()
    # the flail fighter's morningstar reaches nobody: no target, not the fencer the
    # spearman aimed at (his own ally), and the pane says why
    assert controller.selected_id == FLAIL and controller.target_id is None
    assert pane.target_combo.currentData() is None
    assert "No foe within reach of Flail fighter" in pane.arc_label.text()
    assert not pane.roll_button.isEnabled()
    # he steps up to the sword-and-shield fighter: now a foe is in reach
    state = controller.state
    between = state.combatant(FLAIL).hex + Hex(0, -1)
    assert state.combatant(SWORD).hex.distance(between) == 1
    controller.execute(MoveCombatant(FLAIL, between))
    assert controller.target_id == SWORD and pane.roll_button.isEnabled()


def test_the_gm_still_attacks_an_ally_on_purpose_and_the_pane_marks_it(
    free_play: tuple[BattleController, AttackPane],
) -> None:
    controller, pane = free_play
    controller.select(SPEARMAN)
    assert controller.target_id == FENCER
    assert "ally" not in pane.target_combo.currentText()
    assert notices(pane.notice_label) == ""
    choose(pane.target_combo, SWORD)  # his own side's sword-and-shield fighter
    assert controller.target_id == SWORD
    assert pane.target_combo.currentText().endswith("· ally")
    assert "Sword-and-shield fighter is Spearman's ally." in notices(pane.notice_label)
    assert pane.roll_button.isEnabled()  # on purpose, it may be rolled


# --- weapon, mode and defenses ---------------------------------------------------------------


def test_weapon_mode_and_defense_are_the_rulesets_default_for_each_new_pair(
    qtbot: QtBot, free_play: tuple[BattleController, AttackPane]
) -> None:
    controller, pane = free_play
    # the sword-and-shield fighter steps next to the flail fighter
    flail = controller.state.combatant(FLAIL)
    controller.execute(MoveCombatant(SWORD, flail.hex + Hex(0, -1)))
    controller.select(FENCER)  # the fencer thrusts at the spearman ...
    controller.set_target(SPEARMAN)
    assert pane.mode_combo.currentData() == "thrust"
    controller.select(SWORD)  # ... and the broadsword swings, the ruleset's default
    assert controller.target_id == FLAIL
    default = ruleset_of(controller.state).attacks.default_attack(controller.state, SWORD, FLAIL)
    assert default == AttackOptions("broadsword", "swing")
    assert (pane.weapon_combo.currentData(), pane.mode_combo.currentData()) == (
        "broadsword", "swing",
    )  # fmt: skip
    # the flail fighter announces his default defense, a block with his shield
    assert pane.block_check.isChecked() and not pane.dodge_check.isChecked()
    likely = ruleset_of(controller.state).attacks.answers(controller.state, SWORD, FLAIL, default)[
        0
    ]
    assert likely == Seed000Answer((DefenseChoice(DefenseKind.BLOCK),))
    assert pane.options() == whole_options(default, likely)
    assert "No defense" not in notices(pane.notice_label)
    # with nothing ticked, Enter would roll a blow without defense: said in words
    qtbot.mouseClick(pane.block_check, Qt.MouseButton.LeftButton)
    assert pane.options() is not None and pane.options().defenses == ()
    assert "No defense: Flail fighter takes this blow" in notices(pane.notice_label)


# --- the generic attack form (seeds 002, 003, 004) -------------------------------------------


@pytest.fixture(params=["002", "003", "004"])
def form_window(request: pytest.FixtureRequest, qtbot: QtBot, settings: QSettings) -> MainWindow:
    controller = BattleController(open_battle(BATTLES / f"demo-{request.param}.hexfray"))
    return shown_window(qtbot, controller, settings)


def test_the_form_pane_opens_on_whose_turn_it_is_against_a_foe_in_reach(
    form_window: MainWindow,
) -> None:
    controller = form_window.controller
    pane = form_window.attack_pane
    assert isinstance(pane, AttackFormPane)
    state = controller.state
    attacker = state.combatant(state.active_id or "")
    assert controller.selected_id == attacker.id
    target = controller.combatant_or_none(controller.target_id)
    assert target is not None and target.side is not attacker.side
    assert pane.form is not None and pane.form.choices is not None  # in reach: rollable
    # an ally, chosen on purpose, is marked in the box and over Roll
    ally = next(c for c in state.combatants if c.side is attacker.side and c is not attacker)
    index = pane.target_combo.findData(ally.id)
    pane.target_combo.setCurrentIndex(index)
    pane.target_combo.activated.emit(index)
    assert controller.target_id == ally.id
    assert pane.target_combo.currentText().endswith("· ally")
    assert f"{ally.name} is {attacker.name}'s ally." in notices(pane.notice_label)


@pytest.mark.parametrize("key", ["002", "004"])
def test_the_form_pane_says_no_defense_before_the_roll(
    key: str, qtbot: QtBot, settings: QSettings
) -> None:
    controller = BattleController(open_battle(BATTLES / f"demo-{key}.hexfray"))
    window = shown_window(qtbot, controller, settings)
    pane = window.attack_pane
    assert isinstance(pane, AttackFormPane) and pane.form is not None
    defense = pane.form.field("defense")
    assert defense.value != "none"  # the defender's default defense
    assert "No defense" not in notices(pane.notice_label)
    pane.set_entry("defense", "none")
    defender = controller.state.combatant(controller.target_id or "")
    assert f"No defense: {defender.name}" in notices(pane.notice_label)
    assert pane.roll_button.isEnabled()
