"""The battle model: one immutable state that changes only through commands.

A ``Battle`` keeps the initial state, the seed and the log of commands applied.
Command *i* draws its dice from its own ``SeededDice`` seeded from
``(seed, i)``, so replaying the log on the initial state reproduces the battle
exactly — the base for undo, saves, autosave and bug reports (as MeleeWizard keeps
its input log and seed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from hexmap import Facing, Hex, HexGrid, reach_hexes, weapon_hexes
from rules.battle.model import Combatant, Shield, Status, Weapon, WeaponKind
from rules.battle.terrain import TerrainMap
from rules.core.citation import DEFAULT_RULESET_KEY
from rules.core.dice import DiceSource, RecordingDice, ScriptedDice, SeededDice
from rules.core.errors import IllegalCommandError
from rules.core.events import Event

if TYPE_CHECKING:
    from rules.battle.commands import AddItem as AddItem
    from rules.battle.commands import ApplyMapEffects as ApplyMapEffects
    from rules.battle.commands import Attack as Attack
    from rules.battle.commands import DropItem as DropItem
    from rules.battle.commands import EditCombatant as EditCombatant
    from rules.battle.commands import PaintTerrain as PaintTerrain
    from rules.battle.commands import PickUpItem as PickUpItem
    from rules.battle.commands import PlaceItem as PlaceItem
    from rules.battle.commands import ReadyShield as ReadyShield
    from rules.battle.commands import ReadyWeapon as ReadyWeapon
    from rules.battle.commands import SetDefendedArea as SetDefendedArea
    from rules.battle.commands import SetPosture as SetPosture
    from rules.battle.commands import SetRulesetOptions as SetRulesetOptions
    from rules.battle.items import (
        GroundItem,
        MapEffect,
    )
    from rules.battle.pieces import Piece, Placement
    from rules.battle.scatter import (
        DamageRequest,
        Occupant,
        StrayDamage,
    )
    from rules.sets.seed000.attack import AttackResolution
    from rules.sets.seed000.ruleset import Ruleset
    from rules.sets.seed000.weapon_strikes import RulesSource, WeaponDamageState


@dataclass(frozen=True)
class BattleState:
    grid: HexGrid
    combatants: tuple[Combatant, ...]
    turn: int = 1
    ruleset_key: str = DEFAULT_RULESET_KEY
    # Ruleset options of this battle, e.g. ("locations-001",) (rules.sets.seed000.ruleset).
    ruleset_options: tuple[str, ...] = ()
    # The battlefield (docs/battlefield.md): items lying on the map, the painted
    # terrain (sparse: open ground elsewhere) and the number of the next item id.
    items: tuple[GroundItem, ...] = ()
    terrain: TerrainMap = field(default_factory=TerrainMap)
    next_item: int = 1

    def __post_init__(self) -> None:
        ids = [c.id for c in self.combatants]
        if len(set(ids)) != len(ids):
            raise IllegalCommandError(f"duplicate combatant ids in {ids}")
        item_ids = [i.id for i in self.items]
        if len(set(item_ids)) != len(item_ids):
            raise IllegalCommandError(f"duplicate item ids in {item_ids}")

    @property
    def ruleset(self) -> Ruleset:
        # Lazy: the rulesets load on first use (start-up time, docs/packaging.md).
        from rules.sets.seed000.ruleset import get_ruleset

        return get_ruleset(self.ruleset_key, self.ruleset_options)

    def combatant(self, combatant_id: str) -> Combatant:
        for c in self.combatants:
            if c.id == combatant_id:
                return c
        raise IllegalCommandError(f"no combatant with id {combatant_id!r}")

    def occupant(self, where: Hex) -> Combatant | None:
        """The standing combatant in a hex; the fallen don't block it."""
        for c in self.combatants:
            if c.hex == where and c.status is not Status.DEAD:
                return c
        return None

    def with_combatants(self, *updated: Combatant) -> BattleState:
        by_id = {c.id: c for c in updated}
        return replace(self, combatants=tuple(by_id.get(c.id, c) for c in self.combatants))

    def item(self, item_id: str) -> GroundItem:
        for i in self.items:
            if i.id == item_id:
                return i
        raise IllegalCommandError(f"no item with id {item_id!r} on the map")

    def items_at(self, where: Hex) -> tuple[GroundItem, ...]:
        return tuple(i for i in self.items if i.hex == where)

    def with_new_item(self, item: GroundItem) -> BattleState:
        """Add ``item``; its id must be ``item_id(self.next_item)``, which is used up."""
        # Lazy: item rules load on first use (start-up time, docs/packaging.md).
        from rules.battle.items import item_id

        if item.id != item_id(self.next_item):
            raise IllegalCommandError(f"the next item id is {item_id(self.next_item)!r}")
        return replace(self, items=(*self.items, item), next_item=self.next_item + 1)

    def with_item(self, item: GroundItem) -> BattleState:
        """Replace the item with ``item.id``."""
        self.item(item.id)
        return replace(self, items=tuple(item if i.id == item.id else i for i in self.items))

    def without_item(self, item_id: str) -> BattleState:
        self.item(item_id)
        return replace(self, items=tuple(i for i in self.items if i.id != item_id))


