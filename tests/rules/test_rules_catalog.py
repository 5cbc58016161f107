"""The gear catalog, fighter templates, the demo battle, the asset resolver and
the ruleset registry; malformed data raises DataError."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from hexmap import Handedness, HexGrid, arc_of, reach_hexes
from rules.battle.catalog import (
    Catalog,
    load_battle_setup,
    load_demo_battle,
    load_fighters,
    parse_catalog,
    parse_fighters,
    parse_weapon,
)
from rules.battle.model import DamageBase, DamageType, ParryClass, Side, WeaponKind
from rules.core.assets import asset_path, asset_root, read_json
from rules.core.errors import DataError, RulesError
from rules.core.formats import DEFAULT_RULESET_KEY
from rules.sets.registry import RULESETS, get_ruleset
from rules.sets.seed000.ruleset import Seed000
from rules.sets.seed000.sheet import encumbrance_level, sheet_of
from tests.rules.battle_files import two_fencers

WEAPONS = [
    "broadsword",
    "shortsword",
    "thrusting-broadsword",
    "greatsword",
    "rapier",
    "saber",
    "smallsword",
    "main-gauche",
    "knife",
    "large-knife",
    "spear",
    "long-spear",
    "pike",
    "halberd",
    "quarterstaff",
    "mace",
    "axe",
    "morningstar",
    "great-axe",
    "club",
    "fist",
]


def raw(name: str) -> Any:
    return json.loads(asset_path(name).read_text(encoding="utf-8"))


def test_catalog_has_the_gear(catalog: Catalog) -> None:
    assert set(WEAPONS) <= set(catalog.weapons)
    assert {s.key: s.pd for s in catalog.shields.values()} == {
        "buckler": 1,
        "small-shield": 2,
        "medium-shield": 3,
        "large-shield": 4,
    }
    assert catalog.shield("large-shield").heavy
    assert {a.key: (a.pd, a.dr) for a in catalog.armor.values()} == {
        "cloth": (1, 1),
        "leather": (2, 2),
        "chainmail": (3, 4),
        "scale": (3, 4),
        "half-plate": (4, 5),
        "plate": (4, 6),
    }


def test_weapon_stats_follow_the_seed_classes(catalog: Catalog) -> None:
    # 000 PARRY: fencing weapons, parry daggers, fists and quarterstaves parry at full
    # skill; swords and knives 2/3; axes and maces 1/2; flails and pikes 1/3.
    for key in ("rapier", "saber", "smallsword", "main-gauche", "fist", "quarterstaff"):
        assert catalog.weapon(key).parry is ParryClass.FULL, key
    for key in ("broadsword", "shortsword", "greatsword", "knife", "club"):
        assert catalog.weapon(key).parry is ParryClass.TWO_THIRDS, key
    for key in ("mace", "axe", "great-axe", "halberd"):
        assert catalog.weapon(key).parry is ParryClass.HALF, key
    for key in ("morningstar", "pike"):
        assert catalog.weapon(key).parry is ParryClass.THIRD, key
    assert catalog.weapon("morningstar").kind is WeaponKind.FLAIL
    assert catalog.weapon("halberd").kind is WeaponKind.POLEARM
    assert catalog.weapon("spear").mode("thrust").reach.distances == {1}
    assert catalog.weapon("long-spear").reach.max == 2 and catalog.weapon("long-spear").two_handed
    assert catalog.weapon("halberd").reach.max == 3
    bs = catalog.weapon("broadsword").mode("swing").damage
    assert (bs.base, bs.adds, bs.type) == (DamageBase.SWING, 1, DamageType.CUTTING)


def test_fighter_templates(catalog: Catalog) -> None:
    fighters = load_fighters()
    assert {f.name for f in fighters.values()} >= {
        "Sword-and-shield fighter",
        "Fencer",
        "Flail fighter",
        "Spearman",
    }
    knight = fighters["sword-and-shield"]
    assert knight.weapons[0].key == "broadsword" and knight.shield is not None
    assert knight.armor is not None and knight.armor.key == "chainmail"
    # 3 + 15 + 45 = 63 lb at ST 12: over 4xST, within 6xST -> medium (2)
    assert sheet_of(knight).encumbrance == 2
    fencer = fighters["fencer"]
    assert sheet_of(fencer).fencing and [w.key for w in fencer.weapons] == ["rapier", "main-gauche"]
    assert fighters["spearman"].shield is None and fighters["spearman"].weapons[0].two_handed
    assert fighters["flail-fighter"].weapons[0].kind is WeaponKind.FLAIL


def test_encumbrance_levels() -> None:
    assert [encumbrance_level(w, 10) for w in (20, 21, 40, 41, 60, 61, 120, 121, 200)] == [
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
    ]
    with pytest.raises(DataError):
        encumbrance_level(201, 10)


def test_demo_battle_is_two_against_two_facing_each_other() -> None:
    grid, combatants = load_demo_battle()
    assert grid == HexGrid(24, 16)
    assert [c.id for c in combatants] == ["c1", "c2", "c3", "c4"]
    assert sorted(c.side.value for c in combatants) == ["blue", "blue", "red", "red"]
    for c in combatants:
        assert c.hex in grid and c.hp == c.fighter.hit_points
        foes = [o for o in combatants if o.side is not c.side]
        nearest = min(foes, key=lambda o: c.hex.distance(o.hex))
        assert 2 <= c.hex.distance(nearest.hex) <= 3
        assert arc_of(nearest.hex, c.hex, c.facing, c.handedness).is_front
    # Near the middle of the map.
    for c in combatants:
        col, row = c.hex.to_offset()
        assert 8 <= col <= 15 and 5 <= row <= 10
    # Somebody can strike at once: the first sight has an attack to show.
    assert any(
        o.hex in reach_hexes(c.hex, c.facing, w.reach)
        for c in combatants
        for w in c.fighter.weapons
        for o in combatants
        if o.side is not c.side
    )
    assert any(c.handedness is Handedness.LEFT for c in combatants)


def test_battle_setup_generates_ids_and_names() -> None:
    _, cs = load_battle_setup(two_fencers(name="Inigo"))
    assert [c.id for c in cs] == ["c1", "c2"] and cs[1].name == "Inigo"
    assert cs[1].side is Side.BLUE


BATTLE = {
    "map": {"cols": 5, "rows": 5},
    "combatants": [
        {"template": "fencer", "side": "red", "at": {"col": 1, "row": 1}, "facing": "S"}
    ],
}


@pytest.mark.parametrize(
    "mutate",
    [
        lambda b: b.pop("map"),
        lambda b: b["map"].update(cols=0),
        lambda b: b["combatants"][0].update(template="dragon"),
        lambda b: b["combatants"][0].update(side="purple"),
        lambda b: b["combatants"][0].update(facing="E"),
        lambda b: b["combatants"][0].update(at={"col": 9, "row": 1}),
        lambda b: b["combatants"][0].update(at={"col": "1", "row": 1}),
        lambda b: b["combatants"][0].update(hp=3),
        lambda b: b["combatants"][0].update(skills={"Knife": "13"}),
        lambda b: b["combatants"].append(dict(b["combatants"][0])),  # same hex
        lambda b: b["combatants"].extend(
            [
                dict(b["combatants"][0], id="x"),
                dict(b["combatants"][0], id="x", at={"col": 2, "row": 2}),
            ]
        ),
        lambda b: b.update(combatants={}),
    ],
)
def test_malformed_battles(mutate: Any) -> None:
    data = copy.deepcopy(BATTLE)
    read_battle(copy.deepcopy(data))
    mutate(data)
    with pytest.raises(DataError):
        read_battle(data)


def read_battle(data: object) -> None:
    """Load a battle and read every sheet: the catalog checks the neutral fields, the
    ruleset the rest of each combatant (a battle file's "skills", and nothing else)."""
    for c in load_battle_setup(data)[1]:
        sheet_of(c)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda w: w.pop("modes"),
        lambda w: w.update(modes=[]),
        lambda w: w.update(kind="lightsaber"),
        lambda w: w.update(parry="3/4"),
        lambda w: w.update(weight=-1),
        lambda w: w.update(weight="3"),
        lambda w: w.update(two_handed="no"),
        lambda w: w.update(colour="red"),
        lambda w: w["modes"][0].update(reach="1-"),
        lambda w: w["modes"][0].update(reach=1),
        lambda w: w["modes"][0]["damage"].update(type="slash"),
        lambda w: w["modes"][0]["damage"].update(base="fixed"),
        lambda w: w["modes"][0]["damage"].update(dice="2d"),
        lambda w: w["modes"][0]["damage"].update(adds=1.5),
        lambda w: w["modes"].append(dict(w["modes"][0])),
        lambda w: w.update(min_st=-1),
    ],
)
def test_malformed_weapons(mutate: Any) -> None:
    weapon = copy.deepcopy(raw("weapons.json")["weapons"][0])
    parse_weapon(copy.deepcopy(weapon))
    mutate(weapon)
    with pytest.raises(DataError):
        parse_weapon(weapon)


