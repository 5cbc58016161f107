"""Regressions found by playing an evening's battle on a 1366x768 screen."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

from PySide6.QtCore import QSize, Qt, QUrl
from PySide6.QtWidgets import QApplication, QLabel

from app import help as app_help
from app.main_window import MainWindow, move_text
from app.map import painter as mp
from app.rulesets.seed000.attack_parts import OddsPanel, OddsRow
from hexmap import Hex
from rules.battle.command_events import Moved
from rules.battle.commands import EditCombatant, EndTurn, MoveCombatant
from rules.battle.model import ActionKind, Status, TurnAction
from rules.sets.seed000.defense import attack_cumulative_modifiers, cumulative_defense_modifiers
from rules.sets.seed000.defense_kinds import DefenseKind


def _sword_against_flail(window: MainWindow) -> None:
    """The sword-and-shield fighter (c1) steps next to the flail fighter (c3) and
    targets him: the flail fighter may dodge and parry with his morningstar."""
    c = window.controller
    c.select("c1")
    c.execute(MoveCombatant("c1", Hex(11, 2)))
    c.set_target("c3")


def test_ticking_defenses_does_not_widen_the_attack_dock(
    main_window: MainWindow, qtbot: object
) -> None:
    """Ticking Parry added the odds row "Parry (Morningstar) stops"; its caption did
    not wrap, so the Attack dock grew ~35 px wider and the map shrank under the GM's
    pointer."""
    main_window.resize(QSize(1366, 768))
    _sword_against_flail(main_window)
    pane = main_window.attack_pane
    qtbot.wait(10)  # type: ignore[attr-defined]
    width = pane.width()
    map_width = main_window.map_view.width()
    pane.dodge_check.setChecked(True)
    pane.parry_check.setChecked(True)
    qtbot.wait(10)  # type: ignore[attr-defined]
    pane.odds  # noqa: B018 (waits for the odds under way and shows them)
    parry = next(row for row in pane.odds_panel.rows if row.caption.startswith("Parry"))
    assert parry.caption == "Parry stops"  # the weapon is named in the tooltip
    assert "Morningstar" in parry.tooltip
    assert pane.odds_panel.minimumSizeHint().width() <= width
    assert pane.width() == width
    assert main_window.map_view.width() == map_width


def test_defense_scores_sit_next_to_their_own_defense(main_window: MainWindow) -> None:
    """The dodge score was right-aligned in a stretching column, so it was drawn
    against the Block checkbox ("Dodge 1st      4 [ ] Block") and read as Block's."""
    _sword_against_flail(main_window)
    pane = main_window.attack_pane
    pane.dodge_check.setChecked(True)
    value = pane._value_labels[DefenseKind.DODGE]
    assert value.text()
    assert value.alignment() & Qt.AlignmentFlag.AlignLeft
    order = pane._order_labels[DefenseKind.DODGE]
    # where the score's text is drawn: right after the "1st" badge, far from Block
    text_width = value.fontMetrics().horizontalAdvance(value.text().replace("<b>", "")
                                                       .replace("</b>", ""))
    rect = value.geometry()
    text_left = rect.left() if value.alignment() & Qt.AlignmentFlag.AlignLeft \
        else rect.right() - text_width
    assert text_left - order.geometry().right() < pane.block_check.geometry().left() - (
        text_left + text_width
    )


def test_odds_rows_are_replaced_without_ghosts(qtbot: object) -> None:
    """Replaced odds rows were only deleteLater'd, so until the next event-loop pass
    (and in any grab before it) the old captions were drawn over the new ones."""
    panel = OddsPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.show()
    panel.show_rows((OddsRow("hit", "Hit", "50%"), OddsRow("miss", "Miss", "50%")))
    panel.show_rows((OddsRow("hit", "Hit", "25%"),))
    QApplication.processEvents()  # shows the new rows; deferred deletes still wait
    shown = [w for w in panel.findChildren(QLabel) if w.isVisible()]
    assert sorted(w.text() for w in shown) == ["25%", "Hit"]


# --- QA round: keys, carried-over modifiers, the GM's rules page, downed fighters ---------


