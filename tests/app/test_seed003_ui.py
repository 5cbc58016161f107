"""Seed 003's UI (app.rulesets.seed003): the generic attack form pane over seed
003's attack form (weapon, aimed part with the impossible ones greyed, defense,
the large-target and widespread flags), its exact odds and its roll; the log
lines give each seed 003 event a tone; the generic sheet view shows the parts."""

from __future__ import annotations

from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox

from app.controller import BattleController
from app.event_text import Tone
from app.panes.attack_form import AttackFormPane
from app.rulesets import ruleset_ui
from app.rulesets.seed003.log_lines import seed003_line
from rules.battle.commands import Attack
from rules.core.dice import ScriptedDice
from rules.sets.seed003.combat import Choices003
from rules.sets.seed003.events import AttackDeclared, OpposedRolled, WoundDealt
from tests.rules.seed003_battle import battle, duel, fudge, south, template


def make_pane(qtbot, state=None) -> tuple[AttackFormPane, BattleController]:  # type: ignore[no-untyped-def]
    controller = BattleController(battle(state or duel()))
    pane = ruleset_ui("003").attack_pane(controller, None)
    assert isinstance(pane, AttackFormPane)
    qtbot.addWidget(pane)
    pane.show()
    controller.select("a")
    controller.set_target("d")
    return pane, controller


def combo(pane: AttackFormPane, key: str) -> QComboBox:
    box = pane.field_widget(key)
    assert isinstance(box, QComboBox)
    return box


def enabled(box: QComboBox, data: str) -> bool:
    model = box.model()
    assert isinstance(model, QStandardItemModel)
    item = model.item(box.findData(data))
    assert item is not None
    return item.isEnabled()


def test_the_pane_draws_seed_003_s_form_with_exact_odds(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, _controller = make_pane(qtbot)
    assert pane.objectName() == "attackPane"
    assert combo(pane, "weapon").findData("broadsword:swing") >= 0
    aim = combo(pane, "aim")
    assert aim.findData("eyes") >= 0 and enabled(aim, "left hand")
    assert pane.preview is not None
    assert sum(line.probability for line in pane.preview.odds) == 1
    assert "against parry" in pane.preview.summary


def test_a_distant_shot_greys_every_aim_but_the_torso(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, _controller = make_pane(qtbot, duel(template("archer"), defender_hex=south(25)))
    aim = combo(pane, "aim")
    assert enabled(aim, "torso") and not enabled(aim, "head") and not enabled(aim, "left leg")
    assert pane.preview is not None and "random location" in pane.preview.summary


def test_roll_executes_the_form_s_choices(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, controller = make_pane(qtbot)
    pane.set_entry("aim", "right arm")
    pane.set_entry("widespread", "")
    pane.roll_button.click()
    command = controller.battle.commands[-1]
    assert isinstance(command, Attack)
    assert command.options == Choices003("broadsword", "swing", aim="right arm")


def test_log_lines_and_tones() -> None:
    b = battle(duel())
    events = b.execute(
        Attack("a", "d", Choices003("broadsword", "swing")),
        ScriptedDice(fudge("++++") + fudge("----")),
    )
    formatter = ruleset_ui("003").log_formatter
    declared = next(e for e in events if isinstance(e, AttackDeclared))
    assert formatter.opens_row(declared)
    assert seed003_line(declared) == (declared.describe(), Tone.TITLE)
    rolled = next(e for e in events if isinstance(e, OpposedRolled))
    assert seed003_line(rolled) == (rolled.describe(), Tone.SUCCESS)
    wound = next(e for e in events if isinstance(e, WoundDealt))
    assert seed003_line(wound) == (wound.describe(), Tone.HARM)
    assert ruleset_ui("003").inspector_section(None, None) is None  # type: ignore[arg-type]
