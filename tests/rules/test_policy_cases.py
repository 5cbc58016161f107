"""Constructed battles where one choice is plainly better, in every ruleset: the
computer's policies (rules.play.policies) take it.

Each case is built from a ruleset's demo battle: two or three of its fighters,
put where the case needs them on its map, the first of them to act (the turns
running, round 1, no maneuver chosen yet)."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from hexmap import Arc, Facing, Hex, arc_of, in_front_arc
from rules.battle.battle import Battle
from rules.battle.commands import Attack, EndTurn, MoveCombatant, ReadyWeapon
from rules.battle.controllers import PolicyChoice
from rules.battle.hands import is_unarmed
from rules.battle.maneuvers import ManeuverChoice
from rules.battle.model import Combatant, Posture, Status
from rules.battle.savefile import read_battle
from rules.battle.state import BattleState
from rules.battle.turns import ChooseManeuver
from rules.play.policies import AGGRESSIVE, CAREFUL, SKIRMISHER, Decision, decide
from rules.sets.protocol import LegalAction
from rules.sets.registry import get_ruleset

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"
KEYS = ("000", "002", "003", "004")
# In each demo: a fighter with a one-hex melee weapon and a foe of the other side.
DUELISTS = {"000": ("c1", "c3"), "002": ("c1", "c3"), "003": ("c3", "c1"), "004": ("c4", "c1")}
# The middle of every demo's map, well clear of its edges.
MIDDLE = Hex(7, 2)


def demo_state(key: str) -> BattleState:
    text = (BATTLES / f"demo-{key}.hexfray").read_text(encoding="utf-8")
    return read_battle(text, rulesets=get_ruleset).state


def fighters(key: str) -> dict[str, Combatant]:
    return {c.id: c for c in demo_state(key).combatants}


def set_up(key: str, *placed: Combatant) -> Battle:
    """A battle of the demo's map and rules with only ``placed``, the first to act."""
    state = demo_state(key)
    ids = tuple(c.id for c in placed)
    state = replace(
        state, combatants=placed, initiative=ids, active_id=ids[0], items=(), outcome=None
    )
    return Battle(state, 7, get_ruleset)


def at(c: Combatant, where: Hex, facing: Facing, **changes: object) -> Combatant:
    return replace(c, hex=where, facing=facing, **changes)  # type: ignore[arg-type]


def named(c: Combatant, name: str) -> Combatant:
    return replace(c, fighter=replace(c.fighter, name=name))


def walk(start: Hex, *steps: Facing) -> Hex:
    for step in steps:
        start = start.neighbor(step)
    return start


def play_turn(
    battle: Battle, who: str, choice: PolicyChoice = AGGRESSIVE, limit: int = 8
) -> list[Decision]:
    """The fighter's decisions, executed, until it ends its turn (its EndTurn not run)."""
    decisions: list[Decision] = []
    for _ in range(limit):
        decision = decide(get_ruleset(battle.state.ruleset_key), battle.state, who, choice)
        assert decision is not None
        decisions.append(decision)
        if decision.ends_turn:
            break
        for command in decision.commands:
            battle.execute(command)
    return decisions


def first_attack(decisions: list[Decision]) -> Decision:
    return next(d for d in decisions if isinstance(d.commands[0], Attack))


@pytest.mark.parametrize("key", KEYS)
def test_it_walks_round_to_the_rear_and_strikes_from_there(key: str) -> None:
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    foe = at(by_id[foe_id], MIDDLE, Facing.N)
    me = at(by_id[me_id], walk(MIDDLE, Facing.S, Facing.S), Facing.N)
    battle = set_up(key, me, foe)
    attack = first_attack(play_turn(battle, me.id))
    placed = battle.state.combatant(me.id)
    assert arc_of(placed.hex, foe.hex, foe.facing, foe.handedness) is Arc.REAR
    assert f"attacks {foe.name} from the rear" in attack.reason
    assert in_front_arc(placed.hex, placed.facing, foe.hex)


