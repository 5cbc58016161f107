"""The GM's sheet and side edits at the battle level: each command executed on a
Battle, undone, replayed from the seed, and saved and reopened through the battle
file; and the validation rules the character editor shows beside its fields."""

from __future__ import annotations

import json
from dataclasses import replace
from types import MappingProxyType

import pytest

from hexmap import HexGrid, Reach
from rules.battle.battle import Battle
from rules.battle.catalog import load_catalog
from rules.battle.commands import EditCombatant
from rules.battle.edits import (
    AddSide,
    ChangeSide,
    EditFighter,
    FighterEdited,
    RecolourSide,
    RenameSide,
    SheetProblem,
    SideChanged,
    SideEdited,
    fighter_problems,
    map_span,
    mode_place,
    weapon_place,
)
from rules.battle.model import DamageBase, Fighter, Side, Weapon
from rules.battle.savefile import battle_types, read_battle, write_battle
from rules.battle.sides import SideSetup, side_name
from rules.core.errors import DataError, IllegalCommandError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.sheet import (
    SHEET_DESCRIPTION,
    sheet_entries,
    sheet_of,
    sheet_problems,
    with_sheet_entries,
)
from rules.sets.sheet_fields import SheetEntries, skill_place
from tests.rules.test_history import demo_battle

RULESET_TYPES = get_ruleset("000").sheets.saved_types


def stronger(fighter: Fighter, st: int, hit_points: int, **skills: int) -> Fighter:
    """The fighter with ST and hit points raised and ``skills`` added, through the
    editor's entries."""
    entries = sheet_entries(fighter)
    values = {**entries.values, "st": st, "hit_points": hit_points}
    return with_sheet_entries(
        fighter, SheetEntries(MappingProxyType(values), {**entries.skills, **skills})
    )


def reopened(battle: Battle) -> Battle:
    loaded = read_battle(write_battle(battle, RULESET_TYPES), rulesets=get_ruleset)
    assert loaded.state == battle.state
    assert loaded.commands == battle.commands
    assert loaded.undone == battle.undone
    return loaded


def replayed(battle: Battle) -> Battle:
    again = Battle.replay(battle.initial, battle.seed, battle.commands, rulesets=get_ruleset)
    assert again.state == battle.state
    return again


def test_the_edit_and_side_commands_are_saved_types() -> None:
    assert {EditFighter, ChangeSide, AddSide, RenameSide, RecolourSide} <= set(battle_types())


def test_an_edited_sheet_keeps_the_wounds_and_is_undone_replayed_and_saved() -> None:
    battle = demo_battle(3)
    battle.execute(EditCombatant("c2", hp=7))  # 4 hit points lost
    before = battle.state
    spearman = before.combatant("c2")
    edited = stronger(spearman.fighter, 14, 13, Brawling=12)
    events = battle.execute(EditFighter("c2", edited, side=Side.GREEN))
    after = battle.state.combatant("c2")
    assert sheet_of(after.fighter).attributes.st == 14
    assert sheet_of(after.fighter).skills["Brawling"] == 12
    assert after.fighter.hit_points == 13 and after.hp == 9  # still 4 lost
    assert after.side is Side.GREEN and after.hex == spearman.hex
    assert [type(e) for e in events] == [FighterEdited]
    assert events[0].describe() == (
        "The GM edits Spearman's sheet: hit points 11 → 13; statistics and skills; side: Green"
    )
    replayed(battle)
    loaded = reopened(battle)
    assert sheet_of(loaded.state.combatant("c2").fighter).attributes.st == 14
    battle.undo()
    assert battle.state == before
    reopened(battle)  # the undone edit is kept for a redo
    battle.redo()
    assert battle.state.combatant("c2") == after


