"""The dock panes around the map. Each observes the ``BattleController`` and
changes the battle only through ``BattleController.execute``.

The panes are imported on first use (``app.panes.AttackPane``...): they pull in the
attack rules, which the map's first frame does not need, so importing one helper
(``app.panes.labels.enum_label``) does not load them all (start-up time,
docs/packaging.md)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.panes.attack import AttackPane
    from app.panes.combat_log import CombatLogPane
    from app.panes.combatants import CombatantsPane
    from app.panes.hex_pane import HexPane
    from app.panes.inspector import InspectorPane

__all__ = ["AttackPane", "CombatLogPane", "CombatantsPane", "HexPane", "InspectorPane"]

_MODULES = {
    "AttackPane": "app.panes.attack",
    "CombatLogPane": "app.panes.combat_log",
    "CombatantsPane": "app.panes.combatants",
    "HexPane": "app.panes.hex_pane",
    "InspectorPane": "app.panes.inspector",
}


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
