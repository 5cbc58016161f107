"""The GM's override: a command the rules refused, sent again with ``gm_override``.

While the turns run, the battle refuses an action out of turn, beyond the
maneuver or on a dead foe (rules.battle.turns); the status bar shows the reason.
``OverrideAction`` ("Override the Rules", Ctrl+Shift+Return, and a button in the
status bar) then does it anyway: the same command, ``dataclasses.replace``-d with
``gm_override=True``, through the controller. The battle logs each rule so set aside
as ``RuleOverridden``. Only a command with a ``gm_override`` field can be forced,
only the last refusal, until the battle changes, and only when the forced command
would pass: a refusal that no override lifts (out of reach) offers none.
"""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QKeySequence

from app.controller import BattleController, Redraw
from app.help import key_sequences
from rules.battle.battle import BattleChange
from rules.battle.state import BattleRuleset, BattleState, Command
from rules.core.dice import SeededDice
from rules.core.errors import RulesError

OVERRIDE_FIELD = "gm_override"


def overridden(command: Command | None) -> Command | None:
    """``command`` with ``gm_override=True``; None for a command the GM cannot
    force (no such field, or already forced)."""
    if command is None or not dataclasses.is_dataclass(command):
        return None
    names = {f.name for f in dataclasses.fields(command)}
    if OVERRIDE_FIELD not in names or getattr(command, OVERRIDE_FIELD):
        return None
    return dataclasses.replace(command, **{OVERRIDE_FIELD: True})


def override_lifts_refusal(command: Command, state: BattleState, ruleset: BattleRuleset) -> bool:
    """Whether the rules take ``command`` in ``state``: a trial run on the state (a
    command is a pure function of it) with dice of its own that nobody records."""
    try:
        command.apply(state, SeededDice("hexfray/override-trial"), ruleset)
    except RulesError:
        return False
    return True


class OverrideAction(QAction):
    """Enabled while the controller's last refusal can be forced; triggered, it
    sends the forced command."""

    def __init__(self, controller: BattleController, parent: QObject | None = None) -> None:
        super().__init__("&Override the Rules", parent)
        self.setObjectName("overrideRules")
        self.setShortcuts(key_sequences("override"))
        self._controller = controller
        self._forced: Command | None = None
        self.setEnabled(False)
        self.setStatusTip("Do the refused action anyway: the log marks the GM's override")
        self.triggered.connect(self._on_triggered)
        controller.command_refused.connect(self._on_controller_command_refused)
        controller.battle_changed.connect(self._on_controller_battle_changed)
        controller.battle_reset.connect(self._forget)

    @property
    def pending(self) -> Command | None:
        """The forced command this action would send, None when there is none."""
        return self._forced

    @property
    def keys(self) -> str:
        """The first of its keys as this platform writes them ("Ctrl+Shift+Return")."""
        sequences = self.shortcuts()
        return sequences[0].toString(QKeySequence.SequenceFormat.NativeText) if sequences else ""

    def _on_controller_command_refused(self, reason: str) -> None:
        forced = overridden(self._controller.refused_command)
        controller = self._controller
        if forced is not None and not override_lifts_refusal(
            forced, controller.state, controller.ruleset
        ):
            forced = None
        self._forced = forced
        self.setEnabled(self._forced is not None)
        if self._forced is not None:
            self.setToolTip(f"Do it anyway: {reason} ({self.keys})")

    def _on_controller_battle_changed(self, _change: BattleChange, _redraw: Redraw) -> None:
        self._forget()

    def _forget(self) -> None:
        self._forced = None
        self.setEnabled(False)

    def _on_triggered(self) -> None:
        forced = self._forced
        if forced is not None:
            self._forget()
            self._controller.execute(forced)
