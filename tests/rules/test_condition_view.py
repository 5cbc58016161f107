"""The typed view of a fighter's condition (issue 24; rules.battle.condition):
how hurt it is, its useless limbs and the penalties in force, as every ruleset
gives them after commands played on a ``Battle``. Each number is checked against
the seed's (or the base rules') and against the modifier the ruleset's own attack
then applies; the property tests hold hurt to [0, 1], 0 when fresh, 1 exactly
when down, and never falling while blows land."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

import pytest

from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.commands import Attack, EditCombatant, EndTurn
from rules.battle.condition import (
    ABLE,
    NEARLY_OUT,
    Down,
    FighterCondition,
    LimbKind,
    LimbState,
    Penalty,
    Rolls,
    UselessLimb,
    down_as,
)
from rules.battle.model import Posture, Status
from rules.core.citation import Citation, cite
from rules.core.dice import ScriptedDice
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import AttackRolled, DefenseRolled
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.tracks import tracks_of
from rules.sets.seed000.wound_effects import Condition, Wound
from rules.sets.seed002.attack import Attack002
from rules.sets.seed002.attack import plan_attack as plan_002
from rules.sets.seed003.combat import Choices003
from rules.sets.seed003.combat import plan_attack as plan_003
from rules.sets.seed004.attack import Defense, Seed004Attack
from rules.sets.seed004.attack import plan_attack as plan_004
from tests.rules import seed002_duel as d002
from tests.rules import seed003_battle as d003
from tests.rules import seed004_battle as d004
from tests.rules.battle_level import RAPIER, Make, duel, of
from tests.rules.test_off_balance import off_balance_after_a_fumbled_dodge
from tests.rules.test_seed000_fudge_locations import _hurt_a
from tests.rules.test_wounds_in_battle import (
    CRIPPLED_HAND,
    FAILS,
    HIT,
    LOW_MISS,
    MISS,
    STAYS_UP,
    SWING,
    aimed,
    swordsman_s_turn,
    with_wound,
)

RULESET_000 = get_ruleset("000")
BASE_SHOCK = "Basic Set: shock: -1 per point of injury, at most -4, next turn only"


def condition(battle: Battle, combatant_id: str) -> FighterCondition:
    return get_ruleset(
        battle.state.ruleset_key, battle.state.ruleset_options
    ).conditions.fighter_condition(battle.state.combatant(combatant_id))


# --- the view itself ------------------------------------------------------------------------


def test_a_condition_down_is_hurt_1_and_one_in_the_fight_below_1() -> None:
    why = cite("000", "X")
    assert down_as(Down.DEAD, why).hurt == 1
    assert FighterCondition(False, Down.UNCONSCIOUS, why, hurt=Fraction(1, 3)).hurt == 1
    assert ABLE.hurt == 0 and not ABLE.useless_limbs and not ABLE.penalties
    with pytest.raises(RulesError):
        FighterCondition(True, hurt=Fraction(1))
    with pytest.raises(RulesError):
        FighterCondition(True, hurt=Fraction(-1, 2))
    with pytest.raises(RulesError):  # a penalty is below 0
        Penalty(Modifier(0, "nothing", why), Rolls.ATTACKS)


def test_penalties_add_up_by_the_rolls_and_the_weapon_they_apply_to() -> None:
    why = cite("000", "X")
    shock = Penalty(Modifier(-2, "shock", why), Rolls.ATTACKS)
    hand = Penalty(Modifier(-6, "crippled hand", why), Rolls.ATTACKS, "sword")
    prone = Penalty(Modifier(-25, "prone", why), Rolls.MELEE_ATTACKS | Rolls.DEFENSES)
    view = FighterCondition(True, hurt=Fraction(1, 4), penalties=(shock, hand, prone))
    assert view.penalty_to(Rolls.MELEE_ATTACKS) == -27
    assert view.penalty_to(Rolls.MELEE_ATTACKS, "sword") == -33
    assert view.penalty_to(Rolls.RANGED_ATTACKS) == -2
    assert view.penalty_to(Rolls.RANGED_DEFENSES) == -25
    assert prone.describe() == "-25 to close combat attacks and active defenses (prone)"
    assert hand.describe("Sword") == "-6 to attacks with the Sword (crippled hand)"
    assert Rolls.ALL.label == "attacks and active defenses"
    assert Rolls.MELEE_DEFENSES.label == "defenses against blows"


# --- seed 000 ---------------------------------------------------------------------------------


def test_seed000_hurt_is_half_at_0_hp_and_a_tenth_more_a_multiple_below(make: Make) -> None:
    """Base rules on injury: HT rolls to stay conscious from 0 HP, a death roll at
    each -1x to -4x HP, dead at -5x HP (the fencer has 11 HP)."""
    battle = Battle(duel(make), 3, get_ruleset)
    for hp, hurt in [(11, 0), (8, Fraction(3, 22)), (0, Fraction(1, 2)), (-11, Fraction(6, 10))]:
        battle.execute(EditCombatant("f", hp=hp), ScriptedDice(()))
        assert condition(battle, "f").hurt == hurt
    # Kept up by the GM past -5x HP, it stays short of out.
    battle.execute(EditCombatant("f", hp=-60), ScriptedDice(()))
    assert condition(battle, "f").hurt == NEARLY_OUT
    battle.execute(EditCombatant("f", hp=-11, status=Status.DEAD), ScriptedDice(()))
    assert condition(battle, "f").hurt == 1 and condition(battle, "f").down is Down.DEAD


def test_seed000_shock_is_a_penalty_to_attacks_on_the_victim_s_next_turn(make: Make) -> None:
    """Base rules' shock (-1 per HP lost, next turn only): 3 injury is -3."""
    battle = swordsman_s_turn(duel(make))
    battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 1)))  # 3 injury
    view = condition(battle, "f")
    assert view.hurt == Fraction(3, 22) and view.penalties == ()  # kept for its next turn
    battle.execute(EndTurn(), ScriptedDice(()))  # the fencer's turn: in shock
    (shock,) = condition(battle, "f").penalties
    assert (shock.amount, shock.applies_to, str(shock.citation)) == (-3, Rolls.ATTACKS, BASE_SHOCK)
    rolled = of(battle.execute(Attack("f", "s", RAPIER), ScriptedDice(LOW_MISS)), AttackRolled)
    assert shock.modifier in rolled[0].modifiers
    battle.execute(EndTurn(), ScriptedDice(()))
    assert condition(battle, "f").penalties == ()


