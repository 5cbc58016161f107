"""000 DISARMING AN OPPONENT through the attack flow: ``plan_attack`` works out the
Quick Contest (``AttackPlan.contest``), ``resolve_attack`` rolls exactly those two
levels and ``rules.sets.seed000.odds`` counts exactly them (docs/rules-core.md, "Disarming")."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from hexmap import Facing, Hex
from rules.battle.model import ActionKind, Combatant, TurnAction
from rules.core.citation import cite
from rules.core.modifiers import Modifier
from rules.sets.seed000.attack import AttackOptions, WeaponAttack, plan_attack, resolve_attack
from rules.sets.seed000.attack_events import AttackOutcome, DisarmContested
from rules.sets.seed000.checks import judge
from rules.sets.seed000.conditions import SelectedCondition
from rules.sets.seed000.disarm import DisarmOutcome, contest_outcome_distribution
from rules.sets.seed000.odds import attack_odds
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.weapon_strikes import WEAPON_STRIKES_000

Make = Callable[..., Combatant]
GM = Modifier(-3, "GM's situational modifier", cite("000", "ADVERSE COMBAT CONDITIONS"))
FOOTING = SelectedCondition("bad_footing", -2)
DISARMING = cite("000", "DISARMING AN OPPONENT")
STRIKING = cite("000", "STRIKING AT WEAPONS")


def disarm(**changes: object) -> AttackOptions:
    base = AttackOptions(
        "broadsword", "swing", target_weapon_key="rapier", weapon_attack=WeaponAttack.DISARM
    )
    return AttackOptions(**{**base.__dict__, **changes})


@pytest.fixture
def pair(make: Make) -> tuple[Combatant, Combatant]:
    """A broadsword (not a fencing weapon) against a fencer's rapier."""
    return (
        make("sword-and-shield", Hex(5, 5), Facing.S, id="a"),
        make("fencer", Hex(5, 6), Facing.N, id="d"),
    )


