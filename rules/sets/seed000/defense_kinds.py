"""The three active defenses of seed 000 (000 ACTIVE DEFENSES): dodge, block and
parry, with the citation of each and of its cap."""

from __future__ import annotations

from enum import Enum

from rules.battle.model import ActionKind
from rules.core.citation import Citation, cite


class DefenseKind(Enum):
    DODGE = "dodge"
    BLOCK = "block"
    PARRY = "parry"

    @property
    def action_kind(self) -> ActionKind:
        return _ACTION_KINDS[self]

    @property
    def citation(self) -> Citation:
        return _CITATIONS[self]

    @property
    def cap_citation(self) -> Citation:
        """Where the seed says this score can't exceed 16."""
        return cite("000", "ACROBATIC DODGE") if self is DefenseKind.DODGE else self.citation

    @property
    def label(self) -> str:
        return self.value.capitalize()


# Made once: every planned defense asks for them (the attack path).
_ACTION_KINDS = {kind: ActionKind(kind.value) for kind in DefenseKind}
_CITATIONS = {kind: cite("000", kind.name) for kind in DefenseKind}
