"""The combat log pane on a long evening: filter and search, export, copying one
entry, undo and redo, and a log of thousands of rows.

Expected rows are built from the battle's own events (``app.event_text``), never
copied by hand; no test is timed (the speed is ``log_append_ms_at_5000`` of
``main.py --benchmark``).
"""

from __future__ import annotations

import html.parser
from dataclasses import replace
from html import escape

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from app.controller import BattleController, plan_redraw
from app.event_text import LogLine, LogRow, RowKind, Tone, rows_for_events, turn_separator
from app.log_export import ExportFormat, export_log, log_html, log_markdown, markdown_text
from app.panes.combat_log import CombatLogPane, LogFilter
from app.rulesets import ruleset_ui
from hexmap import Hex
from rules.battle.battle import Battle, BattleChange, ChangeKind
from rules.battle.command_events import Moved
from rules.battle.commands import EndTurn, MoveCombatant
from rules.battle.turns import StartTurns, TurnBegan
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import AttackOptions
from rules.sets.seed000.attack_steps import attack_command
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from tests.app.demo_panes import SEED, demo_controller, demo_state, show_pane

LOG = ruleset_ui("000").log_formatter


@pytest.fixture
def controller(qtbot) -> BattleController:  # qtbot: the QApplication exists
    return demo_controller()


@pytest.fixture
def pane(qtbot, controller) -> CombatLogPane:
    log_pane = CombatLogPane(controller)
    show_pane(qtbot, log_pane, 300, 400)
    return log_pane


def step(controller: BattleController, who: str, dq: int = 0, dr: int = 1) -> None:
    here = controller.state.combatant(who).hex
    assert controller.execute(MoveCombatant(who, here + Hex(dq, dr))) is not None


def attack_c1_on_c3(controller: BattleController) -> None:
    """The sword-and-shield fighter (c1) steps next to the flail fighter (c3) and
    swings at it."""
    c3 = controller.state.combatant("c3")
    controller.execute(MoveCombatant("c1", c3.hex + Hex(0, -1)))
    options = AttackOptions("broadsword", "swing", defenses=(DefenseChoice(DefenseKind.BLOCK),))
    assert controller.execute(attack_command("c1", "c3", options)) is not None


def expected_rows(battle: Battle) -> tuple[LogRow, ...]:
    rows = [turn_separator(battle.initial.turn)]
    for batch in battle.event_batches:
        rows.extend(rows_for_events(batch, LOG))
    return tuple(rows)


def names(row: LogRow, combatant: str) -> bool:
    return any(combatant in event.involved_combatants() for event in row.events)


def entries(rows: list[LogRow] | tuple[LogRow, ...]) -> list[LogRow]:
    return [r for r in rows if r.kind is not RowKind.TURN]


def evening(controller: BattleController) -> None:
    """Moves of two fighters, an attack, a new turn and a move of c2 only."""
    step(controller, "c2")
    attack_c1_on_c3(controller)
    controller.execute(EndTurn())
    step(controller, "c2", 0, -1)


# --- filter and search ------------------------------------------------------------


def test_the_combatant_box_lists_everyone_then_each_fighter(pane, controller):
    box = pane.combatant_box
    assert box.itemText(0) == "Everyone" and box.itemData(0) is None
    listed = [(box.itemData(i), box.itemText(i)) for i in range(1, box.count())]
    assert listed == [(c.id, c.fighter.name) for c in controller.state.combatants]


@pytest.mark.parametrize("combatant", ["c1", "c2", "c3"])
def test_filter_by_combatant_shows_the_entries_naming_it(pane, controller, combatant):
    evening(controller)
    box = pane.combatant_box
    box.setCurrentIndex(box.findData(combatant))
    shown = pane.shown_rows()
    expected = [r for r in pane.rows if r.kind is not RowKind.TURN and names(r, combatant)]
    assert expected, "the evening names every one of these fighters"
    assert entries(shown) == expected
    # A turn heading shows only above entries that pass.
    for above, below in zip(shown, [*shown[1:], None], strict=True):
        if above.kind is RowKind.TURN:
            assert below is not None and below.kind is not RowKind.TURN
    total = len(entries(pane.rows))
    assert pane.count_label.text() == f"{len(expected)} of {total} entries"
    box.setCurrentIndex(0)
    assert pane.shown_rows() == list(pane.rows)
    assert pane.count_label.text() == f"{total} entries"


