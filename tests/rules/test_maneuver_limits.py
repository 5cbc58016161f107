"""The maneuvers' limits on readying, posture and the all-out attack, the turn of a
fighter who cannot act, and the whole-round end of turn before the order is rolled
(rules.battle.turns, rules.battle.commands, rules.sets.seed000.maneuvers), each
through the commands a GM's clicks send, at the battle level."""

from __future__ import annotations

from dataclasses import replace
from typing import Unpack

import pytest

from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog
from rules.battle.command_events import PostureChanged, TurnEnded
from rules.battle.commands import (
    Attack,
    DropItem,
    EditCombatant,
    EndTurn,
    MoveCombatant,
    PaintTerrain,
    PickUpItem,
    ReadyShield,
    ReadyWeapon,
    SetPosture,
)
from rules.battle.items import ItemPickedUp, Readied
from rules.battle.maneuvers import ManeuverChoice
from rules.battle.model import CombatantChanges, Posture, Side, Status
from rules.battle.state import BattleState
from rules.battle.terrain import Footing, TerrainChange
from rules.battle.turns import (
    ChooseManeuver,
    ManeuverChosen,
    OverridableError,
    RuleOverridden,
    StartTurns,
    TurnBegan,
    upcoming,
)
from rules.core.dice import ScriptedDice
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import (
    AttackRolled,
    BleedingRolled,
    InjuryRolled,
    StatusChanged,
    StunRecoveryRolled,
)
from rules.sets.seed000.conditions import SelectedCondition
from rules.sets.seed000.maneuvers import ManeuverApplied
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tracks import with_wounds
from rules.sets.seed000.turn import TurnPassed
from rules.sets.seed000.wound_effects import Condition, Wound
from tests.rules.battle_level import BROADSWORD, GRID, HOME, MISS, RAPIER, Make, duel, of, started
from tests.rules.sheets import amend

SOUTH_EAST = HOME + Facing.SE.vector
FAR = Hex.from_offset(1, 1)


def amended(
    state: BattleState, combatant_id: str, **changes: Unpack[CombatantChanges]
) -> BattleState:
    return state.with_combatants(state.combatant(combatant_id).evolve(**changes))


def unready_rapier(make: Make) -> BattleState:
    return amended(duel(make), "f", unready=frozenset({"rapier"}))


# --- readying needs the Ready maneuver ----------------------------------------------------


def test_readying_in_the_order_takes_the_ready_maneuver(make: Make) -> None:
    battle = started(unready_rapier(make))
    events = battle.execute(ReadyWeapon("f", "rapier"))
    chosen = of(events, ManeuverChosen)[0]
    assert chosen.implied and chosen.maneuver == "ready"
    assert chosen.describe() == "Fencer readies without choosing a maneuver: Ready"
    assert of(events, Readied)[0].describe() == "Fencer readies the Rapier (Ready maneuver)"
    f = battle.state.combatant("f")
    assert f.maneuver == ManeuverChoice("ready", "", implied=True) and not f.unready
    # Ready allows no attack.
    with pytest.raises(OverridableError, match="Fencer's maneuver, Ready, allows no attack"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))


def test_readying_under_another_maneuver_is_refused_unless_overridden(make: Make) -> None:
    battle = started(unready_rapier(make))
    battle.execute(ChooseManeuver("f", "all-out-defense", "dodge"))
    refusal = "Fencer's maneuver, All-out defense (+2 dodge), allows no readying (choose Ready)"
    with pytest.raises(OverridableError) as refused:
        battle.execute(ReadyWeapon("f", "rapier"))
    assert str(refused.value) == refusal
    assert battle.state.combatant("f").unready == {"rapier"}  # refused: nothing readied
    events = battle.execute(ReadyWeapon("f", "rapier", gm_override=True))
    assert [o.reason for o in of(events, RuleOverridden)] == [refusal]
    assert of(events, RuleOverridden)[0].action == "ready" and of(events, Readied)
    # Choosing Ready first is the plain way.
    battle = started(unready_rapier(make))
    battle.execute(ChooseManeuver("f", "ready"))
    events = battle.execute(ReadyWeapon("f", "rapier"))
    assert not of(events, RuleOverridden) and not of(events, ManeuverChosen)


def test_readying_after_a_long_move_or_out_of_turn_is_refused(make: Make) -> None:
    battle = started(unready_rapier(make))
    battle.execute(MoveCombatant("f", HOME + Facing.N.vector.scale(2)))
    with pytest.raises(OverridableError, match="would move 2 hexes this turn; Ready allows one"):
        battle.execute(ReadyWeapon("f", "rapier"))
    state = amended(duel(make), "s", unready=frozenset({"broadsword"}))
    battle = started(state)
    with pytest.raises(
        OverridableError, match="it is Fencer's turn: Sword-and-shield fighter cannot ready"
    ):
        battle.execute(ReadyWeapon("s", "broadsword"))
    # A lost shield grip is readied the same way (ReadyShield is a ReadyWeapon).
    battle = started(amended(duel(make), "s", shield_ready=False))
    battle.execute(EndTurn())  # the swordsman's turn
    battle.execute(ChooseManeuver("s", "attack"))
    with pytest.raises(OverridableError, match="allows no readying"):
        battle.execute(ReadyShield("s"))


