"""Stances, pain thresholds, acrobatic dodges, defended body areas and fencing
parries: the smaller fighter-level rules of seed 000.

* 000 REFUSED VS. OPEN STANCES: ``stance_for`` / ``stance_ruling``, the battle's
  ``combatant_stance`` and, for the hit location code, ``stance_geometry`` (which
  side of the body is near) and ``stance_modifier`` (the stance named in the plan).
* 000 HIGH AND LOW PAIN THRESHOLD: ``PainThreshold`` and ``scale_stun_penalty``.
* 000 ACROBATIC DODGE: ``acrobatic_dodge`` and its exact odds.
* 000 DEFENDING A SPECIFIC BODY AREA: ``BodyArea``, ``location_area`` and
  ``defended_area_modifier``.
* 000 FENCING PARRIES: ``fencing_parry_allowed`` and ``free_parries_per_turn``.

Everything is pure; dice come from the ``DiceSource`` passed in.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Literal

from hexmap import Handedness
from rules.battle.model import Combatant, Fighter, ShieldSize, Weapon, WeaponKind
from rules.core.citation import Citation, cite
from rules.core.dice import DiceSource
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier
from rules.sets.seed000.checks import RollKind, SuccessRoll, success_probability, success_roll
from rules.sets.seed000.conditions import ConditionError
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import PainThreshold as PainThreshold  # re-exported
from rules.sets.seed000.sheet import sheet_of

STANCE_CITATION = cite("000", "REFUSED VS. OPEN STANCES")
PAIN_CITATION = cite("000", "HIGH AND LOW PAIN THRESHOLD")
ACROBATIC_CITATION = cite("000", "ACROBATIC DODGE")
BODY_AREA_CITATION = cite("000", "DEFENDING A SPECIFIC BODY AREA")
FENCING_CITATION = cite("000", "FENCING PARRIES")

# ------------------------------------------------------------------- stances


class Stance(Enum):
    REFUSED = "refused"  # body turned sideways: one side nearer the foe
    OPEN = "open"  # both sides about equally near

    @property
    def sides_differ(self) -> bool:
        """Whether the hit location table's near/far limbs differ (see ``stance_geometry``)."""
        return self is Stance.REFUSED


class BodySide(Enum):
    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> BodySide:
        return BodySide.RIGHT if self is BodySide.LEFT else BodySide.LEFT


def weapon_side(handedness: Handedness) -> BodySide:
    """The side of the weapon hand (``Handedness`` names the hand holding the weapon)."""
    return BodySide.RIGHT if handedness is Handedness.RIGHT else BodySide.LEFT


@dataclass(frozen=True, slots=True)
class StanceRuling:
    stance: Stance
    reason: str
    citation: Citation = STANCE_CITATION


@dataclass(frozen=True, slots=True)
class StanceGeometry:
    """What a stance means for 000's random hit location table.

    The table names limbs "weapon (near)" and "shield (far)" and gives far limbs
    two penalties, e.g. far arm -4(-2). In a REFUSED stance the weapon side is near
    and the shield/off side far: far limbs take the first (larger) penalty and the
    near/far rows are read as they stand. In an OPEN stance neither side is nearer
    (the table's note 9): far limbs take the bracketed penalty, the same as the near
    limb, and which side a limb roll hits is rolled at random (``near_side`` None).
    """

    stance: Stance
    near_side: BodySide | None
    far_side: BodySide | None

    @property
    def sides_differ(self) -> bool:
        return self.stance.sides_differ


def stance_geometry(stance: Stance, handedness: Handedness) -> StanceGeometry:
    if stance is Stance.REFUSED:
        near = weapon_side(handedness)
        return StanceGeometry(stance, near, near.other)
    return StanceGeometry(stance, None, None)


