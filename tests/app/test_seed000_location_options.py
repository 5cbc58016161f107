"""The seed 000 attack pane with the "locations-fudge" and "locations-2d6" options
(issue 12): the "Hit locations" box offers each option by name and switches to it
by a command, "Aim at" lists the active system's parts or zones with their seed
000 penalties, the aimed blow lands there through the roll, and the combat log
names it."""

from __future__ import annotations

from dataclasses import replace

from app.controller import BattleController
from app.event_text import rows_for_events
from app.new_battle import NewBattleDialog, new_battle
from app.panes.inspector import InspectorPane
from app.rulesets import ruleset_ui
from app.rulesets.seed000.attack_pane import AttackPane
from app.rulesets.seed000.inspector_section import Seed000InspectorSection
from rules.battle.battle import Battle
from rules.battle.commands import SetRulesetOptions
from rules.core.dice import DiceRequest
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_events import WoundInflicted
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.locations_fudge import FudgeLocations
from rules.sets.seed000.tables import LOCATIONS_001, LOCATIONS_2D6, LOCATIONS_FUDGE
from rules.sets.seed000.tracks import with_wounds
from rules.sets.seed000.wound_effects import BodySide, Wound
from tests.app.demo_panes import demo_state
from tests.app.test_attack_pane import choose, untick_defenses
from tests.app.test_attack_pane_aiming import entries, ready_pane

LOG = ruleset_ui("000").log_formatter
NAMES = {LOCATIONS_FUDGE: "Seed 003 FUDGE parts", LOCATIONS_2D6: "Seed 004 2d6 zones"}


def choose_system(pane: AttackPane, option: str) -> None:
    """Pick a hit location option in the "Hit locations" box, as the user would."""
    combo = pane.hit_locations_combo
    index = combo.findText(NAMES[option])
    assert index >= 0, option
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def log_text(controller: BattleController) -> str:
    rows = rows_for_events(controller.battle.events, LOG)
    return "\n".join(f"{line.text}\n{line.detail}" for row in rows for line in row.lines)


def test_the_hit_locations_box_names_every_option_and_switches_by_command(qtbot) -> None:
    pane, controller = ready_pane(qtbot)
    listed = entries(pane.hit_locations_combo)
    assert [(text, data) for text, data, _e in listed] == [
        ("Seed 000 table", ()),
        ("Seed 001 locations", (LOCATIONS_001,)),
        ("Seed 003 FUDGE parts", (LOCATIONS_FUDGE,)),
        ("Seed 004 2d6 zones", (LOCATIONS_2D6,)),
    ]
    choose_system(pane, LOCATIONS_FUDGE)
    assert controller.state.ruleset_options == (LOCATIONS_FUDGE,)
    choose_system(pane, LOCATIONS_2D6)
    assert controller.state.ruleset_options == (LOCATIONS_2D6,)


def test_aim_at_follows_the_fudge_parts(qtbot) -> None:
    pane, _controller = ready_pane(qtbot)
    choose_system(pane, LOCATIONS_FUDGE)
    listed = entries(pane.location_combo)
    texts = {data: text for text, data, _e in listed}
    assert [data for _t, data, _e in listed] == [
        None, "head", "eyes", "left arm", "left hand", "right arm", "right hand",
        "left leg", "left foot", "right leg", "right foot",
    ]  # fmt: skip
    assert texts[None] == "Torso (not aimed)"
    assert texts["eyes"] == "Eyes (-6)" and texts["left hand"] == "Left hand (-4)"
    assert texts["right leg"] == "Right leg (-2)"
    assert all(enabled for _t, _d, enabled in listed)


def test_aim_at_follows_the_2d6_zones(qtbot) -> None:
    pane, _controller = ready_pane(qtbot)
    choose_system(pane, LOCATIONS_2D6)
    listed = entries(pane.location_combo)
    texts = {data: text for text, data, _e in listed}
    assert texts == {
        None: "Torso (not aimed)", "heart": "Heart (-6)", "legs": "Legs (-3)",
        "arms": "Arms (-3)", "head": "Head (-3)", "brain": "Brain (-6)",
    }  # fmt: skip
    assert pane.chink_hint.text() == "001 locations only"


