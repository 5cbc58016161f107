"""Seed 003 through ``Battle`` commands: the opposed roll, aiming (003 5.871),
damage to a body part (5.872), useless and crippled limbs (5.873), the worst
wound of an activity (5.874), the wound record (5.875) and widespread damage
(5.876), with the base rules' damage table, maneuvers, initiative and the map's
modifiers."""

from __future__ import annotations

import pytest

from hexmap import Facing
from rules.battle.commands import Attack, EndTurn, PaintTerrain, PickUpItem, SetPosture
from rules.battle.hands import draw, put_away
from rules.battle.maneuvers import MoveAllowance
from rules.battle.model import Posture, Status
from rules.battle.terrain import Cover, Footing, Light, TerrainChange, WaterDepth
from rules.battle.turns import ChooseManeuver, StartTurns, movement_left
from rules.core.dice import ScriptedDice
from rules.core.errors import IllegalAttackError, IllegalCommandError
from rules.sets.components.fudge_locations import BodyPart, PartState, WoundLevel
from rules.sets.seed003 import events as events003
from rules.sets.seed003.combat import Choices003, Defense, Seed003Answer
from rules.sets.seed003.events import (
    AttackDeclared,
    CoverStruck,
    LocationRolled,
    OpposedRolled,
    TurnPassed,
    WoundDealt,
)
from rules.sets.seed003.sheet import ArmorCover
from rules.sets.seed003.tracks import body_of
from tests.rules.seed003_battle import (
    HOME,
    SOUTH,
    battle,
    duel,
    fudge,
    restat,
    ruleset,
    south,
    template,
)

SWORD = Choices003("broadsword", "swing")
DEF_WORST = fudge("----")


def attack(b, choices=SWORD, faces=(), attacker="a", defender="d"):  # type: ignore[no-untyped-def]
    return b.execute(Attack(attacker, defender, choices), ScriptedDice(faces))


def one(events, kind):  # type: ignore[no-untyped-def]
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, found
    return found[0]


# --- base rules: the opposed roll and the damage --------------------------------------


def test_opposed_roll_relative_degree_decides_the_hit() -> None:
    # Sword Good (+1) against a parry Good (+1) with a medium shield (+1): +2.
    b = battle(duel())
    events = attack(b, faces=fudge("++00") + fudge("00-+"))
    rolled = one(events, OpposedRolled)
    assert (rolled.attack.result, rolled.defense.result, rolled.relative) == (3, 2, 1)
    assert rolled.hit
    # A tie is no hit, and nothing more is rolled.
    b = battle(duel())
    events = attack(b, faces=fudge("+000") + fudge("0000"))
    assert one(events, OpposedRolled).relative == 0
    assert not [e for e in events if isinstance(e, WoundDealt)]


def test_damage_is_relative_degree_plus_odf_minus_the_parts_ddf() -> None:
    # Relative +1; ODF 3 (broadsword) + 0 (Fair Strength); torso DDF 0 (Fair) + 2 chain.
    b = battle(duel())
    wound = one(attack(b, faces=fudge("++00") + fudge("00-+")), WoundDealt)
    assert (wound.relative, wound.offensive, wound.defensive, wound.damage) == (1, 3, 2, 2)
    assert wound.mark is not None and wound.mark.dealt is WoundLevel.SCRATCH
    body = body_of(b.state.combatant("d"))
    assert body.track(BodyPart.TORSO).checked == (1, 0, 0, 0, 0)


def test_strength_adds_to_a_muscle_powered_weapon_not_to_a_crossbow() -> None:
    strong = restat(template("swordsman"), strength=2)
    plan = ruleset().attacks.preview_attack(duel(strong), "a", "d", SWORD)
    assert "ODF +5" in plan.summary
    archer = template("crossbowman")
    state = duel(restat(archer, strength=3), defender_hex=south(5))
    shot = Choices003("crossbow", "shoot")
    assert "ODF +4" in ruleset().attacks.preview_attack(state, "a", "d", shot).summary


def test_the_sheet_shows_each_modes_odf_and_whether_strength_adds() -> None:
    rows = {r.label: r.value for r in ruleset().sheets.sections(duel().combatant("a"))[2].rows}
    assert rows["Broadsword"] == "swing ODF +3 + Strength, reach 1"
    shooter = duel(template("crossbowman")).combatant("a")
    rows = {r.label: r.value for r in ruleset().sheets.sections(shooter)[2].rows}
    assert rows["Crossbow"].startswith("shoot ODF +4, range ")


