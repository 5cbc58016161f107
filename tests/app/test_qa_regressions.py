"""Regressions found by playing an evening's battle on a 1366x768 screen."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt

from app.main_window import MainWindow
from hexmap import Hex
from rules.battle import MoveCombatant
from rules.defense import DefenseKind


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
    from PySide6.QtWidgets import QApplication, QLabel

    from app.panes.attack_parts import OddsPanel, OddsRow

    panel = OddsPanel()
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.show()
    panel.show_rows((OddsRow("hit", "Hit", "50%"), OddsRow("miss", "Miss", "50%")))
    panel.show_rows((OddsRow("hit", "Hit", "25%"),))
    QApplication.processEvents()  # shows the new rows; deferred deletes still wait
    shown = [w for w in panel.findChildren(QLabel) if w.isVisible()]
    assert sorted(w.text() for w in shown) == ["25%", "Hit"]