def test_seed000_stunned_and_knocked_down_is_minus_4_to_defend_and_to_strike(
    make: Make,
) -> None:
    """A major wound's failed HT roll: stunned (base rules: -4 to active defenses)
    and prone (base rules' posture table: -4 to melee attacks lying down)."""
    battle = swordsman_s_turn(duel(make))
    battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 6, *FAILS)))  # 10 injury
    view = condition(battle, "f")
    assert view.hurt == Fraction(10, 22)
    assert [(p.amount, p.applies_to, p.reason) for p in view.penalties] == [
        (-4, Rolls.MELEE_ATTACKS, "attacker lying prone"),
        (-4, Rolls.DEFENSES, "stunned"),
    ]
    prone, stunned = view.penalties
    assert prone.modifier in RULESET_000.attacks.situation(battle.state, "f", "s")
    dodge = AttackOptions("broadsword", "swing", defenses=(DefenseChoice(DefenseKind.DODGE),))
    again = (*HIT, *LOW_MISS, 1, *STAYS_UP)
    rolled = of(
        battle.execute(attack_command("s", "f", dodge, gm_override=True), ScriptedDice(again)),
        DefenseRolled,
    )
    assert stunned.modifier in rolled[0].modifiers


def test_seed000_a_crippled_leg_is_a_useless_limb(make: Make) -> None:
    battle = swordsman_s_turn(duel(make))
    battle.execute(Attack("s", "f", aimed("near_thigh")), ScriptedDice((*HIT, 6, *STAYS_UP)))
    (leg,) = condition(battle, "f").useless_limbs
    # The thigh's wound has no side: the weapon side's, the right of a right-handed fencer.
    assert leg == UselessLimb(
        "near_thigh",
        LimbKind.LEG,
        LimbState.CRIPPLED,
        "right leg",
        Citation("base", "crippled leg or foot: the fighter falls"),
    )


def test_seed000_a_spine_wound_below_the_neck_paralyses_both_legs(make: Make) -> None:
    """000 RANDOM BODY HIT note 17: paralysed below the wound; from the neck down
    the fighter is out of the fight, lower down the legs no longer obey."""
    spine = Wound("000", "abdomen", "Abdomen", None, 5, None, frozenset({Condition.PARALYZED}))
    battle = Battle(with_wound(duel(make), "f", spine), 3, get_ruleset)
    view = condition(battle, "f")
    assert view.down is None
    assert [(u.location, u.state, str(u.citation)) for u in view.useless_limbs] == [
        (f"{side}_leg", LimbState.PARALYSED, "000 RANDOM BODY HIT note 17")
        for side in ("left", "right")
    ]


