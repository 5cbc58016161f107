"""The attack pane fits a 1366x768 window (issue 22, "The window is consistent" 6),
measured on the window's real geometry: with "More options" open the modifiers
stay in view, a roll never scrolls the attacker and the target out of view, no
two labels overlap, and the log's line for a ruined sword reads as a sentence."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

import pytest
from PySide6.QtCore import QCoreApplication, QPoint, QRect, QSettings
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.main_window import MainWindow
from app.rulesets import ruleset_ui
from app.rulesets.seed000.attack_pane import AttackPane
from app.rulesets.seed000.tables import seed000_tables
from app.screenshot import SCREEN_HEIGHT, stage
from rules.battle.catalog import load_catalog
from rules.core.dice import ScriptedDice
from rules.sets.seed000.attack_events import WeaponBroke
from rules.sets.seed000.breakage import break_weapon
from tests.app.turn_order_window import shown_window

# what a GM must see of the itemised modifiers while working in "More options"
LINES_IN_VIEW = 8


def settle() -> None:
    for _ in range(5):
        QCoreApplication.processEvents()


@pytest.fixture
def laptop(
    qtbot: QtBot, controller: BattleController, settings: QSettings
) -> Iterator[tuple[MainWindow, AttackPane]]:
    """The main window at 1366x768, the attack pane showing an attack that can be
    rolled (app.screenshot.stage) with "More options" open."""
    window = shown_window(qtbot, controller, settings)
    stage(controller)
    pane = window.attack_pane
    assert isinstance(pane, AttackPane)
    pane.more.set_expanded(True)
    settle()
    assert window.height() <= SCREEN_HEIGHT and pane.roll_button.isEnabled()
    yield window, pane


def shown(widget: QWidget) -> QRect:
    """The part of ``widget`` on screen (clipped by its scroll area and the window)."""
    return widget.visibleRegion().boundingRect()


def test_with_more_options_open_the_modifiers_stay_in_view(
    laptop: tuple[MainWindow, AttackPane],
) -> None:
    window, pane = laptop
    preview = pane.preview_label
    assert preview.text() and pane.plan is not None
    lines = LINES_IN_VIEW * preview.fontMetrics().lineSpacing()
    assert shown(preview).height() >= min(preview.height(), lines)
    # scrolled down to the last of the options, the modifiers are still there
    for last in (pane.hit_locations_combo, pane.off_hand_check):
        pane.scroll_area.ensureWidgetVisible(last)
        settle()
        assert shown(last) == last.rect(), last.objectName()
        assert shown(preview).height() >= min(preview.height(), lines)
    assert shown(pane.roll_button) == pane.roll_button.rect()
    bottom = pane.roll_button.mapTo(window, pane.roll_button.rect().bottomLeft()).y()
    assert bottom < window.height()


def test_a_roll_keeps_the_attacker_and_the_target_in_view(
    qtbot: QtBot, laptop: tuple[MainWindow, AttackPane]
) -> None:
    window, pane = laptop
    bar = pane.scroll_area.verticalScrollBar()
    assert bar.maximum() > 0  # the options open scroll ...
    bar.setValue(bar.maximum())  # ... and the GM went down to the last of them
    settle()
    commands = len(window.controller.battle.commands)
    pane.roll_button.click()
    settle()
    assert len(window.controller.battle.commands) == commands + 1
    for who in (pane.attacker_combo, pane.target_combo):
        assert shown(who) == who.rect(), who.objectName()
    assert pane.target_combo.currentData() == window.controller.target_id


def _scroll_content(widget: QWidget) -> QWidget | None:
    """The content of the scroll area ``widget`` is in (None outside any): widgets
    are compared where they lie in that content, scrolled or not."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QScrollArea):
            return parent.widget()
        parent = parent.parentWidget()
    return None


def test_no_two_labels_of_the_attack_pane_overlap(laptop: tuple[MainWindow, AttackPane]) -> None:
    _window, pane = laptop
    kinds = (QLabel, QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit)
    parts = [
        w for w in pane.findChildren(QWidget)
        if isinstance(w, kinds) and w.isVisible() and w.width() > 0 and w.height() > 0
    ]  # fmt: skip
    assert len(parts) > 40  # every choice of "More options" among them
    where: dict[QWidget, tuple[QWidget | None, QRect]] = {}
    for w in parts:
        content = _scroll_content(w)
        frame = content if content is not None else pane
        where[w] = (content, QRect(w.mapTo(frame, QPoint(0, 0)), w.size()))
    overlaps = []
    for a, b in combinations(parts, 2):
        (content_a, rect_a), (content_b, rect_b) = where[a], where[b]
        if content_a is not content_b or a.isAncestorOf(b) or b.isAncestorOf(a):
            continue
        if rect_a.intersects(rect_b):
            overlaps.append((_name(a), _name(b)))
    assert overlaps == []


def _name(widget: QWidget) -> str:
    """A widget as a failure names it: its object name, else its text."""
    if widget.objectName():
        return widget.objectName()
    return widget.text() if isinstance(widget, QLabel | QAbstractButton) else type(widget).__name__


def test_a_ruined_sword_reads_as_one_sentence_in_the_log(controller: BattleController) -> None:
    sword = load_catalog().weapon("broadsword")
    table = seed000_tables(controller.state).broken_weapons
    result = break_weapon(sword, ScriptedDice([1]), table=table)
    assert (result.outcome, result.text) == ("useless", "The sword is ruined.")
    c1 = controller.state.combatant("c1")
    event = WeaponBroke(combatant_id=c1.id, name=c1.name, hex=c1.hex, result=result,
                        cause="parrying a heavy blow")  # fmt: skip
    line = ruleset_ui("000").log_formatter.line(event)
    assert line is not None
    for text in (event.describe(), line[0]):
        assert ".;" not in text
        assert "The sword is ruined; in hand: ruined Broadsword" in text
