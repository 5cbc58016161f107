"""What wounds do to a fighter in the battle, after the blow that made them.

Seed 000 names the stun (shock) penalty, crippled limbs and spinal paralysis but
takes their use in a fight from the base rules of its 3d6 family. In our words:

* **Shock** (base rules; 000 HIGH AND LOW PAIN THRESHOLD halves or doubles it, the
  table's notes 7, 16, 18, 20, 24 and 25 multiply it where they say): injury costs
  -1 per HP lost, at most -4, to DX and the skills based on it - the fighter's
  attacks and its note 22 roll to stay up - on its *next* turn only. Wounds before
  that turn add up, to at most -4 (scaled by the pain threshold) unless one wound
  alone was worse. ``store_shock`` keeps it in ``Seed000Tracks.shock_next`` (a
  located wound's, ``kept_shock``, in the same copy as the wound);
  ``begin_shock`` makes it the current turn's (``shock``) when the fighter's next
  turn begins; ``end_shock`` clears it when that turn ends.
* **Major wound** (base rules): a single wound of more than half the HP calls for an
  HT roll (``wound_effects.major_wound_roll``); failure stuns and knocks down. The
  fall comes at once (``wounded_now``).
* **Stunned** (base rules): -4 to every active defense (``wound_defense_modifiers``);
  the recovery roll is ``rules.sets.seed000.turn``'s.
* **Crippled limbs**: a crippled leg or foot drops the fighter at once (base rules;
  note 22's roll to stay up comes once it stands again). A crippled weapon arm
  cannot wield: what it holds was dropped on a failed note 12 roll, or cannot be
  used to attack or parry (base rules); a crippled hand that kept hold attacks at
  -6 (note 12) and cannot parry with it. The weapon hand holds the sheet's first
  weapon, the other hand the rest; a two-handed weapon needs both.
* **Spinal paralysis** (note 17): the fighter falls and its Move is 0; paralysed
  from the neck down (a neck or brain wound), it can neither attack nor make an
  active defense.
* **Out of the fight** (``fighter_condition``, base rules on injury,
  unconsciousness and death): the unconscious and the dead, whatever put them
  there (a head, brain or groin knockout, a failed HT roll at 0 HP or below, a
  failed death roll), and a fighter paralysed from the neck down (note 17). The
  battle makes each fall and let go (rules.battle.falls); a stunned fighter is
  still in the fight.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from rules.battle.condition import ABLE, Down, FighterCondition, down_as
from rules.battle.hands import hands_of
from rules.battle.model import Combatant, Posture, Status, Weapon, WeaponKind
from rules.battle.movement import apply_fall
from rules.core.citation import BASE_INJURY, Citation
from rules.core.events import CombatantEvent, Event
from rules.core.modifiers import Modifier
from rules.core.quick_init import quick_init
from rules.sets.seed000.damage import DamageResult
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import sheet_of
from rules.sets.seed000.stances import BodySide, PainThreshold, scale_stun_penalty, weapon_side
from rules.sets.seed000.tracks import Seed000Tracks, tracks_of, with_tracks, wounds_of
from rules.sets.seed000.wound_effects import (
    BASE_MAJOR_WOUND,
    BASE_SHOCK,
    SHOCK_CAP,
    Condition,
    Limb,
    RollOutcome,
    Wound,
    WoundAssessment,
    note_000,
    shock_000,
)

BASE_STUNNED = Citation("base", "stunning: -4 to active defenses until recovered")
BASE_CRIPPLED_LEG = Citation("base", "crippled leg or foot: the fighter falls")
BASE_CRIPPLED_ARM = Citation("base", "crippled arm: it cannot wield a weapon")
NOTE_12 = note_000(12)
NOTE_17 = note_000(17)
STUNNED_DEFENSE_PENALTY = -4
CRIPPLED_HAND_PENALTY = -6  # 000 RANDOM BODY HIT note 12
# Spine wounds at these locations paralyse the whole body below the neck (note 17);
# lower ones, the legs.
NECK_LEVEL = frozenset({"neck", "brain"})
ON_THE_GROUND = frozenset({Posture.PRONE, Posture.CRAWLING})  # a fall changes nothing


# --- events ------------------------------------------------------------------------------


@quick_init
@dataclass(frozen=True, kw_only=True)
class ShockTaken(CombatantEvent):
    """A wound's shock, kept for the victim's next turn (``total``: with the shock
    of its earlier wounds since its last turn)."""

    penalty: int
    total: int

    def describe(self) -> str:
        more = "" if self.total == self.penalty else f" ({self.total} in all)"
        return (
            f"{self.name} is in shock: {self.penalty}{more} to DX and DX-based skills "
            "on its next turn"
        )


@dataclass(frozen=True, kw_only=True)
class ShockFelt(CombatantEvent):
    """The fighter's turn begins in shock: its penalty this turn."""

    penalty: int

    def describe(self) -> str:
        return f"{self.name} fights in shock this turn: {self.penalty} to DX and DX-based skills"


