"""Seed 000's own per-combatant state, carried by the battle in ``Combatant.tracks``:
the located wounds (``rules.sets.seed000.wound_effects``), oldest first; the body
area the fighter guards; the weapons whose arm a critical miss strained; a
fumbled dodge's off-balance and when it ends (``rules.sets.seed000.balance``); and
the shock of injury (base rules: a penalty on the victim's next turn,
``rules.sets.seed000.wounded``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from rules.battle.model import Combatant, RulesetTracks
from rules.core.quick_init import quick_init
from rules.sets.seed000.stances import BodyArea
from rules.sets.seed000.wound_effects import Condition, Limb, Wound


class BalanceBack(Enum):
    """When an off-balance fighter has its balance back, in the order they come."""

    # Its next turn has begun: the off-balance ends with this turn.
    AFTER_THIS_TURN = "at the end of this turn"
    # The critical miss table's lost balance (base rules): "until your next turn".
    AT_NEXT_TURN = "when its next turn begins"
    # 000 CRITICAL MISSES ON DEFENSE ROLLS, Dodge: after the fighter's next turn.
    AFTER_NEXT_TURN = "at the end of its next turn"


@quick_init
@dataclass(frozen=True, slots=True)
class Seed000Tracks(RulesetTracks):
    wounds: tuple[Wound, ...] = ()
    defended_area: BodyArea | None = None  # 000 DEFENDING A SPECIFIC BODY AREA
    # Weapons (by key) whose arm a critical miss strained (critical miss table,
    # STRAIN): the arm is crippled for the minutes the table gives - the rest of a
    # battle - so the weapon neither attacks nor parries until the GM clears it.
    strained_weapons: frozenset[str] = field(default_factory=frozenset)
    # Off-balance: no attack, active-defense penalties doubled, until ``balance_back``.
    off_balance: bool = False
    balance_back: BalanceBack = BalanceBack.AFTER_NEXT_TURN
    # Long weapons (by key) held butt first, turned with a Ready to strike with
    # the blunt end (001 Subduing a Foe; rules.sets.seed000.commands.ReverseWeapon).
    reversed_weapons: frozenset[str] = field(default_factory=frozenset)
    # Shock (base rules): the penalty to DX and DX-based skills on the fighter's
    # current turn (``shock``) and the one its wounds since then keep for its next
    # turn (``shock_next``); both 0 or negative.
    shock: int = 0
    shock_next: int = 0


_NO_TRACKS = Seed000Tracks()  # frozen, so one serves every combatant without tracks


def tracks_of(combatant: Combatant) -> Seed000Tracks:
    """The combatant's seed 000 state; a combatant new to the ruleset has none yet."""
    tracks = combatant.tracks
    return tracks if isinstance(tracks, Seed000Tracks) else _NO_TRACKS


def wounds_of(combatant: Combatant) -> tuple[Wound, ...]:
    return tracks_of(combatant).wounds


def with_wounds(combatant: Combatant, wounds: tuple[Wound, ...]) -> Combatant:
    return combatant.evolve(tracks=replace(tracks_of(combatant), wounds=wounds))


def with_tracks(combatant: Combatant, tracks: Seed000Tracks) -> Combatant:
    """The combatant with its seed 000 state replaced:
    ``with_tracks(c, replace(tracks_of(c), off_balance=True))``."""
    return combatant.evolve(tracks=tracks)


def wound_conditions(combatant: Combatant) -> frozenset[Condition]:
    """Every lasting condition of every wound (stunned, bleeding, knocked out ...)."""
    out: frozenset[Condition] = frozenset()
    for w in wounds_of(combatant):
        out |= w.conditions
    return out


def crippled_limbs(combatant: Combatant) -> tuple[Limb, ...]:
    return tuple(w.crippled for w in wounds_of(combatant) if w.crippled is not None)
