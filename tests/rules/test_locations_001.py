"""Seed 001's hit locations: penalties, wounding changes, the random table,
injury tolerance, chinks in armor and large-area injury."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import pytest

from rules.battle.model import DamageType
from rules.core.citation import cite
from rules.core.errors import DataError, IllegalAttackError, RulesError
from rules.core.modifiers import total
from rules.sets.seed000.hit_location import HitLocationSystem
from rules.sets.seed000.locations_001 import (
    Locations001,
    large_area_dr,
    large_area_location,
    parse_locations_001,
)
from rules.sets.seed000.sheet import InjuryTolerance
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.wound_effects import (
    BodySide,
    Condition,
    Limb,
    PainThreshold,
    RollKind,
    Victim,
    resolve_rolls,
    wound_from,
)
from tests.rules.three_dice import WAYS_3D6

ASSET = Path(__file__).resolve().parents[2] / "assets" / "rulesets" / "001" / "hit_locations.json"
F = Fraction
CR, CUT, IMP, PI = DamageType.CRUSHING, DamageType.CUTTING, DamageType.IMPALING, DamageType.PIERCING
BURN, COR, TOX = DamageType.BURNING, DamageType.CORROSION, DamageType.TOXIC
V = Victim(hp=12, ht=11)
WAYS = WAYS_3D6


def p(*totals: int) -> Fraction:
    return F(sum(WAYS[n] for n in totals), 216)


def tol(*items: InjuryTolerance) -> Victim:
    return Victim(hp=12, ht=11, tolerances=frozenset(items))


@pytest.fixture(scope="module")
def t() -> Locations001:
    return Tables().locations_001


# --------------------------------------------------------------------------- penalties

PENALTIES = {
    "skull": (-7, -7),
    "eye": (-9, -9),
    "face": (-5, -5),
    "neck": (-5, -5),
    "vitals": (-3, -3),
    "groin": (-3, -3),
    "arm": (-2, -4),
    "leg": (-2, -2),
    "hand": (-4, -8),
    "foot": (-4, -4),
    "torso": (0, 0),
}


@pytest.mark.parametrize("key", sorted(PENALTIES))
def test_penalties(t: Locations001, key: str) -> None:
    plain, shield = PENALTIES[key]
    assert total(t.penalty(key, shield_side=False, melee=True)) == plain
    assert total(t.penalty(key, shield_side=True, melee=True)) == shield
    for m in t.penalty(key, shield_side=True, melee=False):
        assert m.citation == cite("001", "Hit Location")


def test_chink_penalties_replace_the_location_penalty(t: Locations001) -> None:
    assert total(t.penalty("torso", shield_side=False, melee=True, chink=True)) == -8
    for key in ("face", "eye", "vitals", "arm", "hand"):
        mods = t.penalty(key, shield_side=True, melee=True, chink=True)
        assert total(mods) == -10 and mods[0].citation == cite("001", "Targeting Chinks in Armor")


def test_grappling_halves_rounding_up(t: Locations001) -> None:
    assert total(t.penalty("skull", shield_side=False, melee=True, grappling=True)) == -4
    assert total(t.penalty("hand", shield_side=True, melee=True, grappling=True)) == -4
    assert total(t.penalty("arm", shield_side=False, melee=True, grappling=True)) == -1
    assert t.penalty("torso", shield_side=False, melee=True, grappling=True) == ()


# --------------------------------------------------------------------------- random table


def test_random_distribution_is_exact(t: Locations001) -> None:
    d = t.exact_distribution()
    assert dict(d) == {
        "skull": p(3, 4),
        "face": p(5),
        "leg": p(6, 7, 13, 14),
        "arm": p(8, 12),
        "torso": p(9, 10),
        "groin": p(11),
        "hand": p(15),
        "foot": p(16),
        "neck": p(17, 18),
    }
    assert sum(d.values()) == 1
    assert "eye" not in d and "vitals" not in d


def test_sides_are_exact(t: Locations001) -> None:
    s = t.exact_side_distribution()
    assert s[("leg", BodySide.RIGHT)] == p(6, 7) and s[("leg", BodySide.LEFT)] == p(13, 14)
    assert s[("arm", BodySide.RIGHT)] == p(8) and s[("arm", BodySide.LEFT)] == p(12)
    assert s[("hand", BodySide.RIGHT)] == s[("hand", BodySide.LEFT)] == p(15) / 2


def test_from_directly_above_feet_are_hands_and_legs_arms(t: Locations001) -> None:
    d = t.exact_distribution(from_above=True)
    assert d["arm"] == p(6, 7, 8, 12, 13, 14) and d["hand"] == p(15, 16)
    assert "leg" not in d and "foot" not in d
    assert t.exact_side_distribution(from_above=True)[("arm", BodySide.LEFT)] == p(12, 13, 14)


def test_cover_and_lacking_locations_reroll_exactly(t: Locations001) -> None:
    lacking = t.lacking_locations([InjuryTolerance.NO_HEAD, InjuryTolerance.NO_NECK])
    assert lacking == {"skull", "face", "eye", "neck"}
    d = t.exact_distribution(covered=lacking)
    open_p = 1 - p(3, 4, 5, 17, 18)
    assert d["torso"] == p(9, 10) / open_p and "skull" not in d
    with pytest.raises(RulesError):
        t.exact_distribution(covered=frozenset(t.locations))


@pytest.mark.parametrize("seed", range(100))
def test_seeded_roll_matches_its_record(t: Locations001, seed: int) -> None:
    covered = frozenset({"torso"}) if seed % 3 == 0 else frozenset()
    r = t.roll_random(
        random.Random(seed), from_above=seed % 2 == 0, covered=covered, left_handed=seed % 5 == 0
    )
    faces: list[int] = []
    for a in r.attempts:
        assert a.total == sum(a.dice) == a.row
        key, side = t.lookup(a.total, a.sub)
        if seed % 2 == 0:
            key = {"leg": "arm", "foot": "hand"}.get(key, key)
        assert key == a.location and a.covered == (key in covered)
        assert (a.sub is not None) == (key in ("hand", "foot") or (a.total in (15, 16)))
        faces += [*a.dice, *([a.sub] if a.sub is not None else [])]
    replay = random.Random(seed)
    assert faces == [replay.randint(1, 6) for _ in faces]
    assert r.location == r.final.location and r.system == "001"
    _, side = t.lookup(r.final.total, r.final.sub)
    assert (r.side is None) == (side is None)
    assert r.side is side


# --------------------------------------------------------------------------- wounds


def test_skull(t: Locations001) -> None:
    a = t.assess_wound("skull", CR, 5, V)
    assert (a.location_dr, a.penetrating, a.multiplier, a.injury) == (2, 3, 4, 12)
    assert a.knockdown_modifier == -10
    kd = a.roll_of(RollKind.KNOCKDOWN)
    assert kd is not None and kd.target == 1
    a = t.assess_wound("skull", TOX, 5, V)  # none of it applies to toxic damage
    assert (a.location_dr, a.multiplier, a.injury, a.knockdown_modifier) == (0, 1, 5, 0)


def test_eye(t: Locations001) -> None:
    a = t.assess_wound("eye", IMP, 1, V)  # no extra DR; x4
    assert (a.location_dr, a.injury) == (0, 4)
    assert a.crippling is not None and a.crippling.limb is Limb.EYE
    assert Condition.BLINDED_EYE in a.automatic  # 4 > 12/10
    a = t.assess_wound("eye", PI, 1, Victim(hp=40, ht=11))  # 4 is not over 40/10
    assert a.crippling is None
    assert t.assess_wound("eye", BURN, 2, V, tight_beam=True).injury == 8
    for bad in (CR, CUT, BURN):
        with pytest.raises(IllegalAttackError):
            t.assess_wound("eye", bad, 3, V)
    assert not t.can_target("eye", CR) and t.can_target("eye", BURN, tight_beam=True)


def test_face(t: Locations001) -> None:
    assert t.assess_wound("face", CR, 4, V).injury == 4
    assert t.assess_wound("face", COR, 4, V).injury == 6
    assert t.assess_wound("face", CR, 4, V).knockdown_modifier == -5
    assert Condition.BLINDED_EYE in t.assess_wound("face", COR, 5, V).automatic  # 7 > 6
    assert Condition.BLINDED_BOTH in t.assess_wound("face", COR, 9, V).automatic  # 13 > 12
    assert not t.assess_wound("face", COR, 4, V).automatic


def test_neck(t: Locations001) -> None:
    assert t.assess_wound("neck", CR, 4, V).injury == 6
    assert t.assess_wound("neck", COR, 4, V).injury == 6
    assert t.assess_wound("neck", CUT, 4, V).injury == 8
    assert t.assess_wound("neck", IMP, 4, V).injury == 8  # the usual x2
    assert any("decapitated" in e.text for e in t.assess_wound("neck", CUT, 4, V).effects)


def test_vitals(t: Locations001) -> None:
    for dt in (
        IMP,
        DamageType.SMALL_PIERCING,
        PI,
        DamageType.LARGE_PIERCING,
        DamageType.HUGE_PIERCING,
    ):
        assert t.assess_wound("vitals", dt, 3, V).multiplier == 3
    assert t.assess_wound("vitals", BURN, 3, V, tight_beam=True).multiplier == 2
    for bad in (CR, CUT):
        with pytest.raises(IllegalAttackError):
            t.assess_wound("vitals", bad, 3, V)
    with pytest.raises(IllegalAttackError):
        t.assess_wound("vitals", BURN, 3, V)  # not tight-beam
    a = t.assess_wound("vitals", IMP, 2, V)  # 6 > HP/3: knockdown roll
    assert a.roll_of(RollKind.KNOCKDOWN) is not None


def test_bullets_are_piercing_in_seed_001(t: Locations001) -> None:
    a = t.assess_wound("vitals", DamageType.BULLET, 3, V)
    assert a.multiplier == 3 and a.injury == 9


def test_groin(t: Locations001) -> None:
    a = t.assess_wound("groin", CR, 3, V)
    assert a.injury == 3 and a.shock_penalty == -6 and a.knockdown_modifier == -5
    assert t.assess_wound("groin", CR, 6, V).shock_penalty == -8  # doubled, at most -8
    assert t.assess_wound("groin", CUT, 2, V).shock_penalty == -3  # crushing only
    female = Victim(12, 11, male=False)
    a = t.assess_wound("groin", CR, 3, female)
    assert a.shock_penalty == -3 and a.knockdown_modifier == 0
    assert t.assess_wound("groin", IMP, 3, V).injury == 6  # otherwise a torso hit


@pytest.mark.parametrize(("key", "divisor"), [("arm", 2), ("leg", 2), ("hand", 3), ("foot", 3)])
def test_limbs(t: Locations001, key: str, divisor: int) -> None:
    for dt in (IMP, DamageType.LARGE_PIERCING, DamageType.HUGE_PIERCING):
        assert t.assess_wound(key, dt, 2, V).multiplier == 1
    assert t.assess_wound(key, CUT, 2, V).multiplier == F(3, 2)
    assert t.assess_wound(key, DamageType.SMALL_PIERCING, 4, V).injury == 2
    at = 12 // divisor
    assert t.assess_wound(key, CR, at, V).crippling is None
    a = t.assess_wound(key, CR, at + 4, V, side=BodySide.RIGHT)
    assert a.crippling is not None and a.crippling.side is BodySide.RIGHT
    assert a.injury == at + 4 and a.hp_loss == at + 1 and a.crippling.excess_lost == 3


def test_knockdown_roll_outcomes(t: Locations001) -> None:
    a = t.assess_wound("torso", CR, 7, V)  # major wound
    kd = a.roll_of(RollKind.KNOCKDOWN)
    assert kd is not None and kd.target == 11
    out = resolve_rolls(a, random.Random(0))
    assert out[0].roll is kd
    by_two = wound_from(a, resolve_rolls(a, _Scripted([4, 4, 5])))  # 13: fails by 2
    assert by_two.conditions == {Condition.STUNNED, Condition.KNOCKED_DOWN}
    by_five = wound_from(a, resolve_rolls(a, _Scripted([5, 5, 6])))  # 16: fails by 5
    assert Condition.UNCONSCIOUS in by_five.conditions
    high = t.assess_wound("torso", CR, 7, Victim(12, 11, pain=PainThreshold.HIGH))
    assert high.roll_of(RollKind.KNOCKDOWN).target == 14  # type: ignore[union-attr]
    assert high.shock_penalty == 0
    low = t.assess_wound("torso", CR, 3, Victim(12, 11, pain=PainThreshold.LOW))
    assert low.shock_penalty == -6
    assert t.assess_wound("torso", CR, 6, V).rolls == ()


class _Scripted(random.Random):
    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_fatigue_ignores_hit_location(t: Locations001) -> None:
    a = t.assess_wound("skull", DamageType.FATIGUE, 5, V)
    assert (a.location_dr, a.multiplier, a.injury, a.knockdown_modifier) == (0, 1, 5, 0)
    assert a.rolls == () and a.shock_penalty == 0
    assert not t.can_target("skull", DamageType.FATIGUE)


# --------------------------------------------------------------------------- chinks, large area


def test_chinks_halve_dr(t: Locations001) -> None:
    a = t.assess_wound("torso", IMP, 6, V, armor_dr=5, chink=True)
    assert a.effective_armor_dr == 2 and a.penetrating == 4 and a.injury == 8
    assert (
        t.assess_wound(
            "torso", BURN, 6, V, armor_dr=6, chink=True, tight_beam=True
        ).effective_armor_dr
        == 3
    )
    with pytest.raises(IllegalAttackError, match="chinks"):
        t.assess_wound("torso", CUT, 6, V, armor_dr=6, chink=True)
    a = t.assess_wound("skull", PI, 8, V, armor_dr=4, chink=True)  # 4/2 = 2, skull 2 more
    assert (a.effective_armor_dr, a.location_dr, a.penetrating) == (2, 2, 4)


def test_large_area_dr() -> None:
    assert large_area_dr(6, [2, 6, 4]) == 4
    assert large_area_dr(5, [0]) == 3  # 2.5 rounds up
    assert large_area_dr(3, [8]) == 3  # the torso counts as exposed
    assert large_area_dr(4, []) == 4


def test_large_area_location() -> None:
    assert large_area_location(["torso", "arm", "leg"]) == "torso"
    assert large_area_location(["hand"]) == "hand"


# --------------------------------------------------------------------------- injury tolerance


def test_diffuse(t: Locations001) -> None:
    v = tol(InjuryTolerance.DIFFUSE)
    assert t.assess_wound("skull", IMP, 8, v).injury == 1
    assert t.assess_wound("torso", CR, 8, v).injury == 2
    a = t.assess_wound("skull", CR, 8, v)
    assert a.knockdown_modifier == 0 and a.multiplier == 1
    a = t.assess_wound("eye", IMP, 5, v)  # 1 injury, still over 12/10? no
    assert a.injury == 1 and a.crippling is None
    a = t.assess_wound(
        "eye", IMP, 5, Victim(hp=5, ht=10, tolerances=frozenset({InjuryTolerance.DIFFUSE}))
    )
    assert a.crippling is not None  # eyes can still be crippled


def test_homogenous(t: Locations001) -> None:
    v = tol(InjuryTolerance.HOMOGENOUS)
    assert t.assess_wound("vitals", IMP, 6, v).multiplier == F(1, 2)
    assert t.assess_wound("torso", PI, 10, v).injury == 2
    assert t.assess_wound("skull", CR, 5, v).multiplier == 1  # no x4 ...
    assert t.assess_wound("skull", CR, 5, v).location_dr == 2  # ... but the skull's DR stays
    a = t.assess_wound("hand", CR, 9, v)
    assert a.crippling is not None  # limbs can still be crippled


def test_no_brain(t: Locations001) -> None:
    v = tol(InjuryTolerance.NO_BRAIN)
    a = t.assess_wound("skull", CR, 5, v)
    assert (a.location_dr, a.multiplier, a.injury, a.knockdown_modifier) == (2, 1, 3, 0)
    a = t.assess_wound("eye", IMP, 2, v)  # a face hit: impaling x2, knockdown -5
    assert a.multiplier == 2 and a.knockdown_modifier == -5 and a.crippling is not None


def test_no_vitals(t: Locations001) -> None:
    v = tol(InjuryTolerance.NO_VITALS)
    assert t.assess_wound("vitals", IMP, 3, v).multiplier == 2
    a = t.assess_wound("groin", CR, 3, v)
    assert a.shock_penalty == -3 and a.knockdown_modifier == 0
    with pytest.raises(IllegalAttackError):
        t.assess_wound("vitals", CR, 3, v)  # still only the attacks that can target it


def test_unliving(t: Locations001) -> None:
    v = tol(InjuryTolerance.UNLIVING)
    assert t.assess_wound("torso", IMP, 6, v).multiplier == 1
    assert t.assess_wound("torso", PI, 6, v).multiplier == F(1, 3)
    assert t.assess_wound("arm", DamageType.LARGE_PIERCING, 6, v).multiplier == F(1, 2)
    assert t.assess_wound("skull", PI, 6, v).multiplier == 4  # skull, eye, vitals keep theirs
    assert t.assess_wound("vitals", PI, 6, v).multiplier == 3
    assert t.assess_wound("torso", CUT, 6, v).multiplier == F(3, 2)


@pytest.mark.parametrize(
    ("trait", "gone"),
    [
        (InjuryTolerance.NO_EYES, {"eye"}),
        (InjuryTolerance.NO_HEAD, {"skull", "face", "eye"}),
        (InjuryTolerance.NO_NECK, {"neck"}),
    ],
)
def test_missing_locations(t: Locations001, trait: InjuryTolerance, gone: set[str]) -> None:
    v = tol(trait)
    for key in gone:
        assert not t.can_target(key, IMP, tolerances=v.tolerances)
        with pytest.raises(IllegalAttackError, match="no "):
            t.assess_wound(key, IMP, 3, v)
    r = t.roll_random(random.Random(3), covered=t.lacking_locations(v.tolerances))
    assert r.location not in gone


# --------------------------------------------------------------------------- protocol, loader


def _use(system: HitLocationSystem) -> tuple[str, Mapping[str, Fraction]]:
    roll = system.roll_random(random.Random(1))
    system.penalty(roll.location, shield_side=False, melee=True)
    system.assess_wound("neck", CUT, 3, V)
    return roll.location, system.exact_distribution()


def test_both_systems_serve_the_same_calls(t: Locations001) -> None:
    for system in (t, Tables().hit_location_table):
        where, dist = _use(system)
        assert where in dist and sum(dist.values()) == 1


def _data() -> dict[str, object]:
    loaded: dict[str, object] = json.loads(ASSET.read_text(encoding="utf-8"))
    return copy.deepcopy(loaded)


def test_loader_errors() -> None:
    assert parse_locations_001(_data()).system == "001"
    data = _data()
    rows = data["random_table"]
    assert isinstance(rows, list)
    rows.pop()
    with pytest.raises(DataError, match="0 rows for 17"):
        parse_locations_001(data)
    data = _data()
    data["wounding"] = {"cr": "1"}
    with pytest.raises(DataError, match="no multiplier"):
        parse_locations_001(data)
    data = _data()
    locs = data["locations"]
    assert isinstance(locs, dict)
    locs["arm"]["wound"]["cripple"]["divisor"] = 0
    with pytest.raises(DataError, match="divisor"):
        parse_locations_001(data)
    data = _data()
    data["from_above"] = {"leg": "wing"}
    with pytest.raises(DataError, match="wing"):
        parse_locations_001(data)
