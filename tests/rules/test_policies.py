"""The computer's policies (rules.play) and auto-play: each ruleset's demo battle
played to its end with no command refused and the same battle for the same seed,
and constructed cases where one choice is plainly better.

A modest set: the four demo battles (one of them twice), the seed 000 demo of the
catalog, and two constructed set-ups; not the issue's 1,000 random set-ups."""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path
from typing import cast

import pytest

from hexmap import Arc, Facing, Hex, arc_of
from rules.battle.battle import Battle
from rules.battle.catalog import load_demo_battle
from rules.battle.commands import Attack, MoveCombatant, PickUpItem, ReadyWeapon
from rules.battle.controllers import PolicyChoice
from rules.battle.items import item_from_weapon, item_id, take_from_hand
from rules.battle.savefile import read_battle
from rules.battle.state import BattleState
from rules.play.autoplay import auto_play
from rules.play.policies import AGGRESSIVE, decide
from rules.sets.registry import get_ruleset

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"
MAX_ROUNDS = 40


def demo(key: str) -> Battle:
    text = (BATTLES / f"demo-{key}.hexfray").read_text(encoding="utf-8")
    return read_battle(text, rulesets=get_ruleset)


@functools.cache
def played(key: str) -> tuple[Battle, object]:
    battle = demo(key)
    return battle, auto_play(battle, default=AGGRESSIVE, max_rounds=MAX_ROUNDS)


@pytest.mark.parametrize("key", ["000", "002", "003", "004"])
def test_each_demo_is_played_to_its_end_with_no_command_refused(key: str) -> None:
    battle, report = played(key)
    assert report.refused == []  # type: ignore[attr-defined]
    assert report.decided  # type: ignore[attr-defined]
    assert battle.state.outcome is not None and battle.state.outcome.round <= MAX_ROUNDS
    fighters = {c.id: c for c in battle.state.combatants}
    for decision in report.decisions:  # type: ignore[attr-defined]
        for command in decision.commands:
            if isinstance(command, Attack):  # never an ally
                assert fighters[command.attacker_id].side is not fighters[command.defender_id].side
        assert decision.reason.startswith(f"{fighters[decision.combatant_id].name} (aggressive) ")
    # What was played is ordinary commands: the log replays to the same end.
    again = Battle.replay(
        battle.initial, battle.seed, battle.commands, battle.dice_log, rulesets=get_ruleset
    )
    assert again.state == battle.state


@pytest.mark.parametrize("key", ["000", "004"])
def test_the_same_seed_gives_the_same_battle(key: str) -> None:
    first, _ = played(key)
    second = demo(key)
    auto_play(second, default=AGGRESSIVE, max_rounds=MAX_ROUNDS)
    assert second.commands == first.commands
    assert second.dice_log == first.dice_log


def test_the_catalog_demo_starts_its_turns_and_ends() -> None:
    grid, combatants = load_demo_battle()
    battle = Battle(BattleState(grid, combatants), 3, get_ruleset)
    # Four fighters who parry and block (the defender's answer) fight long.
    report = auto_play(battle, default=AGGRESSIVE, max_rounds=2 * MAX_ROUNDS)
    assert report.refused == [] and report.decided
    assert report.rounds <= 2 * MAX_ROUNDS


def test_a_gm_fighter_stops_auto_play_when_there_is_no_default() -> None:
    battle = demo("000")
    active = battle.state.active_id
    assert active is not None
    report = auto_play(battle, {active: None}, default=None)
    assert not report.decided and "GM" in report.stopped_for
    assert battle.commands == demo("000").commands


def duel(attacker_at: Hex, attacker_facing: Facing, **attacker: object) -> BattleState:
    """The sword-and-shield fighter (c1) against the flail fighter (c3) of the seed
    000 demo, the flail fighter at 5,5 facing north, c1 to act."""
    grid, combatants = load_demo_battle()
    by_id = {c.id: c for c in combatants}
    me = replace(by_id["c1"], hex=attacker_at, facing=attacker_facing, **attacker)  # type: ignore[arg-type]
    foe = replace(by_id["c3"], hex=Hex(5, 5), facing=Facing.N)
    return BattleState(grid, (me, foe), initiative=("c1", "c3"), active_id="c1")


def test_the_aggressive_policy_steps_to_the_rear_and_strikes_from_there() -> None:
    foe_at = Hex(5, 5)
    rear = foe_at.neighbor(Facing.S)
    state = duel(rear.neighbor(Facing.S), Facing.N)
    battle = Battle(state, 1, get_ruleset)
    ruleset = get_ruleset()
    first = decide(ruleset, battle.state, "c1", AGGRESSIVE)
    assert first is not None
    move = first.commands[0]
    assert isinstance(move, MoveCombatant) and move.destination == rear
    assert first.alternatives and len(first.alternatives) <= 3
    for command in first.commands:
        battle.execute(command)
    me = battle.state.combatant("c1")
    assert arc_of(me.hex, foe_at, Facing.N, battle.state.combatant("c3").handedness) is Arc.REAR
    second = decide(ruleset, battle.state, "c1", AGGRESSIVE)
    assert second is not None
    if not isinstance(second.commands[0], Attack):
        # The foe cannot strike back at its rear: all out first (Aggressive).
        assert "all out" in second.reason
        for command in second.commands:
            battle.execute(command)
        second = decide(ruleset, battle.state, "c1", AGGRESSIVE)
        assert second is not None
    assert isinstance(second.commands[0], Attack)
    assert second.reason.startswith("Sword-and-shield fighter (aggressive) attacks Flail fighter")
    assert "from the rear" in second.reason and "% to hit" in second.reason
    assert "injury expected" in second.reason


