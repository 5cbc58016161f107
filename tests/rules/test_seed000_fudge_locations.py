"""Seed 000's "locations-fudge" option (issue 12, 003 "Also an option in seed 000"):
FUDGE 5.87's body parts and a wound track per part instead of the 000 table,
through ``Battle`` commands.

Each battle test executes ``Attack`` (or ``SetRulesetOptions``) on a ``Battle``
with scripted dice and reads its events and state: the attack roll (3d6), for a
random location the 1d6 and its sub-rolls, the damage dice, then the wound's own
rolls (a major wound's knockdown, the HT rolls of seed 000's HP states). The odds
are checked against the same blows enumerated by hand."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.commands import Attack, SetRulesetOptions
from rules.battle.model import Combatant, DamageType, Posture, Status
from rules.battle.savefile import read_battle, write_battle
from rules.battle.scatter import PieceLanded
from rules.battle.state import BattleState
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalCommandError, RulesError
from rules.core.events import Event
from rules.sets.components.fudge_locations import BodyPart, PartState, track_boxes
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, plan_attack, victim_of
from rules.sets.seed000.attack_events import HitLocationRolled, PiecesLeftHand, WoundInflicted
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.locations import aim_choices
from rules.sets.seed000.locations_fudge import (
    FUDGE_LEVEL,
    FudgeLocations,
    fudge_damage,
    tracks_of_victim,
)
from rules.sets.seed000.odds import attack_odds, status_distribution
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.tables import (
    LOCATIONS_001,
    LOCATIONS_2D6,
    LOCATIONS_FUDGE,
    Tables,
)
from rules.sets.seed000.tracks import wounds_of
from rules.sets.seed000.wound_effects import Condition, Limb
from tests.rules.battle_level import Make, of
from tests.rules.location_options import check_chinks_refused, check_injury_odds_face_by_face
from tests.rules.sheets import amend

RF = Tables((LOCATIONS_FUDGE,))
HIT = (3, 3, 3)  # 9: a hit at skill 30 whatever the aim, never a critical
MORE = (1,) * 40  # the wound's rolls and seed 000's HT rolls: all succeed
# 003 5.871: the dice that give each part (location die, extremity die, side die).
ROWS: dict[tuple[int, ...], str] = {
    (3,): "torso", (4,): "torso", (6,): "head",
    (2, 1): "left leg", (2, 6): "right leg", (5, 3): "left arm", (5, 4): "right arm",
    (1, 1, 2): "left foot", (1, 3, 5): "right foot",
    (1, 4, 3): "left hand", (1, 6, 4): "right hand",
}  # fmt: skip


@pytest.fixture
def fighters(make: Make) -> tuple[Combatant, Combatant]:
    """A sure swordsman (skill 30: every aim hits on a 9) and an unarmored
    defender of 12 HP with a broadsword in the weapon hand and a medium shield."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 30})
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    return a, replace(d, fighter=replace(d.fighter, armor=None))


def battle_of(*fighters: Combatant) -> Battle:
    battle = Battle(BattleState(HexGrid(12, 12), fighters), 0, get_ruleset)
    battle.execute(SetRulesetOptions((LOCATIONS_FUDGE,)))
    return battle


def blow(
    battle: Battle,
    where: str | None,
    damage: int,
    mode: str = "swing",
    *,
    random: bool = False,
    location_dice: tuple[int, ...] = (),
) -> tuple[Event, ...]:
    """A sure broadsword blow of ``a`` at ``d``, its one damage die showing ``damage``."""
    options = AttackOptions("broadsword", mode, location=where, random_location=random)
    return battle.execute(
        Attack("a", "d", options), ScriptedDice((*HIT, *location_dice, damage, *MORE))
    )


def hand_boxes(battle: Battle, part: BodyPart = BodyPart.LEFT_HAND) -> tuple[int, ...]:
    """The boxes checked on a part of the defender's track, level by level."""
    return tracks_of_victim(victim_of(battle.state.combatant("d"))).track(part).checked


