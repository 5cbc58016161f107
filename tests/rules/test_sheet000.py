"""The neutral fighter and seed 000's sheet: the battle carries a ruleset's
statistics without reading them; seed 000 reads its own from the files (once) and
writes them in the ``hexfray-sheet-000`` v1 format unchanged."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields, replace

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import (
    RawSheet,
    load_battle_setup,
    load_catalog,
    load_fighters,
    parse_fighters,
)
from rules.battle.commands import DropItem, MoveCombatant, PickUpItem, SetPosture, TurnCombatant
from rules.battle.model import Combatant, Fighter, Posture, RulesetSheet, Side
from rules.battle.state import BattleState
from rules.core.assets import read_json
from rules.core.errors import DataError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.sheet import Sheet000, read_stats, sheet_of, with_sheet
from rules.sets.seed000.sheet_codec import SHEET_FORMAT, SHEET_VERSION
from tests.rules.battle_files import two_fencers

# --- the neutral fighter ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LadderSheet(RulesetSheet):
    """A sheet of another shape (seed 003's FUDGE traits on the seven-step ladder)."""

    traits: tuple[tuple[str, str], ...] = (("Sword", "Great"), ("Agility", "Fair"))


def test_the_neutral_fighter_holds_no_seed_000_statistic() -> None:
    assert {f.name for f in fields(Fighter)} == {
        "name",
        "hit_points",
        "move",
        "weapons",
        "stats",
        "handedness",
        "shield",
        "armor",
        "origin",  # the character file it was imported from (app.gcs_import)
    }


def test_a_fighter_of_another_ruleset_moves_turns_and_handles_its_gear() -> None:
    sword = load_catalog().weapon("broadsword")
    ladder = Fighter("Ladder knight", 5, 6, (sword,), LadderSheet())
    grid = HexGrid(8, 8)
    a = Combatant("a", ladder, Side.RED, Hex.from_offset(2, 2), Facing.S, hp=5)
    b = Combatant("b", ladder, Side.BLUE, Hex.from_offset(5, 5), Facing.N, hp=5)
    battle = Battle(BattleState(grid, (a, b)), 7, get_ruleset)
    step = Hex.from_offset(2, 3)
    battle.execute(MoveCombatant("a", step))
    battle.execute(TurnCombatant("a", Facing.N))
    battle.execute(SetPosture("a", Posture.KNEELING))
    battle.execute(DropItem("a", "broadsword"))
    (item,) = battle.state.items
    battle.execute(PickUpItem("a", item.id))
    moved = battle.state.combatant("a")
    assert (moved.hex, moved.facing, moved.posture) == (step, Facing.N, Posture.KNEELING)
    assert moved.fighter.weapons == (sword,) and moved.fighter.stats == LadderSheet()
    assert moved.movement_left < ladder.move


def test_seed_000_refuses_a_sheet_that_is_not_its_own() -> None:
    ladder = Fighter("Ladder knight", 5, 6, (), LadderSheet())
    with pytest.raises(DataError, match="Ladder knight has no seed 000 statistics"):
        sheet_of(ladder)
    with pytest.raises(DataError, match="no seed 000 statistics"):
        sheet_of(Fighter("Blank", 5, 6, ()))


# --- reading the files -----------------------------------------------------------------


def test_templates_carry_their_statistics_unread_and_seed_000_reads_them_once() -> None:
    knight = load_fighters()["sword-and-shield"]
    assert isinstance(knight.stats, RawSheet)
    assert "attributes" in json.loads(knight.stats.fields)
    sheet = sheet_of(knight)
    assert sheet is sheet_of(knight)
    assert (sheet.attributes.st, sheet.skill("Broadsword"), sheet.skill("Axe/Mace")) == (12, 14, 7)
    read = read_stats(knight)
    assert read.stats == sheet and replace(read, stats=knight.stats) == knight


def test_a_battle_file_adds_skills_to_its_template() -> None:
    _, combatants = load_battle_setup(read_json("battles", "demo.json"))
    spearman = next(c for c in combatants if c.id == "c2")
    assert dict(sheet_of(spearman).skills) == {"Spear": 14, "Knife": 13}
    assert dict(sheet_of(load_fighters()["spearman"]).skills) == {"Spear": 14}


def test_a_battle_files_unknown_field_is_refused_where_it_stands() -> None:
    first, second = load_battle_setup(two_fencers(fury=3))[1]
    sheet_of(first)
    with pytest.raises(DataError, match=r"battle.combatants\[1\]: unknown key\(s\) fury"):
        sheet_of(second)


def test_only_a_template_as_the_files_hold_it_takes_a_battle_files_skills() -> None:
    battle = read_json("battles", "demo.json")
    read_templates = {key: read_stats(f) for key, f in load_fighters().items()}
    with pytest.raises(DataError, match=r"combatants\[1\]: the statistics of template 'spear"):
        load_battle_setup(battle, read_templates)
    del battle["combatants"][1]["skills"]
    assert sheet_of(load_battle_setup(battle, read_templates)[1][1]).skills == {"Spear": 14}


def test_a_template_states_what_the_codec_does() -> None:
    data = {
        "fighters": [
            {
                "key": "monk",
                "name": "Monk",
                "attributes": {"st": 10, "dx": 13, "iq": 12, "ht": 12},
                "hit_points": 12,
                "move": 6,
                "skills": {"Staff": 15},
                "weapons": ["quarterstaff"],
                "pain_threshold": "high",
                "injury_tolerance": ["no brain"],
                "dodge_skill": 14,
            }
        ]
    }
    monk = sheet_of(parse_fighters(data, load_catalog())["monk"])
    assert (monk.pain_threshold.value, monk.dodge_skill, monk.encumbrance) == ("high", 14, 0)
    assert [t.value for t in monk.injury_tolerance] == ["no brain"]


# --- the codec ---------------------------------------------------------------------------

# A fencer as this format's version 1 was first written: saved sheets read unchanged.
FENCER_V1: dict[str, object] = {
    "format": "hexfray-sheet-000",
    "version": 1,
    "name": "Fencer",
    "attributes": {"st": 10, "dx": 14, "iq": 11, "ht": 11},
    "hit_points": 11,
    "move": 6,
    "skills": {"Fencing": 15, "Main-Gauche": 14},
    "weapons": [
        {
            "key": "rapier",
            "name": "Rapier",
            "kind": "rapier",
            "skill": "Fencing",
            "parry": "full",
            "weight": 2.75,
            "modes": [
                {
                    "name": "thrust",
                    "damage": {"base": "thr", "type": "imp", "adds": 1},
                    "reach": "1",
                }
            ],
            "two_handed": False,
            "size": "small",
            "quality": "good",
            "min_st": 5,
            "reliable": False,
            "wooden_shaft": False,
            "metal_faced": False,
        },
        {
            "key": "main-gauche",
            "name": "Main-gauche",
            "kind": "main-gauche",
            "skill": "Main-Gauche",
            "parry": "full",
            "weight": 1.25,
            "modes": [{"name": "thrust", "damage": {"base": "thr", "type": "imp"}, "reach": "C-1"}],
            "two_handed": False,
            "size": "small",
            "quality": "good",
            "min_st": 0,
            "reliable": False,
            "wooden_shaft": False,
            "metal_faced": False,
        },
    ],
    "handedness": "right",
    "shield_skill": "Shield",
    "encumbrance": 1,
    "combat_reflexes": True,
    "fencing": True,
    "pain_threshold": "normal",
    "injury_tolerance": [],
    "ambidextrous": False,
    "armor": {"key": "leather", "name": "Leather armor", "pd": 2, "dr": 2, "weight": 20.0},
}


def test_a_version_1_sheet_reads_as_the_template_and_is_written_the_same() -> None:
    ruleset = get_ruleset()
    fencer = load_fighters()["fencer"]
    assert SHEET_VERSION == 1 and FENCER_V1["format"] == SHEET_FORMAT
    assert ruleset.sheets.decode(json.loads(json.dumps(FENCER_V1))) == read_stats(fencer)
    assert ruleset.sheets.encode(fencer) == FENCER_V1


@pytest.mark.parametrize("key", sorted(load_fighters()))
def test_every_template_round_trips_field_by_field(key: str) -> None:
    ruleset = get_ruleset()
    fighter = load_fighters()[key]
    decoded = ruleset.sheets.decode(json.loads(json.dumps(ruleset.sheets.encode(fighter))))
    assert isinstance(decoded.stats, Sheet000)
    assert decoded.stats == sheet_of(fighter)
    assert replace(decoded, stats=fighter.stats) == fighter


def test_a_sheet_changed_in_battle_round_trips() -> None:
    ruleset = get_ruleset()
    knight = load_fighters()["sword-and-shield"]
    changed = with_sheet(
        replace(knight, move=4, shield=None),
        replace(sheet_of(knight), skills={"Broadsword": 16}, encumbrance=3, fencing=True),
    )
    assert ruleset.sheets.decode(json.loads(json.dumps(ruleset.sheets.encode(changed)))) == changed
