"""Seed 002's situational modifiers, each row through ``Battle`` commands: the
attack (Close Combat 50%) and the dodge (40%) read back from the rolls' events."""

from __future__ import annotations

import pytest

from hexmap import Facing, Hex
from rules.battle.commands import SetPosture
from rules.battle.model import Posture
from rules.battle.terrain import Footing, Light, WaterDepth
from rules.core.dice import ScriptedDice
from rules.core.errors import DataError
from rules.sets.seed002.attack import Attack002
from rules.sets.seed002.events import DamageDealt, DefenseNotMade
from rules.sets.seed002.situation import CLOSE_TESTS, GMSituation, check_close_tests, strongest
from rules.sets.seed002.tables import (
    Automatic,
    Level,
    close_combat_rows,
    ranged_section,
    ranged_sections,
)
from tests.rules.seed002_duel import (
    HOME,
    SOUTH,
    attack,
    battle,
    duel,
    fighter,
    of,
    paint,
    rolls,
    sword,
)

SUCCESS_THEN_FAILED_DODGE = (4, 99)
FAR = Hex.from_offset(8, 15)  # five hexes south of HOME
NEAR = Hex.from_offset(8, 13)  # 04 succeeds at any skill, 99 always fails


def attack_skill(b, choices=None, faces=(99,)) -> int:  # type: ignore[no-untyped-def]
    return rolls(attack(b, choices or sword(), faces))[0].roll.skill


def dodge_skill(b, choices=None) -> int:  # type: ignore[no-untyped-def]
    return rolls(attack(b, choices or sword(), SUCCESS_THEN_FAILED_DODGE))[1].roll.skill


def lie_down(b, who: str) -> None:  # type: ignore[no-untyped-def]
    b.execute(SetPosture(who, Posture.PRONE), ScriptedDice(()))


# --- the close combat table ----------------------------------------------------------------


def test_close_plain_attack_and_dodge_have_no_modifier() -> None:
    b = battle(duel())
    assert attack_skill(b) == 50
    assert dodge_skill(battle(duel())) == 40


def test_close_helpless_target_is_an_automatic_critical() -> None:
    b = battle(duel())
    events = attack(b, sword(helpless=True), (5,))
    roll = rolls(events)[0].roll
    assert (roll.face, roll.level, roll.automatic) == (None, Level.CRITICAL, Automatic.CRITICAL)
    assert of(events, DefenseNotMade)[0].reason == "helpless"
    damage = of(events, DamageDealt)[0]
    assert (damage.maximum, damage.rolled, damage.armour, damage.taken) == (True, 8, 0, 8)


def test_close_target_prone_or_attacked_from_behind_is_plus_25() -> None:
    prone = battle(duel())
    lie_down(prone, "d")
    assert attack_skill(prone) == 50 + 25
    behind = battle(duel(defender_facing=Facing.S))  # the defender turns its back
    assert attack_skill(behind) == 75
    both = battle(duel(defender_facing=Facing.S))
    lie_down(both, "d")
    assert attack_skill(both) == 75  # one row, counted once


def test_close_higher_ground_or_mount_is_plus_25_to_either_roll() -> None:
    high = battle(duel())
    paint(high, [HOME], height=1)
    assert attack_skill(high) == 75
    mounted = battle(duel())
    assert attack_skill(mounted, sword(attacker_mounted=True)) == 75
    defender_high = battle(duel())
    paint(defender_high, [SOUTH], height=1)
    assert dodge_skill(defender_high) == 40 + 25
    defender_mounted = battle(duel())
    assert dodge_skill(defender_mounted, sword(defender_mounted=True)) == 65


def test_close_attacking_or_defending_prone_is_minus_25() -> None:
    b = battle(duel())
    lie_down(b, "a")
    assert attack_skill(b) == 25
    d = battle(duel())
    lie_down(d, "d")
    assert dodge_skill(d) == 15


