"""Digit text is read as ASCII digits only, its length bounded, by one parser
(``hexmap.digits``) everywhere (issue 23, "Inputs that hang or crash", 2):
``int()`` on text that ``str.isdigit()`` passed raised a bare ValueError, a
traceback where the reader's own one-line error belongs, for a reach of 5,000
digits, dice written "²d", dice counts and adds of 5,000 digits (battle file,
tables, GCS import) and a fighter id "c²", after which every Add, Duplicate and
Import raised."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hexmap import Hex
from rules.battle.battle import Battle
from rules.battle.pieces import DistanceDice
from rules.battle.roster import AddCombatant, next_combatant_id
from rules.battle.savefile import BattleFileError, read_battle, write_battle
from rules.core.assets import read_json
from rules.core.dice import Dice, parse_dice
from rules.core.errors import DataError
from rules.sets.registry import get_ruleset
from rules.sets.seed000.breakage import parse_damage
from rules.sets.seed000.damage import parse_wounding_table
from rules.sets.seed000.gcs_import import read_gcs
from rules.sets.seed000.hit_location import parse_hit_location_table
from rules.sets.seed000.wound_effects import parse_threshold
from rules.sets.seed002.tables import parse_dice_002
from tests.rules.test_gcs_import import FIXTURES
from tests.rules.test_history import demo_battle

THOUSANDS = "1" * 5000  # int() refuses more than 4,300 digits with a bare ValueError


def document(battle: Battle) -> dict[str, object]:
    """The battle's file as JSON data, to change before it is read back."""
    data = json.loads(
        write_battle(battle, get_ruleset(battle.initial.ruleset_key).sheets.saved_types)
    )
    assert isinstance(data, dict)
    return data


def first_mode(data: dict[str, object]) -> dict[str, object]:
    fighter = data["initial_state"]["combatants"][0]["fighter"]  # type: ignore[index]
    mode = fighter["weapons"][0]["modes"][0]
    assert isinstance(mode, dict)
    return mode


def refusal(data: dict[str, object]) -> str:
    with pytest.raises(BattleFileError) as caught:
        read_battle(json.dumps(data), rulesets=get_ruleset)
    message = str(caught.value)
    assert "\n" not in message and len(message) < 300, message
    return message


def test_a_battle_file_with_a_reach_of_thousands_of_digits_is_refused() -> None:
    data = document(demo_battle(1))
    first_mode(data)["reach"] = THOUSANDS
    message = refusal(data)
    assert "combatants[0].fighter.weapons[0].modes[0].reach: bad reach" in message
    assert "a distance of 5,000 digits is beyond 99" in message


@pytest.mark.parametrize(
    "dice",
    [
        "²d",
        "2d²",
        "٣d",
        "2d+²",
        THOUSANDS + "d",
        f"1d{THOUSANDS}",
        f"1d+{THOUSANDS}",
        "1d-" + "9" * 10,
    ],
    ids=[
        "superscript",
        "superscript-sides",
        "arabic",
        "superscript-adds",
        "count",
        "sides",
        "adds",
        "adds-10",
    ],
)
def test_a_battle_file_with_dice_in_other_digits_or_thousands_of_them_is_refused(
    dice: str,
) -> None:
    data = document(demo_battle(1))
    first_mode(data)["damage"] = {"base": "FIXED", "adds": 0, "type": "CUTTING", "fixed": dice}
    message = refusal(data)
    assert "modes[0].damage.fixed: expected dice like" in message


def test_dice_in_a_battle_file_still_read_as_written() -> None:
    data = document(demo_battle(1))
    first_mode(data)["damage"] = {"base": "FIXED", "adds": 0, "type": "CUTTING", "fixed": "1d8+1"}
    battle = read_battle(json.dumps(data), rulesets=get_ruleset)
    fixed = battle.initial.combatants[0].fighter.weapons[0].modes[0].damage.fixed
    assert fixed == Dice(1, 1, 8)


