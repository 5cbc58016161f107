"""The attack pane's aiming (issue 11 points 1, 7, 10 and 12): "Aim at" lists the
battle's hit location system and the key chosen reaches the located wound; a
chink is offered only where the rules allow it, with the reason shown; the
off-hand penalty, 000's knock-away disarm and the bare-handed parrying limb
have controls; the guarded area's box locks once the fighter has defended."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox

from app.controller import BattleController
from app.event_text import rows_for_events
from app.panes.inspector import InspectorPane
from app.rulesets import ruleset_ui
from app.rulesets.seed000.attack_pane import AttackPane
from app.rulesets.seed000.inspector_section import Seed000InspectorSection
from app.rulesets.seed000.tables import seed000_tables
from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import load_catalog, load_fighters
from rules.battle.commands import SetRulesetOptions
from rules.battle.model import Combatant, Side
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, WeaponAttack
from rules.sets.seed000.attack_events import WoundInflicted
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.commands import SetDefendedArea
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.stances import BodyArea
from rules.sets.seed000.tables import LOCATIONS_001
from tests.app.test_attack_pane import choose, make_pane, untick_defenses
from tests.rules.sheets import amend

LOG = ruleset_ui("000").log_formatter


def entries(combo: QComboBox) -> list[tuple[str, object, bool]]:
    """(text, data, enabled) of every entry."""
    model = combo.model()
    assert isinstance(model, QStandardItemModel)
    return [
        (combo.itemText(i), combo.itemData(i), model.item(i).isEnabled())
        for i in range(combo.count())
    ]


def log_text(controller: BattleController) -> str:
    """Every line of the combat log, short and in full."""
    rows = rows_for_events(controller.battle.events, LOG)
    return "\n".join(f"{line.text}\n{line.detail}" for row in rows for line in row.lines)


def ready_pane(qtbot, seed: int = 5) -> tuple[AttackPane, BattleController]:
    pane, controller = make_pane(qtbot, seed)
    controller.select("c1")  # broadsword and shield, next to c3 (morningstar, shield)
    controller.set_target("c3")
    pane.more.set_expanded(True)
    return pane, controller


# --- point 1 --------------------------------------------------------------------------------


def test_aim_at_lists_every_row_of_the_000_table_under_its_name(qtbot) -> None:
    pane, controller = ready_pane(qtbot)
    system = seed000_tables(controller.state).hit_locations
    listed = entries(pane.location_combo)
    assert [data for _t, data, _e in listed] == [None, *system.aim_keys(shielded=True)]
    texts = {data: text for text, data, _e in listed}
    assert texts[None] == "Torso (not aimed)"
    assert texts["jaw"] == "Jaw (-6)" and texts["eyes"] == "Eyes (-9)"
    assert texts["near_hand"] == "Weapon (near) hand (-6)"  # -4, -2 moving in melee
    assert texts["far_arm"] == "Shield (far) arm (-4)"  # c3 carries a shield
    enabled = {data: on for _t, data, on in listed}
    assert not enabled["armpit_vitals"]  # an impaling thrust only (note 10)
    tip = pane.location_combo.itemData(
        pane.location_combo.findData("armpit_vitals"), Qt.ItemDataRole.ToolTipRole
    )
    assert "note 10" in tip


def test_the_aim_chosen_reaches_the_wound_through_the_roll(qtbot) -> None:
    for seed in range(40):
        pane, controller = ready_pane(qtbot, seed)
        untick_defenses(qtbot, pane)  # the flail fighter's default block
        choose(pane.location_combo, "near_arm")
        assert pane.command() == attack_command(
            "c1", "c3", AttackOptions("broadsword", "swing", location="near_arm")
        )
        pane.roll()
        wounds = [e for e in controller.battle.events if isinstance(e, WoundInflicted)]
        if wounds:
            break
    else:
        raise AssertionError("no seed lands the aimed blow")
    assert wounds[0].wound.location == "near_arm"
    assert wounds[0].wound.label == "Weapon (near) arm"
    log = log_text(controller)
    assert "at the weapon (near) arm" in log and "Wound at the weapon (near) arm" in log


def test_the_001_option_lists_001_s_locations(qtbot) -> None:
    pane, controller = ready_pane(qtbot)
    choose(pane.location_combo, "jaw")
    controller.execute(SetRulesetOptions((LOCATIONS_001,)))
    listed = entries(pane.location_combo)
    keys = [data for _t, data, _e in listed]
    assert keys == [
        None, "vitals", "skull", "eye", "face", "neck", "groin", "arm", "leg", "hand", "foot",
        "shield arm", "shield hand",
    ]
    assert pane.location_combo.currentData() is None  # the 000 jaw is gone
    enabled = {data: on for _t, data, on in listed}
    assert not enabled["vitals"] and not enabled["eye"]  # a cutting swing may not
    assert enabled["skull"]
    texts = {data: text for text, data, _e in listed}
    assert texts["skull"] == "Skull (-7)" and texts["shield arm"] == "Shield arm (-4)"


# --- point 7 --------------------------------------------------------------------------------


def test_a_chink_is_offered_only_where_the_rules_allow_it(qtbot) -> None:
    pane, controller = ready_pane(qtbot)
    assert not pane.chink_check.isEnabled()
    assert pane.chink_hint.text() == "001 locations only"
    assert "seed 000 has no chinks" in pane.chink_check.toolTip()
    controller.execute(SetRulesetOptions((LOCATIONS_001,)))
    assert not pane.chink_check.isEnabled()  # the broadsword cuts
    assert pane.chink_hint.text() == "pierce or impale"
    assert "cannot aim at a chink" in pane.chink_check.toolTip()
    assert pane.current_options().chink is False
    controller.select("c2")  # the spearman's long spear impales
    controller.set_target("c1")
    choose(pane.weapon_combo, "long-spear")
    assert pane.chink_check.isEnabled() and pane.chink_hint.text() == ""
    pane.chink_check.setChecked(True)
    assert pane.current_options().chink is True


# --- point 12 -------------------------------------------------------------------------------


def test_the_off_hand_penalty_is_a_control(qtbot) -> None:
    pane, controller = ready_pane(qtbot)
    assert not pane.off_hand_training_spin.isEnabled()
    pane.off_hand_check.setChecked(True)
    assert pane.off_hand_training_spin.isEnabled()
    pane.off_hand_training_spin.setValue(1)
    options = pane.current_options()
    assert options.off_hand is True and options.off_hand_training == 1
    plan = pane.plan
    assert plan is not None
    assert [m.value for m in plan.modifiers if "off-hand" in m.reason] == [-3]
    pane.roll()
    log = log_text(controller)
    assert "-3 off-hand attack (lowered by training)" in log


def test_knock_away_is_offered_for_a_000_disarm(qtbot) -> None:
    pane, controller = ready_pane(qtbot)
    untick_defenses(qtbot, pane)  # a block cannot protect a weapon
    assert not pane.knock_away_check.isEnabled()
    choose(pane.target_weapon_combo, "morningstar")
    choose(pane.weapon_attack_combo, WeaponAttack.DISARM)
    assert pane.knock_away_check.isEnabled()
    pane.knock_away_check.setChecked(True)
    assert pane.current_options().knock_away is True
    assert pane.plan is not None and pane.plan.contest is not None
    choose(pane.weapon_attack_combo, WeaponAttack.BREAK)
    assert not pane.knock_away_check.isEnabled() and not pane.current_options().knock_away
    controller.execute(SetRulesetOptions((LOCATIONS_001,)))
    choose(pane.target_weapon_combo, "morningstar")
    choose(pane.weapon_attack_combo, WeaponAttack.DISARM)
    assert not pane.knock_away_check.isEnabled()  # 001 always sends it one yard


def _brawl(qtbot) -> tuple[AttackPane, BattleController]:
    """A knight next to a bare-handed brawler."""
    fighters = load_fighters()
    knight = Combatant(
        "a", fighters["sword-and-shield"], Side.RED, Hex(5, 5), Facing.S,
        fighters["sword-and-shield"].hit_points,
    )
    fist = load_catalog().weapon("fist")
    bare = amend(fighters["spearman"], weapons=(fist,), skills={"Brawling": 14})
    brawler = Combatant("d", bare, Side.BLUE, Hex(5, 6), Facing.N, bare.hit_points)
    controller = BattleController(
        Battle(BattleState(HexGrid(10, 10), (knight, brawler)), 3, get_ruleset)
    )
    pane = AttackPane(controller)
    qtbot.addWidget(pane)
    controller.select("a")
    controller.set_target("d")
    return pane, controller


def test_the_parrying_limb_is_offered_after_a_bare_handed_parry(qtbot) -> None:
    pane, controller = _brawl(qtbot)
    assert "parrying limb" not in [data for _t, data, _e in entries(pane.location_combo)]
    parry = DefenseChoice(DefenseKind.PARRY, "fist")
    for _ in range(20):  # until the attack is rolled at all and the fist parries
        swing = AttackOptions("broadsword", "swing", defenses=(parry,))
        controller.execute(attack_command("a", "d", swing))
        if controller.state.combatant("d").actions_this_turn:
            break
    assert controller.state.combatant("d").actions_this_turn
    choose(pane.location_combo, "parrying limb")
    options = pane.current_options()
    assert options.at_parrying_limb is True and options.location is None
    plan = pane.plan
    assert plan is not None and plan.hit_location == "near_arm"
    assert 2 in [m.value for m in plan.modifiers if "parrying limb" in m.reason]


# --- point 10: the guarded area holds for the turn -----------------------------------------------


def test_the_guarded_area_box_locks_once_the_fighter_defended(qtbot) -> None:
    _pane, controller = _brawl(qtbot)
    inspector = InspectorPane(controller)
    qtbot.addWidget(inspector)
    section = inspector.section
    assert isinstance(section, Seed000InspectorSection)
    controller.select("d")
    controller.execute(SetDefendedArea("d", BodyArea.HEAD))
    assert section.area_combo.isEnabled()
    dodge = DefenseChoice(DefenseKind.DODGE)
    for _ in range(20):  # until the attack is rolled at all and the brawler dodges
        swing = AttackOptions("broadsword", "swing", defenses=(dodge,))
        controller.execute(attack_command("a", "d", swing))
        if controller.state.combatant("d").actions_this_turn:
            break
    assert controller.state.combatant("d").actions_this_turn
    assert not section.area_combo.isEnabled()
    assert "middle of the turn" in section.area_combo.toolTip()
