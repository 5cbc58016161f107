"""Undo and redo of the battle (``Battle.undo``, ``Battle.redo``, ``Battle.restore``):
random sequences of commands, undos and redos always leave the battle as a replay of
the commands still applied would; a redo runs on the recorded faces and never rolls."""

from __future__ import annotations

import random

import pytest

from hexmap import Facing, Hex
from rules.battle import battle as battle_module
from rules.battle.battle import (
    CHECKPOINT_STRIDE,
    RECENT_CHECKPOINTS,
    Battle,
    BattleChange,
    ChangeKind,
)
from rules.battle.catalog import load_demo_battle
from rules.battle.commands import (
    Attack,
    DropItem,
    EditCombatant,
    EndTurn,
    MoveCombatant,
    PaintTerrain,
    PickUpItem,
    SetPosture,
    TurnCombatant,
)
from rules.battle.model import Posture, Status
from rules.battle.state import BattleState, Command
from rules.battle.terrain import Footing, Light, TerrainChange
from rules.battle.turns import ChooseManeuver, StartTurns
from rules.core.dice import DiceRequest, EnteredDice, SeededDice
from rules.core.errors import IllegalCommandError, RulesError
from rules.sets.protocol import likeliest_answer
from rules.sets.registry import get_ruleset, ruleset_of

SEQUENCES = 1_000
STEPS = 40  # operations in one random sequence


def demo_battle(seed: int) -> Battle:
    grid, combatants = load_demo_battle()
    return Battle(BattleState(grid, combatants), seed, get_ruleset)


def random_command(state: BattleState, rng: random.Random) -> Command:
    """One command of any kind the battle has, mostly about the fighters' contact,
    so that attacks happen and pieces fly; once the turns run, the GM overrides the
    turn order now and then."""
    who = rng.choice(state.combatants)
    other = rng.choice([c for c in state.combatants if c.id != who.id])
    override = rng.random() < 0.5
    kind = rng.randrange(12)
    if kind <= 2:
        ruleset = ruleset_of(state)
        choices = ruleset.attacks.default_attack(state, who.id, other.id)
        if choices is not None:  # the defender answers as it most likely would
            answer = likeliest_answer(ruleset, state, who.id, other.id, choices)
            return Attack(who.id, other.id, choices, answer, gm_override=override)
        return TurnCombatant(who.id, rng.choice(list(Facing)), gm_override=override)
    if kind == 3:
        step = other.hex.neighbor(rng.choice(list(Facing)))
        return MoveCombatant(who.id, step, gm_override=override)
    if kind == 4:
        return TurnCombatant(who.id, rng.choice(list(Facing)), gm_override=override)
    if kind == 5:
        return EndTurn()
    if kind == 6:
        status = rng.choice([Status.ACTIVE, who.status])
        return EditCombatant(who.id, hp=rng.randint(-5, who.fighter.hit_points), status=status)
    if kind == 7:
        return SetPosture(who.id, rng.choice(list(Posture)))
    if kind == 8:
        change = TerrainChange(light=rng.choice(list(Light)), footing=rng.choice(list(Footing)))
        return PaintTerrain((who.hex, other.hex), change)
    if kind == 9:
        return StartTurns()
    if kind == 10:
        offered = ruleset_of(state).turns.maneuvers(state, who.id)
        if offered:
            return ChooseManeuver(who.id, rng.choice(offered).key, gm_override=override)
        return StartTurns()
    near = [i for i in state.items if i.hex.distance(who.hex) <= 1]
    if near:
        return PickUpItem(who.id, rng.choice(near).id)
    held = [w.key for w in who.fighter.weapons]
    if held:
        return DropItem(who.id, rng.choice(held))
    return MoveCombatant(who.id, Hex(who.hex.q + 1, who.hex.r), gm_override=override)


def replayed(battle: Battle) -> Battle:
    return Battle.replay(
        battle.initial, battle.seed, battle.commands, battle.dice_log, rulesets=get_ruleset
    )


