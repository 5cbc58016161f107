"""The shared legal actions (rules.sets.components.legal_actions), through Battle
on the seed 000 duel: their order, the turn and maneuver limits, and each of the
knobs a ruleset turns (helpless, attackable, may_attack, pick_up,
maneuvers_before_turns)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.battle import commands
from rules.battle.battle import Battle
from rules.battle.catalog import load_catalog
from rules.battle.commands import Attack, EndTurn, PickUpItem
from rules.battle.hands import put_away
from rules.battle.items import item_from_weapon
from rules.battle.model import Status
from rules.battle.state import BattleState, Command
from rules.battle.turns import ChooseManeuver
from rules.core.dice import ScriptedDice
from rules.sets.components.legal_actions import legal_actions
from rules.sets.protocol import LegalAction
from rules.sets.registry import get_ruleset
from rules.sets.seed000.ruleset import seed000_ruleset
from tests.rules.battle_level import BROADSWORD, HOME, MISS, Make, duel, started

RULESET = get_ruleset()
OFFERED = seed000_ruleset().attacks.offered_attacks


def _legal(
    state: BattleState, combatant_id: str, **knobs: Any
) -> tuple[LegalAction, ...]:
    """The shared legal actions with seed 000's attacks and ``knobs``."""
    return legal_actions(RULESET, state, combatant_id, attacks=OFFERED, **knobs)


def _commands(actions: tuple[LegalAction, ...]) -> list[Command]:
    return [a.command for a in actions]


def _kinds(actions: tuple[LegalAction, ...]) -> list[type]:
    """The command kinds in order, each run of one kind once."""
    kinds: list[type] = []
    for a in actions:
        if not kinds or kinds[-1] is not type(a.command):
            kinds.append(type(a.command))
    return kinds


def _with_sword_on_the_floor(state: BattleState) -> BattleState:
    sword = state.combatant("s").fighter.weapons[0]
    return replace(state, items=(item_from_weapon(sword, "item-1", HOME),))


def test_the_order_is_maneuvers_attacks_ready_pick_up_steps_turns_end(make: Make) -> None:
    """The fencer with its rapier unready and bare hands instead of the main-gauche:
    a hand free for the sword on the floor."""
    catalog = load_catalog()
    state = duel(make, weapons=(catalog.weapon("rapier"), catalog.weapon("fist")))
    f = state.combatant("f")
    state = _with_sword_on_the_floor(
        state.with_combatants(replace(f, unready=frozenset({"rapier"})))
    )
    battle = started(state)
    actions = _legal(battle.state, "f")
    assert _kinds(actions) == [
        ChooseManeuver,
        Attack,
        commands.ReadyWeapon,
        PickUpItem,
        commands.MoveCombatant,
        commands.TurnCombatant,
        EndTurn,
    ]  # the rapier unready, its bare hands reach the swordsman
    assert actions == RULESET.turns.legal_actions(battle.state, "f")
    assert _legal(battle.state, "s") == ()  # not its turn
    labels = [a.label for a in actions]
    assert "ready rapier" in labels and labels[-1] == "end the turn"
    assert len([c for c in _commands(actions) if isinstance(c, commands.TurnCombatant)]) == 5


def test_an_attack_on_the_foe_in_reach_until_the_maneuver_has_none_left(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(EndTurn())  # the fencer's turn passes; the swordsman's begins
    mine = _commands(_legal(battle.state, "s"))
    assert {c.defender_id for c in mine if isinstance(c, Attack)} == {"f"}
    assert ChooseManeuver("s", "move") in mine
    battle.execute(Attack("s", "f", BROADSWORD), ScriptedDice(MISS))
    mine = _commands(_legal(battle.state, "s"))
    assert not any(isinstance(c, Attack) for c in mine)
    assert ChooseManeuver("s", "move") not in mine  # it attacked: Move no longer fits


def test_a_helpless_fighter_may_only_end_its_turn(make: Make) -> None:
    battle = started(duel(make))
    assert _legal(battle.state, "f", helpless=lambda c: True) == (
        LegalAction("end the turn", EndTurn(), ends_turn=True),
    )
    assert _legal(battle.state, "s", helpless=lambda c: True) == ()


def test_attackable_picks_the_foes_an_unconscious_one_included_by_default(make: Make) -> None:
    state = duel(make)
    s = state.combatant("s")
    battle = started(state.with_combatants(replace(s, status=Status.UNCONSCIOUS)))
    attacks = [
        c for c in _commands(_legal(battle.state, "f")) if isinstance(c, Attack)
    ]
    assert attacks and {c.defender_id for c in attacks} == {"s"}
    only_defenders = _legal(battle.state, "f", attackable=lambda foe: foe.status.can_defend)
    assert not any(isinstance(c, Attack) for c in _commands(only_defenders))
    assert not any(
        isinstance(c, Attack) for c in _commands(RULESET.turns.legal_actions(battle.state, "f"))
    )


def test_may_attack_pick_up_and_maneuvers_before_turns(make: Make) -> None:
    state = _with_sword_on_the_floor(duel(make))
    # The swordsman's sword put away: a hand free for the one on the floor.
    state = state.with_combatants(put_away(state.combatant("s"), "broadsword"))
    before = Battle(state, 3, get_ruleset)  # the order not rolled yet
    both = _commands(_legal(before.state, "s"))
    assert any(isinstance(c, ChooseManeuver) for c in both)
    assert PickUpItem("s", "item-1") in both  # the item lies next to it
    plain = _commands(
        _legal(
            before.state,
            "s",
            may_attack=lambda r, st, me: False,
            pick_up=False,
            maneuvers_before_turns=False,
        )
    )
    assert not any(isinstance(c, ChooseManeuver | Attack | PickUpItem) for c in plain)
    assert EndTurn() not in plain  # nobody's turn before the order is rolled
    assert plain == [c for c in both if not isinstance(c, ChooseManeuver | Attack | PickUpItem)]
