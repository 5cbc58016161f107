"""The base rules' wounding effects (Injury and Death): each time a fighter's
wound points reach a multiple of five (5, 10, 15 ...) it rolls 1d10 on
``assets/rulesets/004/wound_effects.json``: more wound points, an ability or
its Speed two lower, or hit points lost. An ability or Speed effect changes the
combatant's own copy of its sheet for the rest of the battle (every later check
reads it), and is listed in its tracks; the base rules' cure by treatment is not
played in a battle."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from enum import Enum

from rules.battle.model import Combatant
from rules.core.assets import read_json
from rules.core.citation import Citation
from rules.core.dice import DiceSource, roll
from rules.core.errors import DataError
from rules.core.events import CombatantEvent, Event
from rules.core.jsondata import as_list, as_object, check_keys, get_enum, get_int, get_str
from rules.sets.seed004.sheet import ABILITIES, ABILITY_MIN, Abilities, sheet_of, with_sheet
from rules.sets.seed004.tables import KEY
from rules.sets.seed004.tracks import maximum_hit_points, tracks_of

WOUND_EFFECTS = Citation("base-004", "injury and death: wounding effects")
EVERY = 5  # wound points between two wounding effects
SIDES = 10


class EffectKind(Enum):
    WOUNDS = "wounds"
    SPEED = "speed"
    ABILITY = "ability"
    DAMAGE = "damage"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class WoundEffect:
    """One row of the table: what a roll of ``roll`` does."""

    roll: int
    kind: EffectKind
    amount: int
    ability: str = ""

    @property
    def label(self) -> str:
        if self.kind is EffectKind.WOUNDS:
            return f"{self.amount} more wound point{'s' if self.amount > 1 else ''}"
        if self.kind is EffectKind.SPEED:
            return f"Speed -{self.amount}"
        if self.kind is EffectKind.ABILITY:
            return f"{self.ability.capitalize()} -{self.amount}"
        if self.kind is EffectKind.DAMAGE:
            return f"{self.amount} point{'s' if self.amount > 1 else ''} of damage"
        return "no effect"


def parse_wound_effects(data: object, where: str = "wound_effects") -> tuple[WoundEffect, ...]:
    obj = as_object(data, where)
    check_keys(obj, where, ("rows",), ("about",))
    rows: list[WoundEffect] = []
    for i, item in enumerate(as_list(obj["rows"], f"{where}.rows")):
        at = f"{where}.rows[{i}]"
        r = as_object(item, at)
        check_keys(r, at, ("roll", "effect", "amount"), ("ability",))
        kind = get_enum(r, "effect", EffectKind, at)
        amount = get_int(r, "amount", at)
        ability = get_str(r, "ability", at) if "ability" in r else ""
        if (kind is EffectKind.ABILITY) != bool(ability) or (ability and ability not in ABILITIES):
            raise DataError(f"{at}: an ability effect names one of {', '.join(ABILITIES)}")
        if not 0 <= amount <= 10:
            raise DataError(f"{at}.amount: 0 to 10")
        rows.append(WoundEffect(get_int(r, "roll", at), kind, amount, ability))
    if sorted(r.roll for r in rows) != list(range(1, SIDES + 1)):
        raise DataError(f"{where}.rows: one row for each roll 1 to {SIDES}")
    return tuple(sorted(rows, key=lambda r: r.roll))


@functools.cache
def wound_effects() -> tuple[WoundEffect, ...]:
    return parse_wound_effects(
        read_json("rulesets", KEY, "wound_effects.json"), "wound_effects.json"
    )


@dataclass(frozen=True, kw_only=True)
class WoundTaken(CombatantEvent):
    """A wound point: one more, the maximum HP one lower."""

    wounds: int
    maximum: int

    def describe(self) -> str:
        return f"{self.name} is wounded: {self.wounds} wound(s), maximum HP now {self.maximum}"


@dataclass(frozen=True, kw_only=True)
class WoundEffectRolled(CombatantEvent):
    """At a multiple of five wound points: the d10 and what it did."""

    wounds: int
    face: int
    effect: str
    hp_after: int

    def describe(self) -> str:
        return (
            f"{self.name} reaches {self.wounds} wound points: wounding effect "
            f"{self.face} (1d10): {self.effect} ({self.hp_after} HP)"
        )


@dataclass(frozen=True, slots=True)
class WoundAdded:
    """A wound point taken (``WoundTaken`` in the log): the wounds now and the
    maximum HP they leave; ``citation``: the rule that gave it."""

    citation: Citation
    wounds: int
    maximum: int

    def event(self, combatant_id: str, name: str) -> Event:
        return WoundTaken(
            citation=self.citation,
            combatant_id=combatant_id,
            name=name,
            wounds=self.wounds,
            maximum=self.maximum,
        )


@dataclass(frozen=True, slots=True)
class EffectRolled:
    """A wounding effect rolled at a multiple of five wound points
    (``WoundEffectRolled`` in the log)."""

    wounds: int
    face: int
    effect: str
    hp_after: int

    def event(self, combatant_id: str, name: str) -> Event:
        return WoundEffectRolled(
            citation=WOUND_EFFECTS,
            combatant_id=combatant_id,
            name=name,
            wounds=self.wounds,
            face=self.face,
            effect=self.effect,
            hp_after=self.hp_after,
        )


def add_wounds(
    defender: Combatant, count: int, dice: DiceSource, citation: Citation
) -> tuple[Combatant, tuple[WoundAdded | EffectRolled, ...]]:
    """``count`` wound points, one at a time; each that reaches a multiple of
    five rolls a wounding effect (which may add more). The wounded fighter, and
    what happened in the order the log tells it."""
    done: list[WoundAdded | EffectRolled] = []
    for _ in range(count):
        tracks = tracks_of(defender)
        defender = defender.evolve(tracks=replace(tracks, wounds=tracks.wounds + 1))
        wounds = tracks.wounds + 1
        done.append(WoundAdded(citation, wounds, maximum_hit_points(defender)))
        if wounds % EVERY == 0:
            defender, more = _wounding_effect(defender, wounds, dice)
            done.extend(more)
    return defender, tuple(done)


def _wounding_effect(
    defender: Combatant, wounds: int, dice: DiceSource
) -> tuple[Combatant, tuple[WoundAdded | EffectRolled, ...]]:
    (face,) = roll(1, dice, SIDES, what=f"{defender.name}'s wounding effect")
    effect = wound_effects()[face - 1]
    fighter = defender.fighter
    if effect.kind is EffectKind.SPEED:
        defender = defender.evolve(
            fighter=replace(fighter, move=max(0, fighter.move - effect.amount))
        )
    elif effect.kind is EffectKind.ABILITY:
        sheet = sheet_of(fighter)
        rank = max(ABILITY_MIN, sheet.abilities.rank(effect.ability) - effect.amount)
        abilities: Abilities = replace(sheet.abilities, **{effect.ability: rank})
        defender = defender.evolve(fighter=with_sheet(fighter, replace(sheet, abilities=abilities)))
    elif effect.kind is EffectKind.DAMAGE:
        defender = defender.evolve(hp=defender.hp - effect.amount)
    tracks = tracks_of(defender)
    defender = defender.evolve(tracks=replace(tracks, effects=(*tracks.effects, effect.label)))
    rolled = EffectRolled(wounds, face, effect.label, defender.hp)
    if effect.kind is EffectKind.WOUNDS:
        defender, more = add_wounds(defender, effect.amount, dice, WOUND_EFFECTS)
        return defender, (rolled, *more)
    return defender, (rolled,)