FENCING_WEAPON_KINDS = frozenset({WeaponKind.RAPIER, WeaponKind.SABER, WeaponKind.FOIL})
_LONG_MISSILE_KINDS = frozenset({WeaponKind.BOW, WeaponKind.CROSSBOW})
_SWORD_KINDS = frozenset({WeaponKind.SWORD, WeaponKind.TWO_HEX_SWORD})
_OPEN_LISTED_KINDS = {
    WeaponKind.AXE: "axe/mace fighting",
    WeaponKind.MACE: "axe/mace fighting",
    WeaponKind.KNIFE: "knife fighting",
    WeaponKind.MAIN_GAUCHE: "knife fighting",
    WeaponKind.UNARMED: "wrestling and unarmed fighting",
}
_LONG_GUN_WORDS = ("rifle", "shotgun", "musket", "long")


def _is_fencing(weapon: Weapon) -> bool:
    return weapon.kind in FENCING_WEAPON_KINDS or weapon.skill.strip().lower() == "fencing"


def stance_ruling(
    fighter: Fighter,
    weapon: Weapon | None,
    *,
    moving: bool,
    off_hand_weapon: Weapon | None = None,
) -> StanceRuling:
    """The stance of a fighter using ``weapon`` (None: unarmed), with the reason.

    ``off_hand_weapon`` is a second weapon wielded at the same time (two-weapon
    fighting); a carried spare is not one. The first matching rule wins:

    1. walking or running: open;
    2. bow, crossbow, long gun: refused; pistol or other short gun: open;
    3. two weapons at once (fencing or not): open;
    4. fencing weapon: with a buckler open, alone refused (with a bigger shield it
       is a weapon-and-shield combination: refused);
    5. a one-handed weapon with a shield: refused;
    6. sword without shield: refused;
    7. axe/mace, knife, unarmed/wrestling: open;
    8. anything else uses either stance; the seed says to treat it as open.
    """
    if moving:
        return StanceRuling(Stance.OPEN, "walking or running")
    if weapon is None:
        return StanceRuling(Stance.OPEN, "wrestling and unarmed fighting")
    if weapon.kind in _LONG_MISSILE_KINDS:
        return StanceRuling(Stance.REFUSED, f"shooting a {weapon.kind.value}")
    if weapon.kind is WeaponKind.GUN:
        skill = weapon.skill.lower()
        is_long = "pistol" not in skill and (
            any(w in skill for w in _LONG_GUN_WORDS) or weapon.two_handed
        )
        if is_long:
            return StanceRuling(Stance.REFUSED, "shooting a long gun")
        return StanceRuling(Stance.OPEN, "shooting a pistol or other short gun")
    if off_hand_weapon is not None:
        if _is_fencing(weapon):
            return StanceRuling(Stance.OPEN, "fencing with two weapons")
        return StanceRuling(Stance.OPEN, "fighting with two weapons")
    shield = fighter.shield
    if _is_fencing(weapon):
        if shield is None:
            return StanceRuling(Stance.REFUSED, "fencing with one weapon")
        if shield.size is ShieldSize.BUCKLER:
            return StanceRuling(Stance.OPEN, "fencing with a buckler")
    if shield is not None and not weapon.two_handed and weapon.kind is not WeaponKind.UNARMED:
        return StanceRuling(Stance.REFUSED, "weapon and shield")
    if weapon.kind in _SWORD_KINDS:
        return StanceRuling(Stance.REFUSED, "sword without shield")
    if weapon.kind in _OPEN_LISTED_KINDS:
        return StanceRuling(Stance.OPEN, _OPEN_LISTED_KINDS[weapon.kind])
    return StanceRuling(Stance.OPEN, "either stance, treated as open")