def test_close_unstable_ground_is_minus_25_to_either_roll() -> None:
    b = battle(duel())
    paint(b, [HOME], footing=Footing.BAD)
    assert attack_skill(b) == 25
    d = battle(duel())
    paint(d, [SOUTH], footing=Footing.TREACHEROUS)
    assert dodge_skill(d) == 15


def test_close_underwater_is_minus_50_to_either_roll() -> None:
    b = battle(duel())
    paint(b, [HOME], water=WaterDepth.DEEP)
    assert attack_skill(b) == 0
    d = battle(duel())
    paint(d, [SOUTH], water=WaterDepth.DEEP)
    assert dodge_skill(d) == -10
    chest = battle(duel())
    paint(chest, [HOME], water=WaterDepth.CHEST)
    assert attack_skill(chest) == 50  # wading is not underwater


def test_close_defending_from_lower_ground_or_against_a_mount_is_minus_25() -> None:
    b = battle(duel())
    paint(b, [HOME], height=2)
    assert dodge_skill(b) == 15
    m = battle(duel())
    assert dodge_skill(m, sword(attacker_mounted=True)) == 15


def test_close_partial_darkness_is_minus_25_to_both() -> None:
    b = battle(duel())
    paint(b, [SOUTH], light=Light.DIM_5)
    events = attack(b, sword(), SUCCESS_THEN_FAILED_DODGE)
    assert [r.roll.skill for r in rolls(events)] == [25, 15]
    twilight = battle(duel())
    paint(twilight, [HOME], light=Light.TWILIGHT)
    assert attack_skill(twilight) == 50


def test_close_darkness_is_minus_50_to_both() -> None:
    b = battle(duel())
    paint(b, [HOME], light=Light.TOTAL_DARKNESS)
    events = attack(b, sword(), SUCCESS_THEN_FAILED_DODGE)
    assert [r.roll.skill for r in rolls(events)] == [0, -10]
    nearly = battle(duel())
    paint(nearly, [SOUTH], light=Light.NEARLY_DARK)
    assert attack_skill(nearly) == 0


def test_close_rows_add_up() -> None:
    b = battle(duel())
    paint(b, [HOME], height=1, footing=Footing.BAD, light=Light.DIM_3)
    lie_down(b, "d")
    assert attack_skill(b) == 50 + 25 + 25 - 25 - 25
    assert len(close_combat_rows()) == 9


# --- the ranged table ----------------------------------------------------------------------


def archer_duel(**defender: int):  # type: ignore[no-untyped-def]
    """An archer (Ranged Combat 50%) five hexes from the defender."""
    far = FAR
    return battle(
        duel(
            fighter("Archer", ("shortbow", "dagger")),
            fighter("Target", **defender),
            defender_hex=far,
        )
    )


def bow(**gm: object) -> Attack002:
    return Attack002("shortbow", "shoot", gm=GMSituation(**gm))  # type: ignore[arg-type]


def test_ranged_plain_shot_has_no_modifier() -> None:
    assert attack_skill(archer_duel(), bow()) == 50


def test_ranged_wind_section_takes_its_row() -> None:
    assert attack_skill(archer_duel(), bow(wind="high-wind")) == 25
    assert attack_skill(archer_duel(), bow(wind="fierce-wind")) == 0
    events = attack(archer_duel(), bow(wind="hurricane"), ())
    roll = rolls(events)[0].roll
    assert (roll.face, roll.level, roll.automatic) == (None, Level.FAILURE, Automatic.FAILURE)


def test_ranged_target_movement_rows() -> None:
    assert attack_skill(archer_duel(), bow(movement="moved-10m")) == 25
    assert attack_skill(archer_duel(), bow(movement="moved-30m")) == 0


