"""Mixing rulesets: a fighter's sheet belongs to one ruleset
(``SheetRules.sheet_type``). ``AddCombatant`` and ``EditFighter`` refuse a
fighter whose sheet is another ruleset's, naming the fighter and both rulesets; a
battle file of one ruleset holding another's fighter is refused on load with that
message, not as an unknown kind. Battle-level: commands executed on a ``Battle``,
files written and read back.

Besides the registered rulesets (every pair of them is mixed below), a stand-in
ruleset "999" (seed 000's rules with a sheet of its own, which declares the key
"999") shows the refusals while only one ruleset is registered."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import RawSheet, load_fighters
from rules.battle.edits import EditFighter
from rules.battle.model import Combatant, Fighter, RulesetSheet, Side
from rules.battle.roster import AddCombatant
from rules.battle.savefile import BattleFileError, read_battle, write_battle
from rules.battle.state import BattleState
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset, ruleset_keys, sheet_owner
from rules.sets.seed000.sheet import read_stats
from rules.sets.sheet_fields import SheetDescription, SheetEntries
from rules.sets.sheet_refusal import sheet_refusal_in, sheet_ruleset_key

ROOT = Path(__file__).resolve().parents[2]
GRID = HexGrid(12, 10)


@dataclass(frozen=True, slots=True)
class Sheet999(RulesetSheet):
    """The stand-in ruleset's sheet."""

    ruleset_key: ClassVar[str | None] = "999"

    grit: int = 3


class Sheets999:
    """Seed 000's sheets with ``Sheet999`` as its sheet."""

    def __init__(self, base: Any) -> None:
        self._base = base

    sheet_type = Sheet999

    @property
    def saved_types(self) -> tuple[type, ...]:
        return (*self._base.saved_types, Sheet999)

    def refusal(self, fighter: Fighter) -> str | None:
        return sheet_refusal_in(fighter, self, "999")

    def description(self) -> SheetDescription:
        """No field the editor shows: ``sheet_refusal_in`` checks the ranges of none."""
        return SheetDescription(fields=(), skill_minimum=0, skill_maximum=0)

    def entries(self, fighter: Fighter) -> SheetEntries:
        return SheetEntries(values={}, skills={})

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


class Ruleset999:
    """Seed 000's rules under the key "999", with ``Sheet999`` as its sheet."""

    def __init__(self) -> None:
        self._base = get_ruleset("000")
        self.sheets = Sheets999(self._base.sheets)

    key = "999"

    def __getattr__(self, name: str) -> Any:
        return getattr(self._base, name)


STAND_IN = Ruleset999()


def finder(key: str | None, options: Sequence[str] = ()) -> Any:
    return STAND_IN if key == "999" else get_ruleset(key, options)


def owner(type_name: str) -> str | None:
    return "999" if type_name == "Sheet999" else sheet_owner(type_name)


def fighter_999(name: str = "Stand-in") -> Fighter:
    template = load_fighters()["fencer"]
    return replace(template, name=name, stats=Sheet999())


def placed(fighter: Fighter, ident: str, col: int, side: Side = Side.RED) -> Combatant:
    return Combatant(ident, fighter, side, Hex.from_offset(col, 4), Facing.S, fighter.hit_points)


def battle_of(key: str, *combatants: Combatant) -> Battle:
    return Battle(BattleState(GRID, combatants, ruleset_key=key), 5, finder)


# --- the commands ------------------------------------------------------------------------


def test_a_fighter_of_another_ruleset_does_not_join_a_000_battle() -> None:
    battle = battle_of("000")
    with pytest.raises(IllegalCommandError) as refused:
        battle.execute(AddCombatant(placed(fighter_999("Brann"), "c1", 3)))
    message = str(refused.value)
    assert "Brann's sheet is of ruleset 999" in message
    assert "this battle plays ruleset 000" in message
    assert battle.state.combatants == () and battle.commands == ()


def test_a_000_template_does_not_join_a_battle_of_another_ruleset() -> None:
    battle = battle_of("999")
    fencer = load_fighters()["fencer"]  # a sheet as the catalog holds it: 000's
    with pytest.raises(
        IllegalCommandError, match=r"Fencer's sheet is of ruleset 000 .*ruleset 999"
    ):
        battle.execute(AddCombatant(placed(fencer, "c1", 3)))
    with pytest.raises(IllegalCommandError, match=r"ruleset 000 .*ruleset 999"):
        battle.execute(AddCombatant(placed(read_stats(fencer), "c1", 3)))
    battle.execute(AddCombatant(placed(fighter_999(), "c1", 3)))
    assert [c.id for c in battle.state.combatants] == ["c1"]


def test_own_sheets_join_read_or_not() -> None:
    battle = battle_of("000")
    fencer = load_fighters()["fencer"]
    battle.execute(AddCombatant(placed(fencer, "c1", 3)))
    battle.execute(AddCombatant(placed(read_stats(fencer), "c2", 5, Side.BLUE)))
    assert len(battle.state.combatants) == 2
    ruleset = get_ruleset("000")
    assert ruleset.sheets.refusal(fencer) is None
    assert ruleset.sheets.refusal(replace(fencer, stats=RulesetSheet())) is None
    assert sheet_ruleset_key(fencer.stats) == "000" and isinstance(fencer.stats, RawSheet)
    assert sheet_ruleset_key(Sheet999()) == "999"
    assert sheet_ruleset_key(RulesetSheet()) is None