def test_malformed_catalog_files() -> None:
    weapons, shields, armor = raw("weapons.json"), raw("shields.json"), raw("armor.json")
    parse_catalog(weapons, shields, armor)
    dup = copy.deepcopy(weapons)
    dup["weapons"].append(dup["weapons"][0])
    bad_shield = copy.deepcopy(shields)
    bad_shield["shields"][0]["pd"] = -1
    bad_armor = copy.deepcopy(armor)
    bad_armor["armor"][0]["dr"] = "4"
    for args in (
        (dup, shields, armor),
        (weapons, bad_shield, armor),
        (weapons, shields, bad_armor),
        ([], shields, armor),
        (weapons, {"shield": []}, armor),
    ):
        with pytest.raises(DataError):
            parse_catalog(*args)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda f: f.update(weapons=["lightsaber"]),
        lambda f: f.update(shield="door"),
        lambda f: f.update(hit_points=0),
        lambda f: f["attributes"].pop("ht"),
        lambda f: f["attributes"].update(st=True),
        lambda f: f["skills"].update(Broadsword="14"),
        lambda f: f.update(handedness="both"),
        lambda f: f.update(encumbrance=7),
        lambda f: f["attributes"].update(st=1),  # cannot carry chainmail and a shield
        lambda f: f.pop("attributes"),
        lambda f: f.update(colour="red"),  # an unknown key, neither the catalog's nor seed 000's
    ],
)
def test_malformed_fighters(mutate: Any, catalog: Catalog) -> None:
    data = raw("fighters.json")
    read_fighters(copy.deepcopy(data), catalog)
    mutate(data["fighters"][0])
    with pytest.raises(DataError):
        read_fighters(data, catalog)


