"""Stances, pain thresholds, acrobatic dodges, defended body areas and fencing
parries (seed 000)."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import pytest

from hexmap import Handedness, Reach
from rules.battle.model import (
    DamageBase,
    DamageSpec,
    DamageType,
    Fighter,
    ParryClass,
    Shield,
    ShieldSize,
    Weapon,
    WeaponKind,
    WeaponMode,
)
from rules.core.citation import cite
from rules.core.errors import IllegalAttackError
from rules.sets.seed000.checks import RollKind, success_probability
from rules.sets.seed000.conditions import ConditionError
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import Attributes
from rules.sets.seed000.stances import (
    LOCATION_KEYS,
    BodyArea,
    BodySide,
    PainThreshold,
    Stance,
    acrobatic_dodge,
    acrobatic_expected_modifier,
    acrobatic_success_probability,
    acrobatics_skill_of,
    areas_covering,
    defended_area_modifier,
    dodge_probability_with_acrobatics,
    fencing_parry_allowed,
    free_parries_per_turn,
    locations_covered,
    scale_stun_penalty,
    stance_for,
    stance_geometry,
    stance_ruling,
)
from tests.rules.sheets import seed000_fighter

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "rulesets" / "000"
K = WeaponKind


def weapon(kind: WeaponKind, skill: str = "", *, two_handed: bool = False, key: str = "") -> Weapon:
    return Weapon(
        key=key or kind.value,
        name=kind.value.title(),
        kind=kind,
        skill=skill or kind.value.title(),
        modes=(
            WeaponMode("swing", DamageSpec(DamageBase.SWING, 0, DamageType.CUTTING), Reach.of(1)),
        ),
        parry=ParryClass.TWO_THIRDS,
        weight=3.0,
        two_handed=two_handed,
    )


def shield(size: ShieldSize) -> Shield:
    return Shield(size.value, f"{size.value} shield", size, pd=2, weight=8.0)


def fighter(
    *weapons: Weapon,
    shield_size: ShieldSize | None = None,
    fencing: bool = False,
    skills: dict[str, int] | None = None,
    encumbrance: int = 0,
    handedness: Handedness = Handedness.RIGHT,
) -> Fighter:
    return seed000_fighter(
        name="Test",
        attributes=Attributes(),
        hit_points=10,
        move=5,
        skills=skills or {},
        weapons=weapons,
        handedness=handedness,
        shield=None if shield_size is None else shield(shield_size),
        encumbrance=encumbrance,
        fencing=fencing,
    )


# ------------------------------------------------------------------ stances

SWORD = weapon(K.SWORD, "Broadsword")
RAPIER = weapon(K.RAPIER, "Fencing")
MAIN_GAUCHE = weapon(K.MAIN_GAUCHE, "Knife (Main-Gauche)")

STANCE_CASES: list[tuple[str, Weapon | None, ShieldSize | None, Weapon | None, Stance]] = [
    # Refused: rifle/long guns, bow, crossbow, weapon and shield, fencing alone,
    # sword without shield.
    ("rifle", weapon(K.GUN, "Guns (Rifle)", two_handed=True), None, None, Stance.REFUSED),
    ("shotgun", weapon(K.GUN, "Guns (Shotgun)"), None, None, Stance.REFUSED),
    ("two-handed gun", weapon(K.GUN, "Guns", two_handed=True), None, None, Stance.REFUSED),
    ("bow", weapon(K.BOW, "Bow", two_handed=True), None, None, Stance.REFUSED),
    ("crossbow", weapon(K.CROSSBOW, "Crossbow"), None, None, Stance.REFUSED),
    ("sword and shield", SWORD, ShieldSize.MEDIUM, None, Stance.REFUSED),
    ("axe and shield", weapon(K.AXE, "Axe/Mace"), ShieldSize.LARGE, None, Stance.REFUSED),
    ("spear and shield", weapon(K.SPEAR, "Spear"), ShieldSize.SMALL, None, Stance.REFUSED),
    ("rapier alone", RAPIER, None, None, Stance.REFUSED),
    ("saber alone", weapon(K.SABER, "Fencing"), None, None, Stance.REFUSED),
    ("rapier and small shield", RAPIER, ShieldSize.SMALL, None, Stance.REFUSED),
    ("sword alone", SWORD, None, None, Stance.REFUSED),
    (
        "greatsword",
        weapon(K.TWO_HEX_SWORD, "Two-Handed Sword", two_handed=True),
        None,
        None,
        Stance.REFUSED,
    ),
    # Open: fencing with buckler or two weapons, two-weapon, axe/mace, knife,
    # wrestling, pistol.
    ("rapier and buckler", RAPIER, ShieldSize.BUCKLER, None, Stance.OPEN),
    ("rapier and main-gauche", RAPIER, None, MAIN_GAUCHE, Stance.OPEN),
    ("two swords", SWORD, None, weapon(K.SWORD, "Shortsword", key="s2"), Stance.OPEN),
    ("axe", weapon(K.AXE, "Axe/Mace"), None, None, Stance.OPEN),
    ("mace", weapon(K.MACE, "Axe/Mace"), None, None, Stance.OPEN),
    ("knife", weapon(K.KNIFE, "Knife"), None, None, Stance.OPEN),
    ("wrestling", weapon(K.UNARMED, "Wrestling"), None, None, Stance.OPEN),
    ("bare hands", None, None, None, Stance.OPEN),
    ("pistol", weapon(K.GUN, "Guns (Pistol)"), None, None, Stance.OPEN),
    (
        "pistol in both hands",
        weapon(K.GUN, "Guns (Pistol)", two_handed=True),
        None,
        None,
        Stance.OPEN,
    ),
    # Others use either stance: treated as open.
    ("spear", weapon(K.SPEAR, "Spear", two_handed=True), None, None, Stance.OPEN),
    ("staff", weapon(K.STAFF, "Staff", two_handed=True), None, None, Stance.OPEN),
    ("flail", weapon(K.FLAIL, "Flail"), None, None, Stance.OPEN),
    (
        "polearm, shield slung",
        weapon(K.POLEARM, "Polearm", two_handed=True),
        ShieldSize.MEDIUM,
        None,
        Stance.OPEN,
    ),
]


@pytest.mark.parametrize(
    ("name", "used", "shield_size", "second", "expected"),
    STANCE_CASES,
    ids=[c[0] for c in STANCE_CASES],
)
def test_stance_per_seed_lists(
    name: str,
    used: Weapon | None,
    shield_size: ShieldSize | None,
    second: Weapon | None,
    expected: Stance,
) -> None:
    who = fighter(*(w for w in (used, second) if w is not None), shield_size=shield_size)
    ruling = stance_ruling(who, used, moving=False, off_hand_weapon=second)
    assert ruling.stance is expected
    assert ruling.reason
    assert ruling.citation == cite("000", "REFUSED VS. OPEN STANCES")
    assert stance_for(who, used, moving=False, off_hand_weapon=second) is expected


@pytest.mark.parametrize(
    ("name", "used", "shield_size", "second", "expected"),
    STANCE_CASES,
    ids=[c[0] for c in STANCE_CASES],
)
def test_moving_is_always_open(
    name: str,
    used: Weapon | None,
    shield_size: ShieldSize | None,
    second: Weapon | None,
    expected: Stance,
) -> None:
    who = fighter(shield_size=shield_size)
    assert stance_for(who, used, moving=True, off_hand_weapon=second) is Stance.OPEN


def test_stance_geometry() -> None:
    right = stance_geometry(Stance.REFUSED, Handedness.RIGHT)
    assert (right.near_side, right.far_side, right.sides_differ) == (
        BodySide.RIGHT,
        BodySide.LEFT,
        True,
    )
    left = stance_geometry(Stance.REFUSED, Handedness.LEFT)
    assert (left.near_side, left.far_side) == (BodySide.LEFT, BodySide.RIGHT)
    for hand in Handedness:
        open_ = stance_geometry(Stance.OPEN, hand)
        assert (open_.near_side, open_.far_side, open_.sides_differ) == (None, None, False)


# ---------------------------------------------------------- pain threshold


@pytest.mark.parametrize(
    ("penalty", "threshold", "expected"),
    [
        (-4, PainThreshold.NORMAL, -4),
        (-4, PainThreshold.HIGH, -2),
        (-3, PainThreshold.HIGH, -1),  # toward zero
        (-1, PainThreshold.HIGH, 0),
        (0, PainThreshold.HIGH, 0),
        (5, PainThreshold.HIGH, 2),  # positive magnitudes too
        (-4, PainThreshold.LOW, -8),
        (-3, PainThreshold.LOW, -6),
        (3, PainThreshold.LOW, 6),
        (0, PainThreshold.LOW, 0),
    ],
)
def test_scale_stun_penalty(penalty: int, threshold: PainThreshold, expected: int) -> None:
    assert scale_stun_penalty(penalty, threshold) == expected


# --------------------------------------------------------- acrobatic dodge


class Scripted(random.Random):
    """A Random whose randint returns the given faces in order."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self._faces = iter(faces)

    def randint(self, a: int, b: int) -> int:
        face = next(self._faces)
        assert a <= face <= b
        return face


