"""The attack, edit, item, terrain, posture and ruleset commands of ``rules.battle.battle``.

Split from ``rules.battle.battle`` so that the map's first frame does not create their
classes (issue 5, docs/packaging.md): ``rules.battle.battle`` re-exports every name here
and loads this module when one is first asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from hexmap import Hex
from rules.battle.battle import (
    BattleState,
    Command,
    CommandResult,
    _tag_targets,
    apply_map_effects,
    can_strike_at_weapon,
    place_resolution_pieces,
)
from rules.battle.model import BodyArea, Combatant, Shield, Status, Weapon
from rules.battle.movement import set_posture
from rules.battle.situation import covered_areas_of
from rules.battle.terrain import TerrainChange, TerrainPainted
from rules.core.dice import DiceSource
from rules.core.errors import IllegalCommandError, RulesError
from rules.core.events import Edited
from rules.sets.seed000.conditions import Posture

if TYPE_CHECKING:
    from rules.battle.items import ItemKind, MapEffect
    from rules.sets.seed000.attack import AttackOptions, AttackResolution


@dataclass(frozen=True)
class EditCombatant(Command):
    """The GM's direct edit of a combatant's current values."""

    combatant_id: str
    hp: int | None = None
    status: Status | None = None

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        who = state.combatant(self.combatant_id)
        changes: list[tuple[str, str, str]] = []
        edited = who
        if self.hp is not None and self.hp != who.hp:
            changes.append(("HP", str(who.hp), str(self.hp)))
            edited = replace(edited, hp=self.hp)
        if self.status is not None and self.status is not who.status:
            changes.append(("status", who.status.value, self.status.value))
            edited = replace(edited, status=self.status)
        if not changes:
            return CommandResult(state, ())
        event = Edited(combatant_id=who.id, name=who.name, changes=tuple(changes))
        return CommandResult(state.with_combatants(edited), (event,))


@dataclass(frozen=True)
class SetDefendedArea(Command):
    """000 DEFENDING A SPECIFIC BODY AREA: the defender's choice of area to guard
    (None: none). Blocks and parries get +2 there and -1 elsewhere."""

    combatant_id: str
    area: BodyArea | None

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # Lazy: the attack rules load on first use, not at start-up (docs/packaging.md).
        from rules.sets.seed000.attack_events import DefendedAreaSet
        from rules.sets.seed000.stances import BODY_AREA_CITATION

        who = state.combatant(self.combatant_id)
        if who.defended_area is self.area:
            return CommandResult(state, ())
        event = DefendedAreaSet(
            citation=BODY_AREA_CITATION,
            combatant_id=who.id,
            name=who.name,
            before=who.defended_area,
            after=self.area,
        )
        changed = replace(who, defended_area=self.area)
        return CommandResult(state.with_combatants(changed), (event,))


@dataclass(frozen=True)
class Attack(Command):
    attacker_id: str
    defender_id: str
    options: AttackOptions

    def resolve(self, state: BattleState, rng: DiceSource) -> AttackResolution:
        # Lazy: the attack rules load on first use, not at start-up (docs/packaging.md).
        from rules.sets.seed000.attack import plan_attack, resolve_attack

        attacker = state.combatant(self.attacker_id)
        defender = state.combatant(self.defender_id)
        if attacker.id == defender.id:
            raise IllegalCommandError("a combatant cannot attack itself")
        ruleset = state.ruleset

        def in_reach(att: Combatant, dfn: Combatant, weapon: Weapon) -> bool:
            # 000 STRIKING AT WEAPONS: the map's answer (weapon positions, reach).
            allowed, _ = can_strike_at_weapon(
                state, att.id, dfn.id, weapon.key, attacker_weapon_key=self.options.weapon_key
            )
            return allowed

        reach = in_reach if self.options.target_weapon_key is not None else None
        options = self.options
        # 000 RANDOM HIT LOCATION: the defender's hex cover hides body areas from
        # random locations (rules.battle.terrain); they join the options' own.
        covered = covered_areas_of(state, defender.id)
        if not covered <= options.covered:
            options = replace(options, covered=options.covered | covered)
        # 000 MISSING A SPECIFIC HIT LOCATION: the combatant in the way.
        bystander = None if options.obscured_by is None else state.combatant(options.obscured_by)
        plan = plan_attack(attacker, defender, options, ruleset, weapon_in_reach=reach)
        resolution = resolve_attack(
            plan, attacker, defender, rng, ruleset, bystander=bystander, check=False
        )
        # Record whom the new turn actions were aimed at (000 STRIKING AT WEAPONS).
        return replace(
            resolution,
            attacker_after=_tag_targets(attacker, resolution.attacker_after, defender.id),
            defender_after=_tag_targets(defender, resolution.defender_after, attacker.id),
        )

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        resolution = self.resolve(state, rng)
        after = state.with_combatants(resolution.attacker_after, resolution.defender_after)
        if resolution.bystander_after is not None:
            after = after.with_combatants(resolution.bystander_after)
        # Pieces that left a hand go to the map with this command's dice, after the
        # attack's own rolls (docs/battlefield.md).
        after, placed = place_resolution_pieces(state, after, resolution, rng)
        return CommandResult(after, (*resolution.events, *placed))


def _ready_check(who: Combatant, gm_override: bool) -> None:
    if gm_override:
        return
    if who.status is not Status.ACTIVE:
        raise IllegalCommandError(f"{who.name} is {who.status.value} and cannot take a Ready")
    if who.ready_used:
        raise IllegalCommandError(f"{who.name} has already taken a Ready maneuver this turn")


@dataclass(frozen=True)
class DropItem(Command):
    """Drop a weapon or the shield (by key) deliberately (000 DROPPED WEAPONS): into
    ``to_hex`` if given, else - with ``random_hex`` - a candidate picked by the
    dice, else the combatant's own hex. The hex must be one of
    ``rules.battle.items.drop_candidates``. Dropping costs no maneuver."""

    combatant_id: str
    key: str
    to_hex: Hex | None = None
    random_hex: bool = False

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # Lazy: item rules load on first use (start-up time, docs/packaging.md).
        from rules.battle.items import (
            DROPPED_000,
            ItemDropped,
            drop_candidates,
            item_from_piece,
            item_from_shield,
            item_id,
            take_from_hand,
        )
        from rules.battle.pieces import AT_FEET, Piece

        who = state.combatant(self.combatant_id)
        candidates = drop_candidates(who, state.grid)
        by_dice = False
        if self.to_hex is not None:
            if self.to_hex not in candidates:
                raise IllegalCommandError(
                    f"{who.name} can drop it only in a hex passed through this turn or next to one"
                )
            where = self.to_hex
        elif self.random_hex:
            where = candidates[rng.randint(1, len(candidates)) - 1]
            by_dice = True
        else:
            where = who.hex
        emptied, held = take_from_hand(who, self.key)
        state = state.with_combatants(emptied)
        new_id = item_id(state.next_item)
        if held.shield is not None:
            item = item_from_shield(held.shield, new_id, where, who.id)
        else:
            assert held.weapon is not None
            item = item_from_piece(
                Piece(held.weapon.name, held.weapon, AT_FEET),
                new_id,
                where,
                who.id,
                held.weapon_state,
            )
        event = ItemDropped(
            citation=DROPPED_000,
            combatant_id=who.id,
            name=who.name,
            item_id=new_id,
            item_name=held.name,
            hex=where,
            picked_by_dice=by_dice,
        )
        return CommandResult(state.with_new_item(item), (event,))


@dataclass(frozen=True)
class PickUpItem(Command):
    """Pick up a weapon, usable piece or shield in the own or an adjacent hex; it
    comes to hand ready. This is the turn's Ready maneuver (one per turn, unless
    ``gm_override``)."""

    combatant_id: str
    item_id: str
    gm_override: bool = False

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # Lazy: item rules load on first use (start-up time, docs/packaging.md).
        from rules.battle.items import READY_BASE, ItemPickedUp, put_in_hand, within_reach

        who = state.combatant(self.combatant_id)
        item = state.item(self.item_id)
        _ready_check(who, self.gm_override)
        if not within_reach(who, item):
            raise IllegalCommandError(f"{item.name} is out of {who.name}'s reach")
        holding, key = put_in_hand(who, item)
        holding = replace(holding, ready_used=True)
        event = ItemPickedUp(
            citation=READY_BASE,
            combatant_id=who.id,
            name=who.name,
            item_id=item.id,
            item_name=item.name,
            hex=item.hex,
            key=key,
        )
        after = state.with_combatants(holding).without_item(item.id)
        return CommandResult(after, (event,))


@dataclass(frozen=True)
class ReadyWeapon(Command):
    """Ready an unready weapon (000 PARRY: unready after use) or re-grip the shield
    (after a fumbled block): the turn's Ready maneuver."""

    combatant_id: str
    weapon_key: str
    gm_override: bool = False

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # Lazy: item rules load on first use (start-up time, docs/packaging.md).
        from rules.battle.items import READY_BASE, Readied

        who = state.combatant(self.combatant_id)
        shield = who.fighter.shield
        is_shield = shield is not None and shield.key == self.weapon_key
        if not is_shield and not any(w.key == self.weapon_key for w in who.fighter.weapons):
            raise IllegalCommandError(f"{who.name} holds no weapon {self.weapon_key!r}")
        needs = self.weapon_key in who.unready or (
            is_shield and (not who.shield_ready or who.heavy_shield_unready)
        )
        if not needs:
            raise IllegalCommandError(f"{who.name}'s {self.weapon_key} is already ready")
        _ready_check(who, self.gm_override)
        readied = replace(who, unready=who.unready - {self.weapon_key}, ready_used=True)
        if is_shield:
            readied = replace(readied, shield_ready=True, heavy_shield_unready=False)
        name = (
            shield.name
            if is_shield and shield is not None
            else who.fighter.weapon(self.weapon_key).name
        )
        event = Readied(citation=READY_BASE, combatant_id=who.id, name=who.name, item_name=name)
        return CommandResult(state.with_combatants(readied), (event,))


