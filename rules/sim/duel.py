"""A battle's duel: its first fighter of each side alone on its map (issue 26's
"demo duel" is the seed 000 demo's)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rules.battle.model import Combatant, Side
from rules.battle.savefile import read_battle
from rules.battle.state import BattleState
from rules.core.assets import asset_path
from rules.sets.registry import get_ruleset

__all__ = ["demo_duel", "demo_file", "demo_state", "duel_of"]


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
