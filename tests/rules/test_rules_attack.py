"""plan_attack and resolve_attack: legality, the skill modifiers, and the
resolution record checked for consistency (rolls vs outcome vs HP change)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from hexmap import Facing, Hex
from rules.battle.model import ActionKind, Combatant, Shield, ShieldSize, Side, Status, TurnAction
from rules.core.citation import cite
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import (
    AttackOptions,
    AttackOutcome,
    AttackResolution,
    plan_attack,
    resolve_attack,
)
from rules.sets.seed000.attack_events import (
    AttackRolled,
    CriticalMissChecked,
    DamageDealt,
    DefenseCriticalMiss,
    DefenseNotRolled,
    DefenseRolled,
    InjuryRolled,
    LocationShifted,
    StatusChanged,
    WeaponUnreadied,
    WoundInflicted,
)
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.checks import Outcome, judge
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.tracks import wounds_of

Make = Callable[..., Combatant]
DODGE = DefenseChoice(DefenseKind.DODGE)
BLOCK = DefenseChoice(DefenseKind.BLOCK)
PARRY_SWORD = DefenseChoice(DefenseKind.PARRY, "broadsword")
W = "broadsword"


@pytest.fixture
def duel(make: Make) -> tuple[Combatant, Combatant]:
    """Two sword-and-shield fighters face to face on adjacent hexes."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    return a, d


# --- legality --------------------------------------------------------------------------


def test_reach_is_checked_on_the_map(make: Make, ruleset: Tables) -> None:
    a = make("sword-and-shield", Hex(0, 0), Facing.S, id="a")
    far = make("fencer", Hex(0, 2), Facing.N, id="d")
    with pytest.raises(IllegalAttackError, match="reach"):
        plan_attack(a, far, AttackOptions(W, "swing"), ruleset)
    behind = make("fencer", Hex(0, -1), Facing.S, id="d")  # adjacent but behind the attacker
    with pytest.raises(IllegalAttackError, match="reach"):
        plan_attack(a, behind, AttackOptions(W, "swing"), ruleset)
    spear = make("spearman", Hex(0, 0), Facing.S, id="a")
    assert plan_attack(spear, far, AttackOptions("long-spear", "thrust"), ruleset).distance == 2


def test_impossible_attacks(duel: tuple[Combatant, Combatant], ruleset: Tables) -> None:
    a, d = duel
    with pytest.raises(IllegalAttackError):
        plan_attack(a, a, AttackOptions(W, "swing"), ruleset)
    with pytest.raises(IllegalAttackError, match="no weapon"):
        plan_attack(a, d, AttackOptions("rapier", "thrust"), ruleset)
    with pytest.raises(IllegalAttackError, match="no mode"):
        plan_attack(a, d, AttackOptions(W, "lunge"), ruleset)
    with pytest.raises(IllegalAttackError, match="not ready"):
        plan_attack(replace(a, unready=frozenset({W})), d, AttackOptions(W, "swing"), ruleset)
    with pytest.raises(IllegalAttackError, match="cannot attack"):
        plan_attack(replace(a, status=Status.UNCONSCIOUS), d, AttackOptions(W, "swing"), ruleset)
    with pytest.raises(IllegalAttackError, match="hit location"):
        plan_attack(a, d, AttackOptions(W, "swing", location="tail"), ruleset)
    with pytest.raises(ValueError):  # domain errors are ValueErrors
        plan_attack(a, d, AttackOptions(W, "swing", location="tail"), ruleset)


# --- skill modifiers -----------------------------------------------------------------------


def test_pd_and_location_modifiers(duel: tuple[Combatant, Combatant], ruleset: Tables) -> None:
    a, d = duel
    torso = plan_attack(a, d, AttackOptions(W, "swing"), ruleset)
    assert torso.base_skill == 14
    assert torso.effective_skill == 14 - 3 - 3  # chainmail PD 3, medium shield PD 3
    assert {m.citation for m in torso.modifiers} == {cite("000", "PASSIVE DEFENSE")}
    for key, penalty in {
        "head": -5,
        "brain": -7,
        "vitals": -3 - 3,  # a swing there: the shield's PD 3 counts twice (note 13)
        "neck": -5,
        "near_arm": -2,
        "far_arm": -4 - 3,  # the shield side: the plain figure (note 9), double PD (13)
        "near_thigh": -2,
    }.items():
        aimed = plan_attack(a, d, AttackOptions(W, "swing", location=key), ruleset)
        assert aimed.effective_skill - torso.effective_skill == penalty, key
        assert aimed.location.key == aimed.hit_location == key
    hand = plan_attack(a, d, AttackOptions(W, "swing", location="near_hand"), ruleset)
    assert hand.effective_skill - torso.effective_skill == -4 - 2
    cites = {m.citation for m in hand.modifiers}
    assert {cite("000", "HIT PENALTY"), cite("000", "HITTING HANDS IN MELEE")} <= cites


