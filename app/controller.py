"""The bridge between the pure battle model and the Qt panes.

Panes never change the battle themselves: they call ``execute`` with a command
(as napari's layer controls and Anki's ``operations/`` do) and observe the
signals below. ``BattleController`` is also the one place that decides what to
redraw: it turns each ``BattleChange`` into a ``Redraw`` plan that the map and the
panes follow. An undo or a redo comes to them the same way, as a change whose
``kind`` says so (``ChangeKind.UNDONE``: ``before`` is the state the undone command
led to, ``after`` the state before it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QObject, Signal

from app.command_names import command_name
from hexmap import Hex
from rules.battle.battle import Battle, BattleChange, ChangeKind
from rules.battle.commands import MoveCombatant, TurnCombatant
from rules.battle.model import Combatant
from rules.battle.notes import CommandNote
from rules.battle.state import BattleState, Command
from rules.core.dice import DiceEntryCancelled, DiceRequest, EnteredDice
from rules.core.errors import RulesError
from rules.core.events import Event
from rules.sets.protocol import Ruleset
from rules.sets.registry import ruleset_of
from rules.sets.targeting import default_target

log = logging.getLogger(__name__)

# Asks the table for one roll of a command: (the command in the GM's words, the
# roll) -> the faces entered; raises DiceEntryCancelled when the GM cancels.
TableDice = Callable[[str, DiceRequest], Sequence[int]]


@dataclass(frozen=True)
class Redraw:
    """What a change requires on screen. Computed once per change, here."""

    tokens: frozenset[str]  # combatant ids whose tokens changed
    overlays: bool  # the selection's arcs/reach need recomputing
    panes: bool  # lists and inspector need refreshing
    # The events to add to the combat log: none for an undo, whose command's rows
    # (``BattleChange.index``) leave the log instead; a redo brings them back.
    log_events: tuple[Event, ...]
    items: bool = False  # items on the ground appeared, moved or went
    terrain: bool = False  # the terrain map changed (its cached drawing is stale)
    # Pieces flew just now (a command run for the first time): an undo or a redo
    # puts the items where they end without showing their flight again.
    animate: bool = False


class BattleController(QObject):
    # A command was executed, undone or redone (``BattleChange.kind``); carries the
    # change and its redraw plan.
    battle_changed = Signal(object, object)  # (BattleChange, Redraw)
    # The whole battle was replaced (new battle, load, replay).
    battle_reset = Signal()
    # The selected combatant changed (id or None).
    selection_changed = Signal(object)
    # The attack pane's current target changed (id or None).
    target_changed = Signal(object)
    # The turn passed to this fighter (its id), now the selection: the map shows it.
    turn_passed = Signal(str)
    # A command was refused by the rules; the message is for the status bar.
    command_refused = Signal(str)
    # The GM cancelled a roll at the table: the command was abandoned, nothing changed.
    command_cancelled = Signal(str)  # the command in the GM's words
    # Hexes to highlight briefly (hovered log entry), empty to clear.
    highlight_requested = Signal(object)  # tuple[Hex, ...]
    # A pane asks the map to let the GM pick where a combatant drops an item:
    # (combatant id, weapon or shield key). The map highlights the legal hexes.
    drop_requested = Signal(str, str)

    def __init__(self, battle: Battle, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._battle = battle
        self._unsubscribe = battle.subscribe(self._on_battle_changed)
        self._selected: str | None = None
        self._target: str | None = None
        # The GM took the target away: no default comes back until the attacker changes.
        self._target_cleared = False
        if battle.state.active_id is not None:  # opened with its turn order running
            self._selected = battle.state.active_id
            self._target = self._default_target(self._selected)
        self._table_dice: TableDice | None = None  # physical dice: who asks the table
        self._refused: Command | None = None
        # Why the next command is given (note_next): the log's place it goes to,
        # the command, and the note.
        self._next_note: tuple[int, Command, CommandNote] | None = None

    # --- the model -------------------------------------------------------------
    @property
    def battle(self) -> Battle:
        return self._battle

    @property
    def state(self) -> BattleState:
        return self._battle.state

    @property
    def ruleset(self) -> Ruleset:
        """The battle's ruleset as the panes see it: the whole protocol."""
        return ruleset_of(self.state)

    def replace_battle(self, battle: Battle) -> None:
        self._unsubscribe()
        self._battle = battle
        self._unsubscribe = battle.subscribe(self._on_battle_changed)
        ids = {c.id for c in battle.state.combatants}
        if battle.state.active_id is not None:  # its turn order runs: whose turn it is
            self._selected = battle.state.active_id
            self._target = self._default_target(self._selected)
            self._target_cleared = False
        if self._selected not in ids:
            self._selected = None
        if self._target not in ids:
            self._target = None
        self.battle_reset.emit()
        self.selection_changed.emit(self._selected)
        self.target_changed.emit(self._target)

    def set_dice_entry(self, table: TableDice | None) -> None:
        """Physical dice: from now on every command's dice are asked of ``table``,
        one roll at a time (``app.dice_entry.DiceEntryPrompt``); None: the computer
        rolls them. A redo reuses recorded dice either way and asks nothing."""
        self._table_dice = table

    @property
    def dice_entered(self) -> bool:
        """Whether commands' dice are entered at the table (physical dice)."""
        return self._table_dice is not None

    def note_next(self, command: Command, note: CommandNote) -> None:
        """Keep ``note`` with ``command`` if it is the next command executed (a
        computer fighter's reason: saved and autosaved with it, rules.battle.notes)."""
        self._next_note = (len(self._battle.commands), command, note)

    def execute(self, command: Command) -> tuple[Event, ...] | None:
        """Run a command; a rules refusal is reported, not raised. With physical
        dice the GM enters each roll; a cancelled roll abandons the command with
        nothing changed (``command_cancelled``)."""
        note = None
        if self._next_note is not None:
            index, noted, note = self._next_note
            self._next_note = None
            if index != len(self._battle.commands) or noted != command:
                note = None
        dice: EnteredDice | None = None
        if self._table_dice is not None:
            dice = EnteredDice(partial(self._table_dice, command_name(command, self.state)))
        try:
            return self._battle.execute(command, dice, note)
        except DiceEntryCancelled:
            log.info("dice entry cancelled: %s", command)
            self.command_cancelled.emit(command_name(command, self.state))
            return None
        except RulesError as refusal:
            log.info("command refused: %s", refusal)
            self._refused = command
            self.command_refused.emit(str(refusal))
            return None

    @property
    def refused_command(self) -> Command | None:
        """The command of the last ``command_refused`` (None for an undo or redo):
        the GM's override sends it again (app.override)."""
        return self._refused

    def undo(self) -> BattleChange | None:
        """Take back the last command; with nothing to undo, the refusal is reported."""
        return self._step_history("undo", self._battle.undo)

    def redo(self) -> BattleChange | None:
        """Run the last undone command again on its dice; a refusal is reported."""
        return self._step_history("redo", self._battle.redo)

    def _step_history(self, name: str, step: Callable[[], BattleChange]) -> BattleChange | None:
        """One step back or forward in the battle's history (``name`` for the log);
        a refusal is logged and sent as ``command_refused`` instead of raised."""
        self._refused = None
        try:
            return step()
        except RulesError as refusal:
            log.info("%s refused: %s", name, refusal)
            self.command_refused.emit(str(refusal))
            return None

    def _on_battle_changed(self, change: BattleChange) -> None:
        ids = {c.id for c in change.after.combatants}
        if self._target is not None and self._target not in ids:
            self._target = None  # an undo took back the command that brought it
            self.target_changed.emit(None)
        if self._selected is not None and self._selected not in ids:
            self._selected = None
            self.selection_changed.emit(None)
        self.battle_changed.emit(change, plan_redraw(change, self._selected))
        active = turn_passed_to(change)
        if active is not None:
            self._pick(active)
            self.turn_passed.emit(active)
        elif self._awaits_target() and self._selected in change.changed_ids:
            # the attacker moved or turned: a foe may be in reach now
            self._pick(self._selected)

    # --- selection -------------------------------------------------------------
    @property
    def selected_id(self) -> str | None:
        return self._selected

    @property
    def target_id(self) -> str | None:
        return self._target

    @property
    def target_cleared(self) -> bool:
        """Whether the GM took the target away (no default comes back until the
        attacker changes)."""
        return self._target_cleared

    def combatant_or_none(self, combatant_id: str | None) -> Combatant | None:
        """The combatant with that id in the battle now; None for no id or for one the
        battle no longer has (an undo took back the fighter's arrival)."""
        if combatant_id is None:
            return None
        try:
            return self.state.combatant(combatant_id)
        except RulesError:
            return None

    def select(self, combatant_id: str | None) -> None:
        """Make ``combatant_id`` the attacker, aiming at its default target."""
        if combatant_id == self._selected:
            return
        self._pick(combatant_id)

    def set_target(self, combatant_id: str | None) -> None:
        if combatant_id is not None and combatant_id == self._selected:
            return
        self._target_cleared = combatant_id is None
        if combatant_id == self._target:
            return
        self._target = combatant_id
        self.target_changed.emit(combatant_id)

    def _pick(self, attacker_id: str | None) -> None:
        """Select ``attacker_id`` and aim at its default target (none without an
        attacker), telling the panes what changed."""
        target = self._default_target(attacker_id) if attacker_id is not None else None
        moved, retargeted = attacker_id != self._selected, target != self._target
        self._selected, self._target = attacker_id, target
        self._target_cleared = False
        if moved:
            self.selection_changed.emit(attacker_id)
        if retargeted:
            self.target_changed.emit(target)

    def _default_target(self, attacker_id: str) -> str | None:
        return default_target(self.state, self.ruleset, attacker_id)

    def _awaits_target(self) -> bool:
        """An attacker without a target that the GM did not take away."""
        return self._selected is not None and self._target is None and not self._target_cleared

    def highlight(self, hexes: tuple[Hex, ...]) -> None:
        self.highlight_requested.emit(hexes)

    def request_drop(self, combatant_id: str, key: str) -> None:
        """Start the map's "where does it fall?" pick for a deliberate drop."""
        self.drop_requested.emit(combatant_id, key)

    # --- shortcuts used by the map and the keyboard ----------------------------
    def move_selected(self, destination: Hex) -> None:
        if self._selected is not None:
            self.execute(MoveCombatant(self._selected, destination))

    def turn_selected(self, steps: int) -> None:
        if self._selected is None:
            return
        current = self.state.combatant(self._selected).facing
        self.execute(TurnCombatant(self._selected, current.turned(steps)))


