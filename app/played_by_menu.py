"""The "Played by" submenu of a fighter's menus (the map's token and the Combatants
list): the GM, or the computer with one of its policies, for the fighter or for its
whole side, and whom a computer fighter picks as its foe. Every choice is one
``SetControllers`` command through the controller, so Undo takes it back and the
battle file, the autosave and a replay keep it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from PySide6.QtWidgets import QMenu

from app.controller import BattleController
from rules.battle.control import SetControllers
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Combatant, Side
from rules.battle.policy_settings import (
    POLICY_KEYS,
    RETREATING_POLICY,
    TARGET_KEYS,
)
from rules.battle.side_control import hand_side_over
from rules.battle.sides import side_name
from rules.battle.state import BattleState

# What each policy does, in the GM's words (the status bar's tip).
POLICY_TIPS = {
    "aggressive": "closes in and attacks the best target",
    "careful": "keeps its shield towards the foe, defends, and retreats when hurt",
    "skirmisher": "keeps its distance with missile and thrown weapons",
}
# The retreat thresholds the menu offers a careful fighter (hurt, 0 to 1).
RETREAT_CHOICES = (0.25, 0.5, 0.75)


def policy_label(key: str) -> str:
    return f"The computer: {key}"


def choice_for(current: PolicyChoice | None, key: str) -> PolicyChoice:
    """The policy ``key``, keeping the settings the fighter already had."""
    return PolicyChoice(key) if current is None else replace(current, key=key)


def changes_anything(state: BattleState, command: SetControllers) -> bool:
    """Whether ``command`` gives some fighter another controller than it has."""
    return any(state.controller(i) != choice for i, choice in command.controllers)


def hand_over(controller: BattleController, command: SetControllers) -> None:
    """Execute ``command`` unless every fighter is already so played: picking
    the choice a menu shows checked leaves no empty step in the undo history."""
    if changes_anything(controller.state, command):
        controller.execute(command)


def add_played_by_menu(menu: QMenu, controller: BattleController, who: Combatant) -> QMenu:
    """Add the "Played by" submenu for ``who`` to ``menu`` and return it."""
    state = controller.state
    current = state.controller(who.id)
    # The policy alone in the title, its settings checked inside: the menu stays narrow.
    who_plays = "the GM" if current is None else f"the computer ({current.key})"
    sub = menu.addMenu(f"Played &by: {who_plays}")
    sub.setObjectName("playedByMenu")

    def set_controllers(pairs: tuple[tuple[str, PolicyChoice | None], ...]) -> None:
        hand_over(controller, SetControllers(pairs))

    gm = sub.addAction("The &GM")
    gm.setObjectName("playedBy:gm")
    gm.setCheckable(True)
    gm.setChecked(current is None)
    gm.setStatusTip(f"The GM plays {who.name}")
    gm.triggered.connect(lambda _=False: set_controllers(((who.id, None),)))
    for key in POLICY_KEYS:
        action = sub.addAction(policy_label(key))
        action.setObjectName(f"playedBy:{key}")
        action.setCheckable(True)
        action.setChecked(current is not None and current.key == key)
        action.setStatusTip(f"The computer plays {who.name}: it {POLICY_TIPS.get(key, key)}")
        action.triggered.connect(
            lambda _=False, k=key: set_controllers(((who.id, choice_for(current, k)),))
        )
    if current is not None:
        _add_settings(sub, controller, who, current)
    _add_whole_side(sub, controller, who)
    return sub


def _add_settings(
    sub: QMenu, controller: BattleController, who: Combatant, current: PolicyChoice
) -> None:
    """Whom the computer fighter picks, and for the careful policy when it retreats."""
    sub.addSeparator()
    targets = _options(current, "target", TARGET_KEYS, lambda t: f"The {t.replace('-', ' ')}")
    settings = [("&Picks its foe", "playedByTarget", targets)]
    if current.key == RETREATING_POLICY:
        retreats = _options(
            current, "retreat_below", RETREAT_CHOICES, lambda r: f"{round(r * 100)}% hurt"
        )
        settings.append(("&Retreats past", "playedByRetreat", retreats))
    for title, name, choices in settings:
        _add_setting(sub, title, name, choices, controller, who)


def _options(
    current: PolicyChoice, field: str, values: Iterable[Any], text: Callable[[Any], str]
) -> list[tuple[str, str, bool, PolicyChoice]]:
    """Each value of one setting: its action's object name, its text, whether it
    is the current one, and the policy with it."""
    short = field.split("_")[0]
    return [
        (f"{short}:{v}", text(v), getattr(current, field) == v, replace(current, **{field: v}))
        for v in values
    ]


def _add_setting(
    sub: QMenu,
    title: str,
    name: str,
    choices: list[tuple[str, str, bool, PolicyChoice]],
    controller: BattleController,
    who: Combatant,
) -> None:
    """A submenu of one setting: each choice (object name, text, checked, the
    policy it sets) hands the fighter over with that setting."""
    menu = sub.addMenu(title)
    menu.setObjectName(name)
    for object_name, text, checked, choice in choices:
        action = menu.addAction(text)
        action.setObjectName(object_name)
        action.setCheckable(True)
        action.setChecked(checked)
        action.triggered.connect(
            lambda _=False, c=choice: hand_over(controller, SetControllers(((who.id, c),)))
        )


def _add_whole_side(sub: QMenu, controller: BattleController, who: Combatant) -> None:
    """The fighter's whole side to the GM or to a policy at once: one command."""
    state = controller.state
    name = side_name(state.sides, who.side)
    sub.addSeparator()
    side_menu = sub.addMenu(f"Whole &side ({name})")
    side_menu.setObjectName("playedBySide")
    gm = side_menu.addAction("The GM")
    gm.setObjectName("sidePlayedBy:gm")
    gm.setStatusTip(f"The GM plays every fighter of {name}")
    gm.triggered.connect(lambda _=False: _hand_side_over(controller, who.side, None))
    for key in POLICY_KEYS:
        action = side_menu.addAction(policy_label(key))
        action.setObjectName(f"sidePlayedBy:{key}")
        action.setStatusTip(f"The computer plays every fighter of {name} ({key})")
        action.triggered.connect(lambda _=False, k=key: _hand_side_over(controller, who.side, k))


