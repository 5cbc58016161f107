"""A ranged attack reads the ranged column of the defender's situation (000
ADVERSE COMBAT CONDITIONS, DEFENDER'S SITUATION: lying prone -4 with the head up
and no cover, kneeling or sitting -2, none of them anything in melee), at the
battle level: the GM's posture commands, then ``Attacks.situation`` and an attack
that carries its modifiers."""

from __future__ import annotations

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog
from rules.battle.commands import Attack, SetPosture
from rules.battle.model import Posture
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import AttackRolled
from tests.rules.battle_level import Make, of

RANGED_COLUMN = [
    (Posture.PRONE, -4),  # head up, no cover
    (Posture.KNEELING, -2),
    (Posture.SITTING, -2),
    (Posture.SITTING_IN_CHAIR, -2),
    (Posture.HANDS_AND_KNEES, -3),
    (Posture.DEEP_CROUCH, -2),
]


def battle_at(make: Make, catalog: Catalog, distance: int, posture: Posture) -> Battle:
    """A knife thrower facing south and a swordsman ``distance`` hexes in front
    of him, whom the GM has put in ``posture``."""
    knife = catalog.weapon("knife")
    a = make(
        "sword-and-shield", Hex(5, 2), Facing.S, id="a", weapons=(knife,), skills={"Knife": 14}
    )
    d = make("sword-and-shield", Hex(5, 2 + distance), Facing.N, id="d")
    battle = Battle(BattleState(HexGrid(10, 10), (a, d)), 1, get_ruleset)
    battle.execute(SetPosture("d", posture))
    return battle


def target_modifiers(battle: Battle) -> list[int]:
    modifiers = get_ruleset("000").attacks.situation(battle.state, "a", "d")
    return [m.value for m in modifiers if m.reason.startswith("target")]


@pytest.mark.parametrize(("posture", "value"), RANGED_COLUMN)
def test_a_thrown_knife_meets_the_ranged_column(
    make: Make, catalog: Catalog, posture: Posture, value: int
) -> None:
    battle = battle_at(make, catalog, 3, posture)  # only the throw reaches
    assert target_modifiers(battle) == [value]


@pytest.mark.parametrize(("posture", "value"), RANGED_COLUMN)
def test_the_same_knife_in_hand_meets_the_melee_column(
    make: Make, catalog: Catalog, posture: Posture, value: int
) -> None:
    battle = battle_at(make, catalog, 1, posture)  # the knife's thrust reaches first
    melee = {Posture.DEEP_CROUCH: -1}  # the only one of these a melee blow feels
    assert target_modifiers(battle) == ([melee[posture]] if posture in melee else [])


def test_the_throw_at_a_prone_target_is_rolled_at_minus_4(make: Make, catalog: Catalog) -> None:
    standing = battle_at(make, catalog, 3, Posture.STANDING)
    prone = battle_at(make, catalog, 3, Posture.PRONE)

    def thrown(battle: Battle) -> AttackRolled:
        situation = get_ruleset("000").attacks.situation(battle.state, "a", "d")
        options = AttackOptions("knife", "throw", extra_modifiers=situation)
        events = battle.execute(Attack("a", "d", options))
        (rolled,) = of(events, AttackRolled)
        return rolled

    assert thrown(prone).effective_skill == thrown(standing).effective_skill - 4
