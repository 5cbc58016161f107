"""A move is checked against what the fighter may still do (issue 22): without a
maneuver, only as far as the maneuvers still open to it allow (a stunned
fighter's Do nothing: not at all), and as far as its posture lets it (a prone
fighter crawls one hex a turn; each ruleset answers ``posture_move``). Every
rule is checked through the commands a GM's clicks send, at the battle level."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.command_events import Moved
from rules.battle.commands import EndTurn, MoveCombatant, SetPosture, TurnCombatant
from rules.battle.maneuvers import MoveAllowance
from rules.battle.model import Combatant, Fighter, Posture, Side, Status
from rules.battle.movement import basic_posture_moves
from rules.battle.state import BattleState
from rules.battle.turns import (
    ChooseManeuver,
    OverridableError,
    RuleOverridden,
    StartTurns,
    movement_left,
)
from rules.core.citation import cite
from rules.sets.registry import get_ruleset
from tests.rules.battle_level import HOME, Make, duel, of, started

NORTH = Facing.N.vector  # the fencer faces south: north is behind it (2 MP a hex)
SOUTH_EAST = Facing.SE.vector  # in its front arc (1 MP a hex)


def _amended(state: BattleState, combatant_id: str, **changes: object) -> BattleState:
    return state.with_combatants(replace(state.combatant(combatant_id), **changes))


def _away_from_the_swordsman(make: Make, **fencer: object) -> Battle:
    """The duel with the fencer first in the order, changed by ``fencer``, and the
    swordsman five hexes south of it: room to move south-east."""
    state = duel(make, swordsman_hex=HOME + Facing.S.vector.scale(5))
    return started(_amended(state, "f", **fencer))


# --- a fighter without a maneuver: the maneuvers still open to it ------------------------------


def test_a_stunned_prone_fighter_does_not_move_in_turn_order(make: Make) -> None:
    """Issue 22: a stunned, prone fighter walked 6 MP in turn order. A stunned
    fighter may only do nothing (base rules), which allows no movement."""
    battle = _away_from_the_swordsman(make, status=Status.STUNNED, posture=Posture.PRONE)
    assert [m.key for m in get_ruleset().turns.maneuvers(battle.state, "f")] == ["do-nothing"]
    f = battle.state.combatant("f")
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.NONE, 0)
    with pytest.raises(
        OverridableError,
        match=(
            "Fencer would move 1 hex\\(es\\) this turn; with no maneuver chosen, the most "
            "still open to it, Do nothing, allows no movement"
        ),
    ):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST))
    with pytest.raises(OverridableError, match="Do nothing, allows no movement"):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(6)))
    assert battle.state.combatant("f").hex == HOME
    # The GM can force it; the log says which rule was set aside.
    events = battle.execute(MoveCombatant("f", HOME + SOUTH_EAST, gm_override=True))
    assert [e.reason for e in of(events, RuleOverridden)] == [
        "Fencer would move 1 hex(es) this turn; with no maneuver chosen, the most still "
        "open to it, Do nothing, allows no movement"
    ]


def test_a_stunned_standing_fighter_may_still_turn_in_place(make: Make) -> None:
    battle = _away_from_the_swordsman(make, status=Status.STUNNED)
    events = battle.execute(TurnCombatant("f", Facing.SE))
    assert battle.state.combatant("f").facing is Facing.SE and not of(events, RuleOverridden)


def test_a_fighter_who_can_still_take_move_has_its_whole_move(make: Make) -> None:
    battle = _away_from_the_swordsman(make)
    f = battle.state.combatant("f")
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.FULL, 6)
    battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(6)))
    assert battle.state.combatant("f").move_used == 6


def test_an_unconscious_fighter_moved_in_turn_order_is_refused(make: Make) -> None:
    """One the ruleset offers no maneuver (here on the fencer's turn, the swordsman
    unconscious) may not move; the GM can still drag it, marked in the log."""
    state = duel(make, swordsman_hex=HOME + Facing.S.vector.scale(3))
    battle = started(_amended(state, "s", status=Status.UNCONSCIOUS))
    events = battle.execute(MoveCombatant("s", HOME + Facing.S.vector.scale(4), gm_override=True))
    assert [e.reason for e in of(events, RuleOverridden)] == [
        "it is Fencer's turn: Sword-and-shield fighter cannot move",
        "Sword-and-shield fighter can take no maneuver now and may not move",
    ]


# --- posture: the base rules' table of positions ----------------------------------------------


def test_a_prone_fighter_crawls_one_hex_a_turn(make: Make) -> None:
    """Issue 22: a prone fighter may not walk six hexes and stay prone."""
    battle = _away_from_the_swordsman(make, posture=Posture.PRONE)
    f = battle.state.combatant("f")
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.FULL, 1)
    with pytest.raises(
        OverridableError,
        match="Fencer would move 6 hex\\(es\\) this turn; a prone fighter crawls one hex a turn",
    ):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(6)))
    events = battle.execute(MoveCombatant("f", HOME + SOUTH_EAST))
    (moved,) = of(events, Moved)
    assert moved.describe().startswith("Fencer crawls to ")
    f = battle.state.combatant("f")
    assert f.posture is Posture.PRONE and f.hex == HOME + SOUTH_EAST
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.FULL, 0)
    with pytest.raises(OverridableError, match="a prone fighter crawls one hex a turn"):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(2)))


def test_choosing_move_does_not_lift_the_crawl(make: Make) -> None:
    battle = _away_from_the_swordsman(make, posture=Posture.PRONE)
    battle.execute(ChooseManeuver("f", "move"))
    with pytest.raises(OverridableError, match="a prone fighter crawls one hex a turn"):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(2)))


def test_standing_up_then_takes_the_turn(make: Make) -> None:
    """The way out of the crawl is Change posture, which allows no movement: the
    walk waits for the next turn."""
    battle = _away_from_the_swordsman(make, posture=Posture.PRONE)
    battle.execute(SetPosture("f", Posture.STANDING))
    with pytest.raises(OverridableError, match="Change posture allows no movement"):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST))


def test_a_crouching_fighter_moves_two_thirds_of_its_move(make: Make) -> None:
    battle = _away_from_the_swordsman(make, posture=Posture.DEFENSIVE_CROUCH)
    f = battle.state.combatant("f")
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.FULL, 4)  # 6 x 2/3
    with pytest.raises(
        OverridableError,
        match=(
            "Fencer would spend 5 movement points this turn; a crouching fighter moves "
            "two thirds of its Move, 4"
        ),
    ):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(5)))
    battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(4)))
    assert battle.state.combatant("f").move_used == 4


def test_a_sitting_fighter_does_not_move(make: Make) -> None:
    battle = _away_from_the_swordsman(make, posture=Posture.SITTING)
    with pytest.raises(OverridableError, match="a sitting fighter cannot move"):
        battle.execute(MoveCombatant("f", HOME + SOUTH_EAST))


def test_a_kneeling_fighter_under_attack_keeps_its_step(make: Make) -> None:
    """A step is one hex: kneeling (one hex a turn) takes nothing from it."""
    battle = _away_from_the_swordsman(make, posture=Posture.KNEELING)
    battle.execute(ChooseManeuver("f", "attack"))
    events = battle.execute(MoveCombatant("f", HOME + SOUTH_EAST))
    assert of(events, Moved)[0].describe().startswith("Fencer shuffles to ")


def test_the_legal_steps_of_a_prone_fighter_stop_after_its_crawl(make: Make) -> None:
    battle = _away_from_the_swordsman(make, posture=Posture.PRONE)

    def steps() -> list[MoveCombatant]:
        return [
            a.command
            for a in get_ruleset().turns.legal_actions(battle.state, "f")
            if isinstance(a.command, MoveCombatant)
        ]

    assert steps()
    battle.execute(MoveCombatant("f", HOME + SOUTH_EAST))
    assert steps() == []


def test_before_the_order_is_rolled_the_gm_moves_a_prone_fighter_freely(make: Make) -> None:
    far = duel(make, swordsman_hex=HOME + Facing.S.vector.scale(5))
    state = _amended(far, "f", posture=Posture.PRONE)
    battle = Battle(state, 3, get_ruleset)
    battle.execute(MoveCombatant("f", HOME + SOUTH_EAST.scale(6)))
    assert battle.state.combatant("f").hex == HOME + SOUTH_EAST.scale(6)


def test_a_backward_crawl_costs_its_movement_points_too(make: Make) -> None:
    """One hex backwards costs 2 MP: within the Move, it is the turn's crawl."""
    battle = _away_from_the_swordsman(make, posture=Posture.CRAWLING)
    events = battle.execute(MoveCombatant("f", HOME + NORTH))
    assert of(events, Moved)[0].cost == 2


