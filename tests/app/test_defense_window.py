"""The defender's answer in the window (issue 25, app.defense_answers): a GM's
fighter attacked by a computer fighter under auto-play gets the answer dialog
(unless the Preferences let the computer choose its defenses), and the GM
attacking a computer fighter from the attack pane gets the computer's own answer,
shown as its choice with its reason, and logged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.controller import BattleController
from app.defense_answers import AnswerDialog
from app.main_window import MainWindow
from app.panes.attack_form import AttackFormPane
from hexmap import Facing, Hex
from rules.battle.battle import Battle
from rules.battle.catalog import load_demo_battle
from rules.battle.commands import Attack
from rules.battle.control import SetControllers
from rules.battle.savefile import read_battle
from rules.battle.state import BattleState
from rules.play.defense import DEFAULT_DEFENDER, AnswerOdds, DefendedDecision, choose_answer
from rules.play.policies import AGGRESSIVE, CAREFUL
from rules.sets.registry import get_ruleset
from rules.sets.seed000.attack import NO_DEFENSE
from tests.app.turn_order_window import shown_window

BATTLES = Path(__file__).resolve().parents[2] / "assets" / "battles"


def face_off() -> Battle:
    """The sword-and-shield fighter (c1, to act) facing the fencer (c4) of the seed
    000 catalog demo, each within the other's reach."""
    grid, combatants = load_demo_battle()
    by_id = {c.id: c for c in combatants}
    attacker = replace(by_id["c1"], hex=Hex(5, 6), facing=Facing.N)
    defender = replace(by_id["c4"], hex=Hex(5, 5), facing=Facing.S)
    state = BattleState(grid, (attacker, defender), initiative=("c1", "c4"), active_id="c1")
    return Battle(state, 1, get_ruleset)


def window_on(qtbot: QtBot, battle: Battle, settings: QSettings) -> MainWindow:
    return shown_window(qtbot, BattleController(battle), settings)


def step_until_an_attack(window: MainWindow, qtbot: QtBot, steps: int = 6) -> Attack:
    """Step auto-play until the computer's fighter has attacked; that attack."""
    battle = window.controller.battle
    for _ in range(steps):
        window.auto_play.step_action.trigger()
        # the decision is worked out on the worker thread: wait for its commands
        qtbot.waitUntil(lambda: not window.auto_play.running, timeout=60_000)
        attacks = [c for c in battle.commands if isinstance(c, Attack)]
        if attacks:
            return attacks[-1]
    raise AssertionError("no attack")


def note_texts(window: MainWindow) -> list[str]:
    return [line.text for row in window.log_pane.rows for line in row.lines]


