"""Seed citations. Every modifier and event names the seed and heading it comes from,
e.g. Citation("000", "BLOCK"), rendered "000 BLOCK". Rules the seeds take for granted
(the 3d6 success roll, damage by ST) cite the published base rules of the family."""

from __future__ import annotations

from dataclasses import dataclass

# The published base rules of each seed's family, by the ``Citation.seed`` that
# cites them: seed 000's 3rd-edition basics ("base"), and the open rules that seeds
# 002, 003 and 004 are fragments of (docs/ruleset-002.md, -003.md, -004.md).
BASE_SOURCES: dict[str, str] = {
    # The GM's own acts at the table (bringing fighters in, editing a sheet), which
    # no ruleset's rules govern: every ruleset's log cites them alike.
    "hexfray": "Hexfray",
    "base": "Basic Set",
    "base-002": "OpenQuest SRD",
    "base-003": "FUDGE SRD",
    "base-004": "Endless Horizons",
}


@dataclass(frozen=True, slots=True)
class Citation:
    # "000" .. "004", or a key of BASE_SOURCES (a family's published basics, Hexfray)
    seed: str
    heading: str

    def __str__(self) -> str:
        source = BASE_SOURCES.get(self.seed)
        if source is not None:
            return f"{source}: {self.heading}"
        return f"{self.seed} {self.heading}"


def cite(seed: str, heading: str) -> Citation:
    return Citation(seed, heading)


# The published 3d6 basics that seed 000 assumes but never states.
BASE_SUCCESS_ROLL = Citation("base", "success rolls (3d6 roll-under)")
BASE_CRITICALS = Citation("base", "critical success and failure")
BASE_DAMAGE = Citation("base", "damage by ST, DR and wounding")
BASE_INJURY = Citation("base", "injury, unconsciousness and death")
BASE_ENCUMBRANCE = Citation("base", "encumbrance levels by carried weight")
BASE_WEAPONS = Citation("base", "weapon tables (damage, reach, minimum ST)")
BASE_HIT_LOCATION = Citation("base", "hit location: the torso is the unaimed target")
