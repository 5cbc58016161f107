"""Seed 004 through ``Battle`` commands: the checks, the opposed dodge and the
block, armor by zone, every row of the 2d6 zone table, aiming by size steps,
the human vital-organ rules, damage types by weapon, wounds, consciousness and
death, initiative, maneuvers, legal actions, conditions and the map's facts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Facing
from rules.battle.commands import Attack, EndTurn, MoveCombatant, PaintTerrain
from rules.battle.maneuvers import MoveAllowance
from rules.battle.model import Posture, Status
from rules.battle.pieces import Piece, Placement, PlacementKind
from rules.battle.scatter import Occupant, StrayRule
from rules.battle.terrain import Light, TerrainChange
from rules.battle.turns import ChooseManeuver, StartTurns
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalAttackError, IllegalCommandError
from rules.sets.components.zones_2d6 import Zone
from rules.sets.seed004.attack import Defense, Seed004Attack
from rules.sets.seed004.events import (
    AttackOutcome,
    CheckRolled,
    DamageRolled,
    DefenseNotRolled,
    InitiativeRolled,
    StatusChanged,
    ZoneDamaged,
    ZoneFound,
)
from rules.sets.seed004.sheet import ZoneArmor, sheet_of
from rules.sets.seed004.tracks import maximum_hit_points, tracks_of
from rules.sets.seed004.wound_effects import WoundTaken
from tests.rules.battle_level import of
from tests.rules.seed004_battle import CATALOG, FRONT, HOME, RULESET, bob, duel, fighter, hit

# --- checks: 2d6 + bonuses against the difficulty -------------------------------------


def test_an_attack_at_the_difficulty_hits_and_one_below_misses() -> None:
    battle = duel()
    # Ann: Melee Combat 2, DEX 5: 2d6+2 against 6 (base 5, a medium target +1).
    events = hit(battle, (1, 2))  # 5: a miss, nothing more is rolled
    (attack,) = of(events, CheckRolled)
    assert (attack.roll.total, attack.roll.against, attack.roll.succeeded) == (5, 6, False)
    assert of(events, AttackOutcome)[0].outcome == "miss"
    events = hit(battle, (2, 2, 1, 1, 3, 3, 1, 3, 3))  # 6 hits; dodge 3 fails
    assert of(events, AttackOutcome)[0].outcome == "hit"


def test_abilities_and_skills_add_to_the_check() -> None:
    battle = duel(fighter("Ann", dexterity=7, skills={"Melee Combat": 3}))
    events = hit(battle, (1, 1, 1, 1, 3, 3, 1, 3, 3))  # 2 + 2 + 3 = 7 against 6
    assert of(events, CheckRolled)[0].roll.bonus == 5
    assert of(events, AttackOutcome)[0].outcome == "hit"


def test_a_mode_s_skill_modifier_adds_to_the_attack() -> None:
    ann = fighter("Ann")
    club = ann.weapon("club")
    clumsy = replace(club, modes=(replace(club.modes[0], skill_modifier=-1),))
    battle = duel(replace(ann, weapons=(clumsy,)))
    events = hit(battle, (1, 1))
    assert of(events, CheckRolled)[0].roll.bonus == 2 - 1


# --- the defense: opposed dodge, the block that halves -----------------------------------


def test_a_dodge_must_beat_the_attack_total() -> None:
    battle = duel()
    # attack 8; dodge 2d6+1: 7 ties (no escape), 8 beats it
    tie = hit(battle, (3, 3, 3, 3, 3, 3, 1, 3, 3))
    assert of(tie, AttackOutcome)[0].outcome == "hit"
    battle = duel()
    dodged = hit(battle, (3, 3, 4, 4))
    assert of(dodged, AttackOutcome)[0].outcome == "dodged"
    assert bob(battle).hp == 35


def test_a_block_that_beats_the_attack_halves_the_damage_rounded_down() -> None:
    battle = duel()
    # attack 8; block 2d6 + STR 0 + CON 0 = 9; torso; club 5+2 = 7, halved to 3; x2
    events = hit(battle, (3, 3, 4, 5, 3, 3, 5, 3, 3), defense=Defense.BLOCK)
    assert of(events, AttackOutcome)[0].outcome == "blocked"
    (damage,) = of(events, DamageRolled)
    assert (damage.rolled, damage.halved, damage.total) == (7, True, 3)
    assert bob(battle).hp == 35 - 6


def test_a_failed_block_takes_full_damage() -> None:
    battle = duel()
    events = hit(battle, (3, 3, 4, 4, 3, 3, 5, 3, 4), defense=Defense.BLOCK)  # block 8
    assert of(events, DamageRolled)[0].total == 7
    assert bob(battle).hp == 35 - 14


def test_each_further_defense_in_a_round_is_at_minus_2_until_the_own_turn() -> None:
    battle = duel()
    battle.execute(StartTurns(), ScriptedDice((6, 6, 1, 1)))  # Ann first
    faces = (1, 1, 1, 1, 3, 3, 1, 3, 3)  # 4 vs 0 hits; Bob's dodge 3 fails; torso 6
    first = hit(battle, faces, adjustment=-6)
    assert of(first, CheckRolled)[1].roll.bonus == 1
    assert tracks_of(bob(battle)).defenses == 1
    again = Attack("a", "b", Seed004Attack("club", "strike", adjustment=-6), gm_override=True)
    second = battle.execute(again, ScriptedDice(faces))
    assert of(second, CheckRolled)[1].roll.bonus == 1 - 2
    battle.execute(EndTurn(), ScriptedDice(()))  # Bob's turn begins: his reaction is back
    assert tracks_of(bob(battle)).defenses == 0


def test_a_surprise_attack_allows_no_defense() -> None:
    battle = duel()
    events = hit(battle, (3, 3, 3, 3, 1, 3, 3), surprise=True)
    assert of(events, DefenseNotRolled)[0].reason == "a surprise attack"
    cited = of(events, DefenseNotRolled)[0].citation
    assert cited is not None and cited.heading.endswith(
        "a surprise attack allows no dodge or block"
    )
    attack = of(events, CheckRolled)[0].citation
    assert attack is not None and attack.heading.startswith("melee combat")
    assert len(of(events, CheckRolled)) == 2  # the attack and the wound check


def test_an_attack_from_the_rear_hex_is_a_surprise() -> None:
    battle = duel(bob_facing=Facing.S)  # Bob turns his back on Ann
    events = hit(battle, (3, 3, 3, 3, 1, 3, 3))
    assert "behind" in of(events, DefenseNotRolled)[0].reason


def test_choosing_no_defense() -> None:
    battle = duel()
    events = hit(battle, (3, 3, 3, 3, 1, 3, 3), defense=Defense.NONE)
    assert of(events, DefenseNotRolled)[0].reason == "no defense chosen"


# --- the zone table, armor by zone, multipliers -----------------------------------------

ROWS = [
    # total, faces, zone taking it, multiplier (club 1d+2 cr: the die shows 3 -> 5)
    (2, (1, 1), Zone.TORSO, 2),  # heart; bludgeoning 5 < 10 moves to the torso
    (3, (1, 2), Zone.LEGS, 1),
    (4, (2, 2), Zone.LEGS, 1),
    (5, (2, 3), Zone.TORSO, 2),
    (6, (3, 3), Zone.TORSO, 2),
    (7, (3, 4), Zone.TORSO, 2),
    (8, (4, 4), Zone.ARMS, 1),
    (9, (4, 5), Zone.ARMS, 1),
    (10, (5, 5), Zone.HEAD, 3),
    (11, (5, 6), Zone.HEAD, 3),
    (12, (6, 6), Zone.HEAD, 3),  # brain; bludgeoning 5 < 10 moves to the head
]


@pytest.mark.parametrize(("total", "faces", "zone", "multiplier"), ROWS)
def test_every_row_of_the_zone_table(
    total: int, faces: tuple[int, int], zone: Zone, multiplier: int
) -> None:
    battle = duel()
    events = hit(battle, (3, 3, 1, 1, *faces, 3, 6, 6))
    (found,) = of(events, ZoneFound)
    assert sum(found.faces) == total
    (damaged,) = of(events, ZoneDamaged)
    assert (damaged.zone, damaged.multiplier, damaged.damage) == (zone, multiplier, 5 * multiplier)
    assert bob(battle).hp == 35 - 5 * multiplier


def test_armor_of_the_zone_is_subtracted_before_the_multiplier() -> None:
    armor = ZoneArmor(head=1, torso=3, arms=2, legs=4)
    battle = duel(bob=fighter("Bob", armor=armor))
    events = hit(battle, (3, 3, 1, 1, 3, 3, 5, 6, 6))  # torso, 7 - 3 = 4, x2
    (damaged,) = of(events, ZoneDamaged)
    assert (damaged.reduction, damaged.left, damaged.damage) == (3, 4, 8)
    events = hit(battle, (3, 3, 1, 1, 5, 5, 5, 6, 6))  # head, 7 - 1 = 6, x3
    assert of(events, ZoneDamaged)[0].damage == 18


def test_armor_that_stops_the_blow_leaves_no_damage_and_no_wound_check() -> None:
    battle = duel(bob=fighter("Bob", armor=ZoneArmor(arms=9)))
    events = hit(battle, (3, 3, 1, 1, 4, 4, 5))
    assert of(events, ZoneDamaged)[0].damage == 0
    assert len(of(events, CheckRolled)) == 2  # attack and dodge only


# --- damage types by weapon --------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "mode", "blow"),
    [
        ("knife", "stab", "piercing"),
        ("knife", "slash", "slashing"),
        ("fists", "punch", "bludgeoning"),
        ("club", "strike", "bludgeoning"),
        ("machete", "slash", "slashing"),
        ("machete", "stab", "piercing"),
        ("spear", "thrust", "piercing"),
        ("sledgehammer", "smash", "bludgeoning"),
        ("torch", "strike", "bludgeoning"),
        ("torch", "burn", "fire"),
    ],
)
def test_the_weapon_mode_gives_the_damage_type(weapon: str, mode: str, blow: str) -> None:
    battle = duel()
    events = hit(battle, (3, 3, 4, 4), weapon, mode)  # dodged: only the declaration matters
    assert of(events, DamageRolled) == []
    from rules.sets.seed004.events import AttackDeclared

    assert of(events, AttackDeclared)[0].blow == blow


def test_strength_adds_to_melee_damage() -> None:
    battle = duel(fighter("Ann", strength=8))
    events = hit(battle, (3, 3, 1, 1, 4, 4, 3, 6, 6), "knife", "stab")  # arms: 3 + 3
    assert of(events, DamageRolled)[0].total == 6
    assert bob(battle).hp == 29


# --- the vital organs -----------------------------------------------------------------------

HEART = (1, 1)
BRAIN = (6, 6)


@pytest.mark.parametrize(
    ("weapon", "mode", "organ", "die", "strength", "exposed", "zone", "hp_lost"),
    [
        # bludgeoning below 10 moves to the surrounding zone, with its multiplier
        ("club", "strike", HEART, 6, 0, False, Zone.TORSO, 16),
        ("club", "strike", BRAIN, 6, 0, False, Zone.HEAD, 24),
        # exactly 10 reaches the organ: x6
        ("sledgehammer", "smash", HEART, 7 - 3, 0, False, Zone.HEART, 60),
        ("club", "strike", BRAIN, 6, 2, False, Zone.BRAIN, 60),
        # slashing cannot harm an unexposed organ; an exposed one takes x6
        ("knife", "slash", HEART, 5, 0, False, Zone.HEART, 0),
        ("knife", "slash", BRAIN, 5, 0, True, Zone.BRAIN, 30),
        # piercing above 2 full damage, exactly 2 and below stopped
        ("knife", "stab", HEART, 3, 0, False, Zone.HEART, 18),
        ("knife", "stab", BRAIN, 2, 0, False, Zone.BRAIN, 0),
        ("knife", "stab", HEART, 1, 0, False, Zone.HEART, 0),
        # an exposed organ: no bone, so neither piercing 2 nor bludgeoning 6 is stopped or moved
        ("knife", "stab", BRAIN, 2, 0, True, Zone.BRAIN, 12),
        ("club", "strike", HEART, 4, 0, True, Zone.HEART, 36),
    ],
)
def test_the_human_vital_organ_rules(
    weapon: str,
    mode: str,
    organ: tuple[int, int],
    die: int,
    strength: int,
    exposed: bool,
    zone: Zone,
    hp_lost: int,
) -> None:
    battle = duel(fighter("Ann", strength=5 + strength), fighter("Bob", hp=80))
    dice = 2 if weapon == "sledgehammer" else 1
    faces = (3, 3, 1, 1, *organ, *((die, 3) if dice == 2 else (die,)))
    events = hit(battle, (*faces, 6, 6), weapon, mode, exposed=exposed, exact=False)
    (damaged,) = of(events, ZoneDamaged)
    assert (damaged.zone, damaged.damage) == (zone, hp_lost)
    assert bob(battle).hp == 80 - hp_lost
    if hp_lost == 0:
        assert damaged.rule  # the log says which rule stopped it


def test_fire_meets_no_bone_rule_on_a_vital_organ() -> None:
    battle = duel(bob=fighter("Bob", hp=80))
    events = hit(battle, (3, 3, 1, 1, *HEART, 3, 6, 6), "torch", "burn")  # 3 - 2 = 1
    (damaged,) = of(events, ZoneDamaged)
    assert (damaged.zone, damaged.left, damaged.damage) == (Zone.HEART, 1, 6)
    assert "fire" in of(events, DamageRolled)[0].describe()


def test_a_vital_organ_wears_the_armor_of_its_surrounding_zone() -> None:
    battle = duel(bob=fighter("Bob", hp=80, armor=ZoneArmor(torso=2, head=5)))
    events = hit(battle, (3, 3, 1, 1, *HEART, 5, 6, 6), "knife", "stab")  # 5 - 2 = 3 > 2
    (damaged,) = of(events, ZoneDamaged)
    assert (damaged.reduction, damaged.left, damaged.damage) == (2, 3, 18)
    events = hit(battle, (3, 3, 1, 1, *BRAIN, 6), "knife", "stab")  # 6 - 5 = 1: stopped
    assert of(events, ZoneDamaged)[0].damage == 0


# --- aiming by size steps --------------------------------------------------------------------


def test_an_aimed_attack_hits_its_zone_without_the_zone_roll() -> None:
    battle = duel()
    # difficulty 7 (a body part: one step smaller, small +2); no zone dice
    events = hit(battle, (3, 3, 1, 1, 4, 6, 6), zone=Zone.HEAD)
    (found,) = of(events, ZoneFound)
    assert (found.zone, found.faces) == (Zone.HEAD, ())
    assert of(events, CheckRolled)[0].roll.against == 7
    assert of(events, ZoneDamaged)[0].damage == 18


def test_aiming_at_a_vital_organ_is_two_size_steps() -> None:
    battle = duel(bob=fighter("Bob", hp=80))
    events = hit(battle, (3, 3, 1, 1, 4, 6, 6), "knife", "stab", zone=Zone.HEART)
    assert of(events, CheckRolled)[0].roll.against == 8  # tiny +3
    assert of(events, ZoneDamaged)[0].damage == 24


def test_a_failed_aimed_attack_misses() -> None:
    battle = duel()
    events = hit(battle, (2, 3), zone=Zone.BRAIN)  # 7 < 8
    assert of(events, AttackOutcome)[0].outcome == "miss"


@pytest.mark.parametrize(
    ("posture", "zone", "possible", "difficulty"),
    [
        (Posture.STANDING, Zone.TORSO, True, 7),
        (Posture.STANDING, Zone.BRAIN, True, 8),
        (Posture.KNEELING, Zone.ARMS, True, 8),
        (Posture.KNEELING, Zone.HEART, False, 0),
        (Posture.PRONE, Zone.LEGS, False, 0),
    ],
)
def test_aiming_is_impossible_below_tiny(
    posture: Posture, zone: Zone, possible: bool, difficulty: int
) -> None:
    battle = duel(bob_posture=posture)
    form = RULESET.attacks.attack_form(battle.state, "a", "b", {"aim": zone.value})
    choice = next(c for c in form.field("aim").choices if c.key == zone.value)
    assert (choice.problem == "") is possible
    if possible:
        events = hit(battle, (1, 1), zone=zone)
        assert of(events, CheckRolled)[0].roll.against == difficulty
    else:
        assert "below tiny" in choice.problem
        assert form.field("aim").value == "random"
        with pytest.raises(IllegalAttackError):
            hit(battle, (1, 1), zone=zone)


def test_a_kneeling_or_prone_target_is_smaller() -> None:
    kneeling = duel(bob_posture=Posture.KNEELING)
    assert of(hit(kneeling, (1, 1)), CheckRolled)[0].roll.against == 7
    prone = duel(bob_posture=Posture.PRONE)
    assert of(hit(prone, (1, 1)), CheckRolled)[0].roll.against == 8


# --- wounds, consciousness, death -----------------------------------------------------------------


def test_a_failed_wound_check_is_a_wound_against_the_damage_before_the_multiplier() -> None:
    battle = duel()
    events = hit(battle, (3, 3, 1, 1, 5, 5, 5, 3, 3))  # head: 7 x3 = 21; check 6 vs 7
    (check,) = [e for e in of(events, CheckRolled) if e.roll.what == "wound check"]
    assert (check.roll.against, check.roll.succeeded) == (7, False)
    (wound,) = of(events, WoundTaken)
    assert (wound.wounds, wound.maximum) == (1, 34)
    assert maximum_hit_points(bob(battle)) == 34


def test_a_passed_wound_check_leaves_no_wound() -> None:
    battle = duel(bob=fighter("Bob", constitution=7))
    events = hit(battle, (3, 3, 1, 1, 5, 5, 5, 3, 2))  # 5 + 2 = 7 vs 7
    assert of(events, WoundTaken) == []


def test_below_zero_a_consciousness_check_against_the_hp_below_zero() -> None:
    battle = duel(bob_hp=5)
    # head 21: 5 -> -16; wound check passes (6+6 vs 7); conscious 2d6 vs 16 fails
    events = hit(battle, (3, 3, 1, 1, 5, 5, 5, 6, 6, 6, 6))
    (stay,) = [e for e in of(events, CheckRolled) if e.roll.what == "consciousness check"]
    assert (stay.roll.against, stay.roll.succeeded) == (16, False)
    assert bob(battle).status is Status.UNCONSCIOUS
    assert of(events, StatusChanged)[0].status is Status.UNCONSCIOUS


def test_a_conscious_fighter_below_zero_checks_again_when_its_turn_begins() -> None:
    battle = duel(bob_hp=-3)
    battle.execute(StartTurns(), ScriptedDice((6, 6, 1, 1)))  # Ann, then Bob
    events = battle.execute(EndTurn(), ScriptedDice((1, 1)))  # Bob's turn: 2 vs 3
    assert of(events, StatusChanged)[0].status is Status.UNCONSCIOUS
    assert RULESET.turns.maneuvers(battle.state, "b") == ()


def test_at_minus_the_maximum_the_fighter_dies() -> None:
    battle = duel(bob_hp=-30)  # 35 HP: dead at -35
    events = hit(battle, (3, 3, 1, 1, 3, 3, 1))  # torso 3 x2 = 6: -36, no wound check
    assert bob(battle).status is Status.DEAD
    assert "at or below -35" in of(events, StatusChanged)[0].reason
    assert len(of(events, CheckRolled)) == 2


def test_wounds_lower_the_death_threshold() -> None:
    battle = duel(bob_hp=-28)
    # torso: club 1 + 2 = 3, x2: -34, alive at 35 HP; the wound check 2 vs 3 fails
    events = hit(battle, (3, 3, 1, 1, 3, 3, 1, 1, 1))
    assert of(events, WoundTaken)[0].maximum == 34
    assert bob(battle).status is Status.DEAD  # -34 <= -34


# --- initiative, maneuvers, legal actions -------------------------------------------------------


def test_initiative_is_2d6_plus_dexterity_highest_first_ties_by_dexterity_then_a_die() -> None:
    battle = duel(fighter("Ann", dexterity=4), fighter("Bob", dexterity=6))
    events = battle.execute(StartTurns(), ScriptedDice((5, 5, 4, 4)))  # Ann 9, Bob 9
    assert battle.state.initiative == ("b", "a")  # equal: the higher Dexterity
    assert of(events, InitiativeRolled)[0].entries[0][3] == 9
    tied = duel()
    tied.execute(StartTurns(), ScriptedDice((3, 3, 2, 4, 2, 5)))  # 6 and 6, DEX equal
    assert tied.state.initiative == ("b", "a")  # Bob's tie die 5 beats Ann's 2


def test_the_attack_maneuver_allows_one_attack_and_one_step() -> None:
    battle = duel(bob_hex=FRONT + Facing.S.vector)
    battle.execute(StartTurns(), ScriptedDice((6, 6, 1, 1)))
    battle.execute(ChooseManeuver("a", "attack"))
    assert RULESET.turns.maneuver("attack").movement is MoveAllowance.STEP
    battle.execute(MoveCombatant("a", FRONT))
    with pytest.raises(IllegalCommandError):
        battle.execute(MoveCombatant("a", FRONT + Facing.SE.vector))
    hit(battle, (1, 1))
    with pytest.raises(IllegalCommandError):
        hit(battle, (1, 1))


def test_the_move_maneuver_moves_the_full_speed_and_allows_no_attack() -> None:
    battle = duel(bob_hex=FRONT + Facing.S.vector + Facing.S.vector)
    battle.execute(StartTurns(), ScriptedDice((6, 6, 1, 1)))
    battle.execute(ChooseManeuver("a", "move"))
    battle.execute(MoveCombatant("a", FRONT + Facing.S.vector))  # two hexes
    actions = RULESET.turns.legal_actions(battle.state, "a")
    assert not any(a.label.startswith("attack") for a in actions)
    assert any(a.label == "end the turn" for a in actions)


def test_legal_actions_offer_maneuvers_and_the_attack_in_reach() -> None:
    battle = duel()
    battle.execute(StartTurns(), ScriptedDice((6, 6, 1, 1)))
    actions = RULESET.turns.legal_actions(battle.state, "a")
    labels = [a.label for a in actions]
    assert {"maneuver: Attack", "maneuver: Move", "maneuver: Ready"} <= set(labels)
    assert RULESET.turns.legal_actions(battle.state, "b") == ()  # not Bob's turn
    attack = next(a for a in actions if isinstance(a.command, Attack))
    assert attack.label.startswith("attack Bob: ") and attack.label.endswith(", a random zone")
    assert isinstance(attack.command, Attack) and attack.command.answer is None
    # Each mode in hand and in reach (knife 2, club, fists) at a random zone and at
    # each of the six zones a man-sized target lets it aim at (004 Zones).
    attacks = [a.command for a in actions if isinstance(a.command, Attack)]
    assert len(attacks) == 4 * 7
    assert [a.choices for a in attacks] == list(
        RULESET.attacks.attack_variants(battle.state, "a", "b")
    )
    battle.execute(attack.command, ScriptedDice((1, 1)))
    assert battle.state.combatant("a").attacks_made == 1


def test_condition_labels() -> None:
    battle = duel(bob_hp=2, bob_posture=Posture.KNEELING)
    hit(battle, (3, 3, 1, 1, 4, 4, 6, 1, 1, 6, 6))  # arms 8: -6, wounded, stays up
    assert RULESET.conditions.labels(bob(battle)) == ("kneeling", "below 0 HP", "1 wound")


# --- the map ------------------------------------------------------------------------------------


def test_darkness_adds_to_the_difficulty_and_names_it() -> None:
    battle = duel()
    battle.execute(PaintTerrain((FRONT,), TerrainChange(light=Light.NEARLY_DARK)))
    events = hit(battle, (1, 1))
    assert of(events, CheckRolled)[0].roll.against == 10
    assert RULESET.battlefield.terrain_label(Light.NEARLY_DARK) == "nearly dark (+4 difficulty)"
    assert RULESET.battlefield.terrain_label(Light.DAYLIGHT) == "daylight"
    assert [m.value for m in RULESET.attacks.situation(battle.state, "a", "b")] == [1, 4]


def test_a_flying_piece_hits_nobody() -> None:
    """Nothing in seed 004 leaves a hand; a piece the GM sends flying passes."""
    battle = duel()
    state = battle.state
    piece = Piece("Club", CATALOG.weapon("club"), Placement(PlacementKind.FLIES))
    after, events = RULESET.battlefield.piece_hit(
        state, piece, None, state.combatant("a"), "b", FRONT, ScriptedDice(())
    )
    assert after == state
    assert [type(e).__name__ for e in events] == ["NothingHit"]
    occupant = Occupant(bob(battle))
    assert RULESET.battlefield.stray_hits.hit_chance(occupant, StrayRule.IN_PATH) == 0
    check = RULESET.battlefield.stray_hits.check(
        "Club", piece.placement, occupant, FRONT, StrayRule.IN_PATH, ScriptedDice(())
    )
    assert not check.hit and check.combatant_id == "b"


def test_the_turn_end_changes_nothing_and_a_new_turn_restores_the_reaction() -> None:
    battle = duel()
    hit(battle, (3, 3, 4, 4))  # dodged: Bob used his reaction
    state = battle.state
    assert tracks_of(bob(battle)).defenses == 1
    assert RULESET.turns.turn_ends(state, "b", ScriptedDice(())) == (state, ())
    assert tracks_of(RULESET.turns.new_turn(bob(battle))).defenses == 0


# --- every row of difficulty.json ----------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "difficulty"),
    [("tiny", 8), ("small", 7), ("medium", 6), ("large", -7), ("huge", -13)],
)
def test_every_row_of_the_size_table(size: str, difficulty: int) -> None:
    from rules.sets.components.zones_2d6 import Size

    big = fighter("Bob")
    big = replace(big, stats=replace(sheet_of(big), size=Size(size)))
    battle = duel(bob=big)
    # 2d6+2 = 4: a miss against 6 or more; a hit on a large or huge target, dodged on 13
    faces = (1, 1) if difficulty > 4 else (1, 1, 6, 6)
    assert of(hit(battle, faces), CheckRolled)[0].roll.against == difficulty


@pytest.mark.parametrize(
    ("posture", "difficulty"),
    [
        (Posture.STANDING, 6),
        (Posture.DEFENSIVE_CROUCH, 6),
        (Posture.DEEP_CROUCH, 7),
        (Posture.KNEELING, 7),
        (Posture.SITTING, 7),
        (Posture.SITTING_IN_CHAIR, 7),
        (Posture.HANDS_AND_KNEES, 7),
        (Posture.CRAWLING, 8),
        (Posture.PRONE, 8),
    ],
)
def test_every_posture_s_size_steps(posture: Posture, difficulty: int) -> None:
    battle = duel(bob_posture=posture)
    assert of(hit(battle, (1, 1)), CheckRolled)[0].roll.against == difficulty


@pytest.mark.parametrize(
    ("darkness", "added"),
    [(0, 0), (1, 0), (2, 2), (5, 2), (8, 2), (9, 4), (10, 6)],
)
def test_every_row_of_the_light_table(darkness: int, added: int) -> None:
    battle = duel()
    battle.execute(PaintTerrain((HOME,), TerrainChange(light=Light.of_darkness(darkness))))
    assert of(hit(battle, (1, 1)), CheckRolled)[0].roll.against == 6 + added


# --- wounding effects (base rules: every fifth wound point) ---------------------------------


@pytest.mark.parametrize(
    ("face", "wounds", "move", "abilities", "hp"),
    [
        (1, 7, 5, {}, 21),
        (2, 6, 5, {}, 21),
        (3, 5, 3, {}, 21),
        (4, 5, 5, {"strength": 3}, 21),
        (5, 5, 5, {"dexterity": 3}, 21),
        (6, 5, 5, {"constitution": 3}, 21),
        (7, 5, 5, {"perception": 3}, 21),
        (8, 5, 5, {}, 18),
        (9, 5, 5, {}, 20),
        (10, 5, 5, {}, 21),
    ],
)
def test_every_row_of_the_wounding_effects(
    face: int, wounds: int, move: int, abilities: dict[str, int], hp: int
) -> None:
    from rules.sets.seed004.wound_effects import WoundEffectRolled

    battle = duel(bob_wounds=4)
    # torso: club 5 + 2 = 7, x2: 35 -> 21; the wound check 2 vs 7 fails: wound 5
    events = hit(battle, (3, 3, 1, 1, 3, 3, 5, 1, 1, face))
    (rolled,) = of(events, WoundEffectRolled)
    assert (rolled.face, rolled.wounds) == (face, 5)
    after = bob(battle)
    assert tracks_of(after).wounds == wounds
    assert maximum_hit_points(after) == 35 - wounds
    assert after.fighter.move == move
    ranks = sheet_of(after).abilities
    for name in ("strength", "dexterity", "constitution", "perception"):
        assert ranks.rank(name) == abilities.get(name, 5)
    assert after.hp == hp
    assert tracks_of(after).effects == (rolled.effect,)


def test_no_wounding_effect_between_multiples_of_five() -> None:
    from rules.sets.seed004.wound_effects import WoundEffectRolled

    battle = duel(bob_wounds=5)
    events = hit(battle, (3, 3, 1, 1, 3, 3, 5, 1, 1))  # wound 6: no d10
    assert of(events, WoundEffectRolled) == []
    assert tracks_of(bob(battle)).wounds == 6


def test_a_lowered_ability_counts_in_later_checks() -> None:
    battle = duel(bob_wounds=4)
    hit(battle, (3, 3, 1, 1, 3, 3, 5, 1, 1, 5))  # Dexterity -2: Bob's dodge 2d6 + 1 - 2
    events = hit(battle, (1, 1, 1, 1, 3, 3, 1, 6, 6), adjustment=-6)
    assert of(events, CheckRolled)[1].roll.bonus == 1 - 2 - 2  # and -2 for a second defense