def play_random_sequence(battle: Battle, rng: random.Random, steps: int) -> None:
    """Commands, undos and redos chosen by ``rng``; each undo is checked against the
    state before its command, and each redo against the state before its undo."""
    before_each: list[BattleState] = []  # the state before each applied command
    after_undone: list[BattleState] = []  # the state each undone command had led to
    for _ in range(steps):
        roll = rng.random()
        if roll < 0.25 and battle.can_undo:
            after = battle.state
            battle.undo()
            assert battle.state == before_each.pop()
            after_undone.append(after)
        elif roll < 0.45 and battle.can_redo:
            before = battle.state
            battle.redo()
            assert battle.state == after_undone.pop()
            before_each.append(before)
        else:
            before = battle.state
            try:
                battle.execute(random_command(before, rng))
            except RulesError:
                assert battle.state is before
                continue
            before_each.append(before)
            after_undone.clear()
        assert battle.can_undo == bool(before_each)
        assert battle.can_redo == bool(after_undone)


def test_random_sequences_end_as_a_replay_of_the_applied_log() -> None:
    for number in range(SEQUENCES):
        battle = demo_battle(seed=number)
        play_random_sequence(battle, random.Random(number), STEPS)
        again = replayed(battle)
        assert again.state == battle.state, f"sequence {number}"
        assert again.event_batches == battle.event_batches, f"sequence {number}"
        # The dice of command i come from (seed, i) whether or not i was undone
        # before: rolled again from the seed, the applied log ends the same way.
        from_seed = Battle.replay(
            battle.initial, battle.seed, battle.commands, rulesets=get_ruleset
        )
        assert from_seed.state == battle.state, f"sequence {number}"


def test_random_sequences_cover_every_kind_of_command() -> None:
    """The random sequences above are worth something only if they run attacks,
    moves and the rest, and undo and redo them."""
    kinds: set[str] = set()
    undone_kinds: set[str] = set()
    for number in range(100):
        battle = demo_battle(seed=number)
        battle.subscribe(
            lambda change: (undone_kinds if change.kind is ChangeKind.UNDONE else kinds).add(
                type(change.command).__name__
            )
        )
        play_random_sequence(battle, random.Random(number), STEPS)
    every = {
        "Attack",
        "MoveCombatant",
        "TurnCombatant",
        "EndTurn",
        "EditCombatant",
        "SetPosture",
        "PaintTerrain",
        "DropItem",
        "PickUpItem",
        "StartTurns",
        "ChooseManeuver",
    }
    assert every <= kinds
    assert every <= undone_kinds


def attacking_battle(seed: int = 3) -> Battle:
    """The demo with the fencer stepped up to the spearman, then several attacks,
    turns and ends of turn: a log whose commands rolled dice."""
    battle = demo_battle(seed)
    state = battle.state
    battle.execute(MoveCombatant("c4", Hex.from_offset(13, 7)))
    for _ in range(6):
        for attacker, defender in (("c2", "c4"), ("c4", "c2")):
            choices = ruleset_of(battle.state).attacks.default_attack(
                battle.state, attacker, defender
            )
            if choices is not None and battle.state.combatant(attacker).status is Status.ACTIVE:
                battle.execute(Attack(attacker, defender, choices))
        battle.execute(EndTurn())
    assert battle.state != state
    assert any(battle.dice_log)
    return battle


class FailingDice(SeededDice):
    """A source that fails the test if a die is asked of it."""

    def __init__(self, seed: str | int) -> None:
        super().__init__(seed)

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("a die was rolled")


def test_a_redo_never_rolls(monkeypatch: pytest.MonkeyPatch) -> None:
    battle = attacking_battle()
    end = battle.state
    batches = battle.event_batches
    for _ in battle.commands:
        battle.undo()
    # Every seeded source the battle could make from now on fails when asked.
    monkeypatch.setattr(battle_module, "command_rng", lambda seed, index: FailingDice(seed))
    while battle.can_redo:
        battle.redo()
    assert battle.state == end
    assert battle.event_batches == batches


def test_a_redo_of_dice_entered_at_the_table_asks_for_none() -> None:
    battle = demo_battle(seed=3)  # the spearman's long spear reaches the fencer
    table = random.Random(11)
    asked: list[int] = []

    def enter(request: DiceRequest) -> tuple[int, ...]:
        faces = tuple(table.randint(request.low, request.high) for _ in range(request.count))
        asked.extend(faces)
        return faces

    choices = ruleset_of(battle.state).attacks.default_attack(battle.state, "c2", "c4")
    assert choices is not None
    battle.execute(Attack("c2", "c4", choices), EnteredDice(enter))
    after, faces = battle.state, tuple(asked)
    assert faces and battle.dice_log[-1] == faces
    battle.undo()
    assert battle.undone == ((battle.redo_command, faces),)
    change = battle.redo()
    assert battle.state == after
    assert change.dice == faces
    assert tuple(asked) == faces  # nobody was asked again


