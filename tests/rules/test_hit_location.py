"""Seed 000's random body hit table: exact distributions by enumeration, the
from-above/below shifts, the back and side substitutions, cover, and the
recorded dice of a seeded roll."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from rules.core.errors import DataError, RulesError
from rules.sets.seed000.hit_location import (
    HitLocationTable,
    TableSide,
    parse_hit_location_table,
    resolve_table_side,
)
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.wound_effects import BodySide
from tests.rules.three_dice import WAYS_3D6

ASSET = Path(__file__).resolve().parents[2] / "assets" / "rulesets" / "000" / "hit_locations.json"

WAYS = WAYS_3D6
F = Fraction
WOUNDING = Tables().wounding.multipliers  # the ruleset's, for tables parsed here

# The seed's table restated independently of the JSON: row -> [(location, share)].
ROWS_FRONT = {
    3: [("neck", F(1))],
    4: [("brain", F(1))],
    5: [
        ("head", F(1, 2)),
        ("face", F(1, 2) * F(2, 6)),
        ("jaw", F(1, 12)),
        ("eyes", F(1, 12)),
        ("nose", F(1, 12)),
        ("ear", F(1, 12)),
    ],
    6: [("far_arm", F(5, 6)), ("far_elbow", F(1, 6))],
    7: [("near_hand", F(4, 6)), ("far_hand", F(2, 6))],
    8: [("near_arm", F(5, 6)), ("near_elbow", F(1, 6))],
    9: [("chest", F(5, 6)), ("vitals", F(1, 6))],
    10: [("shoulder", F(1))],
    11: [("abdomen", F(3, 6)), ("pelvis", F(2, 6)), ("groin", F(1, 6))],
    12: [("far_thigh", F(3, 6)), ("far_shin", F(2, 6)), ("far_knee", F(1, 6))],
    13: [("near_thigh", F(3, 6)), ("near_shin", F(2, 6)), ("near_knee", F(1, 6))],
    15: [("near_foot", F(4, 6)), ("far_foot", F(2, 6))],
}
ROWS_FRONT[14] = ROWS_FRONT[13]
BACK_HEAD = [("head", F(3, 6)), ("neck", F(2, 6)), ("ear", F(1, 6))]


def expected(shift: int = 0, back: bool = False, side: bool = False) -> dict[str, Fraction]:
    out: Counter[str] = Counter()
    for total, ways in WAYS.items():
        row = min(max(total + shift, 3), 15)
        shares = ROWS_FRONT[row]
        if back and row in (3, 5):
            shares = BACK_HEAD
        for where, share in shares:
            if where == "groin" and (back or side):
                where = "kidneys"
            out[where] += F(ways, 216) * share  # type: ignore[assignment]
    return {k: v for k, v in out.items() if v}


@pytest.fixture(scope="module")
def table() -> HitLocationTable:
    return parse_hit_location_table(
        json.loads(ASSET.read_text(encoding="utf-8")), base_multipliers=WOUNDING
    )


def test_the_asset_loads_through_rules_assets() -> None:
    assert (
        Tables().hit_location_table.locations.keys()
        == parse_hit_location_table(
            json.loads(ASSET.read_text(encoding="utf-8")), base_multipliers=WOUNDING
        ).locations.keys()
    )


# --------------------------------------------------------------------------- exact


def test_brain_is_exactly_p_of_rolling_4(table: HitLocationTable) -> None:
    assert table.exact_distribution()["brain"] == F(3, 216)


def test_eyes_need_5_then_4_to_6_then_4(table: HitLocationTable) -> None:
    assert table.exact_distribution()["eyes"] == F(6, 216) * F(3, 6) * F(1, 6) == F(1, 432)


def test_single_rows_are_exact(table: HitLocationTable) -> None:
    d = table.exact_distribution()
    assert d["neck"] == F(1, 216)
    assert d["shoulder"] == F(27, 216)
    assert d["far_elbow"] == F(10, 216) * F(1, 6)
    assert d["near_knee"] == F(21 + 15, 216) * F(1, 6)
    assert d["far_foot"] == F(10 + 6 + 3 + 1, 216) * F(2, 6)


def test_whole_front_distribution_matches_the_seed(table: HitLocationTable) -> None:
    d = table.exact_distribution()
    assert dict(d) == expected()
    assert sum(d.values()) == 1


def test_locations_never_rolled_randomly_have_no_chance(table: HitLocationTable) -> None:
    d = table.exact_distribution()
    for key in ("eyes_eyeslits", "shield_hand", "armpit", "armpit_vitals", "instep", "kidneys"):
        assert key not in d
        assert not table.locations[key].random or key == "kidneys"


def test_from_above_subtracts_3_and_low_totals_hit_the_neck(table: HitLocationTable) -> None:
    d = table.exact_distribution(from_above=True)
    assert dict(d) == expected(shift=-3)
    assert d["neck"] == F(1 + 3 + 6 + 10, 216)
    assert d["brain"] == F(15, 216)
    assert d["near_foot"] == F(1, 216) * F(4, 6)


def test_from_below_adds_3_and_high_totals_hit_the_feet(table: HitLocationTable) -> None:
    d = table.exact_distribution(from_below=True)
    assert dict(d) == expected(shift=3)
    assert "neck" not in d and "brain" not in d and "head" not in d
    assert d["far_arm"] == F(1, 216) * F(5, 6)
    assert d["near_foot"] + d["far_foot"] == F(25 + 21 + 15 + 10 + 6 + 3 + 1, 216)


def test_above_and_below_together_is_an_error(table: HitLocationTable) -> None:
    with pytest.raises(RulesError):
        table.exact_distribution(from_above=True, from_below=True)
    with pytest.raises(RulesError):
        table.roll_random(random.Random(1), from_above=True, from_below=True)


def test_back_substitutes_the_starred_head_rows(table: HitLocationTable) -> None:
    d = table.exact_distribution(from_back=True)
    assert dict(d) == expected(back=True)
    assert d["neck"] == F(1 + 6, 216) * F(2, 6)
    assert d["head"] == F(1 + 6, 216) * F(3, 6)
    assert d["ear"] == F(1 + 6, 216) * F(1, 6)
    assert d["brain"] == F(3, 216)  # not starred: unchanged
    for gone in ("face", "jaw", "eyes", "nose", "groin"):
        assert gone not in d
    assert d["kidneys"] == F(27, 216) * F(1, 6)


def test_side_hits_swap_groin_for_kidneys_but_keep_the_face(table: HitLocationTable) -> None:
    d = table.exact_distribution(from_side=True)
    assert dict(d) == expected(side=True)
    assert "groin" not in d and d["kidneys"] == F(1, 48)
    assert d["eyes"] == F(1, 432)


def test_cover_conditions_exactly(table: HitLocationTable) -> None:
    legs = table.area_keys("leg")
    base = expected()
    open_p = sum(p for k, p in base.items() if k not in legs)
    d = table.exact_distribution(covered=legs)
    assert set(d) == set(base) - legs
    for key, p in d.items():
        assert p == base[key] / open_p
    assert sum(d.values()) == 1
    assert d["shoulder"] == F(27, 216) / open_p


def test_cover_combines_with_direction(table: HitLocationTable) -> None:
    base = expected(shift=-3, back=True)
    covered = frozenset({"neck", "head"})
    d = table.exact_distribution(from_above=True, from_back=True, covered=covered)
    open_p = 1 - base["neck"] - base["head"]
    assert d["ear"] == base["ear"] / open_p


def test_cover_errors(table: HitLocationTable) -> None:
    with pytest.raises(RulesError, match="unknown covered"):
        table.exact_distribution(covered=frozenset({"tail"}))
    with pytest.raises(RulesError, match="under cover"):
        table.roll_random(random.Random(0), covered=frozenset(table.locations))


def test_area_keys(table: HitLocationTable) -> None:
    assert "instep" in table.area_keys("leg")
    assert table.area_keys("head") >= {"brain", "neck", "eyes_eyeslits"}
    with pytest.raises(RulesError):
        table.area_keys("tail")


# --------------------------------------------------------------------------- rolls


class ScriptedRandom(random.Random):
    """Returns the given d6 faces in order."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6)
        return self.faces.pop(0)