# --- every ruleset answers how far a posture moves ---------------------------------------------


def _posture_battle(key: str, fighter: Fighter, posture: Posture) -> Battle:
    """A fighter of ruleset ``key`` in ``posture``, alone in the turn order with a
    foe far away, its turn begun."""
    hp = fighter.hit_points
    me = Combatant("m", fighter, Side.BLUE, Hex.from_offset(5, 5), Facing.S, hp, posture=posture)
    foe = Combatant("o", fighter, Side.RED, Hex.from_offset(15, 15), Facing.N, hp)
    battle = Battle(BattleState(HexGrid(20, 20), (me, foe), ruleset_key=key), 5, get_ruleset)
    battle.execute(StartTurns())
    while battle.state.active_id != "m":
        battle.execute(EndTurn())
    return battle


def _fighter_of(key: str) -> Fighter:
    from tests.rules.seed002_duel import fighter as fighter_002
    from tests.rules.seed003_battle import template as template_003
    from tests.rules.seed004_battle import fighter as fighter_004

    if key == "002":
        return fighter_002("Ann", ("longsword",))
    if key == "003":
        return template_003("swordsman")
    return fighter_004("Ann")


@pytest.mark.parametrize(("key", "crawl"), [("002", 2), ("003", 1), ("004", 1)])
def test_each_ruleset_lets_a_prone_fighter_crawl_only(key: str, crawl: int) -> None:
    """Seed 002 crawls its seed's 2 m (2 hexes) a round; 003 and 004 take the 3d6
    family's one hex a turn."""
    battle = _posture_battle(key, _fighter_of(key), Posture.PRONE)
    me = battle.state.combatant("m")
    start = me.hex
    assert movement_left(battle.state, get_ruleset(key), me)[1] == crawl
    too_far = start + Facing.S.vector.scale(crawl + 1)
    with pytest.raises(OverridableError, match=f"crawls {'one hex' if crawl == 1 else '2 hexes'}"):
        battle.execute(MoveCombatant("m", too_far))
    events = battle.execute(MoveCombatant("m", start + Facing.S.vector.scale(crawl)))
    assert of(events, Moved)[0].verb == "crawls"


