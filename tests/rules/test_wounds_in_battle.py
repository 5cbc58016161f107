"""What wounds do in a battle, through its commands (issue 11 points 2, 3 and 6):
shock on the victim's next turn, the major wound's knockdown roll and the stun,
the consciousness roll at 0 HP or less each turn, crippled limbs and spinal
paralysis (rules.sets.seed000.wounded, rules.sets.seed000.turn)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hexmap import Facing
from rules.battle.battle import Battle
from rules.battle.command_events import PostureChanged
from rules.battle.commands import Attack, EndTurn, MoveCombatant, SetPosture
from rules.battle.model import Posture, Status
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.dice import ScriptedDice
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import (
    AttackRolled,
    DefenseRolled,
    InjuryRolled,
    StatusChanged,
    StunRecoveryRolled,
    WoundInflicted,
)
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.stances import PainThreshold, weapon_side
from rules.sets.seed000.tracks import tracks_of, with_wounds, wound_conditions
from rules.sets.seed000.turn import StandingRolled
from rules.sets.seed000.wound_effects import Condition, Limb, RollKind, Wound
from rules.sets.seed000.wounded import KnockdownRolled, ShockFelt, ShockTaken
from tests.rules.battle_level import HOME, MISS, RAPIER, SOUTH, Make, duel, of, started

# The swordsman's broadsword swing, 1d+3 cut, on the fencer (DR 2, 11 HP, HT 11):
# a 1 does 4 - 2 = 2 x1.5 = 3 injury; a 6 does 9 - 2 = 7 x1.5 = 10, a major wound.
SWING = AttackOptions("broadsword", "swing")
SURE = Modifier(10, "the GM's sure hit", cite("000", "ADVERSE COMBAT CONDITIONS"))
HIT = (2, 2, 3)  # 7: a hit at the swordsman's skill, never a critical
LOW_MISS = (4, 4, 4)  # 12: a miss at a low skill (below 12), by less than 10
STAYS_UP = (1, 1, 1)  # 3: every HT or DX roll succeeds
FAILS = (6, 6, 5)  # 17: every HT or DX roll of these fighters fails (critically)
FAILS_BY_2 = (6, 5, 4)  # 15 against 13: a plain failure


def aimed(location: str) -> AttackOptions:
    """The swing aimed at ``location``, with the GM's +10 so that it lands there."""
    return AttackOptions("broadsword", "swing", location=location, extra_modifiers=(SURE,))


def swordsman_s_turn(state: BattleState, dice: tuple[int, ...] = ()) -> Battle:
    """The order rolled and the fencer's turn passed (with ``dice`` for the end of
    its turn): the swordsman's turn."""
    battle = started(state)
    battle.execute(EndTurn(), ScriptedDice(dice))
    assert battle.state.active_id == "s"
    return battle


def labels(battle: Battle, combatant_id: str) -> tuple[str, ...]:
    return get_ruleset().conditions.labels(battle.state.combatant(combatant_id))


def with_wound(state: BattleState, combatant_id: str, wound: Wound) -> BattleState:
    return state.with_combatants(with_wounds(state.combatant(combatant_id), (wound,)))


# --- shock (base rules; 000 HIGH AND LOW PAIN THRESHOLD) -------------------------------------


@pytest.mark.parametrize(
    ("pain", "shock"),
    [(PainThreshold.NORMAL, -3), (PainThreshold.HIGH, -1), (PainThreshold.LOW, -6)],
)
def test_shock_from_a_wound_is_on_the_victim_s_next_turn_only(
    make: Make, pain: PainThreshold, shock: int
) -> None:
    battle = swordsman_s_turn(duel(make, pain_threshold=pain))
    events = battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 1)))  # 3 injury
    taken = of(events, ShockTaken)
    assert [(t.combatant_id, t.penalty) for t in taken] == [("f", shock)]
    assert labels(battle, "f") == (f"shock {shock} next turn",)
    # The fencer's next turn: told, and its attack carries the penalty.
    events = battle.execute(EndTurn(), ScriptedDice(()))
    assert [e.penalty for e in of(events, ShockFelt)] == [shock]
    assert labels(battle, "f") == (f"shock {shock}",)
    rolled = of(battle.execute(Attack("f", "s", RAPIER), ScriptedDice(LOW_MISS)), AttackRolled)[0]
    assert [(m.value, m.reason) for m in rolled.modifiers if "shock" in m.reason] == [
        (shock, "shock from injury")
    ]
    # Its turn over, so is the shock.
    battle.execute(EndTurn(), ScriptedDice(()))
    assert labels(battle, "f") == () and tracks_of(battle.state.combatant("f")).shock == 0