def test_scripted_eye_hit(table: HitLocationTable) -> None:
    r = table.roll_random(ScriptedRandom([1, 2, 2, 5, 4]))
    assert r.location == "eyes"
    assert r.final.dice == (1, 2, 2) and r.final.sub == 5 and r.final.sub2 == 4
    assert r.side is None


def test_scripted_from_above_clamps_to_the_neck(table: HitLocationTable) -> None:
    r = table.roll_random(ScriptedRandom([1, 1, 2]), from_above=True)
    assert r.final.total == 1 and r.final.row == 3 and r.location == "neck"


def test_scripted_back_head_breakdown(table: HitLocationTable) -> None:
    r = table.roll_random(ScriptedRandom([1, 2, 2, 4]), from_back=True)
    assert r.location == "neck" and r.final.sub == 4 and r.final.sub2 is None


def test_scripted_cover_rerolls(table: HitLocationTable) -> None:
    legs = table.area_keys("leg")
    r = table.roll_random(ScriptedRandom([6, 6, 6, 1, 3, 3, 4, 4]), covered=legs)
    assert [a.location for a in r.attempts] == ["near_foot", "shoulder"]
    assert [a.covered for a in r.attempts] == [True, False]
    assert r.location == "shoulder"
    assert r.side is BodySide.LEFT and r.side_die == 4  # the shoulder gets a side die


