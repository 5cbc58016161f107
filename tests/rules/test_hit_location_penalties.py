"""Seed 000: the penalty to hit every aimable location, near misses and
missing a specific location."""

from __future__ import annotations

import pytest

from rules.battle.model import DamageType
from rules.core.citation import cite
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import total
from rules.sets.seed000.hit_location import HitLocationTable
from rules.sets.seed000.tables import Tables

# key -> (penalty with no shield on that side, penalty with a shield there), melee off.
PENALTIES = {
    "neck": (-5, -5),
    "brain": (-7, -7),
    "head": (-5, -5),
    "face": (-5, -5),
    "jaw": (-6, -6),
    "eyes": (-9, -9),
    "eyes_eyeslits": (-10, -10),
    "nose": (-7, -7),
    "ear": (-7, -7),
    "far_arm": (-2, -4),
    "far_elbow": (-5, -6),
    "near_hand": (-4, -4),
    "far_hand": (-4, -5),
    "shield_hand": (-4, -8),
    "near_arm": (-2, -2),
    "near_elbow": (-5, -5),
    "chest": (-1, -1),
    "vitals": (-3, -3),
    "shoulder": (-1, -1),
    "armpit": (-5, -5),
    "armpit_vitals": (-10, -10),
    "abdomen": (-1, -1),
    "pelvis": (-1, -1),
    "groin": (-5, -5),  # from the front
    "kidneys": (-5, -5),  # from the side or back
    "far_thigh": (-2, -3),
    "far_shin": (-2, -3),
    "far_knee": (-4, -5),
    "near_thigh": (-2, -2),
    "near_shin": (-2, -2),  # printed "Far leg shin -3(-2)" under 13-14: read as near
    "near_knee": (-4, -4),
    "near_foot": (-4, -4),
    "far_foot": (-4, -5),
    "instep": (-6, -6),
}
HANDS = {"near_hand", "far_hand", "shield_hand"}


@pytest.fixture(scope="module")
def table() -> HitLocationTable:
    return Tables().hit_location_table


def test_every_location_is_listed(table: HitLocationTable) -> None:
    assert set(table.locations) == set(PENALTIES)


@pytest.mark.parametrize("key", sorted(PENALTIES))
def test_penalty_without_and_with_shield(table: HitLocationTable, key: str) -> None:
    plain, shielded = PENALTIES[key]
    from_front = key != "kidneys"
    got = table.penalty(key, shield_side=False, melee=False, from_front=from_front)
    assert total(got) == plain
    got = table.penalty(key, shield_side=True, melee=False, from_front=from_front)
    assert total(got) == shielded
    melee = table.penalty(key, shield_side=True, melee=True, from_front=from_front)
    assert total(melee) == shielded - (2 if key in HANDS else 0)


def test_penalties_are_itemised_with_citations(table: HitLocationTable) -> None:
    mods = table.penalty("shield_hand", shield_side=True, melee=True)
    assert [m.value for m in mods] == [-4, -4, -2]
    assert mods[0].citation == cite("000", "HIT PENALTY")
    assert mods[1].citation == cite("000", "RANDOM BODY HIT note 9")
    assert mods[2].citation == cite("000", "HITTING HANDS IN MELEE")


def test_groin_from_side_or_rear_doubles_and_kidneys_from_front(table: HitLocationTable) -> None:
    assert total(table.penalty("groin", shield_side=False, melee=True, from_front=False)) == -10
    rear = table.penalty("groin", shield_side=False, melee=True, from_front=False)
    assert rear[-1].citation == cite("000", "RANDOM BODY HIT note 20")
    assert total(table.penalty("kidneys", shield_side=False, melee=True, from_front=True)) == -10


def test_torso_and_chest_have_no_melee_extra(table: HitLocationTable) -> None:
    assert total(table.penalty("chest", shield_side=True, melee=True)) == -1


