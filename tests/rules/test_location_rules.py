"""Seed 000's hit location systems override only the rules their seed has.

``LocationRules`` gives the neutral answer of every rule only some seeds have (no
chinks, no shield limb, no missing location, no shifted aim, no lasting modifiers
by body part ...). A system that re-implements one of them must answer something
else somewhere: these tests ask every rule a system overrides, over a wide range of
questions (every location, damage type, tolerance, flag and wounded fighter), and
fail when the override never answers differently from the base it replaces.
"""

from __future__ import annotations

import functools
import inspect
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from rules.battle.model import DamageType
from rules.core.errors import RulesError
from rules.sets.components.zones_2d6 import Size, Zone
from rules.sets.components.zones_2d6 import aim_problem as zone_aim_problem
from rules.sets.seed000.location_rules import AREAS, HitLocationSystem, LocationRules
from rules.sets.seed000.locations_2d6 import Zones2d6
from rules.sets.seed000.sheet import InjuryTolerance
from rules.sets.seed000.tables import LOCATIONS_001, LOCATIONS_2D6, LOCATIONS_FUDGE, Tables
from rules.sets.seed000.wound_effects import BodySide, Victim, wound_from

Call = tuple[tuple[Any, ...], dict[str, Any]]
Probe = Callable[[LocationRules], Iterable[Call]]

SYSTEMS = {
    "000 table": Tables().hit_locations,
    "001 locations": Tables((LOCATIONS_001,)).hit_locations,
    "2d6 zones": Tables((LOCATIONS_2D6,)).hit_locations,
    "FUDGE locations": Tables((LOCATIONS_FUDGE,)).hit_locations,
}
FLAGS = (False, True)
TOLERANCE_SETS = (frozenset(), *(frozenset({t}) for t in InjuryTolerance))
ARM_SETS = (frozenset(), *(frozenset({s}) for s in BodySide), frozenset(BodySide))


def _call(*args: Any, **kwargs: Any) -> Call:
    return args, kwargs


def _keys(system: LocationRules) -> tuple[str, ...]:
    """Every location, the aims a system adds and a key no system knows."""
    return (*system.locations, *system.aim_keys(shielded=True), "nowhere")


def _wounded(system: LocationRules) -> Iterator[Victim]:
    """An unhurt fighter, and one with a single wound of the system at each random
    location, from a scratch to a maiming blow."""
    yield Victim(hp=10, ht=10)
    for key, damage in itertools.product(system.exact_distribution(), (2, 4, 6, 9)):
        try:
            assessment = system.assess_wound(key, DamageType.CUTTING, damage, Victim(10, 10))
        except RulesError:  # a location that takes no cutting blow (001's eye)
            continue
        yield Victim(hp=10, ht=10, wounds=(wound_from(assessment),))


def _aims(system: LocationRules) -> Iterator[Call]:
    for key, dt, swung, beam, tolerances in itertools.product(
        _keys(system), DamageType, FLAGS, FLAGS, TOLERANCE_SETS
    ):
        yield _call(key, dt, swung=swung, tight_beam=beam, tolerances=tolerances)


def _misses(system: LocationRules) -> Iterator[Call]:
    skill = 12
    for key in system.locations:
        penalty = sum(
            m.value for m in system.penalty(key, shield_side=False, melee=True, from_front=True)
        )
        for total, dt, swung, hand in itertools.product(range(3, 19), DamageType, FLAGS, FLAGS):
            yield _call(key, total, skill, penalty, dt, swung, hand)


