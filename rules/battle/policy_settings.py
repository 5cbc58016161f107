"""The settings a computer policy takes (``rules.battle.controllers.PolicyChoice``),
their checks and their words in the log and the menus.

The battle only stores a fighter's ``PolicyChoice``; the policies that play it
(``rules.play``) know the same keys. A choice is checked where it comes in (the
``SetControllers`` command, a battle file's initial state), so that whatever plays
a computer fighter is never handed a policy or a target it does not know.
"""

from __future__ import annotations

import math

from rules.battle.controllers import PolicyChoice

# The policies, in the order the menus offer them, with the word the log uses.
POLICY_KEYS = ("aggressive", "careful", "skirmisher")
# Whom a policy picks as its foe, in the menus' order; "nearest" is the default.
TARGET_KEYS = ("nearest", "weakest", "most-dangerous")
# The policy whose ``retreat_below`` counts: the others never retreat for hurt.
RETREATING_POLICY = "careful"


def policy_problem(choice: PolicyChoice) -> str | None:
    """Why no policy can play ``choice`` (an unknown policy or target, a retreat
    threshold outside 0 to 1); None when one can."""
    if choice.key not in POLICY_KEYS:
        return f"no computer policy is called {choice.key!r:.40} (one of {', '.join(POLICY_KEYS)})"
    if choice.target not in TARGET_KEYS:
        return f"a policy picks no target {choice.target!r:.40} (one of {', '.join(TARGET_KEYS)})"
    threshold = choice.retreat_below
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        return f"the retreat threshold is a number from 0 to 1, got {threshold!r:.20}"
    if not math.isfinite(threshold) or not 0 <= threshold <= 1:
        return f"the retreat threshold is a number from 0 to 1, got {threshold!r:.20}"
    return None


def policy_text(choice: PolicyChoice) -> str:
    """The policy and the settings it does not leave at their default, in a few
    words: "aggressive", "careful, retreats past 50% hurt", "skirmisher, picks the
    weakest"."""
    parts = [choice.key]
    if choice.target != "nearest":
        parts.append(f"picks the {choice.target.replace('-', ' ')}")
    if choice.key == RETREATING_POLICY:
        parts.append(f"retreats past {round(choice.retreat_below * 100)}% hurt")
    return ", ".join(parts)


def controller_text(choice: PolicyChoice | None) -> str:
    """Who plays a fighter, as a pane names it: "the GM", "the computer (aggressive)"."""
    if choice is None:
        return "the GM"
    return f"the computer ({policy_text(choice)})"
