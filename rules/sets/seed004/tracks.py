"""Seed 004's per-combatant state, in ``Combatant.tracks``: the wound points
taken (base rules: each lowers the maximum hit points by one), the wounding
effects rolled at every fifth one (``rules.sets.seed004.wound_effects``), and the defenses
made since the fighter's own turn began (its reaction; each further one is at a
cumulative -2)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.battle.model import Combatant, RulesetTracks


@dataclass(frozen=True, slots=True)
class Seed004Tracks(RulesetTracks):
    wounds: int = 0
    defenses: int = 0
    # The wounding effects rolled (base rules), as the log named them.
    effects: tuple[str, ...] = ()


_NONE = Seed004Tracks()


def tracks_of(combatant: Combatant) -> Seed004Tracks:
    tracks = combatant.tracks
    return tracks if isinstance(tracks, Seed004Tracks) else _NONE


def maximum_hit_points(combatant: Combatant) -> int:
    """The sheet's hit points less one per wound (base rules)."""
    return combatant.fighter.hit_points - tracks_of(combatant).wounds