def test_scripted_near_and_far_sides(table: HitLocationTable) -> None:
    far = table.roll_random(ScriptedRandom([2, 2, 2, 1]))
    assert far.location == "far_arm" and far.side is BodySide.LEFT  # right-handed
    assert table.roll_random(ScriptedRandom([2, 3, 3, 1])).side is BodySide.RIGHT  # near arm
    lefty = table.roll_random(ScriptedRandom([2, 3, 3, 1]), left_handed=True)
    assert lefty.side is BodySide.LEFT
    flipped = table.roll_random(ScriptedRandom([2, 3, 3, 1]), shield_side_near=True)
    assert flipped.side is BodySide.LEFT
    unshielded = table.roll_random(ScriptedRandom([2, 2, 2, 1, 2]), shielded=False)
    assert unshielded.location == "far_arm" and unshielded.side_die == 2
    assert unshielded.side is BodySide.RIGHT
    assert table.roll_random(ScriptedRandom([2, 2, 2, 1, 5]), shielded=False).side is BodySide.LEFT
    assert table.roll_random(ScriptedRandom([1, 1, 1])).side is None  # the neck


def test_resolve_table_side() -> None:
    def side(s: TableSide, **kw: object) -> BodySide:
        opts: dict[str, object] = {"shield_side_near": False, "shielded": True, "side_die": None}
        opts.update(kw)
        return resolve_table_side(s, **opts)  # type: ignore[arg-type]

    assert side(TableSide.NEAR) is BodySide.RIGHT
    assert side(TableSide.NEAR, left_handed=True) is BodySide.LEFT
    assert side(TableSide.FAR, shield_side_near=True) is BodySide.RIGHT
    assert side(TableSide.FAR, shielded=False, side_die=6) is BodySide.LEFT
    assert side(TableSide.FAR, shielded=False, side_die=3) is BodySide.RIGHT
    with pytest.raises(RulesError):
        side(TableSide.FAR, shielded=False)


