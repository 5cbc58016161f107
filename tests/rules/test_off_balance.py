"""Off-balance at the battle level ("000 CRITICAL MISSES ON DEFENSE ROLLS", Dodge):
a fumbled dodge that keeps the dodger on his feet leaves him off-balance, and he
may not attack until the end of his next turn; the critical miss table's lost
balance lasts only until his next turn begins (rules.sets.seed000.balance). Every
test executes commands on a ``Battle``, with the dice scripted where they matter."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, EndTurn
from rules.battle.state import BattleState
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalAttackError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack_events import DefenseMishapResolved, DefenseRolled
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.balance import BalanceRegained, lose_balance
from rules.sets.seed000.checks import Outcome
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.tracks import BalanceBack, tracks_of
from tests.rules.battle_level import BROADSWORD, RAPIER, Make, duel, of, started

DODGED = replace(RAPIER, defenses=(DefenseChoice(DefenseKind.DODGE),))
# The fencer's thrust hits (7), the swordsman's dodge is an 18 (a disaster), his DX
# roll to keep his feet a 9 (he stays up, off-balance), then the thrust's damage die.
FUMBLED_DODGE = (2, 2, 3, 6, 6, 6, 3, 3, 3, 1)


def off_balance_after_a_fumbled_dodge(make: Make) -> Battle:
    """The duel in turn order, the fencer's turn: the swordsman's dodge fumbled."""
    battle = started(duel(make))
    assert battle.state.active_id == "f"
    events = battle.execute(attack_command("f", "s", DODGED), ScriptedDice(FUMBLED_DODGE))
    (dodge,) = of(events, DefenseRolled)
    assert dodge.roll.outcome is Outcome.CRITICAL_FAILURE
    (mishap,) = of(events, DefenseMishapResolved)
    assert "off-balance" in mishap.applied and "until the end of his next turn" in mishap.applied
    # Even a GM who sets the turn rules aside cannot have him strike back now.
    with pytest.raises(IllegalAttackError, match=r"off-balance.*until the end of its next turn"):
        battle.execute(Attack("s", "f", BROADSWORD, gm_override=True))
    return battle


def test_off_balance_forbids_attacks_until_the_end_of_the_next_turn(make: Make) -> None:
    battle = off_balance_after_a_fumbled_dodge(make)
    ruleset = get_ruleset("000")
    battle.execute(EndTurn())  # the swordsman's own next turn begins: still off-balance
    assert battle.state.active_id == "s"
    assert tracks_of(battle.state.combatant("s")).off_balance
    with pytest.raises(IllegalAttackError, match=r"off-balance.*until the end of this turn"):
        battle.execute(Attack("s", "f", BROADSWORD))
    offered = ruleset.turns.legal_actions(battle.state, "s")
    assert not [a for a in offered if isinstance(a.command, Attack)]
    ended = battle.execute(EndTurn())  # the end of that turn: balance regained
    (back,) = of(ended, BalanceRegained)
    assert back.combatant_id == "s" and "regains balance" in back.describe()
    assert not tracks_of(battle.state.combatant("s")).off_balance
    battle.execute(EndTurn())  # the fencer's turn, then the swordsman's again
    assert battle.state.active_id == "s"
    assert [
        a for a in ruleset.turns.legal_actions(battle.state, "s") if isinstance(a.command, Attack)
    ]
    battle.execute(Attack("s", "f", BROADSWORD))  # allowed again


def test_off_balance_doubles_defense_penalties_through_the_next_turn(make: Make) -> None:
    battle = off_balance_after_a_fumbled_dodge(make)
    battle.execute(EndTurn())  # the swordsman's turn
    battle.execute(EndTurn())  # the fencer's again: the swordsman is steady once more
    assert battle.state.active_id == "f"
    assert not tracks_of(battle.state.combatant("s")).off_balance


def test_a_fumbled_dodge_in_free_play_lasts_through_the_next_round(make: Make) -> None:
    # Before the order is rolled every fighter's turn is the whole round: the
    # fumble's round, then the next one, the fighter's "next turn".
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    d = lose_balance(d, BalanceBack.AFTER_NEXT_TURN)
    battle = Battle(BattleState(HexGrid(10, 10), (d,)), 1, get_ruleset)
    assert not of(battle.execute(EndTurn()), BalanceRegained)
    assert tracks_of(battle.state.combatant("d")).off_balance
    assert of(battle.execute(EndTurn()), BalanceRegained)
    assert not tracks_of(battle.state.combatant("d")).off_balance


def test_the_critical_miss_tables_lost_balance_ends_when_the_next_turn_begins(
    make: Make,
) -> None:
    battle = started(duel(make))
    fencer = lose_balance(battle.state.combatant("f"), BalanceBack.AT_NEXT_TURN)
    battle = Battle(battle.state.with_combatants(fencer), 3, get_ruleset)
    with pytest.raises(IllegalAttackError, match=r"off-balance.*until its next turn \("):
        battle.execute(Attack("f", "s", RAPIER))  # no action until the next turn
    battle.execute(EndTurn())  # the swordsman's turn: the fencer is still unsteady
    assert tracks_of(battle.state.combatant("f")).off_balance
    began = battle.execute(EndTurn())  # the fencer's next turn begins
    assert of(began, BalanceRegained)
    assert not tracks_of(battle.state.combatant("f")).off_balance
    battle.execute(Attack("f", "s", RAPIER))


def test_a_second_loss_of_balance_keeps_the_later_end(make: Make) -> None:
    c = make("fencer", Hex(1, 1), Facing.S, id="c")
    long = lose_balance(c, BalanceBack.AFTER_NEXT_TURN)
    assert tracks_of(lose_balance(long, BalanceBack.AT_NEXT_TURN)).balance_back is (
        BalanceBack.AFTER_NEXT_TURN
    )
    short = lose_balance(c, BalanceBack.AT_NEXT_TURN)
    assert tracks_of(lose_balance(short, BalanceBack.AFTER_NEXT_TURN)).balance_back is (
        BalanceBack.AFTER_NEXT_TURN
    )
