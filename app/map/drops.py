"""The map view's deliberate drops and the GM's catalog items: ``DropPick``,
``CatalogItem`` and their helpers (the tools and the context menu use them)."""

from __future__ import annotations

from dataclasses import dataclass

from hexmap import Hex
from rules.battle.commands import AddItem
from rules.battle.hands import hands_of
from rules.battle.items import ItemKind, drop_candidates, icon_key
from rules.battle.model import Combatant, Shield, Weapon, WeaponKind
from rules.battle.state import BattleState, Command
from rules.core.errors import RulesError
from rules.sets.protocol import Ruleset


@dataclass(frozen=True)
class DropPick:
    """A deliberate drop waiting for its hex: the legal hexes, own hex first."""

    combatant_id: str
    who: str
    key: str
    item_name: str
    candidates: tuple[Hex, ...]


def droppable_items(c: Combatant) -> list[tuple[str, str]]:
    """(key, name) of what ``c`` can drop: weapons (not bare hands) and the shield."""
    out = [(w.key, w.name) for w in c.fighter.weapons if w.kind is not WeaponKind.UNARMED]
    if c.fighter.shield is not None:
        out.append((c.fighter.shield.key, c.fighter.shield.name))
    return out


def put_away_choices(c: Combatant) -> list[tuple[str, str]]:
    """(key, name) of the weapons in ``c``'s hands that it may put away
    (``PutAwayItem``: the shield stays on its arm)."""
    held = hands_of(c)
    return [(w.key, w.name) for w in c.fighter.weapons if held.holds(w.key)]


def draw_choices(c: Combatant) -> list[tuple[str, str]]:
    """(key, name) of the weapons ``c`` carries without holding, each drawn by a
    ``ReadyWeapon`` into a free hand."""
    carried = set(hands_of(c).carried)
    return [(w.key, w.name) for w in c.fighter.weapons if w.key in carried]


def make_drop_pick(state: BattleState, combatant_id: str, key: str) -> DropPick | None:
    """The pick for ``combatant_id`` dropping ``key``; None if it is not in hand."""
    try:
        c = state.combatant(combatant_id)
    except RulesError:
        return None
    names = dict(droppable_items(c))
    if key not in names:
        return None
    hexes = drop_candidates(c, state.grid)
    return DropPick(c.id, c.name, key, names[key], tuple(hexes))


@dataclass(frozen=True)
class CatalogItem:
    """A catalog weapon or shield the GM can put on the map."""

    kind: ItemKind
    key: str
    name: str
    weapon: Weapon | None = None
    shield: Shield | None = None

    @property
    def icon(self) -> str:
        return icon_key(self.kind, self.weapon, self.shield)

    def command(self, h: Hex) -> Command:
        return AddItem(h, self.name, self.kind, weapon=self.weapon, shield=self.shield)


def catalog_item_choices(ruleset: Ruleset) -> tuple[CatalogItem, ...]:
    """What the GM can put on the map: the ruleset's weapons, then its shields."""
    return tuple(
        CatalogItem(ItemKind.WEAPON, item.key, item.name, weapon=item)
        if isinstance(item, Weapon)
        else CatalogItem(ItemKind.SHIELD, item.key, item.name, shield=item)
        for item in ruleset.battlefield.placeable_items()
    )
