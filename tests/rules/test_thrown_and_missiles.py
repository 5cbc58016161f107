"""Thrown and missile attacks (seed 000 BLOCK, MISSILE AND THROWN WEAPONS, DODGE,
RANDOM HIT LOCATION, DISARMING AN OPPONENT): rules/sets/seed000/missiles.py wired through
plan_attack, resolve_attack and the Battle."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from hexmap import Facing, Hex, HexGrid, Reach
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog, load_demo_battle, parse_mode, parse_weapon
from rules.battle.commands import Attack
from rules.battle.model import (
    Combatant,
    DamageBase,
    DamageSpec,
    DamageType,
    Delivery,
    ParryClass,
    Projectile,
    Weapon,
    WeaponKind,
    WeaponMode,
)
from rules.battle.pieces import PlacementKind
from rules.battle.state import BattleState
from rules.core.assets import read_json
from rules.core.dice import Dice
from rules.core.errors import DataError, IllegalAttackError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import (
    AttackOptions,
    AttackOutcome,
    AttackPlan,
    plan_attack,
    resolve_attack,
)
from rules.sets.seed000.attack_events import HitLocationRolled, PiecesLeftHand
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.missiles import MISSILE_PARRYING, THROWN_NOTE
from rules.sets.seed000.odds import attack_odds
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.weapon_strikes import KNOCKED_AWAY, WEAPON_STRIKES_000
from tests.rules.battle_level import in_hand
from tests.rules.sheets import amend

Make = Callable[..., Combatant]

DODGE = DefenseChoice(DefenseKind.DODGE)
BLOCK = DefenseChoice(DefenseKind.BLOCK)
PARRY = DefenseChoice(DefenseKind.PARRY, "broadsword")
MISSILE = "000 MISSILE AND THROWN WEAPONS"

# Offset hexes on a 10 x 10 map: the thrower faces south, down column 5.
A_AT = Hex.from_offset(5, 2)


def _at(row: int) -> Hex:
    return Hex.from_offset(5, row)


def _ranged(name: str, projectile: Projectile, delivery: Delivery = Delivery.MISSILE) -> Weapon:
    mode = WeaponMode(
        "shoot",
        DamageSpec(DamageBase.FIXED, 0, DamageType.PIERCING, Dice(2)),
        Reach.of(0),
        delivery=delivery,
        projectile=projectile,
        range_hexes=8,
        half_damage_hexes=4,
    )
    return Weapon(name.lower(), name, WeaponKind.GUN, "Guns", (mode,), ParryClass.NONE, 3.0)


@pytest.fixture
def duel(make: Make, catalog: Catalog) -> Callable[..., tuple[Combatant, Combatant]]:
    """A knight with extra gear (and skills) at A_AT facing south, and a knight
    ``row`` rows below facing north."""

    def build(
        *gear: str | Weapon, row: int = 5, skills: dict[str, int] | None = None
    ) -> tuple[Combatant, Combatant]:
        extra = tuple(catalog.weapon(g) if isinstance(g, str) else g for g in gear)
        a = make("sword-and-shield", A_AT, Facing.S, id="a")
        sheet = {**sheet_of(a).skills, "Knife": 13, "Spear": 13, "Bow": 13, "Sling": 13}
        sheet |= {"Axe/Mace": 13, "Guns": 13}
        a = replace(
            a, fighter=amend(a.fighter, weapons=(*a.fighter.weapons, *extra), skills=sheet)
        )
        d = make("sword-and-shield", _at(row), Facing.N, id="d")
        if skills:
            d = replace(d, fighter=amend(d.fighter, skills={**sheet_of(d).skills, **skills}))
        return a, d

    return build


def _plan(
    attacker: Combatant, defender: Combatant, options: AttackOptions, ruleset: Tables
) -> AttackPlan:
    """``plan_attack`` with the chosen weapon in hand: the knight carries the rest
    of its gear at the belt (rules.battle.hands), so each test draws what it uses."""
    return plan_attack(in_hand(attacker, options.weapon_key), defender, options, ruleset)


# --- the catalog --------------------------------------------------------------------------


def test_the_catalog_has_thrown_and_missile_modes(catalog: Catalog) -> None:
    knife = catalog.weapon("knife").mode("throw")
    assert (knife.delivery, knife.projectile, knife.range_hexes) == (
        Delivery.THROWN,
        Projectile.SMALL_THROWN,
        5,
    )
    assert catalog.weapon("large-knife").mode("throw").projectile is Projectile.SMALL_THROWN
    assert catalog.weapon("spear").mode("throw").projectile is Projectile.THROWN
    assert catalog.weapon("throwing-axe").mode("throw").projectile is Projectile.THROWN
    for key in ("shortbow", "sling"):
        shot = catalog.weapon(key).mode("shoot")
        assert shot.delivery is Delivery.MISSILE
        assert shot.projectile is Projectile.LOW_TECH_MISSILE
        assert shot.half_damage_hexes is not None and shot.range_hexes is not None
        assert catalog.weapon(key).is_missile_weapon
    # melee modes stay as they were; a thrown mode adds nothing to the weapon's reach
    thrust = catalog.weapon("knife").mode("thrust")
    assert thrust.delivery is Delivery.MELEE and thrust.range_hexes is None
    assert catalog.weapon("knife").reach == Reach.parse("C-1")
    assert catalog.weapon("spear").reach == Reach.of(1)
    assert not catalog.weapon("knife").is_missile_weapon
    # a thrown axe is not a swing to parry at +1
    assert not catalog.weapon("throwing-axe").mode("throw").is_swing


@pytest.mark.parametrize(
    "mutate",
    [
        lambda m: m.pop("projectile"),
        lambda m: m.pop("range"),
        lambda m: m.update(range=0),
        lambda m: m.update(half_damage_range=21),
        lambda m: m.update(delivery="catapult"),
        lambda m: m.update(projectile="rock"),
        lambda m: m.update(delivery="melee"),  # melee with a range and no reach
    ],
)
def test_malformed_ranged_modes(mutate: Any) -> None:
    raw = read_json("weapons.json")["weapons"]
    bow = copy.deepcopy(next(w for w in raw if w["key"] == "shortbow"))
    parse_weapon(copy.deepcopy(bow))
    mutate(bow["modes"][0])
    with pytest.raises(DataError):
        parse_weapon(bow)


def test_a_mode_without_delivery_is_melee() -> None:
    mode = parse_mode(
        {"name": "swing", "damage": {"base": "sw", "adds": 0, "type": "cr"}, "reach": "1"}
    )
    assert mode.delivery is Delivery.MELEE and mode.projectile is Projectile.NONE
    with pytest.raises(DataError, match="reach"):
        parse_mode({"name": "swing", "damage": {"base": "sw", "adds": 0, "type": "cr"}})


def test_the_demo_spearman_carries_a_knife_to_throw() -> None:
    _grid, fighters = load_demo_battle()
    spearman = next(c for c in fighters if c.id == "c2")
    assert [w.key for w in spearman.fighter.weapons] == ["long-spear", "knife"]
    assert sheet_of(spearman).skill("Knife") == 13


# --- range instead of reach -----------------------------------------------------------------


def test_a_throw_reaches_any_front_hex_within_range(duel: Any, ruleset: Tables) -> None:
    a, d = duel("knife", row=5)  # 3 hexes
    plan = _plan(a, d, AttackOptions("knife", "throw"), ruleset)
    assert plan.distance == 3 and plan.mode.delivery is Delivery.THROWN
    with pytest.raises(IllegalAttackError, match="reach"):  # the thrust still needs reach
        _plan(a, d, AttackOptions("knife", "thrust"), ruleset)
    far = replace(d, hex=_at(8))  # 6 hexes, range 5
    with pytest.raises(IllegalAttackError, match="beyond the range 5"):
        _plan(a, far, AttackOptions("knife", "throw"), ruleset)
    behind = replace(d, hex=Hex.from_offset(5, 0))
    with pytest.raises(IllegalAttackError, match="front arc"):
        _plan(a, behind, AttackOptions("knife", "throw"), ruleset)
    with pytest.raises(IllegalAttackError, match="in hand"):
        _plan(a, d, AttackOptions("knife", "throw", subdue=_any_subdue()), ruleset)


def _any_subdue() -> Any:
    from rules.sets.seed000.attack import SubdueMode

    return SubdueMode.FLAT


# --- the defenses -------------------------------------------------------------------------


def _defense(plan: Any, kind: DefenseKind) -> Any:
    return next(d for d in plan.defenses if d.kind is kind)


def test_parry_minus_1_against_thrown_minus_2_against_small_thrown(
    duel: Any, ruleset: Tables
) -> None:
    a, d = duel("knife", "spear", "throwing-axe", row=3)  # adjacent: melee to compare
    melee = _plan(a, d, AttackOptions("broadsword", "thrust", defenses=(PARRY,)), ruleset)
    expected = {"knife": -2, "spear": -1, "throwing-axe": -1}
    for key, penalty in expected.items():
        plan = _plan(a, d, AttackOptions(key, "throw", defenses=(PARRY,)), ruleset)
        parry = _defense(plan, DefenseKind.PARRY)
        assert parry.value == _defense(melee, DefenseKind.PARRY).value + penalty
        cited = [m for m in parry.modifiers if str(m.citation) == MISSILE]
        assert [m.value for m in cited] == [penalty]


def test_block_stops_thrown_and_low_tech_missiles_not_bullets_or_beams(
    duel: Any, ruleset: Tables
) -> None:
    bullet, beam = _ranged("Pistol", Projectile.BULLET), _ranged("Blaster", Projectile.BEAM)
    a, d = duel("knife", "shortbow", "sling", bullet, beam)
    for key, mode in (("knife", "throw"), ("shortbow", "shoot"), ("sling", "shoot")):
        plan = _plan(a, d, AttackOptions(key, mode, defenses=(BLOCK,)), ruleset)
        assert _defense(plan, DefenseKind.BLOCK).value > 0
    for weapon in (bullet, beam):
        with pytest.raises(IllegalAttackError, match="cannot block"):
            _plan(a, d, AttackOptions(weapon.key, "shoot", defenses=(BLOCK,)), ruleset)


def test_fast_missiles_are_parried_only_with_missile_parrying(
    duel: Any, ruleset: Tables, make: Make
) -> None:
    a, d = duel("shortbow", "sling")
    for key in ("shortbow", "sling"):
        with pytest.raises(IllegalAttackError, match="Missile Parrying"):
            _plan(a, d, AttackOptions(key, "shoot", defenses=(PARRY,)), ruleset)
    a, skilled = duel("shortbow", "sling", skills={MISSILE_PARRYING: 12})
    melee_parry = _plan(
        replace(a, hex=_at(4)),
        skilled,
        AttackOptions("broadsword", "thrust", defenses=(PARRY,)),
        ruleset,
    )
    for key in ("shortbow", "sling"):
        plan = _plan(a, skilled, AttackOptions(key, "shoot", defenses=(PARRY,)), ruleset)
        # the skill permits the parry at the weapon's usual score
        assert (
            _defense(plan, DefenseKind.PARRY).value
            == _defense(melee_parry, DefenseKind.PARRY).value
        )
    # a hand weapon, not bare hands
    brawler = make("sword-and-shield", _at(5), Facing.N, id="d")
    fists = _unarmed()
    brawler = replace(
        brawler,
        fighter=amend(
            brawler.fighter,
            weapons=(fists,),
            skills={**sheet_of(brawler).skills, MISSILE_PARRYING: 12, "Brawling": 12},
        ),
    )
    with pytest.raises(IllegalAttackError, match="bare-handed"):
        _plan(
            a,
            brawler,
            AttackOptions(
                "shortbow", "shoot", defenses=(DefenseChoice(DefenseKind.PARRY, fists.key),)
            ),
            ruleset,
        )


def _unarmed() -> Weapon:
    from rules.battle.catalog import load_catalog

    return next(w for w in load_catalog().weapons.values() if w.kind is WeaponKind.UNARMED)


def test_bullets_and_beams_are_never_parried(duel: Any, ruleset: Tables) -> None:
    bullet, beam = _ranged("Pistol", Projectile.BULLET), _ranged("Blaster", Projectile.BEAM)
    a, d = duel(bullet, beam, skills={MISSILE_PARRYING: 16})
    for weapon in (bullet, beam):
        with pytest.raises(IllegalAttackError, match="cannot be parried"):
            _plan(a, d, AttackOptions(weapon.key, "shoot", defenses=(PARRY,)), ruleset)


def test_a_dodge_is_always_allowed(duel: Any, ruleset: Tables) -> None:
    bullet, beam = _ranged("Pistol", Projectile.BULLET), _ranged("Blaster", Projectile.BEAM)
    a, d = duel("knife", "spear", "shortbow", bullet, beam)
    adjacent = replace(d, hex=_at(3))
    melee = _plan(
        a, adjacent, AttackOptions("broadsword", "thrust", defenses=(DODGE,)), ruleset
    )
    for key, mode in (
        ("knife", "throw"),
        ("spear", "throw"),
        ("shortbow", "shoot"),
        (bullet.key, "shoot"),
        (beam.key, "shoot"),
    ):
        plan = _plan(a, d, AttackOptions(key, mode, defenses=(DODGE,)), ruleset)
        assert plan.defenses[0].value == melee.defenses[0].value


# --- 000 RANDOM HIT LOCATION beyond 1/2D ------------------------------------------------------


def test_a_missile_beyond_half_damage_range_hits_a_random_location(
    duel: Any, ruleset: Tables
) -> None:
    a, d = duel("shortbow")
    a = in_hand(a, "shortbow")
    near = _plan(a, d, AttackOptions("shortbow", "shoot"), ruleset)  # 3 <= 1/2D 10
    assert not near.options.random_location
    far = replace(d, hex=Hex.from_offset(5, 14))  # 12 hexes: beyond 1/2D, within 20
    grid_free = _plan(a, far, AttackOptions("shortbow", "shoot"), ruleset)
    assert grid_free.options.random_location and grid_free.distance == 12
    with pytest.raises(IllegalAttackError, match="random location"):
        _plan(a, far, AttackOptions("shortbow", "shoot", location="head"), ruleset)
    # a thrown weapon has no such rule
    a2, d2 = duel("knife")
    assert not _plan(a2, d2, AttackOptions("knife", "throw"), ruleset).options.random_location
    # the resolution rolls the location on a hit (seed found by search)
    hits = 0
    for seed in range(40):
        r = resolve_attack(grid_free, a, far, random.Random(seed), ruleset)
        rolled = [e for e in r.events if isinstance(e, HitLocationRolled)]
        assert bool(rolled) == r.outcome.is_hit
        hits += r.outcome.is_hit
    assert hits > 0
    assert attack_odds(grid_free, a, far, ruleset).outcomes


# --- the thrown weapon leaves the hand; arrows are spent ---------------------------------------


def _first(
    plan: Any, a: Combatant, d: Combatant, ruleset: Tables, want: Callable[[Any], bool]
) -> Any:
    a = in_hand(a, plan.weapon.key)
    for seed in range(500):
        r = resolve_attack(plan, a, d, random.Random(seed), ruleset)
        if want(r):
            return r
    raise AssertionError("no seed found")


def test_a_thrown_weapon_leaves_the_hand(duel: Any, ruleset: Tables) -> None:
    a, d = duel("knife")
    plan = _plan(a, d, AttackOptions("knife", "throw", defenses=(DODGE,)), ruleset)
    landed = {
        AttackOutcome.HIT: PlacementKind.ON_TARGET,
        AttackOutcome.DEFENDED: PlacementKind.ON_TARGET,
        AttackOutcome.MISSED: PlacementKind.WIDE_OF_TARGET,
    }
    for outcome, kind in landed.items():
        r = _first(plan, a, d, ruleset, lambda r, o=outcome: r.outcome is o)
        assert [w.key for w in r.attacker_after.fighter.weapons] == ["broadsword"]
        (piece,) = r.pieces
        assert piece.weapon is not None and piece.weapon.key == "knife"
        assert piece.note == THROWN_NOTE and piece.placement.kind is kind
        # a miss scatters from the target as a knocked-away knife would: 1d3-1 hexes
        assert piece.placement.distance_distribution() == (
            {0: Fraction(1)} if kind is PlacementKind.ON_TARGET
            else KNOCKED_AWAY.distance_distribution()
        )  # fmt: skip
        assert r.piece_origins == ("a",)
        left = [e for e in r.events if isinstance(e, PiecesLeftHand)]
        assert left and str(left[0].citation) == MISSILE


def test_arrows_are_spent_and_the_bow_stays(duel: Any, ruleset: Tables) -> None:
    a, d = duel("shortbow")
    plan = _plan(a, d, AttackOptions("shortbow", "shoot"), ruleset)
    for outcome in (AttackOutcome.HIT, AttackOutcome.MISSED):
        r = _first(plan, a, d, ruleset, lambda r, o=outcome: r.outcome is o)
        assert r.pieces == ()
        assert "shortbow" in [w.key for w in r.attacker_after.fighter.weapons]


def test_the_battle_puts_a_thrown_knife_on_the_map(duel: Any) -> None:
    a, d = duel("knife")
    state = BattleState(HexGrid(10, 10), (in_hand(a, "knife"), d))
    seen: set[AttackOutcome] = set()
    for seed in range(60):
        battle = Battle(state, seed, get_ruleset)
        events = battle.execute(Attack("a", "d", AttackOptions("knife", "throw")))
        outcome = next(e.outcome for e in events if type(e).__name__ == "AttackResolved")
        after = battle.state
        assert "knife" not in [w.key for w in after.combatant("a").fighter.weapons]
        (item,) = after.items
        assert item.weapon is not None and item.weapon.key == "knife"
        if outcome.is_hit:
            assert item.hex == d.hex  # in the target's hex
        else:
            assert item.hex.distance(d.hex) <= 2  # scattered 1d3-1 hexes from it
        seen.add(outcome)
        assert Battle.replay(
            state, battle.seed, battle.commands, rulesets=get_ruleset
        ).state == after
    assert AttackOutcome.HIT in seen and AttackOutcome.MISSED in seen


# --- 000 DISARMING AN OPPONENT: DX against a hand-held missile weapon ------------------------


def test_a_foe_with_a_missile_weapon_rolls_dx_against_a_disarm(
    catalog: Catalog, make: Make
) -> None:
    knight = make("sword-and-shield", A_AT, Facing.S).fighter
    archer = amend(knight, skills={**sheet_of(knight).skills, "Sling": 16})
    sling = catalog.weapon("sling")
    assert sling.is_missile_weapon
    contest = WEAPON_STRIKES_000.disarm_contest(knight, catalog.weapon("broadsword"), archer, sling)
    assert (contest.defender.base, contest.defender.basis) == (sheet_of(archer).attributes.dx, "DX")
    # a mode-only missile weapon (its kind says nothing) counts too
    oddity = replace(sling, kind=WeaponKind.IMPROVISED)
    broadsword = catalog.weapon("broadsword")
    contest = WEAPON_STRIKES_000.disarm_contest(knight, broadsword, archer, oddity)
    assert contest.defender.basis == "DX"


# --- odds ---------------------------------------------------------------------------------


def test_odds_of_a_throw_sum_to_one_and_match_resolve(duel: Any, ruleset: Tables) -> None:
    a, d = duel("spear")
    a = in_hand(a, "spear")
    plan = _plan(
        a, d, AttackOptions("spear", "throw", defenses=(BLOCK, PARRY, DODGE)), ruleset
    )
    odds = attack_odds(plan, a, d, ruleset)
    assert sum(odds.outcomes.values()) == 1
    runs = 1500
    defended = sum(
        resolve_attack(plan, a, d, random.Random(s), ruleset).outcome is AttackOutcome.DEFENDED
        for s in range(runs)
    )
    p = float(odds.outcomes.get(AttackOutcome.DEFENDED, 0))
    assert abs(defended / runs - p) <= 4.5 * (p * (1 - p) / runs) ** 0.5 + 1 / runs
