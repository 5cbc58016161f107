"""Passive and active defenses of seed 000.

* Passive defense (000 PASSIVE DEFENSE): the best armor PD (at most 8) plus the
  shield's PD when the attack comes from an arc where the shield counts (front,
  shield-side front, shield side); together at most 10. The seed SUBTRACTS PD from
  the attacker's chance to hit, so ``PassiveDefense.modifiers`` are penalties to
  the attack, not bonuses to the defense.
* Dodge (000 DODGE): the best of Move, DX/2 and Dodge skill/2, minus encumbrance
  levels; no directional penalty. ``Fighter.move`` is the unencumbered Move.
* Block (000 BLOCK): 2/3 of the shield skill. Parry (000 PARRY): the weapon skill
  times the weapon's parry class (full, 2/3, 1/2, 1/3). Fractions round down.
* Combat Reflexes: +1 to every active defense (000 DEFENSES), part of the score.
* Caps: "an active defense plus PD, not counting temporary modifiers, is at most
  16" (000 ACTIVE DEFENSES) - we read it as: the score built from skill,
  Combat Reflexes and encumbrance is capped at 16 minus the PD that applies to this
  attack. Temporary modifiers (direction, swing, cumulative, unarmed) come after
  that cap, and the final score is capped at 16 again (000 BLOCK, 000 PARRY,
  000 ACROBATIC DODGE: no score above 16).
* Directional penalties to block and parry (000 BLOCK, 000 PARRY) come from the
  table in ``assets/rulesets/000/directional.json``; "from below" combines with the
  arc's penalty by taking the WORSE of the two, not their sum (a blow comes from
  one place; the table says so with ``combine_below``).
* +1 to block or parry a swing (000 PARRYING SWINGS). -2 to parry a weapon with a
  bare hand (000 UNARMED PARRIES).
* Cumulative defenses (000 CUMULATIVE DEFENSES): see ``cumulative_defense_modifiers``.
* Readiness (000 PARRY): weapons of the 1/2 and 1/3 classes become unready after
  attacking or parrying, except polearms; full and 2/3 weapons never do. A weapon
  must be ready to parry with, except polearms and full-class weapons.
* Blocks per turn: a shield blocks at most 2 x its PD attacks a turn (000 BLOCK).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction
from types import MappingProxyType

from hexmap import Arc
from rules.battle.hands import hand_problem, wielded_weapons
from rules.battle.model import (
    ActionKind,
    Combatant,
    Fighter,
    ParryClass,
    TurnAction,
    Weapon,
    WeaponKind,
)
from rules.core.citation import Citation, cite
from rules.core.errors import DataError, IllegalAttackError
from rules.core.jsondata import as_enum, as_object, check_keys, get_bool, get_citation, get_int
from rules.core.modifiers import Modifier
from rules.sets.seed000.defense_kinds import DefenseKind
from rules.sets.seed000.sheet import Sheet000, sheet_of
from rules.sets.seed000.tracks import tracks_of

DEFENSES = cite("000", "DEFENSES")
ACTIVE_DEFENSES = cite("000", "ACTIVE DEFENSES")
PASSIVE_DEFENSE = cite("000", "PASSIVE DEFENSE")
CUMULATIVE_DEFENSES = cite("000", "CUMULATIVE DEFENSES")
PARRYING_SWINGS = cite("000", "PARRYING SWINGS")
UNARMED_PARRIES = cite("000", "UNARMED PARRIES")
CRITICAL_HITS_ON_DEFENSE = cite("000", "CRITICAL HITS ON DEFENSE ROLLS")
CRITICAL_MISSES_ON_DEFENSE = cite("000", "CRITICAL MISSES ON DEFENSE ROLLS")
BLOCK_000 = cite("000", "BLOCK")
# 000 BLOCK: "Heavy shields might have to be readied between uses or they will block
# at a penalty." The seed gives no figure; -2 is its usual step for a defense penalty
# (the cumulative-defense step, the weapon-arm side). See docs/rules-core.md.
HEAVY_SHIELD_UNREADY_PENALTY = -2

DEFAULT_SCORE_CAP = 16
DEFAULT_SCORE_PLUS_PD_CAP = 16
DEFAULT_ARMOR_PD_CAP = 8
DEFAULT_TOTAL_PD_CAP = 10

CUMULATIVE_STEP = -2  # each earlier defense (or attack) this turn
SAME_WEAPON_STEP = -4  # each earlier use of a weapon that attacked this turn


@dataclass(frozen=True)
class DefenseChoice:
    """An announced active defense; ``weapon_key`` names the weapon of a parry."""

    kind: DefenseKind
    weapon_key: str | None = None


# --- the directional table ----------------------------------------------------


@dataclass(frozen=True)
class DirectionalRow:
    block: int
    parry_one_handed: int
    parry_two_handed: int
    shield_pd: bool = False

    def penalty(self, kind: DefenseKind, two_handed: bool) -> int:
        if kind is DefenseKind.BLOCK:
            return self.block
        if kind is DefenseKind.PARRY:
            return self.parry_two_handed if two_handed else self.parry_one_handed
        return 0  # 000 DODGE: no directional penalty


class BelowRule(Enum):
    WORSE = "worse"  # the worse of the arc's and the below penalty (seed 000)
    SUM = "sum"


@dataclass(frozen=True)
class DirectionalTable:
    arcs: Mapping[Arc, DirectionalRow]
    below: DirectionalRow
    combine_below: BelowRule
    block_citation: Citation
    parry_citation: Citation
    shield_pd_citation: Citation

    def penalty(self, kind: DefenseKind, arc: Arc, below: bool, two_handed: bool) -> int:
        return sum(m.value for m in self.modifiers(kind, arc, below, two_handed))

    def modifiers(
        self, kind: DefenseKind, arc: Arc, below: bool, two_handed: bool
    ) -> tuple[Modifier, ...]:
        if kind is DefenseKind.DODGE:
            return ()
        citation = self.block_citation if kind is DefenseKind.BLOCK else self.parry_citation
        grip = (
            ""
            if kind is DefenseKind.BLOCK
            else (", two-handed weapon" if two_handed else ", one-handed weapon")
        )
        from_arc = self.arcs[arc].penalty(kind, two_handed)
        arc_text = f"attack from the {arc.value}{grip}"
        if not below:
            return _nonzero(Modifier(from_arc, arc_text, citation))
        from_below = self.below.penalty(kind, two_handed)
        if self.combine_below is BelowRule.SUM:
            return _nonzero(
                Modifier(from_arc, arc_text, citation),
                Modifier(from_below, f"attack from below{grip}", citation),
            )
        worse = min(from_arc, from_below)
        text = f"{arc_text} and from below ({from_arc:+d} / {from_below:+d}: the worse counts)"
        return _nonzero(Modifier(worse, text, citation))

    def shield_pd_counts(self, arc: Arc) -> bool:
        return self.arcs[arc].shield_pd


def _nonzero(*mods: Modifier) -> tuple[Modifier, ...]:
    return tuple(m for m in mods if m.value)


def parse_directional_table(data: object) -> DirectionalTable:
    obj = as_object(data, "directional")
    check_keys(obj, "directional", ("arcs", "below", "citations"), ("about", "combine_below"))
    cites = as_object(obj["citations"], "directional.citations")
    check_keys(cites, "directional.citations", ("block", "parry", "shield_pd"))
    arcs_obj = as_object(obj["arcs"], "directional.arcs")
    arcs: dict[Arc, DirectionalRow] = {}
    for key, raw in arcs_obj.items():
        where = f"directional.arcs.{key}"
        arcs[as_enum(key, Arc, where)] = _parse_row(raw, where, with_shield=True)
    missing = [a.value for a in Arc if a not in arcs]
    if missing:
        raise DataError(f"directional.arcs: missing {', '.join(missing)}")
    return DirectionalTable(
        arcs=MappingProxyType(arcs),
        below=_parse_row(obj["below"], "directional.below", with_shield=False),
        combine_below=as_enum(obj.get("combine_below", "worse"), BelowRule, "directional"),
        block_citation=get_citation(cites, "block", "directional.citations"),
        parry_citation=get_citation(cites, "parry", "directional.citations"),
        shield_pd_citation=get_citation(cites, "shield_pd", "directional.citations"),
    )


def _parse_row(raw: object, where: str, with_shield: bool) -> DirectionalRow:
    row = as_object(raw, where)
    columns = ("block", "parry_one_handed", "parry_two_handed")
    check_keys(row, where, (*columns, "shield_pd") if with_shield else columns)
    values = [get_int(row, c, where) for c in columns]
    if any(v > 0 for v in values):
        raise DataError(f"{where}: directional modifiers are penalties (0 or less)")
    shield = get_bool(row, "shield_pd", where) if with_shield else False
    return DirectionalRow(values[0], values[1], values[2], shield)


# --- passive defense ----------------------------------------------------------


@dataclass(frozen=True)
class PassiveDefense:
    """The PD that applies against one attack, and the penalties it gives the
    attacker (000 PASSIVE DEFENSE)."""

    armor_pd: int  # after the armor cap
    shield_pd: int  # the part of the total the shield contributes, after the caps
    shield_counts: bool  # does the arc let the shield's PD count at all
    total: int
    modifiers: tuple[Modifier, ...]


def passive_defense(
    fighter: Fighter,
    arc: Arc,
    table: DirectionalTable,
    armor_cap: int = DEFAULT_ARMOR_PD_CAP,
    total_cap: int = DEFAULT_TOTAL_PD_CAP,
    shield_factor: tuple[int, str, Citation] | None = None,
) -> PassiveDefense:
    """The armor's PD and, from an arc where it counts, the shield's, within the
    caps. ``shield_factor``: how many times the shield's PD counts against this
    blow, why and by which rule (000 RANDOM BODY HIT note 13: double against a
    swing at the chest area, always at the shield arm); the part over its plain PD
    is a modifier of its own, still within the cap of 10."""
    mods: list[Modifier] = []
    armor_pd = 0
    if fighter.armor is not None and fighter.armor.pd > 0:
        armor_pd = min(fighter.armor.pd, armor_cap)
        capped = f", capped at {armor_cap}" if fighter.armor.pd > armor_cap else ""
        mods.append(
            Modifier(
                -armor_pd, f"defender's armor PD ({fighter.armor.name}{capped})", PASSIVE_DEFENSE
            )
        )
    shield = fighter.shield
    counts = shield is not None and table.shield_pd_counts(arc)
    shield_pd = 0
    if shield is not None and counts:
        shield_pd = max(0, min(shield.pd, total_cap - armor_pd))
        capped = f", armor + shield capped at {total_cap}" if shield_pd < shield.pd else ""
        mods.append(
            Modifier(
                -shield_pd,
                f"defender's shield PD ({shield.name}{capped})",
                table.shield_pd_citation,
            )
        )
        if shield_factor is not None and shield_factor[0] > 1:
            times, why, rule = shield_factor
            extra = max(0, min(shield.pd * times, total_cap - armor_pd)) - shield_pd
            if extra:
                mods.append(Modifier(-extra, f"{shield.name} PD x{times}: {why}", rule))
                shield_pd += extra
    elif shield is not None:
        mods.append(
            Modifier(
                0,
                f"{shield.name} gives no PD against an attack from the {arc.value}",
                table.shield_pd_citation,
            )
        )
    return PassiveDefense(armor_pd, shield_pd, counts, armor_pd + shield_pd, tuple(mods))


# --- base scores ----------------------------------------------------------------


@dataclass(frozen=True)
class BaseScore:
    value: int
    reason: str
    citation: Citation


def _part(fraction: Fraction, skill: int) -> int:
    return math.floor(fraction * skill)  # fractions round down


_DODGE_CITATION = DefenseKind.DODGE.citation


def dodge_base(fighter: Fighter, sheet: Sheet000 | None = None) -> BaseScore:
    """The best of Move, DX/2 and Dodge skill/2 (000 DODGE); encumbrance is a
    separate modifier. ``sheet``: the fighter's, when the caller has read it."""
    if sheet is None:
        sheet = sheet_of(fighter)
    dx, dodge, move = sheet.attributes.dx, sheet.dodge_skill, fighter.move
    # The first of the best, in this order; only its reason is written out.
    if dodge is not None and dodge // 2 > max(move, dx // 2):
        value, why = dodge // 2, f"Dodge skill {dodge}/2"
    elif dx // 2 > move:
        value, why = dx // 2, f"DX {dx}/2"
    else:
        value, why = move, f"Move {move}"
    return BaseScore(value, f"best of Move, DX/2, Dodge/2: {why}", _DODGE_CITATION)


