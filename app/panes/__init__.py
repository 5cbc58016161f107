"""The dock panes around the map. Each observes the ``BattleController`` and
changes the battle only through ``BattleController.execute``."""

from app.panes.attack import AttackPane
from app.panes.combat_log import CombatLogPane
from app.panes.combatants import CombatantsPane
from app.panes.hex_pane import HexPane
from app.panes.inspector import InspectorPane

__all__ = ["AttackPane", "CombatLogPane", "CombatantsPane", "HexPane", "InspectorPane"]