@pytest.mark.parametrize("text", [THOUSANDS + "d", f"2d+{THOUSANDS}", "٣d", "²d", "2d+١"])
def test_dice_of_the_tables_and_gcs_are_ascii_digits_of_bounded_length(text: str) -> None:
    with pytest.raises(DataError) as caught:
        parse_dice(text)
    assert len(str(caught.value)) < 200
    assert parse_dice(" 2d6 + 1 ") == Dice(2, 1)


def test_a_gcs_weapon_with_dice_of_thousands_of_digits_is_left_out_and_named() -> None:
    document = json.loads((FIXTURES / "sword_and_shield_v5.gcs").read_text(encoding="utf-8"))
    weapon = document["equipment"][0]["weapons"][0]  # the broadsword's swing
    weapon["damage"] = {"type": "cut", "st": "", "base": f"1d+{THOUSANDS}"}
    result = read_gcs(json.dumps(document).encode("utf-8"))
    assert any("is not a dice roll" in line for line in result.skipped)
    document["equipment"][0]["weapons"][0]["damage"] = {"type": "cut", "st": "sw", "base": "+²"}
    result = read_gcs(json.dumps(document).encode("utf-8"))
    assert any("adds dice to sw" in line for line in result.skipped)


def test_the_rulesets_own_dice_and_damage_text_read_ascii_digits_only() -> None:
    for text in ("²d6", f"{THOUSANDS}d6", f"1d6+{THOUSANDS}", "1d٣"):
        with pytest.raises(DataError, match="bad distance dice"):
            DistanceDice.parse(text)
    assert DistanceDice.parse("1d3-1") == DistanceDice(1, 3, -1)
    for text in (f"{THOUSANDS}d6", f"1d{THOUSANDS}", f"1d6+{THOUSANDS}", "١d6"):
        with pytest.raises(DataError):
            parse_dice_002(text, "weapons[0].damage")
    assert parse_dice_002("2d6+2", "x") == Dice(2, 2, 6)
    with pytest.raises(DataError, match="too large"):
        parse_damage(f"sw+{THOUSANDS} cr")
    assert parse_damage("thr - 1 imp").adds == -1
    for text in ("HP/²", f"HP/{THOUSANDS}", "HP/٣"):
        with pytest.raises(DataError, match="expected 'HP', 'HP/n'"):
            parse_threshold(text, False, "wounds[0].over")
    assert parse_threshold("HP/3", False, "x").hp_divisor == 3


def test_a_location_note_numbered_in_other_digits_is_refused() -> None:
    multipliers = parse_wounding_table(read_json("rulesets", "000", "wounding.json")).multipliers
    table = read_json("rulesets", "000", "hit_locations.json")
    assert isinstance(table, dict) and isinstance(table["notes"], dict)
    table["notes"]["²"] = "a note"
    with pytest.raises(DataError, match="expected a numbered text"):
        parse_hit_location_table(table, multipliers)


@pytest.mark.parametrize("odd_id", ["c²", "c" + THOUSANDS, "c1000000000"])
def test_a_fighter_id_in_other_digits_opens_and_fighters_still_join(odd_id: str) -> None:
    data = document(demo_battle(1))
    data["initial_state"]["combatants"][1]["id"] = odd_id  # type: ignore[index]
    battle = read_battle(json.dumps(data), rulesets=get_ruleset)
    ids = {c.id for c in battle.state.combatants}
    assert odd_id in ids
    fresh = next_combatant_id(battle.state)
    assert fresh not in ids
    first = battle.state.combatants[0]
    battle.execute(AddCombatant(replace(first, id=fresh, hex=Hex.from_offset(0, 0))))
    assert battle.state.combatant(fresh).fighter == first.fighter


def test_an_id_spelt_as_the_next_number_is_passed_over() -> None:
    data = document(demo_battle(1))
    data["initial_state"]["combatants"][1]["id"] = "c1000000000"  # type: ignore[index]
    data["initial_state"]["combatants"][2]["id"] = "c999999999"  # type: ignore[index]
    battle = read_battle(json.dumps(data), rulesets=get_ruleset)
    assert next_combatant_id(battle.state) == "c1000000001"
