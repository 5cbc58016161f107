"""Physical dice: a person enters the faces (``EnteredDice``), the battle keeps them
and marks them as entered, a cancelled entry changes nothing, a redo or a reloaded
battle never asks again, and the roll sites say what is rolled without changing any
face of the seeded dice or any figure of the odds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from hexmap import Facing
from rules.battle.battle import Battle, BattleChange
from rules.battle.catalog import load_demo_battle
from rules.battle.commands import Attack, EndTurn, TurnCombatant
from rules.battle.model import Status
from rules.battle.pieces import DirectionRule, DistanceDice, Placement, PlacementKind, land
from rules.battle.savefile import battle_document, document_text, read_battle
from rules.battle.state import BattleState
from rules.core.dice import (
    Dice,
    DiceEntryCancelled,
    DiceRequest,
    EnteredDice,
    ScriptedDice,
    SeededDice,
    roll,
    roll_dice,
)
from rules.core.errors import RulesError
from rules.sets.protocol import plain_attack
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.maneuvers import settle_ties
from rules.sets.seed000.turn import per_turn_effects


def demo_battle(seed: int) -> Battle:
    grid, combatants = load_demo_battle()
    return Battle(BattleState(grid, combatants), seed, get_ruleset)


class Table:
    """A scripted person at the table: enters faces from its own generator and
    keeps every request it was shown."""

    def __init__(
        self, seed: int, *, cancel_at: int | None = None, first: Sequence[int] = ()
    ) -> None:
        self._random = random.Random(seed)
        self._cancel_at = cancel_at
        self._first = list(first)  # faces entered before the generator's
        self.requests: list[DiceRequest] = []
        self.faces: list[int] = []

    def __call__(self, request: DiceRequest) -> Sequence[int]:
        self.requests.append(request)
        if self._cancel_at is not None and len(self.requests) > self._cancel_at:
            raise DiceEntryCancelled
        faces = [
            self._first.pop(0) if self._first else self._random.randint(request.low, request.high)
            for _ in range(request.count)
        ]
        self.faces.extend(faces)
        return faces


def spearman_attack(battle: Battle) -> Attack:
    attack = plain_attack(ruleset_of(battle.state), battle.state, "c2", "c4")
    assert attack is not None  # the spearman's long spear reaches the fencer
    return attack


def test_an_attack_runs_on_the_entered_faces_and_the_battle_marks_them() -> None:
    battle = demo_battle(seed=3)
    seen: list[BattleChange] = []
    battle.subscribe(seen.append)
    table = Table(5)
    battle.execute(spearman_attack(battle), EnteredDice(table))
    assert table.faces and battle.dice_log == (tuple(table.faces),)
    assert battle.entered_log == (True,)
    assert seen[-1].dice == tuple(table.faces) and seen[-1].dice_entered
    # the same faces replayed as recorded dice give the same battle
    again = Battle.replay(
        battle.initial, 99, battle.commands, battle.dice_log, rulesets=get_ruleset
    )
    assert again.state == battle.state and again.events == battle.events


def test_a_command_that_rolls_nothing_is_not_marked_entered() -> None:
    battle = demo_battle(seed=3)
    table = Table(5)
    battle.execute(TurnCombatant("c1", Facing.N), EnteredDice(table))
    assert table.requests == [] and battle.entered_log == (False,)
    battle.execute(spearman_attack(battle))
    assert list(battle.entered_log) == [False, False]  # seeded dice are the computer's


def test_a_cancelled_entry_leaves_the_battle_as_it_was() -> None:
    battle = demo_battle(seed=3)
    battle.execute(spearman_attack(battle))
    battle.execute(TurnCombatant("c1", Facing.N))
    battle.undo()  # something to redo, which a refused or cancelled command keeps
    state, commands, dice, undone = battle.state, battle.commands, battle.dice_log, battle.undone
    seen: list[BattleChange] = []
    battle.subscribe(seen.append)
    # The attack roll hits (9 on 3d6), and the GM cancels at the fencer's defense.
    table = Table(5, cancel_at=1, first=(3, 3, 3))
    with pytest.raises(DiceEntryCancelled):
        battle.execute(spearman_attack(battle), EnteredDice(table))
    assert len(table.requests) == 2
    assert battle.state is state and battle.commands == commands
    assert battle.dice_log == dice and battle.undone == undone
    assert battle.entered_log == (False,) and seen == []


def test_a_redo_reuses_the_entered_faces_asks_nothing_and_keeps_the_mark() -> None:
    battle = demo_battle(seed=3)
    table = Table(8)
    battle.execute(spearman_attack(battle), EnteredDice(table))
    after, asked = battle.state, len(table.requests)
    battle.undo()
    assert list(battle.undone_entered) == [True] and list(battle.entered_log) == []
    change = battle.redo()
    assert len(table.requests) == asked
    assert battle.state == after and change.dice == tuple(table.faces) and change.dice_entered
    assert battle.entered_log == (True,)


def test_a_saved_and_reopened_battle_keeps_the_entered_mark() -> None:
    battle = demo_battle(seed=3)
    battle.execute(spearman_attack(battle), EnteredDice(Table(2)))
    battle.execute(EndTurn())
    battle.execute(spearman_attack(battle), EnteredDice(Table(4)))
    battle.undo()
    types = ruleset_of(battle.state).sheets.saved_types
    text = document_text(battle_document(battle, types))
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state == battle.state and loaded.dice_log == battle.dice_log
    assert loaded.entered_log == (True, False)
    assert loaded.undone_entered == (True,)
    assert loaded.redo().dice_entered


def test_a_file_without_the_mark_loads_with_every_roll_the_computer_s() -> None:
    battle = demo_battle(seed=3)
    battle.execute(spearman_attack(battle), EnteredDice(Table(2)))
    document = battle_document(battle, ruleset_of(battle.state).sheets.saved_types)
    log = document["log"]
    assert isinstance(log, list) and log[0]["entered"] is True
    del log[0]["entered"]  # as files written before physical dice are
    loaded = read_battle(document_text(document), rulesets=get_ruleset)
    assert loaded.state == battle.state and loaded.entered_log == (False,)


def test_entered_faces_must_be_legal_and_as_many_as_the_roll_has() -> None:
    with pytest.raises(RulesError):
        roll(3, EnteredDice(lambda r: (7, 1, 1)))
    with pytest.raises(RulesError):
        roll(3, EnteredDice(lambda r: (0, 1, 1)))
    with pytest.raises(RulesError):
        roll(3, EnteredDice(lambda r: (1, 1)))
    with pytest.raises(RulesError):
        EnteredDice(lambda r: (4,)).randint(1, 3)
    assert EnteredDice(lambda r: (3,)).randint(1, 3) == 3
    nobody = EnteredDice(lambda r: pytest.fail("a roll of no dice asks nobody"))
    assert roll_dice(Dice(0, 2), nobody).total == 2 and not nobody.entered


def test_the_request_says_what_is_rolled_with_its_dice_and_adds() -> None:
    table = Table(1)
    dice = EnteredDice(table)
    roll_dice(Dice(2, 1), dice, what="Spearman's damage")
    roll(3, dice)  # a roll that names nothing after a named one
    roll(1, dice, 3, what="how far the Broadsword flies")
    assert [str(r) for r in table.requests] == [
        "Spearman's damage: 2d6+1",
        "3d6",
        "how far the Broadsword flies: 1d3",
    ]


def test_what_is_rolled_changes_no_seeded_face() -> None:
    named, bare = SeededDice("x"), SeededDice("x")
    for count, sides in ((3, 6), (2, 6), (1, 3), (1, 6)):
        assert roll(count, named, sides, what="Fencer's parry", adds=2) == roll(count, bare, sides)
    assert named.faces == bare.faces
    scripted = ScriptedDice(bare.faces)
    assert roll(3, scripted, what="Fencer's parry") == bare.faces[:3]


def test_the_attack_s_rolls_are_named_for_the_table() -> None:
    battle = demo_battle(seed=3)
    # The spear hits (9), the fencer's defense fails (16): the damage follows.
    table = Table(6, first=(3, 3, 3, 5, 5, 6))
    attack = spearman_attack(battle)
    battle.execute(attack, EnteredDice(table))
    named = [str(r) for r in table.requests]
    assert named[0] == "Spearman's attack: 3d6"
    defense = attack.answer.defenses[0].kind.value  # type: ignore[union-attr]
    assert named[1] == f"Fencer's {defense}: 3d6"
    damage = next(r for r in table.requests if r.what == "Spearman's damage")
    assert damage.high == 6 and damage.count >= 1
    assert all(r.what for r in table.requests)  # every roll of this attack is named


class Lowest:
    """A person who enters the lowest face of every die and keeps the requests."""

    def __init__(self) -> None:
        self.requests: list[DiceRequest] = []

    def __call__(self, request: DiceRequest) -> Sequence[int]:
        self.requests.append(request)
        return [request.low] * request.count


def test_a_flying_piece_names_its_distance_and_its_direction() -> None:
    table = Lowest()
    placement = Placement(
        PlacementKind.FLIES, DistanceDice(1, 3, 1), direction=DirectionRule.FORWARD_OR_BACK
    )
    landing = land(placement, EnteredDice(table), "Broadsword", "Sir Aldric")
    assert landing.distance == 2 and landing.direction_roll == 1
    assert [str(r) for r in table.requests] == [
        "Sir Aldric: how far the Broadsword goes (hexes): 1d3+1",
        "Sir Aldric: which way the Broadsword goes (1-3 forward, 4-6 back): 1d6",
    ]


def test_the_battle_keeps_each_entered_roll_with_its_name_through_redo_and_file() -> None:
    battle = demo_battle(seed=3)
    # The spear hits (9), the fencer's defense fails (16): the damage follows.
    table = Table(6, first=(3, 3, 3, 5, 5, 6))
    battle.execute(spearman_attack(battle), EnteredDice(table))
    (rolls,) = battle.table_roll_log
    assert [r.request for r in rolls] == table.requests
    assert [face for r in rolls for face in r.faces] == list(battle.dice_log[0])
    assert str(rolls[0]) == "Spearman's attack (3d6): 3, 3, 3"
    assert str(rolls[1]).endswith("(3d6): 5, 5, 6") and str(rolls[1]).startswith("Fencer's ")
    battle.execute(EndTurn())  # the computer's dice: no roll entered
    assert battle.table_roll_log == (rolls, ())
    battle.undo()
    battle.undo()
    assert battle.table_roll_log == ()
    assert battle.redo().table_rolls == rolls  # found again on the recorded faces
    types = ruleset_of(battle.state).sheets.saved_types
    loaded = read_battle(document_text(battle_document(battle, types)), rulesets=get_ruleset)
    assert loaded.table_roll_log == (rolls,)
    again = Battle.replay(
        battle.initial, 3, battle.commands, battle.dice_log, rulesets=get_ruleset, entered=(True,)
    )
    assert again.table_roll_log == (rolls,)


def test_initiative_ties_and_the_turn_s_rolls_name_the_fighter() -> None:
    state = demo_battle(seed=3).state
    first, second = state.combatants[:2]
    tie = Table(0, first=(6, 1))  # the first fighter rolls higher: settled at once
    settle_ties([first, second], EnteredDice(tie))
    assert [r.what for r in tie.requests] == [
        f"{c.name}'s die for the initiative tie (highest goes first)" for c in (first, second)
    ]
    table = Lowest()
    per_turn_effects(replace(first, status=Status.STUNNED), EnteredDice(table))
    assert [str(r) for r in table.requests] == [f"{first.name}'s HT roll to recover: 3d6"]
