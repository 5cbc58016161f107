"""The generic attack pane (app.panes.attack_form.AttackFormPane) over a seed 000
battle, with a small ``FormAttacks`` written here: its fields are the attacker's
weapon, the weapon's mode (which depends on the weapon), the defender's defense
and a "from below" flag, and its choices are seed 000 ``AttackOptions``. So the
pane is tested on its own, before any ruleset of issue 12 answers a form."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from html import escape

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel

from app.controller import BattleController
from app.panes import attack_form as attack_form_module
from app.panes.attack_form import AttackFormPane, exact_text, percent
from rules.battle.battle import Battle
from rules.battle.commands import Attack, MoveCombatant, TurnCombatant
from rules.battle.state import BattleState
from rules.core.errors import IllegalAttackError
from rules.sets.attack_form import (
    FLAG_OFF,
    FLAG_ON,
    AttackForm,
    FormAttacks,
    FormChoice,
    FormField,
)
from rules.sets.registry import get_ruleset, ruleset_of
from rules.sets.seed000.attack import AttackOptions, Seed000Answer
from rules.sets.seed000.defense import DefenseChoice
from rules.sets.seed000.defense_kinds import DefenseKind
from tests.app.demo_panes import SEED, demo_state
from tests.app.form_ui_checks import combo

OUT_OF_REACH = "out of reach"


def _pick(entries: Mapping[str, str], key: str, allowed: list[str]) -> str:
    wanted = entries.get(key)
    return wanted if wanted in allowed else allowed[0]


class WeaponForm:
    """Weapon, then its modes (the ones that reach), the defense, from below."""

    def attack_form(
        self, state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
    ) -> AttackForm:
        attacker = state.combatant(attacker_id)
        defender = state.combatant(defender_id)
        variants = ruleset_of(state).attacks.attack_variants(state, attacker_id, defender_id)
        reaching = {(o.weapon_key, o.mode) for o in variants if isinstance(o, AttackOptions)}
        weapons = tuple(
            FormChoice(
                w.key, w.name, "" if any(k == w.key for k, _m in reaching) else OUT_OF_REACH
            )
            for w in attacker.fighter.weapons
        )
        allowed = [c.key for c in weapons if not c.problem]
        if not allowed:
            field = FormField("weapon", "Weapon", weapons, "", "The weapon")
            return AttackForm((field,), None, f"nothing of {attacker.name}'s reaches")
        weapon = _pick(entries, "weapon", allowed)
        modes = tuple(
            FormChoice(m.name, m.name, "" if (weapon, m.name) in reaching else OUT_OF_REACH,
                       f"{m.name}: {m.damage}")
            for m in attacker.fighter.weapon(weapon).modes
        )
        mode = _pick(entries, "mode", [c.key for c in modes if not c.problem])
        defenses = (
            FormChoice("dodge", "Dodge"),
            FormChoice("none", "No defense"),
            FormChoice("block", "Block", "" if defender.fighter.shield else "no shield"),
        )
        defense = _pick(entries, "defense", [c.key for c in defenses if not c.problem])
        below = entries.get("below", FLAG_OFF) == FLAG_ON
        fields = (
            FormField("weapon", "Weapon", weapons, weapon, "The attacker's weapon"),
            FormField("mode", "Mode", modes, mode),
            FormField("defense", "Defense", defenses, defense),
            FormField("below", "From below", (), FLAG_ON if below else FLAG_OFF,
                      "The blow comes from below", flag=True),
        )
        announced = () if defense == "none" else (DefenseChoice(DefenseKind(defense)),)
        choices = AttackOptions(weapon, mode, from_below=below)
        return AttackForm(fields, choices, answer=Seed000Answer(announced))


class RefusedForm:
    """One field, and choices the ruleset refuses (a knife swing at two hexes)."""

    def attack_form(
        self, state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
    ) -> AttackForm:
        field = FormField("weapon", "Weapon", (FormChoice("knife", "Knife"),), "knife")
        return AttackForm((field,), AttackOptions("knife", "swing"))


def knife_in_hand(state: BattleState) -> BattleState:
    """The demo with the spearman's long spear held in one hand, so that the knife
    he carries is in the other (rules.battle.hands): the form offers both."""
    spearman = state.combatant("c2")
    weapons = tuple(
        replace(w, two_handed=False) if w.key == "long-spear" else w
        for w in spearman.fighter.weapons
    )
    return state.with_combatants(
        replace(spearman, fighter=replace(spearman.fighter, weapons=weapons))
    )


def make_pane(qtbot, form: FormAttacks | None = None) -> tuple[AttackFormPane, BattleController]:
    controller = BattleController(Battle(knife_in_hand(demo_state()), SEED, get_ruleset))
    the_form = WeaponForm() if form is None else form
    pane = AttackFormPane(controller, lambda _state: the_form)
    qtbot.addWidget(pane)
    pane.resize(300, 640)
    pane.show()
    return pane, controller


@pytest.fixture
def spearman(qtbot) -> tuple[AttackFormPane, BattleController]:
    """The spearman (long spear, knife) attacks the fencer two hexes away."""
    pane, controller = make_pane(qtbot)
    controller.select("c2")
    controller.set_target("c4")
    return pane, controller


def choose(box: QComboBox, data: str) -> None:
    index = box.findData(data)
    assert index >= 0, data
    box.setCurrentIndex(index)


def enabled(box: QComboBox, index: int) -> bool:
    model = box.model()
    assert isinstance(model, QStandardItemModel)
    item = model.item(index)
    assert item is not None
    return item.isEnabled()


def test_the_pane_is_the_windows_attack_pane(spearman):
    pane, _controller = spearman
    assert pane.objectName() == "attackPane"
    assert pane.roll_button.objectName() == "rollButton"  # the window's Enter clicks it


def test_without_a_pair_there_is_no_form_and_no_roll(qtbot):
    pane, controller = make_pane(qtbot)
    assert pane.form is None and not pane.roll_button.isEnabled()
    assert "Select the attacker" in pane.arc_label.text()
    controller.select("c2")  # the fencer in the long spear's reach is its default target
    assert controller.target_id == "c4" and pane.form is not None
    controller.set_target(None)
    assert pane.form is None and "Choose a target" in pane.arc_label.text()
    assert not pane.fields_box.isVisibleTo(pane)


def test_fields_are_drawn_in_order_combos_and_a_check_box(spearman):
    pane, _controller = spearman
    assert pane.form is not None
    assert [f.key for f in pane.form.fields] == ["weapon", "mode", "defense", "below"]
    weapon = combo(pane, "weapon")
    assert [weapon.itemData(i) for i in range(weapon.count())] == ["long-spear", "knife"]
    assert weapon.currentData() == "long-spear"
    # what the field is, then the whole label of the choice taken (a long one is cut
    # off by the box's width)
    assert weapon.toolTip() == "The attacker's weapon\nLong spear"
    below = pane.field_widget("below")
    assert isinstance(below, QCheckBox) and not below.isChecked()
    below_caption = pane.findChild(QLabel, "fieldCaption_below")
    assert below_caption is not None and below_caption.buddy() is below
    assert below_caption.text().replace("&", "") == "From below"
    assert below.toolTip() == below_caption.toolTip() == "The blow comes from below"
    # each caption focuses its box, with a mnemonic of its own
    caption = pane.findChild(QLabel, "fieldCaption_weapon")
    assert caption is not None and caption.buddy() is weapon
    mnemonics = [pane.findChild(QLabel, f"fieldCaption_{k}").text() for k in ("weapon", "mode")]
    assert all("&" in m for m in mnemonics) and len({m.lower() for m in mnemonics}) == 2


def test_an_impossible_choice_is_greyed_with_its_reason(spearman):
    pane, _controller = spearman
    defense = combo(pane, "defense")  # the fencer has no shield
    block = defense.findData("block")
    assert not enabled(defense, block)
    assert defense.itemData(block, Qt.ItemDataRole.ToolTipRole) == "Not allowed: no shield"
    assert enabled(defense, defense.findData("dodge"))


def test_a_field_depends_on_an_earlier_one(spearman):
    """The knife: its swing and thrust do not reach two hexes, its throw does."""
    pane, _controller = spearman
    mode = combo(pane, "mode")
    assert [mode.itemData(i) for i in range(mode.count())] == ["thrust"]
    choose(combo(pane, "weapon"), "knife")
    mode = combo(pane, "mode")
    assert [mode.itemData(i) for i in range(mode.count())] == ["swing", "thrust", "throw"]
    assert [enabled(mode, i) for i in range(3)] == [False, False, True]
    assert mode.currentData() == "throw"
    assert mode.itemData(0, Qt.ItemDataRole.ToolTipRole).startswith(f"Not allowed: {OUT_OF_REACH}")
    # the box says what the choice taken means (its tooltip), under what the field is
    assert mode.toolTip().startswith("Mode\nthrow: throw: ")
    assert mode.accessibleName() == "Mode"
    assert pane.form is not None and pane.form.choices == AttackOptions("knife", "throw")
    assert pane.form.answer == Seed000Answer((DefenseChoice(DefenseKind.DODGE),))


def test_the_preview_is_the_rulesets_with_exact_odds(spearman):
    pane, controller = spearman
    below = pane.field_widget("below")
    assert isinstance(below, QCheckBox)
    below.setChecked(True)  # from below: a modifier to the defense in seed 000
    assert pane.form is not None and pane.form.choices is not None
    state = controller.state
    form = pane.form
    attacks = ruleset_of(state).attacks
    expected = attacks.preview_attack(state, "c2", "c4", form.choices, form.answer)
    assert pane.preview == expected
    assert pane.summary_label.text() == expected.summary
    assert sum(line.probability for line in expected.odds) == 1
    for line in expected.odds:
        assert pane.odds_text(line.label) == percent(line.probability)
        assert f"{line.probability.numerator}/{line.probability.denominator}" in (
            pane.odds_tooltip(line.label)
        )
    count = len(expected.modifiers)
    reasons = [pane.findChild(QLabel, f"modifierReason_{i}") for i in range(count)]
    assert len(expected.modifiers) >= 1
    for label, m in zip(reasons, expected.modifiers, strict=True):
        assert label is not None and escape(m.reason, quote=False) in label.text()
        assert str(m.citation) in label.toolTip()
    assert pane.findChild(QLabel, f"modifierReason_{len(expected.modifiers)}") is None
    assert pane.roll_button.isEnabled() and pane.error is None


def test_percent_and_the_exact_tooltip():
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"
    assert percent(Fraction(1, 216)) == "0.5%"
    assert percent(Fraction(1, 10**4)) == "<0.1%" and percent(Fraction(9999, 10**4)) == ">99.9%"
    assert exact_text(Fraction(37, 216)) == "exactly 37/216 (17.13%)"


def test_entries_stay_while_the_pair_stays(spearman):
    pane, controller = spearman
    choose(combo(pane, "weapon"), "knife")
    choose(combo(pane, "defense"), "none")
    assert pane.entries == {"weapon": "knife", "defense": "none"}
    controller.execute(TurnCombatant("c1", controller.state.combatant("c1").facing.turned(1)))
    assert combo(pane, "weapon").currentData() == "knife"
    assert combo(pane, "defense").currentData() == "none"
    controller.set_target("c3")  # another pair starts from the ruleset's defaults
    assert pane.entries == {}
    assert combo(pane, "defense").currentData() == "dodge"


def test_roll_executes_the_forms_choices(spearman):
    pane, controller = spearman
    choose(combo(pane, "defense"), "none")
    assert pane.form is not None
    choices, answer = pane.form.choices, pane.form.answer
    pane.roll_button.click()
    assert controller.battle.commands[-1] == Attack("c2", "c4", choices, answer)
    assert pane.last_label.text().startswith("Last roll: ")


def test_an_undone_roll_takes_its_last_roll_line_with_it_and_a_redo_brings_it_back(spearman):
    pane, controller = spearman
    choose(combo(pane, "defense"), "none")
    pane.roll_button.click()
    line = pane.last_label.text()
    assert line.startswith("Last roll: ")
    controller.undo()
    assert pane.last_label.text() == ""
    controller.redo()
    assert pane.last_label.text() == line
    # an undo of something else keeps the line
    controller.execute(TurnCombatant("c2", controller.state.combatant("c2").facing.turned(1)))
    controller.undo()
    assert pane.last_label.text() == line


def test_enter_rolls_and_ctrl_return_does_not(spearman, qtbot):
    pane, controller = spearman
    box = combo(pane, "weapon")
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert controller.battle.commands == ()
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert len(controller.battle.commands) == 1
    assert isinstance(controller.battle.commands[0], Attack)


def test_the_forms_problem_is_shown_instead_of_a_preview(qtbot):
    pane, controller = make_pane(qtbot)
    controller.select("c1")  # a broadsword, two hexes from the fencer
    controller.set_target("c4")
    assert pane.form is not None and pane.form.choices is None
    assert pane.error_label.isVisibleTo(pane)
    assert pane.error_label.text() == "Cannot roll: nothing of Sword-and-shield fighter's reaches"
    assert not pane.roll_button.isEnabled() and not pane.odds_box.isVisibleTo(pane)
    weapon = combo(pane, "weapon")  # no value: every weapon refused, each saying why
    assert weapon.currentIndex() == -1 and weapon.placeholderText() == "(none possible)"
    assert not enabled(weapon, 0)
    assert weapon.itemData(0, Qt.ItemDataRole.ToolTipRole) == f"Not allowed: {OUT_OF_REACH}"
    pane.roll()
    assert controller.battle.commands == ()
    # a step closer and it reaches: the preview takes the problem's place
    c4 = controller.state.combatant("c4")
    assert controller.execute(MoveCombatant("c1", c4.hex + c4.facing.vector)) is not None
    assert pane.form is not None and pane.form.choices is not None
    assert not pane.error_label.isVisibleTo(pane) and pane.roll_button.isEnabled()
    assert pane.odds_box.isVisibleTo(pane)


def test_a_refused_preview_shows_the_rules_message(qtbot):
    pane, controller = make_pane(qtbot, RefusedForm())
    controller.select("c2")
    controller.set_target("c4")
    state = controller.state
    with pytest.raises(IllegalAttackError) as refusal:
        ruleset_of(state).attacks.preview_attack(state, "c2", "c4", AttackOptions("knife", "swing"))
    assert pane.error == str(refusal.value)
    assert pane.error_label.text() == f"Cannot roll: {refusal.value}"
    assert not pane.roll_button.isEnabled() and pane.preview is None
    assert pane.command() is None


def test_a_changed_field_keeps_its_box_and_the_focus(spearman):
    pane, _controller = spearman
    box = combo(pane, "weapon")
    box.setFocus()
    choose(box, "knife")
    assert combo(pane, "weapon") is box
    assert box.hasFocus() or not pane.isActiveWindow()


class WithAttacks:
    """A ruleset whose attacks are wrapped in ``wrapper``."""

    def __init__(self, inner: object, wrapper: type) -> None:
        self._inner = inner
        self.attacks = wrapper(inner.attacks)

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


class LopsidedOdds:
    """Seed 000's attacks whose preview forgets the critical miss."""

    def __init__(self, inner: object) -> None:
        self._inner = inner

    def preview_attack(self, state, attacker_id, defender_id, choices, answer=None):
        preview = self._inner.preview_attack(state, attacker_id, defender_id, choices, answer)
        return replace(preview, odds=preview.odds[:-1])

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def test_odds_that_do_not_sum_to_one_are_flagged(spearman, monkeypatch):
    pane, _controller = spearman
    assert pane.findChild(QLabel, "oddsSumNote") is None
    real = attack_form_module.ruleset_of
    monkeypatch.setattr(
        attack_form_module, "ruleset_of", lambda s: WithAttacks(real(s), LopsidedOdds)
    )
    pane.refresh()
    assert pane.preview is not None
    missing = 1 - sum(line.probability for line in pane.preview.odds)
    assert missing > 0
    note = pane.findChild(QLabel, "oddsSumNote")
    assert note is not None and note.isVisibleTo(pane)
    assert note.text() == f"These odds sum to {exact_text(1 - missing)}, not 1."


