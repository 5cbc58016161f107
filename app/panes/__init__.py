"""The generic dock panes around the map. Each observes the ``BattleController``
and changes the battle only through ``BattleController.execute``. Import each pane
from its module (``app.panes.inspector.InspectorPane``...); a ruleset's own panes
and sections live under ``app.rulesets.<key>``."""