@pytest.mark.parametrize("key", KEYS)
def test_from_the_foe_s_front_it_steps_to_its_side_before_striking(key: str) -> None:
    """In front of the foe's front diagonal, one step takes it to the foe's side:
    a blow from there meets less of a defense than one from the front."""
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    foe = at(by_id[foe_id], MIDDLE, Facing.N)
    me = at(by_id[me_id], MIDDLE.neighbor(Facing.NE), Facing.SW)
    battle = set_up(key, me, foe)
    decisions = play_turn(battle, me.id)
    assert isinstance(decisions[0].commands[0], MoveCombatant)
    attack = first_attack(decisions)
    placed = battle.state.combatant(me.id)
    arc = arc_of(placed.hex, foe.hex, foe.facing, foe.handedness)
    assert arc in (Arc.SHIELD_SIDE, Arc.WEAPON_SIDE, Arc.REAR)
    assert "side" in attack.reason or "rear" in attack.reason


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("choice", [AGGRESSIVE, CAREFUL, SKIRMISHER], ids=lambda c: c.key)
def test_each_move_ends_facing_its_chosen_foe(key: str, choice: PolicyChoice) -> None:
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    foe = at(by_id[foe_id], MIDDLE, Facing.N)
    me = at(by_id[me_id], walk(MIDDLE, Facing.N, Facing.N, Facing.N, Facing.N), Facing.N)
    battle = set_up(key, me, foe)
    moved = False
    for decision in play_turn(battle, me.id, choice):
        moved = moved or isinstance(decision.commands[0], MoveCombatant)
    placed = battle.state.combatant(me.id)
    assert moved and placed.hex != me.hex
    assert in_front_arc(placed.hex, placed.facing, foe.hex)


def test_the_fencer_ends_its_turn_facing_the_spearman_at_its_back() -> None:
    """Last session's fault: the fencer ended its turn facing away, the spearman
    at its rear. Alone with the spearman at its back, it turns to face him."""
    by_id = fighters("000")
    fencer = at(by_id["c4"], MIDDLE, Facing.N)
    spearman = at(by_id["c2"], MIDDLE.neighbor(Facing.S), Facing.N)
    battle = set_up("000", fencer, spearman)
    play_turn(battle, fencer.id)
    placed = battle.state.combatant(fencer.id)
    spear_at = battle.state.combatant(spearman.id).hex
    assert in_front_arc(placed.hex, placed.facing, spear_at)


@pytest.mark.parametrize("key", KEYS)
def test_it_never_attacks_an_ally_nor_out_of_reach_even_when_offered(key: str) -> None:
    """Attacks the legal actions would never list, handed to it: one on an ally
    beside it and one on a foe far out of reach. It ends its turn instead."""
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    me = at(by_id[me_id], MIDDLE, Facing.N)
    ally = at(by_id[foe_id], MIDDLE.neighbor(Facing.N), Facing.S, side=me.side, id="ally")
    foe = at(by_id[foe_id], walk(MIDDLE, *[Facing.S] * 6), Facing.N)
    battle = set_up(key, me, ally, foe)
    ruleset = get_ruleset(battle.state.ruleset_key)
    # Its plain attack as the legal actions offer it on a foe where the ally stands.
    beside = set_up(key, me, replace(ally, side=foe.side))
    plain = next(
        a.command.choices
        for a in ruleset.turns.legal_actions(beside.state, me.id)
        if isinstance(a.command, Attack)
    )
    forged = (
        LegalAction("attack the ally", Attack(me.id, ally.id, plain)),
        LegalAction("attack the far foe", Attack(me.id, foe.id, plain)),
        LegalAction("end the turn", EndTurn(), ends_turn=True),
    )
    decision = decide(ruleset, battle.state, me.id, AGGRESSIVE, actions=forged)
    assert decision is not None and decision.commands == (EndTurn(),)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("choice", [AGGRESSIVE, CAREFUL, SKIRMISHER], ids=lambda c: c.key)