def test_tab_goes_down_the_form_to_roll(spearman):
    pane, _controller = spearman
    assert pane.form is not None
    chain = [pane.attacker_combo, pane.target_combo]
    chain += [pane.field_widget(f.key) for f in pane.form.fields]
    chain.append(pane.roll_button)
    for first, second in itertools.pairwise(chain):
        assert first.nextInFocusChain() is second or _next_focusable(first) is second


def _next_focusable(widget):
    nxt = widget.nextInFocusChain()
    while nxt is not None and nxt is not widget and not (
        nxt.focusPolicy() & Qt.FocusPolicy.TabFocus and nxt.isVisibleTo(widget.window())
    ):
        nxt = nxt.nextInFocusChain()
    return nxt


def test_captions_leave_the_menus_and_the_panes_letters_alone(spearman):
    pane, _controller = spearman
    keys = ("weapon", "mode", "below")
    texts = [pane.findChild(QLabel, f"fieldCaption_{k}").text() for k in keys]
    letters = [text[text.index("&") + 1].lower() for text in texts]
    assert letters == ["w", "m", "o"]  # "From below": f is the File menu's, r Roll's


LONG_FLAG = (
    "The target moved more than ten metres this turn and the light is failing (both starred)"
)


class LongFlagForm(WeaponForm):
    """The weapon form with one more flag whose caption is a whole sentence."""

    def attack_form(
        self, state: BattleState, attacker_id: str, defender_id: str, entries: Mapping[str, str]
    ) -> AttackForm:
        form = super().attack_form(state, attacker_id, defender_id, entries)
        on = entries.get("long", FLAG_OFF)
        flag = FormField("long", LONG_FLAG, (), on, "A long one", flag=True)
        return AttackForm((*form.fields, flag), form.choices, form.problem)


