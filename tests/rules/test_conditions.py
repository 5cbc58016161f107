"""Adverse combat conditions and postures (000 ADVERSE COMBAT CONDITIONS)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules.battle.model import Shield, ShieldSize
from rules.core.citation import Citation, cite
from rules.core.errors import DataError, RulesError
from rules.core.modifiers import total
from rules.sets.seed000.conditions import (
    LARGE_SHIELD_SWING_PENALTY,
    MINIMUM_ST_PENALTY_PER_POINT,
    OFF_HAND_PENALTY,
    ConditionCatalog,
    ConditionError,
    ConditionSide,
    ModifierRange,
    Posture,
    PostureTable,
    ProneCover,
    SelectedCondition,
    large_shield_modifier,
    minimum_st_modifier,
    off_hand_modifier,
    parse_condition_catalog,
    parse_posture_table,
    posture_modifiers,
)
from rules.sets.seed000.tables import Tables

ASSETS = Path(__file__).resolve().parents[2] / "assets" / "rulesets" / "000"
ADVERSE = cite("000", "ADVERSE COMBAT CONDITIONS")


def raw(name: str) -> Any:
    return json.loads((ASSETS / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def catalog() -> ConditionCatalog:
    return parse_condition_catalog(raw("adverse_conditions.json"))


@pytest.fixture(scope="module")
def postures() -> PostureTable:
    return parse_posture_table(raw("postures.json"))


S = SelectedCondition

# (low, high, default): None low = open-ended, None default = the GM must pick.
Span = tuple[int | None, int, int | None]


def fixed(v: int) -> Span:
    return (v, v, v)


# The seed's attacker's situation list: key -> (melee, ranged).
ATTACKER: dict[str, tuple[Span | None, Span | None]] = {
    "bad_light": ((-9, -1, None), (-9, -1, None)),
    "total_darkness": (fixed(-10), fixed(-10)),
    "bad_footing": ((None, -1, None), (None, -1, None)),
    "in_water": ((-6, -1, None), (-6, -1, None)),
    "swimming": (fixed(-6), fixed(-6)),
    "strange_position": ((None, -1, None), (None, -1, None)),
    "blind": (fixed(-6), fixed(-6)),
    "blinded_suddenly": (fixed(-10), fixed(-10)),
    "one_eye": (fixed(-1), fixed(-3)),
    "clothes_on_fire": ((-10, -2, None), (-10, -2, None)),
    "hands_and_knees": (fixed(-4), fixed(-4)),
    "crawling_on_belly": (fixed(-8), fixed(-8)),
    "defensive_crouch": (fixed(0), fixed(0)),
    "deep_crouch": (fixed(-2), fixed(-2)),
    "sitting_on_ground": (fixed(-3), fixed(-3)),
    "sitting_in_chair": (fixed(-2), fixed(-2)),
    "off_hand": ((-4, 0, -4), (-4, 0, -4)),
    "large_shield": (fixed(-2), None),
    "under_minimum_st": ((None, -1, None), (None, -1, None)),
    "on_horseback": ((-4, 0, -4), (-4, 0, -4)),
    "in_vehicle": ((-4, -1, None), (-4, -1, None)),
    "two_weapons": ((-4, 0, -4), (-4, 0, -4)),
}

# The seed's defender's situation list.
DEFENDER: dict[str, tuple[Span | None, Span | None]] = {
    "erratic_movement": ((-7, -1, None), (-7, -1, None)),
    "inanimate": (fixed(4), fixed(4)),
    "unaware_moving": (fixed(0), fixed(0)),
    "stationary": (fixed(4), fixed(4)),
    "target_defensive_crouch": (fixed(-1), fixed(-1)),
    "target_deep_crouch": (fixed(-1), fixed(-2)),
    "target_kneeling": (None, fixed(-2)),
    "target_sitting_in_chair": (None, fixed(-2)),
    "target_sitting_on_ground": (None, fixed(-2)),
    "target_hands_and_knees": (None, fixed(-3)),
    "target_prone_head_up": (None, fixed(-4)),
    "target_prone_head_up_cover": (None, fixed(-5)),
    "target_prone_head_down_cover": (None, fixed(-7)),
}


def as_span(r: ModifierRange | None) -> Span | None:
    return None if r is None else (r.low, r.high, r.default)


# ------------------------------------------------------------ seed values


def test_catalog_lists_exactly_the_seed_situations(catalog: ConditionCatalog) -> None:
    assert [c.key for c in catalog.attacker_conditions] == list(ATTACKER)
    assert [c.key for c in catalog.defender_conditions] == list(DEFENDER)
    assert all(c.side is ConditionSide.ATTACKER for c in catalog.attacker_conditions)
    assert all(c.side is ConditionSide.DEFENDER for c in catalog.defender_conditions)


@pytest.mark.parametrize("key", [*ATTACKER, *DEFENDER])
def test_condition_value_or_range_matches_seed(catalog: ConditionCatalog, key: str) -> None:
    expected = {**ATTACKER, **DEFENDER}[key]
    c = catalog.get(key)
    assert (as_span(c.melee), as_span(c.ranged)) == expected
    assert c.citation == ADVERSE
    assert c.label and c.note


def test_flags_match_seed(catalog: ConditionCatalog) -> None:
    def keys(pred: Any) -> set[str]:
        return {c.key for c in catalog.conditions if pred(c)}

    assert keys(lambda c: c.removes_active_defenses) == {
        "inanimate",
        "unaware_moving",
        "stationary",
    }
    assert keys(lambda c: c.swinging_only) == {"large_shield"}
    assert keys(lambda c: c.aim_cancels_for_missiles) == {"bad_footing"}
    assert keys(lambda c: c.automatic) == {"off_hand", "large_shield", "under_minimum_st"}


def test_describe(catalog: ConditionCatalog) -> None:
    assert catalog.get("bad_light").describe() == "-1 to -9"
    assert catalog.get("bad_footing").describe() == "-1 or worse"
    assert catalog.get("one_eye").describe() == "-1 melee, -3 ranged"
    assert catalog.get("large_shield").describe() == "-2 swinging"
    assert catalog.get("inanimate").describe() == "+4"
    assert catalog.get("target_kneeling").describe() == "-2 ranged"


def test_the_ruleset_reads_the_assets(catalog: ConditionCatalog, postures: PostureTable) -> None:
    tables = Tables()
    assert tables.adverse_conditions == catalog and tables.postures == postures


# -------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("picks", "message"),
    [
        ([S("moonlight")], "no adverse condition"),
        ([S("blind"), S("blind")], "selected twice"),
        ([S("bad_light", -2), S("total_darkness")], "exclude each other"),
        ([S("blind"), S("one_eye")], "exclude each other"),
        ([S("in_water", -2), S("swimming")], "exclude each other"),
        ([S("deep_crouch"), S("sitting_in_chair")], "exclude each other"),
        ([S("on_horseback"), S("in_vehicle", -1)], "exclude each other"),
        ([S("inanimate"), S("stationary")], "exclude each other"),
        ([S("target_kneeling"), S("target_prone_head_up")], "exclude each other"),
        ([S("bad_light")], "needs a value"),
        ([S("erratic_movement")], "needs a value"),
        ([S("under_minimum_st")], "needs a value"),
        ([S("bad_light", -10)], "outside"),
        ([S("bad_light", 0)], "outside"),
        ([S("in_water", -7)], "outside"),
        ([S("clothes_on_fire", -1)], "outside"),
        ([S("bad_footing", 0)], "outside"),
        ([S("blind", -5)], "outside"),
        ([S("one_eye", -1)], "outside"),  # fixed, and different by attack kind
        ([S("off_hand", -5)], "outside"),
        ([S("off_hand", 1)], "outside"),
        ([S("inanimate", 3)], "outside"),
        ([S("bad_light", True)], "integer"),
    ],
)
def test_invalid_selections_raise(
    catalog: ConditionCatalog, picks: list[SelectedCondition], message: str
) -> None:
    with pytest.raises(ConditionError, match=message):
        catalog.validate(picks)


def test_condition_error_is_a_rules_error() -> None:
    assert issubclass(ConditionError, RulesError)
    assert issubclass(ConditionError, ValueError)


def test_valid_selections(catalog: ConditionCatalog) -> None:
    resolved = catalog.validate(
        [S("bad_footing", -20), S("bad_light", -9), S("off_hand"), S("blind", -6)]
    )
    assert [(c.key, v) for c, v in resolved] == [
        ("bad_footing", -20),  # open-ended: the GM may go as far as he likes
        ("bad_light", -9),
        ("off_hand", None),
        ("blind", -6),  # the fixed value itself is accepted
    ]
    # An attacker's and a defender's posture together are fine.
    catalog.validate([S("deep_crouch"), S("target_deep_crouch")])


# --------------------------------------------------- itemised modifiers


def test_itemised_modifiers_melee_swing(catalog: ConditionCatalog) -> None:
    mods = catalog.condition_modifiers(
        [S("bad_light", -3), S("large_shield"), S("one_eye"), S("target_kneeling")],
        melee=True,
        swinging=True,
    )
    assert [(m.value, m.reason) for m in mods] == [
        (-3, "Bad light"),
        (-2, "Large shield"),
        (-1, "One eye"),
    ]  # a kneeling target is no harder to hit in melee: left out
    assert all(m.citation == ADVERSE for m in mods)
    assert total(mods) == -6


def test_swinging_only_condition_skips_thrusts_and_ranged(catalog: ConditionCatalog) -> None:
    assert catalog.condition_modifiers([S("large_shield")], melee=True, swinging=False) == ()
    assert catalog.condition_modifiers([S("large_shield")], melee=False, swinging=False) == ()


def test_melee_and_ranged_values_differ(catalog: ConditionCatalog) -> None:
    picks = [S("one_eye"), S("target_deep_crouch")]
    melee = catalog.condition_modifiers(picks, melee=True, swinging=False)
    ranged = catalog.condition_modifiers(picks, melee=False, swinging=False)
    assert [m.value for m in melee] == [-1, -1]
    assert [m.value for m in ranged] == [-3, -2]


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("target_kneeling", -2),
        ("target_sitting_in_chair", -2),
        ("target_sitting_on_ground", -2),
        ("target_hands_and_knees", -3),
        ("target_prone_head_up", -4),
        ("target_prone_head_up_cover", -5),
        ("target_prone_head_down_cover", -7),
    ],
)
def test_ranged_only_target_postures(catalog: ConditionCatalog, key: str, value: int) -> None:
    assert catalog.condition_modifiers([S(key)], melee=True, swinging=True) == ()
    (mod,) = catalog.condition_modifiers([S(key)], melee=False, swinging=False)
    assert mod.value == value


def test_bad_footing_aim_exception(catalog: ConditionCatalog) -> None:
    pick = [S("bad_footing", -2)]
    (melee,) = catalog.condition_modifiers(pick, melee=True, swinging=False)
    (unaimed,) = catalog.condition_modifiers(pick, melee=False, swinging=False)
    (aimed,) = catalog.condition_modifiers(pick, melee=False, swinging=False, ranged_aimed=True)
    assert melee.value == unaimed.value == -2
    assert aimed.value == 0 and "aimed" in aimed.reason
    # Aiming cancels nothing else.
    (light,) = catalog.condition_modifiers(
        [S("bad_light", -4)], melee=False, swinging=False, ranged_aimed=True
    )
    assert light.value == -4


def test_defaults_and_zero_values_are_itemised(catalog: ConditionCatalog) -> None:
    mods = catalog.condition_modifiers(
        [S("off_hand"), S("two_weapons", -2), S("defensive_crouch"), S("unaware_moving")],
        melee=True,
        swinging=False,
    )
    assert [(m.reason, m.value) for m in mods] == [
        ("Off-hand attack", -4),
        ("Using two weapons at once", -2),
        ("Defensive crouch", 0),
        ("Unaware target, moving", 0),
    ]


def test_bonuses(catalog: ConditionCatalog) -> None:
    (mod,) = catalog.condition_modifiers([S("stationary")], melee=False, swinging=False)
    assert mod.value == 4


@pytest.mark.parametrize(
    ("melee", "swinging", "aimed"),
    [(False, True, False), (True, False, True), (True, True, True)],
)
def test_impossible_attack_descriptions(
    catalog: ConditionCatalog, melee: bool, swinging: bool, aimed: bool
) -> None:
    with pytest.raises(ConditionError):
        catalog.condition_modifiers([], melee=melee, swinging=swinging, ranged_aimed=aimed)


def test_condition_modifiers_validates(catalog: ConditionCatalog) -> None:
    with pytest.raises(ConditionError):
        catalog.condition_modifiers([S("bad_light")], melee=True, swinging=False)


def test_removes_active_defenses(catalog: ConditionCatalog) -> None:
    assert not catalog.removes_active_defenses([])
    assert not catalog.removes_active_defenses([S("erratic_movement", -3), S("blind")])
    for key in ("inanimate", "unaware_moving", "stationary"):
        assert catalog.removes_active_defenses([S("bad_light", -2), S(key)])
    with pytest.raises(ConditionError):
        catalog.removes_active_defenses([S("nope")])


def test_automatic_constants_match_catalog(catalog: ConditionCatalog) -> None:
    off = catalog.get("off_hand").melee
    assert off is not None and off.default == OFF_HAND_PENALTY
    shield = catalog.get("large_shield").melee
    assert shield is not None and shield.default == LARGE_SHIELD_SWING_PENALTY
    st = catalog.get("under_minimum_st").melee
    assert st is not None and st.high == MINIMUM_ST_PENALTY_PER_POINT


@pytest.mark.parametrize(
    ("st", "min_st", "value"), [(10, 10, None), (12, 10, None), (9, 10, -1), (7, 11, -4)]
)
def test_minimum_st(st: int, min_st: int, value: int | None) -> None:
    mod = minimum_st_modifier(st, min_st)
    assert (None if mod is None else mod.value) == value
    if mod is not None:
        assert mod.citation == ADVERSE
        assert str(min_st) in mod.reason


@pytest.mark.parametrize(
    ("off_hand", "ambidextrous", "training", "value"),
    [
        (False, False, 0, None),
        (True, False, 0, -4),
        (True, False, 1, -3),
        (True, False, 3, -1),
        (True, False, 4, None),
        (True, False, 6, None),  # training never turns it into a bonus
        (True, True, 0, None),
    ],
)
def test_off_hand(off_hand: bool, ambidextrous: bool, training: int, value: int | None) -> None:
    mod = off_hand_modifier(off_hand=off_hand, ambidextrous=ambidextrous, training=training)
    assert (None if mod is None else mod.value) == value


def test_off_hand_bad_training() -> None:
    with pytest.raises(ConditionError):
        off_hand_modifier(off_hand=True, training=-1)


@pytest.mark.parametrize(
    ("size", "swinging", "value"),
    [
        (ShieldSize.LARGE, True, -2),
        (ShieldSize.LARGE, False, None),
        (ShieldSize.MEDIUM, True, None),
        (ShieldSize.BUCKLER, True, None),
    ],
)
def test_large_shield(size: ShieldSize, swinging: bool, value: int | None) -> None:
    shield = Shield("s", "Shield", size, pd=3, weight=15.0)
    mod = large_shield_modifier(shield, swinging)
    assert (None if mod is None else mod.value) == value
    assert large_shield_modifier(None, True) is None


# -------------------------------------------------------------- postures

# posture -> (attacker melee, attacker ranged, defender melee, defender ranged)
POSTURES: dict[Posture, tuple[int, int, int, int]] = {
    Posture.STANDING: (0, 0, 0, 0),
    Posture.DEFENSIVE_CROUCH: (0, 0, -1, -1),
    Posture.DEEP_CROUCH: (-2, -2, -1, -2),
    Posture.KNEELING: (-2, 0, 0, -2),  # attacker's value: base rules (seed is silent)
    Posture.SITTING: (-3, -3, 0, -2),
    Posture.SITTING_IN_CHAIR: (-2, -2, 0, -2),
    Posture.HANDS_AND_KNEES: (-4, -4, 0, -3),
    Posture.CRAWLING: (-8, -8, 0, -4),
    Posture.PRONE: (-4, 0, 0, -4),  # attacker's value: base rules (seed is silent)
}


def test_every_posture_is_in_the_table(postures: PostureTable) -> None:
    assert {e.posture for e in postures.entries} == set(Posture)
    assert list(POSTURES) == list(Posture)


@pytest.mark.parametrize("posture", list(Posture))
def test_posture_values(postures: PostureTable, posture: Posture) -> None:
    a_melee, a_ranged, d_melee, d_ranged = POSTURES[posture]
    standing = Posture.STANDING
    assert total(postures.posture_modifiers(posture, standing, melee=True)) == a_melee
    assert total(postures.posture_modifiers(posture, standing, melee=False)) == a_ranged
    assert total(postures.posture_modifiers(standing, posture, melee=True)) == d_melee
    assert total(postures.posture_modifiers(standing, posture, melee=False)) == d_ranged


@pytest.mark.parametrize("posture", [Posture.PRONE, Posture.CRAWLING])
@pytest.mark.parametrize(
    ("cover", "value"),
    [
        (ProneCover.HEAD_UP_NO_COVER, -4),
        (ProneCover.HEAD_UP_WITH_COVER, -5),
        (ProneCover.HEAD_DOWN_WITH_COVER, -7),
    ],
)
def test_prone_target_by_cover(
    postures: PostureTable, posture: Posture, cover: ProneCover, value: int
) -> None:
    (mod,) = postures.posture_modifiers(Posture.STANDING, posture, melee=False, prone_cover=cover)
    assert mod.value == value
    assert cover.label in mod.reason
    # Cover is about missiles: no effect in melee.
    assert (
        postures.posture_modifiers(Posture.STANDING, posture, melee=True, prone_cover=cover) == ()
    )


def test_posture_modifiers_itemised(postures: PostureTable) -> None:
    mods = postures.posture_modifiers(Posture.SITTING, Posture.DEEP_CROUCH, melee=False)
    assert [(m.value, m.reason) for m in mods] == [
        (-3, "attacker sitting on the ground"),
        (-2, "target deep crouch"),
    ]
    assert all(m.citation == ADVERSE for m in mods)
    assert postures.posture_modifiers(Posture.STANDING, Posture.STANDING, melee=True) == ()


@pytest.mark.parametrize("posture", [Posture.KNEELING, Posture.PRONE])
def test_seed_silent_attacker_postures_cite_base_rules(
    postures: PostureTable, posture: Posture
) -> None:
    (mod,) = postures.posture_modifiers(posture, Posture.STANDING, melee=True)
    assert mod.citation.seed == "base"


# The catalog entry each posture corresponds to, per side; the two files must agree.
ATTACKER_POSTURE_CONDITION = {
    Posture.DEFENSIVE_CROUCH: "defensive_crouch",
    Posture.DEEP_CROUCH: "deep_crouch",
    Posture.SITTING: "sitting_on_ground",
    Posture.SITTING_IN_CHAIR: "sitting_in_chair",
    Posture.HANDS_AND_KNEES: "hands_and_knees",
    Posture.CRAWLING: "crawling_on_belly",
}
DEFENDER_POSTURE_CONDITION = {
    Posture.DEFENSIVE_CROUCH: "target_defensive_crouch",
    Posture.DEEP_CROUCH: "target_deep_crouch",
    Posture.KNEELING: "target_kneeling",
    Posture.SITTING: "target_sitting_on_ground",
    Posture.SITTING_IN_CHAIR: "target_sitting_in_chair",
    Posture.HANDS_AND_KNEES: "target_hands_and_knees",
    Posture.PRONE: "target_prone_head_up",
}
PRONE_COVER_CONDITION = {
    ProneCover.HEAD_UP_NO_COVER: "target_prone_head_up",
    ProneCover.HEAD_UP_WITH_COVER: "target_prone_head_up_cover",
    ProneCover.HEAD_DOWN_WITH_COVER: "target_prone_head_down_cover",
}


@pytest.mark.parametrize("melee", [True, False])
def test_postures_agree_with_conditions(
    catalog: ConditionCatalog, postures: PostureTable, melee: bool
) -> None:
    standing = Posture.STANDING
    for posture, key in ATTACKER_POSTURE_CONDITION.items():
        via_posture = total(postures.posture_modifiers(posture, standing, melee=melee))
        via_condition = total(catalog.condition_modifiers([S(key)], melee=melee, swinging=False))
        assert via_posture == via_condition, posture
    for posture, key in DEFENDER_POSTURE_CONDITION.items():
        via_posture = total(postures.posture_modifiers(standing, posture, melee=melee))
        via_condition = total(catalog.condition_modifiers([S(key)], melee=melee, swinging=False))
        assert via_posture == via_condition, posture
    for cover, key in PRONE_COVER_CONDITION.items():
        via_posture = total(
            postures.posture_modifiers(standing, Posture.PRONE, melee=melee, prone_cover=cover)
        )
        via_condition = total(catalog.condition_modifiers([S(key)], melee=melee, swinging=False))
        assert via_posture == via_condition, cover


def test_module_posture_modifiers(postures: PostureTable) -> None:
    assert posture_modifiers(
        Posture.KNEELING, Posture.KNEELING, melee=False, table=postures
    ) == postures.posture_modifiers(Posture.KNEELING, Posture.KNEELING, melee=False)
    assert (
        posture_modifiers(Posture.PRONE, Posture.STANDING, melee=True, table=postures)[0].value
        == -4
    )


# ------------------------------------------------------------ loader errors


def _mutated(name: str, change: Any) -> Any:
    data = copy.deepcopy(raw(name))
    change(data)
    return data


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("attacker"),
        lambda d: d.update(extra=1),
        lambda d: d["attacker"][0].update(melee=-1),  # 'any' and 'melee' together
        lambda d: d["attacker"][1].pop("any"),  # no modifier at all
        lambda d: d["attacker"][1].update(any="-10"),
        lambda d: d["attacker"][1].update(any=True),
        lambda d: d["attacker"][0].update(any={"min": -1, "max": -9, "default": None}),
        lambda d: d["attacker"][0].update(any={"min": -9, "max": -1, "default": -10}),
        lambda d: d["attacker"][0].update(any={"min": -9, "max": -1}),
        lambda d: d["attacker"][0].update(colour="red"),
        lambda d: d["attacker"][0].pop("label"),
        lambda d: d["attacker"][0].update(group=3),
        lambda d: d["attacker"][0].update(note=""),
        lambda d: d["attacker"][0].update(automatic="yes"),
        lambda d: d["attacker"][0].update(citation={"seed": "000"}),
        lambda d: d["attacker"][1].update(key="bad_light"),  # duplicate key
        lambda d: d["defender"][0].update(key="bad_light"),  # duplicate across sides
        lambda d: d["defender"].__setitem__(
            0, {"key": "k", "label": "L", "ranged": -1, "swinging_only": True}
        ),  # swinging-only without a melee value
        lambda d: d.update(defender={}),
    ],
)
def test_catalog_loader_rejects_malformed_data(change: Any) -> None:
    with pytest.raises(DataError):
        parse_condition_catalog(_mutated("adverse_conditions.json", change))


def test_catalog_loader_rejects_non_objects() -> None:
    bad_data: list[object] = [None, [], "x", {"attacker": [1], "defender": []}]
    for bad in bad_data:
        with pytest.raises(DataError):
            parse_condition_catalog(bad)


def test_catalog_loader_entry_citation_override() -> None:
    data = _mutated(
        "adverse_conditions.json",
        lambda d: d["attacker"][0].update(citation={"seed": "base", "heading": "vision"}),
    )
    assert parse_condition_catalog(data).get("bad_light").citation == Citation("base", "vision")


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["postures"].pop(),  # a posture missing
        lambda d: d["postures"].append(copy.deepcopy(d["postures"][0])),  # listed twice
        lambda d: d["postures"][0].update(key="floating"),
        lambda d: d["postures"][0].update(extra=1),
        lambda d: d["postures"][0]["attacker"].pop("ranged"),
        lambda d: d["postures"][0]["attacker"].update(melee=1.5),
        lambda d: d["postures"][8]["defender"]["ranged"].pop("head_up_with_cover"),
        lambda d: d["postures"][8]["defender"]["ranged"].update(lying_sideways=-3),
        lambda d: d.pop("postures"),
    ],
)
def test_posture_loader_rejects_malformed_data(change: Any) -> None:
    with pytest.raises(DataError):
        parse_posture_table(_mutated("postures.json", change))


def test_modifier_range_rules() -> None:
    assert ModifierRange.fixed(-2).is_fixed
    r = ModifierRange(None, -1, None)
    assert r.contains(-100) and not r.contains(0)
    with pytest.raises(DataError):
        ModifierRange(-1, -2, None)
    with pytest.raises(DataError):
        ModifierRange(-4, 0, 1)
