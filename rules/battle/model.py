"""The frozen data model of fighters and their gear.

Everything here is immutable: a battle changes by replacing values
(``dataclasses.replace``) inside a command, never by mutation, so that a seed plus
the command log replays a battle exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import Enum
from fractions import Fraction
from typing import ClassVar, TypedDict, Unpack

from hexmap import Facing, Handedness, Hex, Reach
from rules.battle.maneuvers import ManeuverChoice
from rules.core.dice import Dice
from rules.core.quick_init import quick_init


class DamageType(Enum):
    """Damage types of the 3d6 family. Wounding multipliers live in the ruleset."""

    CRUSHING = "cr"
    CUTTING = "cut"
    IMPALING = "imp"
    SMALL_PIERCING = "pi-"
    PIERCING = "pi"
    LARGE_PIERCING = "pi+"
    HUGE_PIERCING = "pi++"
    BULLET = "bullet"  # seed 000's hit location notes treat bullets apart
    BURNING = "burn"
    CORROSION = "cor"
    TOXIC = "tox"
    FATIGUE = "fat"

    @property
    def label(self) -> str:
        return self.value


class ParryClass(Enum):
    """000 PARRY: a weapon's balance sets its parry score as a fraction of skill."""

    FULL = "full"
    TWO_THIRDS = "2/3"
    HALF = "1/2"
    THIRD = "1/3"
    NONE = "none"  # cannot parry (e.g. guns, bows)

    @property
    def fraction(self) -> Fraction:
        return Fraction(*_PARRY_RATIOS[self])


_PARRY_RATIOS = {
    ParryClass.FULL: (1, 1),
    ParryClass.TWO_THIRDS: (2, 3),
    ParryClass.HALF: (1, 2),
    ParryClass.THIRD: (1, 3),
    ParryClass.NONE: (0, 1),
}


class WeaponKind(Enum):
    """What a weapon is, for the rules that depend on it: the broken-weapon table
    (000 BROKEN WEAPONS), blade breaking (000 BREAKING A BLADE), the strike-at-weapon
    size penalty (000 STRIKING AT WEAPONS), fencing (000 FENCING PARRIES)."""

    SWORD = "sword"
    TWO_HEX_SWORD = "two-hex sword"
    RAPIER = "rapier"
    FOIL = "foil"
    SABER = "saber"
    KNIFE = "knife"
    MAIN_GAUCHE = "main-gauche"
    SPEAR = "spear"
    PIKE = "pike"
    BATTLE_AXE = "battle-axe"
    POLEARM = "polearm"
    AXE = "axe"
    MACE = "mace"
    CLUB = "club"
    STAFF = "staff"
    FLAIL = "flail"
    CHAIN = "chain"
    UNARMED = "unarmed"
    BOW = "bow"
    CROSSBOW = "crossbow"
    SLING = "sling"
    GUN = "gun"
    IMPROVISED = "improvised"


class Quality(Enum):
    CHEAP = "cheap"
    GOOD = "good"
    FINE = "fine"
    VERY_FINE = "very fine"

    @property
    def rank(self) -> int:
        return list(Quality).index(self)


class WeaponSize(Enum):
    """000 DROPPED WEAPONS scatters small and large weapons differently (seed 000
    reads any size but small as large); seed 002 parries by all four size ranks,
    in this order (``rank``)."""

    SMALL = "small"
    LARGE = "large"
    MEDIUM = "medium"
    HUGE = "huge"

    @property
    def rank(self) -> int:
        """0 small, 1 medium, 2 large, 3 huge (002 parry by size rank)."""
        return _SIZE_RANKS[self]


_SIZE_RANKS = {WeaponSize.SMALL: 0, WeaponSize.MEDIUM: 1, WeaponSize.LARGE: 2, WeaponSize.HUGE: 3}


class DamageBase(Enum):
    """Where a weapon's damage dice come from: the wielder's thrust or swing by ST,
    or a fixed roll (guns, thrown rocks)."""

    THRUST = "thr"
    SWING = "sw"
    FIXED = "fixed"


