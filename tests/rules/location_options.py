"""What the tests of seed 000's hit location options ("locations-fudge",
"locations-2d6") share: the odds of a blow at every location the option knows,
checked against ``resolve_attack`` itself face by face, and the refusal of seed
001's chinks in armor."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.commands import Attack
from rules.battle.model import Armor
from rules.core.dice import ScriptedDice
from rules.core.enumerate import exact_outcomes
from rules.core.errors import IllegalAttackError
from rules.sets.seed000.attack import AttackOptions, plan_attack, resolve_attack
from rules.sets.seed000.odds import blow_odds
from rules.sets.seed000.tables import Tables
from tests.rules.battle_level import Make


def check_injury_odds_face_by_face(make: Make, ruleset: Tables) -> None:
    """resolve_attack itself, a critical hit (1+1+2) with a broadsword at every key
    the option can aim at, swung and thrust, at a defender in DR 2 armor, fed every
    combination of damage faces (the wound's and the HT rolls all 1s): exactly the
    injury the odds report. And the random location's odds are ``roll_random``
    itself on every way its dice fall."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 14})
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    d = replace(d, fighter=replace(d.fighter, armor=Armor("test-armor", "Test armor", 1, 2)))
    system = ruleset.hit_locations
    checked = 0
    for key in sorted(system.locations):
        for mode in ("swing", "thrust"):
            plan = plan_attack(a, d, AttackOptions("broadsword", mode, location=key), ruleset)
            dice = plan.damage_dice
            counts: dict[int, Fraction] = {}
            for faces in itertools.product(range(1, 7), repeat=dice.count):
                rng = ScriptedDice((1, 1, 2, *faces, *(1,) * 60))
                result = resolve_attack(plan, a, d, rng, ruleset)
                assert result.damage is not None
                injury = result.damage.injury
                counts[injury] = counts.get(injury, Fraction(0)) + Fraction(1, 6**dice.count)
            assert dict(blow_odds(plan, d, ruleset).injury) == counts, (key, mode)
            checked += 1
    assert checked == 2 * len(system.locations)
    rolled = exact_outcomes(lambda dice: system.roll_random(dice).location)
    assert dict(rolled) == dict(system.exact_distribution())


def check_chinks_refused(battle: Battle, faces: Sequence[int], message: str) -> None:
    """A broadsword thrust of "a" at a chink in "d"'s head armor, on ``faces``: the
    option has no such thing, so the attack is refused with ``message`` and the
    battle is unchanged."""
    before = battle.state
    options = AttackOptions("broadsword", "thrust", location="head", chink=True)
    with pytest.raises(IllegalAttackError, match=message):
        battle.execute(Attack("a", "d", options), ScriptedDice(tuple(faces)))
    assert battle.state == before
