"""Disarming: the Quick Contest of 000 DISARMING AN OPPONENT and 001 Knocking a
Weapon Away.

Both end in a Quick Contest of weapon skills. The family's basics (3rd-edition
Quick Contest): both roll; if exactly one succeeds he wins; if both succeed or both
fail, the larger margin wins (success by more, or failure by less); equal margins
tie. A roll's success or failure includes the automatic results (3-4 always
succeed, 17-18 always fail), so for comparing we use an *effective* margin: at
least 0 for a success, at most -1 for a failure. "Won by N" is the difference of
effective margins. An attacker's critical failure disarms him whatever the margins
say; an attacker who wins disarms the foe.

What the seeds make of the rest is a seed's ``DisarmRules``, part of its
weapon-strike component (``rules.sets.seed000.weapon_strikes.WeaponStrikeRules``):
the modifiers and contest levels, what the foe keeps when the attacker does not
win, where a weapon that leaves a hand lands, and when the contest is rolled.

000: the contest replaces the usual attack and defense ("instead of the normal
contest of skills"). The attacker's contest roll carries the size penalty of 000
STRIKING AT WEAPONS and -2 unless he uses a fencing weapon; the defender rolls at
+1 if his weapon is heavier, +N if it is N (2, 3, ...) times as heavy, +1 if he is
stronger, +2 with a two-handed weapon, and against DX instead of skill when his
weapon is a hand-held missile weapon. Attacker wins: the foe's weapon drops in his
hex. Attacker critical failure: the attacker is disarmed (his weapon drops in his
own hex). Anything else: no effect.

001: the attack roll (by the normal attack flow) carries the reach penalty and -2
unless fencing (``DisarmModifiers.attack_roll``); only after a hit the foe failed
to defend is the contest rolled here: either side may use a ST-based level (skill -
DX + ST) if better; +2 for the attacker using Jitte/Sai or Whip skill; +2 for the
foe with a two-handed weapon; DX (or ST) against a missile weapon. Attacker wins:
the weapon flies one hex in a random direction. Foe wins or ties: he keeps it,
unready unless he won by 3 or more. Attacker critical failure: the attacker's own
weapon flies one hex.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Protocol

from rules.battle.model import Fighter, Weapon
from rules.battle.pieces import Piece, Placement
from rules.core.citation import Citation
from rules.core.dice import DiceSource, distribution
from rules.core.modifiers import Modifier, total
from rules.sets.seed000.checks import Outcome, SuccessRoll, judge, success_roll
from rules.sets.seed000.sheet import sheet_of

QUICK_CONTEST = Citation("base", "quick contests")


class DisarmOutcome(Enum):
    DEFENDER_DISARMED = "defender disarmed"
    NO_EFFECT = "no effect"  # 000
    DEFENDER_KEEPS_UNREADY = "defender keeps his weapon, unready"  # 001
    DEFENDER_KEEPS_READY = "defender keeps his weapon, ready"  # 001, won by 3+
    ATTACKER_DISARMED = "attacker disarmed"


class ContestWinner(Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class DisarmModifiers:
    """``attack_roll``: to-hit modifiers (001 only; 000 has no separate attack roll).
    ``attacker_contest`` / ``defender_contest``: modifiers to the contest rolls."""

    attack_roll: tuple[Modifier, ...]
    attacker_contest: tuple[Modifier, ...]
    defender_contest: tuple[Modifier, ...]


class DisarmRules(Protocol):
    """What the Quick Contest asks of a seed's disarming rules."""

    def __hash__(self) -> int:
        # By identity, as an object's: the exact contest odds are cached by rules.
        return object.__hash__(self)

    @property
    def disarm_citation(self) -> Citation:
        """The seed's disarming rule (000 DISARMING AN OPPONENT, 001 Knocking a
        Weapon Away)."""
        ...

    def disarm_modifiers(
        self, attacker: Fighter, attacker_weapon: Weapon, defender: Fighter, defender_weapon: Weapon
    ) -> DisarmModifiers:
        """The seed's modifiers to the attack roll and to each side's contest roll."""
        ...

    def contest_level(
        self, fighter: Fighter, weapon: Weapon, *, defending: bool
    ) -> tuple[int, str]:
        """A side's base level for the contest with ``weapon``, and what it is
        (``defending``: the side whose weapon is the target)."""
        ...

    def disarm_contest(
        self,
        attacker: Fighter,
        attacker_weapon: Weapon,
        defender: Fighter,
        defender_weapon: Weapon,
        *,
        attacker_extra: tuple[Modifier, ...] = (),
        defender_extra: tuple[Modifier, ...] = (),
    ) -> DisarmContest:
        """The two contest levels: each side's ``contest_level`` plus the seed's
        ``disarm_modifiers``. ``*_extra`` carry situational modifiers decided
        elsewhere (e.g. shock, posture)."""
        mods = self.disarm_modifiers(attacker, attacker_weapon, defender, defender_weapon)
        a_base, a_basis = self.contest_level(attacker, attacker_weapon, defending=False)
        d_base, d_basis = self.contest_level(defender, defender_weapon, defending=True)
        return DisarmContest(
            self,
            mods,
            ContestSide(a_base, a_basis, mods.attacker_contest + attacker_extra),
            ContestSide(d_base, d_basis, mods.defender_contest + defender_extra),
        )

    def foe_keeps_weapon(self, winner: ContestWinner, won_by: int) -> DisarmOutcome:
        """The outcome when the attacker neither wins nor critically fails."""
        ...

    def disarmed_placement(self, weapon: Weapon, *, knock_away: bool) -> Placement:
        """How a weapon that leaves a hand goes (``knock_away``: the GM's option to
        scatter it, where the seed has one)."""
        ...