@dataclass(frozen=True, slots=True)
class DamageSpec:
    """A weapon mode's damage: base (thr/sw/fixed) plus adds, with a type.
    ``fixed`` holds the dice when base is FIXED. ``factor`` scales the basic
    damage rolled, rounded down: a broken weapon's "1/2 damage" (000 BROKEN
    WEAPONS), which stays with the weapon in hand, on the ground and picked up."""

    base: DamageBase
    adds: int
    type: DamageType
    fixed: Dice | None = None
    factor: Fraction = Fraction(1)

    def __str__(self) -> str:
        if self.base is DamageBase.FIXED and self.fixed is not None:
            dice = str(self.fixed)
        else:
            dice = f"{self.base.value}{self.adds:+d}" if self.adds else self.base.value
        scaled = dice if self.factor == 1 else f"{self.factor} x ({dice})"
        return f"{scaled} {self.type.value}"


class Delivery(Enum):
    """How a mode reaches its target: a blow in hand (reach), a weapon thrown from
    the hand, or a missile shot from it (range). 000 MISSILE AND THROWN WEAPONS."""

    MELEE = "melee"
    THROWN = "thrown"
    MISSILE = "missile"


class Projectile(Enum):
    """What flies at the defender, for the defenses allowed against it (000 BLOCK,
    000 MISSILE AND THROWN WEAPONS). NONE is a hand weapon's blow."""

    NONE = "none"
    SMALL_THROWN = "small thrown"  # knives, shuriken: parried at -2
    THROWN = "thrown"  # spears, axes: parried at -1
    LOW_TECH_MISSILE = "low-tech missile"  # arrows, bolts, sling stones
    BULLET = "bullet"
    BEAM = "beam"


@dataclass(frozen=True, slots=True)
class WeaponMode:
    """One way of using a weapon (swing, thrust, throw, shoot ...).

    A thrown or missile mode strikes at ``range_hexes`` instead of ``reach`` (which
    then only says where the weapon is held); ``half_damage_hexes`` is its 1/2D range."""

    name: str
    damage: DamageSpec
    reach: Reach
    skill_modifier: int = 0
    delivery: Delivery = Delivery.MELEE
    projectile: Projectile = Projectile.NONE
    range_hexes: int | None = None
    half_damage_hexes: int | None = None

    @property
    def is_swing(self) -> bool:
        """A swung blow in hand (a thrown axe is no swing to parry at +1)."""
        return self.damage.base is DamageBase.SWING and self.delivery is Delivery.MELEE

    @property
    def is_ranged(self) -> bool:
        return self.delivery is not Delivery.MELEE

    @property
    def reach_text(self) -> str:
        """How far this mode strikes, as the panes show it: a melee reach or a range."""
        return f"range {self.range_hexes}" if self.is_ranged else f"reach {self.reach}"


@dataclass(frozen=True, slots=True)
class Weapon:
    key: str
    name: str
    kind: WeaponKind
    skill: str  # the skill name used with it, e.g. "Broadsword"
    modes: tuple[WeaponMode, ...]
    parry: ParryClass
    weight: float  # pounds
    two_handed: bool = False
    size: WeaponSize = WeaponSize.SMALL
    quality: Quality = Quality.GOOD
    min_st: int = 0
    reliable: bool = False  # 000 VERIFYING CRITICAL MISSES
    wooden_shaft: bool = False  # 000 CUTTING THROUGH A WEAPON
    metal_faced: bool = False
    # 000 IMPROVISED WEAPONS: the catalog key of the real weapon an improvised item
    # is treated as, and the skill modifier (0 or less) for its clumsiness.
    like: str | None = None
    clumsiness: int = 0

    def __post_init__(self) -> None:
        if not self.modes:
            raise ValueError(f"weapon {self.key!r} has no modes of use")

    def mode(self, name: str) -> WeaponMode:
        for m in self.modes:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def reach(self) -> Reach:
        """Union of every melee mode's reach (of every mode when none is melee)."""
        melee = [m for m in self.modes if not m.is_ranged] or list(self.modes)
        distances: frozenset[int] = frozenset()
        for m in melee:
            distances |= m.reach.distances
        return Reach(distances)

    @property
    def is_missile_weapon(self) -> bool:
        """A hand-held missile weapon (bow, sling, gun ...): a mode shoots missiles."""
        return any(m.delivery is Delivery.MISSILE for m in self.modes)


class ShieldSize(Enum):
    BUCKLER = "buckler"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    FORCE = "force"
    CLOAK = "cloak"


@dataclass(frozen=True, slots=True)
class Shield:
    key: str
    name: str
    size: ShieldSize
    pd: int
    weight: float
    heavy: bool = False  # 000 BLOCK: heavy shields may need readying between blocks

    @property
    def dropped_on_critical_miss(self) -> bool:
        """000 CRITICAL MISSES ON DEFENSE ROLLS: bucklers and small shields fall."""
        return self.size in (ShieldSize.BUCKLER, ShieldSize.SMALL)


