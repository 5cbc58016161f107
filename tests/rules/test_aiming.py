"""Aiming through the battle's commands (issue 11 points 1, 7, 10 and 12): every
row of the active hit location system can be aimed at and reaches the located
wound; chinks in armor are refused when planned; the aiming rules keep to their
scope; the off-hand penalty, 000's knock-away disarm and the bare-handed parrying
limb are attack options.

Each test executes ``Attack`` commands on a ``Battle`` and reads its events and
state. The dice are the battle's own (a seed); ``find`` looks for the first seed
that gives the wanted roll, never a magic number."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import Catalog
from rules.battle.commands import Attack, EndTurn, SetRulesetOptions
from rules.battle.model import Combatant, Fighter
from rules.battle.pieces import PlacementKind
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.errors import IllegalAttackError, IllegalCommandError, RulesError
from rules.core.events import Event
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions, WeaponAttack
from rules.sets.seed000.attack_events import (
    AttackRolled,
    DefenseRolled,
    LocationShifted,
    PiecesLeftHand,
    WoundInflicted,
)
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.commands import SetDefendedArea
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.stances import BODY_AREA_CITATION, BodyArea
from rules.sets.seed000.tables import LOCATIONS_001, Tables
from rules.sets.seed000.weapon_strikes import DROPPED_IN_HEX, knock_away_placement
from rules.sets.seed000.wound_effects import Limb
from tests.rules.battle_level import Make, of
from tests.rules.sheets import amend

HANDS_000 = cite("000", "HITTING HANDS IN MELEE")
CONDITIONS_000 = cite("000", "ADVERSE COMBAT CONDITIONS")
R000 = Tables()
R001 = Tables((LOCATIONS_001,))


def battle_of(*fighters: Combatant, seed: int = 0, locations_001: bool = False) -> Battle:
    battle = Battle(BattleState(HexGrid(12, 12), fighters), seed, get_ruleset)
    if locations_001:
        battle.execute(SetRulesetOptions((LOCATIONS_001,)))
    return battle


def attack_until(
    fighters: Sequence[Combatant],
    command: Attack,
    want: Callable[[tuple[Event, ...]], bool],
    *,
    locations_001: bool = False,
    limit: int = 400,
) -> tuple[Battle, tuple[Event, ...]]:
    """The first seeded battle whose ``command`` gives events that satisfy ``want``."""
    for seed in range(limit):
        battle = battle_of(*fighters, seed=seed, locations_001=locations_001)
        events = battle.execute(command)
        if want(events):
            return battle, events
    raise AssertionError(f"no seed below {limit} gives the wanted attack")


def wound(events: Sequence[Event]) -> WoundInflicted:
    found = of(events, WoundInflicted)
    assert len(found) == 1, found
    return found[0]


@pytest.fixture
def sure_spear(make: Make) -> Combatant:
    """A spearman who always hits (skill 30) and thrusts hard (ST 16, impaling:
    every location takes it, the armpit into the vitals too)."""
    c = make("spearman", Hex(5, 5), Facing.S, id="a", skills={"Spear": 30})
    return replace(c, fighter=_stronger(c, 16))


@pytest.fixture
def target(make: Make) -> Combatant:
    return make("sword-and-shield", Hex(5, 6), Facing.N, id="d")


def _stronger(c: Combatant, st: int) -> Fighter:
    return amend(c.fighter, attributes=replace(sheet_of(c).attributes, st=st))


# --- point 1: every row of the active system, to the located wound ------------------------


@pytest.mark.parametrize("locations_001", [False, True], ids=["000", "001"])
def test_every_row_of_the_active_system_is_aimed_at_and_wounded_there(
    sure_spear: Combatant, target: Combatant, locations_001: bool
) -> None:
    system = (R001 if locations_001 else R000).hit_locations
    keys = system.aim_keys(shielded=True)
    assert len(keys) == (12 if locations_001 else 34)  # 001: 10 rows + shield arm, hand
    for key in keys:
        command = Attack("a", "d", AttackOptions("long-spear", "thrust", location=key))
        battle, events = attack_until(
            (sure_spear, target),
            command,
            # the blow lands where aimed (not a roll of 17 that shifts to the area)
            lambda evs: bool(of(evs, WoundInflicted)) and not of(evs, LocationShifted),
            locations_001=locations_001,
            limit=40,
        )
        landed = wound(events)
        limb = system.shield_limb(key)
        assert landed.wound.location == (limb or key), key
        assert landed.wound.label == system.locations[limb or key].label
        hurt = battle.state.combatant("d")
        assert hurt.hp == target.hp - landed.assessment.hp_loss, key


def test_000_limbs_cripple_and_lose_the_excess(make: Make, target: Combatant) -> None:
    """000 RANDOM BODY HIT: "Damage over HP/2 cripples arm. Excess damage lost" -
    before issue 11 the pane's "weapon arm" never reached this code."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 30})
    a = replace(a, fighter=_stronger(a, 20))
    for key, limb in (("near_arm", Limb.ARM), ("far_thigh", Limb.LEG), ("near_hand", Limb.HAND)):
        command = Attack("a", "d", AttackOptions("broadsword", "swing", location=key))
        battle, events = attack_until(
            (a, target),
            command,
            lambda evs: any(
                w.assessment.crippling is not None and w.assessment.crippling.excess_lost > 0
                for w in of(evs, WoundInflicted)
            ),
        )
        landed = wound(events)
        crippling = landed.assessment.crippling
        assert crippling is not None and landed.wound.crippled is crippling.limb is limb
        assert landed.assessment.hp_loss == landed.assessment.injury - crippling.excess_lost
        assert battle.state.combatant("d").hp == target.hp - landed.assessment.hp_loss


