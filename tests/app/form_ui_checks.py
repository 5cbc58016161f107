"""Checks shared by the UI tests of the rulesets whose UI is the generic
``FormRulesetUI`` (app/rulesets/form_ui.py): the attack form pane opened from
the registry over a battle, its fields read back, its exact odds, the event
classes a ruleset's modules define (each must have a log line), and the
character editor opened on a combatant."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType

from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox

from app.character_editor import CharacterEditor
from app.controller import BattleController
from app.panes.attack_form import AttackFormPane
from app.rulesets import ruleset_ui
from rules.battle.battle import Battle
from rules.battle.commands import Attack
from rules.core.events import Event


def form_pane(  # type: ignore[no-untyped-def]
    qtbot, key: str, battle: Battle, attacker: str, defender: str
) -> tuple[AttackFormPane, BattleController]:
    """The attack pane of ruleset ``key`` (the generic form pane) over ``battle``,
    shown, with ``attacker`` selected and ``defender`` its target."""
    controller = BattleController(battle)
    pane = ruleset_ui(key).attack_pane(controller, None)
    assert isinstance(pane, AttackFormPane)
    qtbot.addWidget(pane)
    pane.show()
    controller.select(attacker)
    controller.set_target(defender)
    return pane, controller


def character_editor(  # type: ignore[no-untyped-def]
    qtbot, battle: Battle, combatant_id: str
) -> CharacterEditor:
    """The character editor on ``combatant_id`` of ``battle``, as the window opens it."""
    controller = BattleController(battle)
    state = controller.state
    dialog = CharacterEditor(controller.ruleset, state, state.combatant(combatant_id))
    qtbot.addWidget(dialog)
    return dialog


def combo(pane: AttackFormPane, key: str) -> QComboBox:
    box = pane.field_widget(key)
    assert isinstance(box, QComboBox)
    return box


def enabled(box: QComboBox, data: str) -> bool:
    model = box.model()
    assert isinstance(model, QStandardItemModel)
    item = model.item(box.findData(data))
    assert item is not None
    return item.isEnabled()


def assert_exact_odds(pane: AttackFormPane) -> str:
    """The pane is the window's attack pane and its preview's odds sum to 1
    exactly; its summary is returned for the ruleset's own checks."""
    assert pane.objectName() == "attackPane"
    assert pane.preview is not None
    assert sum(line.probability for line in pane.preview.odds) == 1
    return pane.preview.summary


def roll(pane: AttackFormPane, controller: BattleController) -> Attack:
    """Click Roll: the battle's last command, the ``Attack`` the form made."""
    pane.roll_button.click()
    command = controller.battle.commands[-1]
    assert isinstance(command, Attack)
    return command


def package_modules(package: ModuleType) -> tuple[ModuleType, ...]:
    """Every module of ``package`` (imported)."""
    return tuple(
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(package.__path__)
    )


def event_classes(modules: Iterable[ModuleType]) -> set[type[Event]]:
    """Every ``Event`` subclass that one of ``modules`` defines (not imports)."""
    found: set[type[Event]] = set()
    for module in modules:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, Event)
                and value.__module__ == module.__name__
            ):
                found.add(value)
    return found
