"""Whom an attacker aims at when the GM has not said: the default target.

The window asks this whenever the attacker changes (a click, the turn passing),
so that the attack it offers is never the last attacker's: a foe the attacker's
default attack reaches (``Attacks.default_attack``), the nearest first. A foe is
a combatant of another side; an ally is never a default target, though the GM may
still choose one. Foes still on their feet come before fallen ones, and the dead
are never offered. Computer-controlled sides will take their first choice here
too.
"""

from __future__ import annotations

from rules.battle.model import Combatant, Status
from rules.battle.state import BattleState
from rules.core.errors import RulesError
from rules.sets.protocol import Ruleset


def are_allies(first: Combatant, second: Combatant) -> bool:
    """Whether the two fight on the same side (a combatant is its own ally)."""
    return first.side is second.side


def default_target(state: BattleState, ruleset: Ruleset, attacker_id: str) -> str | None:
    """The id of the foe ``attacker_id`` attacks by default: among the foes its
    default attack reaches, the ones still able to defend first, then the
    nearest, then the battle's order; None when no foe is in reach."""
    attacker = state.combatant(attacker_id)
    foes = [
        c
        for c in state.combatants
        if not are_allies(attacker, c) and c.status is not Status.DEAD
    ]
    # sorted() is stable: equals keep the battle's order
    foes.sort(key=lambda c: (not c.status.can_defend, attacker.hex.distance(c.hex)))
    for foe in foes:
        if _reached(state, ruleset, attacker_id, foe.id):
            return foe.id
    return None


def _reached(state: BattleState, ruleset: Ruleset, attacker_id: str, defender_id: str) -> bool:
    try:
        return ruleset.attacks.default_attack(state, attacker_id, defender_id) is not None
    except RulesError:  # the ruleset refuses the pair outright: not a default target
        return False
