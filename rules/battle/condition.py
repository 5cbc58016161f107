"""A fighter's condition as every ruleset can tell it, in one small typed view.

The battle, the panes and, later, computer-controlled sides and statistics ask
the ruleset (``ConditionRules.fighter_condition``) rather than read its statuses,
wound tracks or labels: whether the fighter can still take part in the fight,
and whether it is down and how. The battle core reads it for two rules of its
own: a fighter who goes down falls and lets go of what it holds
(``rules.battle.falls``), and a battle in which only one side (or none) still has
a fighter able to act is decided (``rules.battle.decision``).

Beside those, fields with defaults: how hurt the fighter is (``hurt``, an exact
fraction from 0 to 1 that each ruleset's ``fighter_condition`` says how it maps),
which limbs are useless (``useless_limbs``) and which penalties are in force on
which of its rolls (``penalties``, each the very modifier its attack adds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum, Flag
from fractions import Fraction

from rules.core.citation import Citation
from rules.core.errors import RulesError
from rules.core.modifiers import Modifier

UNHURT = Fraction(0)
OUT_OF_THE_FIGHT = Fraction(1)


@dataclass(frozen=True, slots=True)
class FighterCondition:
    """What a ruleset says of one fighter's condition now.

    ``able_to_act``: it still takes part in the fight (a stunned fighter does: its
    stun passes). ``down``: it is out of the fight and lies where it is, and how;
    None while it is not. ``citation``: the rule that put it down (required then).

    ``hurt``: how hurt it is, an exact fraction: 0 unhurt, 1 exactly when it is
    down (a condition that is down has 1 whatever it was given), and below 1 while
    it is not; it never falls as injury is added. ``useless_limbs``: the limbs it
    can no longer use. ``penalties``: the penalties in force on its own rolls,
    none while it is down (it makes none)."""

    able_to_act: bool
    down: Down | None = None
    citation: Citation | None = None
    hurt: Fraction = UNHURT
    useless_limbs: tuple[UselessLimb, ...] = ()
    penalties: tuple[Penalty, ...] = ()

    def __post_init__(self) -> None:
        if self.down is not None and self.able_to_act:
            raise RulesError(f"a fighter who is {self.down.value} cannot be able to act")
        if self.down is not None and self.citation is None:
            raise RulesError(f"a fighter {self.down.value} needs the rule that says so")
        # By numerator and denominator: comparing Fractions costs the battle's
        # every question a few microseconds.
        hurt = self.hurt
        if self.down is not None:
            if hurt.numerator != hurt.denominator:
                object.__setattr__(self, "hurt", OUT_OF_THE_FIGHT)
        elif not 0 <= hurt.numerator < hurt.denominator:
            raise RulesError(f"a fighter still in the fight is hurt 0 to below 1, not {hurt}")

    def penalty_to(self, rolls: Rolls, weapon_key: str | None = None) -> int:
        """The penalties in force on a roll of the kind ``rolls`` (one kind:
        ``Rolls.MELEE_ATTACKS`` ...), added up: those of every weapon, and those
        of the weapon ``weapon_key`` only with that weapon (an attack with it)."""
        return sum(
            p.amount
            for p in self.penalties
            if p.applies_to & rolls and p.weapon_key in (None, weapon_key)
        )


class Down(Enum):
    """How a fighter is out of the fight and lying on the ground."""

    UNCONSCIOUS = "unconscious"
    DEAD = "dead"
    # Awake but capable of no action (FUDGE's Incapacitated wound level).
    INCAPACITATED = "incapacitated"
    # Awake, but the body below the neck no longer obeys (a broken spine).
    PARALYSED = "paralysed"


class Rolls(Flag):
    """Which of a fighter's rolls in a fight a penalty applies to: its attacks in
    close combat or from range, and its active defenses against a blow or against
    a throw or shot (the kinds its rules tell apart), or several of them."""

    MELEE_ATTACKS = 1
    RANGED_ATTACKS = 2
    MELEE_DEFENSES = 4
    RANGED_DEFENSES = 8
    ATTACKS = MELEE_ATTACKS | RANGED_ATTACKS
    DEFENSES = MELEE_DEFENSES | RANGED_DEFENSES
    ALL = ATTACKS | DEFENSES

    @property
    def label(self) -> str:
        """In a GM's words: "attacks", "close combat attacks and active defenses"."""
        parts: list[str] = []
        for whole, narrower in _ROLL_WORDS:
            if whole[0] in self:
                parts.append(whole[1])
            else:
                parts.extend(words for kind, words in narrower if kind in self)
        return " and ".join(parts)


