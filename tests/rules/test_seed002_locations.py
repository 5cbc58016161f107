"""Seed 002's option "locations-d20": a blow that armour can stop rolls a d20
hit location (the RuneQuest SRD's humanoid table) and meets that location's
armour points, through ``Battle`` commands; the harm odds by every die."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType

import pytest

from rules.battle.commands import Attack
from rules.battle.model import Status
from rules.core.dice import ScriptedDice
from rules.sets.registry import get_ruleset
from rules.sets.seed002.attack import NO_DEFENSE, Attack002, plan_attack
from rules.sets.seed002.attack_steps import harm_odds
from rules.sets.seed002.events import DamageDealt, LocationRolled, MajorWoundRolled
from rules.sets.seed002.sheet import sheet_of
from rules.sets.seed002.tables import hit_locations
from tests.rules.seed002_duel import FacesThenOnes, battle, duel, fighter, of, sword

OPTION = ("locations-d20",)
LOCATION_OF_FACE = (
    ["right-leg"] * 3 + ["left-leg"] * 3 + ["abdomen"] * 3 + ["chest"] * 3
    + ["right-arm"] * 3 + ["left-arm"] * 3 + ["head"] * 2
)  # fmt: skip


def armoured(hp: int = 20):  # type: ignore[no-untyped-def]
    """Hard leather (2 AP) with a helmet (6) and a bare left arm (0)."""
    f = fighter("Defender", hp=hp)
    by_location = MappingProxyType({"head": 6, "left-arm": 0})
    return replace(f, stats=replace(sheet_of(f), armour_by_location=by_location))


def with_locations(state):  # type: ignore[no-untyped-def]
    return replace(state, ruleset_options=OPTION)


@pytest.mark.parametrize("face", range(1, 21))
def test_every_face_of_the_d20_hits_its_location_and_its_armour(face: int) -> None:
    b = battle(with_locations(duel(None, armoured())))
    dice = ScriptedDice((10, 99, 7, face))  # a hit, a failed dodge, 7 damage, the d20
    events = b.execute(Attack("a", "d", sword()), dice)
    assert dice.unused == 0
    where = of(events, LocationRolled)[0]
    key = LOCATION_OF_FACE[face - 1]
    assert (where.face, where.label) == (face, key.replace("-", " "))
    armour = {"head": 6, "left-arm": 0}.get(key, 2)
    assert of(events, DamageDealt)[0].armour == armour
    assert b.state.combatant("d").hp == 20 - (7 - armour)


def test_the_table_covers_the_d20_once() -> None:
    faces = [f for r in hit_locations() for f in range(r.low, r.high + 1)]
    assert faces == list(range(1, 21))
    assert [r.key for r in hit_locations()] == list(dict.fromkeys(LOCATION_OF_FACE))


def test_a_critical_ignores_armour_and_rolls_no_location() -> None:
    b = battle(with_locations(duel(None, armoured())))
    dice = ScriptedDice((3, 99))
    events = b.execute(Attack("a", "d", sword()), dice)
    assert dice.unused == 0 and not of(events, LocationRolled)
    assert of(events, DamageDealt)[0].taken == 8


def test_without_the_option_no_location_is_rolled() -> None:
    b = battle(duel(None, armoured()))
    events = b.execute(Attack("a", "d", sword()), ScriptedDice((10, 99, 7)))
    assert not of(events, LocationRolled)
    assert of(events, DamageDealt)[0].armour == 2


def test_the_option_is_offered_and_checked() -> None:
    ruleset = get_ruleset("002", OPTION)
    assert ruleset.options == frozenset(OPTION)
    assert "locations-d20" in get_ruleset("002").available_options
    assert ruleset.with_options(()) is get_ruleset("002")


def test_kill_and_major_wound_odds_with_locations_match_every_die() -> None:
    """A shortsword (1d6) with no defense on a defender of 8 HP: every face of the
    attack, the damage die and the location die through ``Battle``."""
    state = with_locations(duel(fighter("Swordsman", ("shortsword",)), armoured(hp=8)))
    choices = Attack002("shortsword", "cut")
    kills = majors = 0
    for fa, fx, fl in itertools.product(range(1, 101), range(1, 7), range(1, 21)):
        b = battle(state)
        events = b.execute(Attack("a", "d", choices, NO_DEFENSE), FacesThenOnes((fa, fx, fl)))
        kills += b.state.combatant("d").status is Status.DEAD
        majors += bool(of(events, MajorWoundRolled))
    plan = plan_attack(state, "a", "d", choices, locations=True)
    assert harm_odds(plan, NO_DEFENSE) == (Fraction(kills, 12_000), Fraction(majors, 12_000))
    located = get_ruleset("002", OPTION)
    summary = located.attacks.preview_attack(state, "a", "d", choices, NO_DEFENSE).summary
    assert "armour 2 (head 6, left arm 0)" in summary


def test_the_sheet_carries_the_armour_by_location() -> None:
    ruleset = get_ruleset("002")
    f = armoured()
    data = ruleset.sheets.encode(f)
    assert data["armour_by_location"] == {"head": 6, "left-arm": 0}
    assert sheet_of(ruleset.sheets.decode(data)).armour_by_location == {"head": 6, "left-arm": 0}
    entries = ruleset.sheets.entries(f)
    assert (entries.values["ap_head"], entries.values["ap_chest"]) == (6, None)
    edited = ruleset.sheets.with_entries(f, entries)
    assert sheet_of(edited).armour_by_location == {"head": 6, "left-arm": 0}
    rows = {
        r.label: r.value
        for s in ruleset.sheets.sections(duel(None, f).combatant("d"))
        for r in s.rows
    }
    assert (rows["AP head"], rows["AP left arm"]) == ("6", "0")
