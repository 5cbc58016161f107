"""Battle > Auto-play: the computer plays its fighters in the window, one action,
one turn, one round at a time or on to the end, at a speed from watchable to
instant, and the GM pauses it at any moment (issue 25).

Each step asks ``rules.play.autoplay.AutoPlayer`` for the next decision of the
fighter whose turn it is, worked out on the shared worker thread
(``app.background_work``: the battle state is immutable, so the worker reads it
while the window goes on painting and answering), and runs its commands on the
GUI thread through ``BattleController.execute``, the GM's own path: they are
logged, undone one by one and autosaved like any command. A decision worked out
for a state the battle has left meanwhile (the GM acted) is dropped and asked
again. A QTimer spaces the decisions by the speed. Auto-play stops at a GM's
fighter's turn (it waits for the GM), at the end of the battle (the banner names
the winner), at a refused command and when the GM undoes a command; a pause
forgets the decision under way at once.
Each decision's reason is a line of the combat log, before its command's events,
with its three best alternatives and their scores in the line's tooltip; the
status bar and the Auto-play menu's last line show it too.
"""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Callable
from concurrent.futures import Future

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QWidget

from app.background_work import LatestResult
from app.controller import BattleController
from rules.battle.battle import BattleChange, ChangeKind
from rules.battle.sides import side_name
from rules.battle.state import BattleState, Command
from rules.play.autoplay import AutoPlayer
from rules.play.policies import Decision

log = logging.getLogger(__name__)

# The pause between two decisions, in milliseconds, by speed: watchable lets the GM
# follow each move and blow; instant waits just long enough for the window to paint
# what the last one did (Qt paints some 5 ms after a change) before the worker
# thread thinks again, so that the two do not share the interpreter then.
SPEEDS: tuple[tuple[str, str, int], ...] = (
    ("watchable", "&Watchable", 900),
    ("quick", "&Quick", 250),
    ("instant", "&Instant", 10),
)
DEFAULT_SPEED = "quick"
STATUS_MS = 8000


class Goal(enum.Enum):
    """How far a run goes before it stops of itself."""

    ACTION = "action"
    TURN = "turn"
    ROUND = "round"
    END = "end"


def _no_note(index: int, command: Command, text: str, detail: str, combatant_id: str) -> None:
    return None


def _as_decided(decision: Decision) -> Decision:
    return decision


def alternatives_text(decision: Decision) -> str:
    """The three best choices not taken, with their scores, one a line."""
    if not decision.alternatives:
        return "No other choice"
    return "\n".join(f"{a.label}: {a.score:g}" for a in decision.alternatives)


