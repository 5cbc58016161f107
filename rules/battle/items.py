"""Things lying on the battle map, and weapons and shields changing hands.

A ``GroundItem`` is a weapon, a shield or a piece of a broken weapon in a hex
(000 DROPPED WEAPONS, 000 BROKEN WEAPONS, 001 Knocking a Weapon Away). Items are
part of ``BattleState``, so a replay of the command log puts every one back.

Decisions (docs/battlefield.md):

* A weapon or shield that leaves a hand leaves the fighter's sheet
  (``Fighter.weapons`` / ``Fighter.shield``): an attack with it is then refused.
  Picking it up puts it back, ready - picking up an item is the turn's Ready
  maneuver (family basics: "Ready: pick up or draw an item and prepare it for
  use"), recorded as ``Combatant.ready_used``; a second Ready in one turn is
  refused unless the GM overrides.
* Reach: an item in the combatant's own hex or an adjacent one can be picked up.
* A deliberate drop (000 DROPPED WEAPONS) goes to a hex the carrier passed through
  this turn or a hex adjacent to one (``drop_candidates``); the GM picks the hex,
  by default the carrier's own hex, or lets the dice pick one of the candidates
  (uniformly, one ``randint(1, n)`` on the sorted candidates).
* Attack resolutions hand pieces to the battle as ``MapEffect`` values
  (``WeaponLeavesHand``, ``ShieldLeavesHand``, ``Falls``); ``rules.battle.battle``
  resolves them to ground items with ``rules.battle.scatter`` and the command's dice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from hexmap import Hex, HexGrid
from rules.battle.hands import keep_carried, pick_up_problem, settled
from rules.battle.model import Combatant, Posture, Shield, Weapon, WeaponDamageState, WeaponKind
from rules.battle.pieces import AT_FEET, BROKEN_MARK, Piece, Placement
from rules.battle.values import hex_name
from rules.core.citation import Citation
from rules.core.errors import IllegalCommandError
from rules.core.events import Event


class ItemKind(Enum):
    WEAPON = "weapon"  # a whole weapon (dropped, knocked away, disarmed)
    PIECE = "piece"  # part of a broken weapon, usable (``weapon`` set) or not
    SHIELD = "shield"


@dataclass(frozen=True, slots=True)
class GroundItem:
    """An item lying in a hex.

    ``icon`` is a key for the map painter: ``weapon:<kind>`` (e.g.
    ``weapon:sword``), ``shield:<size>`` or ``piece`` / ``piece:<kind>``.
    ``origin_id`` is whoever held it last. ``note`` carries what a broken piece's
    ``rules.battle.pieces.Piece`` says beyond its ``Weapon`` (whose damage keeps a
    broken weapon's reduced damage);
    ``weapon_state`` the damage the weapon had taken (rules.sets.seed000.weapon_strikes).
    """

    id: str
    name: str
    kind: ItemKind
    weapon: Weapon | None
    shield: Shield | None
    hex: Hex
    icon: str
    origin_id: str | None = None
    note: str = ""
    weapon_state: WeaponDamageState | None = None

    def __post_init__(self) -> None:
        if self.kind is ItemKind.WEAPON and self.weapon is None:
            raise IllegalCommandError(f"ground item {self.id!r}: a weapon item needs its weapon")
        if self.kind is ItemKind.SHIELD and self.shield is None:
            raise IllegalCommandError(f"ground item {self.id!r}: a shield item needs its shield")
        if self.kind is not ItemKind.SHIELD and self.shield is not None:
            raise IllegalCommandError(f"ground item {self.id!r}: only a shield item holds a shield")
        if self.kind is ItemKind.SHIELD and self.weapon is not None:
            raise IllegalCommandError(f"ground item {self.id!r}: a shield item holds no weapon")

    @property
    def usable(self) -> bool:
        """A weapon or shield someone could pick up and fight with."""
        return self.weapon is not None or self.shield is not None


def item_id(number: int) -> str:
    """The id of the ``number``-th item a battle creates: "item-1", "item-2" ..."""
    return f"item-{number}"


def icon_key(kind: ItemKind, weapon: Weapon | None, shield: Shield | None) -> str:
    if kind is ItemKind.SHIELD and shield is not None:
        return f"shield:{shield.size.value}"
    if kind is ItemKind.WEAPON and weapon is not None:
        return f"weapon:{weapon.kind.value}"
    return "piece" if weapon is None else f"piece:{weapon.kind.value}"


def piece_kind(piece: Piece) -> ItemKind:
    """WEAPON for a whole weapon, PIECE for a useless or broken-off part (its
    weapon key carries ``rules.battle.pieces.BROKEN_MARK``)."""
    if piece.weapon is None or BROKEN_MARK in piece.weapon.key:
        return ItemKind.PIECE
    return ItemKind.WEAPON


def item_from_piece(
    piece: Piece,
    id: str,
    where: Hex,
    origin_id: str | None,
    weapon_state: WeaponDamageState | None = None,
) -> GroundItem:
    kind = piece_kind(piece)
    return GroundItem(
        id=id,
        name=piece.name,
        kind=kind,
        weapon=piece.weapon,
        shield=None,
        hex=where,
        icon=icon_key(kind, piece.weapon, None),
        origin_id=origin_id,
        note=piece.note,
        weapon_state=weapon_state,
    )


def item_from_shield(shield: Shield, id: str, where: Hex, origin_id: str | None) -> GroundItem:
    return GroundItem(
        id=id,
        name=shield.name,
        kind=ItemKind.SHIELD,
        weapon=None,
        shield=shield,
        hex=where,
        icon=icon_key(ItemKind.SHIELD, None, shield),
        origin_id=origin_id,
    )


def item_from_weapon(
    weapon: Weapon,
    id: str,
    where: Hex,
    origin_id: str | None = None,
    weapon_state: WeaponDamageState | None = None,
) -> GroundItem:
    kind = ItemKind.PIECE if BROKEN_MARK in weapon.key else ItemKind.WEAPON
    return GroundItem(
        id=id,
        name=weapon.name,
        kind=kind,
        weapon=weapon,
        shield=None,
        hex=where,
        icon=icon_key(kind, weapon, None),
        origin_id=origin_id,
        weapon_state=weapon_state,
    )


# ------------------------------------------------------------------ hands


@dataclass(frozen=True, slots=True)
class InHand:
    """What ``take_from_hand`` took: a weapon (with its damage state) or the shield."""

    weapon: Weapon | None
    shield: Shield | None
    weapon_state: WeaponDamageState | None = None

    @property
    def name(self) -> str:
        if self.weapon is not None:
            return self.weapon.name
        assert self.shield is not None
        return self.shield.name


def holds(combatant: Combatant, key: str) -> bool:
    fighter = combatant.fighter
    if any(w.key == key for w in fighter.weapons):
        return True
    return fighter.shield is not None and fighter.shield.key == key


def take_from_hand(combatant: Combatant, key: str) -> tuple[Combatant, InHand]:
    """Remove the weapon (or the shield) with ``key`` from the combatant's gear.

    A weapon key wins over a shield with the same key. Bare hands cannot be
    dropped. What the combatant carried stays carried (``rules.battle.hands.
    keep_carried``): nothing leaps into the hand that emptied. Raises
    ``IllegalCommandError``."""
    fighter = combatant.fighter
    for w in fighter.weapons:
        if w.key == key:
            if w.kind is WeaponKind.UNARMED:
                raise IllegalCommandError(f"{combatant.name} cannot drop bare hands")
            state = combatant.weapon_state(key)
            after = replace(
                combatant,
                fighter=replace(fighter, weapons=tuple(x for x in fighter.weapons if x.key != key)),
                unready=combatant.unready - {key},
                weapon_states=tuple((k, s) for k, s in combatant.weapon_states if k != key),
            )
            return keep_carried(combatant, after), InHand(w, None, state)
    if fighter.shield is not None and fighter.shield.key == key:
        shield = fighter.shield
        after = replace(
            combatant,
            fighter=replace(fighter, shield=None),
            unready=combatant.unready - {key},
            shield_ready=True,
        )
        return keep_carried(combatant, after), InHand(None, shield)
    raise IllegalCommandError(f"{combatant.name} holds no weapon or shield {key!r}")


def put_in_hand(combatant: Combatant, item: GroundItem) -> tuple[Combatant, str]:
    """Give a ground item's weapon or shield to ``combatant``, ready, in a free
    hand (both for a two-handed weapon: ``rules.battle.hands``); return the
    combatant and the key it now has (a weapon key the combatant already uses gets
    ``@<item id>`` appended so keys stay unique). Raises ``IllegalCommandError``
    when no hand is free for it."""
    fighter = combatant.fighter
    if item.shield is not None and fighter.shield is not None:
        raise IllegalCommandError(
            f"{combatant.name} already carries a shield ({fighter.shield.name})"
        )
    gear = item.shield if item.shield is not None else item.weapon
    if gear is not None:
        no_hand = pick_up_problem(combatant, gear)
        if no_hand is not None:
            raise IllegalCommandError(no_hand)
    combatant = settled(combatant)  # what it carries stays carried
    fighter = combatant.fighter
    if item.shield is not None:
        after = replace(
            combatant,
            fighter=replace(fighter, shield=item.shield),
            unready=combatant.unready - {item.shield.key},
            shield_ready=True,
        )
        return after, item.shield.key
    if item.weapon is None:
        raise IllegalCommandError(f"{item.name} is useless; nobody can fight with it")
    weapon = item.weapon
    if any(w.key == weapon.key for w in fighter.weapons):
        weapon = replace(weapon, key=f"{weapon.key}@{item.id}")
    states = combatant.weapon_states
    if item.weapon_state is not None:
        states = (*states, (weapon.key, item.weapon_state))
    after = replace(
        combatant,
        fighter=replace(fighter, weapons=(*fighter.weapons, weapon)),
        unready=combatant.unready - {weapon.key},
        weapon_states=states,
    )
    return after, weapon.key


def weapon_of(combatant: Combatant, key: str) -> Weapon:
    """The combatant's weapon ``key`` (in hand or carried); ``IllegalCommandError``
    naming it when the sheet has none."""
    weapon = next((w for w in combatant.fighter.weapons if w.key == key), None)
    if weapon is None:
        raise IllegalCommandError(f"{combatant.name} holds no weapon {key!r}")
    return weapon


def within_reach(combatant: Combatant, item: GroundItem) -> bool:
    """An item in the combatant's hex or an adjacent one can be picked up."""
    return combatant.hex.distance(item.hex) <= 1


def drop_candidates(combatant: Combatant, grid: HexGrid) -> tuple[Hex, ...]:
    """Where a deliberately dropped item may fall (000 DROPPED WEAPONS): every hex
    the combatant passed through this turn and every hex adjacent to one, on the
    map. The combatant's own hex comes first (the default), the rest sorted."""
    passed = combatant.path_this_turn or (combatant.hex,)
    hexes = set(passed) | {combatant.hex}
    for h in tuple(hexes):
        hexes.update(h.neighbors())
    others = sorted(h for h in hexes if h in grid and h != combatant.hex)
    return (combatant.hex, *others)


# ------------------------------------------------------------ map effects


@dataclass(frozen=True, slots=True)
class WeaponLeavesHand:
    """A weapon left ``combatant_id``'s hand: it leaves their gear, ``in_hand`` (a
    broken remnant, if usable) takes its place, and ``pieces`` go to the map."""

    combatant_id: str
    weapon_key: str
    pieces: tuple[Piece, ...]
    in_hand: Piece | None = None


@dataclass(frozen=True, slots=True)
class ShieldLeavesHand:
    """The shield falls (a fumbled block drops bucklers and small shields at the
    feet, 000 CRITICAL MISSES ON DEFENSE ROLLS)."""

    combatant_id: str
    placement: Placement = AT_FEET


@dataclass(frozen=True, slots=True)
class Falls:
    """The combatant ends up in ``posture`` (a fumbled dodge, a critical miss)."""

    combatant_id: str
    posture: Posture = Posture.PRONE
    citation: Citation | None = None


MapEffect = WeaponLeavesHand | ShieldLeavesHand | Falls


# ------------------------------------------------------------------ events


@dataclass(frozen=True, kw_only=True)
class LeftHand(Event):
    """A weapon or shield left somebody's hand (what remains, if anything)."""

    combatant_id: str
    name: str
    item_name: str
    remnant: str | None = None

    def describe(self) -> str:
        rest = f"; {self.remnant} stays in hand" if self.remnant else ""
        return f"{self.name} loses the {self.item_name}{rest}"

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class ItemDropped(Event):
    """A deliberate drop into a chosen (or randomly picked) hex."""

    combatant_id: str
    name: str
    item_id: str
    item_name: str
    hex: Hex
    picked_by_dice: bool = False

    def describe(self) -> str:
        how = " (the dice pick the hex)" if self.picked_by_dice else ""
        return f"{self.name} drops the {self.item_name} at {hex_name(self.hex)}{how}"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class ItemPickedUp(Event):
    combatant_id: str
    name: str
    item_id: str
    item_name: str
    hex: Hex
    key: str

    def describe(self) -> str:
        return f"{self.name} picks up the {self.item_name} (Ready maneuver)"

    def involved_hexes(self) -> tuple[Hex, ...]:
        return (self.hex,)

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class ReadyEvent(Event):
    """A Ready maneuver of ``name``'s with one of its items."""

    combatant_id: str
    name: str
    item_name: str

    def involved_combatants(self) -> tuple[str, ...]:
        return (self.combatant_id,)


@dataclass(frozen=True, kw_only=True)
class Readied(ReadyEvent):
    """A weapon or the shield readied, or (``drawn``) a carried weapon drawn into
    a free hand."""

    drawn: bool = False

    def describe(self) -> str:
        verb = "draws" if self.drawn else "readies"
        return f"{self.name} {verb} the {self.item_name} (Ready maneuver)"


@dataclass(frozen=True, kw_only=True)
class PutAway(ReadyEvent):
    """A held weapon put away (sheathed, slung): it is carried, its hand free."""

    def describe(self) -> str:
        return f"{self.name} puts the {self.item_name} away (Ready maneuver): a hand is free"


@dataclass(frozen=True, kw_only=True)
class ItemPlaced(Event):
    """The GM put an item on the map, moved it or took it away."""

    item_id: str
    item_name: str
    before: Hex | None
    after: Hex | None

    def describe(self) -> str:
        if self.after is None:
            return f"GM removes {self.item_name} from the map"
        if self.before is None:
            return f"GM places {self.item_name} at {hex_name(self.after)}"
        return (
            f"GM moves {self.item_name} from {hex_name(self.before)} "
            f"to {hex_name(self.after)}"
        )

    def involved_hexes(self) -> tuple[Hex, ...]:
        return tuple(h for h in (self.before, self.after) if h is not None)