def wound(events: Sequence[Event]) -> WoundInflicted:
    found = of(events, WoundInflicted)
    assert len(found) == 1, found
    return found[0]


# --- the option ----------------------------------------------------------------------


def test_the_option_selects_the_parts_and_refuses_another_location_system() -> None:
    assert LOCATIONS_FUDGE in get_ruleset("000").available_options
    assert isinstance(RF.hit_locations, FudgeLocations) and RF.hit_locations.system == "003"
    for other in (LOCATIONS_001, LOCATIONS_2D6):
        with pytest.raises(RulesError, match="one of them at most"):
            Tables((LOCATIONS_FUDGE, other))
        battle = Battle(BattleState(HexGrid(4, 4), ()), 0, get_ruleset)
        with pytest.raises(IllegalCommandError, match="each replace the 000 hit locations"):
            battle.execute(SetRulesetOptions((other, LOCATIONS_FUDGE)))


# --- 003 5.871: the random location, every row and sub-roll --------------------------


@pytest.mark.parametrize("dice", sorted(ROWS), ids=lambda d: "-".join(map(str, d)))
def test_every_row_and_sub_roll_of_the_random_location(
    fighters: tuple[Combatant, Combatant], dice: tuple[int, ...]
) -> None:
    battle = battle_of(*fighters)
    events = blow(battle, None, 1, random=True, location_dice=dice)
    rolled = of(events, HitLocationRolled)[0].roll
    assert rolled.system == "003" and rolled.location == ROWS[dice]
    assert (rolled.final.dice[0], rolled.final.sub, rolled.final.sub2)[: len(dice)] == dice
    side = ROWS[dice].split()[0]
    assert (rolled.side.value if rolled.side else None) == (
        side if side in ("left", "right") else None
    )
    assert wound(events).wound.location == ROWS[dice]


def test_the_random_location_odds_are_the_1d6_table_enumerated() -> None:
    counted: dict[str, Fraction] = {}
    die = {2: "leg", 3: "torso", 4: "torso", 5: "arm", 6: "head"}
    for first, second, third in itertools.product(range(1, 7), repeat=3):
        group = die.get(first) or ("foot" if second <= 3 else "hand")
        if group in ("torso", "head"):
            key = group
        else:
            side_die = third if first == 1 else second
            key = f"{'left' if side_die <= 3 else 'right'} {group}"
        counted[key] = counted.get(key, Fraction(0)) + Fraction(1, 216)
    system = RF.hit_locations
    assert dict(system.exact_distribution()) == counted
    assert counted["torso"] == Fraction(1, 3) and counted["left hand"] == Fraction(1, 24)
    covered = system.covered_keys(frozenset({"arm"}))
    assert covered == {"left arm", "right arm", "left hand", "right hand"}
    open_p = 1 - sum(counted[k] for k in covered)
    assert system.exact_distribution(covered=covered) == {
        k: p / open_p for k, p in counted.items() if k not in covered
    }


def test_a_covered_part_is_rolled_again(fighters: tuple[Combatant, Combatant]) -> None:
    battle = battle_of(*fighters)
    options = AttackOptions(
        "broadsword", "swing", random_location=True, covered=frozenset({"head"})
    )
    events = battle.execute(Attack("a", "d", options), ScriptedDice((*HIT, 6, 3, 1, *MORE)))
    rolled = of(events, HitLocationRolled)[0].roll
    assert [a.location for a in rolled.attempts] == ["head", "torso"]


# --- 003 5.871: aiming by size, on 3d6 ---------------------------------------------


