"""Seed 003's sheet, codec, templates, battle files and the protocol's other
answers (legal actions, conditions, terrain labels, stray pieces)."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from fractions import Fraction

import pytest

from rules.battle.commands import Attack, MoveCombatant
from rules.battle.edits import EditFighter
from rules.battle.model import Status
from rules.battle.pieces import AT_FEET, Piece
from rules.battle.savefile import read_battle, write_battle
from rules.battle.scatter import Occupant, StrayRule
from rules.battle.terrain import Footing, Light, WaterDepth
from rules.battle.turns import StartTurns
from rules.core.dice import ScriptedDice
from rules.core.errors import DataError
from rules.sets.components.fudge_locations import BodyPart, WoundLevel
from rules.sets.registry import get_ruleset
from rules.sets.seed003.combat import Choices003
from rules.sets.seed003.sheet import Sheet003, sheet_of
from rules.sets.seed003.tracks import body_of
from tests.rules.seed003_battle import (
    HOME,
    SOUTH,
    TEMPLATES,
    battle,
    duel,
    fudge,
    ruleset,
    template,
)

NAMES = ("swordsman", "barbarian", "archer", "knight", "crossbowman")


@pytest.mark.parametrize("name", NAMES)
def test_every_template_round_trips_through_the_codec(name: str) -> None:
    doc = json.loads((TEMPLATES / f"003-{name}.json").read_text())
    assert (doc["format"], doc["version"], doc["ruleset"]) == ("hexfray-template", 1, "003")
    fighter = ruleset().sheets.decode(doc["sheet"])
    assert isinstance(fighter.stats, Sheet003)
    assert ruleset().sheets.encode(fighter) == doc["sheet"]


def test_the_codec_refuses_another_format_and_wrong_boxes() -> None:
    data = ruleset().sheets.encode(template("swordsman"))
    with pytest.raises(DataError, match="hexfray-sheet-003"):
        ruleset().sheets.decode({**data, "format": "hexfray-sheet-000"})
    with pytest.raises(DataError, match="boxes"):
        ruleset().sheets.decode({**data, "hit_points": 11})
    with pytest.raises(DataError, match="ladder"):
        ruleset().sheets.decode({**data, "attributes": {**data["attributes"], "strength": 4}})


def test_sheet_entries_round_trip_and_derive_the_boxes() -> None:
    fighter = template("barbarian")
    entries = ruleset().sheets.entries(fighter)
    assert entries.values["strength"] == "Great"
    assert ruleset().sheets.with_entries(fighter, entries) == fighter
    tougher = replace(entries, values={**entries.values, "damage_capacity": "Superb"})
    assert ruleset().sheets.with_entries(fighter, tougher).hit_points == 13
    assert ruleset().sheets.problems(fighter) == ()
    assert [f.key for f in ruleset().sheets.description().fields][:4] == [
        "strength",
        "agility",
        "damage_capacity",
        "constitution",
    ]


def test_a_battle_file_saves_and_loads_with_its_wound_tracks_undo_and_replay() -> None:
    b = battle(duel())
    b.execute(StartTurns(), ScriptedDice(fudge("++++") + fudge("----")))
    b.execute(Attack("a", "d", Choices003("broadsword", "swing", aim="left arm")))
    b.execute(MoveCombatant("a", HOME + (HOME - SOUTH)))
    text = write_battle(b, ruleset().sheets.saved_types)
    loaded = read_battle(text, rulesets=get_ruleset)
    assert loaded.state == b.state
    assert body_of(loaded.state.combatant("d")) == body_of(b.state.combatant("d"))
    loaded.undo()
    loaded.undo()
    assert loaded.state.combatant("d").tracks == b.initial.combatant("d").tracks
    loaded.redo()
    assert loaded.state.combatant("d") == b.state.combatant("d")


def test_legal_actions_follow_the_turn_and_reach() -> None:
    b = battle(duel())
    b.execute(StartTurns(), ScriptedDice(fudge("++++") + fudge("----")))
    actions = ruleset().turns.legal_actions(b.state, "a")
    labels = [a.label for a in actions]
    # The broadsword's two modes, each at the torso and at each of the ten other
    # parts 003 5.871 lets it aim at.
    assert len([a for a in actions if isinstance(a.command, Attack)]) == 2 * 11
    assert "attack Swordsman: Broadsword, swing (+3), at the torso" in labels
    assert labels[-1] == "end the turn"
    assert "maneuver: All-out attack" in labels
    assert ruleset().turns.legal_actions(b.state, "d") == ()  # not its turn
    assert ruleset().attacks.attack_variants(b.state, "a", "d")[0] == Choices003(
        "broadsword", "swing"
    )
    assert len(ruleset().attacks.attack_variants(b.state, "a", "d")) == 2 * 11


def test_condition_labels_and_status() -> None:
    b = battle(duel())
    b.execute(
        Attack("a", "d", Choices003("broadsword", "swing", aim="left arm")),
        ScriptedDice(fudge("+000") + fudge("----")),
    )
    d = b.state.combatant("d")
    assert body_of(d).track(BodyPart.LEFT_ARM).worst is WoundLevel.VERY_HURT
    assert ruleset().conditions.labels(d) == ("very hurt left arm (-2)",)
    assert d.status is Status.ACTIVE


@pytest.mark.parametrize(
    ("fact", "label"),
    [
        (Light.DIM_3, "dim light (darkness 3 of 10) (-1)"),
        (Light.NEARLY_DARK, "nearly dark (-3)"),
        (Footing.BAD, "bad footing (-1)"),
        (WaterDepth.WAIST, "waist (-2)"),
        (Light.DAYLIGHT, "daylight"),
    ],
)
def test_terrain_labels(fact: Light | Footing | WaterDepth, label: str) -> None:
    assert ruleset().battlefield.terrain_label(fact) == label.replace(
        "waist", WaterDepth.WAIST.label
    )


def test_a_stray_piece_is_dodged_on_agility_and_hits_with_a_scratch() -> None:
    state = duel()
    d = state.combatant("d")
    rules = ruleset().battlefield.stray_hits
    # By enumeration: every one of 4dF's 81 ways through the check itself; a Fair
    # Agility is hit below Fair, on 1 + 4 + 10 + 16 = 31 of them.
    hits = sum(
        rules.check("Axe", AT_FEET, Occupant(d), SOUTH, StrayRule.IN_PATH, ScriptedDice(f)).hit
        for f in itertools.product((1, 2, 3), repeat=4)
    )
    assert hits == 31
    assert rules.hit_chance(Occupant(d), StrayRule.IN_PATH) == Fraction(hits, 81)
    check = rules.check(
        "Axe", AT_FEET, Occupant(d), SOUTH, StrayRule.IN_PATH, ScriptedDice(fudge("-000"))
    )
    assert check.hit
    after, events = ruleset().battlefield.piece_hit(
        state,
        Piece("Axe", None, AT_FEET),
        None,
        state.combatant("a"),
        "d",
        SOUTH,
        ScriptedDice(()),
    )
    assert body_of(after.combatant("d")).track(BodyPart.TORSO).worst is WoundLevel.SCRATCH
    assert "Axe" in events[0].describe()


def test_catalog_and_placeable_items() -> None:
    catalog = ruleset().sheets.catalog()
    assert catalog.weapon("broadsword").modes[0].damage.adds == 3
    assert catalog.armor_suit("plate").dr == 3
    names = [i.name for i in ruleset().battlefield.placeable_items()]
    assert "Fist" not in names and "Medium shield" in names
    assert sheet_of(template("knight")).helmet == 3


def test_an_edited_damage_capacity_keeps_the_wounds_on_the_new_tracks() -> None:
    b = battle(duel())
    b.execute(
        Attack("a", "d", Choices003("broadsword", "swing", aim="head")),
        ScriptedDice(fudge("++++") + fudge("-000")),
    )
    d = b.state.combatant("d")
    assert body_of(d).track(BodyPart.HEAD).checked == (0, 0, 1, 0, 0)
    entries = ruleset().sheets.entries(d.fighter)
    tougher = ruleset().sheets.with_entries(
        d.fighter, replace(entries, values={**entries.values, "damage_capacity": "Good"})
    )
    b.execute(EditFighter("d", tougher))
    head = body_of(b.state.combatant("d")).track(BodyPart.HEAD)
    assert head.capacity == 0 and head.boxes == (2, 2, 2, 2, 2)
    assert head.checked == (0, 0, 1, 0, 0)