def test_seed000_a_crippled_hand_is_minus_6_with_the_weapon_it_holds(make: Make) -> None:
    """000 RANDOM BODY HIT note 12: a crippled hand that kept hold attacks at -6."""
    battle = swordsman_s_turn(with_wound(duel(make), "s", CRIPPLED_HAND))
    view = condition(battle, "s")
    hand = next(p for p in view.penalties if p.weapon_key == "broadsword")
    assert (hand.amount, str(hand.citation)) == (-6, "000 RANDOM BODY HIT note 12")
    assert view.penalty_to(Rolls.MELEE_ATTACKS, "broadsword") == -6
    assert view.penalty_to(Rolls.MELEE_ATTACKS) == 0  # another weapon, bare hands
    assert [u.label for u in view.useless_limbs] == ["right hand"]
    rolled = of(battle.execute(Attack("s", "f", SWING), ScriptedDice(MISS)), AttackRolled)
    assert hand.modifier in rolled[0].modifiers


def test_seed000_off_balance_doubles_the_stunned_defender_s_minus_4(make: Make) -> None:
    """000 CRITICAL MISSES ON DEFENSE ROLLS (dodge): off-balance, the defender's
    active-defense penalties are doubled; stunned, -4 (base rules) becomes -8."""
    battle = off_balance_after_a_fumbled_dodge(make)
    assert tracks_of(battle.state.combatant("s")).off_balance
    assert condition(battle, "s").penalties == ()  # nothing to double
    battle.execute(EditCombatant("s", status=Status.STUNNED), ScriptedDice(()))
    view = condition(battle, "s")
    assert [(p.amount, p.reason) for p in view.penalties] == [
        (-4, "stunned"),
        (-4, "off-balance: defense penalties doubled"),
    ]
    assert view.penalty_to(Rolls.MELEE_DEFENSES) == -8
    assert str(view.penalties[1].citation) == "000 CRITICAL MISSES ON DEFENSE ROLLS"


def test_seed000_fudge_locations_the_worst_wound_of_the_parts_used(make: Make) -> None:
    """003 5.874 under "locations-fudge": the weapon arm Hurt is -1 FUDGE level (-2)
    to the sword and not to a dodge; a leg Very Hurt, -2 levels (-4), to both."""
    a = make("sword-and-shield", Hex(5, 5), Facing.S, id="a", skills={"Broadsword": 30})
    d = make("sword-and-shield", Hex(5, 6), Facing.N, id="d")
    fighters = (a, replace(d, fighter=replace(d.fighter, armor=None)))
    battle = _hurt_a(fighters, ("right arm", 3))
    view = condition(battle, "a")
    assert view.penalty_to(Rolls.MELEE_ATTACKS, "broadsword") == -2
    assert view.penalty_to(Rolls.MELEE_DEFENSES) == 0
    battle = _hurt_a(fighters, ("right arm", 3), ("left leg", 6))
    view = condition(battle, "a")
    assert view.penalty_to(Rolls.MELEE_ATTACKS, "broadsword") == -4
    assert view.penalty_to(Rolls.MELEE_DEFENSES) == -4
    assert str(view.penalties[0].citation) == "003 5.874 Modifiers Due to Damage"


# --- seed 002 ---------------------------------------------------------------------------------

CRITICAL_HIT = (3, 99)  # a critical longsword cut: 8, armour ignored; the dodge fails


def struck_002(*major: int) -> Battle:
    """The defender (12 HP) takes the critical cut's 8 and rolls ``major``."""
    defender = d002.fighter("Defender", ("longsword", "dagger"), armour=None, hp=12)
    battle = d002.battle(d002.duel(None, defender))
    battle.execute(Attack("a", "d", d002.sword()), ScriptedDice((*CRITICAL_HIT, *major)))
    return battle


def test_seed002_hurt_is_the_hit_points_lost_and_broken_ribs_cost_every_roll() -> None:
    """Base rules: death at 0 HP (8 of 12 lost: 2/3); 002 Major wound 5: -50% to
    every roll, the attack's and the defense's alike."""
    battle = struck_002(5)
    view = condition(battle, "d")
    assert view.hurt == Fraction(2, 3)
    (ribs,) = view.penalties
    assert (ribs.amount, ribs.applies_to, str(ribs.citation)) == (
        -50,
        Rolls.ALL,
        "002 Major wound 5",
    )
    attack = plan_002(battle.state, "d", "a", Attack002("longsword", "cut"))
    defense = plan_002(battle.state, "a", "d", d002.sword())
    assert ribs.modifier in attack.attack_modifiers and ribs.modifier in defense.defense_modifiers


