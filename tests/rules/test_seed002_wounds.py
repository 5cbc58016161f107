"""Seed 002's major wounds, each d10 row through ``Battle`` commands: a critical
longsword blow (03: maximum 8, armour ignored) on an unarmoured defender with
12 HP (Major Wound Level 6) who fails its dodge (99), then the d10."""

from __future__ import annotations

import pytest

from rules.battle.commands import Attack, EditCombatant, EndTurn
from rules.battle.model import Posture, Status
from rules.battle.turns import StartTurns
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalAttackError
from rules.sets.seed002.attack import Attack002, DefenseKind, Seed002Answer
from rules.sets.seed002.events import MajorWoundRolled, StatusChanged, TurnEffect
from rules.sets.seed002.sheet import sheet_of
from rules.sets.seed002.tables import Level, major_wounds
from rules.sets.seed002.tracks import tracks_of
from rules.sets.seed002.wounds import major_wound_level
from tests.rules.seed002_duel import RULESET, attack, battle, duel, fighter, of, rolls, sword

CRITICAL_HIT = (3, 99)


def wounded(face: int, *more: int, hp: int = 12):  # type: ignore[no-untyped-def]
    defender = fighter("Defender", ("longsword", "dagger"), armour=None, hp=hp)
    b = battle(duel(None, defender))
    dice = ScriptedDice((*CRITICAL_HIT, face, *more))
    events = b.execute(Attack("a", "d", sword()), dice)
    assert dice.unused == 0
    return b, events, b.state.combatant("d")


def chars(c):  # type: ignore[no-untyped-def]
    return sheet_of(c).characteristics


def end_turn(b) -> tuple:  # type: ignore[no-untyped-def]
    return b.execute(EndTurn(), ScriptedDice(()))


def test_a_blow_of_the_major_wound_level_or_more_triggers_one() -> None:
    assert (major_wound_level(12), major_wound_level(13), major_wound_level(16)) == (6, 7, 8)
    _, events, _ = wounded(5, hp=16)  # 8 damage, level 8: a wound
    assert of(events, MajorWoundRolled)[0].face == 5
    b = battle(duel(None, fighter("Tough", armour=None, hp=20)))  # 8 < level 10
    events = b.execute(Attack("a", "d", sword()), ScriptedDice(CRITICAL_HIT))
    assert not of(events, MajorWoundRolled)


def test_a_killing_blow_rolls_no_major_wound() -> None:
    b = battle(duel(None, fighter("Frail", armour=None, hp=8)))
    events = b.execute(Attack("a", "d", sword()), ScriptedDice(CRITICAL_HIT))
    assert b.state.combatant("d").status is Status.DEAD
    assert of(events, StatusChanged)[0].text == "dies"
    assert not of(events, MajorWoundRolled)


def test_major_wound_1_lose_an_eye() -> None:
    _, events, d = wounded(1)
    assert (chars(d).dexterity, chars(d).charisma) == (7, 10)
    assert tracks_of(d).perception_penalty == -50
    assert "lost an eye" in RULESET.conditions.labels(d)
    assert of(events, MajorWoundRolled)[0].citation.heading == "Major wound 1"


def test_major_wound_2_cracked_skull() -> None:
    _, _, d = wounded(2)
    assert chars(d).intelligence == 7
    assert tracks_of(d).mental_penalty == -25
    assert "cracked skull" in RULESET.conditions.labels(d)


@pytest.mark.parametrize(("face", "side"), [(3, "right"), (4, "left")])
def test_major_wound_3_and_4_useless_leg_drops_the_fighter(face: int, side: str) -> None:
    b, _, d = wounded(face)
    assert d.posture is Posture.PRONE
    assert tracks_of(d).useless_legs == {side}
    assert (chars(d).dexterity, chars(d).strength) == (9, 9)
    assert d.fighter.move == 2  # crawls 2 hexes a round
    assert "change-posture" not in [m.key for m in RULESET.turns.maneuvers(b.state, "d")]
    assert f"useless {side} leg" in RULESET.conditions.labels(d)