def turn_passed_to(change: BattleChange) -> str | None:
    """The fighter whose turn began with ``change`` (the next one after an end of
    turn, the first when the order is rolled, the earlier one when an undo takes an
    end of turn back); None when the turn stayed where it was."""
    before, after = change.before, change.after
    if after.active_id is None:
        return None
    if (before.active_id, before.turn) == (after.active_id, after.turn):
        return None
    return after.active_id


def plan_redraw(change: BattleChange, selected: str | None) -> Redraw:
    """Decide what one change needs redrawn. Overlays follow the selected
    combatant's hex, facing and gear, so they are recomputed only when it changed;
    ground items and terrain follow ``BattleChange.items_changed`` and
    ``terrain_changed``. An undo is planned as the change from the state its command
    led to back to the one before it. A change of the ruleset's options
    (``BattleChange.rules_changed``) may change how every fighter reads, so it
    redraws every token, the overlays and the panes."""
    changed = change.changed_ids
    if change.rules_changed:
        changed = frozenset(c.id for c in change.after.combatants)
    return Redraw(
        tokens=changed,
        overlays=selected is not None and selected in changed,
        panes=bool(changed) or change.before.turn != change.after.turn,
        log_events=() if change.kind is ChangeKind.UNDONE else change.events,
        items=change.items_changed,
        terrain=change.terrain_changed,
        animate=change.kind is ChangeKind.EXECUTED,
    )
