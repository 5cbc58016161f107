"""The battle model: one immutable state that changes only through commands.

A ``Battle`` keeps the initial state, the seed and the log of commands applied.
Command *i* draws its dice from its own ``SeededDice`` seeded from
``(seed, i)``, so replaying the log on the initial state reproduces the battle
exactly — the base for undo, saves, autosave and bug reports (as MeleeWizard keeps
its input log and seed).

Undo works on the log, so every command can be undone: the battle keeps the state
before each recent command and before every 64th further back (checkpoints that
share every part a command left alone), an undo takes the last command back to the
undone list with its faces, and a redo runs it again on exactly those faces.
``restore`` rebuilds a saved battle with its undone commands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from hexmap import Hex, reach_hexes, weapon_hexes
from rules.battle.aftermath import run_command
from rules.battle.hands import wielded_weapons
from rules.battle.items import (
    Falls,
    ItemKind,
    LeftHand,
    MapEffect,
    ShieldLeavesHand,
    WeaponLeavesHand,
    item_from_piece,
    item_from_shield,
    item_id,
    piece_kind,
    take_from_hand,
)
from rules.battle.limits import MAX_COMMANDS, MAX_FACES
from rules.battle.model import Combatant, Shield, Status, Weapon, WeaponDamageState, WeaponKind
from rules.battle.movement import (
    apply_fall,
)
from rules.battle.notes import CommandNote
from rules.battle.pieces import AT_FEET, Piece, Placement, PlacementKind
from rules.battle.scatter import Occupant, PieceLanded, scatter_piece
from rules.battle.state import (
    BattleRuleset,
    BattleState,
    Command,
    CommandResult,
    LaunchedPiece,
    RulesetFinder,
)
from rules.core.dice import DiceSource, RecordingDice, ScriptedDice, SeededDice, TableRoll
from rules.core.errors import IllegalCommandError
from rules.core.events import Event


class ChangeKind(Enum):
    """How a change came about: a command run, taken back, or run again."""

    EXECUTED = "executed"
    UNDONE = "undone"  # ``after`` is the state before the command; ``events`` are its own
    REDONE = "redone"  # run again on its recorded dice


@dataclass(frozen=True)
class BattleChange:
    """What one executed, undone or redone command changed; observers decide what
    to redraw from it. ``index`` is the command's place in the log."""

    index: int
    command: Command
    before: BattleState
    after: BattleState
    events: tuple[Event, ...]
    changed_ids: frozenset[str] = field(default_factory=frozenset)
    dice: tuple[int, ...] = ()  # the faces the command rolled, in order
    kind: ChangeKind = ChangeKind.EXECUTED
    dice_entered: bool = False  # the faces were entered at the table (physical dice)
    # Each roll entered at the table, with what it was for (physical dice only).
    table_rolls: tuple[TableRoll, ...] = ()
    # Why the command was given (a computer fighter's reason: rules.battle.notes).
    note: CommandNote | None = None

    @property
    def items_changed(self) -> bool:
        return self.before.items != self.after.items

    @property
    def terrain_changed(self) -> bool:
        return self.before.terrain != self.after.terrain

    @property
    def rules_changed(self) -> bool:
        """The ruleset's options changed: every fighter may read differently (its
        wounds, its conditions, what it may aim at)."""
        return self.before.ruleset_options != self.after.ruleset_options


Observer = Callable[[BattleChange], None]


# Every command of the last RECENT_CHECKPOINTS keeps the state before it; further
# back, every CHECKPOINT_STRIDE-th does, so that an undo there reruns at most
# CHECKPOINT_STRIDE - 1 commands (docs/architecture.md, "Undo and redo").
RECENT_CHECKPOINTS = 256
CHECKPOINT_STRIDE = 64


def command_rng(seed: int, index: int) -> SeededDice:
    """The dice of command ``index``: independent of how many numbers earlier
    commands drew, so a log replays exactly and a bug report needs only seed+log.
    The source records the faces it gives (``SeededDice.faces``)."""
    return SeededDice(f"hexfray/{seed}/{index}")