@dataclass(frozen=True)
class CommandResult:
    state: BattleState
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Command:
    """Base of battle commands. ``apply`` is pure: state and dice in, state and
    events out."""

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        raise NotImplementedError


@dataclass(frozen=True)
class MoveCombatant(Command):
    """Move a combatant to ``destination`` along ``path`` (adjacent hexes, from its
    own hex - which may be left out - to the destination), or by default along
    the straight line (``hexmap.hex_line``). Records the path of the turn and the
    movement points spent (rules.battle.movement); only the destination must be free."""

    combatant_id: str
    destination: Hex
    path: tuple[Hex, ...] | None = None

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # On first use: the map's first frame needs neither (issue 5).
        from rules.battle.command_events import Moved
        from rules.battle.movement import BASE_MOVEMENT, check_path, default_path, walk

        mover = state.combatant(self.combatant_id)
        if self.destination not in state.grid:
            raise IllegalCommandError(f"{self.destination} is off the map")
        blocker = state.occupant(self.destination)
        if blocker is not None and blocker.id != mover.id:
            raise IllegalCommandError(f"{blocker.name} stands in that hex")
        if self.path is None:
            path = default_path(mover.hex, self.destination)
        elif self.path and self.path[0] == mover.hex:
            path = self.path
        else:
            path = (mover.hex, *self.path)
        if path[-1] != self.destination:
            raise IllegalCommandError("the path must end at the destination")
        walked = walk(mover, check_path(path, state.grid))
        moved = walked.combatant
        event = Moved(
            citation=BASE_MOVEMENT,
            combatant_id=mover.id,
            name=mover.name,
            path=walked.path,
            cost=walked.cost,
            move_used=moved.move_used,
            move=mover.fighter.move,
        )
        return CommandResult(state.with_combatants(moved), (event,))


@dataclass(frozen=True)
class TurnCombatant(Command):
    """Face another way: 1 MP per hex side, one side free after a step (rules.battle.movement)."""

    combatant_id: str
    facing: Facing

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        # On first use: the map's first frame needs neither (issue 5).
        from rules.battle.command_events import Turned
        from rules.battle.movement import BASE_MOVEMENT, face

        who = state.combatant(self.combatant_id)
        turned, cost, free = face(who, self.facing)
        event = Turned(
            citation=BASE_MOVEMENT,
            combatant_id=who.id,
            name=who.name,
            before=who.facing,
            after=self.facing,
            cost=cost,
            free_side=free,
        )
        return CommandResult(state.with_combatants(turned), (event,))


@dataclass(frozen=True)
class EndTurn(Command):
    """Ends the turn: per-turn defense counts and weapon use start afresh. Then, in
    the order of the combatants, the per-turn effects with this command's dice
    (base rules): a stunned fighter rolls HT to recover; a severely bleeding one
    loses 1 HP (with the injury rolls that may call for) and rolls HT to stop it."""

    def apply(self, state: BattleState, rng: DiceSource) -> CommandResult:
        from rules.battle.command_events import TurnEnded  # on first use (issue 5)

        fresh = tuple(_end_turn(c) for c in state.combatants)
        after = replace(state, combatants=fresh, turn=state.turn + 1)
        events: list[Event] = [TurnEnded(turn=after.turn)]
        for c in after.combatants:
            changed, effects = per_turn_effects(c, rng)
            if effects:
                after = after.with_combatants(changed)
                events.extend(effects)
        return CommandResult(after, tuple(events))