def test_the_combatant_filter_reads_the_ids_not_the_text(pane, controller):
    """A row whose text mentions a fighter but whose events do not name it stays
    out; a row whose events name it shows whatever its text says."""
    c2_name = controller.state.combatant("c2").fighter.name
    event = Moved(combatant_id="c1", name="x", path=(Hex(0, 0), Hex(0, 1)))
    mention = LogLine(f"{c2_name} watches", "", Tone.PLAIN, event, "")
    named = LogLine("somebody moves", "", Tone.PLAIN, event, "")
    mentioning = LogRow(RowKind.EVENT, (mention,), (), ("c1",))
    naming = LogRow(RowKind.EVENT, (named,), (), ("c2",))
    pane.entries.put_command(0, [mentioning, naming])
    pane.set_filter(LogFilter(combatant="c2"))
    assert entries(pane.shown_rows()) == [naming]


def test_search_is_live_and_ignores_case(qtbot, pane, controller):
    evening(controller)
    qtbot.keyClicks(pane.search_box, "MOVES")
    shown = entries(pane.shown_rows())
    expected = [
        r for r in entries(pane.rows) if any("moves" in line.plain.lower() for line in r.lines)
    ]
    assert shown == expected and 0 < len(shown) < len(entries(pane.rows))
    pane.search_box.clear()
    assert pane.shown_rows() == list(pane.rows)


def test_search_and_combatant_filter_combine(pane, controller):
    evening(controller)
    pane.set_filter(LogFilter(combatant="c2", text="moves"))
    shown = entries(pane.shown_rows())
    assert shown and all(names(r, "c2") and "moves" in r.plain_text().lower() for r in shown)
    assert not any(names(r, "c1") and not names(r, "c2") for r in shown)


def test_a_filtered_log_keeps_up_with_new_entries_and_turns(pane, controller):
    pane.set_filter(LogFilter(combatant="c1"))
    step(controller, "c2")
    assert entries(pane.shown_rows()) == []
    controller.execute(EndTurn())
    assert pane.shown_rows() == []  # no heading over no entries
    step(controller, "c1")  # the first of c1's entries in round 2 brings its heading
    shown = pane.shown_rows()
    assert [r.title for r in shown if r.kind is RowKind.TURN] == ["Round 2"]
    assert shown[-1] == pane.rows[-1]


# --- export -----------------------------------------------------------------------

TRICKY = "a <b>bold</b> & *star* _under_ `tick` [link](x) | pipe ~strike~"


def tricky_rows() -> list[LogRow]:
    event = Moved(combatant_id="c1", name="x", path=(Hex(0, 0), Hex(0, 1)))
    first = LogLine(TRICKY, "000 <CITE> & co", Tone.TITLE, event, TRICKY)
    second = LogLine("# not a heading", "", Tone.PLAIN, event, "")
    third = LogLine("12. not a list", "", Tone.NOTE, event, "")
    row = LogRow(RowKind.ATTACK, (first, second, third), (), ("c1",))
    return [turn_separator(3), row]