def test_shock_of_two_wounds_adds_up_to_minus_4(make: Make) -> None:
    state = duel(make)
    battle = Battle(state, 3, get_ruleset)  # no order: the GM plays both blows
    battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 1)))  # -3
    events = battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 1)))  # -3 more
    assert [(t.penalty, t.total) for t in of(events, ShockTaken)] == [(-3, -4)]
    # Without the order the round's end begins everybody's next turn.
    events = battle.execute(EndTurn(), ScriptedDice(()))
    assert [(e.combatant_id, e.penalty) for e in of(events, ShockFelt)] == [("f", -4)]
    battle.execute(EndTurn(), ScriptedDice(()))
    assert tracks_of(battle.state.combatant("f")).shock == 0


@pytest.mark.parametrize(
    ("location", "factor", "note"),
    [
        ("nose", 2, 7),
        ("vitals", 2, 16),
        ("abdomen", 2, 18),
        ("groin", 3, 20),
        ("near_shin", 2, 24),
        ("instep", 2, 25),
    ],
)
def test_the_table_s_stun_multipliers_reach_the_victim_s_next_turn(
    make: Make, location: str, factor: int, note: int
) -> None:
    """The blow's own shock (at most -4) times the location's stun factor: the
    penalty kept for the fencer's next turn is the wound's, whatever its rolls."""
    battle = swordsman_s_turn(duel(make))
    bonus = aimed(location)
    # A 6 on the damage (the abdomen's cavity needs it), then every roll succeeds.
    events = battle.execute(Attack("s", "f", bonus), ScriptedDice((*HIT, 6, *STAYS_UP * 12)))
    wound = of(events, WoundInflicted)[0]
    assert wound.assessment.shock_factor == factor
    assert str(wound.assessment.shock_citation) == f"000 RANDOM BODY HIT note {note}"
    # A 9 cut through DR 2 injures far beyond the shock's cap: -4, times the factor.
    assert wound.assessment.hp_loss >= 4
    expected = -4 * factor
    assert wound.assessment.shock_penalty == expected
    assert tracks_of(battle.state.combatant("f")).shock_next == expected


# --- the major wound: knockdown and stun ---------------------------------------------------


def test_a_major_wound_s_failed_knockdown_roll_stuns_and_drops_at_once(make: Make) -> None:
    battle = swordsman_s_turn(duel(make))
    events = battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 6, *FAILS)))
    rolled = of(events, KnockdownRolled)[0]
    assert rolled.outcome.roll.target == 11 and rolled.outcome.failed  # HT 11
    assert str(rolled.citation) == "Basic Set: major wound: an HT roll or stunned and knocked down"
    f = battle.state.combatant("f")
    assert (f.hp, f.status, f.posture) == (1, Status.STUNNED, Posture.PRONE)
    assert of(events, StatusChanged)[0].after is Status.STUNNED
    assert of(events, PostureChanged)[0].fell
    assert "stunned" in labels(battle, "f")
    # Stunned: -4 to its active defenses.
    dodge = AttackOptions("broadsword", "swing", defenses=(DefenseChoice(DefenseKind.DODGE),))
    # the dodge (3) fails; 1 damage: 3 injury, -2 HP: the HT roll to stay conscious
    again = (*HIT, *LOW_MISS, 1, *STAYS_UP)
    dodged = attack_command("s", "f", dodge, gm_override=True)
    defended = battle.execute(dodged, ScriptedDice(again))
    roll = of(defended, DefenseRolled)[0]
    assert (-4, "stunned") in [(m.value, m.reason) for m in roll.modifiers]
    # It rolls to recover at the end of its own turn.
    battle.execute(EndTurn(), ScriptedDice(STAYS_UP))  # its turn: at -2 HP, HT to stay awake
    events = battle.execute(EndTurn(), ScriptedDice(STAYS_UP))
    assert of(events, StunRecoveryRolled)[0].roll.succeeded
    assert battle.state.combatant("f").status is Status.ACTIVE