class Battle:
    """The one battle model. Changes only through ``execute``, ``undo`` and ``redo``.

    ``rulesets`` finds the ruleset the state names (``rules.sets.registry``); it is
    asked when a command needs it, so a battle can be loaded and drawn first."""

    def __init__(self, initial: BattleState, seed: int, rulesets: RulesetFinder) -> None:
        self._initial = initial
        self._seed = seed
        self._rulesets = rulesets
        self._state = initial
        self._commands: list[Command] = []
        self._events: list[tuple[Event, ...]] = []
        # The faces each command rolled, in order (rules.core.dice): a replay or a
        # redo runs the command again on exactly these.
        self._dice: list[tuple[int, ...]] = []
        # Whether each command's faces were entered at the table (physical dice).
        self._entered: list[bool] = []
        # Each command's rolls entered at the table, with what each was for: found
        # again when an entered command is redone or replayed (``ScriptedDice``).
        self._table_rolls: list[tuple[TableRoll, ...]] = []
        # The checkpoints: the state before each command of the log, for the last
        # RECENT_CHECKPOINTS commands and, further back, every CHECKPOINT_STRIDE-th
        # (None between them). States share every part a command leaves alone, but a
        # command that copies a large part (the terrain brush) would otherwise leave
        # a copy for each command; ``_state_before`` fills a gap again when an undo
        # reaches it.
        self._before: list[BattleState | None] = []
        # What was undone and may be redone, with its dice: the next redo last.
        self._undone: list[tuple[Command, tuple[int, ...]]] = []
        self._undone_entered: list[bool] = []  # beside ``_undone``
        # Why each command was given, by its place in the log (rules.battle.notes):
        # an undo keeps it for the redo; a new command in its place drops it.
        self._notes: dict[int, CommandNote] = {}
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
    def rulesets(self) -> RulesetFinder:
        return self._rulesets

    def ruleset_of(self, state: BattleState) -> BattleRuleset:
        """The ruleset ``state`` names."""
        return self._rulesets(state.ruleset_key, state.ruleset_options)

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
    def entered_log(self) -> tuple[bool, ...]:
        """For each command of the log, whether its faces were entered at the table."""
        return tuple(self._entered)

    @property
    def table_roll_log(self) -> tuple[tuple[TableRoll, ...], ...]:
        """For each command of the log, the rolls entered at the table (none for
        the computer's dice), each with what it was for."""
        return tuple(self._table_rolls)

    @property
    def undone_entered(self) -> tuple[bool, ...]:
        """For each of ``undone`` (the next redo first), whether its faces were entered."""
        return tuple(reversed(self._undone_entered))

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(e for batch in self._events for e in batch)

    @property
    def can_undo(self) -> bool:
        return bool(self._commands)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    @property
    def undo_command(self) -> Command | None:
        """The command an undo takes back: the last of the log."""
        return self._commands[-1] if self._commands else None

    @property
    def redo_command(self) -> Command | None:
        """The command a redo runs again: the last one undone."""
        return self._undone[-1][0] if self._undone else None

    @property
    def undone(self) -> tuple[tuple[Command, tuple[int, ...]], ...]:
        """The undone commands with the faces they rolled, the next redo first."""
        return tuple(reversed(self._undone))

    def note(self, index: int) -> CommandNote | None:
        """Why command ``index`` (of the log, or undone after it) was given."""
        return self._notes.get(index)

    @property
    def notes(self) -> tuple[tuple[int, CommandNote], ...]:
        """Every note, with the place of its command (the log, then the undone)."""
        return tuple(sorted(self._notes.items()))

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        self._observers.append(observer)
        return lambda: self._observers.remove(observer)

    def preview(self, command: Command) -> CommandResult:
        """Apply a command to a copy: the result it would have, with the dice it
        would roll. Nothing changes."""
        state = self._state
        dice = command_rng(self._seed, len(self._commands))
        return run_command(command, state, dice, self.ruleset_of(state))

    def execute(
        self, command: Command, dice: RecordingDice | None = None, note: CommandNote | None = None
    ) -> tuple[Event, ...]:
        """Apply ``command`` and log it with the faces it rolled. ``dice`` replaces
        the command's seeded dice: the recorded faces of a redo or replay
        (``ScriptedDice``, which never rolls), or dice entered at the table
        (``EnteredDice``). A source that raises, as a person cancelling the entry
        does, leaves the battle as it was: the command is applied to the frozen
        state first, and nothing is logged until it returns. A log of
        ``MAX_COMMANDS`` takes no more (``rules.battle.limits``: a file holds no
        more)."""
        index = len(self._commands)
        if index >= MAX_COMMANDS:
            raise IllegalCommandError(
                f"the battle's log is full: a battle holds at most {MAX_COMMANDS:,} commands"
            )
        source = command_rng(self._seed, index) if dice is None else dice
        before, result = self._run(command, source)
        self._undone.clear()  # a new command starts a new future
        self._undone_entered.clear()
        for later in [i for i in self._notes if i >= index]:
            del self._notes[later]
        if note is not None:  # ``note``: why it was given (rules.battle.notes)
            self._notes[index] = note
        if self._observers:  # a battle played without a window tells nobody
            self._tell(self._change(index, before, ChangeKind.EXECUTED))
        return result.events

    def undo(self) -> BattleChange:
        """Take back the last command of the log: the state is again the one before
        it, and the command with its dice goes to ``undone`` for a redo.
        ``IllegalCommandError`` when the log is empty."""
        if not self._commands:
            raise IllegalCommandError("there is nothing to undo")
        index = len(self._commands) - 1
        before = self._state_before(index)
        change = self._change(index, before, ChangeKind.UNDONE)
        self._commands.pop()
        self._events.pop()
        self._dice.pop()
        self._entered.pop()
        self._table_rolls.pop()
        self._before.pop()
        self._state = before
        self._undone.append((change.command, change.dice))
        self._undone_entered.append(change.dice_entered)
        self._tell(change)
        return change

    def redo(self) -> BattleChange:
        """Run the last undone command again on the faces it rolled
        (``ScriptedDice``: it never rolls anew). ``IllegalCommandError`` when
        nothing was undone."""
        if not self._undone:
            raise IllegalCommandError("there is nothing to redo")
        command, faces = self._undone[-1]
        # The same command on the same state and faces does what it did; it leaves
        # the list only once it has, so a refusal leaves the history whole.
        before, _ = self._run(command, ScriptedDice(faces, entered=self._undone_entered[-1]))
        self._undone.pop()
        self._undone_entered.pop()
        change = self._change(len(self._commands) - 1, before, ChangeKind.REDONE)
        self._tell(change)
        return change

    def _run(self, command: Command, source: RecordingDice) -> tuple[BattleState, CommandResult]:
        """Apply ``command`` with ``source`` and log it: the state before, and the result."""
        before = self._state
        result = run_command(command, before, source, self.ruleset_of(before))
        if len(source.faces) > MAX_FACES:  # no file could hold it
            raise IllegalCommandError(
                f"the command rolled {len(source.faces):,} dice; a command rolls at most "
                f"{MAX_FACES:,}"
            )
        self._state = result.state
        self._before.append(before)
        leaving = len(self._before) - 1 - RECENT_CHECKPOINTS  # leaves the recent ones
        if leaving > 0 and leaving % CHECKPOINT_STRIDE:
            self._before[leaving] = None
        self._commands.append(command)
        self._events.append(result.events)
        self._dice.append(source.faces)
        self._entered.append(source.entered)
        self._table_rolls.append(source.table_rolls)
        return before, result

    def _state_before(self, index: int) -> BattleState:
        """The state before command ``index``: its checkpoint, or, in a gap, the
        commands since the checkpoint before it run again on their recorded faces
        (at most CHECKPOINT_STRIDE - 1 of them). The states found fill the gap, so
        the undos that follow take theirs at once."""
        kept = self._before[index]
        if kept is not None:
            return kept
        start = index
        found: BattleState | None = None
        while found is None:  # the first command's checkpoint is never dropped
            start -= 1
            found = self._before[start]
        state = found
        for k in range(start, index):
            state = run_command(
                self._commands[k], state, ScriptedDice(self._dice[k]), self.ruleset_of(state)
            ).state
            self._before[k + 1] = state
        return state

    def _change(self, index: int, before: BattleState, kind: ChangeKind) -> BattleChange:
        """Command ``index`` of the log as a change. Executed or redone, it went
        from ``before`` to the state now; undone, from the state now to ``before``."""
        start, end = (self._state, before) if kind is ChangeKind.UNDONE else (before, self._state)
        return BattleChange(
            index=index,
            command=self._commands[index],
            before=start,
            after=end,
            events=self._events[index],
            changed_ids=_changed_ids(start, end),
            dice=self._dice[index],
            kind=kind,
            dice_entered=self._entered[index],
            table_rolls=self._table_rolls[index],
            note=self._notes.get(index),
        )

    def _tell(self, change: BattleChange) -> None:
        for observer in list(self._observers):
            observer(change)

    @classmethod
    def replay(
        cls,
        initial: BattleState,
        seed: int,
        commands: Iterable[Command],
        dice_log: Iterable[tuple[int, ...]] | None = None,
        *,
        rulesets: RulesetFinder,
        entered: Iterable[bool] = (),
    ) -> Battle:
        """The battle after ``commands``: rolled again from the seed, or, with
        ``dice_log``, on exactly the recorded faces (too few is an error).
        ``entered``: for each command, whether those faces were entered at the
        table (as ``entered_log``; missing at the end: not)."""
        battle = cls(initial, seed, rulesets)
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
        marks = iter(entered)
        for command, faces in zip(commands, recorded, strict=True):
            battle.execute(command, ScriptedDice(faces, entered=next(marks, False)))
        return battle

    @classmethod
    def restore(
        cls,
        initial: BattleState,
        seed: int,
        commands: Iterable[Command],
        dice_log: Iterable[tuple[int, ...]],
        undone: Iterable[tuple[Command, tuple[int, ...]]] = (),
        *,
        rulesets: RulesetFinder,
        entered: Iterable[bool] = (),
        notes: Iterable[tuple[int, CommandNote]] = (),
    ) -> Battle:
        """The battle as it was saved: ``commands`` run on their recorded dice, and
        ``undone`` (the next redo first, as ``Battle.undone`` gives it) waiting for
        a redo. The undone commands are run and taken back once here, so that a
        history whose redo could not run is refused now, not at the GM's Ctrl+Shift+Z.
        ``entered``: for each command of the log and then of ``undone``, whether its
        faces were entered at the table (``entered_log``, ``undone_entered``).
        ``notes``: why commands were given, by their place (``Battle.notes``)."""
        later = tuple(undone)
        battle = cls.replay(
            initial,
            seed,
            (*commands, *(command for command, _ in later)),
            (*dice_log, *(faces for _, faces in later)),
            rulesets=rulesets,
            entered=entered,
        )
        for _ in later:
            battle.undo()
        total = len(battle._commands) + len(later)
        battle._notes = {index: note for index, note in notes if 0 <= index < total}
        return battle