def test_gm_modifiers_min_st_and_large_shield(
    duel: tuple[Combatant, Combatant], ruleset: Tables, make: Make, catalog: Any
) -> None:
    a, d = duel
    base = plan_attack(a, d, AttackOptions(W, "swing"), ruleset).effective_skill
    gm = Modifier(-3, "bad footing", cite("000", "ADVERSE COMBAT CONDITIONS"))
    assert (
        plan_attack(a, d, AttackOptions(W, "swing", extra_modifiers=(gm,)), ruleset).effective_skill
        == base - 3
    )
    weaker = replace(sheet_of(a).attributes, st=8)
    weak = make("sword-and-shield", a.hex, a.facing, id="a", attributes=weaker)
    assert plan_attack(weak, d, AttackOptions(W, "swing"), ruleset).effective_skill == base - 2
    big = Shield("large", "Large shield", ShieldSize.LARGE, 4, 25, heavy=True)
    turtle = make("sword-and-shield", a.hex, a.facing, id="a", shield=big)
    assert plan_attack(turtle, d, AttackOptions(W, "swing"), ruleset).effective_skill == base - 2
    assert plan_attack(turtle, d, AttackOptions(W, "thrust"), ruleset).effective_skill == base


def test_damage_dice_come_from_st_and_the_mode(
    duel: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = duel
    swing = plan_attack(a, d, AttackOptions(W, "swing"), ruleset)
    assert swing.damage_dice == ruleset.damage_table.swing(12).plus(1)
    thrust = plan_attack(a, d, AttackOptions(W, "thrust"), ruleset)
    assert thrust.damage_dice == ruleset.damage_table.thrust(12).plus(1)


def test_attack_with_a_weapon_that_parried_this_turn(
    duel: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = duel
    parried = replace(a, actions_this_turn=(TurnAction(ActionKind.PARRY, W),))
    fresh = plan_attack(a, d, AttackOptions(W, "swing"), ruleset).effective_skill
    assert plan_attack(parried, d, AttackOptions(W, "swing"), ruleset).effective_skill == fresh - 4


def test_planning_is_pure(duel: tuple[Combatant, Combatant], ruleset: Tables) -> None:
    a, d = duel
    opts = AttackOptions(W, "swing", defenses=(BLOCK, DODGE))
    assert plan_attack(a, d, opts, ruleset) == plan_attack(a, d, opts, ruleset)


def test_a_stale_plan_is_refused(duel: tuple[Combatant, Combatant], ruleset: Tables) -> None:
    a, d = duel
    plan = plan_attack(a, d, AttackOptions(W, "swing", defenses=(BLOCK,)), ruleset)
    moved = replace(d, facing=Facing.NE)
    with pytest.raises(IllegalAttackError, match="no longer"):
        resolve_attack(plan, a, moved, random.Random(1), ruleset)


# --- the resolution record -------------------------------------------------------------------


def check_record(res: AttackResolution, attacker: Combatant, defender: Combatant) -> None:
    plan = res.plan
    roll = res.attack_roll
    assert roll.target == plan.effective_skill and roll.outcome is judge(roll.total, roll.target)
    # outcome vs rolls
    expected_by_attack = {
        Outcome.CRITICAL_FAILURE: AttackOutcome.CRITICAL_MISS,
        Outcome.FAILURE: AttackOutcome.MISSED,
        Outcome.CRITICAL_SUCCESS: AttackOutcome.CRITICAL_HIT,
    }
    shifted = any(isinstance(e, LocationShifted) for e in res.events)
    checks = [e for e in res.events if isinstance(e, CriticalMissChecked)]
    if checks and not checks[0].check.happens:  # 000 VERIFYING / AVOIDING CRITICAL MISSES
        expected_by_attack[Outcome.CRITICAL_FAILURE] = AttackOutcome.MISSED
    if shifted:  # 000 NEAR MISSES / MISSING A SPECIFIC HIT LOCATION: defended like a hit
        assert roll.outcome is Outcome.FAILURE
        del expected_by_attack[Outcome.FAILURE]
    if roll.outcome in expected_by_attack:
        assert res.outcome is expected_by_attack[roll.outcome]
        assert res.defense_rolls == ()
    else:
        rolled = res.defense_rolls
        assert [r.plan for r in rolled] == list(plan.defenses[: len(rolled)])
        assert all(not r.succeeded for r in rolled[:-1])
        for r in rolled:
            assert r.roll.target == r.plan.value
        if rolled and rolled[-1].succeeded:
            assert res.outcome is AttackOutcome.DEFENDED
        else:
            assert len(rolled) == len(plan.defenses) and res.outcome is AttackOutcome.HIT
    # damage vs HP
    after = res.defender_after
    if res.outcome.is_hit:
        dmg = res.damage
        assert dmg is not None
        assert dmg.dice == plan.damage_dice
        assert dmg.hp_before == defender.hp and after.hp == defender.hp - dmg.injury
        assert after.status is dmg.status_after
        wounds = [e for e in res.events if isinstance(e, WoundInflicted)]
        if wounds:  # a located blow: the armor's DR there plus the location's own
            a = wounds[0].assessment
            assert dmg.dr == a.effective_armor_dr + a.location_dr
            assert wounds_of(after)[-1] == wounds[0].wound and dmg.injury == a.hp_loss
        else:
            assert dmg.dr == (defender.fighter.armor.dr if defender.fighter.armor else 0)
    else:
        assert res.damage is None and after.hp == defender.hp and after.status is defender.status
    # turn records
    assert res.attacker_after.actions_this_turn[-1].kind is ActionKind.ATTACK
    new = after.actions_this_turn[len(defender.actions_this_turn) :]
    assert [x.kind.value for x in new] == [d.kind.value for d in plan.defenses]
    # events: every roll is in the log, every event is cited and readable
    kinds = [type(e) for e in res.events]
    assert kinds.count(AttackRolled) == 1
    assert kinds.count(DefenseRolled) == len(res.defense_rolls)
    assert kinds.count(DefenseNotRolled) == len(plan.defenses) - len(res.defense_rolls)
    assert kinds.count(DamageDealt) == (1 if res.damage else 0)
    assert kinds.count(InjuryRolled) == (len(res.damage.status_rolls) if res.damage else 0)
    for e in res.events:
        assert e.citation is not None
        assert e.describe() and e.describe() != type(e).__name__
    dealt = [e for e in res.events if isinstance(e, DamageDealt)]
    if dealt:
        assert dealt[0].damage == res.damage


@pytest.mark.parametrize("seed", range(120))
def test_resolution_record_is_consistent(seed: int, make: Make, ruleset: Tables) -> None:
    rng = random.Random(seed)
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    d = replace(d, hp=rng.randint(-30, 12))
    defenses = rng.choice([(), (BLOCK,), (PARRY_SWORD, DODGE), (BLOCK, DODGE, PARRY_SWORD)])
    location = rng.choice([None, "head", "vitals"])
    plan = plan_attack(a, d, AttackOptions("morningstar", "swing", location, defenses), ruleset)
    res = resolve_attack(plan, a, d, rng, ruleset)
    check_record(res, a, d)


def test_critical_hit_allows_no_defense(
    duel: tuple[Combatant, Combatant], ruleset: Tables, scripted: Any
) -> None:
    a, d = duel
    plan = plan_attack(a, d, AttackOptions(W, "swing", defenses=(BLOCK, DODGE)), ruleset)
    # 4, then 1d damage; a major wound's knockdown roll (base rules): 3 stays up
    res = resolve_attack(plan, a, d, scripted((1, 1, 2, 6, 1, 1, 1)), ruleset)
    assert res.outcome is AttackOutcome.CRITICAL_HIT and res.defense_rolls == ()
    assert res.damage is not None and res.damage.roll.faces == (6,)
    check_record(res, a, d)


def test_critical_miss_is_recorded(
    duel: tuple[Combatant, Combatant], ruleset: Tables, scripted: Any
) -> None:
    a, d = duel
    plan = plan_attack(a, d, AttackOptions(W, "swing", defenses=(BLOCK,)), ruleset)
    # 18, then the critical miss table: 9 = the weapon drops at the wielder's feet
    res = resolve_attack(plan, a, d, scripted((6, 6, 6, 3, 3, 3)), ruleset)
    assert res.outcome is AttackOutcome.CRITICAL_MISS and res.damage is None
    assert any("critically misses" in e.describe() for e in res.events)
    assert [p.name for p in res.pieces] == [plan.weapon.name] and res.piece_origins == ("a",)
    assert W not in {w.key for w in res.attacker_after.fighter.weapons}
    check_record(res, a, d)


def test_defense_critical_failure_is_visible(
    duel: tuple[Combatant, Combatant], ruleset: Tables, scripted: Any
) -> None:
    a, d = duel
    plan = plan_attack(a, d, AttackOptions(W, "swing", defenses=(BLOCK, DODGE)), ruleset)
    # attack 7 hits; block 17: a disaster; dodge 9 still rolled and fails (dodge 4).
    res = resolve_attack(plan, a, d, scripted((2, 2, 3, 6, 6, 5, 3, 3, 3, 1)), ruleset)
    assert res.defense_rolls[0].outcome is Outcome.CRITICAL_FAILURE
    assert len(res.defense_rolls) == 2
    miss = [e for e in res.events if isinstance(e, DefenseCriticalMiss)]
    assert len(miss) == 1 and miss[0].kind is DefenseKind.BLOCK
    assert miss[0].citation == cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
    check_record(res, a, d)


def test_heavy_weapons_go_unready(
    make: Make, ruleset: Tables, catalog: Any, scripted: Any
) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make(
        "sword-and-shield",
        Hex(5, 6),
        Facing.N,
        id="d",
        weapons=(catalog.weapon("mace"),),
        skills={"Axe/Mace": 14, "Shield": 14},
    )
    parry_mace = DefenseChoice(DefenseKind.PARRY, "mace")
    plan = plan_attack(a, d, AttackOptions("morningstar", "swing", defenses=(parry_mace,)), ruleset)
    res = resolve_attack(plan, a, d, scripted((6, 6, 4)), ruleset)  # 16: a miss, parry unrolled
    assert "morningstar" in res.attacker_after.unready  # 1/3 class
    assert "mace" in res.defender_after.unready  # the announced parry still happened
    assert sum(isinstance(e, WeaponUnreadied) for e in res.events) == 2
    with pytest.raises(IllegalAttackError, match="not ready"):
        plan_attack(res.attacker_after, d, AttackOptions("morningstar", "swing"), ruleset)
    # A sword (2/3 class) stays ready.
    s = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    res2 = resolve_attack(
        plan_attack(s, d, AttackOptions(W, "swing"), ruleset), s, d, scripted((6, 6, 4)), ruleset
    )
    assert res2.attacker_after.unready == frozenset()


def test_a_killing_blow_changes_status(make: Make, ruleset: Tables, scripted: Any) -> None:
    a = make("spearman", Hex(0, 0), Facing.S, id="a")
    d = replace(make("fencer", Hex(0, 1), Facing.N, id="d"), hp=1)
    plan = plan_attack(a, d, AttackOptions("long-spear", "thrust"), ruleset)
    # attack 6 hits; 1d+2 rolls 6 = 8, DR 2 -> 6 x2 = 12 injury: HP 1 -> -11 = -1 x HP
    # (a major wound, but the dead need no knockdown roll)
    res = resolve_attack(plan, a, d, scripted((2, 2, 2, 6, 6, 6, 6)), ruleset)
    assert res.damage is not None and res.damage.injury == 12
    assert res.defender_after.hp == -11
    assert [r.check.name for r in res.damage.status_rolls] == ["DEATH"]  # HT 11 vs 18: dies
    assert res.defender_after.status is Status.DEAD
    assert any(isinstance(e, StatusChanged) and e.after is Status.DEAD for e in res.events)
    check_record(res, a, d)


def test_the_battle_command_uses_this_api(make: Make) -> None:
    from hexmap import HexGrid
    from rules.battle.battle import Battle
    from rules.battle.commands import EndTurn
    from rules.battle.state import BattleState

    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    battle = Battle(BattleState(HexGrid(12, 12), (a, d)), 7, get_ruleset)
    events = battle.execute(attack_command("a", "d", AttackOptions(W, "swing", defenses=(BLOCK,))))
    assert events and battle.state.combatant("a").actions_this_turn
    battle.execute(EndTurn())
    assert battle.state.combatant("a").actions_this_turn == ()
    assert battle.state.combatant("d").actions_this_turn == ()