class _TextOf(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_export_escapes_every_text():
    page = log_html(tricky_rows(), note="Only <these> & those")
    parsed = _TextOf()
    parsed.feed(page)
    assert "b" not in parsed.tags  # the row's "<b>" stayed text
    text = "".join(parsed.text)
    assert TRICKY in text
    assert "000 <CITE> & co" in text and "Only <these> & those" in text
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; *star*" in page
    assert "<h2>Round 3</h2>" in page
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page


def test_markdown_export_escapes_markup():
    text = log_markdown(tricky_rows())
    assert "## Round 3" in text
    assert (
        r"- **a \<b\>bold\</b\> \& \*star\* \_under\_ \`tick\` \[link\](x) \| pipe \~strike\~**"
        in text
    )
    assert r"  - \# not a heading" in text
    assert r"  - *12\. not a list*" in text
    assert markdown_text("- a dash") == r"\- a dash"
    assert markdown_text("-3 penalty") == "-3 penalty"  # not a list marker


def test_export_writes_the_whole_log_with_turn_headings(tmp_path, pane, controller):
    evening(controller)
    markdown, page = tmp_path / "log.md", tmp_path / "log.html"
    pane.export_to(markdown, ExportFormat.MARKDOWN)
    pane.export_to(page, ExportFormat.HTML)
    md_lines = markdown.read_text(encoding="utf-8").splitlines()
    html_text = page.read_text(encoding="utf-8")
    expected_md: list[str] = []
    for row in pane.rows:
        if row.kind is RowKind.TURN:
            expected_md.append(f"## {markdown_text(row.title)}")
            assert f"<h2>{escape(row.title)}</h2>" in html_text
            continue
        for depth, line in enumerate(row.lines):
            bullet = ("  " if depth else "") + "- "
            expected_md.append(
                next(m for m in md_lines if m.startswith(bullet) and markdown_text(line.text) in m)
            )
            assert escape(line.text) in html_text
    written = [m for m in md_lines if m.startswith(("#", "-", "  -")) and m != "# Combat log"]
    assert written == expected_md  # every row, in the log's order


def test_export_heads_each_fighters_turn_once_the_turn_order_runs(tmp_path, pane, controller):
    controller.execute(StartTurns())
    controller.execute(EndTurn())
    began = [r for r in pane.rows if isinstance(r.lines[0].event, TurnBegan)]
    assert len(began) >= 2
    markdown = log_markdown(list(pane.rows))
    page = log_html(list(pane.rows))
    for row in began:
        assert f"\n### {markdown_text(row.title)}\n" in markdown
        assert f"<h3>{escape(row.title)}</h3>" in page
    assert f"- {markdown_text(began[0].title)}" not in markdown


def test_export_of_a_filtered_log_holds_what_is_shown_and_says_so(tmp_path, pane, controller):
    evening(controller)
    pane.set_filter(LogFilter(combatant="c2"))
    path = tmp_path / "c2.md"
    pane.export_to(path, ExportFormat.MARKDOWN)
    written = path.read_text(encoding="utf-8")
    c2_name = controller.state.combatant("c2").fighter.name
    assert written == log_markdown(pane.shown_rows(), f"Only the entries naming {c2_name}")
    assert c2_name in written and "Only the entries naming" in written
    hidden = [r for r in entries(pane.rows) if not names(r, "c2")]
    assert hidden and all(markdown_text(r.title) not in written for r in hidden)


def test_export_function_writes_utf8(tmp_path):
    path = tmp_path / "x.html"
    export_log(path, tricky_rows(), ExportFormat.HTML)
    assert path.read_text(encoding="utf-8") == log_html(tricky_rows())


def test_the_export_dialog_says_whether_the_filter_applies(tmp_path, monkeypatch, pane, controller):
    evening(controller)
    asked: list[str] = []
    target = tmp_path / "chosen"

    def fake_dialog(parent, caption, name, filters):
        asked.append(caption)
        return str(target), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", fake_dialog)
    pane.export_html_action.trigger()
    assert asked[-1].startswith("Export the whole combat log")
    assert target.with_suffix(".html").read_text(encoding="utf-8") == log_html(list(pane.rows))
    pane.set_filter(LogFilter(text="moves"))
    pane.export_markdown_action.trigger()
    assert "entries shown" in asked[-1] and "filter" in asked[-1]
    assert target.with_suffix(".md").read_text(encoding="utf-8") == log_markdown(
        pane.shown_rows(), pane.filter_note()
    )


# --- copy one entry ---------------------------------------------------------------


def select(pane: CombatLogPane, shown_row: int) -> None:
    pane.view.selectionModel().select(
        pane.model.index(shown_row, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )


def test_ctrl_c_copies_the_selected_entry_of_a_filtered_log(qtbot, pane, controller):
    evening(controller)
    pane.set_filter(LogFilter(combatant="c3"))
    attack = next(i for i, r in enumerate(pane.shown_rows()) if r.kind is RowKind.ATTACK)
    pane.view.setFocus()
    select(pane, attack)
    QApplication.clipboard().clear()
    qtbot.keyClick(pane.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    row = pane.shown_rows()[attack]
    assert QApplication.clipboard().text() == row.plain_text()


def test_the_context_menu_copies_the_entry(pane, controller):
    evening(controller)
    menu = pane.context_menu()
    texts = [a.text().replace("&", "") for a in menu.actions() if not a.isSeparator()]
    assert texts[0] == "Copy" and "Export as Markdown…" in texts and "Export as HTML…" in texts
    select(pane, 1)
    menu.actions()[0].trigger()
    assert QApplication.clipboard().text() == pane.shown_rows()[1].plain_text()


# --- undo and redo ----------------------------------------------------------------


def test_undo_drops_the_commands_rows_and_redo_brings_them_back(pane, controller):
    """With the battle's own undo and redo."""
    evening(controller)
    full = pane.rows
    assert full == expected_rows(controller.battle)
    for _ in range(3):  # the last move, the end of the turn, the attack
        assert controller.undo() is not None
        assert pane.rows == expected_rows(controller.battle)
    assert len(pane.rows) < len(full) - 2
    for _ in range(3):
        assert controller.redo() is not None
    assert pane.rows == full
    assert pane.count_label.text() == f"{len(entries(full))} entries"


def test_row_groups_follow_changes_by_command_index(pane, controller):
    """With changes made by hand (the kind and index are all the log reads)."""
    changes: list[BattleChange] = []
    controller.battle.subscribe(changes.append)
    evening(controller)
    attack = next(
        c for c in changes if any(r.kind is RowKind.ATTACK for r in rows_for_events(c.events, LOG))
    )
    full = pane.rows
    for change in reversed(changes[attack.index :]):
        undone = replace(change, kind=ChangeKind.UNDONE)
        controller.battle_changed.emit(undone, plan_redraw(undone, None))
    before_attack = pane.rows
    assert before_attack == full[: len(before_attack)]
    assert not any(r.kind is RowKind.ATTACK for r in before_attack)
    for change in changes[attack.index :]:
        redone = replace(change, kind=ChangeKind.REDONE)
        controller.battle_changed.emit(redone, plan_redraw(redone, None))
    assert pane.rows == full
    # A new command after an undo replaces the rows of the one taken back.
    last = changes[-1]
    controller.battle_changed.emit(replace(last, kind=ChangeKind.UNDONE), plan_redraw(last, None))
    other = replace(changes[0], index=last.index)
    controller.battle_changed.emit(other, plan_redraw(other, None))
    assert pane.rows == (*full[: len(full) - 1], *rows_for_events(changes[0].events, LOG))


def test_undo_under_a_filter_hides_an_emptied_turn(pane, controller):
    evening(controller)
    pane.set_filter(LogFilter(combatant="c2"))
    assert [r.title for r in pane.shown_rows() if r.kind is RowKind.TURN] == ["Round 1", "Round 2"]
    controller.undo()  # c2's only move of round 2
    assert [r.title for r in pane.shown_rows() if r.kind is RowKind.TURN] == ["Round 1"]


def test_a_new_battle_redraws_the_log(pane, controller):
    evening(controller)
    fresh = Battle(demo_state(), SEED, get_ruleset)
    fresh.execute(MoveCombatant("c4", fresh.state.combatant("c4").hex + Hex(0, 1)))
    controller.replace_battle(fresh)
    assert pane.rows == expected_rows(fresh)
    assert pane.model.rowCount() == len(pane.rows)


# --- a long evening -----------------------------------------------------------------


def replay_pane(
    qtbot, controller: BattleController
) -> tuple[list[BattleChange], BattleController, CombatLogPane]:
    """An evening and an attack played on ``controller`` (their changes, in order),
    and a hidden 300 × 400 log pane on a second controller (the emitter) that the
    test sends those changes to, as many times over as it likes."""
    changes: list[BattleChange] = []
    controller.battle.subscribe(changes.append)
    evening(controller)
    attack_c1_on_c3(controller)
    emitter = demo_controller()
    log_pane = CombatLogPane(emitter)
    qtbot.addWidget(log_pane)
    log_pane.resize(300, 400)
    return changes, emitter, log_pane


def test_five_thousand_rows_then_more_each_appended_once_with_its_height(qtbot, controller):
    changes, emitter, log_pane = replay_pane(qtbot, controller)
    index = 0
    expected = [turn_separator(1)]

    def append_next() -> None:
        nonlocal index
        change = replace(changes[index % len(changes)], index=index)
        expected.extend(rows_for_events(change.events, LOG))
        emitter.battle_changed.emit(change, plan_redraw(change, None))
        index += 1

    while log_pane.model.rowCount() < 5_000:  # hidden: measured when it shows
        append_next()
    log_pane.show()
    qtbot.waitExposed(log_pane)
    for _ in range(25):
        append_next()
    assert log_pane.rows == tuple(expected)
    assert log_pane.model.rowCount() == len(expected) > 5_000
    header = log_pane.view.verticalHeader()
    assert header.count() == len(expected)
    shown = log_pane.shown_rows()
    delegate = log_pane.delegate
    top = log_pane.view.rowAt(0)
    on_screen = range(top, len(expected))
    assert 0 < len(on_screen) < 100
    for shown_row in on_screen:  # the new rows and the rest of the screen: measured
        assert header.sectionSize(shown_row) == delegate.exact_height(shown[shown_row])
    # The rows above are measured while the program is idle, nearest first.
    qtbot.waitUntil(lambda: log_pane.row_heights.estimated == 0, timeout=60_000)
    for shown_row in (0, 1, len(expected) // 3, len(expected) // 2, top - 1):
        assert header.sectionSize(shown_row) == delegate.exact_height(shown[shown_row])
    assert log_pane.count_label.text() == f"{len(entries(expected))} entries"
    bar = log_pane.view.verticalScrollBar()
    assert bar.value() == bar.maximum() > 0


def test_a_new_width_measures_every_row_again_keeping_the_screen(qtbot, controller):
    changes, emitter, log_pane = replay_pane(qtbot, controller)
    for index in range(600):
        change = replace(changes[index % len(changes)], index=index)
        emitter.battle_changed.emit(change, plan_redraw(change, None))
    log_pane.show()
    qtbot.waitExposed(log_pane)
    qtbot.waitUntil(lambda: log_pane.row_heights.estimated == 0, timeout=60_000)
    view, header = log_pane.view, log_pane.view.verticalHeader()
    bar = view.verticalScrollBar()
    bar.setValue(bar.maximum() // 2)  # reading somewhere in the middle
    top_row = view.rowAt(0)
    offset = view.rowViewportPosition(top_row)
    heights_before = [header.sectionSize(r) for r in range(header.count())]
    log_pane.resize(200, 400)  # narrower: rows wrap to more lines
    qtbot.waitUntil(lambda: log_pane.row_heights.estimated == 0, timeout=60_000)
    shown = log_pane.shown_rows()
    heights = [header.sectionSize(r) for r in range(header.count())]
    assert heights == [log_pane.delegate.exact_height(row) for row in shown]
    assert sum(heights) > sum(heights_before)
    assert view.rowAt(0) == top_row  # the rows measured above did not move the screen
    assert abs(view.rowViewportPosition(top_row) - offset) <= heights[top_row]
