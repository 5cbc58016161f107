"""Seed citations. Every modifier and event names the seed and heading it comes from,
e.g. Citation("000", "BLOCK"), rendered "000 BLOCK". Rules the seeds take for granted
(the 3d6 success roll, damage by ST) cite the published base rules of the family."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Citation:
    seed: str  # "000" .. "004", or "base" for the family's published basics
    heading: str

    def __str__(self) -> str:
        if self.seed == "base":
            return f"Basic Set: {self.heading}"
        return f"{self.seed} {self.heading}"


def cite(seed: str, heading: str) -> Citation:
    return Citation(seed, heading)


# The seed whose rules a battle follows unless told otherwise, as the key of its
# ruleset (re-exported by rules.sets.seed000.ruleset). Kept here, in a module without tables, so
# that rules.battle.battle need not load the rulesets at start-up (docs/packaging.md).
DEFAULT_RULESET_KEY = "000"


# The published 3d6 basics that seed 000 assumes but never states.
BASE_SUCCESS_ROLL = Citation("base", "success rolls (3d6 roll-under)")
BASE_CRITICALS = Citation("base", "critical success and failure")
BASE_DAMAGE = Citation("base", "damage by ST, DR and wounding")
BASE_INJURY = Citation("base", "injury, unconsciousness and death")
BASE_ENCUMBRANCE = Citation("base", "encumbrance levels by carried weight")
BASE_WEAPONS = Citation("base", "weapon tables (damage, reach, minimum ST)")
BASE_HIT_LOCATION = Citation("base", "hit location: the torso is the unaimed target")
