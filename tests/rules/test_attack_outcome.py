"""The shared vocabulary of attack outcomes (rules.battle.attack_outcome): the kinds
as a GM says them, and an outcome that holds together."""

from __future__ import annotations

import pytest

from rules.battle.attack_outcome import (
    ActiveDefense,
    AttackOutcome,
    ConditionChange,
    Landing,
    OutcomeKind,
)
from rules.battle.condition import Down, down_as
from rules.core.citation import Citation
from rules.core.errors import RulesError

TOY = Citation("base-toy", "a rule")

def test_the_kinds_read_as_a_gm_says_them() -> None:
    labels = {
        OutcomeKind(Landing.DEFENDED, ActiveDefense.DODGE): "dodged",
        OutcomeKind(Landing.DEFENDED, ActiveDefense.PARRY): "parried",
        OutcomeKind(Landing.HIT, ActiveDefense.BLOCK): "hit, blocked",
        OutcomeKind(Landing.CRITICAL_HIT): "critical hit",
        OutcomeKind(Landing.CRITICAL_MISS): "critical miss",
    }
    assert {kind: kind.label for kind in labels} == labels


def test_an_outcome_holds_together() -> None:
    with pytest.raises(RulesError, match="needs the defense"):
        AttackOutcome(Landing.DEFENDED, None)
    with pytest.raises(RulesError, match="struck no location"):
        AttackOutcome(Landing.MISSED, None, location="head")
    with pytest.raises(RulesError, match="negative injury"):
        AttackOutcome(Landing.HIT, None, injury=-1)
    down = AttackOutcome(
        Landing.HIT, None, conditions=(ConditionChange("b", down_as(Down.DEAD, TOY)),)
    )
    assert down.takes_out("b") and not down.takes_out("a")
    assert down.condition_of("a") is None
    assert Landing.CRITICAL_HIT.struck and not Landing.DEFENDED.struck