def test_aiming_costs_two_3d6_points_a_fudge_level(fighters: tuple[Combatant, Combatant]) -> None:
    a, d = fighters
    choices = aim_choices(
        RF.hit_locations, d, from_front=True, melee=True, damage_type=DamageType.CUTTING
    )
    penalties = {c.key: c.penalty for c in choices}
    fudge = {"head": -2, "eyes": -3, "left arm": -1, "left hand": -2, "right arm": -1,
             "right hand": -2, "left leg": -1, "left foot": -2, "right leg": -1,
             "right foot": -2}  # fmt: skip
    wanted: dict[str | None, int] = {k: FUDGE_LEVEL * v for k, v in fudge.items()}
    assert penalties == {None: 0, **wanted}
    assert all(c.refusal is None for c in choices)
    unaimed = plan_attack(a, d, AttackOptions("broadsword", "swing"), RF)
    assert unaimed.hit_location == "torso"  # 003 5.871: no part named is the torso
    for key, value in fudge.items():
        plan = plan_attack(a, d, AttackOptions("broadsword", "swing", location=key), RF)
        assert plan.effective_skill == unaimed.effective_skill + FUDGE_LEVEL * value
    # the eyes are a head wound
    assert wound(blow(battle_of(a, d), "eyes", 1)).wound.location == "head"


# --- 003 5.872: damage kept, the wound on the part's track ---------------------------


def test_seed_000_damage_is_kept_and_read_on_the_fudge_table(
    fighters: tuple[Combatant, Combatant],
) -> None:
    a, d = fighters
    battle = battle_of(a, d)
    hurt = wound(blow(battle, "right leg", 3))  # 1d+3 cut: 6 x3/2 = 9 injury
    assessment = hurt.assessment
    assert (assessment.penetrating, assessment.multiplier, assessment.injury) == (
        6, Fraction(3, 2), 9,
    )  # fmt: skip
    assert battle.state.combatant("d").hp == d.hp - 9
    assert fudge_damage(9, 12) == 8  # 9 x 10/12 = 7.5, up: Useless
    assert hurt.wound.crippled is Limb.LEG


def test_a_hand_has_the_poor_track_and_a_full_level_moves_up(
    fighters: tuple[Combatant, Combatant],
) -> None:
    """003 5.872: a hand's capacity is two levels below the fighter's, Poor for a
    Fair one: boxes 2 1 1 2 2. Two Hurt wounds: the second takes a Very Hurt box."""
    assert track_boxes(-2) == (2, 1, 1, 2, 2) and track_boxes(-1) == (2, 2, 1, 2, 2)
    a, d = fighters
    battle = battle_of(a, d)
    thrust = "thrust"  # 1d crushing: injury = the die
    first = wound(blow(battle, "left hand", 3, thrust))
    assert fudge_damage(3, 12) == 3 and first.wound.location == "left hand"
    assert hand_boxes(battle) == (0, 1, 0, 0, 0)  # Hurt
    second = wound(blow(battle, "left hand", 3, thrust))
    assert hand_boxes(battle) == (0, 1, 1, 0, 0)  # Hurt full: Very Hurt
    assert second.wound.crippled is None
    third = wound(blow(battle, "left hand", 3, thrust))  # Hurt, Very Hurt full: Useless
    assert hand_boxes(battle) == (0, 1, 1, 1, 0)
    assert third.wound.crippled is Limb.HAND and Condition.DROPPED_ITEM in third.wound.conditions


def test_a_useless_weapon_arm_drops_the_sword_onto_the_map(
    fighters: tuple[Combatant, Combatant],
) -> None:
    """003 5.873: the weapon arm Useless: the broadsword leaves the hand and lands."""
    a, d = fighters
    battle = battle_of(a, d)
    events = blow(battle, "right arm", 4)  # 7 x3/2 = 10 injury: FUDGE 9, Crippled
    hurt = wound(events)
    assert hurt.wound.crippled is Limb.ARM and hurt.wound.side is not None
    assert of(events, PiecesLeftHand)
    assert of(events, PieceLanded)
    after = battle.state.combatant("d")
    assert all(w.key != "broadsword" for w in after.fighter.weapons)
    assert [i.hex for i in battle.state.items] == [after.hex]  # at the feet


