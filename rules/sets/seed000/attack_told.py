"""What an attack's sub-steps did, as typed records that ``tell_attack`` turns
into the log's events (``describe``'s job, not the roll's).

``roll_attack`` keeps, in order, what each sub-step did: a record of this module,
or an event that a sub-step still builds as it rolls (``Told``). ``tell`` turns
them into the log's events, each record with the attack's shared fields
(``Between``: the attacker and defender as they were before it).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.events import Event
from rules.sets.seed000.attack_events import Between, ParryBreakRolled
from rules.sets.seed000.breakage import ParryBreakRoll

__all__ = ["ParryBreakTold", "Told", "tell"]


@dataclass(frozen=True, slots=True)
class ParryBreakTold:
    """000 BREAKING A BLADE / BREAKING WEAPONS: the defender's weapon that parried
    one 3x heavier, and the roll whether it broke."""

    weapon_name: str
    roll: ParryBreakRoll

    def event(self, between: Between) -> Event:
        return ParryBreakRolled(
            citation=self.roll.chance.citation,
            weapon_name=self.weapon_name,
            roll=self.roll,
            **between,
        )


# What a sub-step did: a record told here, or an event it still builds as it rolls.
Told = Event | ParryBreakTold


def tell(told: tuple[Told, ...], between: Between) -> list[Event]:
    """The log's events of ``told``, in order."""
    return [t if isinstance(t, Event) else t.event(between) for t in told]
