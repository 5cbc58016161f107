"""The window's demo battle starts with its turn order (rules.battle.turns): at
start-up once the first frame is up (the order needs the ruleset, which the first
frame does not load) and on File ▸ New Demo Battle."""

from __future__ import annotations

from app.event_text import Tone, rows_for_events
from app.main_window import MainWindow, load_demo_battle
from app.rulesets import ruleset_ui
from hexmap import Facing
from rules.battle.commands import EndTurn, TurnCombatant
from rules.battle.turns import upcoming


def test_the_demo_battle_starts_with_its_turn_order() -> None:
    battle = load_demo_battle(7, turn_order=True)
    state = battle.state
    assert battle.commands == () and state is battle.initial
    # Basic Speed: the fencer (6.25) first, the spearman (6, DX 13) next; the other
    # two (6, DX 12) by the dice of the battle's seed.
    assert state.initiative[:2] == ("c4", "c2") and set(state.initiative[2:]) == {"c1", "c3"}
    assert state.active_id == "c4" and state.round == 1
    assert upcoming(state) == state.initiative[1:]
    assert load_demo_battle(7, turn_order=True).initial == state  # the same seed, the same order
    assert not load_demo_battle(7).state.turns_running  # scripts and benchmarks: no order


def test_new_demo_battle_starts_with_the_turn_order(main_window: MainWindow) -> None:
    main_window.new_demo_action.trigger()
    state = main_window.controller.state
    assert state.turns_running and state.active_id == state.initiative[0]
    assert main_window.controller.battle.commands == ()


def test_the_log_marks_an_override_and_a_fighter_s_turn() -> None:
    battle = load_demo_battle(7, turn_order=True)
    other = battle.state.initiative[1]
    events = battle.execute(TurnCombatant(other, Facing.N, gm_override=True))
    events += battle.execute(EndTurn())
    rows = rows_for_events(events, ruleset_ui("000").log_formatter)
    tones = {row.lines[0].text: row.lines[0].tone for row in rows}
    overridden = next(t for t in tones if t.startswith("GM override (turn): it is Fencer's turn"))
    assert tones[overridden] is Tone.NOTE
    assert tones["Round 1: Spearman's turn"] is Tone.TITLE