def test_with_no_weapon_in_hand_it_draws_one(key: str, choice: PolicyChoice) -> None:
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    keys = frozenset(w.key for w in by_id[me_id].fighter.weapons if not is_unarmed(w))
    me = at(by_id[me_id], MIDDLE, Facing.N, carried=keys)
    foe = at(by_id[foe_id], walk(MIDDLE, Facing.N, Facing.N), Facing.S)
    battle = set_up(key, me, foe)
    decision = decide(get_ruleset(battle.state.ruleset_key), battle.state, me.id, choice)
    assert decision is not None
    assert isinstance(decision.commands[0], ReadyWeapon)
    assert "no weapon in hand" in decision.reason


# Seed 003 counts hurt from the wounds on each part of the body, not hit points:
# its hurt fighter is made by blows (the property tests meet it).
@pytest.mark.parametrize("key", ["000", "002", "004"])
def test_careful_falls_back_once_hurt_past_its_threshold(key: str) -> None:
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    foe = at(by_id[foe_id], MIDDLE, Facing.N)
    fresh_me = at(by_id[me_id], MIDDLE.neighbor(Facing.N), Facing.S)
    ruleset = get_ruleset(demo_state(key).ruleset_key)
    # The most hit points at which the ruleset counts it hurt past a quarter.
    hurt = next(
        replace(fresh_me, hp=hp)
        for hp in range(fresh_me.hp, 0, -1)
        if ruleset.conditions.fighter_condition(replace(fresh_me, hp=hp)).hurt > 0.25
    )
    assert ruleset.conditions.fighter_condition(hurt).able_to_act
    battle = set_up(key, hurt, foe)
    careful = PolicyChoice("careful", retreat_below=0.25)
    decision = decide(ruleset, battle.state, hurt.id, careful)
    assert decision is not None and "falls back to" in decision.reason
    move = decision.commands[0]
    assert isinstance(move, MoveCombatant) and move.destination.distance(foe.hex) > 1
    # Unhurt, the same careful fighter strikes.
    fresh = set_up(key, fresh_me, foe)
    blow = decide(ruleset, fresh.state, hurt.id, careful)
    assert blow is not None and "falls back" not in blow.reason


def test_aggressive_goes_all_out_at_a_stunned_foe_and_not_at_one_who_strikes_back() -> None:
    """Seed 000's all-out attack leaves no defense: worth it only when no foe can
    strike back on its next turn (a stunned foe cannot)."""
    by_id = fighters("000")
    me = at(by_id["c1"], MIDDLE.neighbor(Facing.N), Facing.S)
    foe = at(by_id["c3"], MIDDLE, Facing.N, status=Status.STUNNED)
    battle = set_up("000", me, foe)
    decision = decide(get_ruleset(battle.state.ruleset_key), battle.state, me.id, AGGRESSIVE)
    assert decision is not None and isinstance(decision.commands[0], ChooseManeuver)
    assert decision.commands[0].maneuver == "all-out-attack"
    assert "all out" in decision.reason
    awake = set_up("000", me, replace(foe, status=Status.ACTIVE))
    decision = decide(get_ruleset(awake.state.ruleset_key), awake.state, me.id, AGGRESSIVE)
    assert decision is not None and isinstance(decision.commands[0], Attack)


def test_careful_takes_a_defensive_maneuver_when_it_cannot_strike_and_is_struck_at() -> None:
    """The spearman's long spear reaches two hexes; the careful swordsman two hexes
    off it, its one way in blocked by its own side's fighter, cannot strike this
    turn: it goes on guard (all-out defense). Aggressive does not."""
    by_id = fighters("000")
    spearman = at(by_id["c2"], MIDDLE, Facing.S, side=by_id["c3"].side)
    between = MIDDLE.neighbor(Facing.S)
    me = at(by_id["c1"], between.neighbor(Facing.S), Facing.N)
    friend = at(by_id["c3"], between, Facing.N, side=me.side, id="friend")
    battle = set_up("000", me, spearman, friend)
    ruleset = get_ruleset(battle.state.ruleset_key)
    decision = decide(ruleset, battle.state, me.id, CAREFUL)
    assert decision is not None and isinstance(decision.commands[0], ChooseManeuver)
    terms = ruleset.turns.maneuver(decision.commands[0].maneuver).terms(decision.commands[0].option)
    assert terms.defense_bonus > 0 and terms.attacks == 0
    assert "defensive maneuver" in decision.reason
    bold = decide(ruleset, battle.state, me.id, AGGRESSIVE)
    assert bold is not None and not isinstance(bold.commands[0], ChooseManeuver)


