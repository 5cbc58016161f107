"""A battle ends (issue 22, "The turn carries the GM" point 5; rules.battle.decision):
once every side but one has no fighter able to act, the battle says so in its
log and its state, naming the winner and the round; with nobody able to act it
is a draw. Undo takes the decision back, "Continue anyway" (``ContinueBattle``)
plays on as a command, and a save, a redo and a replay bring it all again. Which
fighters can still act is each ruleset's answer (``fighter_condition``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.commands import Attack, EditCombatant, EndTurn
from rules.battle.condition import ABLE, Down, FighterCondition
from rules.battle.decision import (
    BattleContinued,
    BattleDecided,
    BattleUndecided,
    ContinueBattle,
    awaiting_continue,
    decision,
)
from rules.battle.model import Combatant, Side, Status
from rules.battle.outcome import BattleOutcome
from rules.battle.roster import AddCombatant
from rules.battle.savefile import read_battle, write_battle
from rules.battle.sides import SideSetup
from rules.battle.state import BattleState
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalCommandError, RulesError
from rules.sets.registry import get_ruleset
from tests.rules import seed002_duel as d002
from tests.rules import seed003_battle as d003
from tests.rules import seed004_battle as d004
from tests.rules.battle_level import GRID, HOME, Make, duel, of
from tests.rules.test_wounds_in_battle import FAILS, HIT, SWING

NAMED = (SideSetup(Side.BLUE, "Knights", "#2f5fa8"), SideSetup(Side.RED, "Bandits", "#b3362f"))
NO_DICE = ScriptedDice(())
AWAY = Hex.from_offset(2, 2)  # far from the duel


def knocked_out_fencer(make: Make, sides: tuple[SideSetup, ...] = ()) -> Battle:
    """The swordsman (red) knocks the fencer (blue, at 1 HP) out: the HT roll at 0
    HP or below fails. No turn order: the GM plays the blow."""
    state = duel(make)
    state = replace(state.with_combatants(replace(state.combatant("f"), hp=1)), sides=sides)
    battle = Battle(state, 3, get_ruleset)
    battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 6, *FAILS * 12)))
    assert battle.state.combatant("f").status is Status.UNCONSCIOUS
    return battle


def test_the_side_left_able_to_act_wins_and_the_log_names_it_and_the_round(
    make: Make,
) -> None:
    battle = knocked_out_fencer(make, NAMED)
    decided = of(battle.event_batches[-1], BattleDecided)
    assert len(decided) == 1 and battle.event_batches[-1][-1] is decided[0]
    assert decided[0].describe() == (
        "The battle is won in round 1: victory to Bandits; no fighter of Knights can still act"
    )
    assert decided[0].headline == "Victory to Bandits"
    assert battle.state.outcome == BattleOutcome(winner=Side.RED, round=1)
    assert awaiting_continue(battle.state)


def test_a_draw_when_nobody_is_left_able_to_act(make: Make) -> None:
    state = duel(make)
    both = (replace(state.combatant("f"), hp=-1), replace(state.combatant("s"), hp=-1))
    battle = Battle(state.with_combatants(*both), 3, get_ruleset)
    # Before the order is rolled the round's end rolls everybody's HT at 0 HP: both fail.
    events = battle.execute(EndTurn(), ScriptedDice(FAILS * 2))
    assert [battle.state.combatant(i).status for i in "fs"] == [Status.UNCONSCIOUS] * 2
    draw = of(events, BattleDecided)
    assert [(d.winner, d.round) for d in draw] == [(None, 2)]
    assert draw[0].describe() == (
        "The battle ends in a draw in round 2: no fighter on any side can still act"
    )
    assert draw[0].headline == "A draw"
    assert battle.state.outcome == BattleOutcome(winner=None, round=2)


def test_undo_takes_the_decision_back_and_redo_brings_it_again_exactly(make: Make) -> None:
    battle = knocked_out_fencer(make)
    decided = battle.state
    events = battle.event_batches[-1]
    battle.undo()
    assert battle.state.outcome is None and not awaiting_continue(battle.state)
    assert not battle.state.items and battle.state.combatant("f").fighter.weapons
    battle.redo()
    assert battle.state == decided and battle.event_batches[-1] == events


def test_continue_anyway_plays_on_as_a_command_that_undoes(make: Make) -> None:
    battle = knocked_out_fencer(make)
    with pytest.raises(IllegalCommandError):
        Battle(duel(make), 3, get_ruleset).execute(ContinueBattle(), NO_DICE)
    events = battle.execute(ContinueBattle(), NO_DICE)
    assert [e.describe() for e in of(events, BattleContinued)] == [
        "The GM plays on after the battle's end (victory to Red in round 1)"
    ]
    assert battle.state.outcome == BattleOutcome(winner=Side.RED, round=1, continued=True)
    assert not awaiting_continue(battle.state)
    with pytest.raises(IllegalCommandError):
        battle.execute(ContinueBattle(), NO_DICE)
    # Playing on, what leaves the decision as it is tells nothing new.
    events = battle.execute(EditCombatant("f", status=Status.DEAD), NO_DICE)
    assert not of(events, BattleDecided) and battle.state.outcome is not None
    battle.undo()
    battle.undo()
    assert awaiting_continue(battle.state)


def test_playing_on_the_last_standing_fighter_falling_too_makes_a_draw(make: Make) -> None:
    battle = knocked_out_fencer(make)
    battle.execute(ContinueBattle(), NO_DICE)
    events = battle.execute(EditCombatant("s", status=Status.DEAD), NO_DICE)
    assert [(d.winner, d.round) for d in of(events, BattleDecided)] == [(None, 1)]
    assert battle.state.outcome == BattleOutcome(winner=None, round=1)
    assert awaiting_continue(battle.state)


def test_a_fighter_able_to_act_again_lifts_the_decision(make: Make) -> None:
    battle = knocked_out_fencer(make)
    battle.execute(ContinueBattle(), NO_DICE)
    events = battle.execute(EditCombatant("f", status=Status.ACTIVE), NO_DICE)
    assert [e.describe() for e in of(events, BattleUndecided)] == [
        "The battle goes on in round 1: Blue and Red each have a fighter able to act"
    ]
    assert battle.state.outcome is None


def test_a_newcomer_who_can_act_lifts_the_decision(make: Make) -> None:
    battle = knocked_out_fencer(make)
    newcomer = make("spearman", AWAY, Facing.S, id="n", side=Side.BLUE)
    events = battle.execute(AddCombatant(newcomer), NO_DICE)
    assert of(events, BattleUndecided) and battle.state.outcome is None


def test_a_battle_of_one_side_is_never_decided(make: Make) -> None:
    f = make("fencer", HOME, Facing.S, id="f", side=Side.BLUE)
    g = make("fencer", AWAY, Facing.S, id="g", side=Side.BLUE)
    battle = Battle(BattleState(GRID, (f, g)), 3, get_ruleset)
    events = battle.execute(EditCombatant("f", status=Status.DEAD), NO_DICE)
    assert not of(events, BattleDecided) and battle.state.outcome is None
    battle.execute(EditCombatant("g", status=Status.DEAD), NO_DICE)
    assert battle.state.outcome is None


def test_a_heart_that_starts_again_undecides_a_seed002_battle() -> None:
    defender = d002.fighter("Defender", ("longsword", "dagger"), armour=None, hp=12)
    b = d002.battle(d002.duel(None, defender))
    # A critical cut (03; the dodge 99 fails), major wound 7: unconscious for 1 round.
    b.execute(Attack("a", "d", d002.sword()), ScriptedDice((3, 99, 7, 1)))
    assert b.state.outcome == BattleOutcome(winner=Side.BLUE, round=1)
    b.execute(ContinueBattle(), NO_DICE)
    b.execute(EndTurn(), NO_DICE)  # one round passes
    events = b.execute(EndTurn(), NO_DICE)  # it comes to
    assert b.state.combatant("d").status is Status.ACTIVE
    assert of(events, BattleUndecided) and b.state.outcome is None


def test_save_load_and_replay_bring_the_decision_and_the_undo_history_again(
    make: Make,
) -> None:
    battle = knocked_out_fencer(make, NAMED)
    battle.execute(ContinueBattle(), NO_DICE)
    battle.undo()  # "Continue anyway" waits for a redo
    types = get_ruleset("000").sheets.saved_types
    loaded = read_battle(write_battle(battle, types), rulesets=get_ruleset)
    assert loaded.state == battle.state and awaiting_continue(loaded.state)
    assert loaded.event_batches == battle.event_batches
    assert [type(c) for c, _ in loaded.undone] == [ContinueBattle]
    loaded.redo()
    assert loaded.state.outcome is not None and loaded.state.outcome.continued
    replayed = Battle.replay(
        battle.initial, battle.seed, battle.commands, battle.dice_log, rulesets=get_ruleset
    )
    assert replayed.state == battle.state and replayed.event_batches == battle.event_batches


# --- every ruleset answers through the protocol ---------------------------------------------


def _pair_002() -> BattleState:
    return d002.duel()


def _pair_003() -> BattleState:
    return d003.duel()


def _pair_004() -> BattleState:
    state = d004.duel().state  # Ann "a" and Bob, here "d"
    return replace(state, combatants=(state.combatant("a"), replace(state.combatant("b"), id="d")))


def _pair_000() -> BattleState:
    from rules.battle.catalog import load_fighters

    fencer = load_fighters()["fencer"]
    a = Combatant("a", fencer, Side.BLUE, HOME, Facing.S, fencer.hit_points)
    d = Combatant("d", fencer, Side.RED, HOME + Facing.S.vector, Facing.N, fencer.hit_points)
    return BattleState(GRID, (a, d))


@pytest.mark.parametrize(
    ("key", "pair"),
    [("000", _pair_000), ("002", _pair_002), ("003", _pair_003), ("004", _pair_004)],
)
@pytest.mark.parametrize(
    ("status", "down"),
    [(Status.STUNNED, None), (Status.UNCONSCIOUS, Down.UNCONSCIOUS), (Status.DEAD, Down.DEAD)],
)
def test_every_ruleset_tells_who_can_act_and_the_battle_follows(
    key: str, pair: object, status: Status, down: Down | None
) -> None:
    state = pair()  # type: ignore[operator]
    assert state.ruleset_key == key
    ruleset = get_ruleset(key)
    assert all(ruleset.conditions.fighter_condition(c) == ABLE for c in state.combatants)
    assert decision(state, ruleset) is None
    battle = Battle(state, 3, get_ruleset)
    battle.execute(EditCombatant("d", status=status), NO_DICE)
    condition = ruleset.conditions.fighter_condition(battle.state.combatant("d"))
    assert condition.down is down and condition.able_to_act is (down is None)
    expected = None if down is None else BattleOutcome(winner=Side.BLUE, round=1)
    assert battle.state.outcome == expected


def test_a_condition_down_cannot_act_and_cites_its_rule() -> None:
    with pytest.raises(RulesError):
        FighterCondition(able_to_act=True, down=Down.DEAD)
    with pytest.raises(RulesError):
        FighterCondition(able_to_act=False, down=Down.DEAD)  # no citation