@pytest.mark.parametrize(("pain", "target"), [(PainThreshold.HIGH, 14), (PainThreshold.LOW, 7)])
def test_the_pain_threshold_changes_the_knockdown_roll(
    make: Make, pain: PainThreshold, target: int
) -> None:
    battle = swordsman_s_turn(duel(make, pain_threshold=pain))
    events = battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 6, *STAYS_UP)))
    rolled = of(events, KnockdownRolled)[0]
    assert rolled.outcome.roll.target == target and not rolled.outcome.failed
    f = battle.state.combatant("f")
    assert (f.status, f.posture) == (Status.ACTIVE, Posture.STANDING)


def test_a_lesser_wound_calls_for_no_knockdown_roll(make: Make) -> None:
    battle = swordsman_s_turn(duel(make))
    # 5: 8 - 2 = 6 x1.5 = 9 injury > 5.5; 2: 5 - 2 = 3 x1.5 = 4, no major wound.
    events = battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 2)))
    assert not of(events, KnockdownRolled) and battle.state.combatant("f").hp == 7


def test_a_located_major_wound_rolls_last_and_the_crippled_leg_drops_the_fighter(
    make: Make,
) -> None:
    """7 injury at the thigh cripples the leg (6 HP lost, the excess lost) and is a
    major wound: the knockdown roll comes after the wound's own rolls; a crippled
    leg drops the fighter even when that roll succeeds."""
    battle = swordsman_s_turn(duel(make))
    thigh = aimed("near_thigh")
    events = battle.execute(Attack("s", "f", thigh), ScriptedDice((*HIT, 6, *STAYS_UP)))
    wound = of(events, WoundInflicted)[0]
    assert wound.wound.crippled is Limb.LEG
    assert [o.roll.kind for o in wound.outcomes] == [RollKind.KNOCKDOWN]
    assert not wound.outcomes[0].failed
    fell = of(events, PostureChanged)[0]
    assert fell.fell and str(fell.citation) == "Basic Set: crippled leg or foot: the fighter falls"
    f = battle.state.combatant("f")
    assert (f.status, f.posture, f.hp) == (Status.ACTIVE, Posture.PRONE, 5)
    assert "crippled leg" in labels(battle, "f")


def test_a_located_failed_knockdown_falls_at_once_and_shows_until_the_next_turn(
    make: Make,
) -> None:
    battle = swordsman_s_turn(duel(make))
    # 7 injury at the shoulder cripples the arm (the DX roll keeps hold): no fall
    # but the knockdown's.
    shoulder = aimed("shoulder")
    events = battle.execute(Attack("s", "f", shoulder), ScriptedDice((*HIT, 6, *STAYS_UP, *FAILS)))
    assert {Condition.STUNNED, Condition.KNOCKED_DOWN} <= of(events, WoundInflicted)[
        0
    ].wound.conditions
    f = battle.state.combatant("f")
    assert (f.status, f.posture) == (Status.STUNNED, Posture.PRONE)
    assert "knocked down" in labels(battle, "f")
    events = battle.execute(EndTurn(), ScriptedDice(()))  # its turn: no second fall
    assert not of(events, PostureChanged)
    assert Condition.KNOCKED_DOWN not in wound_conditions(battle.state.combatant("f"))


# --- 0 HP or less: a roll each turn (base rules) ------------------------------------------


def test_without_the_order_the_round_s_end_rolls_to_stay_conscious(make: Make) -> None:
    state = duel(make)
    state = state.with_combatants(replace(state.combatant("f"), hp=-1))
    battle = Battle(state, 3, get_ruleset)
    events = battle.execute(EndTurn(), ScriptedDice(STAYS_UP))
    assert [e.combatant_id for e in of(events, InjuryRolled)] == ["f"]
    assert battle.state.combatant("f").status is Status.ACTIVE
    events = battle.execute(EndTurn(), ScriptedDice(FAILS))  # and again the next round
    assert of(events, InjuryRolled)[0].status_roll.roll.total == 17
    assert battle.state.combatant("f").status is Status.UNCONSCIOUS
    assert not of(battle.execute(EndTurn(), ScriptedDice(())), InjuryRolled)  # out: no roll


# --- crippled limbs -----------------------------------------------------------------------------

CRIPPLED_ARM = Wound(
    "000", "near_arm", "Weapon arm", None, 7, Limb.ARM, frozenset({Condition.CRIPPLED})
)
CRIPPLED_HAND = Wound(
    "000", "near_hand", "Weapon hand", None, 4, Limb.HAND, frozenset({Condition.CRIPPLED})
)
CRIPPLED_LEG = Wound(
    "000", "near_thigh", "Near leg thigh", None, 6, Limb.LEG, frozenset({Condition.CRIPPLED})
)


