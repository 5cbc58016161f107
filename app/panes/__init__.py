"""The dock panes around the map. Each observes the ``BattleController`` and
changes the battle only through ``BattleController.execute``. Import each pane
from its module (``app.panes.attack.AttackPane``...)."""
