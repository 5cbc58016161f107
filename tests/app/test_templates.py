"""The template library (app.templates): the bundled templates, the strict checks
on load (a broken file is named and skipped), the GM's own templates saved,
renamed and deleted, and the battle level: a template's fighter placed and a
fighter duplicated are in the state with their sheets, undone, saved and read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.new_battle import fighter_templates, new_combatant
from app.templates import (
    CUSTOM_PREFIX,
    MAX_TEMPLATE_BYTES,
    Template,
    TemplateFileError,
    delete_custom_template,
    duplicate_of,
    load_library,
    nearest_free_hex,
    parse_template,
    rename_custom_template,
    save_custom_template,
)
from hexmap import Handedness, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import load_catalog, load_fighters
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from rules.battle.savefile import read_battle, write_battle
from rules.battle.state import BattleState
from rules.core.errors import DataError
from rules.sets.registry import get_ruleset, ruleset_keys

DEMO_KEYS = ("sword-and-shield", "fencer", "flail-fighter", "spearman")
ISSUE_KEYS = (
    "archer", "brawler", "knight-in-plate", "halberdier", "berserker", "duelist",
    "town-guard", "goblin",
)  # fmt: skip
RULESET = get_ruleset("000")


def document(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "format": "hexfray-template",
        "version": 1,
        "ruleset": "000",
        "key": "pikeman",
        "description": "A pikeman.",
        "fighter": {
            "name": "Pikeman",
            "attributes": {"st": 12, "dx": 11, "iq": 10, "ht": 11},
            "hit_points": 11,
            "move": 5,
            "skills": {"Spear": 13},
            "weapons": ["pike"],
            "armor": "leather",
        },
    }
    base.update(changes)
    return base


def fighter_part(**changes: object) -> dict[str, object]:
    part = document()["fighter"]
    assert isinstance(part, dict)
    return {**part, **changes}


def sheet(template: Template) -> dict[str, object]:
    return RULESET.sheets.encode(template.fighter)


# --- the bundled library ------------------------------------------------------------------


def test_the_bundled_library_loads_whole_with_a_description_each(tmp_path: Path) -> None:
    library = load_library(tmp_path)
    assert library.problems == ()
    keys = [t.key for t in library.templates]
    assert set(DEMO_KEYS + ISSUE_KEYS) <= set(keys)
    assert len(keys) == len(set(keys))
    for template in library.templates:
        assert 20 <= len(template.description) <= 200, template.key
        assert not template.custom and template.ruleset_key in ruleset_keys()
        # The other rulesets' templates are named for their ruleset ("002-legionary").
        assert template.ruleset_key == "000" or template.key.startswith(f"{template.ruleset_key}-")
        assert template.path is not None and template.path.stem == template.key


def test_the_demo_templates_are_the_demo_fighters(tmp_path: Path) -> None:
    library = load_library(tmp_path)
    demo = load_fighters()
    for key in DEMO_KEYS:
        template = library.template(key)
        assert template is not None
        assert sheet(template) == RULESET.sheets.encode(demo[key])
    flail = library.template("flail-fighter")
    assert flail is not None and flail.names_its_hand  # the demo's left-hander stays left
    fencer = library.template("fencer")
    assert fencer is not None and not fencer.names_its_hand


def test_the_gear_is_the_catalogs(tmp_path: Path) -> None:
    catalog = load_catalog()
    for template in load_library(tmp_path).for_ruleset("000"):
        f = template.fighter
        assert all(catalog.weapons[w.key] == w for w in f.weapons), template.key
        assert f.shield is None or catalog.shields[f.shield.key] == f.shield
        assert f.armor is None or catalog.armor[f.armor.key] == f.armor
        # every weapon's skill is on the sheet: nobody fights at the DX-5 default
        skills = sheet(template)["skills"]
        assert isinstance(skills, dict)
        assert all(w.skill in skills for w in f.weapons), template.key
        assert f.weapons[0].min_st <= RULESET.sheets.encode(f)["attributes"]["st"]  # type: ignore[index]


def test_the_knight_wears_plate_and_the_berserker_swings_an_axe(tmp_path: Path) -> None:
    library = load_library(tmp_path)
    knight, berserker = library.template("knight-in-plate"), library.template("berserker")
    assert knight is not None and knight.fighter.armor is not None
    assert knight.fighter.armor.key == "plate"
    assert berserker is not None and berserker.fighter.weapons[0].skill.startswith("Two-Handed Axe")


def test_fighter_templates_lists_the_library_for_the_battles_ruleset() -> None:
    keys = [t.key for t in fighter_templates("000")]
    assert set(DEMO_KEYS + ISSUE_KEYS) <= set(keys)
    assert fighter_templates("no-such-ruleset") == ()


# --- refusals -----------------------------------------------------------------------------


def write(folder: Path, name: str, content: str | bytes | dict[str, object]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


BROKEN: dict[str, tuple[str | bytes | dict[str, object], str]] = {
    "cut-short": ('{"format": "hexfray-template", "version": 1', "damaged or cut short"),
    "nan": (json.dumps(document()).replace('"move": 5', '"move": NaN'), "NaN"),
    "twice": (json.dumps(document()).replace('"version": 1', '"version": 1, "version": 1'),
              "appears twice"),
    "deep": ("[" * 100 + "]" * 100, "nested too deeply"),
    "not-text": (b"\xff\xfe\x00garbage", "not text"),
    "list": ("[1, 2]", "no Hexfray template inside"),
    "other-format": (document(format="hexfray-battle"), "not a Hexfray template"),
    "newer": (document(version=3), "newer Hexfray"),
    "unnamed-v2": (document(version=2), "lacks name"),
    "named-v1": (document(name="Pikes"), "does not know: ['name']"),
    "blank-name": (document(version=2, name="  "), "name: a name of 1 to 60 characters"),
    "version-text": (document(version="1"), "version: expected a whole number"),
    "other-key": (document(key="archer"), "is not the file's name"),
    "unknown-part": (document(portrait="me.png"), "does not know: ['portrait']"),
    "no-fighter": ({k: v for k, v in document().items() if k != "fighter"},
                   "exactly one of 'fighter' and 'sheet'"),
    "no-description": ({k: v for k, v in document().items() if k != "description"},
                       "lacks description"),
    "unknown-weapon": (document(fighter=fighter_part(weapons=["lightsaber"])), "lightsaber"),
    "weak": (document(fighter=fighter_part(attributes={"st": 0, "dx": 11, "iq": 10, "ht": 11})),
             "at least 1"),
    "stat-text": (document(fighter=fighter_part(skills={"Spear": "good"})), "Spear"),
    "no-hp": (document(fighter=fighter_part(hit_points=0)), "hit_points"),
    "huge": (document(fighter=fighter_part(move=10**400)), "fighter.move: the number 1000"),
    "armoury": (document(fighter=fighter_part(weapons=["pike"] * 51)),
                "fighter.weapons: 51 weapons; a fighter carries at most 50"),
    "ruleset": (document(ruleset="gurps4"), "no ruleset 'gurps4'"),
    "bad-sheet": (document(fighter=None, sheet={"format": "hexfray-sheet-000"}), "sheet"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_template_is_named_and_skipped(tmp_path: Path, name: str) -> None:
    content, reason = BROKEN[name]
    if name == "bad-sheet":
        assert isinstance(content, dict)
        content = {k: v for k, v in content.items() if k != "fighter"}
    if isinstance(content, dict) and "key" in content and name != "other-key":
        content = {**content, "key": name}  # only the part the case breaks is wrong
    write(tmp_path, f"{name}.json", content)
    write(tmp_path, "pikeman.json", document())  # a good one beside it still loads
    library = load_library(tmp_path)
    [problem] = library.problems
    assert problem.startswith(f"{name}.json: ") and reason in problem, problem
    assert [t.key for t in library.templates if t.custom] == [f"{CUSTOM_PREFIX}pikeman"]
    with pytest.raises(TemplateFileError):
        parse_template(Path(tmp_path / f"{name}.json").read_bytes(), name)


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path: Path) -> None:
    write(tmp_path, "big.json", b" " * (MAX_TEMPLATE_BYTES + 1))
    [problem] = load_library(tmp_path).problems
    assert problem.startswith("big.json: the file is too large")


def test_only_json_files_are_read(tmp_path: Path) -> None:
    write(tmp_path, "notes.txt", "not a template")
    write(tmp_path, "pikeman.json", document())
    library = load_library(tmp_path)
    assert library.problems == () and library.template("custom:pikeman") is not None


# --- the GM's own templates ---------------------------------------------------------------


def test_a_saved_fighter_comes_back_as_it_was(tmp_path: Path) -> None:
    fencer = load_fighters()["fencer"]
    saved = save_custom_template(fencer, "  Duke's fencer ", "000", tmp_path)
    assert saved.custom and saved.key == "custom:duke-s-fencer"
    assert saved.path == tmp_path / "duke-s-fencer.json"
    assert saved.fighter.name == "Duke's fencer"
    expected = {**RULESET.sheets.encode(fencer), "name": "Duke's fencer"}
    assert RULESET.sheets.encode(saved.fighter) == expected
    assert saved.names_its_hand  # a saved fighter keeps its hand
    again = load_library(tmp_path).template("custom:duke-s-fencer")
    assert again is not None and RULESET.sheets.encode(again.fighter) == expected
    # the same name twice makes a second file, not an overwrite
    second = save_custom_template(fencer, "Duke's fencer", "000", tmp_path)
    assert second.key == "custom:duke-s-fencer-2"


def test_rename_and_delete_touch_only_the_gms_own(tmp_path: Path) -> None:
    saved = save_custom_template(load_fighters()["spearman"], "Picket", "000", tmp_path)
    renamed = rename_custom_template(saved, "Night watch")
    assert renamed.fighter.name == "Night watch" and renamed.key == "custom:night-watch"
    assert [p.name for p in tmp_path.iterdir()] == ["night-watch.json"]
    assert renamed.description == saved.description
    delete_custom_template(renamed)
    assert list(tmp_path.iterdir()) == []
    bundled = load_library(tmp_path).template("archer")
    assert bundled is not None
    with pytest.raises(DataError):
        rename_custom_template(bundled, "Mine now")
    with pytest.raises(DataError):
        delete_custom_template(bundled)
    with pytest.raises(DataError):
        save_custom_template(load_fighters()["fencer"], "   ", "000", tmp_path)


# --- in the battle ------------------------------------------------------------------------


def empty_battle() -> Battle:
    return Battle(BattleState(HexGrid(8, 6), ()), 5, get_ruleset)


def test_a_placed_template_and_its_duplicate_are_in_the_battle_with_their_sheets(
    tmp_path: Path,
) -> None:
    battle = empty_battle()
    knight = load_library(tmp_path).template("knight-in-plate")
    assert knight is not None
    at = Hex.from_offset(3, 2)
    placed = new_combatant(battle.state, knight, Side.RED, at, Handedness.LEFT)
    battle.execute(AddCombatant(placed))
    [on_map] = battle.state.combatants
    assert (on_map.hex, on_map.side, on_map.name, on_map.hp) == (at, Side.RED, "Knight", 13)
    assert on_map.fighter.handedness is Handedness.LEFT  # the template names no hand
    ruleset = get_ruleset(battle.state.ruleset_key)
    assert ruleset.sheets.encode(on_map.fighter) == {**sheet(knight), "handedness": "left"}
    rows = {row.label: row.value for s in ruleset.sheets.sections(on_map) for row in s.rows}
    assert rows and any("Plate" in str(v) for v in rows.values()), rows

    copy = duplicate_of(battle.state, on_map)
    assert copy is not None
    battle.execute(AddCombatant(copy))
    original, twin = battle.state.combatants
    assert twin.name == "Knight 2" and twin.id == "c2"
    assert twin.hex.distance(original.hex) == 1 and twin.facing == original.facing
    assert (twin.side, twin.hp) == (original.side, original.fighter.hit_points)
    assert ruleset.sheets.encode(twin.fighter) == {**ruleset.sheets.encode(original.fighter),
                                                  "name": "Knight 2"}
    # a copy of the copy is "Knight 3", not "Knight 2 2"
    third = duplicate_of(battle.state, twin)
    assert third is not None and third.fighter.name == "Knight 3"

    # saved and read back, the battle holds the same two fighters
    reread = read_battle(write_battle(battle, ruleset.sheets.saved_types), rulesets=get_ruleset)
    assert reread.state.combatants == battle.state.combatants
    battle.undo()
    assert [c.id for c in battle.state.combatants] == ["c1"]


def test_a_custom_template_places_its_saved_sheet(tmp_path: Path) -> None:
    battle = empty_battle()
    flail = load_fighters()["flail-fighter"]
    saved = save_custom_template(flail, "Left flail", "000", tmp_path)
    placed = new_combatant(battle.state, saved, Side.BLUE, Hex.from_offset(0, 0), Handedness.RIGHT)
    battle.execute(AddCombatant(placed))
    [on_map] = battle.state.combatants
    assert on_map.fighter.handedness is Handedness.LEFT and on_map.name == "Left flail"
    assert RULESET.sheets.encode(on_map.fighter) == RULESET.sheets.encode(saved.fighter)


def test_the_nearest_free_hex() -> None:
    battle = empty_battle()
    fencer = next(t for t in fighter_templates() if t.key == "fencer")
    middle = Hex.from_offset(4, 3)
    assert nearest_free_hex(battle.state, middle) == middle
    battle.execute(AddCombatant(new_combatant(battle.state, fencer, Side.RED, middle,
                                              Handedness.RIGHT)))
    beside = nearest_free_hex(battle.state, middle)
    assert beside is not None and beside.distance(middle) == 1
    empty = BattleState(HexGrid(1, 1), ())
    lone = new_combatant(empty, fencer, Side.RED, Hex.from_offset(0, 0), Handedness.RIGHT)
    full = BattleState(HexGrid(1, 1), (lone,))  # a map of one hex, taken
    assert nearest_free_hex(full, Hex.from_offset(0, 0)) is None
    assert duplicate_of(full, lone) is None


def test_a_template_may_name_itself_apart_from_its_fighter(tmp_path: Path) -> None:
    fencer = load_fighters()["fencer"]
    saved = save_custom_template(
        fencer, "Duelling master", "000", tmp_path, keep_fighter_name=True
    )
    assert (saved.name, saved.fighter.name) == ("Duelling master", "Fencer")
    assert saved.description.startswith("Your template: Fencer with ")
    document = json.loads((tmp_path / "duelling-master.json").read_text(encoding="utf-8"))
    assert (document["version"], document["name"], document["sheet"]["name"]) == (
        2,
        "Duelling master",
        "Fencer",
    )
    again = load_library(tmp_path).template("custom:duelling-master")
    assert again is not None and again.name == "Duelling master"
    assert RULESET.sheets.encode(again.fighter) == RULESET.sheets.encode(fencer)
    # Renamed, it keeps its fighter's own name; one named as its fighter renames both.
    renamed = rename_custom_template(saved, "Old master")
    assert (renamed.name, renamed.fighter.name) == ("Old master", "Fencer")
    plain = save_custom_template(fencer, "Picket", "000", tmp_path)
    assert (plain.name, plain.fighter.name) == ("Picket", "Picket")
    assert rename_custom_template(plain, "Watch").fighter.name == "Watch"
    # A battle places the fighter by its own name.
    battle = empty_battle()
    at = Hex.from_offset(1, 1)
    placed = new_combatant(battle.state, renamed, Side.BLUE, at, Handedness.RIGHT)
    battle.execute(AddCombatant(placed))
    assert [c.name for c in battle.state.combatants] == ["Fencer"]


def test_a_template_of_version_1_is_named_as_its_fighter(tmp_path: Path) -> None:
    write(tmp_path, "pikeman.json", document())
    template = load_library(tmp_path).template("custom:pikeman")
    assert template is not None and (template.name, template.fighter.name) == (
        "Pikeman",
        "Pikeman",
    )