@dataclass(frozen=True, kw_only=True)
class KnockdownRolled(CombatantEvent):
    """A major wound's HT roll against knockdown and stun (a blow without a hit
    location; a located wound lists it among its own rolls)."""

    outcome: RollOutcome

    def describe(self) -> str:
        o = self.outcome
        faces = "+".join(str(d) for d in o.dice)
        result = "stunned and knocked down" if o.failed else "stays up"
        rolled = f"rolled {faces} = {o.total} vs {o.roll.target}"
        return f"{self.name}: {o.roll.reason}: {rolled} - {result}"


# --- shock ---------------------------------------------------------------------------------


def shock_limit(pain: PainThreshold) -> int:
    """The most shock wounds add up to: -4, halved or doubled by the pain threshold."""
    return scale_stun_penalty(-SHOCK_CAP, pain)


def combined_shock(kept: int, new: int, pain: PainThreshold) -> int:
    """Shock of several wounds before the fighter's turn: their sum, at most the
    limit - unless one wound alone was worse (a nose or vitals wound's doubled
    stun), which is then the most."""
    return max(kept + new, min(kept, new, shock_limit(pain)))


@quick_init
@dataclass(frozen=True, slots=True)
class ShockKept:
    """A wound's shock ``penalty`` kept for the victim's next turn (``total``: with
    the shock of its earlier wounds since its last turn); ``event``: the log's."""

    combatant_id: str
    name: str
    penalty: int
    total: int

    def event(self) -> ShockTaken:
        return ShockTaken(
            citation=BASE_SHOCK,
            combatant_id=self.combatant_id,
            name=self.name,
            penalty=self.penalty,
            total=self.total,
        )


@quick_init
@dataclass(frozen=True, slots=True)
class WoundedNow:
    """What a blow's injury did at once to the one struck (``wounded_now``): its
    major wound's knockdown roll, the shock kept, the fall (the battle's event);
    ``events``: the log's, in that order."""

    combatant_id: str
    name: str
    knockdown: RollOutcome | None = None
    shock: tuple[ShockKept, ...] = ()
    fell: Event | None = None

    def events(self) -> tuple[Event, ...]:
        events: list[Event] = []
        if self.knockdown is not None:
            events.append(
                KnockdownRolled(
                    citation=BASE_MAJOR_WOUND,
                    combatant_id=self.combatant_id,
                    name=self.name,
                    outcome=self.knockdown,
                )
            )
        events.extend(s.event() for s in self.shock)
        if self.fell is not None:
            events.append(self.fell)
        return tuple(events)


def store_shock(c: Combatant, penalty: int) -> tuple[Combatant, tuple[ShockKept, ...]]:
    """A wound's shock ``penalty`` (0 or negative) kept for the victim's next turn."""
    tracks, kept = kept_shock(c, tracks_of(c), c.status, penalty)
    return (with_tracks(c, tracks), kept) if kept else (c, ())


def kept_shock(
    c: Combatant, tracks: Seed000Tracks, status: Status, penalty: int
) -> tuple[Seed000Tracks, tuple[ShockKept, ...]]:
    """``tracks`` with a wound's shock ``penalty`` kept for ``c``'s next turn, and
    its record; as they are when there is none, or ``status`` (after the blow) is
    dead. For a caller that makes the wound and its shock in one copy of ``c``."""
    if penalty >= 0 or status is Status.DEAD:
        return tracks, ()
    total = combined_shock(tracks.shock_next, penalty, sheet_of(c).pain_threshold)
    return replace(tracks, shock_next=total), (ShockKept(c.id, c.name, penalty, total),)


def begin_shock(c: Combatant) -> Combatant:
    """The fighter's turn begins: the shock kept for it becomes this turn's."""
    tracks = tracks_of(c)
    if not (tracks.shock or tracks.shock_next):
        return c
    return with_tracks(c, replace(tracks, shock=tracks.shock_next, shock_next=0))


def end_shock(c: Combatant) -> Combatant:
    """The fighter's turn ends, and its shock with it."""
    tracks = tracks_of(c)
    return c if not tracks.shock else with_tracks(c, replace(tracks, shock=0))


def shock_felt(c: Combatant) -> tuple[Event, ...]:
    """The log's note that the fighter's turn is one in shock (none without)."""
    penalty = tracks_of(c).shock
    if not penalty or not c.status.can_defend:
        return ()
    return (ShockFelt(citation=BASE_SHOCK, combatant_id=c.id, name=c.name, penalty=penalty),)