def per_turn_effects(c: Combatant, rng: DiceSource) -> tuple[Combatant, tuple[Event, ...]]:
    """A combatant's per-turn effects at the end of a turn (base rules): the stun
    recovery roll (HT; success: active again) and severe bleeding (1 HP lost, then
    HT; success stops it: the condition leaves its wounds)."""
    # Lazy: the attack rules load on first use, not at start-up (docs/packaging.md).
    from rules.sets.seed000.attack_events import (
        BASE_BLEEDING,
        BASE_STUN_RECOVERY,
        INJURY_CITATION,
        BleedingRolled,
        InjuryRolled,
        StatusChanged,
        StunRecoveryRolled,
    )
    from rules.sets.seed000.checks import RollKind, success_roll
    from rules.sets.seed000.damage import injury_status
    from rules.sets.seed000.wound_effects import Condition as WoundCondition

    events: list[Event] = []
    ht = c.fighter.attributes.ht
    if c.status is Status.STUNNED:
        roll = success_roll(ht, rng, RollKind.STANDARD)
        events.append(
            StunRecoveryRolled(
                citation=BASE_STUN_RECOVERY, combatant_id=c.id, name=c.name, ht=ht, roll=roll
            )
        )
        if roll.succeeded:
            events.append(
                StatusChanged(
                    citation=BASE_STUN_RECOVERY,
                    combatant_id=c.id,
                    name=c.name,
                    before=c.status,
                    after=Status.ACTIVE,
                )
            )
            c = replace(c, status=Status.ACTIVE)
    bleeding = WoundCondition.SEVERE_BLEEDING
    if bleeding in c.wound_conditions and c.status is not Status.DEAD:
        hp_after = c.hp - 1
        status, rolls, _ = injury_status(c.hp, hp_after, c.fighter.hit_points, ht, c.status, rng)
        roll = success_roll(ht, rng, RollKind.STANDARD)
        events.append(
            BleedingRolled(
                citation=BASE_BLEEDING,
                combatant_id=c.id,
                name=c.name,
                hp_before=c.hp,
                hp_after=hp_after,
                ht=ht,
                roll=roll,
            )
        )
        events.extend(
            InjuryRolled(citation=INJURY_CITATION, combatant_id=c.id, name=c.name, status_roll=r)
            for r in rolls
        )
        if status is not c.status:
            events.append(
                StatusChanged(
                    citation=INJURY_CITATION,
                    combatant_id=c.id,
                    name=c.name,
                    before=c.status,
                    after=status,
                )
            )
        wounds = c.wounds
        if roll.succeeded:
            wounds = tuple(
                replace(w, conditions=w.conditions - {bleeding}) if w.bleeding else w
                for w in wounds
            )
        c = replace(c, hp=hp_after, status=status, wounds=wounds)
    return c, tuple(events)


def _end_turn(c: Combatant) -> Combatant:
    """A combatant's new turn: this turn's actions become last turn's record;
    path, movement points, free facing change and the Ready start afresh."""
    # Lazy: the attack rules load on first use, not at start-up (docs/packaging.md).
    from rules.battle.movement import new_turn
    from rules.sets.seed000.defense import start_new_turn

    fresh = new_turn(start_new_turn(c))
    if c.actions_last_turn != c.actions_this_turn or c.ready_used:
        fresh = replace(fresh, actions_last_turn=c.actions_this_turn, ready_used=False)
    return fresh


@dataclass(frozen=True)
class BattleChange:
    """What one executed command changed; observers decide what to redraw from it."""

    index: int
    command: Command
    before: BattleState
    after: BattleState
    events: tuple[Event, ...]
    changed_ids: frozenset[str] = field(default_factory=frozenset)
    dice: tuple[int, ...] = ()  # the faces the command rolled, in order

    @property
    def items_changed(self) -> bool:
        return self.before.items != self.after.items

    @property
    def terrain_changed(self) -> bool:
        return self.before.terrain != self.after.terrain


Observer = Callable[[BattleChange], None]


def command_rng(seed: int, index: int) -> SeededDice:
    """The dice of command ``index``: independent of how many numbers earlier
    commands drew, so a log replays exactly and a bug report needs only seed+log.
    The source records the faces it gives (``SeededDice.faces``)."""
    return SeededDice(f"hexfray/{seed}/{index}")