@dataclass(frozen=True, slots=True)
class Armor:
    key: str
    name: str
    pd: int
    dr: int
    weight: float = 0.0  # pounds, for encumbrance


class WeaponCondition(Enum):
    INTACT = "intact"
    DAMAGED = "damaged"
    WEAKENED = "weakened"
    BROKEN = "broken"


@dataclass(frozen=True, slots=True)
class WeaponDamageState:
    """Damage a weapon has taken (after its DR), accumulated across blows."""

    damage_taken: int = 0
    weakened: bool = False
    broken: bool = False

    @property
    def condition(self) -> WeaponCondition:
        if self.broken:
            return WeaponCondition.BROKEN
        if self.weakened:
            return WeaponCondition.WEAKENED
        if self.damage_taken > 0:
            return WeaponCondition.DAMAGED
        return WeaponCondition.INTACT


INTACT = WeaponDamageState()


class Side(Enum):
    """Who a combatant fights for; the app colours tokens by it."""

    RED = "red"
    BLUE = "blue"
    GREEN = "green"
    GOLD = "gold"


class Status(Enum):
    ACTIVE = "active"
    STUNNED = "stunned"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"

    @property
    def can_defend(self) -> bool:
        return self in (Status.ACTIVE, Status.STUNNED)


@dataclass(frozen=True, slots=True)
class RulesetSheet:
    """Base of a ruleset's statistics for one fighter: what its rules read from the
    character sheet beyond the neutral fields (seed 000: ST/DX/IQ/HT, skills,
    advantages). Each ruleset subclasses it; the battle carries it in
    ``Fighter.stats`` and never looks inside. The base itself holds nothing: a
    fighter with it has no ruleset's statistics."""

    # The registry key of the ruleset whose sheet this is, declared by each
    # ruleset's sheet class (a test checks it against the registry): the battle
    # names a fighter's ruleset by it, and never by the class's module.
    ruleset_key: ClassVar[str | None] = None
    # Whether the ruleset whose sheet this is reads the catalog's not yet read
    # sheets (``rules.battle.catalog.RawSheet``) as its own (one ruleset does).
    reads_raw_sheets: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Fighter:
    """A character sheet: what a combatant is, independent of where it stands.

    The neutral fields are what the battle and the generic panes read and every
    ruleset can fill. ``hit_points`` is the scale of the health bar and of
    ``Combatant.hp``: hit points in the 3d6, d100 and 2d6 systems; a FUDGE
    ruleset fills it with the boxes of its overall wound track. ``move`` is the
    movement points a turn (``rules.battle.movement``). Everything else a
    ruleset's rules read is in ``stats``. ``origin`` names the character file
    the sheet was imported from ("gcs:<the file's id>", ``app.gcs_import``), so
    that importing it again updates this fighter; "" for any other fighter."""

    name: str
    hit_points: int
    move: int
    weapons: tuple[Weapon, ...]
    stats: RulesetSheet = field(default_factory=RulesetSheet)
    handedness: Handedness = Handedness.RIGHT
    shield: Shield | None = None
    armor: Armor | None = None
    origin: str = ""

    def weapon(self, key: str) -> Weapon:
        for w in self.weapons:
            if w.key == key:
                return w
        raise KeyError(key)


class ActionKind(Enum):
    """What a combatant did during the current turn (000 CUMULATIVE DEFENSES).

    FEINT is recorded only so that 000 STRIKING AT WEAPONS / 001 Striking at
    Weapons in Tactical Combat can tell a weapon "used to feint against you"; it
    is neither an attack nor a defense for the cumulative-defense rules."""

    ATTACK = "attack"
    DODGE = "dodge"
    BLOCK = "block"
    PARRY = "parry"
    FEINT = "feint"

    @property
    def is_defense(self) -> bool:
        return self in (ActionKind.DODGE, ActionKind.BLOCK, ActionKind.PARRY)


@quick_init
@dataclass(frozen=True, slots=True)
class TurnAction:
    """One attack or active defense made this turn, in order.

    ``weapon_key`` is the weapon of an attack or parry and the shield of a block
    (None for a dodge). ``counts`` is False for a defense won with a critical
    success: it gives no penalty to later defenses (000 CRITICAL HITS ON DEFENSE
    ROLLS), but it still happened (it counts towards a shield's blocks per turn).
    """

    kind: ActionKind
    weapon_key: str | None = None
    counts: bool = True
    # Whom it was aimed at: the defender of an attack or feint, the attacker a
    # defense was made against. None where unknown (the battle fills it in).
    target_id: str | None = None
    # A dodge made as an acrobatic dodge (000 ACROBATIC DODGE: once per turn).
    acrobatic: bool = False