def test_fleeting_target_doubles(table: HitLocationTable) -> None:
    mods = table.penalty("near_hand", shield_side=False, melee=True, fleeting=True)
    assert total(mods) == -12
    assert mods[-1].citation == cite("000", "RANDOM HIT LOCATION")


def test_armor_on_a_location_is_three_harder(table: HitLocationTable) -> None:
    mods = table.armor_penalty("near_arm", shield_side=False, melee=True)
    assert total(mods) == -5
    assert mods[-1].citation == cite("000", "RANDOM BODY HIT note 26")
    assert table.cuts_armor_straps(DamageType.CUTTING, 2)
    assert not table.cuts_armor_straps(DamageType.CUTTING, 1)
    assert not table.cuts_armor_straps(DamageType.CRUSHING, 6)


def test_unknown_location(table: HitLocationTable) -> None:
    with pytest.raises(IllegalAttackError, match="unknown hit location"):
        table.penalty("tail", shield_side=False, melee=True)


def test_shield_pd_doubling(table: HitLocationTable) -> None:
    assert table.shield_pd_factor("chest", swung=True) == 2
    assert table.shield_pd_factor("chest", swung=False) == 1
    assert table.shield_pd_factor("vitals", swung=True) == 2
    assert table.shield_pd_factor("far_arm", swung=False) == 2
    assert table.shield_pd_factor("shield_hand", swung=False) == 2
    assert table.shield_pd_factor("near_arm", swung=True) == 1


# --------------------------------------------------------------------------- misses


@pytest.mark.parametrize("key", ["head", "brain"])
def test_swung_head_shot_missing_by_one_hits_the_shoulder(
    table: HitLocationTable, key: str
) -> None:
    assert table.near_miss(key, -1, DamageType.CUTTING, swung=True) == "shoulder"
    assert table.near_miss(key, -2, DamageType.CUTTING, swung=True) is None
    assert table.near_miss(key, -1, DamageType.IMPALING, swung=False) is None


@pytest.mark.parametrize("kind", [DamageType.IMPALING, DamageType.BULLET, DamageType.PIERCING])
def test_vitals_shot_missing_by_one_hits_the_shoulder(
    table: HitLocationTable, kind: DamageType
) -> None:
    assert table.near_miss("vitals", -1, kind, swung=False) == "shoulder"


def test_vitals_near_miss_needs_impaling_or_bullet(table: HitLocationTable) -> None:
    assert table.near_miss("vitals", -1, DamageType.CRUSHING, swung=True) is None
    assert table.near_miss("face", -1, DamageType.CUTTING, swung=True) is None
    assert table.near_miss("brain", 0, DamageType.CUTTING, swung=True) is None


@pytest.mark.parametrize(
    ("aimed", "hit"),
    [
        ("eyes", "head"),
        ("ear", "head"),
        ("neck", "head"),
        ("near_hand", "near_arm"),
        ("far_elbow", "far_arm"),
        ("shield_hand", "far_arm"),
        ("far_knee", "far_thigh"),
        ("near_foot", "near_thigh"),
        ("instep", "near_thigh"),
        ("vitals", "shoulder"),
        ("groin", "shoulder"),
        ("armpit", "shoulder"),
    ],
)
def test_missed_specific_location_hits_the_general_area(
    table: HitLocationTable, aimed: str, hit: str
) -> None:
    assert table.missed_specific_location(aimed) == hit


def test_missed_only_by_location(table: HitLocationTable) -> None:
    # Skill 12 aimed at -5 (effective 7): rolls 8..12 missed only because of the aim.
    assert table.missed_only_by_location(8, 7, -5)
    assert table.missed_only_by_location(12, 7, -5)
    assert not table.missed_only_by_location(13, 7, -5)
    assert not table.missed_only_by_location(7, 7, -5)


def test_hits_mount_or_neighbour(table: HitLocationTable) -> None:
    assert table.hits_mount_or_neighbour(9, 14)
    assert not table.hits_mount_or_neighbour(10, 14)
    assert table.hits_mount_or_neighbour(6, 6) and not table.hits_mount_or_neighbour(7, 6)
