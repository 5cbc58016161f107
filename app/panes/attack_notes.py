"""What both attack panes (seed 000's and the generic form) tell the GM about the
attack before the roll, in plain words over the Roll button: that the target is
the attacker's ally, or that the blow meets no defense. The Target box marks an
ally too, so that an ally is attacked only on purpose.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from PySide6.QtWidgets import QLabel

from rules.battle.battle import BattleChange, ChangeKind
from rules.battle.commands import Attack
from rules.battle.model import Combatant
from rules.core.events import Event
from rules.sets.targeting import are_allies

NOTICE_TEXT = "#7a4a00"
NOTICE_BACK = "#fff4d6"
ALLY_MARK = " · ally"


def ally_mark(c: Combatant, attacker: Combatant | None) -> str:
    """ " · ally" after a Target box entry on the attacker's side."""
    if attacker is None or c.id == attacker.id or not are_allies(c, attacker):
        return ""
    return ALLY_MARK


def ally_notice(attacker: Combatant, defender: Combatant) -> str:
    """ "Sir Aldric is Brother Anselm's ally." when the target fights on the
    attacker's side; "" otherwise."""
    if not are_allies(attacker, defender):
        return ""
    return f"{defender.name} is {attacker.name}'s ally."


def no_target_hint(attacker: Combatant, cleared: bool) -> str:
    """What a pane says while the attacker has no target: the GM took it away, or
    no foe is in reach (the default target is one in reach)."""
    choose = "right-click a token, or the Target box"
    if cleared:
        return f"Choose a target ({choose})."
    return f"No foe within reach of {attacker.name}: move closer, or choose a target ({choose})."


def notice_label(object_name: str) -> QLabel:
    """The label over Roll that carries the notices (hidden while there are none)."""
    label = QLabel()
    label.setObjectName(object_name)
    label.setWordWrap(True)
    label.setStyleSheet(
        f"color:{NOTICE_TEXT}; background:{NOTICE_BACK};"
        "border:1px solid #e3c27a; border-radius:3px; padding:3px"
    )
    label.hide()
    return label


def show_notices(label: QLabel, notices: Sequence[str]) -> None:
    """One notice a line, in bold where the GM must not miss it; hidden when none."""
    shown = [n for n in notices if n]
    label.setText("<br>".join(f"<b>{escape(n, quote=False)}</b>" for n in shown))
    label.setVisible(bool(shown))


def last_roll_follows_history(
    change: BattleChange,
    attacker_id: str | None,
    last_label: QLabel,
    show_last: Callable[[Sequence[Event]], None],
) -> None:
    """An attack pane's "Last roll" line follows the history: an undone attack's
    line goes (it no longer happened), a redone attack of the attacker shown comes
    back."""
    command = change.command
    if not isinstance(command, Attack):
        return
    if change.kind is ChangeKind.UNDONE:
        last_label.clear()
    elif change.kind is ChangeKind.REDONE and command.attacker_id == attacker_id:
        show_last(change.events)