@pytest.mark.parametrize(
    ("skill", "faces", "succeeded", "value"),
    [
        (12, (4, 4, 4), True, 2),
        (12, (4, 4, 5), False, -4),
        (20, (6, 6, 5), False, -4),  # 17 always fails
        (2, (1, 1, 2), True, 2),  # 4 always succeeds
        (2, (1, 2, 2), False, -4),
    ],
)
def test_acrobatic_dodge_roll(
    skill: int, faces: tuple[int, int, int], succeeded: bool, value: int
) -> None:
    result = acrobatic_dodge(skill, Scripted(faces))
    assert result.succeeded is succeeded
    assert result.roll.dice == faces and result.roll.total == sum(faces)
    assert result.modifier.value == value
    assert result.modifier.citation == cite("000", "ACROBATIC DODGE")


@pytest.mark.parametrize(
    ("faces", "dodge", "value"),
    [
        ((3, 3, 3), 10, 2),
        ((3, 3, 3), 14, 2),
        ((3, 3, 3), 15, 1),
        ((3, 3, 3), 16, 0),
        ((3, 3, 3), 17, 0),
        ((6, 6, 6), 16, -4),  # the penalty always applies in full
        ((6, 6, 6), 8, -4),
    ],
)
def test_acrobatic_bonus_never_lifts_dodge_above_16(
    faces: tuple[int, int, int], dodge: int, value: int
) -> None:
    result = acrobatic_dodge(14, Scripted(faces))
    applied = result.dodge_modifier(dodge)
    assert applied.value == value
    if 0 <= value < 2:
        assert "capped" in applied.reason


