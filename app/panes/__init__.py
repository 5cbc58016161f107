"""The dock panes around the map. Each observes the ``BattleController`` and
changes the battle only through ``BattleController.execute``."""

from app.panes.attack import AttackPane
from app.panes.combat_log import CombatLogPane
from app.panes.combatants import CombatantsPane
from app.panes.inspector import InspectorPane

__all__ = ["AttackPane", "CombatLogPane", "CombatantsPane", "InspectorPane"]
