"""Sweeps (rules.sim.sweep): the text read with every number bounded before it is
converted, and each value applied to the fighter's sheet as the character editor
would, through the sheet description and the catalog."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.files import open_battle
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset
from rules.sim.sweep import (
    MAX_VALUES,
    Sweep,
    SweepError,
    find_fighter,
    parse_sweep,
    read_number,
    sweep_states,
)

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"


def demo(key: str) -> BattleState:
    return open_battle(BATTLES / f"demo-{key}.hexfray").state


def test_reads_ranges_and_lists() -> None:
    assert parse_sweep("Fencer.skill=10..18") == Sweep(
        "Fencer", "skill", tuple(str(v) for v in range(10, 19))
    )
    assert parse_sweep(" Knight.shield = none, small,medium ") == Sweep(
        "Knight", "shield", ("none", "small", "medium")
    )
    assert parse_sweep("Axeman.weapon=great-axe,halberd").values == ("great-axe", "halberd")
    assert parse_sweep("Fencer Alys.skill:Fencing=-2..2").thing == "skill:Fencing"
    assert parse_sweep("Sir J. Smith.st=9").fighter == "Sir J. Smith"  # the last dot splits


@pytest.mark.parametrize(
    "text",
    [
        "Fencer.skill",  # no values
        "skill=10..18",  # no fighter
        "Fencer.=1",
        ".skill=1",
        "Fencer.skill=18..10",  # empty range
        "Fencer.skill=1..1000",  # too many values
        "Fencer.skill=1,,2",
        "Fencer.skill=1,1",
        "Fencer.skill=" + "9" * 5000 + "..1",  # huge numbers are refused, not converted
        "Fencer.skill=1.." + "9" * 100,
    ],
)
def test_refuses_bad_text(text: str) -> None:
    with pytest.raises(SweepError):
        parse_sweep(text)


def test_numbers_are_bounded_before_conversion() -> None:
    assert read_number(" -12 ") == -12
    for text in ("9" * 7, "1e9", "12.5", "", "٣"):  # Arabic-Indic three: int() takes it
        with pytest.raises(SweepError):
            read_number(text)


@given(st.text(max_size=300))
def test_any_text_is_read_or_refused_in_one_line(text: str) -> None:
    try:
        sweep = parse_sweep(text)
    except SweepError as refusal:
        assert "\n" not in str(refusal) or "\n" in text
        return
    assert 1 <= len(sweep.values) <= MAX_VALUES
    assert sweep.fighter and sweep.thing


@given(st.integers(-(10**6) + 1, 10**6 - 1), st.integers(0, MAX_VALUES - 1))
def test_any_bounded_range_reads_back(low: int, extra: int) -> None:
    high = low + extra
    if high >= 10**6:
        return
    sweep = parse_sweep(f"A.skill={low}..{high}")
    assert sweep.values == tuple(str(v) for v in range(low, high + 1))


def test_skill_of_the_first_weapon() -> None:
    state = demo("000")
    ruleset = get_ruleset("000")
    fencer = find_fighter(state, "Fencer")
    assert fencer.name == "Fencer Alys"
    skill = fencer.fighter.weapons[0].skill
    for value, changed in sweep_states(state, parse_sweep("Fencer.skill=10..12")):
        sheet = find_fighter(changed, "Fencer").fighter
        assert ruleset.sheets.entries(sheet).skills[skill] == int(value)
        # the rest of the battle is unchanged
        others = [c for c in changed.combatants if c.id != fencer.id]
        assert others == [c for c in state.combatants if c.id != fencer.id]


def test_shield_and_weapon_from_the_catalog() -> None:
    state = demo("000")
    ruleset = get_ruleset("000")
    shields = sweep_states(state, parse_sweep("Sword-and-shield fighter.shield=none,small,large"))
    keys = [find_fighter(s, "Sword-and-shield fighter").fighter.shield for _v, s in shields]
    assert [k.key if k else None for k in keys] == [None, "small-shield", "large-shield"]
    weapons = sweep_states(state, parse_sweep("Spearman.weapon=great-axe,halberd"))
    for value, changed in weapons:
        sheet = find_fighter(changed, "Spearman").fighter
        assert sheet.weapons[0] == ruleset.sheets.catalog().weapon(value)
        # the new weapon's skill at the old weapon's level (Spear 14)
        assert ruleset.sheets.entries(sheet).skills[sheet.weapons[0].skill] == 14


def test_fields_of_other_rulesets() -> None:
    choices = sweep_states(demo("003"), parse_sweep("Barbarian.strength=good,superb"))
    ruleset = get_ruleset("003")
    assert [
        ruleset.sheets.entries(find_fighter(s, "Barbarian").fighter).values["strength"]
        for _v, s in choices
    ] == ["Good", "Superb"]
    numbers = sweep_states(demo("004"), parse_sweep("Bruiser.strength=3..5"))
    assert len(numbers) == 3


@pytest.mark.parametrize(
    "text",
    [
        "Nobody.skill=10",  # no such fighter
        "Fencer.skill=99",  # out of the sheet's range
        "Fencer.wings=1",  # no such field
        "Fencer.skill:Juggling=12",  # no such skill
        "Spearman.weapon=lightsaber",  # not in the catalog
        "Spearman.shield=tower",
        "Spearman.st=0",
        "Spearman.combat_reflexes=maybe",
        "Spearman.pain_threshold=none",
    ],
)
def test_refuses_what_the_sheet_refuses(text: str) -> None:
    with pytest.raises(SweepError):
        sweep_states(demo("000"), parse_sweep(text))