def test_a_hit_of_no_damage_is_no_wound() -> None:
    knight = template("knight")  # full plate, Good Damage Capacity: torso DDF 4
    weak = restat(template("swordsman"), strength=-3)
    b = battle(duel(weak, knight))
    # Sword +1 ++++ = 5 against a mace parry +1 with a large shield +2, +000 = 4.
    wound = one(attack(b, faces=fudge("++++") + fudge("+000")), WoundDealt)
    assert wound.damage <= 0 and wound.mark is None
    assert body_of(b.state.combatant("d")).track(BodyPart.TORSO).worst is None


@pytest.mark.parametrize(
    ("attack_signs", "defense_signs", "damage", "level"),
    [
        ("++00", "0000", 1, WoundLevel.SCRATCH),  # a Poor Strength (-1) attacker: ODF 2
        ("++00", "0000", 2, WoundLevel.SCRATCH),
        ("+++0", "0000", 3, WoundLevel.HURT),
        ("++++", "0000", 4, WoundLevel.HURT),
        ("+000", "----", 5, WoundLevel.VERY_HURT),
        ("++00", "----", 6, WoundLevel.VERY_HURT),
        ("+++0", "----", 7, WoundLevel.INCAPACITATED),
        ("++++", "----", 8, WoundLevel.INCAPACITATED),
    ],
)
def test_damage_table_rows_through_a_battle(
    attack_signs: str, defense_signs: str, damage: int, level: WoundLevel
) -> None:
    """Sword Good (+1) against a parry +2: damage = relative degree + 3 - 2."""
    weak = restat(template("swordsman"), strength=-1) if damage == 1 else None
    b = battle(duel(weak))
    wound = one(attack(b, faces=fudge(attack_signs) + fudge(defense_signs)), WoundDealt)
    assert wound.damage == damage
    assert wound.mark is not None and wound.mark.dealt is level


def test_damage_table_near_death_and_past_it_dead() -> None:
    brute = restat(template("barbarian"), strength=3)
    victim = template("archer")  # Mediocre DC, leather: torso DDF 0
    b = battle(duel(brute, victim))
    greatsword = Choices003("greatsword", "swing")
    # Barbarian Sword +1 ++++ = 5 vs archer dodge +1 ---- = -3: rel 8, damage 8+7 = 15.
    events = attack(b, greatsword, fudge("++++") + fudge("----"))
    wound = one(events, WoundDealt)
    assert wound.mark is not None and wound.mark.dealt is WoundLevel.NEAR_DEATH
    after = b.state.combatant("d")
    assert after.status is Status.UNCONSCIOUS and after.posture is Posture.PRONE
    # A helpless defender stands at Terrible (-3), no roll. Two more Near Death: dead.
    for _ in range(2):
        events = attack(b, greatsword, fudge("++++"))
        rolled = one(events, OpposedRolled)
        assert rolled.defense is None and rolled.relative == 5 + 3
    assert b.state.combatant("d").status is Status.DEAD
    assert body_of(b.state.combatant("d")).body_state is PartState.DEAD


# --- 003 5.871 hit location: aiming ------------------------------------------------------


@pytest.mark.parametrize(
    ("aim", "penalty", "part"),
    [
        ("eyes", -3, BodyPart.HEAD),
        ("head", -2, BodyPart.HEAD),
        ("right hand", -2, BodyPart.RIGHT_HAND),
        ("left foot", -2, BodyPart.LEFT_FOOT),
        ("left arm", -1, BodyPart.LEFT_ARM),
        ("right leg", -1, BodyPart.RIGHT_LEG),
        ("torso", 0, BodyPart.TORSO),
    ],
)
def test_aimed_blows_take_the_parts_size_penalty_and_hit_that_part(
    aim: str, penalty: int, part: BodyPart
) -> None:
    b = battle(duel())
    falls = fudge("0000") if part.fells else ()  # a useless leg or foot: the Agility roll
    choices = Choices003("broadsword", "swing", aim=aim)
    events = attack(b, choices, fudge("++++") + DEF_WORST + falls)
    declared = one(events, AttackDeclared)
    aimed = [m.value for m in declared.modifiers if m.reason.startswith("aimed at")]
    assert aimed == ([penalty] if penalty else [])
    assert one(events, OpposedRolled).attack.level == 1 + penalty
    assert one(events, WoundDealt).part == part.value


