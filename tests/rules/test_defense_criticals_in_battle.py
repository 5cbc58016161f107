"""Defense criticals follow seed 000 alone, at the battle level ("000 CRITICAL
MISSES ON DEFENSE ROLLS": a defense roll of 17 or 18 fails disastrously, and no
other does; the base rules' "fail by 10 or more" is for the other rolls only)."""

from __future__ import annotations

from dataclasses import replace

from rules.battle.battle import Battle
from rules.core.dice import ScriptedDice
from rules.sets.seed000.attack_events import (
    DefenseCriticalMiss,
    DefenseMishapResolved,
    DefenseRolled,
)
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.checks import Outcome
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.tracks import tracks_of
from tests.rules.battle_level import RAPIER, Make, duel, of, started

DODGED = replace(RAPIER, defenses=(DefenseChoice(DefenseKind.DODGE),))
HIT = (2, 2, 3)  # 7: the fencer's thrust hits the swordsman


def dodge_of(make: Make, faces: tuple[int, ...]) -> tuple[Battle, DefenseRolled]:
    """The fencer's thrust on the swordsman, who dodges with ``faces``; a 1 for
    each die after them (a DX roll of 3 keeps a fumbler on his feet)."""
    battle = started(duel(make))
    dice = ScriptedDice((*HIT, *faces, *[1] * 12))
    events = battle.execute(attack_command("f", "s", DODGED), dice)
    (dodge,) = of(events, DefenseRolled)
    return battle, dodge


def test_a_dodge_that_fails_by_10_or_more_is_a_plain_failure(make: Make) -> None:
    battle, dodge = dodge_of(make, (5, 5, 6))  # 16
    assert dodge.roll.total - dodge.roll.target >= 10  # the base rules' disaster ...
    assert dodge.roll.outcome is Outcome.FAILURE  # ... is no disaster on defense
    events = battle.event_batches[-1]
    assert not of(events, DefenseCriticalMiss) and not of(events, DefenseMishapResolved)
    swordsman = battle.state.combatant("s")
    assert swordsman.posture is duel(make).combatant("s").posture
    assert not tracks_of(swordsman).off_balance


def test_a_dodge_of_17_is_a_disaster_at_any_score(make: Make) -> None:
    battle, dodge = dodge_of(make, (5, 6, 6))  # 17
    assert dodge.roll.outcome is Outcome.CRITICAL_FAILURE
    events = battle.event_batches[-1]
    assert of(events, DefenseCriticalMiss) and of(events, DefenseMishapResolved)
