"""The inspector's defender choices and lasting state (issue 3): the guarded body
area and the posture go through commands; pain threshold, traits, wounds,
crippled limbs, weapon damage and the shield's readiness are shown; the combat
log renders the new events with their citations."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.controller import BattleController
from app.event_text import Tone, line_for, rows_for_batches, rows_for_events
from app.panes.inspector import InspectorPane
from app.rulesets import ruleset_ui
from app.rulesets.seed000.inspector_section import Seed000InspectorSection
from hexmap import Arc
from rules.battle.battle import Battle
from rules.battle.commands import SetPosture
from rules.battle.model import WeaponDamageState
from rules.battle.state import BattleState
from rules.core.citation import cite
from rules.core.events import Event
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack_events import AttackDeclared
from rules.sets.seed000.commands import SetDefendedArea
from rules.sets.seed000.conditions import Posture
from rules.sets.seed000.sheet import sheet_of, with_sheet
from rules.sets.seed000.stances import BodyArea, PainThreshold
from rules.sets.seed000.tracks import tracks_of, with_tracks, with_wounds
from rules.sets.seed000.wound_effects import Condition, Limb, Wound
from tests.app.demo_panes import demo_state

LOG = ruleset_ui("000").log_formatter


class Shown:
    """The inspector pane with its seed 000 section (the demo battle is seed 000's)."""

    def __init__(self, pane: InspectorPane) -> None:
        assert isinstance(pane.section, Seed000InspectorSection)
        self.pane = pane
        self.sheet = pane.section


def make_inspector(qtbot, state: BattleState) -> tuple[Shown, BattleController]:
    controller = BattleController(Battle(state, 3, get_ruleset))
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    pane.resize(290, 700)
    pane.show()
    controller.select("c1")
    return Shown(pane), controller


@pytest.fixture
def inspector(qtbot) -> tuple[Shown, BattleController]:
    return make_inspector(qtbot, demo_state())


def test_the_defended_area_combo_executes_the_command(inspector):
    pane, controller = inspector
    assert pane.sheet.area_combo.isEnabled()
    assert pane.sheet.area_combo.currentData() is None
    index = pane.sheet.area_combo.findData(BodyArea.HEAD)
    pane.sheet.area_combo.setCurrentIndex(index)
    pane.sheet.area_combo.activated.emit(index)
    assert isinstance(controller.battle.commands[-1], SetDefendedArea)
    assert tracks_of(controller.state.combatant("c1")).defended_area is BodyArea.HEAD
    assert pane.sheet.area_combo.currentData() is BodyArea.HEAD
    # Back to guarding nothing.
    pane.sheet.area_combo.setCurrentIndex(0)
    pane.sheet.area_combo.activated.emit(0)
    assert tracks_of(controller.state.combatant("c1")).defended_area is None


def test_the_posture_combo_executes_the_command(inspector):
    pane, controller = inspector
    assert pane.pane.posture_combo.isEnabled()
    index = pane.pane.posture_combo.findData(Posture.KNEELING)
    pane.pane.posture_combo.setCurrentIndex(index)
    pane.pane.posture_combo.activated.emit(index)
    assert isinstance(controller.battle.commands[-1], SetPosture)
    assert controller.state.combatant("c1").posture is Posture.KNEELING


def test_lasting_state_is_shown(qtbot):
    state = demo_state()
    c1 = state.combatant("c1")
    wound = Wound(
        system="000",
        location="weapon_arm",
        label="Weapon arm",
        side=None,
        injury=4,
        crippled=Limb.ARM,
        conditions=frozenset({Condition.CRIPPLED, Condition.SEVERE_BLEEDING}),
        citations=(cite("000", "HIT LOCATIONS"),),
    )
    weapon = c1.fighter.weapons[0]
    shield = c1.fighter.shield
    assert shield is not None
    c1 = replace(
        c1,
        fighter=with_sheet(c1.fighter, replace(sheet_of(c1), pain_threshold=PainThreshold.HIGH)),
        weapon_states=((weapon.key, WeaponDamageState(damage_taken=5, weakened=True)),),
        shield_ready=False,
    )
    c1 = with_wounds(c1, (wound,))
    c1 = with_tracks(c1, replace(tracks_of(c1), off_balance=True))
    pane, _controller = make_inspector(qtbot, state.with_combatants(c1))
    assert "pain threshold <b>high</b>" in pane.sheet.traits_label.text()
    wounds = pane.sheet.wounds_label.text()
    assert "Weapon arm" in wounds and "4 HP" in wounds
    assert "arm crippled" in wounds and "severe bleeding" in wounds
    assert "off balance" in wounds
    assert "weakened (5 damage)" in pane.sheet.weapons_label.text()
    assert "not ready" in pane.sheet.shield_label.text()


def test_an_unhurt_fighter_has_no_wounds(inspector):
    pane, _controller = inspector
    assert "None" in pane.sheet.wounds_label.text()
    assert "ready" in pane.sheet.shield_label.text()
    assert "not ready" not in pane.sheet.shield_label.text()


# --- the combat log ------------------------------------------------------------------------


class SomethingNew(Event):
    def describe(self) -> str:
        return "something the log has never seen"


def test_an_unknown_event_reads_as_its_description_with_its_citation():
    event = SomethingNew(citation=cite("000", "DEFENSES"))
    line = line_for(event, LOG)
    assert line.text == "something the log has never seen"
    assert line.citation == "000 DEFENSES"
    assert line.tone is Tone.PLAIN


def test_a_broken_short_text_falls_back_to_the_description():
    """An event whose fields do not match what the log expects is still shown."""

    class HitLocationRolled(Event):  # same name as the rules' event, other fields
        def describe(self) -> str:
            return "random hit location: 7 = torso"

    line = line_for(HitLocationRolled(citation=cite("000", "RANDOM HIT LOCATION")), LOG)
    assert line.text == "random hit location: 7 = torso"
    assert line.citation == "000 RANDOM HIT LOCATION"


def test_each_command_batch_is_its_own_group(controller):
    """An attack's row does not swallow the next command's events."""
    state = controller.state
    a, d = state.combatant("c1"), state.combatant("c3")
    declared = AttackDeclared(
        citation=cite("000", "DEFENSES"),
        attacker_id=a.id,
        attacker_name=a.name,
        defender_id=d.id,
        defender_name=d.name,
        attacker_hex=a.hex,
        defender_hex=d.hex,
        weapon_name="Broadsword",
        mode="swing",
        location_label="Torso",
        arc=Arc.FRONT,
        below=False,
        announced=(),
    )
    other = SomethingNew(citation=None)
    rows = rows_for_batches([(declared,), (other,)], LOG)
    assert len(rows) == 2


def test_guarding_an_area_is_logged_with_its_citation(inspector):
    pane, controller = inspector
    index = pane.sheet.area_combo.findData(BodyArea.CHEST)
    pane.sheet.area_combo.setCurrentIndex(index)
    pane.sheet.area_combo.activated.emit(index)
    (row,) = rows_for_events(controller.battle.event_batches[-1], LOG)
    assert row.lines[0].citation == "000 DEFENDING A SPECIFIC BODY AREA"