@dataclass(frozen=True)
class PlaceItem(Command):
    """GM edit: move an item to ``hex``, or take it off the map (``hex`` None)."""

    item_id: str
    hex: Hex | None

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # Lazy: item rules load on first use (start-up time, docs/packaging.md).
        from rules.battle.items import ItemPlaced

        item = state.item(self.item_id)
        if self.hex is not None and self.hex not in state.grid:
            raise IllegalCommandError(f"{self.hex} is off the map")
        if self.hex == item.hex:
            return CommandResult(state, ())
        event = ItemPlaced(item_id=item.id, item_name=item.name, before=item.hex, after=self.hex)
        if self.hex is None:
            return CommandResult(state.without_item(item.id), (event,))
        return CommandResult(state.with_item(replace(item, hex=self.hex)), (event,))


@dataclass(frozen=True)
class AddItem(Command):
    """GM edit: put a new weapon, shield or piece on the map."""

    hex: Hex
    name: str
    kind: ItemKind
    weapon: Weapon | None = None
    shield: Shield | None = None
    note: str = ""

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # Lazy: item rules load on first use (start-up time, docs/packaging.md).
        from rules.battle.items import GroundItem, ItemPlaced, icon_key, item_id

        if self.hex not in state.grid:
            raise IllegalCommandError(f"{self.hex} is off the map")
        item = GroundItem(
            id=item_id(state.next_item),
            name=self.name,
            kind=self.kind,
            weapon=self.weapon,
            shield=self.shield,
            hex=self.hex,
            icon=icon_key(self.kind, self.weapon, self.shield),
            note=self.note,
        )
        event = ItemPlaced(item_id=item.id, item_name=item.name, before=None, after=self.hex)
        return CommandResult(state.with_new_item(item), (event,))


