"""Seed 002's per-combatant state, in ``Combatant.tracks``: the major wounds the
fighter has taken (002 Major wound rows) and their lasting effects."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.battle.model import Combatant, RulesetTracks


@dataclass(frozen=True, slots=True)
class Tracks002(RulesetTracks):
    # The major wounds taken, by their row's key, oldest first.
    wounds: tuple[str, ...] = ()
    useless_arms: frozenset[str] = field(default_factory=frozenset)  # "left", "right"
    useless_legs: frozenset[str] = field(default_factory=frozenset)
    # A broken spine: "neck" (paralysed below the neck) or "torso" (below the torso).
    paralysis: str = ""
    unconscious_rounds: int = 0  # turns still to pass unconscious (heart stopped)
    bleeding: int = 0  # hit points lost at the end of each of its turns
    skill_penalty: int = 0  # to every skill (broken ribs: -50)
    perception_penalty: int = 0  # lost an eye (no perception rolls in a fight)
    mental_penalty: int = 0  # cracked skull (no mental skills in a fight)


NO_TRACKS = Tracks002()


def tracks_of(combatant: Combatant) -> Tracks002:
    tracks = combatant.tracks
    return tracks if isinstance(tracks, Tracks002) else NO_TRACKS


def paralysed_from_the_neck(combatant: Combatant) -> bool:
    return tracks_of(combatant).paralysis == "neck"
