"""Seed 004's UI (app.rulesets.seed004): the registry hands the window the
generic attack form pane over seed 004's attack form, which draws its fields
(the knife's two modes, the aimed zones greyed below tiny), shows the exact odds
and rolls the attack; the log lines give each seed 004 event a tone."""

from __future__ import annotations

from app.controller import BattleController
from app.event_text import Tone
from app.panes.attack_form import AttackFormPane
from app.rulesets import ruleset_ui
from app.rulesets.seed004.log_lines import seed004_line
from rules.battle.commands import Attack
from rules.battle.model import Posture
from rules.sets.components.zones_2d6 import Zone
from rules.sets.seed004.attack import Seed004Attack
from rules.sets.seed004.events import AttackDeclared, CheckRolled, ZoneDamaged
from tests.app import form_ui_checks as ui
from tests.rules.seed004_battle import duel


def make_pane(qtbot, **duel_args: object) -> tuple[AttackFormPane, BattleController]:
    return ui.form_pane(qtbot, "004", duel(**duel_args), "a", "b")


def test_the_pane_draws_seed_004_s_form_with_exact_odds(qtbot) -> None:
    pane, _controller = make_pane(qtbot)
    weapons = ui.combo(pane, "weapon")
    assert weapons.findData("knife/stab") >= 0 and weapons.findData("knife/slash") >= 0
    assert "difficulty 6" in ui.assert_exact_odds(pane)


def test_zones_below_tiny_are_greyed(qtbot) -> None:
    pane, _controller = make_pane(qtbot, bob_posture=Posture.KNEELING)
    aim = ui.combo(pane, "aim")
    assert ui.enabled(aim, "arms") and not ui.enabled(aim, "heart") and not ui.enabled(aim, "brain")


def test_roll_executes_the_form_s_choices(qtbot) -> None:
    pane, controller = make_pane(qtbot)
    pane.set_entry("weapon", "club/strike")
    pane.set_entry("aim", "head")
    assert ui.roll(pane, controller).choices == Seed004Attack(
        "club",
        "strike",
        zone=Zone.HEAD,
    )


def test_log_lines_and_tones() -> None:
    battle = duel()
    events = battle.execute(Attack("a", "b", Seed004Attack("club", "strike", adjustment=-6)))
    formatter = ruleset_ui("004").log_formatter
    declared = next(e for e in events if isinstance(e, AttackDeclared))
    assert formatter.opens_row(declared)
    assert seed004_line(declared) == (declared.describe(), Tone.TITLE)
    check = next(e for e in events if isinstance(e, CheckRolled))
    assert seed004_line(check) is not None
    for e in events:
        if isinstance(e, ZoneDamaged):
            assert seed004_line(e) == (e.describe(), Tone.HARM if e.damage else Tone.NOTE)
    assert ruleset_ui("004").inspector_section(None, None) is None
