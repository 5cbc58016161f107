"""Seed 000's "locations-2d6" option (issue 12, 004 "Also an option in seed 000"):
seed 004's 2d6 hit zones instead of the 000 table, through ``Battle`` commands.

Every test but the pure look-ups executes ``Attack`` (or ``SetRulesetOptions``) on
a ``Battle`` with scripted dice and reads its events and state: the attack roll
(3d6), then for a random location the 2d6 zone, then the damage dice, then the
wound's own rolls. The odds are checked against the same blows enumerated."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, SetRulesetOptions
from rules.battle.model import Armor, Combatant, DamageType
from rules.battle.state import BattleState
from rules.core.dice import Dice, ScriptedDice, distribution
from rules.core.errors import IllegalCommandError, RulesError
from rules.core.events import Event
from rules.sets.components.zones_2d6 import Blow, Zone, zone_distribution
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, plan_attack
from rules.sets.seed000.attack_events import HitLocationRolled, WoundInflicted
from rules.sets.seed000.locations import aim_choices
from rules.sets.seed000.locations_2d6 import SIZE_STEP_PENALTY, Zones2d6, blow_of
from rules.sets.seed000.odds import attack_odds
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import LOCATIONS_001, LOCATIONS_2D6, Tables
from tests.rules.battle_level import Make, of
from tests.rules.location_options import check_chinks_refused, check_injury_odds_face_by_face
from tests.rules.sheets import amend

R2D6 = Tables((LOCATIONS_2D6,))
HIT = (3, 3, 3)  # 9: a hit at any skill of these fighters, not a critical
# Each 2d6 total and the zone key it lands on (004 Zones).
ROWS = {2: "heart", 3: "legs", 4: "legs", 5: "torso", 6: "torso", 7: "torso",
        8: "arms", 9: "arms", 10: "head", 11: "head", 12: "brain"}  # fmt: skip


def faces_for(total: int) -> tuple[int, int]:
    first = min(6, total - 1)
    return first, total - first


@pytest.fixture
def fighters(make: Make) -> tuple[Combatant, Combatant]:
    """An attacker with a mace (crushing), a broadsword (cutting) and a spear
    (impaling) at skill 14, and an unarmored defender of 12 HP, HT 11."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 20})
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    d = replace(d, fighter=replace(d.fighter, armor=None))
    return a, d


def battle_of(*fighters: Combatant) -> Battle:
    battle = Battle(BattleState(HexGrid(12, 12), fighters), 0, get_ruleset)
    battle.execute(SetRulesetOptions((LOCATIONS_2D6,)))
    return battle


def wound(events: Sequence[Event]) -> WoundInflicted:
    found = of(events, WoundInflicted)
    assert len(found) == 1, found
    return found[0]


# --- the option ----------------------------------------------------------------------


def test_the_option_selects_the_zones_and_refuses_a_second_location_system() -> None:
    assert LOCATIONS_2D6 in get_ruleset("000").available_options
    assert isinstance(R2D6.hit_locations, Zones2d6)
    assert R2D6.hit_locations.system == "004"
    with pytest.raises(RulesError, match="one of them at most"):
        Tables((LOCATIONS_001, LOCATIONS_2D6))
    battle = Battle(BattleState(HexGrid(4, 4), ()), 0, get_ruleset)
    with pytest.raises(IllegalCommandError, match="Seed 001 locations and Seed 004 2d6 zones"):
        battle.execute(SetRulesetOptions((LOCATIONS_001, LOCATIONS_2D6)))
    assert battle.state.ruleset_options == ()


# --- the zone table: every row, through a random swing -------------------------------


@pytest.mark.parametrize("total", sorted(ROWS))
def test_every_row_of_the_zone_table_places_a_random_blow(
    fighters: tuple[Combatant, Combatant], total: int
) -> None:
    """004 Zones: a random swing rolls 2d6 after the attack and before the damage."""
    battle = battle_of(*fighters)
    command = Attack("a", "d", AttackOptions("broadsword", "swing", random_location=True))
    events = battle.execute(command, ScriptedDice((*HIT, *faces_for(total), *[1] * 12)))
    rolled = of(events, HitLocationRolled)[0].roll
    assert rolled.system == "004" and rolled.final.total == total
    assert rolled.location == ROWS[total]
    assert wound(events).wound.system == "004"