def _changed_ids(before: BattleState, after: BattleState) -> frozenset[str]:
    old = {c.id: c for c in before.combatants}
    # A command passes unchanged combatants on as they are: ``is`` settles most
    # without comparing every field.
    changed = frozenset(
        c.id for c in after.combatants if (was := old.get(c.id)) is not c and was != c
    )
    if before.controllers != after.controllers:  # handed to the computer or taken back
        changed |= frozenset(
            c.id for c in after.combatants if before.controller(c.id) != after.controller(c.id)
        )
    if len(after.combatants) - len(changed - old.keys()) == len(old):
        return changed
    # a combatant left the battle (rules.battle.roster, or the undo of its arrival)
    return changed | (old.keys() - {c.id for c in after.combatants})


def combatants_by_id(combatants: Sequence[Combatant]) -> dict[str, Combatant]:
    return {c.id: c for c in combatants}


# =====================================================================
# The battlefield: pieces and items on the map, hands, reach to weapons,
# terrain and posture (docs/battlefield.md). rules.battle.items, rules.battle.scatter,
# rules.battle.terrain and rules.battle.movement hold the pure parts.
# =====================================================================


def _occupants(state: BattleState, exclude: str | None = None) -> dict[Hex, Occupant]:
    found: dict[Hex, Occupant] = {}
    for c in state.combatants:
        if c.status is Status.DEAD or c.id == exclude:
            continue
        found.setdefault(c.hex, Occupant(c))
    return found


