"""000 IMPROVISED WEAPONS: fighting and parrying with things that are not weapons.

The catalog treats an improvised item (``WeaponKind.IMPROVISED``) as the real
weapon named by its ``like``: it uses that weapon's skill and parry class (see
``rules.battle.catalog.parse_weapon``), its own (usually lighter, edgeless) damage, and its
``clumsiness`` as a skill modifier on every attack and on the skill its parry is
taken from.

The seed says only that an improvised item *might* be damaged or ruined by
parrying. Hexfray's ruling: after every successful parry with one, roll 1d6 -
1: ruined (it falls useless at the wielder's feet), 2: damaged (another -1 to its
skill from then on), 3-6: unharmed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from rules.battle.model import Weapon, WeaponKind
from rules.core.citation import cite
from rules.core.dice import DiceSource, roll
from rules.core.modifiers import Modifier

IMPROVISED_000 = cite("000", "IMPROVISED WEAPONS")

PARRY_DIE_SIDES = 6
RUINED_FACES = frozenset({1})
DAMAGED_FACES = frozenset({2})
DAMAGED_PENALTY = -1  # skill, per damage taken
DAMAGED_PREFIX = "damaged "


class ImprovisedParryOutcome(Enum):
    UNHARMED = "unharmed"
    DAMAGED = "damaged"
    RUINED = "ruined"


@dataclass(frozen=True, slots=True)
class ImprovisedParryRoll:
    die: int
    outcome: ImprovisedParryOutcome


def is_improvised(weapon: Weapon) -> bool:
    return weapon.kind is WeaponKind.IMPROVISED


def clumsiness_modifier(weapon: Weapon) -> Modifier | None:
    """The skill modifier of a clumsy improvised item; None when it has none."""
    if not weapon.clumsiness:
        return None
    like = f", used like a {weapon.like}" if weapon.like else ""
    return Modifier(weapon.clumsiness, f"improvised {weapon.name}{like}", IMPROVISED_000)


def improvised_parry_outcome(face: int) -> ImprovisedParryOutcome:
    """What one d6 face does to an improvised item that just parried."""
    if not 1 <= face <= PARRY_DIE_SIDES:
        raise ValueError(f"a d6 face is 1-6, got {face}")
    if face in RUINED_FACES:
        return ImprovisedParryOutcome.RUINED
    if face in DAMAGED_FACES:
        return ImprovisedParryOutcome.DAMAGED
    return ImprovisedParryOutcome.UNHARMED


def improvised_parry_distribution() -> dict[ImprovisedParryOutcome, Fraction]:
    """The exact chance of each outcome, by enumerating the die."""
    out = {o: Fraction(0) for o in ImprovisedParryOutcome}
    for face in range(1, PARRY_DIE_SIDES + 1):
        out[improvised_parry_outcome(face)] += Fraction(1, PARRY_DIE_SIDES)
    return out


def roll_improvised_parry(rng: DiceSource, what: str) -> ImprovisedParryRoll:
    """The d6 for an improvised item that parried; ``what`` names the roll for dice
    entered at the table ("Brawler's chair after the parry")."""
    die = roll(1, rng, PARRY_DIE_SIDES, what=f"{what} (1 ruined, 2 damaged, 3-6 unharmed)")[0]
    return ImprovisedParryRoll(die, improvised_parry_outcome(die))


def damaged_improvised(weapon: Weapon) -> Weapon:
    """The item after a damaging parry: a further -1 to its skill from then on."""
    name = weapon.name if weapon.name.startswith(DAMAGED_PREFIX) else DAMAGED_PREFIX + weapon.name
    return replace(weapon, name=name, clumsiness=weapon.clumsiness + DAMAGED_PENALTY)