def test_a_long_flag_caption_wraps_and_a_click_on_it_ticks(qtbot):
    pane, controller = make_pane(qtbot, LongFlagForm())
    controller.select("c2")
    controller.set_target("c4")
    # beside the map at 1366x768: the form needs no more than the pane's 300 pixels
    assert pane.fields_box.minimumSizeHint().width() <= 280
    caption = pane.findChild(QLabel, "fieldCaption_long")
    assert caption is not None and caption.wordWrap()
    qtbot.waitUntil(lambda: caption.height() > caption.fontMetrics().height() * 1.5)  # wrapped
    assert caption.mapTo(pane, caption.rect().topRight()).x() <= pane.width()
    assert caption.text().replace("&", "") == LONG_FLAG
    check = pane.field_widget("long")
    assert isinstance(check, QCheckBox) and not check.isChecked()
    qtbot.mouseClick(caption, Qt.MouseButton.LeftButton)
    assert pane.entries["long"] == FLAG_ON
    check = pane.field_widget("long")
    assert isinstance(check, QCheckBox) and check.isChecked()


class RenamedOdds(LopsidedOdds):
    """Seed 000's preview with a long caption on its first odds line."""

    def preview_attack(self, state, attacker_id, defender_id, choices, answer=None):
        preview = self._inner.preview_attack(state, attacker_id, defender_id, choices, answer)
        first = replace(preview.odds[0], label="critical hit, defender fumbles")
        return replace(preview, odds=(first, *preview.odds[1:]))