def block_base(fighter: Fighter, sheet: Sheet000 | None = None) -> BaseScore:
    if sheet is None:
        sheet = sheet_of(fighter)
    skill = sheet.skill(sheet.shield_skill)
    return BaseScore(
        _part(Fraction(2, 3), skill),
        f"2/3 of {sheet.shield_skill} {skill}",
        DefenseKind.BLOCK.citation,
    )


def parry_base(fighter: Fighter, weapon: Weapon, sheet: Sheet000 | None = None) -> BaseScore:
    """The weapon's share of its skill; an improvised item's clumsiness lowers the
    skill first (000 IMPROVISED WEAPONS: it parries like the weapon it resembles)."""
    if sheet is None:
        sheet = sheet_of(fighter)
    skill = sheet.skill(weapon.skill) + weapon.clumsiness
    share = "" if weapon.parry is ParryClass.FULL else f"{weapon.parry.value} of "
    clumsy = f" with {weapon.clumsiness:+d} for the improvised item" if weapon.clumsiness else ""
    return BaseScore(
        _part(weapon.parry.fraction, skill),
        f"{share}{weapon.skill} {skill}{clumsy} ({weapon.name}, parry class {weapon.parry.value})",
        DefenseKind.PARRY.citation,
    )


# --- readiness ------------------------------------------------------------------