def test_the_random_zone_odds_are_the_2d6_table_and_cover_rolls_again() -> None:
    system = R2D6.hit_locations
    dist = system.exact_distribution()
    counted: dict[str, Fraction] = {}
    for total, p in distribution(2).items():
        counted[ROWS[total]] = counted.get(ROWS[total], Fraction(0)) + p
    assert dict(dist) == counted and sum(dist.values()) == 1
    assert dist["heart"] == dist["brain"] == Fraction(1, 36)
    assert dist["torso"] == Fraction(15, 36)
    assert {k: p for k, p in zone_distribution().items() if k is Zone.TORSO} == {
        Zone.TORSO: Fraction(15, 36)
    }
    covered = system.covered_keys(frozenset({"head"}))
    assert covered == {"head", "brain"}
    under = system.exact_distribution(covered=covered)
    open_p = 1 - dist["head"] - dist["brain"]
    assert under == {k: p / open_p for k, p in dist.items() if k not in covered}


def test_a_covered_zone_is_rolled_again(fighters: tuple[Combatant, Combatant]) -> None:
    battle = battle_of(*fighters)
    options = AttackOptions(
        "broadsword", "swing", random_location=True, covered=frozenset({"head"})
    )
    events = battle.execute(Attack("a", "d", options), ScriptedDice((*HIT, 5, 5, 3, 4, *[1] * 12)))
    rolled = of(events, HitLocationRolled)[0].roll
    assert [a.location for a in rolled.attempts] == ["head", "torso"]
    assert rolled.attempts[0].covered and rolled.location == "torso"


# --- aiming by size steps ------------------------------------------------------------


def test_aiming_costs_three_a_size_step_and_lands_without_a_roll(
    fighters: tuple[Combatant, Combatant],
) -> None:
    """004 Zones: one size step for a body part, two for a vital organ; the aimed
    zone is hit without the 2d6. The unaimed blow is at the torso, as in 000."""
    a, d = fighters
    system = R2D6.hit_locations
    choices = aim_choices(system, d, from_front=True, melee=True, damage_type=DamageType.CUTTING)
    penalties = {c.key: c.penalty for c in choices}
    assert penalties == {
        None: 0, "heart": 2 * SIZE_STEP_PENALTY, "legs": SIZE_STEP_PENALTY,
        "arms": SIZE_STEP_PENALTY, "head": SIZE_STEP_PENALTY, "brain": 2 * SIZE_STEP_PENALTY,
    }  # fmt: skip
    assert all(c.refusal is None for c in choices)  # a man-sized target: nothing too small
    unaimed = plan_attack(a, d, AttackOptions("broadsword", "swing"), R2D6)
    for key in ("legs", "arms", "head", "heart", "brain"):
        plan = plan_attack(a, d, AttackOptions("broadsword", "swing", location=key), R2D6)
        assert plan.effective_skill == unaimed.effective_skill + penalties[key]
        battle = battle_of(a, d)
        events = battle.execute(
            Attack("a", "d", AttackOptions("broadsword", "swing", location=key)),
            ScriptedDice((*HIT, *[1] * 12)),  # 9: a hit at skill 20 - 3 - 6
        )
        assert not of(events, HitLocationRolled)
        assert wound(events).assessment.location == key
    battle = battle_of(a, d)
    events = battle.execute(
        Attack("a", "d", AttackOptions("broadsword", "swing")), ScriptedDice((*HIT, *[1] * 12))
    )
    assert wound(events).assessment.location == "torso"


# --- the multipliers -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "mode", "expected"),
    [
        # zone x1: seed 000's multiplier stays (cut x3/2, imp x2, cr x1)
        ("arms", ("broadsword", "swing"), Fraction(3, 2)),
        ("legs", ("broadsword", "thrust"), Fraction(1)),
        # torso x2 replaces cut x3/2; head x3 replaces everything lower
        ("torso", ("broadsword", "swing"), Fraction(2)),
        ("head", ("broadsword", "swing"), Fraction(3)),
    ],
)
def test_the_larger_of_the_zone_and_the_damage_type_multiplier_counts(
    fighters: tuple[Combatant, Combatant], key: str, mode: tuple[str, str], expected: Fraction
) -> None:
    battle = battle_of(*fighters)
    location = None if key == "torso" else key
    events = battle.execute(
        Attack("a", "d", AttackOptions(*mode, location=location)),
        ScriptedDice((2, 2, 2, 6, 6, 6, 6, *[1] * 12)),
    )
    hurt = wound(events)
    a = hurt.assessment
    assert a.location == key and a.multiplier == expected
    assert a.injury == int(a.penetrating * expected)
    zone_x = {"arms": 1, "legs": 1, "torso": 2, "head": 3}[key]
    owner = {"arms": "the arms'", "legs": "the legs'"}.get(key, f"the {key}'s")
    assert f"the larger of {owner} x{zone_x} and" in a.steps[-1].text
    assert battle.state.combatant("d").hp == fighters[1].hp - a.injury


