"""Off-balance: how long it lasts, what it forbids, and its end in the log.

"000 CRITICAL MISSES ON DEFENSE ROLLS", Dodge: a fighter whose fumbled dodge left
him on his feet but off-balance may not attack, and his active-defense penalties
are doubled (``rules.sets.seed000.defense``). It ends after the fighter's next
turn: through the rest of the turn it came in, and through the whole of his own
next turn, even when the fumble came in his own turn (in free play, before the
order is rolled, every fighter's turn is the whole round, so it lasts through the
next round).

The base rules' critical miss table (a fumbled attack or parry, "lose balance")
is shorter: nothing at all until the fighter's next turn begins. Both are the
same state of the fighter (``Seed000Tracks.off_balance``); ``balance_back`` says
when it ends, and a second loss of balance keeps the later end.

``turn_begins`` and ``turn_ends`` of ``rules.sets.seed000.turn`` call
``balance_at_turn_start`` and ``balance_at_turn_end`` for the fighter whose own
turn it is; each end is a ``BalanceRegained`` event in the log."""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.battle.model import Combatant
from rules.core.citation import Citation, cite
from rules.core.events import CombatantEvent, Event
from rules.sets.seed000.tracks import BalanceBack, tracks_of, with_tracks

DEFENSE_MISSES_000 = cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
CRITICAL_MISS_TABLE = cite("base", "critical miss table")
_ORDER = tuple(BalanceBack)  # the enum lists the ends in the order they come


@dataclass(frozen=True, kw_only=True)
class BalanceRegained(CombatantEvent):
    """An off-balance fighter has its balance back: it may attack again."""

    def describe(self) -> str:
        return f"{self.name} regains balance: attacks allowed, defenses no longer doubled"


def lose_balance(c: Combatant, until: BalanceBack) -> Combatant:
    """``c`` off-balance until ``until``, or until its present end if that is later."""
    tracks = tracks_of(c)
    if tracks.off_balance and _ORDER.index(tracks.balance_back) > _ORDER.index(until):
        until = tracks.balance_back
    return with_tracks(c, replace(tracks, off_balance=True, balance_back=until))


def off_balance_problem(c: Combatant) -> str | None:
    """Why an off-balance fighter may not attack now; None when it may."""
    tracks = tracks_of(c)
    if not tracks.off_balance:
        return None
    citation = _citation(tracks.balance_back)
    return f"{c.name} is off-balance and may not attack until {_until(c)} ({citation})"


def _until(c: Combatant) -> str:
    back = tracks_of(c).balance_back
    if back is BalanceBack.AFTER_THIS_TURN:
        return "the end of this turn"
    if back is BalanceBack.AT_NEXT_TURN:
        return "its next turn"
    return "the end of its next turn"


def balance_at_turn_start(c: Combatant) -> tuple[Combatant, tuple[Event, ...]]:
    """The fighter's own turn begins: the critical miss table's lost balance ends;
    a fumbled dodge's off-balance now ends with this turn."""
    tracks = tracks_of(c)
    if not tracks.off_balance:
        return c, ()
    if tracks.balance_back is BalanceBack.AT_NEXT_TURN:
        return _regained(c)
    if tracks.balance_back is BalanceBack.AFTER_NEXT_TURN:
        c = with_tracks(c, replace(tracks, balance_back=BalanceBack.AFTER_THIS_TURN))
    return c, ()


def balance_at_turn_end(c: Combatant) -> tuple[Combatant, tuple[Event, ...]]:
    """The fighter's own turn ends: an off-balance that was to end with it does."""
    tracks = tracks_of(c)
    if tracks.off_balance and tracks.balance_back is BalanceBack.AFTER_THIS_TURN:
        return _regained(c)
    return c, ()


def _regained(c: Combatant) -> tuple[Combatant, tuple[Event, ...]]:
    tracks = tracks_of(c)
    event = BalanceRegained(citation=_citation(tracks.balance_back), combatant_id=c.id, name=c.name)
    back = replace(tracks, off_balance=False, balance_back=BalanceBack.AFTER_NEXT_TURN)
    return with_tracks(c, back), (event,)


def _citation(back: BalanceBack) -> Citation:
    return CRITICAL_MISS_TABLE if back is BalanceBack.AT_NEXT_TURN else DEFENSE_MISSES_000
