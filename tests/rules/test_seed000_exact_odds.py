"""Seed 000's own exact odds in the shared vocabulary (``Seed000Steps.exact_odds``,
which ``rules.battle.attack_odds`` takes when present) equal ``decide`` enumerated
on every way the dice fall (``attack_odds(..., ruleset_odds=False)``), Fraction for
Fraction in every field: the chance of each kind, the expected injury and the
chance of taking the defender out.

Over the demo matchups (``test_odds.DEMO_MATCHUPS``) with every answer the
defender is offered (``Seed000Steps.answers``: each defense, a parry with each
weapon, the acrobatic dodge, none) and two defenses in a row; aimed blows at the
neck and brain (a spine hit's paralysis at neck level takes a fighter out, note
17) and random locations under the 001 hit locations; the demo battles' own
pairings; a defender already down."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.attack_odds import AttackOdds, attack_odds
from rules.battle.catalog import load_demo_battle
from rules.battle.model import Combatant, Side, Status
from rules.battle.state import BattleState
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, Seed000Answer
from rules.sets.seed000.attack_steps import Plan000, Seed000Steps
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.tables import Tables
from tests.rules.test_odds import DEMO_MATCHUPS, MATCHUP_IDS, Make, Matchup

R000 = cast(Tables, get_ruleset("000"))
R000_001 = cast(Tables, get_ruleset("000", ("locations-001",)))
DODGE = DefenseChoice(DefenseKind.DODGE)
BLOCK = DefenseChoice(DefenseKind.BLOCK)


def _same(steps: Seed000Steps, plan: Plan000, answer: Seed000Answer) -> AttackOdds | None:
    own = steps.exact_odds(plan, answer)
    if any(c.kind is DefenseKind.PARRY for c in answer.defenses[:-1]):
        assert own is None  # a fumbled parry changes the later defenses: enumerated
        return None
    assert own is not None
    enumerated = attack_odds(steps, plan, answer, ruleset_odds=False)
    assert dict(own.kinds) == dict(enumerated.kinds)
    assert own.expected_injury == enumerated.expected_injury
    assert own.takes_out == enumerated.takes_out
    assert attack_odds(steps, plan, answer) == own
    return own


def _plan(
    ruleset: Tables, a: Combatant, d: Combatant, options: AttackOptions
) -> tuple[Seed000Steps, Plan000]:
    steps = Seed000Steps(ruleset)
    state = BattleState(HexGrid(12, 12), (a, d))
    return steps, steps.plan(state, a.id, d.id, options)


@pytest.mark.parametrize("matchup", DEMO_MATCHUPS, ids=MATCHUP_IDS)
def test_every_answer_of_each_demo_matchup(matchup: Matchup) -> None:
    a, d, weapon, mode = matchup
    steps, plan = _plan(R000, a, d, AttackOptions(weapon.key, mode.name))
    answers = steps.answers(plan)
    for answer in answers:
        _same(steps, plan, answer)
    if len(answers) > 2:
        two = Seed000Answer((*answers[0].defenses, DODGE))
        if two.defenses[0] != DODGE and steps._plannable(plan, two):
            _same(steps, plan, two)


@pytest.mark.parametrize(
    ("ruleset", "key"),
    [(R000, "neck"), (R000, "brain"), (R000, "vitals"), (R000_001, "neck"), (R000_001, "skull")],
)
def test_aimed_at_the_neck_and_brain_with_a_block(make: Make, ruleset: Tables, key: str) -> None:
    a = make("spearman", Hex(5, 4), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    steps, plan = _plan(ruleset, a, d, AttackOptions("long-spear", "thrust", location=key))
    _same(steps, plan, Seed000Answer())
    _same(steps, plan, Seed000Answer((BLOCK,)))


def test_a_thrust_at_the_neck_from_behind_can_paralyse(make: Make) -> None:
    """From the back a spine hit needs no impaling blow through: the paralysis at
    neck level counts among the ways the defender is taken out."""
    a = make("spearman", Hex(5, 4), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.S, id="d", side=Side.BLUE)
    steps, plan = _plan(R000_001, a, d, AttackOptions("long-spear", "thrust", location="neck"))
    _same(steps, plan, Seed000Answer())


def test_random_locations_under_001(make: Make) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    steps, plan = _plan(
        R000_001, a, d, AttackOptions("broadsword", "swing", random_location=True)
    )
    _same(steps, plan, Seed000Answer())
    _same(steps, plan, Seed000Answer((BLOCK, DODGE)))


def test_a_defender_already_down_or_hurt(make: Make) -> None:
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", side=Side.RED)
    for status, hp in ((Status.UNCONSCIOUS, -3), (Status.ACTIVE, 2), (Status.STUNNED, 1)):
        d = replace(
            make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE),
            status=status,
            hp=hp,
        )
        steps, plan = _plan(R000, a, d, AttackOptions("broadsword", "swing"))
        _same(steps, plan, Seed000Answer())


def test_the_demo_battles_pairings() -> None:
    """Each fighter of the demo battle on each foe where they stand, with the
    policy's answer (the first offered) and none."""
    grid, fighters = load_demo_battle()
    state = BattleState(grid, tuple(fighters))
    steps = Seed000Steps(R000)
    for a in fighters:
        for d in fighters:
            if a.side is d.side:
                continue
            for weapon in a.fighter.weapons:
                for mode in weapon.modes:
                    try:
                        plan = steps.plan(state, a.id, d.id, AttackOptions(weapon.key, mode.name))
                    except Exception:  # out of reach where they stand
                        continue
                    answers = steps.answers(plan)
                    for answer in {answers[0], Seed000Answer()}:
                        _same(steps, plan, answer)


def test_a_block_then_a_parry(make: Make) -> None:
    """A parry after a block: its fumble's share is of the blows the block let
    through; a parry before the block is enumerated (its fumble changes the block)."""
    a = make("spearman", Hex(5, 4), Facing.S, id="a", side=Side.RED)
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d", side=Side.BLUE)
    parry = DefenseChoice(DefenseKind.PARRY, "broadsword")
    for ruleset in (R000, R000_001):
        steps, plan = _plan(ruleset, a, d, AttackOptions("long-spear", "thrust"))
        assert _same(steps, plan, Seed000Answer((BLOCK, parry))) is not None
        assert _same(steps, plan, Seed000Answer((parry, BLOCK))) is None