# The questions each rule of the base is asked (one entry per public rule).
PROBES: Mapping[str, Probe] = {
    "location": lambda s: (_call(k) for k in _keys(s)),
    "aim_keys": lambda s: (_call(shielded=f) for f in FLAGS),
    "limb_key": lambda s: (_call(limb) for limb in ("arm", "hand", "leg", "foot", "tail")),
    "area_keys": lambda s: (_call(area) for area in (*AREAS, "tail")),
    "covered_keys": lambda s: (
        _call(frozenset(areas)) for n in range(len(AREAS) + 1)
        for areas in itertools.combinations(AREAS, n)
    ),
    "chink_problem": lambda s: (
        _call(dt, tight_beam=beam) for dt, beam in itertools.product(DamageType, FLAGS)
    ),
    "refuse_chink": lambda s: (_call(f) for f in FLAGS),
    "aimed_penalty": lambda s: (
        _call(key, shield_side=side, from_front=front, chink=chink, melee=melee)
        for key, side, front, chink, melee in itertools.product(
            _keys(s), FLAGS, FLAGS, FLAGS, FLAGS
        )
    ),
    "shield_limb": lambda s: (_call(aim) for aim in (None, *_keys(s))),
    "lacking_locations": lambda s: (_call(t) for t in TOLERANCE_SETS),
    "aim_problem": _aims,
    "can_target": lambda s: (
        _call(*args, tight_beam=kw["tight_beam"], tolerances=kw["tolerances"])
        for args, kw in _aims(s)
        if not kw["swung"]
    ),
    "missed_aim": _misses,
    "fighting_modifiers": lambda s: (
        _call(v, arms=arms, standing=standing)
        for v, arms, standing in itertools.product(_wounded(s), ARM_SETS, FLAGS)
    ),
    "wound_tracks": lambda s: (_call(v) for v in _wounded(s)),
}


def _rules_of_the_base() -> frozenset[str]:
    """The public methods ``LocationRules`` answers for every system."""
    return frozenset(
        name
        for name, member in vars(LocationRules).items()
        if inspect.isfunction(member) and not name.startswith("_")
    )


def _answer(method: Callable[..., Any], call: Call) -> tuple[str, object]:
    """What a call answers, a refusal included."""
    args, kwargs = call
    try:
        return "answered", method(*args, **kwargs)
    except RulesError as exc:
        return "refused", (type(exc).__name__, str(exc))


def _overridden(system: LocationRules) -> list[str]:
    return sorted(
        name
        for name in _rules_of_the_base()
        if getattr(type(system), name) is not getattr(LocationRules, name)
    )


def _changes_an_answer(system: LocationRules, name: str) -> bool:
    """Whether the system's own ``name`` answers one of the probes otherwise than
    the base's would."""
    own = getattr(system, name)
    neutral = functools.partial(getattr(LocationRules, name), system)
    return any(_answer(own, call) != _answer(neutral, call) for call in PROBES[name](system))


def test_every_rule_of_the_base_is_probed() -> None:
    assert set(PROBES) == _rules_of_the_base()


@pytest.mark.parametrize("name", SYSTEMS)
def test_a_system_overrides_a_rule_only_to_answer_otherwise(name: str) -> None:
    system = SYSTEMS[name]
    same = [rule for rule in _overridden(system) if not _changes_an_answer(system, rule)]
    assert same == [], f"{name} re-implements the neutral answer of {same}"


@dataclass(frozen=True)
class _ZonesWithANoOp(Zones2d6):
    """The 2d6 zones re-implementing a rule they do not have, as they once did."""

    def wound_tracks(self, fighter: Victim) -> tuple[str, ...]:
        return ()  # no wound track per part


def test_the_check_finds_a_no_op_override() -> None:
    zones = SYSTEMS["2d6 zones"]
    assert isinstance(zones, Zones2d6)
    no_op = _ZonesWithANoOp(zones.wounding)
    assert _overridden(no_op) == ["wound_tracks"]
    assert not _changes_an_answer(no_op, "wound_tracks")


def test_every_system_gives_the_whole_core_itself() -> None:
    """No system leaves a member of the required core to the protocol's empty body."""
    core = {
        name: member
        for name, member in vars(HitLocationSystem).items()
        if not name.startswith("_") and (inspect.isfunction(member) or isinstance(member, property))
    }
    assert set(core) == {
        "random_citation",
        "penalty",
        "roll_random",
        "exact_distribution",
        "assess_wound",
    }
    for name, system in SYSTEMS.items():
        assert isinstance(system, LocationRules)
        left = sorted(n for n, member in core.items() if getattr(type(system), n) is member)
        assert left == [], f"{name} leaves {left} to the protocol"
        assert system.limb_keys.keys() == {"arm", "hand", "leg", "foot"}


def test_the_2d6_zones_keep_the_neutral_aim_as_no_zone_is_too_small() -> None:
    """The 2d6 zones override no aim rule: seed 004's limit (no aim below tiny)
    never refuses a zone of a man-sized target, which every seed 000 fighter is."""
    assert [zone_aim_problem(Size.MEDIUM, zone) for zone in Zone] == [""] * len(Zone)
    zones = SYSTEMS["2d6 zones"]
    assert all(zones.can_target(z.value, dt) for z, dt in itertools.product(Zone, DamageType))