def test_picking_up_in_the_order_needs_the_ready_maneuver(make: Make) -> None:
    battle = Battle(duel(make), 3, get_ruleset)
    battle.execute(DropItem("s", "broadsword"))  # at the swordsman's feet, by the fencer
    battle.execute(DropItem("f", "main-gauche"))  # a hand free for it
    battle.execute(StartTurns())
    sword = next(i for i in battle.state.items if i.name == "Broadsword")
    battle.execute(ChooseManeuver("f", "move"))
    with pytest.raises(OverridableError, match="Fencer's maneuver, Move, allows no readying"):
        battle.execute(PickUpItem("f", sword.id))
    battle.execute(ChooseManeuver("f", "ready"))
    events = battle.execute(PickUpItem("f", sword.id))
    assert of(events, ItemPickedUp) and sword not in battle.state.items


def test_before_the_order_readying_is_free_of_maneuvers(make: Make) -> None:
    battle = Battle(unready_rapier(make), 3, get_ruleset)
    battle.execute(MoveCombatant("f", HOME + Facing.N.vector.scale(3)))
    events = battle.execute(ReadyWeapon("f", "rapier"))
    assert of(events, Readied) and not of(events, ManeuverChosen)
    assert battle.state.combatant("f").maneuver is None


# --- a posture change needs Change posture ---------------------------------------------------


def test_standing_up_in_the_order_takes_the_change_posture_maneuver(make: Make) -> None:
    battle = started(amended(duel(make), "f", posture=Posture.PRONE))
    events = battle.execute(SetPosture("f", Posture.STANDING))
    assert [type(e) for e in events] == [ManeuverChosen, PostureChanged]
    assert events[0].describe() == (
        "Fencer changes posture without choosing a maneuver: Change posture"
    )
    f = battle.state.combatant("f")
    assert f.posture is Posture.STANDING and f.maneuver == ManeuverChoice(
        "change-posture", "", implied=True
    )
    # Standing up was the turn: no attack, no step.
    with pytest.raises(OverridableError, match="Change posture, allows no attack"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    with pytest.raises(OverridableError, match="Change posture allows no movement"):
        battle.execute(MoveCombatant("f", HOME + Facing.N.vector))


def test_a_posture_change_under_another_maneuver_is_refused_unless_overridden(
    make: Make,
) -> None:
    battle = started(amended(duel(make), "f", posture=Posture.KNEELING))
    battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))  # the implied Attack
    refusal = "Fencer's maneuver, Attack, allows no posture change (choose Change posture)"
    with pytest.raises(OverridableError) as refused:
        battle.execute(SetPosture("f", Posture.STANDING))
    assert str(refused.value) == refusal
    assert battle.state.combatant("f").posture is Posture.KNEELING
    events = battle.execute(SetPosture("f", Posture.STANDING, gm_override=True))
    assert [(o.action, o.reason) for o in of(events, RuleOverridden)] == [("posture", refusal)]
    assert battle.state.combatant("f").posture is Posture.STANDING
    # Out of turn, and for a stunned fighter (who may only do nothing), too.
    with pytest.raises(OverridableError, match="it is Fencer's turn: Sword-and-shield"):
        battle.execute(SetPosture("s", Posture.KNEELING))
    battle.execute(EditCombatant("f", status=Status.STUNNED))
    battle.execute(ChooseManeuver("f", "do-nothing", gm_override=True))
    with pytest.raises(OverridableError, match=r"Do nothing, allows no posture change$"):
        battle.execute(SetPosture("f", Posture.PRONE))


def test_after_a_knockdown_standing_up_costs_the_next_turn(make: Make) -> None:
    knocked = Wound("001", "skull", "Skull", None, 4, None, frozenset({Condition.KNOCKED_DOWN}))
    state = duel(make)
    state = state.with_combatants(with_wounds(state.combatant("s"), (knocked,)))
    battle = started(state)
    battle.execute(EndTurn())  # the swordsman's turn: he is found on the ground
    assert battle.state.combatant("s").posture is Posture.PRONE
    battle.execute(SetPosture("s", Posture.STANDING))
    assert battle.state.combatant("s").maneuver == ManeuverChoice(
        "change-posture", "", implied=True
    )
    with pytest.raises(OverridableError, match="allows no attack"):
        battle.execute(Attack("s", "f", BROADSWORD), ScriptedDice(MISS))