def test_major_wound_5_broken_ribs_minus_50_to_every_skill() -> None:
    b, _, d = wounded(5)
    assert tracks_of(d).skill_penalty == -50
    events = attack(b, sword(), (99,), attacker="d", defender="a")  # the defender strikes back
    assert rolls(events)[0].roll.skill == 50 - 50
    dodge = attack(b, sword(), (4, 99, 1))  # its dodge too
    assert rolls(dodge)[1].roll.skill == 40 - 50


def test_major_wound_6_slashed_stomach_bleeds_at_the_end_of_each_turn() -> None:
    b, _, d = wounded(6)
    assert chars(d).constitution == 8
    assert d.hp == 4
    events = end_turn(b)
    assert b.state.combatant("d").hp == 3
    assert of(events, TurnEffect)[0].citation.heading == "Major wound 6"
    for _ in range(3):
        events = end_turn(b)
    assert b.state.combatant("d").status is Status.DEAD
    assert of(events, StatusChanged)[0].text == "dies of blood loss"


def test_major_wound_7_heart_stops_unconscious_for_1d10_rounds() -> None:
    b, _, d = wounded(7, 3)  # the d10 of the rounds: 3
    assert (d.status, d.posture, chars(d).constitution) == (Status.UNCONSCIOUS, Posture.PRONE, 9)
    assert tracks_of(d).unconscious_rounds == 3
    for left in (2, 1, 0):
        end_turn(b)
        assert b.state.combatant("d").status is Status.UNCONSCIOUS
        assert tracks_of(b.state.combatant("d")).unconscious_rounds == left
    events = end_turn(b)
    now = b.state.combatant("d")
    assert (now.status, now.posture) == (Status.ACTIVE, Posture.PRONE)
    assert of(events, StatusChanged)[0].text == "comes to (still prone)"


def test_major_wound_8_spine_odd_die_paralysed_below_the_neck() -> None:
    b, events, d = wounded(8, 3)
    assert of(events, MajorWoundRolled)[0].spine_face == 3
    assert tracks_of(d).paralysis == "neck"
    assert (chars(d).dexterity, d.posture, d.fighter.move) == (5, Posture.PRONE, 0)
    assert [m.key for m in RULESET.turns.maneuvers(b.state, "d")] == ["do-nothing"]
    with pytest.raises(IllegalAttackError):
        attack(b, sword(), (4,), attacker="d", defender="a")
    events = attack(b, sword(), (4, 1))  # it cannot defend
    assert len(rolls(events)) == 1


def test_major_wound_8_spine_even_die_paralysed_below_the_torso() -> None:
    b, _, d = wounded(8, 4)
    assert tracks_of(d).paralysis == "torso"
    assert (chars(d).dexterity, d.posture, d.fighter.move) == (5, Posture.PRONE, 0)
    events = attack(b, sword(), (99,), attacker="d", defender="a")  # its arms still fight
    assert rolls(events)[0].roll.skill == 50 - 25  # from the ground


@pytest.mark.parametrize(
    ("face", "side", "dropped"), [(9, "left", "Dagger"), (10, "right", "Longsword")]
)
def test_major_wound_9_and_10_useless_arm_drops_what_it_holds(
    face: int, side: str, dropped: str
) -> None:
    b, _, d = wounded(face)
    assert tracks_of(d).useless_arms == {side}
    assert [(i.name, i.hex) for i in b.state.items] == [(dropped, d.hex)]
    assert dropped not in [w.name for w in d.fighter.weapons]
    assert f"useless {side} arm" in RULESET.conditions.labels(d)