def test_an_attack_naming_no_part_is_at_the_torso() -> None:
    state = duel()
    choices = ruleset().attacks.default_attack(state, "a", "d")
    assert choices is not None and choices.aim == "torso"
    b = battle(state)
    assert one(attack(b, choices, fudge("++++") + DEF_WORST), WoundDealt).part == "torso"


def test_a_large_target_is_plus_one_to_hit_and_minus_one_to_damage() -> None:
    b = battle(duel())
    large = Choices003("broadsword", "swing", large_target=True)
    events = attack(b, large, fudge("0000") + fudge("0000"))
    rolled = one(events, OpposedRolled)
    assert rolled.attack.level == 2 and rolled.relative == 0
    b = battle(duel())
    wound = one(attack(b, large, fudge("+000") + fudge("0000")), WoundDealt)
    assert (wound.relative, wound.adjustment, wound.damage) == (1, -1, 1)


def test_melee_never_rolls_a_random_location() -> None:
    b = battle(duel())
    events = attack(b, SWORD, fudge("++++") + DEF_WORST)
    assert not [e for e in events if isinstance(e, LocationRolled)]
    form = ruleset().attacks.attack_form(duel(), "a", "d", {})
    assert all(not c.problem for c in form.field("aim").choices)


def _shot_state(distance: int):  # type: ignore[no-untyped-def]
    archer = template("archer")
    return duel(archer, defender_hex=south(distance))


def _dagger_drawn(state):  # type: ignore[no-untyped-def]
    """The shot state with the archer's bow slung and its dagger in hand."""
    archer = state.combatant("a")
    return state.with_combatants(draw(put_away(archer, "shortbow"), "dagger"))


def test_a_ranged_attack_within_half_range_may_aim() -> None:
    state = _shot_state(20)  # the short bow's half range is 20
    form = ruleset().attacks.attack_form(state, "a", "d", {"weapon": "shortbow:shoot"})
    assert all(not c.problem for c in form.field("aim").choices)
    b = battle(state)
    shot = Choices003("shortbow", "shoot", aim="left leg")
    events = attack(b, shot, fudge("++++") + DEF_WORST + fudge("0000"))
    assert one(events, WoundDealt).part == "left leg"


def test_a_missile_is_dodged_at_minus_two_a_thrown_weapon_is_not() -> None:
    """Base rules, ranged combat: the defender dodges; a propelled missile (the
    bow) takes 2 from his dodge, a thrown dagger nothing."""
    b = battle(_shot_state(3))
    events = attack(b, Choices003("shortbow", "shoot"), fudge("0000") + fudge("0000"))
    rolled = one(events, OpposedRolled)
    # The swordsman's Dodge Mediocre (-1), his medium shield +1, the missile -2.
    assert (rolled.defense_kind, rolled.defense.level) == ("dodge", -2)  # type: ignore[union-attr]
    preview = ruleset().attacks.preview_attack(
        _shot_state(3), "a", "d", Choices003("shortbow", "shoot")
    )
    assert {m.reason: m.value for m in preview.modifiers}["defense: dodging a missile"] == -2
    dagger_in_hand = _dagger_drawn(_shot_state(3))
    thrown = ruleset().attacks.preview_attack(
        dagger_in_hand, "a", "d", Choices003("dagger", "throw")
    )
    assert not [m for m in thrown.modifiers if "missile" in m.reason]
    b = battle(dagger_in_hand)
    events = attack(b, Choices003("dagger", "throw"), fudge("0000") + fudge("0000"))
    assert one(events, OpposedRolled).defense.level == 0  # type: ignore[union-attr]


def test_a_distant_shot_cannot_aim_and_a_hit_lands_on_the_random_location() -> None:
    state = _shot_state(21)
    form = ruleset().attacks.attack_form(
        state, "a", "d", {"weapon": "shortbow:shoot", "aim": "head"}
    )
    aims = {c.key: c.problem for c in form.field("aim").choices}
    assert aims["torso"] == "" and all(p for k, p in aims.items() if k != "torso")
    assert form.field("aim").value == "torso"
    with pytest.raises(IllegalAttackError):
        attack(battle(state), Choices003("shortbow", "shoot", aim="head"), ())
    b = battle(state)
    # The attack roll, the dodge, then 1 (extremity), 5 (hand), 2 (left).
    events = attack(b, Choices003("shortbow", "shoot"), fudge("++++") + DEF_WORST + (1, 5, 2))
    located = one(events, LocationRolled)
    assert located.location.part is BodyPart.LEFT_HAND
    assert one(events, WoundDealt).part == "left hand"


# --- 003 5.872 damage to an individual body part ----------------------------------------


