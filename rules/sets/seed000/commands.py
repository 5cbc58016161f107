"""Seed 000's own commands: choices that only its rules know."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.model import ActionKind, Combatant
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.sets.seed000.attack_events import DefendedAreaSet
from rules.sets.seed000.stances import BODY_AREA_CITATION, BodyArea
from rules.sets.seed000.tracks import tracks_of, with_tracks

# The turn's defenses: once one is made, the guarded area holds until the turn ends.
_DEFENSES = frozenset({ActionKind.DODGE, ActionKind.BLOCK, ActionKind.PARRY})


def guarded_area_fixed(c: Combatant) -> str | None:
    """Why ``c``'s guarded area cannot change now (it defended this turn), or None."""
    if any(a.kind in _DEFENSES for a in c.actions_this_turn):
        return (
            f"{c.name} has already defended this turn: the guarded area cannot change "
            f"in the middle of the turn ({BODY_AREA_CITATION})"
        )
    return None


@dataclass(frozen=True)
class SetDefendedArea(Command):
    """000 DEFENDING A SPECIFIC BODY AREA: the defender's choice of area to guard
    (None: none). Blocks and parries get +2 there and -1 elsewhere. The area is
    chosen for the turn: after the defender's first defense of the turn it
    cannot change until the turn ends."""

    combatant_id: str
    area: BodyArea | None

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        tracks = tracks_of(who)
        if tracks.defended_area is self.area:
            return CommandResult(state, ())
        fixed = guarded_area_fixed(who)
        if fixed is not None:
            raise IllegalCommandError(fixed)
        event = DefendedAreaSet(
            citation=BODY_AREA_CITATION,
            combatant_id=who.id,
            name=who.name,
            before=tracks.defended_area,
            after=self.area,
        )
        changed = with_tracks(who, replace(tracks, defended_area=self.area))
        return CommandResult(state.with_combatants(changed), (event,))
