"""What wounds do shows in the window: a wound's shock and a crippled limb on the
turn tracker, the inspector and the token (rules.sets.seed000.wounded; issue 11)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings

from app.controller import BattleController
from app.event_text import Tone
from app.main_window import MainWindow
from app.map import painter as mp
from app.rulesets.seed000.log_lines import seed000_line
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
from rules.sets.seed000.wounded import KnockdownRolled, ShockTaken

HOME = Hex.from_offset(8, 6)
SOUTH = HOME + Facing.S.vector


def duel() -> Battle:
    """The fencer facing south at HOME, the swordsman facing it; the order rolled."""
    state = BattleState(
        HexGrid(16, 12),
        (
            fighter("fencer", "f", HOME, Facing.S, Side.BLUE),
            fighter("sword-and-shield", "s", SOUTH, Facing.N, Side.RED),
        ),
    )
    battle = Battle(state, 3, get_ruleset)
    battle.execute(StartTurns(), ScriptedDice(()))
    return battle


def fighter(template: str, cid: str, where: Hex, facing: Facing, side: Side) -> Combatant:
    f = dict(load_fighters())[template]
    return Combatant(id=cid, fighter=f, side=side, hex=where, facing=facing, hp=f.hit_points)


@pytest.fixture
def window(qtbot, qapp, settings: QSettings) -> Iterator[MainWindow]:
    """The order rolled, the fencer's turn passed, and the swordsman's swing (7 hits,
    1 damage: 4 - 2 = 2 x1.5 = 3 injury) has left the fencer's next turn in shock."""
    battle = duel()
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
    labels = controller.ruleset.conditions.labels(fencer)
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
    assert controller.ruleset.conditions.labels(fencer) == ("shock -3",)
    assert fencer.posture is Posture.STANDING
    controller.select("f")
    controller.set_target("s")
    preview = window.attack_pane.preview_label.text()
    assert "shock from injury" in preview and "-3" in preview


def test_the_log_shows_the_major_wound_s_roll_and_the_shock() -> None:
    battle = duel()
    battle.execute(EndTurn(), ScriptedDice(()))  # the swordsman's turn
    swing = AttackOptions("broadsword", "swing")
    # 7 hits; a 6: 10 injury, a major wound; the knockdown roll 17 fails
    events = battle.execute(Attack("s", "f", swing), ScriptedDice((2, 2, 3, 6, 6, 6, 5)))
    knockdown = next(e for e in events if isinstance(e, KnockdownRolled))
    assert seed000_line(knockdown) == (
        "Fencer: major wound, HT 17 (6+6+5) vs 11: critical failure, stunned and knocked down",
        Tone.HARM,
    )
    shock = next(e for e in events if isinstance(e, ShockTaken))
    line = seed000_line(shock)
    assert line is not None and line[1] is Tone.NOTE and "-4" in line[0]
