"""The window reaches seed 000's battle rules of issue 22: the attack pane fills a
thrown weapon's situation from the ranged column, refuses an off-balance attacker
and says why, tells a defense's disaster odds by the seed's 17-18 alone, and the
combat log tells what a critical hit does."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from app.panes.combat_log import CombatLogPane
from app.rulesets.seed000.attack_pane import odds_rows
from rules.battle.commands import Attack, PutAwayItem, ReadyWeapon, SetPosture
from rules.battle.model import Posture
from rules.core.dice import DiceRequest
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import AttackResolved, DamageDealt, DefenseMishapResolved
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.odds import percent
from tests.app.test_attack_pane import choose, make_pane


def scripted_table(faces: Sequence[int]) -> Callable[[str, DiceRequest], list[int]]:
    """Physical dice entered at the table, face by face from ``faces``."""
    left: Iterator[int] = iter(faces)

    def table(_command: str, request: DiceRequest) -> list[int]:
        return [next(left) for _ in range(request.count)]

    return table


def battlefield_texts(pane) -> list[str]:
    return [pane.battlefield_list.item(i).text() for i in range(pane.battlefield_list.count())]


def draw_the_spearmans_knife(controller) -> None:
    """The spearman (c2) puts his two-handed spear away and draws the knife he
    carries, to throw it (rules.battle.hands: both hands held the spear)."""
    controller.execute(PutAwayItem("c2", "long-spear", gm_override=True))
    controller.execute(ReadyWeapon("c2", "knife", gm_override=True))


def test_a_thrown_knife_at_a_prone_target_takes_the_ranged_minus_4(qtbot) -> None:
    pane, controller = make_pane(qtbot)
    controller.execute(SetPosture("c3", Posture.PRONE))  # the flail fighter lies down
    draw_the_spearmans_knife(controller)
    controller.select("c2")
    controller.set_target("c3")
    choose(pane.weapon_combo, "knife")
    choose(pane.mode_combo, "throw")
    assert any(t.startswith("-4") and "target lying prone" in t for t in battlefield_texts(pane))
    assert -4 in [m.value for m in pane.options().extra_modifiers]
    choose(pane.mode_combo, "thrust")  # the same knife in hand: the melee column
    assert not any("target lying prone" in t for t in battlefield_texts(pane))


def test_a_kneeling_target_is_minus_2_to_a_throw_only(qtbot) -> None:
    pane, controller = make_pane(qtbot)
    controller.execute(SetPosture("c3", Posture.KNEELING))
    draw_the_spearmans_knife(controller)
    controller.select("c2")
    controller.set_target("c3")
    choose(pane.weapon_combo, "knife")
    choose(pane.mode_combo, "throw")
    assert any(t.startswith("-2") and "target kneeling" in t for t in battlefield_texts(pane))
    choose(pane.mode_combo, "thrust")
    assert not any("target kneeling" in t for t in battlefield_texts(pane))


def test_an_off_balance_attacker_cannot_roll_and_is_told_why(qtbot) -> None:
    pane, controller = make_pane(qtbot)
    # The flail fighter's swing hits (7); the swordsman's dodge is an 18, his DX roll
    # a 9: he keeps his feet, off-balance. Then the swing's damage dice.
    controller.set_dice_entry(scripted_table((2, 2, 3, 6, 6, 6, 3, 3, 3, *[1] * 12)))
    swing = AttackOptions("morningstar", "swing", defenses=(DefenseChoice(DefenseKind.DODGE),))
    events = controller.execute(attack_command("c3", "c1", swing))
    assert events is not None
    (mishap,) = [e for e in events if isinstance(e, DefenseMishapResolved)]
    assert "off-balance" in mishap.applied
    controller.set_dice_entry(None)
    controller.select("c1")
    controller.set_target("c3")
    choose(pane.weapon_combo, "broadsword")
    choose(pane.mode_combo, "swing")
    assert not pane.roll_button.isEnabled()
    assert pane.error_label.isVisibleTo(pane)
    assert "off-balance" in pane.error_label.text()
    assert "until the end of its next turn" in pane.error_label.text()


def test_a_defense_disaster_is_17_or_18_only_in_the_odds(qtbot) -> None:
    pane, controller = make_pane(qtbot)
    controller.select("c1")
    controller.set_target("c3")
    choose(pane.weapon_combo, "broadsword")
    choose(pane.mode_combo, "swing")
    for check in (pane.block_check, pane.parry_check):  # whatever the pane announced
        check.setChecked(False)
    pane.dodge_check.setChecked(True)
    odds = pane.odds
    assert odds is not None
    (dodge,) = odds.defenses
    # At 6 or less the base rules' "fail by 10" would make a 16 a disaster too.
    assert dodge.plan.value <= 6
    assert dodge.p_critical_failure == dodge.p_rolled * 4 / 216  # 17 and 18 only
    (row,) = [r for r in odds_rows(odds) if r.key == "stopped_0"]
    assert f"fails critically {percent(dodge.p_critical_failure)}" in row.tooltip


def test_the_log_tells_what_a_critical_hit_does(qtbot) -> None:
    _pane, controller = make_pane(qtbot)
    log = CombatLogPane(controller)
    qtbot.addWidget(log)
    # 1+1+2: a critical hit; then the broadsword's damage die and whatever follows.
    controller.set_dice_entry(scripted_table((1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3)))
    events = controller.execute(Attack("c1", "c3", AttackOptions("broadsword", "swing")))
    assert events is not None and [e for e in events if isinstance(e, DamageDealt)]
    (resolved,) = [e for e in events if isinstance(e, AttackResolved)]
    row = log.entries.rows[-1]
    lines = [line.text for line in row.lines]
    (told,) = [t for t in lines if t.startswith("Critical hit")]
    assert "no defense allowed" in told and "normal damage" in told
    assert "critical hit table is not rolled" in told
    assert told == resolved.describe()