def test_an_edit_that_drops_a_weapon_drops_its_unready_and_damage_marks() -> None:
    battle = demo_battle(3)
    fencer = battle.state.combatant("c4")
    marked = fencer.evolve(unready=frozenset({"rapier", "main-gauche"}))
    battle = Battle(battle.state.with_combatants(marked), 3, get_ruleset)
    without_rapier = replace(
        fencer.fighter, weapons=tuple(w for w in fencer.fighter.weapons if w.key != "rapier")
    )
    battle.execute(EditFighter("c4", without_rapier))
    assert battle.state.combatant("c4").unready == frozenset({"main-gauche"})
    assert [w.key for w in battle.state.combatant("c4").fighter.weapons] == ["main-gauche"]
    reopened(battle)


def test_an_invalid_sheet_is_refused_even_from_a_file() -> None:
    battle = demo_battle(3)
    spearman = battle.state.combatant("c2").fighter
    spear = spearman.weapons[0]
    no_skill = replace(spearman, weapons=(replace(spear, skill=""),))
    with pytest.raises(IllegalCommandError, match="needs the skill it is used with"):
        battle.execute(EditFighter("c2", no_skill))
    far = replace(spear.modes[0], reach=Reach.of(1, 40))
    too_long = replace(spearman, weapons=(replace(spear, modes=(far,)),))
    with pytest.raises(IllegalCommandError, match="longer than this map can show"):
        battle.execute(EditFighter("c2", too_long))
    assert battle.commands == ()


def test_an_unchanged_sheet_changes_nothing() -> None:
    battle = demo_battle(3)
    before = battle.state
    assert battle.execute(EditFighter("c1", before.combatant("c1").fighter)) == ()
    assert battle.state == before


def test_sides_are_set_up_renamed_recoloured_and_a_fighter_changes_side() -> None:
    battle = demo_battle(4)
    start = battle.state
    added = battle.execute(AddSide(Side.GOLD, "The Duke's guard", "#c0a000"))
    assert isinstance(added[0], SideEdited)
    assert added[0].describe() == "The GM sets up the side The Duke's guard (#c0a000)"
    battle.execute(AddSide(Side.RED, "Bandits", "#aa0000"))
    renamed = battle.execute(RenameSide(Side.GOLD, "The Duchess's guard"))
    assert renamed[0].describe() == "Side The Duke's guard is renamed The Duchess's guard"
    recoloured = battle.execute(RecolourSide(Side.GOLD, "#e0c040"))
    assert recoloured[0].describe() == "Side The Duchess's guard is now coloured #e0c040"
    moved = battle.execute(ChangeSide("c3", Side.GOLD))
    assert isinstance(moved[0], SideChanged)
    assert moved[0].describe() == "Flail fighter now fights for The Duchess's guard"
    state = battle.state
    assert state.combatant("c3").side is Side.GOLD
    assert state.sides == (
        SideSetup(Side.GOLD, "The Duchess's guard", "#e0c040"),
        SideSetup(Side.RED, "Bandits", "#aa0000"),
    )
    assert side_name(state.sides, Side.BLUE) == "Blue"
    replayed(battle)
    text = write_battle(battle, RULESET_TYPES)
    kinds = [e["command"]["@type"] for e in json.loads(text)["log"]]
    assert kinds == ["AddSide", "AddSide", "RenameSide", "RecolourSide", "ChangeSide"]
    reopened(battle)
    for _ in range(5):
        battle.undo()
    assert battle.state == start


def test_side_commands_refuse_what_cannot_be() -> None:
    battle = demo_battle(4)
    battle.execute(AddSide(Side.GOLD, "Guard", "#c0a000"))
    with pytest.raises(IllegalCommandError, match="already set up"):
        battle.execute(AddSide(Side.GOLD, "Other", "#c0a000"))
    with pytest.raises(IllegalCommandError, match="already named 'guard'"):
        battle.execute(AddSide(Side.GREEN, "guard", "#00a000"))
    with pytest.raises(IllegalCommandError, match="not set up"):
        battle.execute(RenameSide(Side.BLUE, "Blues"))
    with pytest.raises(IllegalCommandError, match="#rrggbb"):
        battle.execute(RecolourSide(Side.GOLD, "gold"))
    with pytest.raises(IllegalCommandError, match="a name of 1 to 60"):
        battle.execute(RenameSide(Side.GOLD, "  "))
    with pytest.raises(IllegalCommandError, match="already fights for"):
        battle.execute(ChangeSide("c1", Side.RED))
    assert len(battle.commands) == 1