def test_an_edit_cannot_give_a_fighter_another_rulesets_sheet() -> None:
    fencer = load_fighters()["fencer"]
    battle = battle_of("000", placed(fencer, "c1", 3))
    with pytest.raises(IllegalCommandError, match=r"Fencer's sheet is of ruleset 999.*ruleset 000"):
        battle.execute(EditFighter("c1", replace(fencer, stats=Sheet999())))
    assert battle.state.combatant("c1").fighter == fencer
    battle.execute(EditFighter("c1", replace(fencer, hit_points=14)))
    assert battle.state.combatant("c1").fighter.hit_points == 14


# --- the battle file ---------------------------------------------------------------------


def file_of(battle: Battle) -> dict[str, Any]:
    ruleset = finder(battle.initial.ruleset_key)
    data: dict[str, Any] = json.loads(write_battle(battle, ruleset.sheets.saved_types))
    return data


def test_a_000_file_holding_a_fighter_of_another_ruleset_is_refused_by_name() -> None:
    # A battle of 999 with its own fighter, relabelled as a battle of 000.
    document = file_of(battle_of("999", placed(fighter_999("Brann"), "c1", 3)))
    document["initial_state"]["ruleset_key"] = "000"
    with pytest.raises(BattleFileError) as refused:
        read_battle(json.dumps(document), rulesets=finder, sheet_owner=owner)
    message = str(refused.value)
    assert message.startswith("Brann (the initial state) is a fighter of ruleset 999")
    assert "(a Sheet999 sheet)" in message and "this battle plays ruleset 000" in message
    assert "unknown kind" not in message


def test_a_fighter_of_another_ruleset_in_the_log_is_refused_by_name() -> None:
    battle = battle_of("999")
    battle.execute(AddCombatant(placed(fighter_999("Brann"), "c1", 3)))
    document = file_of(battle)
    document["initial_state"]["ruleset_key"] = "000"
    with pytest.raises(BattleFileError, match=r"Brann \(log entry 1\) is a fighter of ruleset 999"):
        read_battle(json.dumps(document), rulesets=finder, sheet_owner=owner)


def test_a_000_fighter_in_a_file_of_another_ruleset_is_refused_by_name() -> None:
    document = file_of(battle_of("000", placed(load_fighters()["fencer"], "c1", 3)))
    document["initial_state"]["ruleset_key"] = "999"
    with pytest.raises(
        BattleFileError,
        match=r"Fencer \(the initial state\) is a fighter of ruleset 000 \(a RawSheet sheet\), "
        "and this battle plays ruleset 999",
    ):
        read_battle(json.dumps(document), rulesets=finder, sheet_owner=owner)


def test_a_battle_of_own_fighters_loads_as_saved() -> None:
    battle = battle_of("999", placed(fighter_999(), "c1", 3))
    text = json.dumps(file_of(battle))
    assert read_battle(text, rulesets=finder, sheet_owner=owner).state == battle.state


# --- every pair of registered rulesets -----------------------------------------------------


def demo_fighter(key: str) -> Fighter:
    """The first fighter of ruleset ``key``'s demo battle."""
    path = ROOT / "assets" / "battles" / f"demo-{key}.hexfray"
    battle = read_battle(path.read_bytes(), rulesets=get_ruleset)
    return battle.state.combatants[0].fighter


PAIRS = list(itertools.permutations(ruleset_keys(), 2))


@pytest.mark.skipif(not PAIRS, reason="one ruleset registered: the stand-in above mixes")
@pytest.mark.parametrize(("battle_key", "fighter_key"), PAIRS)
def test_registered_rulesets_refuse_each_others_fighters(battle_key: str, fighter_key: str) -> None:
    stranger = demo_fighter(fighter_key)
    battle = Battle(BattleState(GRID, (), ruleset_key=battle_key), 5, get_ruleset)
    with pytest.raises(IllegalCommandError) as refused:
        battle.execute(AddCombatant(placed(stranger, "c1", 3)))
    message = str(refused.value)
    assert f"{stranger.name}'s sheet is of ruleset {fighter_key}" in message
    assert f"this battle plays ruleset {battle_key}" in message
    # The stranger's battle file, relabelled as a battle of the other ruleset.
    own = Battle(
        BattleState(GRID, (placed(stranger, "c1", 3),), ruleset_key=fighter_key), 5, get_ruleset
    )
    document: dict[str, Any] = json.loads(
        write_battle(own, get_ruleset(fighter_key).sheets.saved_types)
    )
    document["initial_state"]["ruleset_key"] = battle_key
    with pytest.raises(BattleFileError) as on_load:
        read_battle(json.dumps(document), rulesets=get_ruleset, sheet_owner=sheet_owner)
    assert f"is a fighter of ruleset {fighter_key}" in str(on_load.value)
    assert f"this battle plays ruleset {battle_key}" in str(on_load.value)


# --- character files of other programs -------------------------------------------------------


def test_gcs_files_are_imported_by_seed_000_only() -> None:
    importers = [
        key
        for key in ruleset_keys()
        if any(".gcs" in kind.suffixes for kind in get_ruleset(key).sheets.character_file_kinds())
    ]
    assert importers == ["000"]