# --- the vital organs ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage_type", "blow"),
    [
        (DamageType.CRUSHING, Blow.BLUDGEONING),
        (DamageType.CUTTING, Blow.SLASHING),
        (DamageType.IMPALING, Blow.PIERCING),
        (DamageType.PIERCING, Blow.PIERCING),
        (DamageType.BULLET, Blow.PIERCING),
        (DamageType.BURNING, Blow.OTHER),
        (DamageType.FATIGUE, Blow.OTHER),
    ],
)
def test_seed_000_damage_types_as_the_vital_organ_blows(
    damage_type: DamageType, blow: Blow
) -> None:
    assert blow_of(damage_type) is blow


def _organ_blow(
    make: Make,
    template: str,
    key: str,
    mode: tuple[str, str],
    faces: int,
    *,
    dr: int = 0,
    st: int | None = None,
) -> WoundInflicted:
    """A sure blow (skill 30) of ``template`` aimed at ``key`` of an unarmored
    defender (or one of armor DR ``dr``), every damage die showing ``faces``."""
    a = make(template, Hex(5, 5), Facing.S, id="a",
             skills={"Broadsword": 30, "Flail": 30, "Fencing": 30})  # fmt: skip
    if st is not None:
        a = replace(a, fighter=amend(a.fighter, attributes=replace(sheet_of(a).attributes, st=st)))
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    armor = None if not dr else Armor("plate", "test plate", 0, dr)
    d = replace(d, fighter=replace(d.fighter, armor=armor))
    battle = battle_of(a, d)
    events = battle.execute(
        Attack("a", "d", AttackOptions(*mode, location=key)),
        ScriptedDice((*HIT, *[faces] * 6, *[1] * 60)),
    )
    return wound(events)


def test_a_club_below_10_moves_to_the_zone_around_the_organ(make: Make) -> None:
    """004 Humans: bludgeoning below 10 hits the torso (heart) or head (brain),
    with that zone's multiplier."""
    for organ, around, mult in (("heart", "torso", 2), ("brain", "head", 3)):
        hurt = _organ_blow(make, "flail-fighter", organ, ("morningstar", "swing"), 1)
        assessment = hurt.assessment
        assert assessment.damage_type is DamageType.CRUSHING
        assert 0 < assessment.penetrating < 10
        assert assessment.location == around and assessment.multiplier == mult
        assert assessment.injury == assessment.penetrating * mult
        assert hurt.wound.location == around


def test_a_club_of_10_reaches_the_organ(make: Make) -> None:
    """004 Humans, decided: "below ten" is moved, so exactly 10 reaches the organ."""
    for faces in range(1, 7):
        hurt = _organ_blow(make, "flail-fighter", "heart", ("morningstar", "swing"), faces, st=16)
        if hurt.assessment.penetrating >= 10:
            break
    first = hurt.assessment.penetrating
    hurt = _organ_blow(
        make, "flail-fighter", "heart", ("morningstar", "swing"), faces, st=16, dr=first - 10
    )
    assert hurt.assessment.penetrating == 10
    assert hurt.assessment.location == "heart" and hurt.assessment.multiplier == 6
    assert hurt.assessment.injury == 60
    below = _organ_blow(
        make, "flail-fighter", "heart", ("morningstar", "swing"), faces, st=16, dr=first - 9
    )
    assert below.assessment.penetrating == 9 and below.assessment.location == "torso"


def test_a_cut_cannot_harm_an_unexposed_organ(make: Make) -> None:
    for organ in ("heart", "brain"):
        hurt = _organ_blow(make, "sword-and-shield", organ, ("broadsword", "swing"), 6)
        assert hurt.assessment.penetrating > 0
        assert hurt.assessment.injury == 0 and hurt.wound.injury == 0
        assert hurt.assessment.location == organ
        assert hurt.assessment.multiplier == 0  # stopped: the log reads x0, not x6
        assert "slashing cannot harm an unexposed organ" in hurt.assessment.steps[1].text