def test_each_parts_capacity_is_its_defensive_factor_and_sets_its_boxes() -> None:
    b = battle(duel())
    hand = Choices003("broadsword", "swing", aim="left hand")  # Poor: DDF -2, no armor
    wound = one(attack(b, hand, fudge("++00") + DEF_WORST), WoundDealt)
    assert wound.defensive == -2
    sheet = ruleset().sheets.sections(b.state.combatant("d"))
    rows = {r.label: r.value for r in sheet[-1].rows}
    empty, full, thin = "\u25a1", "\u25a0", "\u2009"
    # An unhurt part shows its boxes alone, level by level a thin space apart.
    assert rows["Torso"] == thin.join([empty * 2] * 5)
    assert rows["Head"] == thin.join([empty * 2, empty * 2, empty, empty * 2, empty * 2])
    assert rows["Right hand"] == thin.join([empty * 2, empty, empty, empty * 2, empty * 2])
    # The left hand: relative 3 (1 against -2) + ODF 3 - DDF -2 = 8: a Useless box.
    assert rows["Left hand"] == (
        thin.join([empty * 2, empty, empty, full + empty, empty * 2]) + "  useless"
    )


def test_constitution_does_not_change_the_parts() -> None:
    plain = battle(duel()).state.combatant("d")
    tough = battle(duel(defender=restat(template("swordsman"), constitution=3))).state
    assert body_of(tough.combatant("d")) == body_of(plain)
    better = battle(duel(defender=restat(template("swordsman"), damage_capacity=2))).state
    boxes = body_of(better.combatant("d")).track(BodyPart.TORSO).boxes
    assert boxes == (2, 3, 3, 2, 2)
    assert better.combatant("d").fighter.hit_points == 12


def test_a_full_level_moves_the_wound_up_the_parts_track() -> None:
    b = battle(duel())
    head = Choices003("broadsword", "swing", aim="head")  # Mediocre: one Very Hurt box
    # Head DDF 0 (Mediocre -1, helmet +1): aimed -2, 3 against 1: rel 2, damage 5, twice.
    attack(b, head, fudge("++++") + fudge("-000"))
    # Now Very Hurt in the head (-2 to everything): his parry is 0; +000 = 1 again.
    events = attack(b, head, fudge("++++") + fudge("+000"))
    mark = one(events, WoundDealt).mark
    assert mark is not None and mark.dealt is WoundLevel.VERY_HURT
    assert mark.marked is WoundLevel.INCAPACITATED
    assert b.state.combatant("d").status is Status.UNCONSCIOUS


def test_the_torso_incapacitated_stops_the_fighter_and_his_turn_passes() -> None:
    b = battle(duel())
    attack(b, SWORD, fudge("++++") + fudge("----"))  # rel 6+1: damage 8, Incapacitated
    d = b.state.combatant("d")
    assert body_of(d).body_state is PartState.INCAPACITATED and d.status is Status.UNCONSCIOUS
    assert ruleset().turns.maneuvers(b.state, "d") == ()
    assert "incapacitated" in ruleset().conditions.labels(d)
    b.execute(StartTurns(), ScriptedDice(fudge("0000") + fudge("0000") + (6, 1)))
    events = b.execute(EndTurn(), ScriptedDice(()))
    assert any(isinstance(e, TurnPassed) for e in events)


# --- 003 5.873 useless and crippled limbs ----------------------------------------------


def test_a_useless_weapon_arm_drops_the_weapon_onto_the_map() -> None:
    b = battle(duel())
    arm = Choices003("broadsword", "swing", aim="right arm")  # DDF +1 (Mediocre, chain)
    # Aimed -1: ++++ = 4 vs ---- = -2: rel 6, damage 8: Useless.
    events = attack(b, arm, fudge("++++") + DEF_WORST)
    assert one(events, WoundDealt).mark.after is PartState.USELESS  # type: ignore[union-attr]
    d = b.state.combatant("d")
    assert "broadsword" not in [w.key for w in d.fighter.weapons]
    assert [(i.name, i.hex) for i in b.state.items] == [("Broadsword", SOUTH)]
    assert "useless right arm" in ruleset().conditions.labels(d)


def test_a_useless_off_hand_drops_the_shield() -> None:
    b = battle(duel())
    hand = Choices003("broadsword", "swing", aim="left hand")  # DDF -2
    attack(b, hand, fudge("+++0") + DEF_WORST)  # aimed -2: 2 vs -2: rel 4, damage 9
    d = b.state.combatant("d")
    assert d.fighter.shield is None
    assert [i.name for i in b.state.items] == ["Medium shield"]


