"""Turns in initiative order, maneuvers and the GM's override, at the battle level
(rules.battle.turns, rules.sets.seed000.maneuvers, rules.sets.seed000.turn): every
rule is checked through the commands a GM's clicks send, with the dice scripted
where the outcome matters."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.catalog import load_demo_battle
from rules.battle.command_events import Moved, PostureChanged, TurnEnded
from rules.battle.commands import Attack, EditCombatant, EndTurn, MoveCombatant, TurnCombatant
from rules.battle.decision import BattleDecided
from rules.battle.maneuvers import ManeuverChoice, MoveAllowance
from rules.battle.model import Combatant, Posture, Status
from rules.battle.state import BattleState
from rules.battle.turns import (
    ChooseManeuver,
    ManeuverChosen,
    OverridableError,
    RuleOverridden,
    StartTurns,
    TurnBegan,
    TurnOrderSet,
    attacks_left,
    movement_left,
    upcoming,
)
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import (
    AttackDeclared,
    AttackRolled,
    BleedingRolled,
    DefenseNotRolled,
    DefenseRolled,
    InjuryRolled,
    StunRecoveryRolled,
)
from rules.sets.seed000.attack_steps import attack_command, split_answer
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.maneuvers import InitiativeRolled, ManeuverApplied
from rules.sets.seed000.tracks import with_wounds, wound_conditions
from rules.sets.seed000.turn import StandingRolled, TurnPassed
from rules.sets.seed000.wound_effects import Condition, Limb, Wound
from tests.rules.battle_level import (
    BROADSWORD,
    GRID,
    HOME,
    MISS,
    RAPIER,
    SOUTH,
    Make,
    duel,
    of,
    started,
)
from tests.test_rules_traceability import DOC, _defines, _split_cells, parse_refs

# A hit that is no critical (6), then a defense roll of 3: a critical success that
# stops the blow, after which nothing else is rolled.
HIT_THEN_CRITICAL_DEFENSE = (2, 2, 2, 1, 1, 1)


# --- initiative -----------------------------------------------------------------------------


def test_initiative_by_basic_speed_then_dx_then_a_die() -> None:
    """The demo's fighters: the fencer (HT 11 + DX 14)/4 = 6.25 first; the spearman
    6 with DX 13; the sword-and-shield and flail fighters 6 with DX 12 each: a die
    each settles them, highest first."""
    grid, combatants = load_demo_battle()
    state = BattleState(grid, combatants)
    for faces, order in (((2, 5), ("c4", "c2", "c3", "c1")), ((5, 2), ("c4", "c2", "c1", "c3"))):
        battle = Battle(state, 1, get_ruleset)
        dice = ScriptedDice(faces)
        events = battle.execute(StartTurns(), dice)
        assert dice.unused == 0
        assert battle.state.initiative == order
        assert battle.state.active_id == "c4" and battle.state.round == 1
        rolled = of(events, InitiativeRolled)[0]
        speeds = {e.combatant_id: (e.basic_speed, e.dx) for e in rolled.entries}
        assert speeds == {
            "c4": (Fraction(25, 4), 14),
            "c2": (Fraction(6), 13),
            "c1": (Fraction(6), 12),
            "c3": (Fraction(6), 12),
        }
        assert rolled.citation is not None and rolled.citation.seed == "base"
        assert "Fencer 6.25 (DX 14)" in rolled.describe()
        assert of(events, TurnOrderSet)[0].order == order
        assert [type(e) for e in events][-1] is TurnBegan


def test_a_tied_die_is_rolled_again_among_the_tied() -> None:
    grid, combatants = load_demo_battle()
    battle = Battle(BattleState(grid, combatants), 1, get_ruleset)
    dice = ScriptedDice((4, 4, 1, 6))  # c1 and c3 both roll 4, then c1 1, c3 6
    events = battle.execute(StartTurns(), dice)
    assert battle.state.initiative[2:] == ("c3", "c1")
    entries = {e.combatant_id: e.tie_rolls for e in of(events, InitiativeRolled)[0].entries}
    assert entries["c1"] == (4, 1) and entries["c3"] == (4, 6) and entries["c4"] == ()


def test_the_dead_take_no_turn(make: Make) -> None:
    state = duel(make)
    dead = replace(state.combatant("f"), status=Status.DEAD)
    battle = started(state.with_combatants(dead))
    assert battle.state.initiative == ("s",) and battle.state.active_id == "s"


# --- next turn and rounds -----------------------------------------------------------------


def test_next_turn_passes_in_order_and_a_round_ends_after_the_last(make: Make) -> None:
    battle = started(duel(make))
    assert battle.state.initiative == ("f", "s") and upcoming(battle.state) == ("s",)
    battle.execute(MoveCombatant("f", HOME + Facing.N.vector))
    events = battle.execute(EndTurn())
    assert battle.state.active_id == "s" and battle.state.round == 1
    assert of(events, TurnBegan)[0].combatant_id == "s" and not of(events, TurnEnded)
    # The fencer's movement (a step back: 2 MP) stays spent until its own next turn.
    assert battle.state.combatant("f").move_used == 2
    events = battle.execute(EndTurn())
    assert battle.state.active_id == "f" and battle.state.round == 2
    assert [type(e) for e in events] == [TurnEnded, TurnBegan]
    assert of(events, TurnEnded)[0].turn == 2
    assert battle.state.combatant("f").move_used == 0
    assert (
        Battle.replay(
            battle.initial, battle.seed, battle.commands, battle.dice_log, rulesets=get_ruleset
        ).state
        == battle.state
    )


def test_a_dead_fighter_s_turn_is_skipped(make: Make) -> None:
    third = make("spearman", Hex.from_offset(1, 1), Facing.S, id="p")  # Basic Speed 6, DX 13
    state = BattleState(GRID, (*duel(make).combatants, third))
    battle = started(state)
    assert battle.state.initiative == ("f", "p", "s")
    battle.execute(EditCombatant("p", status=Status.DEAD))
    battle.execute(EndTurn())
    assert battle.state.active_id == "s"


def test_before_the_order_is_rolled_end_turn_ends_everybody_s_turn(make: Make) -> None:
    battle = Battle(duel(make), 3, get_ruleset)
    battle.execute(MoveCombatant("f", HOME + Facing.N.vector))
    battle.execute(MoveCombatant("s", SOUTH + Facing.S.vector))
    battle.execute(EndTurn())
    assert not battle.state.turns_running and battle.state.turn == 2
    assert all(c.move_used == 0 for c in battle.state.combatants)


# --- refusals and overrides ----------------------------------------------------------------


def test_an_attack_out_of_turn_is_refused_unless_overridden(make: Make) -> None:
    battle = started(duel(make))
    with pytest.raises(IllegalCommandError, match="it is Fencer's turn"):
        battle.execute(Attack("s", "f", BROADSWORD), ScriptedDice(MISS))
    events = battle.execute(Attack("s", "f", BROADSWORD, gm_override=True), ScriptedDice(MISS))
    overridden = of(events, RuleOverridden)
    assert [o.reason for o in overridden] == [
        "it is Fencer's turn: Sword-and-shield fighter cannot attack"
    ]
    assert overridden[0].action == "attack" and "GM override" in overridden[0].describe()
    assert of(events, AttackRolled)


def test_a_second_attack_is_refused_unless_overridden(make: Make) -> None:
    battle = started(duel(make))
    events = battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    chosen = of(events, ManeuverChosen)[0]  # no maneuver chosen: the attack takes Attack
    assert chosen.implied and chosen.maneuver == "attack"
    assert battle.state.combatant("f").maneuver == ManeuverChoice("attack", "", implied=True)
    assert attacks_left(get_ruleset(), battle.state.combatant("f")) == 0
    with pytest.raises(IllegalCommandError, match="has made 1 attack this turn; Attack allows 1"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    events = battle.execute(Attack("f", "s", RAPIER, gm_override=True), ScriptedDice(MISS))
    assert [o.reason for o in of(events, RuleOverridden)] == [
        "Fencer has made 1 attack this turn; Attack allows 1"
    ]
    assert battle.state.combatant("f").attacks_made == 2


def test_an_all_out_double_attack_allows_two(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", "all-out-attack", "double"))
    battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    with pytest.raises(IllegalCommandError, match="allows 2"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))


def test_a_maneuver_without_attacks_refuses_one(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", "move"))
    with pytest.raises(IllegalCommandError, match="maneuver, Move, allows no attack"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))


def test_an_attack_on_a_dead_fighter_is_refused_unless_overridden(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(EditCombatant("s", hp=-70, status=Status.DEAD))
    with pytest.raises(IllegalCommandError, match="Sword-and-shield fighter is dead"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    events = battle.execute(Attack("f", "s", RAPIER, gm_override=True), ScriptedDice(MISS))
    assert [o.reason for o in of(events, RuleOverridden)] == ["Sword-and-shield fighter is dead"]


def test_a_move_past_the_movement_points_is_refused_unless_overridden(make: Make) -> None:
    battle = started(duel(make))
    f = battle.state.combatant("f")
    assert f.fighter.move == 6
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.FULL, 6)
    battle.execute(TurnCombatant("f", Facing.N))  # 3 hex sides: 3 MP
    refusal = "would spend 7 movement points this turn; its Move is 6"
    with pytest.raises(IllegalCommandError, match=refusal):
        battle.execute(MoveCombatant("f", HOME + Facing.N.vector.scale(4)))
    assert battle.state.combatant("f").hex == HOME  # refused: nothing moved
    battle.execute(MoveCombatant("f", HOME + Facing.N.vector.scale(3)))  # 3 + 3 = 6: all of it
    far = HOME + Facing.N.vector.scale(7)
    events = battle.execute(MoveCombatant("f", far, gm_override=True))
    assert [o.reason for o in of(events, RuleOverridden)] == [
        "Fencer would spend 10 movement points this turn; its Move is 6"
    ]
    assert of(events, Moved)[0].move_used == 10


def test_the_maneuver_sets_how_far_the_fighter_moves(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", "attack"))
    f = battle.state.combatant("f")
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.STEP, 1)
    battle.execute(MoveCombatant("f", HOME + Facing.SE.vector))
    with pytest.raises(
        IllegalCommandError, match="would move 2 hexes this turn; Attack allows one step"
    ):
        battle.execute(MoveCombatant("f", HOME + Facing.SE.vector.scale(2)))
    # All-out attack: half the Move (3 of 6) in movement points.
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", "all-out-attack"))
    f = battle.state.combatant("f")
    assert movement_left(battle.state, get_ruleset(), f) == (MoveAllowance.HALF, 3)


def test_an_attack_after_a_long_move_needs_a_maneuver_that_allows_both(make: Make) -> None:
    battle = started(duel(make, swordsman_hex=HOME + Facing.S.vector.scale(4)))
    battle.execute(MoveCombatant("f", HOME + Facing.S.vector.scale(3)))
    with pytest.raises(
        IllegalCommandError, match="would move 3 hexes this turn; Attack allows one step"
    ):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    with pytest.raises(IllegalCommandError, match="Attack allows one step"):
        battle.execute(ChooseManeuver("f", "attack"))
    battle.execute(ChooseManeuver("f", "all-out-attack"))  # half Move: 3 MP, as spent
    events = battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    assert of(events, AttackRolled) and not of(events, RuleOverridden)


def test_choosing_a_maneuver_out_of_turn_or_not_offered_needs_the_override(make: Make) -> None:
    battle = started(duel(make))
    with pytest.raises(IllegalCommandError, match="cannot choose a maneuver"):
        battle.execute(ChooseManeuver("s", "all-out-defense"))
    with pytest.raises(IllegalCommandError, match="has no option 'kick'"):
        battle.execute(ChooseManeuver("f", "all-out-attack", "kick"))
    with pytest.raises(IllegalCommandError, match="no maneuver 'feint'"):
        battle.execute(ChooseManeuver("f", "feint"))
    battle.execute(EditCombatant("f", status=Status.STUNNED))
    assert [m.key for m in get_ruleset().turns.maneuvers(battle.state, "f")] == ["do-nothing"]
    with pytest.raises(IllegalCommandError, match="Fencer cannot take Move now"):
        battle.execute(ChooseManeuver("f", "move"))
    events = battle.execute(ChooseManeuver("f", "move", gm_override=True))
    assert [type(e) for e in events] == [RuleOverridden, ManeuverChosen]
    assert events[-1].describe() == "Fencer chooses Move"


# --- maneuvers and defenses through full attacks ------------------------------------------


def test_a_defender_in_an_all_out_attack_has_no_active_defense(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", "all-out-attack", "determined"))
    events = battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    bonus = [m for m in of(events, AttackRolled)[0].modifiers if m.value == 4]
    assert [m.reason for m in bonus] == ["All-out attack (+4 to hit)"]
    battle.execute(EndTurn())
    dodge = replace(BROADSWORD, defenses=(DefenseChoice(DefenseKind.DODGE),))
    events = battle.execute(attack_command("s", "f", dodge), ScriptedDice((2, 2, 2, *[1] * 40)))
    assert of(events, ManeuverApplied)[0].describe() == (
        "Fencer is in an all-out attack (+4 to hit): no active defense"
    )
    assert of(events, AttackDeclared)[0].announced == ()
    assert not of(events, DefenseRolled) and not of(events, DefenseNotRolled)
    # Its next turn ends the all-out attack: it defends again.
    battle.execute(EndTurn())
    assert battle.state.combatant("f").maneuver is None


def _dodge_against_swordsman(make: Make, fencer_maneuver: str, option: str = "") -> DefenseRolled:
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", fencer_maneuver, option))
    battle.execute(EndTurn())
    dodge = replace(BROADSWORD, defenses=(DefenseChoice(DefenseKind.DODGE),))
    dice = ScriptedDice(HIT_THEN_CRITICAL_DEFENSE)
    events = battle.execute(attack_command("s", "f", dodge), dice)
    return of(events, DefenseRolled)[0]


def test_an_all_out_defense_gives_its_bonus_to_the_chosen_defense(make: Make) -> None:
    plain = _dodge_against_swordsman(make, "do-nothing")
    all_out = _dodge_against_swordsman(make, "all-out-defense", "dodge")
    assert all_out.value == plain.value + 2
    assert [m.reason for m in all_out.modifiers if m not in plain.modifiers] == [
        "All-out defense (+2 dodge)"
    ]
    # Another kind of all-out defense leaves the dodge as it was.
    assert _dodge_against_swordsman(make, "all-out-defense", "parry").value == plain.value


def test_the_preview_follows_the_defender_s_maneuver(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", "all-out-attack"))
    battle.execute(EndTurn())
    dodge = replace(BROADSWORD, defenses=(DefenseChoice(DefenseKind.DODGE),))
    preview = get_ruleset().attacks.preview_attack(battle.state, "s", "f", *split_answer(dodge))
    assert not [line for line in preview.odds if line.label.startswith("stopped by")]


def test_a_waiting_fighter_may_attack_on_another_s_turn_once(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(EndTurn())  # the swordsman's turn
    battle.execute(ChooseManeuver("s", "wait"))
    battle.execute(EndTurn())  # round 2: the fencer's turn; the swordsman still waits
    events = battle.execute(Attack("s", "f", BROADSWORD), ScriptedDice(MISS))
    assert not of(events, RuleOverridden)
    with pytest.raises(IllegalCommandError, match="Wait allows 1"):
        battle.execute(Attack("s", "f", BROADSWORD), ScriptedDice(MISS))


def test_legal_actions_follow_the_turn_and_the_maneuver(make: Make) -> None:
    ruleset = get_ruleset()
    battle = started(duel(make))
    mine = [a.command for a in ruleset.turns.legal_actions(battle.state, "f")]
    assert ChooseManeuver("f", "all-out-defense", "parry") in mine and EndTurn() in mine
    assert any(isinstance(c, Attack) for c in mine)
    assert ruleset.turns.legal_actions(battle.state, "s") == ()  # not its turn
    battle.execute(ChooseManeuver("f", "move"))
    mine = [a.command for a in ruleset.turns.legal_actions(battle.state, "f")]
    assert not any(isinstance(c, Attack) for c in mine)
    assert ChooseManeuver("f", "move") not in mine  # already chosen


# --- conditions at the right fighter's turn ------------------------------------------------


def _with(state: BattleState, who: Combatant) -> BattleState:
    return state.with_combatants(who)


def test_stun_recovery_comes_at_the_end_of_the_stunned_fighter_s_own_turn(make: Make) -> None:
    state = duel(make)
    state = _with(state, replace(state.combatant("s"), status=Status.STUNNED))
    battle = started(state)
    events = battle.execute(EndTurn(), ScriptedDice(()))  # the fencer's turn ends: no roll
    assert not of(events, StunRecoveryRolled) and battle.state.active_id == "s"
    assert get_ruleset().conditions.labels(battle.state.combatant("s")) == ("stunned",)
    events = battle.execute(EndTurn(), ScriptedDice((1, 1, 2)))  # the swordsman's own turn
    rolled = of(events, StunRecoveryRolled)
    assert [r.combatant_id for r in rolled] == ["s"] and rolled[0].roll.succeeded
    assert battle.state.combatant("s").status is Status.ACTIVE
    assert events.index(rolled[0]) < events.index(of(events, TurnEnded)[0])


def test_bleeding_costs_its_hp_at_the_end_of_the_bleeder_s_own_turn(make: Make) -> None:
    state = duel(make)
    bleeding = Wound("000", "neck", "Neck", None, 3, None, frozenset({Condition.SEVERE_BLEEDING}))
    s = with_wounds(replace(state.combatant("s"), hp=9), (bleeding,))
    battle = started(_with(state, s))
    assert not of(battle.execute(EndTurn(), ScriptedDice(())), BleedingRolled)
    events = battle.execute(EndTurn(), ScriptedDice((6, 6, 4)))  # HT 12 fails: still bleeding
    bled = of(events, BleedingRolled)[0]
    assert (bled.combatant_id, bled.hp_before, bled.hp_after) == ("s", 9, 8)
    assert Condition.SEVERE_BLEEDING in wound_conditions(battle.state.combatant("s"))


def test_a_crippled_leg_calls_for_a_dx_roll_at_the_end_of_the_fighter_s_turn(make: Make) -> None:
    state = duel(make)
    leg = Wound("000", "leg", "Right leg", None, 7, Limb.LEG, frozenset({Condition.CRIPPLED}))
    battle = started(_with(state, with_wounds(state.combatant("s"), (leg,))))
    assert not of(battle.execute(EndTurn(), ScriptedDice(())), StandingRolled)  # s's turn begins
    events = battle.execute(EndTurn(), ScriptedDice((6, 6, 5)))  # it ends: DX 12, 17 fails
    stood = of(events, StandingRolled)[0]
    assert stood.combatant_id == "s" and stood.dx == 12 and not stood.roll.succeeded
    assert stood.citation is not None and str(stood.citation) == "000 RANDOM BODY HIT note 22"
    fell = of(events, PostureChanged)[0]
    assert fell.fell and battle.state.combatant("s").posture is Posture.PRONE
    assert "crippled leg" in get_ruleset().conditions.labels(battle.state.combatant("s"))
    # Lying down, it rolls no more.
    battle.execute(EndTurn(), ScriptedDice(()))
    assert not of(battle.execute(EndTurn(), ScriptedDice(())), StandingRolled)


def test_a_knockdown_puts_the_fighter_down_at_its_turn(make: Make) -> None:
    state = duel(make)
    knocked = Wound("001", "skull", "Skull", None, 4, None, frozenset({Condition.KNOCKED_DOWN}))
    battle = started(_with(state, with_wounds(state.combatant("s"), (knocked,))))
    events = battle.execute(EndTurn(), ScriptedDice(()))
    assert of(events, PostureChanged)[0].combatant_id == "s"
    s = battle.state.combatant("s")
    assert s.posture is Posture.PRONE and Condition.KNOCKED_DOWN not in wound_conditions(s)


def test_at_zero_hp_a_fighter_rolls_to_stay_conscious_and_the_unconscious_pass(
    make: Make,
) -> None:
    state = duel(make)
    battle = started(_with(state, replace(state.combatant("s"), hp=-1)))
    events = battle.execute(EndTurn(), ScriptedDice((6, 6, 5)))  # HT 12: 17 fails
    assert of(events, InjuryRolled)[0].combatant_id == "s"
    assert battle.state.combatant("s").status is Status.UNCONSCIOUS
    assert of(events, TurnPassed)[0].describe() == (
        "Sword-and-shield fighter is unconscious: the turn passes"
    )
    assert get_ruleset().turns.maneuvers(battle.state, "s") == ()
    # Its turn passes at once: the next fighter's begins, in a new round.
    assert battle.state.active_id == "f" and battle.state.round == 2
    # It fell as its turn began; the fencer, the last able to act, wins.
    kinds = [type(e) for e in events]
    assert kinds.index(PostureChanged) < kinds.index(TurnEnded)
    assert kinds[-3:] == [TurnEnded, TurnBegan, BattleDecided]
    assert get_ruleset().turns.legal_actions(battle.state, "s") == ()


@pytest.mark.parametrize(
    ("key", "allowance", "left"),
    [
        ("ready", MoveAllowance.STEP, 1),
        ("change-posture", MoveAllowance.NONE, 0),
        ("aim", MoveAllowance.STEP, 1),
        ("do-nothing", MoveAllowance.NONE, 0),
        ("all-out-defense", MoveAllowance.STEP, 1),
        ("move", MoveAllowance.FULL, 6),
    ],
)
def test_maneuvers_without_an_attack(
    make: Make, key: str, allowance: MoveAllowance, left: int
) -> None:
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", key))
    f = battle.state.combatant("f")
    assert movement_left(battle.state, get_ruleset(), f) == (allowance, left)
    assert attacks_left(get_ruleset(), f) == 0
    with pytest.raises(IllegalCommandError, match="allows no attack"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    if allowance is MoveAllowance.NONE:
        with pytest.raises(IllegalCommandError, match="allows no movement"):
            battle.execute(MoveCombatant("f", HOME + Facing.SE.vector))


def test_the_base_rules_table_points_at_code_and_tests() -> None:
    """docs/rules.md "Base rules": every row names code and tests that exist (as
    tests/test_rules_traceability.py checks the seed rows)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(
        "| Base rule | Rule (own words) | Implemented in | Tests | Interpretation |"
    )
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append(_split_cells(line))
    assert len(rows) >= 10
    problems = []
    for rule, _words, code, tests, _why in rows:
        for cell in (code, tests):
            refs = parse_refs(cell)
            assert refs, f"{rule}: no reference"
            for ref in refs:
                text = (DOC.parent / ref.path).resolve().read_text(encoding="utf-8")
                problems += [
                    f"{rule}: {n} not in {ref.path}" for n in ref.names if not _defines(text, n)
                ]
    assert not problems