def unready_after_use(weapon: Weapon) -> bool:
    """1/2 and 1/3 class weapons become unready after an attack or parry,
    except polearms (000 PARRY)."""
    return (
        weapon.parry in (ParryClass.HALF, ParryClass.THIRD)
        and weapon.kind is not WeaponKind.POLEARM
    )


def needs_ready_to_parry(weapon: Weapon) -> bool:
    """Every weapon but polearms and full-class weapons must be ready to parry."""
    return weapon.parry is not ParryClass.FULL and weapon.kind is not WeaponKind.POLEARM


# --- cumulative defenses --------------------------------------------------------


def cumulative_defense_modifiers(
    history: Sequence[TurnAction],
    kind: DefenseKind,
    weapon_key: str | None = None,
    weapon_name: str = "weapon",
) -> tuple[Modifier, ...]:
    """Penalty for a defense from what the defender already did this turn
    (000 CUMULATIVE DEFENSES).

    Each earlier attack or defense this turn gives -2. When the defense is a
    parry with a weapon that attacked this turn, each earlier use of THAT weapon
    (the attack, earlier parries) gives -4 instead. Defenses won with a critical
    success do not count (000 CRITICAL HITS ON DEFENSE ROLLS). This reproduces the
    seed's worked example: attack, block (-2), dodge (-4), parry (-2-2-4 = -8), a
    second parry -12, a second block or dodge -8. Counting the attack as an
    earlier action is what makes the second block -8 rather than -6.
    """
    counted = [a for a in history if a.counts]
    if not counted:  # the first action this turn (the common case on the attack path)
        return ()
    attacked = (
        kind is DefenseKind.PARRY
        and weapon_key is not None
        and any(a.kind is ActionKind.ATTACK and a.weapon_key == weapon_key for a in counted)
    )
    same = [
        a
        for a in counted
        if attacked
        and a.weapon_key == weapon_key
        and a.kind in (ActionKind.ATTACK, ActionKind.PARRY)
    ]
    other = len(counted) - len(same)
    mods: list[Modifier] = []
    if other:
        mods.append(
            Modifier(
                CUMULATIVE_STEP * other,
                f"{other} earlier attack/defense this turn" if other == 1
                else f"{other} earlier attacks/defenses this turn",
                CUMULATIVE_DEFENSES,
            )
        )
    if same:
        mods.append(
            Modifier(
                SAME_WEAPON_STEP * len(same),
                f"{len(same)} earlier use{'' if len(same) == 1 else 's'} this turn "
                f"of the {weapon_name}, which attacked",
                CUMULATIVE_DEFENSES,
            )
        )
    return tuple(mods)