def test_acrobatic_dodge_limits() -> None:
    with pytest.raises(IllegalAttackError, match="no default"):
        acrobatic_dodge(None, random.Random(1))
    with pytest.raises(IllegalAttackError, match="one acrobatic dodge"):
        acrobatic_dodge(14, random.Random(1), used_this_turn=True)
    assert acrobatics_skill_of(fighter(skills={"Acrobatics": 13})) == 13
    assert acrobatics_skill_of(fighter()) is None  # no DX-5 default here


def _success_3d6(total: int, target: int) -> bool:
    # Base 3d6 roll-under: 3-4 always succeed, 17-18 always fail.
    return total <= 4 or (total <= 16 and total <= target)


THREE_D6 = list(itertools.product(range(1, 7), repeat=3))


def _enumerated_success(skill: int) -> Fraction:
    return Fraction(sum(_success_3d6(sum(d), skill) for d in THREE_D6), len(THREE_D6))


@pytest.mark.parametrize("skill", range(-2, 25))
def test_acrobatic_probability_by_enumeration(skill: int) -> None:
    assert acrobatic_success_probability(skill) == _enumerated_success(skill)
    p = _enumerated_success(skill)
    assert acrobatic_expected_modifier(skill) == 2 * p - 4 * (1 - p)


def test_acrobatic_probability_landmarks() -> None:
    assert acrobatic_success_probability(10) == Fraction(1, 2)
    assert acrobatic_success_probability(3) == Fraction(1, 54)  # 3 or 4: 4 of 216
    assert acrobatic_success_probability(16) == Fraction(53, 54)  # only 17, 18 fail
    assert acrobatic_success_probability(30) == Fraction(53, 54)
    assert acrobatic_expected_modifier(10) == -1