def test_ranged_visibility_rows_from_the_gm_and_the_map() -> None:
    assert attack_skill(archer_duel(), bow(obscured="obscured")) == 25
    assert attack_skill(archer_duel(), bow(obscured="thickly-obscured")) == 0
    dusk = archer_duel()
    paint(dusk, [FAR], light=Light.DIM_4)
    assert attack_skill(dusk, bow()) == 25
    dark = archer_duel()
    paint(dark, [FAR], light=Light.TOTAL_DARKNESS)
    assert attack_skill(dark, bow()) == 0
    # Not cumulative: mist in partial darkness is still -25%.
    both = archer_duel()
    paint(both, [FAR], light=Light.DIM_4)
    assert attack_skill(both, bow(obscured="obscured")) == 25


def test_ranged_note_example_mist_and_a_target_that_moved_10m_is_minus_50() -> None:
    """Note *: shooting at a target in mist that moved over 10 m: -50%."""
    assert attack_skill(archer_duel(), bow(obscured="obscured", movement="moved-10m")) == 0


def test_ranged_target_above_siz_20_is_plus_25_and_adds_to_visibility() -> None:
    assert attack_skill(archer_duel(size=21), bow()) == 75
    assert attack_skill(archer_duel(size=20), bow()) == 50
    assert attack_skill(archer_duel(size=22), bow(obscured="obscured")) == 50


def test_ranged_target_condition_helpless_plus_25_prone_minus_25() -> None:
    helpless = archer_duel()
    events = attack(helpless, bow(helpless=True), (99,))
    assert rolls(events)[0].roll.skill == 75
    prone = archer_duel()
    lie_down(prone, "d")
    assert attack_skill(prone, bow()) == 25
    both = archer_duel()
    lie_down(both, "d")
    assert attack_skill(both, bow(helpless=True)) == 25  # a tie goes to the penalty


def test_ranged_attacker_conditions_add_up() -> None:
    prone = archer_duel()
    lie_down(prone, "a")
    assert attack_skill(prone, bow()) == 0
    unstable = archer_duel()
    paint(unstable, [HOME], footing=Footing.BAD)
    assert attack_skill(unstable, bow()) == 25
    assert attack_skill(archer_duel(), bow(blinded=True)) == 0
    everything = archer_duel()
    paint(everything, [HOME], footing=Footing.BAD)
    lie_down(everything, "a")
    assert attack_skill(everything, bow(blinded=True)) == 50 - 50 - 25 - 50


def test_ranged_attacker_underwater_thrown_minus_25_shots_miss() -> None:
    b = archer_duel()
    paint(b, [HOME], water=WaterDepth.DEEP)
    events = attack(b, bow(), ())
    roll = rolls(events)[0].roll
    assert (roll.face, roll.level) == (None, Level.FAILURE)  # note double dagger
    near = NEAR
    thrower = battle(duel(fighter("Thrower", ("dagger",)), defender_hex=near))
    paint(thrower, [HOME], water=WaterDepth.DEEP)
    skill = attack_skill(thrower, Attack002("dagger", "throw"))
    assert skill == 50 - 25


def test_ranged_sections_pick_their_strongest_row() -> None:
    wind = ranged_section("wind")
    assert strongest(list(wind.rows)) is wind.row("hurricane")
    condition = ranged_section("condition")
    assert strongest(list(condition.rows)) is condition.row("prone")
    assert strongest([]) is None
    starred = [s.key for s in ranged_sections() if not s.cumulative]
    assert starred == ["wind", "movement", "visibility", "condition"]


def test_ranged_table_is_not_used_in_close_combat() -> None:
    b = battle(duel())
    assert attack_skill(b, sword(wind="fierce-wind", blinded=True, movement="moved-30m")) == 50


def test_every_close_combat_row_has_its_test(monkeypatch: pytest.MonkeyPatch) -> None:
    check_close_tests()
    monkeypatch.delitem(CLOSE_TESTS, "darkness")
    with pytest.raises(DataError, match="darkness"):
        check_close_tests()