def test_a_crippled_weapon_arm_cannot_wield_its_weapon(make: Make) -> None:
    battle = swordsman_s_turn(with_wound(duel(make), "s", CRIPPLED_ARM))
    with pytest.raises(RulesError, match="crippled: it cannot wield"):
        battle.execute(Attack("s", "f", SWING), ScriptedDice(MISS))
    assert not [
        a
        for a in get_ruleset().turns.legal_actions(battle.state, "s")
        if isinstance(a.command, Attack)
    ]
    parry = AttackOptions(
        "rapier", "thrust", defenses=(DefenseChoice(DefenseKind.PARRY, "broadsword"),)
    )
    with pytest.raises(RulesError, match="arm holding the Broadsword is crippled: no parry"):
        battle.execute(attack_command("f", "s", parry, gm_override=True), ScriptedDice(MISS))


def test_a_crippled_shield_arm_cannot_block_but_its_weapon_arm_still_fights(make: Make) -> None:
    shield_side = weapon_side(make("sword-and-shield", SOUTH, Facing.N).handedness).other
    shield_arm = Wound(
        "000", "far_arm", "Shield arm", shield_side, 7, Limb.ARM, frozenset({Condition.CRIPPLED})
    )
    battle = swordsman_s_turn(with_wound(duel(make), "s", shield_arm))
    block = AttackOptions("rapier", "thrust", defenses=(DefenseChoice(DefenseKind.BLOCK),))
    with pytest.raises(RulesError, match="shield arm is crippled: no block"):
        battle.execute(attack_command("f", "s", block, gm_override=True), ScriptedDice(MISS))
    battle.execute(Attack("s", "f", SWING), ScriptedDice(MISS))  # the sword arm is whole
    parry = AttackOptions(
        "rapier", "thrust", defenses=(DefenseChoice(DefenseKind.PARRY, "broadsword"),)
    )
    battle.execute(attack_command("f", "s", parry, gm_override=True), ScriptedDice(MISS))


def test_a_crippled_arm_that_keeps_hold_after_the_blow_cannot_wield(make: Make) -> None:
    """A blow at the weapon arm: 7 injury cripples it (over HP/2); the DX roll of
    note 12 keeps hold of the rapier, which then neither attacks nor parries; the
    main-gauche, in the other hand, still does."""
    battle = swordsman_s_turn(duel(make))
    arm = aimed("near_arm")
    events = battle.execute(Attack("s", "f", arm), ScriptedDice((*HIT, 6, *STAYS_UP, *STAYS_UP)))
    wound = of(events, WoundInflicted)[0]
    assert wound.wound.crippled is Limb.ARM
    assert [o.roll.kind for o in wound.outcomes] == [RollKind.KEEP_HOLD, RollKind.KNOCKDOWN]
    battle.execute(EndTurn(), ScriptedDice(()))  # the fencer's turn
    assert "rapier" in {w.key for w in battle.state.combatant("f").fighter.weapons}
    with pytest.raises(RulesError, match="Rapier is crippled: it cannot wield it"):
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    main_gauche = AttackOptions("main-gauche", "thrust")
    battle.execute(Attack("f", "s", main_gauche), ScriptedDice(LOW_MISS))


def test_note_12_a_crippled_hand_that_kept_hold_attacks_at_minus_6_and_cannot_parry(
    make: Make,
) -> None:
    battle = swordsman_s_turn(with_wound(duel(make), "s", CRIPPLED_HAND))
    rolled = of(battle.execute(Attack("s", "f", SWING), ScriptedDice(MISS)), AttackRolled)[0]
    hand = [m for m in rolled.modifiers if m.value == -6]
    assert [str(m.citation) for m in hand] == ["000 RANDOM BODY HIT note 12"]
    parry = AttackOptions(
        "rapier", "thrust", defenses=(DefenseChoice(DefenseKind.PARRY, "broadsword"),)
    )
    with pytest.raises(RulesError, match="hand holding the Broadsword is crippled: no parry"):
        battle.execute(attack_command("f", "s", parry, gm_override=True), ScriptedDice(MISS))


