"""Who plays the sides of a demo battle opened from File ▸ Open Demo Battle
(issue 25): the GM both, the computer the second side (the GM fights the
machine), or the computer both (a play-tester watches Battle ▸ Auto-play).

The choice is a radio group at the foot of the demo menu, kept while the window
lives; opening a demo with a computer side hands that side to the computer with
one command after the demo's own (``SetSideControllers`` and ``SetControllers``
together): it undoes, it is saved and it replays like any other.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from rules.battle.control import SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Side
from rules.battle.side_control import SetSideControllers
from rules.battle.sides import side_name
from rules.battle.state import BattleState
from rules.battle.together import Together

GM_BOTH = "gm"
COMPUTER_SECOND = "second"
COMPUTER_BOTH = "both"
DEMO_SIDES: tuple[tuple[str, str, str], ...] = (
    (GM_BOTH, "The &GM Plays Both Sides", "Every fighter waits for the GM"),
    (
        COMPUTER_SECOND,
        "The Computer Plays the &Second Side",
        "Fight the machine: the second side's fighters are played by the computer",
    ),
    (
        COMPUTER_BOTH,
        "The &Computer Plays Both Sides",
        "Watch: Battle ▸ Auto-play ▸ Run to the End plays the battle out",
    ),
)
# The policy a demo's computer side plays (the GM changes it in Battle ▸ Sides…).
DEMO_POLICY = PolicyChoice("aggressive")


def sides_in_play(state: BattleState) -> tuple[Side, ...]:
    """The sides that have fighters, in the order their first fighter comes."""
    return tuple(dict.fromkeys(c.side for c in state.combatants))


def demo_sides_command(state: BattleState, key: str) -> Together | None:
    """The command that hands the sides ``key`` names to the computer (None: the
    GM plays them all, or nothing to hand over)."""
    sides = sides_in_play(state)
    if key == COMPUTER_BOTH:
        chosen = set(sides)
    elif key == COMPUTER_SECOND:
        chosen = set(sides[1:2])
    else:
        return None
    handed = tuple((c.id, DEMO_POLICY) for c in state.combatants if c.side in chosen)
    if not handed:
        return None
    # the sides too: a fighter the GM adds to one later is the computer's as well
    as_sides = SetSideControllers(tuple((side, DEMO_POLICY) for side in sides if side in chosen))
    return Together((as_sides, SetControllers(handed)))


def computer_sides_text(state: BattleState) -> str:
    """Which sides the computer plays, by the names the battle gives them."""
    computer = {i for i, _ in state.controllers}
    sides = [
        s
        for s in sides_in_play(state)
        if any(c.id in computer for c in state.combatants if c.side is s)
    ]
    if not sides:
        return "the GM plays every side"
    if len(sides) == len(sides_in_play(state)):
        return "the computer plays every side (Battle ▸ Auto-play)"
    names = " and ".join(side_name(state.sides, s) for s in sides)
    return f"the computer plays {names}"


class DemoSidesChoice:
    """The radio group of the demo menu; ``key`` is the GM's choice."""

    def __init__(self, parent: QMenu) -> None:
        # the actions belong to the group, not the menu: the menu's clear (it is
        # filled again as it opens) deletes the actions it owns
        self._group = QActionGroup(parent)
        self.actions: dict[str, QAction] = {}
        for key, text, tip in DEMO_SIDES:
            action = QAction(text, self._group)
            action.setObjectName(f"demoSides:{key}")
            action.setCheckable(True)
            action.setChecked(key == GM_BOTH)
            action.setToolTip(tip)
            action.setStatusTip(tip)
            self._group.addAction(action)
            self.actions[key] = action

    @property
    def key(self) -> str:
        return next((k for k, a in self.actions.items() if a.isChecked()), GM_BOTH)

    def set_key(self, key: str) -> None:
        self.actions[key].setChecked(True)

    def add_to(self, menu: QMenu) -> None:
        menu.addSection("Who plays the demo's sides")
        for action in self.actions.values():
            menu.addAction(action)
