"""Seed 002's UI (app.rulesets.seed002): the generic attack form pane over seed
002's attack form (weapon, defense with the impossible parries greyed, the
GM's situational fields), its exact odds and its roll; the log lines give each
seed 002 event a tone; the generic sheet view shows the sheet (no section)."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox

import rules.sets.seed002 as seed002_package
from app.controller import BattleController
from app.event_text import Tone
from app.panes.attack_form import AttackFormPane
from app.rulesets import ruleset_ui
from app.rulesets.seed002.log_lines import seed002_line
from hexmap import Hex
from rules.battle.commands import Attack
from rules.core.dice import ScriptedDice
from rules.core.events import Event
from rules.sets.attack_form import FLAG_ON
from rules.sets.seed002 import events as ev
from rules.sets.seed002.attack import Attack002, DefenseKind, Seed002Answer
from rules.sets.seed002.maneuvers import TieRolled
from rules.sets.seed002.situation import GMSituation
from rules.sets.seed002.stray_hits import PiecePassed
from rules.sets.seed002.success import PercentileRoll
from rules.sets.seed002.tables import Level
from tests.app import form_ui_checks as ui
from tests.rules.seed002_duel import battle, duel, fighter, sword


def make_pane(qtbot, state=None) -> tuple[AttackFormPane, BattleController]:  # type: ignore[no-untyped-def]
    return ui.form_pane(qtbot, "002", battle(state or duel()), "a", "d")


def test_the_pane_draws_seed_002_s_form_with_exact_odds(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, _controller = make_pane(qtbot)
    assert ui.combo(pane, "weapon").findData("longsword/cut") >= 0
    assert ui.combo(pane, "defense").currentData() == "parry:longsword"
    assert not ui.enabled(ui.combo(pane, "wind"), "hurricane")  # a ranged row in close combat
    assert isinstance(pane.field_widget("helpless"), QCheckBox)
    assert ui.assert_exact_odds(pane).startswith("Close Combat 50%")


def test_a_shot_greys_the_parries(qtbot) -> None:  # type: ignore[no-untyped-def]
    archer = fighter("Archer", ("shortbow", "dagger"))
    pane, _controller = make_pane(qtbot, duel(archer, defender_hex=Hex.from_offset(8, 15)))
    defense = ui.combo(pane, "defense")
    assert ui.enabled(defense, "dodge") and not ui.enabled(defense, "parry:longsword")
    assert ui.enabled(ui.combo(pane, "wind"), "hurricane")


def test_roll_executes_the_form_s_choices(qtbot) -> None:  # type: ignore[no-untyped-def]
    pane, controller = make_pane(qtbot)
    pane.set_entry("defense", "dodge")
    pane.set_entry("attacker_mounted", FLAG_ON)
    command = ui.roll(pane, controller)
    assert command.choices == Attack002("longsword", "cut", GMSituation(attacker_mounted=True))
    assert command.answer == Seed002Answer(DefenseKind.DODGE)


def test_log_lines_and_tones() -> None:
    b = battle(duel(None, fighter("Defender", armour=None)))
    events = b.execute(Attack("a", "d", sword()), ScriptedDice((3, 99, 5)))
    formatter = ruleset_ui("002").log_formatter
    declared = next(e for e in events if isinstance(e, ev.AttackDeclared))
    assert formatter.opens_row(declared)
    assert seed002_line(declared) == (declared.describe(), Tone.TITLE)
    attack, dodge = [e for e in events if isinstance(e, ev.SkillRolled)]
    assert seed002_line(attack) == (attack.describe(), Tone.CRITICAL)
    assert seed002_line(dodge) == (dodge.describe(), Tone.FAILURE)
    damage = next(e for e in events if isinstance(e, ev.DamageDealt))
    assert seed002_line(damage) == (damage.describe(), Tone.HARM)
    wound = next(e for e in events if isinstance(e, ev.MajorWoundRolled))
    assert seed002_line(wound) == (wound.describe(), Tone.HARM)
    assert "broken ribs" in wound.describe()
    assert ruleset_ui("002").inspector_section(None, None) is None  # type: ignore[arg-type]


def test_every_seed_002_event_class_has_a_log_line() -> None:
    """One sample of each event class of the package (the set is found by
    walking its modules, so a new event without a sample fails here): each
    gets its own describe() text and a tone."""
    who = {"combatant_id": "d", "name": "Defender"}
    samples: list[Event] = [
        ev.AttackDeclared(
            attacker_id="a",
            attacker_name="A",
            defender_id="d",
            defender_name="D",
            weapon_name="Longsword",
            mode="cut",
            defense="dodge",
        ),
        ev.SkillRolled(**who, what="dodge", roll=PercentileRoll(40, 7, Level.SUCCESS)),
        ev.DefenseNotMade(**who, reason="helpless"),
        ev.ResultApplied(text="a hit"),
        ev.DamageDealt(
            **who,
            dice="1d8",
            faces=(5,),
            rolled=5,
            maximum=False,
            armour=2,
            halved=False,
            taken=3,
            hp_before=12,
            hp_after=9,
            max_hp=12,
        ),
        ev.LocationRolled(**who, face=19, label="head", armour=3),
        ev.MajorWoundRolled(**who, face=5, label="broken ribs", spine_face=None, effects="-50%"),
        ev.Fumbled(**who, text="the dodge ends prone"),
        ev.StatusChanged(**who, text="dies"),
        ev.TurnEffect(**who, text="bleeds 1 HP"),
        TieRolled(**who, dex=11, face=4),
        PiecePassed(piece_name="Dagger", name="Defender"),
    ]
    assert {type(e) for e in samples} == ui.event_classes(ui.package_modules(seed002_package))
    formatter = ruleset_ui("002").log_formatter
    for event in samples:
        line = formatter.line(event)
        assert line is not None, type(event).__name__
        assert line[0] == event.describe() and line[0] != type(event).__name__