def test_ctrl_return_after_rolling_ends_the_turn_not_a_second_attack(
    main_window: MainWindow, qtbot: object
) -> None:
    """Ctrl+Return is End Turn (guide, shortcut list), but inside the Attack pane it
    rolled: after clicking Roll the focus stayed in the pane, so the GM's Ctrl+Return
    made a second attack."""

    assert "Ctrl+Return" not in app_help.shortcut("roll_attack").keys
    assert "Ctrl+Return" in app_help.shortcut("end_turn").keys
    main_window.activateWindow()
    qtbot.waitActive(main_window)  # type: ignore[attr-defined]
    _sword_against_flail(main_window)
    c = main_window.controller
    pane = main_window.attack_pane
    turn = c.state.turn
    count = len(c.battle.commands)
    pane.roll_button.setFocus()
    qtbot.mouseClick(pane.roll_button, Qt.MouseButton.LeftButton)  # type: ignore[attr-defined]
    assert len(c.battle.commands) == count + 1
    focused = QApplication.focusWidget() or pane.roll_button
    assert pane.isAncestorOf(focused)
    qtbot.keyClick(focused, Qt.Key.Key_Return,  # type: ignore[attr-defined]
                   Qt.KeyboardModifier.ControlModifier)
    assert len(c.battle.commands) == count + 2
    assert isinstance(c.battle.commands[-1], EndTurn)
    assert c.state.turn == turn + 1
    assert "Ctrl+Return" not in pane.roll_button.toolTip()


def test_situational_modifier_does_not_carry_over(main_window: MainWindow) -> None:
    """The GM's +/- modifier and its reason stayed for other attackers, targets and
    later turns."""

    _sword_against_flail(main_window)
    c = main_window.controller
    pane = main_window.attack_pane

    def set_modifier() -> None:
        pane.extra_spin.setValue(3)
        pane.reason_edit.setText("slippery blood")
        assert pane.options() is not None
        assert any(m.reason == "slippery blood" for m in pane.options().extra_modifiers)

    def assert_cleared() -> None:
        assert pane.extra_spin.value() == 0
        assert pane.reason_edit.text() == ""

    set_modifier()
    pane.roll()  # the same exchange goes on: the modifier stays
    assert pane.extra_spin.value() == 3
    assert pane.reason_edit.text() == "slippery blood"
    other = next(x.id for x in c.state.combatants if x.id not in ("c1", "c3"))
    c.set_target(other)
    assert_cleared()
    c.set_target("c3")
    set_modifier()
    c.select(other)
    assert_cleared()
    c.select("c1")
    c.set_target("c3")
    set_modifier()
    c.execute(EndTurn())
    assert_cleared()


def test_last_roll_line_clears_when_the_attacker_changes(main_window: MainWindow) -> None:
    _sword_against_flail(main_window)
    c = main_window.controller
    pane = main_window.attack_pane
    pane.roll()
    assert pane.last_label.text().startswith("Last roll:")
    c.set_target(None)
    c.set_target("c3")
    assert pane.last_label.text().startswith("Last roll:")  # same attacker
    c.select("c3")
    assert pane.last_label.text() == ""


def test_rules_reference_is_the_gms_summary(qtbot: object) -> None:
    """Help > Rules reference showed the developers' traceability table (module::name,
    test names); the GM gets a plain summary that links to the table at the end."""

    root = Path(__file__).resolve().parents[2]
    assert app_help.rules_reference_path() == root / "docs" / "gm-rules.md"
    dialog = app_help.RulesReferenceDialog()
    qtbot.addWidget(dialog)  # type: ignore[attr-defined]
    assert dialog.found
    text = dialog.browser.toPlainText()
    for topic in ("Facing and arcs", "Defenses", "Passive defense by arc", "Hit locations",
                  "Damage and injury", "Striking at weapons", "What falls on the map",
                  "Terrain and posture", "The odds panel", "1d3−1", "2d6", "rear"):
        assert topic in text, topic
    assert "::" not in text and "tests/" not in text and ".py" not in text
    # the last link leads to the traceability table, which opens in the same browser
    page = (root / "docs" / "gm-rules.md").read_text(encoding="utf-8")
    assert page.rstrip().endswith("(rules.md).")
    dialog.follow(QUrl("rules.md"))
    assert dialog.browser.source().toLocalFile().endswith("docs/rules.md")
    # every rule heading it cites is a heading of the traceability table
    table = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"\b00[01] [A-Z][A-Za-z ]*[A-Za-z]", " ".join(page.split())))
    assert cited
    for heading in cited:
        assert f"| {heading} |" in table, heading
    # bundled: the spec takes every docs/*.md
    spec = (root / "packaging" / "hexfray.spec").read_text(encoding="utf-8")
    assert '(ROOT / "docs").glob("*.md")' in spec