def test_a_gm_fighter_attacked_under_auto_play_gets_the_answer_dialog(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    window = window_on(qtbot, face_off(), settings)
    window.controller.execute(SetControllers((("c1", AGGRESSIVE),)))  # c4 stays the GM's
    asked: list[tuple[list[str], int, list[str]]] = []

    def dodge(dialog: AnswerDialog) -> AnswerOdds:
        assert dialog.list.currentRow() == dialog.default_index  # the default focused
        # read while it lives: the dialog is deleted once answered
        texts = [dialog.list.item(i).text() for i in range(dialog.list.count())]
        asked.append(([o.words for o in dialog.options], dialog.default_index, texts))
        dialog.choose(next(i for i, o in enumerate(dialog.options) if o.words == "dodge"))
        chosen.append(dialog.chosen)
        return dialog.chosen

    chosen: list[AnswerOdds] = []
    window.defense_answers.ask = dodge
    attack = step_until_an_attack(window, qtbot)
    assert len(asked) == 1
    words, default_index, texts = asked[0]
    # Each answer with its chance to be hit, the likeliest first, the default focused.
    assert words[0].startswith("parry with the ") and "dodge" in words
    assert words[default_index] == "no defense"  # seed 000's default answer
    assert all("% to be hit" in t for t in texts)
    assert texts[default_index].endswith("(default)")
    assert attack.answer == chosen[0].answer  # in the command: saved and replayed as it is


def test_cancelling_the_dialog_gives_the_default_answer(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    window = window_on(qtbot, face_off(), settings)
    window.controller.execute(SetControllers((("c1", AGGRESSIVE),)))
    pressed: list[str] = []

    def press_escape(dialog: AnswerDialog) -> AnswerOdds:
        # shown as the GM sees it, then cancelled as Esc or Cancel does
        dialog.show()
        pressed.append(dialog.objectName())
        dialog.reject()
        assert not dialog.isVisible()
        return dialog.chosen

    window.defense_answers.ask = press_escape
    attack = step_until_an_attack(window, qtbot)
    assert pressed == ["defenseAnswerDialog"]
    assert attack.answer == NO_DEFENSE  # seed 000's default answer


def test_with_the_preference_the_computer_defends_the_gm_s_fighter(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    window = window_on(qtbot, face_off(), settings)
    window.set_preferences(replace(window.preferences, computer_defends=True))
    window.controller.execute(SetControllers((("c1", AGGRESSIVE),)))

    def never(dialog: AnswerDialog) -> AnswerOdds:
        raise AssertionError("the dialog was shown")

    window.defense_answers.ask = never
    battle = window.controller.battle
    attack = step_until_an_attack(window, qtbot)
    done = battle.commands.index(attack)
    before = Battle.replay(
        battle.initial,
        battle.seed,
        battle.commands[:done],
        battle.dice_log[:done],
        rulesets=get_ruleset,
    ).state
    expected = choose_answer(get_ruleset(), before, replace(attack, answer=None), DEFAULT_DEFENDER)
    assert expected is not None and attack.answer == expected.answer
    assert expected.reason.startswith("Fencer (aggressive) ")
    assert expected.reason in note_texts(window)


def test_the_gm_attacking_a_computer_fighter_from_the_pane_gets_its_own_answer(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    window = window_on(qtbot, face_off(), settings)
    window.controller.execute(SetControllers((("c4", CAREFUL),)))  # the fencer is the computer's
    window.controller.select("c1")
    window.controller.set_target("c4")
    pane = window.attack_pane
    pane.refresh()  # type: ignore[attr-defined]
    state = window.controller.state
    command = pane.command()  # type: ignore[attr-defined]
    assert isinstance(command, Attack)
    expected = choose_answer(get_ruleset(), state, replace(command, answer=None), CAREFUL)
    assert expected is not None and command.answer == expected.answer
    assert expected.reason.startswith("Fencer (careful) parries with the ")
    # Shown as the computer's choice: its defenses ticked and greyed, its reason over Roll.
    assert expected.reason in pane.notice_label.text()  # type: ignore[attr-defined]
    parry = pane.parry_check  # type: ignore[attr-defined]
    assert parry.isChecked() and not parry.isEnabled()
    assert "The computer's choice" in parry.toolTip()
    pane.roll()  # type: ignore[attr-defined]
    rolled = window.controller.battle.commands[-1]
    assert isinstance(rolled, Attack) and rolled.answer == expected.answer
    assert expected.reason in note_texts(window)
    # The GM's own fighter again: the GM ticks its defenses.
    window.controller.execute(SetControllers((("c4", None),)))
    pane.refresh()  # type: ignore[attr-defined]
    assert pane.parry_check.isEnabled()  # type: ignore[attr-defined]


@pytest.mark.parametrize("key", ["002", "003", "004"])
def test_the_generic_pane_takes_a_computer_defender_s_answer(
    key: str, qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    text = (BATTLES / f"demo-{key}.hexfray").read_text(encoding="utf-8")
    battle = read_battle(text, rulesets=get_ruleset)
    state = battle.state
    ruleset = get_ruleset(state.ruleset_key, state.ruleset_options)
    attacker = state.combatant(state.active_id) if state.active_id else state.combatants[0]
    defender = next(c for c in state.combatants if c.side is not attacker.side)
    # Face to face, the defender in front of the attacker.
    near = attacker.hex + attacker.facing.vector
    turned = replace(defender, hex=near, facing=attacker.facing.opposite())
    battle = Battle(state.with_combatants(turned), 1, get_ruleset)
    window = window_on(qtbot, battle, settings)
    window.controller.execute(SetControllers(((defender.id, AGGRESSIVE),)))
    window.controller.select(attacker.id)
    window.controller.set_target(defender.id)
    pane = window.attack_pane
    assert isinstance(pane, AttackFormPane)
    pane.refresh()
    command = pane.command()
    assert isinstance(command, Attack), pane.error
    chosen = choose_answer(
        ruleset, window.controller.state, replace(command, answer=None), AGGRESSIVE
    )
    assert chosen is not None and command.answer == chosen.answer
    assert chosen.reason in pane.notice_label.text()
    # The box that holds the defender's answer shows the computer's, greyed.
    form = pane.form
    assert form is not None
    greyed = [f.key for f in form.fields if not pane.field_widget(f.key).isEnabled()]
    assert greyed
    assert all("The computer's choice" in pane.field_widget(k).toolTip() for k in greyed)
    pane.roll()
    rolled = window.controller.battle.commands[-1]
    assert isinstance(rolled, Attack) and rolled.answer == chosen.answer
    assert chosen.reason in note_texts(window)


def test_a_computer_defender_under_auto_play_answers_itself_and_the_log_says_why(
    qtbot: QtBot, qapp: QApplication, settings: QSettings
) -> None:
    window = window_on(qtbot, face_off(), settings)
    window.controller.execute(SetControllers((("c1", AGGRESSIVE), ("c4", CAREFUL))))

    def never(dialog: AnswerDialog) -> AnswerOdds:
        raise AssertionError("the dialog was shown")

    window.defense_answers.ask = never
    attack = step_until_an_attack(window, qtbot)
    assert attack.answer is not None
    decision = window.auto_play.last_decision
    assert isinstance(decision, DefendedDecision) and decision.answers
    reason = decision.answers[0].reason
    assert reason.startswith("Fencer (careful) ")
    texts = note_texts(window)
    # The attacker's reason, then the defender's, before the attack's events.
    assert texts.index(decision.reason) + 1 == texts.index(reason)
