"""The widgets that one ruleset needs, found by the ruleset's key.

The generic window knows only ``RulesetUI``: the ruleset's attack pane, its part
of the inspector and its lines in the combat log. Each ruleset's UI lives in its
own package ``app.rulesets.<key>``; like ``rules.sets.registry``, this registry
names the object by ``"module:attribute"`` and imports that package only when a
battle of that ruleset first asks for it, so nothing outside ``app.rulesets``
names a ruleset package.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Protocol, cast

from PySide6.QtWidgets import QComboBox, QDockWidget, QToolButton, QWidget

from app.controller import BattleController
from app.event_text import LogFormatter
from rules.battle.model import Combatant
from rules.core.errors import RulesError

# key (as rules.sets.registry.RULESETS) -> "module:attribute" of its RulesetUI.
RULESET_UIS: Mapping[str, str] = MappingProxyType(
    {
        "000": "app.rulesets.seed000.ui:SEED000_UI",
        "002": "app.rulesets.seed002.ui:SEED002_UI",
        "003": "app.rulesets.seed003.ui:SEED003_UI",
        "004": "app.rulesets.seed004.ui:SEED004_UI",
    }
)


@dataclass(frozen=True)
class InspectorControls:
    """The generic inspector's own controls that a ruleset's section may place
    inside its layout (beside its own choices, over its gear); the inspector pane
    fills and answers them."""

    posture: QComboBox  # the combatant's posture (SetPosture)
    drop: QToolButton  # the deliberate-drop menu of weapons and shield
    ready: QToolButton  # the menu of unready weapons and shield to ready (ReadyWeapon)


class InspectorSection(Protocol):
    """A ruleset's part of the inspector: the sheet and state of the shown
    combatant as that ruleset reads them (stats, defenses, wounds, gear)."""

    @property
    def widget(self) -> QWidget:
        """The section's widget, placed under the inspector's header."""
        ...

    def show_combatant(self, combatant: Combatant | None) -> None:
        """Show ``combatant`` (None: nobody is selected; clear and disable)."""
        ...


class RulesetUI(Protocol):
    """What the generic window needs from one ruleset's UI."""

    @property
    def log_formatter(self) -> LogFormatter:
        """The short lines, tones and row grouping of the ruleset's events."""
        ...

    def attack_pane(self, controller: BattleController, parent: QWidget | None) -> QDockWidget:
        """The attack pane, a dock with the object name ``attackPane``."""
        ...

    def inspector_section(
        self, controller: BattleController, controls: InspectorControls
    ) -> InspectorSection | None:
        """The ruleset's part of the inspector; None when the generic parts say
        all there is."""
        ...


_loaded: dict[str, RulesetUI] = {}


def ruleset_ui_keys() -> tuple[str, ...]:
    return tuple(RULESET_UIS)


def ruleset_ui(key: str) -> RulesetUI:
    """The UI of the ruleset ``key`` (imported on first use, then shared);
    ``RulesError`` for a ruleset without one."""
    ui = _loaded.get(key)
    if ui is not None:
        return ui
    try:
        target = RULESET_UIS[key]
    except KeyError:
        raise RulesError(
            f"no UI for ruleset {key!r} (known: {', '.join(sorted(RULESET_UIS))})"
        ) from None
    module_name, _, attribute = target.partition(":")
    ui = cast(RulesetUI, vars(importlib.import_module(module_name))[attribute])
    _loaded[key] = ui
    return ui
