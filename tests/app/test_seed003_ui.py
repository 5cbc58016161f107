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
from rules.core.events import Event
from rules.sets.components.fudge_locations import (
    BodyPart,
    BodyTracks,
    PartState,
    WoundLevel,
    roll_random_location,
)
from rules.sets.seed003 import combat as combat_module
from rules.sets.seed003 import events as events_module
from rules.sets.seed003 import ruleset as ruleset_module
from rules.sets.seed003 import turn as turn_module
from rules.sets.seed003.combat import Choices003
from rules.sets.seed003.events import (
    AttackDeclared,
    BodyStateChanged,
    CoverStruck,
    Hobbled,
    InitiativeRolled003,
    LocationRolled,
    OpposedRolled,
    StayedStanding,
    TurnPassed,
    WoundDealt,
)
from rules.sets.seed003.fudge_dice import FudgeRoll
from rules.sets.seed003.ruleset import PieceStruck, StrayChecked
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


def _every_seed003_event() -> tuple[Event, ...]:
    """One event of each kind seed 003 makes, with plain values."""
    roll = FudgeRoll(1, fudge("+0-0"))
    mark = BodyTracks.for_capacity(0).with_wound(BodyPart.LEFT_ARM, WoundLevel.HURT)[1]
    who = {"citation": None, "combatant_id": "d", "name": "Brigand"}
    return (
        AttackDeclared(**who, defender_id="a", defender_name="Hero", weapon="Sword", aim="torso"),
        OpposedRolled(
            attacker="Hero",
            defender="Brigand",
            attack=roll,
            defense=None,
            defense_kind="defense",
            relative=4,
        ),
        LocationRolled(**who, location=roll_random_location(ScriptedDice((5, 2)))),
        CoverStruck(**who, part="left leg"),
        WoundDealt(
            **who,
            part="left arm",
            relative=1,
            offensive=3,
            defensive=1,
            adjustment=0,
            widespread=False,
            damage=3,
            mark=mark,
        ),
        StayedStanding(**who, part="left leg", roll=roll),
        Hobbled(**who, move_before=5, move_after=2),
        BodyStateChanged(**who, state=PartState.INCAPACITATED),
        InitiativeRolled003(entries=(("d", "Brigand", roll, ()),)),
        TurnPassed(**who, reason="incapacitated"),
        StrayChecked(**who, piece_name="Axe", roll=roll, hit=True),
        PieceStruck(**who, piece_name="Axe", mark=mark.describe()),
    )


def _event_classes_of_seed003() -> set[type]:
    found: set[type] = set()
    for module in (events_module, combat_module, ruleset_module, turn_module):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Event)
                and value.__module__ == module.__name__
            ):
                found.add(value)
    return found


def test_every_event_class_of_seed_003_has_a_short_log_line() -> None:
    """Every Event subclass the seed 003 package defines is in the list above (a
    new one without a log line fails here), and each gives a short line."""
    made = _every_seed003_event()
    assert {type(e) for e in made} == _event_classes_of_seed003()
    for event in made:
        line = seed003_line(event)
        assert line is not None, type(event).__name__
        text, tone = line
        assert text == event.describe() and text and "\n" not in text
        assert len(text) <= 160, text
        assert isinstance(tone, Tone)