def test_before_the_order_a_posture_change_is_free(make: Make) -> None:
    battle = Battle(duel(make), 3, get_ruleset)
    battle.execute(MoveCombatant("f", HOME + Facing.N.vector.scale(2)))
    events = battle.execute(SetPosture("f", Posture.KNEELING))
    assert [type(e) for e in events] == [PostureChanged]
    assert battle.execute(SetPosture("f", Posture.KNEELING)) == ()  # no change: no event


# --- the all-out attack's two attacks fall on one foe ---------------------------------------


def test_the_two_attacks_of_an_all_out_attack_fall_on_the_same_foe(make: Make) -> None:
    spearman = make("spearman", SOUTH_EAST, Facing.NW, id="p", side=Side.RED)
    battle = started(duel(make, spearman))
    battle.execute(ChooseManeuver("f", "all-out-attack", "double"))
    battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    refusal = (
        "All-out attack (two attacks) puts every attack on one foe: "
        "Fencer has attacked Sword-and-shield fighter this turn"
    )
    with pytest.raises(OverridableError) as refused:
        battle.execute(Attack("f", "p", RAPIER), ScriptedDice(MISS))
    assert str(refused.value) == refusal
    foes = {
        a.command.defender_id
        for a in get_ruleset().turns.legal_actions(battle.state, "f")
        if isinstance(a.command, Attack)
    }
    assert foes == {"s"}  # the legal actions offer the first foe only
    events = battle.execute(Attack("f", "p", RAPIER, gm_override=True), ScriptedDice(MISS))
    assert [o.reason for o in of(events, RuleOverridden)] == [refusal]
    assert of(events, AttackRolled)
    # The +4 option is one attack: no second on anybody; two on one foe pass.
    battle = started(duel(make, spearman))
    battle.execute(ChooseManeuver("f", "all-out-attack", "double"))
    for _ in range(2):
        events = battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
        assert not of(events, RuleOverridden)


# --- a fighter who cannot act is passed over -----------------------------------------------


def test_an_unconscious_fighter_s_turn_passes_over_him(make: Make) -> None:
    spearman = make("spearman", FAR, Facing.S, id="p")  # Basic Speed 6, DX 13: second
    bleeding = Wound("000", "neck", "Neck", None, 3, None, frozenset({Condition.SEVERE_BLEEDING}))
    state = duel(make, spearman)
    out = replace(state.combatant("p"), hp=-2, status=Status.UNCONSCIOUS)
    battle = started(state.with_combatants(with_wounds(out, (bleeding,))))
    assert battle.state.initiative == ("f", "p", "s")
    ruleset = get_ruleset()
    assert upcoming(battle.state, ruleset) == ("s",) and upcoming(battle.state) == ("p", "s")
    events = battle.execute(EndTurn(), ScriptedDice((3, 3, 3) * 4))
    assert battle.state.active_id == "s" and battle.state.round == 1
    kinds = [type(e) for e in events]
    assert kinds[0] is TurnBegan and kinds[-1] is TurnBegan
    assert [e.combatant_id for e in of(events, TurnBegan)] == ["p", "s"]
    passed = of(events, TurnPassed)[0]
    assert passed.describe() == "Spearman is unconscious: the turn passes"
    # His own turn's end came and went: the bleeding cost him its hit point.
    bled = of(events, BleedingRolled)[0]
    assert (bled.combatant_id, bled.hp_before, bled.hp_after) == ("p", -2, -3)
    assert kinds.index(TurnPassed) < kinds.index(BleedingRolled)


def test_the_order_passes_over_the_unconscious_at_its_start_and_at_a_round_s_end(
    make: Make,
) -> None:
    state = amended(duel(make), "f", hp=-3, status=Status.UNCONSCIOUS)
    battle = started(state)
    assert battle.state.active_id == "s"  # the fencer, first, passed over
    assert [e.describe() for e in battle.events if isinstance(e, TurnPassed)] == [
        "Fencer is unconscious: the turn passes"
    ]
    events = battle.execute(EndTurn())  # the swordsman's turn ends: a new round
    assert battle.state.active_id == "s" and battle.state.round == 2
    assert [type(e) for e in events] == [TurnEnded, TurnBegan, TurnPassed, TurnBegan]


def test_a_failed_roll_to_stay_conscious_passes_the_turn_that_began(make: Make) -> None:
    battle = started(amended(duel(make), "s", hp=-1))
    events = battle.execute(EndTurn(), ScriptedDice((6, 6, 5)))  # HT 12: 17 fails
    assert of(events, InjuryRolled)
    assert of(events, TurnPassed)
    assert battle.state.active_id == "f" and battle.state.round == 2


