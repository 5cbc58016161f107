"""The exact odds of an attack with merged steps branching by what the odds read
(``odds_reads``: where a broken or flung weapon lands is left out) are the odds
with every merged step branching by all it reads, Fraction for Fraction; and seed
002's success rolls share one reading per skill (issue 25: a decision's time)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.attack_odds import attack_odds
from rules.battle.attack_steps import planned
from rules.battle.catalog import load_demo_battle
from rules.battle.model import Combatant, Status, Weapon
from rules.battle.state import BattleState
from rules.core.enumerate import _merged_branches, exact_outcomes
from rules.core.memo_keys import ByIdentity
from rules.sets.registry import get_ruleset
from rules.sets.seed000.breakage import WeaponBreaks
from rules.sets.seed000.critical_misses import CriticalMissRoll, MissAction, MissContext
from rules.sets.seed000.tables import Tables
from rules.sets.seed002.success import _level_at, level_probabilities, roll_skill

ORIGIN = Hex.from_offset(6, 6)


def _demo() -> tuple[BattleState, tuple[Combatant, ...]]:
    grid, combatants = load_demo_battle()
    return BattleState(grid, combatants), combatants


def _duel(state: BattleState, attacker: Combatant, defender: Combatant) -> BattleState:
    """The two face to face in the next hex, fresh."""
    a = replace(
        attacker, id="attacker", hex=ORIGIN, facing=Facing.N,
        hp=attacker.fighter.hit_points, status=Status.ACTIVE,
    )  # fmt: skip
    d = replace(
        defender, id="defender", hex=ORIGIN + Facing.N.vector, facing=Facing.S,
        hp=defender.fighter.hit_points, status=Status.ACTIVE,
    )  # fmt: skip
    return replace(state, grid=HexGrid(12, 12), combatants=(a, d))


def _pairs() -> list[tuple[str, str]]:
    _, combatants = _demo()
    return [(a.name, d.name) for a in combatants for d in combatants if a.id != d.id]


@pytest.mark.parametrize(("attacker_name", "defender_name"), _pairs())
def test_the_odds_reads_change_no_odds_of_a_plain_attack(
    attacker_name: str, defender_name: str
) -> None:
    """Seed 000's demo fighters, each against each in the next hex, the plain
    attack against the defender's likeliest answer and no defense: weapons break
    on parries and fly on critical misses in them."""
    state, combatants = _demo()
    by_name = {c.name: c for c in combatants}
    duel = _duel(state, by_name[attacker_name], by_name[defender_name])
    ruleset = get_ruleset(duel.ruleset_key, duel.ruleset_options)
    steps = ruleset.attacks.steps  # type: ignore[attr-defined]
    choices = ruleset.attacks.default_attack(duel, "attacker", "defender")
    if choices is None:
        pytest.skip("nothing reaches the next hex")
    plan = planned(steps, duel, "attacker", "defender", choices)
    answers = steps.answers(plan)
    for answer in {answers[0], steps.default_answer(plan)}:
        merged = attack_odds(steps, plan, answer)
        reference = attack_odds(steps, plan, answer, odds_reads=False)
        assert merged == reference
        assert sum(merged.kinds.values(), Fraction(0)) == 1


def _tables() -> Tables:
    tables: Tables = get_ruleset("000").attacks.tables  # type: ignore[attr-defined]
    return tables


def _grouped(step: object, reads: object) -> dict[Hashable, Fraction]:
    """The chance of each value of ``reads`` of the step's result, by totals."""
    return dict(exact_outcomes(lambda dice: reads(step(dice)), by_reads=True))  # type: ignore[operator]


def _weapon(key: str) -> Weapon:
    _, combatants = _demo()
    return next(w for c in combatants for w in c.fighter.weapons if w.key == key)


def test_a_breaking_weapon_merges_its_landings_for_the_odds() -> None:
    """The morningstar breaking (its head flies off): fewer branches by what the
    odds read, each with the whole chance of the landings it stands for."""
    tables = _tables()
    step = WeaponBreaks(_weapon("morningstar"), ByIdentity(tables.broken_weapons), None)
    full = _merged_branches(step, True)
    merged = _merged_branches(step, True, True)
    assert len(merged) < len(full)
    by_odds = _grouped(step, step.odds_reads)
    summed: dict[Hashable, Fraction] = {}
    for branch in full:
        read = step.odds_reads(branch.result)
        summed[read] = summed.get(read, Fraction(0)) + Fraction(branch.ways, branch.out_of)
    assert summed == by_odds
    assert {step.odds_reads(b.result): Fraction(b.ways, b.out_of) for b in merged} == by_odds


def test_a_critical_miss_merges_its_landings_for_the_odds() -> None:
    """A fumbled morningstar swing: its weapon flies, drops or breaks; one branch
    per result and piece for the odds, whatever the landing."""
    tables = _tables()
    step = CriticalMissRoll(
        _weapon("morningstar"), MissContext(MissAction.SWING), ByIdentity(tables), None
    )
    full = _merged_branches(step, True)
    merged = _merged_branches(step, True, True)
    assert len(merged) < len(full)
    summed: dict[Hashable, Fraction] = {}
    for branch in full:
        read = step.odds_reads(branch.result)
        summed[read] = summed.get(read, Fraction(0)) + Fraction(branch.ways, branch.out_of)
    assert {step.odds_reads(b.result): Fraction(b.ways, b.out_of) for b in merged} == summed
    assert sum(summed.values(), Fraction(0)) == 1


@pytest.mark.parametrize("skill", [1, 9, 10, 11, 45, 95, 99, 100, 140])
def test_seed002_success_rolls_read_one_way_per_skill(skill: int) -> None:
    """One reading per skill (the enumeration keeps its groups by it), and the
    odds by level are the faces counted."""
    assert _level_at(skill) is _level_at(skill)
    levels = exact_outcomes(
        lambda dice: roll_skill(skill, dice, "skill", read=True).level, by_reads=True
    )
    expected = {k: p for k, p in level_probabilities(skill).items() if p}
    assert dict(levels) == expected