def test_a_useless_leg_drops_the_fighter(fighters: tuple[Combatant, Combatant]) -> None:
    battle = battle_of(*fighters)
    hurt = wound(blow(battle, "left foot", 3, "thrust"))  # 3: Hurt on a Poor foot
    assert hurt.wound.crippled is None
    assert battle.state.combatant("d").posture is Posture.STANDING
    hurt = wound(blow(battle, "left foot", 6, "thrust"))  # 6 -> 5: Very Hurt
    assert hurt.wound.crippled is None
    assert battle.state.combatant("d").posture is Posture.STANDING
    hurt = wound(blow(battle, "left foot", 6, "thrust"))  # Very Hurt full: Useless
    assert hurt.wound.crippled is Limb.FOOT
    assert battle.state.combatant("d").posture is not Posture.STANDING


def test_past_crippled_the_limb_is_lost_for_good(fighters: tuple[Combatant, Combatant]) -> None:
    """003 5.873: a limb wounded past Crippled is lost for good. A Poor hand has 8
    boxes (2 1 1 2 2); Scratch wounds fill them in order, the ninth goes past."""
    a, d = fighters
    tough = replace(d, fighter=replace(d.fighter, hit_points=100), hp=100)
    battle = battle_of(a, tough)
    seen = []
    for _ in range(9):  # 1d crushing, 6: 6 injury at 100 HP reads as 1, a Scratch
        seen.append(wound(blow(battle, "left hand", 6, "thrust")).wound)
    lost = [Condition.LIMB_LOST in w.conditions for w in seen]
    assert lost == [False] * 8 + [True]
    assert [w.crippled for w in seen] == [None] * 4 + [Limb.HAND] + [None] * 4  # once
    assert [Condition.DROPPED_ITEM in w.conditions for w in seen].count(True) == 1


def test_the_torso_at_near_death_or_incapacitated_knocks_out(make: Make) -> None:
    """The body's wound levels (base rules): one blow of Incapacitated or Near
    Death stops the fighter (seed 000's unconscious) where seed 000's HP alone would
    leave him up: 13 injury at 18 HP reads as 8 (Incapacitated), at 14 HP as 10."""
    for hp, level in ((18, PartState.INCAPACITATED), (14, PartState.NEAR_DEATH)):
        a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 30})
        d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
        d = replace(d, fighter=replace(d.fighter, armor=None, hit_points=hp), hp=hp)
        battle = battle_of(a, d)
        hurt = wound(blow(battle, None, 6))  # 9 x3/2 = 13
        assert hurt.assessment.location == "torso" and hurt.assessment.injury == 13
        torso = tracks_of_victim(victim_of(battle.state.combatant("d"))).track(BodyPart.TORSO)
        assert torso.state is level
        assert battle.state.combatant("d").hp > 0
        assert battle.state.combatant("d").status is Status.UNCONSCIOUS


def test_the_head_past_near_death_is_dead(fighters: tuple[Combatant, Combatant]) -> None:
    """The head's Near Death boxes (2) full, the next Near Death wound is past the
    track: dead (base rules), seed 000's HP notwithstanding."""
    a, d = fighters
    tough = replace(d, fighter=replace(d.fighter, hit_points=14), hp=14)
    battle = battle_of(a, tough)
    dead = []
    for _ in range(3):  # 13 injury at 14 HP reads as 10: Near Death
        dead.append(wound(blow(battle, "head", 6)).wound.dead)
    assert dead == [False, False, True]
    assert battle.state.combatant("d").status is Status.DEAD


# --- the odds ------------------------------------------------------------------------