class Battle:
    """The one battle model. Changes only through ``execute``."""

    def __init__(self, initial: BattleState, seed: int) -> None:
        self._initial = initial
        self._seed = seed
        self._state = initial
        self._commands: list[Command] = []
        self._events: list[tuple[Event, ...]] = []
        # The faces each command rolled, in order (rules.core.dice): a replay or a
        # redo runs the command again on exactly these.
        self._dice: list[tuple[int, ...]] = []
        self._observers: list[Observer] = []

    @property
    def initial(self) -> BattleState:
        return self._initial

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def state(self) -> BattleState:
        return self._state

    @property
    def commands(self) -> tuple[Command, ...]:
        return tuple(self._commands)

    @property
    def event_batches(self) -> tuple[tuple[Event, ...], ...]:
        """The events of each command in the log, one batch per command."""
        return tuple(self._events)

    @property
    def dice_log(self) -> tuple[tuple[int, ...], ...]:
        """The faces each command of the log rolled, one tuple per command."""
        return tuple(self._dice)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for batch in self._events for e in batch)

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        self._observers.append(observer)
        return lambda: self._observers.remove(observer)

    def preview(self, command: Command) -> CommandResult:
        """Apply a command to a copy: the result it would have, with the dice it
        would roll. Nothing changes."""
        return command.apply(self._state, command_rng(self._seed, len(self._commands)))

    def execute(self, command: Command, dice: RecordingDice | None = None) -> tuple[Event, ...]:
        """Apply ``command`` and log it with the faces it rolled. ``dice`` replaces
        the command's seeded dice: the recorded faces of a redo or replay
        (``ScriptedDice``, which never rolls), or dice entered at the table."""
        index = len(self._commands)
        before = self._state
        source = command_rng(self._seed, index) if dice is None else dice
        result = command.apply(before, source)
        self._state = result.state
        self._commands.append(command)
        self._events.append(result.events)
        self._dice.append(source.faces)
        change = BattleChange(
            index=index,
            command=command,
            before=before,
            after=result.state,
            events=result.events,
            changed_ids=_changed_ids(before, result.state),
            dice=source.faces,
        )
        for observer in list(self._observers):
            observer(change)
        return result.events

    @classmethod
    def replay(
        cls,
        initial: BattleState,
        seed: int,
        commands: Iterable[Command],
        dice_log: Iterable[tuple[int, ...]] | None = None,
    ) -> Battle:
        """The battle after ``commands``: rolled again from the seed, or, with
        ``dice_log``, on exactly the recorded faces (too few is an error)."""
        battle = cls(initial, seed)
        if dice_log is None:
            for command in commands:
                battle.execute(command)
            return battle
        commands = tuple(commands)
        recorded = tuple(dice_log)
        if len(recorded) != len(commands):
            raise IllegalCommandError(
                f"{len(commands)} commands but dice for {len(recorded)}"
            )
        for command, faces in zip(commands, recorded, strict=True):
            battle.execute(command, ScriptedDice(faces))
        return battle


def _changed_ids(before: BattleState, after: BattleState) -> frozenset[str]:
    old = {c.id: c for c in before.combatants}
    return frozenset(c.id for c in after.combatants if old.get(c.id) != c)


def combatants_by_id(combatants: Sequence[Combatant]) -> dict[str, Combatant]:
    return {c.id: c for c in combatants}


# =====================================================================
# The battlefield: pieces and items on the map, hands, reach to weapons,
# terrain and posture (docs/battlefield.md). rules.battle.items, rules.battle.scatter,
# rules.battle.terrain and rules.battle.movement hold the pure parts.
# =====================================================================


def _tag_targets(before: Combatant, after: Combatant, other_id: str) -> Combatant:
    """Mark the actions an attack added to ``after`` with whom they were aimed at
    (the defender for the attacker's attack, the attacker for the defenses)."""
    old = before.actions_this_turn
    new = after.actions_this_turn
    if new[: len(old)] != old or len(new) == len(old):
        return after
    tagged = tuple(
        a if a.target_id is not None else replace(a, target_id=other_id) for a in new[len(old) :]
    )
    return replace(after, actions_this_turn=old + tagged)


def _occupants(state: BattleState, exclude: str | None = None) -> dict[Hex, Occupant]:
    # Lazy: the attack rules load on first use, not at start-up (docs/packaging.md).
    from rules.battle.scatter import Occupant

    found: dict[Hex, Occupant] = {}
    for c in state.combatants:
        if c.status is Status.DEAD or c.id == exclude:
            continue
        found.setdefault(c.hex, Occupant(c.id, c.name, c.fighter.attributes.dx))
    return found