# The postures live here, not in rules.sets.seed000.conditions (which re-exports them), so that
# the start-up path does not load the conditions' catalog types (issue 5).
class Posture(Enum):
    STANDING = "standing"
    DEFENSIVE_CROUCH = "defensive_crouch"
    DEEP_CROUCH = "deep_crouch"
    KNEELING = "kneeling"
    SITTING = "sitting"  # on the ground
    SITTING_IN_CHAIR = "sitting_in_chair"
    HANDS_AND_KNEES = "hands_and_knees"
    CRAWLING = "crawling"  # on the belly
    PRONE = "prone"


class ProneCover(Enum):
    """How exposed a target lying flat is to ranged attacks."""

    HEAD_UP_NO_COVER = "head_up_no_cover"
    HEAD_UP_WITH_COVER = "head_up_with_cover"
    HEAD_DOWN_WITH_COVER = "head_down_with_cover"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").replace("with ", "behind ")


@dataclass(frozen=True, slots=True)
class RulesetTracks:
    """Base of a ruleset's per-combatant state: what its rules track for one
    fighter beyond the neutral fields (seed 000: located wounds). Each ruleset
    subclasses it; the battle never looks inside."""


@dataclass(frozen=True, slots=True)
class Combatant:
    """A fighter on the map: its sheet plus everything the battle changes."""

    id: str
    fighter: Fighter
    side: Side
    hex: Hex
    facing: Facing
    hp: int  # current hit points
    status: Status = Status.ACTIVE
    # Weapons (by key) that are unready after attacking or parrying (000 PARRY).
    unready: frozenset[str] = field(default_factory=frozenset)
    # Attacks and active defenses since the start of this turn, in order
    # (000 CUMULATIVE DEFENSES). Cleared by ``rules.sets.seed000.defense.start_new_turn``.
    actions_this_turn: tuple[TurnAction, ...] = ()
    # Defender-side choices and lasting results the attack wiring reads and writes.
    shield_ready: bool = True  # False after a fumbled block loses the grip
    # 000 BLOCK: a heavy shield that blocked needs readying, else it blocks at a penalty.
    heavy_shield_unready: bool = False
    # The ruleset's own per-combatant state (located wounds, wound tracks ...):
    # carried and copied by the battle, read only by the ruleset.
    tracks: RulesetTracks = field(default_factory=RulesetTracks)
    # Damage taken by weapons (rules.sets.seed000.weapon_strikes), by weapon key;
    # only non-intact ones.
    weapon_states: tuple[tuple[str, WeaponDamageState], ...] = ()
    # --- the battlefield (rules.battle.movement, rules.battle.items; docs/battlefield.md) ---
    # Standing, kneeling, lying ... (000 ADVERSE COMBAT CONDITIONS postures).
    posture: Posture = Posture.STANDING
    # Every hex entered this turn, starting hex first; () until the first move.
    # Deliberately dropped weapons land on or next to it (000 DROPPED WEAPONS).
    path_this_turn: tuple[Hex, ...] = ()
    move_used: int = 0  # movement points spent this turn (rules.battle.movement)
    free_facing_change: bool = False  # the last step's free one-hex-side turn is unused
    ready_used: bool = False  # the turn's Ready maneuver is spent (pick up, ready)
    # Keys of the weapons on the sheet that the fighter carries but does not hold:
    # put away, or left at the belt when a hand changed. Empty until then: the
    # sheet's order fills the hands (rules.battle.hands).
    carried: frozenset[str] = field(default_factory=frozenset)
    # Last turn's record, for "the first turn after it attacked or feinted"
    # (001 Striking at Weapons in Tactical Combat).
    actions_last_turn: tuple[TurnAction, ...] = ()
    # --- the turn (rules.battle.turns) ---
    # The maneuver chosen for this turn; it holds until the fighter's next turn
    # begins (an all-out attack leaves it without active defenses until then).
    maneuver: ManeuverChoice | None = None
    attacks_made: int = 0  # Attack commands of this turn, against the maneuver's count
    # The maneuver of its previous turn, once its new one began (an Aim before a shot).
    maneuver_last_turn: ManeuverChoice | None = None

    @property
    def name(self) -> str:
        return self.fighter.name

    def evolve(self, **changes: Unpack[CombatantChanges]) -> Combatant:
        """``dataclasses.replace(self, **changes)`` at half the cost, for the attack
        path that copies combatants several times a command: replace goes through
        ``__init__`` with every field by keyword. The new instance is filled before
        anyone holds it, as the frozen ``__init__`` fills it itself. A name that is
        no field is a ``TypeError``, as for ``replace``: the slots refuse it (and
        mypy, from ``CombatantChanges``), so no check costs the attack path."""
        new = _copy_combatant(self)
        for name, value in changes.items():
            try:
                _set_field(new, name, value)
            except AttributeError:
                raise TypeError(f"Combatant has no field {name}") from None
        return new

    def weapon_state(self, key: str) -> WeaponDamageState | None:
        """The damage state of a weapon; None while it is intact."""
        for k, state in self.weapon_states:
            if k == key:
                return state
        return None

    @property
    def defenses_this_turn(self) -> tuple[TurnAction, ...]:
        return tuple(a for a in self.actions_this_turn if a.kind.is_defense)

    @property
    def weapons_used_to_attack(self) -> frozenset[str]:
        return frozenset(
            a.weapon_key
            for a in self.actions_this_turn
            if a.kind is ActionKind.ATTACK and a.weapon_key is not None
        )

    @property
    def handedness(self) -> Handedness:
        return self.fighter.handedness

    @property
    def movement_left(self) -> int:
        """Movement points left this turn (negative when the GM moved it further)."""
        return self.fighter.move - self.move_used

    def weapons_used_against(self, other_id: str, *, last_turn: bool = False) -> frozenset[str]:
        """Keys of the weapons this combatant attacked, feinted or parried with
        against ``other_id`` this turn (or last turn)."""
        actions = self.actions_last_turn if last_turn else self.actions_this_turn
        return frozenset(
            a.weapon_key
            for a in actions
            if a.target_id == other_id
            and a.weapon_key is not None
            and a.kind in (ActionKind.ATTACK, ActionKind.FEINT, ActionKind.PARRY)
        )

    def weapons_attacked_or_feinted_with(
        self, other_id: str, *, last_turn: bool = False
    ) -> frozenset[str]:
        """Keys of the weapons that attacked or feinted against ``other_id``."""
        actions = self.actions_last_turn if last_turn else self.actions_this_turn
        return frozenset(
            a.weapon_key
            for a in actions
            if a.target_id == other_id
            and a.weapon_key is not None
            and a.kind in (ActionKind.ATTACK, ActionKind.FEINT)
        )


