"""rules.sets.seed000.odds: the exact odds of a planned attack.

* the outcomes sum to exactly 1 over many random plans built from the demo fighters;
* exactness against a brute force written here, independently of rules.sets.seed000.checks:
  every way the 3d6 of the attack and of each defense can fall (216^(1+k), in
  numpy for k <= 2; by totals for k = 3), every face of the damage dice, every
  branch of the HT rolls;
* exact agreement with resolve_attack itself, enumerated on every way the dice
  can fall (rules.core.enumerate), on every demo matchup and weapon mode;
* exact agreement with seed 000's ``decide`` (the GM's path) enumerated, for the
  wired options whose whole enumeration takes seconds; nothing is sampled;
* values worked out by hand.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypeVar

import numpy as np
import pytest

from hexmap import Facing, Hex, HexGrid, Reach, reach_hexes
from rules.battle.attack_odds import attack_odds as shared_attack_odds
from rules.battle.attack_outcome import Landing, OutcomeKind
from rules.battle.catalog import load_demo_battle, load_fighters
from rules.battle.model import (
    ActionKind,
    Armor,
    Combatant,
    DamageBase,
    DamageSpec,
    DamageType,
    Fighter,
    ParryClass,
    Side,
    Status,
    TurnAction,
    Weapon,
    WeaponKind,
    WeaponMode,
)
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.dice import Dice, ScriptedDice, distribution
from rules.core.dice import roll as roll_dice_faces
from rules.core.enumerate import EnumeratingDice, exact_outcomes, representative_faces
from rules.core.errors import IllegalAttackError, RulesError
from rules.core.memo_keys import ByIdentity
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import (
    AttackOptions,
    AttackOutcome,
    AttackPlan,
    Seed000Answer,
    WeaponAttack,
    plan_attack,
    resolve_attack,
)
from rules.sets.seed000.attack_form import attack_form_options
from rules.sets.seed000.attack_steps import Seed000Steps
from rules.sets.seed000.checks import Outcome
from rules.sets.seed000.conditions import SelectedCondition
from rules.sets.seed000.damage import injury_status
from rules.sets.seed000.defense import DefenseChoice, possible_defenses
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.dice_steps import (
    AttackRollInputs,
    DefenseInputs,
    attack_roll_step,
    damage_step,
    defense_step,
    wound_status,
)
from rules.sets.seed000.hit_location import HitLocationTable, condition_on_cover
from rules.sets.seed000.odds import (
    AttackOdds,
    attack_odds,
    attack_roll_odds,
    blow_odds,
    defense_step_odds,
    located_wounds,
    location_weights,
    mix,
    status_distribution,
)
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.wound_effects import (
    MAJOR_WOUND_PAIN,
    RequiredRoll,
    Victim,
    roll_required,
)
from rules.sets.seed000.wound_effects import Condition as WoundCondition
from tests.rules.battle_level import in_hand
from tests.rules.sheets import amend

Make = Callable[..., Combatant]
GM = cite("000", "ADVERSE COMBAT CONDITIONS")
DODGE = DefenseChoice(DefenseKind.DODGE)
BLOCK = DefenseChoice(DefenseKind.BLOCK)
ONE_DIE = Dice(1)


# --- an independent reference -------------------------------------------------------
#
# The success roll as docs/rules-core.md states it, written again here so that the
# brute force does not lean on rules.sets.seed000.checks.

CS, S, F, CF = 0, 1, 2, 3  # critical success, success, failure, critical failure
ALL_3D6 = np.array([sum(faces) for faces in itertools.product(range(1, 7), repeat=3)])
TOTAL_WAYS = Counter(int(t) for t in ALL_3D6)  # total -> number of the 216 ways


def ref_judge(total: int, target: int, defense: bool) -> int:
    if total <= 4:
        return CS
    if not defense and ((total == 5 and target >= 15) or (total == 6 and target >= 16)):
        return CS
    if defense and total >= 17:
        return CF
    if not defense and (total == 18 or (total == 17 and target <= 15)):
        return CF
    if not defense and total - target >= 10:  # defense rolls: only 17 and 18 (000)
        return CF
    if total >= 17 or total > target:
        return F
    return S


def codes(target: int, defense: bool) -> np.ndarray:
    """The outcome code of each of the 216 ways 3d6 fall."""
    return np.array([ref_judge(int(t), target, defense) for t in ALL_3D6], dtype=np.int8)


def ref_success(target: int) -> Fraction:
    ok = sum(n for t, n in TOTAL_WAYS.items() if ref_judge(t, target, False) in (CS, S))
    return Fraction(ok, 216)


@dataclass
class Brute:
    """Counts of a brute-force enumeration, as fractions of all the ways."""

    critical_hit: Fraction
    hit: Fraction
    stopped_by: list[Fraction]
    miss: Fraction
    critical_miss: Fraction
    rolled: list[Fraction]
    defense_critical_success: list[Fraction]
    defense_critical_failure: list[Fraction]


def brute_force_dice(skill: int, defense_values: Sequence[int]) -> Brute:
    """Every way the 3d6 of the attack and of each defense can fall (k <= 2),
    resolved as resolve_attack does: criticals of the attack end it; on a plain
    success the defenses are tried in order until one succeeds."""
    k = len(defense_values)
    assert k <= 2
    rolls = [codes(skill, False), *(codes(v, True) for v in defense_values)]
    grids = np.ix_(*rolls)  # one axis per roll: 216^(1+k) cells
    attack = np.broadcast_to(grids[0], (216,) * (1 + k))
    total = 216 ** (1 + k)
    stopped = np.full(attack.shape, -1, dtype=np.int8)
    rolled, crit_ok, crit_bad = [], [], []
    for i in range(k):
        d = grids[1 + i]
        this_rolled = (attack == S) & (stopped == -1)
        rolled.append(Fraction(int(np.count_nonzero(this_rolled)), total))
        crit_ok.append(Fraction(int(np.count_nonzero(this_rolled & (d == CS))), total))
        crit_bad.append(Fraction(int(np.count_nonzero(this_rolled & (d == CF))), total))
        stopped = np.where(this_rolled & (d <= S), np.int8(i), stopped)
    return Brute(
        critical_hit=Fraction(int(np.count_nonzero(attack == CS)), total),
        hit=Fraction(int(np.count_nonzero((attack == S) & (stopped == -1))), total),
        stopped_by=[Fraction(int(np.count_nonzero(stopped == i)), total) for i in range(k)],
        miss=Fraction(int(np.count_nonzero(attack == F)), total),
        critical_miss=Fraction(int(np.count_nonzero(attack == CF)), total),
        rolled=rolled,
        defense_critical_success=crit_ok,
        defense_critical_failure=crit_bad,
    )


def brute_force_totals(skill: int, defense_values: Sequence[int]) -> Brute:
    """The same, over every combination of 3d6 totals weighted by their ways
    (16^(1+k) combinations; for k = 3 where 216^4 cells are too many)."""
    k = len(defense_values)
    counts = Counter[str]()
    totals = sorted(TOTAL_WAYS)
    for combo in itertools.product(totals, repeat=1 + k):
        ways = math.prod(TOTAL_WAYS[t] for t in combo)
        a = ref_judge(combo[0], skill, False)
        if a != S:
            counts[{CS: "critical_hit", F: "miss", CF: "critical_miss"}[a]] += ways
            continue
        for i, (t, v) in enumerate(zip(combo[1:], defense_values, strict=True)):
            d = ref_judge(t, v, True)
            counts[f"rolled{i}"] += ways
            if d == CF:
                counts[f"crit_bad{i}"] += ways
            if d in (CS, S):
                counts[f"stopped{i}"] += ways
                if d == CS:
                    counts[f"crit_ok{i}"] += ways
                break
        else:
            counts["hit"] += ways
    total = 216 ** (1 + k)

    def p(key: str) -> Fraction:
        return Fraction(counts[key], total)

    return Brute(
        critical_hit=p("critical_hit"),
        hit=p("hit"),
        stopped_by=[p(f"stopped{i}") for i in range(k)],
        miss=p("miss"),
        critical_miss=p("critical_miss"),
        rolled=[p(f"rolled{i}") for i in range(k)],
        defense_critical_success=[p(f"crit_ok{i}") for i in range(k)],
        defense_critical_failure=[p(f"crit_bad{i}") for i in range(k)],
    )


def brute_injury(dice: Dice, dr: int, multiplier: Fraction) -> dict[int, Fraction]:
    """Every face of the damage dice: basic damage at least 0, minus DR at least
    0, times the multiplier rounded down, at least 1 if anything got through."""
    counts = Counter[int]()
    for faces in itertools.product(range(1, 7), repeat=dice.count):
        basic = max(0, sum(faces) + dice.adds)
        through = max(0, basic - dr)
        injury = 0 if through == 0 else max(1, math.floor(through * multiplier))
        counts[injury] += 1
    return {i: Fraction(n, 6**dice.count) for i, n in counts.items()}


def brute_status(
    hp: int, injury: int, max_hp: int, ht: int, status: Status, pain_modifier: int = 0
) -> dict[Status, Fraction]:
    """The injury states as docs/rules-core.md states them, over the HT rolls; a
    major wound (injury over HP/2) stuns an active victim who fails HT plus the pain
    threshold's modifier (the knockdown roll, independent of the HT rolls)."""
    states = _brute_ht_states(hp, injury, max_hp, ht, status)
    if status is Status.DEAD or 2 * injury <= max_hp or Status.ACTIVE not in states:
        return states
    stays_up = ref_success(ht + pain_modifier)
    active = states.pop(Status.ACTIVE)
    states[Status.STUNNED] = states.get(Status.STUNNED, Fraction(0)) + active * (1 - stays_up)
    states[Status.ACTIVE] = active * stays_up
    return {s: q for s, q in states.items() if q}