def source_weapon_of(piece: Piece, holder: Combatant) -> Weapon | None:
    """The weapon a piece came from: its own weapon when whole, else the holder's
    weapon whose name the piece's name contains ("head of Morningstar"), the
    longest such name; None if there is none."""
    if piece.weapon is not None and piece_kind(piece) is ItemKind.WEAPON:
        return piece.weapon
    named = [w for w in holder.fighter.weapons if w.name and w.name in piece.name]
    if named:
        return max(named, key=lambda w: len(w.name))
    return piece.weapon


def _place_one(
    state: BattleState,
    piece: Piece,
    holder: Combatant,
    rng: DiceSource,
    ruleset: BattleRuleset,
    *,
    source_weapon: Weapon | None,
    shield: Shield | None,
    start: Hex,
    weapon_state: WeaponDamageState | None = None,
) -> tuple[BattleState, tuple[Event, ...]]:
    """Trace one piece to where it comes to rest, put it there as a ground item,
    and let the ruleset hurt whoever it hit on the way."""
    landing = scatter_piece(
        piece,
        start,
        state.grid,
        rng,
        wielder_facing=holder.facing,
        occupants=_occupants(state, holder.id),
        hits=ruleset.battlefield.stray_hits,
        whose=holder.name,
    )
    events: list[Event] = [c.event for c in landing.checks]
    new_id = item_id(state.next_item)
    if shield is not None:
        item = item_from_shield(shield, new_id, landing.final, holder.id)
    else:
        item = item_from_piece(piece, new_id, landing.final, holder.id, weapon_state)
    state = state.with_new_item(item)
    events.append(
        PieceLanded(citation=landing.citation, landing=landing, item_id=new_id, origin_id=holder.id)
    )
    if landing.hit_id is not None:
        state, hurt = ruleset.battlefield.piece_hit(
            state, piece, source_weapon, holder, landing.hit_id, landing.final, rng
        )
        events.extend(hurt)
    return state, tuple(events)