def attack_cumulative_modifiers(
    history: Sequence[TurnAction], weapon_key: str, weapon_name: str = "weapon"
) -> tuple[Modifier, ...]:
    """An attack with a weapon that already parried this turn: -4 for each such
    parry (000 CUMULATIVE DEFENSES, "and vice versa")."""
    n = sum(
        1 for a in history if a.counts and a.kind is ActionKind.PARRY and a.weapon_key == weapon_key
    )
    if not n:
        return ()
    return (
        Modifier(
            SAME_WEAPON_STEP * n,
            f"the {weapon_name} already parried {'once' if n == 1 else f'{n} times'} this turn",
            CUMULATIVE_DEFENSES,
        ),
    )


def start_new_turn(c: Combatant) -> Combatant:
    """Clear the per-turn record of attacks and defenses (000 CUMULATIVE DEFENSES).
    An off-balance outlasts it: ``rules.sets.seed000.balance`` ends it."""
    if not c.actions_this_turn:
        return c
    return replace(c, actions_this_turn=())


# --- one planned defense --------------------------------------------------------


@dataclass(frozen=True)
class DefenseSituation:
    """What the defender's score depends on besides the defender."""

    arc: Arc
    below: bool = False
    attack_is_swing: bool = False
    attack_is_unarmed: bool = False
    pd_total: int = 0