def _hand_side_over(controller: BattleController, side: Side, key: str | None) -> None:
    """The side and its fighters to ``key`` (None: the GM), as one command; none
    when nothing would change (no empty step in the undo history)."""
    command = hand_side_over(controller.state, side, key)
    if command is not None:
        controller.execute(command)


# --- a whole side at once (the Sides dialog) ---------------------------------------

GM_KEY = ""  # the GM, as a combo box's data (a policy is its key)
MIXED_KEY = "mixed"  # a side whose fighters are not all played alike


def side_members(state: BattleState, side: Side) -> tuple[str, ...]:
    return tuple(c.id for c in state.combatants if c.side is side)


def side_controller_key(state: BattleState, side: Side) -> str:
    """Who plays ``side``: ``GM_KEY``, a policy's key, or ``MIXED_KEY`` when its
    fighters are played by different controllers (a side without fighters: the GM)."""
    keys = {
        GM_KEY if (choice := state.controller(i)) is None else choice.key
        for i in side_members(state, side)
    }
    if not keys:
        return GM_KEY
    return keys.pop() if len(keys) == 1 else MIXED_KEY


def side_command(state: BattleState, side: Side, key: str) -> SetControllers | None:
    """Every fighter of ``side`` to the GM (``GM_KEY``) or to the policy ``key``
    (each keeping the settings it had): one command; None for a side without fighters."""
    members = side_members(state, side)
    if not members:
        return None
    return SetControllers(
        tuple((i, None if key == GM_KEY else choice_for(state.controller(i), key)) for i in members)
    )
