"""Seed 000's own commands: choices that only its rules know."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.commands import ready_check
from rules.battle.items import weapon_of
from rules.battle.model import ActionKind, Combatant
from rules.battle.state import BattleRuleset, BattleState, Command, CommandResult
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError
from rules.core.events import CombatantEvent
from rules.sets.seed000.attack_events import DefendedAreaSet
from rules.sets.seed000.stances import BODY_AREA_CITATION, BodyArea
from rules.sets.seed000.tracks import tracks_of, with_tracks
from rules.sets.seed000.weapon_strikes import SUBDUING_001, turns_end_for_end

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


@dataclass(frozen=True, kw_only=True)
class WeaponReversed(CombatantEvent):
    weapon_name: str
    butt_first: bool

    def describe(self) -> str:
        end = "its blunt end forward" if self.butt_first else "its point forward again"
        return f"{self.name} turns the {self.weapon_name} end for end: {end}"


@dataclass(frozen=True)
class ReverseWeapon(Command):
    """001 Subduing a Foe: turn a long weapon end for end, to strike with its blunt
    end (``SubdueMode.BLUNT_END``) or, turned again, with its point: the turn's
    Ready maneuver, under the same rules as readying a weapon (``ready_check``).
    Only for a weapon that needs it (``turns_end_for_end``)."""

    combatant_id: str
    weapon_key: str
    gm_override: bool = False

    def apply(
        self, state: BattleState, rng: DiceSource, ruleset: BattleRuleset
    ) -> CommandResult:
        who = state.combatant(self.combatant_id)
        weapon = weapon_of(who, self.weapon_key)
        if not turns_end_for_end(weapon):
            raise IllegalCommandError(
                f"the {weapon.name} strikes with its blunt end without turning it: only a "
                f"thrusting weapon of reach 2 or more is turned around ({SUBDUING_001})"
            )
        who, overridden = ready_check(state, ruleset, who, self.gm_override)
        tracks = tracks_of(who)
        butt_first = weapon.key not in tracks.reversed_weapons
        turned = tracks.reversed_weapons ^ {weapon.key}
        changed = replace(
            with_tracks(who, replace(tracks, reversed_weapons=turned)), ready_used=True
        )
        event = WeaponReversed(
            citation=SUBDUING_001,
            combatant_id=who.id,
            name=who.name,
            weapon_name=weapon.name,
            butt_first=butt_first,
        )
        return CommandResult(state.with_combatants(changed), (*overridden, event))