# --- after a blow ----------------------------------------------------------------------


def after_blow(
    before: Combatant, after: Combatant, damage: DamageResult
) -> tuple[Combatant, WoundedNow]:
    """``wounded_now`` for a blow without a hit location: its shock from its
    injury (the pain threshold applied) and its major wound's knockdown roll."""
    shock, _ = shock_000(damage.injury, Fraction(1), sheet_of(before).pain_threshold)
    return wounded_now(before, after, shock=shock, knockdown=damage.knockdown)


def after_wound(
    before: Combatant,
    after: Combatant,
    assessment: WoundAssessment,
    wound: Wound,
    *,
    shock_kept: tuple[ShockKept, ...] | None = None,
) -> tuple[Combatant, WoundedNow]:
    """``wounded_now`` for a located wound: the shock its location gave it (the
    table's stun multipliers, the pain threshold), the falls its conditions call for.
    ``shock_kept``: ``after`` already keeps that shock (``kept_shock``), with these
    events."""
    return wounded_now(
        before, after, shock=assessment.shock_penalty, wound=wound, shock_kept=shock_kept
    )


def wounded_now(
    before: Combatant,
    after: Combatant,
    *,
    shock: int,
    wound: Wound | None = None,
    knockdown: RollOutcome | None = None,
    shock_kept: tuple[ShockKept, ...] | None = None,
) -> tuple[Combatant, WoundedNow]:
    """What a blow's injury does at once to the one struck (``before``: as the blow
    found him; ``after``: with its injury, state and wound): its ``shock`` kept for
    his next turn; a failed ``knockdown`` roll of a blow without a location, or a
    wound that knocks down, cripples a leg or foot or paralyses, drops him if the
    blow found him on his feet (a paralysis also takes his Move). With
    ``shock_kept``, ``after`` already keeps the shock (``kept_shock``) and these are
    its events: ``shock`` is not kept again."""
    if shock_kept is None:
        c, stored = store_shock(after, shock)
    else:  # the caller kept it in the same copy as the wound
        c, stored = after, shock_kept
    falls: list[Citation] = []
    if knockdown is not None and knockdown.failed:
        falls.append(BASE_MAJOR_WOUND)
    if wound is not None:
        if Condition.KNOCKED_DOWN in wound.conditions:
            # The fall is now; the wound shows the knockdown until the fighter's
            # next turn begins (rules.sets.seed000.turn.turn_begins clears it).
            falls.append(BASE_MAJOR_WOUND)
        if wound.crippled in (Limb.LEG, Limb.FOOT):
            falls.append(BASE_CRIPPLED_LEG)
        if Condition.PARALYZED in wound.conditions:
            falls.append(NOTE_17)
            if c.fighter.move:
                c = c.evolve(fighter=replace(c.fighter, move=0))
    fell = None
    if falls and c.status is not Status.DEAD and before.posture not in ON_THE_GROUND:
        c, fell = apply_fall(c, citation=falls[0])
    return c, WoundedNow(after.id, after.name, knockdown, stored, fell)


# --- in the next attacks and defenses ------------------------------------------------------


def paralysed(c: Combatant) -> bool:
    """Any spinal paralysis (note 17): the body below the wound cannot move, so the
    fighter can no more get up than walk."""
    return any(Condition.PARALYZED in w.conditions for w in wounds_of(c))


def paralysed_from_the_neck(c: Combatant) -> bool:
    wounds = wounds_of(c)
    # Most fighters asked (every fighter after every command) have no wound.
    return bool(wounds) and any(
        Condition.PARALYZED in w.conditions and w.location in NECK_LEVEL for w in wounds
    )


def weapon_hand_weapon(c: Combatant) -> Weapon | None:
    """What the weapon hand (the main hand) holds (``rules.battle.hands``: the
    other hand holds any other weapon); None when it holds none."""
    key = hands_of(c).main
    return next((w for w in c.fighter.weapons if w.key == key), None)


def _crippled_grip(c: Combatant, weapon: Weapon) -> Limb | None:
    """The crippled limb that holds ``weapon`` (the arm before the hand), or None.
    The weapon hand is the main hand (``rules.battle.hands``), the other hand
    holds any other weapon (as a crippled hand's drop takes them); a two-handed
    weapon needs both. A wound without a side is taken to be on the weapon side,
    as that drop takes it."""
    wounds = wounds_of(c)
    if weapon.kind is WeaponKind.UNARMED or not wounds:
        return None
    held = weapon_hand_weapon(c)
    weapon_hand = weapon_side(c.handedness)
    grip = weapon_hand if held is not None and held.key == weapon.key else weapon_hand.other
    found: Limb | None = None
    for w in wounds:
        if w.crippled not in (Limb.ARM, Limb.HAND):
            continue
        side: BodySide = weapon_hand if w.side is None else w.side
        if side is grip or weapon.two_handed:
            if w.crippled is Limb.ARM:
                return Limb.ARM
            found = Limb.HAND
    return found