def test_the_odds_of_a_random_blow_are_the_parts_enumerated(
    fighters: tuple[Combatant, Combatant],
) -> None:
    a, d = fighters
    options = AttackOptions("broadsword", "swing", random_location=True)
    plan = plan_attack(a, d, options, RF)
    odds = attack_odds(plan, a, d, RF)
    dice = plan.damage_dice
    expected: dict[int, Fraction] = {}
    for face in range(1, 7):
        injury = max(1, math.floor((face + dice.adds) * Fraction(3, 2)))
        expected[injury] = expected.get(injury, Fraction(0)) + Fraction(1, 6)
    assert dict(odds.blow.injury) == expected  # the same on every part
    total = odds.p_critical_hit + odds.p_hit + sum(odds.p_stopped_by) + odds.p_miss
    assert total + odds.p_critical_miss == 1 and sum(odds.blow.status.values()) == 1


def test_the_odds_of_the_state_follow_the_torso_track(
    fighters: tuple[Combatant, Combatant],
) -> None:
    """After four Hurt torso wounds (Hurt and Very Hurt full) a Hurt wound is
    marked Incapacitated: the odds of the state are, face by face of the 1d+3 cut,
    unconscious for those and seed 000's HP states (its HT rolls) for the rest."""
    a, d = fighters
    tough = replace(d, fighter=replace(d.fighter, hit_points=60), hp=60)
    battle = battle_of(a, tough)
    for _ in range(4):  # 13 injury each at 60 HP: FUDGE 3, Hurt
        blow(battle, None, 6)
    attacker, defender = battle.state.combatant("a"), battle.state.combatant("d")
    assert defender.hp == 8 and len(wounds_of(defender)) == 4
    plan = plan_attack(attacker, defender, AttackOptions("broadsword", "swing"), RF)
    odds = attack_odds(plan, attacker, defender, RF)
    ht = sheet_of(defender).attributes.ht
    expected: dict[Status, Fraction] = {}
    for face in range(1, 7):
        injury = math.floor((face + plan.damage_dice.adds) * Fraction(3, 2))
        out = fudge_damage(injury, 60) >= 3  # Hurt or worse: no box below Incapacitated
        states = status_distribution({injury: Fraction(1)}, 8, 60, ht, Status.ACTIVE)
        for state, p in states.items():
            if out and state is not Status.DEAD:
                state = Status.UNCONSCIOUS
            expected[state] = expected.get(state, Fraction(0)) + p / 6
    assert dict(odds.blow.status) == {k: v for k, v in expected.items() if v}
    assert odds.blow.status[Status.UNCONSCIOUS] > Fraction(1, 6)


# --- 003 5.874: only the worst wound of the parts used counts ------------------------


def _hurt_a(fighters: tuple[Combatant, Combatant], *blows: tuple[str, int]) -> Battle:
    """The defender ``d`` strikes ``a`` (the sure swordsman, his armor taken off)
    with 1d crushing thrusts at the parts given, each die showing the face given."""
    a, d = fighters
    a = replace(a, fighter=replace(a.fighter, armor=None))
    d = replace(d, fighter=amend(d.fighter, skills={"Broadsword": 30}))
    battle = battle_of(a, d)
    for where, face in blows:
        options = AttackOptions("broadsword", "thrust", location=where)
        battle.execute(Attack("d", "a", options), ScriptedDice((*HIT, face, *MORE)))
    return battle


def _skill(battle: Battle, options: AttackOptions) -> tuple[int, tuple[str, ...]]:
    a, d = battle.state.combatant("a"), battle.state.combatant("d")
    plan = plan_attack(a, d, options, RF)
    return plan.effective_skill, tuple(m.reason for m in plan.modifiers if "FUDGE" in m.reason)


