"""The battle model: one immutable state that changes only through commands.

A ``Battle`` keeps the initial state, the seed and the log of commands applied.
Command *i* draws its dice from its own ``random.Random`` seeded from
``(seed, i)``, so replaying the log on the initial state reproduces the battle
exactly — the base for undo, saves, autosave and bug reports (as MeleeWizard keeps
its input log and seed).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from hexmap import Facing, Hex, HexGrid
from rules.attack import AttackOptions, AttackResolution, plan_attack, resolve_attack
from rules.defense import start_new_turn
from rules.errors import IllegalCommandError
from rules.events import Edited, Event, Moved, Turned, TurnEnded
from rules.model import Combatant, Status
from rules.ruleset import DEFAULT_RULESET_KEY, Ruleset, get_ruleset


@dataclass(frozen=True)
class BattleState:
    grid: HexGrid
    combatants: tuple[Combatant, ...]
    turn: int = 1
    ruleset_key: str = DEFAULT_RULESET_KEY
    # Ruleset options of this battle, e.g. ("locations-001",) (rules.ruleset).
    ruleset_options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        ids = [c.id for c in self.combatants]
        if len(set(ids)) != len(ids):
            raise IllegalCommandError(f"duplicate combatant ids in {ids}")

    @property
    def ruleset(self) -> Ruleset:
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
        return replace(
            self, combatants=tuple(by_id.get(c.id, c) for c in self.combatants)
        )


@dataclass(frozen=True)
class CommandResult:
    state: BattleState
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Command:
    """Base of battle commands. ``apply`` is pure: state and dice in, state and
    events out."""

    def apply(self, state: BattleState, rng: random.Random) -> CommandResult:
        raise NotImplementedError


@dataclass(frozen=True)
class MoveCombatant(Command):
    combatant_id: str
    destination: Hex

    def apply(self, state: BattleState, rng: random.Random) -> CommandResult:
        mover = state.combatant(self.combatant_id)
        if self.destination not in state.grid:
            raise IllegalCommandError(f"{self.destination} is off the map")
        blocker = state.occupant(self.destination)
        if blocker is not None and blocker.id != mover.id:
            raise IllegalCommandError(f"{blocker.name} stands in that hex")
        moved = replace(mover, hex=self.destination)
        event = Moved(
            combatant_id=mover.id, name=mover.name, path=(mover.hex, self.destination)
        )
        return CommandResult(state.with_combatants(moved), (event,))


@dataclass(frozen=True)
class TurnCombatant(Command):
    combatant_id: str
    facing: Facing

    def apply(self, state: BattleState, rng: random.Random) -> CommandResult:
        who = state.combatant(self.combatant_id)
        turned = replace(who, facing=self.facing)
        event = Turned(combatant_id=who.id, name=who.name, before=who.facing, after=self.facing)
        return CommandResult(state.with_combatants(turned), (event,))


@dataclass(frozen=True)
class EditCombatant(Command):
    """The GM's direct edit of a combatant's current values."""

    combatant_id: str
    hp: int | None = None
    status: Status | None = None

    def apply(self, state: BattleState, rng: random.Random) -> CommandResult:
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
class Attack(Command):
    attacker_id: str
    defender_id: str
    options: AttackOptions

    def resolve(self, state: BattleState, rng: random.Random) -> AttackResolution:
        attacker = state.combatant(self.attacker_id)
        defender = state.combatant(self.defender_id)
        if attacker.id == defender.id:
            raise IllegalCommandError("a combatant cannot attack itself")
        ruleset = state.ruleset
        plan = plan_attack(attacker, defender, self.options, ruleset)
        return resolve_attack(plan, attacker, defender, rng, ruleset)

    def apply(self, state: BattleState, rng: random.Random) -> CommandResult:
        resolution = self.resolve(state, rng)
        after = state.with_combatants(resolution.attacker_after, resolution.defender_after)
        return CommandResult(after, resolution.events)


@dataclass(frozen=True)
class EndTurn(Command):
    """Ends the turn: per-turn defense counts and weapon use start afresh."""

    def apply(self, state: BattleState, rng: random.Random) -> CommandResult:
        fresh = tuple(start_new_turn(c) for c in state.combatants)
        after = replace(state, combatants=fresh, turn=state.turn + 1)
        return CommandResult(after, (TurnEnded(turn=after.turn),))


@dataclass(frozen=True)
class BattleChange:
    """What one executed command changed; observers decide what to redraw from it."""

    index: int
    command: Command
    before: BattleState
    after: BattleState
    events: tuple[Event, ...]
    changed_ids: frozenset[str] = field(default_factory=frozenset)


Observer = Callable[[BattleChange], None]


def command_rng(seed: int, index: int) -> random.Random:
    """The dice of command ``index``: independent of how many numbers earlier
    commands drew, so a log replays exactly and a bug report needs only seed+log."""
    return random.Random(f"hexfray/{seed}/{index}")


class Battle:
    """The one battle model. Changes only through ``execute``."""

    def __init__(self, initial: BattleState, seed: int) -> None:
        self._initial = initial
        self._seed = seed
        self._state = initial
        self._commands: list[Command] = []
        self._events: list[tuple[Event, ...]] = []
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
    def events(self) -> tuple[Event, ...]:
        return tuple(e for batch in self._events for e in batch)

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        self._observers.append(observer)
        return lambda: self._observers.remove(observer)

    def preview(self, command: Command) -> CommandResult:
        """Apply a command to a copy: the result it would have, with the dice it
        would roll. Nothing changes."""
        return command.apply(self._state, command_rng(self._seed, len(self._commands)))

    def execute(self, command: Command) -> tuple[Event, ...]:
        index = len(self._commands)
        before = self._state
        result = command.apply(before, command_rng(self._seed, index))
        self._state = result.state
        self._commands.append(command)
        self._events.append(result.events)
        change = BattleChange(
            index=index,
            command=command,
            before=before,
            after=result.state,
            events=result.events,
            changed_ids=_changed_ids(before, result.state),
        )
        for observer in list(self._observers):
            observer(change)
        return result.events

    @classmethod
    def replay(cls, initial: BattleState, seed: int, commands: Iterable[Command]) -> Battle:
        battle = cls(initial, seed)
        for command in commands:
            battle.execute(command)
        return battle


def _changed_ids(before: BattleState, after: BattleState) -> frozenset[str]:
    old = {c.id: c for c in before.combatants}
    return frozenset(c.id for c in after.combatants if old.get(c.id) != c)


def combatants_by_id(combatants: Sequence[Combatant]) -> dict[str, Combatant]:
    return {c.id: c for c in combatants}