@pytest.mark.parametrize(("key", "archer_id", "foe_id"), [("002", "c2", "c3"), ("003", "c2", "c3")])
@pytest.mark.parametrize("choice", [AGGRESSIVE, CAREFUL, SKIRMISHER], ids=lambda c: c.key)
def test_an_archer_with_a_foe_alongside_steps_off_and_shoots(
    key: str, archer_id: str, foe_id: str, choice: PolicyChoice
) -> None:
    """Last session's fault: the archer stood stuck with its bow. With a foe
    alongside it steps back and shoots; it does not walk into the foe."""
    by_id = fighters(key)
    archer = at(by_id[archer_id], MIDDLE, Facing.N)
    foe = at(by_id[foe_id], MIDDLE.neighbor(Facing.N), Facing.S)
    battle = set_up(key, archer, foe)
    decisions = play_turn(battle, archer.id, choice)
    attack = first_attack(decisions)
    assert "bow" in attack.label.lower()
    # Where the ruleset lets a bow shoot at a foe alongside it shoots from there;
    # else it steps off first. Never towards the foe.
    assert battle.state.combatant(archer.id).hex.distance(foe.hex) >= 1
    for decision in decisions:
        move = decision.commands[0]
        if isinstance(move, MoveCombatant):
            assert move.destination.distance(foe.hex) == 2


@pytest.mark.parametrize(
    ("key", "archer_id", "foe_id", "swordsman_id"),
    [("002", "c2", "c3", "c1"), ("003", "c2", "c3", "c1")],
)
def test_a_skirmisher_shoots_from_afar_and_a_swordsman_skirmisher_closes_in(
    key: str, archer_id: str, foe_id: str, swordsman_id: str
) -> None:
    by_id = fighters(key)
    far = walk(MIDDLE, *[Facing.N] * 5)
    archer = at(by_id[archer_id], MIDDLE, Facing.N)
    foe = at(by_id[foe_id], far, Facing.S)
    battle = set_up(key, archer, foe)
    decisions = play_turn(battle, archer.id, SKIRMISHER)
    assert "bow" in first_attack(decisions).label.lower()
    assert battle.state.combatant(archer.id).hex.distance(far) >= 4  # it kept off
    # With no missile or thrown weapon it closes in as Aggressive does.
    swordsman = at(by_id[swordsman_id], MIDDLE, Facing.N)
    battle = set_up(key, swordsman, foe)
    play_turn(battle, swordsman.id, SKIRMISHER)
    assert battle.state.combatant(swordsman.id).hex.distance(far) < 5


@pytest.mark.parametrize(
    ("target", "picked"), [("nearest", "near"), ("weakest", "hurt"), ("most-dangerous", "archer")]
)
def test_each_target_setting_picks_its_foe(target: str, picked: str) -> None:
    """Seed 002: Hrolf, three foes out of his reach: a swordsman four hexes off
    (the nearest), a hurt one further (the weakest) and the archer, whose bow
    reaches him now (the most dangerous). He goes for the one his setting picks."""
    by_id = fighters("002")
    me = at(by_id["c3"], MIDDLE, Facing.N)
    near = named(at(by_id["c1"], walk(MIDDLE, *[Facing.N] * 4), Facing.S, id="near"), "Near")
    hurt = named(at(by_id["c1"], walk(MIDDLE, *[Facing.S] * 5), Facing.N, id="hurt", hp=3), "Hurt")
    archer = named(
        at(by_id["c2"], walk(MIDDLE, *[Facing.SE] * 6), Facing.NW, id="archer"), "Bowman"
    )
    battle = set_up("002", me, near, hurt, archer)
    choice = PolicyChoice("aggressive", target=target)
    decision = decide(get_ruleset(battle.state.ruleset_key), battle.state, me.id, choice)
    assert decision is not None
    move = decision.commands[0]
    assert isinstance(move, MoveCombatant)
    chosen = battle.state.combatant(picked)
    assert chosen.name in decision.reason
    assert move.destination.distance(chosen.hex) < me.hex.distance(chosen.hex)


