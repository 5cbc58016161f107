"""The sides of a battle as the GM named them in the New Battle dialog.

A combatant fights for a ``Side`` (``rules.battle.model``); a battle may give each
side a name ("The Duke's guard") and a colour for its tokens. A battle without
them (the demo, files from before) shows the sides by their own names, in the
colours of the GM's preferences.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.battle.model import Side
from rules.core.errors import IllegalCommandError

MAX_SIDE_NAME = 60
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True, slots=True)
class SideSetup:
    """One side of a battle: which ``Side`` it is, its name and its colour
    (``"#rrggbb"``)."""

    side: Side
    name: str
    colour: str

    def __post_init__(self) -> None:
        if not self.name.strip() or len(self.name) > MAX_SIDE_NAME:
            raise IllegalCommandError(
                f"a side needs a name of 1 to {MAX_SIDE_NAME} characters, got {self.name!r:.70}"
            )
        if _COLOUR.fullmatch(self.colour) is None:
            raise IllegalCommandError(f'a side\'s colour is "#rrggbb", got {self.colour!r:.20}')


def side_name(sides: tuple[SideSetup, ...], side: Side) -> str:
    """The name the battle gives ``side``, else the side's own ("Red")."""
    for setup in sides:
        if setup.side is side:
            return setup.name
    return side.value.capitalize()