def test_observers_see_undone_and_redone_changes() -> None:
    battle = attacking_battle()
    seen: list[BattleChange] = []
    battle.subscribe(seen.append)
    start = battle.state
    index = len(battle.commands)
    command = battle.undo_command
    battle.execute(TurnCombatant("c1", Facing.N))
    executed = seen[-1]
    undone = battle.undo()
    redone = battle.redo()
    assert [c.kind for c in seen] == [ChangeKind.EXECUTED, ChangeKind.UNDONE, ChangeKind.REDONE]
    assert seen[1] is undone and seen[2] is redone
    assert undone.index == redone.index == executed.index == index
    assert undone.command == redone.command == TurnCombatant("c1", Facing.N)
    assert undone.before == executed.after and undone.after == executed.before == start
    assert redone.before == start and redone.after == executed.after
    assert undone.events == redone.events == executed.events
    assert undone.changed_ids == redone.changed_ids == frozenset({"c1"})
    # The command before it is now the one an undo takes back.
    battle.undo()
    assert battle.undo_command == command


def test_undo_and_redo_name_their_commands_and_refuse_when_there_is_none() -> None:
    battle = demo_battle(seed=1)
    assert not battle.can_undo and not battle.can_redo
    assert battle.undo_command is None and battle.redo_command is None
    with pytest.raises(IllegalCommandError):
        battle.undo()
    with pytest.raises(IllegalCommandError):
        battle.redo()
    move = MoveCombatant("c1", Hex.from_offset(11, 5))
    turn = TurnCombatant("c1", Facing.N)
    battle.execute(move)
    battle.execute(turn)
    assert battle.undo_command == turn
    battle.undo()
    assert (battle.undo_command, battle.redo_command) == (move, turn)
    battle.undo()
    assert battle.undone == ((move, ()), (turn, ()))
    assert battle.commands == battle.dice_log == battle.event_batches == ()
    assert battle.state == battle.initial


def test_a_new_command_clears_the_undone_and_a_refused_one_does_not() -> None:
    battle = demo_battle(seed=1)
    battle.execute(TurnCombatant("c1", Facing.N))
    battle.undo()
    with pytest.raises(RulesError):
        battle.execute(MoveCombatant("c1", Hex.from_offset(13, 6)))  # the spearman's hex
    assert battle.can_redo
    battle.execute(TurnCombatant("c2", Facing.N))
    assert not battle.can_redo and battle.undone == ()


def test_restore_brings_back_the_undo_history() -> None:
    battle = attacking_battle()
    for _ in range(5):
        battle.undo()
    restored = Battle.restore(
        battle.initial,
        battle.seed,
        battle.commands,
        battle.dice_log,
        battle.undone,
        rulesets=get_ruleset,
    )
    assert restored.state == battle.state
    assert restored.commands == battle.commands
    assert restored.dice_log == battle.dice_log
    assert restored.event_batches == battle.event_batches
    assert restored.undone == battle.undone
    while battle.can_redo:
        assert restored.redo() == battle.redo()
    assert restored.state == battle.state
    assert not restored.can_redo


def test_restore_refuses_an_undone_command_whose_dice_do_not_fit() -> None:
    battle = attacking_battle()
    while battle.undo_command is not None and not battle.dice_log[-1]:
        battle.undo()
    battle.undo()
    command, faces = battle.undone[0]
    with pytest.raises(RulesError):
        Battle.restore(
            battle.initial,
            battle.seed,
            battle.commands,
            battle.dice_log,
            ((command, faces[:-1]),),
            rulesets=get_ruleset,
        )


def test_undo_reaches_back_past_the_thinned_checkpoints() -> None:
    """Further back than the recent commands, only every CHECKPOINT_STRIDE-th keeps
    its state: undoing the whole log one by one still finds every state as it was,
    and the redos bring the battle back to its end."""
    battle = demo_battle(seed=5)
    rng = random.Random(5)
    before_each: list[BattleState] = []
    length = RECENT_CHECKPOINTS + 3 * CHECKPOINT_STRIDE + 7
    while len(battle.commands) < length:
        before = battle.state
        try:
            battle.execute(random_command(before, rng))
        except RulesError:
            continue
        before_each.append(before)
    end, batches = battle.state, battle.event_batches
    while battle.can_undo:
        battle.undo()
        assert battle.state == before_each.pop()
    while battle.can_redo:
        battle.redo()
    assert battle.state == end and battle.event_batches == batches
