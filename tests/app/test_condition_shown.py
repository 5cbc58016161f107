"""The panes read each fighter's condition from its ruleset's typed view
(rules.battle.condition, issue 24): the Turns pane's and the Combatants list's
tooltips list the penalties in force, the Turns pane names a FUDGE fighter's
health by its wound level, and the Combatants list's Status column says how a
fighter is down when its ruleset says so though its status does not (a spine
broken below the neck)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.controller import BattleController
from app.panes.combatants import CombatantsModel, CombatantsPane
from app.panes.turn_tracker import TurnTrackerPane
from app.panes.widgets import MUTED
from rules.battle.commands import Attack, EndTurn
from rules.battle.model import Status
from rules.battle.turns import StartTurns
from rules.core.dice import ScriptedDice
from rules.sets.seed003.combat import Choices003
from tests.app.test_wounds_shown import duel
from tests.rules import seed002_duel as d002
from tests.rules import seed003_battle as d003
from tests.rules.test_wounds_in_battle import HIT, SWING


def tracker_tip(pane: TurnTrackerPane, name: str) -> str:
    items = [pane.order_list.item(i) for i in range(pane.order_list.count())]
    return next(i.toolTip() for i in items if i.text().split(". ", 1)[-1].startswith(name))


def combatants_tip(pane: CombatantsPane, combatant_id: str) -> str:
    model = pane.model
    tip = model.index(model.row_of(combatant_id), 0).data(Qt.ItemDataRole.ToolTipRole)
    assert isinstance(tip, str)
    return tip


def test_the_turns_and_combatants_tooltips_list_the_shock_in_force(qtbot) -> None:
    """Base rules' shock: the swordsman's blow (3 injury) costs the fencer -3 to
    his attacks on his next turn, and only then is it in force."""
    battle = duel()  # the order rolled: the fencer's turn
    battle.execute(EndTurn(), ScriptedDice(()))  # the swordsman's turn
    battle.execute(Attack("s", "f", SWING), ScriptedDice((*HIT, 1)))
    controller = BattleController(battle)
    tracker = TurnTrackerPane(controller)
    combatants = CombatantsPane(controller)
    for pane in (tracker, combatants):
        qtbot.addWidget(pane)
        pane.show()
    assert "Penalties" not in tracker_tip(tracker, "Fencer")
    assert tracker_tip(tracker, "Fencer").startswith("Fencer: HP 8/11, active\n")
    controller.execute(EndTurn())  # the fencer's turn: in shock
    shock = "-3 to attacks (shock from injury)"
    assert f"\nPenalties: {shock}" in tracker_tip(tracker, "Fencer")
    assert combatants_tip(combatants, "f").endswith(f"\n{shock}")
    controller.execute(EndTurn())  # its turn over, the shock too
    assert "Penalties" not in tracker_tip(tracker, "Fencer")


def test_a_spine_broken_below_the_neck_shows_paralysed_in_the_status_column(qtbot) -> None:
    """002 Major wound 8, an odd second die: paralysed below the neck, out of the
    fight though its status stays active."""
    defender = d002.fighter("Defender", ("longsword", "dagger"), armour=None, hp=12)
    battle = d002.battle(d002.duel(None, defender))
    battle.execute(Attack("a", "d", d002.sword()), ScriptedDice((3, 99, 8, 3)))
    assert battle.state.combatant("d").status is Status.ACTIVE
    pane = CombatantsPane(BattleController(battle))
    qtbot.addWidget(pane)
    model = pane.model
    status = model.index(model.row_of("d"), CombatantsModel.STATUS)
    assert status.data() == "paralysed"
    assert status.data(Qt.ItemDataRole.ForegroundRole) == MUTED
    assert combatants_tip(pane, "d").endswith("\n4 of 12 hit points, paralysed")
    assert model.index(model.row_of("a"), CombatantsModel.STATUS).data() == "active"


def test_a_fudge_fighter_s_row_tip_names_his_wound_and_its_penalties(qtbot) -> None:
    """003 5.874: a Hurt torso is -1 to all he does; the tracker names the wound
    by its level, not by hit points."""
    battle = d003.battle(d003.duel())
    choices = Choices003("broadsword", "swing")
    battle.execute(Attack("a", "d", choices), ScriptedDice(d003.fudge("+++0") + d003.fudge("0000")))
    battle.execute(StartTurns(), ScriptedDice(d003.fudge("0000") * 4))
    tracker = TurnTrackerPane(BattleController(battle))
    qtbot.addWidget(tracker)
    tracker.show()
    name = battle.state.combatant("d").name
    tips = [tracker.order_list.item(i).toolTip() for i in range(tracker.order_list.count())]
    (hurt,) = [t for t in tips if "Wound Hurt" in t]
    assert hurt.startswith(f"{name}: Wound Hurt, active\n")
    worst = "worst wound: torso, hurt"
    assert f"Penalties: -1 to attacks ({worst}); -1 to active defenses ({worst})" in hurt