def test_the_worst_wound_of_the_parts_used_counts_and_not_the_others(
    fighters: tuple[Combatant, Combatant],
) -> None:
    """003 5.874's example in seed 000: the weapon arm Hurt (-1, -2 on 3d6) and a
    leg Very Hurt (-2, -4): fighting on one's feet is at -4, not -6; the other arm
    (the shield's) does not count for the sword."""
    unhurt = _skill(_hurt_a(fighters), AttackOptions("broadsword", "swing"))
    swing = AttackOptions("broadsword", "swing")
    battle = _hurt_a(fighters, ("right arm", 3))  # 3 at 12 HP -> 3: Hurt
    skill, why = _skill(battle, swing)
    assert why == ("right arm hurt (-1 in FUDGE levels): the worst wound of the parts it uses",)
    # shock is seed 000's and passes with the turn; here the plan reads the wound only
    assert skill == unhurt[0] - 2
    battle = _hurt_a(fighters, ("right arm", 3), ("left leg", 6))  # 6 -> 5: Very Hurt
    skill, why = _skill(battle, swing)
    assert skill == unhurt[0] - 4 and why[0].startswith("left leg very hurt")
    battle = _hurt_a(fighters, ("left hand", 6))  # the shield hand Very Hurt
    assert _skill(battle, swing) == unhurt


def test_the_legs_count_only_on_ones_feet(fighters: tuple[Combatant, Combatant]) -> None:
    battle = _hurt_a(fighters, ("left leg", 6))  # Very Hurt
    swing = AttackOptions("broadsword", "swing")
    a, d = battle.state.combatant("a"), battle.state.combatant("d")
    standing = [m.value for m in plan_attack(a, d, swing, RF).modifiers if "FUDGE" in m.reason]
    assert standing == [-4]
    kneeling = replace(a, posture=Posture.KNEELING)
    plan = plan_attack(kneeling, d, swing, RF)
    assert not [m for m in plan.modifiers if "FUDGE" in m.reason]


def test_a_defense_counts_the_limb_it_uses(fighters: tuple[Combatant, Combatant]) -> None:
    """A parry uses the weapon arm, a block the shield arm, a dodge the legs only;
    the plan's defense scores carry the worst wound among them."""
    battle = _hurt_a(fighters, ("left arm", 6))  # the shield arm Very Hurt
    a, d = battle.state.combatant("a"), battle.state.combatant("d")
    defenses = (
        DefenseChoice(DefenseKind.BLOCK),
        DefenseChoice(DefenseKind.PARRY, "broadsword"),
        DefenseChoice(DefenseKind.DODGE),
    )
    for choice in defenses:
        plan = plan_attack(d, a, AttackOptions("broadsword", "swing", defenses=(choice,)), RF)
        fudge = [m.value for m in plan.defenses[0].modifiers if "FUDGE" in m.reason]
        assert fudge == ([-4] if choice.kind is DefenseKind.BLOCK else []), choice


def test_the_odds_equal_resolve_attack_face_by_face(make: Make) -> None:
    check_injury_odds_face_by_face(make, RF)


def test_the_tracks_survive_save_load_and_undo(fighters: tuple[Combatant, Combatant]) -> None:
    """The tracks are replayed from the wounds: a battle file read back and an undone
    blow give the same boxes (a second Hurt hand wound moves up to Very Hurt only
    after the first)."""
    battle = battle_of(*fighters)
    blow(battle, "left hand", 3, "thrust")  # Hurt (1 box)
    loaded = read_battle(
        write_battle(battle, get_ruleset("000").sheets.saved_types), rulesets=get_ruleset
    )
    assert loaded.state == battle.state
    wound(blow(loaded, "left hand", 3, "thrust"))
    assert hand_boxes(loaded) == (0, 1, 1, 0, 0)  # the loaded Hurt box is there
    loaded.undo()
    assert hand_boxes(loaded) == (0, 1, 0, 0, 0)
    loaded.undo()  # the first blow too: the hand is unhurt again
    assert hand_boxes(loaded) == (0, 0, 0, 0, 0)
    wound(blow(loaded, "left hand", 3, "thrust"))
    assert hand_boxes(loaded) == (0, 1, 0, 0, 0)


def test_a_chink_in_armor_needs_the_001_locations(fighters: tuple[Combatant, Combatant]) -> None:
    """Seed 001's chinks in armor have no FUDGE part: the attack is refused, the
    battle unchanged."""
    check_chinks_refused(
        battle_of(*fighters), (*HIT, 3, *MORE), "the FUDGE locations have no chinks in armor"
    )
