"""Every legal action the rulesets offer is one the battle accepts, and the attacks
offered are what the seeds let a fighter choose.

Each ruleset's demo battle is played for a few rounds by the demo test's policy
(``tests.rules.test_demo_battles.play_rounds``); from a few of the states it went
through, every action offered to every fighter is executed, command by command,
on a copy of the battle: none may be refused. The attacks carry the attacker's
choices only (``Attack.answer`` is None: the defender answers for itself)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from rules.battle.battle import Battle
from rules.battle.commands import Attack, EndTurn, MoveCombatant, TurnCombatant
from rules.battle.state import BattleState, Command
from rules.sets.protocol import LegalAction, Ruleset
from rules.sets.registry import get_ruleset, ruleset_keys, ruleset_of
from rules.sets.seed000.attack import AttackOptions, WeaponAttack
from rules.sets.seed000.ruleset import seed000_ruleset
from tests.rules.battle_level import Make, duel, started
from tests.rules.test_demo_battles import load_demo, play_rounds

ROUNDS = 3
STATES = 6  # states of each demo whose every offered action is executed


def played_states(key: str) -> list[BattleState]:
    """The states a demo went through in ``ROUNDS`` rounds, one before each command."""
    battle = load_demo(key)
    seen: list[BattleState] = []

    def run(command: Command) -> object:
        seen.append(battle.state)
        return battle.execute(command)

    play_rounds(battle, ROUNDS, run)
    return seen


def sample(states: list[BattleState], ruleset: Ruleset) -> list[BattleState]:
    """``STATES`` of ``states``, those where the active fighter may attack first (the
    attacks are what differs most), spread over the rounds."""
    attacking = [
        s
        for s in states
        if s.active_id is not None
        and any(isinstance(a.command, Attack) for a in ruleset.turns.legal_actions(s, s.active_id))
    ]
    others = [s for s in states if s not in attacking]
    half = STATES // 2
    return [*spread(attacking, half), *spread(others, half)]


def spread(states: list[BattleState], count: int) -> list[BattleState]:
    """``count`` of ``states`` at even steps, from the first."""
    return states[:: max(1, len(states) // count)][:count]


def refusals(state: BattleState, action: LegalAction) -> str | None:
    copy = Battle(state, 11, get_ruleset)
    try:
        for command in action.commands:
            copy.execute(command)
    except Exception as exc:  # any refusal or fault is what this test looks for
        return f"{action.label}: {exc}"
    return None


@pytest.mark.parametrize("key", ruleset_keys())
def test_every_offered_action_is_accepted_by_the_battle(key: str) -> None:
    states = played_states(key)
    ruleset = ruleset_of(states[0])
    picked = sample(states, ruleset)
    offered: Counter[str] = Counter()
    refused = []
    for state in picked:
        for combatant in state.combatants:
            for action in ruleset.turns.legal_actions(state, combatant.id):
                offered[type(action.command).__name__] += 1
                if isinstance(action.command, Attack):
                    assert action.command.answer is None, action.label
                assert action.ends_turn is isinstance(action.command, EndTurn)
                problem = refusals(state, action)
                if problem is not None:
                    refused.append(problem)
    assert not refused, refused[:10]
    assert offered["Attack"] and offered["MoveCombatant"] and offered["EndTurn"], offered


@pytest.mark.parametrize("option", sorted(get_ruleset("000").available_options))
def test_seed000s_hit_location_options_offer_only_accepted_attacks(option: str) -> None:
    """The seed 000 demo under each hit location system: its aims differ."""
    ruleset = get_ruleset("000", (option,))
    states = [s for s in played_states("000") if s.active_id is not None]
    refused = []
    attacks = 0
    for state in states[:: max(1, len(states) // STATES)]:
        ruled = replace(state, ruleset_options=(option,))
        assert state.active_id is not None
        for action in ruleset.turns.legal_actions(ruled, state.active_id):
            if isinstance(action.command, Attack):
                attacks += 1
                problem = refusals(ruled, action)
                if problem is not None:
                    refused.append(problem)
    assert attacks and not refused, refused[:10]


def test_moves_are_destinations_with_the_facings_the_fighter_may_end_in() -> None:
    """At the seed 000 demo's first turn: a move to each free hex within the
    fighter's Move, walked in its facing (1 MP a step ahead, 2 to the side or
    back), ending in its facing or turned to any other it can still pay for."""
    state = load_demo("000").state
    me = state.combatant(state.active_id or "")
    actions = get_ruleset("000").turns.legal_actions(state, me.id)
    moves = [a for a in actions if isinstance(a.command, MoveCombatant)]
    assert moves and not any(a.ends_turn for a in moves)
    for action in moves:
        move = action.command
        assert isinstance(move, MoveCombatant) and move.path is not None
        assert move.path[0] == me.hex and move.path[-1] == move.destination
        assert all(isinstance(c, TurnCombatant) for c in action.then)
    destinations = {a.command.destination for a in moves if isinstance(a.command, MoveCombatant)}
    assert me.hex.neighbor(me.facing) in destinations
    assert all(me.hex.distance(d) <= me.fighter.move for d in destinations)
    # Each destination once in the fighter's own facing, and once for each
    # other facing it may still turn to there.
    plain = [a for a in moves if not a.then]
    assert len(plain) == len(destinations)


# --- the attacks offered, counted against the seeds -----------------------------------


def _plain_aims(actions: tuple[LegalAction, ...], mode: str) -> list[str | None]:
    """The locations of the swordsman's plain aimed blows (no chink, no random
    location, no strike at a weapon, no subduing) with ``mode``."""
    aims: list[str | None] = []
    for action in actions:
        command = action.command
        if not isinstance(command, Attack) or not isinstance(command.choices, AttackOptions):
            continue
        c = command.choices
        if c.mode == mode and not (c.chink or c.random_location or c.weapon_attack or c.subdue):
            aims.append(c.location)
    return aims


@pytest.mark.parametrize(
    ("options", "swing_refused", "thrust_refused"),
    [
        # 000 RANDOM BODY HIT notes 5 and 10: no swing through the eye-slits; only an
        # impaling attack goes through the armpit into the vitals.
        ((), {"eyes_eyeslits", "armpit_vitals"}, {"armpit_vitals"}),
        # 001 Hit Location: the eye and the vitals take only impaling, piercing and
        # tight-beam burning attacks; the broadsword cuts with a swing and crushes
        # with a thrust.
        (("locations-001",), {"eye", "vitals"}, {"eye", "vitals"}),
    ],
)
def test_a_broadsword_offers_swing_and_thrust_at_every_location_it_may_aim_at(
    make: Make,
    options: tuple[str, ...],
    swing_refused: set[str],
    thrust_refused: set[str],
) -> None:
    ruleset = seed000_ruleset(options)
    battle = started(replace(duel(make), ruleset_options=options))
    battle.execute(EndTurn())  # the swordsman's turn
    actions = ruleset.turns.legal_actions(battle.state, "s")
    keys = ruleset.hit_locations.aim_keys(shielded=False)  # the fencer carries no shield
    for mode, refused in (("swing", swing_refused), ("thrust", thrust_refused)):
        aims = _plain_aims(actions, mode)
        assert aims[0] is None  # the unaimed blow first
        assert len(aims) == len(set(aims)) == 1 + len(keys) - len(refused)
        assert set(aims[1:]) == set(keys) - refused, mode
    attacks = [a.command for a in actions if isinstance(a.command, Attack)]
    assert {a.defender_id for a in attacks} == {"f"}
    assert len(attacks) == len(set(attacks))  # each distinct attack once
    # Each mode also at a random location, and the attacker's own options.
    chosen = [a.choices for a in attacks if isinstance(a.choices, AttackOptions)]
    assert sum(c.random_location for c in chosen) == 2
    assert {c.weapon_attack for c in chosen} >= {None, *WeaponAttack}