def _brute_ht_states(
    hp: int, injury: int, max_hp: int, ht: int, status: Status
) -> dict[Status, Fraction]:
    """The states after the HT rolls to avoid death and stay conscious."""
    if status is Status.DEAD or injury <= 0:
        return {status: Fraction(1)}
    after = hp - injury
    if after <= -5 * max_hp:
        return {Status.DEAD: Fraction(1)}
    p = ref_success(ht)
    alive, result = Fraction(1), defaultdict[Status, Fraction](Fraction)
    for k in (1, 2, 3, 4):
        if hp > -k * max_hp >= after:
            result[Status.DEAD] += alive * (1 - p)
            alive *= p
    if after <= 0 and status in (Status.ACTIVE, Status.STUNNED):
        result[Status.UNCONSCIOUS] += alive * (1 - p)
        result[status] += alive * p
    else:
        result[status] += alive
    return {s: q for s, q in result.items() if q}


# --- scenarios ---------------------------------------------------------------------------


def outcome_total(o: AttackOdds) -> Fraction:
    return o.p_critical_hit + o.p_hit + sum(o.p_stopped_by) + o.p_miss + o.p_critical_miss


def combatant(fighter: Fighter, cid: str, where: Hex, facing: Facing, side: Side) -> Combatant:
    return Combatant(cid, fighter, side, where, facing, hp=fighter.hit_points)


def random_scenario(
    rng: random.Random, ruleset: Tables
) -> tuple[AttackPlan, Combatant, Combatant] | None:
    """A random legal attack between two demo fighters, or None if the random
    choices made it illegal."""
    templates = load_fighters()
    names = sorted(templates)
    af, df = templates[rng.choice(names)], templates[rng.choice(names)]
    weapon = rng.choice(af.weapons)
    mode = rng.choice(weapon.modes)
    a = combatant(af, "a", Hex(0, 0), rng.choice(list(Facing)), Side.RED)
    targets = sorted(reach_hexes(a.hex, a.facing, mode.reach) - {a.hex})
    if not targets:
        return None
    d = combatant(df, "d", rng.choice(targets), rng.choice(list(Facing)), Side.BLUE)
    earlier = tuple(
        TurnAction(kind, rng.choice([None, *(w.key for w in df.weapons)]))
        for kind in rng.sample(list(ActionKind), rng.randint(0, 2))
    )
    d = replace(
        d,
        hp=rng.randint(-2 * df.hit_points, df.hit_points),
        status=rng.choice([Status.ACTIVE] * 6 + [Status.STUNNED, Status.UNCONSCIOUS, Status.DEAD]),
        actions_this_turn=earlier if rng.random() < 0.3 else (),
    )
    choices = list(possible_defenses(d))
    kinds_seen: set[DefenseKind] = set()
    announced = []
    for c in rng.sample(choices, rng.randint(0, len(choices))):
        if c.kind not in kinds_seen:
            kinds_seen.add(c.kind)
            announced.append(c)
    aimable = ruleset.hit_locations.aim_keys(shielded=True)
    options = AttackOptions(
        weapon.key,
        mode.name,
        # unaimed half the time: the plain brute force covers only unlocated blows
        location=None if rng.random() < 0.5 else rng.choice(aimable),
        defenses=tuple(announced),
        from_below=rng.random() < 0.2,
        extra_modifiers=(Modifier(rng.randint(-8, 8), "GM", GM),),
    )
    try:
        return plan_attack(a, d, options, ruleset), a, d
    except IllegalAttackError:
        return None


def scenarios(
    seed: int, count: int, ruleset: Tables
) -> Iterator[tuple[AttackPlan, Combatant, Combatant]]:
    rng = random.Random(seed)
    made = 0
    while made < count:
        s = random_scenario(rng, ruleset)
        if s is not None:
            made += 1
            yield s


# --- sums to 1 -----------------------------------------------------------------------------


def test_outcomes_sum_to_one_over_many_random_plans(ruleset: Tables) -> None:
    kinds = Counter[int]()
    for plan, a, d in scenarios(2024, 400, ruleset):
        o = attack_odds(plan, a, d, ruleset)
        kinds[len(plan.defenses)] += 1
        assert outcome_total(o) == 1
        assert sum(o.outcomes.values()) == 1
        assert all(p >= 0 for p in o.outcomes.values())
        assert len(o.p_stopped_by) == len(plan.defenses) == len(o.defenses)
        assert o.p_damage_lands == o.p_critical_hit + o.p_hit > 0  # 3 and 4 always hit
        assert sum(o.injury_given_hit.values()) == 1
        assert sum(o.injury.values()) == 1
        assert sum(o.blow.status.values()) == 1
        assert sum(o.status_after.values()) == 1
        assert o.expected_injury == o.p_damage_lands * o.expected_injury_given_hit
        assert 0 <= o.p_zero_hp <= o.p_damage_lands
        for dodds in o.defenses:
            assert dodds.p_critical_success <= dodds.p_stopped <= dodds.p_rolled
            assert dodds.p_critical_failure <= dodds.p_rolled - dodds.p_stopped
        assert o.summary_lines()
    assert set(kinds) >= {0, 1, 2, 3}, kinds  # every number of defenses was tried


# --- exactness against brute force ---------------------------------------------------------


def _classic(plan: AttackPlan) -> bool:
    """A plan the plain brute force covers: uniform torso damage, no miss that
    still lands, no critical miss check."""
    return (
        plan.hit_location is None
        and not plan.options.random_location
        and plan.base_skill <= 15
        and not plan.weapon.reliable
    )


def _check_against(o: AttackOdds, b: Brute) -> None:
    assert o.p_critical_hit == b.critical_hit
    assert o.p_hit == b.hit
    assert list(o.p_stopped_by) == b.stopped_by
    assert o.p_miss == b.miss
    assert o.p_critical_miss == b.critical_miss
    assert [d.p_rolled for d in o.defenses] == b.rolled
    assert [d.p_critical_success for d in o.defenses] == b.defense_critical_success
    assert [d.p_critical_failure for d in o.defenses] == b.defense_critical_failure


def test_the_reference_judge_agrees_with_rules_checks() -> None:
    from rules.sets.seed000.checks import Outcome, RollKind, judge

    code = {
        Outcome.CRITICAL_SUCCESS: CS,
        Outcome.SUCCESS: S,
        Outcome.FAILURE: F,
        Outcome.CRITICAL_FAILURE: CF,
    }
    for total in range(3, 19):
        for target in range(-12, 26):
            assert code[judge(total, target, RollKind.STANDARD)] == ref_judge(total, target, False)
            assert code[judge(total, target, RollKind.DEFENSE)] == ref_judge(total, target, True)


def test_exact_against_brute_force_of_every_die_with_up_to_two_defenses(
    ruleset: Tables,
) -> None:
    """216^(1+k) ways for random plans with k <= 1, and the first plans with k = 2."""
    seen: set[tuple[int, tuple[int, ...]]] = set()
    two = 0
    for plan, a, d in scenarios(7, 400, ruleset):
        if not _classic(plan):
            continue
        values = tuple(x.value for x in plan.defenses)
        key = (plan.effective_skill, values)
        if key in seen or len(values) > 2 or (len(values) == 2 and two >= 6):
            continue
        seen.add(key)
        two += len(values) == 2
        _check_against(attack_odds(plan, a, d, ruleset), brute_force_dice(*key))
    assert two == 6 and len(seen) > 30


def test_exact_against_brute_force_of_every_total_with_three_defenses(
    make: Make, ruleset: Tables
) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    parry = DefenseChoice(DefenseKind.PARRY, "broadsword")
    for defenses, gm in [((DODGE, BLOCK, parry), 0), ((parry, DODGE, BLOCK), 3)]:
        options = AttackOptions(
            "broadsword", "swing", defenses=defenses, extra_modifiers=(Modifier(gm, "GM", GM),)
        )
        plan = plan_attack(a, d, options, ruleset)
        values = [x.value for x in plan.defenses]
        o = attack_odds(plan, a, d, ruleset)
        _check_against(o, brute_force_totals(plan.effective_skill, values))
        # the k <= 2 prefixes agree between the two brute forces as well
        assert brute_force_totals(plan.effective_skill, values[:2]) == brute_force_dice(
            plan.effective_skill, values[:2]
        )


