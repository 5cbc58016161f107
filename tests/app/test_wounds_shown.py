"""What wounds do shows in the window: a wound's shock and a crippled limb on the
turn tracker, the inspector and the token (rules.sets.seed000.wounded; issue 11)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings

from app.controller import BattleController
from app.main_window import MainWindow
from app.map import painter as mp
from hexmap import Facing, Hex, HexGrid
from rules.battle.battle import Battle
from rules.battle.catalog import load_fighters
from rules.battle.commands import Attack, EndTurn
from rules.battle.model import Combatant, Posture, Side
from rules.battle.state import BattleState
from rules.battle.turns import StartTurns
from rules.core.dice import ScriptedDice
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions

HOME = Hex.from_offset(8, 6)
SOUTH = HOME + Facing.S.vector


def fighter(template: str, cid: str, where: Hex, facing: Facing, side: Side) -> Combatant:
    f = dict(load_fighters())[template]
    return Combatant(id=cid, fighter=f, side=side, hex=where, facing=facing, hp=f.hit_points)


@pytest.fixture
def window(qtbot, qapp, settings: QSettings) -> Iterator[MainWindow]:
    """The order rolled, the fencer's turn passed, and the swordsman's swing (7 hits,
    1 damage: 4 - 2 = 2 x1.5 = 3 injury) has left the fencer's next turn in shock."""
    state = BattleState(
        HexGrid(16, 12),
        (
            fighter("fencer", "f", HOME, Facing.S, Side.BLUE),
            fighter("sword-and-shield", "s", SOUTH, Facing.N, Side.RED),
        ),
    )
    battle = Battle(state, 3, get_ruleset)
    battle.execute(StartTurns(), ScriptedDice(()))
    battle.execute(EndTurn(), ScriptedDice(()))
    swing = AttackOptions("broadsword", "swing")
    battle.execute(Attack("s", "f", swing), ScriptedDice((2, 2, 3, 1)))  # 3 injury
    w = MainWindow(BattleController(battle), settings)
    qtbot.addWidget(w)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    yield w


def test_a_wound_s_shock_shows_on_the_tracker_the_inspector_and_the_token(
    window: MainWindow,
) -> None:
    controller = window.controller
    fencer = controller.state.combatant("f")
    labels = controller.ruleset.condition_labels(fencer)
    assert labels == ("shock -3 next turn",)
    row = next(
        window.tracker_pane.order_list.item(i).text()
        for i in range(window.tracker_pane.order_list.count())
        if "Fencer" in window.tracker_pane.order_list.item(i).text()
    )
    assert "shock -3 next turn" in row
    assert window.map_view.conditions_of(fencer) == labels
    assert [b[0] for b in mp.condition_badges(fencer, labels)] == ["−"]
    controller.select("f")
    assert "shock -3 next turn" in window.inspector_pane.conditions_label.text()
    # The fencer's turn: the shock is this turn's, and the attack pane lists it.
    window.tracker_pane.next_button.click()
    assert controller.state.active_id == "f"
    fencer = controller.state.combatant("f")
    assert controller.ruleset.condition_labels(fencer) == ("shock -3",)
    assert fencer.posture is Posture.STANDING
    controller.select("f")
    controller.set_target("s")
    preview = window.attack_pane.preview_label.text()
    assert "shock from injury" in preview and "-3" in preview
