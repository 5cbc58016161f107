"""A side the computer plays keeps playing the fighters who join it (issue 25):
New Battle's "computer plays this side" is stored with the battle, a fighter added
later to that side is the computer's, and Battle ▸ Sides… shows and sets it, even
for a side with no fighter yet."""

from __future__ import annotations

from dataclasses import replace

from pytestqt.qtbot import QtBot

from app.character_editor import SidesEditor
from app.controller import BattleController
from app.new_battle import NewBattleDialog, new_battle
from app.played_by_menu import GM_KEY
from rules.battle.controllers import PolicyChoice
from rules.battle.model import Side
from rules.battle.roster import AddCombatant, next_combatant_id
from rules.battle.state import BattleState
from tests.app.demo_panes import demo_controller


def recruit(state: BattleState, side: Side) -> AddCombatant:
    model = state.combatants[0]
    taken = {c.hex for c in state.combatants}
    free = next(h for h in state.grid.hexes() if h not in taken)
    return AddCombatant(
        replace(
            model,
            id=next_combatant_id(state),
            side=side,
            hex=free,
            fighter=replace(model.fighter, name="Recruit"),
        )
    )


def test_a_fighter_added_to_a_new_battle_s_computer_side_is_the_computer_s(
    qtbot: QtBot,
) -> None:
    dialog = NewBattleDialog(seed=5)
    qtbot.addWidget(dialog)
    dialog.fighters_box.setValue(1)
    blue = next(row for row in dialog.side_rows if row.side is Side.BLUE)
    blue.played_by_box.setCurrentIndex(blue.played_by_box.findData("careful"))
    controller = BattleController(new_battle(dialog.setup()))
    state = controller.state
    assert state.side_controller(Side.BLUE) == PolicyChoice("careful")
    assert state.side_controller(Side.RED) is None
    controller.execute(recruit(state, Side.BLUE))
    newcomer = controller.state.combatants[-1]
    assert controller.state.controller(newcomer.id) == PolicyChoice("careful")
    controller.execute(recruit(controller.state, Side.RED))
    assert controller.state.controller(controller.state.combatants[-1].id) is None


def test_the_sides_dialog_shows_and_sets_who_plays_a_side_without_fighters(
    qtbot: QtBot,
) -> None:
    controller = demo_controller()
    sides = SidesEditor(controller)
    qtbot.addWidget(sides)
    sides.add_side()  # a third side, empty
    (new_side,) = [s for s in sides.rows if s not in (Side.RED, Side.BLUE)]
    box = sides.rows[new_side].played_by_box
    assert box.isEnabled() and box.currentData() == GM_KEY
    box.setCurrentIndex(box.findData("aggressive"))
    box.activated.emit(box.currentIndex())
    assert controller.state.side_controller(new_side) == PolicyChoice("aggressive")
    assert box.currentData() == "aggressive"
    controller.execute(recruit(controller.state, new_side))
    assert controller.state.controller(controller.state.combatants[-1].id) == PolicyChoice(
        "aggressive"
    )
    box.setCurrentIndex(box.findData(GM_KEY))
    box.activated.emit(box.currentIndex())  # the side and its one fighter: the GM's
    assert controller.state.side_controller(new_side) is None
    assert controller.state.controllers == ()
    controller.undo()  # one undo gives both back to the computer
    assert controller.state.side_controller(new_side) == PolicyChoice("aggressive")
    assert len(controller.state.controllers) == 1