def test_injury_and_state_exact_against_brute_force(ruleset: Tables) -> None:
    for plan, a, d in scenarios(99, 150, ruleset):
        if not _classic(plan):
            continue
        o = attack_odds(plan, a, d, ruleset)
        armor = d.fighter.armor
        dr = armor.dr if armor is not None else 0
        mult = ruleset.wounding_multiplier(plan.damage_spec.type)
        injury = brute_injury(plan.damage_dice, dr, mult)
        assert dict(o.injury_given_hit) == injury
        status = defaultdict[Status, Fraction](Fraction)
        ht = sheet_of(d).attributes.ht
        pain = MAJOR_WOUND_PAIN.get(sheet_of(d).pain_threshold, 0)
        for amount, p in injury.items():
            states = brute_status(d.hp, amount, d.fighter.hit_points, ht, d.status, pain)
            for s, q in states.items():
                status[s] += p * q
        assert dict(o.blow.status) == {s: q for s, q in status.items() if q}
        down = sum((p for i, p in injury.items() if d.hp - i <= 0), Fraction(0))
        assert o.p_zero_hp == o.p_damage_lands * down


# --- agreement with resolve_attack ----------------------------------------------------------


def _agree(
    plan: AttackPlan, a: Combatant, d: Combatant, ruleset: Tables, *, shared: bool = False
) -> None:
    """The odds of ``plan`` equal seed 000's ``decide`` (``Seed000Steps``) run on
    every way the dice can fall, Fraction for Fraction: the outcomes, each defense
    (stopped, rolled, its criticals), the injury, the state after and 0 HP, and in
    the shared vocabulary the chance of each kind and the expected injury. With
    ``shared``, the shared odds of ``decide`` (``rules.battle.attack_odds``, a
    second enumeration) read the same."""
    steps = Seed000Steps(ruleset)
    state = BattleState(HexGrid(12, 12), (a, d))
    choices = replace(plan.options, defenses=(), acrobatic_dodge=False)
    answer = Seed000Answer(plan.options.defenses, plan.options.acrobatic_dodge)
    planned = steps.plan(state, a.id, d.id, choices)
    o = attack_odds(plan, a, d, ruleset)

    def run(dice: EnumeratingDice) -> tuple[Seen, OutcomeKind, int]:
        outcome = steps.decide(planned, answer, dice)
        r = outcome.payload.resolution
        stopped = len(r.defense_rolls) - 1 if r.outcome is AttackOutcome.DEFENDED else -1
        seen = (
            r.outcome,
            stopped,
            tuple(x.outcome.name for x in r.defense_rolls),
            r.damage.injury if r.damage is not None else 0,
            r.defender_after.status,
        )
        return seen, outcome.kind, outcome.injury

    decided = exact_outcomes(run, by_reads=True)
    _same_odds(o, _marginal(decided, lambda k: k[0]), d)
    kinds = _marginal(decided, lambda k: k[1])
    assert kinds.get(OutcomeKind(Landing.CRITICAL_HIT), Fraction(0)) == o.p_critical_hit
    assert kinds.get(OutcomeKind(Landing.HIT), Fraction(0)) == o.p_hit
    assert kinds.get(OutcomeKind(Landing.MISSED), Fraction(0)) == o.p_miss
    assert kinds.get(OutcomeKind(Landing.CRITICAL_MISS), Fraction(0)) == o.p_critical_miss
    injury = sum((k[2] * p for k, p in decided.items()), Fraction(0))
    if o.target == "body":
        assert injury == o.expected_injury
    if shared:
        odds = shared_attack_odds(steps, planned, answer)
        assert dict(odds.kinds) == kinds and odds.expected_injury == injury


def test_agrees_exactly_with_decide_with_two_defenses(make: Make, ruleset: Tables) -> None:
    """A block, then a dodge if the block fails. (A parry's mishap tails make a
    whole enumeration of three defenses take well over a minute; a parry as the
    only defense is enumerated whole in the demo matchups test below.)"""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    options = AttackOptions("broadsword", "swing", defenses=(BLOCK, DODGE))
    plan = plan_attack(a, d, options, ruleset)
    _agree(plan, a, d, ruleset, shared=True)


def test_a_thrust_at_the_vitals_agrees_exactly_with_decide(make: Make, ruleset: Tables) -> None:
    swordsman, fencer = _fencer_and_swordsman(make)
    options = AttackOptions("rapier", "thrust", location="vitals")
    _agree(plan_attack(fencer, swordsman, options, ruleset), fencer, swordsman, ruleset)


# --- values by hand ---------------------------------------------------------------------------


def _gear_test(
    make: Make,
    ruleset: Tables,
    skill: int,
    dice: Dice = ONE_DIE,
    dtype: DamageType = DamageType.CRUSHING,
    dr: int = 2,
    defenses: tuple[DefenseChoice, ...] = (),
    hp: int | None = None,
    ht: int | None = None,
    **defender_changes: object,
) -> tuple[AttackOdds, AttackPlan, Combatant]:
    """A fixed-dice club against a defender without shield (PD 0), at an exact
    effective skill; returns the odds, the plan and the defender."""
    club = Weapon(
        "test-club",
        "Test club",
        WeaponKind.CLUB,
        "Club",
        (WeaponMode("swing", DamageSpec(DamageBase.FIXED, 0, dtype, dice), Reach.of(1)),),
        ParryClass.NONE,
        1.0,
    )
    a = make("spearman", Hex(0, 0), Facing.S, id="a", weapons=(club,))
    armor = Armor("test", "Test armor", pd=0, dr=dr)
    changes: dict[str, object] = {"shield": None, "armor": armor, "encumbrance": 0}
    if ht is not None:
        changes["attributes"] = replace(sheet_of(load_fighters()["spearman"]).attributes, ht=ht)
    changes.update(defender_changes)
    d = make("spearman", Hex(0, 1), Facing.N, id="d", side=Side.BLUE, **changes)
    if hp is not None:
        d = replace(d, hp=hp)
    plan0 = plan_attack(a, d, AttackOptions("test-club", "swing", defenses=defenses), ruleset)
    gm = Modifier(skill - plan0.effective_skill, "GM", GM)
    options = AttackOptions("test-club", "swing", defenses=defenses, extra_modifiers=(gm,))
    plan = plan_attack(a, d, options, ruleset)
    assert plan.effective_skill == skill
    return attack_odds(plan, a, d, ruleset), plan, d


def test_skill_10_without_defense(make: Make, ruleset: Tables) -> None:
    o, _, _ = _gear_test(make, ruleset, 10)
    assert o.p_hit + o.p_critical_hit == Fraction(1, 2)  # 108 of the 216 ways
    assert o.p_critical_hit == Fraction(4, 216)  # 3 or 4
    assert o.p_critical_miss == Fraction(4, 216)  # 17 or 18
    assert o.p_miss == Fraction(104, 216)
    assert o.p_stopped_by == ()


def test_criticals_at_high_and_low_skill(make: Make, ruleset: Tables) -> None:
    o, _, _ = _gear_test(make, ruleset, 16)
    assert o.p_critical_hit == Fraction(1 + 3 + 6 + 10, 216)  # 3..6
    assert o.p_hit == Fraction(212 - 20, 216)
    assert (o.p_miss, o.p_critical_miss) == (Fraction(3, 216), Fraction(1, 216))  # 17 plain
    o, _, _ = _gear_test(make, ruleset, -10)
    assert o.p_critical_hit == Fraction(4, 216) and o.p_hit == 0
    assert (o.p_miss, o.p_critical_miss) == (Fraction(0), Fraction(212, 216))  # fail by 10+


def test_one_dodge_at_10(make: Make, ruleset: Tables) -> None:
    o, plan, _ = _gear_test(make, ruleset, 10, defenses=(DODGE,), move=10)
    assert plan.defenses[0].value == 10
    # a plain hit (104/216), dodged half the time (108/216 succeed)
    assert o.p_stopped_by == (Fraction(104, 216) / 2,)
    assert o.p_hit == Fraction(13, 54)
    assert o.defenses[0].p_critical_success == Fraction(104, 216) * Fraction(4, 216)
    assert o.defenses[0].p_critical_failure == Fraction(104, 216) * Fraction(4, 216)
    assert o.p_damage_lands == Fraction(13, 54) + Fraction(1, 54)


def test_a_critical_hit_allows_no_defense(make: Make, ruleset: Tables) -> None:
    """Defenses that always succeed still let the critical hits through."""
    o, plan, _ = _gear_test(make, ruleset, 10, defenses=(DODGE,), move=40)
    assert plan.defenses[0].value == 16
    assert o.p_critical_hit == Fraction(4, 216)
    assert o.p_stopped_by[0] == Fraction(104, 216) * Fraction(216 - 4, 216)  # 17, 18 fail