@pytest.mark.parametrize(("dodge", "acrobatics"), [(8, 12), (10, 10), (15, 14), (16, 16), (5, 3)])
def test_dodge_with_acrobatics_by_enumeration(dodge: int, acrobatics: int) -> None:
    wins = 0
    for acro in THREE_D6:
        ok = _success_3d6(sum(acro), acrobatics)
        target = dodge + (min(2, max(0, 16 - dodge)) if ok else -4)
        wins += sum(_success_3d6(sum(d), target) for d in THREE_D6)
    expected = Fraction(wins, len(THREE_D6) ** 2)
    assert dodge_probability_with_acrobatics(dodge, acrobatics) == expected


def test_acrobatics_at_dodge_16_can_only_hurt() -> None:
    plain = success_probability(16, RollKind.DEFENSE)
    assert dodge_probability_with_acrobatics(16, 18) < plain


# ----------------------------------------------------- defended body area

H, LA, RA, LL, RL, AB, CH = (
    BodyArea.HEAD,
    BodyArea.LEFT_ARM,
    BodyArea.RIGHT_ARM,
    BodyArea.LEFT_LEG,
    BodyArea.RIGHT_LEG,
    BodyArea.ABDOMEN,
    BodyArea.CHEST,
)

COVERAGE = {
    # head, including face, neck, brain, nose, ears, jaw and eyes
    "head": {H}, "face": {H}, "neck": {H}, "brain": {H}, "nose": {H}, "ear": {H},
    "ears": {H}, "jaw": {H}, "eyes": {H}, "eye_slits": {H},
    # arms, including elbow and hand (right-handed: weapon/near side is the right)
    "left_arm": {LA}, "left_elbow": {LA}, "left_hand": {LA},
    "right_arm": {RA}, "right_elbow": {RA}, "right_hand": {RA},
    "near_arm": {RA}, "weapon_hand": {RA}, "far_elbow": {LA}, "shield_hand": {LA},
    # legs, including knee and feet
    "left_leg": {LL}, "left_thigh": {LL}, "left_knee": {LL}, "left_shin": {LL},
    "left_foot": {LL}, "far_knee": {LL}, "near_thigh": {RL}, "near_foot": {RL},
    "right_instep": {RL},
    # abdomen including the groin, not the kidneys; chest with shoulders and vitals
    "abdomen": {AB}, "groin": {AB}, "pelvis": {AB}, "kidneys": set(),
    "chest": {CH}, "shoulder": {CH}, "vitals": {CH}, "armpit": {CH},
    # the unaimed torso is the chest or the abdomen; a weapon is no body part
    "torso": {CH, AB}, "weapon": set(),
}  # fmt: skip


@pytest.mark.parametrize(("key", "areas"), COVERAGE.items())
def test_area_coverage(key: str, areas: set[BodyArea]) -> None:
    assert areas_covering(key) == areas


def test_location_keys_normalised_and_seed_wording() -> None:
    assert areas_covering("Shield Hand") == {LA}
    assert areas_covering("Far leg knee") == {LL}
    assert areas_covering("weapon arm") == {RA}
    assert areas_covering("Eye-slits") == {H}
    assert areas_covering("hand") == {RA}  # a bare limb part is the near one
    with pytest.raises(ConditionError):
        areas_covering("tail")
    with pytest.raises(ConditionError):
        areas_covering("near_arm_thigh")


def test_handedness_places_near_and_far() -> None:
    assert areas_covering("near_arm", handedness=Handedness.LEFT) == {LA}
    assert areas_covering("shield_knee", handedness=Handedness.LEFT) == {RL}
    assert areas_covering("left_arm", handedness=Handedness.LEFT) == {LA}


def test_every_known_key_resolves_and_coverage_is_consistent() -> None:
    for key in LOCATION_KEYS:
        areas_covering(key)
    for area in BodyArea:
        covered = locations_covered(area)
        assert area.value in covered or area is BodyArea.HEAD
        assert all(area in areas_covering(k) for k in covered)
    assert "kidneys" not in locations_covered(AB)


def test_hit_location_table_keys_are_understood() -> None:
    """Every location of seed 000's table (the aims of the attack pane)."""
    data = json.loads((ASSETS / "hit_locations.json").read_text(encoding="utf-8"))
    keys = list(data["locations"])
    assert len(keys) == 34
    for key in keys:
        areas_covering(key)


