"""Seed 000 / 001 rules wired into the attack flow and the battle after the first
wiring: counter-blows on unarmed attackers, the parrying limb, heavy shields, the
critical miss table applied, weakened weapons, cover, stray blows, 001 shield limbs,
one acrobatic dodge a turn, per-turn effects and the ruleset options command.

Dice come from seeded ``random.Random``s found by searching inside each test
(``find``), never from magic numbers."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog
from rules.battle.command_events import PostureChanged, RulesetOptionsSet
from rules.battle.commands import Attack, EndTurn, PaintTerrain, ReadyShield, SetRulesetOptions
from rules.battle.model import Combatant, Status, WeaponDamageState, WeaponKind
from rules.battle.state import BattleState
from rules.battle.terrain import Cover, TerrainChange
from rules.core.citation import Citation, cite
from rules.core.errors import IllegalAttackError, IllegalCommandError
from rules.core.events import Event
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import (
    PARRYING_LIMB,
    AttackOptions,
    AttackResolution,
    plan_attack,
    resolve_attack,
)
from rules.sets.seed000.attack_events import (
    AttackOutcome,
    BleedingRolled,
    BystanderStruck,
    CriticalMissTableRolled,
    DamageDealt,
    DefenseMishapResolved,
    HeavyShieldUnreadied,
    HitLocationRolled,
    SideBlowDamaged,
    StunRecoveryRolled,
    UnarmedCounterRolled,
    WeakenedWeaponSnapped,
    WeaponBroke,
    WoundInflicted,
)
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.conditions import Posture
from rules.sets.seed000.critical_misses import Fell, HitSelf, Strained
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.hit_location import HitLocationTable
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.stances import weapon_side
from rules.sets.seed000.tables import LOCATIONS_001, Tables
from rules.sets.seed000.tracks import tracks_of, with_wounds, wound_conditions, wounds_of
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from rules.sets.seed000.wound_effects import Wound

Make = Callable[..., Combatant]
R = TypeVar("R")

DODGE = DefenseChoice(DefenseKind.DODGE)
BLOCK = DefenseChoice(DefenseKind.BLOCK)
PARRY_SWORD = DefenseChoice(DefenseKind.PARRY, "broadsword")
PARRY_FIST = DefenseChoice(DefenseKind.PARRY, "fist")
R001 = get_ruleset("000", (LOCATIONS_001,))


def find(run: Callable[[random.Random], R], want: Callable[[R], bool], limit: int = 6000) -> R:
    """The first seeded run (seeds 0, 1, 2 ...) whose result satisfies ``want``."""
    for seed in range(limit):
        result = run(random.Random(seed))
        if want(result):
            return result
    raise AssertionError(f"no seed below {limit} gives the wanted situation")


def of(events: AttackResolution | tuple[Event, ...], kind: type[R]) -> list[R]:
    evs = events.events if isinstance(events, AttackResolution) else events
    return [e for e in evs if isinstance(e, kind)]


def cited(res: AttackResolution) -> set[Citation]:
    return {e.citation for e in res.events if e.citation is not None}


def attack(
    a: Combatant,
    d: Combatant,
    options: AttackOptions,
    ruleset: Tables,
    bystander: Combatant | None = None,
) -> Callable[[random.Random], AttackResolution]:
    plan = plan_attack(a, d, options, ruleset)
    return lambda rng: resolve_attack(plan, a, d, rng, ruleset, bystander=bystander)


def readable(res: AttackResolution) -> None:
    for e in res.events:
        assert e.citation is not None, type(e).__name__
        assert e.describe() and e.describe() != type(e).__name__


@pytest.fixture
def brawler(make: Make, catalog: Catalog) -> Combatant:
    fist = catalog.weapon("fist")
    return make(
        "sword-and-shield",
        Hex(5, 5),
        Facing.S,
        id="a",
        weapons=(fist,),
        skills={"Brawling": 14, "Shield": 12},
    )


# --- 1. 000 PARRIES VS. UNARMED ATTACKERS -------------------------------------------------


def test_parrying_an_unarmed_attack_may_strike_the_attacking_hand(
    make: Make, brawler: Combatant, ruleset: Tables
) -> None:
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    opts = AttackOptions("fist", "punch", defenses=(PARRY_SWORD,))
    run = attack(brawler, d, opts, ruleset)
    res = find(run, lambda r: any(e.roll.succeeded for e in of(r, UnarmedCounterRolled)))
    readable(res)
    assert res.outcome is AttackOutcome.DEFENDED
    counter = of(res, UnarmedCounterRolled)[0]
    assert counter.citation == cite("000", "PARRIES VS. UNARMED ATTACKERS")
    assert counter.value == sheet_of(d).skill("Broadsword") + 2 == counter.roll.target
    hurt = of(res, SideBlowDamaged)[0]
    assert hurt.defender_id == "a" and hurt.attacker_id == "d"
    wound = of(res, WoundInflicted)[0].wound
    assert isinstance(ruleset.hit_locations, HitLocationTable)
    assert wound.location == "near_hand" and wound.side is weapon_side(brawler.handedness)
    assert res.attacker_after.hp == brawler.hp - hurt.damage.injury
    assert wounds_of(res.attacker_after) == (wound,)
    assert res.defender_after.hp == d.hp and res.damage is None
    # a failed counter roll does no harm
    miss = find(run, lambda r: any(not e.roll.succeeded for e in of(r, UnarmedCounterRolled)))
    assert not of(miss, SideBlowDamaged) and miss.attacker_after.hp == brawler.hp
    # no counter against an armed attack, nor with a bare-handed parry
    armed = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    res = find(
        attack(armed, d, AttackOptions("broadsword", "swing", defenses=(PARRY_SWORD,)), ruleset),
        lambda r: r.outcome is AttackOutcome.DEFENDED,
    )
    assert not of(res, UnarmedCounterRolled)


def test_the_counter_blow_through_the_battle(
    make: Make, brawler: Combatant, ruleset: Tables
) -> None:
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (brawler, d))
    opts = AttackOptions("fist", "punch", defenses=(PARRY_SWORD,))

    def run(rng: random.Random) -> Battle:
        battle = Battle(state, rng.randrange(10**6), get_ruleset)
        battle.execute(attack_command("a", "d", opts))
        return battle

    battle = find(run, lambda b: bool(of(b.events, SideBlowDamaged)))
    hurt = of(battle.events, SideBlowDamaged)[0]
    assert battle.state.combatant("a").hp == brawler.hp - hurt.damage.injury
    assert Battle.replay(
        state, battle.seed, battle.commands, rulesets=get_ruleset
    ).state == battle.state


# --- 2. 000 UNARMED PARRIES: the parrying limb at +2 --------------------------------------


def test_the_bare_handed_parrying_limb_is_a_target_at_plus_2(
    make: Make, catalog: Catalog, ruleset: Tables
) -> None:
    fist = catalog.weapon("fist")
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make(
        "sword-and-shield",
        Hex(5, 6),
        Facing.N,
        id="d",
        weapons=(*make("sword-and-shield", Hex(0, 0), Facing.N).fighter.weapons, fist),
        skills={"Broadsword": 14, "Shield": 14, "Brawling": 14},
    )
    limb = AttackOptions("broadsword", "swing", at_parrying_limb=True)
    with pytest.raises(IllegalAttackError, match="bare-handed"):
        plan_attack(a, d, limb, ruleset)
    parried = find(
        attack(a, d, AttackOptions("broadsword", "swing", defenses=(PARRY_FIST,)), ruleset),
        lambda r: bool(r.defense_rolls),
    ).defender_after
    plan = plan_attack(a, parried, limb, ruleset)
    arm = plan_attack(
        a, parried, AttackOptions("broadsword", "swing", location="near_arm"), ruleset
    )
    assert plan.location.key == PARRYING_LIMB and plan.hit_location == "near_arm"
    assert plan.effective_skill == arm.effective_skill + 2
    assert any(
        m.citation == cite("000", "UNARMED PARRIES") and m.value == 2 for m in plan.modifiers
    )
    with pytest.raises(IllegalAttackError, match="parrying limb"):
        plan_attack(a, parried, replace(limb, location="head"), ruleset)
    res = find(
        lambda rng: resolve_attack(plan, a, parried, rng, ruleset),
        lambda r: r.outcome is AttackOutcome.HIT,
    )
    wound = of(res, WoundInflicted)[0].wound
    assert wound.location == "near_arm" and wound.side is weapon_side(parried.handedness)


# --- 3. 000 BLOCK: heavy shields ----------------------------------------------------------


def test_a_heavy_shield_blocks_at_minus_2_until_readied(
    make: Make, catalog: Catalog, ruleset: Tables
) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    large = catalog.shield("large-shield")
    assert large.heavy
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", shield=large)
    opts = AttackOptions("broadsword", "swing", defenses=(BLOCK,))
    fresh = plan_attack(a, d, opts, ruleset).defenses[0]
    state = BattleState(HexGrid(10, 10), (a, d))
    battle = Battle(state, 1, get_ruleset)
    events = battle.execute(attack_command("a", "d", opts))
    unready = of(events, HeavyShieldUnreadied)
    assert unready and unready[0].citation == cite("000", "BLOCK")
    after = battle.state.combatant("d")
    assert after.heavy_shield_unready and after.shield_ready
    second = plan_attack(battle.state.combatant("a"), after, opts, ruleset).defenses[0]
    penalty = [m for m in second.modifiers if "heavy shield" in m.reason]
    assert [m.value for m in penalty] == [-2] and penalty[0].citation == cite("000", "BLOCK")
    assert second.value < fresh.value
    battle.execute(ReadyShield("d"))
    assert not battle.state.combatant("d").heavy_shield_unready
    with pytest.raises(IllegalCommandError):
        battle.execute(ReadyShield("d", gm_override=True))  # already ready
    # a medium shield needs no readying
    medium = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    res = find(attack(a, medium, opts, ruleset), lambda r: True)
    assert not res.defender_after.heavy_shield_unready and not of(res, HeavyShieldUnreadied)


def test_ready_shield_regrips_after_a_fumbled_block(make: Make) -> None:
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (replace(d, shield_ready=False),))
    battle = Battle(state, 3, get_ruleset)
    battle.execute(ReadyShield("d"))
    assert battle.state.combatant("d").shield_ready


# --- 4. the critical miss table applied ---------------------------------------------------


def _table(res: AttackResolution) -> list[CriticalMissTableRolled]:
    return of(res, CriticalMissTableRolled)


@pytest.mark.parametrize("kind", [Fell, HitSelf, Strained])
def test_critical_miss_table_results_change_the_fumbler(
    make: Make, ruleset: Tables, kind: type
) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a", skills={"Flail": 4, "Shield": 13})
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    res = find(
        attack(a, d, AttackOptions("morningstar", "swing"), ruleset),
        lambda r: any(isinstance(e.result.consequence, kind) for e in _table(r)),
    )
    readable(res)
    after = res.attacker_after
    if kind is Fell:
        assert after.posture is Posture.PRONE
        assert of(res, PostureChanged)[0].fell
    elif kind is HitSelf:
        hurt = of(res, SideBlowDamaged)[0]
        assert hurt.defender_id == hurt.attacker_id == "a"
        assert after.hp == a.hp - hurt.damage.injury and wounds_of(after)
        consequence = _table(res)[0].result.consequence
        assert isinstance(consequence, HitSelf)
        assert hurt.damage.basic == int(hurt.damage.roll.total * consequence.damage_factor)
    else:
        assert tracks_of(after).strained_weapons == {"morningstar"}
        with pytest.raises(IllegalAttackError, match="strained"):
            plan_attack(
                replace(after, unready=frozenset()),
                d,
                AttackOptions("morningstar", "swing"),
                ruleset,
            )


def test_a_fumbled_dodge_that_fails_dx_falls_prone(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    res = find(
        attack(a, d, AttackOptions("morningstar", "swing", defenses=(DODGE,)), ruleset),
        lambda r: any(
            m.dx_roll is not None and not m.dx_roll.succeeded for m in of(r, DefenseMishapResolved)
        ),
    )
    assert res.defender_after.posture is Posture.PRONE
    assert of(res, PostureChanged)[0].combatant_id == "d"


# --- 5. weakened weapons ------------------------------------------------------------------


def test_a_weakened_weapon_snaps_on_a_solid_hit_or_a_parry(make: Make, ruleset: Tables) -> None:
    weak = (("morningstar", WeaponDamageState(9, True, False)),)
    a = replace(make("flail-fighter", Hex(5, 5), Facing.S, id="a"), weapon_states=weak)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    res = find(
        attack(a, d, AttackOptions("morningstar", "swing"), ruleset),
        lambda r: r.outcome is AttackOutcome.HIT,
    )
    snapped = of(res, WeakenedWeaponSnapped)
    assert snapped and snapped[0].citation == cite("000", "CUTTING THROUGH A WEAPON")
    assert of(res, WeaponBroke)[0].combatant_id == "a"
    assert all(
        w.key != "morningstar" or w.name != "Morningstar"
        for w in res.attacker_after.fighter.weapons
    )
    assert res.damage is not None  # the blow still landed
    # a miss leaves it whole
    miss = find(
        attack(a, d, AttackOptions("morningstar", "swing"), ruleset),
        lambda r: r.outcome is AttackOutcome.MISSED,
    )
    assert not of(miss, WeakenedWeaponSnapped)
    # the defender's weakened sword snaps on a successful parry
    a2 = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d2 = replace(d, weapon_states=(("broadsword", WeaponDamageState(9, True, False)),))
    res = find(
        attack(a2, d2, AttackOptions("morningstar", "swing", defenses=(PARRY_SWORD,)), ruleset),
        lambda r: r.outcome is AttackOutcome.DEFENDED,
    )
    assert of(res, WeakenedWeaponSnapped)[0].use == "parry"
    assert of(res, WeaponBroke)[0].combatant_id == "d"


# --- 6. cover re-rolls random locations -----------------------------------------------------


def test_covered_areas_are_rolled_again(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    table = ruleset.hit_locations
    assert isinstance(table, HitLocationTable)
    hidden = table.area_keys("leg") | table.area_keys("torso")
    opts = AttackOptions(
        "morningstar", "swing", random_location=True, covered=frozenset({"leg", "torso"})
    )
    run = attack(a, d, opts, ruleset)
    for seed in range(150):
        for e in of(run(random.Random(seed)), HitLocationRolled):
            assert e.roll.location not in hidden
    with pytest.raises(IllegalAttackError, match="covered"):
        plan_attack(a, d, replace(opts, covered=frozenset({"wings"})), ruleset)


def test_the_battle_takes_cover_from_the_terrain(make: Make) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    state = BattleState(HexGrid(10, 10), (a, d))
    table = ruleset_of(state).hit_locations
    assert isinstance(table, HitLocationTable)
    legs = table.area_keys("leg")
    opts = AttackOptions("morningstar", "swing", random_location=True)
    seen: set[str] = set()
    for seed in range(120):
        battle = Battle(state, seed, get_ruleset)
        battle.execute(PaintTerrain((Hex(5, 6),), TerrainChange(cover=Cover.PARTIAL)))
        battle.execute(Attack("a", "d", opts))
        seen |= {e.roll.location for e in of(battle.events, HitLocationRolled)}
    assert seen and not seen & legs


# --- 7. a miss hits the combatant in the way ------------------------------------------------


def test_a_stray_blow_hits_the_obscuring_combatant(make: Make, ruleset: Tables) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    c = make("spearman", Hex(6, 5), Facing.N, id="c")
    opts = AttackOptions("morningstar", "swing", location="head", obscured_by="c")
    res = find(attack(a, d, opts, ruleset, bystander=c), lambda r: bool(of(r, BystanderStruck)))
    readable(res)
    struck = of(res, BystanderStruck)[0]
    assert struck.citation == cite("000", "MISSING A SPECIFIC HIT LOCATION")
    assert res.outcome is AttackOutcome.MISSED and res.damage is None
    assert res.plan.effective_skill < res.attack_roll.total <= struck.needed <= 9
    hurt = of(res, SideBlowDamaged)[0]
    assert hurt.defender_id == "c" and of(res, HitLocationRolled)
    assert res.bystander_after is not None
    assert res.bystander_after.hp == c.hp - hurt.damage.injury
    assert res.defender_after.hp == d.hp
    with pytest.raises(IllegalAttackError):
        attack(a, d, opts, ruleset, bystander=replace(c, id="z"))(random.Random(0))
    # through the battle the combatant in the way is updated
    state = BattleState(HexGrid(10, 10), (a, d, c))

    def run(rng: random.Random) -> Battle:
        battle = Battle(state, rng.randrange(10**6), get_ruleset)
        battle.execute(Attack("a", "d", opts))
        return battle

    battle = find(run, lambda b: bool(of(b.events, SideBlowDamaged)))
    hurt = of(battle.events, SideBlowDamaged)[0]
    assert battle.state.combatant("c").hp == c.hp - hurt.damage.injury


# --- 8. 001 shield arm and hand -------------------------------------------------------------


def test_001_shield_arm_and_hand_are_aimable(make: Make) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a")
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    base = plan_attack(a, d, AttackOptions("morningstar", "swing", location="torso"), R001)
    arm = plan_attack(a, d, AttackOptions("morningstar", "swing", location="shield arm"), R001)
    hand = plan_attack(a, d, AttackOptions("morningstar", "swing", location="shield hand"), R001)
    assert arm.location.penalty == -4 and hand.location.penalty == -8
    assert arm.hit_location == "arm" and hand.hit_location == "hand"
    assert arm.effective_skill == base.effective_skill - 4
    assert arm.location.citation == cite("001", "Hit Location")
    res = find(
        lambda rng: resolve_attack(arm, a, d, rng, R001),
        lambda r: r.outcome.is_hit,
    )
    assert of(res, WoundInflicted)[0].wound.side is weapon_side(d.handedness).other
    bare = make("spearman", Hex(5, 6), Facing.N, id="d")
    with pytest.raises(IllegalAttackError, match="shield"):
        plan_attack(a, bare, AttackOptions("morningstar", "swing", location="shield arm"), R001)


# --- 9. one acrobatic dodge a turn ------------------------------------------------------------


def test_one_acrobatic_dodge_a_turn(make: Make) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    d = make("fencer", Hex(5, 6), Facing.N, id="d", skills={"Fencing": 15, "Acrobatics": 14})
    state = BattleState(HexGrid(10, 10), (a, d))
    opts = AttackOptions("broadsword", "swing", defenses=(DODGE,), acrobatic_dodge=True)
    battle = Battle(state, 5, get_ruleset)
    battle.execute(attack_command("a", "d", opts))
    assert any(x.acrobatic for x in battle.state.combatant("d").actions_this_turn)
    with pytest.raises(IllegalAttackError, match="once per turn"):
        battle.execute(attack_command("a", "d", opts))
    battle.execute(attack_command("a", "d", replace(opts, acrobatic_dodge=False)))  # a plain dodge
    battle.execute(EndTurn())
    battle.execute(attack_command("a", "d", opts))  # a new turn


# --- 10. per-turn effects at the end of the turn ----------------------------------------------


def test_end_turn_rolls_stun_recovery_and_bleeding(make: Make) -> None:
    stunned = replace(make("sword-and-shield", Hex(1, 1), Facing.N, id="s"), status=Status.STUNNED)
    wound = Wound("000", "neck", "Neck", None, 3, None, frozenset({WoundCondition.SEVERE_BLEEDING}))
    bleeder = make("spearman", Hex(3, 3), Facing.N, id="b")
    bleeder = with_wounds(replace(bleeder, hp=bleeder.hp - 3), (wound,))
    state = BattleState(HexGrid(8, 8), (stunned, bleeder))

    def run(rng: random.Random) -> Battle:
        battle = Battle(state, rng.randrange(10**6), get_ruleset)
        battle.execute(EndTurn())
        return battle

    for ok in (True, False):
        battle = find(
            run,
            lambda b, ok=ok: all(
                e.roll.succeeded is ok
                for e in (*of(b.events, StunRecoveryRolled), *of(b.events, BleedingRolled))
            ),
        )
        stun = of(battle.events, StunRecoveryRolled)[0]
        bleed = of(battle.events, BleedingRolled)[0]
        assert stun.citation is not None and stun.citation.seed == "base"
        assert bleed.citation is not None and bleed.citation.seed == "base"
        s, b = battle.state.combatant("s"), battle.state.combatant("b")
        assert s.status is (Status.ACTIVE if ok else Status.STUNNED)
        assert b.hp == bleeder.hp - 1 == bleed.hp_after
        assert (WoundCondition.SEVERE_BLEEDING in wound_conditions(b)) is (not ok)
        assert Battle.replay(
            state, battle.seed, battle.commands, rulesets=get_ruleset
        ).state == battle.state
    lone = (make("spearman", Hex(3, 3), Facing.N),)
    quiet = Battle(BattleState(HexGrid(8, 8), lone), 1, get_ruleset)
    assert len(quiet.execute(EndTurn())) == 1


# --- 11. the ruleset options command ------------------------------------------------------------


def test_set_ruleset_options_switches_hit_locations(make: Make) -> None:
    a = make("sword-and-shield", Hex(0, 0), Facing.S, id="a")
    battle = Battle(BattleState(HexGrid(8, 8), (a,)), 2, get_ruleset)
    events = battle.execute(SetRulesetOptions((LOCATIONS_001,)))
    assert ruleset_of(battle.state) == R001
    assert of(events, RulesetOptionsSet)[0].after == (LOCATIONS_001,)
    assert battle.execute(SetRulesetOptions((LOCATIONS_001,))) == ()
    with pytest.raises(IllegalCommandError):
        battle.execute(SetRulesetOptions(("no-such-option",)))
    battle.execute(SetRulesetOptions(()))
    assert ruleset_of(battle.state).hit_locations.system == "000"


def test_counter_blow_and_stray_damage_are_not_the_attack_damage(
    make: Make, brawler: Combatant, ruleset: Tables
) -> None:
    """Side blows log ``SideBlowDamaged``: ``DamageDealt`` stays the attack's own."""
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    res = find(
        attack(brawler, d, AttackOptions("fist", "punch", defenses=(PARRY_SWORD,)), ruleset),
        lambda r: bool(of(r, SideBlowDamaged)),
    )
    assert not of(res, DamageDealt)
    assert brawler.fighter.weapons[0].kind is WeaponKind.UNARMED
    assert cite("000", "PARRIES VS. UNARMED ATTACKERS") in cited(res)