@dataclass(frozen=True)
class DefensePlan:
    """An announced defense with its final score: ``value == base + sum(modifiers)``."""

    choice: DefenseChoice
    item_name: str | None  # the shield or weapon used
    base: int
    base_reason: str
    modifiers: tuple[Modifier, ...]
    value: int
    citation: Citation
    action: TurnAction  # what it adds to the defender's turn record
    becomes_unready: bool  # the parrying weapon goes unready (000 PARRY)

    @property
    def kind(self) -> DefenseKind:
        return self.choice.kind


def plan_defense(
    defender: Combatant,
    choice: DefenseChoice,
    situation: DefenseSituation,
    history: Sequence[TurnAction],
    table: DirectionalTable,
    score_cap: int = DEFAULT_SCORE_CAP,
    score_plus_pd_cap: int = DEFAULT_SCORE_PLUS_PD_CAP,
    *,
    extra_modifiers: Sequence[Modifier] = (),
    free_parries: int = 0,
    free_parry_citation: Citation | None = None,
) -> DefensePlan:
    """Check that ``choice`` is possible and compute its score with every modifier.

    ``history`` is what the defender did earlier this turn, including the
    defenses announced before this one against the same attack. Raises
    ``IllegalAttackError`` for an impossible defense.

    ``extra_modifiers`` are temporary modifiers the attack supplies (a defended
    body area, ...). ``free_parries``: this many parries a turn without the
    cumulative penalty (000 FENCING PARRIES: 2, or 4 on all-out defense; the caller
    checks the fencing conditions). A defender ``off_balance`` has every negative
    temporary modifier doubled (000 CRITICAL MISSES ON DEFENSE ROLLS, dodge).
    """
    f = defender.fighter
    kind = choice.kind
    sheet = sheet_of(f)
    tracks = tracks_of(defender)
    if not defender.status.can_defend:
        raise IllegalAttackError(
            f"{defender.name} is {defender.status.value} and has no active defense "
            f"({ACTIVE_DEFENSES})"
        )
    weapon: Weapon | None = None
    becomes_unready = False
    if kind is DefenseKind.DODGE:
        if choice.weapon_key is not None:
            raise IllegalAttackError("a dodge uses no weapon")
        base = dodge_base(f, sheet)
        item: str | None = None
        key: str | None = None
    elif kind is DefenseKind.BLOCK:
        shield = f.shield
        if shield is None:
            raise IllegalAttackError(f"{defender.name} has no shield to block with")
        if choice.weapon_key not in (None, shield.key):
            raise IllegalAttackError(
                f"{defender.name} blocks with the shield, not {choice.weapon_key!r}"
            )
        if shield.key in defender.unready or not defender.shield_ready:
            raise IllegalAttackError(f"{defender.name}'s {shield.name} is not ready")
        blocks = sum(1 for a in history if a.kind is ActionKind.BLOCK)
        if blocks >= 2 * shield.pd:
            raise IllegalAttackError(
                f"a {shield.name} blocks at most {2 * shield.pd} attacks a turn (000 BLOCK)"
            )
        base = block_base(f, sheet)
        item, key = shield.name, shield.key
        becomes_unready = shield.heavy  # 000 BLOCK: heavy shields need readying
    else:
        if choice.weapon_key is None:
            raise IllegalAttackError("a parry needs a weapon")
        try:
            weapon = f.weapon(choice.weapon_key)
        except KeyError:
            raise IllegalAttackError(
                f"{defender.name} has no weapon {choice.weapon_key!r}"
            ) from None
        if weapon.parry is ParryClass.NONE:
            raise IllegalAttackError(f"a {weapon.name} cannot parry")
        not_in_hand = hand_problem(defender, weapon.key)
        if not_in_hand is not None:
            raise IllegalAttackError(not_in_hand)
        if weapon.key in defender.unready and needs_ready_to_parry(weapon):
            raise IllegalAttackError(f"{defender.name}'s {weapon.name} is not ready to parry")
        if weapon.key in tracks.strained_weapons:
            raise IllegalAttackError(
                f"{defender.name}'s arm holding the {weapon.name} is strained "
                "(critical miss table: STRAIN)"
            )
        base = parry_base(f, weapon, sheet)
        item, key = weapon.name, weapon.key
        becomes_unready = unready_after_use(weapon)

    mods: list[Modifier] = []
    if sheet.combat_reflexes:
        mods.append(Modifier(1, "Combat Reflexes", DEFENSES))
    if kind is DefenseKind.DODGE and (encumbrance := sheet.encumbrance):
        mods.append(Modifier(-encumbrance, f"encumbrance level {encumbrance}", kind.citation))
    score = base.value + sum([m.value for m in mods])
    cap = min(score_cap, score_plus_pd_cap - situation.pd_total)
    if score > cap:
        mods.append(
            Modifier(
                cap - score,
                f"active defense + PD {situation.pd_total} may not exceed {score_plus_pd_cap}",
                ACTIVE_DEFENSES,
            )
        )
    # Temporary modifiers, after the cap on the score.
    base_mods = tuple(mods)
    mods.extend(
        table.modifiers(
            kind, situation.arc, situation.below, weapon is not None and weapon.two_handed
        )
    )
    if kind is not DefenseKind.DODGE and situation.attack_is_swing:
        mods.append(Modifier(1, f"{kind.value} against a swing", PARRYING_SWINGS))
    if weapon is not None and weapon.kind is WeaponKind.UNARMED and not situation.attack_is_unarmed:
        mods.append(Modifier(-2, "bare-handed parry against a weapon", UNARMED_PARRIES))
    if kind is DefenseKind.BLOCK and defender.heavy_shield_unready:
        mods.append(
            Modifier(
                HEAVY_SHIELD_UNREADY_PENALTY, "heavy shield not readied since it blocked", BLOCK_000
            )
        )
    mods.extend(extra_modifiers)
    cumulative = cumulative_defense_modifiers(history, kind, key, item or "weapon")
    mods.extend(cumulative)
    waived = 0
    if kind is DefenseKind.PARRY and free_parries > 0:
        parries = sum(1 for a in history if a.kind is ActionKind.PARRY and a.counts)
        if parries < free_parries:
            waived = sum(m.value for m in cumulative)
        if waived:
            mods.append(
                Modifier(
                    -waived,
                    f"free parry {parries + 1} of {free_parries} this turn",
                    free_parry_citation or kind.citation,
                )
            )
    if tracks.off_balance:
        temporary = sum(m.value for m in mods[len(base_mods) :] if m.value < 0) - waived
        if temporary:
            mods.append(off_balance_modifier(temporary))
    value = base.value + sum([m.value for m in mods])
    if value > score_cap:
        mods.append(
            Modifier(
                score_cap - value, f"{kind.value} may not exceed {score_cap}", kind.cap_citation
            )
        )
        value = score_cap
    return DefensePlan(
        choice=choice,
        item_name=item,
        base=base.value,
        base_reason=base.reason,
        modifiers=tuple(mods),
        value=value,
        citation=kind.citation,
        action=TurnAction(kind.action_kind, key),
        becomes_unready=becomes_unready,
    )


def off_balance_modifier(penalties: int) -> Modifier:
    """An off-balance defender's active-defense ``penalties`` (the negative
    temporary ones, added up) once more: doubled (000 CRITICAL MISSES ON DEFENSE
    ROLLS, dodge)."""
    return Modifier(penalties, "off-balance: defense penalties doubled", CRITICAL_MISSES_ON_DEFENSE)


def possible_defenses(defender: Combatant) -> tuple[DefenseChoice, ...]:
    """The defenses the defender's gear and readiness allow (ignoring the
    per-turn block limit and direction): dodge, block, one parry per weapon."""
    if not defender.status.can_defend:
        return ()
    f = defender.fighter
    choices = [DefenseChoice(DefenseKind.DODGE)]
    if f.shield is not None and f.shield.key not in defender.unready and defender.shield_ready:
        choices.append(DefenseChoice(DefenseKind.BLOCK))
    for w in wielded_weapons(defender):
        if w.parry is ParryClass.NONE:
            continue
        if w.key in defender.unready and needs_ready_to_parry(w):
            continue
        choices.append(DefenseChoice(DefenseKind.PARRY, w.key))
    return tuple(choices)