@dataclass(frozen=True, slots=True)
class ContestSide:
    """One side's contest level: its base (and why) plus modifiers."""

    base: int
    basis: str
    modifiers: tuple[Modifier, ...]

    @property
    def level(self) -> int:
        return self.base + total(self.modifiers)


@dataclass(frozen=True, slots=True)
class DisarmContest:
    """The contest as a seed sets it up; ``rules`` resolves it."""

    rules: DisarmRules
    modifiers: DisarmModifiers
    attacker: ContestSide
    defender: ContestSide


def skill_or_dx(fighter: Fighter, weapon: Weapon, *, use_dx: bool) -> tuple[int, str]:
    """A side's contest base: DX (against a hand-held missile weapon) or the weapon's
    skill, and what it is."""
    if use_dx:
        return sheet_of(fighter).attributes.dx, "DX"
    return sheet_of(fighter).skill(weapon.skill), f"{weapon.skill} skill"


# ---------------------------------------------------------------------------
# The quick contest
# ---------------------------------------------------------------------------


def effective_margin(outcome: Outcome, margin: int) -> int:
    """A success counts at least 0, a failure at most -1 (automatic 3-4 / 17-18)."""
    return max(0, margin) if outcome.is_success else min(-1, margin)


def contest_winner(
    attacker: tuple[Outcome, int], defender: tuple[Outcome, int]
) -> tuple[ContestWinner, int]:
    """Winner and the margin of victory (0 on a tie) from (outcome, margin) pairs."""
    a = effective_margin(*attacker)
    d = effective_margin(*defender)
    if a > d:
        return ContestWinner.ATTACKER, a - d
    if d > a:
        return ContestWinner.DEFENDER, d - a
    return ContestWinner.TIE, 0


def _outcome(
    rules: DisarmRules, a_outcome: Outcome, a_margin: int, d_outcome: Outcome, d_margin: int
) -> tuple[DisarmOutcome, ContestWinner, int]:
    winner, by = contest_winner((a_outcome, a_margin), (d_outcome, d_margin))
    if a_outcome is Outcome.CRITICAL_FAILURE:
        return DisarmOutcome.ATTACKER_DISARMED, winner, by
    if winner is ContestWinner.ATTACKER:
        return DisarmOutcome.DEFENDER_DISARMED, winner, by
    return rules.foe_keeps_weapon(winner, by), winner, by