# --- the validation rules --------------------------------------------------------------


def test_the_map_span_is_the_longest_distance_on_the_map() -> None:
    for width, height in [(1, 1), (1, 5), (5, 1), (3, 2), (2, 3), (6, 4), (7, 9), (12, 3)]:
        grid = HexGrid(width, height)
        hexes = grid.hexes()
        longest = max(a.distance(b) for a in hexes for b in hexes)
        assert map_span(grid) == longest, (width, height)
    demo = demo_battle(1).state.grid
    assert map_span(demo) == 27


def test_fighter_problems_name_the_field() -> None:
    catalog = load_catalog()
    sword: Weapon = catalog.weapon("broadsword")
    fighter = Fighter(name=" ", hit_points=0, move=-1, weapons=(sword, replace(sword, skill="")))
    grid = HexGrid(4, 4)
    far = replace(sword.modes[1], reach=Reach.of(7))
    # "fixed" chosen for a swing in the editor: a mode without dice to roll.
    diceless = replace(far, name="fixed", damage=replace(far.damage, base=DamageBase.FIXED))
    fighter = replace(
        fighter, weapons=(*fighter.weapons, replace(sword, key="b2", modes=(far, diceless)))
    )
    places = [p.place for p in fighter_problems(fighter, grid)]
    assert places == [
        "name",
        "hit_points",
        "move",
        weapon_place(0, "key"),
        weapon_place(1, "key"),
        weapon_place(1, "skill"),
        mode_place(2, 0, "reach"),
        mode_place(2, 1, "reach"),
        mode_place(2, 1, "damage"),
    ]


def test_seed000_refuses_a_weapon_whose_skill_the_sheet_lacks() -> None:
    spearman = demo_battle(1).state.combatant("c2").fighter
    assert sheet_problems(spearman) == ()
    sword = load_catalog().weapon("broadsword")
    armed = replace(spearman, weapons=(*spearman.weapons, sword))
    assert sheet_problems(armed) == (
        SheetProblem(
            weapon_place(len(spearman.weapons), "skill"),
            "Broadsword is used with Broadsword, which is not among the skills: "
            "add it under Skills.",
        ),
    )


def test_the_sheet_description_checks_ranges_choices_and_skills() -> None:
    fighter = demo_battle(1).state.combatant("c1").fighter
    entries = sheet_entries(fighter)
    assert SHEET_DESCRIPTION.problems(entries) == ()
    bad = SheetEntries(
        MappingProxyType({**entries.values, "st": 0, "dx": 31, "pain_threshold": "none"}),
        {**entries.skills, "Broadsword": 31, "": 10},
    )
    found = {p.place: p.message for p in SHEET_DESCRIPTION.problems(bad)}
    assert found == {
        "st": "ST must be 1 to 50, not 0.",
        "dx": "DX must be 1 to 30, not 31.",
        "pain_threshold": "Pain threshold is one of normal, high, low.",
        skill_place("Broadsword"): "Broadsword must be 1 to 30, not 31.",
        skill_place(""): "A skill needs a name.",
    }
    with pytest.raises(DataError, match="ST must be 1 to 50"):
        with_sheet_entries(fighter, bad)
    no_dodge = SheetEntries(MappingProxyType({**entries.values, "dodge_skill": None}), {})
    assert SHEET_DESCRIPTION.problems(no_dodge) == ()


def test_entries_read_back_give_the_same_sheet() -> None:
    for combatant in demo_battle(1).state.combatants:
        fighter = combatant.fighter
        again = with_sheet_entries(fighter, sheet_entries(fighter))
        assert sheet_of(again) == sheet_of(fighter)
        assert (again.hit_points, again.move) == (fighter.hit_points, fighter.move)