def test_expected_injury_with_tiny_dice(make: Make, ruleset: Tables) -> None:
    # 1d crushing vs DR 2: 1, 2 -> 0; 3..6 -> 1..4
    o, _, _ = _gear_test(make, ruleset, 10, Dice(1), DamageType.CRUSHING, dr=2)
    sixth = Fraction(1, 6)
    assert dict(o.injury_given_hit) == {0: 2 * sixth, 1: sixth, 2: sixth, 3: sixth, 4: sixth}
    assert o.expected_injury_given_hit == Fraction(10, 6)
    assert o.expected_injury == Fraction(1, 2) * Fraction(10, 6)
    assert o.injury[0] == Fraction(1, 2) + Fraction(1, 2) * 2 * sixth
    # cutting x1.5 rounded down: 1, 3, 4, 6
    o, _, _ = _gear_test(make, ruleset, 10, Dice(1), DamageType.CUTTING, dr=2)
    assert o.expected_injury_given_hit == Fraction(1 + 3 + 4 + 6, 6)
    # impaling 1d-2 vs DR 0: 0, 0, 2, 4, 6, 8
    o, _, _ = _gear_test(make, ruleset, 10, Dice(1, -2), DamageType.IMPALING, dr=0)
    assert dict(o.injury_given_hit) == {0: 2 * sixth, 2: sixth, 4: sixth, 6: sixth, 8: sixth}
    # pi- x0.5: one point through still does 1 injury
    o, _, _ = _gear_test(make, ruleset, 10, Dice(1), DamageType.SMALL_PIERCING, dr=5)
    assert dict(o.injury_given_hit) == {0: 5 * sixth, 1: sixth}


def test_zero_hp_and_states_by_hand(make: Make, ruleset: Tables) -> None:
    # 3 HP, 1d cr vs DR 2: injury 3 or 4 (a 5 or 6) takes him to 0 or less
    o, _, _ = _gear_test(make, ruleset, 10, hp=3, ht=10)
    assert o.p_zero_hp == Fraction(1, 2) * Fraction(2, 6)
    # ... and then HT 10 (1/2) keeps him conscious
    assert o.p_status(Status.UNCONSCIOUS) == Fraction(1, 2) * Fraction(2, 6) / 2
    # 2 HP of 2, 1d cr vs DR 0: 2, 3 -> 0, -1 (roll to stay conscious); 4, 5 ->
    # -2, -3 (a death roll at -2, then conscious); 6 -> -4 (death rolls at -2, -4).
    # Active after these: 1/6 (a 1) + 13/48 (2 to 6); 2 to 6 are major wounds, and
    # half of the 13/48 fail the knockdown roll (HT 10): stunned.
    o, _, _ = _gear_test(make, ruleset, 10, dr=0, hit_points=2, ht=10)
    assert dict(o.blow.status) == {
        Status.ACTIVE: Fraction(1, 6) + Fraction(13, 96),
        Status.STUNNED: Fraction(13, 96),
        Status.UNCONSCIOUS: Fraction(13, 48),
        Status.DEAD: Fraction(7, 24),
    }
    assert o.p_hp_at_most(-2) == Fraction(1, 2) * Fraction(3, 6)
    assert o.p_injury_at_least(6) == Fraction(1, 2) * Fraction(1, 6)
    # at -5 x HP: dead outright, no roll
    o, _, _ = _gear_test(make, ruleset, 10, Dice(3, 10), dr=0, hit_points=2)
    assert dict(o.blow.status) == {Status.DEAD: 1}


def test_status_distribution_of_an_already_dead_or_unhurt_defender() -> None:
    assert dict(status_distribution({0: Fraction(1)}, 5, 10, 10, Status.ACTIVE)) == {
        Status.ACTIVE: 1
    }
    assert dict(status_distribution({7: Fraction(1)}, -20, 10, 10, Status.DEAD)) == {Status.DEAD: 1}


# --- extension points, the stale plan, the pane, the speed ---------------------------------


def test_mix_weights_distributions() -> None:
    torso = {0: Fraction(1, 2), 3: Fraction(1, 2)}
    arm = {0: Fraction(1, 4), 1: Fraction(3, 4)}
    mixed = mix([(Fraction(2, 3), torso), (Fraction(1, 3), arm)])
    assert dict(mixed) == {0: Fraction(5, 12), 3: Fraction(1, 3), 1: Fraction(1, 4)}
    assert mix([(Fraction(0), torso), (Fraction(1), arm)]) == arm


def test_location_weights_uniform_aimed_and_random(make: Make, ruleset: Tables) -> None:
    """Unaimed under the 000 table: uniform torso damage (no weights); aimed at a
    table key: that key; a random swing: the table's exact distribution, and the
    blow mixes the located wounds by it."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    unaimed = plan_attack(a, d, AttackOptions("broadsword", "swing"), ruleset)
    assert location_weights(unaimed, d, ruleset) == {}
    aimed = plan_attack(a, d, AttackOptions("broadsword", "swing", location="brain"), ruleset)
    assert location_weights(aimed, d, ruleset) == {"brain": 1}
    rnd = plan_attack(a, d, AttackOptions("broadsword", "swing", random_location=True), ruleset)
    weights = location_weights(rnd, d, ruleset)
    assert weights == ruleset.hit_locations.exact_distribution()
    mixed = mix(
        [
            (
                w,
                {
                    i: sum(p for (j, _), p in located_wounds(rnd, d, ruleset, k).items() if j == i)
                    for i in {j for j, _ in located_wounds(rnd, d, ruleset, k)}
                },
            )
            for k, w in weights.items()
        ]
    )
    assert dict(attack_odds(rnd, a, d, ruleset).blow.injury) == dict(mixed)


def test_a_stale_plan_is_refused(make: Make, ruleset: Tables) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    plan = plan_attack(a, d, AttackOptions("broadsword", "swing", defenses=(DODGE,)), ruleset)
    moved = replace(d, facing=Facing.S)  # now attacked from behind
    with pytest.raises(IllegalAttackError, match="no longer matches"):
        attack_odds(plan, a, moved, ruleset)
    attack_odds(plan, a, moved, ruleset, check=False)  # the caller's responsibility


def test_summary_lines(make: Make, ruleset: Tables) -> None:
    o, _, _ = _gear_test(make, ruleset, 10, defenses=(DODGE,), move=10, hp=3)
    lines = o.summary_lines()
    assert lines[0] == "Hit 25.9% (critical 1.9%) · miss 50.0% (critical 1.9%)"
    assert lines[1] == "Stopped by dodge 24.1%"
    assert lines[2] == "Injury if hit 0–4, mean 1.7 · overall mean 0.4"
    assert lines[3].startswith("0 HP or less 8.6%")
    assert all(len(line) <= 70 for line in lines)


# --- the wired rules: near misses, critical miss checks, acrobatics, disarm, locations ------


R000_001 = get_ruleset("000", ("locations-001",))
STATIONARY = SelectedCondition("stationary")


def _new_options(
    rng: random.Random, ruleset: Tables, a: Combatant, d: Combatant
) -> tuple[Combatant, Combatant, AttackOptions] | None:
    """A random attack with the wired options: random or table-aimed locations,
    acrobatic dodges, reliable weapons, skill over 15, disarms, no-defense
    conditions."""
    weapon = rng.choice(a.fighter.weapons)
    mode = rng.choice(weapon.modes)
    if rng.random() < 0.3:
        weapon = replace(weapon, reliable=True)
        a = replace(a, fighter=replace(a.fighter, weapons=(weapon, *a.fighter.weapons[1:])))
        mode = rng.choice(weapon.modes)
    if rng.random() < 0.4:
        skills = dict(sheet_of(a).skills)
        skills[weapon.skill] = rng.randint(16, 20)
        a = replace(a, fighter=amend(a.fighter, skills=skills))
    if rng.random() < 0.4:
        skills = dict(sheet_of(d).skills)
        skills["Acrobatics"] = rng.randint(8, 16)
        d = replace(d, fighter=amend(d.fighter, skills=skills))
    choices = list(possible_defenses(d))
    kinds: set[DefenseKind] = set()
    announced = []
    for c in rng.sample(choices, rng.randint(0, len(choices))):
        if c.kind not in kinds:
            kinds.add(c.kind)
            announced.append(c)
    roll = rng.random()
    random_location, location, conditions = False, None, ()
    weapon_attack, target = None, None
    if roll < 0.3:
        random_location = True
    elif roll < 0.7:
        location = rng.choice(sorted(ruleset.hit_locations.locations))
    elif roll < 0.8 and d.fighter.weapons:
        weapon_attack, target = WeaponAttack.DISARM, rng.choice(d.fighter.weapons).key
    elif roll < 0.9:
        conditions, announced = (STATIONARY,), []
    options = AttackOptions(
        weapon.key,
        mode.name,
        location=location,
        defenses=tuple(announced),
        random_location=random_location,
        conditions=conditions,
        weapon_attack=weapon_attack,
        target_weapon_key=target,
        acrobatic_dodge=DefenseKind.DODGE in kinds and rng.random() < 0.7,
        from_above=rng.random() < 0.1,
        extra_modifiers=(Modifier(rng.randint(-6, 6), "GM", GM),),
    )
    return a, d, options


def new_scenarios(
    seed: int, count: int, ruleset: Tables
) -> Iterator[tuple[AttackPlan, Combatant, Combatant]]:
    rng = random.Random(seed)
    templates = load_fighters()
    names = sorted(templates)
    made = 0
    while made < count:
        af, df = templates[rng.choice(names)], templates[rng.choice(names)]
        a = combatant(af, "a", Hex(0, 0), Facing.N, Side.RED)
        d = combatant(df, "d", Hex(0, -1), rng.choice(list(Facing)), Side.BLUE)
        d = replace(d, hp=rng.randint(-df.hit_points, df.hit_points))
        built = _new_options(rng, ruleset, a, d)
        if built is None:
            continue
        a, d, options = built
        try:
            plan = plan_attack(a, d, options, ruleset)
        except IllegalAttackError:
            continue
        try:
            attack_odds(plan, a, d, ruleset)
        except IllegalAttackError:  # e.g. a crushing blow aimed at the armpit vitals
            continue
        made += 1
        yield plan, a, d


@pytest.mark.parametrize("rs", [get_ruleset("000"), R000_001], ids=["000", "001-locations"])
def test_wired_options_sum_to_one(rs: Tables) -> None:
    seen = Counter[str]()
    for plan, a, d in new_scenarios(31, 300, rs):
        o = attack_odds(plan, a, d, rs)
        assert outcome_total(o) == 1
        assert all(p >= 0 for p in o.outcomes.values())
        assert sum(o.injury_given_hit.values()) == 1
        assert sum(o.injury.values()) == 1
        assert sum(o.blow.status.values()) == 1
        assert sum(o.status_after.values()) == 1
        assert 0 <= o.p_shifted <= o.p_hit + o.p_defended
        assert o.p_critical_miss_avoided <= o.p_miss
        assert not o.approximate
        assert o.summary_lines()
        seen["random"] += plan.options.random_location
        seen["aimed"] += plan.hit_location is not None
        seen["acrobatic"] += plan.options.acrobatic_dodge
        seen["reliable"] += plan.weapon.reliable
        seen["skill>15"] += plan.base_skill > 15
        seen["disarm"] += plan.options.weapon_attack is WeaponAttack.DISARM
        seen["no defense"] += plan.no_active_defense
        seen["shifted"] += o.p_shifted > 0
    assert all(
        seen[k] >= 3
        for k in ("random", "aimed", "acrobatic", "reliable", "skill>15", "disarm", "no defense")
    ), seen
    if rs is not R000_001:
        assert seen["shifted"] >= 3, seen


def _lands_anyway(plan: AttackPlan, total: int, ruleset: Tables) -> bool:
    """The hit location system's own rule: a failed roll of ``total`` at the
    plan's aim still goes on to the defenses."""
    key = plan.hit_location
    return key is not None and (
        ruleset.hit_locations.missed_aim(
            key, total, plan.effective_skill, plan.location.penalty, plan.damage_spec.type,
            plan.mode.is_swing,
        )
        is not None
    )