def test_a_one_handed_weapon_goes_to_the_other_hand_at_minus_one() -> None:
    b = battle(duel())
    attack(b, Choices003("broadsword", "swing", aim="right hand"), fudge("+++0") + DEF_WORST)
    # The defender, right hand useless, punches with the left.
    form = ruleset().attacks.attack_form(b.state, "d", "a", {})
    plan = ruleset().attacks.preview_attack(b.state, "d", "a", form.choices)
    assert any(m.reason.startswith("off hand") and m.value == -1 for m in plan.modifiers)


def test_a_two_handed_weapon_drops_from_either_hand_and_needs_both_arms() -> None:
    b = battle(duel(defender=template("barbarian")))
    attack(b, Choices003("broadsword", "swing", aim="left hand"), fudge("++++") + fudge("----"))
    assert [i.name for i in b.state.items] == ["Greatsword"]
    b.execute(PickUpItem("d", b.state.items[0].id), ScriptedDice(()))
    form = ruleset().attacks.attack_form(b.state, "d", "a", {})
    problems = {c.key: c.problem for c in form.field("weapon").choices}
    assert "both arms" in problems["greatsword:swing"]
    assert problems["fist:punch"] == ""


@pytest.mark.parametrize(("agility", "stays"), [("++++", True), ("+++0", True), ("++00", False)])
def test_a_useless_leg_drops_him_unless_a_superb_agility_roll(agility: str, stays: bool) -> None:
    b = battle(duel())
    leg = Choices003("broadsword", "swing", aim="left leg")  # DDF +1
    events = attack(b, leg, fudge("++++") + DEF_WORST + fudge(agility))  # damage 8
    roll = one(events, events003.StayedStanding)
    assert roll.stood is stays
    expected = Posture.STANDING if stays else Posture.PRONE
    assert b.state.combatant("d").posture is expected


def test_crippled_is_useless_and_past_crippled_the_limb_is_lost_for_good() -> None:
    b = battle(duel())
    foot = Choices003("broadsword", "swing", aim="right foot")  # Poor, unarmored: DDF -2
    marks = []
    for _ in range(3):  # aimed -2: 3 against -2 (-3 once down), damage 10 or more: Crippled
        events = attack(b, foot, fudge("++++") + DEF_WORST + fudge("----"))
        marks.append(one(events, WoundDealt).mark.after)  # type: ignore[union-attr]
    assert marks[:2] == [PartState.CRIPPLED, PartState.CRIPPLED]
    assert marks[2] is PartState.LOST
    d = b.state.combatant("d")
    assert "lost right foot" in ruleset().conditions.labels(d)
    form = ruleset().attacks.attack_form(b.state, "a", "d", {"aim": "right foot"})
    assert "gone" in {c.key: c.problem for c in form.field("aim").choices}["right foot"]


# --- 003 5.874 modifiers due to damage ---------------------------------------------------


def test_only_the_worst_wound_of_the_activity_counts() -> None:
    """The seed's example: Hurt right arm, Very Hurt left leg, Hurt right foot: -2
    fighting on his feet; on the ground only the arm counts: -1."""
    armored = restat(template("swordsman"), armor_cover=ArmorCover.FULL)
    b = battle(duel(defender=armored))
    # Right arm DDF +1, left leg +1, right foot 0 (Poor, boots); his parry +2 rolls ----,
    # then +1 (Hurt right arm), then 0 (Very Hurt leg, the worse wound).
    attack(b, Choices003("broadsword", "swing", aim="right arm"), fudge("-000") + DEF_WORST)
    attack(b, Choices003("broadsword", "swing", aim="left leg"), fudge("0000") + DEF_WORST)
    attack(b, Choices003("broadsword", "swing", aim="right foot"), fudge("--00") + DEF_WORST)
    body = body_of(b.state.combatant("d"))
    assert body.track(BodyPart.RIGHT_ARM).state is PartState.HURT
    assert body.track(BodyPart.LEFT_LEG).state is PartState.VERY_HURT
    assert body.track(BodyPart.RIGHT_FOOT).state is PartState.HURT
    preview = ruleset().attacks.preview_attack(b.state, "d", "a", SWORD)
    wounds = [m for m in preview.modifiers if "worst wound" in m.reason]
    assert [(m.value, m.reason) for m in wounds] == [(-2, "worst wound: left leg, very hurt")]
    # Against him, the same wound counts against his parry.
    against = ruleset().attacks.preview_attack(b.state, "a", "d", SWORD)
    assert [(m.value, m.reason) for m in against.modifiers if "worst wound" in m.reason] == [
        (-2, "defense: worst wound: left leg, very hurt")
    ]
    lying = b.state.with_combatants(b.state.combatant("d").evolve(posture=Posture.PRONE))
    preview = ruleset().attacks.preview_attack(lying, "d", "a", SWORD)
    wounds = [m for m in preview.modifiers if "worst wound" in m.reason]
    assert [m.value for m in wounds] == [-1]