def combatant_stance(c: Combatant) -> StanceRuling:
    """The stance ``c`` stands in, from what the battle knows of it: its first
    weapon other than bare hands (none: unarmed); a second one-handed weapon, with
    no shield, is wielded with it (every weapon on a fighter's sheet is in hand);
    more than one hex entered on its latest turn is walking or running."""
    f = c.fighter
    moving = len(c.path_this_turn) > 2  # the start hex, then more than one step
    # Asked by every aim and random location: the sheet's answer, found again by
    # its identity (each entry holds the sheet, so that its id is not reused).
    key = (id(f), moving)
    found = _KNOWN_STANCES.get(key)
    if found is not None and found[0] is f:
        return found[1]
    held = [w for w in f.weapons if w.kind is not WeaponKind.UNARMED]
    weapon = held[0] if held else None
    off_hand = None
    if weapon is not None and not weapon.two_handed and f.shield is None:
        off_hand = next((w for w in held[1:] if not w.two_handed), None)
    ruling = stance_ruling(f, weapon, moving=moving, off_hand_weapon=off_hand)
    if len(_KNOWN_STANCES) >= _KNOWN_STANCES_KEPT:
        _KNOWN_STANCES.clear()
    _KNOWN_STANCES[key] = (f, ruling)
    return ruling


_KNOWN_STANCES: dict[tuple[int, bool], tuple[Fighter, StanceRuling]] = {}
_KNOWN_STANCES_KEPT = 512


def stance_modifier(c: Combatant, ruling: StanceRuling) -> Modifier:
    """The stance, named among an attack's modifiers (it changes no number itself:
    it decides which of the table's two far-limb penalties applies and whether a
    random limb hit's side is rolled)."""
    sides = "near and far limbs differ" if ruling.stance.sides_differ else "no side is nearer"
    return Modifier(
        0, f"{c.name} stands {ruling.stance.value} ({ruling.reason}): {sides}", ruling.citation
    )


def stance_for(
    fighter: Fighter,
    weapon: Weapon | None,
    *,
    moving: bool,
    off_hand_weapon: Weapon | None = None,
) -> Stance:
    return stance_ruling(fighter, weapon, moving=moving, off_hand_weapon=off_hand_weapon).stance


# ------------------------------------------------------------ pain threshold