def _shield_arm_crippled(c: Combatant) -> bool:
    """A crippled arm on the shield side (a wound without a side is on the weapon
    side, as ``_crippled_grip`` takes it)."""
    shield_side = weapon_side(c.handedness).other
    return any(w.crippled is Limb.ARM and w.side is shield_side for w in wounds_of(c))


def wielding_problem(c: Combatant, weapon: Weapon) -> str | None:
    """Why ``c`` cannot attack with ``weapon`` because of its wounds, or None."""
    if paralysed_from_the_neck(c):
        return f"{c.name} is paralysed from the neck down and cannot attack ({NOTE_17})"
    if _crippled_grip(c, weapon) is Limb.ARM:
        return (
            f"{c.name}'s arm holding the {weapon.name} is crippled: it cannot wield it "
            f"({BASE_CRIPPLED_ARM})"
        )
    return None


def defense_problem(c: Combatant, choice: DefenseChoice) -> str | None:
    """Why ``c`` cannot make the active defense ``choice`` because of its wounds, or
    None: paralysed from the neck down it makes none; a crippled arm cannot wield
    the parrying weapon, a crippled hand cannot handle it (note 12 leaves it only
    its attacks), and a crippled shield arm cannot block."""
    if paralysed_from_the_neck(c):
        return f"{c.name} is paralysed from the neck down: no active defense ({NOTE_17})"
    if choice.kind is DefenseKind.BLOCK and _shield_arm_crippled(c):
        # The shield stays strapped on, so its PD still counts; the arm cannot move it.
        return f"{c.name}'s shield arm is crippled: no block ({BASE_CRIPPLED_ARM})"
    if choice.kind is not DefenseKind.PARRY or choice.weapon_key is None:
        return None
    weapon = next((w for w in c.fighter.weapons if w.key == choice.weapon_key), None)
    limb = None if weapon is None else _crippled_grip(c, weapon)
    if weapon is None or limb is None:
        return None
    citation = BASE_CRIPPLED_ARM if limb is Limb.ARM else NOTE_12
    return f"{c.name}'s {limb.value} holding the {weapon.name} is crippled: no parry ({citation})"


def wound_attack_modifiers(c: Combatant, weapon: Weapon) -> tuple[Modifier, ...]:
    """The attacker's wounds on its attack: this turn's shock (every weapon skill
    is DX-based) and a crippled hand's -6 (note 12)."""
    tracks = tracks_of(c)
    if not tracks.shock and not tracks.wounds:  # most attackers: neither
        return ()
    return tuple(
        m for m in (shock_modifier(c), crippled_hand_modifier(c, weapon)) if m is not None
    )


def shock_modifier(c: Combatant) -> Modifier | None:
    """This turn's shock, on DX and the skills based on it; None without."""
    shock = tracks_of(c).shock
    return Modifier(shock, "shock from injury", BASE_SHOCK) if shock else None


def crippled_hand_modifier(c: Combatant, weapon: Weapon) -> Modifier | None:
    """Note 12's -6 to attacks with ``weapon`` when a crippled hand kept hold of
    it; None otherwise."""
    if _crippled_grip(c, weapon) is not Limb.HAND:
        return None
    return Modifier(CRIPPLED_HAND_PENALTY, f"crippled hand holding the {weapon.name}", NOTE_12)


def wound_defense_modifiers(c: Combatant) -> tuple[Modifier, ...]:
    """A stunned defender's -4 to every active defense."""
    if c.status is not Status.STUNNED:
        return ()
    return (Modifier(STUNNED_DEFENSE_PENALTY, "stunned", BASE_STUNNED),)


# --- out of the fight ---------------------------------------------------------------------


def fighter_condition(c: Combatant) -> FighterCondition:
    """Whether ``c`` is still in the fight: not the dead or the unconscious (base
    rules), nor one paralysed from the neck down (note 17)."""
    return condition_of(c.status, lambda: paralysed_from_the_neck(c))


def condition_of(status: Status, paralysed: Callable[[], bool]) -> FighterCondition:
    """``fighter_condition`` of a fighter in ``status``, ``paralysed`` from the
    neck down or not (asked only when the state leaves it standing): the exact
    odds read it of each state a blow may leave."""
    if status is Status.DEAD:
        return down_as(Down.DEAD, BASE_INJURY)
    if status is Status.UNCONSCIOUS:
        return down_as(Down.UNCONSCIOUS, BASE_INJURY)
    if paralysed():
        return down_as(Down.PARALYSED, NOTE_17)
    return ABLE
