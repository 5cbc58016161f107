"""``Combatant.evolve``: the attack path's cheap copy gives what
``dataclasses.replace`` gives, and its typed changes cover every field."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from hexmap import Facing, Hex
from rules.battle.model import (
    ActionKind,
    Combatant,
    CombatantChanges,
    Posture,
    Status,
    TurnAction,
)
from tests.rules.conftest import MakeCombatant


def test_changes_name_every_field_with_its_type() -> None:
    fields = {f.name: f.type for f in dataclasses.fields(Combatant)}
    hints = typing.get_type_hints(Combatant)
    changes = typing.get_type_hints(CombatantChanges)
    assert list(changes) == list(fields)
    assert changes == {name: hints[name] for name in fields}


def test_evolve_is_replace(make: MakeCombatant) -> None:
    c = make("sword-and-shield", Hex(0, 0), Facing.N)
    changes: CombatantChanges = {
        "hex": Hex(2, -1),
        "facing": Facing.SE,
        "hp": c.hp - 3,
        "status": Status.UNCONSCIOUS,
        "unready": frozenset({"broadsword"}),
        "actions_this_turn": (TurnAction(ActionKind.ATTACK, "broadsword", target_id="d"),),
        "posture": Posture.KNEELING,
        "move_used": 2,
    }
    evolved = c.evolve(**changes)
    assert evolved == dataclasses.replace(c, **changes)
    assert type(evolved) is Combatant
    assert c.evolve() == c and c.evolve() is not c
    assert c.hp != evolved.hp  # the original is untouched


def test_evolve_stays_frozen_and_refuses_unknown_fields(make: MakeCombatant) -> None:
    evolved = make("sword-and-shield", Hex(0, 0), Facing.N).evolve(hp=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        evolved.hp = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field mana"):
        evolved.evolve(**{"mana": 3})  # type: ignore[arg-type]