@dataclass(frozen=True)
class PaintTerrain(Command):
    """The terrain brush: apply ``change`` to every hex of ``hexes``."""

    hexes: tuple[Hex, ...]
    change: TerrainChange

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        for h in self.hexes:
            if h not in state.grid:
                raise IllegalCommandError(f"{h} is off the map")
        terrain = state.terrain.painted(self.hexes, self.change)
        if terrain == state.terrain:
            return CommandResult(state, ())
        event = TerrainPainted(hexes=tuple(dict.fromkeys(self.hexes)), change=self.change)
        return CommandResult(replace(state, terrain=terrain), (event,))


@dataclass(frozen=True)
class SetPosture(Command):
    """Stand, crouch, kneel, sit, lie ... (rules.sets.seed000.conditions.Posture)."""

    combatant_id: str
    posture: Posture

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        who = state.combatant(self.combatant_id)
        changed, event = set_posture(who, self.posture)
        if event is None:
            return CommandResult(state, ())
        return CommandResult(state.with_combatants(changed), (event,))


@dataclass(frozen=True)
class ApplyMapEffects(Command):
    """Resolve map effects (rules.battle.items) with this command's dice - for results
    computed outside an Attack, e.g. a fumbled block's dropped shield."""

    effects: tuple[MapEffect, ...]

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        after, events = apply_map_effects(state, self.effects, rng)
        return CommandResult(after, events)


@dataclass(frozen=True)
class ReadyShield(Command):
    """Ready the shield: re-grip it after a fumbled block lost the grip (000
    CRITICAL MISSES ON DEFENSE ROLLS, BLOCK), or ready a heavy shield after it
    blocked (000 BLOCK). The turn's Ready maneuver, as ``ReadyWeapon``."""

    combatant_id: str
    gm_override: bool = False

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        who = state.combatant(self.combatant_id)
        shield = who.fighter.shield
        if shield is None:
            raise IllegalCommandError(f"{who.name} carries no shield")
        return ReadyWeapon(who.id, shield.key, self.gm_override).apply(state, rng)


@dataclass(frozen=True)
class SetRulesetOptions(Command):
    """Switch the battle's ruleset options (e.g. ``("locations-001",)`` for seed
    001's hit locations), checked against the ruleset's available options."""

    options: tuple[str, ...]

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # Lazy: the attack rules and the rulesets load on first use (start-up time).
        from rules.sets.seed000.attack_events import RulesetOptionsSet
        from rules.sets.seed000.ruleset import get_ruleset

        wanted = tuple(dict.fromkeys(self.options))
        try:
            get_ruleset(state.ruleset_key, wanted)
        except RulesError as e:
            raise IllegalCommandError(str(e)) from None
        if wanted == tuple(state.ruleset_options):
            return CommandResult(state, ())
        event = RulesetOptionsSet(before=tuple(state.ruleset_options), after=wanted)
        return CommandResult(replace(state, ruleset_options=wanted), (event,))
