"""The Combatants list shows each ruleset's state in its own terms (issue 22): a
FUDGE fighter's row its most severe wound ("Very Hurt"), not "HP 10/11"; the
column's heading and text come from the ruleset (``Conditions.health``)."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt

from app.controller import BattleController
from app.main_window import load_demo_battle
from app.panes.combatants import CombatantsModel, CombatantsPane
from app.panes.widgets import HP_ROLE
from rules.sets.registry import get_ruleset
from tests.rules.test_demo_battles import load_demo, play_rounds


def test_a_fudge_fighters_row_shows_his_worst_wound_and_back(qtbot) -> None:
    battle = load_demo("003")
    play_rounds(battle, 10)
    controller = BattleController(battle)
    pane = CombatantsPane(controller)
    qtbot.addWidget(pane)
    pane.show()
    model = pane.model
    ruleset = get_ruleset("003")
    assert model.headerData(CombatantsModel.HP, Qt.Orientation.Horizontal) == "Wound"
    shown = []
    for row, c in enumerate(battle.state.combatants):
        index = model.index(row, CombatantsModel.HP)
        health = ruleset.conditions.health(c)
        assert index.data() == health.text
        assert index.data(HP_ROLE) == (health, c.status)
        assert health.tooltip in model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
        shown.append(index.data())
    assert not any(re.fullmatch(r"-?\d+/\d+", text) for text in shown), shown
    assert any(text != "Unhurt" for text in shown), shown
    # a battle of hit points: the heading and the rows follow it
    controller.replace_battle(load_demo_battle(1))
    assert model.headerData(CombatantsModel.HP, Qt.Orientation.Horizontal) == "HP"
    first = controller.state.combatants[0]
    assert model.index(0, CombatantsModel.HP).data() == f"{first.hp}/{first.fighter.hit_points}"