class CombatantChanges(TypedDict, total=False):
    """The fields of ``Combatant``, each with its type: what ``Combatant.evolve``
    may change (a test holds the two alike)."""

    id: str
    fighter: Fighter
    side: Side
    hex: Hex
    facing: Facing
    hp: int
    status: Status
    unready: frozenset[str]
    actions_this_turn: tuple[TurnAction, ...]
    shield_ready: bool
    heavy_shield_unready: bool
    tracks: RulesetTracks
    weapon_states: tuple[tuple[str, WeaponDamageState], ...]
    posture: Posture
    path_this_turn: tuple[Hex, ...]
    move_used: int
    free_facing_change: bool
    ready_used: bool
    carried: frozenset[str]
    actions_last_turn: tuple[TurnAction, ...]
    maneuver: ManeuverChoice | None
    attacks_made: int
    maneuver_last_turn: ManeuverChoice | None


_COMBATANT_FIELDS = tuple(f.name for f in fields(Combatant))
_set_field = object.__setattr__  # what the frozen ``__init__`` itself uses


def _slot_copier() -> Callable[[Combatant], Combatant]:
    """A function that copies a combatant slot by slot, written out field by
    field: each slot's own writer (the same store as ``_set_field``, at about half
    the cost), with no loop to run (half the cost of a loop over the writers)."""
    namespace: dict[str, object] = {"_new_instance": object.__new__, "_Combatant": Combatant}
    lines = ["def copy_combatant(c):", "    new = _new_instance(_Combatant)"]
    for i, name in enumerate(_COMBATANT_FIELDS):
        namespace[f"_set_{i}"] = vars(Combatant)[name].__set__
        lines.append(f"    _set_{i}(new, c.{name})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # our own field names only
    return namespace["copy_combatant"]  # type: ignore[return-value]


_copy_combatant = _slot_copier()