def scale_stun_penalty(penalty: int, threshold: PainThreshold) -> int:
    """A stun or pain penalty after the fighter's pain threshold.

    High halves it, rounding toward zero (-3 becomes -1: the advantage is never
    worth less than the plain halving); low doubles it. Works for penalties given
    as negative numbers or as positive magnitudes alike.
    """
    if threshold is PainThreshold.HIGH:
        return -(-penalty // 2) if penalty < 0 else penalty // 2
    if threshold is PainThreshold.LOW:
        return penalty * 2
    return penalty


# ------------------------------------------------------------ acrobatic dodge

ACROBATIC_SUCCESS_BONUS = 2
ACROBATIC_FAILURE_PENALTY = -4
DODGE_CAP = 16


@dataclass(frozen=True, slots=True)
class AcrobaticResult:
    """The Acrobatics roll of a fancy dodge and the dodge modifier it earned."""

    roll: SuccessRoll
    modifier: Modifier  # +2 on success, -4 on failure, before the cap of 16

    @property
    def succeeded(self) -> bool:
        return self.roll.succeeded

    def dodge_modifier(self, dodge: int) -> Modifier:
        """The modifier as applied to a dodge score of ``dodge``: the +2 cannot lift
        the dodge above 16 (a dodge already at 16 or more gains nothing); the -4
        always applies in full."""
        return _capped(self.modifier, dodge)


def _capped(modifier: Modifier, dodge: int) -> Modifier:
    if modifier.value <= 0:
        return modifier
    value = max(0, min(modifier.value, DODGE_CAP - dodge))
    if value == modifier.value:
        return modifier
    return Modifier(value, f"{modifier.reason}, capped at dodge {DODGE_CAP}", modifier.citation)


def acrobatics_skill_of(fighter: Fighter) -> int | None:
    """The fighter's Acrobatics skill; None without it (it has no default here,
    unlike ``Sheet000.skill``)."""
    return sheet_of(fighter).skills.get("Acrobatics")


def acrobatic_dodge(
    acrobatics_skill: int | None,
    rng: DiceSource,
    *,
    used_this_turn: bool = False,
    what: str | None = None,
) -> AcrobaticResult:
    """Roll an acrobatic dodge (at most once per turn; no default skill). ``what``
    names the roll for dice entered at the table."""
    if acrobatics_skill is None:
        raise IllegalAttackError("an acrobatic dodge needs the Acrobatics skill (no default)")
    if used_this_turn:
        raise IllegalAttackError("only one acrobatic dodge is allowed per turn")
    rolled = success_roll(acrobatics_skill, rng, what=what)
    if rolled.succeeded:
        modifier = Modifier(
            ACROBATIC_SUCCESS_BONUS, "acrobatic dodge succeeded", ACROBATIC_CITATION
        )
    else:
        modifier = Modifier(ACROBATIC_FAILURE_PENALTY, "acrobatic dodge failed", ACROBATIC_CITATION)
    return AcrobaticResult(rolled, modifier)


def acrobatic_success_probability(acrobatics_skill: int) -> Fraction:
    """Exact chance that the Acrobatics roll succeeds (3d6 enumerated)."""
    return success_probability(acrobatics_skill)


def acrobatic_expected_modifier(acrobatics_skill: int) -> Fraction:
    """Mean dodge modifier of trying (before the cap): 2p - 4(1 - p)."""
    p = acrobatic_success_probability(acrobatics_skill)
    return ACROBATIC_SUCCESS_BONUS * p + ACROBATIC_FAILURE_PENALTY * (1 - p)


def dodge_probability_with_acrobatics(dodge: int, acrobatics_skill: int) -> Fraction:
    """Exact chance that a dodge roll against ``dodge`` succeeds when an acrobatic
    dodge is tried first, the +2 capped at 16. Compare with
    ``rules.sets.seed000.checks.success_probability(dodge, RollKind.DEFENSE)`` for no attempt."""
    p = acrobatic_success_probability(acrobatics_skill)
    bonus = max(0, min(ACROBATIC_SUCCESS_BONUS, DODGE_CAP - dodge))
    up = success_probability(dodge + bonus, RollKind.DEFENSE)
    down = success_probability(dodge + ACROBATIC_FAILURE_PENALTY, RollKind.DEFENSE)
    return p * up + (1 - p) * down


# ------------------------------------------------------- defended body area


class BodyArea(Enum):
    """The body areas a defender may guard for a turn (000 DEFENDING A SPECIFIC
    BODY AREA)."""

    HEAD = "head"
    LEFT_ARM = "left_arm"
    RIGHT_ARM = "right_arm"
    LEFT_LEG = "left_leg"
    RIGHT_LEG = "right_leg"
    ABDOMEN = "abdomen"
    CHEST = "chest"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


DEFENDED_AREA_BONUS = 2
DEFENDED_FOOT_BONUS = 1  # "the feet - but at a penalty": +1 instead of +2
OTHER_AREA_PENALTY = -1
UNAIMED_LOCATION = "torso"  # rules.sets.seed000.locations: an unaimed blow goes to the torso

# Hit location keys: snake_case names of seed 000's hit location rows, plus the
# base rules' "torso" (the unaimed target, which is the seed's chest and abdomen).
_HEAD_KEYS = frozenset(
    {
        "head",
        "brain",
        "face",
        "jaw",
        "eyes",
        "eye",
        "eye_slits",
        "eyes_eyeslits",
        "nose",
        "ear",
        "ears",
        "neck",
    }
)
_CHEST_KEYS = frozenset(
    {"chest", "vitals", "shoulder", "shoulders", "armpit", "armpit_to_vitals", "armpit_vitals"}
)
_ABDOMEN_KEYS = frozenset({"abdomen", "pelvis", "groin"})
_TORSO_KEYS = frozenset({"torso"})  # covered by guarding the chest or the abdomen
_UNDEFENDABLE_KEYS = frozenset({"kidneys"})  # a body location no area covers
_NOT_BODY_KEYS = frozenset({"weapon"})  # strikes at weapons: no body area involved
_ARM_PARTS = frozenset({"arm", "elbow", "hand"})
_LEG_PARTS = frozenset({"leg", "thigh", "shin", "knee", "foot", "instep"})
_FOOT_PARTS = frozenset({"foot", "instep"})
_SIDE_WORDS = ("left", "right", "near", "far", "weapon", "shield")


_SINGLE_AREA = {
    **dict.fromkeys(_HEAD_KEYS, BodyArea.HEAD),
    **dict.fromkeys(_CHEST_KEYS, BodyArea.CHEST),
    **dict.fromkeys(_ABDOMEN_KEYS, BodyArea.ABDOMEN),
}


def _normalise(key: str) -> str:
    return "_".join(key.strip().lower().replace("-", " ").replace("_", " ").split())


def _limb_keys() -> frozenset[str]:
    parts = _ARM_PARTS | _LEG_PARTS
    return frozenset(parts | {f"{s}_{p}" for s in _SIDE_WORDS for p in parts})


LOCATION_KEYS = (
    _HEAD_KEYS
    | _CHEST_KEYS
    | _ABDOMEN_KEYS
    | _TORSO_KEYS
    | _UNDEFENDABLE_KEYS
    | _NOT_BODY_KEYS
    | _limb_keys()
)
"""Every hit location key the body-area rule understands (case, spaces and hyphens
are normalised: "Shield Hand" is "shield_hand"). Limbs are ``<side>_<part>``:
side left/right, near/weapon (the weapon hand's side) or far/shield (the other
side); the seed's "far leg knee" word order is accepted too. A bare part ("hand",
"leg", "instep") is the near one, as in the seed's table where the unsided rows
are the weapon side's."""


@dataclass(frozen=True, slots=True)
class _Resolved:
    areas: frozenset[BodyArea]
    foot: bool
    body: bool


def _resolve(location_key: str, handedness: Handedness) -> _Resolved:
    key = _normalise(location_key)
    if key in _SINGLE_AREA:
        return _Resolved(frozenset({_SINGLE_AREA[key]}), False, True)
    if key in _TORSO_KEYS:
        return _Resolved(frozenset({BodyArea.CHEST, BodyArea.ABDOMEN}), False, True)
    if key in _UNDEFENDABLE_KEYS:
        return _Resolved(frozenset(), False, True)
    if key in _NOT_BODY_KEYS:
        return _Resolved(frozenset(), False, False)
    side_word, _, part = key.partition("_")
    if not part:  # a bare part: the near side
        side_word, part = "near", side_word
    # The seed's own wording puts the limb first: "far leg knee", "shield arm elbow".
    if part.startswith("leg_") and part.removeprefix("leg_") in _LEG_PARTS:
        part = part.removeprefix("leg_")
    elif part.startswith("arm_") and part.removeprefix("arm_") in _ARM_PARTS:
        part = part.removeprefix("arm_")
    if side_word in _SIDE_WORDS and (part in _ARM_PARTS or part in _LEG_PARTS):
        if side_word in ("left", "right"):
            side = BodySide(side_word)
        elif side_word in ("near", "weapon"):
            side = weapon_side(handedness)
        else:
            side = weapon_side(handedness).other
        if part in _ARM_PARTS:
            area = BodyArea.LEFT_ARM if side is BodySide.LEFT else BodyArea.RIGHT_ARM
        else:
            area = BodyArea.LEFT_LEG if side is BodySide.LEFT else BodyArea.RIGHT_LEG
        return _Resolved(frozenset({area}), part in _FOOT_PARTS, True)
    raise ConditionError(
        f"unknown hit location {location_key!r}; limbs are written like 'near_arm' or "
        "'left_knee', see rules.sets.seed000.stances.LOCATION_KEYS"
    )


def areas_covering(
    location_key: str, *, handedness: Handedness = Handedness.RIGHT
) -> frozenset[BodyArea]:
    """The guardable areas that protect a hit location: usually one; both chest and
    abdomen for the unaimed "torso"; none for the kidneys (the seed leaves them out
    of the abdomen) and for a strike at a weapon. Near/far limbs are placed with the
    defender's ``handedness`` (the weapon hand's side is near). Unknown keys raise
    ``ConditionError``."""
    return _resolve(location_key, handedness).areas


def locations_covered(
    area: BodyArea, *, handedness: Handedness = Handedness.RIGHT
) -> frozenset[str]:
    """Every key of ``LOCATION_KEYS`` that guarding ``area`` protects."""
    return frozenset(k for k in LOCATION_KEYS if area in _resolve(k, handedness).areas)


def defended_area_modifier(
    area: BodyArea | None,
    location_key: str | None,
    defense: DefenseKind | Literal["block", "parry", "dodge"],
    *,
    handedness: Handedness = Handedness.RIGHT,
) -> Modifier | None:
    """Block or parry modifier for a defender guarding one body area this turn.

    +2 when the blow is aimed at a location of the guarded area (+1 for the foot or
    instep of a guarded leg: the seed allows the feet "at a penalty"), -1 for any
    other body location, the kidneys included. ``location_key`` None is an unaimed
    blow, which goes to the torso (as in ``rules.sets.seed000.locations``): guarding the chest or
    the abdomen covers it. Returns None when no area is guarded, for a dodge (the
    rule is for block and parry only) and for a strike at a weapon.
    ``handedness`` is the defender's, to place near/far limbs.
    """
    kind = defense.value if isinstance(defense, DefenseKind) else defense
    if kind not in ("block", "parry", "dodge"):
        raise ConditionError(f"unknown defense {defense!r}")
    if area is None or kind == "dodge":
        return None
    key = UNAIMED_LOCATION if location_key is None else location_key
    resolved = _resolve(key, handedness)
    if not resolved.body:
        return None
    where = _normalise(key).replace("_", " ")
    if area in resolved.areas:
        if resolved.foot:
            reason = f"guarding the {area.label}; the {where} only at a penalty"
            return Modifier(DEFENDED_FOOT_BONUS, reason, BODY_AREA_CITATION)
        return Modifier(DEFENDED_AREA_BONUS, f"guarding the {area.label}", BODY_AREA_CITATION)
    reason = f"guarding the {area.label}, not the {where}"
    return Modifier(OTHER_AREA_PENALTY, reason, BODY_AREA_CITATION)


# ----------------------------------------------------------- fencing parries

FENCING_SHIELD_SIZES = frozenset({ShieldSize.BUCKLER, ShieldSize.SMALL, ShieldSize.CLOAK})
FENCING_MAX_ENCUMBRANCE = 1  # light
FENCING_FREE_PARRIES = 2
FENCING_FREE_PARRIES_ALL_OUT = 4


def has_fencing_skill(fighter: Fighter) -> bool:
    sheet = sheet_of(fighter)
    return sheet.fencing or "Fencing" in sheet.skills


def fencing_parry_allowed(fighter: Fighter, weapon: Weapon) -> bool:
    """Whether ``weapon`` parries by the fencing rules (parry = skill, two free
    parries a turn): the fighter has Fencing, no shield bigger than small, no more
    than light encumbrance, and the weapon is a fencing blade (rapier, saber, foil)
    or a main-gauche carried beside one."""
    if not has_fencing_skill(fighter):
        return False
    if fighter.shield is not None and fighter.shield.size not in FENCING_SHIELD_SIZES:
        return False
    if sheet_of(fighter).encumbrance > FENCING_MAX_ENCUMBRANCE:
        return False
    if weapon.kind in FENCING_WEAPON_KINDS:
        return True
    if weapon.kind is WeaponKind.MAIN_GAUCHE:
        return any(w.kind in FENCING_WEAPON_KINDS for w in fighter.weapons)
    return False


def free_parries_per_turn(all_out_defense: bool) -> int:
    """Fencing parries a turn without the cumulative penalty."""
    return FENCING_FREE_PARRIES_ALL_OUT if all_out_defense else FENCING_FREE_PARRIES