def test_an_aimed_fudge_blow_lands_and_the_log_names_the_part(qtbot) -> None:
    """The dice entered at the table (physical dice): the attack 1+1+3, the damage
    die 6, every later roll 1. The blow lands on the right arm, and the log names
    the part, the aim's FUDGE levels and the wound's FUDGE damage on the track."""
    pane, controller = ready_pane(qtbot)
    choose_system(pane, LOCATIONS_FUDGE)
    choose(pane.location_combo, "right arm")
    untick_defenses(qtbot, pane)  # the flail fighter's default block
    assert pane.command() == attack_command(
        "c1", "c3", AttackOptions("broadsword", "swing", location="right arm")
    )
    faces = iter((1, 1, 3, 6))
    asked: list[str] = []

    def table(_command: str, request: DiceRequest) -> tuple[int, ...]:
        asked.append(request.what)
        return tuple(next(faces, 1) for _ in range(request.count))

    controller.set_dice_entry(table)
    pane.roll()
    wounds = [e for e in controller.battle.events if isinstance(e, WoundInflicted)]
    assert len(wounds) == 1, asked
    assert wounds[0].wound.location == "right arm" and wounds[0].wound.system == "003"
    log = log_text(controller)
    assert "Wound at the right arm" in log
    assert "aimed at the right arm: -1 in FUDGE levels, 2 a level on 3d6" in log
    assert "reads as FUDGE damage" in log and "Right arm:" in log


def test_a_cut_aimed_at_the_heart_is_turned_by_the_ribs_in_the_log(qtbot) -> None:
    """Seed 004's zones in the pane: a broadsword swing aimed at the heart, dice
    entered at the table (1+1+2: a critical hit, 6 damage): the cut cannot harm
    the organ, no HP lost, and the log says why and shows the blow x0."""
    pane, controller = ready_pane(qtbot)
    choose_system(pane, LOCATIONS_2D6)
    choose(pane.location_combo, "heart")
    faces = iter((1, 1, 2, 6))
    controller.set_dice_entry(lambda _c, r: tuple(next(faces, 1) for _ in range(r.count)))
    hp = controller.state.combatant("c3").hp
    pane.roll()
    wounds = [e for e in controller.battle.events if isinstance(e, WoundInflicted)]
    assert len(wounds) == 1
    assert wounds[0].wound.location == "heart" and wounds[0].wound.injury == 0
    assert controller.state.combatant("c3").hp == hp
    log = log_text(controller)
    assert "aimed at the heart: 2 size steps smaller, -3 a step" in log
    assert "heart: slashing cannot harm an unexposed organ" in log
    assert "×0 = 0 injury" in log


def test_the_new_battle_dialog_offers_each_location_option_by_name(qtbot) -> None:
    dialog = NewBattleDialog(seed=1)
    qtbot.addWidget(dialog)
    dialog.ruleset_box.setCurrentIndex(dialog.ruleset_box.findData("000"))
    box = dialog.option_choice_boxes["Hit locations"]
    names = {box.itemData(i): box.itemText(i) for i in range(box.count())}
    assert names == {
        "": "Seed 000 table",
        LOCATIONS_001: "Seed 001 hit locations",
        LOCATIONS_FUDGE: "Seed 003 hit locations",
        LOCATIONS_2D6: "Seed 004 hit zones",
    }
    box.setCurrentIndex(box.findData(LOCATIONS_FUDGE))
    battle = new_battle(dialog.setup())
    assert battle.state.ruleset_options == (LOCATIONS_FUDGE,)
    assert isinstance(ruleset_of(battle.state).hit_locations, FudgeLocations)


def test_the_inspector_shows_the_fudge_tracks_of_the_hurt_parts(qtbot) -> None:
    """003 5.875 (keeping track of wounds): under the FUDGE option the inspector
    lists each hurt part's track with its boxes; under the 000 table none."""
    state = demo_state()
    c1 = state.combatant("c1")
    wound = Wound(
        system="003", location="left hand", label="Left hand", side=BodySide.LEFT,
        injury=3, crippled=None, conditions=frozenset(),
    )  # fmt: skip
    state = replace(state.with_combatants(with_wounds(c1, (wound,))), ruleset_options=())
    controller = BattleController(Battle(state, 3, get_ruleset))
    pane = InspectorPane(controller)
    qtbot.addWidget(pane)
    pane.show()
    controller.select("c1")
    section = pane.section
    assert isinstance(section, Seed000InspectorSection)
    assert "Wound tracks" not in section.wounds_label.text()
    controller.execute(SetRulesetOptions((LOCATIONS_FUDGE,)))  # redraws the panes
    text = section.wounds_label.text()
    assert "Wound tracks" in text
    assert "Left hand: hurt; 0/2 1/1 0/1 0/2 0/2" in text  # 3 at 12 HP: Hurt, a Poor hand