@pytest.mark.parametrize("key", KEYS)
def test_its_way_goes_round_other_fighters_and_stays_on_the_map(key: str) -> None:
    """A wall of its own side between it and the foe: every move the legal actions
    offer, and the one it takes, walks round the occupied hexes, hex by adjacent
    hex on the map. (Terrain never bars a hex in Hexfray's map: fighters and the
    map's edge are what a way goes round.)"""
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    me = at(by_id[me_id], walk(MIDDLE, Facing.S, Facing.S), Facing.N)
    foe = at(by_id[foe_id], walk(MIDDLE, Facing.N, Facing.N), Facing.S)
    wall_at = (MIDDLE, MIDDLE.neighbor(Facing.NW), MIDDLE.neighbor(Facing.SE))
    wall = tuple(
        at(by_id[me_id], h, Facing.N, id=f"wall{i}", side=me.side) for i, h in enumerate(wall_at)
    )
    battle = set_up(key, me, foe, *wall)
    ruleset = get_ruleset(battle.state.ruleset_key)
    occupied = {c.hex for c in battle.state.combatants if c.id != me.id}
    for action in ruleset.turns.legal_actions(battle.state, me.id):
        move = action.command
        if isinstance(move, MoveCombatant):
            path = move.path or ()
            assert path[0] == me.hex and path[-1] == move.destination
            assert not occupied & set(path[1:])
            assert all(h in battle.state.grid for h in path)
            assert all(a.distance(b) == 1 for a, b in pairwise(path))
    decisions = play_turn(battle, me.id)
    moves = [d.commands[0] for d in decisions if isinstance(d.commands[0], MoveCombatant)]
    assert moves
    for move in moves:
        assert isinstance(move, MoveCombatant)
        assert not occupied & set(move.path or ())
    assert battle.state.combatant(me.id).hex.distance(foe.hex) < me.hex.distance(foe.hex)


def test_careful_stands_on_guard_rather_than_strike_with_a_poor_chance() -> None:
    """The flail fighter's blows hardly land on the sword-and-shield fighter, who
    blocks them (less than one in five against his likeliest defense): careful,
    he takes a defensive maneuver; aggressive, he strikes all the same."""
    by_id = fighters("000")
    me = at(by_id["c3"], MIDDLE, Facing.N)
    foe = at(by_id["c1"], MIDDLE.neighbor(Facing.N), Facing.S)
    battle = set_up("000", me, foe)
    ruleset = get_ruleset(battle.state.ruleset_key)
    careful = decide(ruleset, battle.state, me.id, CAREFUL)
    assert careful is not None and isinstance(careful.commands[0], ChooseManeuver)
    assert "defensive maneuver" in careful.reason
    bold = decide(ruleset, battle.state, me.id, AGGRESSIVE)
    assert bold is not None and isinstance(bold.commands[0], Attack)
    assert int(bold.reason.split(": ")[1].split("%")[0]) < 20
    # One turn in two: on guard last turn, it strikes this one.
    guarded = replace(me, maneuver_last_turn=ManeuverChoice("all-out-defense", "dodge"))
    again = set_up("000", guarded, foe)
    strikes = decide(ruleset, again.state, me.id, CAREFUL)
    assert strikes is not None and isinstance(strikes.commands[0], Attack)


