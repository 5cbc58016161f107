"""A ruleset's demo as the simulation path's figures and checks take it: its duel
(the first fighter of each side alone on its map; issue 26's "demo duel" is the
seed 000 demo's) and its matchups (every fighter against every other, one attack)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack
from rules.battle.model import Combatant, Side, Status
from rules.battle.savefile import read_battle
from rules.battle.state import BattleRuleset, BattleState
from rules.core.assets import asset_path
from rules.core.errors import RulesError
from rules.sets.registry import get_ruleset

__all__ = ["demo_duel", "demo_file", "demo_matchups", "demo_state", "duel_of"]


def duel_of(state: BattleState) -> BattleState:
    """``state`` with only the first fighter of each side (in the order of its
    combatants); the turn order, whose turn it is and who plays each, of those."""
    firsts: dict[Side, Combatant] = {}
    for c in state.combatants:
        firsts.setdefault(c.side, c)
    kept = tuple(firsts.values())
    ids = {c.id for c in kept}
    order = tuple(i for i in state.initiative if i in ids)
    active = state.active_id if state.active_id in ids else (order[0] if order else None)
    return replace(
        state,
        combatants=kept,
        initiative=order,
        active_id=active,
        controllers=tuple(pair for pair in state.controllers if pair[0] in ids),
    )


def demo_file(ruleset_key: str) -> Path:
    """The demo battle of a ruleset shipped in ``assets/battles`` ("seed000": demo-000)."""
    return asset_path("battles", f"demo-{ruleset_key.removeprefix('seed')}.hexfray")


def demo_state(ruleset_key: str) -> BattleState:
    """The demo battle of a ruleset as its log leaves it."""
    text = demo_file(ruleset_key).read_text(encoding="utf-8")
    return read_battle(text, rulesets=get_ruleset).state


def demo_duel(ruleset_key: str) -> BattleState:
    """The demo duel of a ruleset: its demo's first fighter of each side."""
    return duel_of(demo_state(ruleset_key))


def demo_matchups(key: str) -> list[tuple[BattleState, BattleRuleset, Attack]]:
    """Another ruleset's demo matchups as the benchmark makes seed 000's: every
    fighter of its demo against every other, the defender facing the attacker at
    the shortest distance each of the attacker's weapon modes reaches, with each
    set of choices the ruleset's attack form offers there; the set-ups its rules
    accept."""
    demo = demo_state(key)
    ruleset = get_ruleset(demo.ruleset_key, demo.ruleset_options)
    grid = HexGrid(12, 12)
    origin = Hex.from_offset(6, 6)
    cases: list[tuple[BattleState, BattleRuleset, Attack]] = []
    for a_template in demo.combatants:
        distances = sorted(
            {
                min(d for d in mode.reach.distances if d > 0)
                for weapon in a_template.fighter.weapons
                for mode in weapon.modes
                if any(d > 0 for d in mode.reach.distances)
            }
        )
        for d_template in demo.combatants:
            if a_template.id == d_template.id:
                continue
            for distance in distances:
                attacker = replace(
                    a_template, id="attacker", hex=origin, facing=Facing.N,
                    hp=a_template.fighter.hit_points, status=Status.ACTIVE,
                )  # fmt: skip
                defender = replace(
                    d_template, id="defender", hex=origin + Facing.N.vector.scale(distance),
                    facing=Facing.S, hp=d_template.fighter.hit_points, status=Status.ACTIVE,
                )  # fmt: skip
                state = replace(
                    demo, grid=grid, combatants=(attacker, defender), items=(),
                    initiative=(), active_id=None, outcome=None, controllers=(),
                    side_controllers=(),
                )  # fmt: skip
                for choices in ruleset.attacks.attack_variants(state, attacker.id, defender.id):
                    command = Attack(attacker.id, defender.id, choices)
                    try:
                        Battle(state, 0, get_ruleset).execute(command)
                    except RulesError:
                        continue
                    cases.append((state, ruleset, command))
    return cases