class AutoPlay(QObject):
    """The Auto-play submenu and the timer that runs it."""

    # Each decision taken, after its commands ran (its reason, its alternatives).
    decision_taken = Signal(object)
    # Why a run stopped, in the GM's words.
    stopped = Signal(str)

    def __init__(self, controller: BattleController, window: QWidget) -> None:
        super().__init__(window)
        self._controller = controller
        self._window = window
        self._player = AutoPlayer()
        self._goal: Goal | None = None
        self._turn_of: str | None = None
        self._round = 0
        self._taken = 0  # decisions of fighters taken in this run
        self.last_decision: Decision | None = None
        # Where a decision's reason goes before its commands run: the log's note
        # (the window sets it: CombatLogPane.note_command); nowhere by default.
        self.note_decision: Callable[[int, Command, str, str, str], None] = _no_note
        # How long the map still animates the last moves and blows, in ms: the next
        # decision waits for them (the window sets it: app.autoplay_animation).
        self.animation_ms: Callable[[], int] = lambda: 0
        # A decision's attacks on the GM's fighters, answered before they run (the
        # window sets it: app.defense_answers); as they are by default.
        self.answer_for_gm: Callable[[Decision], Decision] = _as_decided
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._tick)
        # The next decision, worked out on the worker thread for ``_asked_for``.
        self._work: LatestResult[Decision | None] = LatestResult(self)
        self._asked_for: BattleState | None = None
        # How long the GUI thread spent on each decision delivered, in milliseconds
        # (its commands run, the panes updated): the long evening's figure.
        self.gui_ms: list[float] = []
        self.gui_cpu_ms: list[float] = []  # the same, the GUI thread's CPU time
        controller.battle_reset.connect(self._on_battle_reset)
        controller.battle_changed.connect(self._on_battle_changed)

        self.menu = QMenu("&Auto-play", window)
        self.menu.setObjectName("autoPlayMenu")
        self.step_action = self._action("Step One &Action", "autoPlayStep", Goal.ACTION)
        self.turn_action = self._action("Play One &Turn", "autoPlayTurn", Goal.TURN)
        self.round_action = self._action("Play One &Round", "autoPlayRound", Goal.ROUND)
        self.run_action = self._action("Run to the &End", "autoPlayRun", Goal.END)
        self.pause_action = QAction("&Pause", self)
        self.pause_action.setObjectName("autoPlayPause")
        self.pause_action.setStatusTip("Stop auto-play after the action under way")
        self.pause_action.setEnabled(False)
        self.pause_action.triggered.connect(lambda: self.stop("Auto-play paused"))
        self.menu.addAction(self.pause_action)
        self.menu.addSeparator()
        speed_menu = self.menu.addMenu("&Speed")
        speed_menu.setObjectName("autoPlaySpeedMenu")
        self._speed_group = QActionGroup(self)
        self.speed_actions: dict[str, QAction] = {}
        for key, text, _ in SPEEDS:
            action = QAction(text, self)
            action.setObjectName(f"autoPlaySpeed_{key}")
            action.setCheckable(True)
            action.setChecked(key == DEFAULT_SPEED)
            self._speed_group.addAction(action)
            speed_menu.addAction(action)
            self.speed_actions[key] = action
        self.menu.addSeparator()
        # The last decision's reason; its tooltip lists the best choices not taken.
        self.last_decision_action = QAction("No decision yet", self)
        self.last_decision_action.setObjectName("autoPlayLastDecision")
        self.last_decision_action.setEnabled(False)
        self.menu.addAction(self.last_decision_action)
        self.menu.setToolTipsVisible(True)

    def _action(self, text: str, name: str, goal: Goal) -> QAction:
        action = QAction(text, self)
        action.setObjectName(name)
        action.setStatusTip(f"Auto-play: {text.replace('&', '').lower()}")
        action.triggered.connect(lambda: self.start(goal))
        self.menu.addAction(action)
        return action

    # --- the speed -------------------------------------------------------------------
    @property
    def speed(self) -> str:
        for key, action in self.speed_actions.items():
            if action.isChecked():
                return key
        return DEFAULT_SPEED

    def set_speed(self, key: str) -> None:
        self.speed_actions[key].setChecked(True)

    def _interval(self) -> int:
        return next(ms for key, _, ms in SPEEDS if key == self.speed)

    # --- running ---------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._goal is not None

    @property
    def thinking(self) -> bool:
        """A decision is being worked out on the worker thread."""
        return self._work.pending

    def start(self, goal: Goal) -> None:
        """Play on until ``goal`` is reached, or a stop comes first. The first
        decision is asked at once; the next ones on the timer."""
        state = self._controller.state
        self._goal = goal
        self._turn_of = state.active_id
        self._round = state.round
        self._taken = 0
        self._set_running(True)
        self._tick()

    def stop(self, why: str) -> None:
        """Stop the run (nothing while none runs) and say why; a decision under
        way is forgotten."""
        self._timer.stop()
        self._work.cancel()
        self._asked_for = None
        if self._goal is None:
            return
        self._goal = None
        self._set_running(False)
        self._show(why)
        self.stopped.emit(why)

    def _set_running(self, running: bool) -> None:
        self.pause_action.setEnabled(running)
        for action in (self.step_action, self.turn_action, self.round_action, self.run_action):
            action.setEnabled(not running)

    def _tick(self) -> None:
        """Ask the worker thread for the next decision on the battle as it stands."""
        if self._goal is None:
            return
        controller = self._controller
        state = controller.state
        player, ruleset = self._player, controller.ruleset
        self._asked_for = state
        self._work.request(lambda: player.next_decision(ruleset, state), self._decided)

    def _decided(self, future: Future[Decision | None]) -> None:
        """On the GUI thread: the decision the worker worked out, run unless the
        battle moved on meanwhile (then it is asked again); timed (``gui_ms``)."""
        started, cpu = time.perf_counter(), time.thread_time()
        self._run_decided(future)
        self.gui_ms.append((time.perf_counter() - started) * 1000.0)
        self.gui_cpu_ms.append((time.thread_time() - cpu) * 1000.0)

    def _run_decided(self, future: Future[Decision | None]) -> None:
        asked_for, self._asked_for = self._asked_for, None
        if self._goal is None:
            return
        controller = self._controller
        state = controller.state
        if state is not asked_for:
            self._tick()  # worked out for a battle that is no more
            return
        try:
            decision = future.result()
        except Exception as error:  # a rules error: say it rather than lose it
            log.exception("auto-play: no decision")
            self.stop(f"Auto-play stops: no decision ({error})")
            return
        if decision is None:
            waits = self._player.waits_for(state)
            self.stop(f"Auto-play stops: {waits}" if waits else "Auto-play stops")
            return
        decision = self.answer_for_gm(decision)
        if decision.combatant_id and decision.commands:
            self.note_decision(
                len(controller.battle.commands),
                decision.commands[0],
                decision.reason,
                f"{decision.reason}\nBest choices not taken:\n{alternatives_text(decision)}",
                decision.combatant_id,
            )
        for command in decision.commands:
            if controller.execute(command) is None:
                self.stop(f"Auto-play stops: {decision.label} was refused")
                return
        self._took(decision)
        if self._goal is None:
            return  # paused by a listener
        if self._reached():
            self.stop(self._reached_text())
            return
        self._timer.start(max(self._interval(), self.animation_ms()))

    def _took(self, decision: Decision) -> None:
        if not decision.combatant_id:  # the turns started: the goal counts from here
            self._turn_of = self._controller.state.active_id
            self._round = self._controller.state.round
        else:
            self._taken += 1
            self.last_decision = decision
            self.last_decision_action.setText(decision.reason)
            self.last_decision_action.setToolTip(
                f"Best choices not taken:\n{alternatives_text(decision)}"
            )
            self._show(decision.reason)
            log.info("auto-play: %s", decision.reason)
        self.decision_taken.emit(decision)

    def _reached(self) -> bool:
        state = self._controller.state
        if state.outcome is not None:
            return True
        if self._goal is Goal.ACTION:
            return self._taken > 0
        if self._goal is Goal.TURN:
            return state.active_id != self._turn_of and self._turn_of is not None
        if self._goal is Goal.ROUND:
            return state.round != self._round and self._round != 0
        return False

    def _reached_text(self) -> str:
        state = self._controller.state
        if state.outcome is not None:
            winner = state.outcome.winner
            if winner is None:
                return "Auto-play stops: the battle is decided, a draw"
            name = side_name(state.sides, winner)
            return f"Auto-play stops: the battle is decided, victory to {name}"
        return self.last_decision.reason if self.last_decision is not None else "Auto-play stops"

    def _show(self, text: str) -> None:
        status = getattr(self._window, "statusBar", None)
        if callable(status):
            status().showMessage(text, STATUS_MS)

    def _on_battle_changed(self, change: BattleChange, redraw: object) -> None:
        # The GM took a command back: the run pauses, for the GM to look.
        if change.kind is ChangeKind.UNDONE:
            self.stop("Auto-play paused: a command was undone")

    def _on_battle_reset(self) -> None:
        # Another battle: nothing of the last one's run goes on.
        self.stop("Auto-play stops: another battle")
        self._player = AutoPlayer()
        self.last_decision = None
        self.last_decision_action.setText("No decision yet")
        self.last_decision_action.setToolTip("")