def place_pieces(
    state: BattleState,
    pieces: Sequence[Piece],
    origin_combatant: str | Combatant,
    rng: DiceSource,
    ruleset: BattleRuleset,
    *,
    source_weapon: Weapon | None = None,
    shield: Shield | None = None,
    start: Hex | None = None,
) -> tuple[BattleState, tuple[Event, ...]]:
    """Put pieces that left ``origin_combatant``'s hand on the map as ground items.

    Each ``Piece``'s ``Placement`` (rules.battle.pieces) is traced by
    ``rules.battle.scatter.scatter_piece`` from ``start`` (default: the origin's hex):
    landing dice already rolled are kept, missing ones are rolled now with
    ``rng``; pieces that may hit somebody roll for everyone in the way, and the
    ruleset hurts whoever is hit at once (``BattlefieldRules.piece_hit``). IN_HAND
    pieces are skipped; a deliberate drop (DROPPED_NEARBY) lands on ``start``.
    Only the map changes here (and a victim's HP): taking the weapon from the
    hand is the caller's business (``take_from_hand``, ``WeaponLeavesHand``,
    ``drop_from_hand``).

    ``source_weapon`` is the weapon the pieces came from, for the damage of a
    stray hit (default: ``source_weapon_of``). A piece with no weapon named like
    ``shield`` becomes a SHIELD item. Returns the new state and the events, in
    order: stray-hit rolls, landing, damage.
    """
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
            ruleset,
            source_weapon=source_weapon
            if source_weapon is not None
            else source_weapon_of(piece, holder),
            shield=shield if is_shield else None,
            start=where,
        )
        events.extend(placed)
    return state, tuple(events)


