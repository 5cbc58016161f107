"""000 IMPROVISED WEAPONS: improvised items in the catalog (treated as the real
weapon named by ``like``), attacking with one (its clumsiness a cited skill
modifier) and parrying with one (1d6 after a successful parry: 1 ruined, 2
damaged, 3-6 unharmed)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction as F

import pytest

from hexmap import Facing, Hex
from rules.battle.catalog import Catalog, parse_catalog
from rules.battle.model import Combatant, ParryClass, Side, WeaponKind
from rules.battle.pieces import AT_FEET
from rules.core.citation import cite
from rules.core.errors import DataError
from rules.sets.seed000.attack import AttackOptions, AttackResolution, plan_attack, resolve_attack
from rules.sets.seed000.attack_events import ImprovisedParryRolled, PiecesLeftHand
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.improvised import (
    IMPROVISED_000,
    ImprovisedParryOutcome,
    damaged_improvised,
    improvised_parry_distribution,
    improvised_parry_outcome,
    roll_improvised_parry,
)
from rules.sets.seed000.tables import Tables
from tests.rules.sheets import amend

Make = Callable[..., Combatant]
IMPROVISED = ("chair-leg", "wooden-pole", "bow-as-club", "bottle", "length-of-chain")


# --- the catalog -----------------------------------------------------------------------


def test_citation_names_the_seed_section() -> None:
    assert cite("000", "IMPROVISED WEAPONS") == IMPROVISED_000


@pytest.mark.parametrize(
    ("key", "like", "skill", "parry", "clumsiness"),
    [
        ("chair-leg", "club", "Broadsword", ParryClass.TWO_THIRDS, -1),
        ("wooden-pole", "spear", "Spear", ParryClass.TWO_THIRDS, -2),  # parries like a spear
        ("bow-as-club", "club", "Broadsword", ParryClass.TWO_THIRDS, -2),  # like a light club
        ("bottle", "club", "Broadsword", ParryClass.TWO_THIRDS, -1),
        ("length-of-chain", "morningstar", "Flail", ParryClass.THIRD, -1),  # flexible: a flail
    ],
)
def test_shipped_improvised_items_follow_their_like_weapon(
    catalog: Catalog, key: str, like: str, skill: str, parry: ParryClass, clumsiness: int
) -> None:
    item = catalog.weapon(key)
    real = catalog.weapon(like)
    assert item.kind is WeaponKind.IMPROVISED and real.kind is not WeaponKind.IMPROVISED
    assert (item.like, item.skill, item.parry, item.clumsiness) == (like, skill, parry, clumsiness)
    assert (real.skill, real.parry) == (skill, parry)
    # lighter or edgeless: never more damage than the real weapon, always crushing here
    for mode in item.modes:
        assert mode.damage.type.value == "cr"
        same = [m for m in real.modes if m.damage.base is mode.damage.base]
        assert all(mode.damage.adds <= m.damage.adds for m in same)


def _weapons(*extra: dict[str, object]) -> dict[str, object]:
    club = {
        "key": "club",
        "name": "Club",
        "kind": "club",
        "skill": "Broadsword",
        "parry": "2/3",
        "weight": 3,
        "modes": [
            {"name": "swing", "damage": {"base": "sw", "adds": 1, "type": "cr"}, "reach": "1"}
        ],
    }
    return {"weapons": [*extra, club]}  # an improvised item may come before its like


def _item(**changes: object) -> dict[str, object]:
    item: dict[str, object] = {
        "key": "leg",
        "name": "Leg",
        "kind": "improvised",
        "like": "club",
        "weight": 2,
        "modes": [
            {"name": "swing", "damage": {"base": "sw", "adds": 0, "type": "cr"}, "reach": "1"}
        ],
    }
    item.update(changes)
    return {k: v for k, v in item.items() if v is not None}


def _parse(*extra: dict[str, object]) -> Catalog:
    return parse_catalog(_weapons(*extra), {"shields": []}, {"armor": []})


def test_like_is_parsed_and_overridable() -> None:
    leg = _parse(_item(clumsiness=-3)).weapon("leg")
    assert (leg.like, leg.skill, leg.parry, leg.clumsiness) == (
        "club",
        "Broadsword",
        ParryClass.TWO_THIRDS,
        -3,
    )
    own = _parse(_item(skill="Staff", parry="full")).weapon("leg")
    assert (own.skill, own.parry, own.clumsiness) == ("Staff", ParryClass.FULL, 0)


@pytest.mark.parametrize(
    ("item", "match"),
    [
        (_item(like=None), "names the weapon it is like"),
        (_item(like="greatsword"), "no real weapon 'greatsword'"),
        (_item(clumsiness=1), "clumsiness"),
        (_item(kind="club", skill="Broadsword", parry="2/3"), "only an improvised item"),
        (_item(kind="club", like=None, clumsiness=-1, skill="B", parry="2/3"), "clumsiness"),
        (_item(kind="club", like=None, parry="2/3"), "missing 'skill'"),
    ],
)
def test_bad_improvised_items_are_refused(item: dict[str, object], match: str) -> None:
    with pytest.raises(DataError, match=match):
        _parse(item)


def test_like_must_be_a_real_weapon() -> None:
    with pytest.raises(DataError, match="no real weapon 'leg'"):
        _parse(_item(), _item(key="leg2", like="leg"))


# --- attacking with one ----------------------------------------------------------------


def _pair(
    make: Make, catalog: Catalog, attacker_weapon: str, defender_weapon: str
) -> tuple[Combatant, Combatant]:
    a = make(
        "sword-and-shield",
        Hex(5, 5),
        Facing.S,
        id="a",
        side=Side.RED,
        weapons=(catalog.weapon(attacker_weapon),),
    )
    d = make(
        "sword-and-shield",
        Hex(5, 6),
        Facing.N,
        id="d",
        side=Side.BLUE,
        weapons=(catalog.weapon(defender_weapon),),
        shield=None,
    )
    return a, d


def test_attacking_with_an_improvised_item_is_at_its_clumsiness(
    make: Make, catalog: Catalog, ruleset: Tables
) -> None:
    a, d = _pair(make, catalog, "bow-as-club", "broadsword")
    plan = plan_attack(a, d, AttackOptions("bow-as-club", "swing"), ruleset)
    clumsy = [m for m in plan.modifiers if m.citation == IMPROVISED_000]
    assert [m.value for m in clumsy] == [-2]
    assert "Shortbow used as a club" in clumsy[0].reason
    real, _ = _pair(make, catalog, "club", "broadsword")
    plan_real = plan_attack(real, d, AttackOptions("club", "swing"), ruleset)
    assert plan.effective_skill == plan_real.effective_skill - 2
    assert plan.skill_name == "Broadsword"
    # lighter than a club: sw-1 instead of sw+1, still crushing
    assert plan.damage_spec.adds == plan_real.damage_spec.adds - 2
    assert not [m for m in plan_real.modifiers if m.citation == IMPROVISED_000]


def test_an_improvised_attack_resolves(make: Make, catalog: Catalog, ruleset: Tables) -> None:
    a, d = _pair(make, catalog, "length-of-chain", "broadsword")
    plan = plan_attack(a, d, AttackOptions("length-of-chain", "swing"), ruleset)
    res = resolve_attack(plan, a, d, random.Random(3), ruleset)
    assert res.attack_roll.target == plan.effective_skill


# --- parrying with one -----------------------------------------------------------------


def test_parry_uses_the_like_weapons_class_and_the_clumsy_skill(
    make: Make, catalog: Catalog, ruleset: Tables
) -> None:
    a, d = _pair(make, catalog, "broadsword", "wooden-pole")
    d = replace(d, fighter=amend(d.fighter, skills={"Spear": 14}))
    opts = AttackOptions("broadsword", "thrust", defenses=(_parry("wooden-pole"),))
    parry = plan_attack(a, d, opts, ruleset).defenses[0]
    assert parry.base == (14 - 2) * 2 // 3  # 2/3 of Spear 14 at -2, like a spear
    assert "improvised" in parry.base_reason


def test_parry_outcome_distribution_is_exact() -> None:
    faces = {face: improvised_parry_outcome(face) for face in range(1, 7)}
    assert faces == {
        1: ImprovisedParryOutcome.RUINED,
        2: ImprovisedParryOutcome.DAMAGED,
        **{f: ImprovisedParryOutcome.UNHARMED for f in range(3, 7)},
    }
    assert improvised_parry_distribution() == {
        ImprovisedParryOutcome.RUINED: F(1, 6),
        ImprovisedParryOutcome.DAMAGED: F(1, 6),
        ImprovisedParryOutcome.UNHARMED: F(2, 3),
    }
    with pytest.raises(ValueError):
        improvised_parry_outcome(7)


def test_the_roll_is_one_d6(scripted: Callable[..., random.Random]) -> None:
    for face in range(1, 7):
        r = roll_improvised_parry(scripted([face]), "Brawler's chair after the parry")
        assert (r.die, r.outcome) == (face, improvised_parry_outcome(face))


def test_damage_stacks_a_skill_penalty(catalog: Catalog) -> None:
    once = damaged_improvised(catalog.weapon("chair-leg"))
    twice = damaged_improvised(once)
    assert (once.name, once.clumsiness, once.key) == ("damaged Chair leg", -2, "chair-leg")
    assert (twice.name, twice.clumsiness) == ("damaged Chair leg", -3)


def _parry(key: str) -> DefenseChoice:
    return DefenseChoice(DefenseKind.PARRY, key)


def _parried(
    make: Make, catalog: Catalog, ruleset: Tables, seed: int
) -> tuple[AttackResolution, list[ImprovisedParryRolled]]:
    a, d = _pair(make, catalog, "broadsword", "chair-leg")
    opts = AttackOptions("broadsword", "swing", defenses=(_parry("chair-leg"),))
    plan = plan_attack(a, d, opts, ruleset)
    res = resolve_attack(plan, a, d, random.Random(seed), ruleset)
    return res, [e for e in res.events if isinstance(e, ImprovisedParryRolled)]


def _seed_for(
    make: Make, catalog: Catalog, ruleset: Tables, outcome: ImprovisedParryOutcome
) -> int:
    for seed in range(2000):
        _, rolled = _parried(make, catalog, ruleset, seed)
        if rolled and rolled[0].roll.outcome is outcome:
            return seed
    raise AssertionError(f"no seed gives {outcome}")


@pytest.mark.parametrize("outcome", list(ImprovisedParryOutcome))
def test_a_seeded_parry_shows_each_outcome(
    make: Make, catalog: Catalog, ruleset: Tables, outcome: ImprovisedParryOutcome
) -> None:
    seed = _seed_for(make, catalog, ruleset, outcome)
    res, rolled = _parried(make, catalog, ruleset, seed)
    assert len(rolled) == 1 and res.defense_rolls[0].succeeded
    event = rolled[0]
    assert event.citation == IMPROVISED_000 and event.weapon_name == "Chair leg"
    assert str(event.roll.die) in event.describe()
    held = {w.key: w for w in res.defender_after.fighter.weapons}
    if outcome is ImprovisedParryOutcome.RUINED:
        assert "chair-leg" not in held
        (piece,) = res.pieces
        assert (piece.name, piece.weapon, piece.placement) == ("ruined Chair leg", None, AT_FEET)
        assert any(isinstance(e, PiecesLeftHand) for e in res.events)
    elif outcome is ImprovisedParryOutcome.DAMAGED:
        assert (held["chair-leg"].name, held["chair-leg"].clumsiness) == ("damaged Chair leg", -2)
        assert not res.pieces
    else:
        assert held["chair-leg"] == catalog.weapon("chair-leg") and not res.pieces


def test_a_failed_parry_rolls_nothing(make: Make, catalog: Catalog, ruleset: Tables) -> None:
    for seed in range(200):
        res, rolled = _parried(make, catalog, ruleset, seed)
        if res.defense_rolls and not res.defense_rolls[0].succeeded:
            assert not rolled
            return
    raise AssertionError("no seed with a failed parry")
