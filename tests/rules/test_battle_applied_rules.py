"""Issue 11's weapon, stance and critical-hit rules as the battle applies them:
every test executes commands on a ``Battle`` and reads the resulting state and
events (broken weapons' reduced damage, note 13's shield PD, refused and open
stances, a 1/2-class disarm, the blunt end's Ready, pulled blows and shots at
weapons with missiles, critical hits).

Dice come from seeded battles found by searching (``first_battle``), never from
magic numbers."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TypeVar

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, DropItem, PickUpItem
from rules.battle.items import ItemDropped, ItemPickedUp
from rules.battle.model import Combatant
from rules.battle.state import BattleState, Command
from rules.core.events import Event
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, WeaponAttack
from rules.sets.seed000.attack_events import DamageDealt, WeaponBroke

Make = Callable[..., Combatant]
E = TypeVar("E", bound=Event)


def of(events: Sequence[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def first_battle(
    state: BattleState,
    commands: Sequence[Command],
    want: Callable[[Battle, tuple[tuple[Event, ...], ...]], bool],
    limit: int = 3000,
) -> tuple[Battle, tuple[tuple[Event, ...], ...]]:
    """The first battle seed (0, 1, 2 ...) under which ``commands`` all execute and
    their event batches satisfy ``want``."""
    for seed in range(limit):
        battle = Battle(state, seed, get_ruleset)
        batches = tuple(battle.execute(command) for command in commands)
        if want(battle, batches):
            return battle, batches
    raise AssertionError(f"no seed below {limit} gives the wanted situation")


# --- 000 BROKEN WEAPONS: the reduced damage stays with the weapon ----------------------


def test_a_broken_sword_cuts_at_half_damage_in_hand_and_after_a_drop_and_pick_up(
    make: Make,
) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (a, d))
    smash = Attack(
        "a",
        "d",
        AttackOptions(
            "morningstar", "swing", target_weapon_key="broadsword", weapon_attack=WeaponAttack.BREAK
        ),
    )

    def blade_broke(battle: Battle, batches: tuple[tuple[Event, ...], ...]) -> bool:
        broke = of(batches[0], WeaponBroke)
        return bool(broke) and broke[0].result.outcome == "broken_blade"

    battle, _ = first_battle(state, (smash,), blade_broke)
    broken_key = "broadsword:broken"
    held = battle.state.combatant("d").fighter.weapon(broken_key)
    assert held.mode("swing").damage.factor == Fraction(1, 2)
    cut = Attack("d", "a", AttackOptions(broken_key, "swing"))

    def halved_blow(events: tuple[Event, ...]) -> None:
        (dealt,) = of(events, DamageDealt)
        assert dealt.damage.basic == math.floor(dealt.damage.roll.total / 2)
        if dealt.damage.roll.total > 1:  # the log says so
            assert f"reduced to {dealt.damage.basic}" in dealt.describe()

    # In hand: every blow that lands does half its rolled damage.
    landed = [events for _ in range(20) if of(events := battle.execute(cut), DamageDealt)]
    assert len(landed) >= 3
    for events in landed:
        halved_blow(events)
    # Dropped, picked up again, and still half.
    dropped = battle.execute(DropItem("d", broken_key))
    (drop,) = of(dropped, ItemDropped)
    ground = battle.state.item(drop.item_id)
    assert ground.weapon is not None and ground.weapon.mode("swing").damage.factor == Fraction(1, 2)
    (picked,) = of(battle.execute(PickUpItem("d", drop.item_id)), ItemPickedUp)
    again = Attack("d", "a", AttackOptions(picked.key, "swing"))
    landed = [events for _ in range(20) if of(events := battle.execute(again), DamageDealt)]
    assert landed
    for events in landed:
        halved_blow(events)