def test_a_dodge_counts_the_legs_standing_and_no_limb_lying_down() -> None:
    """003 5.874: the activity's parts: a dodge uses the legs and feet, not the
    weapon arm; lying down, no limb's wound counts against it."""
    b = battle(duel())
    # A Hurt right (weapon) arm: 0 against -2, damage 2 + 3 - 1 = 4.
    attack(b, Choices003("broadsword", "swing", aim="right arm"), fudge("-000") + DEF_WORST)
    assert body_of(b.state.combatant("d")).track(BodyPart.RIGHT_ARM).state is PartState.HURT
    dodge = Seed003Answer(Defense.DODGE)
    parry = Seed003Answer(Defense.PARRY)

    def wounds(state, answer):  # type: ignore[no-untyped-def]
        preview = ruleset().attacks.preview_attack(state, "a", "d", SWORD, answer)
        return [m.value for m in preview.modifiers if "worst wound" in m.reason]

    assert wounds(b.state, parry) == [-1]
    assert wounds(b.state, dodge) == []
    # A Very Hurt left leg (0 against -3, damage 3 + 3 - 1 = 5) counts against the
    # dodge standing...
    attack(b, Choices003("broadsword", "swing", aim="left leg"), fudge("0000") + DEF_WORST)
    assert body_of(b.state.combatant("d")).track(BodyPart.LEFT_LEG).state is PartState.VERY_HURT
    assert wounds(b.state, dodge) == [-2]
    # ... and not lying down, nor does the arm.
    lying = b.state.with_combatants(b.state.combatant("d").evolve(posture=Posture.PRONE))
    assert wounds(lying, dodge) == []


# --- 003 5.875 keeping track of wounds ---------------------------------------------------


def test_the_sheet_records_every_parts_wounds() -> None:
    b = battle(duel())
    attack(b, Choices003("broadsword", "swing", aim="left arm"), fudge("++00") + DEF_WORST)
    wounds = ruleset().sheets.sections(b.state.combatant("d"))[-1]
    assert wounds.title == "Wounds by body part"
    assert [r.label for r in wounds.rows][:3] == ["Torso", "Head", "Left arm"]
    assert len(wounds.rows) == 10
    assert {r.label: r.value for r in wounds.rows}["Left arm"].endswith("  very\u00a0hurt\u00a0-2")


# --- 003 5.876 widespread damage ---------------------------------------------------------


def test_widespread_damage_halves_to_every_part_with_its_own_armor() -> None:
    victim = restat(template("swordsman"), armor_cover=ArmorCover.TORSO, helmet=0)
    b = battle(duel(defender=victim))
    blast = Choices003("broadsword", "swing", widespread=True)
    events = attack(b, blast, fudge("+++0") + DEF_WORST)
    wounds = {e.part: e for e in events if isinstance(e, WoundDealt)}
    assert len(wounds) == 10
    # Relative 6 + ODF 3 = 9; torso DDF 2 (chain): 7 -> 4 (half, rounded up); head DDF
    # -1 (no helmet): 10 -> 5; arm DDF -1 (no armor there): 10 -> 5; hand DDF -2: 11 -> 6.
    assert {k: wounds[k].damage for k in ("torso", "head", "left arm", "left hand")} == {
        "torso": 4,
        "head": 5,
        "left arm": 5,
        "left hand": 6,
    }
    form = ruleset().attacks.attack_form(b.state, "a", "d", {"widespread": "yes"})
    assert all(c.problem for c in form.field("aim").choices if c.key != "torso")


# --- base rules: initiative, maneuvers, the map's modifiers -------------------------------


def test_initiative_is_agility_plus_4df_best_first_ties_by_a_die() -> None:
    b = battle(duel(template("archer"), template("knight")))  # Agility +1 and -1
    events = b.execute(StartTurns(), ScriptedDice(fudge("----") + fudge("++++")))
    order = one(events, events003.InitiativeRolled003)
    assert [e[0] for e in order.entries] == ["d", "a"]
    b = battle(duel())
    events = b.execute(StartTurns(), ScriptedDice(fudge("0000") + fudge("0000") + (2, 5)))
    assert b.state.initiative == ("d", "a")