@pytest.mark.parametrize(("acts", "dx"), [("nothing", 14), ("attacks", 12), ("moves", 12)])
def test_note_22_the_roll_to_stay_up_is_at_dx_minus_2_after_attacking_or_moving(
    make: Make, acts: str, dx: int
) -> None:
    battle = started(with_wound(duel(make), "f", CRIPPLED_LEG))  # the fencer's turn, DX 14
    if acts == "attacks":
        battle.execute(Attack("f", "s", RAPIER), ScriptedDice(MISS))
    elif acts == "moves":
        battle.execute(MoveCombatant("f", HOME + Facing.N.vector))
    events = battle.execute(EndTurn(), ScriptedDice(STAYS_UP))
    stood = of(events, StandingRolled)[0]
    assert (stood.combatant_id, stood.dx, stood.acting) == ("f", dx, acts != "nothing")
    assert battle.state.combatant("f").posture is Posture.STANDING


def test_note_22_the_roll_to_stay_up_takes_this_turn_s_shock(make: Make) -> None:
    battle = swordsman_s_turn(with_wound(duel(make), "f", CRIPPLED_LEG), STAYS_UP)
    battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 1)))  # shock -3
    battle.execute(EndTurn(), ScriptedDice(()))  # the fencer's turn, in shock
    events = battle.execute(EndTurn(), ScriptedDice(FAILS_BY_2))
    stood = of(events, StandingRolled)[0]
    assert (stood.dx, stood.shock) == (14 - 3, -3) and not stood.roll.succeeded
    assert battle.state.combatant("f").posture is Posture.PRONE


# --- spinal paralysis (000 RANDOM BODY HIT note 17) -------------------------------------


def test_a_paralysing_blow_from_behind_drops_the_fighter_and_takes_its_move(make: Make) -> None:
    """The fencer turned away: the swordsman's blow at the abdomen comes from the
    rear; 4 past the armor reach the spine (2 past the vertebrae's DR 2)."""
    state = duel(make)
    state = state.with_combatants(replace(state.combatant("f"), facing=Facing.N))
    battle = swordsman_s_turn(state)
    abdomen = aimed("abdomen")
    # 3: 6 - 2 = 4 x1.5 = 6 injury: the cavity's rolls pass, the spine's fails by 2.
    events = battle.execute(
        Attack("s", "f", abdomen), ScriptedDice((*HIT, 3, *STAYS_UP, *STAYS_UP, 6, 5, 5, *STAYS_UP))
    )
    wound = of(events, WoundInflicted)[0]
    paralysis = [o for o in wound.outcomes if o.roll.kind is RollKind.PARALYSIS]
    assert paralysis and paralysis[0].failed and Condition.PARALYZED in wound.wound.conditions
    f = battle.state.combatant("f")
    assert (f.posture, f.fighter.move) == (Posture.PRONE, 0)
    battle.execute(EndTurn(), ScriptedDice(()))  # the fencer's turn
    with pytest.raises(RulesError):
        battle.execute(MoveCombatant("f", HOME + Facing.N.vector))
    # Nor can he get up: no maneuver of his permits a posture change.
    offered = [m.key for m in get_ruleset().turns.maneuvers(battle.state, "f")]
    assert "change-posture" not in offered and "attack" in offered
    with pytest.raises(RulesError, match="no maneuver now that lets it change posture"):
        battle.execute(SetPosture("f", Posture.STANDING))
    assert battle.state.combatant("f").posture is Posture.PRONE


def test_paralysed_from_the_neck_down_neither_attacks_nor_defends_and_only_does_nothing(
    make: Make,
) -> None:
    neck = Wound("000", "neck", "Neck", None, 5, None, frozenset({Condition.PARALYZED}))
    battle = started(with_wound(duel(make), "f", neck))
    assert [m.key for m in get_ruleset().turns.maneuvers(battle.state, "f")] == ["do-nothing"]
    with pytest.raises(RulesError, match="paralysed from the neck down and cannot attack"):
        battle.execute(Attack("f", "s", RAPIER, gm_override=True), ScriptedDice(MISS))
    dodge = AttackOptions("broadsword", "swing", defenses=(DefenseChoice(DefenseKind.DODGE),))
    with pytest.raises(RulesError, match="no active defense"):
        battle.execute(attack_command("s", "f", dodge, gm_override=True), ScriptedDice(MISS))
    battle.execute(Attack("s", "f", SWING, gm_override=True), ScriptedDice(MISS))
