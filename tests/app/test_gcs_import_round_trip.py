"""Round trips (issue 13): a fighter turned into the GM's template and read back
through app.templates (save_custom_template, then load_library as a later start
loads it) is the same fighter: every imported GCS character, with its gear
written out in full and its origin (the file's id), one without an origin, and
the demo battle's fighters; a fighter placed from an imported character's
template is recognised as that character."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.gcs_import import same_character
from app.new_battle import new_combatant
from app.templates import load_library, save_custom_template
from hexmap import Handedness, Hex
from rules.battle.catalog import load_demo_battle
from rules.battle.model import Fighter, Side
from rules.battle.roster import AddCombatant
from rules.sets.seed000.gcs_import import import_gcs, read_gcs
from rules.sets.seed000.sheet import read_stats
from tests.rules.test_history import demo_battle

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "gcs"
GCS_FILES = ("sword_and_shield_v5.gcs", "two_handed_v4.gcs", "no_weapons_v3.gcs", "fencer_v2.gcs")


def through_a_template(fighter: Fighter, folder: Path) -> Fighter:
    saved = save_custom_template(fighter, fighter.name, "000", folder)
    loaded = load_library(folder)
    assert loaded.problems == ()
    template = loaded.template(saved.key)
    assert template is not None and template.path == saved.path
    return template.fighter


@pytest.mark.parametrize("name", GCS_FILES)
def test_an_imported_fighter_comes_back_from_its_template_unchanged(
    name: str, tmp_path: Path
) -> None:
    fighter = read_gcs((FIXTURES / name).read_bytes()).fighter
    assert fighter.origin.startswith("gcs:")
    assert through_a_template(fighter, tmp_path) == fighter


def test_a_fighter_without_an_origin_comes_back_without_one(tmp_path: Path) -> None:
    document = json.loads((FIXTURES / "two_handed_v4.gcs").read_text(encoding="utf-8"))
    del document["id"]
    fighter = import_gcs(document).fighter
    assert fighter.origin == ""
    back = through_a_template(fighter, tmp_path)
    assert back == fighter
    text = next(tmp_path.glob("*.json")).read_text(encoding="utf-8")
    assert '"origin"' not in text


def test_the_demo_fighters_come_back_from_their_templates_unchanged(tmp_path: Path) -> None:
    _grid, combatants = load_demo_battle()
    for combatant in combatants:
        fighter = read_stats(combatant.fighter)  # the catalog's sheet, read as it is used
        assert through_a_template(fighter, tmp_path) == fighter


def test_a_fighter_placed_from_such_a_template_is_the_same_character(tmp_path: Path) -> None:
    imported = read_gcs((FIXTURES / "two_handed_v4.gcs").read_bytes())
    template = save_custom_template(imported.fighter, "Shieldmaiden", "000", tmp_path)
    battle = demo_battle(3)
    placed = new_combatant(
        battle.state, template, Side.BLUE, Hex.from_offset(1, 1), Handedness.RIGHT
    )
    battle.execute(AddCombatant(placed))
    assert same_character(battle.state, imported.fighter) == placed