def _exact_totals(
    plan: AttackPlan, d: Combatant, ruleset: Tables
) -> dict[AttackOutcome, Fraction]:
    """Every 3d6 total of the attack, of the critical miss checks, of the
    Acrobatics roll and of each defense, with the reference judge and
    resolve_attack's own shift rule."""
    eff, base = plan.effective_skill, plan.base_skill
    def_ok = [{t: ref_judge(t, v, True) for t in TOTAL_WAYS} for v in range(-20, 40)]
    acro = sheet_of(d).skills.get("Acrobatics")

    def p_stop_chain() -> Fraction:
        """P(no announced defense succeeds), acrobatics enumerated."""
        p_all_fail = Fraction(1)
        for dp in plan.defenses:
            if dp.kind is DefenseKind.DODGE and plan.options.acrobatic_dodge:
                assert acro is not None
                fail = Fraction(0)
                for at, aw in TOTAL_WAYS.items():
                    ok = ref_judge(at, acro, False) <= S
                    v = dp.value + (max(0, min(2, 16 - dp.value)) if ok else -4)
                    fail += Fraction(aw, 216) * Fraction(
                        sum(w for t, w in TOTAL_WAYS.items() if def_ok[v + 20][t] > S), 216
                    )
            else:
                fail = Fraction(
                    sum(w for t, w in TOTAL_WAYS.items() if def_ok[dp.value + 20][t] > S), 216
                )
            p_all_fail *= fail
        return p_all_fail

    undefended = p_stop_chain()
    out = defaultdict[AttackOutcome, Fraction](Fraction)
    for t, w in TOTAL_WAYS.items():
        p = Fraction(w, 216)
        code = ref_judge(t, eff, False)
        if code == CS:
            out[AttackOutcome.CRITICAL_HIT] += p
        elif code == S:
            out[AttackOutcome.HIT] += p * undefended
            out[AttackOutcome.DEFENDED] += p * (1 - undefended)
        elif code == CF:
            stands = Fraction(1)
            if plan.weapon.reliable:  # the verification roll against basic skill fails
                stands *= Fraction(
                    sum(w2 for t2, w2 in TOTAL_WAYS.items() if ref_judge(t2, base, False) > S),
                    216,
                )
            if base > 15:  # the avoidance roll against basic skill - 13 fails
                stands *= Fraction(
                    sum(w2 for t2, w2 in TOTAL_WAYS.items() if ref_judge(t2, base - 13, False) > S),
                    216,
                )
            out[AttackOutcome.CRITICAL_MISS] += p * stands
            out[AttackOutcome.MISSED] += p * (1 - stands)
        elif _lands_anyway(plan, t, ruleset):
            out[AttackOutcome.HIT] += p * undefended
            out[AttackOutcome.DEFENDED] += p * (1 - undefended)
        else:
            out[AttackOutcome.MISSED] += p
    return dict(out)


def test_wired_outcomes_exact_by_totals(ruleset: Tables) -> None:
    checked = 0
    for plan, a, d in new_scenarios(77, 200, ruleset):
        if plan.options.weapon_attack is not None:
            continue
        o = attack_odds(plan, a, d, ruleset)
        ref = _exact_totals(plan, d, ruleset)
        got = {k: v for k, v in o.outcomes.items() if v}
        assert got == {k: v for k, v in ref.items() if v}, plan.options
        checked += 1
    assert checked > 100


