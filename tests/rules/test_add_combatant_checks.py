"""AddCombatant checks a newcomer's sheet as EditFighter checks an edited one
(rules.battle.edits.check_fighter): a fighter the edit refuses cannot join the
battle either, whether from the window, an import or a battle file's log, and a
battle file cannot hold one in its initial state."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hexmap import Hex, HexGrid, Reach
from rules.battle.battle import Battle
from rules.battle.edits import EditFighter
from rules.battle.model import Combatant, DamageBase, Fighter
from rules.battle.roster import AddCombatant, next_combatant_id
from rules.battle.savefile import (
    BattleFileError,
    PartlyReplayedFile,
    read_battle,
    write_battle,
)
from rules.battle.state import BattleState
from rules.core.errors import IllegalCommandError
from rules.sets.registry import get_ruleset
from tests.rules.test_history import demo_battle

RULESET_TYPES = get_ruleset("000").sheets.saved_types
FREE = Hex.from_offset(1, 1)  # a hex of the demo's map no fighter stands on


def broken(spearman: Fighter, what: str) -> Fighter:
    """The spearman's sheet with one thing the battle refuses in it."""
    spear = spearman.weapons[0]
    thrust = spear.modes[0]
    if what == "no name":
        return replace(spearman, name="  ")
    if what == "no hit points":
        return replace(spearman, hit_points=0)
    if what == "a Move below 0":
        return replace(spearman, move=-1)
    if what == "two weapons of one key":
        return replace(spearman, weapons=(spear, replace(spear, name="Second spear")))
    if what == "a weapon without a skill":
        return replace(spearman, weapons=(replace(spear, skill=""),))
    if what == "two modes of one name":
        return replace(spearman, weapons=(replace(spear, modes=(thrust, thrust)),))
    if what == "a reach longer than the map":
        far = replace(thrust, reach=Reach.of(1, 40))
        return replace(spearman, weapons=(replace(spear, modes=(far,)),))
    assert what == "fixed damage without its dice"
    diceless = replace(thrust, damage=replace(thrust.damage, base=DamageBase.FIXED))
    return replace(spearman, weapons=(replace(spear, modes=(diceless,)),))


BROKEN = (
    "no name",
    "no hit points",
    "a Move below 0",
    "two weapons of one key",
    "a weapon without a skill",
    "two modes of one name",
    "a reach longer than the map",
    "fixed damage without its dice",
)


def newcomer(battle: Battle, fighter: Fighter) -> Combatant:
    c2 = battle.state.combatant("c2")
    return replace(c2, id=next_combatant_id(battle.state), fighter=fighter, hex=FREE)


@pytest.mark.parametrize("what", BROKEN)
def test_a_newcomer_is_refused_for_what_an_edit_is_refused(what: str) -> None:
    battle = demo_battle(3)
    before = battle.state
    bad = broken(before.combatant("c2").fighter, what)
    with pytest.raises(IllegalCommandError) as edit_refusal:
        battle.execute(EditFighter("c2", bad))
    with pytest.raises(IllegalCommandError) as add_refusal:
        battle.execute(AddCombatant(newcomer(battle, bad)))
    assert str(add_refusal.value) == str(edit_refusal.value)
    assert str(add_refusal.value).startswith(f"the sheet of {bad.name!r}: ")
    assert battle.state == before and battle.commands == ()


def test_a_sound_newcomer_still_joins() -> None:
    battle = demo_battle(3)
    joined = newcomer(battle, battle.state.combatant("c2").fighter)
    battle.execute(AddCombatant(joined))
    assert battle.state.combatant(joined.id) == joined


def test_a_reach_is_checked_against_the_battles_own_map() -> None:
    battle = demo_battle(3)
    spearman = battle.state.combatant("c2")  # the long spear reaches 2 hexes
    tiny = Battle(BattleState(HexGrid(2, 1), ()), 3, get_ruleset)  # 1 hex from edge to edge
    with pytest.raises(IllegalCommandError, match="longer than this map can show"):
        tiny.execute(AddCombatant(replace(spearman, hex=Hex.from_offset(0, 0))))
    assert tiny.state.combatants == ()


def test_a_battle_file_cannot_bring_in_a_refused_sheet() -> None:
    battle = demo_battle(3)
    battle.execute(AddCombatant(newcomer(battle, battle.state.combatant("c2").fighter)))
    document = json.loads(write_battle(battle, RULESET_TYPES))
    document["log"][0]["command"]["combatant"]["fighter"]["name"] = " "  # edited by hand
    with pytest.raises(PartlyReplayedFile, match="A fighter needs a name") as refused:
        read_battle(json.dumps(document), rulesets=get_ruleset)
    assert refused.value.replayed == 0
    assert [c.id for c in refused.value.battle.state.combatants] == ["c1", "c2", "c3", "c4"]
    # ... nor hold one in its initial state.
    document = json.loads(write_battle(demo_battle(3), RULESET_TYPES))
    fighter = document["initial_state"]["combatants"][1]["fighter"]
    fighter["weapons"][0]["key"] = fighter["weapons"][1]["key"]  # the spearman's two weapons
    with pytest.raises(BattleFileError, match="initial_state: the sheet of 'Spearman': "):
        read_battle(json.dumps(document), rulesets=get_ruleset)