@pytest.mark.parametrize(
    ("major", "limbs"),
    [
        ((3,), [("right-leg", LimbState.USELESS, "002 Major wound 3")]),
        ((9,), [("left-arm", LimbState.USELESS, "002 Major wound 9")]),
        # A broken spine, the second die even: paralysed below the torso.
        (
            (8, 2),
            [(f"{s}-leg", LimbState.PARALYSED, "002 Major wound 8") for s in ("left", "right")],
        ),
    ],
)
def test_seed002_useless_and_paralysed_limbs_by_the_d20_table_s_keys(
    major: tuple[int, ...], limbs: list[tuple[str, LimbState, str]]
) -> None:
    view = condition(struck_002(*major), "d")
    assert [(u.location, u.state, str(u.citation)) for u in view.useless_limbs] == limbs


def test_seed002_lying_down_is_the_prone_rows_of_both_tables() -> None:
    """002 Close "attacking or defending while prone" -25%, Ranged "attacker is
    prone" -50%: a useless leg drops the fighter."""
    battle = struck_002(3)
    view = condition(battle, "d")
    assert [(p.amount, p.applies_to) for p in view.penalties] == [
        (-25, Rolls.MELEE_ATTACKS | Rolls.DEFENSES),
        (-50, Rolls.RANGED_ATTACKS),
    ]
    attack = plan_002(battle.state, "d", "a", Attack002("longsword", "cut"))
    assert view.penalties[0].modifier in attack.attack_modifiers


# --- seed 003 ---------------------------------------------------------------------------------


def struck_003(attack: str, aim: str | None = None, *more: int) -> Battle:
    battle = d003.battle(d003.duel())
    choices = Choices003("broadsword", "swing", aim=aim)
    faces = d003.fudge(attack) + d003.fudge("0000") + tuple(more)
    battle.execute(Attack("a", "d", choices), ScriptedDice(faces))
    return battle


def test_seed003_a_hurt_torso_is_minus_1_to_everything_and_half_way_down() -> None:
    """003 5.874: Hurt is -1 to every activity (the torso counts for all); the
    torso's levels, Scratch to Incapacitated, are quarters of the way out."""
    assert condition(struck_003("+++-"), "d").hurt == Fraction(1, 4)  # a Scratch, no penalty
    battle = struck_003("+++0")
    view = condition(battle, "d")
    assert view.hurt == Fraction(1, 2)
    assert [(p.amount, p.applies_to) for p in view.penalties] == [
        (-1, Rolls.ATTACKS),
        (-1, Rolls.DEFENSES),
    ]
    attack = plan_003(battle.state, "d", "a", Choices003("broadsword", "swing"))
    defense = plan_003(battle.state, "a", "d", Choices003("broadsword", "swing"))
    assert view.penalties[0].modifier in attack.attack_modifiers
    assert view.penalties[1].modifier in defense.defender_modifiers


def test_seed003_a_useless_leg_drops_him_to_fight_off_his_feet() -> None:
    """003 5.873: a Useless leg fells its owner; off his feet he is -1 in melee
    (our value), to strike and to defend against a blow."""
    battle = d003.battle(d003.duel())
    choices = Choices003("broadsword", "swing", aim="left leg")
    battle.execute(Attack("a", "d", choices), ScriptedDice(d003.fudge("++++----0000")))
    view = condition(battle, "d")
    assert view.useless_limbs == (
        UselessLimb(
            "left leg",
            LimbKind.LEG,
            LimbState.USELESS,
            "left leg",
            cite("003", "5.873 Useless and Crippled Limbs"),
        ),
    )
    assert view.hurt == Fraction(3, 4)  # a limb counts at most as Very Hurt
    assert [(p.amount, p.applies_to, p.reason) for p in view.penalties] == [
        (-1, Rolls.MELEE_ATTACKS, "attacker off his feet"),
        (-1, Rolls.MELEE_DEFENSES, "defender off his feet"),
    ]
    defense = plan_003(battle.state, "a", "d", Choices003("broadsword", "swing"))
    assert view.penalties[1].modifier in defense.defender_modifiers


# --- seed 004 ---------------------------------------------------------------------------------


