"""Disarming: 000 DISARMING AN OPPONENT and 001 Knocking a Weapon Away.

Both end in a Quick Contest of weapon skills. The family's basics (3rd-edition
Quick Contest): both roll; if exactly one succeeds he wins; if both succeed or both
fail, the larger margin wins (success by more, or failure by less); equal margins
tie. A roll's success or failure includes the automatic results (3-4 always
succeed, 17-18 always fail), so for comparing we use an *effective* margin: at
least 0 for a success, at most -1 for a failure. "Won by N" is the difference of
effective margins.

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

An attacker's critical failure disarms him whatever the margins say.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from rules.battle.model import Fighter, ParryClass, Weapon
from rules.battle.pieces import Piece, Placement
from rules.core.citation import Citation
from rules.core.dice import DiceSource, distribution
from rules.core.errors import IllegalAttackError
from rules.core.modifiers import Modifier, total
from rules.sets.seed000.checks import Outcome, SuccessRoll, judge, success_roll
from rules.sets.seed000.weapon_strikes import (
    DISARMING_000,
    DROPPED_IN_HEX,
    KNOCKING_001,
    MISSILE_KINDS,
    ONE_HEX_RANDOM,
    RulesSource,
    disarm_extra_penalty,
    exact_weight,
    knock_away_placement,
    strike_at_weapon_penalty,
)

JITTE_WHIP_SKILLS = frozenset({"jitte/sai", "whip"})
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


def _check_disarm(attacker_weapon: Weapon, defender_weapon: Weapon, rules: RulesSource) -> None:
    if rules is RulesSource.SEED_001 and attacker_weapon.parry is ParryClass.NONE:
        raise IllegalAttackError(f"{attacker_weapon.name} cannot parry, so it cannot disarm (001)")
    if rules is RulesSource.SEED_000 and exact_weight(attacker_weapon.weight) <= 0:
        raise IllegalAttackError("000 disarming is done with a weapon that has weight")
    strike_at_weapon_penalty(defender_weapon, rules=rules)  # rejects bare hands


def weight_bonus(defender_weight: float, attacker_weight: float) -> int:
    """000: +1 if the defender's weapon is heavier, +2 at twice the weight, +3 at
    three times and so on (linear reading of "and so on")."""
    ratio = exact_weight(defender_weight) / exact_weight(attacker_weight)
    if ratio <= 1:
        return 0
    return max(1, int(ratio))  # floor


def disarm_modifiers(
    attacker: Fighter,
    attacker_weapon: Weapon,
    defender: Fighter,
    defender_weapon: Weapon,
    *,
    rules: RulesSource = RulesSource.SEED_000,
) -> DisarmModifiers:
    _check_disarm(attacker_weapon, defender_weapon, rules)
    size = strike_at_weapon_penalty(defender_weapon, rules=rules)
    extra = disarm_extra_penalty(attacker_weapon, rules=rules)
    hit_mods = (size,) if extra is None else (size, extra)
    defender_mods: list[Modifier] = []
    if rules is RulesSource.SEED_000:
        bonus = weight_bonus(defender_weapon.weight, attacker_weapon.weight)
        if bonus:
            defender_mods.append(
                Modifier(
                    bonus,
                    f"{defender_weapon.name} heavier than {attacker_weapon.name}",
                    DISARMING_000,
                )
            )
        if defender.attributes.st > attacker.attributes.st:
            defender_mods.append(Modifier(1, "stronger than the attacker", DISARMING_000))
        if defender_weapon.two_handed:
            defender_mods.append(Modifier(2, "two-handed weapon", DISARMING_000))
        return DisarmModifiers((), hit_mods, tuple(defender_mods))
    attacker_mods: list[Modifier] = []
    if attacker_weapon.skill.casefold() in JITTE_WHIP_SKILLS:
        attacker_mods.append(Modifier(2, f"using {attacker_weapon.skill} skill", KNOCKING_001))
    if defender_weapon.two_handed:
        defender_mods.append(Modifier(2, "two-handed weapon", KNOCKING_001))
    return DisarmModifiers(hit_mods, tuple(attacker_mods), tuple(defender_mods))


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
    rules: RulesSource
    modifiers: DisarmModifiers
    attacker: ContestSide
    defender: ContestSide


def _base(fighter: Fighter, weapon: Weapon, *, use_dx: bool, st_option: bool) -> tuple[int, str]:
    dx, st = fighter.attributes.dx, fighter.attributes.st
    if use_dx:
        level, basis = dx, "DX"
    else:
        level, basis = fighter.skill(weapon.skill), f"{weapon.skill} skill"
    if st_option and level - dx + st > level:
        return level - dx + st, f"ST-based {basis}"
    return level, basis


def disarm_contest(
    attacker: Fighter,
    attacker_weapon: Weapon,
    defender: Fighter,
    defender_weapon: Weapon,
    *,
    rules: RulesSource = RulesSource.SEED_000,
    attacker_extra: tuple[Modifier, ...] = (),
    defender_extra: tuple[Modifier, ...] = (),
) -> DisarmContest:
    """The two contest levels. ``*_extra`` carry situational modifiers decided
    elsewhere (e.g. shock, posture)."""
    mods = disarm_modifiers(attacker, attacker_weapon, defender, defender_weapon, rules=rules)
    st_option = rules is RulesSource.SEED_001
    # 000 DISARMING AN OPPONENT: a hand-held missile weapon, by kind or by a missile mode
    missile = defender_weapon.kind in MISSILE_KINDS or defender_weapon.is_missile_weapon
    a_base, a_basis = _base(attacker, attacker_weapon, use_dx=False, st_option=st_option)
    d_base, d_basis = _base(defender, defender_weapon, use_dx=missile, st_option=st_option)
    return DisarmContest(
        rules,
        mods,
        ContestSide(a_base, a_basis, mods.attacker_contest + attacker_extra),
        ContestSide(d_base, d_basis, mods.defender_contest + defender_extra),
    )


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
    rules: RulesSource, a_outcome: Outcome, a_margin: int, d_outcome: Outcome, d_margin: int
) -> tuple[DisarmOutcome, ContestWinner, int]:
    winner, by = contest_winner((a_outcome, a_margin), (d_outcome, d_margin))
    if a_outcome is Outcome.CRITICAL_FAILURE:
        return DisarmOutcome.ATTACKER_DISARMED, winner, by
    if winner is ContestWinner.ATTACKER:
        return DisarmOutcome.DEFENDER_DISARMED, winner, by
    if rules is RulesSource.SEED_000:
        return DisarmOutcome.NO_EFFECT, winner, by
    if winner is ContestWinner.DEFENDER and by >= 3:
        return DisarmOutcome.DEFENDER_KEEPS_READY, winner, by
    return DisarmOutcome.DEFENDER_KEEPS_UNREADY, winner, by


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


def disarmed_placement(weapon: Weapon, rules: RulesSource, *, knock_away: bool) -> Placement:
    """000: in the wielder's hex (or, GM option ``knock_away``, scattered per 000
    DROPPED WEAPONS); 001: one hex in a random direction."""
    if rules is RulesSource.SEED_001:
        return ONE_HEX_RANDOM
    return knock_away_placement(weapon) if knock_away else DROPPED_IN_HEX


def resolve_disarm(
    attacker: Fighter,
    attacker_weapon: Weapon,
    defender: Fighter,
    defender_weapon: Weapon,
    rng: DiceSource,
    *,
    rules: RulesSource = RulesSource.SEED_000,
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
        contest = disarm_contest(
            attacker,
            attacker_weapon,
            defender,
            defender_weapon,
            rules=rules,
            attacker_extra=attacker_extra,
            defender_extra=defender_extra,
        )
    elif contest.rules is not rules:
        raise ValueError(f"a {contest.rules.value} contest resolved under {rules.value}")
    a_roll = success_roll(contest.attacker.level, rng)
    d_roll = success_roll(contest.defender.level, rng)
    outcome, winner, by = _outcome(
        rules, a_roll.outcome, a_roll.margin, d_roll.outcome, d_roll.margin
    )
    disarmed: Hand | None = None
    dropped: Piece | None = None
    if outcome is DisarmOutcome.DEFENDER_DISARMED:
        disarmed = Hand.DEFENDER
        placement = disarmed_placement(defender_weapon, rules, knock_away=knock_away)
        dropped = Piece(defender_weapon.name, defender_weapon, placement).landed(rng)
    elif outcome is DisarmOutcome.ATTACKER_DISARMED:
        disarmed = Hand.ATTACKER
        placement = disarmed_placement(attacker_weapon, rules, knock_away=knock_away)
        dropped = Piece(attacker_weapon.name, attacker_weapon, placement).landed(rng)
    rule_cite = DISARMING_000 if rules is RulesSource.SEED_000 else KNOCKING_001
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
        citations=(rule_cite, QUICK_CONTEST),
    )


@functools.cache
def contest_outcome_distribution(
    attacker_level: int, defender_level: int, rules: RulesSource = RulesSource.SEED_000
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
    rules: RulesSource = RulesSource.SEED_000,
) -> Mapping[DisarmOutcome, Fraction]:
    contest = disarm_contest(attacker, attacker_weapon, defender, defender_weapon, rules=rules)
    return contest_outcome_distribution(contest.attacker.level, contest.defender.level, rules)


def disarm_win_probability(
    attacker: Fighter,
    attacker_weapon: Weapon,
    defender: Fighter,
    defender_weapon: Weapon,
    *,
    rules: RulesSource = RulesSource.SEED_000,
) -> Fraction:
    """Exact chance the defender is disarmed (the contest only: for 001 the attack
    roll and the foe's defense come first)."""
    dist = disarm_outcome_distribution(
        attacker, attacker_weapon, defender, defender_weapon, rules=rules
    )
    return dist.get(DisarmOutcome.DEFENDER_DISARMED, Fraction(0))
