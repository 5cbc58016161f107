"""The default target (rules.sets.targeting): a foe the attacker's default attack
reaches, those still able to defend first, then the nearest; never an ally, the
attacker or the dead; none when no foe is in reach. Checked on a seed 000 ring
written here and on every ruleset's demo battle. And seed 000's default attack
announces a defense the attack allows, so that the attack it offers can be rolled."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import load_catalog, load_fighters
from rules.battle.commands import Attack
from rules.battle.model import Combatant, Side, Status
from rules.battle.savefile import read_battle
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset, ruleset_keys, ruleset_of
from rules.sets.seed000.attack import AttackOptions, Seed000Answer
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.targeting import are_allies, default_target
from tests.rules.sheets import amend

BATTLES = Path(__file__).parents[2] / "assets" / "battles"
CENTRE = Hex(5, 5)


def ring(*others: tuple[str, Side, Hex, Status]) -> BattleState:
    """A swordsman (broadsword, reach 1) at the centre facing north, and others
    as (id, side, hex, status)."""
    fighters = load_fighters()
    sword = fighters["sword-and-shield"]
    me = Combatant("me", sword, Side.RED, CENTRE, Facing.N, sword.hit_points)
    rest = tuple(
        replace(Combatant(cid, sword, side, at, Facing.S, sword.hit_points), status=status)
        for cid, side, at, status in others
    )
    return BattleState(HexGrid(12, 12), (me, *rest))


def test_the_nearest_foe_in_reach_that_can_defend_comes_first() -> None:
    ruleset = get_ruleset("000")
    front, front_right = CENTRE + Facing.N.vector, CENTRE + Facing.NE.vector
    state = ring(
        ("ally", Side.RED, CENTRE + Facing.NW.vector, Status.ACTIVE),  # in reach, a friend
        ("down", Side.BLUE, front, Status.UNCONSCIOUS),  # in reach, out of the fight
        ("far", Side.BLUE, front + Facing.N.vector, Status.ACTIVE),  # two hexes: no reach
        ("foe", Side.BLUE, front_right, Status.ACTIVE),
    )
    assert default_target(state, ruleset, "me") == "foe"
    # the standing foe killed: the fallen one is still a foe in reach
    state = state.with_combatants(replace(state.combatant("foe"), status=Status.DEAD))
    assert default_target(state, ruleset, "me") == "down"
    # nobody in reach but the ally: no target at all
    state = state.with_combatants(replace(state.combatant("down"), status=Status.DEAD))
    assert default_target(state, ruleset, "me") is None
    assert are_allies(state.combatant("me"), state.combatant("ally"))


def test_equal_foes_go_by_distance_then_the_battles_order() -> None:
    ruleset = get_ruleset("000")
    fighters = load_fighters()
    spear = fighters["spearman"]  # a long spear: reach 1 and 2
    me = Combatant("me", spear, Side.RED, CENTRE, Facing.N, spear.hit_points)
    two_away = CENTRE + Facing.N.vector + Facing.N.vector
    one_away = CENTRE + Facing.NE.vector
    foes = tuple(
        Combatant(cid, spear, Side.BLUE, at, Facing.S, spear.hit_points)
        for cid, at in (("second", two_away), ("first", one_away))
    )
    state = BattleState(HexGrid(12, 12), (me, *foes))
    assert default_target(state, ruleset, "me") == "first"
    state = state.with_combatants(replace(state.combatant("first"), hex=CENTRE + Facing.NW.vector
                                          + Facing.N.vector))  # fmt: skip
    assert CENTRE.distance(state.combatant("first").hex) == 2
    assert default_target(state, ruleset, "me") == "second"  # both at two: the order


@pytest.mark.parametrize("key", ruleset_keys())
def test_every_rulesets_default_target_is_a_foe_its_default_attack_reaches(key: str) -> None:
    state = read_battle((BATTLES / f"demo-{key}.hexfray").read_bytes(), rulesets=get_ruleset).state
    ruleset = ruleset_of(state)
    found = 0
    for attacker in state.combatants:
        target_id = default_target(state, ruleset, attacker.id)
        if target_id is None:
            continue
        found += 1
        target = state.combatant(target_id)
        assert not are_allies(attacker, target) and target.status is not Status.DEAD
        assert ruleset.attacks.default_attack(state, attacker.id, target_id) is not None
        nearer = [
            c for c in state.combatants
            if not are_allies(attacker, c) and c.status.can_defend
            and attacker.hex.distance(c.hex) < attacker.hex.distance(target.hex)
        ]  # fmt: skip
        assert all(ruleset.attacks.default_attack(state, attacker.id, c.id) is None for c in nearer)
    assert found or key == "000"  # the seed 000 demo stands its fighters apart


def test_seed000s_default_attack_with_a_bow_announces_a_defense_an_arrow_allows() -> None:
    """000 MISSILE AND THROWN WEAPONS: the fencer cannot parry an arrow without
    Missile Parrying, so his default defense against the bow is a dodge (against
    a sword it stays his parry), and the default attack is rolled."""
    fighters = load_fighters()
    bow = load_catalog().weapon("shortbow")
    archer = amend(fighters["spearman"], weapons=(bow,), skills={"Bow": 13})
    fencer = fighters["fencer"]
    state = BattleState(
        HexGrid(12, 12),
        (
            Combatant("a", archer, Side.RED, CENTRE, Facing.N, archer.hit_points),
            Combatant("d", fencer, Side.BLUE, CENTRE + Hex(0, -4), Facing.S, fencer.hit_points),
        ),
    )
    ruleset = get_ruleset("000")
    assert default_target(state, ruleset, "a") == "d"
    choices = ruleset.attacks.default_attack(state, "a", "d")
    dodge = DefenseChoice(DefenseKind.DODGE)
    assert choices == AttackOptions("shortbow", "shoot")
    answer = ruleset.attacks.answers(state, "a", "d", choices)[0]
    assert answer == Seed000Answer((dodge,))
    battle = Battle(state, 3, get_ruleset)
    assert battle.execute(Attack("a", "d", choices, answer))  # not refused
    assert ruleset.attacks.default_attack(state, "d", "a") is None  # the rapier reaches one hex