@pytest.mark.parametrize("key", ["000", "002", "003", "004"])
def test_every_ruleset_answers_every_posture(key: str) -> None:
    """Standing moves freely, sitting not at all, lying at most a few hexes."""
    ruleset = get_ruleset(key)
    assert ruleset.turns.posture_move(Posture.STANDING).hexes is None
    assert ruleset.turns.posture_move(Posture.STANDING).move_fraction == 1
    for posture in (Posture.SITTING, Posture.SITTING_IN_CHAIR):
        assert ruleset.turns.posture_move(posture).hexes == 0
    for posture in (Posture.PRONE, Posture.CRAWLING, Posture.HANDS_AND_KNEES, Posture.KNEELING):
        move = ruleset.turns.posture_move(posture)
        assert move.hexes in (1, 2) and move.rule and move.citation is not None


def test_the_basic_table_cites_what_it_is_given() -> None:
    where = cite("base", "posture: movement (table of positions)")
    table = basic_posture_moves(where)
    assert set(table) == set(Posture)
    assert {m.citation for m in table.values()} == {where}
    crouch = table[Posture.DEEP_CROUCH]
    assert crouch.move_fraction == Fraction(2, 3)
    assert [crouch.move_points(m) for m in (1, 2, 3, 5, 6, 7)] == [1, 1, 2, 3, 4, 4]
    assert get_ruleset().turns.posture_move(Posture.PRONE).citation == cite(
        "base", "posture: movement (table of positions)"
    )