@pytest.mark.parametrize("key", KEYS)
def test_no_step_shows_its_back_to_a_second_foe_when_another_hex_serves(key: str) -> None:
    """The foe faces north towards it; a second foe stands two hexes north-west of
    the foe, facing south-east. Its own side holds the foe's back hexes, so of the
    foe's two front diagonals one leaves the second foe at its back, within reach:
    it takes the other."""
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    foe = at(by_id[foe_id], MIDDLE, Facing.N)
    second_at = walk(MIDDLE, Facing.NW, Facing.NW)
    second = at(by_id[foe_id], second_at, Facing.SE, id="second")
    me = at(by_id[me_id], walk(MIDDLE, Facing.N, Facing.N), Facing.S)
    behind = [MIDDLE.neighbor(f) for f in (Facing.S, Facing.SE, Facing.SW)]
    friends = tuple(at(by_id[me_id], h, Facing.N, id=f"friend{i}") for i, h in enumerate(behind))
    battle = set_up(key, me, foe, second, *friends)
    trap = MIDDLE.neighbor(Facing.NW)
    play_turn(battle, me.id)
    placed = battle.state.combatant(me.id)
    assert placed.hex != trap
    assert arc_of(second_at, placed.hex, placed.facing, me.handedness) is not Arc.REAR
    assert placed.hex.distance(foe.hex) <= 2  # and it still closed in


def test_a_hurt_careful_fighter_does_not_run_from_an_archer() -> None:
    """Falling back helps against a foe who must close in to strike, not against a
    bow: hurt past its threshold, with only an archer (no weapon in hand but the
    bow) far off, it goes for the archer."""
    by_id = fighters("002")
    ruleset = get_ruleset(demo_state("002").ruleset_key)
    fresh = at(by_id["c3"], MIDDLE, Facing.N)
    hurt = replace(fresh, hp=2)
    assert ruleset.conditions.fighter_condition(hurt).hurt > 0.5
    archer = at(by_id["c2"], walk(MIDDLE, *[Facing.N] * 5), Facing.S)
    battle = set_up("002", hurt, archer)
    decision = decide(ruleset, battle.state, hurt.id, CAREFUL)
    assert decision is not None and "falls back" not in decision.reason
    move = decision.commands[0]
    assert isinstance(move, MoveCombatant)
    assert move.destination.distance(archer.hex) < hurt.hex.distance(archer.hex)
    # A swordsman as far off closes in on it in one turn: it falls back from him.
    swordsman = at(by_id["c1"], archer.hex, Facing.S)
    battle = set_up("002", hurt, swordsman)
    decision = decide(ruleset, battle.state, hurt.id, CAREFUL)
    assert decision is not None and "falls back" in decision.reason


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("choice", [AGGRESSIVE, CAREFUL, SKIRMISHER], ids=lambda c: c.key)
def test_a_fighter_knocked_down_gets_up(key: str, choice: PolicyChoice) -> None:
    """Last session's fault: a fighter knocked prone lay there for the rest of the
    battle. Where its ruleset lets it change posture, it stands up first, and the
    battle accepts it."""
    me_id, foe_id = DUELISTS[key]
    by_id = fighters(key)
    me = at(by_id[me_id], MIDDLE, Facing.N, posture=Posture.PRONE)
    foe = at(by_id[foe_id], MIDDLE.neighbor(Facing.N), Facing.S)
    battle = set_up(key, me, foe)
    ruleset = get_ruleset(battle.state.ruleset_key)
    offered = [a for a in ruleset.turns.legal_actions(battle.state, me.id) if a.label == "stand up"]
    if key in ("000", "002"):
        assert offered  # their Change posture maneuver permits it
    if not offered:
        return
    decision = decide(ruleset, battle.state, me.id, choice)
    assert decision is not None and decision.label == "stand up"
    for command in decision.commands:
        battle.execute(command)
    assert battle.state.combatant(me.id).posture is Posture.STANDING