# Attacks, then defenses: the whole kind in words, else each narrower kind held.
_ROLL_WORDS: tuple[tuple[tuple[Rolls, str], tuple[tuple[Rolls, str], ...]], ...] = (
    (
        (Rolls.ATTACKS, "attacks"),
        ((Rolls.MELEE_ATTACKS, "close combat attacks"), (Rolls.RANGED_ATTACKS, "ranged attacks")),
    ),
    (
        (Rolls.DEFENSES, "active defenses"),
        (
            (Rolls.MELEE_DEFENSES, "defenses against blows"),
            (Rolls.RANGED_DEFENSES, "defenses against missiles"),
        ),
    ),
)


@dataclass(frozen=True, slots=True)
class Penalty:
    """One penalty in force on the fighter's own rolls: ``modifier`` is the one its
    ruleset's attack adds (the same value, reason and rule; its units are the
    ruleset's: 3d6 points, percent, FUDGE levels, 2d6 points; negative, since a
    higher roll is better in every ruleset, and a difficulty raised by 2 is -2),
    ``applies_to`` the rolls it changes, and ``weapon_key`` the weapon it is
    bound to (a crippled hand's grip), None for any."""

    modifier: Modifier
    applies_to: Rolls
    weapon_key: str | None = None

    def __post_init__(self) -> None:
        if self.modifier.value >= 0:
            raise RulesError(f"a penalty is below 0, not {self.modifier.value}")
        if not self.applies_to:
            raise RulesError("a penalty applies to some roll")

    @property
    def amount(self) -> int:
        return self.modifier.value

    @property
    def reason(self) -> str:
        return self.modifier.reason

    @property
    def citation(self) -> Citation:
        return self.modifier.citation

    def describe(self, weapon_name: str = "") -> str:
        """One line for a GM: "-2 to attacks (shock from injury)"; with
        ``weapon_name``, the attacks named as those with it."""
        weapon = f" with the {weapon_name}" if weapon_name else ""
        return f"{self.amount:+d} to {self.applies_to.label}{weapon} ({self.reason})"


def as_penalty(
    modifier: Modifier | None, applies_to: Rolls, weapon_key: str | None = None
) -> tuple[Penalty, ...]:
    """``modifier`` as a penalty on ``applies_to``; none when there is no modifier,
    or it is no penalty (0 or a bonus): for a ruleset that asks its attack's
    modifier functions and keeps what they give."""
    if modifier is None or modifier.value >= 0:
        return ()
    return (Penalty(modifier, applies_to, weapon_key),)


def on_attacks_with(
    by_weapon: Mapping[str, tuple[Modifier, ...]], applies_to: Rolls = Rolls.ATTACKS
) -> tuple[Penalty, ...]:
    """The penalties of ``by_weapon``, each weapon's (by key) on an attack with it,
    for a rule whose penalty may differ with the weapon (the limbs it uses): one
    for every weapon when all the weapons agree, else one bound to each."""
    if len(set(by_weapon.values())) <= 1:
        mods = next(iter(by_weapon.values()), ())
        return tuple(p for m in mods for p in as_penalty(m, applies_to))
    return tuple(
        p for key, mods in by_weapon.items() for m in mods for p in as_penalty(m, applies_to, key)
    )


class LimbKind(Enum):
    ARM = "arm"
    HAND = "hand"
    LEG = "leg"
    FOOT = "foot"


class LimbState(Enum):
    """How a limb is lost to the fighter, in the words of its rules."""

    CRIPPLED = "crippled"
    USELESS = "useless"
    # Whole, but below a broken spine: it no longer obeys.
    PARALYSED = "paralysed"
    # Cut off, crushed or withered: gone for good.
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class UselessLimb:
    """A limb the fighter can no longer use: ``location`` is the key its ruleset's
    hit locations or wound rules name it by ("near_arm", "left arm", "left-leg"),
    ``label`` the same in words, ``citation`` the rule that takes it away."""

    location: str
    kind: LimbKind
    state: LimbState
    label: str
    citation: Citation


# The condition of a fighter who can still fight and is unhurt.
ABLE = FighterCondition(able_to_act=True)


def down_as(down: Down, citation: Citation) -> FighterCondition:
    """The condition of a fighter out of the fight, ``down`` by the rule ``citation``."""
    return FighterCondition(able_to_act=False, down=down, citation=citation)


def with_useless_limbs(
    condition: FighterCondition, limbs: tuple[UselessLimb, ...]
) -> FighterCondition:
    """``condition`` (a fighter down) with the limbs that are useless too: the
    down view every ruleset gives, whose hurt is 1 whatever its limbs."""
    if not limbs:
        return condition
    return replace(condition, useless_limbs=limbs)


def hurt_below_down(fraction: Fraction) -> Fraction:
    """``fraction`` as the hurt of a fighter still in the fight: not below 0, and
    below 1 (at most ``NEARLY_OUT``) however far past its ruleset's last line the
    GM has kept it up."""
    return max(UNHURT, min(fraction, NEARLY_OUT))


# The most a fighter still in the fight is hurt.
NEARLY_OUT = Fraction(99, 100)