@pytest.mark.parametrize("key", ["aggressive", "careful", "skirmisher"])
def test_a_fighter_with_no_weapon_in_hand_draws_one(key: str) -> None:
    state = duel(Hex(5, 3), Facing.S, carried=frozenset({"broadsword"}))
    decision = decide(get_ruleset(), state, "c1", PolicyChoice(key))
    assert decision is not None
    assert decision.commands == (ReadyWeapon("c1", "broadsword"),)
    assert "no weapon in hand" in decision.reason


def test_the_careful_policy_falls_back_once_hurt_past_its_threshold() -> None:
    ruleset = get_ruleset()
    careful = PolicyChoice("careful", retreat_below=0.25)
    fresh = duel(Hex(5, 4), Facing.S)  # adjacent, in front of the foe
    attack = decide(ruleset, fresh, "c1", careful)
    assert attack is not None and "falls back" not in attack.reason
    hurt = duel(Hex(5, 4), Facing.S, hp=2)  # 10 of 12 hit points lost: 5/12 hurt
    assert ruleset.conditions.fighter_condition(hurt.combatant("c1")).hurt > 0.25
    retreat = decide(ruleset, hurt, "c1", careful)
    assert retreat is not None and "falls back to" in retreat.reason
    move = retreat.commands[0]
    assert isinstance(move, MoveCombatant)
    assert move.destination.distance(Hex(5, 5)) > 2
    # Not past an aggressive fighter's mind: it strikes.
    stays = decide(ruleset, hurt, "c1", AGGRESSIVE)
    assert stays is not None and isinstance(stays.commands[0], Attack)


def test_no_step_shows_its_rear_to_a_foe_who_reaches_it_when_another_serves() -> None:
    """The flail fighter (c3) at 5,5 faces north towards c1; the fencer (c4, its
    side) stands two hexes north-west of it facing south-east, so that on the hex
    between them c1 facing its foe would have the fencer at its back, within the
    rapier's reach. The flail fighter's other front diagonal serves as well."""
    grid, combatants = load_demo_battle()
    by_id = {c.id: c for c in combatants}
    foe_at = Hex(5, 5)
    me = replace(by_id["c1"], hex=Hex(5, 3), facing=Facing.S)
    foe = replace(by_id["c3"], hex=foe_at, facing=Facing.N)
    fencer_at = foe_at.neighbor(Facing.NW).neighbor(Facing.NW)
    fencer = replace(by_id["c4"], side=foe.side, hex=fencer_at, facing=Facing.SE)
    # c1's own side stands behind and beside the flail fighter: only the hexes in
    # front of it are left, and of its two front diagonals one is the trap.
    behind = [foe_at.neighbor(f) for f in (Facing.S, Facing.SE, Facing.SW)]
    allies = tuple(
        replace(by_id["c2"], id=f"ally{i}", hex=h, facing=Facing.N) for i, h in enumerate(behind)
    )
    state = BattleState(
        grid, (me, foe, fencer, *allies), initiative=("c1", "c3", "c4"), active_id="c1"
    )
    ruleset = get_ruleset()
    trap = foe_at.neighbor(Facing.NW)
    assert trap.distance(foe_at) == 1 and trap.distance(fencer_at) == 1
    assert arc_of(fencer_at, trap, Facing.SE, me.handedness) is Arc.REAR  # facing its foe
    moves = [a for a in ruleset.turns.legal_actions(state, "c1") if a.label.startswith("move")]
    assert any(cast(MoveCombatant, a.command).destination == trap for a in moves)
    decision = decide(ruleset, state, "c1", AGGRESSIVE)
    assert decision is not None
    battle = Battle(state, 1, get_ruleset)
    for command in decision.commands:
        battle.execute(command)
    placed = battle.state.combatant("c1")
    assert placed.hex != trap
    assert arc_of(fencer_at, placed.hex, placed.facing, me.handedness) is not Arc.REAR
    assert placed.hex.distance(foe_at) == 1  # and it still closed in


@pytest.mark.parametrize("key", ["aggressive", "careful", "skirmisher"])
def test_a_fighter_whose_weapon_was_knocked_away_picks_it_up(key: str) -> None:
    """c1's broadsword lies in the next hex: it picks it up rather than fight its
    foe, adjacent, bare-handed; two hexes off, it walks to it first."""
    for distance in (1, 2):
        state = duel(Hex(5, 4), Facing.S)
        me, _ = take_from_hand(state.combatant("c1"), "broadsword")
        sword = next(w for w in state.combatant("c1").fighter.weapons if w.key == "broadsword")
        lying = me.hex.neighbor(Facing.N) if distance == 1 else Hex(5, 1)
        state = state.with_combatants(me).with_new_item(
            item_from_weapon(sword, item_id(state.next_item), lying, "c1")
        )
        decision = decide(get_ruleset(), state, "c1", PolicyChoice(key))
        assert decision is not None
        if distance == 1:
            assert decision.commands == (PickUpItem("c1", "item-1"),)
            assert "no weapon in hand" in decision.reason
        else:
            move = decision.commands[0]
            assert isinstance(move, MoveCombatant)
            assert move.destination.distance(lying) <= 1