def _fencer_and_swordsman(make: Make, **skills: int) -> tuple[Combatant, Combatant]:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("fencer", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    if skills:
        a = replace(a, fighter=amend(a.fighter, skills={**sheet_of(a).skills, **skills}))
    d = replace(d, fighter=amend(d.fighter, skills={**sheet_of(d).skills, "Acrobatics": 13}))
    return a, d


@pytest.mark.parametrize(
    ("rs", "opts"),
    [
        (R000_001, {"random_location": True}),
        (get_ruleset("000"), {"location": "brain", "defenses": (DODGE,), "acrobatic_dodge": True}),
        (R000_001, {"location": "skull"}),
        (get_ruleset("000"), {"conditions": (STATIONARY,)}),
        (get_ruleset("000"), {"weapon_attack": WeaponAttack.DISARM, "target_weapon_key": "rapier"}),
    ],
    ids=["random-001", "brain-acrobatic", "skull-001", "stationary", "disarm-000"],
)
def test_wired_agrees_exactly_with_decide(make: Make, rs: Tables, opts: dict[str, object]) -> None:
    """The wired options, exactly: seed 000's ``decide`` on every way the dice
    fall (a few seconds each). Left out, as too slow to enumerate whole (over 20
    s a plan): a random swing under the 000 table and a swing at the vitals with
    a skill of 17; a random location with areas under cover is re-rolled until it
    strikes an uncovered one, which no enumeration ends. Their steps are exact
    above: the location tables (cover conditioned) against ``roll_random``
    enumerated, the located wounds at every key."""
    a, d = _fencer_and_swordsman(make, Broadsword=17)
    weapon = replace(a.fighter.weapon("broadsword"), reliable=True)
    a = replace(
        a,
        fighter=replace(
            a.fighter,
            weapons=tuple(weapon if w.key == "broadsword" else w for w in a.fighter.weapons),
        ),
    )
    mode = str(opts.pop("mode", "swing"))
    plan = plan_attack(a, d, AttackOptions("broadsword", mode, **opts), rs)  # type: ignore[arg-type]
    _agree(plan, a, d, rs)


@pytest.mark.parametrize("rs", [get_ruleset("000"), R000_001], ids=["000", "001-locations"])
def test_located_injury_exact_against_resolve_attack_face_by_face(
    make: Make, rs: Tables, scripted: Callable[..., random.Random]
) -> None:
    """resolve_attack itself, a critical hit (1+1+2) at every key of the hit
    location system it can aim at, fed every combination of damage faces (the
    wound's and the HT rolls all 1s): exactly the injury the odds report."""
    a, d = _fencer_and_swordsman(make)
    d = replace(d, fighter=replace(d.fighter, armor=Armor("test-armor", "Test armor", 1, 2)))
    checked = 0
    for key in sorted(rs.hit_locations.locations):
        for mode in ("swing", "thrust"):
            try:
                plan = plan_attack(a, d, AttackOptions("broadsword", mode, location=key), rs)
                o = attack_odds(plan, a, d, rs)
            except IllegalAttackError:
                continue
            dice = plan.damage_dice
            counts = Counter[int]()
            for faces in itertools.product(range(1, 7), repeat=dice.count):
                r = resolve_attack(plan, a, d, scripted([1, 1, 2, *faces, *(1,) * 60]), rs)
                assert r.damage is not None and r.hit_location == key
                counts[r.damage.injury] += 1
            expected = {i: Fraction(n, 6**dice.count) for i, n in counts.items()}
            # the blow at the aimed key (o.blow also mixes misses that land elsewhere)
            assert dict(blow_odds(plan, d, rs).injury) == expected, (key, mode)
            assert o.blow.injury == blow_odds(plan, d, rs).injury or o.p_shifted
            checked += 1
    assert checked >= 10


def test_the_table_distribution_equals_every_die_and_roll_random_enumerated() -> None:
    """The 000 table's ``exact_distribution`` (counted over 3d6 totals, kept per
    direction and cover) equals the count of all 7776 cases of five dice, and
    ``roll_random`` itself run on every way the dice fall, for every direction."""
    table = get_ruleset("000").hit_locations
    assert isinstance(table, HitLocationTable)
    for above, below, back, side in itertools.product([False, True], repeat=4):
        if above and below:
            continue
        shift = -3 if above else 3 if below else 0
        counts = Counter[str]()
        for d1, d2, d3, sub, sub2 in itertools.product(range(1, 7), repeat=5):
            row = min(max(d1 + d2 + d3 + shift, table.lowest_row), table.highest_row)
            counts[table.lookup(row, sub, sub2, from_back=back, from_side=side)] += 1
        every_die = {k: Fraction(n, 6**5) for k, n in counts.items()}
        exact = table.exact_distribution(above, below, back, from_side=side)
        assert dict(exact) == every_die
        rolled = exact_outcomes(
            lambda dice, a=above, b=below, k=back, s=side: table.roll_random(
                dice, from_above=a, from_below=b, from_back=k, from_side=s
            ).location
        )
        assert dict(rolled) == every_die
        heads = frozenset(k for k, loc in table.locations.items() if loc.area == "head")
        assert table.exact_distribution(above, below, back, heads, from_side=side) == (
            condition_on_cover(exact, heads, table.locations)
        )


def test_stray_blow_on_the_one_in_the_way(make: Make) -> None:
    """000 MISSING A SPECIFIC HIT LOCATION: a plain miss of 9 or less (and at most
    the unaimed skill) strikes the combatant in the way: exactly as often as seed
    000's ``decide`` strikes him, run on every way the dice can fall."""
    a, d = _fencer_and_swordsman(make)
    b = make("sword-and-shield", Hex(6, 6), Facing.N, id="b", side=Side.BLUE)
    ruleset = R000_001  # the 000 table moves such misses to the general area instead
    options = AttackOptions("broadsword", "swing", location="skull", obscured_by="b")
    plan = plan_attack(a, d, options, ruleset)
    o = attack_odds(plan, a, d, ruleset)
    assert 0 < o.p_stray_blow <= o.p_miss
    steps = Seed000Steps(ruleset)
    planned = steps.plan(BattleState(HexGrid(12, 12), (a, d, b)), "a", "d", options)
    struck = exact_outcomes(
        lambda dice: steps.decide(planned, Seed000Answer(), dice).payload.bystander is not None,
        by_reads=True,
    )
    assert struck[True] == o.p_stray_blow
    assert any("in the way" in line for line in o.summary_lines())


# --- exact agreement with resolve_attack itself -------------------------------------------
#
# ``resolve_attack`` run on every way the dice can fall (rules.core.enumerate, by the
# totals of each roll), its results counted as exact Fractions, must give exactly
# the odds: no sampling, no tolerance.

Seen = tuple[AttackOutcome, int, tuple[str, ...], int, Status]
K = TypeVar("K")
V = TypeVar("V")


def _enumerated(
    plan: AttackPlan, a: Combatant, d: Combatant, ruleset: Tables, *, by_reads: bool = False
) -> dict[Seen, Fraction]:
    """Every resolution of ``plan``: (outcome, index of the defense that stopped it
    or -1, each rolled defense's outcome, injury, the defender's state after) ->
    exact chance."""

    def run(dice: EnumeratingDice) -> Seen:
        r = resolve_attack(plan, a, d, dice, ruleset, check=False)
        stopped = len(r.defense_rolls) - 1 if r.outcome is AttackOutcome.DEFENDED else -1
        return (
            r.outcome,
            stopped,
            tuple(x.outcome.name for x in r.defense_rolls),
            r.damage.injury if r.damage is not None else 0,
            r.defender_after.status,
        )

    return dict(exact_outcomes(run, by_reads=by_reads))


def _marginal(seen: Mapping[K, Fraction], pick: Callable[[K], V]) -> dict[V, Fraction]:
    out = defaultdict[V, Fraction](Fraction)
    for key, p in seen.items():
        out[pick(key)] += p
    return {k: p for k, p in out.items() if p}


def _agree_exactly(
    plan: AttackPlan, a: Combatant, d: Combatant, ruleset: Tables, *, by_reads: bool = False
) -> None:
    _same_odds(
        attack_odds(plan, a, d, ruleset), _enumerated(plan, a, d, ruleset, by_reads=by_reads), d
    )


def _same_odds(o: AttackOdds, seen: Mapping[Seen, Fraction], d: Combatant) -> None:
    """``o`` read exactly as the enumerated resolutions ``seen`` give them."""
    assert sum(seen.values()) == 1
    assert _marginal(seen, lambda k: k[0]) == {k: p for k, p in o.outcomes.items() if p}
    for i, dodds in enumerate(o.defenses):
        assert _marginal(seen, lambda k, i=i: k[1] == i).get(True, Fraction(0)) == dodds.p_stopped
        rolled = _marginal(seen, lambda k, i=i: k[2][i] if len(k[2]) > i else None)
        assert sum((p for k, p in rolled.items() if k is not None), Fraction(0)) == dodds.p_rolled
        assert rolled.get("CRITICAL_SUCCESS", Fraction(0)) == dodds.p_critical_success
        assert rolled.get("CRITICAL_FAILURE", Fraction(0)) == dodds.p_critical_failure
    if o.target == "body":
        assert _marginal(seen, lambda k: k[3]) == dict(o.injury)
        assert _marginal(seen, lambda k: k[4]) == {s: p for s, p in o.status_after.items() if p}
        down = _marginal(seen, lambda k: k[0].is_hit and d.hp - k[3] <= 0).get(True, Fraction(0))
        assert down == o.p_zero_hp


def _demo_matchups() -> Iterator[tuple[Combatant, Combatant, Weapon, WeaponMode]]:
    """Every demo fighter against every other, with each weapon mode, the defender
    at the mode's shortest reach straight ahead, facing the attacker; a weapon the
    attacker carries at its belt (the spearman's knife) drawn first."""
    _grid, fighters = load_demo_battle()
    for af in fighters:
        for df in fighters:
            if af.id == df.id:
                continue
            for weapon in af.fighter.weapons:
                for mode in weapon.modes:
                    distance = min((n for n in mode.reach.distances if n > 0), default=None)
                    if distance is None:
                        continue
                    a = replace(in_hand(af, weapon.key), id="a", hex=Hex(0, 0), facing=Facing.N)
                    d = replace(df, id="d", hex=Facing.N.vector.scale(distance), facing=Facing.S)
                    yield a, d, weapon, mode


Matchup = tuple[Combatant, Combatant, Weapon, WeaponMode]


def _matchup_id(matchup: Matchup) -> str:
    a, d, weapon, mode = matchup
    return f"{a.name}-{weapon.key}-{mode.name}-vs-{d.name}".replace(" ", "_")


# One test item per matchup, so that the suite's workers (pytest-xdist) share the
# long enumerations out among them.
DEMO_MATCHUPS = list(_demo_matchups())
MATCHUP_IDS = [_matchup_id(m) for m in DEMO_MATCHUPS]


def _bare_and_first_defense(matchup: Matchup) -> list[AttackOptions]:
    """The matchup's attack without a defense and, if the defender has one, with
    the defender's first."""
    _a, d, weapon, mode = matchup
    first = next(iter(possible_defenses(d)), None)
    variants = [AttackOptions(weapon.key, mode.name)]
    if first is not None:
        variants.append(AttackOptions(weapon.key, mode.name, defenses=(first,)))
    return variants


def test_the_demo_matchups_give_42_plans_to_enumerate() -> None:
    assert sum(len(_bare_and_first_defense(m)) for m in DEMO_MATCHUPS) == 42


@pytest.mark.parametrize("matchup", DEMO_MATCHUPS, ids=MATCHUP_IDS)
def test_demo_matchups_agree_exactly_with_resolve_attack(
    ruleset: Tables, matchup: Matchup
) -> None:
    """Each demo matchup and weapon mode, without a defense and with the
    defender's first one: the odds equal resolve_attack enumerated, Fraction for
    Fraction (the outcomes, each defense, the injury, the state after)."""
    a, d, _weapon, _mode = matchup
    for options in _bare_and_first_defense(matchup):
        _agree_exactly(plan_attack(a, d, options, ruleset), a, d, ruleset)


def _pane_option_plans(matchup: Matchup, ruleset: Tables) -> Iterator[AttackPlan]:
    """The plans of the matchup with each attack-pane option the test below
    enumerates whole (its docstring says which it leaves out)."""
    a, d, weapon, mode = matchup
    for options in attack_form_options(weapon, mode, a, d, ruleset):
        knock_away = ruleset is R000_001 and options.weapon_attack is WeaponAttack.DISARM
        if knock_away or options.random_location or any(
            c.kind is DefenseKind.PARRY for c in options.defenses
        ):
            continue
        try:
            yield plan_attack(a, d, options, ruleset)
        except IllegalAttackError:
            continue


PANE_RULESETS = {"000": get_ruleset("000"), "001-locations": R000_001}


@pytest.mark.parametrize("ruleset_id", PANE_RULESETS)
def test_the_attack_pane_options_give_at_least_220_plans_to_enumerate(ruleset_id: str) -> None:
    ruleset = PANE_RULESETS[ruleset_id]
    assert sum(len(list(_pane_option_plans(m, ruleset))) for m in DEMO_MATCHUPS) >= 220


@pytest.mark.parametrize("matchup", DEMO_MATCHUPS, ids=MATCHUP_IDS)
@pytest.mark.parametrize("ruleset_id", PANE_RULESETS)
def test_every_demo_matchup_and_attack_pane_option_agrees_exactly(
    ruleset_id: str, matchup: Matchup
) -> None:
    """Each demo matchup and weapon mode with every option of the attack pane
    (``attack_form_options``: each defense, aims, chinks, from above and below,
    modifiers, conditions, striking at and disarming weapons, subduing,
    acrobatic and all-out dodges): the odds equal ``resolve_attack`` itself
    enumerated, Fraction for Fraction. The rolls are enumerated by what they say
    they are read as (``by_reads``: each step's claim is tested above against its
    enumeration by totals; the demo matchups test above assumes nothing).

    Left out, as too many ways to enumerate whole in the suite (10 s to well
    over 20 s a plan): random locations (their distribution is the system's,
    checked against ``roll_random`` enumerated; the located wounds at every key
    above), parries, whose successes and fumbles roll long tails of mishaps that
    the odds do not report (a parry is enumerated whole in the demo matchups test
    above when it is the defender's first defense), and 001's knock-away, whose
    weapon's flight is rolled on the map."""
    ruleset = PANE_RULESETS[ruleset_id]
    a, d, _weapon, _mode = matchup
    checked = 0
    for plan in _pane_option_plans(matchup, ruleset):
        _agree_exactly(plan, a, d, ruleset, by_reads=True)
        checked += 1
    assert checked > 0


def _decided(
    plan: AttackPlan, a: Combatant, d: Combatant, ruleset: Tables, *, merge: bool
) -> dict[object, Fraction]:
    """``decide`` of ``plan`` on every way the dice fall, read as the shared odds
    read it plus the defender's whole state after (HP, state, wounds)."""
    steps = Seed000Steps(ruleset)
    state = BattleState(HexGrid(12, 12), (a, d))
    choices = replace(plan.options, defenses=(), acrobatic_dodge=False)
    answer = Seed000Answer(plan.options.defenses, plan.options.acrobatic_dodge)
    planned = steps.plan(state, a.id, d.id, choices)

    def run(dice: EnumeratingDice) -> object:
        outcome = steps.decide(planned, answer, dice)
        after = outcome.payload.defender
        return outcome.kind, outcome.injury, outcome.location, after.hp, after.status, after.tracks

    return dict(exact_outcomes(run, by_reads=True, merge=merge))


@pytest.mark.parametrize(
    ("rs", "opts"),
    [
        (R000_001, {"random_location": True}),
        (get_ruleset("000"), {"defenses": (DefenseChoice(DefenseKind.PARRY, "broadsword"),)}),
        (get_ruleset("000"), {"location": "brain", "defenses": (BLOCK,)}),
    ],
    ids=["001-random", "000-parry", "000-brain-block"],
)
def test_merged_steps_change_nothing_decide_reads(
    make: Make, rs: Tables, opts: dict[str, object]
) -> None:
    """``decide`` enumerated with its merged steps (the wound's rolls, the HT and
    knockdown rolls, a weapon breaking, the critical miss table: ``run_merged``)
    equals it enumerated with every roll branching, Fraction for Fraction, down
    to the defender's wounds."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    plan = plan_attack(a, d, AttackOptions("broadsword", "swing", **opts), rs)  # type: ignore[arg-type]
    assert _decided(plan, a, d, rs, merge=True) == _decided(plan, a, d, rs, merge=False)


def test_a_random_location_under_cover_is_enumerated_among_the_uncovered(
    make: Make, ruleset: Tables
) -> None:
    """A random swing at a defender whose torso and legs are under cover is rolled
    again until it strikes elsewhere (``roll_until``): ``decide`` enumerated gives
    the chained odds, whose locations are the table's counted over the uncovered
    ones (``exact_distribution``); no enumeration of every re-roll would end."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    options = AttackOptions(
        "broadsword", "swing", random_location=True, covered=frozenset({"torso", "leg"})
    )
    plan = plan_attack(a, d, options, ruleset)
    _agree(plan, a, d, ruleset, shared=True)


