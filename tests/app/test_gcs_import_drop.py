"""A ``.gcs`` file dropped on the map (app.gcs_import.CharacterImport.watch_map):
the map accepts the drag, the report comes first as from the menu, and the
fighter joins in the hex it was dropped on if that is free, else in the free hex
nearest it; a file no ruleset imports is not taken. The drops are synthetic
QDropEvents carrying a file URL, sent to the map view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app.gcs_import import ImportPlan
from app.main_window import MainWindow
from app.templates import nearest_free_hex
from hexmap import Hex
from rules.battle.model import Side
from rules.battle.roster import AddCombatant
from tests.app.own_home import main_window_in_own_home

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "gcs"


class Reports:
    def __init__(self, window: MainWindow, side: Side | None) -> None:
        self.plans: list[ImportPlan] = []
        self.problems: list[str] = []
        self._side = side
        importer = window.character_import
        importer.confirm = self._confirm
        importer.show_problem = lambda _title, text: self.problems.append(text)

    def _confirm(self, _parent: object, plan: ImportPlan, _update: str) -> Side | None:
        self.plans.append(plan)
        return self._side


# The tests' main window, in this test's own user folders.
window = main_window_in_own_home


@pytest.fixture
def mime_for() -> Iterator[list[QMimeData]]:
    """The drags' mime data, kept alive while their events are sent and deleted
    when the test ends, not left to the garbage collector at exit: they have no
    parent, so dropping the last reference deletes each at once."""
    made: list[QMimeData] = []
    yield made
    made.clear()


def files_mime(made: list[QMimeData], *paths: Path) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    made.append(mime)
    return mime


def drag_and_drop(window: MainWindow, mime: QMimeData, at: Hex) -> tuple[bool, bool]:
    """Drag ``mime`` over the map and drop it on ``at``: whether the map accepted
    the drag and the drop."""
    view = window.map_view
    pos = view.camera.hex_center(at)
    actions = Qt.DropAction.CopyAction
    enter = QDragEnterEvent(
        QPoint(round(pos.x()), round(pos.y())),
        actions,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    enter.setAccepted(False)
    QApplication.sendEvent(view, enter)
    drop = QDropEvent(
        QPointF(pos), actions, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    drop.setAccepted(False)
    QApplication.sendEvent(view, drop)
    return enter.isAccepted(), drop.isAccepted()


def free_hex(window: MainWindow) -> Hex:
    state = window.controller.state
    taken = {c.hex for c in state.combatants}
    return next(h for h in state.grid.hexes() if h not in taken and h.to_offset() == (2, 3))


def test_a_gcs_file_dropped_on_a_free_hex_joins_there_after_the_report(
    window: MainWindow, qtbot: object, mime_for: list[QMimeData]
) -> None:
    reports = Reports(window, Side.BLUE)
    target = free_hex(window)
    accepted = drag_and_drop(window, files_mime(mime_for, FIXTURES / "two_handed_v4.gcs"), target)
    assert accepted == (True, True)
    qtbot.waitUntil(lambda: len(reports.plans) == 1)  # type: ignore[attr-defined]
    (plan,) = reports.plans
    assert (plan.result.fighter.name, plan.updates) == ("Brunhild", None)
    command = window.controller.battle.commands[-1]
    assert isinstance(command, AddCombatant)
    joined = window.controller.state.combatant(command.combatant.id)
    assert (joined.name, joined.hex, joined.side) == ("Brunhild", target, Side.BLUE)
    assert reports.problems == []


def test_a_file_dropped_on_a_fighter_joins_in_the_nearest_free_hex(
    window: MainWindow, qtbot: object, mime_for: list[QMimeData]
) -> None:
    reports = Reports(window, Side.RED)
    before = window.controller.state
    occupied = before.combatants[0].hex
    expected = nearest_free_hex(before, occupied)
    assert expected is not None and expected != occupied
    drag_and_drop(window, files_mime(mime_for, FIXTURES / "no_weapons_v3.gcs"), occupied)
    qtbot.waitUntil(lambda: len(window.controller.state.combatants) == len(before.combatants) + 1)  # type: ignore[attr-defined]
    joined = window.controller.state.combatants[-1]
    assert (joined.name, joined.hex, joined.side) == ("Quill the Scribe", expected, Side.RED)
    assert len(reports.plans) == 1


def test_cancelling_the_report_of_a_drop_adds_nobody(
    window: MainWindow, qtbot: object, mime_for: list[QMimeData]
) -> None:
    reports = Reports(window, None)
    before = window.controller.state
    drag_and_drop(window, files_mime(mime_for, FIXTURES / "fencer_v2.gcs"), free_hex(window))
    qtbot.waitUntil(lambda: len(reports.plans) == 1)  # type: ignore[attr-defined]
    assert window.controller.state == before


def test_a_refused_gcs_file_is_named_and_other_files_are_not_taken(
    window: MainWindow, qtbot: object, mime_for: list[QMimeData], tmp_path: Path
) -> None:
    reports = Reports(window, Side.RED)
    before = window.controller.state
    drag_and_drop(window, files_mime(mime_for, FIXTURES / "version1.gcs"), free_hex(window))
    qtbot.waitUntil(lambda: len(reports.problems) == 1)  # type: ignore[attr-defined]
    assert reports.problems[0].startswith("version1.gcs cannot be imported: this is a version 1")
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a character", encoding="utf-8")
    assert drag_and_drop(window, files_mime(mime_for, text_file), free_hex(window)) == (
        False,
        False,
    )
    QApplication.processEvents()
    assert reports.plans == [] and len(reports.problems) == 1
    assert window.controller.state == before
