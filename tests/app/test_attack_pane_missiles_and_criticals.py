"""The attack pane reaches issue 11's weapon rules: a sling may shoot at a weapon
and pull its blow, a long spear is turned around for its blunt end, and the odds
panel says what a critical hit does."""

from __future__ import annotations

from PySide6.QtGui import QStandardItemModel

from app.rulesets.seed000.attack_pane import odds_rows
from rules.battle.catalog import load_catalog
from rules.battle.commands import AddItem, DropItem, PickUpItem, ReadyWeapon
from rules.battle.items import ItemKind
from rules.sets.seed000.attack import SubdueMode, WeaponAttack
from rules.sets.seed000.attack_events import AttackAdjusted, WeaponStruck
from rules.sets.seed000.commands import WeaponReversed
from rules.sets.seed000.tracks import tracks_of
from tests.app.test_attack_pane import choose, make_pane, untick_defenses


def test_a_sling_shoots_at_a_weapon_and_pulls_its_blow_through_the_pane(qtbot) -> None:
    # Seed found by search: no shot before the one on the morningstar fumbles the
    # sling out of the hand.
    pane, controller = make_pane(qtbot, seed=4)
    sling = load_catalog().weapon("sling")
    here = controller.state.combatant("c1").hex
    controller.execute(DropItem("c1", "broadsword"))  # a hand free for the sling
    controller.execute(AddItem(here, sling.name, ItemKind.WEAPON, weapon=sling))
    controller.execute(PickUpItem("c1", controller.state.items[-1].id, gm_override=True))
    controller.select("c1")
    controller.set_target("c3")
    untick_defenses(qtbot, pane)  # a block cannot protect a weapon
    pane.more.set_expanded(True)
    choose(pane.weapon_combo, "sling")
    choose(pane.mode_combo, "shoot")
    combo = pane.target_weapon_combo
    index = combo.findData("morningstar")
    model = combo.model()
    assert index > 0 and isinstance(model, QStandardItemModel)
    assert model.item(index).isEnabled(), combo.itemData(index, 3)  # 3: the tooltip role
    choose(combo, "morningstar")
    choose(pane.weapon_attack_combo, WeaponAttack.BREAK)
    options = pane.current_options()
    assert options.target_weapon_key == "morningstar"
    assert options.weapon_attack is WeaponAttack.BREAK
    for _ in range(20):  # roll until a shot lands on the morningstar
        before = len(controller.battle.event_batches)
        pane.roll_button.click()
        assert len(controller.battle.event_batches) == before + 1  # the pane's roll ran
        if any(isinstance(e, WeaponStruck) for e in controller.battle.event_batches[-1]):
            break
    else:
        raise AssertionError("no shot hit the morningstar in 20 tries")
    choose(combo, None)
    choose(pane.subdue_combo, SubdueMode.PULLED)
    pane.pulled_st_spin.setValue(4)
    assert pane.current_options().pulled_st == 4
    pane.roll_button.click()
    notes = [e for e in controller.battle.event_batches[-1] if isinstance(e, AttackAdjusted)]
    assert any("pulled blow at ST 4" in e.text for e in notes)


def test_the_critical_hit_row_says_what_a_critical_hit_does(qtbot) -> None:
    pane, controller = make_pane(qtbot)
    controller.select("c1")
    controller.set_target("c3")
    (row,) = [r for r in odds_rows(pane.odds) if r.key == "critical_hit"]
    assert "no active defense" in row.tooltip and "normal damage" in row.tooltip
    assert "critical hit table is not rolled" in row.tooltip


def test_turn_it_around_readies_the_long_spear_s_blunt_end(qtbot) -> None:
    pane, controller = make_pane(qtbot)
    controller.select("c2")  # the spearman, long spear (reach 1-2)
    controller.set_target("c4")
    pane.more.set_expanded(True)
    choose(pane.weapon_combo, "long-spear")
    choose(pane.subdue_combo, SubdueMode.BLUNT_END)
    assert pane.turn_weapon_button.isEnabled()
    assert not pane.roll_button.isEnabled()  # refused until the spear is turned
    pane.turn_weapon_button.click()
    (turned,) = [e for e in controller.battle.event_batches[-1] if isinstance(e, WeaponReversed)]
    assert turned.butt_first
    assert "long-spear" in tracks_of(controller.state.combatant("c2")).reversed_weapons
    pane.update_preview()
    assert pane.roll_button.isEnabled()
    # The knife at his belt, drawn once the spear is down (a second Ready this
    # turn: the GM's): a short weapon, nothing to turn.
    controller.execute(DropItem("c2", "long-spear"))
    controller.execute(ReadyWeapon("c2", "knife", gm_override=True))
    choose(pane.weapon_combo, "knife")
    assert not pane.turn_weapon_button.isEnabled()