def source_weapon_of(piece: Piece, holder: Combatant) -> Weapon | None:
    """The weapon a piece came from: its own weapon when whole, else the holder's
    weapon whose name the piece's name contains ("head of Morningstar"), the
    longest such name; None if there is none."""
    # Lazy: item rules load on first use (start-up time, docs/packaging.md).
    from rules.battle.items import ItemKind, piece_kind

    if piece.weapon is not None and piece_kind(piece) is ItemKind.WEAPON:
        return piece.weapon
    named = [w for w in holder.fighter.weapons if w.name and w.name in piece.name]
    if named:
        return max(named, key=lambda w: len(w.name))
    return piece.weapon


def _stray_damage(
    piece: Piece, source: Weapon | None, holder: Combatant, ruleset: Ruleset
) -> StrayDamage | None:
    """What a stray hit by ``piece`` does: ``stray_hit_factor`` of the source
    weapon's swing (or first) mode with the holder's ST (000 BROKEN WEAPONS: "1/2
    damage"); None if the piece can hit nobody or has no weapon to go by."""
    # Lazy: the attack rules load on first use, not at start-up (docs/packaging.md).
    from rules.battle.scatter import StrayDamage

    if piece.stray_hit_factor is None:
        return None
    weapon = source if source is not None else piece.weapon
    if weapon is None:
        return None
    mode = next((m for m in weapon.modes if m.is_swing), weapon.modes[0])
    factor = piece.stray_hit_factor
    if source is None:
        factor *= piece.damage_factor(mode.name)
    dice = ruleset.weapon_damage(mode.damage, holder.fighter.attributes.st)
    return StrayDamage(dice, mode.damage.type, factor, f"{weapon.name} {mode.name}")