def test_all_out_attack_and_all_out_defense() -> None:
    b = battle(duel())
    b.execute(StartTurns(), ScriptedDice(fudge("++++") + fudge("----")))
    b.execute(ChooseManeuver("a", "all-out-attack", ""), ScriptedDice(()))
    plan = ruleset().attacks.preview_attack(b.state, "a", "d", SWORD)
    assert any(m.value == 1 and m.reason == "all-out attack" for m in plan.modifiers)
    b.execute(EndTurn(), ScriptedDice(()))
    b.execute(ChooseManeuver("d", "all-out-defense", ""), ScriptedDice(()))
    plan = ruleset().attacks.preview_attack(b.state, "d", "a", SWORD)
    assert any("guard down" in m.reason and m.value == -2 for m in plan.modifiers)
    plan = ruleset().attacks.preview_attack(b.state, "a", "d", SWORD)
    assert any("all-out defense" in m.reason and m.value == 2 for m in plan.modifiers)
    with pytest.raises(IllegalCommandError):
        b.execute(Attack("d", "a", SWORD), ScriptedDice(fudge("0000") * 2))


@pytest.mark.parametrize(
    ("change", "where", "value"),
    [
        (TerrainChange(footing=Footing.BAD), "attacker", -1),
        (TerrainChange(footing=Footing.VERY_BAD), "attacker", -2),
        (TerrainChange(footing=Footing.TREACHEROUS), "attacker", -3),
        (TerrainChange(water=WaterDepth.KNEE), "attacker", -1),
        (TerrainChange(water=WaterDepth.WAIST), "attacker", -2),
        (TerrainChange(water=WaterDepth.DEEP), "attacker", -3),
        (TerrainChange(light=Light.DIM_4), "defender", -1),
        (TerrainChange(light=Light.DIM_7), "defender", -2),
        (TerrainChange(light=Light.TOTAL_DARKNESS), "defender", -3),
        (TerrainChange(height=1), "attacker", 1),
    ],
)
def test_the_maps_modifiers_to_the_attack(change: TerrainChange, where: str, value: int) -> None:
    b = battle(duel())
    hex_ = HOME if where == "attacker" else SOUTH
    b.execute(PaintTerrain((hex_,), change), ScriptedDice(()))
    plan = ruleset().attacks.preview_attack(b.state, "a", "d", SWORD)
    situation = [m.value for m in plan.modifiers if m.citation.heading.startswith("combat mod")]
    assert value in situation


def test_from_behind_the_defense_is_minus_one_and_the_shield_does_not_help() -> None:
    state = duel(defender_facing=Facing.S)
    plan = ruleset().attacks.preview_attack(state, "a", "d", SWORD)
    reasons = {m.reason: m.value for m in plan.modifiers}
    # The defense's modifiers keep the defender's signs.
    assert reasons["defense: attacked from the side or behind"] == -1
    assert "defense: Medium shield" not in reasons
    front = ruleset().attacks.preview_attack(duel(), "a", "d", SWORD)
    assert {m.reason: m.value for m in front.modifiers}["defense: Medium shield"] == 1


def test_dodge_can_be_chosen_and_missiles_cannot_be_parried() -> None:
    b = battle(duel())
    dodge = Seed003Answer(Defense.DODGE)
    events = b.execute(Attack("a", "d", SWORD, dodge), ScriptedDice(fudge("0000") * 2))
    assert one(events, OpposedRolled).defense_kind == "dodge"
    state = _shot_state(3)
    parry = Seed003Answer(Defense.PARRY)
    with pytest.raises(IllegalAttackError):
        ruleset().attacks.preview_attack(state, "a", "d", Choices003("shortbow", "shoot"), parry)
    with pytest.raises(IllegalAttackError):
        battle(state).execute(
            Attack("a", "d", Choices003("shortbow", "shoot"), parry), ScriptedDice(())
        )


