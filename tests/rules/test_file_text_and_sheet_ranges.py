"""Two smaller faults of issue 23 ("Inputs that hang or crash", 5):

- a byte-order mark before a battle file's or a table's text got it refused as
  damaged: it is skipped;
- hit points of 10^9 in a battle file overflowed the inspector's number box: a
  fighter a file brings in (its initial state, an AddCombatant or EditFighter of
  its log, a sheet held as text) is held to the ranges of its ruleset's sheet,
  the character editor's, and refused with a message naming the field.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hexmap import Hex
from rules.battle.battle import Battle
from rules.battle.edits import MAX_HIT_POINTS, EditFighter
from rules.battle.roster import AddCombatant
from rules.battle.savefile import (
    PartlyReplayedFile,
    read_battle,
    write_battle,
)
from rules.core.errors import DataError, IllegalCommandError
from rules.core.strict_json import strict_json
from rules.sets.registry import get_ruleset
from tests.rules import seed003_battle
from tests.rules.test_digit_text import document, refusal
from tests.rules.test_history import demo_battle

BOM = "\ufeff"


def text_of(battle: Battle) -> str:
    return write_battle(battle, get_ruleset(battle.initial.ruleset_key).sheets.saved_types)


# --- the byte-order mark -------------------------------------------------------------------


def test_a_battle_file_after_a_byte_order_mark_opens() -> None:
    battle = demo_battle(1)
    text = text_of(battle)
    for marked in (BOM + text, (BOM + text).encode("utf-8")):
        opened = read_battle(marked, rulesets=get_ruleset)
        assert opened.state == battle.state


def test_a_table_after_a_byte_order_mark_reads_and_a_mark_inside_is_still_damage() -> None:
    assert strict_json(BOM + '{"a": [1, "3/2"]}', DataError) == {"a": [1, "3/2"]}
    with pytest.raises(DataError, match="damaged"):
        strict_json('{"a": ' + BOM + "1}", DataError)


# --- the sheet's ranges --------------------------------------------------------------------


def test_hit_points_of_a_billion_in_a_battle_file_are_refused_naming_the_field() -> None:
    data = document(demo_battle(1))
    fighter = data["initial_state"]["combatants"][0]["fighter"]  # type: ignore[index]
    fighter["hit_points"] = 10**9
    message = refusal(data)
    assert message.startswith("initial_state: the sheet of 'Sword-and-shield fighter': ")
    assert f"Hit points must be at most {MAX_HIT_POINTS:,}." in message
    fighter["hit_points"] = 500  # beyond seed 000's sheet, the character editor's range
    assert "Hit points must be 1 to 200, not 500." in refusal(data)


def test_a_sheet_held_as_text_beyond_its_ranges_is_refused_naming_the_field() -> None:
    data = document(demo_battle(1))
    stats = data["initial_state"]["combatants"][0]["fighter"]["stats"]  # type: ignore[index]
    stats["fields"]["attributes"]["st"] = 10**30
    assert "ST must be 1 to 50, not 1000000000000000000000000000000." in refusal(data)
    stats["fields"]["attributes"]["st"] = 12
    stats["fields"]["skills"]["Broadsword"] = 10**6
    assert "Broadsword must be 1 to 30, not 1000000." in refusal(data)


def test_a_log_that_brings_in_hit_points_of_a_billion_is_replayed_only_before_it() -> None:
    battle = demo_battle(1)
    first = battle.state.combatants[0]
    battle.execute(EditFighter(first.id, replace(first.fighter, hit_points=14)))
    data = document(battle)
    data["log"][0]["command"]["fighter"]["hit_points"] = 10**9  # type: ignore[index]
    with pytest.raises(PartlyReplayedFile) as caught:
        read_battle(json.dumps(data), rulesets=get_ruleset)
    assert f"Hit points must be at most {MAX_HIT_POINTS:,}." in str(caught.value)
    assert caught.value.replayed == 0


def test_a_newcomer_beyond_the_sheet_is_refused() -> None:
    battle = demo_battle(1)
    first = battle.state.combatants[0]
    giant = replace(first.fighter, hit_points=10**9)
    newcomer = replace(first, id="c99", fighter=giant, hex=Hex.from_offset(0, 0))
    with pytest.raises(IllegalCommandError, match="Hit points must be at most"):
        battle.execute(AddCombatant(newcomer))
    newcomer = replace(newcomer, fighter=replace(giant, hit_points=201))
    with pytest.raises(IllegalCommandError, match="Hit points must be 1 to 200, not 201"):
        battle.execute(AddCombatant(newcomer))
    battle.execute(AddCombatant(replace(newcomer, fighter=replace(giant, hit_points=200))))


def test_a_sheet_whose_hit_points_no_field_shows_is_bounded_too() -> None:
    """Seed 003 derives hit points from Damage Capacity and shows no field for them."""
    battle = seed003_battle.battle(seed003_battle.duel())
    data = document(battle)
    data["initial_state"]["combatants"][0]["fighter"]["hit_points"] = 10**9  # type: ignore[index]
    assert f"Hit points must be at most {MAX_HIT_POINTS:,}." in refusal(data)
