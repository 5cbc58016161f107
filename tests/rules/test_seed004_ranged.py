"""Seed 004's shots through ``Battle`` commands (004 Zones: a hit with a ranged
weapon rolls its zone too): the base rules' size-and-range table, cell by cell,
the movement of target and shooter, the shooter's stance, no dodge or block, the
effective range, aimed shots, exact odds."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, MoveCombatant
from rules.battle.model import Combatant, Fighter, Posture, Side, Status
from rules.battle.state import BattleState
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalAttackError
from rules.sets.components.zones_2d6 import Size, Zone
from rules.sets.registry import get_ruleset
from rules.sets.seed004.attack import Defense, Seed004Answer, Seed004Attack
from rules.sets.seed004.events import (
    AttackDeclared,
    AttackOutcome,
    CheckRolled,
    DamageRolled,
    DefenseNotRolled,
    ZoneDamaged,
)
from rules.sets.seed004.sheet import sheet_of
from rules.sets.seed004.tables import RangeBand, range_band
from tests.rules.battle_level import of
from tests.rules.seed004_battle import CATALOG, RULESET, fighter

GRID = HexGrid(8, 60)
SHOOTER_HEX = Hex.from_offset(3, 1)
SHOT = Seed004Attack("pistol", "shoot")


def gunman(**abilities: int) -> Fighter:
    f = fighter("Ann", skills={"Firearms": 2, "Melee Combat": 1}, **abilities)
    return replace(f, weapons=(CATALOG.weapon("pistol"), CATALOG.weapon("knife")))


def ahead(distance: int) -> Hex:
    at = SHOOTER_HEX
    for _ in range(distance):
        at = at + Facing.S.vector
    return at


def range_duel(
    distance: int,
    *,
    size: Size = Size.MEDIUM,
    posture: Posture = Posture.STANDING,
    shooter_posture: Posture = Posture.STANDING,
    status: Status = Status.ACTIVE,
    shooter: Fighter | None = None,
) -> Battle:
    """Ann with a pistol (effective range 50) at the top of a long map facing
    south, Bob ``distance`` hexes in front of her, facing her."""
    bob = fighter("Bob")
    bob = replace(bob, stats=replace(sheet_of(bob), size=size))
    a = Combatant(
        "a", shooter or gunman(), Side.BLUE, SHOOTER_HEX, Facing.S, 35, posture=shooter_posture
    )
    b = Combatant("b", bob, Side.RED, ahead(distance), Facing.N, 35, posture=posture, status=status)
    return Battle(BattleState(GRID, (a, b), ruleset_key="004"), 4, get_ruleset)


def shot_against(battle: Battle, choices: Seed004Attack = SHOT) -> int:
    # 2d6 shows 2: 4 with the bonus (a hit only against 4 or less: dice to spare)
    events = battle.execute(Attack("a", "b", choices), ScriptedDice((1, 1, 3, 3, 1, 6, 6, 6, 6)))
    return of(events, CheckRolled)[0].roll.against


@pytest.mark.parametrize(
    ("distance", "band"),
    [
        (1, RangeBand.CLOSE),
        (6, RangeBand.CLOSE),
        (7, RangeBand.MEDIUM),
        (12, RangeBand.MEDIUM),
        (13, RangeBand.FAR),
        (24, RangeBand.FAR),
        (25, RangeBand.MAXIMUM),
        (50, RangeBand.MAXIMUM),
        (51, None),
    ],
)
def test_range_categories_of_the_effective_range(distance: int, band: RangeBand | None) -> None:
    assert range_band(distance, 50) is band


# base 5, standing shooter -1, a standing target moves subtly (0): 4 + the size cell
TABLE = {
    Size.TINY: (3, 6, 12, 18),
    Size.SMALL: (2, 4, 8, 12),
    Size.MEDIUM: (1, 2, 4, 6),
    Size.LARGE: (-12, -8, -4, -2),
    Size.HUGE: (-18, -12, -6, -3),
}
DISTANCES = (3, 10, 20, 40)  # close, medium, far, maximum at 50


@pytest.mark.parametrize(("size", "column"), list(itertools.product(list(Size), range(4))))
def test_every_cell_of_the_size_and_range_table(size: Size, column: int) -> None:
    battle = range_duel(DISTANCES[column], size=size)
    want = 4 + TABLE[size][column]
    if want > 4:
        assert shot_against(battle) == want
    else:  # 4 hits a large or huge target: the zone and damage follow
        events = battle.execute(Attack("a", "b", SHOT), ScriptedDice((1, 1, 3, 3, 1, 1, 6, 6)))
        assert of(events, CheckRolled)[0].roll.against == want


def test_a_shot_allows_no_dodge_or_block_and_rolls_its_zone() -> None:
    battle = range_duel(10)
    events = battle.execute(Attack("a", "b", SHOT), ScriptedDice((6, 6, 5, 5, 3, 3, 3, 3)))
    assert of(events, DefenseNotRolled)[0].reason == "no dodge or block against a shot"
    (damage,) = of(events, DamageRolled)
    assert (damage.strength, damage.total) == (0, 6)  # a shot adds no Strength
    assert of(events, ZoneDamaged)[0].damage == 18  # head x3
    # the shot's lines cite the base rules' ranged combat, not melee or surprise
    shot_rule = "ranged combat: a shot against the difficulty, no dodge or block"
    for kind in (AttackDeclared, CheckRolled, AttackOutcome, DefenseNotRolled):
        cited = of(events, kind)[0].citation
        assert cited is not None and cited.heading == shot_rule, kind.__name__


def test_strength_does_not_add_to_a_shot() -> None:
    battle = range_duel(3, shooter=gunman(strength=9))
    events = battle.execute(Attack("a", "b", SHOT), ScriptedDice((6, 6, 3, 3, 3, 3, 3, 3)))
    assert of(events, DamageRolled)[0].total == 6


def test_dexterity_perception_and_the_weapon_s_skill_add_to_a_shot() -> None:
    battle = range_duel(3, shooter=gunman(dexterity=6, perception=7))
    events = battle.execute(Attack("a", "b", SHOT), ScriptedDice((1, 1, 3, 3, 1, 1, 6, 6)))
    assert of(events, CheckRolled)[0].roll.bonus == 1 + 2 + 2


@pytest.mark.parametrize(("moved", "added"), [(0, 0), (1, 2), (2, 2), (3, 4)])
def test_the_target_s_movement(moved: int, added: int) -> None:
    battle = range_duel(3)  # Bob's Move is 5: up to 2 hexes is slow, more is fast
    if moved:
        battle.execute(MoveCombatant("b", ahead(3 + moved)))
    assert shot_against(battle) == 4 + TABLE[Size.MEDIUM][0 if 3 + moved <= 6 else 1] + added


def test_a_still_target_and_a_moving_shooter() -> None:
    assert shot_against(range_duel(3, status=Status.UNCONSCIOUS)) == 5 - 1 + 1 - 2
    battle = range_duel(4)
    battle.execute(MoveCombatant("a", ahead(1)))
    assert shot_against(battle) == 5 - 1 + 1 + 2


@pytest.mark.parametrize(
    ("posture", "stance"),
    [(Posture.STANDING, -1), (Posture.KNEELING, -2), (Posture.SITTING, -2), (Posture.PRONE, 2)],
)
def test_the_shooter_s_stance(posture: Posture, stance: int) -> None:
    assert shot_against(range_duel(3, shooter_posture=posture)) == 5 + 1 + stance


def test_an_aimed_shot_is_a_size_step_smaller_at_its_range() -> None:
    battle = range_duel(20)  # far
    assert shot_against(battle, Seed004Attack("pistol", "shoot", Zone.HEAD)) == 4 + 8
    assert shot_against(battle, Seed004Attack("pistol", "shoot", Zone.BRAIN)) == 4 + 12


def test_beyond_the_effective_range_or_behind_there_is_no_shot() -> None:
    far = range_duel(51)
    form = RULESET.attacks.attack_form(far.state, "a", "b", {})
    pistol = next(c for c in form.field("weapon").choices if c.key == "pistol/shoot")
    assert pistol.problem == "Bob is out of range"
    with pytest.raises(IllegalAttackError):
        far.execute(Attack("a", "b", SHOT), ScriptedDice(()))
    near = range_duel(3)
    turned = near.state.with_combatants(replace(near.state.combatant("a"), facing=Facing.N))
    assert RULESET.attacks.attack_form(turned, "a", "b", {}).choices is None


def test_the_form_greys_the_defenses_of_a_shot() -> None:
    form = RULESET.attacks.attack_form(range_duel(3).state, "a", "b", {})
    assert (form.choices, form.answer) == (SHOT, Seed004Answer(Defense.NONE))
    assert [c.problem for c in form.field("defense").choices][:2] == [
        "no dodge or block against a shot"
    ] * 2


def test_a_shot_s_odds_are_exact() -> None:
    battle = range_duel(20)  # difficulty 8 against 2d6+2
    preview = RULESET.attacks.preview_attack(battle.state, "a", "b", SHOT)
    hits = sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b + 2 >= 8)
    assert {line.label: line.probability for line in preview.odds} == {
        "hit": Fraction(hits, 36),
        "miss": 1 - Fraction(hits, 36),
    }
    assert preview.summary.startswith("Firearms 2d6+2 vs difficulty 8")


def test_a_firearm_shoots_piercing_and_strikes_bludgeoning_in_melee() -> None:
    """004 Damage: a firearm does piercing and bludgeoning damage - the shot
    pierces, the butt strikes as a blow (Melee Combat, Strength, a dodge): 7
    bludgeoning on the heart is below 10, so the torso takes it (x2)."""
    battle = range_duel(1, shooter=gunman(strength=7))
    form = RULESET.attacks.attack_form(battle.state, "a", "b", {})
    labels = {c.key: (c.label, c.problem) for c in form.field("weapon").choices}
    assert labels["pistol/shoot"] == ("Pistol: shoot (2d piercing)", "")
    assert labels["pistol/strike"] == ("Pistol: strike (1d-1 bludgeoning)", "")
    strike = Seed004Attack("pistol", "strike")
    summary = RULESET.attacks.preview_attack(battle.state, "a", "b", strike).summary
    assert summary.startswith("Melee Combat 2d6+1 vs difficulty 6 (Pistol, strike, bludgeoning)")
    dice = ScriptedDice((3, 3, 1, 1, 1, 1, 6, 6, 6))
    events = battle.execute(Attack("a", "b", strike), dice)
    assert dice.unused == 0
    attack, dodge, _wound = of(events, CheckRolled)
    assert attack.roll.bonus == 1  # Melee Combat 1, not Firearms 2
    assert dodge.roll.what == "dodge" and not dodge.roll.succeeded
    (damage,) = of(events, DamageRolled)
    assert (damage.strength, damage.total, damage.blow) == (2, 7, "bludgeoning")
    (zoned,) = of(events, ZoneDamaged)
    assert (zoned.aimed_zone, zoned.zone, zoned.damage) == (Zone.HEART, Zone.TORSO, 14)
    far = RULESET.attacks.attack_form(range_duel(10).state, "a", "b", {})
    problems = {c.key: c.problem for c in far.field("weapon").choices}
    assert problems["pistol/strike"] == "Bob is out of reach" and problems["pistol/shoot"] == ""