def test_a_useless_arm_cannot_wield_a_two_handed_weapon() -> None:
    staff = fighter("Staff", ("quarterstaff", "fist"), armour=None, hp=12)
    b = battle(duel(None, staff))
    b.execute(Attack("a", "d", sword()), ScriptedDice((*CRITICAL_HIT, 10)))
    assert [i.name for i in b.state.items] == ["Quarterstaff"]
    fists = RULESET.attacks.attack_form(b.state, "d", "a", {})
    assert fists.choices == Attack002("fist", "punch")
    assert fists.answer == Seed002Answer(DefenseKind.PARRY, "longsword")


def test_the_table_has_a_row_for_each_face() -> None:
    assert [r.roll for r in major_wounds()] == list(range(1, 11))


def test_an_unconscious_or_paralysed_defender_is_helpless() -> None:
    b, _, _ = wounded(7, 5)  # heart stopped: unconscious
    events = attack(b, sword(), ())
    roll = rolls(events)[0].roll
    assert (roll.face, roll.level) == (None, Level.CRITICAL)  # an automatic critical
    paralysed, _, _ = wounded(8, 1)
    events = attack(paralysed, sword(), ())
    assert rolls(events)[0].roll.level is Level.CRITICAL


def test_bleeding_and_unconsciousness_with_the_turns_running() -> None:
    quick = fighter("Quick", dexterity=15)
    defender = fighter("Defender", ("longsword", "dagger"), armour=None, hp=12)
    b = battle(duel(quick, defender))
    b.execute(StartTurns(), ScriptedDice(()))
    assert b.state.initiative == ("a", "d")
    b.execute(Attack("a", "d", sword()), ScriptedDice((*CRITICAL_HIT, 7, 2)))
    assert tracks_of(b.state.combatant("d")).unconscious_rounds == 2
    events = end_turn(b)  # the defender's turn passes (1 left), the attacker's begins
    assert b.state.active_id == "a" and b.state.round == 2
    assert [e.text for e in of(events, TurnEffect)] == ["unconscious, 1 more round to go"]
    end_turn(b)  # round 2: passes again (0 left)
    assert b.state.active_id == "a" and b.state.combatant("d").status is Status.UNCONSCIOUS
    end_turn(b)  # round 3: it comes to and takes its turn
    assert b.state.active_id == "d" and b.state.combatant("d").status is Status.ACTIVE
    bleeder = battle(duel(quick, defender))
    bleeder.execute(StartTurns(), ScriptedDice(()))
    bleeder.execute(Attack("a", "d", sword()), ScriptedDice((*CRITICAL_HIT, 6)))
    end_turn(bleeder)  # the attacker's turn ends, the defender's begins
    assert bleeder.state.combatant("d").hp == 4
    end_turn(bleeder)  # the defender's own turn ends: it bleeds
    assert bleeder.state.combatant("d").hp == 3


def test_the_sheet_lists_the_major_wounds_and_their_conditions() -> None:
    _, _, d = wounded(10)
    sections = {s.title: {r.label: r.value for r in s.rows} for s in RULESET.sheets.sections(d)}
    assert sections["Major wounds"] == {
        "d10 10": "useless right arm",
        "Conditions": "useless right arm",
    }


def test_a_second_useless_arm_drops_what_the_other_hand_took_over() -> None:
    """After a useless right arm the left hand holds the dagger; when the GM has
    healed the fighter (EditCombatant) and the left arm goes too, the dagger
    drops: a useless arm's hand holds nothing."""
    b, _, _ = wounded(10)  # the right arm: the longsword drops
    assert [w.key for w in b.state.combatant("d").fighter.weapons] == ["dagger"]
    b.execute(EditCombatant("d", hp=12), ScriptedDice(()))
    events = b.execute(Attack("a", "d", sword()), ScriptedDice((*CRITICAL_HIT, 9)))
    wound = of(events, MajorWoundRolled)[0]
    assert "drops the Dagger" in wound.effects
    d = b.state.combatant("d")
    assert tracks_of(d).useless_arms == {"left", "right"}
    assert sorted(i.name for i in b.state.items) == ["Dagger", "Longsword"]
    assert d.fighter.weapons == ()