@pytest.mark.parametrize("defense", ["block", "parry", DefenseKind.BLOCK, DefenseKind.PARRY])
@pytest.mark.parametrize(
    ("area", "key", "value"),
    [
        (H, "eyes", 2),
        (H, "neck", 2),
        (H, "vitals", -1),
        (CH, "shoulder", 2),
        (CH, "torso", 2),
        (CH, None, 2),  # unaimed: goes to the torso
        (AB, None, 2),
        (H, None, -1),
        (AB, "groin", 2),
        (AB, "kidneys", -1),
        (CH, "kidneys", -1),
        (RL, "near_knee", 2),
        (RL, "near_foot", 1),  # feet at a penalty
        (RL, "right_instep", 1),
        (LL, "near_foot", -1),
        (RA, "near_hand", 2),
        (LA, "near_hand", -1),
    ],
)
def test_defended_area_modifier(
    defense: str | DefenseKind, area: BodyArea, key: str | None, value: int
) -> None:
    mod = defended_area_modifier(area, key, defense)  # type: ignore[arg-type]
    assert mod is not None
    assert mod.value == value
    assert mod.citation == cite("000", "DEFENDING A SPECIFIC BODY AREA")
    assert area.label in mod.reason


def test_defended_area_no_modifier_cases() -> None:
    assert defended_area_modifier(None, "head", "parry") is None
    assert defended_area_modifier(H, "head", "dodge") is None
    assert defended_area_modifier(H, "head", DefenseKind.DODGE) is None
    assert defended_area_modifier(H, "weapon", "parry") is None
    with pytest.raises(ConditionError):
        defended_area_modifier(H, "head", "duck")  # type: ignore[arg-type]
    with pytest.raises(ConditionError):
        defended_area_modifier(H, "tail", "block")


def test_defended_area_left_handed() -> None:
    mod = defended_area_modifier(LA, "weapon_hand", "parry", handedness=Handedness.LEFT)
    assert mod is not None and mod.value == 2


# --------------------------------------------------------- fencing parries


@pytest.mark.parametrize(
    ("who", "used", "allowed"),
    [
        (fighter(RAPIER, fencing=True), RAPIER, True),
        (fighter(weapon(K.SABER, "Fencing"), fencing=True), weapon(K.SABER, "Fencing"), True),
        (fighter(weapon(K.FOIL, "Fencing"), fencing=True), weapon(K.FOIL, "Fencing"), True),
        (fighter(RAPIER, skills={"Fencing": 14}), RAPIER, True),  # the skill on the sheet
        (fighter(RAPIER), RAPIER, False),  # no Fencing skill
        (fighter(SWORD, fencing=True), SWORD, False),  # not a fencing weapon
        (fighter(RAPIER, fencing=True, shield_size=ShieldSize.BUCKLER), RAPIER, True),
        (fighter(RAPIER, fencing=True, shield_size=ShieldSize.SMALL), RAPIER, True),
        (fighter(RAPIER, fencing=True, shield_size=ShieldSize.CLOAK), RAPIER, True),
        (fighter(RAPIER, fencing=True, shield_size=ShieldSize.MEDIUM), RAPIER, False),
        (fighter(RAPIER, fencing=True, shield_size=ShieldSize.LARGE), RAPIER, False),
        (fighter(RAPIER, fencing=True, shield_size=ShieldSize.FORCE), RAPIER, False),
        (fighter(RAPIER, fencing=True, encumbrance=1), RAPIER, True),  # light
        (fighter(RAPIER, fencing=True, encumbrance=2), RAPIER, False),
        (fighter(RAPIER, MAIN_GAUCHE, fencing=True), MAIN_GAUCHE, True),
        (fighter(MAIN_GAUCHE, fencing=True), MAIN_GAUCHE, False),  # no blade beside it
        (fighter(RAPIER, MAIN_GAUCHE, fencing=True, encumbrance=3), MAIN_GAUCHE, False),
        (fighter(RAPIER, weapon(K.KNIFE), fencing=True), weapon(K.KNIFE), False),
    ],
)
def test_fencing_parry_allowed(who: Fighter, used: Weapon, allowed: bool) -> None:
    assert fencing_parry_allowed(who, used) is allowed


def test_free_parries_per_turn() -> None:
    assert free_parries_per_turn(False) == 2
    assert free_parries_per_turn(True) == 4