def test_001_skull_takes_its_dr_and_x4_and_head_and_brain_are_not_its_keys(
    make: Make, target: Combatant
) -> None:
    """001 Hit Location: the skull's extra DR 2 and x4 wounding. The old list's
    "Head" and "Brain" did torso damage under 001; now they are refused."""
    a = make("flail-fighter", Hex(5, 5), Facing.S, id="a", skills={"Flail": 30})
    command = Attack("a", "d", AttackOptions("morningstar", "swing", location="skull"))
    _, events = attack_until(
        (a, target),
        command,
        lambda evs: any(w.assessment.penetrating > 0 for w in of(evs, WoundInflicted)),
        locations_001=True,
    )
    landed = wound(events)
    assert landed.wound.location == "skull" and landed.assessment.location_dr == 2
    assert landed.assessment.multiplier == 4
    assert landed.assessment.injury == landed.assessment.penetrating * 4
    battle = battle_of(a, target, locations_001=True)
    for old in ("head", "brain", "weapon arm"):
        with pytest.raises(IllegalAttackError, match="unknown hit location"):
            battle.execute(Attack("a", "d", AttackOptions("morningstar", "swing", location=old)))
    assert len(battle.commands) == 1  # only the options command: nothing was rolled


def test_000_rows_that_take_only_some_blows_are_refused_when_planned(
    make: Make, target: Combatant
) -> None:
    """000 note 10 (an impaling thrust only, through the armpit into the vitals)
    and note 5 (no swing through a helm's eye-slits) refuse the attack before any
    roll, instead of failing once the blow lands."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    battle = battle_of(a, target)
    for key, mode in (("armpit_vitals", "swing"), ("armpit_vitals", "thrust"), (
        "eyes_eyeslits", "swing"
    )):
        with pytest.raises(IllegalAttackError, match="note"):
            battle.execute(Attack("a", "d", AttackOptions("broadsword", mode, location=key)))
    assert battle.commands == () and battle.dice_log == ()


# --- point 7: chinks in armor --------------------------------------------------------------


def test_chinks_are_refused_at_planning_for_other_attacks(
    make: Make, sure_spear: Combatant, target: Combatant
) -> None:
    flail = make("flail-fighter", Hex(5, 5), Facing.S, id="a", skills={"Flail": 30})
    crushing = Attack("a", "d", AttackOptions("morningstar", "swing", location="arm", chink=True))
    battle = battle_of(flail, target, locations_001=True)
    with pytest.raises(IllegalAttackError, match="cannot aim at a chink"):
        battle.execute(crushing)
    unaimed = Attack("a", "d", AttackOptions("morningstar", "swing", chink=True))
    with pytest.raises(IllegalAttackError, match="only piercing, impaling and tight-beam"):
        battle.execute(unaimed)
    assert len(battle.commands) == 1 and battle.dice_log == ((),)
    # under 000 there is no chink at all
    with pytest.raises(IllegalAttackError, match="seed 000 has no chinks"):
        battle_of(sure_spear, target).execute(
            Attack("a", "d", AttackOptions("long-spear", "thrust", location="chest", chink=True))
        )
    # an impaling thrust may: the armor's DR is halved where it lands
    thrust = Attack("a", "d", AttackOptions("long-spear", "thrust", location="arm", chink=True))
    _, events = attack_until(
        (sure_spear, target), thrust, lambda evs: bool(of(evs, WoundInflicted)),
        locations_001=True,
    )
    landed = wound(events).assessment
    assert landed.effective_armor_dr == landed.armor_dr // 2
    rolled = of(events, AttackRolled)[0]
    assert [m.value for m in rolled.modifiers if m.citation == cite(
        "001", "Targeting Chinks in Armor"
    )] == [-10]


# --- point 10: the scope of the aiming rules ---------------------------------------------------


def _archer(make: Make, catalog: Catalog) -> Combatant:
    a = make("spearman", Hex(5, 2), Facing.S, id="a")
    bow = catalog.weapon("shortbow")
    sheet = {**sheet_of(a).skills, "Bow": 14}
    return replace(a, fighter=amend(a.fighter, weapons=(bow,), skills=sheet))


def _missed_by(events: Sequence[Event]) -> int:
    rolled = of(events, AttackRolled)[0]
    return rolled.roll.total - rolled.effective_skill


def _missed_only_by_the_aim(events: Sequence[Event], penalty: int) -> bool:
    rolled = of(events, AttackRolled)[0]
    return rolled.effective_skill < rolled.roll.total <= rolled.effective_skill - penalty


def test_a_missile_that_misses_only_by_its_aim_does_not_shift(
    make: Make, catalog: Catalog, target: Combatant
) -> None:
    """000 MISSING A SPECIFIC HIT LOCATION is for hand weapons: the missile misses."""
    archer = _archer(make, catalog)
    far = replace(target, hex=Hex(5, 6))
    shot = Attack("a", "d", AttackOptions("shortbow", "shoot", location="near_thigh"))
    _, events = attack_until((archer, far), shot, lambda evs: _missed_only_by_the_aim(evs, -2))
    assert not of(events, LocationShifted) and not of(events, WoundInflicted)
    # 000 VITALS SHOTS still holds for a missile: an arrow at the vitals that misses
    # by exactly 1 lands on the shoulder
    at_vitals = Attack("a", "d", AttackOptions("shortbow", "shoot", location="vitals"))
    _, events = attack_until(
        (archer, far),
        at_vitals,
        lambda evs: _missed_by(evs) == 1,
    )
    shifted = of(events, LocationShifted)
    assert shifted and shifted[0].citation == cite("000", "NEAR MISSES")
    assert shifted[0].to_label == "Shoulder"
    # the same miss with a hand weapon lands on the thigh's general area
    knight = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    blow = Attack("a", "d", AttackOptions("broadsword", "swing", location="near_knee"))
    _, events = attack_until((knight, target), blow, lambda evs: _missed_only_by_the_aim(evs, -4))
    shifted = of(events, LocationShifted)
    assert shifted and shifted[0].citation == cite("000", "MISSING A SPECIFIC HIT LOCATION")


def test_hands_move_in_melee_only(make: Make, catalog: Catalog, target: Combatant) -> None:
    archer = _archer(make, catalog)
    shot = Attack("a", "d", AttackOptions("shortbow", "shoot", location="near_hand"))
    events = battle_of(archer, target).execute(shot)
    assert HANDS_000 not in {m.citation for m in of(events, AttackRolled)[0].modifiers}
    knight = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")
    blow = Attack("a", "d", AttackOptions("broadsword", "swing", location="near_hand"))
    events = battle_of(knight, target).execute(blow)
    hands = [m for m in of(events, AttackRolled)[0].modifiers if m.citation == HANDS_000]
    assert [m.value for m in hands] == [-2]


def _area_mods(events: Sequence[Event]) -> list[int]:
    return [
        m.value
        for d in of(events, DefenseRolled)
        for m in d.modifiers
        if m.citation == BODY_AREA_CITATION
    ]


def test_the_defended_area_guards_the_body_only_and_holds_for_the_turn(
    make: Make, target: Combatant
) -> None:
    knight = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 30})
    parry = (DefenseChoice(DefenseKind.PARRY, "broadsword"),)
    battle = battle_of(knight, target)
    battle.execute(SetDefendedArea("d", BodyArea.HEAD))
    at_weapon = AttackOptions(
        "broadsword", "swing", defenses=parry, target_weapon_key="broadsword",
        weapon_attack=WeaponAttack.BREAK,
    )
    events = battle.execute(attack_command("a", "d", at_weapon))
    assert of(events, DefenseRolled) and _area_mods(events) == []
    # the guard is set for the turn: after a defense it cannot change
    with pytest.raises(IllegalCommandError, match="middle of the turn"):
        battle.execute(SetDefendedArea("d", BodyArea.CHEST))
    at_chest = AttackOptions("broadsword", "swing", location="chest", defenses=parry)
    events = battle.execute(attack_command("a", "d", at_chest))
    assert _area_mods(events) == [-1]
    battle.execute(EndTurn())
    battle.execute(SetDefendedArea("d", BodyArea.CHEST))  # a new turn, a new choice
    at_chest = AttackOptions("broadsword", "swing", location="chest", defenses=parry)
    events = battle.execute(attack_command("a", "d", at_chest))
    assert _area_mods(events) == [2]


# --- point 12: options that had no way in ----------------------------------------------------


def test_the_off_hand_penalty(make: Make, target: Combatant) -> None:
    knight = make("sword-and-shield", Hex(5, 5), Facing.S, id="a")

    def off_hand_mods(fighter: Combatant, **options: object) -> list[int]:
        opts = AttackOptions("broadsword", "swing", off_hand=True, **options)  # type: ignore[arg-type]
        events = battle_of(fighter, target).execute(Attack("a", "d", opts))
        return [
            m.value
            for m in of(events, AttackRolled)[0].modifiers
            if m.citation == CONDITIONS_000 and "off-hand" in m.reason
        ]

    assert off_hand_mods(knight) == [-4]
    assert off_hand_mods(knight, off_hand_training=3) == [-1]
    assert off_hand_mods(knight, off_hand_training=6) == []
    ambidextrous = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", ambidextrous=True)
    assert off_hand_mods(ambidextrous) == []
    with pytest.raises(RulesError, match="training"):
        off_hand_mods(knight, off_hand_training=-1)


def test_000_disarm_knocks_the_weapon_away_at_the_gm_s_choice(
    make: Make, target: Combatant
) -> None:
    knight = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 24})
    disarm = AttackOptions(
        "broadsword", "swing", target_weapon_key="broadsword", weapon_attack=WeaponAttack.DISARM
    )
    sword = target.fighter.weapon("broadsword")
    for knock_away, placement in ((False, DROPPED_IN_HEX), (True, knock_away_placement(sword))):
        command = Attack("a", "d", replace(disarm, knock_away=knock_away))
        battle, events = attack_until(
            (knight, target), command, lambda evs: bool(of(evs, PiecesLeftHand))
        )
        lost = of(events, PiecesLeftHand)[0]
        assert lost.combatant_id == "d" and lost.pieces[0].placement == placement
    assert placement.kind is not PlacementKind.DROPPED_IN_HEX
    battle = battle_of(knight, target, locations_001=True)
    with pytest.raises(IllegalAttackError, match="001 disarm"):
        battle.execute(Attack("a", "d", replace(disarm, knock_away=True)))
    with pytest.raises(IllegalAttackError, match="000 disarm"):
        battle_of(knight, target).execute(
            Attack("a", "d", AttackOptions("broadsword", "swing", knock_away=True))
        )


def test_the_bare_handed_parrying_limb_is_struck_through_the_battle(
    make: Make, catalog: Catalog
) -> None:
    knight = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 30})
    fist = catalog.weapon("fist")
    brawler = make(
        "spearman", Hex(5, 6), Facing.N, id="d", weapons=(fist,), skills={"Brawling": 14}
    )
    bare_parry = AttackOptions(
        "broadsword", "swing", defenses=(DefenseChoice(DefenseKind.PARRY, "fist"),)
    )
    at_limb = Attack("a", "d", AttackOptions("broadsword", "swing", at_parrying_limb=True))
    for seed in range(200):
        battle = battle_of(knight, brawler, seed=seed)
        with pytest.raises(IllegalAttackError, match="bare-handed"):
            battle.execute(at_limb)
        battle.execute(attack_command("a", "d", bare_parry))
        events = battle.execute(at_limb)
        if of(events, WoundInflicted):
            break
    else:
        raise AssertionError("no seed lands the blow on the parrying limb")
    rolled = of(events, AttackRolled)[0]
    assert 2 in [m.value for m in rolled.modifiers if m.citation == cite("000", "UNARMED PARRIES")]
    assert wound(events).wound.location == "near_arm"