# --- the enumerating dice source (rules.core.enumerate) ------------------------------------


def test_enumeration_by_totals_and_by_faces_gives_the_dice_distributions() -> None:
    for count in (1, 2, 3, 4):
        by_totals = exact_outcomes(lambda dice, n=count: sum(roll_dice_faces(n, dice)))
        by_faces = exact_outcomes(
            lambda dice, n=count: sum(roll_dice_faces(n, dice)), by_totals=False
        )
        assert dict(by_totals) == dict(by_faces) == dict(distribution(count))
    assert representative_faces(3, 6, 10) == (1, 3, 6)
    assert all(
        sum(representative_faces(3, 6, t)) == t and max(representative_faces(3, 6, t)) <= 6
        for t in range(3, 19)
    )


def test_enumeration_follows_rolls_that_depend_on_earlier_ones() -> None:
    """A die decides how many more dice are rolled (as a critical miss decides the
    table roll): every path is weighed by its own faces, the total is exactly 1."""

    def step(dice: EnumeratingDice) -> int:
        first = roll_dice_faces(1, dice)[0]
        return first if first <= 3 else first + sum(roll_dice_faces(first - 3, dice))

    got = exact_outcomes(step)
    assert sum(got.values()) == 1
    assert got == exact_outcomes(step, by_totals=False)
    assert got[1] == Fraction(1, 6) and got[6] == Fraction(1, 36)  # only 4, then a 2


def test_enumerated_success_rolls_equal_the_rules_outcome_probabilities() -> None:
    from rules.sets.seed000.checks import RollKind, outcome_probabilities, success_roll

    for target in range(-2, 22):
        for kind in (RollKind.STANDARD, RollKind.DEFENSE):
            got = exact_outcomes(lambda dice, t=target, k=kind: success_roll(t, dice, k).outcome)
            assert {o: p for o, p in outcome_probabilities(target, kind).items() if p} == dict(got)


def test_enumeration_refuses_a_step_that_rolls_differently_on_the_same_dice() -> None:
    calls = itertools.count()

    def fickle(dice: EnumeratingDice) -> int:
        return sum(roll_dice_faces(1, dice)[0] for _ in range(1 + next(calls) % 2))

    with pytest.raises(RulesError, match="differently"):
        exact_outcomes(fickle)


# --- the steps the resolver and the odds share (rules.sets.seed000.dice_steps) ---------------
#
# Each step's distribution against a count of every way its dice fall, made here
# with the reference judge; and each step enumerated by what its rolls say they
# are read as (``by_reads``, as the odds enumerate it) against the same step
# enumerated by totals, which assumes nothing about what the step reads.


OUTCOMES = {
    CS: Outcome.CRITICAL_SUCCESS,
    S: Outcome.SUCCESS,
    F: Outcome.FAILURE,
    CF: Outcome.CRITICAL_FAILURE,
}


def _every_3d6() -> Iterator[tuple[int, int]]:
    """Each of the 216 ways 3d6 fall, as (total, 1)."""
    for faces in itertools.product(range(1, 7), repeat=3):
        yield sum(faces), 1