def test_legal_steps_fit_the_movement_left(make: Make) -> None:
    battle = started(duel(make, swordsman_hex=HOME + Facing.S.vector.scale(5)))
    battle.execute(MoveCombatant("f", HOME + Facing.S.vector.scale(3)))  # 3 MP
    battle.execute(TurnCombatant("f", Facing.SE))  # the side a step turns for free
    battle.execute(TurnCombatant("f", Facing.SW))  # 2 MP: 1 of 6 left
    f = battle.state.combatant("f")
    left = movement_left(battle.state, get_ruleset(), f)[1]
    steps = [
        a.command
        for a in get_ruleset().turns.legal_actions(battle.state, "f")
        if isinstance(a.command, MoveCombatant)
    ]
    assert left == 1 and steps
    for step in steps:  # only the three hexes in front cost 1
        assert battle.preview(step).state.combatant("f").move_used == f.move_used + 1


def test_an_evening_of_legal_actions_in_turn_order_replays_exactly() -> None:
    """300 commands chosen among the legal actions of whoever's turn it is (or a
    waiting fighter), on the demo battle in turn order: none is refused, and the
    log replays to the same state."""
    grid, combatants = load_demo_battle()
    battle = Battle(BattleState(grid, combatants), 11, get_ruleset)
    battle.execute(StartTurns())
    ruleset = get_ruleset()
    pick = random.Random(5)
    for _ in range(300):
        state = battle.state
        assert state.active_id is not None
        actions = ruleset.turns.legal_actions(state, state.active_id)
        if not actions or pick.random() < 0.15:
            battle.execute(EndTurn())
            continue
        battle.execute(pick.choice(actions).command)
    assert not any(isinstance(e, RuleOverridden) for e in battle.events)
    assert battle.state.round > 3
    assert (
        Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset).state
        == battle.state
    )