def read_fighters(data: object, catalog: Catalog) -> None:
    """Parse the templates and read every sheet (seed 000 checks its part on reading)."""
    for fighter in parse_fighters(data, catalog).values():
        sheet_of(fighter)


# --- the asset resolver ---------------------------------------------------------------


def test_asset_path_in_the_source_tree() -> None:
    assert asset_root() == Path(__file__).resolve().parents[2] / "assets"
    assert asset_path("weapons.json").is_file()
    for bad in ("..", "/etc/passwd", ""):
        with pytest.raises(DataError):
            asset_path(bad)


def test_asset_path_when_frozen(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert asset_path("weapons.json") == tmp_path / "assets" / "weapons.json"
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "x.json").write_text('{"a": 1}')
    assert read_json("x.json") == {"a": 1}
    (tmp_path / "assets" / "bad.json").write_text("{nope")
    with pytest.raises(DataError):
        read_json("bad.json")
    with pytest.raises(DataError):
        read_json("missing.json")


# --- the ruleset registry ---------------------------------------------------------------


def test_registry() -> None:
    assert DEFAULT_RULESET_KEY == "000" and DEFAULT_RULESET_KEY in RULESETS
    r = get_ruleset()
    assert isinstance(r, Seed000) and r.key == "000" and r.seed == "000"
    assert get_ruleset("000") is r  # shared instance
    assert r.name and r.description
    with pytest.raises(RulesError):
        get_ruleset("999")
    with pytest.raises(RulesError):
        get_ruleset("000", options=["no-such-option"])


def test_a_new_ruleset_is_a_subclass_with_its_own_tables(tmp_path: Path) -> None:
    class Variant(Seed000):
        key = "000-test"
        armor_pd_cap = 6
        available_options = MappingProxyType({"x": "an option"})

    v = Variant(["x"])
    assert v.options == {"x"} and v.armor_pd_cap == 6
    assert v.hit_locations.locations["head"].penalty == -5  # shares 000's tables
