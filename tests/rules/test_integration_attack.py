"""The seed 000 / 001 rules wired into the attack flow: each feature played through
``plan_attack`` / ``resolve_attack`` (a few through ``Battle.execute(Attack(...))``).

Dice come from seeded ``random.Random``s found by searching inside each test for a
seed that produces the situation under test (``find``), never from magic numbers;
each test then checks that the record, the events and the combatants agree and that
the right seed rules are cited."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import load_battle_setup
from rules.battle.commands import Attack
from rules.battle.model import Combatant, DamageType, WeaponDamageState
from rules.battle.pieces import PlacementKind
from rules.battle.state import BattleState
from rules.core.assets import read_json
from rules.core.citation import Citation, cite
from rules.core.dice import DiceExhaustedError, DiceSource, ScriptedDice, SeededDice
from rules.core.errors import IllegalAttackError, RulesError
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import (
    AttackOptions,
    AttackResolution,
    SubdueMode,
    WeaponAttack,
    plan_attack,
    resolve_attack,
)
from rules.sets.seed000.attack_events import (
    AcrobaticDodgeRolled,
    AttackAdjusted,
    AttackOutcome,
    CriticalMissChecked,
    CriticalMissTableRolled,
    DamageDealt,
    DefendedAreaSet,
    DefenseMishapResolved,
    DefenseRolled,
    DisarmContested,
    HitLocationRolled,
    LocationShifted,
    ParryBreakRolled,
    PiecesLeftHand,
    WeaponBroke,
    WeaponStruck,
    WoundInflicted,
)
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.checks import Outcome
from rules.sets.seed000.commands import SetDefendedArea
from rules.sets.seed000.conditions import SelectedCondition
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.disarm import Hand
from rules.sets.seed000.sheet import InjuryTolerance, PainThreshold
from rules.sets.seed000.stances import BodyArea
from rules.sets.seed000.tables import LOCATIONS_001, Tables
from rules.sets.seed000.tracks import tracks_of, with_tracks, wounds_of
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from tests.rules.weapon_set_ups import swordsman_beside_a_spear

Make = Callable[..., Combatant]
R = TypeVar("R")

DODGE = DefenseChoice(DefenseKind.DODGE)
BLOCK = DefenseChoice(DefenseKind.BLOCK)
R001 = get_ruleset("000", (LOCATIONS_001,))


def find(run: Callable[[random.Random], R], want: Callable[[R], bool], limit: int = 4000) -> R:
    """The first seeded run (seeds 0, 1, 2 ...) whose result satisfies ``want``."""
    for seed in range(limit):
        result = run(random.Random(seed))
        if want(result):
            return result
    raise AssertionError(f"no seed below {limit} gives the wanted situation")


def cites(res: AttackResolution) -> set[Citation]:
    return {e.citation for e in res.events if e.citation is not None}


def of(res: AttackResolution, kind: type[R]) -> list[R]:
    return [e for e in res.events if isinstance(e, kind)]


def consistent(res: AttackResolution, attacker: Combatant, defender: Combatant) -> None:
    """What every resolution must satisfy: events cited and readable, HP and wounds
    as the damage record says, pieces with their origins."""
    for e in res.events:
        assert e.citation is not None, type(e).__name__
        assert e.describe() and e.describe() != type(e).__name__
    after = res.defender_after
    if res.damage is not None:
        assert after.hp == defender.hp - res.damage.injury
        assert after.status is res.damage.status_after
        assert of(res, DamageDealt)[0].damage == res.damage
    elif res.plan.target_weapon is None:
        assert after.hp == defender.hp
    wounds = of(res, WoundInflicted)
    assert wounds_of(after) == wounds_of(defender) + tuple(w.wound for w in wounds)
    assert len(res.pieces) == len(res.piece_origins)
    left = [p for e in of(res, PiecesLeftHand) for p in e.pieces]
    assert list(res.pieces) == left
    assert set(res.piece_origins) <= {attacker.id, defender.id}


def attack(
    a: Combatant, d: Combatant, options: AttackOptions, ruleset: Tables
) -> Callable[[random.Random], AttackResolution]:
    plan = plan_attack(a, d, options, ruleset)
    return lambda rng: resolve_attack(plan, a, d, rng, ruleset)


@pytest.fixture
def flail_vs_sword(make: Make) -> tuple[Combatant, Combatant]:
    return (
        make("flail-fighter", Hex(5, 5), Facing.S, id="a"),
        make("sword-and-shield", Hex(5, 6), Facing.N, id="d"),
    )


# --- the ruleset option ----------------------------------------------------------------


def test_hit_locations_are_a_ruleset_option_carried_by_the_battle_state(make: Make) -> None:
    assert get_ruleset("000").hit_locations.system == "000"
    assert R001.hit_locations.system == "001"
    assert LOCATIONS_001 in get_ruleset("000").available_options
    with pytest.raises(RulesError):
        get_ruleset("000", ("no-such-option",))
    a = make("sword-and-shield", Hex(0, 0), Facing.S, id="a")
    state = BattleState(HexGrid(8, 8), (a,), ruleset_options=(LOCATIONS_001,))
    assert ruleset_of(state) == R001


# --- aimed locations -----------------------------------------------------------------


def test_aimed_penalties_come_from_the_000_table(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    torso = plan_attack(a, d, AttackOptions("morningstar", "swing"), ruleset).effective_skill

    def delta(key: str, attacker: Combatant = a) -> tuple[int, set[Citation]]:
        p = plan_attack(attacker, d, AttackOptions("morningstar", "swing", location=key), ruleset)
        assert p.hit_location == key and p.location_system == "000"
        return p.effective_skill - torso, {m.citation for m in p.modifiers}

    # the far arm of a shield bearer takes the plain (larger) figure, not the bracketed
    # one, and the shield arm always has its shield's PD (3) twice (note 13)
    far_arm, far_cites = delta("far_arm")
    assert far_arm == -4 - 3 and cite("000", "RANDOM BODY HIT note 9") in far_cites
    assert cite("000", "RANDOM BODY HIT note 13") in far_cites
    hand, hand_cites = delta("near_hand")
    assert hand == -6 and cite("000", "HITTING HANDS IN MELEE") in hand_cites
    # the kidneys from the front: the bracketed -10
    assert delta("kidneys")[0] == -10
    # the groin from behind: penalty doubled (the attacker moves behind the defender)
    # (from the front a swing at the groin also meets the shield's PD twice, note 13;
    # from behind the shield gives none)
    behind = replace(a, hex=Hex(5, 7), facing=Facing.N)
    assert delta("groin")[0] == -5 - 3
    back = plan_attack(behind, d, AttackOptions("morningstar", "swing"), ruleset)
    groin_back = plan_attack(
        behind, d, AttackOptions("morningstar", "swing", location="groin"), ruleset
    )
    assert groin_back.effective_skill - back.effective_skill == 2 * -5
    assert cite("000", "RANDOM BODY HIT note 20") in {m.citation for m in groin_back.modifiers}


def test_001_locations_and_chinks_in_armor(make: Make, ruleset: Tables) -> None:
    a = make("spearman", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    base = plan_attack(a, d, AttackOptions("long-spear", "thrust"), R001)
    assert base.hit_location == "torso" and base.location_system == "001"
    skull = plan_attack(a, d, AttackOptions("long-spear", "thrust", location="skull"), R001)
    assert skull.effective_skill - base.effective_skill == -7
    assert cite("001", "Hit Location") in {m.citation for m in skull.modifiers}
    for key, penalty in (("torso", -8), ("neck", -10)):
        chink = plan_attack(
            a, d, AttackOptions("long-spear", "thrust", location=key, chink=True), R001
        )
        assert chink.effective_skill - base.effective_skill == penalty
        assert cite("001", "Targeting Chinks in Armor") in {m.citation for m in chink.modifiers}
    with pytest.raises(IllegalAttackError, match="chinks"):
        plan_attack(a, d, AttackOptions("long-spear", "thrust", chink=True), ruleset)
    # the chink halves the armor's DR where the blow lands
    opts = AttackOptions("long-spear", "thrust", chink=True)
    res = find(attack(a, d, opts, R001), lambda r: r.outcome.is_hit)
    consistent(res, a, d)
    wound = of(res, WoundInflicted)[0].assessment
    armor = d.fighter.armor
    assert armor is not None and wound.effective_armor_dr == armor.dr // 2
    assert cite("001", "Targeting Chinks in Armor") in cites(res)


# --- random locations, wounds ----------------------------------------------------------


@pytest.mark.parametrize("rules", [get_ruleset("000"), R001], ids=["000", "001"])
def test_a_random_swing_rolls_the_location_and_wounds_there(
    flail_vs_sword: tuple[Combatant, Combatant], rules: Tables
) -> None:
    a, d = flail_vs_sword
    opts = AttackOptions("morningstar", "swing", random_location=True)
    plan = plan_attack(a, d, opts, rules)
    assert (
        plan.location.key == "random"
        and plan.effective_skill
        == plan_attack(a, d, AttackOptions("morningstar", "swing"), rules).effective_skill
    )
    res = find(attack(a, d, opts, rules), lambda r: r.outcome.is_hit)
    consistent(res, a, d)
    rolled = of(res, HitLocationRolled)
    assert len(rolled) == 1 and res.location_roll == rolled[0].roll
    assert res.location_roll is not None and res.hit_location == res.location_roll.location
    wound = of(res, WoundInflicted)[0]
    located = wounds_of(res.defender_after)[-1].location
    assert wound.assessment.location == res.hit_location == located
    random_cite = (
        cite("000", "RANDOM HIT LOCATION")
        if rules.hit_locations.system == "000"
        else (cite("001", "Random Hit Location"))
    )
    assert random_cite in cites(res)


def test_from_above_shifts_the_first_roll(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    opts = AttackOptions("morningstar", "swing", random_location=True, from_above=True)
    res = find(attack(a, d, opts, ruleset), lambda r: r.outcome.is_hit)
    assert res.location_roll is not None
    first = res.location_roll.attempts[0]
    assert first.shift == -3 and first.total == sum(first.dice) - 3
    with pytest.raises(IllegalAttackError):
        plan_attack(a, d, replace(opts, from_below=True), ruleset)


def test_a_crippled_hand_drops_its_weapon_at_the_feet(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", armor=None)
    opts = AttackOptions("morningstar", "swing", location="near_hand")
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: any(
            WoundCondition.DROPPED_ITEM in w.wound.conditions for w in of(r, WoundInflicted)
        ),
    )
    consistent(res, a, d)
    wound = wounds_of(res.defender_after)[-1]
    assert wound.location == "near_hand"
    assert [p.weapon for p in res.pieces] == [d.fighter.weapon("broadsword")]
    assert res.pieces[0].placement.kind is PlacementKind.AT_FEET and res.piece_origins == ("d",)
    assert "broadsword" not in {w.key for w in res.defender_after.fighter.weapons}


def test_location_dr_and_multiplier_apply(make: Make, ruleset: Tables) -> None:
    a = make("spearman", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions("long-spear", "thrust", location="vitals")
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: r.hit_location == "vitals" and r.damage is not None and r.damage.penetrating > 0,
    )
    consistent(res, a, d)
    a_ = of(res, WoundInflicted)[0].assessment
    assert res.damage is not None and res.damage.multiplier == a_.multiplier
    assert a_.multiplier > 2  # impaling the vitals is worse than the torso's x2


def test_pain_threshold_scales_the_shock(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    opts = AttackOptions("morningstar", "swing", location="chest")

    def shock(pain: PainThreshold, seed: int) -> int:
        d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", pain_threshold=pain)
        res = attack(a, d, opts, ruleset)(random.Random(seed))
        w = of(res, WoundInflicted)
        return w[0].assessment.shock_penalty if w else 0

    seed = find(lambda rng: rng.randrange(10**6), lambda s: shock(PainThreshold.NORMAL, s) <= -2)
    normal = shock(PainThreshold.NORMAL, seed)
    assert shock(PainThreshold.HIGH, seed) > normal > shock(PainThreshold.LOW, seed)


# --- misses that still land ------------------------------------------------------------


def test_near_miss_at_the_head_hits_the_shoulder(make: Make, ruleset: Tables) -> None:
    # skilled enough that missing by 1 is no critical success
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a", skills={"Flail": 18})
    d = make("spearman", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions("morningstar", "swing", location="head")
    res = find(attack(a, d, opts, ruleset), lambda r: bool(of(r, LocationShifted)))
    consistent(res, a, d)
    shifted = of(res, LocationShifted)[0]
    assert res.attack_roll.total == res.plan.effective_skill + 1
    assert shifted.citation == cite("000", "NEAR MISSES") and shifted.to_label == "Shoulder"
    assert res.outcome is AttackOutcome.HIT and res.hit_location == "shoulder"
    assert wounds_of(res.defender_after)[-1].location == "shoulder"


def test_missing_only_because_of_the_aim_hits_the_general_area(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    opts = AttackOptions("morningstar", "swing", location="near_hand", defenses=(BLOCK,))
    res = find(attack(a, d, opts, ruleset), lambda r: bool(of(r, LocationShifted)))
    consistent(res, a, d)
    shifted = of(res, LocationShifted)[0]
    assert shifted.citation == cite("000", "MISSING A SPECIFIC HIT LOCATION")
    assert res.attack_roll.outcome is Outcome.FAILURE
    # the defender still gets the announced block
    assert len(res.defense_rolls) == 1
    if res.defense_rolls[0].succeeded:
        assert res.outcome is AttackOutcome.DEFENDED and res.damage is None
    else:
        assert res.outcome is AttackOutcome.HIT and res.hit_location == "near_arm"


def test_a_miss_may_hit_whoever_is_in_the_way(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    opts = AttackOptions("morningstar", "swing", location="head", obscured_by="x")
    res = find(attack(a, d, opts, ruleset), lambda r: bool(of(r, AttackAdjusted)))
    unaimed = res.plan.effective_skill - res.plan.location.penalty
    assert res.plan.effective_skill < res.attack_roll.total <= min(9, unaimed)
    assert res.outcome is AttackOutcome.MISSED
    assert of(res, AttackAdjusted)[0].citation == cite("000", "MISSING A SPECIFIC HIT LOCATION")


# --- conditions and defenses -------------------------------------------------------------


def test_conditions_modify_the_attack_and_may_remove_defenses(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    plain = plan_attack(a, d, AttackOptions("morningstar", "swing"), ruleset).effective_skill
    footing = (SelectedCondition("bad_footing", -2),)
    p = plan_attack(a, d, AttackOptions("morningstar", "swing", conditions=footing), ruleset)
    assert p.effective_skill == plain - 2
    assert cite("000", "ADVERSE COMBAT CONDITIONS") in {m.citation for m in p.modifiers}
    with pytest.raises(IllegalAttackError):  # a ranged value is required
        plan_attack(
            a,
            d,
            AttackOptions("morningstar", "swing", conditions=(SelectedCondition("bad_footing"),)),
            ruleset,
        )
    still = (SelectedCondition("stationary"),)
    with pytest.raises(IllegalAttackError, match="no active defense"):
        plan_attack(
            a,
            d,
            AttackOptions("morningstar", "swing", conditions=still, defenses=(BLOCK,)),
            ruleset,
        )
    opts = AttackOptions("morningstar", "swing", conditions=still)
    res = find(attack(a, d, opts, ruleset), lambda r: r.outcome is AttackOutcome.HIT)
    consistent(res, a, d)
    assert res.plan.no_active_defense and not res.defense_rolls
    assert any("no active defense" in e.describe() for e in of(res, AttackAdjusted))


def test_acrobatic_dodge_rolls_first_and_moves_the_dodge(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("fencer", Hex(5, 6), Facing.N, id="d", skills={"Fencing": 15, "Acrobatics": 14})
    opts = AttackOptions("morningstar", "swing", defenses=(DODGE,), acrobatic_dodge=True)
    planned = plan_attack(a, d, opts, ruleset).defenses[0].value
    for succeeded in (True, False):
        res = find(
            attack(a, d, opts, ruleset),
            lambda r, s=succeeded: (
                bool(of(r, AcrobaticDodgeRolled))
                and of(r, AcrobaticDodgeRolled)[0].result.succeeded is s
            ),
        )
        consistent(res, a, d)
        acro = of(res, AcrobaticDodgeRolled)[0]
        rolled = of(res, DefenseRolled)[0]
        assert rolled.value == planned + acro.applied.value == res.defense_rolls[0].roll.target
        assert acro.applied.value == (min(2, 16 - planned) if succeeded else -4)
        assert acro.citation == cite("000", "ACROBATIC DODGE")
    no_skill = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    with pytest.raises(IllegalAttackError, match="Acrobatics"):
        plan_attack(a, no_skill, opts, ruleset)


def test_defended_area_through_the_battle(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    battle = Battle(BattleState(HexGrid(10, 10), (a, d)), 1, get_ruleset)
    events = battle.execute(SetDefendedArea("d", BodyArea.HEAD))
    assert isinstance(events[0], DefendedAreaSet)
    assert events[0].citation == cite("000", "DEFENDING A SPECIFIC BODY AREA")
    guarded = battle.state.combatant("d")
    assert tracks_of(guarded).defended_area is BodyArea.HEAD

    def block(key: str | None, c: Combatant) -> int:
        opts = AttackOptions("morningstar", "swing", location=key, defenses=(BLOCK,))
        return plan_attack(a, c, opts, ruleset).defenses[0].value

    assert block("head", guarded) == block("head", d) + 2
    assert block("near_thigh", guarded) == block("near_thigh", d) - 1
    battle.execute(
        attack_command(
            "a", "d", AttackOptions("morningstar", "swing", location="head", defenses=(BLOCK,))
        )
    )
    assert tracks_of(battle.state.combatant("d")).defended_area is BodyArea.HEAD


def test_fencing_parries_are_free_two_a_turn_four_all_out(make: Make, ruleset: Tables) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make("fencer", Hex(5, 6), Facing.N, id="d")
    parry = DefenseChoice(DefenseKind.PARRY, "rapier")
    from rules.battle.model import ActionKind, TurnAction

    def value(parries: int, all_out: bool = False) -> tuple[int, set[Citation]]:
        done = replace(d, actions_this_turn=(TurnAction(ActionKind.PARRY, "rapier"),) * parries)
        opts = AttackOptions("broadsword", "swing", defenses=(parry,), all_out_defense=all_out)
        p = plan_attack(a, done, opts, ruleset).defenses[0]
        return p.value, {m.citation for m in p.modifiers}

    fresh = value(0)[0]
    second, second_cites = value(1)
    assert second == fresh and cite("000", "FENCING PARRIES") in second_cites
    assert value(2)[0] < fresh  # the third parry pays the cumulative penalty
    assert value(3, all_out=True)[0] == fresh  # all-out defense: four free parries
    assert value(4, all_out=True)[0] < fresh


def test_off_balance_doubles_defense_penalties(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    from rules.battle.model import ActionKind, TurnAction

    # the defender attacked earlier this turn: -2 to the dodge (000 CUMULATIVE DEFENSES)
    d = replace(d, actions_this_turn=(TurnAction(ActionKind.ATTACK, "broadsword"),))
    opts = AttackOptions("morningstar", "swing", defenses=(DODGE,))
    steady = plan_attack(a, d, opts, ruleset).defenses[0]
    off_balance = with_tracks(d, replace(tracks_of(d), off_balance=True))
    wobbly = plan_attack(a, off_balance, opts, ruleset).defenses[0]
    assert wobbly.value == steady.value - 2  # the -2 counted twice
    assert cite("000", "CRITICAL MISSES ON DEFENSE ROLLS") in {m.citation for m in wobbly.modifiers}


# --- critical misses -------------------------------------------------------------------


def test_a_critical_miss_rolls_the_table_and_applies_it(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    opts = AttackOptions("morningstar", "swing")
    res = find(attack(a, d, opts, ruleset), lambda r: r.outcome is AttackOutcome.CRITICAL_MISS)
    consistent(res, a, d)
    table = of(res, CriticalMissTableRolled)
    assert len(table) == 1 and table[0].combatant_id == "a"
    assert table[0].citation == cite("base", "critical miss table") or table[0].citation.seed in (
        "base",
        "000",
    )
    # a weapon dropped, flown or broken has left the hand; pieces say where it went
    if res.pieces:
        assert "morningstar" not in {w.key for w in res.attacker_after.fighter.weapons}


def test_reliable_weapons_verify_and_high_skill_avoids(make: Make, ruleset: Tables) -> None:
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    reliable = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    star = replace(reliable.fighter.weapon("morningstar"), reliable=True)
    reliable = replace(reliable, fighter=replace(reliable.fighter, weapons=(star,)))
    opts = AttackOptions("morningstar", "swing")
    res = find(
        attack(reliable, d, opts, ruleset),
        lambda r: r.attack_roll.outcome is Outcome.CRITICAL_FAILURE,
    )
    checked = of(res, CriticalMissChecked)[0]
    assert checked.citation == cite("000", "VERIFYING CRITICAL MISSES")
    expected = AttackOutcome.CRITICAL_MISS if checked.check.happens else AttackOutcome.MISSED
    assert res.outcome is expected
    assert bool(of(res, CriticalMissTableRolled)) is checked.check.happens

    master = make("flail-fighter", Hex(5, 5), Facing.S, id="a", skills={"Flail": 18})
    res = find(
        attack(master, d, opts, ruleset),
        lambda r: (
            bool(of(r, CriticalMissChecked)) and not of(r, CriticalMissChecked)[0].check.happens
        ),
    )
    assert of(res, CriticalMissChecked)[0].citation == cite(
        "000", "AVOIDING CRITICAL MISSES WITH HIGH SKILL"
    )
    assert res.outcome is AttackOutcome.MISSED and not of(res, CriticalMissTableRolled)


def test_fumbled_block_loses_the_shield_grip(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    opts = AttackOptions("morningstar", "swing", defenses=(BLOCK,))
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: bool(r.defense_rolls) and r.defense_rolls[0].outcome is Outcome.CRITICAL_FAILURE,
    )
    consistent(res, a, d)
    mishap = of(res, DefenseMishapResolved)[0]
    assert mishap.citation == cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
    assert res.defender_after.shield_ready is False  # a medium shield is kept, grip lost
    with pytest.raises(IllegalAttackError, match="not ready"):
        plan_attack(a, res.defender_after, opts, ruleset)


def test_fumbled_dodge_falls_or_goes_off_balance(
    flail_vs_sword: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = flail_vs_sword
    opts = AttackOptions("morningstar", "swing", defenses=(DODGE,))

    def fumbled(r: AttackResolution) -> bool:
        return bool(r.defense_rolls) and r.defense_rolls[0].outcome is Outcome.CRITICAL_FAILURE

    res = find(
        attack(a, d, opts, ruleset),
        lambda r: (
            fumbled(r)
            and bool(of(r, DefenseMishapResolved))
            and of(r, DefenseMishapResolved)[0].dx_roll is not None
            and of(r, DefenseMishapResolved)[0].dx_roll.succeeded
        ),
    )
    consistent(res, a, d)
    assert tracks_of(res.defender_after).off_balance
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: (
            fumbled(r)
            and bool(of(r, DefenseMishapResolved))
            and not of(r, DefenseMishapResolved)[0].dx_roll.succeeded
        ),
    )
    assert not tracks_of(res.defender_after).off_balance
    assert "prone" in of(res, DefenseMishapResolved)[0].applied


def test_fumbled_parry_goes_to_the_critical_miss_table(make: Make, ruleset: Tables) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make("fencer", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions(
        "broadsword", "swing", defenses=(DefenseChoice(DefenseKind.PARRY, "rapier"),)
    )
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: bool(r.defense_rolls) and r.defense_rolls[0].outcome is Outcome.CRITICAL_FAILURE,
    )
    consistent(res, a, d)
    table = of(res, CriticalMissTableRolled)
    assert len(table) == 1 and table[0].combatant_id == "d"


# --- parries breaking, striking at weapons, disarming --------------------------------------


def test_parrying_a_much_heavier_weapon_may_break(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("fencer", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions(
        "morningstar", "swing", defenses=(DefenseChoice(DefenseKind.PARRY, "main-gauche"),)
    )
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: bool(of(r, ParryBreakRolled)) and of(r, ParryBreakRolled)[0].roll.broke,
    )
    consistent(res, a, d)
    assert of(res, ParryBreakRolled)[0].citation == cite("000", "BREAKING A BLADE")
    broke = of(res, WeaponBroke)[0]
    held = {w.key for w in res.defender_after.fighter.weapons}
    assert "main-gauche" not in held
    kept = broke.result.weapon_in_hand
    assert (kept is None) or kept.key in held
    assert res.outcome is AttackOutcome.DEFENDED


def test_cutting_through_a_spear_shaft(make: Make, ruleset: Tables) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make("spearman", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions(
        "broadsword", "swing", target_weapon_key="long-spear", weapon_attack=WeaponAttack.BREAK
    )
    plan = plan_attack(a, d, opts, ruleset)
    assert plan.passive_defense.total == 0  # no PD protects a weapon
    assert cite("000", "STRIKING AT WEAPONS") in {m.citation for m in plan.modifiers}
    with pytest.raises(IllegalAttackError):  # no block for a weapon
        plan_attack(a, d, replace(opts, defenses=(BLOCK,)), ruleset)
    with pytest.raises(IllegalAttackError):
        plan_attack(a, d, opts, ruleset, weapon_in_reach=lambda *_: False)
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: bool(of(r, WeaponStruck)) and of(r, WeaponStruck)[0].basic_damage > 3,
    )
    consistent(res, a, d)
    struck = of(res, WeaponStruck)[0]
    assert struck.citation == cite("000", "CUTTING THROUGH A WEAPON")
    assert res.defender_after.hp == d.hp and res.damage is None
    if not struck.broke:
        state = res.defender_after.weapon_state("long-spear")
        assert state is not None and state.damage_taken == struck.basic_damage - 3
    # a weakened shaft (3x its HP taken) breaks at the next blow that gets through
    weak = replace(d, weapon_states=(("long-spear", WeaponDamageState(24, True, False)),))
    broken = find(
        attack(a, weak, opts, ruleset),
        lambda r: bool(of(r, WeaponStruck)) and of(r, WeaponStruck)[0].broke,
    )
    consistent(broken, a, weak)
    assert "long-spear" not in {w.key for w in broken.defender_after.fighter.weapons}
    assert broken.defender_after.weapon_state("long-spear") is None
    assert of(broken, WeaponBroke)[0].citation == cite("000", "BROKEN WEAPONS")


def test_breaking_a_blade_and_001_weapon_damage(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("fencer", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions(
        "morningstar", "swing", target_weapon_key="rapier", weapon_attack=WeaponAttack.BREAK
    )
    res = find(attack(a, d, opts, ruleset), lambda r: bool(of(r, WeaponStruck)))
    consistent(res, a, d)
    assert of(res, WeaponStruck)[0].citation == cite("000", "BREAKING A BLADE")
    res = find(attack(a, d, opts, R001), lambda r: bool(of(r, WeaponStruck)))
    consistent(res, a, d)
    struck = of(res, WeaponStruck)[0]
    assert struck.citation == cite("001", "Breaking a Weapon")
    p000 = plan_attack(a, d, opts, ruleset).modifiers
    p001 = plan_attack(a, d, opts, R001).modifiers
    assert cite("001", "Striking at Weapons") in {m.citation for m in p001}
    assert cite("000", "STRIKING AT WEAPONS") in {m.citation for m in p000}


def test_000_disarm_is_a_quick_contest(make: Make, ruleset: Tables) -> None:
    a = make("fencer", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions(
        "rapier", "thrust", target_weapon_key="broadsword", weapon_attack=WeaponAttack.DISARM
    )
    res = find(
        attack(a, d, opts, ruleset),
        lambda r: of(r, DisarmContested)[0].result.disarmed is Hand.DEFENDER,
    )
    consistent(res, a, d)
    contest = of(res, DisarmContested)[0]
    assert contest.citation == cite("000", "DISARMING AN OPPONENT")
    assert res.outcome is AttackOutcome.HIT and not of(res, DefenseRolled)
    assert res.pieces[0].weapon == d.fighter.weapon("broadsword")
    assert res.pieces[0].placement.kind is PlacementKind.DROPPED_IN_HEX
    assert "broadsword" not in {w.key for w in res.defender_after.fighter.weapons}


def test_001_knock_away_needs_a_hit_then_flies_one_hex(make: Make) -> None:
    a = make("fencer", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions(
        "rapier", "thrust", target_weapon_key="broadsword", weapon_attack=WeaponAttack.DISARM
    )
    res = find(
        attack(a, d, opts, R001),
        lambda r: (
            bool(of(r, DisarmContested))
            and of(r, DisarmContested)[0].result.disarmed is Hand.DEFENDER
        ),
    )
    consistent(res, a, d)
    assert res.outcome.is_hit
    assert of(res, DisarmContested)[0].citation == cite("001", "Knocking a Weapon Away")
    piece = res.pieces[0]
    assert piece.placement.kind is PlacementKind.ONE_HEX_RANDOM
    assert piece.landing is not None and piece.landing.distance == 1


# --- subduing ------------------------------------------------------------------------


def test_subduing_flat_blunt_end_and_pulled_blows(make: Make, ruleset: Tables) -> None:
    sword = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    spear = make("spearman", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    flat = plan_attack(
        sword, d, AttackOptions("broadsword", "swing", subdue=SubdueMode.FLAT), ruleset
    )
    assert flat.damage_spec.type is DamageType.CRUSHING
    # the long spear (reach 2) turned around first: a Ready (ReverseWeapon)
    butt_first = with_tracks(
        spear, replace(tracks_of(spear), reversed_weapons=frozenset({"long-spear"}))
    )
    blunt = plan_attack(
        butt_first, d, AttackOptions("long-spear", "thrust", subdue=SubdueMode.BLUNT_END), ruleset
    )
    normal = plan_attack(spear, d, AttackOptions("long-spear", "thrust"), ruleset)
    assert blunt.damage_spec.type is DamageType.CRUSHING
    assert blunt.damage_spec.adds == normal.damage_spec.adds - 1
    pulled = plan_attack(
        sword,
        d,
        AttackOptions("broadsword", "swing", subdue=SubdueMode.PULLED, pulled_st=5),
        ruleset,
    )
    assert pulled.effective_st == 5 and pulled.damage_dice == ruleset.weapon_damage(
        pulled.damage_spec, 5
    )
    with pytest.raises(IllegalAttackError):
        plan_attack(
            sword, d, AttackOptions("broadsword", "thrust", subdue=SubdueMode.FLAT), ruleset
        )
    with pytest.raises(IllegalAttackError):
        plan_attack(sword, d, AttackOptions("broadsword", "swing", pulled_st=5), ruleset)
    opts = AttackOptions("broadsword", "swing", subdue=SubdueMode.FLAT)
    res = find(attack(sword, d, opts, ruleset), lambda r: r.outcome.is_hit)
    consistent(res, sword, d)
    assert res.damage is not None and res.damage.damage_type is DamageType.CRUSHING
    assert cite("001", "Subduing a Foe") in cites(res)


# --- through the battle ---------------------------------------------------------------


def test_a_battle_plays_located_blows_under_the_001_option(make: Make) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (a, d), ruleset_options=(LOCATIONS_001,))
    opts = AttackOptions("morningstar", "swing", random_location=True, defenses=(BLOCK,))

    def run(rng: random.Random) -> Battle:
        battle = Battle(state, rng.randrange(10**6), get_ruleset)
        battle.execute(attack_command("a", "d", opts))
        return battle

    battle = find(run, lambda b: any(isinstance(e, WoundInflicted) for e in b.events))
    after = battle.state.combatant("d")
    wound = next(e for e in battle.events if isinstance(e, WoundInflicted))
    dealt = next(e for e in battle.events if isinstance(e, DamageDealt))
    assert wounds_of(after) == (wound.wound,) and after.hp == d.hp - dealt.damage.injury
    assert wound.assessment.system == "001"
    assert any(e.citation == cite("001", "Random Hit Location") for e in battle.events)
    replayed = Battle.replay(state, battle.seed, battle.commands, rulesets=get_ruleset)
    assert replayed.state == battle.state


def test_battle_attack_returns_pieces_on_the_resolution(make: Make) -> None:
    a = make("fencer", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (a, d))
    command = Attack(
        "a",
        "d",
        AttackOptions(
            "rapier", "thrust", target_weapon_key="broadsword", weapon_attack=WeaponAttack.DISARM
        ),
    )

    def run(rng: random.Random) -> tuple[Battle, Any]:
        battle = Battle(state, rng.randrange(10**6), get_ruleset)
        resolution = ruleset_of(state).resolution(  # shape check only
            state, command.attacker_id, command.defender_id, command.choices, random.Random(0)
        )
        battle.execute(command)
        return battle, resolution

    battle, _ = find(
        run,
        lambda br: any(
            isinstance(e, DisarmContested) and e.result.disarmed is Hand.DEFENDER
            for e in br[0].events
        ),
    )
    assert "broadsword" not in {w.key for w in battle.state.combatant("d").fighter.weapons}
    assert any(isinstance(e, PiecesLeftHand) for e in battle.events)


def test_battle_strikes_at_a_weapon_through_the_map_predicate(make: Make) -> None:
    from rules.sets.seed000.weapon_targets import can_strike_at_weapon

    # from the side, both the spearman and his spear are within reach
    state = swordsman_beside_a_spear(make)
    d = state.combatant("d")
    # head-on, the spear's hexes are not in the sword's reach: the map says no
    head_on = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    refused = BattleState(HexGrid(10, 10), (head_on, d))
    strikes = get_ruleset("000").weapon_strikes
    assert not can_strike_at_weapon(refused, "a", "d", "long-spear", strikes=strikes)[0]
    opts = AttackOptions(
        "broadsword", "swing", target_weapon_key="long-spear", weapon_attack=WeaponAttack.BREAK
    )
    with pytest.raises(IllegalAttackError, match="out of reach"):
        Battle(refused, 1, get_ruleset).execute(Attack("a", "d", opts))

    def run(rng: random.Random) -> Battle:
        battle = Battle(state, rng.randrange(10**6), get_ruleset)
        battle.execute(Attack("a", "d", opts))
        return battle

    battle = find(run, lambda b: any(isinstance(e, WeaponStruck) for e in b.events))
    struck = next(e for e in battle.events if isinstance(e, WeaponStruck))
    spear = battle.state.combatant("d").weapon_state("long-spear")
    assert spear is not None and spear.damage_taken == max(0, struck.basic_damage - 3)
    assert battle.state.combatant("d").hp == d.hp


def test_001_refuses_locations_the_attack_cannot_reach(make: Make) -> None:

    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    with pytest.raises(IllegalAttackError, match="cannot aim"):  # vitals: impaling only
        plan_attack(a, d, AttackOptions("morningstar", "swing", location="vitals"), R001)
    headless = make(
        "sword-and-shield",
        Hex(5, 6),
        Facing.N,
        id="d",
        injury_tolerance=frozenset({InjuryTolerance.NO_HEAD}),
    )
    plan_attack(a, d, AttackOptions("morningstar", "swing", location="skull"), R001)
    with pytest.raises(IllegalAttackError, match="cannot aim"):
        plan_attack(a, headless, AttackOptions("morningstar", "swing", location="skull"), R001)


# --- re-running a resolution from its dice (solo play-testing, issue 9) -------------


def test_demo_attacks_replay_identically_from_their_recorded_dice() -> None:
    """The demo's spearman attacks the fencer through ``Battle.execute``; replayed
    on the recorded dice alone (``ScriptedDice``, which never rolls - the seed is
    another one), every resolution comes out identical: state, events and faces."""
    grid, combatants = load_battle_setup(read_json("battles", "demo.json"))
    battle = Battle(BattleState(grid, tuple(combatants)), 7, get_ruleset)
    parry = DefenseChoice(DefenseKind.PARRY, "rapier")
    dodge = DefenseChoice(DefenseKind.DODGE)
    for options in (
        AttackOptions("long-spear", "thrust", defenses=(dodge, parry)),
        AttackOptions("long-spear", "thrust", random_location=True, defenses=(parry,)),
        AttackOptions("long-spear", "thrust", location="vitals"),
        AttackOptions("long-spear", "thrust", location="brain", defenses=(dodge,)),
    ):
        battle.execute(attack_command("c2", "c4", options))
    assert all(battle.dice_log)  # every attack rolled
    replayed = Battle.replay(
        battle.initial, 8, battle.commands, dice_log=battle.dice_log, rulesets=get_ruleset
    )
    assert replayed.state == battle.state
    assert replayed.event_batches == battle.event_batches
    assert replayed.dice_log == battle.dice_log
    # one resolution alone, re-run from its trace
    first = battle.commands[0]
    assert isinstance(first, Attack)
    rules = ruleset_of(battle.initial)

    def resolve(dice: DiceSource) -> object:
        assert isinstance(first, Attack)
        return rules.resolution(  # type: ignore[attr-defined]
            battle.initial, first.attacker_id, first.defender_id, first.choices, dice
        )

    rolled = SeededDice("trace")
    resolution = resolve(rolled)
    assert resolve(ScriptedDice(rolled.faces)) == resolution
    with pytest.raises(DiceExhaustedError):
        resolve(ScriptedDice(rolled.faces[:-1]))