def test_when_nobody_else_can_act_the_turn_stays_for_the_gm(make: Make) -> None:
    battle = started(duel(make))
    battle.execute(EditCombatant("s", status=Status.UNCONSCIOUS))
    battle.execute(EditCombatant("f", status=Status.UNCONSCIOUS))
    events = battle.execute(EndTurn())
    assert battle.state.active_id == "s" and of(events, TurnPassed)
    assert len(of(events, TurnBegan)) == 1


# --- EndTurn before the order is rolled ------------------------------------------------------


def test_before_the_order_end_turn_makes_everybody_s_end_and_start_of_turn_checks(
    make: Make,
) -> None:
    """Every fighter's turn ends and the next begins at once, as on their own
    turns: first the end-of-turn effects (the stunned roll to recover), then the
    new turn and its start-of-turn effects (a fighter at 0 HP or less rolls to stay
    conscious, a knocked-down one falls)."""
    knocked = Wound("001", "skull", "Skull", None, 4, None, frozenset({Condition.KNOCKED_DOWN}))
    state = amended(duel(make), "f", status=Status.STUNNED, hp=-1)
    state = state.with_combatants(with_wounds(state.combatant("s"), (knocked,)))
    battle = Battle(state, 3, get_ruleset)
    dice = ScriptedDice((1, 1, 2, 1, 2, 2))  # the fencer's HT 11: 4 recovers, 5 stays up
    events = battle.execute(EndTurn(), dice)
    assert dice.unused == 0
    assert not battle.state.turns_running and battle.state.turn == 2
    kinds = [type(e) for e in events]
    assert kinds == [StunRecoveryRolled, StatusChanged, TurnEnded, InjuryRolled, PostureChanged]
    assert of(events, InjuryRolled)[0].combatant_id == "f"
    fell = of(events, PostureChanged)[0]
    assert fell.combatant_id == "s" and battle.state.combatant("s").posture is Posture.PRONE
    assert battle.state.combatant("f").status is Status.ACTIVE


# --- a turn of Aim before a missile shot ---------------------------------------------------


def _archer_on_bad_footing(make: Make, catalog: Catalog) -> Battle:
    """An archer (the swordsman with a short bow in both hands instead of sword
    and shield, and Bow 13) on bad footing, first in the order, and a foe four
    hexes in front of him."""
    archer = make("sword-and-shield", HOME, Facing.S, id="a", side=Side.BLUE)
    bow = catalog.weapon("shortbow")
    skills = {**sheet_of(archer).skills, "Bow": 13}
    archer = replace(
        archer,
        fighter=amend(archer.fighter, weapons=(bow,), shield=None, skills=skills),
    )
    foe = make("sword-and-shield", HOME + Facing.S.vector.scale(4), Facing.N, id="t")
    battle = Battle(BattleState(GRID, (archer, foe)), 3, get_ruleset)
    battle.execute(PaintTerrain((HOME,), TerrainChange(footing=Footing.BAD)))
    battle.execute(StartTurns(), ScriptedDice((6, 1)))  # equal speeds: the archer's 6 wins
    assert battle.state.active_id == "a"
    return battle


SHOT = AttackOptions("shortbow", "shoot", conditions=(SelectedCondition("bad_footing", -1),))


def test_a_missile_shot_after_a_turn_of_aim_ignores_the_bad_footing(
    make: Make, catalog: Catalog
) -> None:
    hasty = _archer_on_bad_footing(make, catalog)
    plain = of(hasty.execute(Attack("a", "t", SHOT), ScriptedDice(MISS)), AttackRolled)[0]
    battle = _archer_on_bad_footing(make, catalog)
    battle.execute(ChooseManeuver("a", "aim"))
    battle.execute(EndTurn())
    battle.execute(EndTurn())  # round 2: the archer's turn again, after a turn of Aim
    assert battle.state.combatant("a").maneuver_last_turn == ManeuverChoice("aim")
    events = battle.execute(Attack("a", "t", SHOT), ScriptedDice(MISS))
    assert [e.describe() for e in of(events, ManeuverApplied)] == [
        "Sword-and-shield fighter took time to aim: the bad footing does not count"
    ]
    aimed = of(events, AttackRolled)[0]
    dropped = [m for m in plain.modifiers if m not in aimed.modifiers]
    assert [m.value for m in dropped] == [-1]
    assert [m for m in aimed.modifiers if m not in plain.modifiers] == []
    # The aim is spent: the next shot, after a turn of shooting, keeps the footing.
    battle.execute(EndTurn())
    battle.execute(EndTurn())
    events = battle.execute(Attack("a", "t", SHOT), ScriptedDice(MISS))
    assert not of(events, ManeuverApplied)
    assert of(events, AttackRolled)[0].modifiers == plain.modifiers