def place_launched_pieces(
    before: BattleState,
    after: BattleState,
    launched: Sequence[LaunchedPiece],
    rng: DiceSource,
    ruleset: BattleRuleset,
) -> tuple[BattleState, tuple[Event, ...]]:
    """Put the pieces an attack sent flying on the map, in order, from ``after``
    (``before`` is the state the attack began in: what each holder held). A whole
    weapon or shield still held by its origin after the attack is taken from the
    hand first, so that nothing is both in a hand and on the ground."""
    events: list[Event] = []
    for launch in launched:
        piece = launch.piece
        was = before.combatant(launch.origin_id)
        now = after.combatant(launch.origin_id)
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
            ruleset,
            source_weapon=source_weapon_of(piece, was),
            shield=shield if is_shield else None,
            start=launch.start if launch.start is not None else now.hex,
            weapon_state=None if whole is None else was.weapon_state(whole.key),
        )
        events.extend(placed)
    return after, tuple(events)


def drop_from_hand(
    state: BattleState,
    combatant_id: str,
    key: str,
    rng: DiceSource,
    ruleset: BattleRuleset,
    *,
    placement: Placement | None = None,
    reason: str = "",
) -> tuple[BattleState, tuple[Event, ...]]:
    """A weapon (by key) or the shield (by its key) leaves the hand and lands by
    ``placement`` - at the feet (``AT_FEET``) by default: a crippled hand drops what it holds
    (000 HIT LOCATION note on crippled hands), a fumbled block drops a buckler or
    small shield (000 CRITICAL MISSES ON DEFENSE ROLLS). Other placements
    (``KNOCKED_AWAY``, ``ADJACENT_OR_FEET`` ...) roll their dice with ``rng``."""
    if placement is None:
        placement = AT_FEET
    holder = state.combatant(combatant_id)
    emptied, held = take_from_hand(holder, key)
    state = state.with_combatants(emptied)
    cites = ruleset.core_citations
    citation = placement.citation or (
        cites.dropped_shield if held.shield is not None else cites.dropped_weapon
    )
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
        ruleset,
        source_weapon=held.weapon,
        shield=held.shield,
        start=emptied.hex,
        weapon_state=held.weapon_state,
    )
    return state, (*events, *placed)


def apply_map_effects(
    state: BattleState, effects: Sequence[MapEffect], rng: DiceSource, ruleset: BattleRuleset
) -> tuple[BattleState, tuple[Event, ...]]:
    """Resolve map effects in order with the command's dice (rules.battle.items)."""
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
                    citation=ruleset.core_citations.dropped_weapon,
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
                    ruleset,
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
                state,
                holder.id,
                holder.fighter.shield.key,
                rng,
                ruleset,
                placement=effect.placement,
            )
            events.extend(dropped)
        elif isinstance(effect, Falls):
            holder = state.combatant(effect.combatant_id)
            citation = effect.citation or ruleset.core_citations.posture
            fallen, fell = apply_fall(holder, effect.posture, citation=citation)
            state = state.with_combatants(fallen)
            if fell is not None:
                events.append(fell)
    return state, tuple(events)


# ------------------------------------------------------ reach and weapons


def weapon_positions(combatant: Combatant) -> dict[str, tuple[Hex, ...]]:
    """Where each of a combatant's weapons in hand is on the map, by key, nearest
    the wielder first (``hexmap.weapon_hexes`` with the weapon's longest reach; 001
    Striking at Weapons in Tactical Combat). Bare hands are left out: they are a
    hit location, not a weapon; so is what is carried at the belt
    (``rules.battle.hands``)."""
    return {
        w.key: weapon_hexes(combatant.hex, combatant.facing, w.reach)
        for w in wielded_weapons(combatant)
        if w.kind is not WeaponKind.UNARMED
    }


def attacker_reach(combatant: Combatant, weapon_key: str | None = None) -> frozenset[Hex]:
    """The hexes ``combatant`` can strike: with one weapon in hand, or with any."""
    weapons = wielded_weapons(combatant)
    if weapon_key is not None:
        weapons = tuple(w for w in weapons if w.key == weapon_key)
        if not weapons:
            raise IllegalCommandError(f"{combatant.name} has no weapon {weapon_key!r}")
    found: frozenset[Hex] = frozenset()
    for w in weapons:
        found |= reach_hexes(combatant.hex, combatant.facing, w.reach)
    return found