def test_a_downed_fighter_shows_no_arcs_and_no_reach(main_window: MainWindow) -> None:
    """An unconscious or dead fighter, selected, still showed arcs and reach hatching
    as if it could fight."""

    c = main_window.controller
    view = main_window.map_view
    c.select("c1")
    assert view.reach_hexes_shown()
    fighter = c.state.combatant("c1")
    assert mp.legend_note(fighter) is None
    for status, note in ((Status.UNCONSCIOUS, "Unconscious: no arcs"),
                         (Status.DEAD, "Dead: no arcs")):
        c.execute(EditCombatant("c1", status=status))
        fighter = c.state.combatant("c1")
        assert view.reach_hexes_shown() == frozenset()
        near = next(h for h in c.state.grid.hexes() if h.distance(fighter.hex) == 1)
        assert view.overlay_arc_at(near) is None
        assert mp.legend_note(fighter) == note
        assert not view.legend_rect().isEmpty()  # the legend says why
    # It let go of its weapons as it fell: back on its feet it has none in hand
    # (they lie in its hex); undoing the edits gives them back, and the reach.
    c.execute(EditCombatant("c1", status=Status.ACTIVE))
    assert view.reach_hexes_shown() == frozenset()
    assert {i.hex for i in c.state.items} == {fighter.hex}
    for _ in range(3):
        c.undo()
    assert view.reach_hexes_shown()


def test_counts_are_singular_or_plural() -> None:
    """"(2 hex)", "1 earlier attack(s)/defense(s)": say 1 hex, 2 hexes, 1 attack."""

    def moved(steps: int) -> str:
        path = tuple(Hex(q, 0) for q in range(steps + 1))
        return Moved(combatant_id="c1", name="A", path=path).describe()

    assert "(1 hex)" in moved(1)
    assert "(2 hexes)" in moved(2)
    attack = TurnAction(ActionKind.ATTACK, "sword")
    one = cumulative_defense_modifiers((attack,), DefenseKind.DODGE)
    assert one[0].reason == "1 earlier attack/defense this turn"
    two = cumulative_defense_modifiers((attack, TurnAction(ActionKind.DODGE)), DefenseKind.BLOCK)
    assert two[0].reason == "2 earlier attacks/defenses this turn"
    same = cumulative_defense_modifiers((attack,), DefenseKind.PARRY, "sword", "Sword")
    assert [m.reason for m in same] == ["1 earlier use this turn of the Sword, which attacked"]
    parried = (TurnAction(ActionKind.PARRY, "sword"),) * 2
    assert attack_cumulative_modifiers(parried[:1], "sword", "Sword")[0].reason == (
        "the Sword already parried once this turn")
    assert attack_cumulative_modifiers(parried, "sword", "Sword")[0].reason == (
        "the Sword already parried 2 times this turn")


    walker = SimpleNamespace(move_used=2, path_this_turn=(Hex(0, 0), Hex(1, 0), Hex(2, 0)),
                             fighter=SimpleNamespace(move=6))
    assert move_text(walker) == "Move 2/6 (2 hexes)"  # type: ignore[arg-type]
    walker.path_this_turn = walker.path_this_turn[:2]
    assert move_text(walker) == "Move 2/6 (1 hex)"  # type: ignore[arg-type]


def test_seed000_last_roll_line_goes_with_an_undone_attack_and_comes_back_on_redo(
    main_window: MainWindow,
) -> None:
    """After Ctrl+Z the seed 000 pane still said what the undone attack did."""
    _sword_against_flail(main_window)
    c = main_window.controller
    pane = main_window.attack_pane
    pane.roll()
    said = pane.last_label.text()
    assert said.startswith("Last roll:")
    c.undo()
    assert pane.last_label.text() == ""
    c.redo()
    assert pane.last_label.text() == said