def test_the_plain_attack_on_a_fighter_whose_shield_grip_is_lost_is_one_it_can_make(
    make: Make,
) -> None:
    """The legal attack (``default_attack``) announces no block with a shield whose
    grip a fumbled block lost: it would be refused."""
    state = duel(make)
    state = _with(state, replace(state.combatant("s"), shield_ready=False))
    battle = started(state)
    attack = next(
        a.command
        for a in get_ruleset().turns.legal_actions(battle.state, "f")
        if isinstance(a.command, Attack)
    )
    assert isinstance(attack.choices, AttackOptions)
    assert DefenseKind.BLOCK not in {d.kind for d in attack.choices.defenses}
    battle.execute(attack, ScriptedDice(MISS))


def test_turning_spends_the_movement_points_of_a_move(make: Make) -> None:
    battle = started(duel(make, swordsman_hex=HOME + Facing.S.vector.scale(8)))
    battle.execute(MoveCombatant("f", HOME + Facing.S.vector.scale(5)))  # 5 of 6 MP
    with pytest.raises(OverridableError, match="would spend 7 movement points"):
        battle.execute(TurnCombatant("f", Facing.N))  # 3 sides, one free: 2 MP
    faces = {
        a.command.facing
        for a in get_ruleset().turns.legal_actions(battle.state, "f")
        if isinstance(a.command, TurnCombatant)
    }
    assert faces == {Facing.SE, Facing.SW, Facing.NE, Facing.NW}  # 0 or 1 MP: not N
    events = battle.execute(TurnCombatant("f", Facing.N, gm_override=True))
    assert of(events, RuleOverridden)[0].action == "turn"
    # Under the Attack maneuver (a step) turning is free of points.
    battle = started(duel(make))
    battle.execute(ChooseManeuver("f", "attack"))
    for facing in (Facing.N, Facing.S, Facing.N):
        battle.execute(TurnCombatant("f", facing))


def test_only_a_turn_rule_is_overridable(make: Make) -> None:
    battle = started(duel(make))
    with pytest.raises(OverridableError):
        battle.execute(Attack("s", "f", BROADSWORD), ScriptedDice(MISS))
    with pytest.raises(IllegalCommandError) as off_map:
        battle.execute(MoveCombatant("f", Hex.from_offset(40, 40), gm_override=True))
    assert not isinstance(off_map.value, OverridableError)