def test_the_attack_roll_step_against_every_die_of_3d6() -> None:
    """Unaimed at skill 12: every one of the 216 ways, judged by the reference:
    criticals, hits and misses; at base skill 17 with a reliable weapon the
    critical failures stand only when both confirming rolls fail (216**3 ways
    for those)."""
    table = get_ruleset("000").hit_locations
    for skill, base, reliable in ((12, 12, False), (17, 17, True), (5, 17, False)):
        inputs = AttackRollInputs(
            effective_skill=skill, base_skill=base, reliable=reliable, aimed_key=None,
            aim_penalty=0, damage_type=DamageType.CUTTING, swung=True, obscured=False,
        )  # fmt: skip
        counts = Counter[AttackOutcome]()
        for total, _ in _every_3d6():
            code = ref_judge(total, skill, False)
            if code == CS:
                counts[AttackOutcome.CRITICAL_HIT] += 216 * 216
            elif code == S:
                counts[AttackOutcome.HIT] += 216 * 216
            elif code == F:
                counts[AttackOutcome.MISSED] += 216 * 216
            elif not (reliable or base > 15):
                counts[AttackOutcome.CRITICAL_MISS] += 216 * 216
            else:
                for verify, _ in _every_3d6():
                    for avoid, _ in _every_3d6():
                        verified = reliable and ref_judge(verify, base, False) in (CS, S)
                        avoided = base > 15 and ref_judge(avoid, base - 13, False) in (CS, S)
                        stands = not verified and not avoided
                        counts[AttackOutcome.CRITICAL_MISS if stands else AttackOutcome.MISSED] += 1
        expected = {o: Fraction(n, 216**3) for o, n in counts.items()}
        got = defaultdict[AttackOutcome, Fraction](Fraction)
        for decision, p in attack_roll_odds(inputs, ByIdentity(table)).items():
            got[decision.outcome] += p
        assert dict(got) == expected, skill
        if skill == 12:  # roll-under: every way of 3 to 12 hits, critically or not
            hits = sum(1 for faces in itertools.product(range(1, 7), repeat=3) if sum(faces) <= 12)
            assert got[AttackOutcome.HIT] + got[AttackOutcome.CRITICAL_HIT] == Fraction(hits, 216)


def test_the_attack_roll_step_by_reads_equals_by_totals() -> None:
    """Aimed under both systems (near misses, misses only because of the aim),
    with someone in the way, reliable and at high skill: the odds' enumeration
    (the attack roll by total, the confirming rolls by outcome) equals the step
    enumerated on every total."""
    checked = 0
    for rs in (get_ruleset("000"), R000_001):
        system = rs.hit_locations
        for key in (None, *sorted(system.locations)[:12]):
            for skill, base, reliable in ((9, 12, False), (14, 17, True)):
                for swung, obscured in ((True, False), (False, True)):
                    inputs = AttackRollInputs(
                        skill, base, reliable, key, -5, DamageType.IMPALING, swung, obscured
                    )
                    by_totals = exact_outcomes(
                        lambda dice, i=inputs, s=system: attack_roll_step(i, s, dice).decision
                    )
                    assert dict(attack_roll_odds(inputs, ByIdentity(system))) == dict(by_totals)
                    checked += 1
    assert checked >= 80


def test_the_defense_step_against_every_die() -> None:
    """A defense at each score and an acrobatic dodge (Acrobatics 13): every face
    of the Acrobatics roll and of the dodge, with the reference judge and the
    +2 (not above 16) / -4 of 000 ACROBATIC DODGE."""
    for value in range(3, 19):
        counts = Counter[int]()
        for total, _ in _every_3d6():
            counts[ref_judge(total, value, True)] += 1
        joint = defense_step_odds(DefenseInputs(value))
        expected = {(OUTCOMES[code], None): Fraction(n, 216) for code, n in counts.items()}
        assert dict(joint) == expected
        acrobatic = Counter[tuple[int, bool]]()
        for acro, _ in _every_3d6():
            ok = ref_judge(acro, 13, False) in (CS, S)
            score = value + (max(0, min(2, 16 - value)) if ok else -4)
            for total, _ in _every_3d6():
                acrobatic[(ref_judge(total, score, True), ok)] += 1
        got = defense_step_odds(DefenseInputs(value, acrobatic=True, acrobatics=13))
        assert dict(got) == {
            (OUTCOMES[code], ok): Fraction(n, 216**2) for (code, ok), n in acrobatic.items()
        }
        assert dict(got) == dict(
            exact_outcomes(
                lambda dice, v=value: defense_step(
                    DefenseInputs(v, acrobatic=True, acrobatics=13), dice
                ).decision
            )
        )


def test_an_acrobatic_dodge_without_the_skill_is_refused() -> None:
    with pytest.raises(IllegalAttackError, match="Acrobatics"):
        defense_step_odds(DefenseInputs(10, acrobatic=True, acrobatics=None))


def test_the_damage_step_against_every_face() -> None:
    for dice in (Dice(1, -3), Dice(2, 1), Dice(3, -1)):
        for factor in (Fraction(1), Fraction(1, 2)):
            counts = Counter[int]()
            for faces in itertools.product(range(1, 7), repeat=dice.count):
                counts[math.floor(max(0, sum(faces) + dice.adds) * factor)] += 1
            got = exact_outcomes(lambda rng, d=dice, f=factor: damage_step(d, f, rng)[1])
            assert dict(got) == {b: Fraction(n, 6**dice.count) for b, n in counts.items()}


def test_the_hp_rolls_by_outcome_equal_them_by_totals() -> None:
    """``injury_status`` as the odds enumerate it (its HT rolls by outcome) equals
    it on every total of every roll, for blows crossing 0 and up to four death
    thresholds; and against ``_brute_ht_states`` (the reference)."""
    for max_hp, ht in ((10, 10), (4, 12)):
        for hp_before in (max_hp, 1, -max_hp + 1):
            for hp_after in range(hp_before, -4 * max_hp - 2, -3):
                for status in (Status.ACTIVE, Status.STUNNED, Status.UNCONSCIOUS):
                    dist = status_distribution({hp_before - hp_after: Fraction(1)}, hp_before,
                                               max_hp, ht, status)  # fmt: skip
                    if hp_after < -2 * max_hp:  # by totals: 16**4 runs and more
                        continue
                    by_totals = exact_outcomes(
                        lambda rng, a=hp_after, b=hp_before, s=status, m=max_hp, h=ht: (
                            injury_status(b, a, m, h, s, rng)[0]
                        )
                    )
                    assert dict(dist) == dict(by_totals), (hp_before, hp_after, status)
    ref = _brute_ht_states(10, 25, 10, 10, Status.ACTIVE)  # the HT rolls alone
    assert dict(status_distribution({25: Fraction(1)}, 10, 10, 10, Status.ACTIVE)) == {
        s: p for s, p in ref.items() if p
    }


def test_the_wound_rolls_by_what_they_grant_equal_them_by_totals(ruleset: Tables) -> None:
    """Every required roll of the wounds a broadsword makes at every location
    (both swung and thrust, damage 1 to 20): enumerated by its outcome and the
    conditions it grants, as the odds do, and on every total."""
    victim = Victim(hp=10, ht=10)
    seen: set[RequiredRoll] = set()
    system = ruleset.hit_locations
    for key in system.locations:
        for dtype in (DamageType.CUTTING, DamageType.IMPALING, DamageType.CRUSHING):
            for basic in range(1, 21, 3):
                try:
                    a = system.assess_wound(key, dtype, basic, victim)
                except RulesError:
                    continue
                seen.update(a.rolls)
    assert len(seen) >= 5
    for req in seen:
        by_reads = exact_outcomes(lambda rng, r=req: roll_required(r, rng), by_reads=True)
        by_totals = exact_outcomes(lambda rng, r=req: roll_required(r, rng))
        project = lambda o: (o.failed, o.conditions)  # noqa: E731
        assert _marginal(by_reads, project) == _marginal(by_totals, project), req


def test_the_stray_blow_of_the_attack_roll_step_on_every_total() -> None:
    """000 MISSING A SPECIFIC HIT LOCATION: with someone in the way, a plain miss
    (not shifted) of 9 or less and at most the unaimed skill strikes him; the
    reference is that sentence, total by total."""
    for rs in (get_ruleset("000"), R000_001):
        system = rs.hit_locations
        for key, penalty in ((None, 0), ("skull", -7), ("vitals", -3)):
            if key is not None and key not in system.locations:
                continue
            for skill in (4, 8, 12):
                inputs = AttackRollInputs(
                    skill, skill, False, key, penalty, DamageType.CUTTING, True, True
                )
                for total in range(3, 19):
                    faces = ScriptedDice(representative_faces(3, 6, total))
                    step = attack_roll_step(inputs, system, faces)
                    plain_miss = ref_judge(total, skill, False) == F and step.shifted is None
                    expected = plain_miss and total <= 9 and total <= skill - penalty
                    assert step.stray is expected, (key, skill, total)


def test_the_state_a_located_wound_forces() -> None:
    """Dead or decapitated: dead; unconscious unless dead; stunned only if
    active; otherwise the HT rolls' state stands."""
    deadly = (WoundCondition.DEAD, WoundCondition.DECAPITATED)
    for status in Status:
        for dead in deadly:
            assert wound_status(status, frozenset({dead, WoundCondition.STUNNED})) is Status.DEAD
        knocked = wound_status(status, frozenset({WoundCondition.UNCONSCIOUS}))
        assert knocked is (Status.DEAD if status is Status.DEAD else Status.UNCONSCIOUS)
        stunned = wound_status(status, frozenset({WoundCondition.STUNNED}))
        assert stunned is (Status.STUNNED if status is Status.ACTIVE else status)
        assert wound_status(status, frozenset()) is status