@pytest.mark.parametrize(
    ("faces", "part"),
    [
        ((1, 1, 1), BodyPart.LEFT_FOOT),
        ((1, 3, 6), BodyPart.RIGHT_FOOT),
        ((1, 4, 3), BodyPart.LEFT_HAND),
        ((1, 6, 4), BodyPart.RIGHT_HAND),
        ((2, 2), BodyPart.LEFT_LEG),
        ((2, 5), BodyPart.RIGHT_LEG),
        ((3,), BodyPart.TORSO),
        ((4,), BodyPart.TORSO),
        ((5, 3), BodyPart.LEFT_ARM),
        ((5, 4), BodyPart.RIGHT_ARM),
        ((6,), BodyPart.HEAD),
    ],
)
def test_every_random_location_row_through_a_distant_shot(
    faces: tuple[int, ...], part: BodyPart
) -> None:
    """1 extremity (then 1-3 foot, 4-6 hand), 2 leg, 3-4 torso, 5 arm, 6 head; a
    limb's last die 1-3 left, 4-6 right. The knight's plate keeps every wound light."""
    b = battle(duel(template("archer"), template("knight"), defender_hex=south(25)))
    events = attack(b, Choices003("shortbow", "shoot"), fudge("++00") + fudge("0000") + faces)
    assert one(events, LocationRolled).location.faces == faces
    wound = one(events, WoundDealt)
    assert wound.part == part.value
    assert wound.mark is not None and not wound.mark.after.disabled


def test_a_fallen_fighter_may_stand_again_leaning_on_something() -> None:
    """003 5.873: he can stand again (the GM's posture change, under Ready)."""
    b = battle(duel())
    attack(
        b,
        Choices003("broadsword", "swing", aim="left leg"),
        fudge("++++") + DEF_WORST + fudge("----"),
    )
    assert b.state.combatant("d").posture is Posture.PRONE
    b.execute(SetPosture("d", Posture.STANDING), ScriptedDice(()))
    assert b.state.combatant("d").posture is Posture.STANDING


def test_on_a_useless_leg_he_moves_only_slowly() -> None:
    """003 5.873: standing again, he moves slowly: his Move halved (our value),
    once, whichever leg or foot; a full Move maneuver then goes 2 hexes, not 5."""
    b = battle(duel())
    events = attack(
        b,
        Choices003("broadsword", "swing", aim="left leg"),
        fudge("++++") + DEF_WORST + fudge("++++"),  # he stays up: a Superb Agility roll
    )
    hobbled = one(events, events003.Hobbled)
    assert (hobbled.move_before, hobbled.move_after) == (5, 2)
    assert b.state.combatant("d").fighter.move == 2
    foot = Choices003("broadsword", "swing", aim="right foot")
    events = attack(b, foot, fudge("++++") + DEF_WORST + fudge("++++"))
    assert body_of(b.state.combatant("d")).track(BodyPart.RIGHT_FOOT).state.disabled
    assert not [e for e in events if isinstance(e, events003.Hobbled)]
    assert b.state.combatant("d").fighter.move == 2
    b.execute(StartTurns(), ScriptedDice(fudge("----") + fudge("++++")))
    assert b.state.active_id == "d"
    b.execute(ChooseManeuver("d", "move", ""), ScriptedDice(()))
    assert movement_left(b.state, ruleset(), b.state.combatant("d")) == (MoveAllowance.FULL, 2)
    rows = {r.label: r.value for r in ruleset().sheets.sections(b.state.combatant("d"))[0].rows}
    assert rows["Move"] == "2 of 2 left"


def test_cover_hides_parts_from_aim_random_locations_and_blasts() -> None:
    """Our rule: partial cover hides the legs and feet, full cover the torso too."""
    b = battle(duel(template("archer"), template("knight"), defender_hex=south(25)))
    b.execute(PaintTerrain((south(25),), TerrainChange(cover=Cover.PARTIAL)), ScriptedDice(()))
    # A distant shot's random location on a hidden leg: the cover takes it.
    events = attack(b, Choices003("shortbow", "shoot"), fudge("++00") + fudge("0000") + (2, 2))
    assert one(events, CoverStruck).part == "left leg"
    assert not [e for e in events if isinstance(e, WoundDealt)]
    near = battle(duel())
    near.execute(PaintTerrain((SOUTH,), TerrainChange(cover=Cover.FULL)), ScriptedDice(()))
    form = ruleset().attacks.attack_form(near.state, "a", "d", {})
    problems = {c.key: c.problem for c in form.field("aim").choices}
    assert problems["torso"] and problems["left foot"] and not problems["head"]
    assert form.field("aim").value == "head"
    blast = Choices003("broadsword", "swing", widespread=True)
    events = attack(near, blast, fudge("0000") + DEF_WORST)
    assert {e.part for e in events if isinstance(e, WoundDealt)} == {
        "head",
        "left arm",
        "left hand",
        "right arm",
        "right hand",
    }