def odds_places(pane: AttackFormPane) -> list[tuple[int, int]]:
    assert pane.preview is not None
    labels = [pane.findChild(QLabel, f"odds_{i}") for i in range(len(pane.preview.odds))]
    return [(label.x(), label.y()) for label in labels if label is not None]


def test_short_odds_captions_pair_up_and_a_long_one_takes_its_own_line(spearman, qtbot,
                                                                         monkeypatch):
    pane, _controller = spearman
    qtbot.waitUntil(lambda: len(set(odds_places(pane))) == len(pane.preview.odds))
    places = odds_places(pane)
    assert places[0][1] == places[1][1] and places[0][0] < places[1][0]  # two to a row
    real = attack_form_module.ruleset_of
    monkeypatch.setattr(
        attack_form_module, "ruleset_of", lambda s: WithAttacks(real(s), RenamedOdds)
    )
    pane.refresh()
    qtbot.waitUntil(lambda: len({y for _x, y in odds_places(pane)}) == len(pane.preview.odds))
    places = odds_places(pane)
    assert len({x for x, _y in places}) == 1  # one column
    assert [y for _x, y in places] == sorted(y for _x, y in places)


class CertainOdds:
    """Seed 000's attacks, each certain to miss: one odds line."""

    def __init__(self, inner: object) -> None:
        self._inner = inner

    def preview_attack(self, state, attacker_id, defender_id, choices, answer=None):
        preview = self._inner.preview_attack(state, attacker_id, defender_id, choices, answer)
        return replace(preview, odds=(replace(preview.odds[0], label="miss",
                                              probability=Fraction(1)),))

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)


def test_a_single_odds_line_keeps_its_value_at_the_right_edge(spearman, qtbot, monkeypatch):
    """A lone "Miss 100%": the value stands where a column of odds ends, not mid-pane."""
    pane, _controller = spearman
    real = attack_form_module.ruleset_of
    monkeypatch.setattr(
        attack_form_module, "ruleset_of", lambda s: WithAttacks(real(s), CertainOdds)
    )
    pane.refresh()
    value = pane.findChild(QLabel, "odds_0")
    assert value is not None and value.text() == "100%"
    qtbot.waitUntil(lambda: value.isVisible() and value.width() > 0)
    right = value.mapTo(pane.odds_box, value.rect().topRight()).x()
    assert right >= pane.odds_box.width() - 2


def test_a_refresh_with_the_same_modifiers_keeps_their_rows(spearman):
    pane, controller = spearman
    first = pane.findChild(QLabel, "modifierReason_0")
    assert first is not None
    controller.execute(TurnCombatant("c1", controller.state.combatant("c1").facing.turned(1)))
    assert pane.findChild(QLabel, "modifierReason_0") is first  # nothing of the pair changed