def test_the_contest_carries_the_gm_modifier_and_conditions(
    pair: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = pair
    plain = plan_attack(a, d, disarm(), ruleset)
    plan = plan_attack(a, d, disarm(extra_modifiers=(GM,), conditions=(FOOTING,)), ruleset)
    assert plain.contest is not None and plan.contest is not None
    attacker = plan.contest.attacker
    assert attacker.base == sheet_of(a).skill("Broadsword")
    # The seed's own penalties first: size, then -2 for a non-fencing weapon.
    assert attacker.modifiers[0].citation == STRIKING
    assert attacker.modifiers[1] == Modifier(
        -2, "disarming with a non-fencing weapon (Broadsword)", DISARMING
    )
    assert GM in attacker.modifiers
    footing = [m for m in attacker.modifiers if m not in plain.contest.attacker.modifiers]
    assert sum(m.value for m in footing) == GM.value - 2
    assert attacker.level == plain.contest.attacker.level - 5
    # Nothing is dropped and nothing counted twice: the contest level is the
    # attack's effective skill (PD never protects a weapon).
    assert attacker.level == plan.effective_skill
    assert sorted(map(str, attacker.modifiers)) == sorted(map(str, plan.modifiers))
    # The defender's side: the seed's bonuses only, untouched by the attacker's.
    assert plan.contest.defender == plain.contest.defender
    assert plan.contest.defender.base == sheet_of(d).skill("Fencing")
    assert all(m.citation == DISARMING for m in plan.contest.defender.modifiers)
    assert not any("PD" in m.reason or "passive" in m.reason for m in attacker.modifiers)


def test_cumulative_attack_penalties_count_in_the_contest(
    pair: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = pair
    fresh = plan_attack(a, d, disarm(), ruleset)
    parried = replace(a, actions_this_turn=(TurnAction(ActionKind.PARRY, "broadsword"),))
    plan = plan_attack(parried, d, disarm(), ruleset)
    assert plan.contest is not None and fresh.contest is not None
    assert plan.effective_skill < fresh.effective_skill
    assert plan.contest.attacker.level == plan.effective_skill


def test_other_attacks_and_001_have_no_plan_contest(
    pair: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    from rules.sets.registry import get_ruleset
    from rules.sets.seed000.tables import LOCATIONS_001

    a, d = pair
    assert plan_attack(a, d, AttackOptions("broadsword", "swing"), ruleset).contest is None
    assert plan_attack(a, d, disarm(weapon_attack=WeaponAttack.BREAK), ruleset).contest is None
    r001 = get_ruleset("000", (LOCATIONS_001,))
    assert plan_attack(a, d, disarm(), r001).contest is None


@pytest.mark.parametrize("seed", range(20))
def test_resolve_rolls_exactly_the_plan_contest(
    pair: tuple[Combatant, Combatant], ruleset: Tables, seed: int
) -> None:
    a, d = pair
    plan = plan_attack(a, d, disarm(extra_modifiers=(GM,), conditions=(FOOTING,)), ruleset)
    assert plan.contest is not None
    res = resolve_attack(plan, a, d, random.Random(seed), ruleset)
    (event,) = [e for e in res.events if isinstance(e, DisarmContested)]
    result = event.result
    assert result.contest == plan.contest
    assert result.attacker_roll.target == plan.contest.attacker.level
    assert result.defender_roll.target == plan.contest.defender.level
    assert res.attack_roll == result.attacker_roll
    assert result.attacker_roll.outcome is judge(
        result.attacker_roll.total, plan.contest.attacker.level
    )


def faces(total: int) -> list[int]:
    """Three dice faces summing to ``total`` (3..18)."""
    first = min(6, total - 2)
    second = min(6, total - first - 1)
    return [first, second, total - first - second]


def test_scripted_dice_meet_the_contest_at_the_plan_levels(
    pair: tuple[Combatant, Combatant], ruleset: Tables, scripted: type[random.Random]
) -> None:
    """The attacker's success ends exactly at his planned level, the GM's modifier
    and the footing included: a roll of the level wins against a failing defender, one
    more ties him (both fail by 1)."""
    a, d = pair
    bonus = Modifier(4, "GM: the rapier is caught in a bind", GM.citation)
    plan = plan_attack(a, d, disarm(extra_modifiers=(bonus,), conditions=(FOOTING,)), ruleset)
    assert plan.contest is not None and bonus in plan.contest.attacker.modifiers
    att, dfn = plan.contest.attacker.level, plan.contest.defender.level
    assert 5 <= att <= 15 and 5 <= dfn <= 15
    won = resolve_attack(plan, a, d, scripted(faces(att) + faces(dfn + 1) + [1] * 6), ruleset)
    assert won.outcome is AttackOutcome.HIT
    tied = resolve_attack(plan, a, d, scripted(faces(att + 1) + faces(dfn + 1)), ruleset)
    assert tied.outcome is AttackOutcome.MISSED
    (event,) = [e for e in tied.events if isinstance(e, DisarmContested)]
    assert event.result.attacker_roll.margin == -1 == event.result.defender_roll.margin


def test_odds_are_the_exact_contest_at_the_plan_levels(
    pair: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = pair
    plan = plan_attack(a, d, disarm(extra_modifiers=(GM,), conditions=(FOOTING,)), ruleset)
    assert plan.contest is not None
    odds = attack_odds(plan, a, d, ruleset)
    dist = contest_outcome_distribution(
        plan.contest.attacker.level, plan.contest.defender.level, WEAPON_STRIKES_000
    )
    assert odds.target == "contest"
    assert odds.p_hit == dist[DisarmOutcome.DEFENDER_DISARMED]
    assert odds.p_critical_miss == dist[DisarmOutcome.ATTACKER_DISARMED]
    assert odds.p_miss == dist[DisarmOutcome.NO_EFFECT]
    # ... and not the contest without the GM's modifier and the footing.
    plain = plan_attack(a, d, disarm(), ruleset)
    assert attack_odds(plain, a, d, ruleset).p_hit > odds.p_hit


def test_seeded_frequencies_follow_the_odds(
    pair: tuple[Combatant, Combatant], ruleset: Tables
) -> None:
    a, d = pair
    plan = plan_attack(a, d, disarm(extra_modifiers=(GM,)), ruleset)
    odds = attack_odds(plan, a, d, ruleset)
    n = 3000
    hits = sum(
        resolve_attack(plan, a, d, random.Random(s), ruleset).outcome is AttackOutcome.HIT
        for s in range(n)
    )
    p = float(odds.p_hit)
    assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-9
