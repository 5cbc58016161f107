"""The side names typed in New Battle are used everywhere (issue 22): the attack
panes' combos, the combatants' tooltips, the inspector and the map's tooltip say
"Knights", never the side's colour key "red"; and the log's separators say
"Round", as its entries and the turn tracker do."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from app.event_text import LogRow, RowKind
from app.main_window import MainWindow
from app.new_battle import NewBattleSetup, new_battle
from rules.battle.commands import EndTurn
from rules.battle.model import Side
from rules.battle.sides import SideSetup
from rules.battle.turns import StartTurns
from rules.sets.registry import ruleset_keys
from tests.app.own_home import use_own_home

SIDES = (SideSetup(Side.RED, "Knights", "#aa2211"), SideSetup(Side.BLUE, "Raiders", "#2244aa"))
NAMES = {Side.RED: "Knights", Side.BLUE: "Raiders"}


@pytest.fixture
def window(main_window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> MainWindow:
    use_own_home(tmp_path, monkeypatch)
    return main_window


def combo_texts(pane: object, name: str) -> list[str]:
    combo = pane.findChild(QComboBox, name)  # type: ignore[attr-defined]
    assert isinstance(combo, QComboBox), name
    return [combo.itemText(i) for i in range(1, combo.count())]  # past the placeholder


def row_texts(row: LogRow) -> list[str]:
    return [text for line in row.lines for text in (line.text, line.detail)]


@pytest.mark.parametrize("key", ruleset_keys())
def test_the_battles_side_names_are_used_everywhere(window: MainWindow, key: str) -> None:
    window.replace_battle(new_battle(NewBattleSetup(24, 16, key, (), SIDES, 4242, 2)))
    controller = window.controller
    state = controller.state
    first, last = state.combatants[0], state.combatants[-1]
    assert first.side is not last.side
    controller.select(first.id)
    controller.set_target(last.id)
    attackers = combo_texts(window.attack_pane, "attackerCombo")
    targets = combo_texts(window.attack_pane, "targetCombo")
    assert attackers == [f"{c.name} – {NAMES[c.side]}" for c in state.combatants]
    ally = {c.id: " · ally" if c.side is first.side else "" for c in state.combatants}
    assert targets == [f"{c.name} – {NAMES[c.side]}{ally[c.id]}" for c in state.combatants[1:]]
    model = window.combatants_pane.model
    for row, c in enumerate(state.combatants):
        tooltip = model.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
        assert f"{c.name} ({NAMES[c.side]})" in tooltip
        assert f"{c.name} — {NAMES[c.side]}," in window.map_view.describe_hex(c.hex)
    assert window.inspector_pane.place_label.text().startswith(f"{NAMES[first.side]} · ")
    shown = [*attackers, *targets, window.inspector_pane.place_label.text()]
    assert not any(side.value in text.split() for text in shown for side in Side)


def test_the_logs_separators_say_round_as_its_entries_do(window: MainWindow) -> None:
    controller = window.controller
    controller.execute(EndTurn())
    controller.execute(StartTurns())
    log = window.log_pane
    separators = [row for row in log.rows if row.kind is RowKind.TURN]
    assert [row.title for row in separators] == ["Round 1", "Round 2"]
    assert separators[-1].lines[0].detail == "— Round 2 begins —"
    entries = [line.text for row in log.rows for line in row.lines]
    assert any(text.startswith("Round 2: ") for text in entries)  # whose turn it is
    assert not any(re.match(r"(— )?Turn \d", text) for row in log.rows for text in row_texts(row))
    assert window.tracker_pane.round_label.text().startswith("Round 2")
    assert window.selection_label.text().startswith("Round 2")