@pytest.mark.parametrize("seed", range(300))
def test_seeded_roll_matches_its_record(table: HitLocationTable, seed: int) -> None:
    rng = random.Random(seed)
    kwargs = {
        "from_above": seed % 5 == 1,
        "from_below": seed % 5 == 2,
        "from_back": seed % 3 == 0,
        "from_side": seed % 7 == 0,
        "covered": table.area_keys("arm") if seed % 4 == 0 else frozenset(),
        "shielded": seed % 2 == 0,
    }
    r = table.roll_random(rng, **kwargs)  # type: ignore[arg-type]
    faces: list[int] = []
    for a in r.attempts:
        shift = -3 if kwargs["from_above"] else 3 if kwargs["from_below"] else 0
        assert a.shift == shift
        assert a.total == sum(a.dice) + shift
        assert a.row == min(max(a.total, 3), 15)
        back = bool(kwargs["from_back"])
        direction = "side_or_back" if back or kwargs["from_side"] else "front"
        assert (a.sub is not None) == table.needs_sub(a.row, from_back=back, direction=direction)
        assert a.location == table.lookup(
            a.row, a.sub, a.sub2, from_back=back, from_side=bool(kwargs["from_side"])
        )
        assert a.covered == (a.location in kwargs["covered"])  # type: ignore[operator]
        faces += [*a.dice, *(x for x in (a.sub, a.sub2) if x is not None)]
    assert r.location == r.final.location and not r.final.covered
    assert r.label == table.locations[r.location].label
    if r.side_die is not None:
        faces.append(r.side_die)
    replay = random.Random(seed)
    assert faces == [replay.randint(1, 6) for _ in faces]
    assert len(r.steps) >= len(r.attempts)


def test_sampling_agrees_with_the_exact_distribution(table: HitLocationTable) -> None:
    rng = random.Random(2024)
    n = 20000
    counts = Counter(table.roll_random(rng).location for _ in range(n))
    for key, p in table.exact_distribution().items():
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts[key] / n - float(p)) < 5 * sd + 1e-9, key


# --------------------------------------------------------------------------- loader


def _data() -> dict[str, object]:
    loaded: dict[str, object] = json.loads(ASSET.read_text(encoding="utf-8"))
    return copy.deepcopy(loaded)


def test_loader_rejects_unknown_keys() -> None:
    data = _data()
    data["extra"] = 1
    with pytest.raises(DataError, match="unknown key"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)


def test_loader_rejects_a_gap_in_the_table() -> None:
    data = _data()
    rows = data["random_table"]
    assert isinstance(rows, list)
    data["random_table"] = [r for r in rows if r["location"] != "shoulder"]
    with pytest.raises(DataError, match="0 results for row 10"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)


def test_loader_rejects_overlapping_rows() -> None:
    data = _data()
    rows = data["random_table"]
    assert isinstance(rows, list)
    rows.append({"roll": [10, 10], "location": "chest"})
    with pytest.raises(DataError, match="2 results"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)


def test_loader_rejects_unknown_location_references() -> None:
    data = _data()
    rows = data["random_table"]
    assert isinstance(rows, list)
    rows[0]["location"] = "tail"
    with pytest.raises(DataError, match="tail"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)


def test_loader_rejects_positive_penalties_and_bad_wound_data() -> None:
    data = _data()
    locs = data["locations"]
    assert isinstance(locs, dict)
    locs["neck"]["penalty"] = 2
    with pytest.raises(DataError, match="penalty"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)
    data = _data()
    locs = data["locations"]
    assert isinstance(locs, dict)
    locs["neck"]["wound"]["hp_cap"] = "HT/2"
    with pytest.raises(DataError, match="hp_cap"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)
    data = _data()
    locs = data["locations"]
    assert isinstance(locs, dict)
    locs["brain"]["wound"]["rolls"][0]["kind"] = "avoid boredom"
    with pytest.raises(DataError, match="rolls"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)


def test_loader_rejects_random_flag_that_does_not_match_the_table() -> None:
    data = _data()
    locs = data["locations"]
    assert isinstance(locs, dict)
    locs["instep"]["random"] = True
    with pytest.raises(DataError, match="instep"):
        parse_hit_location_table(data, base_multipliers=WOUNDING)


def test_notes_are_all_restated(table: HitLocationTable) -> None:
    assert sorted(table.notes) == list(range(1, 27))
