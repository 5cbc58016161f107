"""Seed 000's location wound rules (the numbered notes), the follow-up rolls and
the wound left behind."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rules.battle.model import DamageType
from rules.core.citation import cite
from rules.core.errors import DataError, IllegalAttackError, RulesError
from rules.sets.seed000.hit_location import HitLocationTable
from rules.sets.seed000.sheet import Attributes
from rules.sets.seed000.tables import Tables
from rules.sets.seed000.wound_effects import (
    BodySide,
    Condition,
    Limb,
    PainThreshold,
    RollKind,
    Victim,
    WoundAssessment,
    parse_threshold,
    parse_wound_spec,
    resolve_rolls,
    standing_roll_target,
    wound_from,
)
from tests.rules.sheets import seed000_fighter

CR, CUT, IMP = DamageType.CRUSHING, DamageType.CUTTING, DamageType.IMPALING
BULLET, PI = DamageType.BULLET, DamageType.PIERCING
V = Victim(hp=12, ht=11, dx=12)


@pytest.fixture(scope="module")
def t() -> HitLocationTable:
    return Tables().hit_location_table


def kinds(a: WoundAssessment) -> list[RollKind]:
    return [r.kind for r in a.rolls]


def target(a: WoundAssessment, kind: RollKind) -> int:
    r = a.roll_of(kind)
    assert r is not None, kind
    return r.target


class ScriptedRandom(random.Random):
    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


# --------------------------------------------------------------------------- notes 1-8: head


def test_note_1_skull_dr_2_and_x4(t: HitLocationTable) -> None:
    a = t.assess_wound("brain", CR, 5, V)
    assert (a.location_dr, a.penetrating, a.multiplier, a.injury) == (2, 3, 4, 12)
    a = t.assess_wound("brain", CUT, 5, V)
    assert a.multiplier == 4 and a.injury == 12  # regardless of weapon type


def test_note_1_bullets_do_x6_in_the_brain(t: HitLocationTable) -> None:
    assert t.assess_wound("brain", BULLET, 4, V).injury == 12
    assert t.assess_wound("brain", PI, 4, V).injury == 12  # piercing = bullets in seed 000


def test_note_1_skull_dr_stacks_with_armor(t: HitLocationTable) -> None:
    a = t.assess_wound("brain", CR, 6, V, armor_dr=3)
    assert (a.effective_armor_dr, a.location_dr, a.penetrating, a.injury) == (3, 2, 1, 4)
    assert t.assess_wound("brain", CR, 2, V).injury == 0


def test_note_1_brain_stuns_over_hp_3_and_knocks_out_over_hp_2(t: HitLocationTable) -> None:
    # 1 penetrating x4 = 4: not over 12/3.
    a = t.assess_wound("brain", CR, 3, V)
    assert a.injury == 4 and not a.automatic
    assert target(a, RollKind.KNOCKOUT) == 11 + 5 - 4
    a = t.assess_wound("brain", CR, 4, Victim(hp=20, ht=11))  # 8: over 20/3, not over 10
    assert a.automatic == {Condition.STUNNED}
    a = t.assess_wound("brain", CR, 6, V)  # 16 > 6
    assert {Condition.STUNNED, Condition.UNCONSCIOUS} <= a.automatic
    assert a.roll_of(RollKind.KNOCKOUT) is None  # already out


def test_other_head_rows_take_only_the_skull_dr(t: HitLocationTable) -> None:
    for key in ("head", "face", "jaw", "nose"):
        a = t.assess_wound(key, CR, 5, V)
        assert (a.location_dr, a.multiplier, a.injury) == (2, 1, 3), key


def test_note_2_head_blow_knockout_roll(t: HitLocationTable) -> None:
    a = t.assess_wound("head", CR, 7, V)
    assert a.injury == 5 and target(a, RollKind.KNOCKOUT) == 11
    assert a.roll_of(RollKind.KNOCKOUT).citation == cite("000", "RANDOM BODY HIT note 2")  # type: ignore[union-attr]
    assert any("bleed" in e.text for e in a.effects)
    assert t.assess_wound("head", CR, 2, V).rolls == ()


def test_note_2_only_crushing_vitals_blows_risk_knockout(t: HitLocationTable) -> None:
    assert RollKind.KNOCKOUT in kinds(t.assess_wound("vitals", CR, 4, V))
    assert RollKind.KNOCKOUT not in kinds(t.assess_wound("vitals", IMP, 4, V))


def test_note_3_appearance_even_when_the_skull_stops_it(t: HitLocationTable) -> None:
    a = t.assess_wound("face", CR, 2, V)
    assert a.injury == 0
    assert [e.citation for e in a.effects] == [cite("000", "RANDOM BODY HIT note 3")]
    assert t.assess_wound("face", CR, 2, V, armor_dr=2).effects == ()


def test_note_4_jaw(t: HitLocationTable) -> None:
    a = t.assess_wound("jaw", CR, 6, V)  # 4 injury: stun needs over 4
    assert target(a, RollKind.KNOCKOUT) == 12 and not a.automatic
    a = t.assess_wound("jaw", CUT, 6, V)  # 4 x1.5 = 6: over HP/3
    assert a.automatic == {Condition.STUNNED}
    a = t.assess_wound("jaw", CR, 9, V)  # 7: over HP/2
    assert {Condition.UNCONSCIOUS, Condition.STUNNED} <= a.automatic
    assert RollKind.KNOCKOUT not in kinds(t.assess_wound("jaw", IMP, 6, V))
    helmed = Victim(12, 11, chin_padded_helm=True)
    a = t.assess_wound("jaw", CR, 9, helmed)  # 7 injury: still a major wound (base rules)
    assert not a.automatic and kinds(a) == [RollKind.KNOCKDOWN]
    assert any("teeth" in e.text for e in a.effects)


def test_note_5_eyes_skip_the_skull_and_blind_over_2(t: HitLocationTable) -> None:
    a = t.assess_wound("eyes", CR, 3, V)
    assert (a.location_dr, a.injury) == (0, 3)
    assert Condition.BLINDED_EYE in a.automatic
    assert a.also_location is None  # crushing never goes on to the brain
    assert Condition.BLINDED_EYE not in t.assess_wound("eyes", CR, 2, V).automatic


def test_note_5_impaling_eye_wound_over_2_is_a_brain_hit_without_skull_dr(
    t: HitLocationTable,
) -> None:
    a = t.assess_wound("eyes", IMP, 2, V)  # 2 x2 = 4 at the eye
    assert a.also_location == "brain"
    assert a.injury == 8 and a.multiplier == 4  # 2 x4, the skull's DR not subtracted
    assert {Condition.BLINDED_EYE, Condition.STUNNED} <= a.automatic
    a = t.assess_wound("eyes", IMP, 1, V)  # 2 at the eye: not more than 2
    assert a.also_location is None and a.injury == 2
    assert t.assess_wound("eyes", BULLET, 3, V).injury == 18  # bullet x6


def test_note_5_eye_slits_ignore_the_helm_and_take_no_swings(t: HitLocationTable) -> None:
    a = t.assess_wound("eyes_eyeslits", IMP, 3, V, armor_dr=6)
    assert a.effective_armor_dr == 0 and a.injury == 12
    with pytest.raises(IllegalAttackError):
        t.assess_wound("eyes_eyeslits", CUT, 3, V, swung=True)


def test_note_6_neck(t: HitLocationTable) -> None:
    a = t.assess_wound("neck", CUT, 4, V)
    assert a.multiplier == 2 and a.injury == 8
    assert a.hp_loss == 6  # "damage over HP/2 lost"
    # 8 injury over HP/2: the major wound's roll comes last (base rules)
    assert kinds(a) == [RollKind.SUFFOCATION, RollKind.SEVERE_BLEEDING, RollKind.KNOCKDOWN]
    assert target(a, RollKind.SEVERE_BLEEDING) == 11 + 5 - 8
    a = t.assess_wound("neck", CR, 4, V)
    assert a.multiplier == 1 and kinds(a) == [RollKind.SUFFOCATION]  # 4 >= HP/3
    assert t.assess_wound("neck", CR, 3, V).rolls == ()
    assert t.assess_wound("neck", IMP, 3, V).injury == 6
    a = t.assess_wound("neck", CUT, 6, V)  # 12 >= HP
    assert target(a, RollKind.DECAPITATION) == 11 + 5 - 12
    assert a.roll_of(RollKind.DECAPITATION).on_failure == {Condition.DECAPITATED, Condition.DEAD}  # type: ignore[union-attr]


def test_note_7_nose_doubles_stun(t: HitLocationTable) -> None:
    a = t.assess_wound("nose", CR, 5, V)
    assert a.injury == 3 and a.shock_penalty == -6


def test_note_8_ear(t: HitLocationTable) -> None:
    a = t.assess_wound("ear", CR, 3, V)
    assert a.location_dr == 1 and a.injury == 2
    assert target(a, RollKind.DEAFNESS) == 14
    assert t.assess_wound("ear", CR, 2, V).rolls == ()
    assert t.assess_wound("ear", IMP, 5, V).roll_of(RollKind.DEAFNESS) is None


# --------------------------------------------------------------------------- limbs


@pytest.mark.parametrize(
    ("key", "limb", "divisor"),
    [
        ("near_arm", Limb.ARM, 2),
        ("far_arm", Limb.ARM, 2),
        ("near_elbow", Limb.ARM, 3),
        ("far_elbow", Limb.ARM, 3),
        ("near_hand", Limb.HAND, 3),
        ("far_hand", Limb.HAND, 3),
        ("shield_hand", Limb.HAND, 3),
        ("far_thigh", Limb.LEG, 2),
        ("near_shin", Limb.LEG, 2),
        ("near_knee", Limb.LEG, 3),
        ("far_knee", Limb.LEG, 3),
        ("near_foot", Limb.FOOT, 3),
        ("far_foot", Limb.FOOT, 3),
        ("instep", Limb.FOOT, 3),
    ],
)
def test_major_damage_cripples_and_the_excess_is_lost(
    t: HitLocationTable, key: str, limb: Limb, divisor: int
) -> None:
    threshold = Fraction(12, divisor)
    at = int(threshold)  # exactly HP/d: not over it
    a = t.assess_wound(key, CR, at, V, side=BodySide.LEFT)
    assert a.crippling is None and a.hp_loss == at
    a = t.assess_wound(key, CR, at + 1, V, side=BodySide.LEFT)
    assert a.crippling is not None and a.crippling.limb is limb
    assert a.crippling.side is BodySide.LEFT and a.crippling.threshold == threshold
    assert Condition.CRIPPLED in a.automatic
    a = t.assess_wound(key, CR, at + 5, V)
    assert a.injury == at + 5 and a.hp_loss == at + 1
    assert a.crippling is not None and a.crippling.excess_lost == 4


def test_crippling_threshold_with_odd_hp(t: HitLocationTable) -> None:
    v = Victim(hp=10, ht=10)
    assert t.assess_wound("near_hand", CR, 3, v).crippling is None  # 3 < 10/3
    a = t.assess_wound("near_hand", CR, 9, v)
    assert a.crippling is not None and a.hp_loss == 4  # least injury over 3.33


def test_note_23_no_extra_damage_on_limbs(t: HitLocationTable) -> None:
    assert t.assess_wound("near_arm", CUT, 4, V).injury == 4
    assert t.assess_wound("near_arm", IMP, 4, V).injury == 4
    assert t.assess_wound("far_thigh", DamageType.LARGE_PIERCING, 4, V).injury == 4
    assert t.assess_wound("near_arm", DamageType.SMALL_PIERCING, 4, V).injury == 2
    assert t.assess_wound("shoulder", CUT, 4, V).injury == 4
    assert t.assess_wound("chest", CUT, 4, V).injury == 6  # torso: the usual x1.5


def test_notes_11_12_hand_crippling_roll_and_keep_hold(t: HitLocationTable) -> None:
    a = t.assess_wound("near_hand", CR, 3, V)
    assert kinds(a) == [RollKind.CRIPPLING, RollKind.KEEP_HOLD]
    assert target(a, RollKind.CRIPPLING) == 11 + 5 - 3
    keep = a.roll_of(RollKind.KEEP_HOLD)
    assert keep is not None and keep.target == 12 and keep.requires_failed is RollKind.CRIPPLING
    # crippling roll made (3), keep-hold skipped
    made = resolve_rolls(a, ScriptedRandom([1, 1, 1]))
    assert [o.roll.kind for o in made] == [RollKind.CRIPPLING]
    assert wound_from(a, made).crippled is None
    # crippling roll failed (16), keep-hold failed (15): crippled and dropped
    failed = resolve_rolls(a, ScriptedRandom([6, 5, 5, 5, 5, 5]))
    assert [o.failed for o in failed] == [True, True]
    w = wound_from(a, failed)
    assert w.crippled is Limb.HAND
    assert {Condition.CRIPPLED, Condition.DROPPED_ITEM} <= w.conditions
    # over HP/3: crippled outright, the DX roll is unconditional
    a = t.assess_wound("near_hand", CR, 6, V)
    assert kinds(a) == [RollKind.KEEP_HOLD] and a.rolls[0].requires_failed is None


def test_crippled_arm_risks_dropping_too(t: HitLocationTable) -> None:
    a = t.assess_wound("near_arm", CR, 7, V)
    assert kinds(a) == [RollKind.KEEP_HOLD, RollKind.KNOCKDOWN]  # 7 injury: a major wound
    assert t.assess_wound("near_thigh", CR, 7, V).roll_of(RollKind.KEEP_HOLD) is None


def test_note_12_fingers(t: HitLocationTable) -> None:
    assert any("fingers" in e.text for e in t.assess_wound("far_hand", CUT, 2, V).effects)
    assert not t.assess_wound("far_hand", CR, 2, V).effects


def test_note_22_standing_rolls(t: HitLocationTable) -> None:
    a = t.assess_wound("far_knee", CR, 5, V)
    assert any("DX every turn" in e.text for e in a.effects)
    assert standing_roll_target(12, acting=False) == 12
    assert standing_roll_target(12, acting=True) == 10


def test_notes_24_25_shin_and_instep_double_stun(t: HitLocationTable) -> None:
    assert t.assess_wound("near_shin", CR, 2, V).shock_penalty == -4
    assert t.assess_wound("near_thigh", CR, 2, V).shock_penalty == -2
    assert t.assess_wound("instep", CR, 3, V).shock_penalty == -6


# --------------------------------------------------------------------------- torso


def test_note_10_armpit(t: HitLocationTable) -> None:
    a = t.assess_wound("armpit", IMP, 5, V, armor_dr=3)
    assert a.effective_armor_dr == 2 and a.injury == 6  # torso wound: impaling x2
    assert kinds(a) == [RollKind.SEVERE_BLEEDING, RollKind.NERVE_DAMAGE]
    assert target(a, RollKind.NERVE_DAMAGE) == 11 + 5 - 6
    assert t.assess_wound("armpit", CUT, 5, V, armor_dr=3, swung=True).effective_armor_dr == 3
    a = t.assess_wound("armpit", IMP, 7, V)  # 14 > HP/2: the arm is crippled, nothing lost
    assert a.crippling is not None and a.crippling.limb is Limb.ARM and a.hp_loss == 14


def test_note_10_armpit_into_the_vitals(t: HitLocationTable) -> None:
    a = t.assess_wound("armpit_vitals", IMP, 4, V, armor_dr=2)
    assert a.effective_armor_dr == 1 and a.location_dr == 0  # past the ribs
    assert a.multiplier == 3 and a.injury == 9
    assert {RollKind.SEVERE_BLEEDING, RollKind.NERVE_DAMAGE, RollKind.HEART} <= set(kinds(a))
    with pytest.raises(IllegalAttackError):
        t.assess_wound("armpit_vitals", CUT, 4, V)
    with pytest.raises(IllegalAttackError):
        t.assess_wound("armpit_vitals", IMP, 4, V, swung=True)


def test_note_14_chest_damage_past_hp_3_goes_to_the_vitals(t: HitLocationTable) -> None:
    a = t.assess_wound("chest", IMP, 7, V)
    # 4 stay in the chest (x2 = 8); 3 go on, the ribs stop 1, 2 x3 = 6.
    assert a.injury == 8 + 6 and a.also_location == "vitals"
    assert RollKind.HEART in kinds(a)
    assert a.shock_penalty == -8  # the vitals double stun
    b = t.assess_wound("chest", IMP, 4, V)
    assert b.injury == 8 and b.also_location is None and kinds(b) == [RollKind.KNOCKDOWN]


def test_notes_15_16_vitals(t: HitLocationTable) -> None:
    a = t.assess_wound("vitals", IMP, 5, V)
    assert (a.location_dr, a.penetrating, a.multiplier, a.injury) == (1, 4, 3, 12)
    assert t.assess_wound("vitals", BULLET, 5, V).injury == 12
    assert t.assess_wound("vitals", CR, 5, V).injury == 8
    assert t.assess_wound("vitals", CUT, 5, V).injury == 8
    a = t.assess_wound("vitals", CR, 3, V)
    assert a.injury == 4 and a.shock_penalty == -8
    assert kinds(a) == [
        RollKind.SEVERE_BLEEDING,
        RollKind.KNOCKOUT,
        RollKind.LUNG,
        RollKind.HEART,
        RollKind.LIVER,
        RollKind.SPLEEN,
    ]
    assert all(r.target == 11 + 5 - 4 for r in a.rolls)
    liver = a.roll_of(RollKind.LIVER)
    assert liver is not None and liver.critical_only
    assert t.assess_wound("vitals", IMP, 3, V).roll_of(RollKind.LIVER) is None


def test_liver_only_shatters_on_a_critical_failure(t: HitLocationTable) -> None:
    a = t.assess_wound("vitals", CR, 3, V)  # all targets 12
    faces = [1, 1, 1] * 2 + [1, 1, 1] + [1, 1, 1] + [5, 5, 4] + [1, 1, 1]  # liver: 14, fails
    out = resolve_rolls(a, ScriptedRandom(faces))
    liver = next(o for o in out if o.roll.kind is RollKind.LIVER)
    assert liver.failed and liver.conditions == frozenset()
    faces = [1, 1, 1] * 4 + [6, 6, 6] + [1, 1, 1]
    out = resolve_rolls(a, ScriptedRandom(faces))
    liver = next(o for o in out if o.roll.kind is RollKind.LIVER)
    assert liver.conditions == {Condition.LIVER_SHATTERED}


def test_note_21_kidneys(t: HitLocationTable) -> None:
    a = t.assess_wound("kidneys", IMP, 4, V)
    assert (a.location_dr, a.injury) == (1, 9)
    assert t.assess_wound("kidneys", CR, 4, V).injury == 6
    assert target(t.assess_wound("kidneys", CR, 4, V), RollKind.SEVERE_BLEEDING) == 10


def test_note_18_abdomen_cavity(t: HitLocationTable) -> None:
    a = t.assess_wound("abdomen", CR, 4, V)  # not over HP/3
    assert a.rolls == () and a.shock_penalty == -4
    a = t.assess_wound("abdomen", CR, 5, V)
    assert kinds(a) == [RollKind.SEVERE_BLEEDING, RollKind.PERFORATION, RollKind.INFECTION]
    assert target(a, RollKind.SEVERE_BLEEDING) == 11
    infection = a.roll_of(RollKind.INFECTION)
    assert infection is not None and infection.target == 6
    assert infection.requires_failed is RollKind.PERFORATION
    assert a.shock_penalty == -8
    # perforation fails (16) -> infection rolled
    out = resolve_rolls(a, ScriptedRandom([1, 1, 1, 6, 5, 5, 6, 6, 6]))
    assert [o.roll.kind for o in out][-1] is RollKind.INFECTION
    assert wound_from(a, out).conditions == {Condition.PERFORATION, Condition.INFECTION}


def test_note_19_pelvis(t: HitLocationTable) -> None:
    a = t.assess_wound("pelvis", CR, 7, V)
    assert a.crippling is not None and a.crippling.limb is Limb.LEG and a.hp_loss == 7
    assert target(a, RollKind.SEVERE_BLEEDING) == 11 + 4 - 7
    assert t.assess_wound("pelvis", IMP, 4, V).crippling is None  # 8 > 6 but impaling


def test_note_20_groin(t: HitLocationTable) -> None:
    a = t.assess_wound("groin", CR, 3, V)
    assert kinds(a) == [RollKind.KNOCKOUT] and target(a, RollKind.KNOCKOUT) == 13
    assert a.shock_penalty == -9
    a = t.assess_wound("groin", CR, 5, V)
    assert Condition.UNCONSCIOUS in a.automatic and a.rolls == ()
    female = Victim(12, 11, male=False)
    a = t.assess_wound("groin", CR, 3, female)
    assert a.rolls == () and not a.automatic and a.shock_penalty == -4  # 3 x1.5
    a = t.assess_wound("groin", IMP, 3, female, armor_dr=2)
    assert a.effective_armor_dr == 1 and kinds(a) == [RollKind.SEVERE_BLEEDING]


def test_note_17_spine(t: HitLocationTable) -> None:
    assert t.assess_wound("abdomen", CR, 1, V, from_back=True).roll_of(RollKind.PARALYSIS) is None
    lodged = t.assess_wound("abdomen", CR, 2, V, from_back=True)
    assert lodged.roll_of(RollKind.PARALYSIS) is None
    assert any("lodges" in e.text for e in lodged.effects)
    a = t.assess_wound("abdomen", CR, 4, V, from_back=True)
    assert target(a, RollKind.PARALYSIS) == 11 + 5 - 2
    spine = a.roll_of(RollKind.PARALYSIS)
    assert spine is not None and spine.on_critical_failure == {Condition.DEAD}
    assert t.assess_wound("abdomen", CR, 4, V).roll_of(RollKind.PARALYSIS) is None
    # from the front only impaling or bullet wounds within 3 of HP
    assert t.assess_wound("abdomen", IMP, 8, V).roll_of(RollKind.PARALYSIS) is None
    assert target(t.assess_wound("abdomen", IMP, 9, V), RollKind.PARALYSIS) == 11 + 5 - 7
    assert (
        t.assess_wound("chest", IMP, 9, V, from_back=True).roll_of(RollKind.PARALYSIS) is not None
    )


# --------------------------------------------------------------------------- pain, rolls


def test_pain_thresholds_halve_and_double_stun(t: HitLocationTable) -> None:
    high = Victim(12, 11, pain=PainThreshold.HIGH)
    low = Victim(12, 11, pain=PainThreshold.LOW)
    assert t.assess_wound("chest", CR, 3, V).shock_penalty == -3
    assert t.assess_wound("chest", CR, 3, high).shock_penalty == -1
    assert t.assess_wound("chest", CR, 3, low).shock_penalty == -6
    assert t.assess_wound("vitals", CR, 3, high).shock_penalty == -4
    a = t.assess_wound("nose", CR, 4, low)
    assert a.shock_penalty == -8
    assert a.explanation[-1].citation == cite("000", "HIGH AND LOW PAIN THRESHOLD")


def test_base_multipliers_come_from_the_ruleset_or_the_caller(t: HitLocationTable) -> None:
    assert t.assess_wound("chest", IMP, 3, V).injury == 6
    assert t.assess_wound("chest", IMP, 3, V, base_multiplier=Fraction(3)).injury == 9


def test_resolve_rolls_outcomes_and_wound(t: HitLocationTable) -> None:
    a = t.assess_wound("neck", CUT, 4, V)  # suffocation 8, bleeding 8, knockdown 11
    out = resolve_rolls(a, ScriptedRandom([2, 2, 2, 6, 6, 6, 2, 2, 2]))
    assert [o.total for o in out] == [6, 18, 6]
    assert not out[0].failed and out[1].failed and out[1].margin == -10
    w = wound_from(a, out)
    assert w.location == "neck" and w.injury == 6 and w.bleeding
    assert not w.knocked_out and not w.stunned and not w.dead
    assert cite("000", "RANDOM BODY HIT note 6") in w.citations
    assert "severe bleeding" in str(out[1])


def test_resolve_rolls_with_a_seeded_rng_is_reproducible(t: HitLocationTable) -> None:
    a = t.assess_wound("vitals", CR, 6, V)
    first = resolve_rolls(a, random.Random(7))
    again = resolve_rolls(a, random.Random(7))
    assert first == again
    for o in first:
        assert o.total == sum(o.dice) and len(o.dice) == 3


def test_unknown_location_and_bad_numbers(t: HitLocationTable) -> None:
    with pytest.raises(IllegalAttackError):
        t.assess_wound("tail", CR, 3, V)
    with pytest.raises(RulesError):
        t.assess_wound("chest", CR, -1, V)
    with pytest.raises(RulesError):
        Victim(hp=0, ht=10)
    with pytest.raises(IllegalAttackError):
        t.assess_wound("chest", IMP, 3, V, chink=True)


def test_victim_of_a_fighter() -> None:
    f = seed000_fighter("Ana", attributes=Attributes(st=11, dx=13, iq=10, ht=12), hit_points=14)
    v = Victim.of(f, pain=PainThreshold.HIGH)
    assert (v.hp, v.ht, v.dx, v.pain) == (14, 12, 13, PainThreshold.HIGH)


def test_every_wound_step_is_cited(t: HitLocationTable) -> None:
    for key in t.locations:
        a = t.assess_wound(key, IMP, 9, V)
        assert a.citations
        for s in a.explanation:
            assert s.citation.seed in ("000", "base"), (key, s)


def test_thresholds_parse() -> None:
    assert str(parse_threshold("HP/3", True, "x")) == "over HP/3"
    assert str(parse_threshold("HP", False, "x")) == "at least HP"
    assert parse_threshold(2, True, "x").reached(3, 99)
    with pytest.raises(DataError):
        parse_threshold("HT/2", True, "x")
    with pytest.raises(DataError):
        parse_wound_spec({"cripple": {"limb": "tail", "divisor": 2, "excess_lost": True}}, "w")