def test_piercing_of_2_is_stopped_and_above_2_does_full_damage(make: Make) -> None:
    """004 Humans, decided: piercing of exactly 2 is stopped like less."""
    full = _organ_blow(make, "fencer", "brain", ("rapier", "thrust"), 6)
    basic = full.assessment.basic_damage
    assert full.assessment.multiplier == 6 and full.assessment.injury == basic * 6
    for left, injury in ((3, 18), (2, 0), (1, 0)):
        hurt = _organ_blow(make, "fencer", "brain", ("rapier", "thrust"), 6, dr=basic - left)
        assert hurt.assessment.penetrating == left
        assert hurt.assessment.injury == injury, left
        assert hurt.assessment.location == "brain"
        assert hurt.assessment.multiplier == (6 if injury else 0), left


# --- the odds ------------------------------------------------------------------------


def _expected_injury(
    zone_mults: dict[str, Fraction], damage: Dice, dr: int, organ: Callable[[int], int] | None
) -> dict[int, Fraction]:
    """Enumerated by hand: 2d6 for the zone (or an aimed one, ``zone_mults`` with one
    key), every face of the damage dice, the documented rule."""
    counts: dict[int, Fraction] = {}
    zones = [ROWS[a + b] for a, b in itertools.product(range(1, 7), repeat=2)]
    if len(zone_mults) == 1:
        zones = list(zone_mults)
    for key in zones:
        for faces in itertools.product(range(1, 7), repeat=damage.count):
            left = max(0, max(0, sum(faces) + damage.adds) - dr)
            if key in ("heart", "brain") and organ is not None:
                injury = organ(left)
            elif left == 0:
                injury = 0
            else:
                injury = max(1, math.floor(left * zone_mults[key]))
            p = Fraction(1, len(zones) * 6**damage.count)
            counts[injury] = counts.get(injury, Fraction(0)) + p
    return counts


def test_the_odds_of_a_random_cut_are_the_zones_enumerated(
    fighters: tuple[Combatant, Combatant],
) -> None:
    a, d = fighters
    options = AttackOptions("broadsword", "swing", random_location=True)
    plan = plan_attack(a, d, options, R2D6)
    odds = attack_odds(plan, a, d, R2D6)
    cut = Fraction(3, 2)
    mults = {"legs": cut, "torso": Fraction(2), "arms": cut, "head": Fraction(3)}
    expected = _expected_injury(mults, plan.damage_dice, 0, lambda left: 0)  # cut: no organ
    assert dict(odds.blow.injury) == {k: v for k, v in expected.items() if v}
    total = odds.p_critical_hit + odds.p_hit + sum(odds.p_stopped_by) + odds.p_miss
    assert total + odds.p_critical_miss == 1
    assert sum(odds.blow.status.values()) == 1


def test_the_odds_of_a_club_at_the_heart_move_below_10(make: Make) -> None:
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a", skills={"Flail": 30})
    a = replace(a, fighter=amend(a.fighter, attributes=replace(sheet_of(a).attributes, st=18)))
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    options = AttackOptions("morningstar", "swing", location="heart")
    plan = plan_attack(a, d, options, R2D6)
    dr = d.fighter.armor.dr if d.fighter.armor is not None else 0
    odds = attack_odds(plan, a, d, R2D6)
    expected = _expected_injury(
        {"heart": Fraction(6)}, plan.damage_dice, dr, lambda left: left * (6 if left >= 10 else 2)
    )
    assert dict(odds.blow.injury) == {k: v for k, v in expected.items() if v}
    assert len(odds.blow.injury) > 3  # both sides of 10 are reached


def test_the_odds_equal_resolve_attack_face_by_face(make: Make) -> None:
    check_injury_odds_face_by_face(make, R2D6)


def test_a_chink_in_armor_needs_the_001_locations(fighters: tuple[Combatant, Combatant]) -> None:
    """Seed 001's chinks in armor have no 2d6 zone: the attack is refused, the
    battle unchanged."""
    check_chinks_refused(
        battle_of(*fighters), (*HIT, 3, *[1] * 12), "the 2d6 zones have no chinks in armor"
    )
