"""Seed 003's UI (app.rulesets.seed003): the generic attack form pane over seed
003's attack form (weapon, aimed part with the impossible ones greyed, defense,
the large-target and widespread flags), its exact odds and its roll; the log
lines give each seed 003 event a tone; the generic sheet view shows the parts."""

from __future__ import annotations

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
from rules.sets.seed003.fudge_dice import FudgeRoll
from rules.sets.seed003.ruleset import PieceStruck, StrayChecked
from tests.app import form_ui_checks as ui
from tests.rules.seed003_battle import battle, duel, fudge, south, template


def make_pane(qtbot, state=None) -> tuple[AttackFormPane, BattleController]:  # type: ignore[no-untyped-def]
    return ui.form_pane(qtbot, "003", battle(state or duel()), "a", "d")


def test_the_pane_draws_seed_003_s_form_with_exact_odds(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, _controller = make_pane(qtbot)
    assert ui.combo(pane, "weapon").findData("broadsword:swing") >= 0
    aim = ui.combo(pane, "aim")
    assert aim.findData("eyes") >= 0 and ui.enabled(aim, "left hand")
    assert "against parry" in ui.assert_exact_odds(pane)


def test_a_distant_shot_greys_every_aim_but_the_torso(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, _controller = make_pane(qtbot, duel(template("archer"), defender_hex=south(25)))
    aim = ui.combo(pane, "aim")
    assert ui.enabled(aim, "torso")
    assert not ui.enabled(aim, "head") and not ui.enabled(aim, "left leg")
    assert pane.preview is not None and "random location" in pane.preview.summary


def test_roll_executes_the_form_s_choices(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, controller = make_pane(qtbot)
    pane.set_entry("aim", "right arm")
    pane.set_entry("widespread", "")
    assert ui.roll(pane, controller).choices == Choices003("broadsword", "swing", aim="right arm")


def test_log_lines_and_tones() -> None:
    b = battle(duel())
    events = b.execute(
        Attack("a", "d", Choices003("broadsword", "swing")),
        ScriptedDice(fudge("++++") + fudge("----")),
    )
    formatter = ruleset_ui("003").log_formatter
    declared = next(e for e in events if isinstance(e, events_module.AttackDeclared))
    assert formatter.opens_row(declared)
    assert seed003_line(declared) == (declared.describe(), Tone.TITLE)
    rolled = next(e for e in events if isinstance(e, events_module.OpposedRolled))
    assert seed003_line(rolled) == (rolled.describe(), Tone.SUCCESS)
    wound = next(e for e in events if isinstance(e, events_module.WoundDealt))
    assert seed003_line(wound) == (wound.describe(), Tone.HARM)
    assert ruleset_ui("003").inspector_section(None, None) is None  # type: ignore[arg-type]


def _every_seed003_event() -> tuple[Event, ...]:
    """One event of each kind seed 003 makes, with plain values."""
    roll = FudgeRoll(1, fudge("+0-0"))
    mark = BodyTracks.for_capacity(0).with_wound(BodyPart.LEFT_ARM, WoundLevel.HURT)[1]
    who = {"citation": None, "combatant_id": "d", "name": "Brigand"}
    return (
        events_module.AttackDeclared(
            **who, defender_id="a", defender_name="Hero", weapon="Sword", aim="torso"
        ),
        events_module.OpposedRolled(
            attacker="Hero",
            defender="Brigand",
            attack=roll,
            defense=None,
            defense_kind="defense",
            relative=4,
        ),
        events_module.LocationRolled(**who, location=roll_random_location(ScriptedDice((5, 2)))),
        events_module.CoverStruck(**who, part="left leg"),
        events_module.WoundDealt(
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
        events_module.StayedStanding(**who, part="left leg", roll=roll),
        events_module.Hobbled(**who, move_before=5, move_after=2),
        events_module.BodyStateChanged(**who, state=PartState.INCAPACITATED),
        events_module.InitiativeRolled003(entries=(("d", "Brigand", roll, ()),)),
        events_module.TurnPassed(**who, reason="incapacitated"),
        StrayChecked(**who, piece_name="Axe", roll=roll, hit=True),
        PieceStruck(**who, piece_name="Axe", mark=mark.describe()),
    )


def test_every_event_class_of_seed_003_has_a_short_log_line() -> None:
    """Every Event subclass the seed 003 package defines is in the list above (a
    new one without a log line fails here), and each gives a short line."""
    made = _every_seed003_event()
    modules = (events_module, combat_module, ruleset_module, turn_module)
    assert {type(e) for e in made} == ui.event_classes(modules)
    for event in made:
        line = seed003_line(event)
        assert line is not None, type(event).__name__
        text, tone = line
        assert text == event.describe() and text and "\n" not in text
        assert len(text) <= 160, text
        assert isinstance(tone, Tone)