def resolve_damage_request(
    state: BattleState, request: DamageRequest, where: Hex, rng: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """Roll and apply a stray hit with rules.sets.seed000.damage (DR, wounding, injury rolls)."""
    # Lazy: the attack rules load on first use, not at start-up (docs/packaging.md).
    from rules.battle.scatter import StrayHitDamaged, roll_stray_damage
    from rules.sets.seed000.attack_events import INJURY_CITATION, InjuryRolled, StatusChanged

    target = state.combatant(request.target_id)
    result = roll_stray_damage(request, target, rng, state.ruleset.wounding)
    events: list[Event] = [
        StrayHitDamaged(
            citation=request.citation,
            combatant_id=target.id,
            name=target.name,
            piece_name=request.piece_name,
            hex=where,
            factor=request.damage.factor,
            damage=result,
        )
    ]
    for sr in result.status_rolls:
        events.append(
            InjuryRolled(
                citation=INJURY_CITATION, combatant_id=target.id, name=target.name, status_roll=sr
            )
        )
    if result.status_after is not result.status_before:
        events.append(
            StatusChanged(
                citation=INJURY_CITATION,
                combatant_id=target.id,
                name=target.name,
                before=result.status_before,
                after=result.status_after,
            )
        )
    return state.with_combatants(result.apply_to(target)), tuple(events)


def _place_one(
    state: BattleState,
    piece: Piece,
    holder: Combatant,
    rng: DiceSource,
    *,
    source_weapon: Weapon | None,
    shield: Shield | None,
    start: Hex,
    weapon_state: WeaponDamageState | None = None,
) -> tuple[BattleState, tuple[Event, ...]]:
    # Lazy: the item and scatter rules load on first use (start-up time, docs/packaging.md).
    from rules.battle.items import item_from_piece, item_from_shield, item_id
    from rules.battle.scatter import PieceLanded, StrayHitChecked, scatter_piece

    stray = _stray_damage(piece, source_weapon, holder, state.ruleset)
    landing = scatter_piece(
        piece,
        start,
        state.grid,
        rng,
        wielder_facing=holder.facing,
        occupants=_occupants(state, holder.id),
        stray_damage=stray,
    )
    events: list[Event] = [
        StrayHitChecked(citation=landing.citation, piece_name=piece.name, check=c)
        for c in landing.checks
    ]
    new_id = item_id(state.next_item)
    if shield is not None:
        item = item_from_shield(shield, new_id, landing.final, holder.id)
    else:
        item = item_from_piece(piece, new_id, landing.final, holder.id, weapon_state)
    state = state.with_new_item(item)
    events.append(
        PieceLanded(citation=landing.citation, landing=landing, item_id=new_id, origin_id=holder.id)
    )
    if landing.damage is not None:
        state, hurt = resolve_damage_request(state, landing.damage, landing.final, rng)
        events.extend(hurt)
    return state, tuple(events)


def place_pieces(
    state: BattleState,
    pieces: Sequence[Piece],
    origin_combatant: str | Combatant,
    rng: DiceSource,
    *,
    source_weapon: Weapon | None = None,
    shield: Shield | None = None,
    start: Hex | None = None,
) -> tuple[BattleState, tuple[Event, ...]]:
    """Put pieces that left ``origin_combatant``'s hand on the map as ground items.

    Each ``Piece``'s ``Placement`` (rules.sets.seed000.weapon_strikes) is traced by
    ``rules.battle.scatter.scatter_piece`` from ``start`` (default: the origin's hex):
    landing dice already rolled are kept, missing ones are rolled now with
    ``rng``; pieces that may hit somebody roll for everyone in the way, and a hit
    is damaged at once (rules.sets.seed000.damage). IN_HAND pieces are skipped; a deliberate
    drop (DROPPED_NEARBY) lands on ``start``. Only the map changes here (and a
    victim's HP): taking the weapon from the hand is the caller's business
    (``take_from_hand``, ``WeaponLeavesHand``, ``drop_from_hand``).

    ``source_weapon`` is the weapon the pieces came from, for the damage of a
    stray hit (default: ``source_weapon_of``). A piece with no weapon named like
    ``shield`` becomes a SHIELD item. Returns the new state and the events, in
    order: stray-hit rolls, landing, damage.
    """
    # Lazy: item rules load on first use (start-up time, docs/packaging.md).
    from rules.battle.pieces import PlacementKind

    holder = (
        state.combatant(origin_combatant)
        if isinstance(origin_combatant, str)
        else state.combatant(origin_combatant.id)
    )
    where = start if start is not None else holder.hex
    events: list[Event] = []
    for piece in pieces:
        if piece.placement.kind is PlacementKind.IN_HAND:
            continue
        is_shield = shield is not None and piece.weapon is None and piece.name == shield.name
        state, placed = _place_one(
            state,
            piece,
            holder,
            rng,
            source_weapon=source_weapon
            if source_weapon is not None
            else source_weapon_of(piece, holder),
            shield=shield if is_shield else None,
            start=where,
        )
        events.extend(placed)
    return state, tuple(events)


def place_resolution_pieces(
    before: BattleState, after: BattleState, resolution: AttackResolution, rng: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """Place ``resolution.pieces`` (each from ``resolution.piece_origins[i]``, the
    defender where no origin is given). A whole weapon or shield still held by its
    origin after the attack is taken from the hand first, so that nothing is both
    in a hand and on the ground."""
    # Lazy: item rules load on first use (start-up time, docs/packaging.md).
    from rules.battle.items import ItemKind, piece_kind, take_from_hand
    from rules.battle.pieces import PlacementKind

    pieces = getattr(resolution, "pieces", ())
    origins = getattr(resolution, "piece_origins", ())
    events: list[Event] = []
    for i, piece in enumerate(pieces):
        origin_id = origins[i] if i < len(origins) else resolution.plan.defender_id
        was = before.combatant(origin_id)
        now = after.combatant(origin_id)
        shield = was.fighter.shield
        if piece.weapon is not None and piece_kind(piece) is ItemKind.WEAPON:
            if any(w.key == piece.weapon.key for w in now.fighter.weapons):
                now, _ = take_from_hand(now, piece.weapon.key)
                after = after.with_combatants(now)
        elif (
            shield is not None
            and piece.weapon is None
            and piece.name == shield.name
            and now.fighter.shield == shield
        ):
            now, _ = take_from_hand(now, shield.key)
            after = after.with_combatants(now)
        if piece.placement.kind is PlacementKind.IN_HAND:
            continue
        whole = piece.weapon if piece_kind(piece) is ItemKind.WEAPON else None
        is_shield = shield is not None and piece.weapon is None and piece.name == shield.name
        after, placed = _place_one(
            after,
            piece,
            now,
            rng,
            source_weapon=source_weapon_of(piece, was),
            shield=shield if is_shield else None,
            start=_piece_start(after, resolution, piece, now),
            weapon_state=None if whole is None else was.weapon_state(whole.key),
        )
        events.extend(placed)
    return after, tuple(events)


def _piece_start(
    state: BattleState, resolution: AttackResolution, piece: Piece, origin: Combatant
) -> Hex:
    """Where a piece starts from: a thrown weapon from the defender's hex (000
    MISSILE AND THROWN WEAPONS, rules.sets.seed000.missiles), anything else from its holder's."""
    from rules.sets.seed000.missiles import THROWN_NOTE  # lazy, like the attack rules

    plan = resolution.plan
    if piece.note == THROWN_NOTE and origin.id == plan.attacker_id:
        return state.combatant(plan.defender_id).hex
    return origin.hex


def drop_from_hand(
    state: BattleState,
    combatant_id: str,
    key: str,
    rng: DiceSource,
    *,
    placement: Placement | None = None,
    reason: str = "",
) -> tuple[BattleState, tuple[Event, ...]]:
    """A weapon (by key) or the shield (by its key) leaves the hand and lands by
    ``placement`` - at the feet (``AT_FEET``) by default: a crippled hand drops what it holds
    (000 HIT LOCATION note on crippled hands), a fumbled block drops a buckler or
    small shield (000 CRITICAL MISSES ON DEFENSE ROLLS). Other placements
    (``KNOCKED_AWAY``, ``ADJACENT_OR_FEET`` ...) roll their dice with ``rng``."""
    # Lazy: item rules load on first use (start-up time, docs/packaging.md).
    from rules.battle.items import BLOCK_MISS_000, DROPPED_000, LeftHand, take_from_hand
    from rules.battle.pieces import AT_FEET, Piece

    if placement is None:
        placement = AT_FEET
    holder = state.combatant(combatant_id)
    emptied, held = take_from_hand(holder, key)
    state = state.with_combatants(emptied)
    citation = placement.citation or (BLOCK_MISS_000 if held.shield is not None else DROPPED_000)
    events: list[Event] = [
        LeftHand(
            citation=citation,
            combatant_id=holder.id,
            name=holder.name,
            item_name=held.name + (f" ({reason})" if reason else ""),
        )
    ]
    piece = Piece(held.name, held.weapon, placement)
    state, placed = _place_one(
        state,
        piece,
        emptied,
        rng,
        source_weapon=held.weapon,
        shield=held.shield,
        start=emptied.hex,
        weapon_state=held.weapon_state,
    )
    return state, (*events, *placed)


def apply_map_effects(
    state: BattleState, effects: Sequence[MapEffect], rng: DiceSource
) -> tuple[BattleState, tuple[Event, ...]]:
    """Resolve map effects in order with the command's dice (rules.battle.items)."""
    # Lazy: item rules load on first use (start-up time, docs/packaging.md).
    from rules.battle.items import (
        DROPPED_000,
        Falls,
        LeftHand,
        ShieldLeavesHand,
        WeaponLeavesHand,
        take_from_hand,
    )
    from rules.battle.movement import apply_fall

    events: list[Event] = []
    for effect in effects:
        if isinstance(effect, WeaponLeavesHand):
            holder = state.combatant(effect.combatant_id)
            source: Weapon | None = None
            ws: WeaponDamageState | None = None
            if any(w.key == effect.weapon_key for w in holder.fighter.weapons):
                holder, held = take_from_hand(holder, effect.weapon_key)
                source, ws = held.weapon, held.weapon_state
            remnant = effect.in_hand
            if remnant is not None and remnant.weapon is not None:
                f = holder.fighter
                holder = replace(holder, fighter=replace(f, weapons=(*f.weapons, remnant.weapon)))
            state = state.with_combatants(holder)
            events.append(
                LeftHand(
                    citation=DROPPED_000,
                    combatant_id=holder.id,
                    name=holder.name,
                    item_name=source.name if source is not None else effect.weapon_key,
                    remnant=None if remnant is None else remnant.name,
                )
            )
            for piece in effect.pieces:
                whole = piece.weapon is not None and source is not None and piece.weapon == source
                state, placed = _place_one(
                    state,
                    piece,
                    holder,
                    rng,
                    source_weapon=source if source is not None else source_weapon_of(piece, holder),
                    shield=None,
                    start=holder.hex,
                    weapon_state=ws if whole else None,
                )
                events.extend(placed)
        elif isinstance(effect, ShieldLeavesHand):
            holder = state.combatant(effect.combatant_id)
            if holder.fighter.shield is None:
                raise IllegalCommandError(f"{holder.name} carries no shield")
            state, dropped = drop_from_hand(
                state, holder.id, holder.fighter.shield.key, rng, placement=effect.placement
            )
            events.extend(dropped)
        elif isinstance(effect, Falls):
            holder = state.combatant(effect.combatant_id)
            fallen, fell = apply_fall(holder, effect.posture, citation=effect.citation)
            state = state.with_combatants(fallen)
            if fell is not None:
                events.append(fell)
    return state, tuple(events)


# ------------------------------------------------------ reach and weapons


def weapon_positions(combatant: Combatant) -> dict[str, tuple[Hex, ...]]:
    """Where each of a combatant's weapons is on the map, by key, nearest the
    wielder first (``hexmap.weapon_hexes`` with the weapon's longest reach; 001
    Striking at Weapons in Tactical Combat). Bare hands are left out: they are a
    hit location, not a weapon."""
    return {
        w.key: weapon_hexes(combatant.hex, combatant.facing, w.reach)
        for w in combatant.fighter.weapons
        if w.kind is not WeaponKind.UNARMED
    }


def attacker_reach(combatant: Combatant, weapon_key: str | None = None) -> frozenset[Hex]:
    """The hexes ``combatant`` can strike: with one weapon, or with any of them."""
    weapons = combatant.fighter.weapons
    if weapon_key is not None:
        weapons = tuple(w for w in weapons if w.key == weapon_key)
        if not weapons:
            raise IllegalCommandError(f"{combatant.name} has no weapon {weapon_key!r}")
    found: frozenset[Hex] = frozenset()
    for w in weapons:
        found |= reach_hexes(combatant.hex, combatant.facing, w.reach)
    return found


def can_strike_at_weapon(
    state: BattleState,
    attacker_id: str,
    target_id: str,
    weapon_key: str,
    *,
    used_against_attacker_this_turn: bool | None = None,
    attacker_weapon_key: str | None = None,
    rules: RulesSource | None = None,
) -> tuple[bool, str]:
    """May ``attacker_id`` strike at ``target_id``'s weapon ``weapon_key``?
    Returns (allowed, reason with its citation).

    Allowed when a hex of the weapon (``weapon_positions``) lies within the
    attacker's reach (with ``attacker_weapon_key``, or any weapon), and always -
    000 STRIKING AT WEAPONS - when the weapon attacked, parried or feinted
    against the attacker this turn (``used_against_attacker_this_turn``; None:
    read from the target's turn record), or - 001 Striking at Weapons in Tactical
    Combat - for a reach 2+ weapon that attacked or feinted against the attacker
    this turn or last turn (the attacker's first turn after it). ``rules``
    defaults to the battle's (``Ruleset.weapon_rules``)."""
    # Lazy: item rules load on first use (start-up time, docs/packaging.md).
    from rules.sets.seed000.weapon_strikes import weapon_targetable

    attacker = state.combatant(attacker_id)
    target = state.combatant(target_id)
    positions = weapon_positions(target)
    if weapon_key not in positions:
        if any(w.key == weapon_key for w in target.fighter.weapons):
            return False, "bare hands are struck as a hit location, not as a weapon"
        raise IllegalCommandError(f"{target.name} holds no weapon {weapon_key!r}")
    weapon = target.fighter.weapon(weapon_key)
    in_reach = any(
        h in attacker_reach(attacker, attacker_weapon_key) for h in positions[weapon_key]
    )
    used = (
        used_against_attacker_this_turn
        if used_against_attacker_this_turn is not None
        else weapon_key in target.weapons_used_against(attacker.id)
    )
    recent = weapon_key in (
        target.weapons_attacked_or_feinted_with(attacker.id)
        | target.weapons_attacked_or_feinted_with(attacker.id, last_turn=True)
    )
    source = rules if rules is not None else state.ruleset.weapon_rules
    verdict = weapon_targetable(
        weapon,
        weapon_in_reach=in_reach,
        used_against_attacker_this_turn=used,
        attacked_or_feinted_last_turn=recent,
        rules=source,
    )
    return verdict.allowed, f"{verdict.reason} ({verdict.citation})"




# --------------------------------------------------------------- commands
# The attack, edit, item, terrain, posture and ruleset commands live in
# rules.battle.commands and load when one is first asked of this module (start-up,
# docs/packaging.md).
_LATER_COMMANDS = frozenset(
    {"Attack", "EditCombatant", "SetDefendedArea", "DropItem", "PickUpItem",
     "ReadyWeapon", "PlaceItem", "AddItem", "PaintTerrain", "SetPosture",
     "ApplyMapEffects", "ReadyShield", "SetRulesetOptions"}
)  # fmt: skip


def __getattr__(name: str) -> object:
    if name in _LATER_COMMANDS:
        import rules.battle.commands

        return getattr(rules.battle.commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
