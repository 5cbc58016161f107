"""Map facts that any ruleset may ask of the battle about an attack."""

from __future__ import annotations

from rules.battle.state import BattleState


def covered_areas_of(state: BattleState, defender_id: str) -> frozenset[str]:
    """The body areas the cover in ``defender_id``'s hex hides from a random hit
    location: the cover's ``covered_areas``, without the postures, terrain
    modifiers and arc of a full situation."""
    return state.terrain.at(state.combatant(defender_id).hex).cover.covered_areas
