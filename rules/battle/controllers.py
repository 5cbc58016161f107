"""Who controls a fighter: the GM, or the computer playing one of its policies.

A battle keeps, per fighter, ``None`` (the GM plays it) or a ``PolicyChoice``
(the computer plays it with that policy and those settings). The policies
themselves (``rules.play``) turn a ``PolicyChoice`` into decisions; the battle only
stores the choice, so that setting it undoes, saves and replays like any command.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PolicyChoice:          # what a computer fighter is told to do
    key: str                 # "aggressive" | "careful" | "skirmisher"
    target: str = "nearest"  # "nearest" | "weakest" | "most-dangerous"
    retreat_below: float = 0.5   # hurt (condition view, 0..1) past which it retreats; careful only