def test_seed004_hurt_runs_to_the_death_line_and_a_defense_costs_the_next_2() -> None:
    """Base rules, injury and death: dead at minus the maximum HP, the maximum less
    one a wound; each further defense since the own turn began at a cumulative -2."""
    battle = d004.duel()
    # Ann hits (6+6), Bob's dodge fails (1+1), the torso (3+3): 8 doubled, 35 -> 19;
    # the wound check fails (1+1): one wound, the maximum 34.
    d004.hit(battle, (6, 6, 1, 1, 3, 3, 6, 1, 1))
    view = condition(battle, "b")
    assert view.hurt == Fraction(35 - 19, 35 + 34)
    (defended,) = view.penalties
    assert (defended.amount, defended.applies_to) == (-2, Rolls.DEFENSES)
    assert (
        str(defended.citation)
        == "Endless Horizons: melee combat: each further dodge at a cumulative -2"
    )
    plan = plan_004(battle.state, "a", "b", Seed004Attack("club", "strike"))
    assert plan.defense_bonus(Defense.DODGE) == 0 + 1 + defended.amount  # DEX modifier, Dodge 1
    assert plan.defender_modifiers == (defended.modifier,)  # the plan cites the same -2


def test_seed004_a_prone_shooter_s_stance_raises_his_shot_s_difficulty_by_2() -> None:
    """Base rules, the shooter's stance: lying prone +2 to the difficulty, which is
    -2 on the shooter's roll; standing (-1) is no penalty."""
    bob = d004.fighter("Bob")
    bob = replace(bob, weapons=(d004.CATALOG.weapon("pistol"), *bob.weapons))
    battle = d004.duel(bob=bob, bob_posture=Posture.PRONE)
    d004.wield(battle, "b", "pistol")
    (stance,) = condition(battle, "b").penalties
    assert (stance.amount, stance.applies_to) == (-2, Rolls.RANGED_ATTACKS)
    assert str(stance.citation) == "Endless Horizons: ranged combat: the shooter's stance"
    shot = plan_004(battle.state, "b", "a", Seed004Attack("pistol", "shoot"))
    assert [m.value for m in shot.modifiers if m.citation == stance.citation] == [-stance.amount]
    assert condition(battle, "a").penalties == ()  # Ann stands


# --- every ruleset: the view's invariants while blows land ------------------------------------


def _duel_000(make: Make) -> tuple[Battle, Attack]:
    return Battle(duel(make), 0, get_ruleset), Attack("s", "f", SWING)


def _duel_002(make: Make) -> tuple[Battle, Attack]:
    return d002.battle(d002.duel()), Attack("a", "d", d002.sword(), gm_override=True)


def _duel_003(make: Make) -> tuple[Battle, Attack]:
    return d003.battle(d003.duel()), Attack("a", "d", Choices003("broadsword", "swing"))


def _duel_004(make: Make) -> tuple[Battle, Attack]:
    battle = d004.duel()
    d004.wield(battle, "a", "club")
    return battle, Attack("a", "b", Seed004Attack("club", "strike"))


DUELS: dict[str, Callable[[Make], tuple[Battle, Attack]]] = {
    "000": _duel_000,
    "002": _duel_002,
    "003": _duel_003,
    "004": _duel_004,
}


@pytest.mark.parametrize("key", DUELS)
def test_hurt_is_0_fresh_1_exactly_when_down_and_never_falls_as_blows_land(
    make: Make, key: str
) -> None:
    """For 20 battles of each ruleset, on the battle's own seeded dice: blow after
    blow until the defender is down (or the attacker can strike no more)."""
    went_down = 0
    for seed in range(20):
        battle, attack = DUELS[key](make)
        battle = Battle(battle.state, seed, get_ruleset)
        ruleset = get_ruleset(battle.state.ruleset_key, battle.state.ruleset_options)
        assert all(ruleset.conditions.fighter_condition(c) == ABLE for c in battle.state.combatants)
        hurt = {c.id: Fraction(0) for c in battle.state.combatants}
        for _ in range(40):
            try:
                battle.execute(replace(attack, gm_override=True))
            except RulesError:
                break  # a dropped weapon, a fallen attacker
            for c in battle.state.combatants:
                view = ruleset.conditions.fighter_condition(c)
                assert 0 <= view.hurt <= 1
                assert (view.hurt == 1) is (view.down is not None)
                assert view.hurt >= hurt[c.id], (seed, c.id)
                hurt[c.id] = view.hurt
                plain = ruleset.conditions.fighter_condition(c, details=False)
                assert (plain.able_to_act, plain.down, plain.citation) == (
                    view.able_to_act,
                    view.down,
                    view.citation,
                )
            if hurt[attack.defender_id] == 1:
                went_down += 1
                break
    assert went_down >= 5, went_down