class Hand(Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


@dataclass(frozen=True, slots=True)
class DisarmResult:
    contest: DisarmContest
    attacker_roll: SuccessRoll
    defender_roll: SuccessRoll
    winner: ContestWinner
    won_by: int
    outcome: DisarmOutcome
    disarmed: Hand | None  # whose weapon left the hand
    dropped: Piece | None  # that weapon, with its placement (and landing)
    defender_weapon_unready: bool
    citations: tuple[Citation, ...]


def resolve_disarm(
    attacker: Fighter,
    attacker_weapon: Weapon,
    defender: Fighter,
    defender_weapon: Weapon,
    rng: DiceSource,
    *,
    rules: DisarmRules,
    attacker_extra: tuple[Modifier, ...] = (),
    defender_extra: tuple[Modifier, ...] = (),
    knock_away: bool = False,
    contest: DisarmContest | None = None,
) -> DisarmResult:
    """Roll the Quick Contest (attacker's 3d6 first), then the landing of a weapon
    that leaves a hand.

    ``contest``: the levels already worked out (``AttackPlan.contest`` for a 000
    disarm), rolled exactly as given; the ``*_extra`` are then ignored."""
    if contest is None:
        contest = rules.disarm_contest(
            attacker,
            attacker_weapon,
            defender,
            defender_weapon,
            attacker_extra=attacker_extra,
            defender_extra=defender_extra,
        )
    elif contest.rules is not rules:
        raise ValueError(
            f"a contest of {contest.rules.disarm_citation} resolved under {rules.disarm_citation}"
        )
    # The margins are compared: both totals are read.
    a_roll = success_roll(
        contest.attacker.level,
        rng,
        total_read=True,
        what=f"{attacker.name}'s disarm of {defender.name}'s {defender_weapon.name} "
        "(Quick Contest)",
    )
    d_roll = success_roll(
        contest.defender.level,
        rng,
        total_read=True,
        what=f"{defender.name}'s hold on the {defender_weapon.name} against the disarm "
        "(Quick Contest)",
    )
    outcome, winner, by = _outcome(
        rules, a_roll.outcome, a_roll.margin, d_roll.outcome, d_roll.margin
    )
    disarmed: Hand | None = None
    dropped: Piece | None = None
    if outcome is DisarmOutcome.DEFENDER_DISARMED:
        disarmed = Hand.DEFENDER
        placement = rules.disarmed_placement(defender_weapon, knock_away=knock_away)
        dropped = Piece(defender_weapon.name, defender_weapon, placement).landed(
            rng, defender.name
        )
    elif outcome is DisarmOutcome.ATTACKER_DISARMED:
        disarmed = Hand.ATTACKER
        placement = rules.disarmed_placement(attacker_weapon, knock_away=knock_away)
        dropped = Piece(attacker_weapon.name, attacker_weapon, placement).landed(
            rng, attacker.name
        )
    return DisarmResult(
        contest=contest,
        attacker_roll=a_roll,
        defender_roll=d_roll,
        winner=winner,
        won_by=by,
        outcome=outcome,
        disarmed=disarmed,
        dropped=dropped,
        defender_weapon_unready=outcome is DisarmOutcome.DEFENDER_KEEPS_UNREADY,
        citations=(rules.disarm_citation, QUICK_CONTEST),
    )


@functools.cache
def contest_outcome_distribution(
    attacker_level: int, defender_level: int, rules: DisarmRules
) -> Mapping[DisarmOutcome, Fraction]:
    """Exact outcome chances by enumerating both 3d6 (16 x 16 totals, 216^2 ways)."""
    result: dict[DisarmOutcome, Fraction] = {}
    dist = distribution(3)
    for a_total, pa in dist.items():
        a_outcome = judge(a_total, attacker_level)
        for d_total, pd in dist.items():
            d_outcome = judge(d_total, defender_level)
            outcome, _, _ = _outcome(
                rules, a_outcome, attacker_level - a_total, d_outcome, defender_level - d_total
            )
            result[outcome] = result.get(outcome, Fraction(0)) + pa * pd
    return MappingProxyType(result)


def disarm_outcome_distribution(
    attacker: Fighter,
    attacker_weapon: Weapon,
    defender: Fighter,
    defender_weapon: Weapon,
    *,
    rules: DisarmRules,
) -> Mapping[DisarmOutcome, Fraction]:
    contest = rules.disarm_contest(attacker, attacker_weapon, defender, defender_weapon)
    return contest_outcome_distribution(contest.attacker.level, contest.defender.level, rules)


def disarm_win_probability(
    attacker: Fighter,
    attacker_weapon: Weapon,
    defender: Fighter,
    defender_weapon: Weapon,
    *,
    rules: DisarmRules,
) -> Fraction:
    """Exact chance the defender is disarmed (the contest only: for 001 the attack
    roll and the foe's defense come first)."""
    dist = disarm_outcome_distribution(
        attacker, attacker_weapon, defender, defender_weapon, rules=rules
    )
    return dist.get(DisarmOutcome.DEFENDER_DISARMED, Fraction(0))

